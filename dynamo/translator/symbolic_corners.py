"""The corners of a triangular loop's trips where the enclosing trip counts are sizes
that change between calls (issue #23): ``for i in range(n): for j in range(i)`` with
``n = len(b)`` after the first recompile, ``n`` a symbol.

``TriangularScope._corners`` (triangular_loops.py) names, per enclosing loop, the
interval of its trips where the loops inside it run at least one trip, and checks an op
at its ends. With a concrete count the ends are ints; with a symbolic one they are
affine expressions of the sizes (``n - 1``, ``n - 2``), and so is everything computed
from them. Here the same steps are taken without comparing two expressions as ints
(which would guard or pin the size): the larger or smaller of two ends is decided for
every size the entry serves (``symbolic.bounds``), or else the loop is no node (the
inner loop is unrolled, as before).

Example (``range(i + 1, n)`` inside ``range(n)``: the inner loop runs where
``n - 1 - trip >= 1``, the outer trips ``0 .. n - 2``)::

    >>> trip_interval(SymInt(59, n - 1 - t), "t", 0, SymInt(59, n - 1), facts)
    (0, SymInt(58, n - 2))
"""

from __future__ import annotations

from ..symbolic import SymInt
from ..symbolic.bounds import always_nonnegative
from ..symbolic.sizes import as_sym
from .loop_facts import NotALoopNode, all_at_trip, at_trip


def is_symbolic(value) -> bool:
    return isinstance(value, SymInt)


def at_trips(value, trips: dict):
    """``value`` (an op's arguments, a trip count) with each enclosing trip put in,
    where some trip is an expression of the sizes (``loop_facts.all_at_trip``, one
    trip after the other: each is affine, so is the result)."""
    for name, trip in trips.items():
        value = all_at_trip(value, name, trip)
    return value


def extreme(a, b, facts, larger: bool):
    """The larger (``larger``) or smaller of ``a`` and ``b`` (ints or affine SymInts)
    for every size the entry serves; no node where that changes with the sizes (a
    comparison of the two would pin them)."""
    if not is_symbolic(a) and not is_symbolic(b):
        return max(a, b) if larger else min(a, b)
    diff = as_sym(a) - as_sym(b)           # a - b >= 0: a is the larger
    if always_nonnegative(diff, facts):
        return a if larger else b
    if always_nonnegative(diff.scale(-1), facts):
        return b if larger else a
    raise NotALoopNode("a triangular loop whose trips depend on which of two sizes is "
                       "larger")


def trip_interval(count, symbol: str, lo, hi, facts) -> tuple:
    """The trips ``k`` in ``[lo, hi]`` where ``count`` (affine in the trip ``symbol``
    and in the sizes) is at least 1, as ``triangular_loops._interval`` for ints. The
    coefficient of the trip must be 1 or -1 where a size is read: the bound is then
    ``1 - a`` or ``a - 1`` exactly, with no rounding of a quotient of sizes."""
    b = dict(count.sym.terms).get(symbol, 0) if is_symbolic(count) else 0
    a = at_trip(count, symbol, 0)          # the count less its trips
    if not b:
        if is_symbolic(a):
            raise NotALoopNode("a triangular loop's trip count reads a size only")
        return (lo, hi) if a >= 1 else (1, 0)
    if abs(b) != 1:
        raise NotALoopNode("a triangular loop over sizes whose count moves by more than "
                           "one a trip")
    # a + b * k >= 1: k >= 1 - a for b = 1, k <= a - 1 for b = -1
    if b > 0:
        return extreme(lo, 1 - a, facts, larger=True), hi
    return lo, extreme(hi, a - 1, facts, larger=False)
