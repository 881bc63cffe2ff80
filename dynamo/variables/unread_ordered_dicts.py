"""A ``collections.OrderedDict`` from outside the trace read by the keys the trace
touches, as a dict is (``unread_dicts``): an LRU or memo cache (``if k in self.cache``,
``self.cache[k]``, ``self.cache[k] = y``, ``get``, ``setdefault``, ``pop``) is guarded
only on those keys, and its writes are replayed by the glue after the graph, in
program order. ``move_to_end(k[, last])`` is a write too: the key looked up (guarded
present: a missing key is Python's ``KeyError``, a break), and the move replayed
(``___t.move_to_end(L['k'], True)``). ``len(d)`` is its length at the start plus the
keys added, less those removed.

``popitem(last=False)``, the eviction of the oldest entry, takes the first key at the
call's start (``first_key``, as ``del d[next(iter(d))]`` does: an int read as a
changing int from ``next(iter(L['self'].cache))``) and pops it; where that key cannot be
told (the trace moved keys first, the first key no int) it reads the order, a break.
Anything else that reads its order (iteration, ``popitem()`` of the last item,
``keys()``, a copy, ``==``) is a graph break, as before: the order at the call's start
is not known to the trace, and a guard on it would fail on every call of a cache that
moves its keys.

Example::

    class LRU:
        def get(self, x, k):
            if k in self.cache:                # guards (L['k']) in L['self'].cache
                self.cache.move_to_end(k)      # glue: ___t.move_to_end(L['k'], True)
                return self.cache[k] + x       # reads L['self'].cache[L['k']] alone
            ...
"""

from __future__ import annotations

import collections

from ..exc import Unsupported
from .base import BoundBuiltinMethod, Variable
from .constant import ConstantVariable
from .sequences import TupleVariable
from .unread_dicts import UnreadDictVariable


class UnreadOrderedDictVariable(UnreadDictVariable):
    """An ``OrderedDict`` from outside the trace, never read whole (see the module)."""

    @property
    def items(self) -> dict:
        if self._unread:
            raise Unsupported(f"an OrderedDict from outside the trace read whole "
                              f"({self.source.name()}): its order is not traced")
        return self._items

    @items.setter
    def items(self, value: dict) -> None:
        self._unread, self._items = False, value

    def python_type(self) -> type:
        return collections.OrderedDict

    def describe(self) -> str:
        return "OrderedDict (keys unread)"

    def getattr(self, tx, name: str) -> Variable:
        if name == "move_to_end":
            return BoundBuiltinMethod(self, name)
        return super().getattr(tx, name)

    def call_method(self, tx, name, args, kwargs):
        if name == "move_to_end" and 1 <= len(args) + len(kwargs) <= 2 and \
                set(kwargs) <= {"last"} and not (len(args) == 2 and kwargs):
            last = kwargs.get("last", args[1] if len(args) == 2 else ConstantVariable(True))
            if not last.is_constant():
                raise Unsupported("OrderedDict.move_to_end with a `last` not known")
            key = self._key(tx, args[0])
            if key is None or self._look(tx, key, args[0]) is None:
                raise Unsupported("OrderedDict.move_to_end of a key not known present "
                                  "(KeyError)")
            tx.output.side_effects.mutate(self)
            self._ops.append(("move_to_end", args[0],
                              ConstantVariable(bool(last.as_python_constant()))))
            return ConstantVariable(None)
        if name == "popitem" and self.is_unread() and _first_wanted(args, kwargs):
            popped = self._pop_first(tx)
            if popped is not None:
                return popped
        return super().call_method(tx, name, args, kwargs)

    def _pop_first(self, tx) -> Variable | None:
        """``popitem(last=False)`` (an LRU's eviction of its oldest entry) while unread:
        ``k = next(iter(d)); (k, d.pop(k))``, the first key at the call's start read as
        a changing int (``first_key``: guarded an int, so the dict is not empty, and
        how it compares with the keys the trace touched), its deletion replayed by the
        glue in program order. None (the dict read whole: a break) where ``first_key``
        cannot tell the first key (an OrderedDict whose keys the trace moved, a first
        key that is no int, one the trace deleted, an empty dict)."""
        key = self.first_key(tx)
        if key is None:
            return None
        value = self.call_method(tx, "pop", [key], {})
        return TupleVariable([key, value])


def _first_wanted(args, kwargs) -> bool:
    """``popitem(False)`` or ``popitem(last=False)``, ``last`` a constant."""
    if len(args) + len(kwargs) != 1 or set(kwargs) - {"last"}:
        return False
    last = args[0] if args else kwargs["last"]
    return isinstance(last, ConstantVariable) and type(last.value) is bool and \
        last.value is False


__all__ = ["UnreadOrderedDictVariable"]
