"""Round 29, order comparisons of a changing float kept as branch decisions
(``symbolic/number_decisions.py`` ``decide``: ``t >= 0.35`` is guarded as its outcome, not
pinned to ``t``'s value). Each program is called with a sequence of values that keeps
changing, so the float becomes symbolic, and then with the values a guard on the
outcome must not wave through: NaN (every order comparison False), -0.0 and 0.0,
infinities, ints past 2**53 compared with a float (Python compares exactly), bools,
a float subclass, NumPy scalars in place of a float, chained comparisons, operands
that are arithmetic of two changing floats (rounding), and a branch that flips.

    >>> def _ge(x, t):
    ...     if t >= 0.35:
    ...         return x * t
    ...     return x - t
"""

import math

import numpy as np
from hostile_check import Programs

reg = Programs("round29_decisions")
scenario = reg.scenario

X = np.arange(4.0)
NAN, INF = math.nan, math.inf


class FSub(float):
    """A float subclass whose comparisons are its own."""

    def __ge__(self, other):
        return True

    def __lt__(self, other):
        return True


class FPlain(float):
    """A float subclass that only renames itself."""


def _sweep(name, fn, values, pairs=False):
    def run(r):
        f = r.compile(fn)
        for v in values:
            args = v if pairs else (v,)
            r.call(f, X.copy(), *args)
    reg._add(name, run, (fn.__doc__ or "").strip())


# --------------------------------------------------------------- one changing float

def _ge(x, t):
    if t >= 0.35:
        return x * t
    return x - t


def _gt(x, t):
    if t > 0.35:
        return "above", x + 1
    return "below", x


def _lt(x, t):
    return (x * 2 if t < 0.5 else x * 3), t < 0.5


def _le(x, t):
    out = x.copy()
    if t <= 0:
        out[0] = -1.0
    return out


def _chained(x, t):
    if 0 < t < 1:
        return x * t
    return x


def _chained_eq(x, t):
    if 0.0 <= t <= 0.0:
        return "zero", x
    return "other", x + t


def _not_lt(x, t):
    if not (t < 0.35):
        return x * 2
    return x


def _flipped(x, t):
    if 0.35 <= t:
        return x * t
    return -x


def _both_sides(x, t):
    a = t > 0.2
    b = t < 0.8
    return (x * t if a and b else x), a, b


def _int_threshold(x, t):
    if t >= 9007199254740993:          # 2**53 + 1: an exact int
        return "big", x
    return "small", x * 2


def _float_threshold_big(x, t):
    if t > 9007199254740992.0:         # 2.0**53
        return "big", x
    return "small", x


def _decide_twice(x, t):
    n = 0
    if t > 0.1:
        n += 1
    if t > 0.5:
        n += 10
    if t >= 1e300:
        n += 100
    return x * n, n


def _in_loop(x, t):
    k = 0
    v = t
    while v < 1.0 and k < 6:
        v = v * 2 + 0.1
        k += 1
    return x + k, k


def _result_is_bool(x, t):
    c = t >= 0.35
    return type(c).__name__, c, x


def _max_builtin(x, t):
    return x * max(t, 0.35), max(t, 0.35)


def _min_builtin(x, t):
    m = min(0.5, t)
    return x * m, m


def _sign_of_zero(x, t):
    if t >= 0.0:
        return x * math.copysign(1.0, t)
    return x


def _isnan_then(x, t):
    if t != t:
        return "nan", x
    if t >= 0.35:
        return "big", x * t
    return "small", x


SINGLE = {
    "ge": _ge, "gt": _gt, "lt": _lt, "le": _le, "chained": _chained,
    "chained_eq": _chained_eq, "not_lt": _not_lt, "flipped": _flipped,
    "both_sides": _both_sides, "int_threshold": _int_threshold,
    "float_threshold_big": _float_threshold_big, "decide_twice": _decide_twice,
    "in_loop": _in_loop, "result_is_bool": _result_is_bool, "max_builtin": _max_builtin,
    "min_builtin": _min_builtin, "sign_of_zero": _sign_of_zero, "isnan_then": _isnan_then,
}

SEQUENCES = {
    "nan": [0.1, 0.2, 0.5, NAN, 0.6, NAN, 0.1, 0.4],
    "zeros": [0.5, 0.25, -0.0, 0.0, 1.0, -0.0, 0.3],
    "infs": [0.1, 0.2, INF, -INF, 0.4, INF, 0.36],
    "types": [0.1, 0.2, True, np.float64(0.5), FPlain(0.4), 9007199254740993, 0.3, False,
              np.float32(0.36), FSub(0.1), 0.9],
    "bigints": [0.1, 0.2, 9007199254740993, 2 ** 60, -9007199254740993, 0.5,
                9007199254740992.0, 9007199254740992],
    # (each side traced as a symbol before the threshold itself comes)
    "flip": [0.3, 0.4, 0.2, 0.5, 0.35, 0.35000000000000003, 0.34999999999999997, 0.35, 0.3],
}

for fname, fn in SINGLE.items():
    for sname in ("nan", "zeros", "infs", "types", "bigints", "flip"):
        if sname in ("zeros", "bigints") and fname in ("in_loop", "min_builtin"):
            continue
        _sweep(f"{fname}_{sname}", fn, SEQUENCES[sname])


# -------------------------------------------------------- two changing floats

def _sum_ge(x, t, u):
    if t + u >= 0.3:
        return "ge", x * (t + u)
    return "lt", x


def _diff_lt(x, t, u):
    if t - u < 0:
        return x - 1
    return x + 1


def _product_gt(x, t, u):
    return (x if t * u > 0.02 else -x), t * u > 0.02


def _ratio(x, t, u):
    try:
        return x * (1 if t / u > 1.0 else 2)
    except ZeroDivisionError as e:
        return str(e)


def _compare_each_other(x, t, u):
    if t < u:
        return "t", x * t
    if u < t:
        return "u", x * u
    return "neither", x


def _chained_two(x, t, u):
    return x * (1.0 if 0 <= t <= u else 0.0), 0 <= t <= u


def _accumulated(x, t, u):
    s = 0.0
    for _ in range(3):
        s += t
    if s >= u:
        return "reached", x * s
    return "short", x


PAIRS = [(0.1, 0.2), (0.15, 0.15), (0.2, 0.1), (0.3, 0.0), (NAN, 0.1), (0.1, NAN),
         (1e308, 1e308), (-0.0, 0.0), (0.0, -0.0), (INF, INF), (0.1, 0.2), (0.2, 0.3),
         (True, 0.5), (np.float64(0.1), 0.2), (9007199254740993, 1.0)]
PAIRS_ROUNDING = [(0.2, 0.1), (0.25, 0.25), (0.1, 0.2), (0.1, 0.1), (0.1, 0.3),
                  (0.7, 0.1), (0.30000000000000004, 0.3), (0.1, 0.30000000000000004)]

for fname, fn in {"sum_ge": _sum_ge, "diff_lt": _diff_lt, "product_gt": _product_gt,
                  "ratio": _ratio, "compare_each_other": _compare_each_other,
                  "chained_two": _chained_two, "accumulated": _accumulated}.items():
    _sweep(f"{fname}_pairs", fn, PAIRS, pairs=True)
    _sweep(f"{fname}_rounding", fn, PAIRS_ROUNDING, pairs=True)


# ---------------------------------------------------- a float clock on an object

class Clock:
    def __init__(self, t=0.0, dt=0.1):
        self.t, self.dt = t, dt
        self.log = []


def _tick(c, x):
    c.t += c.dt
    if c.t >= 0.35:
        c.log.append("late")
        return x * c.t
    return x


def _tick_chained(c, x):
    c.t = c.t + c.dt
    if 0.2 < c.t < 0.6:
        return x + c.t
    return x


def _tick_reset(c, x):
    c.t += c.dt
    if c.t > 0.5:
        c.t = 0.0
        return "reset", x
    return "run", x * c.t


def _clock_scenario(name, fn, dts):
    def run(r):
        c = Clock()
        f = r.compile(fn)
        for dt in dts:
            c.dt = dt
            r.call(f, c, X.copy())
            r.see("clock", (c.t, list(c.log)))
    reg._add(name, run, "")


DTS = {
    "steady": [0.1] * 8,
    "nan": [0.1, 0.1, NAN, 0.1, 0.1],
    "negzero": [0.1, 0.1, -0.1, -0.1, -0.0, 0.0, 0.1],
    "inf": [0.1, 0.1, INF, -INF, 0.1],
    "thirds": [0.1, 1 / 3, 1 / 3, -1 / 3, 0.05, 0.05, 0.05],
    "npfloat": [0.1, 0.1, np.float64(0.1), np.float64(0.2), 0.1],
}
for fname, fn in {"tick": _tick, "tick_chained": _tick_chained,
                  "tick_reset": _tick_reset}.items():
    for dname, dts in DTS.items():
        _clock_scenario(f"clock_{fname}_{dname}", fn, dts)


# ------------------------------------ arithmetic of two changing floats in the graph

def _mod(x, t, u):
    return x * (t % u)


def _floordiv(x, t, u):
    return x * (t // u)


def _power(x, t, u):
    return x * (t ** u)


def _divmod(x, t, u):
    q, rem = divmod(t, u)
    return x * q + rem


def _max_min_order(x, t, u):
    return x * max(t, u), max(t, u), min(t, u), min(u, t)


def _abs_diff(x, t, u):
    return x * abs(t - u)


def _true_div(x, t, u):
    return x * (t / u)


def _product(x, t, u):
    return x * t * t * u


def _negated(x, t, u):
    return x * (-t + u), -t


def _mixed_ops(x, t, u):
    return x * (t * 3 + u // 2)


def _floor_call(x, t, u):
    return x * math.floor(t) + u


def _int_powers(x, t, u):
    return x * (t ** 2), t ** -1


ARITH_PAIRS = [(0.5, 0.3), (0.7, 0.2), (1.5, 0.25), (INF, 1.0), (1.0, INF), (-1.0, 0.5),
               (-0.0, 1.0), (1.0, -0.0), (1.0, 0.0), (NAN, 1.0), (1.0, NAN), (1e308, 10.0),
               (-8.0, 1 / 3), (0.0, -1.0), (-INF, 2.0), (5.0, -3.0), (9007199254740993, 1.0),
               (True, 2.0)]
for _fn in (_mod, _floordiv, _power, _divmod, _max_min_order, _abs_diff, _true_div,
            _product, _negated, _mixed_ops, _floor_call, _int_powers):
    _sweep("arith" + _fn.__name__, _fn, ARITH_PAIRS, pairs=True)


# ------------------------------------------- the changing float from elsewhere

T = 0.0


def _global_written(x, dt):
    global T
    T += dt
    if T >= 0.35:
        return "hi", x * T
    return "lo", x


def _dict_value(x, cfg):
    if cfg["lr"] >= 0.1:
        return x * cfg["lr"]
    return x


def _after_break(x, t):
    y = x * t
    print("break")
    if t >= 0.35:
        return y + 1
    return y - 1


def _size_product(x, t):
    if t * len(x) >= 3.5:
        return "big", x * t
    return "small", x[:1]


def _size_compared(x, t):
    return x.shape[0] > t, len(x) <= t


def _tuple_items(x, tt):
    a, b = tt
    return (x * a if a < b else x * b), a < b


def _make_closure():
    t = 0.0

    def inner(x):
        if t >= 0.35:
            return x * t
        return x

    def setter(v):
        nonlocal t
        t = v
    return inner, setter


@scenario
def s_global_written(r):
    global T
    T = 0.0
    f = r.compile(_global_written)
    for dt in [0.1, 0.1, 0.1, 0.1, NAN, -INF, 0.2, -0.0]:
        r.call(f, X.copy(), dt)
        r.see("T", T)


@scenario
def s_closure_cell(r):
    inner, setter = _make_closure()
    f = r.compile(inner)
    for v in [0.1, 0.2, 0.5, NAN, -0.0, INF, 0.3, np.float64(0.9), True, 0.36]:
        setter(v)
        r.call(f, X.copy())


def _calls(name, fn, arg_sets):
    def run(r):
        f = r.compile(fn)
        for args in arg_sets:
            r.call(f, *args)
    reg._add(name, run, "")


_calls("dict_value", _dict_value,
       [(X.copy(), {"lr": v}) for v in [0.05, 0.2, 0.3, NAN, 0.01, INF, -0.0,
                                        np.float64(0.5), 1, 0.2]])
_calls("after_break", _after_break,
       [(X.copy(), v) for v in [0.1, 0.2, 0.5, NAN, 0.3, INF, -INF, 0.4, 1, 0.1]])
_calls("size_product", _size_product,
       [(np.arange(n * 1.0), v) for n, v in [(3, 0.5), (4, 0.6), (5, 0.7), (6, 0.5),
                                             (7, 0.5), (2, 2.0), (8, NAN), (9, 0.1),
                                             (1, 4.0), (0, 1.0)]])
_calls("size_compared", _size_compared,
       [(np.arange(n * 1.0), v) for n, v in [(3, 0.5), (4, 0.6), (5, 5.0), (6, 6.5),
                                             (7, NAN), (2, 2.0), (8, INF)]])
_calls("tuple_items", _tuple_items,
       [(X.copy(), v) for v in [(0.1, 0.2), (0.2, 0.1), (0.3, 0.4), (NAN, 0.1), (0.5, NAN),
                                (-0.0, 0.0), (1, 0.5)]])
