"""One attempt at a ``while_loop`` node: ``WhileScope``, the body's trace and checks.

``while_loops.while_loop_node`` makes one at a loop's test (the shapes:
``while_shapes``) and traces the body once into a body graph of the carried arrays
that returns them and the next test's value, with ``loops.LoopScope``'s checks less
those about an index; ``finish`` puts the node into the graph and the frame's state
after it. Counters are ``while_counters``' and ``while_trip``'s, their bounds
``counter_bounds``', code after a ``break``'s test ``loop_exits``' (docs/loops.md).

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
from ..variables import ArrayVariable, ConstantVariable
from .compared_tests import tested
from .counter_bounds import CounterBounds
from .loop_body_state import Counters, dead_after
from .loop_exits import (
    AtItem,
    exit_code_span,
    names,
    needs_tail,
    stored_in,
    tail_graph,
    tail_outputs,
)
from .loop_facts import (
    NotALoopNode,
    WatchedLocals,
    int_step,
    memory_base,
    same_constant,
    same_int,
)
from .loops import LoopScope, node_numbers
from .picked_numbers import carry_picked, enter_picked, exit_picked, leave_picked, picked_bounds
from .spent_counter_tests import spent_tests
from .while_caps import cap_bound, leaves_early
from .while_clocks import Clock, clock_bound, clock_of, clock_value, read_clock_of
from .while_counters import RETURNS, CounterTest, carried_shape, only_stepped
from .while_shapes import CONDITIONAL, loop_shape
from .while_trip import (
    PINNED,
    bind_counters,
    check_int_range,
    check_use,
    counter_at,
    counter_read,
    planned_picks,
    unbind,
)

# (what a ``while_loop`` node with no bound on its trips counts for, in the unroll
# budget of a loop around it: ``control_flow.check_unroll_budget``)
_UNBOUNDED_WORK = 32

_LOADS = ("LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_BORROW", "LOAD_FAST_LOAD_FAST",
          "LOAD_FAST_BORROW_LOAD_FAST_BORROW")


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


class WhileScope(CounterBounds, LoopScope):
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
    (``or_counter_tests``; both computed by ``counter_bounds.CounterBounds``); after
    the loop a counter is ``it0 + step * taken``. Python floats the body only steps
    (``t += dt``) are clocks (``clocks``, ``while_clocks``): ``and t < t_end`` bounds
    the trips too, and after the loop a clock is ``dt`` added ``taken`` times.
    """

    # (a select in a while loop's body: tried for every jump but the loop's own test,
    # which the body's trace stops at, ``_at_test``; numbers it picks per trip are
    # carried as NumPy scalars, ``picked``: ``picked_numbers``)
    selects_in_body = True
    picks_numbers = True


    def __init__(self, tx, inst, cond, start: int, exit_: int, head: int, keep: bool,
                 test: CounterTest | None = None):
        self.tx, self.inst, self.keep = tx, inst, keep
        # the loop node whose body this loop is in (None: the frame's), and the graph
        # this loop's node goes in (``nested_loops``), as a ``for`` node's
        self.parent, self.outer_graph = tx.output.loop_scope, tx.output.graph
        # ``and it < maxit`` after the array test (``counted_shape``): a bound on the
        # trips; ``steps``: the Python int counters the body steps (name -> step)
        self.test, self.steps = test, {}
        # Python float clocks the body only steps (``t += dt``: ``while_clocks``)
        self.clocks = {}
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
        self.cap = None     # (``k += 1; if k > maxit: return``: ``while_caps.Cap``)
        # (``loop_returns``: the loop's end where the exit runs code; the node)
        self.ends = self.join = self.node = None
        self.output = tx.output
        self.symbol = f"loop{next(node_numbers)}"      # (no index: nothing reads it)
        self.trips = self.last = 0
        self.counters = {}
        self.facts = []
        self.body = Graph()
        # (numbers an ``if`` on data picks per trip, found by an earlier attempt:
        # carried as scalars though no trip reads them first, ``picked_numbers``)
        self.picked = planned_picks(tx.loop_plan(inst))
        self._enter(set() - carry_picked(self), exit_)

    def for_break(self, after: int, for_iter: int, rest: range, back: int,
                  ends: tuple | None = None) -> None:
        """The loop is ``for ...: ...; if <test>: break`` (``for_break_shape``), maybe
        with code after the test up to the jump back at ``back`` (``loop_exits``): at
        most ``len(rest)`` more trips; the trace steps over its ``FOR_ITER`` (the loop
        variable, read nowhere in the loop, keeps its value) and goes on at the
        ``break``'s code. ``ends``: where the ``break``'s branch runs code of its own,
        ``(end, join)``: the loop's end, and where the two ways meet (None: both
        return; ``loop_returns.exit_code_at``)."""
        self.after, self.for_iter, self.bound, self.rest = after, for_iter, len(rest), rest
        self.back = back
        self.ends, self.join = ends or (None, None)
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
            if leaves_early(self.tx.info.insts, self.start, self.exit):   # (if k > m: return)
                raise NotALoopNode(f"the body branches on a counter{RETURNS}") from None
            raise NotALoopNode(f"the body branches on a counter or uses it as a plain "
                               f"int{PINNED}") from None

    def _check_slots(self) -> None:
        """As ``LoopScope._check_slots``, but carried arrays that share memory (``A``
        and ``d = np.diag(A)``) are allowed where the body writes neither in place
        (``_check_shared``, after the trace): every array the frame holds is carried,
        as the body may rebind any of them. So is one that may be another array
        (``may_be``: ``h`` after ``if sy > tol: h = ...`` as a select, BFGS's), where
        the body writes no carried array in place: which object it is then changes no
        value the body computes (``is`` on it still breaks, ``identity``)."""
        self.shared: dict = {}
        self.may_be = any(v.may_be is not None for v in self.slots)
        for v in self.slots:
            self.shared.setdefault(memory_base(v.node), []).append(v)

    def _check_shared(self, written: set) -> None:
        if self.may_be and written:
            raise NotALoopNode("a carried array may be another one, and the body writes "
                               "a carried array in place")
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
        enter_picked(self)
        for v in self.slots:
            p = self.body.placeholder(names.get(id(v), v.node.name), meta={
                "array": v.meta, "loop_outer": v.node, "carried": True})
            self.placeholders[id(v)] = p
            v.node = p
        if (self.for_iter is not None or self.counter_at is not None) and \
                stored_in(tx.info.insts, self.start, self.back) | \
                {i.name for i in tx.info.insts[self.start:self.back]} - {"NOT_TAKEN", "NOP"} \
                or self.ends is not None:   # (the test chooses what it returns)
            # code after the test: the last test is carried out of the loop, to run
            # that code once more where the range runs out (``loop_exits``)
            self.test_slot = self.body.placeholder("exit_test", meta={
                "array": self.cond_meta, "loop_outer": self.cond, "carried": True})
        out.graph, out.loop_scope = self.body, self
        self.outer_log, out.side_effects.log = out.side_effects.log, []
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
        self.cond_end = tested(tx.pop())   # (np.array_equal's bool: the graph's 0-d bool)
        if not isinstance(self.cond_end, ArrayVariable) or self.cond_end.meta.ndim != 0:
            raise NotALoopNode("the test at the end of the body is no 0-d array")

    def _at_test(self) -> bool:
        """The trace is at the loop's test again (``is_test``)."""
        inst = self.tx.info.insts[self.tx.ip]
        if not self.is_test(inst):
            return False
        shape = loop_shape(self.tx.info.insts, inst)
        if shape is not None and inst.index != self.inst.index and \
                (CONDITIONAL[inst.name] != shape[3]) != self.keep:
            raise NotALoopNode("the test at the bottom is not the one in front")
        return True

    def is_test(self, inst) -> bool:
        """Whether the jump ``inst`` is the loop's test: the jump that started the loop,
        or another conditional jump of the same loop (``while_shape``: the test at the
        bottom, where the one in front started it)."""
        if inst.index == self.inst.index:
            return True
        if self.for_iter is not None or self.back is not None and self.cap is None or \
                inst.name not in CONDITIONAL:
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
        dead = self._dead_after()
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
                if isinstance(step, Clock):   # a float clock the body reads (``clock_at``)
                    if not isinstance(var, ConstantVariable) or \
                            not isinstance(var.value, float) or \
                            float.hex(float(var.value)) != float.hex(step.at(1)):
                        raise NotALoopNode(f"the clock {name!r} does not step as traced")
                    self.clocks[name] = step
                    tx.locals[name] = old
                    continue
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
            clock = clock_of(self, name, old, var)
            if clock is not None:
                self.clocks[name] = clock     # t0 + dt + dt ... after: ``while_clocks``
                continue
            clock = read_clock_of(self, name, old, var)
            if clock is not None:             # read in the body: ``clock_at(trip)``
                counters[name] = clock
                continue
            if name in dead and self.watched.first.get(name) == "write" and \
                    not self.watched.opaque:
                # every trip stores it before reading it, and nothing reads it after
                # the loop (``lam_old = lam`` after the test, ``lam_old = 0.0`` before
                # the loop): its value between trips is no state of the loop
                tx.drop_temporary(name, old)
                continue
            raise NotALoopNode(f"the local {name!r} is carried from one trip to the next "
                               f"({old.describe()} -> {var.describe()})"
                               f"{carried_shape(step, var, old)}")
        if counters:
            raise Counters({**self.counters, **counters})

    def _dead_after(self) -> frozenset:
        """The locals no code after the loop reads: after the ``break``, and where the
        ``break``'s branch runs code of its own (``ends``), after the loop's normal
        end too (``loop_returns``)."""
        dead = dead_after(self.tx, self.after)
        return dead if self.ends is None else dead & dead_after(self.tx, self.ends)

    def _code(self) -> tuple[int, int]:
        """The loop's instructions, ``lo:hi``: its tests, its body, its jumps."""
        return min(self.head, self.start, self.inst.index), self.exit

    def _tests(self) -> frozenset:
        """The instructions of the counter test, in front and at the bottom; and the
        code a ``for`` loop's exit runs once after the node (3.12+ copy ``return r,
        iterations`` after the loop into ``if c: break`` and ``if c: r = r_new; break``,
        ``loop_returns``), which reads a counter after the loop, not in a trip."""
        insts = self.tx.info.insts
        exit_code = exit_code_span(insts, self.after) \
            if self.for_iter is not None else frozenset()
        if self.cap is not None:    # (the cap and its exit's code: no reads in a trip)
            exit_code |= self.cap.test.indices | self.leave
        if self.test is None:
            return exit_code
        lo, hi = self._code()
        # (and 3.12+'s copy of the code after the loop at a ``break``, which may read
        # the counter after the loop: ``while_counter_break``)
        found = set(self.test.indices) | self.leave | exit_code
        for inst in insts[lo:hi]:
            shape = loop_shape(insts, inst) if inst.name in CONDITIONAL else None
            if shape is not None and shape[:2] == (self.start, self.exit) and \
                    self.test.same_test(shape[4]):
                found |= shape[4].indices
        return frozenset(found)

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

    def finish(self) -> None:
        tx, out = self.tx, self.output
        leave_picked(self)     # (numbers picked per trip: their scalars, as slots)
        self._check_effects()
        holders = self._holders()
        # the code after the test, again where the range runs out (``loop_exits``)
        # (where the exit returns, ``B``'s results are seen only after the loop's end)
        tail_dead = dead_after(tx, self.after if self.ends is None else self.ends)
        tail = self.test_slot is not None and needs_tail(self, tail_dead)
        if tail and self.counters:   # (B's node would need the trip the first ended at)
            raise NotALoopNode("a counter read in the body of a loop with code after its "
                               "break's test")
        if self.clocks and (tail or self.counter_at is not None or self.for_iter is not None
                            or self.test is not None and self.test.either):
            raise NotALoopNode("a Python float clock (t += dt) in a loop with code after "
                               "its break's test, a for loop, or an `or` test")
        outputs = tail_outputs(self, holders, tail_dead) if tail else None
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
        clocked = self.test is not None and any(
            kind == "local" and name in self.clocks for kind, name in self.test.operands)
        stepped = clocked or self.test is not None and any(
            kind == "local" and name in self.steps for kind, name in self.test.operands)
        least = 0
        if self.test is not None and self.test.either:
            least = self._least()
        elif self.test is not None and (stepped or not self.test.first):
            # (an int test in front that nothing steps held in the trace and holds on
            # every trip, as before: no bound, no test made once more)
            self.bound = clock_bound(self) if clocked else self._bound()
            if self.test.first and self.bound is not None:
                self._check_plain_test()
            if self.counter_at is not None:
                self._counter_in_tail()
        if self.cap is not None:
            self.bound = cap_bound(self)
        check_int_range(self)
        picked_bounds(self)    # (a picked counter's int64 range over the bound)
        # a loop variable or a counter read after the loop: from the number of trips,
        # a size read off the node
        dead = self._dead_after()
        counters = [name for name in self.steps if name not in dead]
        clocks = [name for name in self.clocks if name not in dead]
        variable = self.for_iter is not None and any(
            self.variable in tx.info.live_at(at) for at in (self.after, self.ends)
            if at is not None)
        count = variable or bool(counters) or bool(clocks)
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
        self.node = loop
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
            # (a counter B steps: B's one more run counts, for a ``while`` counter and
            # where a ``for`` loop's range ran out alike: k += 1 after the test)
            ran = self._tail(loop, final, outputs, (self.counter_at is not None or
                                                    self.for_iter is not None) and
                             bool(counters))
        elif self.counter_at is not None and counters and self.cap is None:
            raise NotALoopNode("a counter read after the loop that the code after the "
                               "break's test does not step")
        self._set_state(holders, final)
        exit_picked(self)      # (the glue's int()/float() of each picked scalar)
        self._own_fresh_sizes()
        if count:    # the value after u trips: rest[u - 1], or as it was for none
            node = out.graph.call("getitem", (loop, len(metas)), meta={
                "array": counter, **out.current_loc, "kind": ops.get("getitem").kind})
            out.unbacked_sizes[taken.sym.terms[0][0]] = (node, 0)
        # (B's one more run steps only the counters B steps: not PageRank's
        # ``iterations += 1`` before the test, which the last A stepped already)
        in_tail = stored_in(tx.info.insts, self.start, self.back) if ran is not None else ()
        if set(in_tail) & set(counters) & stored_in(tx.info.insts, self._code()[0], self.start):
            raise NotALoopNode("a counter stepped both before and after the exit test")
        for name, step in self.steps.items():   # (one nothing reads after: as before)
            start = self.entry_locals[name]
            if name in counters:     # (+ B's one more run: ``while_counter_break``)
                trips = taken if name not in in_tail else taken + ran
                tx.locals[name] = ConstantVariable(start.value + trips * step)
            else:
                tx.locals[name] = start
        for name, clock in self.clocks.items():   # (t0 + dt + ... + dt, taken times)
            tx.locals[name] = ConstantVariable(clock_value(clock, taken)) \
                if name in clocks else self.entry_locals[name]
        if variable:
            value = tx.locals[self.variable].value
            if value != self.rest.start - self.rest.step:
                raise NotALoopNode("the loop variable is not the range's last value")
            tx.locals[self.variable] = ConstantVariable(value + taken * self.rest.step)
