"""The trip number of a ``while_loop`` node, for counters its body reads as numbers.

Solvers read their trip counter in the update: ``x = x + h * i``, ``omega = 1.0 /
(1.0 + 0.1 * k)``, ``t = t0 + i * dt``, ``counts + k``. The counter is a Python int
the body steps by a constant (``i += 1``), so before the ``t``-th trip it is
``i0 + step * t``. A ``while_loop`` node whose body reads one takes the trip number
as its body's first input (``trip``, a placeholder with ``while_index``), and the
counter is the affine ``SymInt`` ``i0 + step * trip`` over the loop's symbol, as a
``for`` loop's index is (docs/loops.md, "The index as a number"): Python arithmetic
on it is a ``SymFloat`` whose expression the body evaluates on each trip with the
same Python operators on the same Python ints as the program (``0.1 * float(i)``),
so the values are Python's bit for bit and the types too (a Python float keeps a
float32 array float32 under NEP 50). ``ops.while_loop(..., indexed=True)`` calls
the body with the number of trips taken before it, a Python int, on every backend
that runs the body as a Python function (eager, numpy, cupy, dask op by op); the
native lowering has no ``while_loop`` and runs such graphs as before.

The first attempt at the node sees the counter changed and read (``counter_read``:
its value is baked into that trace), and the trace starts over with the counter
known (``Counters``, as a ``for`` loop's); the second attempt binds it to the
expression before the body's trace (``bind_counters``). Only uses whose result
cannot depend on the trip are allowed (``check_use``): elementwise ops that take the
counter as a number (no index, no slice: the last trip is the data's, so no bound
could be checked), and an int use only where the node's bound keeps every value of
the counter in int64 (``check_int_range``; NumPy types a larger Python int
otherwise, where Python's ints never overflow).

Example::

    while err > tol and i < maxit:            def while_loop_body(trip, x, ...):
        x = x + h * i                ->           add = ops.add(x, ((0.1 * float((trip + 1)))))
        ...; i += 1                           while_loop = ops.while_loop(..., 400, False, 0, True)
"""

from __future__ import annotations

from .. import ops
from ..symbolic import Sym, SymInt
from ..tree import tree_leaves
from ..variables import ConstantVariable
from .loop_facts import NotALoopNode, is_slice
from .picked_numbers import Picked
from .while_clocks import MAX_READ_CLOCK_TRIPS, Clock, ClockTable, clock_at

# the meta key of a ``while_loop`` body's trip input (a ``fori_loop``'s is
# ``loop_index``, whose body prints as the loop itself)
WHILE_INDEX = "while_index"

_INT64 = (-2 ** 63, 2 ** 63 - 1)

# why a counter read in the body is no node (``while_counters.while_shape_hint`` finds
# its ": a counter read in the body" and gives the rewrite)
PINNED = (": a counter read in the body is a node only as a number in elementwise ops "
          "(x + h * i, 1.0 / (1.0 + k)), not as an index, a branch, a plain int or a "
          "NumPy scalar's operand (x[i], if i % 2, np.float32(0.5) * i)")


def planned_counters(plan) -> dict:
    """The counters an earlier attempt found (a "counters" break point), else none;
    not the numbers an ``if`` picks per trip (``planned_picks``)."""
    if plan is None or plan.kind != "counters":
        return {}
    return {n: s for n, s in plan.counters.items() if not isinstance(s, Picked)}


def planned_picks(plan) -> dict:
    """The locals an earlier attempt found picked per trip by an ``if`` on data
    (``count += 1``, ``best = v``: ``picked_numbers``), carried as NumPy scalars."""
    if plan is None or plan.kind != "counters":
        return {}
    return {n: s for n, s in plan.counters.items() if isinstance(s, Picked)}


def counter_read(old, var, step, first: str | None) -> bool:
    """Whether the local that went from ``old`` to ``var`` in the trace's one trip is a
    counter the body reads (``x + h * i; i += 1``): a plain Python int stepped by a
    constant, read before it is stored. Then the trace starts over with it as
    ``i0 + step * trip``."""
    return step is not None and first == "read" and isinstance(old, ConstantVariable) \
        and type(old.value) is int and isinstance(var, ConstantVariable) and \
        type(var.value) is int


def bind_counters(scope, frame_locals: dict) -> None:
    """Before the body's trace: the body's ``trip`` input, and each counter as the
    affine expression ``i0 + step * trip`` of the loop's symbol."""
    out = scope.output
    scope.index = scope.body.placeholder("trip", meta={WHILE_INDEX: scope.symbol})
    out.shape_env.hints[scope.symbol] = 0
    out.symbol_nodes[scope.symbol] = scope.index
    for name, step in scope.counters.items():
        start = scope.entry_locals.get(name)
        if isinstance(step, Clock):   # a float clock the body reads: its steps, per trip
            if not isinstance(start, ConstantVariable) or type(start.value) is not float \
                    or float.hex(start.value) != float.hex(step.start):
                raise NotALoopNode(f"the clock {name!r} does not start as traced")
            table = ClockTable(step)
            scope.clock_tables = [*getattr(scope, "clock_tables", ()), table]
            frame_locals[name] = ConstantVariable(clock_at(table, counter_at(scope, name,
                                                                             1, 0, 0)))
            continue
        if not isinstance(start, ConstantVariable) or type(start.value) is not int:
            raise NotALoopNode(f"the counter {name!r} does not start as a Python int")
        frame_locals[name] = ConstantVariable(counter_at(scope, name, step, 0))


def unbind(scope) -> None:
    """After the body's trace: the loop's symbol is no symbol of the graph after it."""
    scope.output.shape_env.hints.pop(scope.symbol, None)
    scope.output.symbol_nodes.pop(scope.symbol, None)


def counter_at(scope, name: str, step: int, trips: int, start=None) -> SymInt:
    """The counter ``name`` before trip ``trip + trips``: ``i0 + step * (trip + trips)``
    (``start``: ``i0`` where given, else the local's value at the entry)."""
    i0 = scope.entry_locals[name].value if start is None else start
    start = i0 + step * trips
    return SymInt(start, Sym(((scope.symbol, step),), start,
                             ((scope.symbol, scope.symbol),)))


def check_use(scope, op, meta_args, meta_kwargs) -> None:
    """An op of the body reads the trip: it must be elementwise, with the counter as a
    number (``x + h * i``, ``np.sin(0.1 * i)``); an index or a slice (``x[i]``) or any
    other op could change with the trip in a way the trace's one trip does not show.
    An int operand is remembered (``int_uses``) for ``check_int_range``."""
    leaves = tree_leaves((meta_args, meta_kwargs), is_leaf=is_slice)
    if op.kind != ops.ELEMENTWISE or any(isinstance(v, slice) for v in leaves):
        raise NotALoopNode(f"np.{op.name} reads the loop's counter{PINNED}")
    if any(isinstance(v, SymInt) and scope.symbol in v.sym.symbols for v in leaves):
        scope.int_uses = True


def check_int_range(scope) -> None:
    """Where the counter reaches an op as an int (``counts + k``), every value it takes
    must be an int64 (NumPy types a Python int from 2**63 as uint64 or object, and
    refuses it next to a smaller int type): the node's bound must keep it so."""
    if any(isinstance(step, Clock) for step in scope.counters.values()) and \
            not (isinstance(scope.bound, int) and scope.bound <= MAX_READ_CLOCK_TRIPS):
        # (its values are a table of that many trips: ``while_clocks.ClockTable``)
        raise NotALoopNode("the body reads a Python float clock, and no test bounds "
                           f"the loop to at most {MAX_READ_CLOCK_TRIPS} trips")
    for table in getattr(scope, "clock_tables", ()):
        table.limit = scope.bound     # (its values before trips 0 .. bound)
    if not getattr(scope, "int_uses", False):
        return
    if not isinstance(scope.bound, int):
        raise NotALoopNode("the loop's counter reaches an op as an int and no bound on "
                           "the trips keeps it an int64")
    for name, step in scope.counters.items():
        if isinstance(step, Clock):
            continue
        start = scope.entry_locals[name].value
        for value in (start, start + step * scope.bound):
            if not _INT64[0] <= value <= _INT64[1]:
                raise NotALoopNode(f"the counter {name!r} could leave int64")
