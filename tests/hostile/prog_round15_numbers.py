"""Round 15, changing Python numbers inside graphs: ints and floats passed as values
(not constants) that become huge, bools, NumPy ints, NaN or -0.0 between calls; the
same numbers as indices (run-time bounds check), in ``0.9 ** t``, quotients ``//`` and
``%`` feeding float math, sign-guarded powers, ``np.roll`` by a changing or array-int
shift, ``x * 1`` (strength reduction), and draws and float comparisons decided in the
graph.

    >>> def _decay(x, t):
    ...     return x * 0.9 ** t        # t changes every call: 3, 2**70, -1, True, nan
"""

import math

import numpy as np
from hostile_check import Programs

reg = Programs("round15_numbers")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 0.5, 4.0, -0.0, 3.0])
INT = np.array([3, -7, 0, 11, 2, -1], dtype=np.int64)
U = np.array([1, 2, 3, 4, 5, 6], dtype=np.uint8)

# Values that change the kind of the number between calls.
INTS = (3, 4, 0, -1, 2 ** 62, 2 ** 63, -2 ** 63 - 1, 2 ** 64 + 1, True, False,
        np.int64(5), np.int8(-3), np.uint64(7), np.uint64(2 ** 64 - 1), 2)
FLOATS = (0.5, 1.5, -0.0, 0.0, float("nan"), float("inf"), -float("inf"), 1e308,
          np.float32(0.25), np.float64(-2.5), 3, True, 2.0)


def _with(arg, values):
    return [(arg, v) for v in values]


# ----------------------------------------------------------------- ints as values

def _decay(x, t):
    return x * 0.9 ** t


def _pow_int(x, t):
    return x ** t


def _int_pow_base(x, t):
    return x * (2 ** t)


def _neg_pow(x, t):
    return x * t ** -1


def _floordiv(x, n):
    return x * (n // 3) + n % 3


def _floordiv_float(x, n):
    return x / (n // 2 + 0.5)


def _mod_neg(x, n):
    return x + (n % -4) * 1.5


def _divmod(x, n):
    q, r = divmod(n, 5)
    return x * q - r


def _true_div(x, n):
    return x * (n / 7)


def _int_in_sqrt(x, n):
    return x + math.sqrt(abs(n))


def _int_shift(x, n):
    return x + (n >> 1) + (n << 2)


def _int_bitand(x, n):
    return x * (n & 7) + (n | 1)


def _int_neg_abs(x, n):
    return x - abs(-n)


def _int_times_one(x, n):
    return x * 1 + n * 1


def _int_cmp(x, n):
    return x * (n > 2) + (n == 0)


def _int_min_max(x, n):
    return x * min(n, 3) + max(n, -1)


def _int_to_float_array(x, n):
    return np.full(3, n, dtype=np.float64) + x[:3]


def _int_array_add(x, n):
    return x + np.int64(1) * n


def _int_into_int_array(a, n):
    return a + n


def _int_into_uint8(a, n):
    return a * n


def _int_round(x, n):
    return x * round(n / 3, 1)


def _int_bool(x, n):
    return x if n else -x


def _int_pow_mod(x, n):
    return x + pow(n, 2, 7)


for fn in (_decay, _pow_int, _floordiv, _floordiv_float, _mod_neg, _divmod,
           _true_div, _int_in_sqrt, _int_shift, _int_bitand, _int_neg_abs, _int_times_one,
           _int_cmp, _int_min_max, _int_to_float_array, _int_array_add, _int_round,
           _int_bool, _int_pow_mod, _neg_pow):
    case(fn, *_with(X, INTS), calls=1)
# 2 ** t is computed exactly by Python: no huge t here (plain Python would never end).
case(_int_pow_base, *_with(X, INTS[:4] + INTS[8:]), calls=1)
case(_int_into_int_array, *_with(INT, INTS), calls=1)
case(_int_into_uint8, *_with(U, INTS), calls=1)

# ------------------------------------------------------------- floats as values

def _f_decay(x, c):
    return x * 0.9 ** c


def _f_pow(x, c):
    return np.abs(x) ** c


def _f_sign_pow(x, c):
    return c ** 0.5 + x


def _f_neg_base(x, c):
    return (-c) ** 2.0 * x


def _f_floordiv(x, c):
    return x * (c // 0.75) + c % 0.75


def _f_cmp(x, c):
    return x * (c < 1.0) - (c != c)


def _f_copysign(x, c):
    return x * math.copysign(1.0, c)


def _f_min(x, c):
    return np.minimum(x, c)


def _f_max_py(x, c):
    return x + max(c, 0.0)


def _f_times_one(x, c):
    return x * 1 * c


def _f_div(x, c):
    return x / c


def _f_int(x, c):
    return x * int(c) if c == c and abs(c) != float("inf") else x


for fn in (_f_decay, _f_pow, _f_sign_pow, _f_neg_base, _f_floordiv, _f_cmp, _f_copysign,
           _f_min, _f_max_py, _f_times_one, _f_div, _f_int):
    case(fn, *_with(X, FLOATS), calls=1)

# ----------------------------------------------------------------- ints as indices

def _idx(x, i):
    return x[i] * 2


def _idx_neg(x, i):
    return x[-i]


def _idx_sum(x, i):
    return x[i + 1] + x[i - 1]


def _idx_quot(x, i):
    return x[i // 2] + x[i % 3]


def _idx_try(x, i):
    try:
        return x[i]
    except IndexError as e:
        return str(e)


def _idx_store(x, i):
    x[i] = -1.0
    return x


def _idx_slice(x, i):
    return x[i:i + 2]


def _idx_2d(g, i):
    return g[i, i]


G = np.arange(12.0).reshape(3, 4)
IDX = (1, 2, 0, 5, 6, -6, -7, True, np.int64(3), np.uint64(4), np.int8(-2), 2 ** 63, 1)
for fn in (_idx, _idx_neg, _idx_sum, _idx_quot, _idx_try, _idx_slice):
    case(fn, *_with(X, IDX), calls=1)
case(_idx_store, *[(X.copy(), i) for i in IDX], calls=1)
case(_idx_2d, *_with(G, IDX), calls=1)

# ---------------------------------------------------------------------- np.roll

def _roll(x, s):
    return np.roll(x, s)


def _roll_arr(x, a):
    return np.roll(x, a[0])


def _roll_arr_sum(x, a):
    return np.roll(x, int(a.sum()))


def _roll_axis(g, s):
    return np.roll(g, s, axis=1)


def _roll_twice(x, s):
    return np.roll(np.roll(x, s), -s)


SHIFTS = (1, 2, -1, 0, 7, -13, 2 ** 40, -2 ** 62, True, np.int64(-3), np.uint64(5), 1)
case(_roll, *_with(X, SHIFTS), calls=1)
case(_roll_axis, *_with(G, SHIFTS), calls=1)
case(_roll_twice, *_with(X, SHIFTS), calls=1)
ARR_SHIFTS = [np.array([v], dtype=dt) for v, dt in
              ((1, np.int64), (2, np.int64), (-5, np.int64), (2 ** 62, np.int64),
               (2 ** 64 - 1, np.uint64), (255, np.uint8), (-128, np.int8), (3, np.int32))]
case(_roll_arr, *_with(X, ARR_SHIFTS), calls=1)
case(_roll_arr_sum, *_with(X, ARR_SHIFTS), calls=1)

# ------------------------------------------------------------ strength reduction

def _one_times(x):
    return x * 1


def _one_times_int(a):
    return 1 * a


def _times_one_bool(b):
    return b * 1


def _times_one_true(x):
    return x * True


def _plus_zero(x):
    return x + 0


def _minus_zero(x):
    return x - 0.0


def _pow_one(x):
    return x ** 1


def _pow_half(x):
    return x ** 0.5


def _pow_two(x):
    return x ** 2


def _times_one_is(x):
    y = x * 1
    return y is x, np.shares_memory(y, x)


def _times_one_write(x):
    y = x * 1
    y[0] = 99.0
    return x, y


def _times_one_f32(x):
    return x.astype(np.float32) * 1.0


SPECIAL = np.array([-0.0, 0.0, np.nan, np.inf, -np.inf, -1.0])
B = np.array([True, False, True])
for fn in (_one_times, _plus_zero, _minus_zero, _pow_one, _pow_half, _pow_two,
           _times_one_is, _times_one_write, _times_one_f32, _times_one_true):
    case(fn, (SPECIAL,), (X,))
case(_one_times_int, (INT,), (U,), (B,))
case(_times_one_bool, (B,), (np.array(True),))

# ------------------------------------------------------------ draws and compares

def _draw_cmp(seed, p):
    rng = np.random.default_rng(seed)
    return 1.0 if rng.random() < p else -1.0


def _legacy_draw(seed, p):
    np.random.seed(seed)
    u = np.random.rand()
    return u if u > p else p


def _cmp_chain(x, a, b):
    s = float(x.sum())
    return a < s <= b


def _nan_cmp(x, c):
    m = float(x.max())
    return m > c, m == c, m != c


for fn in (_draw_cmp, _legacy_draw):
    case(fn, (0, 0.5), (1, 0.5), (2, 0.0), (3, 1.0), (4, float("nan")), (5, -0.0),
         (0, np.float32(0.5)), calls=1)
case(_cmp_chain, (X, 0.0, 10.0), (X, 6.5, 6.5), (X, float("nan"), 7.0), (X, -1, 2 ** 70),
     calls=1)
case(_nan_cmp, (X, 4.0), (X, float("nan")), (np.array([np.nan]), 1.0), (X, 2 ** 70),
     calls=1)

# ------------------------------------------------------------- sign-guarded powers

def _sign_pow_sqrt(x, c):
    return x * c ** 0.5 if c >= 0 else x


def _sign_pow_neg(x, c):
    return x + (c ** 1.5 if c > 0 else -((-c) ** 1.5))


def _sign_pow_frac_int(x, n):
    return x * n ** 0.25 if n >= 0 else x * 0


def _pow_zero_base(x, c):
    return x + 0.0 ** c if c >= 0 else x


def _pow_of_sum(x, c):
    s = float(x.sum())
    return (s - c) ** 2 + (abs(s - c)) ** 0.5


def _pow_array_int_exp(x, n):
    return x ** n if n >= 0 else x ** float(n)


def _exp_decay_quot(x, t):
    return x * 0.5 ** (t // 2) * 0.75 ** (t % 2)


for fn in (_sign_pow_sqrt, _sign_pow_neg, _pow_zero_base, _pow_of_sum):
    case(fn, *_with(X, FLOATS), calls=1)
for fn in (_sign_pow_frac_int, _pow_array_int_exp, _exp_decay_quot):
    case(fn, *_with(X, INTS[:4] + INTS[8:]), calls=1)
case(_exp_decay_quot, *_with(X, INTS[4:8] + (3,)), calls=1, name="exp_decay_quot_huge")
