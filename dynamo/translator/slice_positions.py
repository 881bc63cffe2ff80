"""Slices of a constant length at positions that move with a loop's index, over sizes
that change between calls: ``D[:, k:k + 1]`` in ``for k in range(n)`` with ``n =
D.shape[0]`` while the slice cuts ``D.shape[1]`` (Floyd-Warshall by rows, Gauss
elimination's pivot column, issue #23).

At the last trip the slice is ``D[:, n - 1:n]`` on a dimension of ``m`` elements: one
column where ``n <= m``, none past it. A fit over one symbol at a time cannot say
which, so it pinned the sizes (a trace per size of a square matrix). Like an integer
position (``IndexFit._fit_at``), such a slice is required in bounds, ``0 <= start <=
stop <= m`` (proven from what the entry knows, or guarded: a decision, never a pin),
and then shapes its result by its length alone: the op is fitted with the slice
``0:length`` in its place.

Example::

    >>> constant_slices(op, (D_meta, (slice(None), slice(k, k + 1))))   # k = n - 1
    [(1, SymInt(59, n - 1), SymInt(60, n), SymInt(60, m), 1)]
"""

from __future__ import annotations

from ..ops import ArrayMeta
from ..symbolic import SymInt


def constant_slices(op, args) -> list:
    """For ``x[index]`` / ``x[index] = v`` with a tuple or one slice: ``(k, start, stop,
    d, length)`` for each slice item ``k`` of step 1 whose bounds or dimension are
    symbolic and whose length ``stop - start`` is a plain int (None where the index is
    no basic one). Negative bounds (counted from the end) and open ones other than
    ``:`` are left out."""
    if op.name not in ("getitem", "setitem") or len(args) < 2 or \
            not isinstance(args[0], ArrayMeta):
        return []
    index, shape = args[1], args[0].shape
    items = index if type(index) is tuple else (index,)
    if any(v is Ellipsis or v is None for v in items) or len(items) > len(shape):
        return []
    out = []
    for k, (v, d) in enumerate(zip(items, shape)):
        if not isinstance(v, slice) or v.step not in (None, 1) or \
                v.start is None or v.stop is None:
            continue
        if not any(isinstance(b, SymInt) for b in (v.start, v.stop, d)):
            continue
        length = v.stop - v.start
        if isinstance(length, SymInt):
            continue
        out.append((k, v.start, v.stop, d, length))
    return out
