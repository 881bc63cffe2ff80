"""``collections.deque(...)`` made inside the traced function (issue #19): a queue the
frame fills and drains (breadth-first search, a work list), modelled as a deque from
outside is (``deques.py``), with its items known from the start.

``deque(iterable, maxlen)`` takes the iterable's items when it is made, as CPython does
(keeping the last ``maxlen``); ``append``, ``appendleft``, ``extend``, ``extendleft``,
``pop``, ``popleft``, ``clear``, ``len``, truth, ``d[i]`` and iteration then act on
those items while tracing (``DequeVariable``'s own methods). Nothing outside the frame
holds it, so no write is replayed: where it is live at a graph break, stored or
returned, the glue builds it once from the items it holds then
(``collections.deque([...], maxlen)``, shared by every reference to it).

Example::

    def levels(adj, source):
        queue = deque([source])         # a MadeDequeVariable of one constant item
        while queue:                    # its length, known while tracing
            u = queue.popleft()
            ...

A ``maxlen`` that is not a constant int (or None), an iterable the trace cannot take
item by item, and the methods ``deque`` has beyond these are breaks, as before.
"""

from __future__ import annotations

import collections

from ..exc import Unsupported
from .base import program_error
from .constant import ConstantVariable
from .deques import DequeVariable
from .iteration import handles
from .lifetimes import break_at_drop


class MadeDequeVariable(DequeVariable):
    """A deque made by the traced code: ``items`` its items now, no source."""

    def __init__(self, items: list, maxlen: int | None):
        super().__init__(None, maxlen, read=None)
        self._items = list(items)

    def reconstruct(self, cg) -> str:
        """``collections.deque([...], maxlen)`` of the items it holds, built once."""
        def build(var):
            items = ", ".join(cg.value(v) for v in var._items)
            return f"{cg.const(collections.deque)}([{items}], {cg.const(var.maxlen)})"
        return cg.mutable(self, build)


@handles(collections.deque)
def new_deque(tx, iterable=None, maxlen=None):
    """``deque()``, ``deque(iterable)``, ``deque(iterable, maxlen)`` (``maxlen`` a
    constant int >= 0 or None; as a keyword too)."""
    if maxlen is None:
        limit = None
    elif isinstance(maxlen, ConstantVariable) and (
            maxlen.value is None or type(maxlen.value) is int):
        limit = maxlen.value
    else:
        raise Unsupported("deque() with a maxlen that is not a constant int or None",
                          "The deque's length limit decides which items it keeps.",
                          "pass maxlen as a constant, or make the deque before the "
                          "compiled call", cause="unsupported_call")
    if limit is not None and limit < 0:
        raise program_error(ValueError("maxlen must be non-negative"), exact=True)
    items = [] if iterable is None else list(tx.unpack_iterable(iterable))
    if limit is not None and len(items) > limit:
        dropped = items[:len(items) - limit]
        break_at_drop(dropped, "a deque")
        items = items[len(items) - limit:]
    return MadeDequeVariable(items, limit)


__all__ = ["MadeDequeVariable", "new_deque"]
