"""Counter tests that no trip of a ``while_loop`` node can make true: the ``or`` of
``while it < miniter or err > tol:`` once the counter has passed ``miniter``.

Python asks ``it < miniter`` first and the array test only where it fails, so the
trace reaches the array test (and tries a node there) only once the counter test has
failed. Where the counter steps away from its bound (``it += 1`` against
``it < miniter``), the test fails on every later trip too: the trace's one trip took
the branch every trip takes, and the loop is ``while err > tol:`` with a counter,
``it0 + step * taken`` after it. Where a later trip could make the test true again
(``it != 5``, a step towards the bound, a bound the body changes) it is no such test,
and the counter stays a counter read in the body (a break, as before).

Example::

    >>> never_holds((5, 1), (5, 0), "LT")      # it = 5, 6, ...: it < 5 never holds
    True
    >>> never_holds((5, -1), (5, 0), "LT")     # it = 5, 4, ...: 4 < 5 holds
    False
    >>> never_holds((5, 1), (5, 0), "NE")      # 5 != 5 fails, 6 != 5 holds
    False
"""

from __future__ import annotations

from ..variables import ConstantVariable
from .while_counters import COMPARES, counter_test, trips_bound

# the comparison that holds exactly where the other fails (on ints: a total order)
_NEGATED = {"LT": "GE", "GE": "LT", "LE": "GT", "GT": "LE", "EQ": "NE", "NE": "EQ"}


def never_holds(left: tuple, right: tuple, compare: str) -> bool:
    """Whether ``a <compare> b`` fails on every test, where the ``t``-th test (``t >=
    0``) compares ``a0 + da * t`` with ``b0 + db * t`` (``left = (a0, da)``, ``right =
    (b0, db)``, Python ints): its negation holds on every test (``trips_bound`` finds
    no test where it fails)."""
    if not all(type(v) is int for v in (*left, *right)):
        return False           # (a symbol: its value is not known here)
    if COMPARES[compare](left[0], right[0]):
        return False
    return trips_bound(left, right, _NEGATED[compare]) is None


def spent_tests(scope, name: str, step: int) -> frozenset:
    """The instructions of the tests of the counter ``name`` (stepped by ``step`` on
    every trip) in the loop's code (``scope``: a ``WhileScope`` after its trace) that
    fail on every trip from the node's first (``never_holds``): comparisons of it with
    an int constant or a local the loop leaves as it was, that feed a conditional jump.
    Its value in the ``t``-th trip is ``it0 + step * t`` before the trip's step and the
    next one after, so one check from ``it0`` covers both places. An empty set where
    there is none."""
    entry, now = scope.entry_locals, scope.tx.locals

    def side(kind: str, value) -> tuple | None:
        if kind == "const":
            return value, 0
        old = entry.get(value)
        if not isinstance(old, ConstantVariable) or type(old.value) is not int:
            return None
        if value == name:
            return old.value, step
        return (old.value, 0) if now.get(value) is old else None

    insts, (lo, hi) = scope.tx.info.insts, scope._code()
    found: set = set()
    for at in range(lo, hi):
        test = counter_test(insts, at)
        if test is None or ("local", name) not in test.operands or \
                not insts[test.jump].name.startswith("POP_JUMP"):
            continue
        sides = [side(kind, value) for kind, value in test.operands]
        if None not in sides and sum(s[1] != 0 for s in sides) == 1 and \
                never_holds(sides[0], sides[1], test.compare):
            found |= test.indices
    return frozenset(found)
