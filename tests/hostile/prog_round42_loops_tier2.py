"""Round 42, picked numbers, short circuits and selects with tier 2 forced (backends
"native" and "auto", ``round40_native_runs.twice``: each input set called twice, so a
new graph's second call is tier 2's): a running argmin over NaN and ties (the picked
value a NumPy scalar of the data's dtype, the index a Python int), a counter of a
chained comparison with NaN bounds, a counter that starts 3 below int64's maximum, a
``log`` of the positives only (no warning from the untaken way) and an int8 argmax.

    >>> twice(reg, "argmin", _argmin, lambda: (_v(12),), lambda: (_v(1),))
"""

import numpy as np
from hostile_check import Programs
from round40_native_runs import twice

reg = Programs("round42_loops")
NAN = float("nan")


def _v(n, seed=4):
    x = np.random.default_rng(seed + n).random(n) * 4 - 2
    x[1::5] = NAN
    x[2::7] = 0.5
    return x


def _argmin(d):
    best, arg = d[0], 0
    for i in range(1, d.shape[0]):
        if d[i] < best:
            best = d[i]
            arg = i
    return best, arg, type(arg).__name__


def _in_range(x, lo, hi):
    count = 0
    for i in range(x.shape[0]):
        if lo <= x[i] < hi:
            count += 1
    return count


def _near_max(x):
    count = 2 ** 63 - 3
    for i in range(x.shape[0]):
        if x[i] > -10:
            count += 1
    return count


def _log_pos(x):
    y = np.zeros_like(x)
    for i in range(x.shape[0]):
        if x[i] > 0:
            y[i] = np.log(x[i])
    return y


def _i8(n):
    return np.random.default_rng(n).integers(-128, 128, n).astype(np.int8)


def _argmax_i8(a):
    best, arg = a[0], 0
    for i in range(1, a.shape[0]):
        if a[i] > best:
            best = a[i]
            arg = i
    return best, arg


twice(reg, "argmin", _argmin, lambda: (_v(12),), lambda: (np.zeros(12),),
      lambda: (_v(1),), lambda: (_v(12).astype(np.float32),))
twice(reg, "in_range", _in_range, lambda: (_v(12), -1.0, 1.0), lambda: (_v(12), NAN, 1.0),
      lambda: (_v(12), 1.0, -1.0))
twice(reg, "near_max", _near_max, lambda: (np.zeros(2),), lambda: (np.zeros(12),))
twice(reg, "log_pos", _log_pos, lambda: (_v(12),), lambda: (-np.abs(_v(12)),))
twice(reg, "argmax_i8", _argmax_i8, lambda: (_i8(12),), lambda: (_i8(2),))


def _planck(x, t):
    """``np.expm1`` is NumPy's own call in tier 2, writing into the kernel's dead
    ``x / t`` (``calls._dead_operand``); it overflows (a warning) for small ``t``.
    (``x * x * x``, not ``x ** 3``: tier 2's ``power`` is within 4 ulp of NumPy's, by
    design, docs/native.md "Tolerances"; this compares bit for bit.)"""
    return 1.0 / (x * x * x * np.expm1(x / t))


def _tanh_chain(x):
    x *= 2.0
    return np.tanh(0.5 * (x + 0.044715 * x * x * x)), x


def _wl(n):
    return np.linspace(0.5, 3.0, n)


twice(reg, "planck", _planck, lambda: (_wl(2000), 1.0), lambda: (_wl(2000), 0.001),
      lambda: (_wl(7), -0.0), lambda: (_wl(2000).astype(np.float32), np.float32(0.002)))
twice(reg, "tanh_chain", _tanh_chain, lambda: (_wl(2000),),
      lambda: (np.array([np.nan, np.inf, -np.inf, 1e300, -0.0] * 3),))
