"""What one pass through a loop node's body left behind, the part of ``LoopScope``
(``loops.py``) that runs once the body is traced: which carried arrays its holders
hold now (``_next_values``: the same slot, another slot, or a new array of the same
shape and dtype), which other locals it changed (``_temporaries``: unchanged, a
counter, or written before it is read), and whether any of that stops the loop from
being one node (``NotALoopNode``)::

    for t in range(800):
        B[1:-1] = 0.5 * (A[:-2] + A[2:])    # A, B: slots kept (written in place)
        A, B = B, A                         # a cycle: the slots swap every trip
        tmp = A.sum()                       # a temporary: its last trip's value

Example::

    >>> nexts = scope._next_values(scope._holders())    # {0: 1, 1: 0}: A <-> B
"""

from __future__ import annotations

from .. import ops
from ..bytecode.instructions import reads_its_locals
from ..graph import CALL
from ..symbolic import Sym, Symbolic, SymFloat, SymInt
from ..tree import tree_leaves
from ..variables import ArrayVariable, ConstantVariable
from ..variables.arrays import DeferredNumberVariable
from ..variables.trip_rows import TripRowsVariable
from .carried_choice import FLAG, VALUE, CarriedChoiceVariable, part_of, with_part
from .loop_facts import (
    NotALoopNode,
    SettlingCarry,
    at_trip,
    float_at_trip,
    int_step,
    is_slice,
    lone_symbol,
    memory_base,
    same_constant,
    same_int,
    unbacked_in,
)
from .unread_trip_numbers import refuse_unread


class Counters(NotALoopNode):
    """The body steps Python ints by a constant (``k += 1``): try again with them as
    counters, ``k0 + step * trip`` (``counters``: name -> step)."""

    def __init__(self, counters: dict):
        super().__init__(f"counted again with the counters {sorted(counters)}")
        self.counters = counters




class BodyState:
    """The checks and results of one traced pass through a loop body (a mixin of
    ``LoopScope``: it reads the scope's ``tx``, ``slots``, ``temps``, ``fresh``...)."""

    def _check_sizes_left(self) -> None:
        """Before the loop node is made: a value the loop leaves behind may hold a
        size the body made from the data (``y = x[x > t]``; ``n = len(y)``) only where
        it is the last trip's, read off an array temporary of that trip
        (``_own_fresh_sizes``: the first dimension that is exactly that size). Any
        other (``len(y) + 1`` with no ``y`` left, ``np.concatenate([y, y])``'s ``2 * u``
        alone) is no value the graph after the loop could read: no loop node."""
        owned = {lone_symbol(d) for _, var in self.temps for d in var.meta.shape}
        dead = dead_after(self.tx, self.after_index())
        for name, var in list(self.tx.locals.items()):
            lost = unbacked_in(var, self.fresh) - owned
            if lost and name in dead and name in self.entry_locals and \
                    self.watched.first.get(name) == "write" and not self.watched.opaque:
                # a temporary nothing reads after the loop (BFGS's ``step``, stepped
                # by a nested ``while`` node of data-decided trips): as it was before
                self.tx.drop_temporary(name, self.entry_locals[name])
                continue
            if lost:
                raise NotALoopNode(f"the local {name!r} holds a size the data decides in "
                                   f"the body ({', '.join(sorted(lost))}) after the loop")

    def _own_fresh_sizes(self) -> None:
        """Each size the body made from the data that a temporary left after the loop
        holds is read off that temporary, the last trip's array, when the graph runs
        (``OutputGraph.unbacked_sizes``: what ``sym_size`` and the glue read)."""
        out = self.output
        owners = {}
        for name, _ in self.temps:
            var = self.tx.locals[name]
            for d, size in enumerate(var.meta.shape):
                if lone_symbol(size) in self.fresh:
                    owners.setdefault(lone_symbol(size), (var.node, d))
        for symbol in self.fresh:
            if symbol in owners:
                out.unbacked_sizes[symbol] = owners[symbol]
            else:      # read in the body only: a later read would be a bug, loudly
                out.unbacked_sizes.pop(symbol, None)

    def _check_effects(self) -> None:
        for var in self.log:
            if isinstance(var, str):
                raise NotALoopNode(f"the body writes the global {var!r}")
            if id(var) not in self.created and not self._made_in_body(var) and \
                    not self.counted_attributes(var):
                raise NotALoopNode(f"the body changes a {var.describe()}")
        for node in self.body.nodes:   # writes only into carried arrays
            if node.op == CALL and node.meta.get("kind") == ops.MUTATION or \
                    node.op == CALL and "out" in node.kwargs:
                target = memory_base(node)
                if target.op == "placeholder" and target in self.free.values():
                    raise NotALoopNode("the body writes an array it does not carry")
        for name, value in self.entry_cells.items():
            if self.tx.cells[name].value is not value:
                raise NotALoopNode(f"the body rebinds the closure variable {name!r}")
        refuse_unread(self)   # (a raising number of the index that no op reads)


    def counted_attributes(self, var) -> bool:
        """Whether the changes to ``var`` are int attributes counted per trip
        (``attr_counters.AttrCounters``, a ``for`` loop's; none here)."""
        return False

    def _made_in_body(self, var) -> bool:
        """``var`` is a list, dict or object the body itself made on this trip (no
        source: nothing from outside the trace; born after the body's trace began): a
        change to it is the trip's own, like one to an iterator of the body (``zip``'s
        in ``for p, g in zip(params, grads)``, the list ``opt.step([gW, gb])`` takes).
        Where the body keeps it past the trip, it is found there: in a local
        (``_temporaries``), on the stack, or in an older object (whose change is
        logged and is not the body's own)."""
        return var.source is None and var.born >= self.first_birth

    def _holders(self) -> dict[int, list]:
        """Per slot, where the frame held it at the loop: ("local", name), ("stack", i),
        or the rows of a list held there: ("rows", name), ("stack rows", i)."""
        holders: dict[int, list] = {k: [] for k in range(len(self.slots))}
        index = {id(v): k for k, v in enumerate(self.slots)}
        for name, var in self.entry_locals.items():
            if id(var) in index:
                holders[index[id(var)]].append(("local", name))
            elif isinstance(var, TripRowsVariable) and id(var.stacked) in index:
                holders[index[id(var.stacked)]].append(("rows", name))   # (per_trip_lists)
            elif isinstance(var, CarriedChoiceVariable):   # (its value and flag: slots)
                for kind in (VALUE, FLAG):
                    holders[index[id(part_of(var, kind))]].append((kind, name))
        for i, var in enumerate(self.entry_stack):
            if id(var) in index:
                holders[index[id(var)]].append(("stack", i))
            elif isinstance(var, TripRowsVariable) and id(var.stacked) in index:
                # (a list comprehension's rows, under its iterator: per_trip_lists)
                holders[index[id(var.stacked)]].append(("stack rows", i))
        return holders

    def _next_values(self, holders) -> dict:
        """Per slot, what its holders hold after one iteration: a slot number (the same
        or another carried array) or a new ArrayVariable of the same shape and dtype.
        Every other local must be unchanged, or a temporary (``_temporaries``)."""
        tx = self.tx
        if len(tx.stack) != len(self.entry_stack) or \
                any(a is not b for a, b in zip(tx.stack, self.entry_stack)
                    if not isinstance(b, ArrayVariable)):
            raise NotALoopNode("the body changes the stack")
        index = {id(v): k for k, v in enumerate(self.slots)}
        nexts = {}
        for k, places in holders.items():
            if k in self.reached_slots and not places:   # (its own next: reached_carries)
                nexts[k] = k
                continue
            ends = {id(self._held(p)): self._held(p) for p in places}
            if len(ends) != 1:
                raise NotALoopNode("one array held under two names is split by the body")
            end = next(iter(ends.values()))
            if unbacked_in(end, self.fresh):
                raise NotALoopNode(f"a carried array gets a size the data decides on each "
                                   f"trip ({self.slots[k].meta} -> {end.describe()})")
            if not isinstance(end, ArrayVariable) or end.meta != self.slots[k].meta:
                raise NotALoopNode(f"a carried array changes type, shape or dtype "
                                   f"({self.slots[k].meta} -> {end.describe()})")
            nexts[k] = index.get(id(end), end)
        self._temporaries()
        return nexts

    def _counter(self, name: str, step: int, trips: int) -> SymInt:
        """The counter ``name`` at trip ``trips``: ``k0 + step * (trip + trips)``.

        ``k0`` may itself be symbolic (``k += 1`` in an inner loop over ``range(n)``,
        unrolled outer trips: the second row starts at ``s1``), so it is added as a
        SymInt, never folded into the Sym's constant: there it printed as
        ``SymInt(12, s1 + 1)`` in the loop body's code (issue #17)."""
        start = self.entry_locals[name].value
        self.check_counter_start(name, start)   # (nested_loops)
        # (the SymInt on the left: its ``+`` keeps the sum symbolic whatever int
        # ``start`` is; ``bool.__add__`` would drop the expression)
        return SymInt(step * trips, Sym(((self.symbol, step),), step * trips,
                                        ((self.symbol, self.symbol),))) + start

    def _at_last_trip_value(self, value):
        """A temporary constant's value after the loop: an int made from the index
        (``j = 2 * i + 1``) or a float (``lr = 0.5 / (1 + 0.1 * t)``: ``float_at_trip``)
        at the last trip. Anything else that holds the index (a tuple, a slice) is no
        value the frame could read after the loop: no loop node."""
        if isinstance(value, SymFloat):
            try:
                return float_at_trip(value, self.symbol, self.last,
                                     self.output.shape_env.hints)
            except (ArithmeticError, KeyError) as e:   # (1 / (t - 9) at the last trip)
                raise NotALoopNode(f"a float made from the index at the last trip: "
                                   f"{type(e).__name__}: {e}") from None
        value = at_trip(value, self.symbol, self.last)
        if any(isinstance(v, Symbolic) and self.symbol in v.sym.symbols
               for v in tree_leaves(value, is_leaf=is_slice)
               for v in ((v.start, v.stop, v.step) if isinstance(v, slice) else (v,))):
            raise NotALoopNode("a local holds the index inside another value after the loop")
        return value

    def _held(self, place):
        kind, key = place
        if kind in (VALUE, FLAG):   # (a running choice's part: carried_choice)
            return part_of(self.tx.locals.get(key), kind)
        if kind in ("rows", "stack rows"):   # (a list's rows: the same list, the same rows)
            held = self.tx.locals.get(key) if kind == "rows" else self.tx.stack[key]
            return held.stacked if isinstance(held, TripRowsVariable) else held
        return self.tx.locals.get(key) if kind == "local" else self.tx.stack[key]

    def after_index(self) -> int:
        """Where the code after the node begins, for the liveness of what it leaves:
        the loop's exit, or ``exit_index`` (a split loop's segment before the last:
        its ``FOR_ITER``, as the next segment's body reads what it left)."""
        at = getattr(self, "exit_index", None)
        return self.inst.target if at is None else at

    def _temporaries(self) -> None:
        """Locals other than carried arrays: unchanged, or written before they are read
        in the body (then after the loop they hold the last iteration's value, unless
        nothing reads them after the loop: ``dead_after``)."""
        tx = self.tx
        slot_ids = {id(v) for v in self.slots}
        dead = dead_after(tx, self.after_index())
        for name in set(tx.locals) - set(self.entry_locals):
            # a local the body binds before it reads it, unbound before the loop and
            # dead after it (Gauss-Jordan's ``f = A[k, p]`` in one way of ``if k !=
            # p``): no trip's value is read after the loop, so it is unbound again
            if name in dead and self.watched.first.get(name) == "write" and \
                    not self.watched.opaque:
                tx.drop_temporary(name)
        if set(tx.locals) != set(self.entry_locals):
            raise NotALoopNode("the body adds or deletes locals")
        counters = {}
        for name, var in tx.locals.items():
            old = self.entry_locals[name]
            if var is old or id(old) in slot_ids and name not in self.targets or \
                    same_constant(var, old) or isinstance(old, CarriedChoiceVariable):
                continue
            if name in self.counters:
                if not isinstance(var, ConstantVariable) or \
                        not same_int(var.value, self._counter(name, self.counters[name], 1)):
                    raise NotALoopNode(f"the counter {name!r} does not step by "
                                       f"{self.counters[name]}")
                tx.locals[name] = ConstantVariable(
                    self.entry_locals[name].value + self.counters[name] * self.trips)
                continue
            step = int_step(old, var)
            if step is not None and self.watched.first.get(name) == "read":
                counters[name] = step
                continue
            if self.watched.first.get(name) != "write" or self.watched.opaque:
                # (from a Python constant: its type may settle a trip later, a delay line)
                settling = isinstance(old, ConstantVariable) and \
                    not isinstance(var, ConstantVariable)
                raise (SettlingCarry if settling else NotALoopNode)(
                    f"the local {name!r} is carried from one iteration to the next "
                    f"({old.describe()} -> {var.describe()})")
            if isinstance(var, ConstantVariable):
                tx.locals[name] = ConstantVariable(self._at_last_trip_value(var.value))
            elif isinstance(var, ArrayVariable) and name in self.targets:
                if name in dead and not unbacked_in(var, self.fresh):
                    # no loop output: each trip's value dies with its trip (the value
                    # it holds is unreadable; one with a size the data decides stays,
                    # as other values left may hold that size: ``_own_fresh_sizes``)
                    tx.drop_temporary(name, old)
                else:
                    self.temps.append((name, var))
            elif isinstance(var, DeferredNumberVariable) and name in self.targets and \
                    name in dead:
                # (u = int(np.argmin(c)) each trip, read by nothing after the loop: it
                # dies with its trip, as a dead temporary array does; ``loop_ints``).
                # Small arrays too: the trip reads the NumPy scalar itself, no copy and
                # no ``getitem(u, ())`` per use (variables/snapshots.py,
                # passes/scalar_reads.py): a 300-trip k-means assignment on 4x2 arrays
                # 1.44x plain on the numpy backend (scripts/bench_small_loop_nodes.py;
                # 0.71x with the copy and reads)
                tx.drop_temporary(name, old)
            else:
                raise NotALoopNode(f"the local {name!r} holds a {var.describe()} made in "
                                   "the body")
        if counters:
            raise Counters({**self.counters, **counters})

    def _check_temps(self) -> None:
        """A temporary array that is read after the loop must be its own memory: as a
        loop output it no longer says whose view it is."""
        after = self.tx.info.names_read_from(self.after_index())
        placeholders = set(self.placeholders.values()) | set(self.free.values())
        for name, var in self.temps:
            if name in after and (memory_base(var.node) in placeholders or
                                  var.node.graph is not self.body):
                raise NotALoopNode(f"{name!r}, a view of a carried array, is read after "
                                   "the loop")

    def _check_distinct_results(self, nexts: dict) -> None:
        """Each carried result is its own memory: the very array of the slot it came
        from (written in place, or swapped), or a new array that is no view of one."""
        results = self.body.output_node.args[0][:len(self.slots)]
        slots = {self.placeholders[id(v)]: k for k, v in enumerate(self.slots)}
        bases: dict = {}
        for k, node in enumerate(results):
            base = memory_base(node)
            if isinstance(nexts[k], int):
                if slots.get(base) != nexts[k]:
                    raise NotALoopNode("a carried array is replaced by a view")
            elif base in slots:
                raise NotALoopNode("a carried array becomes a view of one")
            if base in bases:
                raise NotALoopNode("two carried arrays would share memory")
            bases[base] = k

    def _set_state(self, holders, final) -> None:
        tx = self.tx
        for k, places in holders.items():
            for kind, key in places:
                if kind == "rows":
                    tx.locals[key].stacked = final[k]
                elif kind == "stack rows":
                    tx.stack[key].stacked = final[k]
                elif kind in (VALUE, FLAG):   # (the glue resolves the choice after)
                    tx.locals[key] = with_part(tx.locals[key], kind, final[k])
                elif kind == "local":
                    tx.locals[key] = final[k]
                else:
                    tx.stack[key] = final[k]


def dead_after(tx, index: int, names=None) -> frozenset:
    """The locals of ``tx`` (or of ``names``) that no path from instruction ``index``
    reads before storing them again; none where the code reads its locals by name
    (``locals()``, ``eval``: every bound local is the program's there), nor where an
    island after the loop binds every local in the frame (``keeps_temporaries``, issue
    #17).

    ``for _ in range(n): d = x[:, None] - x[None, :]; x = x + f(d)`` then
    ``return x``: ``d`` is dead after the loop, so the node does not hand back its
    last trip's value, and each trip's ``d`` is freed within its trip, as in Python."""
    if reads_its_locals(tx.code) or tx.keeps_temporaries():
        return frozenset()
    return frozenset(tx.locals if names is None else names) - tx.info.live_at(index)
