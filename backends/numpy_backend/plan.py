"""How one fusion group runs block by block: the block shape and the scratch buffers.

A group iterates over its ``domain`` (say ``(R, C)``). The plan picks a block axis
``k`` and a block length ``B``: a block is one index along each axis before ``k``,
the range ``[lo, lo + B)`` along ``k``, and everything after ``k``. Every value of
the group is cut the same way (broadcast axes of size 1 are not cut), so NumPy's
broadcasting inside a block is the broadcasting of the whole arrays.

``B`` is chosen so that one block's working set (slices of the inputs and outputs
plus the scratch buffers) fits in ``cache_fraction`` of the L2 cache. Reductions over
trailing axes force ``k`` before them, so a block holds whole rows and reduces them
exactly as eager does (softmax, layernorm). A reduction over every axis whose
partial results combine exactly (max, min, any, all, integer sums) runs as one partial
result per block, combined after the loop; a float sum, mean or product does not
(``_rounds_per_block``: the group takes the plain path).

Scratch buffers are per thread; a value whose last reader has run gives its buffer
back, so the next op can write into it (in place, when it was that op's input).

Example::

    >>> (group,) = partition(optimize(softmax_graph), whole_rows=True)   # x: (10000, 1000) f4
    >>> plan = plan_group(group, Options.parse({"threads": 2}))         # 2 MiB L2
    >>> plan.axis, plan.block, plan.nblocks, len(plan.slots), plan.threads
    (0, 87, 115, 1, 2)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from dynamo import ops
from dynamo.graph import CALL, Node
from dynamo.ops import ELEMENTWISE, VIEW
from dynamo.ops.node_facts import array_meta, returns_fresh
from dynamo.symbolic import Symbolic

from ..fusion import COMBINE, Group
from .options import Options


@dataclass
class Slot:
    """One scratch buffer of each thread."""

    shape: tuple         # its shape in a full block
    dtype: np.dtype
    sliced: bool         # cut to the block's length in a short last block


@dataclass
class BlockPlan:
    group: Group
    domain: tuple
    axis: int            # k: blocks hold one index of each axis before it
    block: int           # B: indices of axis k per block
    per_axis: int        # blocks along axis k
    nblocks: int
    partial: bool        # the reductions run per block and combine after the loop
    threads: int
    recycle: bool = False  # outputs from a runtime.Recycler, not np.empty
    row_buffer: int = 0    # > 0: elementwise members run with a ufunc buffer of one row
    slots: list[Slot] = field(default_factory=list)
    slot_of: dict[Node, int] = field(default_factory=dict)
    hoisted: list[Node] = field(default_factory=list)  # run once, before the blocks

    # -------------------------------------------------------------- cutting values
    def _offset(self, shape: tuple) -> int:
        return len(self.domain) - len(shape)

    def index(self, shape: tuple) -> str:
        """The subscript that cuts a value of ``shape`` to the current block ("" if none)."""
        off, parts = self._offset(shape), []
        for a in range(self.axis):
            if a >= off:
                parts.append(f"_i{a}" if shape[a - off] == self.domain[a] else "0")
        if self.axis >= off:
            parts.append("_lo:_hi" if shape[self.axis - off] == self.domain[self.axis] else ":")
        while parts and parts[-1] == ":":
            parts.pop()
        return f"[{', '.join(parts)}]" if parts else ""

    def block_shape(self, shape: tuple) -> tuple:
        """The shape of a value of ``shape`` in a full block."""
        off, out = self._offset(shape), []
        for a in range(max(self.axis, off), len(self.domain)):
            d = shape[a - off]
            out.append((self.block if d == self.domain[a] else 1) if a == self.axis else d)
        return tuple(out)

    def sliced(self, shape: tuple) -> bool:
        off = self._offset(shape)
        return self.axis >= off and shape[self.axis - off] == self.domain[self.axis]

    def repeats(self, shape: tuple) -> list[str]:
        """Conditions true in one block only, for values the same in many blocks."""
        off, conds = self._offset(shape), []
        for a in range(self.axis):
            if a < off or shape[a - off] != self.domain[a]:
                conds.append(f"_i{a} == 0")
        if not self.sliced(shape) and self.domain[self.axis] > 1:
            conds.append("_q == 0")
        return conds


def static_shape(shape) -> bool:
    """Every size is a number (a SymInt, an int whose value changes, is not: the size
    of a slice that grows with a loop's index, see ``dynamo/translator/loops.py``)."""
    return all(isinstance(d, (int, np.integer)) and not isinstance(d, Symbolic)
               for d in shape)


def uses_out(node: Node) -> bool:
    """The member runs as a ufunc that can write into a given buffer (``out=``)."""
    return node.meta.get("kind") == ELEMENTWISE and isinstance(ops.get(node.target).impl,
                                                                np.ufunc)


def plan_group(group: Group, options: Options, spilling: bool = False) -> BlockPlan | None:
    """The block plan of a fusible group, or None when it takes the plain path.

    With ``spilling`` (asked after a flat plan was not worth it: a stencil's flat
    plan writes into its target and keeps no buffer) a group below
    ``min_blocked_elements`` is planned too when its plain path spills the cache."""
    domain = group.domain
    if domain is None or group.epilogue or not static_shape(domain) or \
            any(not static_shape(array_meta(n).shape) or array_meta(n).kind != "numpy"
                for n in group.nodes):
        return None
    size = math.prod(domain)
    small = size < max(options.min_blocked_elements, 1)
    if size == 0 or small and not (spilling and _spills_cache(group, size, options)):
        return None
    members = set(group.nodes)
    partial, kmax = False, len(domain) - 1
    if group.reductions:
        if len(group.axes) == len(domain):
            read_inside = any(u in members for r in group.reductions for u in r.users)
            if read_inside or any(r.target not in COMBINE or _rounds_per_block(r)
                                  for r in group.reductions):
                return None
            partial = True
        else:
            kmax = group.axes[0] - 1
            if kmax < 0:
                return None
    plan = _blocks(group, domain, kmax, partial, options, scratch=2)
    _assign_slots(plan)
    plan = _blocks(group, domain, kmax, partial, options, scratch=len(plan.slots))
    _assign_slots(plan)
    plan.recycle = options.recycle_outputs
    plan.row_buffer = _row_buffer(group, domain, plan.axis)
    return plan


def _spills_cache(group: Group, size: int, options: Options) -> bool:
    """The plain path of a group below ``min_blocked_elements`` would hold more bytes
    of intermediates at once than ``blocked_working_set`` caches: full-size values
    that members write and other members read back, none of them an output (inputs
    and outputs go through memory on either path; blocks keep only the intermediates
    in the L2 cache). A long elementwise chain over strided views counts as one over
    contiguous arrays: its members' results are new arrays either way.

    What counts is the most alive at once (``_peak_live``), not their sum: the plain
    path frees each value at its last reader, and the next result takes that memory,
    still in the cache, so a chain whose values die at once streams nothing however
    long it is. Summed, the red-black relaxation of corpus 5 (ten ops over strided
    (200, 200) float64 views, at most three 320 KB values alive) ran block-wise, three
    blocks of ten NumPy calls each: 0.82x plain NumPy, 1.10x on the plain path.

        >>> # 2x2 eigenvalues: 19 members, 16 full-size intermediates (1.6 MB each):
        >>> # four of them and a mask alive at once, 6.6 MB
        >>> _spills_cache(eig_group, 200_000, Options(cache_bytes=1 << 19,
        ...                                           blocked_working_set=2.0))  # > 1 MiB
        True
        >>> _spills_cache(eig_group, 200_000, Options(cache_bytes=1 << 20))    # < 12 MiB
        False
    """
    if options.blocked_working_set <= 0 or size < 2 * max(options.min_block_elements, 1):
        return False
    # A large input this graph computed (the row gather ``ii[r1]``) lives until the
    # blocks end, where the plain path frees or reuses it at its last reader: four such
    # inputs doubled the peak memory of the integral-image box filter
    # (scripts/realworld_programs6.py: 1.97x plain's, 0.98x without blocks).
    if any(_computed(n) and _at_least_half(n, size) for n in group.inputs):
        return False
    # One intermediate alone is written and read back once by the plain path (often
    # in place: min-max rescaling divides into ``x - lo``'s array), data that fits the
    # L3 cache below min_blocked_elements; its blocks' calls cost more than that pass:
    # corpus 5's min-max rescale, (50000, 32) float64, ran block-wise at 0.93x plain
    # NumPy, on the plain path at 1.04x.
    outputs = set(group.outputs)
    if sum(n not in outputs and _full_size(n, size) for n in group.nodes) < 2:
        return False
    return _peak_live(group, size) > options.blocked_working_set * options.cache_bytes


def _peak_live(group: Group, size: int) -> int:
    """The most bytes of full-size intermediates the plain path holds at once: a
    member's result is alive from its op (its operands still are, during it) to its
    last reader's op.

        >>> # t = a + b; u = t * 2; v = u - a; w = t * v (outputs: w; 8 bytes each)
        >>> _peak_live(group, 1000)            # t, u, v alive while v is computed
        24000
    """
    outputs, last = set(group.outputs), {}
    for i, n in enumerate(group.nodes):
        for inp in n.inputs():
            last[inp] = i
    live = peak = 0
    dying: dict[int, int] = {}
    for i, n in enumerate(group.nodes):
        if n not in outputs and _full_size(n, size) and n in last:
            nbytes = size * array_meta(n).dtype.itemsize
            live += nbytes
            dying[last[n]] = dying.get(last[n], 0) + nbytes
        peak = max(peak, live)
        live -= dying.pop(i, 0)
    return peak


def _computed(node: Node) -> bool:
    """An array this graph allocated: not an argument, a view of one or an argument
    written in place (a gather ``ii[r1]`` is computed; ``m[:, 0, 0]`` and ``x += y``
    are not)."""
    while node.op == CALL and (basic_index(node.args[1]) if node.target == "getitem" else
                               ops.get(node.target).kind == VIEW):
        node = node.args[0]
    return node.op == CALL and (node.target == "getitem" or returns_fresh(node))


def basic_index(index) -> bool:
    """``x[index]`` is a view: ints, slices with constant bounds, None, ``...``."""
    parts = index if isinstance(index, tuple) else (index,)
    return all(type(p) in (int, slice, type(None)) or p is Ellipsis for p in parts) and \
        all(not isinstance(v, Node) for p in parts if type(p) is slice
            for v in (p.start, p.stop, p.step))


def _at_least_half(node: Node, size: int) -> bool:
    meta = array_meta(node)
    return meta is not None and not meta.scalar and static_shape(meta.shape) and \
        2 * meta.size >= size


def _full_size(node: Node, size: int) -> bool:
    meta = array_meta(node)
    return meta is not None and not meta.scalar and static_shape(meta.shape) and \
        meta.size == size


def _rounds_per_block(node: Node) -> bool:
    """A float (or complex) sum, mean or product over every axis: per-block partial
    results round at other points than NumPy's one pairwise sum (or left-to-right
    product) over the whole array, so their combination may differ in the last bits.
    Such a group takes the plain path, whose one ``ufunc.reduce`` call is eager's.

        >>> # x: 4M float32; eager (x * 3).sum() == 1653.866455078125, per-block 1653.8662109375
    """
    return node.target in ("sum", "mean", "prod") and array_meta(node).dtype.kind in "fc"


def _blocks(group: Group, domain: tuple, kmax: int, partial: bool, options: Options,
            scratch: int) -> BlockPlan:
    size = math.prod(domain)
    full = [array_meta(n) for n in (*group.inputs, *group.outputs)]
    per_element = sum(m.dtype.itemsize for m in full if m is not None and m.size == size)
    per_element += scratch * max(array_meta(n).dtype.itemsize for n in group.nodes)
    target = max(1, int(options.cache_bytes * options.cache_fraction) // max(per_element, 1))
    k = next((k for k in range(kmax + 1) if math.prod(domain[k + 1:]) <= target), kmax)
    inner = math.prod(domain[k + 1:])
    block = max(1, min(domain[k], max(target, options.min_block_elements) // inner))
    per_axis = -(-domain[k] // block)
    block = -(-domain[k] // per_axis)          # even blocks: the last is not a sliver
    nblocks = math.prod(domain[:k]) * per_axis
    threads = options.threads if size >= options.min_threaded_elements and nblocks > 1 else 1
    return BlockPlan(group, domain, k, block, per_axis, nblocks, partial,
                     min(threads, nblocks))


def _assign_slots(plan: BlockPlan) -> None:
    """Give each member that writes with ``out=`` a scratch buffer, reusing dead ones
    (a hoisted member gets none: it runs once, outside the blocks)."""
    plan.hoisted = block_invariant(plan)
    nodes, outputs, hoisted = plan.group.nodes, set(plan.group.outputs), set(plan.hoisted)
    last_read: dict[Node, int] = {}
    for i, n in enumerate(nodes):
        for inp in n.inputs():
            last_read[inp] = i
    free: dict[tuple, list[int]] = {}
    plan.slots, plan.slot_of = [], {}
    for i, n in enumerate(nodes):
        for inp in n.inputs():
            if inp in plan.slot_of and last_read[inp] == i:
                free.setdefault(_key(plan, inp), []).append(plan.slot_of[inp])
        if n in hoisted:
            continue
        if uses_out(n) and (n not in outputs or plan.repeats(array_meta(n).shape)):
            key = _key(plan, n)
            if free.get(key):
                plan.slot_of[n] = free[key].pop()
            else:
                meta = array_meta(n)
                plan.slot_of[n] = len(plan.slots)
                plan.slots.append(Slot(plan.block_shape(meta.shape), meta.dtype,
                                       plan.sliced(meta.shape)))


def block_invariant(plan: BlockPlan) -> list[Node]:
    """The elementwise members whose values are the same in every block: they read only
    values no block cuts (a row of column statistics, constants) and each other. They
    run once before the blocks instead of once per block, as eager runs them once.

    Min-max rescaling of (50000, 32) columns, ``(x - lo) / np.where(span > 0, span,
    1.0)`` with ``span = hi - lo`` of shape (32,), ran ``hi - lo``, ``span > 0`` and
    ``np.where`` in each of its 98 blocks: about 300 NumPy calls of 32 elements.

        >>> [n.name for n in block_invariant(plan)]     # (domain (50000, 32), axis 0)
        ['subtract', 'greater', 'where']

    Not outputs (their write is the block's, ``plan.repeats``) nor reductions.
    """
    group = plan.group
    members, outputs, same = set(group.nodes), set(group.outputs), set()

    def uncut(n: Node) -> bool:
        if n in members:
            return n in same
        meta = array_meta(n)
        return meta is None or meta.scalar or plan.index(meta.shape) == ""
    for n in group.nodes:
        meta = array_meta(n)
        if n.meta.get("kind") == ELEMENTWISE and n not in outputs and \
                n not in group.reductions and meta is not None and \
                (meta.scalar or plan.index(meta.shape) == "") and all(map(uncut, n.inputs())):
            same.add(n)
    return [n for n in group.nodes if n in same]


def _key(plan: BlockPlan, node: Node) -> tuple:
    meta = array_meta(node)
    return plan.block_shape(meta.shape), meta.dtype, plan.sliced(meta.shape)


# --------------------------------------------------------------------------- row buffers

# Rows at least this long run faster with a buffer of one row (measured: (R, 256)
# 0.36 instead of 0.49 ns per element; shorter rows gain little or lose).
MIN_ROW_BUFFER = 256
# On the plain path, a single op needs this many elements to gain more than the
# switch costs (about 0.3 us: two context switches and a `with`).
MIN_PLAIN_ROW_BUFFER = 8192


def _row_buffer(group: Group, domain: tuple, k: int) -> int:
    """The row length when an elementwise member broadcasts a column over whole rows.

    ``x - m`` with ``m`` of shape ``(R, 1)`` has no inner loop longer than a row;
    NumPy then copies ``m`` into a buffer of several rows first, unless its buffer
    holds only one (``runtime.row_buffer``). 0 when no member does that, when
    blocks cut rows, or when rows are short.
    """
    row = domain[-1]
    if k >= len(domain) - 1 or row < MIN_ROW_BUFFER:
        return 0
    return row if any(map(_broadcasts_column, group.nodes)) else 0


def plain_row_buffer(node: Node) -> int:
    """The row length when the plain path should run ``node`` with a row buffer, else 0."""
    meta = array_meta(node)
    if meta is None or meta.scalar or meta.ndim < 2 or \
            not static_shape(meta.shape) or meta.shape[-1] < MIN_ROW_BUFFER or \
            meta.size < MIN_PLAIN_ROW_BUFFER:
        return 0
    return meta.shape[-1] if _broadcasts_column(node) else 0


def _broadcasts_column(node: Node) -> bool:
    """An elementwise op with an array operand of one column (last extent 1)."""
    if node.meta.get("kind") != ELEMENTWISE:
        return False
    return any(m is not None and not m.scalar and m.ndim >= 1 and m.shape[-1] == 1
               for m in map(array_meta, node.inputs()))
