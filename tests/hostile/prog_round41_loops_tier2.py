"""Round 41, index-set splits, selects in loop nodes and float clocks with tier 2
forced (backend "native" and "auto", ``round40_native_runs.twice``: every input set
called twice, so a new graph's second call is tier 2's): boundary rows, a warm-up
threshold from an argument, a forward fill of float32 NaNs, an int8
clamp, a clock the body reads. Sizes past the unroll limit, then 0 and 1 and 2.

    >>> twice(reg, "boundary", _boundary, lambda: (_v(12),), lambda: (_v(2),))
"""

import numpy as np
from hostile_check import Programs
from round40_native_runs import twice

reg = Programs("round41_loops")


def _v(n, seed=3):
    return np.random.default_rng(seed + n).random(n) * 4 - 1


def _boundary(x):
    y = np.empty_like(x)
    n = x.shape[0]
    for i in range(n):
        if i == 0:
            y[i] = x[i]
        elif i == n - 1:
            y[i] = -x[i]
        else:
            y[i] = (x[i - 1] + x[i + 1]) * 0.5
    return y


def _warm(x, w):
    out = np.zeros_like(x)
    for t in range(x.shape[0]):
        if t < w:
            out[t] = x[t]
        else:
            out[t] = 0.5 * out[t - 1] + 0.5 * x[t]
    return out


def _ffill32(x):
    y = x.copy()
    for i in range(1, y.shape[0]):
        if np.isnan(y[i]):
            y[i] = y[i - 1]
    return y


def _f32_nans(n):
    x = _v(n).astype(np.float32)
    x[1::3] = np.nan
    return x


def _i8_clamp(a):
    b = a.copy()
    for i in range(b.shape[0]):
        if b[i] < -20:
            b[i] = -20
    return b


def _i8(n):
    return (np.random.default_rng(n).integers(-128, 128, n)).astype(np.int8)


def _clock(x, lr):
    t = 0.0
    while np.abs(x).max() > 1e-3 and t < 30.0:
        x = x - lr * x
        lr *= 0.9
        t += 1.0
    return x, lr, t


twice(reg, "boundary", _boundary, lambda: (_v(12),), lambda: (_v(2),), lambda: (_v(1),),
      lambda: (_v(30),))
twice(reg, "warm_w", _warm, lambda: (_v(12), 5), lambda: (_v(12), 0), lambda: (_v(12), 20),
      lambda: (_v(12), -3))
twice(reg, "ffill32", _ffill32, lambda: (_f32_nans(12),), lambda: (_f32_nans(1),),
      lambda: (_f32_nans(0),))
twice(reg, "i8_clamp", _i8_clamp, lambda: (_i8(12),), lambda: (_i8(3),))
twice(reg, "clock", _clock, lambda: (_v(6) + 2, 0.3), lambda: (_v(6) + 2, 0.0),
      lambda: (_v(6) + 2, 1.0))
