"""A list built one item per trip of a loop node over a count only the data knows, and
then stacked (issue #19): its items are the rows of one array the graph preallocates.

::

    means = []                              rows = ops.empty((u0, 3), float64)
    for c in np.unique(y):            ->    fori_loop(body, u0, (rows, ...)):
        means.append(X[y == c].mean(0))         rows[trip] = mean(getitem(X, ...), 0)
    return np.array(means)                  data_check(u0 >= 1); array(rows)

The translator (``translator/per_trip_lists.py``) makes the list such a variable where
it may: an empty list the loop's frame made just before the loop, that nothing else
holds. This module is the variable only: the item's shape and dtype it expects, the
array of rows, and two callables the translator injects (the flow stays one way):
``on_append(tx, rows_variable, item)`` writes one trip's item (or refuses the loop
node), ``on_stack(op, rows_variable)`` makes the stacked array (or refuses it). Any
other use (``len(means)``, ``means[0]``, iterating) refuses: the trace starts over
with the loop as it was before (``refuse``), where it breaks at its ``GET_ITER``.

Rebuilt after the graph (a break later in the frame, a ``return means``), it is the
list of its rows as eager's list holds them: a copy of each row (an array of its own
memory), or each row as NumPy's scalar where the items were scalars; with no trip,
``[]``.

    >>> trip_rows_stacked(output, ops.get("array"), [rows_var], {})   # np.array(means)
    ArrayVariable(array(rows))
"""

from __future__ import annotations

from collections.abc import Callable

from .arrays import ArrayVariable
from .base import BoundBuiltinMethod, Variable


class TripRowsVariable(Variable):
    """An empty list that a loop node over a data-decided count appends to once a trip
    (``stacked``: the ``(count, *item.shape)`` array, row ``trip`` the trip's item)."""

    def __init__(self, rows: ArrayVariable, item, on_append: Callable,
                 on_stack: Callable, refuse: Callable):
        self.stacked, self.item = rows, item       # item: the ArrayMeta every trip gives
        self.on_append, self.on_stack, self.refuse = on_append, on_stack, refuse
        self.appended = []   # (the body's trace: each append, for the translator's checks)

    def describe(self) -> str:
        return "a list built one item per trip of a loop node"

    def python_type(self) -> type:
        return list

    def getattr(self, tx, name: str) -> Variable:
        if name == "append":
            return BoundBuiltinMethod(self, name)
        raise self.refuse(f"the list's .{name}")

    def call_method(self, tx, name, args, kwargs):
        if name != "append" or kwargs or len(args) != 1:
            raise self.refuse(f"the list's .{name}()")
        return self.on_append(tx, self, args[0])

    def truth(self, tx) -> bool:
        raise self.refuse("the list's truth value")

    def unpack(self, tx) -> list[Variable]:
        raise self.refuse("iterating over the list")

    def as_graph_arg(self, output):
        raise self.refuse("the list as an argument of an array op")

    def as_meta(self):
        raise self.refuse("the list as an argument of an array op")

    def reconstruct(self, cg) -> str:
        rows = cg.array(self.stacked)
        if self.item.scalar:     # (NumPy scalars: iterating a 1-d array gives them)
            return f"list({rows})"
        return f"[___row.copy() for ___row in {rows}]"


def trip_rows_stacked(output, op, args: list, kwargs: dict) -> Variable | None:
    """``np.array(means)`` (``asarray``, ``stack``, ``vstack``) of such a list: the
    translator's stacked array (``on_stack``), or the loop node is refused; None where
    no such list is the call's first argument."""
    if not args or not isinstance(args[0], TripRowsVariable):
        return None
    lst = args[0]
    if len(args) != 1 or kwargs or op.name not in ("array", "asarray", "stack", "vstack"):
        raise lst.refuse(f"np.{op.name}() of the list with these arguments")
    return lst.on_stack(op, lst)


__all__ = ["TripRowsVariable", "trip_rows_stacked"]
