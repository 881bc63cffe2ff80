"""Round 5, numbers: Python numbers as graph inputs (``0.9 ** t`` with t an int, a
bool, a NumPy int, an int beyond int64, a float subclass; ``True`` vs ``1``), NEP 50
promotion against float32/int8 arrays, negative zero, NaN as dict keys, integer
overflow of Python ints vs NumPy ints, printing of arrays and print options inside the
graph, ``np.errstate`` as a decorator."""

import math

import numpy as np
from hostile_check import Programs

reg = Programs("round5_numbers")
case, scenario = reg.case, reg.scenario

X = np.array([1.0, -2.0, 3.0, 0.5])
F32 = np.array([1.5, -2.0, 3.25], dtype=np.float32)
I8 = np.array([100, -100, 7], dtype=np.int8)
U8 = np.array([0, 200, 255], dtype=np.uint8)
I64 = np.array([2**62, -(2**62), 5], dtype=np.int64)


class MyFloat(float):
    def __mul__(self, other):
        return "MyFloat.__mul__"

    def __rmul__(self, other):
        return "MyFloat.__rmul__"


class PlainFloat(float):
    pass


class MyInt(int):
    def __add__(self, other):
        return "MyInt.__add__"


# ============================================================================ powers

def _decay(x, t):
    return x * 0.9 ** t


case(_decay, (X, 3), (X, True), (X, np.int64(4)), (X, 2**70), (X, -2), (X, 0), (X, False),
     (X, 3.5), (X, np.float32(2.0)), (X, np.uint8(200)))


def _decay_f32(x, t):
    return x * 0.9 ** t


case(_decay_f32, (F32, 3), (F32, np.float64(2.0)), (F32, np.float32(2.0)), (F32, 2**64))


def _int_pow_negative(x, t):
    try:
        return x + 2 ** t
    except ValueError as e:
        return str(e)


case(_int_pow_negative, (X, 3), (X, -1), (X, 70), (X, np.int64(-1)))


def _np_int_pow_negative(x, t):
    try:
        return x + np.int64(2) ** t
    except ValueError as e:
        return str(e)


case(_np_int_pow_negative, (X, 3), (X, -1))


def _pow_float_sub(x, t):
    return x * (0.5 ** t), type(0.5 ** t).__name__


case(_pow_float_sub, (X, PlainFloat(2.0)), (X, MyFloat(2.0)), (X, 2.0))


def _mul_float_sub(x, k):
    return k * 2, x * k


case(_mul_float_sub, (X, MyFloat(3.0)), (X, 3.0), (X, PlainFloat(-0.0)))


def _int_sub_add(x, k):
    return k + 1, x + k


case(_int_sub_add, (X, MyInt(3)), (X, 3))


def _bool_vs_int(x, k):
    return x * k, k + k, type(k + k).__name__, x[k] if not isinstance(k, float) else None


case(_bool_vs_int, (X, True), (X, 1), (X, np.bool_(True)), (X, 1.0))


def _bool_arith(x, b):
    return x + b, b * 2.5, -b, ~b, b / 2


case(_bool_arith, (X, True), (X, False), (X, np.True_))


def _huge_int_to_array(x, n):
    try:
        return x + n
    except OverflowError as e:
        return "overflow", str(e)


case(_huge_int_to_array, (X, 2**63), (X, 2**64), (X, -(2**63)), (X, 10**400))


def _huge_int_to_int_array(a, n):
    try:
        return a + n
    except OverflowError as e:
        return "overflow", str(e)


case(_huge_int_to_int_array, (I64, 2**63), (I64, 2**62), (I8, 127), (I8, 128), (U8, -1),
     (U8, 255), (U8, 256))


def _int_float_conversion_overflow(x, n):
    try:
        return x * float(n)
    except OverflowError as e:
        return str(e)


case(_int_float_conversion_overflow, (X, 10**308), (X, 10**309), (X, 5))


# ============================================================================ NEP 50

def _nep50_scalar_ops(a, k):
    return a * k, a + k, a / k, (a * k).dtype


case(_nep50_scalar_ops, (F32, 2.0), (F32, np.float64(2.0)), (F32, 2), (F32, np.int64(2)),
     (F32, 1e300), (F32, True))


def _nep50_int8(a, k):
    try:
        return a + k, (a + k).dtype
    except OverflowError as e:
        return str(e)


case(_nep50_int8, (I8, 1), (I8, 200), (I8, np.int16(200)), (I8, 1.5), (I8, -129))


def _nep50_uint_minus(a, k):
    try:
        return a - k, a * k
    except OverflowError as e:
        return str(e)


case(_nep50_uint_minus, (U8, 1), (U8, -1), (U8, np.int8(-1)))


def _scalar_times_scalar(a, b):
    r = a * b
    return r, type(r).__name__


case(_scalar_times_scalar, (np.float32(2.5), 3.0), (np.float32(2.5), np.float64(3.0)),
     (np.int8(100), 2), (np.int8(100), np.int8(2)), (np.uint8(3), -1),
     (np.float16(60000), 2.0))


def _int_overflow_numpy_scalar(a):
    return a * a, a + a, -a, abs(a)


case(_int_overflow_numpy_scalar, (np.int64(2**62),), (np.int8(-128),), (np.int32(2**31 - 1),))


def _int_overflow_python(a):
    return a * a, a + a, -a, abs(a), a // 3, a % 7, a ** 3


case(_int_overflow_python, (2**62,), (-(2**63),), (10**30,))


def _mixed_int_scalar_python(a, n):
    return a + n, type(a + n).__name__


case(_mixed_int_scalar_python, (np.int64(5), 2**63), (np.int8(5), 1000), (np.int64(5), 3))


def _floor_div_mod_signs(x, k):
    return x // k, x % k, np.fmod(x, k), divmod(x, k)


case(_floor_div_mod_signs, (X, 2.0), (X, -2.0), (X, 0.0), (X, -0.0))


def _int_div_by_zero(a, k):
    try:
        return a // k, a % k
    except ZeroDivisionError as e:
        return str(e)


case(_int_div_by_zero, (np.array([5, -5, 0]), 0), (np.array([5, -5, 0]), 2))


def _python_int_div_zero(x, n):
    try:
        return x * (1 / n)
    except ZeroDivisionError as e:
        return "zero", str(e)


case(_python_int_div_zero, (X, 0), (X, 2), (X, 0.0), (X, -0.0))


def _np_scalar_div_zero(x, n):
    return x * (np.float64(1.0) / n)


case(_np_scalar_div_zero, (X, 0.0), (X, -0.0), (X, np.float64(0.0)))


# ============================================================================ -0.0, nan

def _negative_zero_const(x):
    return x * -0.0, x + -0.0, np.copysign(1.0, x * 0.0), -0.0 * 0.0


case(_negative_zero_const, (X,), (np.array([-0.0, 0.0]),))


def _negative_zero_input(x, z):
    return x + z, z * 1, z == 0.0, math.copysign(1.0, z), np.signbit(z)


case(_negative_zero_input, (X, -0.0), (X, 0.0), (X, np.float64(-0.0)))


def _negative_zero_min_max(z):
    return max(z, 0.0), min(0.0, z), np.maximum(z, 0.0), np.fmax(z, 0.0)


case(_negative_zero_min_max, (-0.0,), (0.0,), (np.float64(-0.0),))


def _negative_zero_sum(x):
    return np.sum(x), x.sum(), np.add.reduce(x), sum(x)


case(_negative_zero_sum, (np.array([-0.0, -0.0]),), (np.array([], dtype=float),))


def _nan_keys(x, k):
    d = {k: 1}
    d[k] = 2
    return x * len(d), d.get(float("nan"), "missing"), k in d


case(_nan_keys, (X, float("nan")), (X, np.nan), (X, np.float64("nan")), (X, 1.0))


def _nan_in_list(x, k):
    lst = [k, 1.0]
    return lst.count(k), k in lst, lst.index(k), x + len(lst)


case(_nan_in_list, (X, math.nan), (X, 1.0))


def _nan_compare_branch(x, k):
    if k == k:
        return x + k
    return x * 0


case(_nan_compare_branch, (X, math.nan), (X, 2.0), (X, np.float32("nan")))


def _nan_min_max(x, k):
    return max(k, 1.0), min(1.0, k), max(1.0, k), np.maximum(x, k)


case(_nan_min_max, (X, math.nan), (X, 0.5))


def _inf_int_conv(x, k):
    try:
        return x + int(k)
    except (OverflowError, ValueError) as e:
        return type(e).__name__, str(e)


case(_inf_int_conv, (X, math.inf), (X, math.nan), (X, 2.7), (X, -2.7))


def _round_half(x, k):
    return round(k), round(k, 1), np.round(x * k), type(round(np.float64(k))).__name__


case(_round_half, (X, 2.5), (X, -0.5), (X, 0.25), (X, np.float32(1.5)))


def _float_hash_eq(x, a, b):
    return hash(a) == hash(b), a == b, x * (a == b)


case(_float_hash_eq, (X, 1, 1.0), (X, True, 1), (X, 0.0, -0.0), (X, np.float64(2.0), 2))


def _complex_scalar(x, z):
    return x * z, abs(z), z.conjugate(), (x * z).dtype


case(_complex_scalar, (X, 1 + 2j), (X, 1j), (X, complex(0, -0.0)))


def _int_bit_ops(a, k):
    return a << k, a >> k, a & k, a ^ k, ~a


case(_int_bit_ops, (np.array([1, 2, 3]), 2), (np.array([1, 2, 3]), 63),
     (np.array([1, -2], dtype=np.int8), 7))


def _shift_too_far(a, k):
    return a << k, 1 << k


case(_shift_too_far, (np.array([1, 2]), 64), (np.array([1, 2]), 70))


# ============================================================================ printing

def _print_array(x):
    print(x)
    print(repr(x * 2))
    return x


case(_print_array, (X,), (np.arange(2000.0),), (np.array([1e-10, 1e10]),))


def _print_with_options(x):
    with np.printoptions(precision=2, suppress=True):
        print(x / 3)
        s = str(x / 7)
    return s


case(_print_with_options, (X,))


def _set_print_options(x):
    old = np.get_printoptions()
    np.set_printoptions(precision=1)
    s = repr(x / 3)
    np.set_printoptions(**old)
    return s, str(x / 3)


case(_set_print_options, (X,))


@scenario
def s_print_options_changed_between_calls(r):
    def f(x):
        return str(x / 3)
    c = r.compile(f)
    r.call(c, X)
    old = np.get_printoptions()
    np.set_printoptions(precision=3)
    try:
        r.call(c, X)
    finally:
        np.set_printoptions(**old)
    r.call(c, X)


def _fstring_of_array(x):
    return f"{x.sum():.3f} {x.max()!r} {x[0]}", format(x.mean(), "e")


case(_fstring_of_array, (X,), (F32,))


def _str_of_scalars(x):
    return str(x.sum()), repr(x.sum()), str(np.float32(x.sum())), repr(x.dtype)


case(_str_of_scalars, (X,), (F32,), (I8,))


# ============================================================================ errstate

@np.errstate(divide="ignore", invalid="ignore")
def _errstate_decorated_helper(x):
    return x / 0.0


def _errstate_decorator(x):
    return _errstate_decorated_helper(x) + 1


case(_errstate_decorator, (X,))


@np.errstate(divide="raise")
def _errstate_raise_decorated(x):
    return x / 0.0


def _errstate_raise_decorator(x):
    try:
        return _errstate_raise_decorated(x)
    except FloatingPointError as e:
        return "raised", str(e)


case(_errstate_raise_decorator, (X,))


def _errstate_nested(x):
    with np.errstate(all="ignore"):
        a = x / 0.0
        with np.errstate(divide="warn"):
            b = x / 0.0
        c = np.log(x)
    return a, b, c


case(_errstate_nested, (X,))


def _errstate_seterr_inside(x):
    old = np.seterr(divide="ignore")
    y = x / 0.0
    np.seterr(**old)
    return y, x / 0.0


case(_errstate_seterr_inside, (X,))


def _errstate_over_int(a):
    with np.errstate(over="raise"):
        try:
            return a * a
        except FloatingPointError as e:
            return str(e)


case(_errstate_over_int, (np.array([2**40], dtype=np.int64),), (np.array([1e200]),))


def _errstate_under(x):
    with np.errstate(under="raise"):
        try:
            return x * 1e-320
        except FloatingPointError as e:
            return str(e)


case(_errstate_under, (X,), (np.zeros(2),))


def _dict_keys_signed_zero(x, d):
    out = []
    for k in d:
        out.append((k, type(k).__name__, math.copysign(1.0, k)))
    return out, x * len(d)


case(_dict_keys_signed_zero, (X, {0.0: 1}), (X, {-0.0: 1}), (X, {1: 0}), (X, {True: 0}),
     (X, {1.0: 0}))


def _dict_tuple_keys_types(x, d):
    return [tuple(type(v).__name__ for v in k) for k in d], x * len(d)


case(_dict_tuple_keys_types, (X, {(1, 2): 0}), (X, {(1.0, 2): 0}), (X, {(True, 2): 0}),
     (X, {(-0.0, 2): 0}), (X, {(0.0, 2): 0}))


# ============================================================================ ints as inputs

def _int_input_squared(x, n):
    return x * (n * n), x + n ** 3, (n * n).bit_length()


case(_int_input_squared, (X, 3), (X, 2**31), (X, 2**40), (X, -(2**33)), (X, 2**70), calls=1)


def _int_input_floor_mod(x, n, k):
    try:
        return x + n // k, x - n % k, divmod(n, k)
    except ZeroDivisionError as e:
        return "zero", str(e)


case(_int_input_floor_mod, (X, 7, 2), (X, -7, 2), (X, 7, -2), (X, 9, 4), (X, 5, 0), (X, 2**65, 3),
     calls=1)


def _int_input_true_div(x, n, k):
    try:
        return x * (n / k), type(n / k).__name__
    except (ZeroDivisionError, OverflowError) as e:
        return type(e).__name__, str(e)


case(_int_input_true_div, (X, 7, 2), (X, 1, 3), (X, 10**400, 10**399), (X, 5, 0), (X, 2**53 + 1, 1),
     calls=1)


def _int_input_with_np_int(x, n):
    try:
        return x + np.int64(n) * n, np.int32(n) + 1
    except OverflowError as e:
        return "overflow", str(e)


case(_int_input_with_np_int, (X, 3), (X, 2**31), (X, 2**40), (X, 2**62), (X, 2**63), calls=1)


def _int_input_as_shape(n):
    try:
        return np.zeros(n).shape, np.ones((n, 2)).sum(), np.arange(n)[-1:]
    except ValueError as e:
        return "negative", str(e)


case(_int_input_as_shape, (3,), (4,), (5,), (0,), (1,), (-1,), (np.int64(3),), calls=1)


def _int_input_compare_chain(x, n):
    return x * (0 < n < 10), x + (n == 5), x - (n != 5.0)


case(_int_input_compare_chain, (X, 3), (X, 5), (X, 11), (X, -1), (X, True), calls=1)


def _float_input_ops(x, t):
    return x * t, x + t ** 2, x - abs(t), round(t, 2), int(t) if t == t and abs(t) < 1e300 else t


case(_float_input_ops, (X, 0.5), (X, -0.5), (X, 1e300), (X, -0.0), (X, float("inf")),
     (X, float("nan")), (X, 2.675), calls=1)


def _float_input_to_float32(x, t):
    return np.float32(t) * x.astype(np.float32), np.float32(t) == t


case(_float_input_to_float32, (X, 0.1), (X, 0.5), (X, 1e40), (X, 3.0), calls=1)


def _bool_input_branches(x, flag):
    if flag:
        return x * 2
    return x * 3


case(_bool_input_branches, (X, True), (X, False), (X, 1), (X, 0), (X, np.True_), (X, None),
     (X, []), (X, [0]), calls=1)
