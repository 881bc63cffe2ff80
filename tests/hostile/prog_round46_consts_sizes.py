"""Round 46, constants (2 of 2): tier 2 per static size variant
(``backends/native/size_variants.py``: a graph with symbolic sizes gets a ``Tiered``
per input shapes, each lowered with its own sizes as constants; past
``sizes.GENERIC_AFTER`` variants new sizes run tier 1's size-generic code). Each body
is called with float64 sizes among six values, dtypes interleaved, sizes revisited (a variant
that is tier 2 by then), a size that makes a slice empty, and a size of 1 (a
broadcast); on backends "native" and "auto" with tier 2 forced (``TIER2``), each call
twice.

    >>> def _window_sum(x):
    ...     n = x.shape[0]
    ...     out = np.zeros(n - 2)           # n - 2: a constant in each variant
    ...     for i in range(n - 2):
    ...         out[i] = x[i] + x[i + 1] + x[i + 2]
"""

import numpy as np
from hostile_check import TIER2, Programs
from round40_native_runs import scenario_twice

reg = Programs("round46_consts")
NAN = float("nan")
F64, F32 = np.float64, np.float32
# float64 at six sizes (5, 14, 20, 8, 11, 6: past GENERIC_AFTER), float32 at four, one
# int64, sizes revisited
PLAN = ((5, F64), (9, F32), (14, F64), (5, F64), (3, F32), (20, F64), (8, F64), (9, F32),
        (11, F64), (6, F64), (7, np.int64), (14, F64), (12, F32), (4, F32), (5, F64))


def _x(n, dtype, seed=3):
    x = np.random.default_rng(seed + n).random(n) * 4 - 2
    if np.dtype(dtype).kind == "f" and n > 4:
        x[n // 2] = NAN if n % 2 else -0.0
    return x.astype(dtype)


def _planned(name, fn, make=lambda n, dt: (_x(n, dt),)):
    def body(r, backend):
        f = r.compile_on(fn, backend, options=TIER2)
        for n, dt in PLAN:
            for _ in range(2):
                r.call(f, *make(n, dt))
    body.__doc__ = fn.__doc__
    scenario_twice(reg, name, body)


def _window_sum(x):
    n = x.shape[0]
    out = np.zeros(n - 2, dtype=x.dtype)
    for i in range(n - 2):
        out[i] = x[i] + x[i + 1] + x[i + 2]
    return out


_planned("window_sum", _window_sum)


def _running_max(x):
    best = x[0]
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        if x[i] > best:
            best = x[i]
        out[i] = best
    return out, best


_planned("running_max", _running_max)


def _pairwise(x):
    n = x.shape[0]
    d = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            d[i, j] = abs(x[i] - x[j])
    return d.sum(), d[n - 1, 0]


_planned("pairwise", _pairwise)


def _halves(x):
    n = x.shape[0]
    h = n // 2
    s = 0.0
    for i in range(h):
        s += x[i] * x[n - 1 - i]
    return s, x[h:] * 2.0, x[: n - h]


_planned("halves", _halves)


def _dp_table(x):
    n = x.shape[0]
    t = np.zeros(n + 1)
    for i in range(1, n + 1):
        t[i] = max(t[i - 1], t[i - 1] + x[i - 1])
    return t[n], t


_planned("dp_table", _dp_table)


def _count_and_scale(x, k):
    c = 0
    for i in range(x.shape[0]):
        if x[i] > k:
            c += 1
    return x * (c / x.shape[0]), c


_planned("count_and_scale", _count_and_scale, lambda n, dt: (_x(n, dt), 0.25))


def _two_sizes(x, y):
    n, m = x.shape[0], y.shape[0]
    out = np.zeros(n + m)
    for i in range(n):
        out[i] = x[i]
    for j in range(m):
        out[n + j] = y[j] * 2
    return out


_planned("two_sizes", _two_sizes, lambda n, dt: (_x(n, dt), _x(n // 2 + 1, dt, 9)))


def _int_accumulate(x):
    acc = 0
    for i in range(x.shape[0]):
        acc += int(x[i] > 0) * (i + 1)
    return acc, x[: acc % (x.shape[0] + 1)]


_planned("int_accumulate", _int_accumulate)
