"""A Python number that an ``if`` on array data picks on each trip of a loop node,
carried by the node (issue #19): a running argmin's index, a counter.

::

    best, arg = d[0], 0
    for i in range(1, len(d)):      # a loop node (past config.max_unroll: a break before)
        if d[i] < best:             # a 0-d bool of the trip decides
            best = d[i]             # a NumPy scalar: carried as it is
            arg = i                 # a Python int: carried as an np.int64 (here)
    return best, arg                # arg: int() of the node's result, eager's int

``branch_selects`` joins the two ways of such an ``if``. Outside a loop node a number
the ways leave different is an unbacked number of the graph (``number_selects``); a
loop node's body takes none, and its node carries arrays only. So at the first join
of a local that held a Python int (or float) when the loop began (no temporary of
the trip) the attempt starts over (``Counters`` with a ``Picked`` step: the plan of
the loop) and then:

- before the body: the local's number becomes an ``np.int64`` (``float64`` for a
  float) of the frame's graph, a carried slot like ``best`` (``carry_picked``, by
  ``_scalar``: ``np.int64(v)`` of a constant in range, else ``asarray(v,
  dtype=int64)[()]``, which raises ``OverflowError`` for an int past int64: the node
  may raise, and the frame's own code runs instead);
- in the body, the local is a ``PickedNumberVariable``: only a join (``join_per_trip``:
  ``branch_select(flag, A, B)`` of two such scalars, a Python number made one the same
  way: ``np.int64(i)`` of the index, ``np.int64(0)``) and, for an int, ``+``/``-`` of
  a Python int constant (``count += 1``: ``picked_binary``, ``np.int64 + 1``) are
  made of it; any other use (a comparison, ``str``, an index, ``isinstance``) is no
  value it has while tracing: the loop is unrolled, as before;
- after the node, the local is ``int()`` (``float()``) of the carried scalar, made by
  the glue (an unbacked number where the graph takes them): eager's type and value.

Exact: ``np.int64`` arithmetic equals Python's where nothing overflows. A counter
steps by at most ``S`` per trip (the sum of the constants the body adds or subtracts,
``LoopScope.picked_steps``), so over ``T`` trips it stays within ``v0 - T * S`` and ``v0 + T * S``:
both are made ``asarray(..., dtype=int64)`` before the node (``leave_picked``, ops that
may raise, so kept), and where one is past int64 the frame's own code runs instead
(NumPy's scalar add reports its overflow as well, under the graph's floating-point
guard: the bounds do not rely on it).
A float is only picked (no arithmetic: ``np.float64 + x`` warns where Python's float
would not, or raises where it would not).

Where else: an ``elif`` (its select, traced in the outer ``if``'s way, asks as any
other: ``branch_selects._run_way`` lets ``Counters`` through); a loop node nested in
the body of one that carries the number carries the outer trip's value on
(``carry_picked``: its scalar a slot; ``exit_picked``: a ``PickedNumberVariable``
again) and adds its steps over all its trips to the outer node's
(``leave_picked``), whose bounds cover them (an inner count that changes with the
outer trip: no node); each plain segment of a split loop (the plan "split" keeps
the ``Picked`` locals next to its conditions, ``IndexSplits.split_node``); a
``while`` node (its ``picked``, apart from the counters its body reads; a counter's
bounds over its bound on the trips, ``picked_bounds``: none, no node). A triangular
segment keeps the break.

Example::

    >>> dynamo.explain(running_min_index)(np.random.rand(3000)).graph_break_count
    0
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import ops
from ..exc import Unsupported
from ..symbolic import SymFloat, SymInt
from ..symbolic.sizes import symbols_of
from ..variables import ArrayVariable, ConstantVariable, Variable
from ..variables.arrays import call_library
from ..variables.conversions import ArrayToPythonVariable
from ..variables.graph_numbers import graph_number_of
from .carried_choice import carry_chosen
from .loop_body_state import Counters
from .loop_facts import NotALoopNode

_DTYPES = {int: np.dtype(np.int64), float: np.dtype(np.float64)}
_INT64 = (int(np.iinfo(np.int64).min), int(np.iinfo(np.int64).max))
# the largest constant a counter may add in one step (a bound on ``picked_steps``)
_MAX_STEP = 2 ** 32


@dataclass(frozen=True)
class Picked:
    """The plan's step of a local picked per trip (a ``Counters`` entry): its kind."""
    kind: type


class PickedNumberVariable(Variable):
    """A Python number of ``kind`` carried by a loop node, in its body: ``array`` is
    the trip's ``np.int64`` / ``np.float64``. Nothing but a join and a counter's step
    reads it (the base class raises ``Unsupported`` for any other use)."""

    def __init__(self, array: ArrayVariable, kind: type):
        self.array, self.kind = array, kind

    def describe(self) -> str:
        return f"a Python {self.kind.__name__} picked on each trip of a loop"


def _kind(v: Variable, backed=None) -> type | None:
    """``int``/``float`` for a Python number that may be picked: a constant, or a
    symbolic int (in a body, of ``backed`` symbols only: the loop's index ``i``, no
    size the data decides); never a bool."""
    if isinstance(v, PickedNumberVariable):
        return v.kind
    if not isinstance(v, ConstantVariable):
        return None
    value = v.value
    if type(value) in (int, float):
        return type(value)
    if isinstance(value, SymInt) and (backed is None or backed(value)):
        return int
    if isinstance(value, SymFloat) and backed is None:   # (the frame's: ``uf0``)
        return float
    return None


def _scalar(tx, v: Variable, kind: type) -> ArrayVariable | None:
    """``v`` as the carried scalar: the picked one's; ``np.int64(v)`` (``float64``) of
    a number that type holds (a constant in range, the loop's index: one cheap call per
    trip); else ``asarray(v, dtype)[()]``, which may raise (an int past int64)."""
    if isinstance(v, PickedNumberVariable):
        return v.array
    value = getattr(v, "value", None)
    if type(value) is float or type(value) is int and _INT64[0] <= value <= _INT64[1] or \
            isinstance(value, SymInt) and _backed(tx)(value):
        cast = tx.output.call_op(ops.get("scalar_cast"), [
            v, ConstantVariable(_DTYPES[kind].type)], {})
        if isinstance(cast, ArrayVariable) and cast.meta.dtype == _DTYPES[kind] and \
                getattr(cast.meta, "scalar", False):
            if isinstance(value, SymInt):   # (a changing int past int64 raises: rerun)
                cast.node.meta["may_raise"] = True
            return cast
    convert, adapt = ops.lookup_function(np.asarray)
    arr = call_library(tx, convert, adapt, [v], {"dtype": ConstantVariable(_DTYPES[kind])})
    if not isinstance(arr, ArrayVariable) or arr.meta.shape != ():
        return None
    arr.node.meta["may_raise"] = True
    scalar = tx.getitem(arr, ConstantVariable(()))
    ok = isinstance(scalar, ArrayVariable) and scalar.meta.dtype == _DTYPES[kind] and \
        getattr(scalar.meta, "scalar", False)
    return scalar if ok else None


def _backed(tx):
    """Whether a symbolic int has only symbols whose values the trace knows the range
    of (the loop's index), not a size or number only the data decides."""
    env = tx.output.shape_env
    unknown = set(env.unbacked) | set(env.unbacked_numbers)
    return lambda s: not symbols_of(s) & unknown


def join_per_trip(tx, name, a: Variable, b: Variable, select) -> Variable | None:
    """In a loop node's body: the number ``a`` or ``b`` the trip's flag picks, as a
    ``PickedNumberVariable`` (``select(A, B)``: the ``branch_select`` of two scalars);
    ``Counters`` raised where the local ``name`` should be carried first; None where
    the ways cannot join so (the ``if`` keeps its break)."""
    scope = tx.output.loop_scope
    if not any(isinstance(v, PickedNumberVariable) for v in (a, b)):
        # (the first attempt: the local holds the number it held at the loop, which
        # the frame's graph computes, an earlier choice ``ui0`` too)
        kinds = {_kind(v) for v in (a, b)}
        if len(kinds) == 1 and None not in kinds:
            _ask_to_carry(tx, scope, name, kinds.pop())
        return None
    kinds = {_kind(v, _backed(tx)) for v in (a, b)}
    if len(kinds) != 1 or None in kinds:
        return None
    kind = kinds.pop()
    pair = [_scalar(tx, v, kind) for v in (a, b)]
    if None in pair:
        return None
    chosen = select(*pair)
    return PickedNumberVariable(chosen, kind) if isinstance(chosen, ArrayVariable) else None


def _plan_of(scope) -> dict:
    """The planned counters of ``scope`` with its picked locals: a ``for`` node's
    ``counters`` hold both; a ``while`` node keeps its picked ones apart (``picked``:
    its ``counters`` are those its body reads as ``i0 + step * trip``)."""
    return {**scope.counters, **getattr(scope, "picked", {})}


def _ask_to_carry(tx, scope, name, kind) -> None:
    """Raise ``Counters`` (the loop's attempt starts over, ``name`` carried) where
    ``name`` is a local of the loop's own frame that held a number of ``kind`` at the
    loop, no temporary of the trip, in a plain ``for`` loop node of the frame's graph."""
    if name is None or getattr(scope, "tx", None) is not tx or \
            not getattr(scope, "picks_numbers", False):
        return
    # (in a loop node's body: the number its node carries, whose trip's value a nested
    # node carries on, ``carry_picked``; or a plain number the enclosing trip sets,
    # ``arg = 0`` before ``for j in range(i)``, whose value after the nested node only
    # stores use there, ``stored_numbers``, issue #19)
    if scope.parent is not None and \
            not isinstance(scope.entry_locals.get(name), PickedNumberVariable) and \
            type(getattr(scope.entry_locals.get(name), "value", None)) not in (int, float):
        return
    plan = tx.loop_plan(scope.inst)
    # (a split loop's segments: each carries it, ``IndexSplits.split_node``)
    if plan is not None and plan.kind not in ("counters", "split") or \
            name in _plan_of(scope):
        return
    entry = scope.entry_locals.get(name)
    if entry is None or _kind(entry) is not kind or \
            not tx.output.shape_env.dynamic.unbacked:
        return
    raise Counters({**_plan_of(scope), name: Picked(kind)})


def picked_binary(tx, name: str, a: Variable, b: Variable) -> Variable | None:
    """``count + c``, ``count - c`` (or ``c + count``) of a picked int and a Python int
    constant ``c``, the scalar's own arithmetic, counted in the scope's ``picked_steps``; None
    where neither operand is picked (``Unsupported`` for any other use of one)."""
    if not isinstance(a, PickedNumberVariable) and not isinstance(b, PickedNumberVariable):
        return None
    picked, other = (a, b) if isinstance(a, PickedNumberVariable) else (b, a)
    c = getattr(other, "value", None)
    if picked.kind is not int or name not in ("add", "subtract") or \
            type(c) is not int or abs(c) > _MAX_STEP or \
            name == "subtract" and picked is b:
        raise Unsupported(f"operator {name} on {a.describe()} and {b.describe()}")
    scope = tx.output.loop_scope
    scope.picked_steps += abs(c)
    # (``np.int64 + 1``: NumPy's int64 arithmetic with a Python int, NEP 50's weak
    # scalar: an int64, as ``np.int64 + np.int64`` is; an overflow reports, and the
    # bounds below keep it from happening)
    result = tx.binary_op(name, *((picked.array, other) if picked is a
                                  else (other, picked.array)))
    if not isinstance(result, ArrayVariable) or result.meta != picked.array.meta:
        raise Unsupported(f"operator {name} on {a.describe()} and {b.describe()}")
    # (the bounds rule its overflow out: tier 2 checks none per trip, which kept LLVM
    # from vectorizing a counter, backends/native/picked_scalars.py)
    result.node.meta["no_overflow"] = True
    return PickedNumberVariable(result, int)


# ---------------------------------------------------------------- the loop's side
def carry_picked(scope) -> set[str]:
    """Before the body (``LoopScope.__init__``): each planned local as its scalar in the
    frame's graph, which ``_enter`` then carries as a slot; their names."""
    tx = scope.tx
    scope.picked_entry = {}
    chosen = carry_chosen(scope)   # (running choices: their value and flag)
    for name, step in _plan_of(scope).items():
        if not isinstance(step, Picked):
            continue
        value = tx.locals.get(name)
        if isinstance(value, PickedNumberVariable):   # (nested: the outer trip's value)
            scalar = value.array if value.kind is step.kind and \
                scope.parent is not None else None
        else:
            scalar = _scalar(tx, value, step.kind) if _kind(value) is step.kind else None
        if scalar is None:
            raise NotALoopNode(f"the local {name!r} holds no Python "
                               f"{step.kind.__name__} at the loop")
        scope.picked_entry[name] = value
        tx.locals[name] = scalar
    return set(scope.picked_entry) | chosen


def enter_picked(scope) -> None:
    """As the body's trace begins: each carried local as a ``PickedNumberVariable`` of
    its slot's placeholder."""
    for name, step in _plan_of(scope).items():
        if isinstance(step, Picked):
            scope.tx.locals[name] = PickedNumberVariable(scope.tx.locals[name], step.kind)


def leave_picked(scope) -> None:
    """After the body (``finish``, before the slots are read): each carried local's
    scalar back in its place, and the counters' bounds checked before the node."""
    tx = scope.tx
    nested_steps = 0
    for name, step in _plan_of(scope).items():
        if not isinstance(step, Picked):
            continue
        value = tx.locals.get(name)
        if not isinstance(value, PickedNumberVariable) or value.kind is not step.kind:
            raise NotALoopNode(f"the local {name!r} is no number picked per trip after "
                               "the body")
        tx.locals[name] = value.array
        steps = scope.picked_steps
        if steps and isinstance(scope.picked_entry[name], PickedNumberVariable):
            # nested: the outer node's bounds take this node's steps, all its trips
            # (a ``while`` node's trips are the data's: no such number)
            if type(scope.trips) is not int or hasattr(scope, "picked"):
                raise NotALoopNode(f"the counter {name!r} steps a changing number of "
                                   "times per outer trip")
            nested_steps = scope.trips * steps
        elif steps and not hasattr(scope, "picked"):   # (a while node: ``picked_bounds``)
            if type(scope.trips) is not int:   # (a triangular node's count: no bound)
                raise NotALoopNode(f"the counter {name!r} steps a changing number of "
                                   "times")
            _check_bounds(scope, name, scope.trips, steps)
    if nested_steps:
        scope.parent.picked_steps += nested_steps


def _check_bounds(scope, name: str, trips: int, steps: int) -> None:
    """The counter ``name``'s values over ``trips`` trips of at most ``steps`` each,
    ``v0 +- trips * steps``, made int64 before the node (each may raise: then the
    frame's own code runs)."""
    start = scope.picked_entry[name].value
    for bound in (start + trips * steps, start - trips * steps):
        if _scalar(scope.tx, ConstantVariable(bound), int) is None:
            raise NotALoopNode(f"the counter {name!r} has no int64 bound")


def picked_bounds(scope) -> None:
    """A ``while`` node's picked counters (``count += 1`` under an ``if`` on data): their
    bounds over the node's bound on its trips (``it < maxit``, plus the one more run of
    the code after a ``break``'s test), which it knows only once its test is read; with
    no such bound a counter is no node (its int64 could overflow where Python's int
    does not)."""
    if not scope.picked or not scope.picked_steps:
        return
    if type(scope.bound) is not int:
        raise NotALoopNode("a number picked per trip is stepped in a while loop with no "
                           "bound on its trips (and it < maxit)")
    for name in scope.picked:
        if not isinstance(scope.picked_entry.get(name), PickedNumberVariable):
            _check_bounds(scope, name, scope.bound + 1, scope.picked_steps)


def exit_picked(scope) -> None:
    """After the node: each carried local as the Python number the glue makes of the
    node's result (``int()``/``float()``; an unbacked number where the graph takes
    them)."""
    tx = scope.tx
    for name, step in _plan_of(scope).items():
        if isinstance(step, Picked) and \
                isinstance(scope.picked_entry.get(name), PickedNumberVariable):
            # (nested: the outer trip's number again, the node's result its scalar)
            tx.locals[name] = PickedNumberVariable(tx.locals[name], step.kind)
        elif isinstance(step, Picked):
            final = tx.locals[name]
            tx.locals[name] = graph_number_of(tx.output,
                                              ArrayToPythonVariable(step.kind, final))
