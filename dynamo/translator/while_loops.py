"""``while_loop`` nodes: loops whose exit the data decides, traced once.

``while err > tol:``, ``for ...: ...; if <test>: break`` and their counted forms
(``while it < maxit and err > tol:``) become one ``while_loop`` node (``ops/loops.py``)
the way ``loops.LoopScope`` makes a ``fori_loop`` of a ``for`` loop: traced once from
the conditional jump on a 0-d array that tests them (``while_loop_node``), into a body
graph of the carried arrays that returns them and the next test's value
(``while_scope.WhileScope``, ``LoopScope``'s checks less those about an index). The
bytecode shapes recognised are ``while_shapes``' (``while_shape``, ``counted_shape``,
``break_shape``, ``for_break_shape``); code after a ``break``'s test is
``loop_exits``'s, counters ``while_counters``' and ``counter_bounds``', Python float
clocks (``t += dt``) ``while_clocks``' (docs/loops.md).

Example::

    while err > tol:                         while_loop = ops.while_loop(
        x = 0.5 * (x + a / x)         ->         while_loop_body, True, greater,
        err = np.abs(x * x - a).max()            (x, err), (a,))
"""

from __future__ import annotations

from .. import ops
from ..variables import ArrayVariable
from .loop_body_state import Counters
from .loop_exits import PASSING, code_tail, while_counter_break, while_true_break
from .loop_facts import NotALoopNode, why_not
from .loop_returns import run_exit_code
from .nested_loops import unwatched
from .while_caps import cap_shape, data_exit
from .while_scope import WhileScope
from .while_shapes import CONDITIONAL, for_break_shape, loop_shape
from .while_trip import planned_counters


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
            start, exit_, head, negate, back, counter_at, test, leave, exits = broken[1:]
            scope = WhileScope(tx, inst, value, start, exit_, head, keep=when != negate,
                               test=test)
            scope.back, scope.counter_at, scope.leave = back, counter_at, leave
            if exits is not None:   # (``if c: return E``: ``loop_returns``)
                scope.after, scope.ends, scope.join = exits
        elif broken[0] == "while cap":   # ``if k > maxit: return E`` or ``break``
            start, exit_, head, negate, cap = broken[1:]
            scope = WhileScope(tx, inst, value, start, exit_, head, keep=when != negate)
            cap.enter(scope)      # (``while_caps``)
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
        with unwatched(tx.locals):   # (nested: the outer body's locals, ``hand_back``)
            scope.finish()
        if scope.ends is not None:     # (code at the exit: ``loop_returns``)
            scope.after = run_exit_code(tx, scope, scope.node)
    except Counters as e:     # (the body reads a counter: again, with it as i0 + trip)
        tx.refuse_loop_node(inst, f"while loop: {e}", e.counters)
    except NotALoopNode as e:
        tx.refuse_loop_node(inst, f"while loop: {e}")
    except Exception as e:  # noqa: BLE001 (anything the body cannot be: a break)
        tx.refuse_loop_node(inst, f"while loop: {data_exit(tx.info.insts, inst, why_not(e))}")
    tx.ip = scope.after
    return True


def _loop_test(tx, inst) -> tuple:
    """``(while_shape, for_break_shape)`` of the conditional jump ``inst``, where a loop
    node may be tried there (Nones where not)."""
    plan = tx.loop_plan(inst)
    if plan is not None and plan.kind != "counters" or \
            tx.output.kind not in (None, ops.NUMPY) or tx.in_try():
        return None, None
    # (the loop's own test, met by a way of an ``if`` in its body that returns,
    # ``branch_selects``: that way goes on with the loop, no loop of its own)
    scope = tx.output.loop_scope
    if isinstance(scope, WhileScope) and scope.tx is tx and scope.is_test(inst):
        return None, None
    if scope is None:   # (a cap in the body: ``while_caps``)
        cap = cap_shape(tx.info.insts, inst)
        if cap is not None:
            return None, ("while cap", *cap)
    shape = loop_shape(tx.info.insts, inst)
    # (in a loop node's body: a plain ``while`` only, a nested node; the others' shapes
    # read the frame's locals, ``for_break_shape``, and are not tried there)
    if shape is not None or tx.output.loop_scope is not None:
        return shape, None
    broken = for_break_shape(tx, inst)
    insts = tx.info.insts
    if broken is None and inst.name in CONDITIONAL:
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
    if jump.name not in CONDITIONAL:
        return False
    scope = tx.output.loop_scope
    if isinstance(scope, WhileScope) and scope.tx is tx:   # the test again, in the body
        return scope.is_test(jump)
    return any(x is not None for x in _loop_test(tx, jump))

