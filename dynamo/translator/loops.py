"""Loop nodes: a ``for`` loop over a ``range``, traced once, as one graph op.

A loop with more than ``config.loop_unroll_limit`` iterations is unrolled for its
first iteration only. When the trace comes back to its ``FOR_ITER``, the rest of the
loop is traced *once*, into a body graph of its own, with the index as a symbol
(``ConstantVariable(SymInt)``), and becomes one ``fori_loop`` node (``ops/loops.py``)::

    for t in range(800):                       fori_loop = ops.fori_loop(
        B[1:-1] = 0.5 * (A[:-2] + A[2:])  ->       fori_loop_body, 1, 800, 1, (A, B), ())
        A[1:-1] = 0.5 * (B[:-2] + B[2:])       A_1 = ops.after_loop(A, fori_loop) ...

The body is one iteration for every index only when nothing in it depends on which
iteration it is, and that is checked, never assumed. Every array the frame holds at
the loop (locals and the stack) enters the body as a placeholder; the body's reads
of anything else become its free inputs. After one pass through the body:

- the index was used only where the result is the same for every index of the range
  (``fit``): affine integer positions (``x[i]``, ``x[i - 1]``) and slices with the
  same step in both bounds (``x[i:i + 3]``), each op's shape and dtype checked at the
  first and the last index; or where its sizes grow with it, affinely (``x[:i]``,
  ``L[i, :i] @ x[:i]``: ``_growing``); Python float arithmetic on it (``0.1 * t``,
  ``lr0 / (1 + k * t)``) is a SymFloat of the trip that ops take as a value
  (docs/loops.md, "The index as a number"); any comparison, pin or other use of it ends
  the attempt. Where the trip count or an array's size is symbolic, the checks hold
  for every size the entry serves: the results at the first and the last trip are
  fitted over the sizes, and conditions such as ``n - 2 < n`` are proven from the
  entry's guards or guarded (``_require``);
- it changed no Python state: no list, dict, attribute, global or outer iterator
  (``SideEffects.log``), no array that is not carried (a write through an object);
- every local is as before, or an array of the same shape and dtype (carried), or a
  value written before it is read in the body (a temporary: after the loop it holds
  the last iteration's value, the index evaluated at the last index);
- arrays carried in one slot never share memory with another slot's;
- a size the data decides that the body makes (``x[x > c]``, ``np.nonzero``: an
  unbacked size, fresh on every trip) is in no carried array, and in a value left
  after the loop only where an array temporary of the last trip has it, to be read
  off (``_check_sizes_left``, ``_own_fresh_sizes``).

The checks after the pass, and the frame's state after the node, are
``loop_body_state.BodyState``'s (a mixin of ``LoopScope``).

When one of these fails the attempt ends and the trace starts over with this loop
unrolled (``Handlers.refuse_loop_node`` in ``frames``), as before loop nodes existed.
Loop nodes are made for NumPy arrays, outside ``try`` blocks; a loop in the body of
another is a loop node in that body (``nested_loops``: nested loop nodes), or, where it
cannot be one, unrolled into it.

Loops whose exit the data decides (``while err > tol:``, and ``for ...: ...;
if <test>: break``) become one ``while_loop`` node the same way, traced once from the
conditional jump on a 0-d array that tests them (``while_loops``: ``while_loop_node``,
``WhileScope``; docs/loops.md); code after such a ``break``'s test runs
in the node's body and, where the range runs out, in a second node (``loop_exits``).

Example::

    >>> tx.loop_node(inst, it)     # at FOR_ITER, the second time round
    True                           # the loop ran as a node; FOR_ITER now exits it
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from .. import ops
from ..exc import RestartAnalysis
from ..graph import Graph, Node, map_nodes
from ..symbolic import Sym, SymInt
from ..symbolic.sizes import as_size, as_sym, symbols_of
from ..variables import ArrayVariable, ConstantVariable
from ..variables.arrays import RowIteratorVariable
from ..variables.base import births_so_far
from ..variables.iterators import SequenceIteratorVariable, SymRangeIteratorVariable
from .attr_counters import AttrCounters
from .carried_choice import held_parts
from .loop_body_state import BodyState, Counters, dead_after
from .loop_facts import (
    NotALoopNode,
    SettlingCarry,
    WatchedLocals,
    cycle_of,
    memory_base,
    on_cycle,
    why_not,
)
from .loop_index_fit import IndexFit
from .loop_shape_names import shape_hint, unsupported_for_break
from .nested_loops import NestedScope, may_nest, unwatched
from .node_identity import kept_temp
from .per_trip_counts import counted_per_trip
from .picked_numbers import carry_picked, enter_picked, exit_picked, leave_picked
from .reached_carries import ReachedCarries, reach_arrays
from .running_choices import forces_node

# the break point kind of a loop that is no node inside another loop node's body: it
# is unrolled there, and tried as a node where no loop body is being traced
UNROLL_NESTED = "unroll nested"

# the most trips unrolled before a loop node whose carried locals settle late (a delay
# line of this many taps: ``SettlingCarry``); past it the loop is unrolled
MAX_PEEL = 4

# numbers for the loop nodes' symbols (``loop0``...), shared with ``while_loops``
node_numbers = itertools.count()


@dataclass(frozen=True)
class SymbolicRest:
    """The indices left of a range whose end is a symbolic int (``range(T)``, T an int
    argument that changes between calls): ``start, start + step, ...``, ``count`` of
    them (a SymInt). A loop node over it runs ``count`` trips, whatever T is; where
    its body reads the index, the uses are checked at the last trip as expressions of
    T (``LoopScope.fit``)."""
    start: int | SymInt
    step: int
    count: int | SymInt

    def __getitem__(self, i: int) -> int:
        return self.start + self.step * i


def trip_count(rest) -> int | SymInt:
    return rest.count if isinstance(rest, SymbolicRest) else len(rest)


def rest_of(it) -> range | SymbolicRest | None:
    """The indices a range iterator, or an iterator over an array's rows, has left, as
    a range (a ``SymbolicRest`` where the range's end is a symbolic int); None for
    other iterators."""
    if isinstance(it, RowIteratorVariable):   # (rows: a SymInt for a symbolic length)
        return SymbolicRest(it.index, 1, it.rows - it.index) \
            if isinstance(it.rows, SymInt) else range(it.index, it.rows)
    if isinstance(it, SymRangeIteratorVariable) and not it.done:
        if it.step not in (1, -1):   # (a count no affine expression holds: triangular)
            return None
        return SymbolicRest(it.start + it.step * it.index, it.step, it.left())
    if not isinstance(it, SequenceIteratorVariable) or it.done or \
            not isinstance(it.seq, ConstantVariable) or type(it.seq.value) is not range:
        return None
    r = it.seq.value
    if it.reverse:
        return r[it.index::-1] if it.index >= 0 else range(0)
    return r[it.index:]


class LoopNodes:
    """The translator's side: when to try a loop node (``loop_node``), and tracing the
    body into a ``LoopScope``."""

    def loop_shape_name(self, inst) -> str:
        """The ``for ... break`` shape at ``inst`` that is no node, for its break."""
        return unsupported_for_break(self, inst)

    def loop_shape_hint(self, why: str) -> str:
        """The rewrite that keeps the shape ``why`` (``loop_shape_name``'s) in the graph."""
        return shape_hint(why)

    def loop_node(self, inst, it) -> bool:
        """At ``FOR_ITER``: run the rest of the loop as one node, if it can be one."""
        made = self.data_trip_node(inst, it)   # (range(k) of a count: ``data_trips``)
        if made is not None:
            return made
        if not self.may_become_loop_node(inst, it):
            return False
        arrivals = self.loop_arrivals[id(it)] = self.loop_arrivals.get(id(it), 0) + 1
        arrivals, plan = arrivals - 1, self.loop_plan(inst)
        if arrivals < (1 if plan is None else plan.peel):
            # the first iteration is unrolled: the loop's state then has its steady
            # types (an accumulator that starts as 0.0 is an array after one iteration;
            # a delay line's taps after one trip each: ``SettlingCarry``)
            return False
        nested = self.output.loop_scope is not None
        try:
            scope = LoopScope(self, inst, it, rest_of(it),
                              (plan.counters or {}) if plan and plan.kind != "split"
                              else {})
            scope.picks_numbers = True   # (a number picked per trip: picked_numbers)
            scope.trace_body()
            with unwatched(self.locals):   # (nested: the outer body's locals)
                scope.finish()
        except Counters as e:
            self._refuse(inst, nested, str(e), e.counters)
        except SettlingCarry as e:
            if nested or arrivals >= MAX_PEEL:
                self._refuse(inst, nested, str(e))
            # again with one more trip unrolled (what earlier attempts found kept: the
            # counters, a split, the rows)
            kept = plan is not None and plan.kind != "unroll"
            self.refuse_loop_node(inst, str(e), dict(plan.counters or {}) if kept else {},
                                  kind=plan.kind if kept else None, peel=arrivals + 1)
        except NotALoopNode as e:
            self._refuse(inst, nested, str(e))
        except Exception as e:  # noqa: BLE001 (anything the body cannot be: unroll it)
            if getattr(e, "nested_refusal", False):
                raise   # a loop in this body is no node: trace again with it unrolled
            self._refuse(inst, nested, why_not(e))
        return True

    def _refuse(self, inst, nested: bool, reason: str, counters: dict | None = None):
        """``refuse_loop_node``; the restart of a loop nested in another's body is
        marked ``nested_refusal``, so the outer loop's attempt passes it on (the trace
        starts over with the inner loop unrolled, and the outer loop may still be a
        node) instead of taking it as its own failure. Such a loop is unrolled where it
        is nested only (``UNROLL_NESTED``): in the outer loop's first trip, traced
        before the outer node, it may still be a node, as before nested nodes."""
        kind = UNROLL_NESTED if nested and counters is None else None
        plan = self.loop_plan(inst)
        if kind and plan is not None and plan.kind in ("counters", UNROLL_NESTED):
            counters = plan.counters   # (kept for the loop where it is no nested one)
        try:
            self.refuse_loop_node(inst, reason, counters, kind=kind)
        except RestartAnalysis as e:
            e.nested_refusal = nested
            raise

    def may_become_loop_node(self, inst, it) -> bool:
        """Whether the loop at ``inst`` is worth a try: a range with more iterations
        than ``config.loop_unroll_limit`` (or counted per trip: ``per_trip_counts``),
        NumPy arrays, no loop around it being traced (or one that may hold a nested
        node: ``nested_loops.may_nest``), no ``try``, no ``break`` or ``return``."""
        rest = rest_of(it)
        plan = self.loop_plan(inst)
        if rest is None or plan is not None and (plan.kind == "unroll" or (
                plan.kind == UNROLL_NESTED and self.output.loop_scope is not None)):
            return False
        if not may_nest(self.output.loop_scope, self.config, trip_count(rest), rest.start,
                        LoopScope) \
                or self.output.kind not in (None, ops.NUMPY) \
                or self.in_try() or self.info.loop_may_exit_early(inst.index):
            return False
        done, trips = self.loop_arrivals.get(id(it), 0), trip_count(rest)
        return (counted_per_trip(self, trips) or   # (else symbolic: T > 8, a decision)
                trips + done > self.config.loop_unroll_limit or forces_node(plan)) and trips > 0

    def data_trip_node(self, inst, it) -> bool | None:
        """The loop over a range of a count, as one node (``data_trips.DataTripLoops``);
        None where ``it`` is no such range's iterator."""
        raise NotImplementedError

    def loop_plan(self, inst):
        """What an earlier attempt found about the loop at ``inst``: None, or a break
        point of kind "unroll" or "counters" (``frames.Handlers``)."""
        raise NotImplementedError

    def refuse_loop_node(self, inst, reason: str, counters: dict | None = None) -> None:
        """Start the trace over with this loop unrolled, or with ``counters``
        (``frames.Handlers``)."""
        raise NotImplementedError


class LoopScope(NestedScope, IndexFit, AttrCounters, BodyState, ReachedCarries):
    """One attempt at a loop node: the frame's state at the loop, the body graph, and
    what the body read and changed."""

    # a plain ``for`` node of ``LoopNodes.loop_node`` may carry numbers its ``if``s pick
    # per trip (picked_numbers.py), and the most its counters step in one trip, summed
    picks_numbers = False
    picked_steps = 0

    # all trips of a range whose count the data decides (``data_trips.DataTripScope``):
    # no trip was unrolled, and the count has no value
    data_trips = False
    # an ``if`` on array data in the body may be a select whose ways are traced there
    # (``branch_selects``, ``select_writes``: per trip, a write of the chosen value)
    selects_in_body = True
    # where the code after the node begins, for the liveness of its temporaries (None:
    # the loop's exit; a segment of a split loop before the last: its ``FOR_ITER``,
    # as the next segment reads them too, ``index_splits``)
    exit_index = None

    def __init__(self, tx, inst, it, rest: range | SymbolicRest, counters: dict):
        self.tx, self.inst, self.it, self.rest = tx, inst, it, rest
        self.trips = trip_count(rest)
        # a trip count is a size (a changing int in it is guarded >= 2, or pinned)
        as_size(symbols_of((self.trips, rest.start)), "a loop node's trip count")
        self.counters = counters   # local name -> its step per trip (``Counters``)
        self.output = tx.output
        # the loop node whose body this loop is in (None: the frame's), and the graph
        # this loop's node goes in (``nested_loops``)
        self.parent, self.outer_graph = tx.output.loop_scope, tx.output.graph
        self.symbol = f"loop{next(node_numbers)}"
        self.body = Graph()
        # the body's input: the number of the trip (0, 1, ...); the loop's index is
        # ``rest.start + rest.step * trip``
        self.index = self.body.placeholder("trip", meta={"loop_index": self.symbol})
        self.last = self.trips - 1
        self.facts = self._known_facts()
        # locals every trip stores before it reads them: not carried (``row`` in
        # ``for row in x``); after the loop they hold the last trip's value (``temps``)
        # (numbers picked per trip, as scalars: carried, though no trip reads them:
        # a trip whose flag is false keeps the last one, ``picked_numbers``)
        self._enter(tx.info.written_first(inst.index) - carry_picked(self), inst.target)

    def _slots_after(self, out, loop, written) -> None:
        """The slots' objects after the loop node ``loop``: a written one through
        ``after_loop`` (so later reads see the loop's writes), the others as they were."""
        for k, v in enumerate(self.slots):
            v.node = self.before[id(v)]
            if k in written:
                out.writes.guard_writeable(v.node)
                v.node = out.graph.call("after_loop", (v.node, loop), meta={
                    "array": v.meta, **out.current_loc, "kind": ops.MUTATION})

    def _enter(self, targets: set[str], end: int) -> None:
        """The frame's state at the loop (of the instructions up to ``end``): holders of
        values, the arrays among them (``slots``: all but the ``targets``, which every
        trip stores before it reads them), and what the body's trace starts from."""
        tx, out = self.tx, self.output
        self.free: dict[Node, Node] = {}          # outer node -> body placeholder
        self.created: set[int] = set()            # iterators made in the body (GET_ITER)
        self.first_birth = births_so_far()        # Variables born later: the body's own
        self.entry_locals = dict(tx.locals)
        self.entry_stack = list(tx.stack)
        self.entry_cells = {n: c.value for n, c in tx.cells.items()}
        self.targets = targets
        self.temps: list[tuple[str, ArrayVariable]] = []
        self.slots: list[ArrayVariable] = []
        # (nested: a local no path from the loop reads before it stores it, in its body
        # or after it, holds no array of this loop's: BFGS's ``s`` at its line search,
        # an array of the outer body's unrolled first trip)
        dead = dead_after(tx, self.inst.index) if out.loop_scope is not None else frozenset()
        held = [v for n, v in self.entry_locals.items() if n not in self.targets and not (
            n in dead and isinstance(v, ArrayVariable) and v.node.graph is not out.graph)]
        # (a list's rows: their stacked array; a running choice: its value and flag)
        for var in itertools.chain(*map(held_parts, itertools.chain(held, self.entry_stack))):
            if isinstance(var, ArrayVariable) and all(var is not s for s in self.slots):
                if var.node.graph is not out.graph:   # (nested: from outside the body)
                    raise NotALoopNode("the frame holds an array the outer body does not")
                self.slots.append(var)
        if any(i in tx.info.catching for i in range(self.inst.index, end)):
            raise NotALoopNode("a try block in the body")
        self.before = {id(v): v.node for v in self.slots}
        self.placeholders: dict[int, Node] = {}
        trace = out.shape_env.trace
        self.seen = (len(trace.decisions), len(trace.ranges)) if trace else (0, 0)
        # sizes only the data decides (``x[mask]``): those the body makes are new on
        # every trip (``fresh``, after the trace); the counts of masks known so far
        self.unbacked_before = set(out.shape_env.unbacked)
        # and ints the graph computes from them (``max(len(kept), 1)``: ``ui0``,
        # ``variables/size_values.py``), which a body's node computes on every trip
        self.numbers_before = set(out.shape_env.unbacked_numbers)
        self.counts_before = dict(out.nonzero_counts)
        self.fresh: set[str] = set()
        self._check_slots()
        self.reached = reach_arrays(tx) if self.parent is None else {}
        self.reached_slots: set[int] = set()    # (``reached_carries``)

    def _known_facts(self) -> list:
        """Affine forms the entry guards ``>= 0``, besides every symbol's ``>= 2``: for a
        symbolic count, the decisions ``may_become_loop_node`` recorded (some trips, more
        than ``config.loop_unroll_limit`` with those done, or some only: per_trip_counts)."""
        if not isinstance(self.trips, SymInt):
            return []
        done = self.tx.loop_arrivals.get(id(self.it), 1) - 1
        limit = 0 if counted_per_trip(self.tx, self.trips) else self.tx.config.loop_unroll_limit
        return [self.trips.sym - Sym((), 1), self.trips.sym + Sym((), done - limit - 1)]

    def _check_slots(self) -> None:
        bases = {}
        # a carried array that may be another one (``h`` after ``if sy > tol: h = ...``
        # as a select in an unrolled trip, BFGS's outer loop): allowed where the body
        # writes no carried array in place (``finish``), as in a while node: which
        # object it is then changes no value the body computes (``is`` on it breaks,
        # ``identity``). (A NumPy scalar is never written in place: ``best`` after
        # ``if d[i] < best: best = d[i]`` is allowed whatever the body writes.)
        self.may_be = any(v.may_be is not None and not getattr(v.meta, "scalar", False)
                          for v in self.slots)
        for v in self.slots:
            base = memory_base(v.node)
            if base in bases:
                raise NotALoopNode("two carried arrays share memory")
            bases[base] = v

    # ------------------------------------------------------------------ tracing
    def trace_body(self) -> None:
        tx, out = self.tx, self.output
        names = {id(v): n for n, v in reversed(self.entry_locals.items())}
        for v in self.slots:
            p = self.body.placeholder(names.get(id(v), v.node.name), meta={
                "array": v.meta, "loop_outer": v.node, "carried": True})
            self.placeholders[id(v)] = p
            v.node = p
        out.shape_env.hints[self.symbol] = 0
        out.symbol_nodes[self.symbol] = self.index
        out.graph, out.loop_scope = self.body, self
        self.outer_log, out.side_effects.log = out.side_effects.log, []
        frame_locals = tx.locals      # (the same dict again afterwards: others hold it)
        tx.locals = WatchedLocals(frame_locals)
        try:
            index = ConstantVariable(self.index_value())
            tx.push(self.it.row(tx, index) if isinstance(self.it, RowIteratorVariable)
                    else index)
            for name, step in self.counters.items():
                if "." not in name and type(step) is int:   # (attr_counters, Picked)
                    tx.locals[name] = ConstantVariable(self._counter(name, step, 0))
            enter_picked(self)
            self.start_attr_counters()
            while True:
                tx.step()
                self._check_index_uses()   # at once: not after the rest of the body
                if tx.ip == self.inst.index:
                    break
                if tx.done or tx.suspended:
                    raise NotALoopNode("the body returns")
        finally:
            self._leave_body(tx, frame_locals)
            out.shape_env.hints.pop(self.symbol, None)
            out.symbol_nodes.pop(self.symbol, None)
            self._forget_body_sizes()

    def index_value(self) -> SymInt:
        """The loop's index in the body: ``start + step * trip``."""
        trip = as_sym(self.rest.start) + Sym(((self.symbol, self.rest.step),), 0,
                                             ((self.symbol, self.symbol),))
        return SymInt(self.rest.start, trip)

    def _forget_body_sizes(self) -> None:
        """After the body's trace: the unbacked sizes it made (``fresh``: one per op,
        a new count on every trip) are read inside the body only; the frame after the
        loop reads none of them, except through the arrays the loop leaves behind
        (``_own_fresh_sizes``). So the body's nodes that read them are no symbol nodes
        of the graph after the loop, and a mask counted in the body is counted anew
        after it (its count there was a body node's)."""
        out = self.output
        self.fresh = set(out.shape_env.unbacked) - self.unbacked_before
        # an int the body computed from a size (``len(kept) // 2``: a ``sym_int`` node
        # of the body) is a value of its trip too: no node after the loop computes it,
        # so a local that holds it after the loop is no loop node (``_check_sizes_left``)
        numbers = set(out.shape_env.unbacked_numbers) - self.numbers_before
        self.fresh |= numbers
        for name in numbers:
            out.unbacked_numbers.pop(name, None)
            out.number_symbols.pop(name, None)
        for name in self.fresh:
            out.symbol_nodes.pop(name, None)
        out.nonzero_counts.clear()
        out.nonzero_counts.update(self.counts_before)

    def localize(self, args):
        """``args`` of a body op with the nodes from before the loop replaced by body
        inputs (one per node: its free inputs)."""
        def local(node: Node) -> Node:
            if node.graph is self.body:
                return node
            node = self.localize_through(node)   # (nested: through the outer body)
            if node not in self.free:
                meta = {k: v for k, v in node.meta.items()
                        if k in ("array", "symbol", "object")}
                self.free[node] = self.body.placeholder(node.name, meta={
                    **meta, "loop_outer": node})
            return self.free[node]
        return map_nodes(args, local)

    def note_iterator(self, it) -> None:
        """``GET_ITER`` in the body made ``it``: taking from it changes nothing outside."""
        self.created.add(id(it))

    def reads_index(self, value) -> bool:
        return self.reads_any_index(value)

    # ------------------------------------------------------------------ the node
    def finish(self) -> None:
        """Check what one pass through the body did, then put the loop node in the
        graph and give the frame its state after the last iteration."""
        tx, out = self.tx, self.output
        leave_picked(self)     # (numbers picked per trip: their scalars, as slots)
        self.carry_written()   # (arrays held in containers, written in place)
        self._check_effects()
        self.finish_attr_counters()
        holders = self._holders()
        nexts = self._next_values(holders)
        perm = {k: j for k, j in nexts.items() if isinstance(j, int)}
        # a slot that takes another's array, which takes a new one (``u_prev, u = u,
        # u_next``: a shift register) is on no cycle: after the loop it holds the
        # loop's result, as the new array's slot does. A cycle (``a, b = b, a``) is a
        # permutation, resolved for the trip count below.
        shifted = {k for k in perm if not on_cycle(perm, k)}
        for k in shifted:
            end = nexts[k]
            while isinstance(end, int):
                end = nexts[end] if end != k else None
            if end is None or end.node.graph is not self.body or \
                    end.node in self.free.values():
                raise NotALoopNode("carried arrays that are swapped with arrays that are "
                                   "not new in the trip")
            del perm[k]
        if isinstance(self.it, RowIteratorVariable):
            for array in getattr(self.it, "arrays", [self.it.array]):   # (zip: each)
                k = next((k for k, v in enumerate(self.slots) if v is array), None)
                if k is not None and nexts[k] != k:   # Python goes on with the first array
                    raise NotALoopNode("the array whose rows are iterated is rebound")
        written = {k for k, v in enumerate(self.slots)
                   if v.node is not self.placeholders[id(v)]}
        for k in list(perm):       # a swapped array may be written in any iteration
            if cycle_of(perm, k) & written:
                written |= cycle_of(perm, k)
        if shifted & written or any(nexts[k] in written for k in shifted):
            written |= shifted | {nexts[k] for k in shifted}   # (under either name)
        if self.may_be and written:   # (``_check_slots``)
            raise NotALoopNode("a carried array may be another one, and the body writes "
                               "a carried array in place")
        results = tuple(self.slots[j].node if isinstance(j, int) else j.node
                        for j in nexts.values())
        self._check_temps()
        self._check_sizes_left()
        self.body.output(self.localize(results + tuple(v.node for _, v in self.temps)))
        self._check_distinct_results(nexts)
        metas = tuple(v.meta for v in self.slots) + \
            tuple(self.at_last_trip(v.meta) for _, v in self.temps)
        trips = out.graph_arg(self.trips)   # (nested: its sizes through the outer body)
        loop = out.graph.call("fori_loop", (
            self.body, self.parent.localize(trips) if self.parent is not None else trips,
            tuple(self.before[id(v)] for v in self.slots),
            tuple(self.free)), meta={"array": metas, **out.current_loc,
                                     "kind": ops.get("fori_loop").kind})
        self._slots_after(out, loop, written)
        final = {}
        for k, nxt in nexts.items():
            if isinstance(nxt, int) and k not in shifted:   # the slots' arrays, permuted
                j, cycle = k, len(cycle_of(perm, k)) if k in perm else 1
                # (a symbolic trip count is pinned where arrays are swapped)
                for _ in range(self.trips % cycle if cycle > 1 else 0):
                    j = perm[j]
                final[k] = self.slots[j]
            elif k not in shifted and (nxt.node in self.free.values() or
                                       nxt.node.graph is not self.body):
                final[k] = nxt                         # an array from before the loop
            else:
                node = out.graph.call("getitem", (loop, k), meta={
                    "array": self.slots[k].meta, **out.current_loc,
                    "kind": ops.get("getitem").kind})
                final[k] = ArrayVariable(node, self.slots[k].meta)
                # (the trip's value may be an array from before it, a select's kept
                # way: ``h`` when no trip took ``if sy > tol: h = ...``; so may the
                # loop's, and ``is`` on it breaks, ``identity``)
                final[k].may_be = _trip_value(nexts, k).may_be
        self._set_state(holders, final)
        exit_picked(self)
        for t, (name, var) in enumerate(self.temps, start=len(self.slots)):
            meta = self.at_last_trip(var.meta)
            node = out.graph.call("getitem", (loop, t), meta={
                "array": meta, **out.current_loc, "kind": ops.get("getitem").kind})
            tx.locals[name] = kept_temp(final, ArrayVariable(node, meta))   # (m is p)
        self._own_fresh_sizes()
        if self.data_trips:    # (a count has no value to read: the range is run out)
            if isinstance(self.it, RowIteratorVariable):
                self.it.index = self.it.rows
            else:
                self.it.done = True
            out.side_effects.mutate(self.it)
            return
        out.loop_trips += int(self.trips)
        if isinstance(self.it, RowIteratorVariable):   # run out
            self.it.index = self.it.rows
        else:
            self.it.index = -1 if self.it.reverse else \
                self.it.index + int(self.trips) if isinstance(self.rest, SymbolicRest) \
                else self.it._len()
            self.it.done = True
        out.side_effects.mutate(self.it)

    def _leave_body(self, tx, frame_locals: dict) -> None:
        """After the body's trace, however it ended: the locals it left are
        ``watched``, the frame's own dict (which others hold) gets them back, its
        Python side effects are ``log``, and the trace is back on the root graph."""
        out = tx.output
        self.watched = tx.locals
        frame_locals.clear()
        frame_locals.update(self.watched)
        tx.locals = frame_locals
        self.log = out.side_effects.log
        out.side_effects.log = self.outer_log
        if self.outer_log is not None:   # (nested: the outer body's effects too)
            self.outer_log.extend(self.log)
        self.hand_back(frame_locals)
        # (the outer body's graph where nested, else the frame's)
        out.graph = self.outer_graph if self.outer_graph is not None else out.root_graph
        out.loop_scope = self.parent

    def _check_index_uses(self) -> None:
        """The index (or a counter) was compared, or used as a plain int: the body
        would be right for this trip only."""
        trace = self.output.shape_env.trace
        if trace is None:
            return
        decisions, ranges = len(trace.decisions), len(trace.ranges)
        new = trace.decisions[self.seen[0]:] + trace.ranges[self.seen[1]:]
        self.seen = (decisions, ranges)
        if any(self.symbol in expr for expr in new) or self.symbol in trace.pins:
            raise NotALoopNode("the body branches on the index or uses it as a plain int")


def _trip_value(nexts: dict, k: int):
    """The Variable slot ``k`` holds at the end of a trip (``nexts``: ``finish``'s):
    its own, or, for one that takes another slot's (a shift register ``u_prev, u =
    u, u_next``), the new array at the end of that chain."""
    nxt = nexts[k]
    while isinstance(nxt, int):
        nxt = nexts[nxt]
    return nxt
