"""The join of a running best kept from a Python number in a loop node's body
(issue #19; the carried form is ``carried_choice``'s).

``if d < best: best = d`` joins, on each trip, the trip's NumPy scalar ``d`` with the
running choice ``best`` (a ``BranchChoiceVariable`` after the unrolled first trip: an
``np.float64`` or the Python float ``inf``, as the data decides). Joining it again
per trip outside a node (last session's ``choice_joins``: a select and a flag per
unrolled trip) ran slower than the break; a node carries it instead:

- the first attempt at the node finds the choice at the join: it starts over
  (``Counters``, with a ``Chosen`` step) with the local carried as its value and flag
  (``carry_chosen``);
- then the join is two ``branch_select``s of the trip's flag ``f`` (the numpy backend
  writes them as one ``if``, ``select_code``/``carried_choices``)::

      value = branch_select(f, d, value)     # if d < best: best = d
      flag = branch_select(f, f, flag)       #               flag = True (f itself)

  (the carried flag has the truth the first trip gave it: where the scalar is the
  ``else`` way, it says "not set", ``branch_select(f, flag, f)``).

Exact: ``value`` holds the Python number in the scalar's dtype until a trip sets it
(``carriable``: the number is a value of that dtype), so the body's comparisons with
it equal the weak number's (``resolve``, per use); the flag says which object the
program holds, and after the node the glue picks eager's (the Python number itself
where no trip set it). Anything else the ways leave (a Python number reset in the
loop, another dtype, a 0-d array, whose identity the program may observe) is no such
join: the attempt ends, and the loop is unrolled and breaks as before.

Where: only where the trip works on arrays (``works_on_arrays``: measured, a trip of
NumPy scalars only ran 3-5% slower as a node than as the break); a loop shorter than
``config.loop_unroll_limit`` too, asked for at its second trip's join
(``_ask_for_node``, ``forces_node``), where it is no other loop's body (there it
would be a node per outer trip, each a call's cost: 0.86x -> 0.47x plain measured).

Example::

    >>> dynamo.explain(closest_center)(x, np.random.rand(300, 3)).graph_break_count
    0
"""

from __future__ import annotations

from .. import ops
from ..graph import CALL
from ..variables import ArrayVariable, ConstantVariable
from ..variables.iteration import BranchChoiceVariable
from .carried_choice import (
    CarriedChoiceVariable,
    Chosen,
    carriable,
    choice,
    number_of,
    sets_when,
    value_of,
)
from .loop_body_state import Counters
from .loop_facts import same_constant


def running_choice(a, b) -> bool:
    """Whether a join in a loop body involves a running choice (either way)."""
    return any(isinstance(v, BranchChoiceVariable) for v in (a, b))


def join_running(tx, name, flag: ArrayVariable, a, b, merged: dict):
    """The value of the local ``name`` after an ``if`` in a loop node's body whose ways
    leave ``a`` (the flag's true way) and ``b``, one a running choice: a
    ``CarriedChoiceVariable`` of the joined value and flag; ``Counters`` raised where
    the node should carry the local first; None where they do not join so (the
    ``if`` keeps its break)."""
    carried = next((v for v in (a, b) if isinstance(v, CarriedChoiceVariable)), None)
    if tx.output.loop_scope is None:   # (an unrolled loop's next trip)
        _ask_for_node(tx, name, a, b)
        return None
    if not works_on_arrays(tx.output.graph):
        return None   # (the node would run no faster than the break: module docstring)
    if carried is None:
        _ask_to_carry(tx, name, a, b)
        return None
    if not flag.meta.scalar:
        flag = tx.getitem(flag, ConstantVariable(()))
    if flag.meta != carried.taken.meta:
        return None   # (a flag of another dtype: ``if d:`` of a float)
    sets = sets_when(carried)
    parts = [_parts(tx, v, carried, flag, way, sets) for v, way in ((a, True), (b, False))]
    if None in parts:
        return None
    value = _select(tx, flag, parts[0][0], parts[1][0], merged)
    taken = _select(tx, flag, parts[0][1], parts[1][1], merged)
    return choice(taken, value, number_of(carried), sets, CarriedChoiceVariable,
                  carried.error)


def _parts(tx, way, carried: CarriedChoiceVariable, flag: ArrayVariable, truth: bool,
           sets: bool):
    """(value, flag) the way of the trip's flag ``truth`` leaves: a running choice's
    own; a NumPy scalar of the choice's meta is the value set, where the carried flag
    says "set" with that truth (``sets``): the trip's ``flag`` itself is then the
    carried flag's value; None for anything else (a way that sets the value on the
    other truth than the first trip's ``if`` did: that would take a negation per
    trip, and the first trip's ``if`` runs in the body too, so it does not occur)."""
    if isinstance(way, CarriedChoiceVariable):
        ok = same_constant(number_of(way), number_of(carried)) and \
            sets_when(way) == sets and value_of(way).meta == value_of(carried).meta and \
            way.taken.meta == carried.taken.meta
        return (value_of(way), way.taken) if ok else None
    if isinstance(way, ArrayVariable) and way.meta == value_of(carried).meta and \
            truth == sets:
        return way, flag
    return None


def _select(tx, flag: ArrayVariable, a, b, merged: dict) -> ArrayVariable:
    """``branch_select(flag, a, b)``, one node per pair at one join (two locals set
    by one ``if`` keep one flag: one slot, ``loop_body_state._holders``)."""
    if a is b:
        return a
    out = tx.output
    key = ("running", id(a), id(b))
    if key not in merged:
        # (values from before the loop: the body's inputs)
        args = out.loop_scope.localize((flag.node, a.node, b.node))
        node = out.graph.call("branch_select", args, meta={
            "array": a.meta, **out.current_loc, "kind": ops.OPAQUE})
        merged[key] = ArrayVariable(node, a.meta)
    return merged[key]


def _ask_to_carry(tx, name, a, b) -> None:
    """Raise ``Counters`` (the node's attempt starts over with ``name`` carried) where
    ``name`` is a local of the frame that held a carriable running choice at a plain
    ``for`` node of the frame's graph, joined here with a NumPy scalar of its dtype."""
    scope = tx.output.loop_scope
    if name is None or getattr(scope, "tx", None) is not tx or scope.parent is not None \
            or not getattr(scope, "picks_numbers", False) or hasattr(scope, "picked") \
            or getattr(scope, "data_trips", False):
        return
    plan = tx.loop_plan(scope.inst)
    if plan is not None and plan.kind != "counters" or name in scope.counters:
        return
    entry = scope.entry_locals.get(name)
    other = b if a is entry else a
    if not carriable(entry) or isinstance(entry, CarriedChoiceVariable) or \
            not isinstance(other, ArrayVariable) or other.meta != entry.snapshot.meta:
        return
    raise Counters({**scope.counters, name: Chosen()})


def _ask_for_node(tx, name, a, b) -> None:
    """At the second trip of a loop unrolled because it is short (``config.
    loop_unroll_limit``), where the running choice ``name`` meets a NumPy scalar of
    its dtype: start over with the loop as a node that carries it (``forces_node``),
    which costs no break (``Handlers.refuse_loop_node``). Only in the frame's own
    code, in the innermost ``for`` loop around the ``if``, once (a loop no node can
    be is unrolled again, and breaks here as before)."""
    choice_var, other = (a, b) if isinstance(a, BranchChoiceVariable) else (b, a)
    # (``works_on_arrays`` of the frame's graph so far: no restart for a node whose
    # body would refuse the choice, a trip of NumPy scalars only)
    if name is None or getattr(tx, "parent", None) is not None or \
            not carriable(choice_var) or not works_on_arrays(tx.output.graph) or \
            not isinstance(other, ArrayVariable) or other.meta != choice_var.snapshot.meta:
        return
    at = tx.current.index
    # (one loop's head, whatever jumps back to it: 3.12+ may jump back twice)
    heads = {r.start for r in tx.info.regions if r.kind == "loop" and at in r}
    if len(heads) != 1:   # (in another loop: a node per outer trip, each a call's cost)
        return
    head = tx.info.insts[heads.pop()]
    plan = tx.loop_plan(head)
    if head.name != "FOR_ITER" or plan is not None and \
            (plan.kind != "counters" or name in (plan.counters or {})):
        return
    tx.refuse_loop_node(head, f"a running choice {name!r} carried", {
        **((plan.counters or {}) if plan is not None else {}), name: Chosen()})


def forces_node(plan) -> bool:
    """Whether a loop's plan carries a running choice: a node however short the loop
    (``LoopNodes.may_become_loop_node``), as asked by ``_ask_for_node``."""
    return plan is not None and plan.kind == "counters" and \
        any(isinstance(step, Chosen) for step in (plan.counters or {}).values())


def works_on_arrays(body) -> bool:
    """Whether the trip traced so far into the loop body ``body`` makes an array of
    one dimension or more (``x - C[k]``, a window ``x[i:i + w]``), not only NumPy
    scalars (``x[i] > best``). Measured (``scripts/bench_running_choices.py``, numpy
    backend, no entry trial): where it does, the node runs 1.5-2.4x the break's
    speed (a 300-center ``closest`` 1.00x -> 1.87x plain); where the trip reads and
    compares scalars only, the node is 3-5% slower than the break (``int_max``
    0.72x -> 0.69x plain, 1000 elements 0.99x -> 0.97x): the plain loop does the same
    scalar work, and the node adds its call and the flag."""
    for node in body.nodes:
        meta = node.meta.get("array")
        if node.op == CALL and isinstance(meta, ops.ArrayMeta) and len(meta.shape) >= 1:
            return True
    return False
