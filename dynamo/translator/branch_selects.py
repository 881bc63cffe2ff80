"""An ``if`` on array data that only chooses a value: both ways traced, one graph.

::

    if x.sum() > 0:                 # a 0-d value of the data decides
        y = x * 2                   # multiply = ops.multiply(x, 2)
    else:                           # negative = ops.negative(x)
        y = -x                      # y = ops.branch_select(greater, multiply, negative)
    return np.tanh(y)

``select_branches`` runs at the jump (or the ``TO_BOOL``/``COMPARE_OP`` before it, 3.13)
whose truth value only the data decides, where ``raising_checks.defer_check`` found no
check. It traces the two ways one after the other, each from the frame's state at the
jump up to where they join (``_join``: the target of the jump for an ``if`` without
``else``, the target of the jump that ends the first way for ``if/else`` and a
conditional expression), and where a name (or a stack slot) holds two different values
at the join, the graph picks one with ``ops.branch_select`` (``dynamo/ops/branches.py``),
which returns the taken way's array itself.

Each way must be straight code that only computes: no backward jump, no return
(unless both ways return: then the value returned is chosen), no Python effect (a
list append, an attribute or global write, a closure variable, a print: a break
inside either way), no op that writes into an array (a write into an array the graph
made is made at the join instead, ``x[i] = where(flag, v, x[i])``: ``select_writes``;
an ``elif`` that ends a loop body is a select inside the way), draws random numbers, enters
``np.errstate``, warns at Python level or checks data, no loop node; and the two
values of a name must be the same Python value or arrays of one shape, dtype and kind
(NumPy scalar or array), each array joined with one other only; and both ways
together compute at most ``_MAX_ELEMENTS`` elements, of static sizes (both run on
every call, and a break costs only a few us). A name only one way
binds must be dead after the join. Both ways' ops run when the graph runs, so the
graph must be one the frame may rerun (``raising.rerun_on_raise``, as for a data
check): the ``branch_select`` op counts as raising, so the graph runs under NumPy's
floating-point guard and an op that raises or reports a condition (the untaken way's
``1 / d`` with ``d == 0``) makes the frame's original code run instead, which warns
only where plain Python does. A write, a random draw or a Python-level warning after
the ``if`` restarts the trace, which then breaks at the ``if`` (``WriteGuard.checks``,
as after a data check).

Anything else keeps the break the jump had, with its message (the trace starts over
and breaks there).

Example::

    >>> # 3.11: COMPARE_OP >; POP_JUMP_FORWARD_IF_FALSE L1; <y = x * 2>;
    >>> #       JUMP_FORWARD L2; L1: <y = -x>; L2: ...
    >>> select_branches(tx, jump, greater_var, error)   # tx.ip is now L2
    True
"""

from __future__ import annotations

import math

from .. import ops
from ..exc import Unsupported
from ..graph import CALL
from ..hints_flow import BRANCH_ON_DATA, KEEPS_ITEMS, KEEPS_ITEMS_HINT
from ..ops.meta import ArrayMeta
from ..raising import errstate_reports, rerun_on_raise
from ..variables import ArrayVariable, ConstantVariable
from ..variables.iteration import BranchChoiceVariable
from ..variables.size_values import size_flag
from .base import TranslatorBase
from .exit_flags import exit_flag, joins_bools
from .loop_body_state import Counters, dead_after
from .loop_exits import names
from .loop_facts import WatchedLocals, same_constant
from .number_selects import number_kind, select_number
from .picked_numbers import join_per_trip
from .raising_checks import _DATA_CAUSES, _conditional_jump, _flag, _root, defer_check
from .running_choices import join_running, running_choice
from .select_writes import apply_writes, defer_write, mark_ways, reads_written

# What a caller of ``truth_or_select`` gets where both ways were traced: the trace
# goes on at the join (``tx.ip``), and the jump has nothing left to decide.
SELECTED = object()

_JUMPS = ("JUMP_FORWARD", "JUMP", "JUMP_NO_INTERRUPT")
# Instructions one way may run, at most (a long way is no choice of a value).
_MAX_STEPS = 400
# Ops no way may hold: each changes something the other way would not, or cannot be
# rerun (``_check_nodes``).
_LOOPS = frozenset({"fori_loop", "while_loop", "after_loop"})
# The elements both ways' ops may compute, at most. Both ways run on every call, and
# a break at the ``if`` costs only 1-2 us (scripts/bench_branch_selects.py): an
# untaken way of 2 x 4096 float64 elements costs about that, 2 x 262144 made the
# select 0.5-0.9x the break. So only small ways of static sizes are selects (a size
# that can change could grow past the budget on a later call).
_MAX_ELEMENTS = 8192


class NotASelect(Exception):  # noqa: N818 (control flow: the jump breaks, as before)
    """This ``if`` cannot be two traced ways and a ``branch_select``."""


def truth_or_select(tx, inst, value, error):
    """The truth of ``value`` for the jump after ``inst`` (a data check, ``defer_check``),
    or ``SELECTED`` where both ways of the jump were traced (``select_branches``);
    else the break of the jump is raised. A data-dependent size is tested as the graph's
    ``u0 != 0`` (``size_flag``: ``if len(kept):``)."""
    flag = size_flag(tx, value)
    if flag is not None:
        value = flag
    try:
        return defer_check(tx, inst, value, error)
    except Unsupported as as_break:
        _keeps_items(tx.info.insts, inst, as_break)
        if select_branches(tx, inst, value, as_break):
            return SELECTED
        raise


def _attr_name(arg):
    """The name a ``LOAD_ATTR`` reads (3.12+: ``(is_method, name)``)."""
    if isinstance(arg, tuple):
        arg = next((a for a in arg if isinstance(a, str)), None)
    return getattr(arg, "name", arg)


def _ways_from(insts, starts: list, stop: int) -> list:
    """The instructions reached from ``starts`` up to a jump back, a return or
    ``stop``, following forward jumps (``a and b``: the second test's way too)."""
    out, seen, todo = [], set(), list(starts)
    while todo and len(out) < _MAX_STEPS:
        at = todo.pop()
        while stop > at < len(insts) and at not in seen:
            seen.add(at)
            i = insts[at]
            if i.name.startswith(("JUMP_BACKWARD", "RETURN")):
                break
            out.append(i)
            if i.target is not None and i.target > at:
                todo.append(i.target)
            at += 1
    return out


# What keeps an item in a list, set or dict in a way (a comprehension's own, a method)
_KEEPS = frozenset({"LIST_APPEND", "SET_ADD", "MAP_ADD"})
_KEEPING_METHODS = frozenset({"append", "add", "extend", "insert"})


def _keeps_items(insts, inst, error) -> None:
    """Where a way of the ``if`` tested at ``inst`` keeps an item in a container
    (``if x[i] > x[i - 1]: peaks.append(i)``, ``[v for v in xs if v > 0]``), its break
    says so: what the ``if`` needs is a list whose length the data decides (issue #19:
    ``hints_flow.KEEPS_ITEMS``); an ``if`` that is a select keeps no break."""
    jump = _conditional_jump(insts, inst)
    # (a break with words of its own, ``float()`` of an array, keeps its hint)
    if jump is None or jump.target is None or \
            error.hint != BRANCH_ON_DATA:
        return
    # (both ways, each up to a jump back or a return: 3.11's comprehension jumps back to
    # its loop's head, 3.13's ``if`` that ends a loop body jumps forward to its way)
    starts = [jump.index + 1] + ([jump.target] if jump.target > jump.index else [])
    way = _ways_from(insts, starts, len(insts))
    if any(i.name in _KEEPS or i.name in ("LOAD_ATTR", "LOAD_METHOD") and
           _attr_name(i.arg) in _KEEPING_METHODS for i in way):
        error.explanation, error.hint = KEEPS_ITEMS, KEEPS_ITEMS_HINT


def select_branches(tx, inst, value, error) -> bool:
    """Trace both ways of the conditional jump tested at ``inst`` on the 0-d array
    ``value`` and join them (module docstring). True: done, ``tx.ip`` is at the join.
    False: no such ``if`` (the caller raises ``error``). Where the ways were traced
    and cannot join, ``error`` is raised with the frame's state as it was at the jump
    (the trace starts over, and breaks there)."""
    plan = _plan(tx, inst, value, error)
    if plan is None:
        return False
    jump, flag, join, restart, fall_end = plan
    target_when = _target_truth(tx.info.insts, inst, jump)
    _read_arguments(tx, jump.index, join)
    entry = _State.of(tx)
    nodes_before = set(tx.output.graph.nodes)
    # (in a loop body: the names each way reads or writes first, not the join's stores)
    notes = tx.locals.notes_of_ways() if isinstance(tx.locals, WatchedLocals) else None
    try:
        falls = _trace_way(tx, entry, jump.index + 1, fall_end)
        if notes:
            notes.way_done()
        # (where the first way returns, the second must too: ``return a if c else b``,
        # or 3.12+'s copy of a short ``return`` after the ``if`` into both ways)
        jumps = _trace_way(tx, entry, jump.target, None if falls.returns else join)
        if notes:
            notes.way_done()
        if_true, if_false = (jumps, falls) if target_when else (falls, jumps)
        _check_nodes(tx, nodes_before)
        tx.current, tx.output.current_loc = inst, tx.location(inst)
        _join(tx, entry, flag, if_true, if_false, join, nodes_before, error)
        # (a write a way made into an array of the graph: ``x[i] = where(flag, v, x[i])``)
        # (inside an outer select's way: written when that one joins)
        if (if_true.writes or if_false.writes) and not apply_writes(
                tx, flag, [(if_true.writes, True), (if_false.writes, False)],
                getattr(tx, "select_writes", None)):
            raise NotASelect("a written value is not exactly what the write stores")
        mark_ways(tx.output.graph, nodes_before)
    except NotASelect:
        # (where a way added ops or changed Python state, the root frame's ``step``
        # starts the trace over, and it breaks at ``inst``; else it breaks here, on
        # the state at the jump)
        entry.restore(tx)
        tx.ip, tx.current = inst.index + 1, inst
        tx.output.current_loc = tx.location(inst)
        raise error from None
    finally:
        if notes:
            notes.settle()
    tx.output.writes.checks.append(restart)   # (a later write: the break it was)
    if falls.returns:                          # (the frame's result is chosen)
        tx.done = True
    else:
        tx.ip = join
    return True


def _plan(tx, inst, value, error):
    """(jump, flag, join, restart, fall_end) where both ways may be tried (the way that
    falls through ends at ``fall_end``, the other at ``join``); None where not."""
    output = tx.output
    if not tx.config.branch_selects or error.cause not in _DATA_CAUSES:
        return None
    flag = _flag(value)
    jump = _conditional_jump(tx.info.insts, inst)
    if flag is None or jump is None or jump.target is None or \
            jump.target <= jump.index or flag.meta.kind != ops.NUMPY:
        return None
    # (in a loop node's body the ways are traced once, for every trip: each op of them
    # is checked at the first and the last trip as the body's others are, ``IndexFit``)
    if not getattr(output.loop_scope, "selects_in_body", True) or \
            output.kind not in (None, ops.NUMPY) or \
            tx.in_try() or output.writes.warns or output.writes.ops_in_try or \
            not rerun_on_raise(output, loops=True) or errstate_reports(output.graph):
        return None
    root = _root(tx)
    point, restart = root.check_restart(tx.code, inst.index, error)
    insts = tx.info.insts
    fall_end, join = _trip_ends(insts, jump) or (_join_index(insts, jump),) * 2
    # (``lo <= x[i] < hi``: the first link's cleanup block lies in the way, dead)
    at, dead = getattr(tx, "chain_cleanup", None) or (None, ())
    if point.key in root.break_points or join is None or (tx is root and any(
            i in root.break_points for i in range(jump.index, join + 1))) or \
            not _may_be_straight([i for i in insts[jump.index + 1:fall_end]
                                  if at != jump.index or i.index not in dead]) or \
            not _may_be_straight(insts[jump.target:join], insts[fall_end].target
                                 if fall_end != join else None):
        return None
    return jump, flag, join, restart, fall_end


# Instructions a way that only computes never runs (a write, a ``raise``, a ``yield``):
# where one is between the jump and the join, the ``if`` breaks without a trace of its
# ways (each failed attempt costs the frame a restart of its trace).
# (a ``STORE_SUBSCR`` into an array the graph made may be a select's write:
# ``select_writes.py``; into anything else the traced way is no select)
_EFFECTS = frozenset({"STORE_ATTR", "STORE_GLOBAL", "STORE_DEREF",
                      "DELETE_SUBSCR", "DELETE_ATTR", "DELETE_GLOBAL", "DELETE_DEREF",
                      "DELETE_FAST", "RAISE_VARARGS", "RERAISE", "YIELD_VALUE",
                      "SETUP_WITH", "BEFORE_WITH", "IMPORT_NAME", "STORE_SLICE"})


def _may_be_straight(insts, head: int | None = None) -> bool:
    """No jump back (a loop: a ``while`` test, or a loop in a way) and no instruction
    of ``_EFFECTS`` among ``insts``, the code between the jump and the join. (A jump
    back to ``head``, the loop's head where the ways end a trip, ends an ``elif``'s
    way: the ``elif`` is a select of its own, ``_trip_end``.)"""
    return not any(i.name in _EFFECTS or i.target is not None and i.target <= i.index
                   and not (i.name == "JUMP_BACKWARD" and i.target == head)
                   for i in insts)


def _read_arguments(tx, lo: int, hi: int) -> None:
    """Wrap now the arguments the ``if`` reads or binds that the trace has not read yet
    (the root frame wraps an argument when first read, and takes it out of
    ``tx.args``): both ways must start from a state that holds them, and a way that
    does not bind one still has it at the join; not one stored before any read (its
    type guarded, an outlined body's ``d`` compiled again per type, for no one)."""
    args = getattr(tx, "args", {})
    wanted = set(args) - dead_after(tx, lo, args)
    for inst in tx.info.insts[lo:hi]:
        if inst.name.startswith(("LOAD_FAST", "STORE_FAST", "DELETE_FAST")):
            for name in names(getattr(inst.arg, "name", inst.arg)):
                if isinstance(name, str) and name not in tx.locals and name in wanted:
                    tx.load_local(name)


def _join_index(insts, jump) -> int | None:
    """Where the two ways of ``jump`` meet: the target of the forward jump that ends the
    first way (``if/else``, ``a if c else b``), or the jump's own target (an ``if``
    without ``else``)."""
    last = insts[jump.target - 1]
    if last.name in _JUMPS and last.target is not None and last.target > jump.target:
        return last.target
    return jump.target


def _trip_ends(insts, jump) -> tuple[int, int] | None:
    """``(fall_end, join)`` where both ways of ``jump`` end the loop body's trip, each
    with a jump back to the loop's head: the way that falls through at the jump back
    just before ``jump``'s target, the other at the next jump back to the same head.
    The ways join at the second (which the trace then runs). So an ``if`` that is the
    last statement of a loop body (3.13: ``POP_JUMP_IF_TRUE L2; JUMP_BACKWARD L1; L2:
    total += 1; JUMP_BACKWARD L1``; 3.11's ``if``/``else`` there) is one select.
    None for any other shape."""
    first = insts[jump.target - 1]
    if first.name != "JUMP_BACKWARD" or first.target is None or first.target >= jump.index:
        return None
    end = _trip_end(insts, jump.target, first.target)
    return None if end is None else (first.index, end)


def _trip_end(insts, start: int, head: int) -> int | None:
    """The jump back to ``head`` that ends the trip from ``start`` on, past the ``if``s
    that end the trip too (an ``elif``, its own select inside this way: 3.13's
    ``POP_JUMP_IF_TRUE L3; JUMP_BACKWARD L1; L3: ...; JUMP_BACKWARD L1``, 3.11's
    ``POP_JUMP_FORWARD_IF_FALSE L3; ...; L3: JUMP_BACKWARD L1``, joined at the last
    jump back); None where another jump comes first. (An inner ``if`` of another shape
    is no select when traced, and the way with it is none: the ``if`` breaks.)"""
    for inst in insts[start:start + _MAX_STEPS]:
        if inst.target is None:
            continue
        if inst.name == "JUMP_BACKWARD" and inst.target == head:
            return inst.index
        if "IF" in inst.name and inst.target > inst.index:
            return _trip_end(insts, inst.target, head)
        if inst.name in _JUMPS and inst.target > inst.index:   # (3.13: past a chained
            return _trip_end(insts, inst.target, head)         # comparison's cleanup)
        return None
    return None


def _target_truth(insts, inst, jump) -> bool:
    """The truth of the tested value for which ``jump`` goes to its target (a
    ``UNARY_NOT`` between flips it)."""
    flips = sum(i.name == "UNARY_NOT" for i in insts[inst.index:jump.index])
    return ("TRUE" in jump.name) != (flips % 2 == 1)


class _State:
    """The frame's state at the jump: locals, stack, closure cells, and the node of
    every array they hold (an in-place write changes it), to start each way from."""

    def __init__(self, locals_, stack, cells, nodes, effects, args):
        self.locals, self.stack, self.cells = locals_, stack, cells
        self.nodes, self.effects, self.args = nodes, effects, args

    @classmethod
    def of(cls, tx) -> _State:
        # (a copy first: a loop body's ``WatchedLocals`` takes ``values()`` as a read
        # of every local, after which no local of the body may be its temporary)
        locals_ = dict(tx.locals)
        held = [*locals_.values(), *tx.stack]
        nodes = {id(v): (v, v.node) for v in held if isinstance(v, ArrayVariable)}
        args = dict(tx.args) if isinstance(getattr(tx, "args", None), dict) else None
        return cls(locals_, list(tx.stack),
                   {n: c.value for n, c in tx.cells.items()}, nodes, _effects(tx), args)

    def restore(self, tx) -> None:
        tx.done, tx.result = False, None
        if self.args is not None:       # (an argument a way read first is unread again:
            tx.args.clear()             # the other way wraps it from the same source,
            tx.args.update(self.args)   # which gives the same Variable)
        tx.locals.clear()               # (the same dict: others hold it)
        tx.locals.update(self.locals)
        tx.stack[:] = self.stack
        for v, node in self.nodes.values():
            v.node = node

    def changed(self, tx) -> str | None:
        """What a way changed that no value at the join can carry; None if nothing."""
        if _effects(tx) != self.effects:
            return "a Python object, a write or a warning"
        if any(tx.cells[n].value is not v for n, v in self.cells.items()):
            return "a closure variable"
        if any(v.node is not node for v, node in self.nodes.values()):
            return "an array written in place"
        return None


def _effects(tx) -> tuple:
    w = tx.output.writes
    return (tx.output.side_effects.version, w.writes_inputs, w.draws, w.warns,
            w.ops_in_try)


class _Way:
    """Where one way ended: its locals and stack at the join, or the value it returns
    (``returns``)."""

    def __init__(self, locals_, stack, result, writes):
        self.locals, self.stack, self.result = locals_, stack, result
        self.returns = result is not None
        self.writes = writes        # (obj, index, value) per deferred array write


def _trace_way(tx, entry: _State, start: int, join: int | None) -> _Way:
    """Trace from ``start`` on the state at the jump, up to ``join`` or a ``return``
    (``join`` None: up to a ``return`` only). Straight code only: the trace moves
    forward, and (up to ``join``) stays in the ``if``."""
    entry.restore(tx)
    writes: list = []      # (``select_writes``: made at the join, chosen by the flag)
    outer = getattr(tx, "select_writes", None)
    tx.select_writes = writes       # (an ``elif``'s select inside adds its writes here)
    try:
        marks = _run_way(tx, start, join, writes)
    finally:
        tx.select_writes = outer
    why = entry.changed(tx)
    if why is not None:
        raise NotASelect(f"a way changes {why}")
    if reads_written(tx.output.graph.nodes, marks):
        raise NotASelect("a way reads an array after writing it")
    if join is None and not tx.done:
        raise NotASelect("one way returns, the other does not")
    way = _Way(dict(tx.locals), list(tx.stack), tx.result if tx.done else None, writes)
    tx.done, tx.result = False, None
    return way


def _run_way(tx, start: int, join: int | None, writes: list) -> list:
    """Step from ``start`` up to ``join`` (or a ``return``), each write into an array
    of the graph kept in ``writes`` (``select_writes.defer_write``); per write, the
    graph's node count when it was kept, and the array it writes."""
    tx.ip, steps, marks = start, 0, []
    while tx.ip != join:
        at = tx.ip
        if at < start or join is not None and at > join or steps > _MAX_STEPS or \
                getattr(tx, "suspended", False):
            raise NotASelect("not straight code")
        if hasattr(tx, "visited"):
            tx.visited[at] = None
        deferred = defer_write(tx, writes)
        if not deferred:
            try:
                TranslatorBase.step(tx)
            except Counters:   # (an ``elif``'s select asks its loop node to carry a
                raise          # number it picks: the node's attempt starts over)
            except Exception as e:  # noqa: BLE001 (a break, an error: no select)
                raise NotASelect(str(e)) from None
        # (also the writes of an inner select, an ``elif``)
        marks += [(len(tx.output.graph.nodes), w[0]) for w in writes[len(marks):]]
        if tx.done:
            break
        if tx.ip <= at:
            raise NotASelect("a jump back")
        steps += 1
    return marks


def _check_nodes(tx, before: set) -> None:
    """The ops both ways added only compute: no write, draw, effect, loop, check or
    Python-level warning; and they are cheap: at most ``_MAX_ELEMENTS`` elements, of
    static sizes, in all."""
    elements = 0
    for node in tx.output.graph.nodes:
        if node in before or node.op != CALL:
            continue
        meta = node.meta.get("array")
        if isinstance(meta, ArrayMeta):
            if not all(type(d) is int for d in meta.shape):
                raise NotASelect(f"the op {node.target} has a size that can change")
            elements += math.prod(meta.shape)
            if elements > _MAX_ELEMENTS:
                raise NotASelect(f"the ways compute more than {_MAX_ELEMENTS} elements")
        op = ops.REGISTRY.get(node.target)
        if op is None or op.random or op.effect or node.target in _LOOPS or \
                node.target == "data_check" or node.meta.get("kind") == ops.MUTATION or \
                "out" in node.kwargs or node.meta.get("warns"):
            raise NotASelect(f"a way holds the op {node.target}")


def _join(tx, entry: _State, flag, if_true: _Way, if_false: _Way, join: int,
          before: set, error: Unsupported, bools: bool = False) -> None:
    """The frame's state at the join: each name and stack slot the ways agree on, or
    a ``branch_select`` of the two arrays; where both return, the value returned.
    ``bools``: ``True`` one way and ``False`` the other join too (a loop's exit,
    ``exit_flags``)."""
    if if_true.returns != if_false.returns:
        raise NotASelect("one way returns, the other does not")
    if if_true.returns:
        entry.restore(tx)
        tx.result = _one_value(tx, flag, if_true.result, if_false.result,
                               {"error": error, "bools": bools}, before)
        return
    if len(if_true.stack) != len(if_false.stack):
        raise NotASelect("the ways leave different stacks")
    tx.locals.update({**if_true.locals, **if_false.locals})   # (every name, for dead_after)
    dead = dead_after(tx, join)
    # (the if's break: where a chosen value is needed)
    merged: dict = {"error": error, "bools": bools}
    entry.restore(tx)
    tx.locals.clear()
    for name in {**if_true.locals, **if_false.locals}:
        a, b = if_true.locals.get(name), if_false.locals.get(name)
        if a is None or b is None:
            if name in dead:
                continue              # (bound one way only, read by no one after)
            raise NotASelect(f"{name!r} is bound one way only")
        tx.locals[name] = _one_value(tx, flag, a, b, merged, before, name)
    tx.stack[:] = [_one_value(tx, flag, a, b, merged, before)
                   for a, b in zip(if_true.stack, if_false.stack)]


def _one_value(tx, flag, a, b, merged: dict, before: set, name: str | None = None):
    if a is b or same_constant(a, b):
        return a
    if running_choice(a, b) or \
            tx.output.loop_scope is not None and not isinstance(a, ArrayVariable):
        # (a Python number chosen per trip: carried by the loop node as a NumPy scalar,
        # ``picked_numbers``, or with a NumPy scalar as a running choice's value and
        # flag, ``running_choices``; the glue cannot pick after the graph per trip)
        chosen = join_running(tx, name, flag, a, b, merged) if running_choice(a, b) \
            else join_per_trip(tx, name, a, b, lambda x, y: _one_value(
                tx, flag, x, y, merged, before))
        if chosen is None:
            raise NotASelect(f"the ways join {a.describe()} and {b.describe()} in a loop")
        return chosen
    if BranchChoiceVariable.joins(a, b):
        return _chosen(tx, flag, a, b, merged, before)
    if merged.get("bools") and joins_bools(a, b):   # (``converged = True; break``)
        chosen = exit_flag(tx, flag, a, merged, before)
        if chosen is not None:
            return chosen
    kind = number_kind(a, b)
    if kind is not None:   # (a counter kept per element: ``if v > t: total += 1``)
        key = ("number", id(a), id(b))
        if key not in merged:
            merged[key] = select_number(tx, flag, a, b, kind)
        if merged[key] is None:
            raise NotASelect(f"the ways join {a.describe()} and {b.describe()}")
        return merged[key]
    if not (isinstance(a, ArrayVariable) and isinstance(b, ArrayVariable)) or \
            not isinstance(a.meta, ops.ArrayMeta) or a.meta != b.meta or \
            a.meta.kind != ops.NUMPY:
        raise NotASelect(f"the ways join {a.describe()} and {b.describe()}")
    key = (id(a), id(b))
    # (an array joined with two others, ``y = t; z = t`` one way and ``y = u; z = v``
    # the other: ``y is z`` at run time on one way only, which no Variable can say)
    partners = merged.setdefault("partners", {})
    if any(partners.setdefault(id(v), key) != key for v in (a, b)):
        raise NotASelect("one array is joined with two others")
    if key not in merged:      # (one name for one pair: ``y = z = ...`` stay one object)
        out = tx.output
        node = out.graph.call("branch_select", (flag.node, a.node, b.node), meta={
            "array": a.meta, **out.current_loc, "kind": ops.OPAQUE})
        var = ArrayVariable(node, a.meta)
        _may_be(tx, var, [v for v in (a, b) if v.node in before])
        merged[key] = var
    return merged[key]


def _chosen(tx, flag, a, b, merged: dict, before: set) -> BranchChoiceVariable:
    """A NumPy scalar one way and a Python number the other (``tp / d if d > 0 else
    0.0``): the glue picks after the graph (``BranchChoiceVariable``). The flag is read
    back as a NumPy scalar (a 0-d array could be written later in the graph). No
    ``branch_select`` stands in the graph, so the ways' ops are marked as ops that may
    raise (``raising.raising_nodes``): the graph runs guarded, as with a select, and an
    untaken way's ``tp / 0`` reruns the frame instead of warning."""
    key = ("choice", id(a), id(b))
    if key not in merged:
        if not flag.meta.scalar:
            flag = tx.getitem(flag, ConstantVariable(()))
        for node in tx.output.graph.nodes:
            if node not in before and node.op == CALL:
                node.meta["may_raise"] = True
        merged[key] = BranchChoiceVariable(flag, a, b, merged["error"])
    return merged[key]


def _may_be(tx, var: ArrayVariable, old: list) -> None:
    """``var`` is, at run time, one of the arrays ``old`` from before the ``if`` (the
    way that did not rebind the name): ``var is x`` cannot be answered while tracing
    (``ArrayVariable.may_be``). For two of them, a common mark joins the chains."""
    if len(old) == 1:
        var.may_be = old[0]
    elif len(old) == 2:
        # (two that may be others already: a NumPy scalar, never written in place, whose
        # ways were both selects, the running best of an unrolled loop, ``if v > hi: hi
        # = v`` trip after trip. Joining the chains' ends makes ``is`` between any of
        # them a break: no answer is wrong, some that could be known are not. Not in a
        # loop node's body: the values a node hands back for its temporaries, ``p`` of
        # ``p = x[i]``, keep no chain, so ``m is p`` after it would be answered False
        # where eager's is True, issue #19)
        if any(v.may_be is not None for v in old) and not (
                var.meta.scalar and tx.output.loop_scope is None):
            raise NotASelect("both ways keep arrays that may be others")
        ends = [_chain_end(v) for v in old]
        if ends[0] is ends[1]:        # (already one chain: ``var`` may be any of it)
            var.may_be = old[0]
            return
        mark = ArrayVariable(None, var.meta)
        var.may_be = ends[0].may_be = ends[1].may_be = mark


def _chain_end(var: ArrayVariable) -> ArrayVariable:
    """The last array of ``var``'s ``may_be`` chain (``var`` itself where it has none)."""
    while var.may_be is not None:
        var = var.may_be
    return var
