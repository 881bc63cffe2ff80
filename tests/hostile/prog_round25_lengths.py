"""Round 25, lengths of data-dependent sizes as numbers, round 24's *counts* pushed
further: ``len(x[x > 0])``, ``np.count_nonzero``, ``np.flatnonzero(..).size``,
``np.unique(..).size`` and ``seg.shape[0]`` of ``v[p[0]:p[1]]`` in arithmetic with
Python floats, ints, bools, NumPy scalars of every width and 0-d arrays; division by a
count that may be 0 (inside and outside the program's own ``try``, ``/``, ``//``,
``%``, ``divmod``, ``np.divide``, under ``np.errstate``); comparisons of counts
returned as data (``n > 3``, ``n == m``, ``n in (0, 1)``, chained, ``np.array(n > 2)``),
the exact Python and NumPy types of every result (``int`` vs ``np.int64``, ``bool``
vs ``np.bool_``), counts used as shapes, indices and ranges, two counts from one mask.

    >>> def _frac(x):
    ...     return len(x[x > 0]) / len(x)
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round25_lengths")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 3.0, 0.5, -0.5, 7.0, np.nan])
X_NONE = -np.abs(X[:-1]) - 1.0
X_ONE = np.array([-1.0, 2.0, -3.0])
X_ALL = np.abs(X[:-1]) + 1.0
X_EMPTY = np.zeros(0)
MASKS = ((X,), (X_NONE,), (X_ONE,), (X_ALL,), (X_EMPTY,))
V = np.linspace(-3.0, 4.0, 12)
P = np.array([2, 9])
SEGS = ((V, P), (V, np.array([5, 5])), (V, np.array([3, 4])), (V, np.array([9, 2])),
        (V, np.array([-3, 50])))


def _n(x):
    return len(x[x > 0])


# ------------------------------------------------------------ arithmetic and types

def _frac(x):
    return len(x[x > 0]) / len(x) if len(x) else 0.0


def _times_float(x):
    n = _n(x)
    return n * 0.5, n + 1.5, 2.0 ** n, n - 0.0


def _with_bool(x):
    n = _n(x)
    return n + True, n * False, True - n, (n > 0) + (n > 1)


def _with_numpy_scalars(x):
    n = _n(x)
    return (n + np.int8(1), n * np.float32(0.5), n - np.uint8(3), np.int16(n) * 1000,
            n + np.float16(0.25))


def _with_zero_d(x):
    n = _n(x)
    z = np.array(2, np.int8)
    return n + z, n * np.array(0.5, np.float32), z * n


def _types(x):
    n = _n(x)
    m = np.count_nonzero(x > 0)
    k = (x > 0).sum()
    return type(n).__name__, type(m).__name__, type(k).__name__, n == m, n is m


def _count_nonzero_math(x):
    m = np.count_nonzero(x > 0)
    return m / 2, m // 2, m * 1.5, -m, abs(m - 4)


def _flat_size(x):
    s = np.flatnonzero(x > 0).size
    return s * 3, s - len(x), float(s)


def _unique_size(x):
    u = np.unique(np.round(x)).size
    return u, u / 2, u % 3


def _int8_array_times_count(x):
    n = _n(x)
    return np.arange(3, dtype=np.int8) * n, np.ones(2, np.uint8) * (n * 100)


def _pow_count(x):
    n = _n(x)
    return n ** 2, 2 ** n, n ** -1 if n else None, (n - 3) ** 2


def _count_string(x):
    n = _n(x)
    return f"{n}/{len(x)}", str(n), repr(n), "%d" % n, f"{n:03d}"  # noqa: UP031 (the % format of a count)


def _count_hash(x):
    n = _n(x)
    return hash(n) == hash(int(n)), {n: "k"}, [0] * n


for _fn in (_frac, _times_float, _with_bool, _with_numpy_scalars, _with_zero_d, _types,
            _count_nonzero_math, _flat_size, _unique_size, _int8_array_times_count,
            _pow_count, _count_string, _count_hash):
    case(_fn, *MASKS)


# ------------------------------------------------------------ division by a count

def _mean_kept(x):
    k = x[x > 0]
    return k.sum() / len(k)


def _mean_kept_try(x):
    k = x[x > 0]
    try:
        return k.sum() / len(k)
    except ZeroDivisionError:
        return "none kept"


def _python_div_try(x):
    try:
        return 10 / _n(x)
    except ZeroDivisionError as e:
        return str(e)


def _floordiv_try(x):
    n = _n(x)
    try:
        return 10 // n, 10 % n, divmod(7, n)
    except ZeroDivisionError as e:
        return str(e)


def _numpy_divide_count(x):
    n = _n(x)
    return np.divide(1.0, n), np.float64(5) / n


def _errstate_divide(x):
    n = np.count_nonzero(x > 0)
    with np.errstate(divide="raise"):
        try:
            return np.float64(1.0) / n
        except FloatingPointError as e:
            return str(e)


def _int_over_int_count(x):
    n = np.count_nonzero(x > 0)
    try:
        return 7 // n
    except ZeroDivisionError:
        return -1


def _div_by_count_outside(x):
    return x.sum() / _n(x)


def _count_divides_array(x):
    return x[:3] / _n(x)


def _mod_by_count(x):
    n = _n(x)
    try:
        return len(x) % n, -len(x) % n
    except ZeroDivisionError:
        return None


for _fn in (_mean_kept, _mean_kept_try, _python_div_try, _floordiv_try, _numpy_divide_count,
            _errstate_divide, _int_over_int_count, _div_by_count_outside,
            _count_divides_array, _mod_by_count):
    case(_fn, *MASKS)


# ------------------------------------------------------------ comparisons as data

def _cmp_returned(x):
    n = _n(x)
    return n > 3, n == 0, n != 1, n <= 2, 0 < n < 5


def _cmp_two_counts(x):
    n = _n(x)
    m = len(x[x < 0])
    return n == m, n > m, n + m == len(x), max(n, m), min(n, m)


def _cmp_in(x):
    n = _n(x)
    return n in (0, 1), n in [2, 3], n not in range(4)


def _cmp_as_array(x):
    n = _n(x)
    return np.array(n > 2), np.array([n == 0, n == 1]), np.bool_(n > 1)


def _cmp_times_array(x):
    n = _n(x)
    return (n > 2) * x[:2], x[:2] * (n == 0), np.where(n > 1, x[:2], -x[:2])


def _cmp_numpy_count(x):
    m = np.count_nonzero(x > 0)
    return m > 2, type(m > 2).__name__, m == np.int64(3)


def _cmp_stored(x, out):
    n = _n(x)
    out.append(n >= 2)
    out.append(n)
    return len(out)


def _cmp_not(x):
    n = _n(x)
    return not n, bool(n), n and 5, n or "zero"


for _fn in (_cmp_returned, _cmp_two_counts, _cmp_in, _cmp_as_array, _cmp_times_array,
            _cmp_numpy_count, _cmp_not):
    case(_fn, *MASKS)
case(_cmp_stored, *((m[0], []) for m in MASKS))


# ------------------------------------------------------------ counts as shapes and indices

def _zeros_of_count(x):
    n = _n(x)
    return np.zeros(n), np.ones((2, n), np.int8), np.full(n, n)


def _range_of_count(x):
    n = _n(x)
    return list(range(n)), np.arange(n) * 2, sum(range(n))


def _count_as_index(x):
    n = _n(x)
    try:
        return x[n]
    except IndexError as e:
        return str(e)


def _count_as_slice(x):
    n = _n(x)
    return x[:n], x[n:], x[-n:] if n else x[:0]


def _reshape_by_count(x):
    k = x[x > 0]
    n = len(k)
    try:
        return k.reshape(n, 1), k.reshape(-1, n) if n else k
    except ValueError as e:
        return str(e)


def _seg_len(v, p):
    seg = v[p[0]:p[1]]
    n = seg.shape[0]
    return n, n / 4, n == 7, seg.sum() / max(n, 1), type(n).__name__


def _seg_div(v, p):
    seg = v[p[0]:p[1]]
    try:
        return seg.sum() / len(seg)
    except ZeroDivisionError:
        return "empty"


def _seg_two(v, p):
    a = v[p[0]:p[1]]
    b = v[p[1]:]
    return len(a) + len(b), len(a) > len(b), len(a) * len(b)


for _fn in (_zeros_of_count, _range_of_count, _count_as_index, _count_as_slice,
            _reshape_by_count):
    case(_fn, *MASKS)
for _fn in (_seg_len, _seg_div, _seg_two):
    case(_fn, *SEGS)


@scenario
def s_count_kept_across_calls(r):
    """A count returned, then compared and used after the next call."""
    f = r.compile(_types)
    a = r.call(f, X.copy())
    b = r.call(f, X_NONE.copy())
    r.see("compared", (a == b, a[3], b[3]))


# ------------------------------------------------------------ counts in NumPy's constructors

def _linspace_of_count(x):
    n = _n(x)
    return np.linspace(0.0, 1.0, n), np.eye(n, dtype=np.int8), np.tile(x[:2], n)


def _repeat_of_count(x):
    n = _n(x)
    return np.repeat(x[:2], n), n * [1.5], "ab" * n


def _count_with_uint8(x):
    n = _n(x) * 60
    return np.uint8(200) + n, np.int8(100) - n, np.float16(n) * np.float16(9000)


def _count_with_float32(x):
    n = _n(x)
    return np.float32(n) / 3, n / np.float32(2), type(n / np.float32(2)).__name__


def _count_round(x):
    n = _n(x)
    return round(n / 3, 1), round(n / 2), n.__index__(), sorted([n, 2.5, -1])


def _count_math(x):
    import math
    n = _n(x)
    return math.comb(n + 2, 2), math.factorial(n), math.gcd(n, 6), math.isqrt(n)


def _count_write_prefix(x):
    y = x.copy()
    n = _n(x)
    y[:n] = n
    return y


def _count_loop(x):
    n = _n(x)
    acc = 0.0
    for k in range(n):
        acc += x[k] * k
    return acc


def _count_while(x):
    n = _n(x)
    steps = 0
    while n > 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps, n


def _count_fraction_types(x):
    n = np.count_nonzero(x > 0)
    m = len(x)
    return n / m if m else None, np.true_divide(n, m) if m else None


def _kept_mean_std(x):
    k = x[x > 0]
    n = len(k)
    if n < 2:
        return n, None
    return n, k.std(ddof=1), k.sum() / (n - 1)


def _count_of_nan(x):
    n = np.count_nonzero(np.isnan(x))
    m = len(x[x == x])
    return n, m, n + m == len(x), m / max(len(x), 1)


for _fn in (_linspace_of_count, _repeat_of_count, _count_with_uint8, _count_with_float32,
            _count_round, _count_math, _count_write_prefix, _count_loop, _count_while,
            _count_fraction_types, _kept_mean_std, _count_of_nan):
    case(_fn, *MASKS)


# ------------------------------------------------------------ other data-dependent lengths

def _reshape_pairs(x):
    k = x[x > 0]
    try:
        return k.reshape(-1, 2)
    except ValueError as e:          # the message names the count
        return str(e)


def _nonzero_len(x):
    i = np.nonzero(x > 0)[0]
    return len(i) * 2.5, i.size // 2, np.argwhere(x > 0).shape[0]


def _where_len(x):
    return len(np.where(x > 0)[0]) - len(np.where(x < 0)[0])


def _split_by_count(x):
    n = len(x[x > 0])
    try:
        return [p.size for p in np.array_split(x, n)]
    except (ValueError, ZeroDivisionError) as e:
        return type(e).__name__, str(e)


def _compress_len(x):
    c = x.compress(x > 0)
    return len(c) * 1.0, np.extract(x < 0, x).size


def _unique_counts(x):
    u, c = np.unique(np.round(x), return_counts=True)
    return len(u), c.sum(), len(u) == len(x)


def _count_slice_assign(x):
    y = x.copy()
    n = len(x[x > 0])
    y[n:] = -1.0
    y[:n] += 1.0
    return y


def _count_range_step(x):
    n = len(x[x > 0])
    try:
        return list(range(0, 10, n))
    except ValueError as e:
        return str(e)


def _count_bits(x):
    n = len(x[x > 0])
    return n << 3, n >> 1, 1 << n, n & 1, n ^ 5, ~n


def _count_negative_division(x):
    n = len(x[x > 0])
    return -n / 3, (n - 3) / 2, n / -0.5, 0.0 * -n, -0.0 * n


def _count_signed_zero(x):
    n = len(x[x > 0])
    return n * -0.0, -0.0 + n, float(-n), np.float64(-n) * 0.0


def _rows_kept(a):
    r = a[a[:, 0] > 0]
    return len(r), r.shape, r.size / max(len(r), 1)


def _flat_kept_2d(a):
    k = a[a > 0]
    return len(k), k.ndim, len(k) / a.size if a.size else None


for _fn in (_reshape_pairs, _nonzero_len, _where_len, _split_by_count, _compress_len,
            _unique_counts, _count_slice_assign, _count_range_step, _count_bits,
            _count_negative_division, _count_signed_zero):
    case(_fn, *MASKS)
A2 = np.array([[1.0, -1.0], [-2.0, 3.0], [4.0, 0.5]])
for _fn in (_rows_kept, _flat_kept_2d):
    case(_fn, (A2,), (-A2,), (np.zeros((0, 2)),), (np.abs(A2),))
