"""Round 40 (native half), NumPy scalars in tier 2: arithmetic on elements read one by
one (``x[k]`` is an ``np.int8``), where NumPy's *scalar* loops warn on integer overflow
("overflow encountered in scalar multiply", ``abs``/``-`` of the minimum, ``//`` by -1)
and on division by zero, unlike its array loops; int64 scalars past 2**63; float32
scalar overflow; scalars stored by a basic index into narrower integer arrays (NumPy
raises ``OverflowError`` through Python's int); Python ints beside int8 scalars (NEP 50).

    >>> def _i8_scalar_mul(x):
    ...     s = x[0]
    ...     for k in range(1, x.shape[0]):
    ...         s = s * x[k]
    ...     return s
"""

import numpy as np
from hostile_check import Programs
from round40_native_runs import twice

reg = Programs("round40_native")

# (4 elements: each scalar op of an int8 element is NumPy's own call in an objmode
# block, which Numba compiles at the kernel's first call, about 0.1-0.8 s each)
I8 = np.array([2, 3, 1, 2], dtype=np.int8)
I8_BIG = np.array([100, 0, -128, -1], dtype=np.int8)
I8_MUL = np.array([100, 3, 2, -128], dtype=np.int8)
I64 = np.array([3, 2**40, 7, 2**30], dtype=np.int64)
F32 = np.array([1.5, 2.0, 0.5, 3.0], dtype=np.float32)
F32_BIG = np.array([3e38, 2.0, 0.0, -3e38], dtype=np.float32)


def _i8_scalar_mul(x):
    s = x[0]
    for k in range(1, x.shape[0]):
        s = s * x[k]
    return s


def _i8_scalar_add_py(x):
    s = x[0]
    for k in range(x.shape[0]):
        s = s + 20
    return s


def _i8_scalar_abs_neg(x):
    out = np.zeros(x.shape[0], dtype=x.dtype)
    for k in range(x.shape[0]):
        out[k] = abs(x[k]) + (-x[k])
    return out


def _i8_scalar_div(x):
    out = np.zeros(x.shape[0], dtype=x.dtype)
    for k in range(x.shape[0] - 1):
        out[k] = x[k] // x[k + 1] + x[k] % x[k + 1]
    return out


def _i64_scalar_past(x):
    s = x[0]
    for k in range(x.shape[0]):
        s = s * x[k]
    return s, x.prod()


def _f32_scalar_overflow(x):
    s = x[0]
    for k in range(1, x.shape[0]):
        s = s * x[k] + x[k - 1] / x[k]
    return s


def _scalar_elem_times_py(x):
    out = np.zeros(x.shape[0], dtype=np.int64)
    for k in range(x.shape[0]):
        out[k] = x[k] * 1000
    return out


def _store_python_int(out, k):
    out[0] = k
    out[2:4] = k
    return out


def _store_elem_sum(x, out):
    for k in range(out.shape[0]):
        out[k] = x[k] + x[k + 1]
    return out


def _scalar_minus_one_div(x, d):
    s = x[0] * 0
    for k in range(x.shape[0]):
        s = s + x[k] // d[k]
    return s


twice(reg, "i8_scalar_mul", _i8_scalar_mul, lambda: (I8.copy(),), lambda: (I8_MUL.copy(),),
      lambda: (I8.astype(np.uint8),))
twice(reg, "i8_scalar_add_py", _i8_scalar_add_py, lambda: (I8.copy(),),
      lambda: (I8_BIG.copy(),))
twice(reg, "i8_scalar_abs_neg", _i8_scalar_abs_neg, lambda: (I8.copy(),),
      lambda: (I8_MUL.copy(),))
twice(reg, "i8_scalar_div", _i8_scalar_div, lambda: (I8.copy(),), lambda: (I8_BIG.copy(),))
twice(reg, "i64_scalar_past", _i64_scalar_past, lambda: (I8.astype(np.int64),),
      lambda: (I64.copy(),))
twice(reg, "f32_scalar_overflow", _f32_scalar_overflow, lambda: (F32.copy(),),
      lambda: (F32_BIG.copy(),))
twice(reg, "scalar_elem_times_py", _scalar_elem_times_py, lambda: (I8.copy(),),
      lambda: (I8_BIG.copy(),), lambda: (I8.astype(np.int16),))
twice(reg, "store_python_int", _store_python_int, lambda: (np.zeros(5, np.int8), 7),
      lambda: (np.zeros(5, np.int8), 300), lambda: (np.zeros(5, np.uint8), -1))
twice(reg, "store_elem_sum", _store_elem_sum, lambda: (I8.copy(), np.zeros(3, np.int8)),
      lambda: (I8_MUL.copy(), np.zeros(3, np.int8)),
      lambda: (I8.copy(), np.zeros(3, np.int16)), lambda: (I8_MUL.copy(), np.zeros(3, np.int16)))
twice(reg, "scalar_minus_one_div", _scalar_minus_one_div,
      lambda: (I8.copy(), np.full(4, 2, np.int8)),
      lambda: (I8_BIG.copy(), np.array([1, 1, -1, 0], np.int8)))
