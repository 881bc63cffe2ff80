"""Round 40 (native half), NaN, infinities and signed zeros in tier 2: ``max``/``min``/
``argmax``/``argmin``/``maximum``/``minimum``/``clip`` inside loop nodes over rows
holding NaN (NumPy propagates it; ``argmax`` gives the first NaN), ``-inf`` rows, empty
reductions (ValueError), ``inf - inf`` (invalid), ``-0.0`` through ``*``, ``+``, ``abs``,
``sqrt``, ``maximum(-0.0, 0.0)`` and ``where``. Each body on "native" and "auto" with
tier 2 forced, every input set called twice (round40_native_runs.twice).

    >>> def _row_max_loop(a):
    ...     m = a[0]
    ...     for i in range(1, a.shape[0]):
    ...         m = np.maximum(m, a[i])
    ...     return m
"""

import numpy as np
from hostile_check import Programs
from round40_native_runs import twice

reg = Programs("round40_native")

NAN, INF = np.nan, np.inf
A = np.array([[1.0, -2.0, 3.0, 0.5], [NAN, 4.0, -1.0, 2.0], [0.0, -0.0, INF, -INF],
              [2.0, 2.0, NAN, -3.0]])
A_OK = np.arange(16.0).reshape(4, 4) - 7.5
V_OK = np.linspace(-2.0, 5.0, 8)
V = np.array([3.0, NAN, -1.0, INF, -INF, 0.0, -0.0, 2.0])
Z = np.array([0.0, -0.0, -0.0, 0.0, 1.0, -1.0])
Z_OK = np.array([1.0, 2.0, 0.5, 3.0, 1.0, 4.0])


def _row_max_loop(a):
    m = a[0]
    for i in range(1, a.shape[0]):
        m = np.maximum(m, a[i])
    return m


def _row_min_loop(a):
    m = a[0] * 1.0
    for i in range(1, a.shape[0]):
        m = np.minimum(a[i], m)
    return m


def _row_reductions_loop(a):
    out = np.zeros(a.shape[0])
    idx = np.zeros(a.shape[0], dtype=np.int64)
    for i in range(a.shape[0]):
        out[i] = a[i].max() - a[i].min()
        idx[i] = np.argmax(a[i]) * 10 + np.argmin(a[i])
    return out, idx


def _clip_loop(a, lo, hi):
    y = a
    for k in range(3):
        y = np.clip(y * 2.0, lo, hi)
    return y


def _whole_max(v):
    return v.max(), v.min(), np.argmax(v), np.argmin(v)


def _max_scalar_loop(v):
    best = -np.inf
    for k in range(v.shape[0]):
        best = max(best, v[k])
    return best


def _inf_minus_inf(v):
    acc = np.zeros_like(v)
    for k in range(3):
        acc = acc + (v - v) * 0.5
    return acc


def _signed_zero_ops(z):
    a = z * 0.0
    b = z + 0.0
    c = -z
    d = np.sqrt(z)
    e = np.abs(z)
    return a, b, c, d, e, z - z


def _signed_zero_max(z):
    return np.maximum(z, -z), np.minimum(z, -z), z.max(), z.min(), np.argmax(z)


def _signed_zero_loop(z):
    acc = z * 1.0
    for k in range(4):
        acc = acc * -1.0
    return acc, acc.sum(), 1.0 / acc[:4]


def _where_zero(z):
    return np.where(z == 0.0, z, 1.0 / z), np.where(z > 0, z, -0.0)


def _nan_compare_counts(v):
    n = 0
    for k in range(v.shape[0]):
        n += int(v[k] > 0) + int(v[k] != v[k])
    return n


def _empty_max_in_loop(a, n):
    out = []
    for i in range(a.shape[0]):
        out.append(a[i, :n].max())
    return out


def _maximum_f32_nan(a):
    y = np.maximum(a, np.float32(0.5))
    return y, y.dtype.str, np.fmax(a, 0.5), np.fmin(a, 0.5)


def _clip_int(x):
    y = x
    for k in range(2):
        y = np.clip(y + 100, -50, 120)
    return y


twice(reg, "row_max_loop", _row_max_loop, lambda: (A_OK.copy(),), lambda: (A.copy(),),
      lambda: (A.astype(np.float32),))
twice(reg, "row_min_loop", _row_min_loop, lambda: (A_OK.copy(),), lambda: (A.copy(),))
twice(reg, "row_reductions_loop", _row_reductions_loop, lambda: (A_OK.copy(),),
      lambda: (A.copy(),), lambda: (np.full((3, 4), -INF),))
twice(reg, "clip_loop", _clip_loop, lambda: (A_OK.copy(), -3.0, 3.0),
      lambda: (A.copy(), -3.0, 3.0), lambda: (A.copy(), 3.0, -3.0),
      lambda: (A_OK.copy(), NAN, 1.0))
twice(reg, "whole_max", _whole_max, lambda: (V_OK.copy(),), lambda: (V.copy(),),
      lambda: (-np.zeros(8),), lambda: (np.full(8, -np.inf),), lambda: (V.copy()[::-1],))
twice(reg, "max_scalar_loop", _max_scalar_loop, lambda: (V_OK.copy(),),
      lambda: (V.copy(),), lambda: (V[::-1].copy(),))
twice(reg, "inf_minus_inf", _inf_minus_inf, lambda: (V_OK.copy(),),
      lambda: (V.copy(),))
twice(reg, "signed_zero_ops", _signed_zero_ops, lambda: (Z_OK.copy(),), lambda: (Z.copy(),),
      lambda: (-np.zeros(6),),
      lambda: (Z.astype(np.float32),))
twice(reg, "signed_zero_max", _signed_zero_max, lambda: (Z.copy(),), lambda: (-Z,),
      lambda: (Z.copy()[::-1],))
twice(reg, "signed_zero_loop", _signed_zero_loop, lambda: (Z_OK.copy(),), lambda: (-Z_OK,),
      lambda: (Z.copy(),))
twice(reg, "where_zero", _where_zero, lambda: (Z_OK.copy(),), lambda: (Z.copy(),))
twice(reg, "nan_compare_counts", _nan_compare_counts, lambda: (V_OK.copy(),),
      lambda: (V.copy(),))
twice(reg, "empty_max_in_loop", _empty_max_in_loop, lambda: (A_OK.copy(), 2),
      lambda: (A.copy(), 2), lambda: (A_OK.copy(), 0))
twice(reg, "maximum_f32_nan", _maximum_f32_nan,
      lambda: (np.arange(8, dtype=np.float32),), lambda: (V.astype(np.float32),))
twice(reg, "clip_int", _clip_int, lambda: (np.arange(-3, 5, dtype=np.int8),),
      lambda: (np.array([100, 27, -128, 127, 20, 21, -100, 0], dtype=np.int8),))
