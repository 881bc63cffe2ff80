"""Round 36, ints compared with floats (``dynamo/variables/constant.compared_exactly``):
ints past 2**53 against ``2.0**53``, bools, ``np.int64``/``np.float32``/``np.float16``
scalars, NaN, inf, -0.0, ``fractions.Fraction`` and ``decimal.Decimal``, chained
comparisons (``a < t <= b``), ``min``/``max``/``sorted`` of mixed numbers (which one
is returned, and its type), and ``==`` deciding a dict key (``{1: .., 1.0: ..}`` is one
key). The numbers change from call to call as arguments, attributes and list items.

    >>> def _order(x, t, u):
    ...     if t > u:
    ...         return x * 2.0
    ...     return x - 1.0
"""

import decimal
import fractions
import math

import numpy as np
from hostile_check import Programs

reg = Programs("round36_compares")
X = np.array([1.0, -2.0, 0.5])
NAN, INF = math.nan, math.inf
BIG = 2**53


# ---------------------------------------------------------------- the traced functions
def _order(x, t, u):
    if t > u:
        return x * 2.0
    return x - 1.0


def _all_orders(x, t, u):
    return (t < u, t <= u, t > u, t >= u, t == u, t != u), x + 1.0


def _chained(x, t, u):
    if u - 1 < t <= u:
        return x * 3.0
    return x


def _reflected(x, t, u):           # the float on the left
    if u < t:
        return x + 1.0, u >= t
    return x - 1.0, u >= t


def _min_max(x, t, u):
    lo, hi = min(t, u), max(t, u)
    return type(lo).__name__, type(hi).__name__, lo, hi, x * 0.0


def _sorted_mixed(x, t, u):
    s = sorted([u, t, 1, 1.0])
    return [type(v).__name__ for v in s], s, x


def _dict_key(x, t, u):            # 1 == 1.0 == True: one key
    d = {t: "t"}
    d[u] = "u"
    return len(d), list(d.items()), x


def _in_list(x, t, u):
    return t in [u, 2.5], u in (t,), x


def _arith_then_compare(x, t, u):  # t + 1 stays an int; compared with a float
    if t + 1 > u:
        return x * (t - u)
    return x


def _array_scale(x, t, u):
    return x * t > u, (x * u)[0] == t


def _int_float_roundtrip(x, t, u):
    return float(t) == t, int(u) == u if u == u and abs(u) != INF else None, x


def _abs_compare(x, t, u):
    return abs(t) >= abs(u), -t < -u, x


def _loop_count(x, t, u):          # a loop runs while an int is below a float
    n = 0
    k = t
    while k < u and n < 5:
        k += 1
        n += 1
    return n, x * n


FNS = (_order, _all_orders, _chained, _reflected, _min_max, _sorted_mixed, _dict_key,
       _in_list, _arith_then_compare, _array_scale, _int_float_roundtrip, _abs_compare,
       _loop_count)

F = fractions.Fraction
D = decimal.Decimal
PAIRS = {
    "past_2_53": [(X, BIG + 1, 2.0**53), (X, BIG, 2.0**53), (X, BIG - 1, 2.0**53),
                  (X, -BIG - 1, -2.0**53), (X, 2**64 + 1, 2.0**64)],
    "bool_zero": [(X, True, 1.0), (X, False, -0.0), (X, True, 0.5), (X, 0, -0.0),
                  (X, 1, 1.0)],
    "numpy_scalars": [(X, np.int64(BIG + 1), 2.0**53), (X, 3, np.float32(3.0)),
                      (X, 1, np.float16(1.0)), (X, np.int64(7), np.float32(0.1)),
                      (X, np.int8(-1), -1.0)],
    "nan_inf": [(X, 3, NAN), (X, 3, INF), (X, -(2**80), -INF), (X, 0, NAN), (X, 5, 5.0)],
    "exotic": [(X, 1, F(1, 3)), (X, 2, D("2.0")), (X, 1, 1.0), (X, F(1, 2), 0.5),
               (X, D("0.1"), 0.1)],
}

for _i, _fn in enumerate(FNS):
    for _j, (_pname, _pairs) in enumerate(PAIRS.items()):
        if (_i + _j) % 3 == 2:
            continue
        if _fn is _array_scale and _pname == "exotic":
            continue               # Decimal * float array: a TypeError either way
        reg.case(_fn, *_pairs, calls=1, name=f"{_fn.__name__[1:]}_{_pname}")


# ---------------------------------------------------------------- scenarios
class Counter:
    def __init__(self, t):
        self.t = t


def _s_attribute_past_2_53(r):
    """An attribute counter stepped past 2**53 by the trace, compared with a float."""
    def f(c, x):
        c.t += 1
        if c.t > 2.0**53:
            return x * 2.0
        return x
    c = Counter(BIG - 2)
    g = r.compile(f)
    for _ in range(5):
        r.call(g, c, X.copy())
        r.see("t", c.t)


def _s_list_items_compared(r):
    """Items of a growing list, ints and floats, compared with the last item."""
    def f(h, x, v):
        h.append(v)
        return [a < h[-1] for a in h[-3:]], x
    h = [1]
    g = r.compile(f)
    for v in (2.0, BIG + 1, 2.0**53, True, -0.0, 0, NAN, 3):
        r.call(g, h, X.copy(), v)


def _s_global_threshold(r):
    """A global float threshold rebound between calls; the int is an argument."""
    def f(x, t):
        return (x * 2.0 if t >= THRESHOLD[0] else x), t < THRESHOLD[0]
    g = r.compile(f)
    for t, th in ((3, 2.5), (BIG + 1, 2.0**53), (BIG + 1, 2.0**53 + 2), (0, -0.0), (1, NAN)):
        THRESHOLD[0] = th
        r.call(g, X.copy(), t)


THRESHOLD = [0.0]

reg._add("attribute_past_2_53", _s_attribute_past_2_53, "")
reg._add("list_items_compared", _s_list_items_compared, "")
reg._add("global_threshold", _s_global_threshold, "")
