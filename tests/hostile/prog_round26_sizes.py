"""Round 26, data-dependent sizes in Python arithmetic and loop bodies
(``variables/size_values.py``: ``truth_numbers``, ``truth_logic``, ``truth_operands``,
``LoopScope.localize``). A comparison of counts (``len(x[x > 0]) > 2``) in arithmetic
is the int the graph computes, ``&``/``|``/``^`` of two such comparisons a bool, one
beside an array or a NumPy scalar a 0-d bool array; in a loop node's body each count
from before the loop is a body input. The programs check the exact result types (bool
vs int vs ``np.int8``), NumPy scalars whose arithmetic overflows and warns, counts that
are 0, values computed in the loop that escape it, and while loops.

    >>> def _bump(x):
    ...     return (len(x[x > 0]) > 2) + 1
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round26_sizes")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 3.0, 0.5, -0.5, 7.0])
X_NONE = -np.abs(X) - 1.0
X_ONE = np.array([-1.0, 2.0, -3.0])
X_ALL = np.abs(X) + 1.0
X_EMPTY = np.zeros(0)
X_NAN = np.array([np.nan, 1.0, -1.0, np.inf])
MASKS = ((X,), (X_NONE,), (X_ONE,), (X_ALL,), (X_EMPTY,), (X_NAN,))
SEGS = ((X, [1, 3, 3, 6]), (X, [0, 0]), (X_ONE, [0, 1, 3]), (X_EMPTY, [0, 0, 0]))


def _n(x):
    return len(x[x > 0])


# ------------------------------------------------------------ comparisons in arithmetic

def _bump(x):
    return (len(x[x > 0]) > 2) + 1


def _negate(x):
    n = _n(x)
    return -(n > 0), +(n > 1), -(n == 0) * 2.5


def _truth_times_float(x):
    n = _n(x)
    return (n > 0) * 3.5, (n > 1) / 2, (n >= 0) - 0.0, 0.5 ** (n > 2)


def _truth_logic(x):
    n = _n(x)
    m = len(x[x < 0])
    return (n > 0) & (m > 0), (n > 0) | (m > 0), (n > 0) ^ (m > 0), (n > 0) & True


def _truth_logic_types(x):
    n = _n(x)
    m = len(x[x < 0])
    a = (n > 0) & (m > 0)
    b = (n > 1) ^ False
    return type(a).__name__, type(b).__name__, a is True, b is False


def _truth_sum(x):
    segs = [x[:2], x[2:2], x[x > 0], x[x > 100]]
    return sum(len(s) > 0 for s in segs), sum(s.size > 1 for s in segs)


def _truth_int8(x):
    n = _n(x)
    return (n > 0) + np.int8(127), np.int8(127) + (n > 0), (n > 0) * np.uint8(255)


def _truth_np_floats(x):
    n = _n(x)
    return (n > 0) + np.float32(1), np.float16(0.5) * (n > 1), (n > 2) - np.float64(1)


def _truth_np_bool(x):
    n = _n(x)
    return (n > 0) & np.True_, np.False_ | (n > 1), (n > 0) ^ np.bool_(True)


def _truth_zero_d(x):
    n = _n(x)
    return (n > 0) + np.array(1, np.int8), np.array(2.5) * (n > 1)


def _truth_array(x):
    n = _n(x)
    return x * (n > 2), x + (n > 0), (x > 0) & (n > 1), (x > 0) | (n > 100)


def _truth_bool_array_minus(x):
    n = _n(x)
    try:
        return (x > 0) - (n > 0)
    except TypeError as e:
        return str(e)


def _truth_count_sum(x):
    c = 0
    c += _n(x) > 0
    c += len(x) > 3
    c += np.count_nonzero(x) > 1
    return c, type(c).__name__


def _truth_compare_chain(x):
    n = _n(x)
    return (0 < n < 3) + 0, (n > 0) == (n > 1), (n > 0) + (n > 0) == 2


def _truth_index(x):
    n = _n(x)
    t = ("no", "yes")
    return t[n > 0], ["a", "b", "c"][(n > 0) + (n > 2)]


def _truth_divide_may_zero(x):
    n = _n(x)
    try:
        return 1 / (n > 0)
    except ZeroDivisionError as e:
        return "zero: " + str(e)


def _truth_floordiv(x):
    n = _n(x)
    return 7 // max(n > 0, 1), (n > 0) % 2, divmod(5, (n > 0) + 1)


def _truth_pow(x):
    n = _n(x)
    return 2 ** (n > 0), (n > 1) ** 2, (n > 0) ** 0.5


def _truth_shift(x):
    n = _n(x)
    return 1 << (n > 0), (n > 1) << 3, 8 >> (n > 2)


def _truth_str(x):
    n = _n(x)
    return str(n > 0), f"{(n > 0) + 1}", repr(-(n > 0)), "%d" % (n > 1)  # noqa: UP031


def _truth_abs_int(x):
    n = _n(x)
    return abs(-(n > 0)), int(n > 0), float(n > 1), bool((n > 0) + 0), round(n > 0)


def _truth_min_max(x):
    n = _n(x)
    return max(n > 0, n > 1), min(-(n > 0), 0), max((n > 0) + 0.5, 1)


for _fn in (_bump, _negate, _truth_times_float, _truth_logic, _truth_logic_types,
            _truth_sum, _truth_int8, _truth_np_floats, _truth_np_bool, _truth_zero_d,
            _truth_array, _truth_bool_array_minus, _truth_count_sum, _truth_compare_chain,
            _truth_index, _truth_divide_may_zero, _truth_floordiv, _truth_pow,
            _truth_shift, _truth_str, _truth_abs_int, _truth_min_max):
    case(_fn, *MASKS)


def _segs_counted(v, p):
    segs = [v[a:b] for a, b in zip(p[:-1], p[1:])]
    return sum(len(s) > 0 for s in segs), -sum(s.size == 0 for s in segs)


case(_segs_counted, *SEGS)


# ------------------------------------------------------------ sizes in loop bodies

def _acc_over_kept(x):
    kept = x[x > 0]
    acc = 0.0
    for i in range(3):
        acc += x[i % len(x)] / max(len(kept), 1) if len(x) else 0.0
    return acc


def _loop_count_escapes(x):
    kept = x[x > 0]
    total = 0
    for _ in range(4):
        total += len(kept)
    return total, type(total).__name__


def _loop_truth_escapes(x):
    kept = x[x > 0]
    flags = 0
    for i in range(3):
        flags += (len(kept) > i)
    return flags


def _loop_floordiv(x):
    kept = x[x > 0]
    out = []
    for i in range(4):
        out.append(i // max(len(kept), 1))
    return out


def _loop_mod_by_count(x):
    kept = x[x > 0]
    out = 0
    for i in range(5):
        out += i % max(len(kept), 1) * 2
    return out


def _loop_new_count_per_trip(x):
    acc = 0
    for t in (0.0, 1.0, 2.0):
        acc += len(x[x > t])
    return acc


def _loop_count_in_array_math(x):
    kept = x[x > 0]
    y = np.zeros(3)
    for i in range(3):
        y[i] = len(kept) * i + (len(kept) > 1)
    return y


def _loop_last_value(x):
    kept = x[x > 0]
    v = -1
    for i in range(3):
        v = len(kept) - i
    return v, i


def _while_count(x):
    kept = x[x > 0]
    k = 0
    while k < 3:
        k += 1
        if k > 10:
            break
    return k * len(kept)


def _while_on_count(x):
    n = len(x[x > 0])
    steps = 0
    while n > 1:
        n //= 2
        steps += 1
    return steps, n


def _loop_bool_logic(x):
    n = _n(x)
    m = len(x[x < 0])
    hits = 0
    for _ in range(2):
        hits += (n > 0) & (m > 0)
        hits += (n > 0) ^ (m > 0)
    return hits, type(hits).__name__


def _loop_mean_kept(x):
    kept = x[x > 0]
    out = 0.0
    for j in range(2):
        out = out + kept.sum() / max(len(kept), 1) * j
    return out


def _loop_index_by_count(x):
    kept = x[x > 0]
    out = []
    for i in range(3):
        out.append(float(x[min(len(kept), len(x) - 1)]) if len(x) else None)
    return out


def _loop_count_as_shape(x):
    kept = x[x > 0]
    out = None
    for _ in range(2):
        out = np.zeros(max(len(kept), 1))
    return out


def _loop_neg_truth(x):
    kept = x[x > 0]
    s = 0
    for i in range(3):
        s -= -(len(kept) > i)
    return s


def _loop_np_scalar_count(x):
    kept = x[x > 0]
    s = np.int8(120)
    for _ in range(3):
        s = s + (len(kept) > 0)
    return s, type(s).__name__


for _fn in (_acc_over_kept, _loop_count_escapes, _loop_truth_escapes, _loop_floordiv,
            _loop_mod_by_count, _loop_new_count_per_trip, _loop_count_in_array_math,
            _loop_last_value, _while_count, _while_on_count, _loop_bool_logic,
            _loop_mean_kept, _loop_index_by_count, _loop_count_as_shape, _loop_neg_truth,
            _loop_np_scalar_count):
    case(_fn, *MASKS)


@scenario
def s_loop_count_changes(r):
    """One function, counts 0, 1, many and back: the body's inputs follow."""
    f = r.compile(_acc_over_kept)
    for x in (X, X_NONE, X_ONE, X_ALL, X_NONE, X):
        r.call(f, x.copy())


# ------------------------------------------------------------ beside NumPy scalars (NEP 50)

def _truth_scalar_wrap(x):
    n = _n(x)
    return (np.uint8(0) - (n > 0), np.int64(2**63 - 1) + (n > 1),
            np.int16(-32768) - (n > 2), (n > 0) * np.int8(-128))


def _truth_graph_scalar(x):
    n = _n(x)
    s = x.sum()
    z = s - s
    return (n > 0) / z, z / (n > 1), (n > 0) // z, (n > 0) % z


def _truth_small_floats(x):
    n = _n(x)
    return ((n > 0) + np.float16(65504), np.float16(np.inf) * (n > 1),
            (n > 0) - np.float32(np.nan), np.complex64(1j) * (n > 0))


def _truth_bool_scalar_errors(x):
    n = _n(x)
    out = []
    for fn in (lambda: (n > 0) - np.True_, lambda: np.False_ - (n > 1),
               lambda: (n > 0) + np.True_, lambda: np.True_ * (n > 0)):
        try:
            out.append(fn())
        except TypeError as e:
            out.append(str(e))
    return out


def _truth_scalar_pow(x):
    n = _n(x)
    try:
        return np.int8(0) ** -(n > 0)
    except ValueError as e:
        return str(e)


for _fn in (_truth_scalar_wrap, _truth_graph_scalar, _truth_small_floats,
            _truth_bool_scalar_errors, _truth_scalar_pow):
    case(_fn, *MASKS)
