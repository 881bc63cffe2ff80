"""A running best kept from a Python number, as a loop node carries it (issue #19).

::

    best, idx = np.inf, -1             # a Python float (int) before the loop
    for k in range(C.shape[0]):        # one loop node (the first trip unrolled)
        d = np.sum((x - C[k]) ** 2)    # a NumPy scalar
        if d < best:                   # best: the float inf, or the np.float64 d
            best, idx = d, k
    return idx, best

After the first trip ``best`` is an ``np.float64`` or still the Python float ``inf``,
as the data decides: a ``BranchChoiceVariable`` (``flag``, the scalar, ``inf``), which
the glue resolves after the graph, ``(s if flag else inf)``. The node carries such a
local as two NumPy scalars (``CarriedChoiceVariable``; ``running_choices`` joins them
per trip):

- its *value*, of the scalar's dtype, which holds the number itself while no trip
  set it (``where(flag, s, inf)[()]``: exact, ``carriable`` checks that the number
  is a value of that dtype and that NumPy's select keeps the dtype);
- its *flag*, an ``np.bool_`` that says which of the two the program holds, with the
  truth the first trip's ``if`` gave it: true for "set" where the scalar was the
  ``if``'s way (``if d < best: best = d``), true for "not set" where the number was
  (``if x[i] >= best: pass else: best = x[i]``), so no trip negates it (a
  ``logical_not`` per trip ran 0.30x plain against the break's 0.72x).

In the body a comparison or arithmetic with an array of the right dtype reads the
value itself (``_select``: where no trip set it, it holds the number, which NumPy
compares or computes with exactly as the weak Python number; ``resolve`` checks that
per use); any other use needs the choice while tracing and ends the attempt. After
the node the local is again a ``BranchChoiceVariable`` of the node's flag and value:
the glue gives eager's object, the Python ``inf`` where no trip set it (its type
too), else the last ``np.float64`` set.

Example::

    >>> held_parts(CarriedChoiceVariable(flag, value, ConstantVariable(np.inf), err))
    [value, flag]
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from .. import ops
from ..variables import ArrayVariable, ConstantVariable
from ..variables.iteration import BranchChoiceVariable
from ..variables.trip_rows import TripRowsVariable
from .loop_facts import NotALoopNode

# holder kinds of the two slots of a carried choice (``loop_body_state._holders``)
VALUE, FLAG = "choice value", "choice flag"


@dataclass(frozen=True)
class Chosen:
    """The plan's step of a local that holds a running choice (a ``Counters`` entry)."""


class CarriedChoiceVariable(BranchChoiceVariable):
    """A running choice in a loop node's body: ``taken`` the carried flag, the number
    (``number``) the way it chooses or the other, the carried value (``value``, which
    holds the number while no trip set it) the other way."""

    def describe(self) -> str:
        return "a running choice of a NumPy scalar and a Python number, carried by a loop"

    def _select(self, tx) -> ArrayVariable:
        return value_of(self)   # (holds the number in its dtype where none was set)


def value_of(var) -> ArrayVariable:
    """The NumPy scalar of a choice of a scalar and a number (either way)."""
    return var.second if isinstance(var.second, ArrayVariable) else var.first


def number_of(var) -> ConstantVariable | None:
    """The Python number of a choice (either way of its ``if``), or None."""
    pair = [v for v in (var.first, var.second) if isinstance(v, ConstantVariable)]
    others = [v for v in (var.first, var.second) if isinstance(v, ArrayVariable)]
    return pair[0] if len(pair) == 1 and len(others) == 1 else None


def sets_when(var) -> bool:
    """The flag's truth on the way that holds the scalar (``second`` is the true way)."""
    return var.second is value_of(var)


def choice(flag, value, number, sets: bool, cls=BranchChoiceVariable, error=None):
    """The choice of ``value`` where ``flag`` is ``sets``, else of ``number``."""
    return cls(flag, value, number, error) if sets else cls(flag, number, value, error)


def carriable(var) -> bool:
    """A ``BranchChoiceVariable`` a node may carry: a NumPy scalar of a number dtype
    one way, a Python int or float the other that is exactly a value of that dtype and
    that NumPy's ``where`` keeps in it (``-1.0`` beside int64 data: no), flagged by an
    ``np.bool_``."""
    if not isinstance(var, BranchChoiceVariable) or number_of(var) is None or \
            not isinstance(var.taken, ArrayVariable):
        return False
    number, scalar, flag = number_of(var).value, value_of(var).meta, var.taken.meta
    if type(number) not in (int, float) or not isinstance(scalar, ops.ArrayMeta) or \
            not isinstance(flag, ops.ArrayMeta) or not scalar.scalar or \
            scalar.kind != ops.NUMPY or scalar.dtype.kind not in "iuf" or \
            not flag.scalar or flag.kind != ops.NUMPY or flag.dtype != np.bool_:
        return False
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return np.array(number, dtype=scalar.dtype).item() == number and \
                np.where(True, scalar.dtype.type(number), number).dtype == scalar.dtype
        except Exception:  # noqa: BLE001 (an int past the dtype: no)
            return False


def carry_chosen(scope) -> set[str]:
    """Before the body (``picked_numbers.carry_picked``): each planned running choice
    as a ``CarriedChoiceVariable`` of its value (``where(flag, s, c)[()]``, made in
    the frame's graph) and flag, whose two scalars ``_enter`` carries as slots."""
    tx = scope.tx
    names = set()
    for name, step in scope.counters.items():
        if not isinstance(step, Chosen):
            continue
        var = tx.locals.get(name)
        if not carriable(var) or isinstance(var, CarriedChoiceVariable):
            raise NotALoopNode(f"the local {name!r} holds no running choice at the loop")
        value = var._select(tx)
        if not isinstance(value, ArrayVariable) or value.meta != value_of(var).meta:
            raise NotALoopNode(f"the local {name!r}'s number has no exact scalar")
        tx.locals[name] = choice(var.taken, value, number_of(var), sets_when(var),
                                 CarriedChoiceVariable, var.error)
        names.add(name)
    return names


def held_parts(var) -> list:
    """The arrays a held value puts among a loop node's slots: a list's rows their
    stacked array (``per_trip_lists``), a running choice its value and its flag, an
    array itself."""
    if isinstance(var, TripRowsVariable):
        return [var.stacked]
    if isinstance(var, CarriedChoiceVariable):
        return [value_of(var), var.taken]
    return [var]


def part_of(held, kind: str):
    """The slot's array a holder of ``kind`` (``VALUE``, ``FLAG``) holds after a trip:
    the part of the local's running choice; anything else (the body made it another
    value) as it is, which no slot takes (``_next_values`` refuses it)."""
    if isinstance(held, CarriedChoiceVariable):
        return value_of(held) if kind == VALUE else held.taken
    return held


def with_part(held, kind: str, array: ArrayVariable) -> BranchChoiceVariable:
    """After the node: the local's choice with the node's result for one part (the
    glue resolves it after the graph: eager's object and type)."""
    flag, value = (held.taken, array) if kind == VALUE else (array, value_of(held))
    return choice(flag, value, number_of(held), sets_when(held), error=held.error)
