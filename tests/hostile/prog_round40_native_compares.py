"""Round 40 (native half), Python ints out of a small int array's range in tier 2
(NEP 50, NumPy 2): comparisons ``x > 200`` of int8 (all False, not a wrapped -56),
``x == 300``, ``u8 > -1`` (all True), ``np.where(c, x, 300)`` (int16), ``np.maximum(x,
200)`` and ``x & -1`` of uint8 (OverflowError), ``x // 0`` (a warning, 0), int8 beside
uint8 (int16), int64 beside uint64 (float64), in loop nodes and counted.

    >>> def _compare_out_of_range(x):
    ...     return x > 200, x == 300, x < -129, x != 1000
"""

import numpy as np
from hostile_check import Programs
from round40_native_runs import twice

reg = Programs("round40_native")

I8 = np.array([100, -100, 127, -128, 3, 0, 55, -7], dtype=np.int8)
U8 = np.array([250, 3, 0, 255, 128, 7, 1, 200], dtype=np.uint8)


def _compare_out_of_range(x):
    return x > 200, x == 300, x < -129, x != 1000, x >= -1000


def _count_out_of_range(x):
    n = 0
    for k in range(3):
        n = n + (x > 200 - k).sum() + (x < -1).sum()
    return n


def _where_wide_int(x):
    return np.where(x > 0, x, 300), np.where(x > 0, 1000, x)


def _maximum_wide_int(x):
    return np.maximum(x, 200)


def _and_negative(x):
    return x & -1, x | -2


def _floor_zero_int(x):
    return x // 0, x % 0


def _mixed_small_ints(x, u):
    return x + u, x * u, (x - u).dtype.str, x > u


def _int64_uint64(x, u):
    return x + u, x < u


def _loop_compare_carried(x):
    acc = x
    for k in range(4):
        acc = np.where(acc > 100, acc - 100, acc + 50)
    return acc


twice(reg, "compare_out_of_range", _compare_out_of_range, lambda: (I8.copy(),),
      lambda: (U8.copy(),), lambda: (I8.astype(np.int16),))
twice(reg, "count_out_of_range", _count_out_of_range, lambda: (I8.copy(),),
      lambda: (U8.copy(),))
twice(reg, "where_wide_int", _where_wide_int, lambda: (I8.copy(),), lambda: (U8.copy(),))
twice(reg, "maximum_wide_int", _maximum_wide_int, lambda: (I8.copy(),),
      lambda: (U8.copy(),), lambda: (I8.astype(np.int16),))
twice(reg, "and_negative", _and_negative, lambda: (I8.copy(),), lambda: (U8.copy(),))
twice(reg, "floor_zero_int", _floor_zero_int, lambda: (I8.copy(),), lambda: (U8.copy(),))
twice(reg, "mixed_small_ints", _mixed_small_ints, lambda: (I8.copy(), U8.copy()),
      lambda: (U8.copy(), I8.copy()))
twice(reg, "int64_uint64", _int64_uint64,
      lambda: (I8.astype(np.int64), U8.astype(np.uint64)),
      lambda: (np.full(8, -1, np.int64), np.full(8, 2**63, np.uint64)))
twice(reg, "loop_compare_carried", _loop_compare_carried, lambda: (I8.copy(),),
      lambda: (U8.copy(),))
