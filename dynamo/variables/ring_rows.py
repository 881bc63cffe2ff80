"""A ring of arrays in a list, written at a changing index and read whole (issue #16).

A smoothing window kept as a preallocated list of arrays writes one slot per call, at
a counter modulo the ring's size, and reads the whole ring::

    def push(self, x):
        self.buf[self.t % 4] = x         # a changing int: the slot written
        self.t += 1
        return np.mean(self.buf, axis=0)

The store leaves the list unread (``ListVariable._set_unread``: the bounds are a
decision, the glue sets the item after the graph). Reading the list item by item
then applied the store at a plain index, pinning the counter: an entry per slot,
until the cache limit. Where every item the list held is an ``np.ndarray`` and
the list is read whole by a stacking call or a reduction of its stack, the items
the list held when the call started enter the graph as one input instead,
``np.asarray(self.buf)`` (``stacked_lists.stacked_rows_input``), and each store is
a row written into the graph's copy of it, at the changing index::

    array(np_asarray_buf)                 # the rows held (a copy: the graph's own)
    setitem(array, t % 4, x)              # the slot the program wrote
    mean(array, axis=0)

Exact where ``np.asarray(list)`` is the stack of the items after the stores: every
stored value is an array of the items' shape and dtype (a row written keeps it as
stacking would; another dtype would promote the stack, so the list is read as
before), no store appends (the length stays the guarded one), and the graph writes
into no input before the stack is read (``OutputGraph.writes_inputs``: then the
items are read one by one, as ``stacked_lists`` does). The list itself keeps its
real items: the glue replays the stores after the graph, at the index the call
computed, so ``buf[j] is old`` holds for every slot not written, as in eager.

Example::

    >>> r = ListRing(); f = dynamo.compile(r.push)
    >>> for x in xs: f(x)         # two compiles: the counter's first change, then none
"""

from __future__ import annotations

from .. import ops
from .arrays import ArrayVariable
from .constant import ConstantVariable
from .sequences import ListVariable
from .stacked_lists import _STACKING

# Reductions that read their first argument as ``np.asarray`` of it: given the stack,
# the same result (``np.mean(buf, axis=0)`` is ``np.mean(np.asarray(buf), axis=0)``).
_REDUCING = frozenset({"mean", "sum", "prod", "max", "min", "amax", "amin", "std", "var"})


def ring_stacked(output, op, args: list, kwargs: dict) -> ArrayVariable | None:
    """``op(lst, ...)`` for a ring list (see the module doc) read whole by a stacking
    call or a reduction: the stack as held, its slots written in the graph; None
    where the call is traced as before (the items read one by one)."""
    stacking = op.name in _STACKING and len(args) == 1 and not kwargs
    if not args or not (stacking or op.name in _REDUCING):
        return None
    lst = args[0]
    if not isinstance(lst, ListVariable) or lst.ring_rows is None or \
            not lst.is_unread() or not lst.edits or lst.appended or \
            output.writes_inputs or output.loop_scope is not None:
        return None
    rows = lst.ring_rows(2)
    if rows is None or not _fits(rows, lst.edits):
        return None
    stack = output.call_op(ops.get("array"), [rows], {})   # the graph's own copy
    for _, index, value in lst.edits:                       # in program order
        output.call_op(ops.get("setitem"), [stack, index, value], {})
    return stack if stacking else output.call_op(op, [stack, *args[1:]], kwargs)


def _fits(rows: ArrayVariable, edits) -> bool:
    """Is every store one row of ``rows``: an int index (a changing one or a constant),
    made before any append, of an array with the rows' item shape and dtype?"""
    item, dtype = tuple(rows.meta.shape[1:]), rows.meta.dtype
    return all(at == 0 and isinstance(index, ConstantVariable) and
               type(index.value) is not bool and isinstance(index.value, int) and
               isinstance(value, ArrayVariable) and
               tuple(value.meta.shape) == item and value.meta.dtype == dtype
               for at, index, value in edits)
