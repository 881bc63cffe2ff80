"""Round 29, the corners of texts and decisions of changing numbers that the other
round-29 modules leave: format specs whose validity depends on the value (``{n:c}``
past 0x10FFFF, a precision or width taken from a changing int, ``{t:d}`` of a float),
raised inside the program's own ``try`` as eagerly (``variables/formatted.py``
formats them in the glue, after the graph); thresholds that change too (a global
``LIMIT`` rebound between calls, two symbols in one decision), an int past 2**53
compared with a changing float, and a running average written back
(``symbolic/written_numbers.py``) that is then compared.

    >>> def _char(c, x):
    ...     try:
    ...         return f"{c.n:c}", x
    ...     except (ValueError, OverflowError) as e:
    ...         return type(e).__name__, str(e)
"""

import math

import numpy as np
from hostile_check import Programs

reg = Programs("round29_texts")

X = np.arange(4.0)
LIMIT = 0.35
BIG = 9007199254740993


class State:
    def __init__(self):
        self.n, self.t, self.avg, self.log = 0, 0.5, 1.0, []


def _run(name, fn, steps):
    def run(r):
        global LIMIT
        LIMIT = 0.35
        c = State()
        f = r.compile(fn)
        r.call(f, c, X.copy())
        for kind, value in steps:
            if kind == "LIMIT":
                LIMIT = value
            else:
                setattr(c, kind, value)
            r.call(f, c, X.copy())
            r.see("state", (c.n, c.t, c.avg, c.log, LIMIT))
    reg._add(name, run, (fn.__doc__ or "").strip())


def _caught(fn):
    def wrapped(c, x):
        try:
            return fn(c, x)
        except (ValueError, OverflowError, TypeError) as e:
            return type(e).__name__, str(e)
    return wrapped


# ------------------------------------------------------------------- format specs

def _char(c, x):
    try:
        return f"{c.n:c}", x * 2
    except (ValueError, OverflowError) as e:
        return type(e).__name__, str(e)


def _precision(c, x):
    try:
        return f"{c.t:.{c.n}f}", x
    except ValueError as e:
        return "error", str(e)


def _width(c, x):
    try:
        return f"{c.t:>{c.n}}|", x
    except ValueError as e:
        return "error", str(e)


def _int_code_of_float(c, x):
    try:
        return f"{c.t:d}", x
    except ValueError as e:
        return "error", str(e)


def _float_code_of_int(c, x):
    return f"{c.n:.2f}", f"{c.n:e}", f"{c.n:%}", x


def _binary(c, x):
    return f"{c.n:b}", f"{c.n:#o}", f"{c.n:+08X}", x


def _fill_center(c, x):
    return f"{c.t:=^12.3}", f"{c.n:*<6}", x


def _sign_zero(c, x):
    return f"{c.t:+.1f}", f"{c.t: }", f"{c.t:z.1f}", x


def _precision_uncaught(c, x):
    y = x * 2
    return f"{c.t:.{c.n}f}", y


def _fmt_then_decide(c, x):
    s = f"{c.t:.2f}"
    if c.t >= 0.35:
        return "hi " + s, x * c.t
    return "lo " + s, x


SPEC_STEPS = {
    "char": [("n", 65), ("n", 66), ("n", 0x10FFFF), ("n", 0x110000), ("n", -1), ("n", 97)],
    "precision": [("n", 2), ("n", 3), ("t", 0.125), ("n", 0), ("n", -1), ("n", 400),
                  ("n", 2)],
    "floaty": [("n", 2), ("t", 0.25), ("t", 3.0), ("n", -5), ("t", -0.0),
               ("t", float("nan")), ("n", 2 ** 70)],
}
for fname, fn, sname in [
        ("char", _char, "char"), ("precision", _precision, "precision"),
        ("width", _width, "precision"), ("int_code_of_float", _int_code_of_float, "floaty"),
        ("float_code_of_int", _float_code_of_int, "floaty"), ("binary", _binary, "floaty"),
        ("binary_chars", _caught(_binary), "char"), ("fill_center", _fill_center, "floaty"),
        ("sign_zero", _sign_zero, "floaty"), ("fill_precision", _fill_center, "precision"),
        ("precision_uncaught", _precision_uncaught, "precision"),
        ("fmt_then_decide", _fmt_then_decide, "floaty"),
        ("char_of_floaty", _caught(_char), "floaty"),
        ("precision_floaty", _precision, "floaty"), ("width_floaty", _width, "floaty"),
        ("int_code_of_float_precision", _int_code_of_float, "precision")]:
    _run(f"spec_{fname}", fn, SPEC_STEPS[sname])


# ----------------------------------------------------------- changing thresholds

def _global_limit(c, x):
    if c.t >= LIMIT:
        return "over", x * c.t
    return "under", x


def _global_limit_chained(c, x):
    return x * (1.0 if -LIMIT < c.t < LIMIT else 0.0)


def _big_int_vs_float(c, x):
    return c.t >= c.n, c.t < c.n, c.t == c.n, x


def _big_int_sum(c, x):
    if c.t + 1.0 > c.n:
        return "over", x
    return "under", x


def _avg_decides(c, x):
    c.avg = 0.9 * c.avg + 0.1 * c.t
    if c.avg > 0.8:
        c.log.append("high")
        return x * c.avg
    return x


def _avg_int_count(c, x):
    c.n += 1
    c.avg = c.avg + (c.t - c.avg) / c.n
    return x * c.avg, c.avg >= 0.5


def _hypot_decides(c, x):
    if math.hypot(c.t, 1.0) > 1.05:
        return "far", x
    return "near", x


def _abs_decides(c, x):
    if abs(c.t) > 0.35:
        return "far", x * abs(c.t)
    return "near", x


def _neg_decides(c, x):
    if -c.t >= -0.35:
        return "le", x
    return "gt", x


def _round_decides(c, x):
    if round(c.t, 1) >= 0.4:
        return "up", x
    return "down", x


LIMITS = {
    "limit": [("t", 0.2), ("t", 0.4), ("LIMIT", 0.5), ("t", 0.45), ("LIMIT", float("nan")),
              ("LIMIT", 0.1), ("LIMIT", np.float64(0.3)), ("LIMIT", 1), ("t", 0.9)],
    "bigint": [("t", 0.2), ("t", 0.4), ("n", 5), ("n", 7), ("t", 9007199254740992.0),
               ("n", BIG), ("n", BIG - 2), ("t", 1e300), ("n", 10 ** 400)],
    "series": [("t", 0.2), ("t", 0.9), ("t", 1.5), ("t", 0.95), ("t", float("nan")),
               ("t", 2.0), ("t", -0.0), ("t", float("inf")), ("t", 0.3)],
}
for fname, fn, sname in [
        ("global_limit", _global_limit, "limit"),
        ("global_limit_chained", _global_limit_chained, "limit"),
        ("big_int_vs_float", _big_int_vs_float, "bigint"),
        ("big_int_sum", _caught(_big_int_sum), "bigint"),
        ("avg_decides", _avg_decides, "series"), ("avg_int_count", _avg_int_count, "series"),
        ("hypot_decides", _hypot_decides, "series"), ("abs_decides", _abs_decides, "series"),
        ("neg_decides", _neg_decides, "series"), ("round_decides", _round_decides, "series"),
        ("global_limit_series", _global_limit, "series"),
        ("avg_decides_limit", _avg_decides, "limit"),
        ("neg_decides_limit", _neg_decides, "limit"),
        ("abs_decides_bigint", _caught(_abs_decides), "bigint"),
        ("round_decides_bigint", _caught(_round_decides), "bigint"),
        ("big_int_vs_float_series", _big_int_vs_float, "series"),
        ("big_int_sum_series", _caught(_big_int_sum), "series"),
        ("hypot_decides_limit", _hypot_decides, "limit")]:
    _run(f"threshold_{fname}", fn, LIMITS[sname])


# --------------------------------------------------- several readers of one number

def _fmt_and_decide_and_index(c, x):
    s = f"{c.n:03d}"
    k = c.n % 4
    return s, x[k] * c.t, c.t > 0.35, {s: k}


def _decide_in_list(c, x):
    flags = [c.t > v for v in (0.1, 0.35, 0.9)]
    return flags, x * sum(flags)


def _decide_stored(c, x):
    c.log.append(c.t >= 0.35)
    return x


def _decide_ternary_number(c, x):
    lr = c.t if c.t < 0.35 else 0.35
    return x * lr, lr


MIXED = {
    "walk": [("n", 1), ("t", 0.3), ("n", 2), ("t", 0.4), ("n", 7), ("t", float("nan")),
             ("n", -1), ("t", 0.35)],
    "types": [("n", 1), ("t", 0.3), ("n", 2), ("t", True), ("n", np.int64(3)),
              ("t", np.float32(0.4)), ("n", 4), ("t", 0.2)],
}
for fname, fn in {"fmt_and_decide_and_index": _fmt_and_decide_and_index,
                  "decide_in_list": _decide_in_list, "decide_stored": _decide_stored,
                  "decide_ternary_number": _decide_ternary_number}.items():
    for sname, steps in MIXED.items():
        _run(f"mixed_{fname}_{sname}", fn, steps)


# ------------------------------------------------ the other ways to write a number

def _debug_specifier(c, x):
    return f"{c.n=}", f"{c.t=:.2f}", f"{c.t = !s:>8}", x


def _str_repr_calls(c, x):
    return str(c.t), repr(c.n), ascii(c.t), x * 2


def _percent_format(c, x):
    return "%s|%r|%5.2f|%d" % (c.t, c.n, c.t, c.n), x  # noqa: UP031 (the % operator itself)


def _format_method(c, x):
    return ("{}:{:.3f}:{!r}".format(c.n, c.t, c.t),  # noqa: UP032 (str.format itself)
            format(c.t, "e"), format(c.n, "04d"))


def _concatenated_text(c, x):
    s = "n=" + str(c.n) + ";t=" + str(c.t)
    return s, x * len(s)


def _joined_text(c, x):
    return ",".join(f"{v:.1f}" for v in (c.t, c.t * 2, c.avg)), x


for _fn in (_debug_specifier, _str_repr_calls, _percent_format, _format_method,
            _concatenated_text, _joined_text):
    for _sname in ("numbers", "specials"):
        _run("written" + _fn.__name__ + "_" + _sname, _caught(_fn), {
            "numbers": [("n", 1), ("t", 0.25), ("n", 2), ("t", 0.75), ("n", 12345),
                        ("t", 1e-9), ("n", -3)],
            "specials": [("n", 1), ("t", 0.25), ("t", float("nan")), ("t", float("inf")),
                         ("t", -0.0), ("n", 0), ("t", 0.5), ("t", True)],
        }[_sname])
