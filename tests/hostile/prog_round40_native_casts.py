"""Round 40 (native half), casts and transcendental float32 calls in tier 2: floats cast
to int8/uint8/int64 out of range, NaN and infinities cast to ints (NumPy warns
"invalid value encountered in cast"; a C cast of them is undefined), negative floats
to unsigned, float32 ``exp``/``log``/``sqrt`` at overflow, denormals, NaN and signed
zeros (the kernel's own float32 ``exp``, fastexp.py: these three compared within the
stated 4-ulp tolerance, ``ulps_twice``, not bit for bit), ``sign``, true division of ints by
zero, ``%`` and ``//`` of negative ints, integer powers by an array of exponents.

    >>> def _cast_int8(x):
    ...     return (x * 100.0).astype(np.int8), x.astype(np.uint8)
"""

import numpy as np
from hostile_check import Programs
from round40_native_runs import twice, ulps_twice

reg = Programs("round40_native")

F = np.array([0.5, -1.5, 1.25, 2.0, -0.0, 0.0, 1.0, -2.75])
F_BAD = np.array([3.0, -3.0, 1e10, -1e10, np.nan, np.inf, -np.inf, 2.6])
F32 = np.array([0.5, -1.5, 10.0, 80.0, -80.0, 1e-3, 0.0, -0.0], dtype=np.float32)
F32_BAD = np.array([89.0, 100.0, -104.0, -110.0, np.nan, np.inf, -np.inf, 1e-45],
                   dtype=np.float32)
I64 = np.array([7, -7, 3, -3, 0, 100, -100, 1], dtype=np.int64)
D = np.array([2, 2, -2, -2, 5, 7, -7, 3], dtype=np.int64)
D0 = np.array([2, 0, -2, 0, 5, 7, -7, 0], dtype=np.int64)


def _cast_int8(x):
    return (x * 100.0).astype(np.int8), x.astype(np.uint8), x.astype(np.int16)


def _cast_int64_loop(x):
    acc = np.zeros(x.shape[0], dtype=np.int64)
    for k in range(3):
        acc = acc + (x * (k + 1.0)).astype(np.int64)
    return acc


def _cast_bool(x):
    return x.astype(np.bool_), (x != 0).astype(np.float32), x.astype(np.float32)


def _f32_exp(x):
    return np.exp(x), np.exp(x * np.float32(0.5)) + np.float32(1.0)


def _f32_log_sqrt(x):
    return np.log(x), np.sqrt(x), np.log(x * x + np.float32(1.0))


def _f32_exp_loop(x):
    y = x
    for k in range(3):
        y = np.exp(y * np.float32(0.01)) - np.float32(1.0)
    return y


def _sign_cases(x):
    return np.sign(x), np.abs(x), np.negative(x), np.positive(x)


def _int_true_divide(a, b):
    return a / b, b / a, (a / b).sum()


def _int_mod_floor(a, b):
    return a % b, a // b, np.fmod(a, b), np.remainder(-a, b)


def _int_array_power(a, b):
    return a ** np.abs(b), (a.astype(np.float64) ** b)


def _int_negative_array_power(a, b):
    return a ** b


twice(reg, "cast_int8", _cast_int8, lambda: (F.copy(),), lambda: (F_BAD.copy(),),
      lambda: (np.full(8, -1.0),))
twice(reg, "cast_int64_loop", _cast_int64_loop, lambda: (F.copy(),), lambda: (F_BAD.copy(),),
      lambda: (np.full(8, 9.3e18),))
twice(reg, "cast_bool", _cast_bool, lambda: (F.copy(),), lambda: (F_BAD.copy(),))
ulps_twice(reg, "f32_exp", _f32_exp, lambda: (F32.copy(),), lambda: (F32_BAD.copy(),))
ulps_twice(reg, "f32_log_sqrt", _f32_log_sqrt, lambda: (np.abs(F32) + np.float32(0.5),),
      lambda: (F32_BAD.copy(),), lambda: (F32.copy(),))
ulps_twice(reg, "f32_exp_loop", _f32_exp_loop, lambda: (F32.copy(),), lambda: (F32_BAD.copy(),))
twice(reg, "sign_cases", _sign_cases, lambda: (F.copy(),), lambda: (F_BAD.copy(),),
      lambda: (I64.copy(),))
twice(reg, "int_true_divide", _int_true_divide, lambda: (I64.copy(), D.copy()),
      lambda: (I64.copy(), D0.copy()))
twice(reg, "int_mod_floor", _int_mod_floor, lambda: (I64.copy(), D.copy()),
      lambda: (I64.copy(), D0.copy()))
twice(reg, "int_array_power", _int_array_power, lambda: (I64.copy(), D.copy()),
      lambda: (D.copy(), I64.copy()))
twice(reg, "int_negative_array_power", _int_negative_array_power,
      lambda: (I64.copy(), np.abs(D)), lambda: (I64.copy(), D.copy()))
