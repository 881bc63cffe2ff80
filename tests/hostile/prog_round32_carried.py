"""Round 32, loops that carry temporaries (``backends/passes/dead_carried.py``: a
``while_loop`` slot no trip reads and nothing reads after the loop is dropped) where
the slot is not quite dead: stored only on some trips, read only after a ``break``,
read after the loop through another name, the argument itself (no trip: the same
object back), of a size that changes between calls, read by the next trip's
condition; and tier 2 (``Programs.tiers``, ``TIER2``) on values NumPy lays out in
another order than C (``backends/native/strided.py``: einsum results and their
transposes fed to elementwise ops and reductions with ``keepdims``, empty axes) and on
NumPy calls that warn for some shapes only (``backends/native/shape_warnings.py``:
``std``/``var`` with ``ddof >= n``, medians of empty slices, NaN, percentiles of an
array of ``q``).

    >>> def _newton(b, tol):
    ...     x = np.cbrt(b)
    ...     fx = x * 0                 # a temporary named before the loop
    ...     while True:
    ...         fx = x ** 3 - b
    ...         step = fx / (3 * x ** 2 + 1.0)
    ...         x = x - step
    ...         if np.max(np.abs(step)) < tol:
    ...             break
    ...     return x
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round32_carried")

B = np.array([2.0, 9.0, 30.0, 0.5])
INPUTS = ((B, 1e-6), (B * 3, 1e-3), (B[:2].copy(), 1e-9), (np.zeros(3), 1e-6),
          (B[::-1].copy(), 0.5))


def _newton(b, tol):
    x = np.cbrt(b) + 1.0
    fx = x * 0
    step = x
    while np.max(np.abs(step)) >= tol:
        fx = x ** 3 - b
        step = fx / (3 * x ** 2 + 1.0)
        x = x - step
    return x


def _newton_read_fx(b, tol):
    x = np.cbrt(b) + 1.0
    fx = x * 0
    step = x
    while np.max(np.abs(step)) >= tol:
        fx = x ** 3 - b
        step = fx / (3 * x ** 2 + 1.0)
        x = x - step
    return x, fx


def _conditional_store(b, tol):
    x = b + 1.0
    t = x * 0
    k = 0
    while k < 40 and np.max(np.abs(x - b)) > tol:
        if k % 2:
            t = x * 2         # stored on odd trips only: read after the loop
        x = (x + b) / 2
        k += 1
    return x, t, k


def _read_after_break(b, tol):
    x = b + 2.0
    last = x
    k = 0
    while k < 50:
        last = x - b
        x = (x + b) / 2
        k += 1
        if np.max(np.abs(last)) < tol:
            break
    return k, last


def _slot_is_argument(b, tol):
    y = b
    k = 0
    while k < 30 and np.sum(np.abs(y)) > tol:
        tmp = y * 0.5
        y = tmp
        k += 1
    return y, y is b


def _tmp_read_by_condition(b, tol):
    x = b + 1.0
    d = x
    while np.max(np.abs(d)) > tol:
        d = (x - b) * 0.5
        x = x - d
    return x


def _tmp_aliased_name(b, tol):
    x = b + 1.0
    tmp = x * 0
    keep = tmp
    k = 0
    while k < 25 and np.max(np.abs(x - b)) > tol:
        tmp = x - b
        x = x - tmp / 2
        k += 1
    return x, keep, keep is tmp


def _grow_rows(b, tol):
    acc = b[:0]
    tmp = b
    k = 0
    while k < 4 and acc.size < b.size * 3:
        tmp = b * k
        acc = np.concatenate([acc, tmp])
        k += 1
    return acc


def _tmp_dtype_changes(b, tol):
    x = b.astype(np.float32) + 1
    tmp = x
    k = 0
    while k < 20 and np.max(np.abs(x - b)) > tol:
        tmp = (x - b) / 2
        x = x - tmp
        k += 1
    return x, x.dtype


def _tmp_written_in_place(b, tol):
    x = b + 1.0
    tmp = np.zeros_like(b)
    k = 0
    while k < 20 and np.max(np.abs(x - b)) > tol:
        tmp[...] = x - b
        x = x - tmp / 2
        k += 1
    return x, tmp


def _tmp_warns(b, tol):
    x = b + 1.0
    r = x
    k = 0
    while k < 6:
        r = np.log(x - b - 1.0 + k / 10)  # noqa: F841 (a dead carried slot)
        x = (x + b) / 2
        k += 1
    return x


def _tmp_raises(b, tol):
    x = b + 1.0
    tmp = x
    k = 0
    with np.errstate(divide="raise"):
        while k < 5:
            tmp = 1.0 / (x - b - 1.0 / (k + 1))  # noqa: F841 (a dead carried slot)
            x = x + 0.0
            k += 1
    return x


def _symbolic_tmp(b, tol):
    x = b[b > 1.0]
    tmp = x
    k = 0
    while k < 8 and x.size and np.max(x) > tol:
        tmp = x[1:] - x[:-1] if x.size > 1 else x * 0  # noqa: F841 (a dead carried slot)
        x = x / 2
        k += 1
    return x, k


def _tmp_read_after_else(b, tol):
    x = b + 1.0
    d = x
    k = 0
    while k < 30:
        d = x - b
        x = x - d / 3
        k += 1
        if np.max(np.abs(d)) < tol:
            break
    else:
        return x, None
    return x, d


def _two_temps_swap(b, tol):
    x = b + 1.0
    p = x * 0
    q = x * 0
    k = 0
    while k < 12 and np.max(np.abs(x - b)) > tol:
        p, q = q, x - b
        x = x - q / 2
        k += 1
    return x, p


LOOPS = (_symbolic_tmp, _tmp_read_after_else, _two_temps_swap, _newton, _newton_read_fx, _conditional_store, _read_after_break,
         _slot_is_argument, _tmp_read_by_condition, _tmp_aliased_name, _grow_rows,
         _tmp_dtype_changes, _tmp_written_in_place, _tmp_warns, _tmp_raises)

for _fn in LOOPS:
    reg.case(_fn, *INPUTS, calls=2)


# --------------------------------------------------------------------- tier 2 layouts

_R = np.random.default_rng(32)
A = _R.normal(size=(5, 4))
C = _R.normal(size=(4, 6))


def _pair():
    return A.copy(), C.copy()


def _pair_f():
    return np.asfortranarray(A), np.asfortranarray(C)


def _pair_empty():
    return np.zeros((0, 4)), C.copy()


def _pair_inner_empty():
    return np.zeros((5, 0)), np.zeros((0, 6))


def _pair_transposed():
    return A.T.copy().T, C[:, ::-1]


def _pair_int():
    return (A * 10).astype(np.int32), (C * 10).astype(np.int32)


def _pair_nan():
    a = A.copy()
    a[1, 2] = np.nan
    return a, C.copy()


def _einsum_tanh(a, c):
    e = np.einsum("ij,jk->ki", a, c)
    return np.tanh(e) * 2.0


def _einsum_sum_keepdims(a, c):
    e = np.einsum("ij,jk->ki", a, c)
    return e.sum(axis=0, keepdims=True), e.sum(axis=1, keepdims=True)


def _einsum_mean_axes(a, c):
    e = np.einsum("ij,jk->ki", a, c)
    return e.mean(axis=0), e.max(axis=1), e.min()


def _einsum_transpose_add(a, c):
    e = np.einsum("ij,jk->ik", a, c)
    return e.T + 1.0, (e.T * e.T).sum(axis=1)


def _einsum_returned(a, c):
    e = np.einsum("ij,jk->ki", a, c)
    return e, e.flags.c_contiguous


def _einsum_std_ddof(a, c):
    e = np.einsum("ij,jk->ki", a, c)
    return e.std(axis=1, ddof=1), e.var(axis=0, ddof=4)


TIER_LAYOUT = (_einsum_tanh, _einsum_sum_keepdims, _einsum_mean_axes,
               _einsum_transpose_add, _einsum_returned, _einsum_std_ddof)

for _fn in TIER_LAYOUT:
    reg.tiers(_fn.__name__[1:], _fn, _pair, _pair_f, _pair_empty, _pair_inner_empty,
              _pair_int, _pair_nan, _pair_transposed)


# --------------------------------------------------------------------- shape warnings

_DATA = _R.normal(size=(6, 3))     # (drawn once: both runs must see the same rows)


def _rows(n):
    return lambda: (_DATA[:n].copy(),)


def _rows_nan():
    x = _DATA[:4].copy()
    x[2, 1] = np.nan
    return (x,)


def _rows_inf():
    x = _DATA[:4].copy()
    x[0, 0] = np.inf
    x[1, 0] = -np.inf
    return (x,)


def _std_ddof(x):
    return x.std(axis=0, ddof=2) + 1.0, np.var(x, axis=1, ddof=3)


def _median_axis(x):
    return np.median(x, axis=0) * 2.0, np.median(x[:, :0], axis=1)


def _median_all(x):
    return np.median(x) + x.sum()


def _percentile_q(x):
    return np.percentile(x, np.array([10.0, 50.0, 90.0]), axis=0) - 1.0


def _quantile_keepdims(x):
    return np.quantile(x, 0.25, axis=1, keepdims=True) + x


def _mean_empty(x):
    return x[x.shape[0]:].mean(axis=0) + 1.0, x.mean(axis=0)


def _var_ddof_equal(x):
    return x.var(axis=0, ddof=x.shape[0]) * 2.0


WARNS = (_std_ddof, _median_axis, _median_all, _percentile_q, _quantile_keepdims,
         _mean_empty, _var_ddof_equal)

for _fn in WARNS:
    reg.tiers(_fn.__name__[1:], _fn, _rows(6), _rows(2), _rows(1), _rows(0), _rows_nan,
              _rows_inf, _rows(3))
