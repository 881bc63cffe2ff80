"""Round 24, lengths of data-dependent sizes read as Python ints in the graph
(``dynamo/variables/size_values.py``, docs/unbacked.md "A size read as a number"):
``len(kept)``, ``seg.size`` of ``x[x > 0]`` and ``v[p[0]:p[1]]`` used as numbers:
``max(n, 1)``, ``n // 2``, ``n % k``, ``n ** 2``, ``abs``, ``divmod``, ``np.float64(n)``,
``int(n)``, ``1.0 / n`` and ``math.log(n)`` inside the program's own ``try``; mixed
with Python floats, ints and bools, NumPy scalars and 0-d arrays of small dtypes (NEP
50: an int that does not fit the array's dtype raises OverflowError), results returned
(eager's exact Python type), zero-length and reversed segments, counts past int64
after ``**``. The counts change between calls (0, 1, many) on one compiled entry.
Comparisons, breaks, loops and state: ``prog_round24_uses``.

    >>> def _mean(v, p):
    ...     seg = v[p[0]:p[1]]
    ...     return seg.sum() / max(len(seg), 1)
"""

import math
import operator
import sys

import numpy as np
from hostile_check import Programs

reg = Programs("round24_counts")
case = reg.case
scenario = reg.scenario

V = np.linspace(-3.0, 4.0, 12)
V4 = V.astype(np.float32)
VI = np.arange(-6, 6, dtype=np.int64)
VI8 = np.arange(-6, 6, dtype=np.int8)
P = np.array([2, 9])
P_EMPTY = np.array([5, 5])
P_BACK = np.array([9, 2])
P_ONE = np.array([3, 4])
SEGS = ((V, P), (V, P_EMPTY), (V, P_ONE), (V, P_BACK))
X = np.array([1.0, -2.0, 3.0, 0.5, -0.5, 7.0])
X_NONE = -np.abs(X) - 1.0
X_ONE = np.array([-1.0, 2.0, -3.0])
X_BIG = np.linspace(-1.0, 1.0, 300_001)
MASKS = ((X,), (X_NONE,), (X_ONE,))
MASKS_BIG = ((X,), (X_BIG,), (X_NONE,))


def _kept(x):
    return x[x > 0]


def _brk():
    """A call the tracer does not follow (it reads the calling frame): a graph break."""
    return sys._getframe(1).f_lineno > 0


# ------------------------------------------------------------ ints from a count

def _mean_len(v, p):
    seg = v[p[0]:p[1]]
    return seg.sum() / max(len(seg), 1)


def _mean_size(v, p):
    seg = v[p[0]:p[1]]
    m = max(seg.size, 1)
    return seg.sum() / m, m, type(m).__name__


def _mean_shape(v, p):
    seg = v[p[0]:p[1]]
    return seg.mean() if seg.shape[0] else 0.0, min(seg.shape[0], 3)


def _floor_mod_pow(v, p):
    n = len(v[p[0]:p[1]])
    return n // 2, n % 3, n ** 2, n ** 0, abs(n - 5)


def _negative_floor(v, p):
    n = len(v[p[0]:p[1]])
    return (n - 10) // 3, (n - 10) % 3, -n // 4, n // -3, n % -3, (-n) % 5


def _divmod_builtin(v, p):
    n = len(v[p[0]:p[1]])
    return divmod(n, 3), divmod(n - 9, 4)


def _pow_negative(v, p):
    n = len(v[p[0]:p[1]])
    return (n + 1) ** -1, (n + 2) ** 0.5, n ** 2.0


def _true_divisions(v, p):
    n = len(v[p[0]:p[1]])
    return n / 4, (n + 1) / 3, n / 2.5, 7 // (n + 1)


def _divide_by_count(v, p):
    n = len(v[p[0]:p[1]])
    try:
        return 1.0 / n
    except ZeroDivisionError as e:
        return "zero", str(e)


def _floor_by_count(v, p):
    n = len(v[p[0]:p[1]])
    try:
        return 10 // n, 10 % n
    except ZeroDivisionError as e:
        return "zero", str(e)


def _sum_over_count(v, p):
    seg = v[p[0]:p[1]]
    return seg.sum() / len(seg)


def _sum_over_count_int(v, p):
    seg = VI[p[0]:p[1]]
    return seg.sum() // max(len(seg), 1), seg.sum() % max(len(seg), 1)


def _two_counts(v, p):
    a = v[p[0]:p[1]]
    b = v[v > 0]
    return max(len(a), len(b)), min(len(a), len(b), 4), len(a) + len(b)


def _count_over_count(v, p):
    a = v[p[0]:p[1]]
    b = v[v > 100]
    try:
        return len(a) // len(b)
    except ZeroDivisionError:
        return "no b"


def _abs_and_neg(v, p):
    n = len(v[p[0]:p[1]])
    return abs(n - 7), -abs(3 - n), abs(-n)


def _int_float_complex(v, p):
    n = len(v[p[0]:p[1]])
    return int(n), float(n), complex(n), int(max(n, 1)), float(n // 2)


def _operator_index(v, p):
    n = len(v[p[0]:p[1]])
    return operator.index(n // 2), n.__index__(), operator.mul(n, 3)


def _math_funcs(v, p):
    n = len(v[p[0]:p[1]])
    return math.sqrt(n), math.floor(n / 3), math.ceil(n / 3), math.isqrt(n)


def _math_log(v, p):
    n = len(v[p[0]:p[1]])
    try:
        return math.log(n)
    except ValueError as e:
        return str(e)


def _round_count(v, p):
    n = len(v[p[0]:p[1]])
    return round(n / 3), round(n / 3, 2), round(n, -1)


def _bit_ops(v, p):
    n = len(v[p[0]:p[1]])
    return n & 3, n | 8, n ^ 5, n << 2, n >> 1


def _text_of_count(v, p):
    n = len(v[p[0]:p[1]])
    return f"{n // 2} of {max(n, 1)}", str(n % 3), repr(n ** 2)


def _hash_of_count(v, p):
    n = len(v[p[0]:p[1]])
    return hash(n // 2) == hash(int(n // 2)), {n % 3: "k"}


for _fn in (_mean_len, _mean_size, _mean_shape, _floor_mod_pow, _negative_floor,
            _divmod_builtin, _pow_negative, _true_divisions, _divide_by_count,
            _floor_by_count, _sum_over_count, _sum_over_count_int, _two_counts,
            _count_over_count, _abs_and_neg, _int_float_complex, _operator_index,
            _math_funcs, _math_log, _round_count, _bit_ops, _text_of_count, _hash_of_count):
    case(_fn, *SEGS)


# ------------------------------------------------------------ NumPy scalars, NEP 50

def _np_scalars(v, p):
    n = len(v[p[0]:p[1]])
    return np.float64(n), np.float32(n // 2), np.complex64(max(n, 1)), np.int64(n % 4)


def _np_small_ints(x):
    n = len(_kept(x))
    try:
        return np.int8(n * 50), np.uint8(n)
    except OverflowError as e:
        return "overflow", str(e)


def _np_bool_of_count(x):
    n = len(_kept(x))
    return np.bool_(n), bool(n // 2)


def _float32_over_count(x):
    k = x.astype(np.float32)[x > 0]
    return k.sum() / max(len(k), 1), (k / max(len(k), 1)).dtype


def _int8_times_count(x):
    n = len(_kept(x))
    try:
        return VI8 * (n // 2 + 40)
    except OverflowError as e:
        return "overflow", str(e)


def _int8_scalar_plus_count(x):
    n = len(_kept(x))
    try:
        return np.int8(120) + n * 3
    except OverflowError as e:
        return "overflow", str(e)


def _uint8_minus_count(x):
    n = len(_kept(x))
    return np.arange(4, dtype=np.uint8) - n


def _zero_d_with_count(x):
    n = len(_kept(x))
    z4 = np.array(1.5, np.float32)
    zi = np.array(3, np.int16)
    return z4 * max(n, 1), zi + n // 2, z4 + (n > 2), type(z4 * n).__name__


def _count_pow_huge(x):
    n = len(_kept(x))
    return n ** 5, type(n ** 5).__name__, (n + 1) ** 7 // 3


def _huge_into_float_array(x):
    n = len(_kept(x))
    return x[:3] * (n + 2) ** 6


def _huge_into_int_array(x):
    n = len(_kept(x))
    try:
        return VI[:3] + (n + 2) ** 7
    except OverflowError as e:
        return "overflow", str(e)


def _huge_full(x):
    n = len(_kept(x))
    try:
        return np.full(2, (n + 3) ** 8)
    except OverflowError as e:
        return "overflow", str(e)


def _int32_times_square(x):
    n = len(_kept(x))
    try:
        return np.ones(3, np.int32) * n ** 2
    except OverflowError as e:
        return "overflow", str(e)


def _count_into_list_array(x):
    n = len(_kept(x))
    a = np.array([n, n // 2, max(n, 1)])
    return a, a.dtype, np.asarray([n % 2, 1.5])


def _full_of_count(x):
    n = len(_kept(x))
    return np.full(3, n // 2), np.full(2, float(n)), np.full(2, max(n, 1), np.int8)


for _fn in (_np_scalars,):
    case(_fn, *SEGS)
for _fn in (_np_small_ints, _np_bool_of_count, _float32_over_count, _int8_times_count,
            _int8_scalar_plus_count, _uint8_minus_count, _zero_d_with_count,
            _count_pow_huge, _huge_into_float_array, _huge_into_int_array, _huge_full,
            _int32_times_square, _count_into_list_array, _full_of_count):
    case(_fn, *MASKS_BIG)


# ------------------------------------------------------------ mixed with Python numbers

def _mixed_python(x):
    n = len(_kept(x))
    return n + 0.5, n * 1.5, max(n, 1) * 0.1, n // 2 + True, n % 3 - False, 2 ** (n % 4)


def _max_with_float(x):
    n = len(_kept(x))
    return max(n, 0.5), min(n, 2.5), max(n, True), min(n, False)


def _max_of_float_first(x):
    n = len(_kept(x))
    return max(1.0, n), type(max(1.0, n)).__name__, max(n, 1.0)


def _max_with_array_scalar(x):
    n = len(_kept(x))
    s = x.sum()
    return max(n, s), min(np.float32(2.0), n)


def _count_times_bool(x):
    n = len(_kept(x))
    return n * True, True + n, n - (n > 2) * 0


def _count_and_none(x):
    n = len(_kept(x))
    try:
        return max(n, None)
    except TypeError as e:
        return str(e)


for _fn in (_mixed_python, _max_with_float, _max_of_float_first, _max_with_array_scalar,
            _count_times_bool, _count_and_none):
    case(_fn, *MASKS)
