"""The bytecode shapes of loops that may be ``while_loop`` nodes (``while_loops``).

Each function reads the instructions around one conditional jump and says whether it
is a loop's test, and of which shape: ``while <test>:`` (``while_shape``), with a
counter test beside it (``counted_shape``, ``while_counters.counter_before``,
``or_counter_tests.or_shape``), ``while True: ...; if <test>: break`` (``break_shape``)
and ``for ...: ...; if <test>: break`` (``for_break_shape``); ``loop_shape`` asks them
in the order that tells them apart. Code after a ``break``'s test is ``loop_exits``'s
(docs/loops.md).

Example (3.11, ``while err > tol: x = 0.5 * x; err = abs(x)``)::

     4 POP_JUMP_FORWARD_IF_FALSE 18        while_shape(insts, insts[4])  -> (5, 18, 5, True)
     5 LOAD_CONST 0.5  ...                 (body start, exit, head, the loop goes on
    17 POP_JUMP_BACKWARD_IF_TRUE 5         where not taken); at 17, the bottom test:
                                           (5, 18, 5, False)
"""

from __future__ import annotations

from ..variables.arrays import RowIteratorVariable
from .loop_exits import JUMPS_BACK, PASSING, code_tail, jump_back_after, names, stored_in
from .loop_returns import exit_code_at
from .loops import rest_of
from .or_counter_tests import or_shape
from .while_counters import counter_before, counter_test

CONDITIONAL = {"POP_JUMP_IF_FALSE": False, "POP_JUMP_IF_TRUE": True,
               "POP_JUMP_FORWARD_IF_FALSE": False, "POP_JUMP_FORWARD_IF_TRUE": True,
               "POP_JUMP_BACKWARD_IF_FALSE": False, "POP_JUMP_BACKWARD_IF_TRUE": True}

READS = ("LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_BORROW", "LOAD_FAST_AND_CLEAR",
         "LOAD_FAST_LOAD_FAST", "LOAD_FAST_BORROW_LOAD_FAST_BORROW", "DELETE_FAST",
         "STORE_FAST_LOAD_FAST", "LOAD_CLOSURE", "LOAD_DEREF")


def for_break_shape(tx, inst):
    """Where the conditional jump ``inst`` is ``if <test>: break``, the last statement
    of a ``for`` loop over a range whose iterator is on top of the stack:
    ``(start, end, head, negate, after, for_iter, trips, back, ends)``. ``start``: where the
    loop goes on (the code after the test, ``B``, up to the jump back at ``back`` to
    its ``FOR_ITER``, at ``head``: ``loop_exits``), ``end``:
    the loop's end, ``after``: the ``break``'s code, which pops the iterator and runs
    what follows the loop (the loop has no ``else``: the ``break`` and the loop's
    normal end run the same code), ``rest``: the range's values left, ``ends``: None,
    or where the ``break``'s branch runs code of its own (a ``return``, where the
    loop's normal end returns too, code before the ``break``, a ``for ... else``),
    ``(end, join)``: ``loop_returns.exit_code_at``. The loop
    variable must be read nowhere in the loop: only the data decides how far it got
    (after the loop it is ``rest.start + rest.step * (u - 1)`` for ``u`` trips, an
    unbacked size, ``WhileScope.finish``). None for other jumps."""
    insts = tx.info.insts
    if inst.name not in CONDITIONAL or inst.target is None or inst.target <= inst.index:
        return None
    loops = [i for i in insts[:inst.index] if i.name == "FOR_ITER" and i.target is not None
             and i.target > inst.index]
    if not loops or not tx.stack:
        return None
    for_iter = loops[-1]          # the innermost loop around the jump
    rest = rest_of(tx.stack[-1])
    if type(rest) is not range or isinstance(tx.stack[-1], RowIteratorVariable) or \
            any(v is tx.stack[-1] for v in tx.locals.values()):
        return None
    fall = inst.index + 1
    while insts[fall].name == "NOT_TAKEN":
        fall += 1
    for negate, go_on, brk in ((True, fall, inst.target), (False, inst.target, fall)):
        # (code after the test, up to the jump back: ``loop_exits``)
        back = jump_back_after(insts, go_on, lambda j: j.target == for_iter.index,
                               for_iter.target)
        # (or a ``return`` in the exit's branch and after the loop: ``loop_returns``)
        ends = None if back is None or _breaks_to_end(insts, brk, for_iter) else \
            exit_code_at(insts, brk, for_iter)
        if back is not None and (ends is not None or _breaks_to_end(insts, brk, for_iter)):
            store = insts[for_iter.index + 1]
            # (the body is up to the jump and from ``go_on`` to the jump back; the
            # ``break``'s code may read the variable: 3.12+ copy the tail there)
            body = insts[for_iter.index + 2:inst.index] + insts[go_on:back]
            if store.name != "STORE_FAST" or any(
                    i.name in READS and store.arg in names(i.arg) for i in body) or \
                    store.arg in stored_in(insts, go_on, back):
                return None
            return (go_on, for_iter.target, for_iter.index, negate, brk,
                    for_iter.index, rest, back, ends)
    return None


def _breaks_to_end(insts, brk: int, for_iter) -> bool:
    """The code at ``brk`` pops the iterator and does what the loop's normal end does:
    it jumps to the code after the loop's cleanup (``END_FOR``, ``POP_ITER``), or is a
    copy of that code up to a ``return`` (3.12+ copies a short tail)."""
    if insts[brk].name != "POP_TOP":
        return False
    end = for_iter.target
    while end < len(insts) and insts[end].name in ("END_FOR", "POP_TOP", "POP_ITER"):
        end += 1
    nxt = insts[brk + 1]
    if nxt.name in ("JUMP_FORWARD", "JUMP", "JUMP_NO_INTERRUPT") and nxt.target == end:
        return True
    return code_tail(insts, brk + 1) == code_tail(insts, end) is not None


def while_shape(insts, inst) -> tuple[int, int, int, bool] | None:
    """``(body start, exit, head, negate)`` where the conditional jump ``inst`` is a
    ``while`` loop's test; None for another jump (an ``if``). ``head`` is where the
    loop starts again (the body's start, or the test's first instruction where the
    loop jumps back to it), ``negate``: the loop goes on where the jump is *not* taken.
    The test in front of the loop jumps forward out of it, and the loop's last
    instruction, just before the exit, jumps back (3.11: the test again, a conditional
    jump to the body; 3.12-3.13: a plain jump after the test; 3.14: a plain jump to the
    test). The test at the bottom (3.11-3.13; where the test in front was decided
    while tracing, the trace meets it first) jumps back to the body's start (3.11), or
    out of the loop, followed by the jump back (3.12-3.13)."""
    if inst.name not in CONDITIONAL or inst.target is None:
        return None
    if inst.target <= inst.index:                        # the bottom test, 3.11
        if insts[inst.target].name == "FOR_ITER":        # (a ``for`` loop's: no while)
            return None
        return inst.target, inst.index + 1, inst.target, False
    after = insts[inst.index + 1] if inst.index + 1 < len(insts) else None
    if after is not None and after.name in JUMPS_BACK and inst.target == inst.index + 2 \
            and after.target is not None and after.target < inst.index:
        if insts[after.target].name == "FOR_ITER":       # ``if <test>: break``
            return None
        return after.target, inst.target, after.target, True   # the bottom test, 3.12+
    return _after_front_test(insts, inst.index + 1, inst.target, inst.index)


def _after_front_test(insts, start: int, exit_: int, test: int) -> tuple | None:
    """``(body start, exit, head, True)`` of a ``while`` loop whose test in front (its
    array test at ``test``) jumps out to ``exit_`` and whose body starts at ``start``
    (after 3.14's ``NOT_TAKEN``): the loop's last instruction must jump back to the body
    or to the test; None where it does not."""
    while start < exit_ and insts[start].name == "NOT_TAKEN":
        start += 1
    back = insts[exit_ - 1]
    if back.target is None or back.index <= start or insts[back.target].name == "FOR_ITER":
        return None
    if back.name in CONDITIONAL and back.target == start or \
            back.name in JUMPS_BACK and (back.target == start or back.target <= test):
        return start, exit_, min(back.target, start), True
    return None



def counted_shape(insts, inst) -> tuple | None:
    """``(body start, exit, head, negate, counter test)`` where the conditional jump
    ``inst`` on the array test is followed by a test of ints that ends the loop too:
    ``while err > tol and it < maxit:`` (``while_counters``). The counter test is in
    front (its jump out of the loop, then the body; 3.14 tests only there), or at the
    bottom: 3.11 jumps back to the body's start where it holds, 3.12-3.13 jump out
    where it fails, then back. None for other jumps."""
    if inst.name not in CONDITIONAL or inst.target is None or inst.target <= inst.index:
        return None
    test = counter_test(insts, inst.index + 1, floats=True)
    if test is None or insts[test.jump].name not in CONDITIONAL:
        return None
    jump, exit_ = insts[test.jump], inst.target
    if jump.target is None:
        return None
    if jump.target < jump.index:                        # the bottom test, 3.11
        if not CONDITIONAL[jump.name] or jump.index + 1 != exit_ or \
                insts[jump.target].name == "FOR_ITER":
            return None
        return jump.target, exit_, jump.target, True, test
    if CONDITIONAL[jump.name] or jump.target != exit_:
        return None
    after = insts[jump.index + 1]
    if after.name in JUMPS_BACK and after.index + 1 == exit_ and after.target is not None \
            and after.target < inst.index:              # the bottom test, 3.12-3.13
        if insts[after.target].name == "FOR_ITER":
            return None
        return after.target, exit_, after.target, True, test
    shape = _after_front_test(insts, jump.index + 1, exit_, inst.index)
    return None if shape is None else (*shape, test)


def loop_shape(insts, inst) -> tuple | None:
    """``counted_shape``, or ``while_shape`` with no counter test (None as its fifth).
    The counted shape first: 3.12+ jump back to the test's start, so ``while_shape``
    would take the array test's jump for one whose body starts with the counter test;
    ``while err > tol or it < miniter:`` (``or_counter_tests.or_shape``) before both."""
    shape = or_shape(insts, inst)
    if shape is not None:
        return shape
    shape = counted_shape(insts, inst)
    if shape is not None:
        return shape
    shape = while_shape(insts, inst)
    if shape is not None:
        # ``while it < maxit and err > tol:``: the counter test in front of the array
        # test, leaving the loop where it fails (``while_counters.counter_before``)
        return (*shape, counter_before(insts, inst, shape[0], shape[1]))
    return break_shape(insts, inst)


def _jump_back_at(insts, i: int, before: int):
    """The jump back to an instruction before ``before`` that the code at ``i`` is
    (after ``NOT_TAKEN``s and ``NOP``s), where its target is no ``FOR_ITER`` (a ``for``
    loop's ``break``: ``for_break_shape``); else None."""
    while i < len(insts) and insts[i].name in PASSING:
        i += 1
    if i < len(insts) and insts[i].name in JUMPS_BACK and insts[i].target is not None \
            and insts[i].target < before:
        return None if insts[insts[i].target].name == "FOR_ITER" else insts[i]
    return None


def break_shape(insts, inst) -> tuple | None:
    """``(start, exit, head, negate, None)`` where the conditional jump ``inst`` is
    ``if <test>: break``, the last statement of a loop with no test of its own
    (``while True:``): one way goes straight back to the loop's start, the other
    leaves it, for good: a jump past the jump back (3.11), the code after the loop up
    to a ``return`` (3.13 copies it there), or the code after the jump back (3.14).
    The loop is then ``while not <test>:`` over a body from its start to the test, as
    a ``while`` loop's bottom test makes it. An ``if`` at the end of such a loop that
    does not leave it is no such jump (None)."""
    if inst.name not in CONDITIONAL or inst.target is None or inst.target <= inst.index:
        return None
    back = _jump_back_at(insts, inst.target, inst.index)       # on where taken
    if back is not None:
        leave = inst.index + 1
        while insts[leave].name in PASSING:
            leave += 1
        out = insts[leave]
        if out.name in ("JUMP_FORWARD", "JUMP") and out.target is not None and \
                out.target > back.index or code_tail(insts, leave) is not None:
            return back.target, inst.index + 1, back.target, False, None
        return None
    back = _jump_back_at(insts, inst.index + 1, inst.index)   # on where not taken
    if back is not None and inst.target == back.index + 1:
        return back.target, inst.target, back.target, True, None
    return None
