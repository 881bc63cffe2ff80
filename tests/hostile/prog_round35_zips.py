"""Round 35, ``zip`` of arrays of one data-dependent length (``variables/arrays.py``
``ZippedRowsVariable``, ``translator/data_trips.py``) and comprehensions over
data-dependent counts as loop nodes (``translator/per_trip_lists.py``), at 0, 1, 2 and
many trips, the count changing between calls: empty segments (``.max()`` raises),
zips of unequal lengths (``b[1:]`` with ``b``: zip stops at the shorter), three arrays,
a Python list zipped in, filters, ``break``, a raise at trip k, the rows written
while zipped, the list returned (NumPy scalars, not floats), ``np.array`` of an empty
comprehension, int8/uint8/float16/float32/complex/bool values.

    >>> def _seg_max(v, lab):
    ...     b = np.flatnonzero(np.diff(lab)) + 1
    ...     return np.array([v[s:e].max() for s, e in zip(b[:-1], b[1:])])
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round35_zips")


def _seg_max(v, lab):
    b = np.flatnonzero(np.diff(lab)) + 1
    return np.array([v[s:e].max() for s, e in zip(b[:-1], b[1:])])


def _seg_sum_bounded(v, lab):
    b = np.concatenate(([0], np.flatnonzero(np.diff(lab)) + 1, [len(v)]))
    return [v[s:e].sum() for s, e in zip(b[:-1], b[1:])]


def _pairs_product(v, lab):
    b = np.flatnonzero(lab)
    c = v[b]
    return np.array([s * e for s, e in zip(b, c)])


def _unequal(v, lab):           # zip stops at the shorter
    b = np.flatnonzero(lab)
    return [(int(s), int(e)) for s, e in zip(b[1:], b)]


def _longer_first(v, lab):      # the longer array first: trips stop at b[1:]'s end
    b = np.flatnonzero(lab)
    c = b[b > 2]
    return [e - s for s, e in zip(b, b[1:])], [s + t for s, t in zip(b, c)]


def _three(v, lab):
    b = np.flatnonzero(lab)
    w = v[b]
    return np.array([s + e * w_ for s, e, w_ in zip(b, b[::-1], w)])


def _with_list(v, lab):         # a Python list zipped with the data-sized rows
    b = np.flatnonzero(lab)
    return [k * s for k, s in zip([10, 20, 30], b)]


def _filtered(v, lab):
    b = np.flatnonzero(lab)
    return np.array([v[s] for s in b if v[s] > 0], dtype=v.dtype)


def _loop_break(v, lab):
    b = np.flatnonzero(lab)
    out = []
    for s, e in zip(b[:-1], b[1:]):
        if e - s > 2:
            break
        out.append(v[s:e].sum())
    return out


def _raise_at_trip(v, lab):
    b = np.flatnonzero(lab)
    out = []
    try:
        for s, e in zip(b[:-1], b[1:]):
            if e - s == 1:
                raise ValueError(f"adjacent at {s}")
            out.append(e - s)
    except ValueError as err:
        return out, str(err)
    return out, None


def _written_while_zipped(v, lab):   # eager's zip sees the rows written later
    b = np.flatnonzero(lab).astype(np.float64)
    c = b * 2.0
    acc = 0.0
    for s, e in zip(b, c):
        c[-1] = -1.0
        acc = acc + s * e
    return acc, c


def _comprehension_count(v, lab):    # a comprehension over the data's count alone
    m = v[lab != 0]
    return [x * 2 for x in m], np.array([abs(x) for x in m])


def _empty_array_of(v, lab):
    b = np.flatnonzero(lab)
    a = np.array([v[s] - 1 for s in b])
    return a, a.dtype, a.shape


def _enumerate_zip(v, lab):
    b = np.flatnonzero(lab)
    return [i * (s - e) for i, (s, e) in enumerate(zip(b[:-1], b[1:]))]


def _sum_of_generator(v, lab):
    b = np.flatnonzero(lab)
    return sum(v[s] for s in b), sum(s * e for s, e in zip(b, b[1:]))


FNS = (_seg_max, _seg_sum_bounded, _pairs_product, _unequal, _longer_first, _three, _with_list,
       _filtered, _loop_break, _raise_at_trip, _written_while_zipped,
       _comprehension_count, _empty_array_of, _enumerate_zip, _sum_of_generator)

# labels: many changes, none, one, two, empty, all different, one again
LABELS = [np.array([0, 0, 1, 1, 1, 2, 2, 3, 3, 3]), np.zeros(6, np.int64),
          np.array([0, 0, 0, 4]), np.array([1, 0, 0, 1, 0]), np.zeros(0, np.int64),
          np.array([1, 2, 3, 4, 5, 6]), np.array([0, 7, 0, 0]),
          np.array([1, 1, 0, 1, 1, 1, 0, 1, 1, 1])]
DTYPES = (np.float64, np.int8, np.uint8, np.float16, np.float32, np.complex128,
          np.bool_)


def _values(dtype, n, k):
    base = np.array([3, -1, 2, 127, -128, 0, 5, 1, -7, 4, 9, -2], dtype=np.int64)
    vals = np.resize(np.roll(base, k), n)
    if dtype == np.bool_:
        return vals > 0
    if np.dtype(dtype).kind == "c":
        return vals.astype(dtype) * (1 - 2j)
    with np.errstate(over="ignore"):
        return vals.astype(dtype)


def _program(fn, dtype, labels):
    def scenario(r):
        f = r.compile(fn)
        for k, lab in enumerate(labels):
            r.call(f, _values(dtype, len(lab), k), lab.copy())
    reg._add(f"{fn.__name__.removeprefix('_')}_{np.dtype(dtype).name}", scenario, "")


for _i, _fn in enumerate(FNS):
    for _j, _dtype in enumerate(DTYPES):
        if (_i + _j) % 2:
            continue
        _program(_fn, _dtype, LABELS if _j % 2 else LABELS[::-1])
