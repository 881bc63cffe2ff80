"""Round 28, ``round(float(x), n)`` of a float the graph computes kept in the graph
(``symbolic/math_calls.round_call``): round half to even on the float's binary value
(``round(2.675, 2) == 2.67``), ``n`` negative, 0, None, large (``round(x, 400)`` is
``x``), from an argument that changes, a bool; ``round(x)`` an int (ValueError for NaN,
OverflowError for inf); ``round(1.7e308, -308)`` OverflowError; float32 and float16
sums made Python floats; ``round`` of NumPy scalars (``np.float64.__round__``: a NumPy
float with digits) and ``np.round`` of Python floats; the rounded float then used
(formatted, compared, in arithmetic with arrays, as a dict value).

    >>> def _round_mean(x):
    ...     return round(float(x.mean()), 3)
"""

import numpy as np
from hostile_check import Args, Programs

reg = Programs("round28_rounds")
case = reg.case
scenario = reg.scenario

X = np.array([2.675, 0.125, -2.5, 1.005, 3.3333333])
X_HALF = np.array([0.5, 1.5, 2.5, -0.5, -1.5])
X_NAN = np.array([np.nan, 1.0, 2.0])
X_INF = np.array([np.inf, 1.0, 2.0])
X_NINF = np.array([-np.inf, 1.0])
X_BIG = np.array([1.7976931348623157e308, 1.0])
X_TINY = np.array([5e-324, 2.5e-310])
X_NEGZ = np.array([-0.0, -0.4, 0.4])
X_NEGSMALL = np.array([-0.001, -0.0004, 0.0])
X_INT = np.array([15, 25, -35, 7])
X_F32 = np.array([2.675, 0.125, 1.1, 1e30], np.float32)
X_F16 = np.array([2.5, 0.1, 65504.0], np.float16)
X_HUGE = np.array([1e22, 123456789.123, -9.5e15])
ALL = tuple((x,) for x in (X, X_HALF, X_NAN, X_INF, X_NINF, X_BIG, X_TINY, X_NEGZ,
                           X_NEGSMALL, X_INT, X_F32, X_F16, X_HUGE))
FINITE = tuple((x,) for x in (X, X_HALF, X_TINY, X_NEGZ, X_NEGSMALL, X_INT, X_F32,
                              X_F16, X_HUGE))


def _typed(*values):
    return [(type(v).__name__, v) for v in values]


def _catch(fn, *args):
    try:
        v = fn(*args)
        return type(v).__name__, v
    except (ValueError, OverflowError, TypeError) as e:
        return type(e).__name__, str(e)


def _digits_range(x):
    v = float(x[0])
    return _typed(*(round(v, n) for n in (-400, -308, -3, -1, 0, 1, 2, 3, 15, 17, 400)))


def _digits_none(x):
    v = float(x[0])
    return _catch(round, v, None), _catch(round, v)


def _round_to_int(x):
    try:
        return _typed(round(float(x[0])))
    except ValueError as e:
        return "value error", str(e)
    except OverflowError as e:
        return "overflow", str(e)


def _round_mean(x):
    return _typed(round(float(x.mean()), 3), round(float(x.sum()), 1))


def _round_each(x):
    return [round(float(v), 2) for v in x]


def _round_each_int(x):
    out = []
    for v in x:
        try:
            out.append(round(float(v)))
        except (ValueError, OverflowError) as e:
            out.append(type(e).__name__)
    return out


def _round_half_even(x):
    return [round(float(v), 0) for v in x[:3]], [round(float(v) * 10, -1) for v in x[:3]]


def _round_negzero(x):
    v = float(x[0])
    return _typed(round(v, 0), round(v, 2), round(-abs(v), 1), round(v * 0.0, 3))


def _round_big_negative(x):
    v = float(x[0])
    return _catch(round, v, -308), _catch(round, v, -307), _catch(round, v * 10, -300)


def _round_bool_digits(x):
    v = float(x[0])
    return _typed(round(v, True), round(v, False))


def _round_float_digits(x):
    v = float(x[0])
    return _catch(round, v, 2.0), _catch(round, v, np.int64(2))


def _round_np_float(x):
    s = x.sum()
    return _catch(round, s, 2), _catch(round, s), _catch(round, x[0], 1)


def _np_round_of_float(x):
    v = float(x.mean())
    return _typed(np.round(v, 2), np.round(v), np.around(v, -1), np.round(x.mean(), 2))


def _round_f32_value(x):
    v = float(x.astype(np.float32).sum())
    return _typed(round(v, 3), round(v, 6), round(v))


def _round_f16_value(x):
    v = float(x.astype(np.float16)[1])
    return _typed(round(v, 3), round(v, 4), v)


def _round_then_format(x):
    v = round(float(x.mean()), 2)
    return f"{v}", f"{v:.3f}", str(v), repr(v), "%s" % v, "%.1f" % v  # noqa: UP031


def _round_then_compare(x):
    v = round(float(x.mean()), 1)
    return v == 1.3, v > 0, v < 0.05, v == v, v is v


def _round_then_array(x):
    v = round(float(x.mean()), 2)
    return x * v, np.full(2, v), np.array([v, -v])


def _round_report(x):
    return {"mean": round(float(x.mean()), 3), "max": round(float(x.max()), 1),
            "min": round(float(x.min()), -1), "n": len(x)}


def _round_chain(x):
    v = float(x.std())
    return round(round(v, 3), 1), round(v * 100, 0) / 100, round(-v, 2)


def _round_int_of_sum(x):
    n = int(x.astype(np.int64).sum())
    return _typed(round(n), round(n, -1), round(n, 2), round(n, -2))


def _round_min_max(x):
    vs = [round(float(v), 1) for v in x[:3]]
    return max(vs), min(vs), sorted(vs), sum(vs)


def _round_then_int(x):
    v = round(float(x.mean()), 1)
    try:
        return int(v), int(round(v)), float(round(v, 0))
    except (ValueError, OverflowError) as e:
        return type(e).__name__, str(e)


def _round_printed(x):
    v = round(float(x.mean()), 2)
    print("mean", v, round(float(x[0]), 1))
    return v


def _round_in_if(x):
    v = round(float(x.mean()), 1)
    if v > 1.0:
        return "high", v
    return "low", v


def _round_math_isnan(x):
    import math
    v = round(float(x[0]), 2)
    return math.isnan(v), math.isinf(v), math.copysign(1.0, v)


def _round_hash_key(x):
    v = round(float(x[0]), 1)
    d = {v: "k"}
    return hash(v) == hash(round(float(x[0]), 1)), list(d)


def _round_complex_refused(x):
    return _catch(round, complex(float(x[0]), 1.0), 2)


def _round_divided(x):
    v = float(x.sum()) / 3.0
    return round(v, 4), round(v / 7.0, 10), round(v * 1e-5, 8)


def _round_of_python_div(x):
    n = len(x[x > 0])
    return round(n / 3, 2), round(n / 7)


for _fn in (_digits_range, _digits_none, _round_to_int, _round_mean, _round_each,
            _round_each_int, _round_half_even, _round_negzero, _round_big_negative,
            _round_bool_digits, _round_float_digits, _round_np_float, _np_round_of_float,
            _round_f32_value, _round_f16_value, _round_then_format, _round_then_compare,
            _round_then_array, _round_report, _round_chain, _round_int_of_sum,
            _round_min_max, _round_then_int, _round_printed, _round_in_if,
            _round_math_isnan, _round_hash_key, _round_complex_refused, _round_divided,
            _round_of_python_div):
    case(_fn, *ALL)


# ------------------------------------------------------------------ digits that change

def _round_digits_arg(x, n):
    return _typed(round(float(x.mean()), n), round(float(x[0]), n))


def _round_digits_kw(x, n):
    return round(float(x.mean()), ndigits=n)


def _round_number_arg(v, n):
    return round(v, n), round(v * 2.0, n)


case(_round_digits_arg, *((X, n) for n in (0, 1, 2, -1, 5, 3, 400, -400)))
case(_round_digits_arg, *((X_HALF, n) for n in (None, 0, 1, None)), name="round_digits_none")
case(_round_digits_kw, *((X, n) for n in (2, None, -1, 3)))
case(_round_digits_arg, (X, 2.0), (X, 2), name="round_digits_float_refused")
case(_round_number_arg, *(Args(v, n) for v, n in ((2.675, 2), (0.125, 2), (2.5, 0),
                                                   (1e308, -308), (float("nan"), 1),
                                                   (float("inf"), 3), (-0.0, 1),
                                                   (2.675, None))))


@scenario
def s_round_many_calls(r):
    """The same compiled function over changing means and digits (one entry reused)."""
    f = r.compile(_round_digits_arg)
    rng = np.random.default_rng(28)
    for k in range(8):
        r.call(f, rng.normal(size=6) * 10 ** (k - 3), k % 4 - 1)


# ------------------------------------------------------------------ digits the data decides

def _digits_from_count(x):
    n = len(x[x > 0])
    return round(float(x.mean()), n), round(float(x[0]), -n)


def _digits_from_shape(x):
    return round(float(x.sum()), x.shape[0] - 3), round(float(x.sum()), -x.shape[0])


def _digits_from_truth(x):
    n = len(x[x > 0])
    return round(float(x.mean()), -(n > 1)), round(float(x.mean()), not (n > 1))


def _round_of_item(x):
    v = x[0].item() if x.size else 0.0
    return _typed(round(v, 2), round(v * 1.0, 1))


def _round_int_methods(x):
    try:
        k = round(float(x[0]) * 3.0)
    except (ValueError, OverflowError) as e:
        return type(e).__name__
    return k.bit_length(), k % 7, -k, k // 2


def _round_fsum(x):
    import math
    return round(math.fsum(float(v) for v in x), 4)


for _fn in (_digits_from_count, _digits_from_shape, _digits_from_truth, _round_of_item,
            _round_int_methods, _round_fsum):
    case(_fn, *ALL)
