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

from ..graph import CALL, Node
from ..symbolic import Sym, SymInt
from ..variables import ConstantVariable
from ..writes import memory_sources


class NotALoopNode(Exception):  # noqa: N818 (control flow: the loop is unrolled instead)
    """The loop cannot be one node; ``reason`` says why (for the debug log)."""


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


def memory_base(node: Node) -> Node:
    """The node whose memory ``node`` is: through views, in-place writes, ``out=`` and
    ops that may return their argument (the steps of ``writes.buffer_roots``), up to a
    placeholder or a node that made new memory."""
    while node.op == CALL:
        sources = memory_sources(node)
        if len(sources) != 1:
            break
        node = sources[0]
    return node


def cycle_of(perm: dict, k: int) -> set:
    seen, j = {k}, perm[k]
    while j not in seen:
        seen.add(j)
        j = perm[j]
    return seen


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


def same_constant(a, b) -> bool:
    """Two plain Python constants of one type and value (``c = 0.5`` every trip)."""
    if not (isinstance(a, ConstantVariable) and isinstance(b, ConstantVariable)):
        return False
    x, y = a.value, b.value
    return type(x) is type(y) and type(x) in (int, float, bool, str, type(None)) and x == y


def same_int(a, b) -> bool:
    """Equal ints, comparing symbolic ones by expression (no guard recorded)."""
    if isinstance(a, SymInt) or isinstance(b, SymInt):
        return isinstance(a, SymInt) and isinstance(b, SymInt) and a.sym == b.sym
    return type(a) is int and type(b) is int and a == b


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
