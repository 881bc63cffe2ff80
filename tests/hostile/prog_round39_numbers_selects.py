"""Round 39, numbers continued (the category of ``prog_round39_numbers.py``): more uses
of a counter or sum chosen by an ``if`` on array data (``translator/number_selects.py``):
Python int arithmetic past 2**53 and int64 (``/``, ``//``, ``%``, ``<<``, ``**``), float
arithmetic Python does its own way (``(-1.0) ** 0.5`` is complex, ``% 0.0`` raises,
``math.sqrt`` of a negative, ``round``/``int`` of NaN and inf), the number as a list
index, a repeat count, a ``range``, a format spec; the untaken way that would raise
(``1.0 / 0.0``, ``math.log`` of a negative, ``int(nan)``), ``break`` and ``return`` in
a way, nested and chained ``if``s, conditional expressions, comprehensions, nonlocal and
global counters, rows of a 2-D array, int8 and float32 elements, a ``while`` loop.

    >>> def _untaken_div(x, lim):
    ...     c = 0.0
    ...     for v in x:
    ...         if float(v) == 0.0:
    ...             c += 0.0
    ...         else:
    ...             c += 1.0 / float(v)    # both ways are in the graph: 1 / 0.0 untaken
    ...     return c
"""

import math

import numpy as np
from hostile_check import Programs

reg = Programs("round39_numbers")
X = np.array([0.5, -1.0, 2.0, 3.5])
Y = np.array([-2.0, 4.0, 1.0, -0.5])
Z = np.array([0.0, 2.0, -4.0, 0.5])
N = np.array([np.nan, 1.0, 1e20, -3.0])


def _div_big(x, lim):
    c = 2**60 + 28
    for v in x:
        if float(v) > lim:
            c += 1
    return c / 3, c // 3, c % 7, -c, abs(c - 2**61)


def _neg_pow(x, lim):
    s = -1.0
    for v in x:
        if float(v) > lim:
            s += 1.5
    return s ** 0.5, s ** 2


def _float_mod_zero(x, lim):
    s = 0.0
    for v in x:
        if float(v) > lim:
            s += 1.0
    try:
        return s % 0.0
    except ZeroDivisionError as e:
        return str(e)


def _float_floordiv(x, lim):
    s = 0.5
    for v in x:
        if float(v) > lim:
            s += 1.0
    return s // 0.3, s % -0.3, divmod(s, 0.7)


def _sqrt_neg(x, lim):
    s = -2.0
    for v in x:
        if float(v) > lim:
            s += 1.0
    return math.sqrt(s)


def _round_nan(x, lim):
    s = 0.0
    for v in x:
        if float(v) > lim:
            s = float("nan")
    return round(s)


def _int_inf(x, lim):
    s = 0.0
    for v in x:
        if float(v) > lim:
            s = float("inf")
    return int(s)


def _seq_uses(x, lim):
    c = 0
    for v in x:
        if float(v) > lim:
            c += 1
    names = ["a", "b", "c", "d", "e"]
    return names[c], [0] * c, "ab" * c, list(range(c)), f"{c:,}|{c:x}|{c:>4}"


def _int_pow_neg(x, lim):
    c = 0
    for v in x:
        if float(v) > lim:
            c += 1
    return c ** -1, 2 ** c, c ** c, 10 ** (c * 20)


def _shift(x, lim):
    c = 0
    for v in x:
        if float(v) > lim:
            c += 30
    return 1 << c, c >> 1, ~c, c & 5, c | 64, c ^ 7


def _float_int_mix(x, lim):
    c = 0
    for v in x:
        if float(v) > lim:
            c += 1
    return c * 0.1, c + 0.5, c == 2.0, float(c), complex(c), c / 0.0 if c > 10 else c / 2


def _true_int(x, lim):
    c = 0
    for v in x:
        if float(v) > lim:
            c += 1
    return c.bit_length(), c.real, c.numerator, int.__add__(c, 1)


def _float_methods(x, lim):
    s = 0.25
    for v in x:
        if float(v) > lim:
            s += 0.5
    return s.is_integer(), s.as_integer_ratio(), s.hex(), math.floor(s), math.isclose(s, 0.75)


def _int_huge_mul_float(x, lim):
    c = 2**62
    for v in x:
        if float(v) > lim:
            c += 1
    return c * 1.0, c + 0.5, float(c) == c, c == 2.0**62


def _float_neg_zero_ops(x, lim):
    s = 0.0
    for v in x:
        if float(v) > lim:
            s = -0.0
    return s * -1, -s, abs(s), s + 0.0, s - 0.0, str(s), math.atan2(s, -1.0)


def _float_nan_int(x, lim):
    s = 1.0
    for v in x:
        if float(v) > lim:
            s *= 1e308
    return s * 10, int(min(s, 1e300)), s > 1e308


def _break_first(x, lim):
    c = 0
    for v in x:
        if float(v) > lim:
            c += 1
            break
        c += 10
    return c


def _nested(x, lim):
    c = 0
    for v in x:
        if float(v) > lim:
            if float(v) > 2 * lim:
                c += 2
            else:
                c += 1
        elif float(v) < -lim:
            c -= 1
        else:
            c = 0
    return c


def _untaken_div(x, lim):
    c = 0.0
    for v in x:
        if float(v) == 0.0:
            c += 0.0
        else:
            c += 1.0 / float(v)
    return c


def _untaken_log(x, lim):
    c = 0.0
    for v in x:
        if float(v) > 0:
            c += math.log(float(v))
    return c


def _untaken_int_nan(x, lim):
    c = 0
    for v in x:
        if v == v:
            c += int(v)
    return c


def _int_big(x, lim):
    c = 0
    for v in x:
        if float(v) < 1e30:
            c += int(float(v) * 1e19) if v == v else 0
    return c


def _ternary(x, lim):
    c = 0
    for v in x:
        c = c + 1 if float(v) > lim else c - 1
    return c, (c if x[0] > lim else -c)


def _plus_cond(x, lim):
    c = 0
    for v in x:
        c += (1 if float(v) > lim else 0)
    return c


def _early_return(x, lim):
    c = 0
    for v in x:
        if float(v) > lim:
            return c
        c += 1
    return -c


def _comprehension(x, lim):
    return sum(1 for v in x if float(v) > lim), len([v for v in x if v > lim])


def _nonlocal(x, lim):
    c = 0

    def bump():
        nonlocal c
        c += 1
    for v in x:
        if float(v) > lim:
            bump()
    return c


def _global(x, lim):
    global COUNT_N
    for v in x:
        if float(v) > lim:
            COUNT_N += 1
    return x * COUNT_N


def _rows(x, lim):
    c = 0
    for row in x.reshape(2, 2):
        if row.sum() > lim:
            c += 1
    return c


def _int8(x, lim):
    y = (x * 40).astype(np.int8)
    c = 0
    for v in y:
        if v > lim:
            c += int(v)
    return c


def _f32(x, lim):
    y = x.astype(np.float32) / 3
    c = 0.0
    for v in y:
        if v > lim:
            c += float(v)
    return c


def _while(x, lim):
    c = 0
    i = 0
    while i < len(x):
        if float(x[i]) > lim:
            c += 1
        i += 1
    return c


def _max_way(x, lim):
    c = 0
    for v in x:
        if float(v) > lim:
            c = max(c, 3)
        else:
            c = min(c, -1)
    return c


def _walrus(x, lim):
    c = 0
    for v in x:
        if (f := float(v)) > lim:
            c += 1
    return c, f


def _append_way(x, lim, log):
    c = 0
    for v in x:
        if float(v) > lim:
            c += 1
            log.append(c)
    return c


def _swap(x, lim):
    a, b = 0, 1
    for v in x:
        if float(v) > lim:
            a, b = b, a
    return a, b


def _same_name_two_types_later(x, lim):
    c = 0
    for v in x:
        if float(v) > lim:
            c += 1
    c = c / 2
    return c, type(c).__name__


COUNT_N = 0


def _reset_count():
    global COUNT_N
    COUNT_N = 0


_FIRST = (_div_big, _neg_pow, _float_mod_zero, _float_floordiv, _sqrt_neg, _round_nan,
          _int_inf, _seq_uses, _int_pow_neg, _shift, _float_int_mix, _true_int,
          _float_methods, _int_huge_mul_float, _float_neg_zero_ops, _float_nan_int)
for _fn in _FIRST:
    reg.case(_fn, (X, 0.0), (X, 1.0), (Y, 0.0), (X, 10.0), (X, -5.0), calls=1)
_SECOND = (_break_first, _nested, _untaken_div, _untaken_log, _untaken_int_nan, _int_big,
           _ternary, _plus_cond, _early_return, _comprehension, _nonlocal, _global, _rows,
           _int8, _f32, _while, _max_way, _walrus, _swap, _same_name_two_types_later)
for _fn in _SECOND:
    reg.case(_fn, (X, 0.0), (X, 1.0), (Z, 0.0), (N, 0.0), (X, -9.0), calls=1,
             setup=_reset_count, watch=lambda: COUNT_N)
reg.case(_append_way, (X, 0.0, []), (Z, 0.0, []), (N, 0.0, []), calls=1)


# ---------------------------------------------------------------- conditions
NZ = np.array([np.nan, 1.0, -0.0, 3.0])


def _cond_and(x, lim):
    c = 0
    for v in x:
        if float(v) > lim and float(v) < 3.0:
            c += 1
    return c


def _cond_or(x, lim):
    c = 0
    for v in x:
        if float(v) > lim or float(v) != float(v):
            c += 1
    return c


def _cond_not(x, lim):
    c = 0.0
    for v in x:
        if not (float(v) > lim):
            c -= 0.5
    return c


def _cond_two_names(x, lim):
    a = 0
    b = 0.0
    for v in x:
        if float(v) > lim:
            a += 1
            b += float(v)
        else:
            b -= 1.0
    return a, b


def _cond_continue(x, lim):
    c = 0
    for v in x:
        if float(v) > lim:
            c += 1
            continue
        c += 100
    return c


def _cond_nested_loops(x, lim):
    c = 0
    m = x.reshape(2, 2)
    for i in range(2):
        for j in range(2):
            if float(m[i, j]) > lim:
                c += i + j
    return c


def _cond_while_end(x, lim):
    c = 0
    i = 0
    while i < 4:
        i += 1
        if float(x[i - 1]) > lim:
            c += i
    return c, i


def _cond_else_pass(x, lim):
    c = 1.5
    for v in x:
        if float(v) > lim:
            c *= 2.0
        else:
            pass
    return c


def _cond_chained_cmp(x, lim):
    c = 0
    for v in x:
        if lim < float(v) <= 3.0:
            c += 1
    return c


def _cond_is_nan_cond(x, lim):
    c = 0
    for v in x:
        if math.isnan(float(v)):
            c += 1
    return c


def _cond_bool_of_array(x, lim):
    c = 0
    for v in x:
        if v:
            c += 1
    return c


def _cond_elif_chain(x, lim):
    c = 0
    for v in x:
        f = float(v)
        if f > 3:
            c += 3
        elif f > 1:
            c += 2
        elif f > lim:
            c += 1
    return c


_CONDS = (_cond_and, _cond_or, _cond_not, _cond_two_names, _cond_continue, _cond_nested_loops,
          _cond_while_end, _cond_else_pass, _cond_chained_cmp, _cond_is_nan_cond,
          _cond_bool_of_array, _cond_elif_chain)
for _fn in _CONDS:
    reg.case(_fn, (X, 0.0), (X, 1.0), (NZ, 0.0), (X, -9.0), (NZ, 2.0), calls=1)
