"""``while_loop`` nodes: loops whose exit the data decides, traced once.

``while err > tol:``, ``for ...: ...; if <test>: break`` and their counted forms
(``while it < maxit and err > tol:``) become one ``while_loop`` node (``ops/loops.py``)
the way ``loops.LoopScope`` makes a ``fori_loop`` of a ``for`` loop: traced once from
the conditional jump on a 0-d array that tests them (``while_loop_node``), into a body
graph of the carried arrays that returns them and the next test's value
(``WhileScope``, ``LoopScope``'s checks less those about an index). The bytecode
shapes recognised are here too (``while_shape``, ``counted_shape``, ``break_shape``,
``for_break_shape``); code after a ``break``'s test is ``loop_exits``'s, counters
``while_counters``'s (docs/loops.md).

Example::

    while err > tol:                         while_loop = ops.while_loop(
        x = 0.5 * (x + a / x)         ->         while_loop_body, True, greater,
        err = np.abs(x * x - a).max()            (x, err), (a,))
"""

from __future__ import annotations

import os

import numpy as np

from .. import ops
from ..graph import Graph
from ..symbolic import SymInt
from ..symbolic.sizes import as_size, symbols_of
from ..variables import ArrayVariable, ConstantVariable
from ..variables.arrays import RowIteratorVariable
from .loop_exits import (
    JUMPS_BACK,
    PASSING,
    AtItem,
    code_tail,
    jump_back_after,
    names,
    needs_tail,
    stored_in,
    tail_graph,
    tail_outputs,
    while_counter_break,
    while_true_break,
)
from .loop_facts import (
    NotALoopNode,
    WatchedLocals,
    int_step,
    memory_base,
    same_constant,
    same_int,
    why_not,
)
from .loops import Counters, LoopScope, dead_after, node_numbers, rest_of
from .or_counter_tests import least_trips, or_shape
from .spent_counter_tests import spent_tests
from .while_counters import (
    CounterTest,
    carried_shape,
    counter_before,
    counter_test,
    only_stepped,
    plain_test,
    trips_bound,
)
from .while_trip import (
    PINNED,
    bind_counters,
    check_int_range,
    check_use,
    counter_at,
    counter_read,
    planned_counters,
    unbind,
)

_CONDITIONAL = {"POP_JUMP_IF_FALSE": False, "POP_JUMP_IF_TRUE": True,
                "POP_JUMP_FORWARD_IF_FALSE": False, "POP_JUMP_FORWARD_IF_TRUE": True,
                "POP_JUMP_BACKWARD_IF_FALSE": False, "POP_JUMP_BACKWARD_IF_TRUE": True}

# (what a ``while_loop`` node with no bound on its trips counts for, in the unroll
# budget of a loop around it: ``control_flow.check_unroll_budget``)
_UNBOUNDED_WORK = 32



def while_loop_node(tx, inst, value, when: bool) -> bool:
    """At a conditional jump of ``tx`` (taken where ``bool(value) == when``) on a 0-d
    array ``value`` that is a ``while`` loop's test (``while err > tol:``): run the loop
    as one ``while_loop`` node (``WhileScope``), where it can be one. True: done, the
    trace goes on after the loop. False: the jump is no such test, or an earlier
    attempt failed (``loop_plan``), and it breaks the graph, as before."""
    if not isinstance(value, ArrayVariable) or not isinstance(value.meta, ops.ArrayMeta) \
            or value.meta.ndim != 0:
        return False
    shape, broken = _loop_test(tx, inst)
    if shape is None and broken is None:
        return False
    try:
        if shape is not None:
            start, exit_, head, negate, test = shape
            scope = WhileScope(tx, inst, value, start, exit_, head, keep=when != negate,
                               test=test)
        elif broken[0] == "while counter":   # ``loop_exits.while_counter_break``
            start, exit_, head, negate, back, counter_at, test, leave = broken[1:]
            scope = WhileScope(tx, inst, value, start, exit_, head, keep=when != negate,
                               test=test)
            scope.back, scope.counter_at, scope.leave = back, counter_at, leave
        elif broken[0] == "while True":      # code after the test (``loop_exits``)
            start, exit_, head, negate, back, leave = broken[1:]
            scope = WhileScope(tx, inst, value, start, exit_, head, keep=when != negate)
            scope.after, scope.back = leave, back
        else:
            scope = WhileScope(tx, inst, value, *broken[:3], keep=when != broken[3])
            scope.for_break(*broken[4:])
        # (counters the body reads, found by an earlier attempt: ``while_trip``)
        scope.counters = planned_counters(tx.loop_plan(inst))
        scope.trace_body()
        scope.finish()
    except Counters as e:     # (the body reads a counter: again, with it as i0 + trip)
        tx.refuse_loop_node(inst, f"while loop: {e}", e.counters)
    except NotALoopNode as e:
        tx.refuse_loop_node(inst, f"while loop: {e}")
    except Exception as e:  # noqa: BLE001 (anything the body cannot be: a break)
        tx.refuse_loop_node(inst, f"while loop: {why_not(e)}")
    tx.ip = scope.after
    return True


def _loop_test(tx, inst) -> tuple:
    """``(while_shape, for_break_shape)`` of the conditional jump ``inst``, where a loop
    node may be tried there (Nones where not)."""
    plan = tx.loop_plan(inst)
    if plan is not None and plan.kind != "counters" or tx.output.loop_scope is not None or \
            tx.output.kind not in (None, ops.NUMPY) or tx.in_try():
        return None, None
    shape = loop_shape(tx.info.insts, inst)
    if shape is not None:
        return shape, None
    broken = for_break_shape(tx, inst)
    insts = tx.info.insts
    if broken is None and inst.name in _CONDITIONAL:
        broken = while_counter_break(insts, inst)
        broken = None if broken is None else ("while counter", *broken)
    if broken is None:
        broken = while_true_break(insts, inst, lambda at, back: _leaves(insts, at, back))
        broken = None if broken is None else ("while True", *broken)
    return None, broken


def _leaves(insts, leave: int, back) -> bool:
    """The code at ``leave`` leaves a ``while True`` loop whose jump back is ``back``,
    for good: a jump past ``back`` (3.11), the code after the loop up to a ``return``
    (3.13 copies it there), or the code right after ``back`` (3.14)."""
    while insts[leave].name in PASSING:
        leave += 1
    out = insts[leave]
    return out.name in ("JUMP_FORWARD", "JUMP") and out.target is not None and \
        out.target > back.index or code_tail(insts, leave) is not None or \
        leave == back.index + 1


def tests_loop_next(tx, value) -> bool:
    """3.12+: the truth of ``value`` is asked by the instruction that makes the bool
    (``COMPARE_OP`` with its cast, ``TO_BOOL``) right before the conditional jump
    that uses it. True where that jump may run a ``while_loop`` node: the array is
    handed to the jump (``while_loop_node``), which asks its truth where it runs no
    node, as the instruction would have."""
    if not isinstance(value, ArrayVariable) or not isinstance(value.meta, ops.ArrayMeta) \
            or value.meta.ndim != 0 or tx.ip >= len(tx.info.insts):
        return False
    jump = tx.info.insts[tx.ip]
    if jump.name not in _CONDITIONAL:
        return False
    scope = tx.output.loop_scope
    if isinstance(scope, WhileScope) and scope.tx is tx:   # the test again, in the body
        return scope.is_test(jump)
    return any(x is not None for x in _loop_test(tx, jump))


_LOADS = ("LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_BORROW", "LOAD_FAST_LOAD_FAST",
          "LOAD_FAST_BORROW_LOAD_FAST_BORROW")
_READS = ("LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_BORROW", "LOAD_FAST_AND_CLEAR",
          "LOAD_FAST_LOAD_FAST", "LOAD_FAST_BORROW_LOAD_FAST_BORROW", "DELETE_FAST",
          "STORE_FAST_LOAD_FAST", "LOAD_CLOSURE", "LOAD_DEREF")


def for_break_shape(tx, inst):
    """Where the conditional jump ``inst`` is ``if <test>: break``, the last statement
    of a ``for`` loop over a range whose iterator is on top of the stack:
    ``(start, end, head, negate, after, for_iter, trips, back)``. ``start``: where the
    loop goes on (the code after the test, ``B``, up to the jump back at ``back`` to
    its ``FOR_ITER``, at ``head``: ``loop_exits``), ``end``:
    the loop's end, ``after``: the ``break``'s code, which pops the iterator and runs
    what follows the loop (the loop has no ``else``: the ``break`` and the loop's
    normal end run the same code), ``rest``: the range's values left. The loop
    variable must be read nowhere in the loop: only the data decides how far it got
    (after the loop it is ``rest.start + rest.step * (u - 1)`` for ``u`` trips, an
    unbacked size, ``WhileScope.finish``). None for other jumps."""
    insts = tx.info.insts
    if inst.name not in _CONDITIONAL or inst.target is None or inst.target <= inst.index:
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
        if back is not None and _breaks_to_end(insts, brk, for_iter):
            store = insts[for_iter.index + 1]
            # (the body is up to the jump and from ``go_on`` to the jump back; the
            # ``break``'s code may read the variable: 3.12+ copy the tail there)
            body = insts[for_iter.index + 2:inst.index] + insts[go_on:back]
            if store.name != "STORE_FAST" or any(
                    i.name in _READS and store.arg in names(i.arg) for i in body) or \
                    store.arg in stored_in(insts, go_on, back):
                return None
            return (go_on, for_iter.target, for_iter.index, negate, brk,
                    for_iter.index, rest, back)
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
    if inst.name not in _CONDITIONAL or inst.target is None:
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
    if back.name in _CONDITIONAL and back.target == start or \
            back.name in JUMPS_BACK and (back.target == start or back.target <= test):
        return start, exit_, min(back.target, start), True
    return None


def _int_step(old, new) -> int | None:
    """``int_step``, also for a counter that starts at a symbol (``left`` an int
    argument that changed between calls: ``s0`` -> ``s0 - 1``): a constant step."""
    step = int_step(old, new)
    if step is not None or not isinstance(old, ConstantVariable) or \
            not isinstance(new, ConstantVariable) or \
            not all(isinstance(v.value, SymInt) or type(v.value) is int for v in (old, new)):
        return step
    diff = new.value - old.value
    if isinstance(diff, SymInt):
        return diff.sym.const if diff.sym.is_constant() else None
    return diff if type(diff) is int else None


def counted_shape(insts, inst) -> tuple | None:
    """``(body start, exit, head, negate, counter test)`` where the conditional jump
    ``inst`` on the array test is followed by a test of ints that ends the loop too:
    ``while err > tol and it < maxit:`` (``while_counters``). The counter test is in
    front (its jump out of the loop, then the body; 3.14 tests only there), or at the
    bottom: 3.11 jumps back to the body's start where it holds, 3.12-3.13 jump out
    where it fails, then back. None for other jumps."""
    if inst.name not in _CONDITIONAL or inst.target is None or inst.target <= inst.index:
        return None
    test = counter_test(insts, inst.index + 1)
    if test is None or insts[test.jump].name not in _CONDITIONAL:
        return None
    jump, exit_ = insts[test.jump], inst.target
    if jump.target is None:
        return None
    if jump.target < jump.index:                        # the bottom test, 3.11
        if not _CONDITIONAL[jump.name] or jump.index + 1 != exit_ or \
                insts[jump.target].name == "FOR_ITER":
            return None
        return jump.target, exit_, jump.target, True, test
    if _CONDITIONAL[jump.name] or jump.target != exit_:
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
    if inst.name not in _CONDITIONAL or inst.target is None or inst.target <= inst.index:
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


class WhileScope(LoopScope):
    """One attempt at a ``while_loop`` node: the loop ``while bool(cond) == keep:``,
    whose body (from ``start`` to the next test on a 0-d array that goes on to
    ``start``) is traced once into a body graph of the carried arrays that returns
    them and the next test's value. The checks are ``LoopScope``'s, less those about
    an index (there is none), plus: every carried array keeps its slot (no swaps: their
    order would depend on the number of trips, which only the data decides), a local
    the body binds is dead after the loop (it is unbound where no trip runs), and the
    test at the bottom is the same kind of value as the one in front (0-d).

    Example: ``while err > tol: x = 0.5 * (x + a / x); err = np.abs(x * x - a).max()``
    becomes ``while_loop = ops.while_loop(while_loop_body, True, greater, (x, err), (a,))``.

    Python ints the body only steps (``it += 1``) are counters (``steps``), and
    ``and it < maxit`` after the array test (``test``) a bound on the trips
    (``while_counters``), ``or it < miniter`` a least number of trips
    (``or_counter_tests``); after the loop a counter is ``it0 + step * taken``.
    """

    def __init__(self, tx, inst, cond, start: int, exit_: int, head: int, keep: bool,
                 test: CounterTest | None = None):
        self.tx, self.inst, self.keep = tx, inst, keep
        # ``and it < maxit`` after the array test (``counted_shape``): a bound on the
        # trips; ``steps``: the Python int counters the body steps (name -> step)
        self.test, self.steps = test, {}
        # (arguments the loop reads that the trace has not read yet, the counter
        # test's among them: wrapped now, so guarded, and held at the loop's entry;
        # else an array argument first read in the body, ``x = x * 0.5``, would look
        # bound in the body)
        args = getattr(tx, "args", ())
        for i in tx.info.insts[min(head, start, inst.index):exit_]:
            if i.name in _LOADS:
                for name in names(getattr(i.arg, "name", i.arg)):
                    if isinstance(name, str) and name not in tx.locals and name in args:
                        tx.load_local(name)
        self.cond = cond.node    # (before the trace: a carried array's node changes)
        self.cond_meta, self.test_slot = cond.meta, None
        self.start, self.exit, self.head = start, exit_, head
        self.after = exit_       # where the trace goes on after the loop
        self.for_iter, self.bound = None, None
        # (``for_break``: the jump back that ends the code after the test, and what
        # the trace had made when it got to the next item, ``AtItem``: ``loop_exits``;
        # ``test_slot``: the test carried, where there is such code)
        self.back, self.at_item = None, None
        # (``while it < maxit: A; if <test>: break; B``: where B ends, the counter test
        # after it; ``loop_exits.while_counter_break``)
        self.counter_at, self.leave = None, frozenset()
        self.output = tx.output
        self.symbol = f"loop{next(node_numbers)}"      # (no index: nothing reads it)
        self.trips = self.last = 0
        self.counters = {}
        self.facts = []
        self.body = Graph()
        self._enter(set(), exit_)

    def for_break(self, after: int, for_iter: int, rest: range, back: int) -> None:
        """The loop is ``for ...: ...; if <test>: break`` (``for_break_shape``), maybe
        with code after the test up to the jump back at ``back`` (``loop_exits``): at
        most ``len(rest)`` more trips; the trace steps over its ``FOR_ITER`` (the loop
        variable, read nowhere in the loop, keeps its value) and goes on at the
        ``break``'s code."""
        self.after, self.for_iter, self.bound, self.rest = after, for_iter, len(rest), rest
        self.back = back
        self.variable = self.tx.info.insts[for_iter + 1].arg

    def fit(self, op, meta_args, meta_kwargs, meta):
        """An op that reads a counter (``x + h * i``): elementwise, the counter a number
        (``while_trip.check_use``); then as a ``for`` loop's index, at trip 0."""
        check_use(self, op, meta_args, meta_kwargs)
        return super().fit(op, meta_args, meta_kwargs, meta)

    def _check_index_uses(self) -> None:
        """As ``LoopScope._check_index_uses``, named for a counter (``while_trip``)."""
        try:
            super()._check_index_uses()
        except NotALoopNode:
            raise NotALoopNode(f"the body branches on a counter or uses it as a plain "
                               f"int{PINNED}") from None

    def _check_slots(self) -> None:
        """As ``LoopScope._check_slots``, but carried arrays that share memory (``A``
        and ``d = np.diag(A)``) are allowed where the body writes neither in place
        (``_check_shared``, after the trace): every array the frame holds is carried,
        as the body may rebind any of them."""
        self.shared: dict = {}
        for v in self.slots:
            if v.may_be is not None:
                raise NotALoopNode("a carried array may be another one")
            self.shared.setdefault(memory_base(v.node), []).append(v)

    def _check_shared(self, written: set) -> None:
        index = {id(v): k for k, v in enumerate(self.slots)}
        for group in self.shared.values():
            if len(group) > 1 and any(index[id(v)] in written for v in group):
                raise NotALoopNode("the body writes into one of two carried arrays that "
                                   "share memory")

    def trace_body(self) -> None:
        tx, out = self.tx, self.output
        names = {id(v): n for n, v in reversed(self.entry_locals.items())}
        frame_locals = tx.locals      # (the same dict again afterwards: others hold it)
        if self.counters:   # (the trip first: the body is ``(trip, *carried, *free)``)
            bind_counters(self, frame_locals)
        for v in self.slots:
            p = self.body.placeholder(names.get(id(v), v.node.name), meta={
                "array": v.meta, "loop_outer": v.node, "carried": True})
            self.placeholders[id(v)] = p
            v.node = p
        if (self.for_iter is not None or self.counter_at is not None) and \
                stored_in(tx.info.insts, self.start, self.back) | \
                {i.name for i in tx.info.insts[self.start:self.back]} - {"NOT_TAKEN", "NOP"}:
            # code after the test: the last test is carried out of the loop, to run
            # that code once more where the range runs out (``loop_exits``)
            self.test_slot = self.body.placeholder("exit_test", meta={
                "array": self.cond_meta, "loop_outer": self.cond, "carried": True})
        out.graph, out.loop_scope = self.body, self
        out.side_effects.log = []
        tx.ip = self.start
        tx.locals = WatchedLocals(frame_locals)
        try:
            while True:
                if tx.ip != self.start and self._at_test():
                    break
                if tx.ip == self.counter_at and self.at_item is None:   # B done
                    self.at_item = AtItem(self.body, out.side_effects.log, tx.locals,
                                          tx.stack)
                if tx.ip == self.for_iter:     # the next item: never read (for_break)
                    if self.at_item is None:
                        self.at_item = AtItem(self.body, out.side_effects.log, tx.locals,
                                              tx.stack)
                    tx.push(self.entry_locals[tx.info.insts[tx.ip + 1].arg])
                    tx.ip += 1
                    continue
                tx.step()
                self._check_index_uses()
                if tx.done or tx.suspended:
                    raise NotALoopNode("the body returns")
                if not self.head <= tx.ip < self.exit:
                    raise NotALoopNode("the body jumps out of the loop")
        finally:
            self._leave_body(tx, frame_locals)
            self._forget_body_sizes()
            unbind(self)
        self.cond_end = tx.pop()
        if not isinstance(self.cond_end, ArrayVariable) or self.cond_end.meta.ndim != 0:
            raise NotALoopNode("the test at the end of the body is no 0-d array")

    def _at_test(self) -> bool:
        """The trace is at the loop's test again (``is_test``)."""
        inst = self.tx.info.insts[self.tx.ip]
        if not self.is_test(inst):
            return False
        shape = loop_shape(self.tx.info.insts, inst)
        if shape is not None and inst.index != self.inst.index and \
                (_CONDITIONAL[inst.name] != shape[3]) != self.keep:
            raise NotALoopNode("the test at the bottom is not the one in front")
        return True

    def is_test(self, inst) -> bool:
        """Whether the jump ``inst`` is the loop's test: the jump that started the loop,
        or another conditional jump of the same loop (``while_shape``: the test at the
        bottom, where the one in front started it)."""
        if inst.index == self.inst.index:
            return True
        if self.for_iter is not None or self.back is not None or \
                inst.name not in _CONDITIONAL:
            return False
        shape = loop_shape(self.tx.info.insts, inst)
        return shape is not None and shape[:2] == (self.start, self.exit) and (
            shape[4] is None if self.test is None else self.test.same_test(shape[4]))

    def _temporaries(self) -> None:
        """Locals other than carried arrays: unchanged, or bound in the body and dead
        after the loop (where no trip runs they stay unbound: no value to give them);
        they are dropped. A Python value that changes (``k += 1``) is no node: the
        number of trips is known only when the graph runs."""
        tx = self.tx
        slot_ids = {id(v) for v in self.slots}
        dead = dead_after(tx, self.after)
        counters = {}
        if set(self.entry_locals) - set(tx.locals):
            raise NotALoopNode("the body deletes a local")
        for name, var in list(tx.locals.items()):
            if name not in self.entry_locals:
                if name not in dead:
                    raise NotALoopNode(f"the local {name!r}, bound in the body, is read "
                                       "after the loop")
                tx.drop_temporary(name)
                continue
            old = self.entry_locals[name]
            if var is old or id(old) in slot_ids or same_constant(var, old):
                continue
            if name in self.counters:      # read in the body, as ``i0 + step * trip``
                step = self.counters[name]
                if not isinstance(var, ConstantVariable) or \
                        not same_int(var.value, counter_at(self, name, step, 1)):
                    raise NotALoopNode(f"the counter {name!r} does not step by {step}")
                self.steps[name] = step
                tx.locals[name] = old
                continue
            step = _int_step(old, var)
            if step is not None and only_stepped(tx.info.insts, *self._code(), name,
                                                 self._tests() | spent_tests(self, name, step)):
                self.steps[name] = step       # a counter: it0 + step * trips after
                continue
            if counter_read(old, var, step, self.watched.first.get(name)):
                counters[name] = step         # read in the body: ``while_trip``
                continue
            if name in dead and self.watched.first.get(name) == "write" and \
                    not self.watched.opaque:
                # every trip stores it before reading it, and nothing reads it after
                # the loop (``lam_old = lam`` after the test, ``lam_old = 0.0`` before
                # the loop): its value between trips is no state of the loop
                tx.drop_temporary(name, old)
                continue
            raise NotALoopNode(f"the local {name!r} is carried from one trip to the next "
                               f"({old.describe()} -> {var.describe()}){carried_shape(step, var)}")
        if counters:
            raise Counters({**self.counters, **counters})

    def _code(self) -> tuple[int, int]:
        """The loop's instructions, ``lo:hi``: its tests, its body, its jumps."""
        return min(self.head, self.start, self.inst.index), self.exit

    def _tests(self) -> frozenset:
        """The instructions of the counter test, in front and at the bottom."""
        if self.test is None:
            return frozenset()
        insts, (lo, hi) = self.tx.info.insts, self._code()
        # (and 3.12+'s copy of the code after the loop at a ``break``, which may read
        # the counter after the loop: ``while_counter_break``)
        found = set(self.test.indices) | self.leave
        for inst in insts[lo:hi]:
            shape = loop_shape(insts, inst) if inst.name in _CONDITIONAL else None
            if shape is not None and shape[:2] == (self.start, self.exit) and \
                    self.test.same_test(shape[4]):
                found |= shape[4].indices
        return frozenset(found)

    def _least(self) -> int | SymInt:
        """``while err > tol or it < miniter:``: the number of trips the counter test
        makes the node run whatever the array test says (``or_counter_tests``). Where
        ``miniter`` is a symbol (an argument that changed between calls), a counter
        that steps by 1 towards it holds on the first ``miniter - it0`` tests and on
        none after (``_symbolic_bound``: that expression, required ``>= 0``)."""
        sides = self._sides()
        if any(isinstance(v, SymInt) for v, _ in sides):
            return self._symbolic_bound(*sides)
        least = least_trips(sides[0], sides[1], self.test.compare)
        if least is None:
            raise NotALoopNode("the loop's `or` counter test could hold again after it "
                               "fails, or never fails (while err > tol or it < miniter "
                               "with it += 1 is a node)")
        return least

    def _bound(self) -> int | None:
        """The most trips the counter test allows (``trips_bound``), from the ints the
        test compares: a counter the body steps, and an int it does not change (a
        constant, or a local guarded as the int it is)."""
        sides = self._sides()
        if all(step for _, step in sides):
            raise NotALoopNode("the loop's test compares two counters")
        if any(isinstance(v, SymInt) for v, _ in sides):
            return self._symbolic_bound(*sides)
        return trips_bound(sides[0], sides[1], self.test.compare)

    def _sides(self) -> list:
        """``[(value at the first test, step per trip)]`` of the counter test's two
        ints."""
        sides = []
        for kind, value in self.test.operands:
            if kind == "const":
                sides.append((value, 0))
                continue
            var = self.entry_locals.get(value)
            if not isinstance(var, ConstantVariable) or \
                    type(var.value) is not int and not isinstance(var.value, SymInt):
                raise NotALoopNode(f"the loop's test compares {value!r}, no Python int")
            sides.append((var.value, self.steps.get(value, 0)))
        return sides

    def _check_plain_test(self) -> None:
        """``while it < maxit and <array test>:`` asks the counter first; the node asks
        the array test first (``ops.while_loop``), so where the counter ends the loop
        the body graph has computed that test once more than Python. That is exact only
        where the test is a plain comparison of values the body computed
        (``err > tol``, ``not done``: ``while_counters.plain_test``); a test that
        computes (``np.linalg.norm(r) > tol``, ``hi - lo > tol``) could warn or raise
        there."""
        if not plain_test(self.tx.info.insts, self.test.jump + 1, self.inst.index):
            raise NotALoopNode(
                "the loop tests its counter first (while it < maxit and <array test>) "
                "and its array test computes values, which Python does not compute where "
                "the counter ends the loop: compute the value in the body (err = ...; "
                "while it < maxit and err > tol) or test the array first")

    def _symbolic_bound(self, left: tuple, right: tuple) -> SymInt:
        """``trips_bound`` where an int of the test is a symbol (``maxit``, an argument
        that changed between calls): for a counter that steps by 1 towards it
        (``it < maxit``, ``left > 0`` with ``left`` the symbol), the bound is an
        expression, ``maxit - it0``, that must be ``>= 0`` for every value the entry
        serves (proven from the symbols' ranges, or guarded: ``_require``); other
        steps or comparisons are no node (a ceiling is no affine expression)."""
        (a0, da), (b0, db) = left, right
        # a trip bound is a size (a changing int in it is guarded >= 2, or pinned)
        as_size(symbols_of((a0, b0)), "a while loop's trip bound")
        d0, dd = a0 - b0, da - db          # as in ``trips_bound``
        e0, ed = {"LT": (d0, dd), "LE": (d0 - 1, dd), "GT": (-d0, -dd),
                  "GE": (-d0 - 1, -dd)}.get(self.test.compare, (None, None))
        if ed != 1:
            raise NotALoopNode("the loop's test bounds the trips by a symbol in a way "
                               "that is no affine expression")
        bound = -e0
        self._require(bound, "the loop's counter test fails at once for some values")
        return bound

    def _shifts(self, nexts: dict, written: set) -> set:
        """The slots that take another slot's array, which takes a new one
        (``x = x_new`` after the test, ``x_new = f(x)`` before it; ``u_prev, u = u,
        u_next``): a shift, after which each holds the node's result (the other
        slot's array of the last trip, or where no trip ran its own). A cycle
        (``a, b = b, a``) is a swap, whose order after the loop would follow the number
        of trips, which only the data decides: no node; nor a shift of arrays the body
        writes in place."""
        perm = {k: j for k, j in nexts.items() if isinstance(j, int) and j != k}
        for k in perm:
            seen, end = {k}, nexts[k]
            # (along the chain to its end: a new array, or an unchanged slot's)
            while isinstance(end, int) and end not in seen and nexts[end] is not end:
                seen.add(end)
                end = nexts[end]
            if isinstance(end, int) and end in seen:
                raise NotALoopNode("carried arrays are swapped: their order after the "
                                   "loop depends on the number of trips")
            if isinstance(end, int) or end.node.graph is not self.body or \
                    end.node in self.free.values():
                raise NotALoopNode("carried arrays are shifted into an array that is "
                                   "not new in the trip")
            if seen & written:
                raise NotALoopNode("carried arrays that are shifted are written in place")
        return set(perm)

    def _tail(self, loop, final: dict, outputs: list, count: bool = False):
        """After the node ``loop``: the code after the test (``B``) once more where
        the last test still said "go on" (the range ran out), as a ``while_loop``
        node of at most one trip over ``loop``'s results (``loop_exits``); ``final``
        (slot -> its value after the loop) then holds ``B``'s results. ``count``: the
        trips it ran (0 or 1, an unbacked size, returned; None without), for a
        counter that ``B`` steps (``while_counter_break``)."""
        out = self.output
        test = out.graph.call("getitem", (loop, len(self.slots)), meta={
            "array": self.cond_meta, **out.current_loc, "kind": ops.get("getitem").kind})
        metas = tuple(v.meta for v in self.slots) + (self.cond_meta,)
        if count:
            ran = out.shape_env.new_unbacked("whether the code after a loop's exit test ran "
                                             "once more, where the counter ended the loop")
            metas += (ops.ArrayMeta((ran, 0), np.dtype(np.bool_)),)
        node = out.graph.call("while_loop", (
            tail_graph(self, outputs, self.test_slot), self.keep, test,
            tuple(final[k].node for k in range(len(self.slots))) + (test,),
            tuple(self.free), 1, count), meta={
                "array": metas, **out.current_loc, "kind": ops.get("while_loop").kind})
        for k, how in enumerate(outputs):
            if how[0] == "shift":     # (into a slot dead after the loop: no alias seen)
                final[k] = ArrayVariable(out.graph.call("getitem", (node, k), meta={
                    "array": final[k].meta, **out.current_loc, "kind": ops.get("getitem").kind}),
                    final[k].meta)
            elif how[0] == "written":
                out.writes.guard_writeable(final[k].node)
                final[k].node = out.graph.call("after_loop", (final[k].node, node), meta={
                    "array": final[k].meta, **out.current_loc, "kind": ops.MUTATION})
            elif how[0] == "new":
                final[k] = ArrayVariable(out.graph.call("getitem", (node, k), meta={
                    "array": final[k].meta, **out.current_loc, "kind": ops.get("getitem").kind}),
                    final[k].meta)
        if not count:
            return None
        ran_node = out.graph.call("getitem", (node, len(metas) - 1), meta={
            "array": metas[-1], **out.current_loc, "kind": ops.get("getitem").kind})
        out.unbacked_sizes[ran.sym.terms[0][0]] = (ran_node, 0)
        return ran

    def _counter_in_tail(self) -> None:
        """``while it < maxit: A; if <test>: break; B`` (``while_counter_break``): the
        trace held the first counter test, so the node's trips are the tests that hold
        after it (one fewer). Each counter must be stepped in ``B`` only (after the
        ``break``'s test): after the loop it is then ``it0 + step * (the node's trips +
        the one more run of B where the counter ended the loop)``."""
        insts = self.tx.info.insts
        if set(self.steps) & stored_in(insts, min(self.head, self.start), self.inst.index):
            raise NotALoopNode("a counter is stepped before the loop's break test "
                               "(while it < maxit: it += 1; ...; if <test>: break)")
        if self.bound is not None:
            self.bound = self.bound - 1
            self._require(self.bound, "the loop's counter test fails after one trip")

    def finish(self) -> None:
        tx, out = self.tx, self.output
        self._check_effects()
        holders = self._holders()
        # the code after the test, again where the range runs out (``loop_exits``)
        tail = self.test_slot is not None and needs_tail(self, dead_after(tx, self.after))
        if tail and self.counters:   # (B's node would need the trip the first ended at)
            raise NotALoopNode("a counter read in the body of a loop with code after its "
                               "break's test")
        outputs = tail_outputs(self, holders, dead_after(tx, self.after)) if tail else None
        if tail and self.cond_end.meta != self.cond_meta:
            raise NotALoopNode("the test at the end of the body is another kind of value")
        nexts = self._next_values(holders)
        written = {k for k, v in enumerate(self.slots)
                   if v.node is not self.placeholders[id(v)]}
        shifted = self._shifts(nexts, written)
        self._check_shared(written)
        results = tuple(self.slots[j].node if isinstance(j, int) else j.node
                        for j in nexts.values())
        self._check_sizes_left()
        tested = (self.cond_end.node,) if self.test_slot is not None else ()
        self.body.output(self.localize(results + tested + (self.cond_end.node,)))
        self._check_distinct_results(nexts)
        metas = tuple(v.meta for v in self.slots) + \
            ((self.cond_meta,) if self.test_slot is not None else ())
        stepped = self.test is not None and any(
            kind == "local" and name in self.steps for kind, name in self.test.operands)
        least = 0
        if self.test is not None and self.test.either:
            least = self._least()
        elif self.test is not None and (stepped or not self.test.first):
            # (an int test in front that nothing steps held in the trace and holds on
            # every trip, as before: no bound, no test made once more)
            self.bound = self._bound()
            if self.test.first and self.bound is not None:
                self._check_plain_test()
            if self.counter_at is not None:
                self._counter_in_tail()
        check_int_range(self)
        # a loop variable or a counter read after the loop: from the number of trips,
        # a size read off the node
        dead = dead_after(tx, self.after)
        counters = [name for name in self.steps if name not in dead]
        variable = self.for_iter is not None and self.variable in tx.info.live_at(self.after)
        count = variable or bool(counters)
        if variable:
            if not self.rest:
                raise NotALoopNode("no trips left")
        if count:
            line = os.path.basename(out.current_loc.get("loc", ""))
            taken = out.shape_env.new_unbacked(
                "the number of trips of a loop that breaks on array data"
                + (f", at {line}" if line else ""))
            counter = ops.ArrayMeta((taken, 0), np.dtype(np.bool_))
        loop = out.graph.call("while_loop", (
            self.body, self.keep, self.cond,
            tuple(self.before[id(v)] for v in self.slots) +
            ((self.cond,) if self.test_slot is not None else ()),
            tuple(self.free), out.graph_arg(self.bound), count) +
            ((out.graph_arg(least),) if isinstance(least, SymInt) or least or self.counters
             else ()) + ((True,) if self.counters else ()), meta={
                "array": metas + (counter,) if count else metas, **out.current_loc,
                "kind": ops.get("while_loop").kind})
        self._slots_after(out, loop, written)
        # (its work, for the unroll budget of a loop around it: each unrolled trip of
        # that loop traces and compiles this node's body again)
        out.loop_trips += self.bound if isinstance(self.bound, int) else _UNBOUNDED_WORK
        final = {}
        for k, nxt in nexts.items():
            if isinstance(nxt, int) and k not in shifted:
                final[k] = self.slots[k]
            else:
                node = out.graph.call("getitem", (loop, k), meta={
                    "array": self.slots[k].meta, **out.current_loc,
                    "kind": ops.get("getitem").kind})
                final[k] = ArrayVariable(node, self.slots[k].meta)
        ran = None
        if tail:
            ran = self._tail(loop, final, outputs, self.counter_at is not None and
                             bool(counters))
        elif self.counter_at is not None and counters:
            raise NotALoopNode("a counter read after the loop that the code after the "
                               "break's test does not step")
        self._set_state(holders, final)
        self._own_fresh_sizes()
        if count:    # the value after u trips: rest[u - 1], or as it was for none
            node = out.graph.call("getitem", (loop, len(metas)), meta={
                "array": counter, **out.current_loc, "kind": ops.get("getitem").kind})
            out.unbacked_sizes[taken.sym.terms[0][0]] = (node, 0)
        for name, step in self.steps.items():   # (one nothing reads after: as before)
            start = self.entry_locals[name]
            if name in counters:     # (+ B's one more run: ``while_counter_break``)
                trips = taken if ran is None else taken + ran
                tx.locals[name] = ConstantVariable(start.value + trips * step)
            else:
                tx.locals[name] = start
        if variable:
            value = tx.locals[self.variable].value
            if value != self.rest.start - self.rest.step:
                raise NotALoopNode("the loop variable is not the range's last value")
            tx.locals[self.variable] = ConstantVariable(value + taken * self.rest.step)
