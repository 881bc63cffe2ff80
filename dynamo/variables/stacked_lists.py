"""A growing list of arrays read whole: one input of symbolic length (issue #16).

A KV cache kept as lists of rows appends a row each call and stacks the list::

    def step(self, x):
        self.keys.append(x @ self.Wk)
        K = np.stack(self.keys)          # (len(keys), D)
        ...

Read item by item, the list guards its length and each item is an input of its own:
one entry per length. Where the list's length changed between calls (its items
unread: ``ListVariable.length``) and every item is an ``np.ndarray``, the items the
list held when the call started enter the graph as *one* input instead, the array
``np.asarray(self.keys)`` that the call's check makes (``guards.AsArraySource``,
as for a list of ints used as data), with its first dimension symbolic; the rows
the trace appended come from the graph. So ``np.stack(keys)`` is::

    concatenate([np_asarray_keys, stack([matmul])])   # the rows held, then the new one
    array(np_asarray_keys)                            # nothing appended yet: a copy

``np.concatenate(rows)`` along axis 0 (rows of shape ``(k, ...)``, ``(1, D)`` for
a cache grown a row at a time) is the same input reshaped to ``(-1, ...)``, then
the appended items: ``concatenate([reshape(np_asarray_rows, (-1, D)), row])``.

For ndarrays of one shape ``np.asarray(list)`` is ``np.stack(list)`` (dtypes
promoted alike); the entry is guarded on the items' type (``type(v) is ndarray``
for each, before the check stacks them), on the stacked array's dtype, rank and
item shape, and its length from ``least`` up: 2, as for any size, where the graph
copies it; 1 where it only goes into the ``concatenate`` with the appended rows,
which cannot broadcast it (the result has at least 2 rows), so a cache that holds
one row at the second call already gets the entry that serves every later length.

The stack is taken when the call starts. Eager stacks when the line runs, so the two
differ where the graph writes into an input's memory before the stack (an argument
that is also ``keys[0]``, a buffer an item is a view of): then the list is read
item by item, as before (``OutputGraph.writes_inputs``). Writes after the stack
cannot matter (the stack is a copy), and the appended rows are the graph's own
values, in program order. ``sum(keys)``, iteration, an item read or ``keys[i] = v``
still read the items (and guard the length).

Example::

    >>> dec = KVCacheDecoder(); f = dynamo.compile(dec.step)
    >>> for i in range(8): f(WTE[i])      # compiles at calls 0 and 1: every later
    ...                                   # length is served by the second entry
"""

from __future__ import annotations

import numpy as np

from dynamo.guards import EXPR, AsArraySource, Guard, ShapeSource

from .. import ops
from .arrays import ArrayVariable
from .constant import ConstantVariable
from .sequences import ListVariable

# The ops that read their one argument whole as the stacked items (np.vstack: of
# 1-d items only, where it is np.stack).
_STACKING = ("stack", "array", "asarray", "vstack")


def stacked_rows_input(tx, value: list, source, least: int) -> ArrayVariable | None:
    """The list ``value`` (at ``source``, ndarrays) as one input: ``np.asarray(value)``
    with its first dimension symbolic from ``least`` up, or None where that is not
    the stack of its items (ragged, fewer than ``least`` items, a pinned length)."""
    out = tx.output
    array_source = AsArraySource(source)
    known = out.input_vars.get(array_source)
    if known is not None:
        return known
    if len(value) < least or ShapeSource(array_source, 0) in out.shape_env.dynamic.static:
        return None
    try:
        array = np.asarray(value)
    except ValueError:          # items of different shapes: np.stack raises too
        return None
    if array.dtype.hasobject or array.ndim != value[0].ndim + 1:
        return None
    # (the check stacks the list only after this holds: no item's __array__ runs there)
    out.guards.add(Guard(source, EXPR,
                         f"set(map(type, {source.expr()})) == "
                         f"{{___modules['numpy'].ndarray}}",
                         note="a list of arrays stacked as one input"))
    var = out.add_input(array, array_source, dynamic_dims=(0,), least=least)
    out.input_vars[array_source] = var
    return var


def _concatenated_along_first(op, args: list, kwargs: dict) -> bool | None:
    """Whether the call is ``np.concatenate(lst)`` along axis 0 (True), another
    stacking call of the list alone (False), or neither (None: traced as before)."""
    if op.name in _STACKING:
        return False if len(args) == 1 and not kwargs else None
    if op.name != "concatenate" or len(args) not in (1, 2) or set(kwargs) - {"axis"}:
        return None
    axis = args[1] if len(args) == 2 else kwargs.get("axis")
    if axis is not None and not (axis.is_constant() and type(axis.as_python_constant())
                                 is int and axis.as_python_constant() == 0):
        return None              # (another axis, a negative one, None: read as before)
    return True


def stacked_list(output, op, args: list, kwargs: dict) -> ArrayVariable | None:
    """``np.stack(lst)`` (``np.array``, ``np.asarray``, ``np.vstack`` of 1-d items,
    ``np.concatenate`` along axis 0) of an unread list of arrays whose length changes,
    built from the stacked input and the rows appended in the trace (see the module
    doc); None where the call is traced as before (the items read one by one)."""
    concatenating = _concatenated_along_first(op, args, kwargs)
    if concatenating is None:
        return None
    lst = args[0]
    if not isinstance(lst, ListVariable) or lst.rows is None or not lst.is_unread() or \
            lst.edits or output.writes_inputs or output.loop_scope is not None:
        return None              # (a loop node's body: read as before)
    appended = list(lst.appended)
    if not all(isinstance(v, ArrayVariable) for v in appended):
        return None
    rows = lst.rows(1 if appended else 2)
    if rows is None:
        return None
    item = rows.meta.shape[1:]
    if (op.name == "vstack" and len(item) != 1) or (concatenating and not item) or \
            any(tuple(v.meta.shape) != tuple(item) for v in appended):
        return None              # (shapes that differ: NumPy's own error, eagerly)
    if concatenating:            # (n, k, ...) stacked is (n * k, ...) concatenated
        parts = [output.call_op(ops.get("reshape"), [rows, ConstantVariable(
            (-1,) + tuple(item[1:]))], {})] + appended
        return output.call_op(ops.get("concatenate"), [ListVariable(parts)], {})
    if not appended:
        return output.call_op(ops.get("array"), [rows], {})
    new = output.call_op(ops.get("stack"), [ListVariable(appended)], {})
    return output.call_op(ops.get("concatenate"), [ListVariable([rows, new])], {})
