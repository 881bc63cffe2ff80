"""Round 39, numbers: a Python int/float chosen by an ``if`` on array data kept as a
graph number (``dynamo/translator/number_selects.py``), and floats made from changing
ints used as sizes (``ShapeEnv.floats_as_sizes``). Counters that start as floats,
huge ints, bools, ``np.int64``; increments of two types; ``-0.0`` and NaN; the counter
read with ``str()``, used as an index, a shape, a trip count, compared, returned,
stored, appended, multiplied past int64; the ``if`` at the end of a loop body;
conditions that raise. Sizes: ``np.arange(n + 1.0)``, ``np.zeros(int(n + 1.0))``,
``n + 0.5``, negative, zero, a numpy int, floats that round (``2**53 + 1``).

    >>> def _count_above(x, limit):
    ...     total = 0
    ...     for v in x:
    ...         if float(v) > limit:     # a graph number: int(where(flag, 1, 0)) + ...
    ...             total += 1
    ...     return total
"""

import math

import numpy as np
from hostile_check import Programs

reg = Programs("round39_numbers")
X = np.array([0.5, -1.0, 2.0, 3.5])
Y = np.array([-2.0, 4.0, 1.0, -0.5])
NANX = np.array([np.nan, 1.0, -1.0, 2.0])
ZX = np.array([-0.0, 0.0, 1.0, -1.0])


class Box:
    def __init__(self):
        self.n = 0
        self.log = []


# ---------------------------------------------------------------- counters chosen by if
def _count_above(x, limit):
    total = 0
    for v in x:
        if float(v) > limit:
            total += 1
    return total


def _count_float(x, limit):
    total = 0.0
    for v in x:
        if float(v) > limit:
            total += 1.0
    return total, type(total).__name__


def _count_huge(x, limit):
    total = 2 ** 63 - 3
    for v in x:
        if float(v) > limit:
            total += 1
    return total


def _count_bool_start(x, limit):
    found = False
    for v in x:
        if float(v) > limit:
            found += 1
    return found, type(found).__name__


def _count_bool_flag(x, limit):
    found = False
    for v in x:
        if float(v) > limit:
            found = True
    return found


def _count_np_int(x, limit):
    total = np.int64(0)
    for v in x:
        if float(v) > limit:
            total += 1
    return total, type(total).__name__


def _count_two_types(x, limit):
    total = 0
    for v in x:
        if float(v) > limit:
            total += 1
        else:
            total += 0.5
    return total, type(total).__name__


def _count_mixed_else_int(x, limit):
    total = 0.0
    for v in x:
        if float(v) > limit:
            total = total + 1
        else:
            total = 0
    return total, type(total).__name__


def _neg_zero(x, limit):
    total = -0.0
    for v in x:
        if float(v) > limit:
            total += 0.0
    return total, math.copysign(1.0, total)


def _nan_way(x, limit):
    best = 0.0
    for v in x:
        if float(v) > limit:
            best = float("nan")
    return best, best != best


def _nan_condition(x, limit):
    total = 0
    for v in x:
        if v > limit:
            total += 2
    return total


def _counter_str(x, limit):
    c = 0
    for v in x:
        if float(v) > limit:
            c += 1
    return str(c) + "/" + repr(c), f"{c:03d}"


def _counter_index(x, limit):
    c = 0
    for v in x:
        if float(v) > limit:
            c += 1
    return x[c - 1], x[:c]


def _counter_shape(x, limit):
    c = 0
    for v in x:
        if float(v) > limit:
            c += 1
    return np.zeros(c), np.ones((c, 2)).sum()


def _counter_trips(x, limit):
    c = 0
    for v in x:
        if float(v) > limit:
            c += 1
    out = []
    for i in range(c):
        out.append(i * 2)
    return out


def _counter_compared(x, limit):
    c = 0
    for v in x:
        if float(v) > limit:
            c += 1
    if c >= 2:
        return x * c
    return x - c


def _counter_stored(x, limit, box):
    for v in x:
        if float(v) > limit:
            box.n += 1
    box.log.append(box.n)
    return x + box.n


def _counter_appended(x, limit, log):
    c = 0
    for v in x:
        if float(v) > limit:
            c += 1
    log.append(c)
    log.append(type(c).__name__)
    return x * 2.0


def _counter_times_huge(x, limit):
    c = 0
    for v in x:
        if float(v) > limit:
            c += 1
    return c * 2 ** 62, c << 62, c ** 40


def _counter_divided(x, limit):
    c = 0
    for v in x:
        if float(v) > limit:
            c += 1
    return x / c, 7 // c


def _counter_caught(x, limit, log):
    c = 0
    for v in x:
        if float(v) > limit:
            c += 1
    log.append("before")
    try:
        r = 10 % c
    except ZeroDivisionError as e:
        log.append(("caught", str(e)))
        r = -1
    return x + r


def _equal_pairs(p, q):
    correct = 0
    for a, b in zip(p, q):
        if a == b:
            correct += 1
    return correct / len(p)


def _if_at_end(x, limit):
    c = 0
    acc = 0.0
    for i in range(len(x)):
        acc = acc + float(x[i]) * 2
        if acc > limit:
            c += 1
    return c, acc


def _sum_chosen(x, limit):
    s = 0.0
    for v in x:
        if float(v) > limit:
            s += float(v)
        else:
            s -= 1.0
    return s, x * s


def _two_counters(x, limit):
    lo = hi = 0
    for v in x:
        if float(v) > limit:
            hi += 1
        else:
            lo += 1
    return hi - lo, (hi, lo), {hi: "hi", lo: "lo"}


def _counter_raising_cond(x, limit):
    c = 0
    for i in range(5):
        if float(x[i]) > limit:
            c += 1
    return c


def _counter_ambiguous(x, limit):
    c = 0
    for i in range(len(x)):
        if x[i:i + 2] > limit:
            c += 1
    return c


def _counter_same_both(x, limit):
    c = 3
    for v in x:
        if float(v) > limit:
            c = 3
        else:
            c = 3
    return c, x * c


def _counter_factorial(x, limit):
    c = 0
    for v in x:
        if float(v) > limit:
            c += 1
    return math.factorial(c), hash(c), c == 2.0, c != 2


def _float_inf(x, limit):
    t = 1e308
    for v in x:
        if float(v) > limit:
            t *= 10.0
    return t, x * t


for _fn in (_count_above, _count_float, _count_huge, _count_bool_start, _count_bool_flag,
            _count_np_int, _count_two_types, _count_mixed_else_int, _neg_zero, _nan_way,
            _nan_condition, _counter_str, _counter_index, _counter_shape, _counter_trips,
            _counter_compared, _counter_times_huge, _counter_divided, _if_at_end,
            _sum_chosen, _two_counters, _counter_same_both, _counter_factorial, _float_inf):
    reg.case(_fn, (X, 0.0), (X, 1.0), (Y, 0.0), (X, 10.0), (NANX, 0.0), (ZX, -0.0),
             calls=1)
reg.case(_counter_stored, (X, 0.0, Box()), (Y, 1.0, Box()), (X, 9.0, Box()), calls=2)
reg.case(_counter_appended, (X, 0.0, []), (Y, 5.0, []), (NANX, 0.5, []), calls=2)
reg.case(_counter_caught, (X, 0.0, []), (X, 9.0, []), (Y, 0.0, []), calls=2)
reg.case(_equal_pairs, (X, X.copy()), (X, Y), (NANX, NANX.copy()), (ZX, -ZX), calls=1)
reg.case(_counter_raising_cond, (np.arange(6.0), 2.0), (np.arange(4.0), 1.0),
         (np.arange(5.0), 9.0), calls=1)
reg.case(_counter_ambiguous, (np.array([1.0]), 0.0), (X, 0.0), calls=1)


# ---------------------------------------------------------------- floats as sizes
def _arange_plus_one(n):
    return np.arange(n + 1.0)


def _zeros_int(n):
    return np.zeros(int(n + 1.0)), int(n + 1.0)


def _arange_half(n):
    return np.arange(n + 0.5), np.arange(n / 2)


def _arange_step(n):
    return np.arange(0, n + 1.0, 0.5)


def _eye_float(n):
    return np.eye(n + 1.0)


def _ones_tuple_float(n):
    return np.ones((n + 1.0,))


def _linspace_memo(n, memo):
    key = n + 1.0
    if key not in memo:
        memo[key] = np.linspace(0.0, 1.0, int(key))
    return memo[key], len(memo), sorted(memo)


def _rounding_difference(n):
    return np.arange((n + 1.0) - n), (n + 1.0) - n


def _full_float(n):
    return np.full(int(n * 2.0), n + 1.0)


def _round_size(n):
    return np.empty(round(n + 0.4)).shape, np.zeros(round(n * 1.0))


for _fn in (_arange_plus_one, _zeros_int, _arange_half, _arange_step, _eye_float,
            _ones_tuple_float, _rounding_difference, _full_float, _round_size):
    reg.case(_fn, (3,), (4,), (7,), (0,), (-2,), (np.int64(5),), (2 ** 53 + 1,), calls=1)


@reg.scenario
def s_linspace_memo_kept(r):
    """One memo keyed by floats over calls: 4.0 and 4 are one key, numpy ints too."""
    memo = {4: np.zeros(2)}
    f = r.compile(_linspace_memo)
    for n in (2, 3, 3, 5, np.int64(5), 0, 3):
        r.call(f, n, memo)
    r.see("memo keys", [(type(k).__name__, k) for k in memo])


# ---------------------------------------------------------------- more floats as sizes
def _size_tiny(n):
    return np.arange(n + 1e-16)


def _size_neg(n):
    return np.arange(-n + 10.0), np.arange(2.0 * n - 1.0)


def _size_div(n):
    return np.arange(n / 1.0), np.zeros(int(n / 2.0))


def _size_dt(n):
    return np.arange(n + 1.0, dtype=np.int8), np.arange(1.0, n + 1.0)


def _size_repeat(n):
    return np.repeat(np.arange(2.0), n + 1.0)


def _size_tile(n):
    return np.tile(np.arange(2.0), int(n + 1.0))


def _size_reshape(n):
    return np.zeros(12).reshape(n + 1.0, -1)


def _size_zeros2(n):
    return np.zeros((2, n + 1.0))


def _size_full(n):
    return np.full(n + 1.0, 2)


def _size_lin(n):
    return np.linspace(0, 1, n + 1.0)


def _size_rng(n):
    return range(n + 1.0)


def _size_shape_minus(n):
    return np.arange(n + 1.0).shape[0] - n, np.arange(n + 1.0)[n]


def _size_floor(n):
    return np.arange(math.floor(n + 0.5)), np.arange(math.ceil(n - 0.5))


def _size_hist(n):
    return np.histogram(X, bins=n + 1.0)


def _size_rand(n):
    return np.random.default_rng(0).random(n + 1.0)


def _size_int_round(n):
    return np.ones(int(n * 1.5) + 1)


def _size_empty_like(n):
    return np.zeros(int(n + 1.0) * 2).reshape(-1, 2).shape


def _size_sum_floats(n):
    return np.arange(n + 1.0).sum(), np.arange(n + 1.0).mean()


def _size_float_end(n):
    return np.arange(0.0, n + 1.0, 1.0), np.arange(n + 1.0, 0, -1.0)


def _size_cumsum(n):
    return np.cumsum(np.ones(int(n + 1.0))), np.arange(n + 1.0) * n


def _size_big_slice(n):
    return X[:int(n + 1.0)], X[int(n - 1.0):]


_SIZES = (_size_tiny, _size_neg, _size_div, _size_dt, _size_repeat, _size_tile, _size_reshape,
          _size_zeros2, _size_full, _size_lin, _size_rng, _size_shape_minus, _size_floor,
          _size_hist, _size_rand, _size_int_round, _size_empty_like, _size_sum_floats,
          _size_float_end, _size_cumsum, _size_big_slice)
for _fn in _SIZES:
    reg.case(_fn, (3,), (4,), (7,), (0,), (-2,), (np.int64(5),), (True,), (2**53,), (5,),
             calls=1)
