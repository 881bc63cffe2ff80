"""Round 39, stepped inner loops whose reads leave the array at some outer trips only
(split from ``prog_round39_loops.py``, the same category): an offset ``k`` changed between
calls so that one call goes out (``x[j + k]``, ``x[j - k]`` wrapping below 0), and reads
whose extreme is reached at an outer trip that no end corner holds, only the periodic
ones of ``triangular_loops._corners`` (``3 * i - 3 * j`` over ``range(0, i, 5)`` is
smallest at i = 6 and 11 of 3..13), also in tier 2, where Numba checks no bounds; counts
whose ints leave int64 in tier 2 (a step of 2**63, a start of ``i * 2**61``), NumPy int
steps; stepped ranges used otherwise than by a ``for`` (``enumerate``, ``zip``,
``sum``, ``len``, ``reversed``, ``list``, ``in``, an item, ``next(iter(...))``).

    >>> def _period_low(x, y, m, k):
    ...     for i in range(3, m):
    ...         for j in range(0, i, 5):
    ...             y[i] = y[i] + x[3 * i - 3 * j + k]     # x[-41] of 40 at k = -44
    ...     return y
"""

import numpy as np
from hostile_check import Programs
from prog_round39_loops import _v

reg = Programs("round39_loops")   # the category of prog_round39_loops.py


# ------------------------------------------------------------------- out at some trips only
def _offset_read(x, y, m, k):              # x[j + k] leaves x (size 14) at k = 4 only
    for i in range(m):
        for j in range(i, m, 3):
            y[i] = y[i] + x[j + k]
    return y


def _offset_read_caught(x, y, m, k):
    try:
        return _offset_read(x, y, m, k)
    except IndexError as e:
        return str(e)


def _offset_back(x, y, m, k):              # x[j - k]: wraps below 0, out below -14
    for i in range(m):
        for j in range(m - 1, i, -2):
            y[i] = y[i] + x[j - k]
    return y


for _fn in (_offset_read, _offset_read_caught):
    reg.case(_fn, *[(lambda m=m, k=k: (_v(14), np.zeros(12), m, k))
                    for m, k in ((11, 2), (11, 3), (11, 4), (10, 4), (12, 2))])
reg.case(_offset_back, *[(lambda m=m, k=k: (_v(14), np.zeros(12), m, k))
                         for m, k in ((11, 2), (11, 14), (11, 16), (12, 15))])


def _period_peak(x, y, m, k):              # 2 * j - i peaks at i = 11 of 14 (j = 10):
    for i in range(m):                     # a trip no end corner of i holds, only the
        for j in range(0, i, 5):           # periodic ones (``_corners``): x[24] at k = 15
            y[i] = y[i] + x[2 * j - i + k]
    return y


def _period_peak_caught(x, y, m, k):
    try:
        return _period_peak(x, y, m, k)
    except IndexError as e:
        return str(e)


for _fn in (_period_peak, _period_peak_caught):
    reg.case(_fn, *[(lambda m=m, k=k: (_v(24), np.zeros(14), m, k))
                    for m, k in ((14, 13), (14, 15), (14, 14), (13, 15))])


def _period_low(x, y, m, k):               # 3 * i - 3 * j is 3 at i = 6 and 11 (j = 5,
    for i in range(3, m):                  # 10), 6 or more at the end corners (3, 4,
        for j in range(0, i, 5):           # 8, 12, 13): x[-41] of 40 at k = -44 only
            y[i] = y[i] + x[3 * i - 3 * j + k]
    return y


def _period_low_caught(x, y, m, k):
    try:
        return _period_low(x, y, m, k)
    except IndexError as e:
        return str(e)


for _fn in (_period_low, _period_low_caught):
    reg.case(_fn, *[(lambda m=m, k=k: (_v(40), np.zeros(14), m, k))
                    for m, k in ((14, 0), (14, -43), (14, -44), (12, -44))])


# tier 2 (Numba checks no bounds: the trace's corners are the only check)
reg.tiers("period_low_tier2", _period_low_caught,
          lambda: (_v(40), np.zeros(14), 14, -43),
          lambda: (_v(40), np.zeros(14), 14, -44), lambda: (_v(40), np.zeros(14), 12, -44))


# ------------------------------------------------------------------- steps past int64, in tier 2
def _huge_step(x, y):                      # range(i, n, 2**63): one trip per row
    n = x.shape[0]
    for i in range(n):
        for j in range(i, n, 2**63):
            y[i] = y[i] + x[j]
    return y


def _huge_neg_step(x, y):                  # -2**63 is an int64: range(i, -1, -2**63)
    n = x.shape[0]
    for i in range(n):
        for j in range(i, -1, -2**63):
            y[i] = y[i] + x[j]
    return y


def _wide_start(y):                        # i * 2**61 past int64 from i = 4: i // 2 + 1 trips
    n = y.shape[0]
    for i in range(n):
        for j in range(i * 2**61, -1, -2**62):
            y[i] = y[i] + 1.0
    return y


def _np_step(x, y, s):                     # a NumPy int step (int64, int8)
    n = x.shape[0]
    for i in range(n):
        for j in range(i, n, s):
            y[i] = y[i] + x[j]
    return y


reg.tiers("huge_step_tier2", _huge_step, lambda: (_v(11), np.zeros(11)),
          lambda: (_v(12), np.zeros(12)))
reg.tiers("wide_start_tier2", _wide_start, lambda: (np.zeros(11),),
          lambda: (np.zeros(9),))
reg.tiers("huge_neg_step_tier2", _huge_neg_step, lambda: (_v(11), np.zeros(11)))
reg.case(_huge_step, (_v(11), np.zeros(11)), (_v(12), np.zeros(12)))
reg.case(_wide_start, (np.zeros(11),), (np.zeros(9),))
reg.case(_np_step, (_v(11), np.zeros(11), np.int64(2)), (_v(11), np.zeros(11), np.int8(3)),
         (_v(11), np.zeros(11), np.int64(0)))


# ------------------------------------------------------------------- stepped ranges used otherwise
# (enumerate, zip, sum, len, reversed, list, ``in``, an item, next(iter(...)) in a node's
# body: these read the bounds, so the outer loop is unrolled; eager's values either way)
def _enum_stepped(x, y):
    n = x.shape[0]
    for i in range(n):
        for k, j in enumerate(range(i, n, 2)):
            y[i] = y[i] + k * x[j]
    return y
def _zip_stepped(x, y):
    n = x.shape[0]
    for i in range(n):
        for j, k in zip(range(i, n, 2), range(n - 1, i, -3)):
            y[i] = y[i] + x[j] * x[k]
    return y
def _sum_range(x, y):
    n = x.shape[0]
    for i in range(n):
        y[i] = sum(range(i, n, 2)) + len(range(0, i, 3))
    return y
def _reversed_stepped(x, y):
    n = x.shape[0]
    for i in range(n):
        for j in reversed(range(i, n, 2)):
            y[i] = y[i] * 0.5 + x[j]
    return y
def _list_stepped(x, y):
    n = x.shape[0]
    for i in range(n):
        idx = list(range(i, n, 3))
        y[i] = x[idx].sum() if idx else -1.0
    return y
def _member(x, y):
    n = x.shape[0]
    for i in range(n):
        for j in range(i, n, 2):
            if 5 in range(i, j, 2):
                y[i] = y[i] + x[j]
    return y
def _range_item(x, y):
    n = x.shape[0]
    for i in range(n):
        r = range(i, n + 5, 2)
        y[i] = x[r[1] % n] + r.start + len(r)
    return y
def _slice_vs(x, y):
    n = x.shape[0]
    for i in range(n):
        s = 0.0
        for j in range(i, n, 2):
            s += x[j]
        y[i] = s - x[i:n:2].sum()
    return y
def _iter_next(x, y):
    n = x.shape[0]
    for i in range(n):
        it = iter(range(i, n, 2))
        j = next(it, -1)
        y[i] = x[j] if j >= 0 else 0.0
    return y


for _fn in (_enum_stepped, _zip_stepped, _sum_range, _reversed_stepped, _list_stepped,
            _member, _range_item, _slice_vs, _iter_next):
    reg.case(_fn, *[(lambda n=n: (_v(n), np.zeros(n))) for n in (11, 2, 0)])
