"""Round 40 (native half), reductions and integer powers in tier 2, on the same shapes
call after call (so that every hostile value reaches the tier-2 kernel already
compiled, not a new symbolic graph, which stays in tier 1): int8/uint8 sums and means
(NumPy accumulates in int64/float64), sums with ``dtype=`` that wrap, float32 sums in
NumPy's pairwise order, integer ``**`` (wrapping, negative exponents raise), ``where``
and ``clip`` of small ints with Python ints (NEP 50), argmax over wrapped values,
``maximum`` against a NaN scalar.

    >>> def _i8_reductions(x):
    ...     return x.sum(), x.mean(), x.sum(dtype=np.int8), x.prod(dtype=np.int8)
"""

import numpy as np
from hostile_check import Programs
from round40_native_runs import twice

reg = Programs("round40_native")

I8 = np.array([100, -100, 127, -128, 3, 0, 55, -7, 64, 64, 1, -1], dtype=np.int8)
I8_HOT = np.array([127, 127, 127, 127, -128, -128, 100, 100, 99, 98, 2, 2], dtype=np.int8)
U8 = np.array([250, 3, 0, 255, 128, 7, 1, 200, 16, 17, 128, 128], dtype=np.uint8)
F32 = (np.arange(12, dtype=np.float32) - 5.5) * np.float32(0.1)
F32_BIG = np.array([1e38, 1e38, 3e38, -1e38, 1e-38, 0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
                   dtype=np.float32)


def _i8_reductions(x):
    return x.sum(), x.mean(), x.sum(dtype=np.int8), x.prod(dtype=np.int8), x.max(), x.argmax()


def _u8_reductions(x):
    return x.sum(), x.mean(), x.sum(dtype=np.uint8), x.min(), x.argmin(), x.std()


def _i8_power(x):
    return x ** 2, x ** 3, np.square(x), x * x * x


def _int_negative_power(x, p):
    return x ** p


def _where_small_int(x):
    return np.where(x > 0, x, 0), np.where(x > 0, x, -1) * 2, np.where(x < 0, x + 1, x - 1)


def _clip_python_ints(x):
    return np.clip(x, -100, 100), np.clip(x, 0, 250) if x.dtype == np.uint8 else x


def _argmax_wrapped(x):
    y = x + 1
    for k in range(3):
        y = y * 2
    return np.argmax(y), np.argmin(y), y.max(), y


def _f32_sum_order(x):
    s = x.sum()
    acc = x * 0
    for k in range(4):
        acc = acc + x * np.float32(k)
    return s, acc.sum(), acc.mean(), (x * x).sum()


def _f32_overflow_sum(x):
    return x.sum(), (x * 2).max(), x.sum(dtype=np.float64), x.mean()


def _maximum_nan_scalar(x):
    return np.maximum(x, np.nan), np.minimum(x, np.inf), np.maximum(x, -np.inf)


def _row_sums_loop(a):
    out = np.zeros(a.shape[0], dtype=a.dtype)
    for i in range(a.shape[0]):
        out[i] = a[i].sum()
    return out


def _running_prefix(x):
    s = x[0] * 0
    out = np.zeros_like(x)
    for k in range(x.shape[0]):
        s = s + x[k]
        out[k] = s
    return out, s


twice(reg, "i8_reductions", _i8_reductions, lambda: (I8.copy(),), lambda: (I8_HOT.copy(),),
      lambda: (I8_HOT.copy()[::-1],))
twice(reg, "u8_reductions", _u8_reductions, lambda: (U8.copy(),),
      lambda: (np.full(12, 255, dtype=np.uint8),))
twice(reg, "i8_power", _i8_power, lambda: (I8.copy(),), lambda: (I8_HOT.copy(),),
      lambda: (U8.copy(),))
twice(reg, "int_negative_power", _int_negative_power, lambda: (I8.copy(), 2),
      lambda: (I8.copy(), -1), lambda: (I8.astype(np.int64), 63))
twice(reg, "where_small_int", _where_small_int, lambda: (I8.copy(),), lambda: (U8.copy(),),
      lambda: (I8_HOT.copy(),))
twice(reg, "clip_python_ints", _clip_python_ints, lambda: (I8.copy(),), lambda: (U8.copy(),))
twice(reg, "argmax_wrapped", _argmax_wrapped, lambda: (I8.copy(),), lambda: (I8_HOT.copy(),),
      lambda: (U8.copy(),))
twice(reg, "f32_sum_order", _f32_sum_order, lambda: (F32.copy(),), lambda: (F32_BIG.copy(),),
      lambda: (F32.copy()[::-1],))
twice(reg, "f32_overflow_sum", _f32_overflow_sum, lambda: (F32.copy(),),
      lambda: (F32_BIG.copy(),))
twice(reg, "maximum_nan_scalar", _maximum_nan_scalar, lambda: (F32.copy(),),
      lambda: (F32.astype(np.float64),))
twice(reg, "row_sums_loop", _row_sums_loop, lambda: (I8.reshape(3, 4).copy(),),
      lambda: (I8_HOT.reshape(3, 4).copy(),), lambda: (F32_BIG.reshape(3, 4).copy(),))
twice(reg, "running_prefix", _running_prefix, lambda: (I8.copy(),), lambda: (I8_HOT.copy(),),
      lambda: (F32_BIG.copy(),), lambda: (U8.copy(),))
