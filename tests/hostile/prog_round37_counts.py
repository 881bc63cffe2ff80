"""Round 37, data-dependent sizes equal in fact (``dynamo/equal_sizes.py``: the graph
checks ``u1 == u0`` and runs the frame eagerly where it fails): two masks whose counts
are equal on some calls and differ on others, one count 1 (NumPy broadcasts it), counts
that become 0, ``x[m1]`` against ``y[m2]`` by arithmetic, comparison, ``np.dot``,
``np.stack``, ``np.where``, assignment; ``np.nonzero`` results combined; effects before
the op (a list appended, a print, a random draw, an input written) that a rerun would
repeat; the user's own ``except ValueError`` around the op.

    >>> def _diff(x, y):
    ...     return x[x > 0] - y[y > 0]     # equal counts: a result; else ValueError
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round37_counts")


# ---------------------------------------------------------------- the traced functions
def _diff(x, y):
    return x[x > 0] - y[y > 0]


def _prod_sum(x, y):
    return (x[x > 0] * y[y < 0]).sum()


def _compare(x, y):
    return x[x > 0] < y[y > 0]


def _dot(x, y):
    return np.dot(x[x > 0], y[y > 0])


def _matmul(x, y):
    return x[x > 0] @ y[y > 0]


def _stack(x, y):
    return np.stack([x[x > 0], y[y > 0]])


def _column_stack(x, y):
    return np.column_stack((x[x > 0], y[y > 0]))


def _where(x, y):
    a, b = x[x > 0], y[y > 0]
    return np.where(a > b, a, b)


def _maximum(x, y):
    return np.maximum(x[x > 0], y[y > 0])


def _three(x, y):
    return x[x > 0] + y[y > 0] - (x + y)[x + y > 0]


def _nonzero_sum(x, y):
    i, = np.nonzero(x > 0)
    j, = np.nonzero(y > 0)
    return i + j


def _nonzero_pairs(x, y):
    return np.flatnonzero(x) - np.flatnonzero(y)


def _argwhere(x, y):
    return np.argwhere(x > 0)[:, 0] * np.argwhere(y > 0)[:, 0]


def _extract(x, y):
    return np.extract(x > 0, x) - np.compress(y > 0, y)


def _assign(x, y):                 # x[m1] = y[m2]: the counts must match (or 1)
    out = x.copy()
    out[x > 0] = y[y > 0]
    return out


def _inplace(x, y):
    a = x[x > 0]
    a += y[y > 0]
    return a


def _reversed(x, y):
    return x[x > 0] - y[y > 0][::-1]


def _outer(x, y):                  # no equality needed
    return x[x > 0][:, None] - y[y > 0][None, :]


def _caught(x, y):
    try:
        return x[x > 0] - y[y > 0]
    except ValueError as e:
        return str(e)


def _logged(x, y, log):            # an effect before the op
    log.append(len(log))
    return x[x > 0] - y[y > 0]


def _printed(x, y):
    print("before", x.shape)
    return x[x > 0] * y[y > 0]


def _drawn(x, y):
    rng = np.random.default_rng(0)
    noise = rng.random(3)
    return x[x > 0] - y[y > 0], noise


def _written(x, y):                # the input written before the op
    x[0] = 1.0
    return x[x > 0] - y[y > 0]


def _thresholds(x, y, t):
    return x[x > t] - y[y > t]


def _sums_after(x, y):
    d = x[x > 0] - y[y > 0]
    return d.sum(), d.shape, len(d)


def _run_lengths(m):
    d = np.diff(np.r_[0, m.astype(np.int8), 0])
    starts = np.flatnonzero(d == 1)
    ends = np.flatnonzero(d == -1)
    return ends - starts


def _run_lengths_off(m):           # ends shifted by one: counts differ at the edges
    d = np.diff(np.r_[0, m.astype(np.int8)])
    starts = np.flatnonzero(d == 1)
    ends = np.flatnonzero(d == -1)
    return ends - starts


def _bincount(k, n):
    return np.zeros(n) + np.bincount(k, minlength=n)


def _unique(x, y):
    return np.unique(x) - np.unique(y)


def _rows(a, b):                   # 2-D: rows picked by two masks
    return a[a[:, 0] > 0] - b[b[:, 0] > 0]


def _int8(x, y):
    return x[x > 0] - y[y > 0]


def _sizes_only(x, y):             # the sizes compared as numbers
    a, b = x[x > 0], y[y > 0]
    return a.size == b.size, a.size - b.size


def _chained(x, y):
    d = x[x > 0] - y[y > 0]
    return d[d > 0] * y[y < 0]


# ---------------------------------------------------------------- the inputs
def _v(*vals, dtype=float):
    return np.array(vals, dtype=dtype)


A = _v(1, -2, 3, -4, 5)
B = _v(-1, 2, -3, 4, 5)        # 3 and 3 positives
C = _v(1, 2, -3, -4, -5)       # 2 positives
ONE = _v(-1, -2, 7, -4, -5)    # 1 positive: broadcasts
NONE = _v(-1, -2, -3, -4, -5)  # 0 positives
PAIRS = [(A, B), (A, C), (A, ONE), (ONE, A), (NONE, NONE), (NONE, ONE), (B, A)]

for _fn in (_diff, _prod_sum, _compare, _dot, _matmul, _stack, _column_stack, _where,
            _maximum, _three, _nonzero_sum, _argwhere, _extract, _assign, _inplace,
            _reversed, _outer, _caught, _printed, _drawn, _sums_after, _sizes_only,
            _chained):
    reg.case(_fn, *PAIRS, calls=1)

reg.case(_nonzero_pairs, (A, B), (A, _v(1, 0, 2, 0, 3)), (_v(0, 0, 1, 0, 0), A),
         (_v(0, 0, 0), _v(0, 0)), calls=1)
reg.case(_logged, *[(x, y, []) for x, y in PAIRS[:4]], calls=1)
reg.case(_written, *PAIRS[:5], calls=1)
reg.case(_thresholds, (A, B, 0.0), (A, B, 2.5), (A, B, 4.5), (A, B, 10.0), (A, C, 0.0),
         calls=1)
reg.case(_int8, *[(x.astype(np.int8), y.astype(np.int8)) for x, y in PAIRS[:4]],
         (A.astype(np.float32), B), calls=1)
reg.case(_unique, (A, B), (_v(1, 1, 2), _v(3, 4)), (_v(1, 1, 2), _v(3, 3, 4)),
         (_v(), _v()), calls=1)
reg.case(_rows, (np.c_[A, B], np.c_[B, A]), (np.c_[A, B], np.c_[C, C]),
         (np.c_[A, B], np.c_[ONE, A]), (np.c_[NONE, A], np.c_[NONE, B]), calls=1)

MASKS = [_v(1, 1, 0, 1, 0, 0, 1, 1, 1, dtype=bool), np.zeros(6, bool), np.ones(5, bool),
         _v(0, 1, 0, dtype=bool), _v(1, 0, 1, 0, 1, 1, 0, 1, dtype=bool), np.zeros(0, bool)]
reg.case(_run_lengths, *[(m,) for m in MASKS], calls=1)
reg.case(_run_lengths_off, *[(m,) for m in MASKS], calls=1)
reg.case(_bincount, (_v(0, 1, 1, 3, dtype=int), 5), (_v(0, 6, 1, dtype=int), 5),
         (_v(0, 4, dtype=int), 5), (_v(0, 1, dtype=int), 1), (_v(dtype=int), 3),
         (_v(dtype=int), 0), calls=1)


# ---------------------------------------------------------------- scenarios
def _s_counts_drift(r):
    """One function; the counts equal, then differ by one, then 1 and many, then 0 and
    1, then equal again, the arrays written between calls."""
    f = r.compile(_diff)
    x, y = A.copy(), B.copy()
    r.call(f, x, y)
    y[0] = 9.0                  # 4 against 3
    r.call(f, x, y)
    x[:] = -1.0
    x[2] = 2.0                  # 1 against 4: broadcast
    r.call(f, x, y)
    y[:] = -1.0                 # 1 against 0: empty
    r.call(f, x, y)
    x[2] = -2.0                 # 0 against 0
    r.call(f, x, y)
    r.call(f, A.copy(), B.copy())


def _s_cached_graph_then_mismatch(r):
    """Many calls of equal counts (the graph settles), then a mismatch raised inside a
    helper called by the compiled function."""
    def inner(x, y):
        return x[x > 0] - y[y > 0]

    def f(x, y, log):
        log.append("in")
        d = inner(x, y)
        log.append("out")
        return d
    g = r.compile(f)
    log = []
    for k in range(3):
        r.call(g, A + k, B + k, log)
    r.call(g, A, C, log)
    r.call(g, A, B, log)
    r.see("log", log)


def _s_sizes_become_zero(r):
    """Arrays shrink between calls down to length 0."""
    f = r.compile(_diff)
    for n in (5, 4, 3, 1, 0, 5):
        r.call(f, A[:n].copy(), B[:n].copy())


for _s in (_s_counts_drift, _s_cached_graph_then_mismatch, _s_sizes_become_zero):
    reg._add(_s.__name__[3:], _s, (_s.__doc__ or "").strip())


# ---------------------------------------------------------------- more ops that need
# equal sizes (or raise, or answer False)
def _equal(x, y):
    return x[x > 0] == y[y > 0]


def _array_equal(x, y):            # False on a shape mismatch, no error
    return np.array_equal(x[x > 0], y[y > 0])


def _allclose(x, y):
    try:
        return np.allclose(x[x > 0], y[y > 0])
    except ValueError as e:
        return str(e)


def _arctan2(x, y):
    return np.arctan2(x[x > 0], y[y > 0])


def _own_masks(x, y):              # one array, two masks
    return x[x > 0] - x[x < 0]


def _concat_against(x, y):
    return np.concatenate([x[x > 0], y[y > 0]]) - x


def _interp(x, y):
    return np.interp(1.0, x[x > 0], y[y > 0])


reg.case(_equal, *PAIRS, calls=1)
reg.case(_array_equal, *PAIRS, calls=1)
reg.case(_allclose, *PAIRS, calls=1)
reg.case(_arctan2, *PAIRS[:5], calls=1)
reg.case(_own_masks, *[(x, x) for x in (A, B, C, ONE, NONE, _v(1, -1, 2, -2))], calls=1)
reg.case(_concat_against, *PAIRS[:5], calls=1)
reg.case(_interp, (_v(1, 2, 3), _v(4, 5, 6)), (_v(1, 2, 3), _v(4, 5, -6)),
         (_v(1, 2, -3), _v(4, -5, -6)), calls=1)


def _unused(x, y):                 # the difference unused: eager still raises
    d = x[x > 0] - y[y > 0]        # noqa: F841
    return x.sum()


def _shape_only(x, y):
    return (x[x > 0] - y[y > 0]).shape


def _length_only(x, y):
    return len(x[x > 0] - y[y > 0])


def _head(x, y):                   # min(u1, 3) against u0
    return x[x > 0] - y[y > 0][:3]


def _tail_off(x, y):               # u0 - 1 (clamped at 0) against u1
    return x[x > 0][1:] - y[y > 0]


def _global_draw(x, y):            # the global generator drawn before the op
    noise = np.random.random(2)
    return x[x > 0] - y[y > 0], noise


def _per_row(X2, Y2):              # per-row counts in a loop of 10 trips
    out = []
    for i in range(X2.shape[0]):
        a = X2[i][X2[i] > 0]
        b = Y2[i][Y2[i] > 0]
        out.append(float((a - b).sum()))
    return out


for _fn in (_unused, _shape_only, _length_only, _tail_off):
    reg.case(_fn, *PAIRS[:5], calls=1)
reg.case(_head, (A, B), (A, _v(1, 2, 3, 4)), (_v(1, 2), B), (_v(1, 2, 3), _v(1, 2)),
         (NONE, NONE), calls=1)
reg.case(_global_draw, *PAIRS[:4], calls=1, setup=lambda: np.random.seed(5),
         watch=lambda: np.random.random())


def _rows10(seed, equal=True):
    rng = np.random.default_rng(seed)
    X2 = rng.choice([-1.0, 1.0, 2.0], size=(10, 6))
    Y2 = X2[:, ::-1].copy() if equal else rng.choice([-1.0, 1.0], size=(10, 6))
    return X2, Y2


reg.case(_per_row, _rows10(1), _rows10(3, False), _rows10(4), calls=1)
