"""Numerics: -0.0, inf, NaN, integer overflow (int8/uint8), float16, bool arrays, complex,
NEP 50 promotion with Python scalars and NumPy scalars, ``x ** 0.5`` of -inf and -0.0
(``**`` takes ``sqrt``, ``np.power`` does not), integer division by zero. Results must
be bit for bit plain NumPy's, with its warnings and its errors."""

import math

import numpy as np
from hostile_check import Programs

reg = Programs("numerics")
case = reg.case

SPECIAL = np.array([-np.inf, -1.0, -0.0, 0.0, 1.0, np.inf, np.nan])
SPECIAL32 = SPECIAL.astype(np.float32)
I8 = np.array([-128, -1, 0, 1, 127], dtype=np.int8)
U8 = np.array([0, 1, 128, 255], dtype=np.uint8)
I64 = np.array([-7, -1, 0, 3, 7], dtype=np.int64)
F16 = np.array([0.1, 1.0, 65504.0, -65504.0, 6e-8], dtype=np.float16)
B = np.array([True, False, True, True])
Z = np.array([1 + 2j, -0.0 - 1j, np.inf + 0j, complex(np.nan, 1)], dtype=np.complex128)
NAN = float("nan")


# -- signed zero ------------------------------------------------------------------------

def _times_negzero(x):
    return x * -0.0, x * 0.0


case(_times_negzero, (SPECIAL,), (np.ones(3),))


def _negzero_plus_zero(x):
    return x + 0.0, x - 0.0, 0.0 - x, -x


case(_negzero_plus_zero, (np.array([-0.0, 0.0]),))


def _negzero_literal(x):
    return x + (-0.0), x * (0.0 * -1)


case(_negzero_literal, (np.array([-0.0, 0.0, 1.0]),))


def _maximum_signed_zero(x):
    return np.maximum(x, 0.0), np.minimum(x, -0.0), np.fmax(x, 0.0)


case(_maximum_signed_zero, (np.array([-0.0, 0.0, np.nan]),))


def _relu_variants(x):
    return np.maximum(x, 0), x * (x > 0), np.where(x > 0, x, 0.0), np.clip(x, 0, None)


case(_relu_variants, (SPECIAL,))


def _sign_and_copysign(x):
    return np.sign(x), np.copysign(1.0, x), np.signbit(x)


case(_sign_and_copysign, (SPECIAL,))


def _python_negzero(x, s):
    return x + s, math.copysign(1.0, s * 1.0), s == 0.0, str(s)


case(_python_negzero, (SPECIAL, -0.0), (SPECIAL, 0.0))


def _abs_negzero(x):
    return np.abs(x), abs(x[2])


case(_abs_negzero, (SPECIAL,))


def _divide_by_inf(x):
    return -1.0 / np.inf * x, x / -np.inf


case(_divide_by_inf, (np.array([1.0, -1.0, 0.0]),))


def _round_negative(x):
    return np.round(x), np.rint(x), np.trunc(x), np.floor(x), np.ceil(x)


case(_round_negative, (np.array([-0.4, -0.5, 0.5, 1.5, 2.5, -2.5]),))


def _sum_of_negzeros(x):
    return x.sum(), np.add.reduce(x), x.prod(), x.mean()


case(_sum_of_negzeros, (np.array([-0.0, -0.0]),), (np.array([-0.0]),))


# -- inf and NaN ------------------------------------------------------------------------

def _inf_arith(x):
    return x - x, x * 0, x / x


case(_inf_arith, (SPECIAL,))


def _overflow_to_inf(x):
    return np.exp(x * 1000), x * np.float32(3e38)


case(_overflow_to_inf, (SPECIAL32,), (np.ones(2, np.float32),))


def _log_of_zero(x):
    return np.log(x), np.log1p(-x), np.log2(np.abs(x))


case(_log_of_zero, (SPECIAL,))


def _nan_comparisons(x):
    return x == x, x != x, x < np.nan, np.isnan(x).sum()


case(_nan_comparisons, (SPECIAL,))


def _nan_reductions(x):
    return x.max(), x.min(), np.nanmax(x), np.argmax(x), np.argmin(x), np.nanargmax(x)


case(_nan_reductions, (SPECIAL,), (SPECIAL[:-1],))


def _nan_fmax(x):
    return np.fmax(x, 1.0), np.maximum(x, 1.0), np.fmin.reduce(x)


case(_nan_fmax, (SPECIAL,))


def _python_nan_identity(x):
    lst = [NAN]
    return NAN in lst, NAN == NAN, x * NAN


case(_python_nan_identity, (np.ones(2),))


def _python_max_nan(x):
    return max(NAN, 1.0), max(1.0, NAN), min(NAN, x.shape[0])


case(_python_max_nan, (np.ones(2),))


def _sort_with_nan(x):
    return np.sort(x), np.argsort(x), np.unique(x)


case(_sort_with_nan, (SPECIAL[::-1].copy(),))


def _nan_to_num(x):
    return np.nan_to_num(x), np.nan_to_num(x, nan=-1.0, posinf=9.0)


case(_nan_to_num, (SPECIAL,))


def _nan_in_clip(x):
    return np.clip(x, -0.5, 0.5), np.sign(np.nan)


case(_nan_in_clip, (SPECIAL,))


def _nan_cast_to_int(x):
    return x[1:5].astype(np.int32), x.astype(np.int64)


case(_nan_cast_to_int, (SPECIAL,))


def _float_equality_constant_folding(x):
    a = 0.1 + 0.2
    return x * a, a == 0.3, a


case(_float_equality_constant_folding, (np.ones(2),))


# -- integer overflow ------------------------------------------------------------------

def _int8_wrap(x):
    return x + np.int8(1), x * 2, -x, np.abs(x)


case(_int8_wrap, (I8,))


def _int8_python_int(x):
    return x + 1, x - 1, x * 3


case(_int8_python_int, (I8,))


def _int8_python_int_out_of_range(x):
    return x + 1000


case(_int8_python_int_out_of_range, (I8,))


def _uint8_negative_python_int(x):
    return x + (-1)


case(_uint8_negative_python_int, (U8,))


def _uint8_minus_one(x):
    return x - 1, x - np.uint8(1), 0 - x


case(_uint8_minus_one, (U8,))


def _uint8_plus_300(x):
    return x + 300


case(_uint8_plus_300, (U8,))


def _numpy_scalar_overflow_warns(x):
    a = np.int8(127) + np.int8(1)
    return x + a, a


case(_numpy_scalar_overflow_warns, (I8,))


def _int8_min_floordiv(x):
    return x // -1, np.int8(-128) // np.int8(-1)


case(_int8_min_floordiv, (I8,))


def _int64_overflow(x):
    return x + np.iinfo(np.int64).max, x * (2 ** 62)


case(_int64_overflow, (I64,))


def _python_int_too_big(x):
    return x + 2 ** 64


case(_python_int_too_big, (I64,))


def _uint64_int64_mix(x):
    return x.astype(np.uint64) + np.int64(1), (x.astype(np.uint64) + x).dtype


case(_uint64_int64_mix, (np.arange(3, dtype=np.int64),))


def _int_sum_dtypes(x):
    return x.sum(), x.cumsum(), x.prod(), x.mean(), np.add.reduce(x)


case(_int_sum_dtypes, (I8,), (U8,), (np.array([True, False]),))


def _shape_int_arith(x):
    n = x.shape[0]
    return n * 2 ** 62, (n - 10) // 3, (n - 10) % 3, -n // 2


case(_shape_int_arith, (I8,))


def _astype_wrap(x):
    return x.astype(np.int8), x.astype(np.uint8)


case(_astype_wrap, (np.array([200.0, -1.0, 300.5]),), (np.array([200, -1, 300]),))


# -- float16 ---------------------------------------------------------------------------

def _f16_overflow(x):
    return x * 2, x + 65504, x.astype(np.float16) * np.float16(2)


case(_f16_overflow, (F16,))


def _f16_python_float(x):
    return x + 0.2, (x + 0.2).dtype, x + 1e5


case(_f16_python_float, (F16,))


def _f16_reductions(x):
    return x.sum(), x.mean(), np.cumsum(x), x.var()


case(_f16_reductions, (F16[:2],), (np.full(1000, 0.1, np.float16),))


def _f16_scalar(x):
    s = np.float16(0.1) + 0.2
    return x * s, s, type(s).__name__


case(_f16_scalar, (F16,))


def _f16_subnormal(x):
    return x / np.float16(1000), np.float16(6e-8) / 2


case(_f16_subnormal, (F16,))


# -- bool arrays -----------------------------------------------------------------------

def _bool_add(b):
    return b + b, b * b, b.sum(), b.mean(), np.add.reduce(b)


case(_bool_add, (B,))


def _bool_subtract(b):
    return b - b


case(_bool_subtract, (B,))


def _bool_negative(b):
    return -b


case(_bool_negative, (B,))


def _bool_invert_xor(b):
    return ~b, b ^ True, b & 1, b | 0, b * 1.5, b + 1


case(_bool_invert_xor, (B,))


def _bool_index(x, b):
    return x[b], x[~b].sum(), np.where(b, x, -x)


case(_bool_index, (np.arange(4.0), B))


def _bool_arith_python(b):
    return True + True, b.any() + b.all(), (b > 0).dtype


case(_bool_arith_python, (B,))


# -- complex ---------------------------------------------------------------------------

def _complex_basic(z):
    return np.sqrt(z), abs(z), z.conj(), np.angle(z), z * -0.0


case(_complex_basic, (Z,))


def _complex_from_real(x):
    return np.sqrt(x + 0j), np.sqrt(x.astype(complex)), (x + 1j).dtype


case(_complex_from_real, (SPECIAL,))


def _complex_promotion(x):
    return x.astype(np.float32) + 1j, (x.astype(np.complex64) * 2.5).dtype, \
        np.float32(1) + 1j


case(_complex_promotion, (np.ones(2),))


def _complex_exp(z):
    return np.exp(1j * np.pi * z.real), np.exp(z)


case(_complex_exp, (Z[:2],))


def _complex_parts(z):
    r = z.real
    r[0] = 100.0
    return z, np.real(z), np.imag(z)


case(_complex_parts, (Z,))


def _complex_reduce(z):
    return z.sum(), z.prod(), np.abs(z).max(), z.mean()


case(_complex_reduce, (Z[:2],), (Z,))


# -- NEP 50 ----------------------------------------------------------------------------

def _nep50_python_float(x):
    return x * 0.1, x + 1.0, x / 3


case(_nep50_python_float, (np.ones(3, np.float32),), (np.ones(3, np.float16),),
     (np.ones(3, np.int32),))


def _nep50_numpy_float64(x):
    return x * np.float64(0.1), x + np.float32(1.0)


case(_nep50_numpy_float64, (np.ones(3, np.float32),), (np.ones(3, np.float16),))


def _nep50_scalar_scalar(x):
    a = np.float32(3) + 3.0
    b = np.float32(3) + np.float64(3)
    c = np.int8(3) + 300
    return x * a, type(a).__name__, type(b).__name__, c


case(_nep50_scalar_scalar, (np.ones(2, np.float32),))


def _nep50_int_big_python(x):
    return x * 2 ** 60


case(_nep50_int_big_python, (np.ones(2, np.float32),), (np.ones(2, np.int32),))


def _nep50_int32_int64_scalar(x):
    return x + np.int64(1), x + 1, x + np.int32(1)


case(_nep50_int32_int64_scalar, (np.ones(2, np.int32),))


def _nep50_0d_array(x):
    return x + np.array(1.0), x + np.array(1.0, np.float32), x * np.float64(2.0)


case(_nep50_0d_array, (np.ones(2, np.float32),))


def _nep50_reduction_result(x):
    s = x.sum()              # a float32 scalar
    return x * s, s * 0.1, type(s * 0.1).__name__


case(_nep50_reduction_result, (np.ones(2, np.float32),))


def _nep50_shape_times_array(x):
    return x * x.shape[0], x / len(x), x * (1.0 / len(x))


case(_nep50_shape_times_array, (np.ones(3, np.float16),), (np.ones(3, np.int8),))


def _nep50_python_complex(x):
    return x * 1j, x + (1 + 0j)


case(_nep50_python_complex, (np.ones(2, np.float32),), (np.ones(2, np.int8),))


def _nep50_comparison_out_of_range(x):
    return x < 1000, x == 300, x > -1


case(_nep50_comparison_out_of_range, (U8,), (I8,))


# -- powers ----------------------------------------------------------------------------

def _pow_half(x):
    return x ** 0.5, np.power(x, 0.5), np.sqrt(x)


case(_pow_half, (SPECIAL,), (SPECIAL32,))


def _pow_special_exponents(x):
    return x ** 2, x ** -1, x ** 1, x ** 0, x ** 3, x ** -0.5


case(_pow_special_exponents, (SPECIAL,))


def _pow_int_negative(x):
    return x ** -1


case(_pow_int_negative, (I64,))


def _pow_int(x):
    return x ** 2, x ** 0, x ** 3, np.power(x, 2)


case(_pow_int, (I8,), (I64,))


def _pow_python_scalar_base(x):
    return 2 ** x, 2.0 ** x, (-8.0) ** (1 / 3)


case(_pow_python_scalar_base, (np.array([-1.0, 0.0, 0.5]),))


def _pow_int_scalar_exp(x):
    return np.int64(2) ** -1


case(_pow_int_scalar_exp, (I64,))


def _pow_inplace(x):
    x **= 0.5
    return x


case(_pow_inplace, (SPECIAL,))


def _square_vs_mul(x):
    return x ** 2 - x * x, x ** 3 - x * x * x


case(_square_vs_mul, (np.array([1e200, 3.3, -7.1e-200]),), (SPECIAL32,))


# -- division --------------------------------------------------------------------------

def _int_floordiv_zero(x):
    return x // 0, x % 0, np.divmod(x, 0)


case(_int_floordiv_zero, (I64,), (I8,))


def _int_truediv_zero(x):
    return x / 0, x / np.zeros_like(x)


case(_int_truediv_zero, (I64,))


def _python_int_div_zero(x):
    return x.shape[0] // (x.shape[0] - 5)


case(_python_int_div_zero, (I64,))


def _numpy_scalar_div_zero(x):
    return np.int64(1) // np.int64(0), np.float64(1.0) / 0.0, x.sum() / 0


case(_numpy_scalar_div_zero, (I64,))


def _float_floordiv_mod(x):
    return x // 0.0, x % 0.0, np.fmod(x, 0.0), np.remainder(x, 2.0), x % -2.0


case(_float_floordiv_mod, (SPECIAL,))


def _negative_modulo(x):
    return x % 3, np.fmod(x, 3), x // 3, -7 % 3, -7 // 3


case(_negative_modulo, (I64,))


def _divide_by_power_of_two(x):
    return x / 4, x / 0.25, x / 3, x / 1e-300, x / 2.0 ** -1022


case(_divide_by_power_of_two, (np.array([1e-308, 5e-324, 1.0, -3.0]),),
     (np.array([1e-38, 1e-45, 1.0], np.float32),))


# -- rounding and conversion -----------------------------------------------------------

def _python_round(x):
    s = x.sum()
    return round(s), round(float(s)), round(s, 1), type(round(s)).__name__


case(_python_round, (np.array([1.25, 1.25]),), (np.array([0.5, 2.0]),))


def _float_of_scalar(x):
    return float(x[0]), int(x[1]), bool(x[2]), complex(x[0])


case(_float_of_scalar, (np.array([1.5, -2.7, 0.0]),), (np.array([1.5, -2.7, 0.0], np.float32),))


def _float32_rounding(x):
    return x + np.float32(16777216), np.float32(16777217), x.astype(np.float32) * 3


case(_float32_rounding, (np.ones(2, np.float32),))


def _mixed_int_float_arrays(a, b):
    return a + b, (a * b).dtype, a / b, a // b


case(_mixed_int_float_arrays, (I64, np.ones(5, np.float32)),
     (np.ones(5, np.int16), np.ones(5, np.float16)))


def _tiny_variance(x):
    return x.var(), x.std(), np.var(x, ddof=1)


case(_tiny_variance, (np.array([1e16, 1e16 + 2, 1e16 + 4]),), (np.array([1.0]),))
