"""Windows of C-contiguous arrays seen in their 1-D views: where a window starts, and
which elements of its 1-D range lie outside it (the gaps), for the flat passes
(``flat.py``, ``flat_direct.py``, ``flat_updates.py``; issue #15).

A window ``x[a:a+h, b:b+q, c:c+w]`` of a C-contiguous ``(n, p, m)`` array has its
element ``(i, j, k)`` at ``i * p * m + j * m + k`` after its first element, so it
covers part of the 1-D range ``x.reshape(-1)[first:first + L]``,
``L = (h - 1) * p * m + (q - 1) * m + w``. The range's other elements, the gaps, are
the last ``m - w`` elements of each of its rows of ``m`` (a row's "tail", the
boundary columns) and, with three axes, the first ``w`` of the ``p - q`` rows between
two planes (their "heads"). ``gap_views`` writes the expressions of those elements as
arrays of raw-byte items, one item per tail or head: saved and put back with one
1-D copy each (``np.copyto``), not NumPy's loop over thousands of rows of two
elements (497 x 2 float64: 2.7 -> 0.6 us)::

    >>> tails, heads = gap_views("_o", 0, (4, 3, 2), (5, 4), 8)
    >>> tails
    ('_o[2:70].reshape(17, 4)[:, :2]', 16, (17,))
    >>> heads
    ('_o[0:60].reshape(3, 5, 4)[:, 3:, :2]', 16, (3, 2))
"""

from __future__ import annotations


def strides(trailing: tuple) -> tuple:
    """Elements from one index to the next along each axis of a C-contiguous array of
    shape ``(n, *trailing)``.

        >>> strides((5, 7))
        (35, 7, 1)
    """
    out = [1]
    for n in reversed(trailing):
        out.append(out[-1] * n)
    return tuple(reversed(out))


def window_offset(index, shape: tuple, domain: tuple) -> int | None:
    """The offset of ``x[index]``'s first element in ``x.reshape(-1)`` (``x`` of
    ``shape``, C-contiguous) when ``index`` is one unit-step slice with constant bounds
    per axis, selecting ``domain``; else None.

        >>> window_offset((slice(1, -1), slice(2, None), slice(None, -2)), (6, 5, 4), (4, 3, 2))
        28
    """
    if not (isinstance(index, tuple) and len(index) == len(shape) == len(domain) and
            all(type(s) is slice for s in index)):
        return None
    if any(type(v) not in (int, type(None)) for s in index for v in (s.start, s.stop, s.step)):
        return None
    starts = []
    for s, n, d in zip(index, shape, domain):
        start, stop, step = s.indices(n)
        if step != 1 or stop - start != d:
            return None
        starts.append(start)
    return sum(start * st for start, st in zip(starts, strides(tuple(shape[1:]))))


def range_length(domain: tuple, trailing: tuple) -> int:
    """Elements of the 1-D range from a window's first element to its last.

        >>> range_length((4, 3, 2), (5, 4))
        70
    """
    return sum((d - 1) * st for d, st in zip(domain, strides(trailing))) + 1


def has_gaps(domain: tuple, trailing: tuple) -> bool:
    """The window's 1-D range holds elements outside the window."""
    return range_length(domain, trailing) != _product(domain)


def gap_views(array: str, start: int, domain: tuple, trailing: tuple,
              itemsize: int) -> list | None:
    """``[(expression, item bytes, shape), ...]``: the gaps of the window's 1-D range
    ``array[start:start + range_length]`` (``array`` an expression of a 1-D array whose
    items are ``itemsize`` bytes), each expression a view whose last axis holds one
    tail or head of the range (see the module docstring; view it as ``np.void`` items
    of ``item bytes``, then take ``[..., 0]``). None for windows of four or more axes
    (their gaps are not written this way); ``[]`` where the range has no gaps.

        >>> gap_views("_t", 5, (3, 4), (8,), 4)
        [('_t[9:25].reshape(2, 8)[:, :4]', 16, (2,))]
    """
    if len(domain) > 3:
        return None
    if not has_gaps(domain, trailing):
        return []
    length = range_length(domain, trailing)
    row, w = trailing[-1], domain[-1]
    views = []
    rows = (length - w) // row      # the range's rows but its last
    if row > w and rows:
        views.append((f"{array}[{start + w}:{start + length}].reshape({rows}, {row})"
                      f"[:, :{row - w}]", (row - w) * itemsize, (rows,)))
    if len(domain) == 3 and domain[0] > 1 and trailing[0] > domain[1]:
        h, q = domain[0], domain[1]
        p = trailing[0]
        views.append((f"{array}[{start}:{start + (h - 1) * p * row}].reshape({h - 1}, {p}, "
                      f"{row})[:, {q}:, :{w}]", w * itemsize, (h - 1, p - q)))
    return views


def _product(values) -> int:
    out = 1
    for v in values:
        out *= v
    return out
