"""A set display of changing numbers (``{i, i + 1}``, ``{round(loss, 2)}``) whose
elements are not hashed while tracing until something reads the set.

A set hashes its elements as it is built, so a ``SetVariable`` needs each element's
value: a changing int or float in it would be pinned (an entry per value). The
commonest use of such a display reads nothing of it: it is merged into a set kept
between calls (``self.seen |= {i, i + 1}``, ``seen.update({a, b})``), which only
writes (``unread_sets``): the glue rebuilds the display from the frame's values, as
the program built it, and updates the real set with it, so the set ends as eager's,
its iteration order too. Only that merge takes ``pending``; anything else (``len``,
``in``, iteration, a set operator) reads ``items``, which builds the elements then,
pinning the numbers as before.

Example::

    def visit(self, x, i):
        self.seen |= {i, i + 1}   # no guard on i; glue: ___t.update(build_set((i, i + 1)))
        return x - 1.0
"""

from __future__ import annotations

from ..symbolic import Symbolic
from .base import Variable
from .constant import ConstantVariable
from .sets import SetVariable, const_key


class SetDisplayVariable(SetVariable):
    """``{a, b, ...}`` holding changing numbers: ``pending`` is the elements as built (in
    the display's order) until ``items`` is read."""

    def __init__(self, items: list[Variable]):
        self.pending: list[Variable] | None = list(items)
        self.removals = 0
        self._items: dict | None = None

    @property
    def items(self) -> dict:
        if self._items is None:   # (read: hash the elements, pinning their numbers)
            built = {}
            for v in self.pending:
                built.setdefault(const_key(v), v)
            self._items, self.pending = built, None
        return self._items

    @items.setter
    def items(self, value: dict) -> None:
        self._items, self.pending = value, None

    def describe(self) -> str:
        if self.pending is not None:
            return f"set display of {len(self.pending)} (elements unhashed)"
        return super().describe()


def set_display(items: list[Variable]) -> SetVariable:
    """``BUILD_SET``'s result: a ``SetDisplayVariable`` where an element is a changing
    number, else a plain ``SetVariable``."""
    if any(isinstance(v, ConstantVariable) and isinstance(v.value, Symbolic)
           for v in items):
        return SetDisplayVariable(items)
    return SetVariable(items)


__all__ = ["SetDisplayVariable", "set_display"]
