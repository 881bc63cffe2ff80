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
"""

from __future__ import annotations

from .sequences import TupleVariable


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
