"""Round 9, Python numbers passed into graphs as values (issue #16): ints that grow past
int64 between calls (NEP 50 then raises ``OverflowError`` for an int array and converts
for a float one), ``True`` where ``1`` was (an int8 array plus ``True`` stays int8, a bool
array plus ``True`` stays bool, ``x[True]`` adds an axis), ``np.int64``/``np.float32``
scalars where Python numbers were (they take part in promotion), float and int
subclasses whose operators are overridden, ``-0.0`` after ``0.0`` (equal, but not the
same value), NaN as a dict key (found by identity only), ``Fraction`` and ``Decimal``
(object arrays), ``IntEnum`` members, and Python-level arithmetic on the number that
overflows or raises. Each input set is called twice, then the first again, so a graph
specialised on one number must be guarded against the next."""

import enum
import math
from fractions import Fraction

import numpy as np
from hostile_check import Programs

reg = Programs("round9_numbers")
case = reg.case

X = np.array([1.5, -2.0, 0.0, 4.0])
XI = np.array([1, -2, 3, 100], dtype=np.int64)
XI8 = np.array([1, -2, 3, 100], dtype=np.int8)
XB = np.array([True, False, True])
XF32 = np.array([0.5, 1.5, -2.5], dtype=np.float32)
XZ = np.array([-0.0, 0.0, -0.0])
NAN = float("nan")


class Half(float):
    """A float whose ``*`` (either side) halves the other operand instead."""

    def __mul__(self, other):
        return other / 2

    __rmul__ = __mul__


class Tagged(float):
    """A float subclass that only carries a tag."""

    def __new__(cls, value, tag="t"):
        obj = super().__new__(cls, value)
        obj.tag = tag
        return obj

    def __deepcopy__(self, memo):
        return Tagged(float(self), self.tag)


class Neg(int):
    """An int whose ``+`` subtracts."""

    def __add__(self, other):
        return int(self) - other

    __radd__ = __add__


class Color(enum.IntEnum):
    RED = 1
    GREEN = 2


# ============================================================ big ints (NEP 50)

def _int_array_times_n(x, n):
    return x * n


case(_int_array_times_n, (XI, 3), (XI, 2 ** 62), (XI, 2 ** 63), (XI, -2 ** 63))


def _float_array_times_big(x, n):
    return x * n, type(n).__name__


case(_float_array_times_big, (X, 2), (X, 2 ** 70), (X, 2 ** 1024))


def _n_squared_into_int_array(x, n):
    m = n * n
    return x + m, m


case(_n_squared_into_int_array, (XI, 3), (XI, 2 ** 31), (XI, 2 ** 32))


def _int8_plus_python_int(x, n):
    return x + n


case(_int8_plus_python_int, (XI8, 1), (XI8, 127), (XI8, 128), (XI8, -129))


def _uint_minus_int(x, n):
    return x.astype(np.uint8) - n


case(_uint_minus_int, (XI8, 1), (XI8, -1), (XI8, 256))


def _big_int_shape(n):
    return np.zeros(n % 5), n // 3


case(_big_int_shape, (4,), (2 ** 65 + 3,), (-7,))


def _python_power_then_array(x, n):
    return x * (2 ** n), x.dtype


case(_python_power_then_array, (XI, 3), (XI, 62), (XI, 63), (X, 64))


# ============================================================ bool where int was

def _int8_plus_flag(x, k):
    return x + k, (x + k).dtype


case(_int8_plus_flag, (XI8, 1), (XI8, True), (XI8, np.True_))


def _bool_array_plus_k(b, k):
    return b + k


case(_bool_array_plus_k, (XB, True), (XB, 1), (XB, False))


def _index_by_k(x, k):
    return x[k]


case(_index_by_k, (X, 1), (X, True), (X, False), (X, np.int64(-1)))


def _shape_from_k(k):
    return np.zeros(k), np.ones((k, 2))


case(_shape_from_k, (1,), (True,), (np.int64(2),), (False,))


def _k_is_true(x, k):
    if k is True:
        return x * 10
    if k == 1:
        return x * 1
    return x


case(_k_is_true, (X, True), (X, 1), (X, 1.0), (X, np.True_))


def _type_of_k_in_text(x, k):
    return f"{k!r}:{type(k).__name__}", x * k


case(_type_of_k_in_text, (X, 1), (X, True), (X, 1.0), (X, np.float64(1.0)))


def _sum_of_bools(x, flags):
    s = sum(flags)
    return x * s, type(s).__name__


case(_sum_of_bools, (X, [True, True]), (X, [1, 1]), (X, [np.True_, True]))


# ============================================================ NumPy scalars vs Python numbers

def _int8_plus_np_int64(x, k):
    y = x + k
    return y, y.dtype


case(_int8_plus_np_int64, (XI8, 3), (XI8, np.int64(3)), (XI8, np.int8(3)))


def _float32_times_scalar(x, s):
    y = x * s
    return y, y.dtype


case(_float32_times_scalar, (XF32, 0.1), (XF32, np.float64(0.1)), (XF32, np.float32(0.1)),
     (XF32, np.float16(0.1)))


def _np_scalar_overflow(k):
    return k + 1, k * 2


case(_np_scalar_overflow, (np.int64(1),), (np.int64(2 ** 63 - 1),), (np.int8(127),))


def _np_scalar_in_python_math(x, k):
    return x * math.sqrt(k), math.floor(k)


case(_np_scalar_in_python_math, (X, 4), (X, np.float32(4.0)), (X, np.int64(9)))


def _isinstance_float_of_k(x, k):
    if isinstance(k, float):
        return x + k
    return x - k


case(_isinstance_float_of_k, (X, 1.0), (X, np.float64(1.0)), (X, np.float32(1.0)),
     (X, 1))


def _int_of_np_float(x, k):
    i = int(k)
    return x[:i], i


case(_int_of_np_float, (X, 2.9), (X, np.float64(-1.5)), (X, np.float32(3.5)))


# ============================================================ subclasses

def _half_times_array(x, h):
    return h * x, x * h


case(_half_times_array, (X, 3.0), (X, Half(3.0)))


def _tagged_value(x, t):
    return x * t, type(t).__name__, getattr(t, "tag", None)


case(_tagged_value, (X, 2.0), (X, Tagged(2.0, "a")), (X, Tagged(2.0, "b")))


def _neg_plus(x, n):
    return x[: n + 1], n + 1


case(_neg_plus, (X, 2), (X, Neg(2)))


def _intenum_value(x, c):
    return x * c, f"{c}", str(c.name) if isinstance(c, Color) else None


case(_intenum_value, (X, 1), (X, Color.RED), (X, Color.GREEN))


def _enum_as_index(x, c):
    return x[c], np.full(c, 1.5)


case(_enum_as_index, (X, 2), (X, Color.GREEN))


# ============================================================ -0.0 and NaN

def _plus_zero(x, z):
    return x + z


case(_plus_zero, (XZ, 0.0), (XZ, -0.0))


def _copysign_of_zero(x, z):
    return x * math.copysign(1.0, z), 1.0 / x[0] if z == 0 else None


case(_copysign_of_zero, (X, 0.0), (X, -0.0))


def _zero_in_python_division(x, z):
    try:
        q = 1.0 / z
    except ZeroDivisionError as e:
        return x, str(e)
    return x * q, None


case(_zero_in_python_division, (X, 2.0), (X, 0.0), (X, -0.0))


def _repr_of_zero(x, z):
    print(z, repr(z), f"{z:+.1f}")
    return x - z


case(_repr_of_zero, (XZ, 0.0), (XZ, -0.0))


def _nan_key(x, d, k):
    return x * d.get(k, 0.5)


case(_nan_key, (X, {NAN: 2.0}, NAN), lambda: (X.copy(), {NAN: 2.0}, float("nan")))


def _nan_in_list(x, items, k):
    return x * (k in items), items.count(k)


case(_nan_in_list, (X, [NAN, 1.0], NAN), lambda: (X.copy(), [NAN, 1.0], float("nan")))


def _nan_compares(x, k):
    if k != k:
        return x * 0
    if k > 0:
        return x
    return -x


case(_nan_compares, (X, 1.0), (X, NAN), (X, -1.0), (X, np.float64("nan")))


def _nan_as_dict_key_written(d, x, k):
    d[k] = x.sum()
    return len(d)


case(_nan_as_dict_key_written, ({}, X, NAN), lambda: ({NAN: 0.0}, X.copy(), NAN))


# ============================================================ other number kinds

def _fraction_times_array(x, q):
    y = x * q
    return y, y.dtype


case(_fraction_times_array, (X, 0.5), (X, Fraction(1, 3)))


def _complex_into_float_array(x, c):
    y = x + c
    return y, y.dtype


case(_complex_into_float_array, (X, 1.0), (X, 1j), (X, complex(2, 0)))


def _round_python(x, f):
    r = round(f)
    return x * r, r, type(r).__name__


case(_round_python, (X, 2.5), (X, 3.5), (X, np.float64(2.5)), (X, -0.5))


def _int_of_special(x, f):
    try:
        return x[: int(f)]
    except (ValueError, OverflowError) as e:
        return type(e).__name__, str(e)


case(_int_of_special, (X, 2.0), (X, NAN), (X, float("inf")))


def _float_overflow_in_python(x, f):
    try:
        g = f ** 2
    except OverflowError as e:
        return x, e.args
    return x * g


case(_float_overflow_in_python, (X, 3.0), (X, 1e200))


def _math_exp_of_k(x, k):
    return x * math.exp(k)


case(_math_exp_of_k, (X, 1.0), (X, 1000.0), (X, -1000.0))


def _divmod_zero(x, k):
    q, r = divmod(7.0, k)
    return x * q + r


case(_divmod_zero, (X, 2.0), (X, 0.0), (X, -3.0))


def _slice_by_float(x, k):
    return x[:k]


case(_slice_by_float, (X, 2), (X, 2.0), (X, np.int32(3)))


def _full_of_float_size(k):
    return np.full(k, k)


case(_full_of_float_size, (3,), (3.0,), (np.int16(2),))


def _negative_int_power(x, p):
    return x ** p


case(_negative_int_power, (XI, 2), (XI, -1), (X, -1), (XI, 2.0))


def _shift_by_k(x, k):
    return x << k, 1 << k


case(_shift_by_k, (XI, 2), (XI, 64), (XI, -1))


def _accumulate_np_int8(x, k):
    for _ in range(3):
        k = k + k
    return x + k, type(k).__name__


case(_accumulate_np_int8, (X, 50), (X, np.int8(50)), (X, np.uint8(50)))


def _hash_of_equal_numbers(x, k):
    d = {1: "int", 1.0: "float", True: "bool"}   # noqa: F601 (one key, the last value)
    return x * k, d[k], len({k, 1, 1.0})   # noqa: B033


case(_hash_of_equal_numbers, (X, 1), (X, 1.0), (X, True), (X, np.int64(1)))


def _float_mod_zero_caught(x, z):
    try:
        return x * (5.5 % z)
    except ZeroDivisionError as e:
        return str(e)


case(_float_mod_zero_caught, (X, 2.0), (X, 3.0), (X, 0.0), (X, -0.0))


def _int_reciprocal_caught(x, k):
    try:
        return x * (1.0 / (k - 3))
    except ZeroDivisionError as e:
        return str(e)


case(_int_reciprocal_caught, (X, 5), (X, 7), (X, 3), (X, 9))


def _float_power_overflow_uncaught(x, f):
    return x * f ** 300


case(_float_power_overflow_uncaught, (X, 1.5), (X, 1.25), (X, 20.0), (X, 1.1))


def _negative_base_fractional_power(x, b):
    p = b ** 0.5
    return x * abs(p), type(p).__name__


case(_negative_base_fractional_power, (X, 4.0), (X, 9.0), (X, -4.0), (X, 16.0))


# ============================================================ ints and floats typed by NumPy by their size
# (an int argument or a sum of it past int64 is uint64, float or object to NumPy)


def _full_of_int(k):
    a = np.full(3, k)
    return a, a.dtype

case(_full_of_int, (5,), (7,), (2 ** 63,), (2 ** 64,), (-2 ** 63 - 1,))


def _array_of_int(k):
    a = np.array([k, 1])
    return a, a.dtype

case(_array_of_int, (5,), (7,), (2 ** 63,), (2 ** 64,))


def _asarray_of_int(x, k):
    return x + np.asarray(k), np.asarray(k).dtype

case(_asarray_of_int, (XI, 5), (XI, 7), (XI, 2 ** 63), (XI, 2 ** 65))


def _np_int64_of_k(x, k):
    try:
        return x * np.int64(k)
    except OverflowError as e:
        return str(e)

case(_np_int64_of_k, (XI, 5), (XI, 7), (XI, 2 ** 63))


def _uint8_of_k(x, k):
    try:
        return x + np.uint8(k)
    except OverflowError as e:
        return str(e)

case(_uint8_of_k, (XI, 5), (XI, 7), (XI, 256), (XI, -1))


def _k_times_big(x, k):
    return x * (k * 2 ** 62)

case(_k_times_big, (XI, 1), (XI, 2), (XI, 3), (X, 4))


def _float_of_k(x, k):
    return x * float(k)

case(_float_of_k, (X, 5), (X, 7), (X, 2 ** 1030))


def _k_as_fill_float(x, z):
    a = np.full(2, z)
    return a, a.dtype, x * z

case(_k_as_fill_float, (X, 1.5), (X, 2.5), (X, float("inf")), (X, -0.0))


def _zeros_like_fill(x, k):
    return np.zeros_like(x) + k, (np.zeros_like(XI) + k).dtype

case(_zeros_like_fill, (X, 3), (X, 4), (X, 2 ** 64))


def _list_of_k_to_array(x, k):
    return np.array([k, k + 1]) * x[:2]

case(_list_of_k_to_array, (X, 3), (X, 4), (X, 2 ** 63 - 1))


def _sym_float_in_list(x, z):
    vals = [z, 2 * z]
    return np.array(vals), x * vals[1]

case(_sym_float_in_list, (X, 1.5), (X, 2.5), (X, -0.0), (X, float("nan")))


def _sym_float_math(x, z):
    return x * math.fsum([z, z, 0.1]), math.isfinite(z)

case(_sym_float_math, (X, 1.5), (X, 2.5), (X, float("inf")))


def _int_k_pow(x, k):
    return x * (k ** 40)

case(_int_k_pow, (X, 2), (X, 3), (XI, 2), (XI, 3))


def _neg_k_pow(x, k):
    return x * (2 ** k)

case(_neg_k_pow, (X, 2), (X, 3), (X, -2), (X, 70))


def _k_floor_div_neg(x, k):
    return x[: -k // 2], -k // 2

case(_k_floor_div_neg, (X, 2), (X, 3), (X, 5), (X, 9))


def _k_mod_neg(x, k):
    return x * (k % -3), k % -3

case(_k_mod_neg, (X, 2), (X, 3), (X, 5), (X, 7))


def _z_int_trunc(x, z):
    return x[: int(z)], int(z)

case(_z_int_trunc, (X, 2.5), (X, 1.5), (X, -1.5), (X, 3.999))


def _z_compare_zero(x, z):
    return x * (z == 0.0), z < 0

case(_z_compare_zero, (X, 1.5), (X, 2.5), (X, 0.0), (X, -0.0))


def _z_divide_array_then_python(x, z):
    y = x / z
    return y, 1 / z

case(_z_divide_array_then_python, (X, 1.5), (X, 2.5), (X, 0.0))


def _z_pow_neg(x, z):
    try:
        return x * (0.0 ** z)
    except ZeroDivisionError as e:
        return str(e)

case(_z_pow_neg, (X, 1.5), (X, 2.5), (X, -1.0), (X, 0.5))


def _k_pow_neg_int(x, k):
    return x * (10 ** -k), type(10 ** -k).__name__

case(_k_pow_neg_int, (X, 2), (X, 3), (X, 0), (X, 5))


def _z_float32_array(x, z):
    y = x.astype(np.float32) * z
    return y, y.dtype

case(_z_float32_array, (X, 1.5), (X, 2.5), (X, 1e300), (X, 1e-300))


def _k_int8_array(x, k):
    try:
        y = x.astype(np.int8) + k
        return y, y.dtype
    except OverflowError as e:
        return str(e)

case(_k_int8_array, (X, 2), (X, 3), (X, 127), (X, 128), (X, 300))


def _k_float16(x, z):
    y = x.astype(np.float16) + z
    return y, y.dtype

case(_k_float16, (X, 1.5), (X, 2.5), (X, 70000.0))


def _z_complex_array(x, z):
    y = (x + 1j) * z
    return y, y.dtype

case(_z_complex_array, (X, 1.5), (X, 2.5), (X, float("nan")))


def _full_of_derived(k):
    a = np.full(3, k * 4)
    return a, a.dtype

case(_full_of_derived, (5,), (7,), (2 ** 61,), (2 ** 62 + 3,))


def _array_of_sum(k):
    a = np.array([k + k, 1])
    return a, a.dtype

case(_array_of_sum, (5,), (7,), (2 ** 62,))


def _int_array_plus_derived(x, k):
    try:
        y = x + (k + 2 ** 62)
        return y, y.dtype
    except OverflowError as e:
        return str(e)

case(_int_array_plus_derived, (XI, 5), (XI, 7), (XI, 2 ** 62))


def _arange_derived(k):
    return np.arange(k * 2, k * 2 + 2).dtype

case(_arange_derived, (5,), (7,), (2 ** 62,))


# ============================================================ identity of numbers from outside
# (`k is ONE`, `a is b`: equal values may be one object or two; NaN found by identity)
ONE = 1.5
BIG = 10 ** 30


def _is_global_nan(x, k):
    return x * (k is NAN)

case(_is_global_nan, (X, NAN), lambda: (X.copy(), float("nan")))


def _is_global_float(x, k):
    return x * (k is ONE), k == ONE

case(_is_global_float, (X, ONE), lambda: (X.copy(), float("1.5")))


def _is_global_big(x, k):
    return x * (k is BIG)

case(_is_global_big, (X, BIG), lambda: (X.copy(), int("1" + "0" * 30)))


def _two_args_same_float(x, a, b):
    return x * (a is b), a == b

case(_two_args_same_float, lambda: (X.copy(), ONE, ONE), lambda: (X.copy(), ONE, float("1.5")))


def _float_in_list_identity(x, items, k):
    return x * items.index(k), k in items

case(_float_in_list_identity, lambda: (X.copy(), [NAN, ONE], ONE), lambda: (X.copy(), [NAN, float("nan")], NAN))


def _nan_tuple_eq(x, t, k):
    return x * (t == (k,)), (k,) == (NAN,)

case(_nan_tuple_eq, lambda: (X.copy(), (NAN,), NAN), lambda: (X.copy(), (NAN,), float("nan")))


def _nan_dict_key_lookup(x, d, k):
    try:
        return x * d[k]
    except KeyError as e:
        return repr(e)

case(_nan_dict_key_lookup, lambda: (X.copy(), {NAN: 2.0}, NAN), lambda: (X.copy(), {NAN: 2.0}, float("nan")))


def _nan_set(x, s, k):
    return x * (k in s), len(s | {k})

case(_nan_set, lambda: (X.copy(), {NAN}, NAN), lambda: (X.copy(), {NAN}, float("nan")))


def _nan_list_eq(x, a, b):
    return x * (a == b), a.count(b[0])

case(_nan_list_eq, lambda: (X.copy(), [NAN], [NAN]), lambda: (X.copy(), [NAN], [float("nan")]))
