"""A tuple of Python ints (or floats) used only as array data, as a list of them is
(issue #16): one input of symbolic length, not a constant per item.

A tuple's length is part of what the trace relies on when it reads the items (``a, b =
t``, ``t + (tok,)``, ``t[0]``): wrapped item by item, it is guarded by its length and
each item. Where its length or items changed between calls (``DynamicPolicy.
is_dynamic_sequence``: a fresh tuple of ids each call, a prefix that grows) and the
trace hands it whole to an op that reads it as array data (``np.array(t)``,
``np.asarray(t)``, ``np.mean(t)``: ``OutputGraph._as_data``), it is the array NumPy
makes of it, ``np.asarray(t)``, a graph input with a symbolic first dimension
(``builder._list_data``, as for a list). Its items are read, and guarded as before,
only where the trace looks at them.

Example::

    def embed(ids):                     # ids: (3, 1, 4), then (3, 1, 4, 1), ...
        return W[np.array(ids)].sum(0)  # graph: getitem(W, array(np_asarray_ids))

Not for ``x[t]``: a tuple index is one index per dimension, read item by item.

A tuple that grows from call to call (its length changed twice: three lengths seen,
a beam's token ids ``seq + (tok,)`` one longer each call) and is read item by item is
no constant of an entry per length: reading it is a graph break
(``check_growing``), and the code that reads it runs as Python, where each new
length was a recompile until the cache limit. A tuple whose length alternates
between two keeps an entry for each.
"""

from __future__ import annotations

import functools

from dynamo.guards import LENGTH, Guard, ItemSource

from ..exc import Unsupported
from .sequences import TupleVariable
from .text_items import in_resume_prologue


class DataTupleVariable(TupleVariable):
    """A tuple from outside the trace whose items are read (``read``: () -> their
    Variables, guarded) only where the trace looks at them; ``data``: () -> the
    ArrayVariable of ``np.asarray(t)`` with a symbolic length, or None."""

    _read = None
    data = None

    @classmethod
    def unread(cls, source, read, data) -> DataTupleVariable:
        var = cls([], source)
        var._read, var.data = read, data
        return var

    def is_unread(self) -> bool:
        return self._read is not None

    @property
    def items(self) -> list:
        if self._read is not None:
            read, self._read = self._read, None
            self._items = read()
        return self._items

    @items.setter
    def items(self, value) -> None:
        self._read, self._items = None, list(value)

    def is_constant(self) -> bool:
        """Not while unread: its items change between calls (a fold of ``np.mean(t)``
        would read them all, and guard its length); read, as any tuple."""
        return self._read is None and super().is_constant()

    def as_data(self):
        """The tuple as array data (an input of symbolic length) while its items are
        unread; else None (the items, read, are what the op takes)."""
        return self.data() if self._read is not None and self.data is not None else None


def data_tuple(tx, value: tuple, source, wrap, list_data) -> DataTupleVariable:
    """A tuple of numbers whose length or items changed between calls: array data of
    symbolic length where an op reads it whole (``list_data``: builder's
    ``_list_data``), its items read (``wrap``, each guarded, a changing number) only
    where the trace looks at them, after a guard on its length; a tuple that grows
    breaks there instead (``check_growing``)."""
    def read() -> list:   # (the recompile log says why the length is guarded)
        check_growing(tx, value, source)
        where = tx.output.location()
        tx.output.guards.add(Guard(source, LENGTH, len(value), note=(
            f"read at {where}; " if where else "") + "a tuple of numbers that changes, "
            "read item by item: its length is part of what the trace used (an entry per "
            "length); only handed whole to np.array/np.asarray is it one input of "
            "symbolic length (dynamo/variables/data_tuples.py)"))
        tx.output.shape_env.dynamic.note_tuple(source, value)
        return [wrap(tx, v, ItemSource(source, i)) for i, v in enumerate(value)]
    return DataTupleVariable.unread(source, read,
                                    functools.partial(list_data, tx, value, source))


def check_growing(tx, value: tuple, source) -> None:
    """Raise the graph break for a tuple read item by item whose earlier entries
    guarded two other lengths (it grows or shrinks from call to call: an entry per
    length would fill the cache); return for one seen at fewer lengths, and for a
    tuple read in a resume function's prologue (``text_items.in_resume_prologue``),
    which keeps its guard.

        >>> tx.output.shape_env.dynamic.previous_lengths = {src: {1, 2}}
        >>> check_growing(tx, (4, 0, 2), src)
        Unsupported: a tuple of numbers whose length changes every call ...
    """
    seen = tx.output.shape_env.dynamic.previous_lengths.get(source, ())
    before = sorted(n for n in seen if n != len(value))
    if len(before) < 2 or in_resume_prologue(tx):
        return
    raise Unsupported(   # (its why and hint: hints_flow.py)
        f"a tuple of numbers whose length changes every call, read item by item "
        f"({source.name()}: lengths {', '.join(map(str, before))}, then {len(value)})",
        cause="growing_tuple")
