"""Round 35, constant slices of an axis only the data sizes (``dynamo/clamped_slices.py``):
``b[1:]``, ``b[:-1]``, ``b[-2:]``, ``b[1:-1]``, ``b[::2][1:]``, ``b[5:]``, ``b[-100:]``
of ``b = x[x != 0]`` or ``np.flatnonzero(x)`` at 0, 1, 2 and many selected elements,
the count changing between calls (many first, then none); the slices' lengths read by
Python (``len``, ``.shape[0]``, an f-string), reduced (``max`` of an empty slice
raises, ``mean`` warns), differenced in int8/uint8 (wraps), bool (``-`` raises),
float16/float32/complex; and the slices returned (views of a fresh ``b``: ``.base``,
shared memory with ``b`` returned too).

    >>> def _gaps(x):
    ...     b = x[x != 0]
    ...     return b[1:] - b[:-1]
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round35_slices")

# how many nonzero: many, 0, 1, 2, 0 again, 5, 1 again, 3
COUNTS = [(7, 9), (0, 4), (1, 3), (2, 6), (0, 0), (5, 5), (1, 1), (3, 8)]


def _data(dtype, count, length, seed):
    """``length`` elements of ``dtype``, ``count`` of them nonzero (-3..5 values)."""
    rng = np.random.default_rng(seed)
    vals = rng.choice([-3, -1, 1, 2, 5, 127], size=length)
    x = np.zeros(length, dtype=dtype)
    where = rng.permutation(length)[:count]
    if dtype == np.bool_:
        x[where] = True
    elif np.dtype(dtype).kind == "u":
        x[where] = np.abs(vals[:count]).astype(dtype)
    elif np.dtype(dtype).kind == "c":
        x[where] = vals[:count] + 1j * vals[:count][::-1]
    else:
        x[where] = vals[:count].astype(dtype)
    return x


def _gaps(x):
    b = x[x != 0]
    return b[1:] - b[:-1]


def _index_gaps(x):
    b = np.flatnonzero(x)
    return b[1:] - b[:-1], b[-2:] * 2


def _inner(x):
    b = x[x != 0]
    return b[1:-1], b[1:-1].shape


def _stepped(x):
    b = x[x != 0]
    return b[::2][1:], b[1::2][:-1]


def _far(x):
    b = x[x != 0]
    return b[5:], b[-100:], b[3:1], b[-1:]


def _lengths(x):
    b = np.flatnonzero(x)
    n, m = len(b[1:]), b[:-1].shape[0]
    return f"{n}/{m}", n + m, np.ones(n) * m


def _two_lengths(x):       # two clamped lengths of one axis that differ
    b = x[x != 0]
    n, m = len(b[2:]), len(b[-2:])
    return n, m, np.zeros(m) + n, b[2:].shape, b[:-3].size


def _max_of_slice(x):      # empty slice: eager's ValueError
    b = x[x != 0]
    return b[1:].max()


def _mean_of_slice(x):     # empty slice: RuntimeWarning and nan
    b = x[x != 0].astype(np.float64)
    return b[:-1].mean(), b[2:].sum()


def _returned_with_base(x):
    b = x[x != 0]
    return b, b[1:], b[:-1]


def _mid_cumsum(x):
    b = np.flatnonzero(x)
    c = np.cumsum(b[1:])
    return c, c[:-1] - b[2:]


def _written(x):           # a write into the slice goes into b
    b = x[x != 0].copy()
    b[1:] *= 2
    v = b[:-1]
    v[...] = v + 1
    return b


def _branch_on_len(x):
    b = x[x != 0]
    t = b[1:]
    if len(t) > 1:
        return t[0] - t[-1]
    if t.size:
        return t * 3
    return "empty"


def _stack_pairs(x):
    b = np.flatnonzero(x)
    return np.stack([b[1:], b[:-1]], axis=1), np.concatenate([b[:1], b[-1:]])


FNS = (_gaps, _index_gaps, _inner, _stepped, _far, _lengths, _two_lengths, _max_of_slice,
       _mean_of_slice, _returned_with_base, _mid_cumsum, _written, _branch_on_len,
       _stack_pairs)
DTYPES = (np.int8, np.uint8, np.float16, np.float32, np.complex128, np.bool_,
          np.int64, np.float64)


def _program(fn, dtype, counts):
    def scenario(r):
        f = r.compile(fn)
        for k, (count, length) in enumerate(counts):
            r.call(f, _data(dtype, count, max(length, count), k))
    reg._add(f"{fn.__name__.removeprefix('_')}_{np.dtype(dtype).name}", scenario, "")


for _i, _fn in enumerate(FNS):
    for _j, _dtype in enumerate(DTYPES):
        if (_i + _j) % 2:
            continue
        _program(_fn, _dtype, COUNTS if (_i + _j) % 4 else COUNTS[::-1])


# ---------------------------------------------------------------- 2-D and bounds
def _s_rows_2d(r):
    """Rows of a data-sized axis: ``pts[1:]`` of ``(u0, 2)`` at 0, 1, 2 rows."""
    def f(x):
        pts = np.stack([x[x > 0], -x[x > 0]], axis=1)
        return pts[1:] - pts[:-1], pts[:-1, 1], pts[-2:, :1].T
    g = r.compile(f)
    for count, length in COUNTS:
        r.call(g, _data(np.float64, count, max(length, count), count).clip(-1, None))


reg._add("rows_2d", _s_rows_2d, "")


def _s_negative_and_huge_bounds(r):
    def f(x):
        b = x[x != 0]
        return b[-2**40:], b[:2**40], b[-3:-1], b[1:-2**40]
    g = r.compile(f)
    for count, length in COUNTS:
        r.call(g, _data(np.float32, count, max(length, count), 7))


reg._add("negative_and_huge_bounds", _s_negative_and_huge_bounds, "")


def _s_nan_inf(r):
    """NaN is nonzero: it is selected; differences of inf are NaN."""
    def f(x):
        b = x[x != 0]
        return b[1:] - b[:-1], np.isnan(b[:-1]).sum()
    g = r.compile(f)
    for vals in ([np.nan, 0, np.inf, -np.inf, 1.0], [0.0, 0.0], [np.inf], [np.nan, np.nan],
                 [-0.0, 0.0, 2.0], [np.inf, np.inf, 0.0, -np.inf]):
        r.call(g, np.array(vals))


reg._add("nan_inf_selected", _s_nan_inf, "")


def _s_nested_and_axis1(r):
    """Slices of slices, negative starts with steps, axis 1 of a data size, an axis
    twice a data size."""
    def f(x):
        b = x[x != 0]
        m = np.stack([b, b * 2])               # (2, u0)
        d = np.concatenate([b, b])             # 2 * u0
        return (b[1:][1:], b[1:][::-1], b[-3::2], b[:-1:3], m[:, 1:] - m[:, :-1],
                m[:, -2:].sum(axis=1), d[3:], d[:-3].size, b[2**40::2**40])
    g = r.compile(f)
    for count, length in COUNTS:
        r.call(g, _data(np.int64, count, max(length, count), 11))


reg._add("nested_and_axis1", _s_nested_and_axis1, "")


def _s_bounds_near_the_cap(r):
    """Bounds on both sides of ``clamped_slices._MAX_BOUND`` (4096): the ones past it
    are left to the fit; selected counts below, at and past the bounds."""
    def f(x):
        b = x[x != 0]
        return b[5000:], b[-5000:], b[:-5000], b[1:-5000], b[4090:], len(b[-4097:])
    g = r.compile(f)
    for n, length in ((3, 9), (0, 4), (6000, 7000), (1, 2), (4095, 5000), (5001, 5001)):
        x = np.zeros(length)
        x[:n] = np.arange(1, n + 1)
        r.call(g, x)


reg._add("bounds_near_the_cap", _s_bounds_near_the_cap, "")
