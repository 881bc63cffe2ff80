"""``itertools.product``, ``permutations``, ``combinations`` and
``combinations_with_replacement``: iterators whose items are known while tracing.

Each takes its iterables whole when it is created (CPython copies every one into a
tuple then), and its items are tuples of those members chosen by position only: which
positions depends on the lengths and ``r``/``repeat``, never on the members' values.
So the trace takes the members (their Variables: constants, arrays, anything), lets
Python's own itertools pick the positions on ``range(len(pool))``, and steps through
the resulting tuples, one per ``next()``, as the real iterator would. Code such as a
polynomial-features loop (``for combo in combinations_with_replacement(range(d), 2):
cols.append(X[:, combo].prod(1))``) stays in one graph; it broke at the iterator's
creation and at every trip before ("creating an instance of
combinations_with_replacement (it defines __new__)").

At a graph break, or when the iterator escapes, the glue rebuilds the real iterator from
the same members and moves it to the same position (``iterators.advanced``). More than
``constant.MAX_ITEMS`` items is a break, as before.

Example::

    >>> it = HANDLERS[itertools.combinations](tx, ConstantVariable(range(3)),
    ...                                       ConstantVariable(2))
    >>> [take(tx, it).as_python_constant() for _ in range(3)]
    [(0, 1), (0, 2), (1, 2)]
"""

from __future__ import annotations

import itertools
import operator

from ..exc import Unsupported
from .base import Variable
from .constant import MAX_ITEMS, check_size
from .iteration import HANDLERS
from .iterators import IteratorVariable, advanced
from .sequences import TupleVariable

# The itertools types modelled here (`ClassVariable.call` takes the handler of a class).
COMBINATORIC = (itertools.product, itertools.permutations, itertools.combinations,
                itertools.combinations_with_replacement)


class CombinatoricIteratorVariable(IteratorVariable):
    """One of ``COMBINATORIC`` over ``pools`` (lists of member Variables), its items
    the position tuples ``picks``; ``index`` is how many were taken."""

    def __init__(self, kind: type, pools: list[list[Variable]], picks: list[tuple],
                 keyword: dict):
        self.kind, self.pools, self.picks, self.keyword = kind, pools, picks, keyword
        self.index = 0

    def python_type(self) -> type:
        return self.kind

    def describe(self) -> str:
        return f"{self.kind.__name__} iterator"

    def next(self, tx) -> Variable | None:
        if self.index >= len(self.picks):
            return None
        pick = self.picks[self.index]
        self.index += 1
        if self.kind is itertools.product:   # one position per pool, in order
            pools = self.pools * self.keyword.get("repeat", 1)
            return TupleVariable([pools[k][i] for k, i in enumerate(pick)])
        return TupleVariable([self.pools[0][i] for i in pick])

    def length_hint(self) -> int:
        return len(self.picks) - self.index

    def reconstruct(self, cg) -> str:
        def build(v):
            pools = "".join(f"{cg.value(TupleVariable(list(p)))}, " for p in v.pools)
            keyword = "".join(f"{k}={cg.const(x)}, " for k, x in v.keyword.items())
            done = v.index >= len(v.picks)
            return (f"{cg.const(advanced)}({cg.const(v.kind)}({pools}{keyword}), "
                    f"{cg.const(min(v.index, len(v.picks)))}, {done})")
        return cg.mutable(self, build)


def _count(tx, var: Variable | None, what: str) -> int | None:
    """The int value of ``r`` or ``repeat`` (None stays None); a traced number breaks."""
    if var is None:
        return None
    if not var.is_constant():
        raise Unsupported(f"{what} of an itertools iterator is not a constant",
                          "The number of items depends on it.")
    value = var.as_python_constant()
    if value is not None and type(value) is not int:
        try:
            value = operator.index(value)
        except TypeError:
            raise Unsupported(f"{what} of an itertools iterator is not an int "
                              "(TypeError)", cause="python_error") from None
    return value


def _make(kind):
    def handler(tx, *iterables, **kwargs):
        keyword = {name: _count(tx, var, name) for name, var in kwargs.items()}
        if kind is itertools.product:
            if set(keyword) - {"repeat"}:
                raise Unsupported("itertools.product() with an unknown keyword (TypeError)",
                                  cause="python_error")
            counts, extra = [], []
        else:
            # permutations(p, r=None), combinations(p, r), ...: r by position or keyword
            if not iterables or len(iterables) > 2 or set(keyword) - {"r"}:
                raise Unsupported(f"itertools.{kind.__name__}() with these arguments",
                                  cause="python_error")
            counts = [_count(tx, v, "r") for v in iterables[1:]]
            iterables, extra = iterables[:1], counts
        pools = [tx.unpack_iterable(v) for v in iterables]   # taken whole, in order
        for pool in pools:
            check_size(len(pool), f"an itertools.{kind.__name__} pool")
        positions = [range(len(p)) for p in pools]
        try:
            made = kind(*positions, *extra, **keyword)
        except (TypeError, ValueError) as e:   # Python's own error, at run time
            raise Unsupported(f"itertools.{kind.__name__}(): {e}",
                              cause="python_error") from None
        picks = list(itertools.islice(made, MAX_ITEMS + 1))
        check_size(len(picks), f"an itertools.{kind.__name__} iterator")
        if kind is not itertools.product and "r" not in keyword and counts:
            keyword = {"r": counts[0]}   # (rebuilt with r by keyword: the same call)
        return CombinatoricIteratorVariable(kind, pools, picks, keyword)
    return handler


for _kind in COMBINATORIC:
    HANDLERS[_kind] = _make(_kind)
