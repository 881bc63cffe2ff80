"""``while k < n: ...; k += 1``: a counter loop over a size, as one ``fori_loop`` node.

A ``for k in range(n)`` loop whose ``n`` is a size that changes between calls is one
loop node with a symbolic trip count (``loops.SymbolicRest``): one graph serves every
size. The same loop written with a counter::

    k = 0
    while k < n:              # n = len(x), x.shape[0], an int argument
        x[k] += x[k - 1]
        k += 1

was unrolled: each test ``k < n`` guarded ``n > k`` for one more ``k``, and the last
guarded ``not (n > 60)``, so every size compiled again. When the counter is a Python
int that the body only reads and steps by 1 (or -1) in one place, and the bound is a
local the body never stores, the trips left at the test are an affine size (``n - k``
for ``<``, ``n - k + 1`` for ``<=``, ``k - n`` for ``>``, ``k - n + 1`` for ``>=``; the
other side of the comparison may be on the left), and the loop is the ``for`` loop
over them: a ``LoopScope`` (``loops``) whose counter is ``k``, ``k0 + step * trip``
(``Counters``), traced once from the body's start up to the test. After the node the
counter holds ``k0 + step * trips`` (``n``), as after Python's last test.

Where it is tried: at the test reached after one trip ran (3.11-3.13 test again at the
bottom of the loop; 3.14 tests only in front, so its second arrival there), so the
loop's state has its steady types, as for a ``for`` loop. Where the loop goes on and
more than ``config.loop_unroll_limit`` trips are left (a decision guarded as a ``for``
loop's is), the rest is one node; otherwise it is unrolled as before. A body that may
leave the loop other than through its test (``break``, ``return``), that stores the
bound, or whose counter is used other than by reads and its one step, is no such loop.
Any check of the attempt that fails (an index compared, a carried array that changes
shape) starts the trace over with the loop unrolled (``refuse_loop_node``), as for a
``for`` loop; the ``loops`` log says why.

Only for a bound or counter that is a symbolic int: with plain ints (a constant bound,
the first call's static sizes) the loop is unrolled as before (straight-line code for
one size ran a 200-trip prefix sum 1.12x plain on the numpy backend, the node 1.03x).

Example (3.11, ``prefix_sum`` of tests/translator/test_counted_whiles.py, ``k = 1``
before the loop, ``n`` the size ``s0``; at ``POP_JUMP_BACKWARD_IF_TRUE``, the test at
the bottom, after the first trip)::

    counted_while(tx, inst)
    -> CountedWhile(start=12, end=30, exit=34, test_start=30, negate=False,
                    counter='k', step=1, trips=s0 - 2, bottom=True)
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import ops, pyversion
from ..symbolic import SymInt
from ..variables import ConstantVariable
from .loop_body_state import Counters
from .loop_exits import stored_in
from .loop_facts import NotALoopNode, why_not
from .loops import LoopScope, SymbolicRest
from .nested_loops import unwatched
from .while_counters import CounterTest, counter_test, step_operand, steps_of
from .while_shapes import while_shape

_FLIP = {"LT": "GT", "LE": "GE", "GT": "LT", "GE": "LE"}
# the trips left at a test that holds, per comparison (counter on the left) and step
_LEFT = {("LT", 1): lambda k, n: n - k, ("LE", 1): lambda k, n: n - k + 1,
         ("GT", -1): lambda k, n: k - n, ("GE", -1): lambda k, n: k - n + 1}
_STEPS = {"ADD": 1, "INPLACE_ADD": 1, "SUBTRACT": -1, "INPLACE_SUBTRACT": -1}
_SIGNS = {"ADD": 1, "SUBTRACT": -1}
_LOADS = ("LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_BORROW")
_DOUBLE_LOADS = ("LOAD_FAST_LOAD_FAST", "LOAD_FAST_BORROW_LOAD_FAST_BORROW")
_CONSTANTS = ("LOAD_CONST", "LOAD_SMALL_INT")


@dataclass(frozen=True)
class CountedWhile:
    """A ``while`` loop whose test compares a counter with a bound: the body is
    ``start:end`` (up to the test at the bottom, or to the jump back to the test in
    front), ``exit`` where the loop leaves, ``test_start`` the test's first
    instruction, ``counter`` the local stepped by ``step``, ``trips`` those left where
    the test holds, ``bottom``: the test at the bottom (reached after a trip ran)."""
    start: int
    end: int
    exit: int
    test_start: int
    negate: bool
    counter: str
    step: int
    trips: SymInt
    bottom: bool


@dataclass(frozen=True)
class LoopHead:
    """What ``LoopScope`` reads of a loop's instruction: ``index``, where a trip's
    trace ends (the test's first instruction) and the loop's plans are kept, and
    ``target``, the loop's exit."""
    index: int
    target: int


class _NoIterator:
    """A counted ``while`` has no iterator; ``LoopScope.finish`` runs one out."""
    index, reverse, done = 0, False, False


class CountedWhileScope(LoopScope):
    """A ``LoopScope`` over the trips a counted ``while`` has left: its counter is one
    of ``counters`` (``k0 + step * trip``), a trip's trace runs from the body's start
    to the test (``inst``: a ``LoopHead``), and the locals every trip stores first
    are those of the body's passes (``CodeInfo.written_first_in``)."""

    def __init__(self, tx, loop: CountedWhile, head: LoopHead, counters: dict):
        self.passes = range(loop.start, loop.end)
        start = tx.locals[loop.counter].value
        super().__init__(tx, head, _NoIterator(), SymbolicRest(start, loop.step, loop.trips),
                         counters)
        self.exit_index = loop.exit   # (the code after the node: liveness)

    def _enter(self, targets: set[str], end: int) -> None:
        # (``targets``: a ``for`` loop's, found from its ``FOR_ITER``; none here. No
        # number is picked per trip, ``picks_numbers``, so none is carried apart.)
        super()._enter(self.tx.info.written_first_in(self.passes, self.inst.index), end)

    def trace_body(self) -> None:
        self.tx.ip = self.passes.start
        super().trace_body()
        # (the trace pushed the index for a ``FOR_ITER``'s store; a ``while`` stores
        # none: its counter holds the same value, ``k0 + step * trip``)
        self.tx.pop()


def counted_while(tx, inst) -> CountedWhile | None:
    """The counted ``while`` loop whose test ends in the conditional jump ``inst``,
    at the place it is tried (the test after a trip); None for other jumps, and for
    counters and bounds that are all plain ints (unrolled, as before)."""
    insts = tx.info.insts
    shape = while_shape(insts, inst)
    if shape is None:
        return None
    start, exit_, head, negate = shape
    test, offset = _test_of(insts, inst.index)
    if test is None:
        return None
    test_start = min(test.indices)
    bottom = test_start > start
    if not bottom and head > test_start:
        return None     # (3.11-3.13's test in front: the one at the bottom is tried)
    end = test_start if bottom else exit_
    if not _stays_in(insts, start, end, {head, test_start}):
        return None
    values = [_int_of(tx, operand) for operand in test.operands]
    if values[1] is not None:
        values[1] = values[1] + offset   # (``k < n - 1``)
    if any(v is None for v in values) or not any(isinstance(v, SymInt) for v in values):
        return None     # (plain ints: unrolled, as before; a fixed size's straight code)
    for side, ((kind, name), other) in enumerate(zip(test.operands, test.operands[::-1])):
        step = _one_step(insts, start, end, name) if kind == "local" else None
        if step is None or other[0] == "local" and other[1] in stored_in(insts, start, end):
            continue
        compare = test.compare if side == 0 else _FLIP.get(test.compare)
        left = _LEFT.get((compare, step))
        if left is None:
            return None
        trips = left(values[side], values[1 - side])
        return CountedWhile(start, end, exit_, test_start, negate, name, step, trips, bottom)
    return None


def _test_of(insts, jump: int) -> tuple[CounterTest | None, int]:
    """The comparison that feeds the conditional jump at ``jump`` (``counter_test``),
    or one whose right side adds an int constant to a local (``k < n - 1``: ``LOAD k;
    LOAD n; LOAD_CONST 1; BINARY_OP -; COMPARE_OP <``), with that constant (``-1``)."""
    for at in range(max(0, jump - 8), jump):
        test = counter_test(insts, at)
        if test is not None and test.jump == jump:
            return test, 0
        i, names = at, []
        while i < jump and len(names) < 2 and insts[i].name in _LOADS + _DOUBLE_LOADS:
            names += _names(insts[i].arg)
            i += 1
        if len(names) != 2 or names[0] == names[1] or i + 3 > jump:
            continue
        const, op, compare = insts[i:i + 3]
        sign = _SIGNS.get(getattr(op.arg, "name", None)) if op.name == "BINARY_OP" else None
        if const.name not in _CONSTANTS or type(const.arg) is not int or sign is None or \
                compare.name != "COMPARE_OP":
            continue
        name, _ = pyversion.compare_op(compare.arg)
        end = i + 3 + (insts[i + 3].name == "TO_BOOL")
        if end == jump and name in _FLIP:
            return CounterTest((("local", names[0]), ("local", names[1])), name, jump,
                               frozenset(range(at, jump + 1))), sign * const.arg
    return None, 0


def _names(arg) -> list:
    return list(arg) if isinstance(arg, tuple) else [arg]


def _int_of(tx, operand):
    """A Python int (or SymInt) the test's operand holds; None for other values."""
    kind, value = operand
    if kind == "local":
        var = tx.locals.get(value)
        value = var.value if isinstance(var, ConstantVariable) else None
    return value if type(value) is int or isinstance(value, SymInt) else None


def _one_step(insts, lo: int, hi: int, name: str) -> int | None:
    """+1 or -1 where the body ``lo:hi`` touches ``name`` only by reading it and by
    one step ``name += 1`` (``-= 1``, ``name = name + 1``); None otherwise."""
    steps = steps_of(insts, lo, hi, name, frozenset(), reads=True)
    if steps is None or len(steps) != 1:
        return None
    kind, value, op = step_operand(insts, steps[0])
    if kind != "const" or value != 1 or op not in _STEPS:
        return None
    return _STEPS[op]


def _stays_in(insts, lo: int, hi: int, tests: set[int]) -> bool:
    """No ``break``, ``return`` or ``raise`` in the body ``lo:hi``: its jumps stay in it
    or go to the loop's test (``tests``: the loop's head and the test's start; 3.14's
    jump back, a ``continue``), never to the loop's exit."""
    for i in insts[lo:hi]:
        if i.name.startswith(("RETURN_", "RAISE_", "RERAISE", "YIELD")):
            return False
        if i.target is not None and not lo <= i.target < hi and i.target not in tests:
            return False
    return True


def counted_while_node(tx, inst, value, when: bool) -> bool:
    """At the conditional jump ``inst`` (taken where ``bool(value) == when``) of a
    counted ``while`` loop's test: take or leave it as Python does, and where the loop
    goes on after its first trip with more than ``config.loop_unroll_limit`` trips
    left, run them as one loop node and go on at the loop's exit. False for other
    jumps (the caller decides them)."""
    loop = counted_while(tx, inst)
    if loop is None:
        return False
    head = LoopHead(loop.test_start, loop.exit)
    plan = tx.loop_plan(head)
    if plan is not None and plan.kind == "unroll":
        return False
    taken = value.truth(tx) == when   # (guards the test, as Python decides it)
    goes_on = taken != loop.negate
    # 3.14 tests only in front: its first arrival is before any trip (keyed apart
    # from the iterators' ids ``loop_node`` counts)
    key = ("counted while", inst.index)
    arrivals = tx.loop_arrivals.get(key, 0)
    tx.loop_arrivals[key] = arrivals + 1 if goes_on else 0
    if goes_on and arrivals == (0 if loop.bottom else 1) and _worth_a_node(tx, loop):
        _run_node(tx, loop, head, plan)
        return True
    if taken:
        tx.jump(inst)
    return True


def _worth_a_node(tx, loop: CountedWhile) -> bool:
    """As ``LoopNodes.may_become_loop_node``: NumPy arrays, outside any ``try`` and any
    loop body being traced, and more trips left than ``config.loop_unroll_limit``
    (decided last: a guard on the sizes, which ``LoopScope._known_facts`` takes)."""
    out = tx.output
    if out.loop_scope is not None or out.kind not in (None, ops.NUMPY) or tx.in_try() or \
            any(i in tx.info.catching for i in range(loop.start, loop.exit)):
        return False
    return bool(loop.trips > tx.config.loop_unroll_limit)


def _run_node(tx, loop: CountedWhile, head: LoopHead, plan) -> None:
    """The trips left as one ``fori_loop`` node (``LoopScope``); the trace goes on at
    the loop's exit. A failed check starts the trace over with the loop unrolled (or
    with the other counters the body stepped: ``Counters``)."""
    planned = (plan.counters or {}) if plan is not None and plan.kind == "counters" else {}
    counters = {name: step for name, step in planned.items() if type(step) is int}
    counters[loop.counter] = loop.step
    try:
        scope = CountedWhileScope(tx, loop, head, counters)
        scope.trace_body()
        with unwatched(tx.locals):
            scope.finish()
    except Counters as e:
        tx.refuse_loop_node(head, str(e), e.counters)
    except NotALoopNode as e:
        tx.refuse_loop_node(head, str(e))
    except Exception as e:  # noqa: BLE001 (anything the body cannot be: unroll it)
        if getattr(e, "nested_refusal", False):
            raise
        tx.refuse_loop_node(head, why_not(e))
    tx.ip = loop.exit
