"""Round 27, NumPy's floating-point error state around and inside the call:
``np.errstate`` inside the function (nested, as a decorator, ``call=``), ``np.seterr``
inside and left set, and the caller's settings (``errstate``, ``seterr``,
``seterrcall``) changing between calls, also on 600,000 elements (the numpy backend's
worker threads). The last part runs 22 graph shapes (a write into an input first, a
Python effect first, a print, a loop, integer division, a scalar, ``np.where``,
``inv`` of a singular matrix, ``errstate`` blocks inside...) each under seven caller
settings: a condition that warns and then one that raises must report the warning
once, and the raise must reach the program's ``except`` as plainly. (Print options
and warning filters: ``prog_round27_globals.py``.)

    >>> def _warn_then_raise(x):
    ...     return np.sqrt(x) + 1 / x       # sqrt(-1) warns, then 1/0 raises under
    ...                                     # the caller's errstate(divide="raise")
"""

import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("round27_errstate")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 0.0, 3.14159265, 1e-9])


# ------------------------------------------------------------------------- error state


def _divide(x):
    return 1 / x, np.log(x), np.sqrt(x)


def _divide_caught(x):
    try:
        return 1 / x
    except FloatingPointError as e:
        return "caught: " + str(e)


def _errstate_inside(x):
    with np.errstate(divide="raise"):
        try:
            y = 1 / x
        except FloatingPointError as e:
            y = str(e)
    return y, np.log(x)


def _errstate_nested(x):
    with np.errstate(all="ignore"):
        a = 1 / x
        with np.errstate(invalid="raise"):
            try:
                b = np.sqrt(x - 2)
            except FloatingPointError as e:
                b = str(e)
        c = np.log(x)
    return a, b, c, 1 / x


def _seterr_inside(x):
    old = np.seterr(divide="ignore")
    y = 1 / x
    np.seterr(**old)
    return y, old["divide"]


def _seterr_left_set(x):
    np.seterr(invalid="raise")
    try:
        return np.sqrt(x)
    except FloatingPointError as e:
        return str(e)


def _errstate_call(x):
    calls = []
    with np.errstate(all="call", call=lambda kind, flag: calls.append(kind)):
        y = 1 / x
        z = np.log(x)
    return y, z, calls


def _errstate_decorated(x):
    @np.errstate(divide="raise")
    def inv(v):
        return 1 / v
    try:
        return inv(x)
    except FloatingPointError as e:
        return str(e)


def _errstate_int(x):
    with np.errstate(divide="raise", over="raise"):
        try:
            return x.astype(np.int64) // 0
        except FloatingPointError as e:
            return str(e)


for _fn in (_divide, _divide_caught, _errstate_inside, _errstate_nested, _seterr_inside,
            _seterr_left_set, _errstate_call, _errstate_decorated, _errstate_int):
    case(_fn, (X,), (np.abs(X) + 1,), (np.array([0.0, -1.0]),))


@scenario
def s_errstate_around_call(r):
    """The caller's ``np.errstate`` around the compiled call changes between calls."""
    f = r.compile(_divide_caught)
    g = r.compile(_divide)
    for state in ({}, {"divide": "raise"}, {"divide": "ignore"}, {"all": "raise"},
                  {"divide": "warn"}, {}):
        with np.errstate(**state):
            r.call(f, X)
            r.call(g, X)


@scenario
def s_seterr_between_calls(r):
    """``np.seterr`` by the caller between calls (restored at the end)."""
    f = r.compile(_divide_caught)
    old = np.geterr()
    try:
        for state in ({"divide": "raise"}, {"divide": "ignore"}, {"all": "raise"},
                      {"divide": "warn", "invalid": "ignore"}):
            np.seterr(**state)
            r.call(f, X)
            r.call(f, np.array([0.0, -1.0]))
    finally:
        np.seterr(**old)


@scenario
def s_errstate_call_between_calls(r):
    """A ``seterrcall`` callback set by the caller, different each call."""
    f = r.compile(_divide)
    seen = []
    old_call = np.geterrcall()
    try:
        with np.errstate(all="call"):
            np.seterrcall(lambda kind, flag: seen.append(("first", kind)))
            r.call(f, X)
            np.seterrcall(lambda kind, flag: seen.append(("second", kind)))
            r.call(f, X)
            r.call(f, np.abs(X) + 1)
    finally:
        np.seterrcall(old_call)
    r.see("seen", seen)


# ------------------------------------------------------------------------- large arrays
# 600,000 elements: past the numpy backend's ``min_threaded_elements`` (2**19), so its
# fused groups run on the worker threads, where the caller's error state, callback and
# warning filters must hold as on the calling thread.

def _large(zero_at=-1, negative_at=None):
    a = np.linspace(1.0, 2.0, 600_000)
    a[zero_at] = 0.0
    if negative_at is not None:
        a[negative_at] = -1.0
    return a


def _large_chain(x):
    return np.sqrt(x) * 2 + 1 / x - np.log(x)


def _large_chain_caught(x):
    try:
        return _large_chain(x).sum()
    except FloatingPointError as e:
        return "caught: " + str(e)


def _large_warn_error(x):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            return (1 / x + x * 3).max()
        except RuntimeWarning as e:
            return "caught: " + str(e)


def _large_record(x):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        y = (np.log(x) * 2 + 1 / x).min()
    return y, [str(w.message) for w in seen]


def _large_errstate_inside(x):
    with np.errstate(divide="raise", invalid="ignore"):
        try:
            return (np.sqrt(x) + 1 / x).sum()
        except FloatingPointError as e:
            return "caught: " + str(e)


for _fn in (_large_warn_error, _large_record, _large_errstate_inside):
    case(_fn, lambda: (_large(),), lambda: (_large(zero_at=5, negative_at=-3),),
         lambda: (_large(zero_at=0).clip(0.5),))


@scenario
def s_large_errstate_around_call(r):
    """The caller's error state around calls on 600,000 elements: raise, ignore, call
    (a callback counting), warn."""
    f = r.compile(_large_chain_caught)
    g = r.compile(_large_chain)
    seen = []
    for state in ({"divide": "raise"}, {"all": "ignore"}, {"all": "call"},
                  {"invalid": "raise", "divide": "ignore"}, {}):
        old = np.geterrcall()
        np.seterrcall(lambda kind, flag: seen.append(kind))
        try:
            with np.errstate(**state):
                r.call(f, _large(negative_at=7))
                r.call(g, _large(zero_at=100_000))
        finally:
            np.seterrcall(old)
    r.see("callbacks", seen)


def _warn_then_raise(x):
    return np.sqrt(x) + 1 / x


def _write_warn_then_raise(x, o):
    o += 1
    return np.sqrt(x) * 2 + 1 / x


def _warn_then_raise_caught(x, log):
    log.append("before")
    try:
        y = np.log(x) - 1 / x
    except FloatingPointError as e:
        log.append(str(e))
        y = None
    return y


@scenario
def s_caller_raise_small(r):
    """The caller's settings make the second condition of a graph raise after its first
    warned (sqrt of -1 warns, 1/0 raises): the warning is reported once, also where the
    graph writes an input first (not rerun) or the program catches the error."""
    f = r.compile(_warn_then_raise)
    g = r.compile(_write_warn_then_raise)
    h = r.compile(_warn_then_raise_caught)
    x = np.array([-1.0, 0.0, 2.0])
    for state in ({"divide": "raise"}, {"divide": "raise", "invalid": "ignore"},
                  {"invalid": "raise"}, {}, {"all": "raise"}, {"divide": "raise"}):
        with np.errstate(**state):
            r.call(f, x)
            r.call(g, x, np.zeros(3))
            r.call(h, x, [])
            r.call(f, np.abs(x) + 1)


_raising_divide = np.errstate(divide="raise")(_divide)
case(_raising_divide, (X,), (np.abs(X) + 1,), (np.array([0.0, -1.0]),),
     name="errstate_decorated_divide")


# ------------------------------------------------------------------------- graph shapes
# under the caller's settings

SETTINGS = ({"divide": "raise"}, {"invalid": "raise"}, {"all": "raise"},
            {"all": "ignore"}, {}, {"all": "call"}, {"divide": "raise", "invalid": "warn"})
NEG0 = np.array([-1.0, 0.0, 2.0, 4.0])


def _shape_reduce(x, log):
    return np.log(x).sum() + (1 / x).max()


def _shape_write_input(x, log):
    x += 1
    return np.sqrt(x - 2) * 2 + 1 / (x - 1)


def _shape_effect_first(x, log):
    log.append("first")
    return np.sqrt(x) + 1 / x


def _shape_print_first(x, log):
    print("start", x.shape)
    return np.sqrt(x) + 1 / x


def _shape_loop(x, log):
    acc = np.zeros_like(x)
    for i in range(3):
        acc = acc + np.sqrt(x - i) + 1 / (x - i)
    return acc


def _shape_int_division(x, log):
    i = x.astype(np.int64)
    return np.sqrt(x), i // i, i % i


def _shape_overflow(x, log):
    return np.sqrt(x), np.exp(x * 1000), np.float32(x[-1]) * np.float32(1e38)


def _shape_scalar(x, log):
    s = x.sum()
    return np.sqrt(x[0]), s / 0.0, np.log(x[1])


def _shape_where(x, log):
    return np.where(x > 0, 1 / x, 0.0), np.sqrt(x)


def _shape_singular(x, log):
    a = np.sqrt(x)
    try:
        m = np.linalg.inv(np.ones((2, 2)))
    except np.linalg.LinAlgError as e:
        m = str(e)
    return a, m, 1 / x


def _shape_try_finally(x, log):
    try:
        return np.sqrt(x) + 1 / x
    except FloatingPointError as e:
        log.append(str(e))
        return None
    finally:
        log.append("finally")


def _shape_inner_ignore(x, log):
    a = np.sqrt(x)
    with np.errstate(divide="ignore"):
        b = 1 / x
    return a, b, np.log(x)


def _shape_inner_warn(x, log):
    with np.errstate(all="warn"):
        a = np.sqrt(x)
    return a, 1 / x


def _shape_inner_raise_caught(x, log):
    with np.errstate(invalid="raise"):
        try:
            a = np.sqrt(x)
        except FloatingPointError as e:
            a = str(e)
    return a, 1 / x


def _shape_mutate_temp(x, log):
    y = np.sqrt(x)
    y /= x
    y[0] = 1.0
    return y, np.log(y)


def _shape_two_graphs(x, log):
    a = np.sqrt(x)
    log.append(a.shape)
    print(len(log))
    return a + 1 / x


def _shape_reductions_only(x, log):
    return x.mean(), np.mean(x[:0]) if x.size > 10 else np.nanmin(x * np.nan), x.std()


def _shape_complex(x, log):
    c = x + 0j
    return np.sqrt(c), 1 / c, np.log(c)


def _shape_float16(x, log):
    h = x.astype(np.float16)
    return h * np.float16(60000), np.sqrt(h), 1 / h


def _shape_seterr_inside(x, log):
    old = np.seterr(divide="ignore")
    try:
        return np.sqrt(x), 1 / x
    finally:
        np.seterr(**old)


def _shape_cumulative(x, log):
    return np.sqrt(x), np.cumprod(x * 1e200), np.cumsum(1 / x)


def _shape_out_buffer(x, log):
    buf = np.empty_like(x)
    np.sqrt(x, out=buf)
    np.divide(1.0, x, out=buf, where=x != 2.0)
    return buf


SHAPES = (_shape_cumulative, _shape_out_buffer, _shape_reduce, _shape_write_input, _shape_effect_first, _shape_print_first,
          _shape_loop, _shape_int_division, _shape_overflow, _shape_scalar, _shape_where,
          _shape_singular, _shape_try_finally, _shape_inner_ignore, _shape_inner_warn,
          _shape_inner_raise_caught, _shape_mutate_temp, _shape_two_graphs,
          _shape_reductions_only, _shape_complex, _shape_float16, _shape_seterr_inside)


def _under_settings(fn):
    """``fn`` called under each caller setting of ``SETTINGS`` (a callback counting
    where ``call``), on an input that warns and raises and on one that does not."""
    def run(r):
        f = r.compile(fn)
        seen: list = []
        old = np.geterrcall()
        np.seterrcall(lambda kind, flag: seen.append(kind))
        try:
            for state in SETTINGS:
                with np.errstate(**state):
                    r.call(f, NEG0.copy(), [])
                    r.call(f, NEG0 + 10.0, [])
        finally:
            np.seterrcall(old)
        r.see("callbacks", seen)
    run.__name__ = "s_caller" + fn.__name__
    run.__doc__ = fn.__doc__
    return run


for _fn in SHAPES:
    scenario(_under_settings(_fn))
