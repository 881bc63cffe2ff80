"""What the loop-node tracer (``loops.py``) reads about a body: which locals it reads
before it writes them, whose memory an array is, and small facts about values.

Example::

    >>> watched = WatchedLocals({"x": x, "k": k}); watched["k"]; watched["y"] = y
    >>> watched.first
    {'k': 'read', 'y': 'write'}
    >>> memory_base(setitem_node)        # x[0] = 1 is x's memory
    x
"""

from __future__ import annotations

import math

import numpy as np

from ..graph import CALL, Node
from ..ops import ArrayMeta, DataSize
from ..symbolic import Sym, SymInt
from ..symbolic.fit import described
from ..symbolic.ranges import LOWEST
from ..symbolic.scalars import SymFloat
from ..symbolic.sizes import Symbolic
from ..tree import tree_leaves, tree_map
from ..variables import ConstantVariable
from ..variables.constant import SymRangeVariable
from ..writes import memory_sources


class NotALoopNode(Exception):  # noqa: N818 (control flow: the loop is unrolled instead)
    """The loop cannot be one node; ``reason`` says why (for the debug log)."""


class SettlingCarry(NotALoopNode):
    """A local that held a Python constant before the trip traced as the body is
    carried to the next trip as another kind of value: its type had not settled after
    the trips unrolled before the node. A delay line does that for one more trip per
    tap (``x2, x1 = x1, x[n]`` from ``x1 = x2 = 0.0``: ``x2`` is still 0.0 after the
    first trip and an array only after the second), so ``LoopNodes.loop_node`` tries
    the node again with one more trip unrolled (``frames.BreakPoint.peel``)."""


class WatchedLocals(dict):
    """The frame's locals while a loop body is traced: remembers whether each name was
    first read or first written (``first``); ``opaque`` once all were read at once."""

    def __init__(self, items):
        super().__init__(items)
        self.first: dict = {}
        self.opaque = False

    def _note(self, name, how: str) -> None:
        self.first.setdefault(name, how)

    def get(self, name, default=None):
        self._note(name, "read")
        return super().get(name, default)

    def __getitem__(self, name):
        self._note(name, "read")
        return super().__getitem__(name)

    def pop(self, name, *default):
        self._note(name, "read")
        return super().pop(name, *default)

    def __setitem__(self, name, value) -> None:
        self._note(name, "write")
        super().__setitem__(name, value)

    def __delitem__(self, name) -> None:
        self._note(name, "write")
        super().__delitem__(name)

    def items(self):
        self.opaque = True
        return super().items()

    def values(self):
        self.opaque = True
        return super().values()

    def copy(self):
        self.opaque = True
        return dict(super().items())

    def notes_of_ways(self) -> WayNotes:
        """The first reads and writes of an ``if``'s two ways, each traced from the
        state at the jump (``branch_selects``): see ``WayNotes``."""
        return WayNotes(self.first)


class WayNotes:
    """What an ``if``'s ways read or write first, merged as the program runs them.

    The ways are traced one after the other, and the join then stores every name
    (``tx.locals[name] = ...``): bookkeeping, no store of the program. Without this a
    name neither way touched was noted as first *written* there, and a counter stepped
    after the ``if`` (``if x[j] > t: pass`` then ``c += 1``) was taken for a temporary:
    after the loop it held the traced trip's value (2 instead of 12). So each way's own
    notes are kept (``way_done``), and ``settle`` puts back the notes from before the
    ``if`` plus, for each name a way noted, ``"read"`` where either way reads it first
    (the trip that takes that way reads the value a trip before left)::

        >>> notes = watched.notes_of_ways()
        >>> ...first way...; notes.way_done(); ...second way...; notes.way_done()
        >>> ...join...; notes.settle()
    """

    def __init__(self, first: dict):
        self.first, self.before, self.ways = first, dict(first), []

    def way_done(self) -> None:
        self.ways.append({k: v for k, v in self.first.items() if k not in self.before})
        self.first.clear()
        self.first.update(self.before)

    def settle(self) -> None:
        self.first.clear()
        self.first.update(self.before)
        merged: dict = {}
        for way in self.ways:
            for name, how in way.items():
                merged[name] = "read" if "read" in (how, merged.get(name)) else how
        self.first.update(merged)


def memory_base(node: Node) -> Node:
    """The node whose memory ``node`` is: through views, in-place writes, ``out=`` and
    ops that may return their argument (the steps of ``writes.buffer_roots``), up to a
    placeholder or a node that made new memory (``x[mask]``: ``selects``)."""
    while node.op == CALL and not selects(node) and not _numpy_scalar_item(node):
        sources = memory_sources(node)
        if len(sources) != 1:
            break
        node = sources[0]
    return node


def _numpy_scalar_item(node: Node) -> bool:
    """``x[i, j]`` that gives a NumPy scalar (``np.float64``): a new immutable object,
    no view of ``x`` (``s = b[i]`` then carried by a loop shares no memory with ``b``)."""
    meta = node.meta.get("array")
    return node.target == "getitem" and isinstance(meta, ArrayMeta) and meta.scalar


def selects(node: Node) -> bool:
    """Whether ``node`` is ``x[index]`` with an array of at least one dimension in its
    index (a mask, ``np.nonzero``'s indices): NumPy's advanced indexing, which always
    copies. (``writes.memory_sources`` takes every ``getitem`` for a view; a 0-d integer
    array counts as an int in NumPy, and may make one.)"""
    if node.target != "getitem" or len(node.args) < 2:
        return False
    index = node.args[1]
    items = index if type(index) is tuple else (index,)
    return any(isinstance(v, Node) and isinstance(v.meta.get("array"), ArrayMeta) and
               v.meta["array"].ndim >= 1 for v in items)


def unbacked_in(value, names) -> set:
    """The symbols among ``names`` (unbacked sizes) that a Variable holds: in the sizes
    of an array's metadata, or in a constant's symbolic numbers (``len(y)``,
    ``len(y) * 0.5``, ``slice(0, len(y))``; a range's bounds, read without a pin)."""
    meta = getattr(value, "meta", None)
    leaves = meta.shape if isinstance(meta, ArrayMeta) else \
        tree_leaves(value.bounds) if isinstance(value, SymRangeVariable) else \
        tree_leaves(value.value) if isinstance(value, ConstantVariable) else ()
    return {n for d in leaves if isinstance(d, Symbolic) for n in d.sym.symbols} & \
        set(names)


def from_zero(expr: Sym, counts) -> Sym:
    """``expr`` for ``symbolic.bounds``, which takes every symbol to be ``>= 2`` (the
    least size an entry serves), with the symbols ``counts`` (sizes the data decides,
    any count from 0 up) written as ``c' - 2``, ``c' >= 2``: ``c >= 0`` exactly."""
    shift = sum(c for name, c in expr.terms if name in counts)
    return Sym(expr.terms, expr.const - LOWEST * shift, expr.sources)


def lone_symbol(size) -> str | None:
    """The symbol a size is exactly (``u3``, not ``u3 + 1`` or ``2*u3``), else None."""
    if not isinstance(size, SymInt):
        return None
    terms = size.sym.terms
    return terms[0][0] if len(terms) == 1 and terms[0][1] == 1 and not size.sym.const \
        else None


def cycle_of(perm: dict, k: int) -> set:
    seen, j = {k}, perm[k]
    while j not in seen:
        seen.add(j)
        j = perm[j]
    return seen


def on_cycle(perm: dict, k: int) -> bool:
    """Whether slot ``k`` comes back to itself through ``perm`` (slot -> the slot whose
    array it takes): ``a, b = b, a`` is a cycle; ``u_prev, u = u, u_next`` takes ``u_prev``
    to ``u``, which takes a new array (no key of ``perm``): no cycle."""
    seen, j = set(), perm[k]
    while j in perm and j != k and j not in seen:
        seen.add(j)
        j = perm[j]
    return j == k


def at_trip(value, symbol: str, i: int):
    """``value`` (an int, a SymInt, or anything else) at trip ``i`` of the loop ``symbol``."""
    if not isinstance(value, SymInt):
        return value
    terms = dict(value.sym.terms)
    c = terms.pop(symbol, 0)
    if not c:
        return value
    # the value less its trips (in the body the trip's hint is 0), plus ``c * i`` (``i``
    # a SymInt where the trip count is symbolic: ``T - 1``)
    rest = SymInt(int(value), Sym(tuple(sorted(terms.items())), value.sym.const,
                                  value.sym.sources))
    return rest + c * i


def float_at_trip(value: SymFloat, symbol: str, i, hints: dict):
    """A float made from the index (``lr = 0.5 / (1.0 + 0.1 * t)``) at trip ``i``: its
    expression with each int leaf taken at that trip (``at_trip``). Where no symbol is
    left it is a plain float, computed by the same Python operators on the same values
    as the program's own trip (bit for bit; ZeroDivisionError where it raises); else a
    SymFloat of the other symbols (``i`` is ``T - 1`` for a symbolic trip count), its
    hint the value at ``hints`` (the other symbols' values in this call)."""
    if symbol not in value.sym.symbols:
        return value
    at = {**hints, symbol: 0}    # (at_trip takes the hint at trip 0, as in the body)
    expr = value.sym.map_ints(lambda s: at_trip(SymInt(s.evaluate(at), s), symbol, i))
    if not expr.symbols:
        return expr.evaluate({})
    return SymFloat(expr.evaluate(hints), expr, value.integral)


def all_at_trip(value, symbol: str, i):
    """An op's arguments (nested tuples, lists, dicts, slices, ArrayMetas' shapes) at
    trip ``i`` of the loop ``symbol`` (``at_trip`` of each size): what they hold at
    that trip, with every other symbol left as it is."""
    def leaf(v):
        if isinstance(v, ArrayMeta):
            return v.with_(shape=tuple(at_trip(d, symbol, i) for d in v.shape))
        return at_trip(v, symbol, i)
    return tree_map(leaf, value)


def canonical(meta, find, sources: dict):
    """An op's result (one meta, or a tuple or list of them) with every size written
    over the representatives of its symbols' classes (``find``; ``sources``: symbol ->
    its runtime expression): a fit made before two sizes were found equal (``x + y``)
    says ``s1`` where a later one says ``s0``."""
    def size(d):
        if not isinstance(d, SymInt):
            return d
        terms: dict = {}
        for name, c in d.sym.terms:
            rep = find(name)
            terms[rep] = terms.get(rep, 0) + c
        terms = {n: c for n, c in terms.items() if c}
        srcs = dict(d.sym.sources)
        return SymInt(int(d), Sym(tuple(sorted(terms.items())), d.sym.const,
                                  tuple(sorted((n, srcs.get(n) or sources[n]) for n in terms))))

    def one(m):
        return m.with_(shape=tuple(size(d) for d in m.shape)) if isinstance(m, ArrayMeta) else m
    if isinstance(meta, (tuple, list)):
        return type(meta)(one(m) for m in meta)
    return one(meta)


def same_result(a, b) -> bool:
    """Two op results alike for every size an entry serves: per output, the same
    dtype, scalar flag and sizes, symbolic sizes compared as expressions (comparing
    SymInts with ``==`` would record a guard)."""
    da, db = described(a), described(b)
    return len(da) == len(db) and all(
        (ta, ka) == (tb, kb) and len(sa) == len(sb) and all(map(same_int, sa, sb))
        for (sa, ta, ka), (sb, tb, kb) in zip(da, db))


def integer_positions(op, args) -> list | None:
    """For ``x[index]`` and ``x[index] = v`` with a basic index (ints, slices, None,
    one Ellipsis): ``(k, p, d)`` for each integer position ``p`` (item ``k`` of the
    index) on a dimension of ``d`` elements. None for another op or index (arrays,
    lists, bools: NumPy's advanced indexing)."""
    if op.name not in ("getitem", "setitem") or len(args) < 2 or \
            not isinstance(args[0], ArrayMeta):
        return None
    index, shape = args[1], args[0].shape
    items = index if type(index) is tuple else (index,)
    if not all(_basic(v) for v in items) or sum(v is Ellipsis for v in items) > 1:
        return None
    consuming = sum(v is not None and v is not Ellipsis for v in items)
    if consuming > len(shape):
        return None
    out, axis = [], 0
    for k, v in enumerate(items):
        if v is Ellipsis:
            axis += len(shape) - consuming
        elif v is not None:
            if not isinstance(v, slice):
                out.append((k, v, shape[axis]))
            axis += 1
    return out


def with_positions(args: tuple, positions: dict) -> tuple:
    """``args`` of a getitem or setitem with items of its index replaced
    (``positions``: item number -> new value; see ``integer_positions``)."""
    index = args[1]
    if type(index) is tuple:
        index = tuple(positions.get(k, v) for k, v in enumerate(index))
    else:
        index = positions.get(0, index)
    return (args[0], index, *args[2:])


def _basic(v) -> bool:
    if v is None or v is Ellipsis or isinstance(v, slice):
        return True
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def same_constant(a, b) -> bool:
    """Two plain Python constants of one type and value (``c = 0.5`` every trip).
    ``0.0`` and ``-0.0`` are equal but not the same constant (``s = s * 0.5 / -2.0``
    flips its sign every trip); a NaN is never the same (it equals nothing)."""
    if not (isinstance(a, ConstantVariable) and isinstance(b, ConstantVariable)):
        return False
    x, y = a.value, b.value
    if type(x) is not type(y) or type(x) not in (int, float, bool, str, type(None)):
        return False
    if type(x) is float:
        return x == y and math.copysign(1.0, x) == math.copysign(1.0, y)
    return x == y


def same_int(a, b) -> bool:
    """Equal ints, comparing symbolic ones by expression (no guard recorded). Two
    marks of a size the data decides (``DataSize``, in an op's result at two trips)
    are the same when they are the same mark of the op's rule: the op makes a fresh
    size on every trip, and that is no change of shape."""
    if isinstance(a, DataSize) or isinstance(b, DataSize):
        return same_mark(a, b)
    if isinstance(a, SymInt) or isinstance(b, SymInt):
        return isinstance(a, SymInt) and isinstance(b, SymInt) and a.sym == b.sym
    return type(a) is int and type(b) is int and a == b


def same_mark(a, b) -> bool:
    """Two ``DataSize`` marks of one rule's result dimension (the same key and count)."""
    return isinstance(a, DataSize) and isinstance(b, DataSize) and \
        (a.key, a.nonzero_of, a.measure) == (b.key, b.nonzero_of, b.measure)


def int_step(old, new) -> int | None:
    """``new - old`` for two plain Python ints (a counter's step), else None."""
    if isinstance(old, ConstantVariable) and isinstance(new, ConstantVariable) and \
            type(old.value) is int and type(new.value) is int:
        return new.value - old.value
    return None


def why_not(e: Exception) -> str:
    """What stopped the body's trace: a break's own reason where there is one."""
    point = getattr(e.__cause__, "point", None)   # a RestartAnalysis for a break
    reason = getattr(point, "reason", None) or e
    return f"{type(reason).__name__}: {getattr(reason, 'reason', None) or reason}"


def is_slice(value) -> bool:
    return isinstance(value, slice)
