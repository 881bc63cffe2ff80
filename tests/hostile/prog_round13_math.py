"""Round 13, numbers that change between calls in Python math
(``dynamo/translator/quotients.py``, ``symbolic/scalars.py math_call``,
``variables/builtins.py symbolic_math``, ``shape_env.new_symbol(number=True)``):
``n % k`` and ``n // k`` by a constant compared with a constant (one guard on the
comparison) or fed to float arithmetic (a ``SymFloat``, no guard), with negative and
zero divisors, bools, floats, NumPy ints and ints past int64 and past float range;
``math.*`` of changing numbers (domain errors, ``inf``/``nan``, ints beyond float
range, ``math.floor`` returning an int used as a size, ``math.isclose``, ``math.fsum``);
changing ints that are not specialized at 0 and 1, so 0, 1, -1 and ``True`` arrive
as values of one entry.

    >>> def _scale(x, n):
    ...     return x * 0.5 ** (n // 3)
    >>> # n = 3, 4, 7, 2**1100 (OverflowError converting to float), -1, True
"""

import math

import numpy as np
from hostile_check import Programs

reg = Programs("round13_math")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 0.5, 4.0])
F32 = X.astype(np.float32)
BIG = 2 ** 1100
INF, NAN = float("inf"), float("nan")


def _seq(*values, arg=X):
    return [(arg, v) for v in values]


INTS = (3, 4, 7, 9, -1, 0, 1, True, False, -7, 2 ** 62, 2 ** 63 + 5, BIG, 10)


# ------------------------------------------------------------ quotients, compared

def _mod_eq_zero(x, n):
    if n % 3 == 0:
        return x * 2
    return x - 1


def _floordiv_ne(x, n):
    if 0 != n // 5:
        return x + 1
    return x


def _mod_neg_k_compare(x, n):
    if n % -4 == -1:
        return x * 3
    return x


def _floordiv_neg_k_lt(x, n):
    return x + 1 if n // -3 < 2 else x - 1


def _mod_compare_returned(x, n):
    return n % 3 == 0, x + 1


def _mod_compare_float_const(x, n):
    return x * 2 if n % 3 == 0.0 else x


def _mod_compare_chain(x, n):
    return x * 2 if 0 <= n % 4 < 2 else x


def _const_below_compare(x, n):
    return x * 2 if 1 < n % 4 else x


def _mod_walrus(x, n):
    if (r := n % 3) == 0:
        return x, r
    return x * r, r


def _mod_compare_huge_const(x, n):
    return x + 1 if n // 2 == 2 ** 70 else x


def _mod_compare_bool_index(x, n):
    return x[n % 2 == 0]


def _mod_is_compare(x, n):
    return x + (n % 7 >= 3)


for fn in (_mod_eq_zero, _floordiv_ne, _mod_neg_k_compare, _floordiv_neg_k_lt,
           _mod_compare_returned, _mod_compare_float_const, _mod_compare_chain,
           _const_below_compare, _mod_walrus, _mod_compare_huge_const,
           _mod_compare_bool_index, _mod_is_compare):
    case(fn, *_seq(*INTS))

case(_mod_eq_zero, *_seq(3, 4, np.int64(6), np.int64(-7), np.uint8(9), np.int64(2 ** 63 - 1), 5),
     name="mod_eq_zero_numpy_ints")
case(_mod_compare_returned, *_seq(3, 4, np.int64(6), np.int32(7), 5),
     name="mod_compare_returned_numpy_ints")
case(_mod_eq_zero, *_seq(3, 4, 3.0, 4.5, -0.0, NAN, INF, 6), name="mod_eq_zero_floats")


# ------------------------------------------------------ quotients in float math

def _pow_quotient(x, n):
    return x * 0.5 ** (n // 3)


def _quotient_times_float(x, n):
    return x + (n // 4) * 0.25


def _float_over_quotient(x, n):
    return x * (1.0 / (n // 4))


def _float_mod_quotient(x, n):
    return x + 1.5 % (n // 2)


def _two_pow_quotient(x, n):
    return x * 2.0 ** (n // 2)


def _zero_pow_quotient(x, n):
    return x + 0.0 ** (n // 3)


def _neg_base_pow_remainder(x, n):
    return (-8.0) ** (n % 3 / 2), x


def _quotient_minus_half(x, n):
    q = (n // 3) - 0.5
    return x * q, math.floor(q)


def _changing_float_times_quotient(x, n, g):
    return x * g ** (n // 2)


def _quotient_floordiv_float(x, n):
    return x + (n % 5) // 0.5


def _quotient_float_true_div(x, n):
    return x * ((n % 4) / 2.0)


def _quotient_in_f32(x, n):
    return x * (0.1 * (n // 3))


for fn in (_pow_quotient, _quotient_times_float, _float_over_quotient, _float_mod_quotient,
           _two_pow_quotient, _zero_pow_quotient, _neg_base_pow_remainder,
           _quotient_minus_half, _quotient_floordiv_float, _quotient_float_true_div):
    case(fn, *_seq(3, 4, 7, 0, -1, -5, True, 4000, 2 ** 63 + 3, BIG, 9))

case(_quotient_in_f32, *_seq(3, 4, 7, 0, -1, 2 ** 40, arg=F32))
case(_changing_float_times_quotient, (X, 4, 0.5), (X, 5, 0.25), (X, 8, NAN), (X, -3, 0.0),
     (X, 2000, 2.0), (X, 7, -0.0), (X, 9, INF))


def _quotient_of_zero_divisor(x, n, k):
    try:
        return x * (n // k), n % k
    except ZeroDivisionError as e:
        return str(e)


case(_quotient_of_zero_divisor, (X, 7, 3), (X, 8, 3), (X, 7, 0), (X, 9, -2), (X, 5, True),
     (X, 5, False), (X, 7, 2.5), (X, 7, 0.0))


def _numpy_int_min_quotient(x, n):
    return x * (n // -1), n % -1


case(_numpy_int_min_quotient, *_seq(3, 4, np.int64(-2 ** 63), np.int64(5), -2 ** 63, 6))


def _counter_gamma(x, epoch, step):
    return x * 0.1 ** (epoch // step)


case(_counter_gamma, (X, 0, 3), (X, 1, 3), (X, 3, 3), (X, 7, 3), (X, 7, -3), (X, 7, 0),
     (X, 9, 2))


# -------------------------------------------------------------- math.* of numbers

def _sqrt(x, t):
    return x * math.sqrt(t)


def _log(x, t):
    return x + math.log(t)


def _log_base(x, t):
    return x + math.log(t, 2)


def _exp(x, t):
    return x * math.exp(t)


def _floor_size(x, t):
    return np.zeros(math.floor(t)) + x[0]


def _floor_slice(x, t):
    return x[: math.floor(t)], math.floor(t)


def _ceil_value(x, t):
    return x * math.ceil(t), type(math.ceil(t)).__name__


def _trunc_full(x, t):
    return np.full(2, math.trunc(t))


def _round_value(x, t):
    return x + round(t), round(t, 1)


def _isclose(x, t):
    return x * 2 if math.isclose(t, 1.0) else x


def _isclose_tol(x, t, tol):
    return math.isclose(t, 1.0, rel_tol=tol)


def _fsum(x, t):
    return x + math.fsum([t, 1e100, -1e100, 1.0])


def _fsum_inf(x, t):
    return math.fsum([t, INF])


def _hypot_atan2(x, t):
    return x * math.hypot(t, 3.0) + math.atan2(t, 0.0)


def _copysign(x, t):
    return x * math.copysign(1.0, t)


def _fmod(x, t):
    return x + math.fmod(7.0, t)


def _pow_math(x, t):
    return x * math.pow(t, -1)


def _factorial(x, t):
    return x + math.factorial(t)


def _gcd_comb(x, t):
    return x * math.gcd(t, 6), math.comb(5, t)


def _isqrt(x, t):
    return np.zeros(math.isqrt(t)) + x[0]


def _isfinite_nan(x, t):
    return x * math.isfinite(t) + math.isnan(t)


def _cos(x, t):
    return x * math.cos(t)


def _log1p(x, t):
    return x * math.log1p(t)


def _gamma(x, t):
    return x * math.gamma(t)


def _lgamma(x, t):
    return x + math.lgamma(t)


def _degrees_erf(x, t):
    return x * math.degrees(t) + math.erf(t)


def _math_dist(x, t):
    return math.dist((t, 0.0), (0.0, 4.0)) * x


def _math_in_try(x, t):
    try:
        return x * math.sqrt(t)
    except ValueError as e:
        return str(e)


def _math_then_effect(x, t, log):
    log.append("before")
    v = math.log(t)
    log.append("after")
    return x * v


NUMS = (4, 9, 2.25, 0, 1, -1, True, 0.0, -0.0, INF, -INF, NAN, BIG, 1e308, 16)
for fn in (_sqrt, _log, _log_base, _exp, _floor_size, _floor_slice, _ceil_value,
           _trunc_full, _round_value, _isclose, _fsum, _fsum_inf, _hypot_atan2, _copysign,
           _fmod, _pow_math, _isfinite_nan, _cos, _log1p, _gamma, _lgamma, _degrees_erf,
           _math_dist, _math_in_try):
    case(fn, *_seq(*NUMS))

for fn in (_factorial, _gcd_comb):
    case(fn, *_seq(3, 4, 0, 1, -1, True, 2 ** 64, 5))
case(_isqrt, *_seq(3, 4, 0, 1, -1, True, 2 ** 20, 5))

case(_isclose_tol, (X, 1.0, 1e-9), (X, 1.0 + 1e-10, 1e-9), (X, 1.1, 0.5), (X, 1.0, -1.0),
     (X, NAN, 0.1))
case(_math_then_effect, *[(X, t, []) for t in (4, 9, 0, -1, 2.0, BIG)])
case(_sqrt, *_seq(4.0, 9.0, np.float64(2.0), np.float32(-1.0), np.int64(16), 4.0),
     name="sqrt_numpy_scalars")
case(_floor_size, *_seq(2.5, 3.5, np.float64(4.2), -0.5, 1e20, 2.5), name="floor_size_edges")


# ---------------------------------------------- ints not specialized at 0 and 1

def _power(x, t):
    return x ** t


def _int_ops(x, t):
    return x * t, t << 2, t >> 1, ~t, -t, abs(t), t & 1, t | 4, t ^ 3


def _int_div(x, t):
    return x + t / t


def _int_neg_pow(x, t):
    return x * t ** -1


def _complex_root(x, t):
    return (t - 3) ** 0.5


def _int_pow_int(x, t):
    return x + 2 ** t, t ** t


def _full_of(x, t):
    return np.full(2, t), np.array([t, 1])


def _repeat_list(x, t):
    return [t] * 3, x[:t]


def _conversions(x, t):
    return int(t), float(t), bool(t), str(t), f"{t:.3f}", repr(t)


def _int_as_value_and_bool(x, t):
    if t:
        return x * t
    return x - t


def _divmod_changing(x, t):
    return divmod(t, 3), divmod(7, t)


def _int_in_range(x, t):
    return [float(x[0]) * i for i in range(t)]


def _max_min(x, t):
    return max(t, 0), min(t, 1), x * max(t, 1)


for fn in (_power, _int_ops, _int_div, _int_neg_pow, _complex_root, _full_of, _repeat_list,
           _conversions, _int_as_value_and_bool, _divmod_changing, _max_min):
    case(fn, *_seq(2, 3, 0, 1, -1, True, False, 5, 2 ** 63 - 1, 4))
for fn in (_int_pow_int, _int_in_range):
    case(fn, *_seq(2, 3, 0, 1, -1, True, False, 5, 70, 4))

case(_power, *_seq(2, 3, 0, 1, -1, True, 4, arg=np.array([1, 2, 0, -3])), name="power_int_array")
case(_full_of, *_seq(2, 3, np.int64(0), np.int8(1), np.bool_(True), 4), name="full_of_numpy")


class Counter:
    """An optimizer-like step counter that starts at -1."""

    def __init__(self, t):
        self.t = t

    def step(self, x):
        self.t += 1
        return x * (1.0 - 0.9 ** self.t) / math.sqrt(abs(self.t) + 0.0), self.t % 2 == 0


@scenario
def counter_through_zero(r):
    c = Counter(-3)
    f = r.compile(Counter.step)
    for _ in range(7):
        r.call(f, c, X)
        r.see("t", c.t)


# a changing int's partner that is a bool or another int subclass: Python asks the
# right operand's reflected method first only for a subclass of the left one's type

class Level(int):
    """An int subclass with its own product."""

    def __mul__(self, other):
        return int(self) * int(other) + 1000

    __rmul__ = __mul__


def _bool_times(x, h, i):
    return x + h * i, h * i


def _bool_compared(x, h, i):
    return x + 1 if h < i else x - 1


def _bool_equal(x, h, i):
    return x * 2 if h == i else x


def _bool_sized(x, h, i):
    return x[: h + i], np.zeros(i - h)


def _bool_bitwise(x, h, i):
    return h & i, h | i, h ^ i, x * (h << i)


def _subclass_times(x, h, i):
    return x + h * i, i * h


for fn in (_bool_times, _bool_compared, _bool_equal, _bool_sized, _bool_bitwise):
    case(fn, (X, True, 3), (X, True, 4), (X, True, 1), (X, True, 0), (X, False, 2),
         (X, 1, 3), (X, True, 2))
case(_subclass_times, (X, Level(2), 3), (X, Level(2), 4), (X, Level(3), 5), (X, 2, 6),
     (X, Level(2), 0))


# quotients of sizes compared and in float math; quotients of huge ints in float math

def _size_parity(x):
    if len(x) % 2 == 0:
        return x[::2]
    return x * (len(x) // 2) * 0.5


def _size_quotient_times_float(x, t):
    return x * (t * (len(x) // 3)), math.floor(len(x) / 3 * t)


def _quotient_into_full(x, n):
    return np.full(2, 1.5 * (n // 2)), [0.5 * (n % 3)]


def _quotient_negative_power(x, n):
    return x * (2.0 ** -(n // 3)), x * (n // 3) ** 0.5


case(_size_parity, *[(np.ones(k),) for k in (4, 5, 6, 7, 2, 3, 0, 1)])
case(_size_quotient_times_float, (np.ones(4), 0.5), (np.ones(5), 1.5), (np.ones(6), -0.5),
     (np.ones(9), NAN), (np.ones(3), 2.0), (np.ones(1), 1e308))
case(_quotient_into_full, *_seq(3, 4, 5, -3, 2 ** 63 + 1, BIG, 0))
case(_quotient_negative_power, *_seq(3, 4, 5, -3, -7, 0, 3000, BIG))
