"""A counter cap inside a ``while <array test>:`` loop: ``k += 1; if k > maxit: return``.

A solver to a tolerance often caps its trips from inside the body (issue #19)::

    k = 0
    while np.abs(r).max() > tol:          # the loop's test (array data)
        x = x - r / (2.0 * x)             # A
        r = x * x - a
        k += 1                            # the counter, stepped in A
        if k > maxit:                     # the cap
            return x, k                   # E (or ``break``)
    return x, k                           # T

With ``k`` only stepped, the ``t``-th cap test sees ``k0 + step * t`` (it comes after
the step), so it says "go on" on the first ``m = trips_bound(...)`` trips and fires on
trip ``m + 1``. That is ``while_counter_break``'s loop with the roles turned round:
one ``while_loop`` node over ``A; B; <test>`` (``B``: code between the cap and the
test, if any) of at most ``m`` trips, carrying its last test out, and ``A``'s node of
at most one trip where that test still says "go on" (the cap fired after that ``A``:
``loop_exits``' tail). Then ``E`` and ``T`` are traced on the state after the nodes
and the last test chooses (``loop_returns.run_exit_code``, ``ends`` being ``E``); a
``break`` (``E`` empty) needs no choice: both ways meet after the loop with the state
the nodes leave. The counter after the loop is ``k0 + step * (u + v)`` (``u``, ``v``:
the two nodes' trips; ``v`` only where ``A`` steps it), as for ``while_counter_break``.

Python never tests the array after the cap fires, and neither do the nodes (the
tail runs ``A`` only). A loop that carries 0-d arrays only stays a break
(``SCALAR_CAP``: Python's own loop runs it as fast as a node would). The three
layouts (``cap_shape``): 3.11 tests again at the bottom and jumps back where it
holds, 3.12-3.13 jump out where it fails and then back, 3.14 jumps back to the test
in front and puts ``E`` after that jump.

Example::

    >>> dynamo.explain(newton_capped)(a).graph_break_count      # (2 while_loop nodes)
    0
"""

from __future__ import annotations

from dataclasses import dataclass

from ..symbolic import SymInt
from ..variables import ConstantVariable
from .loop_exits import JUMPS_BACK, PASSING, code_tail, stored_in
from .loop_facts import NotALoopNode
from .while_counters import (
    DATA_EXIT,
    RETURNS,
    SCALAR_CAP,
    CounterTest,
    counter_test,
    trips_bound,
)
from .while_shapes import CONDITIONAL, loop_shape, while_shape

# the cap's compare where it says "go on" (``k > maxit`` goes on where ``k <= maxit``)
_GO_ON = {"LT": "GE", "LE": "GT", "GT": "LE", "GE": "LT", "EQ": "NE", "NE": "EQ"}
_ENDS = ("RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS", "RERAISE")


@dataclass(frozen=True)
class Cap:
    """The cap of a ``while`` loop: its compare (``test``: ``k > maxit``), where it
    starts (``at``: ``A`` ends there), the instructions of ``E`` or of 3.12+'s copy
    of the code after the loop (``leave``: they run after the loop, so a read of the
    counter there is no read in a trip), and ``E``'s start where it returns
    (``returns``; None: ``break``, both ways meet after the loop)."""
    test: CounterTest
    at: int
    leave: frozenset
    returns: int | None

    def enter(self, scope) -> None:
        """Make the ``WhileScope`` ``scope`` this cap's loop: the tail is ``A`` (the
        code up to the cap, ``back``/``counter_at``), and where ``E`` returns, the
        last test chooses ``E`` (it said "go on": the cap ended the loop) or ``T``
        (``after``: the code after the loop) (``loop_returns.run_exit_code``)."""
        scope.cap = self
        scope.back = scope.counter_at = self.at
        scope.leave = self.leave
        if self.returns is not None:
            scope.after, scope.ends, scope.join = scope.exit, self.returns, None


def cap_shape(insts, inst) -> tuple | None:
    """``(start, exit, head, negate, cap)`` where the conditional jump ``inst`` is the
    test of a plain ``while <test>:`` loop (no counter test beside it) whose body's
    code ``A`` (no ``return``, its jumps within it: an ``if`` on a flag) ends in a cap
    (``Cap``), followed by straight code up to the loop's test again; None for other
    jumps.

    >>> # 3.11: 144 POP_JUMP_FORWARD_IF_FALSE (to 298); 146 ...A...; 194 LOAD_FAST k;
    >>> # LOAD_FAST maxit; COMPARE_OP >; 204 POP_JUMP_FORWARD_IF_FALSE (to 214);
    >>> # 206 ...E...; RETURN_VALUE; 214 ...test...; 296 POP_JUMP_BACKWARD_IF_TRUE (146)
    >>> cap_shape(insts, insts[index of 144])[:4] -> (index of 146, of 298, of 146, True)
    """
    shape = while_shape(insts, inst)
    if shape is not None:
        full = loop_shape(insts, inst)
        if full is None or full[:4] != shape or full[4] is not None:
            return None       # (a counter test beside the array test: ``counted_shape``)
        start, exit_, head, negate = shape
    elif inst.name in CONDITIONAL and inst.target is not None and inst.target > inst.index:
        # 3.14: the test in front only, ``E`` after the jump back to it
        start, exit_, head, negate = inst.index + 1, inst.target, None, True
        while insts[start].name in PASSING:
            start += 1
    else:
        return None
    test, jumps = None, []   # ``A``: code up to the cap, its jumps within it
    for j in range(start, exit_):
        if insts[j].name in _ENDS:
            return None
        if insts[j].target is None:
            continue
        if insts[j].name in CONDITIONAL:
            test = next((t for t in map(lambda at: counter_test(insts, at),
                                        range(max(start, j - 5), j))
                         if t is not None and t.jump == j), None)
            if test is not None:
                break
        jumps.append(insts[j].target)
    if test is None or any(not start <= t <= min(test.indices) for t in jumps):
        return None
    jump = insts[j]
    fall = j + 1
    while insts[fall].name in PASSING:
        fall += 1
    # (the cap fires where its compare holds: ``E`` is where the jump goes then)
    go_on, e_start = (jump.target, fall) if not CONDITIONAL[jump.name] else (fall, jump.target)
    back = _back(insts, go_on, start, exit_, inst.index)
    if back is None or head is not None and back[1] != head:
        return None
    if head is None:    # (3.14: ``E`` fills the code from the jump back to the exit)
        head = back[1]
        if e_start != back[0] + 1 or any(i.target is not None for i in insts[head:inst.index]):
            return None
    cap = _exit(insts, e_start, exit_, test, min(test.indices))
    if cap is None or shape is None and max(cap.leave, default=exit_) != exit_ - 1:
        return None
    return start, exit_, head, negate, cap


def _back(insts, go_on: int, start: int, exit_: int, front: int) -> tuple | None:
    """``(index, target)`` of the jump that ends the straight code from ``go_on`` (the
    cap's "go on" side) where it is the loop's test again (3.11-3.13: a ``while_shape``
    of this loop) or 3.14's jump back to the test in front; None for other code."""
    k = go_on
    while k < exit_ and insts[k].target is None and insts[k].name not in _ENDS:
        k += 1
    if k >= exit_ or insts[k].name in _ENDS:
        return None
    jump = insts[k]
    shape = while_shape(insts, jump)
    if shape is not None and shape[:2] == (start, exit_):
        return k, start
    if jump.name in JUMPS_BACK and jump.target is not None and jump.target <= front:
        return k, jump.target
    return None


def _exit(insts, e_start: int, exit_: int, test: CounterTest, at: int) -> Cap | None:
    """The ``Cap`` whose branch starts at ``e_start``: ``return E`` where the code after
    the loop (from ``exit_``) returns too; a ``break`` (a jump to ``exit_``, 3.14's
    ``NOP`` before it, or 3.12+'s copy of the code after the loop). None otherwise."""
    i = e_start
    while i < exit_ and insts[i].name in PASSING:
        i += 1
    if i == exit_ or insts[i].name in ("JUMP_FORWARD", "JUMP") and insts[i].target == exit_:
        return Cap(test, at, frozenset(range(e_start, i + 1)) - {exit_}, None)
    after, mine = code_tail(insts, exit_), code_tail(insts, e_start)
    if mine is not None and after is not None:
        end = next(i for i in range(e_start, len(insts)) if insts[i].name in _ENDS)
        span = frozenset(range(e_start, end + 1))
        return Cap(test, at, span, None if mine == after else e_start)
    return None


def cap_bound(scope) -> int | SymInt | None:
    """The trips on which the cap of ``scope`` says "go on": its ``t``-th test sees
    ``k0 + step * t`` where the counter is stepped in ``A``, before it, or ``k0 +
    step * (t - 1)`` where it is stepped after it (``if it >= maxit: return ...``
    first in the body), the other side an int the loop does not change
    (``trips_bound``; a symbol: ``_symbolic_bound``).
    None: it never fires (the data test alone ends the loop, ``E`` is never taken).

    >>> # k = 0; ...; k += 1; if k > 50: return  ->  trips_bound((1, 1), (50, 0), "LE")
    >>> # == 50: trips 1-50 go on, the 51st runs A and returns E
    """
    cap, insts = scope.cap, scope.tx.info.insts
    if all(v.meta.ndim == 0 for v in scope.slots):   # (no faster as a node: a break)
        raise NotALoopNode(SCALAR_CAP)
    lo, hi = scope._code()
    sides = []
    for kind, value in cap.test.operands:
        if kind == "const":
            sides.append((value, 0))
            continue
        var = scope.entry_locals.get(value)
        if not isinstance(var, ConstantVariable) or \
                type(var.value) is not int and not isinstance(var.value, SymInt):
            raise NotALoopNode(f"the body branches on a counter{RETURNS} (its cap "
                               f"compares {value!r}, no Python int)")
        step = scope.steps.get(value, 0)
        before = value in stored_in(insts, scope.start, cap.at)
        rest = set().union(*(stored_in(insts, i, i + 1) for i in range(lo, hi)
                             if not scope.start <= i < cap.at and i not in cap.leave))
        if step and before and value in rest:
            raise NotALoopNode(f"the body branches on a counter{RETURNS} ({value!r} is "
                               f"stepped both before and after its cap)")
        # (stepped before the cap: its first test sees the first step already)
        sides.append((var.value + step if before else var.value, step))
    if sum(1 for _, step in sides if step) != 1:
        raise NotALoopNode(f"the body branches on a counter{RETURNS} (its cap "
                           f"compares no counter the body steps, or two)")
    compare = _GO_ON[cap.test.compare]
    if any(isinstance(v, SymInt) for v, _ in sides):
        return scope._symbolic_bound(*sides, compare=compare)
    return trips_bound(sides[0], sides[1], compare)



def leaves_early(insts, start: int, exit_: int) -> bool:
    """Whether the loop's code ``start:exit_`` leaves the loop other than by its test:
    a ``return``, a ``break``'s jump to ``exit_`` or past it, or (3.14) a jump past the
    loop's last jump back, to code placed after it before ``exit_`` (the message of a
    cap of another shape, ``WhileScope._check_index_uses``)."""
    body = insts[start:exit_]
    backs = [i.index for i in body if i.name in JUMPS_BACK]
    return any(i.name.startswith("RETURN") or
               i.target is not None and i.name not in JUMPS_BACK and
               (i.target >= exit_ and i.name not in CONDITIONAL or
                backs and backs[-1] < i.target < exit_) for i in body)


def data_exit(insts, inst, why: str) -> str:
    """``why`` a ``while`` loop whose test is the jump ``inst`` is no node, where its
    body's trace stopped at a test of array data (``why_not``): ``DATA_EXIT`` where
    that test leaves the loop (``leaves_early``), else ``why`` as it is.

    >>> # while res > tol: A; if res > 1e12: return x, np.inf  ->  DATA_EXIT
    """
    shape = while_shape(insts, inst)
    if "truth value of an array" not in why or shape is None or \
            not leaves_early(insts, shape[0], shape[1]):
        return why
    return DATA_EXIT
