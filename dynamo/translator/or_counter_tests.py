"""``while err > tol or it < miniter:``: the array test first in an ``or``.

Python asks the array test first on every test, and the counter test only where the
array test fails; the loop goes on where either holds. A counter the body only steps
(``it += 1``: ``while_counters.only_stepped``) against an int the loop leaves as it
was holds on the first ``m`` tests and on none after (``least_trips``; a test that
could hold again later, ``it != 5`` or a step towards its bound, is none). So the loop
is the ``while_loop`` node of the array test that runs at least ``m`` trips
(``ops.while_loop``'s ``least``): it goes on where the test holds or fewer than ``m``
trips ran. The body graph computes the array test on every trip, as Python does
(it is first), so nothing is computed that Python does not compute.

The bytecode (``or_shape``): the array test jumps into the body where it holds, else
the counter test follows and jumps out where it fails; the body follows. At the bottom
3.11 tests both again (each jumps back to the body where it holds), 3.12-3.13 test the
array (on to the counter test where it fails, else back to the body) and then the
counter (out where it fails, else back); 3.14 jumps back to the test in front.

Example::

    >>> least_trips((0, 1), (30, 0), "LT")     # it = 0, 1, ...: it < 30 on 30 tests
    30
    >>> least_trips((40, 1), (30, 0), "LT")    # spent from the start
    0
    >>> least_trips((5, -1), (3, 0), "GT")     # a countdown: left > 3 on 5, 4
    2
    >>> least_trips((0, 1), (9, 0), "NE") is None     # 0 != 9 fails at 9, holds at 10
    True
    >>> least_trips((0, -1), (3, 0), "LT") is None     # never fails
    True
"""

from __future__ import annotations

from .loop_exits import JUMPS_BACK, PASSING
from .spent_counter_tests import never_holds
from .while_counters import CounterTest, counter_test, trips_bound

_IF_TRUE = ("POP_JUMP_IF_TRUE", "POP_JUMP_FORWARD_IF_TRUE", "POP_JUMP_BACKWARD_IF_TRUE")
_IF_FALSE = ("POP_JUMP_IF_FALSE", "POP_JUMP_FORWARD_IF_FALSE")


def least_trips(left: tuple, right: tuple, compare: str) -> int | None:
    """The number of tests ``m`` on which ``a <compare> b`` holds, where it holds on
    the first ``m`` tests and on none after (the ``t``-th test compares ``a0 + da *
    t`` with ``b0 + db * t``: ``left = (a0, da)``, ``right = (b0, db)``, Python
    ints); None where there is no such ``m`` (it never fails: Python loops for
    ever; or it could hold again after failing)."""
    if not all(type(v) is int for v in (*left, *right)):
        return None
    m = trips_bound(left, right, compare)
    if m is None:
        return None
    (a0, da), (b0, db) = left, right
    return m if never_holds((a0 + da * m, da), (b0 + db * m, db), compare) else None


def _skip(insts, i: int) -> int:
    while i < len(insts) and insts[i].name in PASSING:
        i += 1
    return i


def _either(test: CounterTest) -> CounterTest:
    return CounterTest(test.operands, test.compare, test.jump, test.indices, either=True)


def or_shape(insts, inst) -> tuple | None:
    """``(body start, exit, head, negate, counter test)`` where the conditional jump
    ``inst`` on the array test is the first operand of ``while <array test> or <counter
    test>:``, in front or at the bottom (the module's docstring); the counter test is
    marked ``either``. None for other jumps."""
    if inst.target is None:
        return None
    if inst.name in _IF_TRUE and inst.target > inst.index:        # in front
        test = counter_test(insts, inst.index + 1)
        if test is None or insts[test.jump].name not in _IF_FALSE:
            return None
        start, exit_ = inst.target, insts[test.jump].target
        if exit_ is None or exit_ <= start or _skip(insts, test.jump + 1) != start:
            return None
        back = insts[exit_ - 1]
        if back.target is None or back.target >= back.index or \
                insts[back.target].name == "FOR_ITER" or \
                not (back.target == start or back.target <= inst.index):
            return None
        return start, exit_, min(back.target, start), False, _either(test)
    if inst.name in _IF_TRUE:                                     # at the bottom, 3.11
        test = counter_test(insts, inst.index + 1)
        if test is None:
            return None
        jump = insts[test.jump]
        if jump.name != "POP_JUMP_BACKWARD_IF_TRUE" or jump.target != inst.target or \
                insts[inst.target].name == "FOR_ITER":
            return None
        return inst.target, jump.index + 1, inst.target, False, _either(test)
    if inst.name in _IF_FALSE and inst.target == inst.index + 2:  # at the bottom, 3.12+
        back = insts[inst.index + 1]
        test = counter_test(insts, inst.target)
        if back.name not in JUMPS_BACK or back.target is None or test is None or \
                insts[back.target].name == "FOR_ITER":
            return None
        jump = insts[test.jump]
        again = insts[test.jump + 1] if test.jump + 1 < len(insts) else None
        if jump.name not in _IF_FALSE or jump.target != test.jump + 2 or again is None \
                or again.name not in JUMPS_BACK or again.target != back.target:
            return None
        return back.target, jump.target, back.target, True, _either(test)
    return None
