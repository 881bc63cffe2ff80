"""The iterator of a dict from outside the trace whose keys are unread
(``unread_dicts``): ``next(iter(d))`` (the builtin ``next``; a ``for`` loop reads the
dict whole, as before) asks the dict for its first key, so that an LRU
that evicts its oldest entry (``del self.cache[next(iter(self.cache))]``) leaves the
dict unread, guarded on that key's type and on how it compares with the keys the
trace touched, not on the whole key order, which changes every call.

Example::

    def get(self, x, k):
        ...
        if len(self.cache) > 3:
            del self.cache[next(iter(self.cache))]   # glue: del cache[next(iter(cache))]
"""

from __future__ import annotations

from ..exc import Unsupported
from .base import Variable
from .dicts import DictVariable
from .iterators import DictIteratorVariable, advanced


class FirstKeyIteratorVariable(DictIteratorVariable):
    """``iter(d)`` of a dict from outside whose keys are unread (``unread_dicts``). A
    ``next()`` builtin call of it that takes the first key asks the dict for it
    (``take_first``: ``first_key``, the key at the start, no guard on the others), so
    ``del d[next(iter(d))]`` leaves the dict unread. Anything else (a ``for`` loop, a
    second key, a length hint) reads the dict whole and goes on as
    ``DictIteratorVariable`` (the first key taken then pinned by that order); a dict
    the trace changed since ``iter()`` breaks there (Python raises RuntimeError, or
    iterates in an order its hash table decides)."""

    def __init__(self, dict_var: DictVariable):
        self.dict, self.kind, self.reverse = dict_var, "keys", False
        self.index, self.done = 0, False
        self._writes = len(dict_var.write_back())   # (the writes when iter() ran)
        self._lazy = True

    def _unchanged(self) -> bool:
        return self.dict.is_unread() and len(self.dict.write_back()) == self._writes

    def _read(self) -> None:
        """Read the dict whole: its keys in order, as the base class keeps them from
        ``iter()`` on (the same keys while the trace has not changed the dict)."""
        if self._lazy:
            if not self._unchanged():
                raise Unsupported("a dict from outside the trace iterated past its first "
                                  "key, changed since iter()")
            self._lazy = False
            self.keys = list(self.dict.items)
            self.removals = self.dict.removals

    def take_first(self, tx) -> Variable | None:
        """``next(it)`` of the first key while the dict is unread and unchanged since
        ``iter()``: ``first_key``; None where the dict must be read (then ``take``)."""
        if not (self._lazy and self.index == 0 and not self.done and self._unchanged()):
            return None
        key = self.dict.first_key(tx)
        if key is not None:
            tx.output.side_effects.mutate(self)   # (as ``take`` records a step)
            self.index = 1
        return key

    def next(self, tx) -> Variable | None:
        self._read()
        return super().next(tx)

    def length_hint(self) -> int:
        self._read()
        return super().length_hint()

    def reconstruct(self, cg) -> str:
        if self._lazy:
            if id(self.dict) in cg.output.side_effects.mutated:
                raise Unsupported("an iterator of a dict from outside that the trace "
                                  "changed escapes the traced region")
            return cg.mutable(self, lambda v: f"{cg.const(advanced)}({cg.const(iter)}("
                                              f"{cg.value(v.dict)}.keys()), {v.index}, False)")
        return super().reconstruct(cg)


__all__ = ["FirstKeyIteratorVariable"]
