"""Python float clocks of a ``while_loop`` node: ``while err > tol and t < t_end:``.

Time steppers count their time in a Python float beside the array test::

    t = 0.0
    while np.abs(x).max() > tol and t < t_end:
        x = x + dt * (-x)
        t += dt

``t += dt`` repeated is not ``t0 + i * dt``: each addition rounds, so the clock's value
before trip ``k`` is ``t0`` with ``dt`` added ``k`` times, one rounding each, and
nothing shorter computes it bit for bit. Where the body only steps the clock (one
``t += dt``, ``t -= dt``, ``t = t + dt`` or ``t = t - dt`` with ``dt`` a constant or a
local the loop leaves as it was: ``clock_of``, read from the bytecode as
``while_counters.only_stepped`` reads a counter's steps) and only the loop's test reads
it, its values are known when the trace runs: ``t0``, ``dt`` and the other side of the
test are Python numbers the entry is guarded on. So the test ``t < t_end`` holds on the
first ``K`` tests and fails on the next, ``K`` found by running Python's own additions
and comparison at compile time (``clock_bound``, at most ``MAX_CLOCK_TRIPS``): the
node's bound on its trips, as an int counter's test gives one. After the loop the clock
is ``clock_add(t0, dt, taken)`` (``clock_value``), ``taken`` the trips the node ran (a
size the data decides): a ``SymFloat`` whose expression runs the same additions when
the graph's caller reads it, so the value and its type (a Python float) are Python's.

The step may scale it too (``step *= 0.5``, ``lr = lr / 2``: ``clock_mul``,
``clock_div``; a step of 0 divides by zero, the trace's trip raises as Python does).
A clock the body reads (``x - lr * x``, ``np.sin(t)``: each trip needs its own value)
is a node where a test bounds the trips: the trace starts over with it as
``clock_at(clock, trip)`` (``read_clock_of``, ``while_trip.bind_counters``), the steps
run ``trip`` times by the body on each trip, Python's float bit for bit.

Not clocks (the loop stays a break, with the reason): one that starts as an int or a
changing number (a symbol), one stepped by a NumPy scalar (``t += np.float32(dt)``
makes ``t`` an ``np.float32``), a test against another clock or a counter, a clock in an
``or`` test, or in a loop with code after a ``break``'s test.

Example::

    >>> clock_add(0.0, 0.1, 10), 0.0 + 10 * 0.1
    (0.9999999999999999, 1.0)
    >>> clock_add.render_call("0.0", "0.1", "u0")
    "__import__('functools').reduce(lambda _t, _k: (_t + 0.1), range(u0), 0.0)"
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

from ..symbolic.scalars import Expr, SymFloat, literal
from ..variables import ConstantVariable
from .loop_facts import NotALoopNode, same_constant
from .while_counters import COMPARES, step_operand, steps_of

# the most trips a clock's test is followed for when the trace runs (Python additions
# at compile time: about 0.03 s of CPU time for this many); a longer clock stays a
# break
MAX_CLOCK_TRIPS = 1 << 18


def _clock(symbol: str, apply):
    """The clock function of one step operator: ``start`` after ``trips`` steps
    ``t = t <symbol> step``, Python's operations in order, and its rendering."""
    def clock(start, step, trips: int):
        t = start
        for _ in range(trips):
            t = apply(t, step)
        return t
    # (how ``Expr.render`` prints it: builtins only, so the text runs in every
    # generated scope, the graph's printout, the numpy backend's module and the glue)
    clock.render_call = lambda start, step, trips: (
        f"__import__('functools').reduce(lambda _t, _k: (_t {symbol} {step}), "
        f"range({trips}), {start})")
    return clock


clock_add = _clock("+", operator.add)
clock_sub = _clock("-", operator.sub)
clock_mul = _clock("*", operator.mul)       # (``step *= 0.5``, ``lr = lr * decay``)
clock_div = _clock("/", operator.truediv)   # (``step /= 2``: a nonzero step only)
# the clock function of each step's operator (``BINARY_OP``'s argument name)
_CLOCKS = {"ADD": clock_add, "SUBTRACT": clock_sub, "MULTIPLY": clock_mul,
           "TRUE_DIVIDE": clock_div}
_APPLY = {"ADD": operator.add, "SUBTRACT": operator.sub, "MULTIPLY": operator.mul,
          "TRUE_DIVIDE": operator.truediv}

# the most trips of a node whose body reads a float clock (``ClockTable``: its values
# before each trip, a tuple literal in the body's code)
MAX_READ_CLOCK_TRIPS = 1024


class ClockTable:
    """The values of a clock a ``while_loop`` body reads, before each trip it can run:
    ``clock_at``'s operator. Its expression renders as a tuple literal indexed by the
    trip number (``(1.0, 0.5, 0.25, ...)[trip]``: the compiled code holds the tuple as
    one constant, so each trip costs one index, no steps and no import), the values
    computed with Python's operations in order (``+``, ``-``, ``*`` and ``/`` by a
    nonzero step: none raises). ``limit``: the node's bound on its trips, set once it
    is known (``while_trip.check_int_range``); the table has ``limit + 1`` values.

    >>> table = ClockTable(Clock(1.0, 0.5, "MULTIPLY")); table.limit = 3
    >>> table.render_call("trip")
    '(1.0, 0.5, 0.25, 0.125,)[trip]'
    """

    def __init__(self, clock: Clock):
        self.clock, self.limit = clock, None

    def __call__(self, trips: int):
        return self.clock.at(int(trips))

    def render_call(self, trips: str) -> str:
        values, apply = [self.clock.start], _APPLY[self.clock.op]
        # (a printout before the node's bound is known: the most any node takes)
        for _ in range(MAX_READ_CLOCK_TRIPS if self.limit is None else self.limit):
            values.append(apply(values[-1], self.clock.step))
        return f"({', '.join(literal(v) for v in values)},)[{trips}]"


@dataclass(frozen=True)
class Clock:
    """A float clock: ``start``, stepped by ``step`` each trip (``op``: ``"ADD"``,
    ``"SUBTRACT"``, ``"MULTIPLY"`` or ``"TRUE_DIVIDE"``: ``t = t <op> step``)."""
    start: float
    step: float | int
    op: str

    @property
    def fn(self):
        return _CLOCKS[self.op]

    def at(self, trips: int):
        return self.fn(self.start, self.step, trips)


def clock_of(scope, name: str, old, var, reads: bool = False) -> Clock | None:
    """The clock the local ``name`` is, where the trace's one trip took it from ``old``
    (a Python float) to ``var`` by its one step, and nothing in the loop but its test
    (``scope._tests()``) reads it (``reads``: or plain loads anywhere, a clock the body
    reads, ``read_clock_of``); else None."""
    if not (isinstance(old, ConstantVariable) and isinstance(var, ConstantVariable) and
            type(old.value) is float and type(var.value) is float):
        return None
    insts = scope.tx.info.insts
    sites = steps_of(insts, *scope._code(), name, scope._tests(), floats=True, reads=reads)
    if sites is None or len(sites) != 1:
        return None
    kind, operand, op = step_operand(insts, sites[0])
    if kind == "local":
        held, now = scope.entry_locals.get(operand), scope.tx.locals.get(operand)
        if now is not held and not same_constant(now, held):
            return None               # (``t += k`` with ``k`` a counter: no constant step)
        operand = held.value if isinstance(held, ConstantVariable) else None
    if type(operand) not in (float, int) or "DIVIDE" in op and operand == 0:
        return None               # (``t /= 0.0`` raises ZeroDivisionError: the trace's)
    clock = Clock(old.value, operand, op.replace("INPLACE_", ""))
    # (the trace's trip took that step: a step under a branch it skipped would not be)
    return clock if float.hex(clock.at(1)) == float.hex(var.value) else None


def read_clock_of(scope, name: str, old, var) -> Clock | None:
    """A clock the body reads too (``x + step * p``, ``x - lr * g``: its value on each
    trip), stepped once as ``clock_of`` wants; the trace then starts over with it as
    ``clock_at(clock, trip)`` (``while_trip.bind_counters``)."""
    if name in scope.clocks or clock_of(scope, name, old, var) is not None:
        return None
    return clock_of(scope, name, old, var, reads=True)


def clock_at(table: ClockTable, trip) -> SymFloat:
    """The clock of ``table`` before trip ``trip`` (the loop's trip number, a
    ``SymInt``): each trip sees Python's float, bit for bit and as a Python float (NEP
    50: a float32 array stays float32 beside it)."""
    return SymFloat(table(int(trip)), Expr.apply(table, Expr.of(trip)))


def clock_bound(scope) -> int:
    """The number of the loop's tests the clock test (``scope.test``: ``t < t_end``)
    holds for before it fails, from the clock's start, Python's own additions and
    comparison (the node's bound on its trips)."""
    sides = []
    for kind, value in scope.test.operands:
        if kind == "local" and value in scope.clocks:
            sides.append(scope.clocks[value])
            continue
        if kind == "local":
            held = scope.entry_locals.get(value)
            if value in scope.steps or not isinstance(held, ConstantVariable) or \
                    type(held.value) not in (float, int):
                raise NotALoopNode(f"the loop's test compares its clock with {value!r}, "
                                   "which is no Python number the loop leaves as it was")
            value = held.value
        sides.append(value)
    if sum(isinstance(s, Clock) for s in sides) != 1:
        raise NotALoopNode("the loop's test compares two clocks")
    holds = COMPARES[scope.test.compare]
    clock = next(s for s in sides if isinstance(s, Clock))
    t = clock.start
    for k in range(MAX_CLOCK_TRIPS + 1):
        if not holds(*(t if isinstance(s, Clock) else s for s in sides)):
            return k
        t = clock.fn(t, clock.step, 1)
    raise NotALoopNode(f"the loop's clock test holds for more than {MAX_CLOCK_TRIPS} "
                       "trips")


def clock_value(clock: Clock, taken) -> SymFloat:
    """The clock after ``taken`` trips (a size the data decides): its additions, run
    when the graph's caller reads it."""
    return SymFloat(clock.at(int(taken)), Expr.apply(
        clock.fn, Expr.of(clock.start), Expr.of(clock.step), Expr.of(taken)))
