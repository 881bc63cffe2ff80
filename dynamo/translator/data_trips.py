"""Loop nodes whose trip count only the data decides (issues #16, #19).

``k = len(np.unique(labels))`` is an unbacked size (docs/unbacked.md): the trace has
no value for it. ``for j in range(k)`` used to break at its ``GET_ITER``
(``break_before``) and each new count compiled the rest again. Where the loop can be a
loop node, it is one now, whose trip count is ``k`` itself, read when the graph runs::

    k = len(np.unique(labels))                  unique = ops.unique(labels)
    centers = np.zeros((k, X.shape[1]))         sym_size = ops.sym_size(unique, 0)
    for j in range(k):                    ->    ...
        centers[j] = X[labels == j].mean(0)     fori_loop = ops.fori_loop(
                                                    fori_loop_body, (sym_size), ...)

``for c in classes`` over the rows of an array of such a length (``classes =
np.unique(y)``) is the same loop over ``RowIteratorVariable`` rows. No trip is
unrolled first (the count may be 0), so the body is traced from the state
before the loop, and every check of ``loops.LoopScope`` applies as for any loop node,
plus one: the loop may run no trip at all, so no value of a trip may be read after
the loop (the index, a temporary: ``DataTripScope._temporaries`` drops the dead ones
and refuses the others); carried arrays are the loop's results, which are the arrays
from before the loop when it runs no trip, as in Python. Conditions of a trip (an
index in bounds at the last trip ``k - 1``) may assume the trip runs (``k >= 1``) and
are never guarded: a count has no value to guard.

A loop that cannot be such a node (``total = 0.0; total += ...``: the type changes in
the first trip; a temporary read after the loop; a ``try``; a ``break``) starts the
trace over with the loop marked "unroll", and its ``GET_ITER`` breaks as before, with
its hint (``break_before.iterable_needs_its_length``).

``for i, c in enumerate(classes)`` is the same loop too, where the ``enumerate`` goes
straight into the loop (``enumerate_data_trips``: an ``EnumeratedRowsVariable``, whose
trip ``i`` gives ``(start + i, classes[i])``); an ``enumerate`` bound to a name first
breaks at its CALL, as before (``break_before``). ``for s, e in zip(b[:-1], b[1:])``
of NumPy arrays of one such length is one too (``zip_data_trips``: a
``ZippedRowsVariable``, trip ``i`` giving ``(b[:-1][i], b[1:][i])``); lengths that may
differ break at the ``zip`` call. A list comprehension is such a
node where its list is stacked after it (``per_trip_lists``: at no class
``np.array([... for c in classes])`` is ``np.array([])``, float64 of shape ``(0,)``,
which the graph checks for); otherwise it breaks as before.

Example (tests/translator/test_count_trip_nodes.py)::

    >>> dynamo.explain(class_centers)(X, labels).graph_break_count
    0
"""

from __future__ import annotations

from .. import ops
from ..exc import Unsupported
from ..symbolic import Sym, SymInt
from ..symbolic.fit import symbols_in
from ..symbolic.sizes import is_unbacked
from ..variables import ArrayVariable
from ..variables.arrays import EnumeratedRowsVariable, RowIteratorVariable, ZippedRowsVariable
from ..variables.constant import SymRangeVariable
from ..variables.iterators import SymRangeIteratorVariable
from .loop_body_state import dead_after
from .loop_exits import names
from .loop_facts import NotALoopNode, from_zero, why_not
from .loops import LoopScope, SymbolicRest
from .per_trip_lists import check_rows, fresh_empty_lists, install_rows, loop_of_iterator, plan_rows
from .raising_checks import equal_sizes_check


def data_decided(value) -> bool:
    """A range of step 1 whose bounds hold an unbacked size, an array whose length is
    one, or an iterator over either."""
    if isinstance(value, SymRangeVariable) and value.bounds[2] == 1:
        sizes = value.bounds
    elif isinstance(value, SymRangeIteratorVariable) and value.step == 1:
        sizes = (value.start, value.stop)
    elif type(value) is ArrayVariable and value.meta.ndim >= 1:   # (NumPy's own)
        sizes = value.meta.shape[0]
    elif isinstance(value, RowIteratorVariable):
        sizes = value.rows
    else:
        return False
    return any(is_unbacked(name) for name in symbols_in(sizes))


class DataTripLoops:
    """The translator's side (a mixin of ``frames.Handlers``, before ``ControlFlow``):
    ``GET_ITER`` of such a range makes its iterator where the loop may become a node;
    ``loops.LoopNodes.loop_node`` hands its first ``FOR_ITER`` to ``data_trip_node``."""

    def GET_ITER(self, inst):  # noqa: N802 (an opcode's handler)
        value = self.stack[-1] if self.stack else None
        if data_decided(value) and self._may_be_data_trip_node(inst):
            value = self.pop()
            self.push(RowIteratorVariable(value, value.meta.shape[0])
                      if isinstance(value, ArrayVariable) else self.get_iter(value))
            return
        super().GET_ITER(inst)

    def enumerate_data_trips(self, iterable, start: int):
        """``enumerate(classes, start)`` called right before the ``GET_ITER`` of a loop
        that may be a node (``classes`` of a length the data decides): its rows as an
        ``EnumeratedRowsVariable``, which the node iterates as it iterates the rows;
        None for anything else (``enumerate`` as usual: it breaks before its call
        where the length is needed, ``break_before``). Only an iterator that goes
        straight into the loop: one bound to a name could be read after the loop."""
        insts, at = self.info.insts, self.current
        if type(iterable) is not ArrayVariable or iterable.meta.ndim < 1 or \
                not data_decided(iterable) or at is None or \
                at.name not in ("CALL", "CALL_KW") or at.index + 1 >= len(insts) or \
                insts[at.index + 1].name != "GET_ITER" or \
                not self._may_be_data_trip_node(insts[at.index + 1]):
            return None
        return EnumeratedRowsVariable(iterable, iterable.meta.shape[0], start)

    def zip_data_trips(self, iterables):
        """``zip(starts, ends)`` called right before the ``GET_ITER`` of a loop that may
        be a node, of two or more NumPy arrays whose lengths are one size the data
        decides (the same expression: ``b[:-1]`` and ``b[1:]``): their rows as a
        ``ZippedRowsVariable``; None for anything else (``zip`` as usual). Lengths that
        are equal only for some counts (``starts`` of ``u0`` and ``np.append(starts[1:],
        n)`` of ``u1 + 1``: 0 and 1 at no segment) stay None: zip stops at the
        shorter one, which no trip count here can name."""
        insts, at = self.info.insts, self.current
        if len(iterables) < 2 or any(
                type(a) is not ArrayVariable or a.meta.ndim < 1 or a.meta.kind != ops.NUMPY
                for a in iterables) or not data_decided(iterables[0]) or \
                at is None or at.name not in ("CALL", "CALL_KW") or \
                at.index + 1 >= len(insts) or insts[at.index + 1].name != "GET_ITER" or \
                not self._may_be_data_trip_node(insts[at.index + 1]):
            return None
        if any(not _one_length(a, iterables[0]) for a in iterables[1:]):
            if all(data_decided(a) for a in iterables):   # (else: zip as usual)
                error = Unsupported(
                    "zip() of arrays whose lengths only the data decides, and may differ "
                    f"({', '.join(a.meta.shape[0].sym.render() for a in iterables)})",
                    "zip stops at the shortest array; the trace cannot say which one that "
                    "is, nor name its length as one loop node's trip count.",
                    hint="zip slices of one array of bounds, which have one length: "
                         "b = np.concatenate(([0], starts, [len(v)])); "
                         "zip(b[:-1], b[1:]) (one loop node), or accept the graph break",
                    cause="data_dependent_shape")
                # (equal in fact, as zip(starts, ends) of runs: checked when the graph
                # runs, which reruns the frame eagerly where they differ; equal_sizes.py)
                first = iterables[0].meta.shape[0]
                if not equal_sizes_check(self, [(a.meta.shape[0], first) for a in
                                                iterables[1:]], error):
                    raise error
                return ZippedRowsVariable(list(iterables), first)
            return None
        return ZippedRowsVariable(list(iterables), iterables[0].meta.shape[0])

    def _may_be_data_trip_node(self, inst) -> bool:
        """The ``GET_ITER`` ``inst`` makes the iterator of a loop (the next
        instruction's, or a list comprehension's: ``per_trip_lists.loop_of_iterator``),
        no earlier attempt refused it, and nothing rules a loop node out
        (``LoopNodes.may_become_loop_node``'s conditions that do not need the count)."""
        found = loop_of_iterator(self, inst)
        if found is None:
            return False
        code, info, loop = found
        root = self
        while root.parent is not None:
            root = root.parent
        # ("rows": a list stacked after it, per_trip_lists; the loop may be in the
        # 3.11 <listcomp> function, whose plan is under its own code)
        plan = root.break_points.get((code, loop.index))
        return (plan is None or plan.kind == "rows") and \
            self.output.loop_scope is None and \
            self.output.kind in (None, ops.NUMPY) and not self.in_try() and \
            not info.loop_may_exit_early(loop.index)

    def data_trip_node(self, inst, it) -> bool | None:
        """At the loop's first ``FOR_ITER``: all its trips as one node, or the trace
        starts over with the loop unrolled (then ``GET_ITER`` breaks); None where ``it``
        is no such loop's iterator."""
        if not is_data_trip_iterator(it):
            return None
        plan = self.loop_plan(inst)
        rows = plan.counters if plan is not None and plan.kind == "rows" else None
        lists = fresh_empty_lists(self, inst) if rows is None else {}
        try:
            rest = SymbolicRest(0, 1, it.rows) if isinstance(it, RowIteratorVariable) \
                else SymbolicRest(it.start, 1, it.left())
            # (a list appended to per trip and stacked after: its rows, per_trip_lists)
            made = install_rows(self, inst, rest.count, rows) if rows else []
            scope = DataTripScope(self, inst, it, rest, {})
            scope.trace_body()
            check_rows(scope, made)
            scope.finish()
        except NotALoopNode as e:
            self._refuse_or_plan(inst, str(e), lists)
        except Exception as e:  # noqa: BLE001 (anything the body cannot be: break)
            self._refuse_or_plan(inst, why_not(e), lists)
        return True

    def _refuse_or_plan(self, inst, why: str, lists: dict) -> None:
        """The loop is no node as traced: where lists it made just before got one array
        each, try again with them as stacked rows (``per_trip_lists.plan_rows``); else
        start over with the loop unrolled."""
        plan = plan_rows(lists)
        if plan:
            self.refuse_loop_node(inst, why, plan, kind="rows")
        self.refuse_loop_node(inst, why)


def _one_length(a, b) -> bool:
    """Are the two arrays' lengths one size at every count? Compared as expressions,
    not as values (a comparison of unbacked sizes would read them)."""
    m, n = a.meta.shape[0], b.meta.shape[0]
    return isinstance(m, SymInt) and isinstance(n, SymInt) and m.sym == n.sym


def is_data_trip_iterator(it) -> bool:
    """The iterator of a range of a count, at its first ``FOR_ITER``."""
    if isinstance(it, RowIteratorVariable):
        # (run out by the node: its index is the length, which no comparison reads)
        return type(it.index) is int and it.index == 0 and data_decided(it)
    return isinstance(it, SymRangeIteratorVariable) and not it.done and \
        it.index == 0 and data_decided(it)


def _read_inputs(tx, loop) -> None:
    """The arguments and closure variables the body reads, read before it where the
    trace has not yet: no trip was unrolled, and the body's first read (``X`` of
    ``[X[y == c].sum(0) for c in classes]``: a cell of the 3.11 ``<listcomp>``, an
    argument first read there on 3.12+) would look to the loop's checks like a
    rebinding, or a temporary read after the loop. Reading one changes nothing."""
    args = getattr(tx, "args", None) or {}
    for inst in tx.info.insts[loop.index:loop.target or loop.index]:
        if inst.name == "LOAD_DEREF":
            cell = tx.cells.get(getattr(inst.arg, "name", inst.arg))
            if cell is not None and cell.value is None:
                try:
                    cell.get(tx)
                except Unsupported:     # (unbound: the body's own read says so)
                    pass
        elif inst.name.startswith(("LOAD_FAST", "STORE_FAST_LOAD_FAST")):
            for name in names(getattr(inst.arg, "name", inst.arg)):
                if name in args and name not in tx.locals:
                    tx.load_local(name)


def describe(value) -> str:
    return "nothing" if value is None else value.describe()


class DataTripScope(LoopScope):
    """A ``LoopScope`` over all of a range whose trip count the data decides."""

    data_trips = True

    def __init__(self, tx, inst, it, rest, counters: dict):
        _read_inputs(tx, inst)
        super().__init__(tx, inst, it, rest, counters)

    def _known_facts(self) -> list:
        """A condition of a trip need hold only where that trip runs: with at least
        one trip. The counts in it are written as ``_require`` writes a condition over
        counts (``loop_facts.from_zero``: ``c' - 2`` for a count ``c``)."""
        counts = self.trips.sym.symbols & self.output.shape_env.unbacked.keys()
        return [from_zero(self.trips.sym - Sym((), 1), counts)]

    def _temporaries(self) -> None:
        """No trip may have run: a local the body binds (the index, a temporary) is
        no value after the loop, so it must be dead there; it is dropped (back to its
        value before the loop, or unbound)."""
        tx = self.tx
        slot_ids = {id(v) for v in self.slots}
        dead = dead_after(tx, self.after_index())
        if set(self.entry_locals) - set(tx.locals):
            raise NotALoopNode("the body deletes locals")
        for name, var in list(tx.locals.items()):
            old = self.entry_locals.get(name)
            if var is old or old is not None and id(old) in slot_ids and \
                    name not in self.targets:
                continue
            if self.watched.first.get(name) != "write" or self.watched.opaque:
                raise NotALoopNode(f"the local {name!r} is carried from one iteration "
                                   f"to the next ({describe(old)} -> {var.describe()})")
            if name not in dead:
                raise NotALoopNode(
                    f"the local {name!r} is read after a loop whose trip count the data "
                    "decides (it may run no trip)")
            tx.drop_temporary(name, old)
