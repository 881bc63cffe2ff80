"""Round 38, flow continued (the category of ``prog_round38_flow.py``): texts of traced
values the glue makes after the graph (``dynamo/variables/formatted.py``,
``formatted_calls.formatted_builtin``): ``str``/``repr``/``ascii``/``format`` and
f-strings with specs, ``%`` and ``str.format``, NumPy print options changed between
calls and inside the function (``np.set_printoptions``, ``np.printoptions``, legacy
mode, a ``formatter`` with effects), 0-d arrays against NumPy scalars against Python
floats, -0.0, NaN, inf, huge ints, float32/float16, complex, and objects whose
``__format__``/``__str__`` have effects.

    >>> def _texts(x):
    ...     m = x.mean()
    ...     return str(m), repr(m), f"{m:.3f}", "%8.2e" % m
"""

# ruff: noqa: UP030, UP031, UP032   (str.format and % are the forms under test)
import math

import numpy as np
from hostile_check import Programs

reg = Programs("round38_flow")
X = np.array([1.25, -2.5, 3.125, 0.1])
SPECIAL = np.array([-0.0, math.nan, math.inf, -math.inf])
HUGE = np.array([2**62, 2**62, -(2**63), 7], dtype=np.int64)
LOG: list = []


def _specs(x):
    m = x.mean()
    return f"{m:.3f}|{m!r}|{m:>10}|{m:<+12.4e}|{m:^9.1%}|{m:_}"


def _builtins(x):
    m = x.max()
    return str(m), repr(m), ascii(m), format(m, "e"), format(m, ""), format(m, "g")


def _percent(x):
    m, k = x.sum(), x.argmax()
    return "%.3f %5.1e %s %r %i %x" % (m, m, m, m, k, k)


def _percent_one(x):
    return "%10.4f" % x.min()


def _str_format(x):
    return "{0:.2f} {1!r} {v:>8.3g} {0}".format(x.mean(), x.max(), v=x.std())


def _zero_d_vs_scalar(x):
    z = np.asarray(x.sum())
    s = x.sum()
    f = float(x.sum())
    return str(z), repr(z), str(s), repr(s), str(f), repr(f), f"{z:.2f}"


def _whole_array(x):
    return str(x * 2), repr(x[:2]), "%s" % (x + 1,), "{}".format(x - 1)


def _float32_texts(x):
    v = x.astype(np.float32)
    return repr(v[3]), str(v.sum()), f"{v.mean():.10f}", repr(v)


def _float16_texts(x):
    v = x.astype(np.float16)
    return repr(v[3]), str(v.sum()), f"{v[0]:.5f}"


def _complex_texts(x):
    c = x[0] + 1j * x[1]
    return str(c), repr(c), f"{c:.2f}", format(c, ">20"), "%s" % c


def _int_texts(x):
    k = x.astype(np.int64)
    return str(k.sum()), f"{k.max():+08d}", f"{k.argmax():#x}", format(k.min(), ",")


def _huge_ints(h):
    return str(h.sum()), f"{h.max():,}", repr(h[2]), "%d" % h[0], format(h.min(), "_d")


def _uint64_texts(h):
    u = h.astype(np.uint64)
    return str(u.max()), f"{u[2]:x}", repr(u.sum())


def _bool_texts(x):
    b = x > 0
    return str(b.all()), repr(b.any()), f"{b[0]}", f"{b[1]:d}", str(b)


def _special_texts(s):
    return [f"{v:.2f}|{v!r}|{str(v)}" for v in (s[0], s[1], s[2], s[3])]


def _neg_zero(x):
    z = x.min() * 0.0
    return str(z), repr(-z), f"{z:+.1f}", "%.0f" % z


def _text_then_write(x):
    s = f"{x[0]:.3f}"
    x[0] = 99.0
    return s, str(x[0])


def _text_in_dict(x, d):
    d["mean"] = f"{x.mean():.4f}"
    d["all"] = str(x)
    return x * 2


def _text_appended(x, out):
    out.append(repr(x.max()))
    out.append("%.1f" % x.min())
    return len(out)


def _text_joined(x):
    return "; ".join(f"{v:.2f}" for v in x) + " | " + str(x.sum())


def _text_concat_loop(x):
    line = ""
    for v in x:
        line += f" {v:6.2f}"
    return line


def _text_printed(x):
    print(f"mean={x.mean():.3f}", repr(x.max()))
    print(x * 2)
    return x.sum()


def _text_used(x):
    s = f"{x.mean():.3f}"
    return len(s), s.startswith("-")


def _repr_eval(x):
    return repr(float(x.sum())), repr(x.sum().item())


def _legacy_inside(x):
    s = repr(x.sum())
    np.set_printoptions(legacy="1.25")
    try:
        t = repr(x.sum())
    finally:
        np.set_printoptions(legacy=False)
    return s, t


def _precision_inside(x):
    a = str(x / 3)
    np.set_printoptions(precision=2)
    try:
        b = str(x / 3)
    finally:
        np.set_printoptions(precision=8)
    return a, b


def _printoptions_with(x):
    with np.printoptions(precision=1, sign="+"):
        s = str(x / 7)
    return s, str(x / 7)


def _printoptions_with_returned(x):
    with np.printoptions(precision=2):
        return str(x / 3)


def _printoptions_with_scalar(x):
    with np.printoptions(legacy="1.25"):
        s = repr(x.mean())
    return s


class Loud:
    def __init__(self, log):
        self.log = log

    def __format__(self, spec):
        self.log.append(("format", spec))
        return "LOUD"

    def __str__(self):
        self.log.append("str")
        return "loud"


def _loud_mixed(x, log):
    o = Loud(log)
    log.append("start")
    s = f"{x.mean():.2f} {o:>3} {o!s}"
    log.append("end")
    return s


def _loud_percent(x, log):
    o = Loud(log)
    return "%s %.2f" % (o, x.max())


def _log_then_text(x):
    LOG.append("before")
    s = str(x * 2)
    LOG.append("after")
    return s


def _log_then_repr_zero_d(x):
    LOG.append("before")
    return repr(np.asarray(x.sum()))


def _formatter_logged(v):
    LOG.append("fmt")
    return f"<{v:.1f}>"


def _repr_logged(a):
    LOG.append("repr")
    return f"R{a.shape}"


def _formatter_raises(v):
    raise ValueError("no text")


def _set_options(k, **options):
    def between(j):
        if j == k:
            np.set_printoptions(**options)
    return between


def _reset_options():
    np.set_printoptions(legacy=False, precision=8, sign="-", floatmode="maxprec",
                        formatter=None, threshold=1000, suppress=False,
                        override_repr=None)
    LOG.clear()


def _with_options(fn, name, k, **options):
    """``fn`` called on X five times, the print options set before call ``k`` and
    reset at the end (also in the reference run)."""
    def scenario(r):
        _reset_options()
        try:
            g = r.compile(fn)
            for j in range(5):
                if j == k:
                    np.set_printoptions(**options)
                LOG.clear()
                r.call(g, X.copy())
                r.see("LOG", list(LOG))
        finally:
            _reset_options()
    reg._add(name, scenario, "")


for _fn in (_specs, _builtins, _percent, _percent_one, _str_format, _zero_d_vs_scalar,
            _whole_array, _float32_texts, _float16_texts, _complex_texts, _int_texts,
            _bool_texts, _neg_zero, _text_then_write, _text_joined, _text_concat_loop,
            _text_printed, _text_used, _repr_eval, _legacy_inside, _precision_inside,
            _printoptions_with, _printoptions_with_returned, _printoptions_with_scalar):
    reg.case(_fn, (X,), (-X[::-1].copy(),), (X * 1e10,), calls=1)

reg.case(_huge_ints, (HUGE,), (HUGE[::-1].copy(),), calls=2)
reg.case(_uint64_texts, (np.abs(HUGE[:2]),), (HUGE[3:],), calls=2)
reg.case(_special_texts, (SPECIAL,), (SPECIAL[::-1].copy(),), (X,), calls=1)
reg.case(_special_texts, (SPECIAL.astype(np.float32),), (X.astype(np.float32),),
         calls=1, name="special_texts_f32")
reg.case(_text_in_dict, (X, {}), (-X, {"mean": 0}), calls=2)
reg.case(_text_appended, (X, []), (-X, ["x"]), calls=2)
reg.case(_loud_mixed, (X, []), (-X, []), calls=2)
reg.case(_loud_percent, (X, []), (-X, []), calls=2)

_with_options(_specs, "legacy_between_calls", 2, legacy="1.25")
_with_options(_zero_d_vs_scalar, "legacy_zero_d_between_calls", 1, legacy="1.25")
_with_options(_whole_array, "precision_between_calls", 2, precision=2)
_with_options(_whole_array, "sign_floatmode_between_calls", 1, sign="+",
              floatmode="fixed")
_with_options(_whole_array, "threshold_between_calls", 2, threshold=2, edgeitems=1)
_with_options(_log_then_text, "formatter_logged_from_start", 0,
              formatter={"float": _formatter_logged})
_with_options(_log_then_text, "formatter_logged_between_calls", 2,
              formatter={"float": _formatter_logged})
_with_options(_log_then_text, "formatter_raises_between_calls", 2,
              formatter={"float": _formatter_raises})
_with_options(_log_then_repr_zero_d, "formatter_zero_d_between_calls", 2,
              formatter={"float": _formatter_logged})
_with_options(_builtins, "formatter_scalars_between_calls", 1,
              formatter={"float": _formatter_logged})
_with_options(_text_printed, "formatter_printed_between_calls", 2,
              formatter={"float": _formatter_logged})
_with_options(_log_then_repr_zero_d, "override_repr_zero_d_between_calls", 2,
              override_repr=_repr_logged)
_with_options(_whole_array, "override_repr_from_start", 0, override_repr=_repr_logged)
