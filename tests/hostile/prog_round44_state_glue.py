"""Round 44, code the glue writes that nests deep (CPython's parser refuses an expression
nested 200 deep: "too many nested parentheses"; the glue and guards are Python source):
a changing float carried through 250 unrolled updates (``t = t * c + lr`` over a list
of 250 coefficients), read by the graph, returned, or compared; changing ints the same
way; tuples and lists nested 250 deep around a graph's array, rebuilt after the graph
or after a break; a sum ``a + b + c + ...`` of 300 numbers outside the graph; 250
nested calls of a helper; dicts nested 250 deep; a nested tuple passed in and returned.

    >>> def carried(x, lr):
    ...     t = lr
    ...     for c in COEFFS:          # 250 items: unrolled, t an expression 250 deep
    ...         t = t * c + lr
    ...     return x * t, t
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round44_state")
COEFFS = [1.0 - 1.0 / (k + 3) for k in range(250)]
ICOEFFS = [k % 3 + 1 for k in range(250)]
DEEP = 250


def _x(n=4):
    return np.arange(n, dtype=np.float64) + 0.5


def case(fn, *sets, calls=1, name=None):
    reg.case(fn, *sets, calls=calls, name=name)


def _carried_float(x, lr):
    t = lr
    for c in COEFFS:
        t = t * c + lr
    return x * t, t


case(_carried_float, (_x(), 0.5), (_x(), 0.25), (_x(), -1.5), (_x(), 0.5))


def _carried_float_returned(x, lr):
    t = lr
    for c in COEFFS:
        t = t * c - 0.125
    return x.sum(), t


case(_carried_float_returned, (_x(), 0.5), (_x(), 0.75), (_x(), 1e300))


def _carried_float_compared(x, lr):
    t = lr
    for c in COEFFS:
        t = t * c + 0.001
    if t > 1.0:
        return x * 2
    return x - 1


case(_carried_float_compared, (_x(), 0.5), (_x(), 2.0), (_x(), 10.0), (_x(), -3.0))


def _carried_float_divides(x, lr):
    t = lr
    for c in COEFFS:
        t = t / (c + lr)
    return x + t


case(_carried_float_divides, (_x(), 0.5), (_x(), 0.25), (_x(), -0.5))


def _carried_int(x, k):
    t = k
    for c in ICOEFFS:
        t = t * c + k
    return x + (t % 7), t


case(_carried_int, (_x(), 1), (_x(), 2), (_x(), -3), (_x(), 0))


def _carried_int_as_index(x, k):
    t = k
    for c in ICOEFFS:
        t = (t + c) % 4
    return x[t], t


case(_carried_int_as_index, (_x(), 1), (_x(), 2), (_x(), 3))


def _carried_float_and_array(x, lr):
    t = lr
    for c in COEFFS:
        t = t * c + 1.0
        x = x * c
    return x, t


case(_carried_float_and_array, (_x(), 0.5), (_x(), 0.25))


def _nested_tuple(x):
    t = x * 2
    for _ in range(DEEP):
        t = (t, 1)
    return t


case(_nested_tuple, (_x(),), (_x(6),))


def _nested_list(x):
    t = x + 1
    for _ in range(DEEP):
        t = [t]
    return t


case(_nested_list, (_x(),), (_x(6),))


def _nested_after_break(x):
    t = x * 2
    for _ in range(DEEP):
        t = (t, 0.5)
    print("break")
    return t, x - 1


case(_nested_after_break, (_x(),), (_x(6),))


def _nested_passed(t):
    u = t
    while isinstance(u, tuple):
        u = u[0]
    return t, u * 2


def _deep_tuple(n=DEEP):
    t = _x()
    for _ in range(n):
        t = (t, 1)
    return t


case(_nested_passed, lambda: (_deep_tuple(),), lambda: (_deep_tuple(30),))


def _nested_dict(x):
    d = {"v": x * 3}
    for k in range(DEEP):
        d = {"d": d, "k": k}
    return d


case(_nested_dict, (_x(),))


def _long_sum_outside(x, a):
    s = (a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a
         + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a
         + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a
         + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a
         + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a
         + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a
         + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a
         + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a
         + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a
         + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a
         + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a)
    return x * 2, s


case(_long_sum_outside, (_x(), 0.1), (_x(), 0.3), (_x(), 7), (_x(), 8))


def _long_sum_loop(x, vals):
    s = 0.0
    for v in vals:
        s = s + v
    return x + s, s


case(_long_sum_loop, (_x(), [0.1 * k for k in range(300)]), (_x(), [0.2 * k for k in range(300)]))


def _long_sum_of_data(x):
    s = 0.0
    for k in range(60):
        s = s + float(x[k % len(x)]) * 0.5
    return s


case(_long_sum_of_data, (_x(),), (_x(5),), (_x(4) * 2,))


def _inc(v):
    return v + 1.0


# 150 nested calls (the program's own source may nest at most 199 deep)
_NS = {"_inc": _inc}
exec("def _nested_calls(x, a):\n    return x + " + "_inc(" * 150 + "a" + ")" * 150 + "\n", _NS)
_nested_calls = _NS["_nested_calls"]


case(_nested_calls, (_x(), 0.5), (_x(), 1.5), (_x(), 2))


def _chain(v, k):
    return v if k == 0 else _chain(v * 1.0001 + 0.5, k - 1)


def _recursive_chain(x, lr):
    return x * _chain(lr, 230)


case(_recursive_chain, (_x(), 0.5), (_x(), 0.25))


def _carried_clock(x, t0):
    """A clock stepped 300 times by a changing step, compared at every step."""
    t = t0
    n = 0
    for _ in range(300):
        t = t + 0.01 * t0
        if t > 1.0:
            n += 1
    return x * n, t


case(_carried_clock, (_x(), 0.5), (_x(), 0.25), (_x(), 2.0))


def _carried_min_max(x, lr):
    t = lr
    for c in COEFFS:
        t = min(t * 1.01, c) + max(lr, 0.0)
    return x + t


case(_carried_min_max, (_x(), 0.5), (_x(), 0.25), (_x(), -0.5))


def _carried_pow(x, lr):
    t = lr
    for c in COEFFS[:220]:
        t = (t * c) ** 1.0 + 0.001
    return x * t


case(_carried_pow, (_x(), 0.5), (_x(), 0.25))
