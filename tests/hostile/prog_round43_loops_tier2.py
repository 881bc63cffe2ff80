"""Round 43, delay lines, way notes and carried names with tier 2 forced (backends
"native" and "auto", ``round40_native_runs.twice``: each input set twice, so a new
graph's second call is tier 2's): a two-tap FIR from Python floats, a biquad, a
float32 accumulator that starts ``np.float32``, a counter stepped after a ``pass`` way,
three ``elif`` counters over NaN, a walrus condition, a name written in one way only.

    >>> twice(reg, "fir2", _fir2, lambda: (_v(12),), lambda: (_v(2),))
"""

import numpy as np
from hostile_check import Programs
from round40_native_runs import twice

reg = Programs("round43_loops")
NAN = float("nan")


def _v(n, seed=6):
    x = np.random.default_rng(seed + n).random(n) * 4 - 2
    x[1::5] = NAN
    x[2::7] = -0.0
    return x


def _fir2(x):
    y = np.zeros_like(x)
    x2 = x1 = 0.0
    for i in range(x.shape[0]):
        y[i] = x[i] + 0.5 * x1 - 0.25 * x2
        x2, x1 = x1, x[i]
    return y, x2, x1


def _biquad(x):
    y = np.zeros_like(x)
    x2 = x1 = y2 = y1 = 0.0
    for i in range(x.shape[0]):
        y0 = 0.2 * x[i] + 0.3 * x1 + 0.1 * x2 + 0.5 * y1 - 0.25 * y2
        y[i] = y0
        x2, x1 = x1, x[i]
        y2, y1 = y1, y0
    return y


def _f32_acc(x):
    acc = np.float32(0.5)
    for i in range(x.shape[0]):
        acc = acc + x[i]
    return acc, type(acc).__name__


def _pass_then_count(x, t):
    c = 0
    for j in range(x.shape[0]):
        if x[j] > t:
            pass
        c += 1
    return c


def _elif3(x, t):
    lo = mid = hi = 0
    for j in range(x.shape[0]):
        if x[j] < -t:
            lo += 1
        elif x[j] < t:
            mid += 1
        else:
            hi += 1
    return lo, mid, hi


def _walrus(x):
    c = 0
    for i in range(x.shape[0]):
        if (v := x[i] * 2.0) > 1.0:
            c += 1
            x[i] = v
    return c, x


def _one_way(x, t):
    for j in range(x.shape[0]):
        if x[j] > t:
            last = j
    return last


twice(reg, "fir2", _fir2, lambda: (_v(12),), lambda: (_v(2),),
      lambda: (_v(12).astype(np.float32),))
twice(reg, "biquad", _biquad, lambda: (_v(12),), lambda: (np.zeros(12),))
twice(reg, "f32_acc", _f32_acc, lambda: (_v(12),), lambda: (_v(12).astype(np.float32),))
twice(reg, "pass_then_count", _pass_then_count, lambda: (_v(12), 0.5),
      lambda: (_v(12), NAN))
twice(reg, "elif3", _elif3, lambda: (_v(12), 0.5), lambda: (_v(12), NAN))
twice(reg, "walrus", _walrus, lambda: (_v(12),), lambda: (-np.abs(_v(12)),))
twice(reg, "one_way", _one_way, lambda: (_v(12), 0.5), lambda: (_v(12), 5.0))
