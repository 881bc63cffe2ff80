"""Round 40 (native half), integers and small floats in tier 2 (the default backend
"auto" reaches it for every hot graph): int8/uint8/int16 wrapping in loop nodes and
reductions, Python ints beside them (NEP 50: ``x + 300`` of int8 raises), NumPy int
scalars promoting, integer division by zero and ``INT_MIN // -1``, shifts past the width,
float16/float32 accumulation and promotion. Each body on "native" and "auto" with tier 2
forced, every input set called twice (round40_native_runs.twice).

    >>> def _i8_loop_acc(x):
    ...     acc = x.copy()
    ...     for k in range(5):
    ...         acc = acc * 3 + x
    ...     return acc
"""

import numpy as np
from hostile_check import Programs
from round40_native_runs import twice

reg = Programs("round40_native")

I8 = np.array([100, -100, 127, -128, 3, 0, 55, -7], dtype=np.int8)
U8 = np.array([250, 3, 0, 255, 128, 7, 1, 200], dtype=np.uint8)
I16 = np.array([30000, -30000, 32767, -32768, 181, 2, 0, -1], dtype=np.int16)
F16 = np.array([0.1, 1000.0, 60000.0, -0.5, 3.0, 1e-4, 2.5, 7.0], dtype=np.float16)
F32 = np.linspace(-1.0, 3.0, 9, dtype=np.float32)


def _i8_loop_acc(x):
    acc = x.copy()
    for k in range(5):
        acc = acc * 3 + x
    return acc


def _u8_sub_loop(x):
    for k in range(4):
        x = x - 70
    return x, x.max(), x.argmin()


def _i16_mul_sum(x):
    y = x * x
    return y, y.sum(), y.sum(dtype=np.int16), y.max()


def _i8_python_int(x, k):
    return x + k, x * k


def _i8_cumsum_wrap(x):
    return np.cumsum(x, dtype=np.int8), np.cumsum(x), x.sum(dtype=np.int8)


def _int_scalar_promote(x):
    s = np.int64(5)
    t = np.uint8(250)
    return x + s, x * t, (x + 1).dtype.str


def _int_div_zero(x, y):
    out = np.zeros_like(x)
    for k in range(3):
        out = out + x // y + x % y
    return out


def _int_min_div(x):
    return x // -1, x % -1, np.abs(x), -x


def _shifts_wide(x):
    acc = np.zeros_like(x)
    for k in range(10):
        acc = acc ^ (x << k) ^ (x >> k)
    return acc


def _bool_counts(x):
    c = 0
    for k in range(3):
        c = c + (x > k).sum()
    return c, (x > 0).astype(np.int8) * 127 + 1


def _f16_accumulate(x):
    acc = np.zeros_like(x)
    for k in range(6):
        acc = acc + x * 0.1
    return acc, acc.sum(), acc.mean(), x.sum()


def _f16_overflow(x):
    y = x
    for k in range(3):
        y = y * 2.0 + 1.0
    return y, np.isinf(y).sum()


def _f32_scalar_loop(x):
    s = x[0] * 0
    for k in range(x.shape[0]):
        s = s + x[k] * 0.1
    return s, type(s).__name__


def _f32_mixed_promote(x):
    a = x * np.float64(0.1)
    b = x + 0.1
    c = x.astype(np.float16) + x
    return a, b, c


def _int_float16_mix(x, h):
    return x + h, (x * h).dtype.str, x / 3


def _u8_neg_abs(x):
    return -x, np.abs(x.astype(np.int8)), x.astype(np.int8) // 2


twice(reg, "i8_loop_acc", _i8_loop_acc, lambda: (I8.copy(),),
      lambda: (I8.astype(np.int16),), lambda: (I8.copy()[::-1],))
twice(reg, "u8_sub_loop", _u8_sub_loop, lambda: (U8.copy(),),
      lambda: (U8.astype(np.uint16),))
twice(reg, "i16_mul_sum", _i16_mul_sum, lambda: (I16.copy(),),
      lambda: (I16.copy()[::-1],), lambda: (np.full(8, -32768, dtype=np.int16),))
twice(reg, "i8_python_int", _i8_python_int, lambda: (I8.copy(), 3),
      lambda: (I8.copy(), 127), lambda: (I8.copy(), 300),
      lambda: (I8.copy(), -129))
twice(reg, "i8_cumsum_wrap", _i8_cumsum_wrap, lambda: (I8.copy(),),
      lambda: (U8.copy(),))
twice(reg, "int_scalar_promote", _int_scalar_promote, lambda: (I8.copy(),),
      lambda: (U8.copy(),))
twice(reg, "int_div_zero", _int_div_zero,
      lambda: (I16.copy(), np.array([3, 0, -7, 0, 5, 1, -1, 2], dtype=np.int16)),
      lambda: (I16.copy(), np.full(8, 2, dtype=np.int16)))
twice(reg, "int_min_div", _int_min_div, lambda: (I8.copy(),), lambda: (I16.copy(),),
      lambda: (np.full(8, -128, dtype=np.int8),), lambda: (U8.copy(),))
twice(reg, "shifts_wide", _shifts_wide, lambda: (I8.copy(),), lambda: (U8.copy(),))
twice(reg, "bool_counts", _bool_counts, lambda: (I8.copy(),),
      lambda: (np.full(8, -128, dtype=np.int8),), lambda: (np.zeros(0, dtype=np.int8),))
twice(reg, "f16_accumulate", _f16_accumulate, lambda: (F16.copy(),),
      lambda: (F16.copy()[::-2],))
twice(reg, "f16_overflow", _f16_overflow, lambda: (F16.copy(),),
      lambda: (np.ones(3, dtype=np.float16),))
twice(reg, "f32_scalar_loop", _f32_scalar_loop, lambda: (F32.copy(),),
      lambda: (np.full(9, np.inf, dtype=np.float32),), lambda: (F32.copy()[::-1],),
      lambda: (F32[:1].copy(),))
twice(reg, "f32_mixed_promote", _f32_mixed_promote, lambda: (F32.copy(),),
      lambda: (np.array([np.inf, -0.0, 65504.0, 7e4, 3e38, -3e38, np.nan, 1e-45, 0.1],
                        dtype=np.float32),))
twice(reg, "int_float16_mix", _int_float16_mix, lambda: (I8.copy(), F16.copy()),
      lambda: (I16.copy(), F16.copy()))
twice(reg, "u8_neg_abs", _u8_neg_abs, lambda: (U8.copy(),))
