"""Stencils over shifted 2-D (or 3-D...) slices as one-dimensional passes (issue #15,
cause 3 and 4).

A stencil step such as ::

    B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[:-2, 1:-1] + A[2:, 1:-1]
                           + A[1:-1, :-2] + A[1:-1, 2:])

reads five views of ``A`` whose rows are ``m`` elements apart (``A`` is ``(n, m)``
and C-contiguous). NumPy runs each op over such 2-D views one row at a time (its
iterator does not collapse axes with a gap between rows): 0.9 ns an element here,
against 0.5 ns for the same op over 1-D contiguous operands. But element ``(i, j)``
of every one of these views lies ``i * m + j`` elements after the view's first, so
the 1-D slices of ``A.reshape(-1)`` from each view's first to its last element line
up element by element: ``A.reshape(-1)[m + 1: m + 1 + L]`` is ``A[1:-1, 1:-1]`` with
the ``m - w`` elements between two rows (the boundary columns) in the gaps, where
``L = (h - 1) * m + w``. Each op of the chain then runs once over 1-D slices into a
1-D scratch buffer; the gap elements hold values nobody reads. The result is the
scratch buffer seen with rows ``m`` apart, which the ``setitem`` copies out::

    def _flat0(getitem, getitem_1, getitem_2, getitem_3, getitem_4, A):
        if not (_flat_on0[0] and A.flags.c_contiguous):
            return _plain0(getitem, getitem_1, getitem_2, getitem_3, getitem_4)
        try:
            _f0 = A.reshape(-1)
            _r = _flat_out0.take()             # recycled: no page faults per call
            _s = _scratch0.take()
            try:
                _s0, = _s
                add = _add(_f0[501:249499], _f0[1:248999], out=_s0)
                ...
                multiply = _multiply(0.2, add_3, out=_r[:248998])
            finally:
                _scratch0.give(_s)
            return (_r.reshape(498, 500)[:, :498], )
        except Exception:                      # (see below)
            _result = _plain0(getitem, getitem_1, getitem_2, getitem_3, getitem_4)
            _flat_on0[0] = False
            return _result

Every element the program sees goes through the same ops in the same order as in
eager (no reassociation: bit-identical). The gap elements may meet a floating-point
condition eager's ops never meet (an overflow in a boundary column). The group runs as
a block-wise group does, in a stretch under ``runtime.guard``, where a condition the
caller would see raises FloatingPointError (and an integer power raises ValueError
for a negative exponent in a gap as well); the group then runs ``_plain``, which
raises it again when the values themselves meet it (the stretch then runs again op by
op, as eager), and otherwise returns eager's result and turns the flat pass off for
this group (a boundary that meets it once will likely meet it again).

When the value's one reader is ``B[a:b, c:d] = value`` into another array with rows
``m`` long and the value's (float or complex) dtype (``flat_direct.Target``), the last
op writes straight into ``B.reshape(-1)``'s range of that window, and the function
returns ``B[a:b, c:d]`` itself, which the ``setitem`` then copies onto itself: NumPy
skips a copy between identical views, so the value goes over memory once less (Jacobi
500x500, 10 steps: 1.7-1.8x plain NumPy -> 2.3-2.75x, CPU time). The members whose
values lead to the last one run in that range too (``flat_direct.in_target``). Its
gaps are ``B``'s own elements outside the window, saved before the first op and put
back after. Only for windows of ``flat_direct.MIN_DIRECT_ELEMENTS`` or more, and only
where exact, checked per call (``flat_direct.direct_check``: ``B`` shares no memory
with what the group reads, eager would not raise on a floating-point condition, no
other Python thread runs); where eager would raise, ``B`` keeps its old values: the
value goes through the group's own buffer. And only where the ``setitem`` is the very
next step (codegen: no step in between may read ``B``'s old values). See
``flat_direct.py``.

Three or more axes line up the same way: element ``(i, j, k)`` of a window of a
C-contiguous ``(n, p, m)`` array lies ``i * p * m + j * m + k`` after the window's
first, so windows of arrays with the same shape after the first axis (``trailing``)
line up in their 1-D views, the gaps holding the boundary columns and the boundary
rows of each plane (``flat_windows.py``). The result is the buffer seen as
``(h, p, m)[:, :q, :w]``, or written straight into a 2-D or 3-D target (four or more
axes: the buffer and the ``setitem``'s copy).

The flat pass is chosen when (``flat_plan``): the group is elementwise ufuncs (two or
more) over one static domain of two or more axes with no broadcasting, every array
input is a basic slice with unit steps of an array with the domain's number of axes,
all with the same shape after the first axis (or an array of the domain's shape), the
gaps waste at most half the work (a pass over a view runs row by row), and the
result is read only as the value of ``setitem``\\ s (``x[...] = value`` copies it: the
strided view never escapes) or of in-place updates (``w -= value``: ``_updates_with``;
``flat_updates.py`` runs the update itself as a 1-D pass where it can). At run time
every sliced array must be C-contiguous; otherwise the group runs op by op (``_plain``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from dynamo import ops
from dynamo.graph import CALL, CONSTANT, Node
from dynamo.ops.node_facts import array_meta

from ..fusion import ELEMENTWISE_GROUP, Group
from . import runtime
from .flat_direct import (
    Target,
    copies_value,
    direct_check,
    flatten,
    in_target,
    restore_gaps,
    save_gaps,
    shared,
    target_of,
)
from .flat_windows import has_gaps, range_length, strides, window_offset
from .module import Module, call_out, plain_name
from .options import Options
from .plan import static_shape, uses_out

# Domains smaller than this stay on the plain path: the group function's own cost
# (checks, views, scratch) is a few microseconds.
MIN_FLAT_ELEMENTS = 2048
# On threads, the range is cut into pieces of about this many elements (a piece's
# operands and scratch stay in the L2 cache; measured on one thread, 1-D passes of
# 65536 float64 ran as fast as over the whole 500x500 range).
CHUNK = 1 << 16


@dataclass
class FlatPlan:
    """How a stencil group runs as 1-D passes (see the module docstring)."""

    group: Group
    domain: tuple                  # (h, w), or (h, ..., w) for three or more axes
    row: int                       # m: elements from one row of every operand to the next
    length: int                    # L = (h - 1) * m + w (2-D; see ``flat_plan``)
    # input -> (array whose 1-D view it reads, offset of its first element in it)
    sources: dict[Node, tuple[Node, int]] = field(default_factory=dict)
    slots: list = field(default_factory=list)     # dtypes of the scratch buffers
    slot_of: dict[Node, int] = field(default_factory=dict)
    threads: int = 1
    chunks: int = 1                # pieces of the 1-D range the threads share
    chunk: int = 0                 # elements of one piece
    # the setitem that writes the value, when the last member may write straight into
    # its array (``Target``); codegen drops it where another step runs in between
    target: Target | None = None
    # the sources' arrays' shape after the first axis: ``(m,)`` for 2-D, ``(p, m)`` for
    # 3-D (a window's element ``(i, j, k)`` lies ``i * p * m + j * m + k`` after its first)
    trailing: tuple = ()

    @property
    def parents(self) -> list[Node]:
        """The arrays the group reads 1-D views of."""
        return list(dict.fromkeys(p for p, _ in self.sources.values()))

    @property
    def extra_inputs(self) -> list[Node]:
        """Inputs of the group's function after the group's own: the parents, then the
        target's array."""
        extra = self.parents + ([self.target.array] if self.target is not None else [])
        return [n for n in dict.fromkeys(extra) if n not in self.group.inputs]


def flat_plan(group: Group, returned, options: Options) -> FlatPlan | None:
    """The flat plan of ``group``, or None when it does not fit (module docstring)."""
    domain = group.domain
    if group.kind != ELEMENTWISE_GROUP or group.reductions or group.epilogue or \
            domain is None or len(domain) < 2 or not static_shape(domain) or \
            len(group.nodes) < 2 or len(group.outputs) != 1 or \
            math.prod(domain) < MIN_FLAT_ELEMENTS:
        return None
    for node in group.nodes:
        meta = array_meta(node)
        if not uses_out(node) or node.kwargs or meta is None or meta.kind != "numpy" \
                or tuple(meta.shape) != tuple(domain):
            return None
    (out,) = group.outputs
    if out in flatten(returned) or not out.users or not all(
            copies_value(u, out) or _updates_with(u, out) for u in out.users):
        return None
    sources: dict[Node, tuple[Node, int]] = {}
    rows = set()
    for node in group.inputs:
        meta = array_meta(node)
        if meta is None or meta.scalar or meta.ndim == 0:
            continue   # a scalar (or a 0-d array) broadcasts over 1-D as over 2-D
        if tuple(meta.shape) != tuple(domain) or meta.kind != "numpy":
            return None
        found = _sliced(node, domain)
        if found is None:
            return None
        parent, trailing, offset = found
        rows.add(trailing)
        sources[node] = (parent, offset)
    if len(rows) != 1:
        return None
    if not all(copies_value(u, out) for u in out.users) and \
            all(parent is node for node, (parent, _) in sources.items()):
        # an update of whole arrays (Adam's ``W -= lr * m / (np.sqrt(v) + eps)``) is no
        # stencil: its 2-D operands are contiguous already, and NumPy's freed temporaries
        # serve it as well as the pass's buffers
        return None
    (trailing,) = rows
    # from the first element of a window to its last, in the 1-D view: (h - 1) * m + w
    # for 2-D, (h - 1) * p * m + (q - 1) * m + w for a (h, q, w) window of (., p, m)
    length = range_length(domain, trailing)
    # The gaps may take up to half the range: NumPy's loop over a 2-D or 3-D view runs
    # row by row, slowest where rows are short (an add of two shifted views took, as
    # a 1-D pass over the range, 0.17 of its time on 2000x6 with 50% gaps, 0.22 on
    # 1000x10 with 25%, 0.40 on 200x130 with 2%; 0.34-0.47 on 12^3 to 64^3 grids with
    # 7-41%; CPU time, 2026-12-04)
    if length * 2 > math.prod(domain) * 3:
        return None
    plan = FlatPlan(group, tuple(domain), strides(trailing)[0], length, sources,
                    trailing=trailing)
    plan.target = target_of(plan, out)
    _assign_slots(plan)
    plan.chunks, plan.chunk = 1, length
    if options.threads > 1 and math.prod(domain) >= options.min_threaded_elements:
        plan.chunks = max(options.threads, -(-length // CHUNK))
        plan.chunk = -(-length // plan.chunks)
        plan.threads = min(options.threads, plan.chunks)
    return plan


def _updates_with(user: Node, value: Node) -> bool:
    """``user`` is an in-place ufunc that reads ``value`` into another array,
    ``np.subtract(w, value, out=w)``: what ``w -= value`` (``u[1:-1, 1:-1] -= c * (...)``,
    a window updated by a stencil's value) becomes. The ufunc reads the value's
    elements, writes ``w`` and returns ``w``: the value (a strided view of the flat
    pass's buffer) never escapes, and eager's op runs as it is, after the value is
    whole (a window of ``u`` read by the stencil is read before ``u`` is written).

        >>> _updates_with(isub_node, value_node)     # u[1:-1, 1:-1] -= value
        True
    """
    if user.op != CALL or set(user.kwargs) != {"out"} or not uses_out(user):
        return False
    target = user.kwargs["out"]
    impl = ops.get(user.target).impl
    return isinstance(target, Node) and target is not value and \
        len(user.args) == impl.nin and impl.nout == 1 and \
        any(a is value for a in user.args)


def _sliced(node: Node, domain: tuple) -> tuple[Node, tuple, int] | None:
    """``(array, its shape after the first axis, offset)`` when ``node`` is
    ``array[a:b, c:d]`` (``array[a:b, c:d, e:f]`` for a 3-D domain...; unit steps,
    constant bounds) of an array of static shape with the domain's number of axes, or
    an array of the domain's shape itself; else None."""
    if node.op == CALL and node.target == "getitem" and len(node.args) == 2 and \
            not node.kwargs and isinstance(node.args[0], Node):
        parent, index = node.args
        meta = array_meta(parent)
        if meta is None or meta.scalar or meta.ndim != len(domain) or \
                not static_shape(meta.shape) or meta.dtype != array_meta(node).dtype or \
                meta.kind != "numpy":
            return None
        offset = window_offset(index, meta.shape, domain)
        return None if offset is None else \
            (parent, tuple(int(n) for n in meta.shape[1:]), offset)
    if node.op == CONSTANT:
        return None
    return node, tuple(int(n) for n in domain[1:]), 0


def _assign_slots(plan: FlatPlan) -> None:
    """A scratch buffer for each member but the last (which writes the result), a dead
    value's buffer taken again by the next member of its dtype."""
    nodes = plan.group.nodes
    last_read = {inp: i for i, n in enumerate(nodes) for inp in n.inputs()}
    free: dict = {}
    for i, node in enumerate(nodes[:-1]):
        for inp in node.inputs():
            if inp in plan.slot_of and last_read[inp] == i:
                free.setdefault(array_meta(inp).dtype, []).append(plan.slot_of[inp])
        dtype = array_meta(node).dtype
        if free.get(dtype):
            plan.slot_of[node] = free[dtype].pop()
        else:
            plan.slot_of[node] = len(plan.slots)
            plan.slots.append(dtype)


def emit_flat(m: Module, plan: FlatPlan, index: int, plain: str) -> str:
    """Define ``_flat<index>`` (the group's inputs, then ``plan.extra_inputs``); return
    its name. ``plain``: the group's op-by-op function, for other layouts."""
    group = plan.group
    name_of = plain_name(m)
    ins = [name_of(n) for n in group.inputs]
    parents = plan.parents
    extra = [p.name for p in plan.extra_inputs]
    fn = f"_flat{index}"
    # [True] until the gaps once met a condition the values did not (see ``_emit_body``)
    on = m.bind([True], f"flat_on{index}")
    m.emit(0, f"def {fn}({', '.join(ins + extra)}):")
    checks = " and ".join(f"{name_of(p)}.flags.c_contiguous" for p in parents)
    m.emit(1, f"if not ({on}[0] and {checks}):")
    m.emit(2, f"return {plain}({', '.join(ins)})")
    if plan.target is not None:
        m.emit(1, "_direct = False")
    m.emit(1, "try:")
    if plan.target is not None:
        m.emit(2, f"_direct = {direct_check(m, plan)}")
        m.emit(2, "if _direct:")
        _emit_body(m, plan, index, 3, direct=True)
    _emit_body(m, plan, index, 2)
    m.emit(1, "except Exception:")
    # a condition under runtime.guard (or an integer power's negative exponent...):
    # the values' own (the op by op run raises it too) or only the gaps' (it does not:
    # its result is eager's, and the flat pass is off for this group)
    call = f"{plain}({', '.join(ins)})"
    if plan.target is None:
        m.emit(2, f"_result = {call}")
    else:
        m.emit(2, "try:")
        m.emit(3, f"_result = {call}")
        m.emit(2, "except Exception:")
        m.emit(3, "if not _direct:")
        m.emit(4, "raise")
        # the values' own condition, but the target holds the value already: where
        # eager goes on after it (``_direct``), the group's ops run again under the
        # caller's settings (eager's warnings, at this place in the program) and the
        # stretch goes on; a rerun of the stretch would read the target written
        as_caller = m.bind(runtime.as_caller, "as_caller")
        m.emit(3, f"return {as_caller}({', '.join([plain] + ins)})")
    m.emit(2, f"{on}[0] = False")
    m.emit(2, "return _result")
    m.emit(0, "")
    return fn


def _emit_body(m: Module, plan: FlatPlan, index: int, depth: int, direct: bool = False) -> None:
    """The 1-D passes of ``_flat<index>`` (its inputs checked), then its return. The
    last member writes into a recycled buffer, returned seen with rows ``row`` apart
    for the ``setitem`` to copy out; or, ``direct``, into ``target.array``'s own 1-D
    range (the members of ``in_target`` before it as well), returned as
    ``target.array[index]``, which the ``setitem`` then copies onto itself: NumPy
    skips that (same data, strides and dtype), one pass over memory less (Jacobi
    500x500: about 100 us a step of 400). Its gaps are the array's own
    elements outside the window: saved before, put back after."""
    group, domain, row, length = plan.group, plan.domain, plan.row, plan.length
    h = domain[0]
    name_of = plain_name(m)
    parents = plan.parents
    flat = {p: f"_f{j}" for j, p in enumerate(parents)}
    for p, f in flat.items():
        m.emit(depth, f"{f} = {name_of(p)}.reshape(-1)")
    names: dict[Node, str] = {}
    for node, (parent, offset) in plan.sources.items():
        names[node] = f"{flat[parent]}[{offset}:{offset + length}]"
    meta = array_meta(group.nodes[-1])
    scratch = shared(m, ("scratch", plan.chunk, tuple(plan.slots)), lambda: runtime.ScratchCache(
        [((plan.chunk,), d) for d in plan.slots]), f"scratch{index}")
    name_of_member = lambda n: names.get(n, name_of(n))
    gaps = direct and has_gaps(domain, plan.trailing)
    # on the direct path, the members of ``in_target`` accumulate in the target's range
    into_result = in_target(plan) if direct else [group.nodes[-1]]
    if direct:
        target = plan.target
        first = target.offset
        m.emit(depth, f"_t = {name_of(target.array)}.reshape(-1)")
        whole, piece = f"_t[{first}:{first + length}]", f"_t[{first} + _lo:{first} + _hi]"
        if gaps:
            # the gaps as raw-byte items, one per row's tail (and per plane's head in
            # 3-D): a few 1-D copies, not NumPy's loops over rows of two elements
            gap_views, saved = save_gaps(m, "_t", first, domain, plan.trailing, meta.dtype,
                                         depth, f"gaps{index}")
            depth += 1   # (inside save_gaps's ``try:``)
    else:
        if h * row * meta.dtype.itemsize < runtime.KEEP_MIN_BYTES:
            # (small: malloc serves it hot; kept, it would add to the peak: runtime.py)
            m.emit(depth, f"_r = _empty({h * row}, {m.bind(meta.dtype, str(meta.dtype))})")
        else:
            recycler = shared(m, ("out", h * row, meta.dtype), lambda: runtime.Recycler(
                (h * row,), meta.dtype), f"flat_out{index}")
            m.emit(depth, f"_r = {recycler}.take()")
        whole, piece = f"_r[:{length}]", "_r[_lo:_hi]"
    if plan.chunks == 1 and len(into_result) > 1:
        # one view object for every member that runs in the range: NumPy's ufuncs take
        # their fast loop for an input that overlaps the output only where the two are
        # the same object; a new slice of the same range each time takes the iterator
        # instead, after a memory-overlap solve (callgrind: about 1,500 instructions an op)
        m.emit(depth, f"_o = {whole}")
        whole = "_o"
    if direct:   # the passes written into the target again on an interrupt: _finish_write
        depth = _finish_write(m, depth)
    if plan.chunks > 1:   # on threads: each takes pieces of the 1-D range (runtime.run_blocks)
        m.emit(depth, "def _block(_i, _s):")
        m.emit(depth + 1, f"_lo = _i * {plan.chunk}")
        m.emit(depth + 1, f"_hi = _lo + {plan.chunk}")
        if plan.chunk * plan.chunks != length:
            m.emit(depth + 1, f"if _hi > {length}:")
            m.emit(depth + 2, f"_hi = {length}")
            m.emit(depth + 2, "_s = [_b[:_hi - _lo] for _b in _s]")
        for node, (parent, offset) in plan.sources.items():
            names[node] = f"{flat[parent]}[{offset} + _lo:{offset} + _hi]"
        _emit_members(m, plan, names, name_of_member, piece, depth + 1, into_result)
        m.emit(depth, f"_run(_block, {plan.chunks}, {scratch}, {plan.threads})")
    elif not _scratch_used(plan, into_result):   # every member runs in the target
        _emit_members(m, plan, names, name_of_member, whole, depth, into_result)
    else:
        m.emit(depth, f"_s = {scratch}.take()")
        m.emit(depth, "try:")
        _emit_members(m, plan, names, name_of_member, whole, depth + 1, into_result)
        m.emit(depth, "finally:")
        m.emit(depth + 1, f"{scratch}.give(_s)")
    if direct:
        depth = _finish_write(m, depth, end=True)
    if gaps:
        m.emit(depth - 1, "finally:")
        restore_gaps(m, gap_views, saved, depth)
        depth -= 1
    if direct:
        view = f"{name_of(plan.target.array)}[{m.subscript(plan.target.index, name_of)}]"
    else:   # the buffer seen with the sources' strides: (h, m)[:, :w], (h, p, m)[:, :q, :w]
        trailing = plan.trailing or (row,)
        shape = ", ".join(str(n) for n in (h, *trailing))
        window = "".join(f", :{d}" for d in domain[1:])
        view = f"_r.reshape({shape})" + (f"[:{window}]" if tuple(domain[1:]) != trailing
                                          else "")
    m.emit(depth, f"return ({view}, )")


def _finish_write(m: Module, depth: int, end: bool = False) -> int:
    """Emit the head (or with ``end`` the tail) of the code that runs a direct write's
    passes to their end when interrupts (KeyboardInterrupt) arrive among them; the depth
    of what follows.

    They write the value's ops, op by op or block by block, into the target's own
    window, where eager's ``setitem`` writes the whole value at once, after computing
    it: an interrupt between two of them left the window half-written, neither eager's
    before nor its after (issue #17; a threaded 1500x1500 ``u[1:-1, 1:-1] = ...``, 27
    of 300 interrupted calls). The passes read only arrays that share no memory with
    the target (``direct_check``), so they run again whole, and the interrupt is raised
    after them, as eager's would be right after its ``setitem``.

    A second interrupt can arrive while the first is handled: CPython runs one pending
    signal handler per check (after a call returns, as a function starts, at a loop's
    backward jump), so two signals with ``default_int_handler`` pending at once raise
    at two checks in a row. A ``while`` loop's backward jump after the ``except:`` is
    such a check outside every ``try:``: the second escaped there, the window
    half-written. So each run is a call of ``_passes`` (an interrupt as it starts is
    raised at the call, inside the ``try:``), and the runs are written ``RUNS`` times
    in a row, a handler falling through to the next ``try:`` with no check between:
    the backward jump is reached only after ``RUNS`` interrupted runs in a row::

        def _passes():
            ...                                # the passes
        _interrupt = None
        while True:
            try:
                _passes()
                break
            except KeyboardInterrupt as _e:
                _interrupt = _e
            ...                                # (RUNS times)
        if _interrupt is not None:
            raise _interrupt
    """
    if not end:
        m.emit(depth, "def _passes():")
        return depth + 1
    depth -= 1
    m.emit(depth, "_interrupt = None")
    m.emit(depth, "while True:")
    for _ in range(RUNS):
        m.emit(depth + 1, "try:")
        m.emit(depth + 2, "_passes()")
        m.emit(depth + 2, "break")
        m.emit(depth + 1, "except KeyboardInterrupt as _e:")
        m.emit(depth + 2, "_interrupt = _e")
    m.emit(depth, "if _interrupt is not None:")
    m.emit(depth + 1, "raise _interrupt")
    return depth


# How many runs of a direct write's passes are written in a row (``_finish_write``):
# as many interrupts pending at once are handled without reaching a backward jump
RUNS = 3


def _emit_members(m: Module, plan: FlatPlan, names: dict, name_of, result: str,
                  depth: int, into_result: list[Node] | None = None) -> None:
    """The members, each into its scratch buffer (``_s<j>``), the last (and those of
    ``into_result``) into ``result``."""
    into_result = into_result or [plan.group.nodes[-1]]
    if _scratch_used(plan, into_result):
        m.emit(depth, "".join(f"_s{j}, " for j in range(len(plan.slots))) + "= _s")
    for node in plan.group.nodes:
        out = result if node in into_result else f"_s{plan.slot_of[node]}"
        m.emit(depth, f"{node.name} = {call_out(m, node, name_of, out)}")
        names[node] = node.name


def _scratch_used(plan: FlatPlan, into_result: list[Node]) -> bool:
    return any(n not in into_result for n in plan.group.nodes)
