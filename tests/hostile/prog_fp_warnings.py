"""Python-level warnings inside graphs, next to floating-point conditions.

Some NumPy ops warn from NumPy's own Python code ("Mean of empty slice", "Degrees of
freedom <= 0 for slice", "All-NaN slice encountered": ``warnings.warn``) and then also
signal a floating-point condition (the 0/0 of that mean), which the caller's ufunc
settings turn into a warning, an exception, a call or a printed line. No ufunc setting
turns the first kind into an exception, so a graph holding such an op must never be
run twice (dynamo/writes.py ``check_warns``, dynamo/raising.py ``on_raise``).

The programs put such ops in graphs with and without other floating-point conditions,
before and after ops that raise, after Python effects, inside ``try``, in loops, under
the caller's ``np.errstate`` modes (raise, call, print, ignore) and warnings filters
("error", "once", "default", "always"), with ``warnings.catch_warnings(record=True)`` in
the caller, and from 8 threads at once."""

import threading
import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("fp_warnings")
case, scenario = reg.case, reg.scenario


def _v(*values):
    return np.array(values, dtype=np.float64)


LOW = _v(1.0, 2.0, 3.0)             # nothing above 10: an empty selection
HIGH = _v(11.0, 12.0, 5.0)          # two above 10
ZEROS = _v(0.0, 0.0, 0.0)
ROWS_NAN = np.array([[np.nan, np.nan], [1.0, 2.0]])
ALL_NAN = _v(np.nan, np.nan)
SOME_NAN = _v(np.nan, 1.0, 3.0)
SINGULAR = np.array([[1.0, 2.0], [2.0, 4.0]])
REGULAR = np.array([[2.0, 0.0], [0.0, 4.0]])
BIG = 40000


# ============================================================================ single ops

def _mask_mean(x):
    return x[x > 10].mean()


case(_mask_mean, (LOW,), (HIGH,), (ZEROS,))


def _mask_mean_function(x):
    return np.mean(x[x > 10])


case(_mask_mean_function, (LOW,), (HIGH,))


def _mask_var_ddof(x):
    return x[x > 10].var(ddof=1)      # one element: "Degrees of freedom <= 0"


case(_mask_var_ddof, (LOW,), (_v(11.0, 1.0),), (HIGH,))


def _mask_std(x):
    return x[x > 10].std()


case(_mask_std, (LOW,), (HIGH,))


def _static_empty_mean(x):
    return (x * 2.0).mean()


case(_static_empty_mean, (np.zeros(0),), (LOW,))


def _var_ddof_static(x):
    return np.var(x, ddof=3), np.std(x, ddof=4)


case(_var_ddof_static, (LOW,), (HIGH,))


def _nanmean(x):
    return np.nanmean(x * 1.0)


case(_nanmean, (ALL_NAN,), (SOME_NAN,), (LOW,))


def _nanmax_rows(x):
    return np.nanmax(x, axis=1), np.nanmin(x, axis=1)


case(_nanmax_rows, (ROWS_NAN,), (np.ones((2, 2)),))


def _nanmedian(x):
    return np.nanmedian(x) + 1.0


case(_nanmedian, (ALL_NAN,), (SOME_NAN,))


def _nanvar_rows(x):
    return np.nanvar(x, axis=1), np.nanstd(x, axis=1, ddof=1)


case(_nanvar_rows, (ROWS_NAN,), (np.arange(6.0).reshape(2, 3),))


def _median_of_selection(x):
    return np.median(x[x > 10])


case(_median_of_selection, (LOW,), (HIGH,))


def _cov_ddof(x):
    return np.cov(x, ddof=3)          # three observations: "Degrees of freedom <= 0"


case(_cov_ddof, (LOW,), (ZEROS,))


def _corrcoef_constant(x):
    return np.corrcoef(x, x * 2.0)    # a constant row: 0/0


case(_corrcoef_constant, (ZEROS,), (LOW,))


# ==================================================== with ufunc conditions in the graph

def _log_then_mean(x):
    lg = np.log(x - 1.0)              # log(0): divide by zero, before the mean
    return lg, x[x > 10].mean()


case(_log_then_mean, (LOW,), (HIGH,))


def _mean_then_log(x):
    m = x[x > 10].mean()
    return np.log(x - x) + m          # log(0) after the mean


case(_mean_then_log, (LOW,), (HIGH,))


def _divide_mean_divide(x):
    a = 1.0 / (x - x)
    m = x[x > 10].mean()
    return a * 0.0, m / 0.0


case(_divide_mean_divide, (LOW,), (HIGH,))


def _mean_of_quotient(x):
    return (x / (x - 1.0))[x > 10].mean()


case(_mean_of_quotient, (LOW,), (HIGH,), (_v(1.0, 11.0),))


# ================================================ before and after ops that may raise

def _index_then_mean(x, i):
    y = x[i]                          # out of bounds for some i
    return y[y > 10].mean()


case(_index_then_mean, (LOW, np.array([0, 1])), (LOW, np.array([5])),
     (HIGH, np.array([0, 1])))


def _mean_then_inverse(x, a):
    m = x[x > 10].mean()
    return np.linalg.inv(a) * m       # LinAlgError after the warning


case(_mean_then_inverse, (LOW, SINGULAR), (LOW, REGULAR), (HIGH, SINGULAR))


def _inverse_then_mean(x, a):
    inv = np.linalg.inv(a)
    return inv, x[x > 10].mean()


case(_inverse_then_mean, (LOW, SINGULAR), (LOW, REGULAR))


# ============================================================ after Python effects

def _append_then_mean(log, x):
    log.append(len(log))
    return x[x > 10].mean()


case(_append_then_mean, lambda: ([], LOW), lambda: ([7], HIGH))


def _append_mean_inverse(log, x, a):
    log.append("before")
    m = x[x > 10].mean()
    return np.linalg.inv(a) * m


case(_append_mean_inverse, lambda: ([], LOW, SINGULAR), lambda: ([], LOW, REGULAR))


class Stats:
    def __init__(self):
        self.calls = 0
        self.last = None

    def update(self, x):
        self.calls += 1
        self.last = x[x > 10].mean()
        return self.last * 2.0


@scenario
def s_attribute_writes_then_mean(r):
    """Attribute writes (replayed after the graph) around a warning op."""
    s = Stats()
    f = r.compile(s.update)
    for x in (LOW, HIGH, LOW):
        r.call(f, x)
        r.see("stats", (s.calls, s.last))


# ============================================================================ try

def _try_mean(x):
    try:
        m = x[x > 10].mean()
    except FloatingPointError:
        m = -1.0
    return m


case(_try_mean, (LOW,), (HIGH,))


def _try_index_then_mean(x, i):
    try:
        y = x[i]
    except IndexError:
        y = x
    return y[y > 10].mean()


case(_try_index_then_mean, (LOW, np.array([7])), (HIGH, np.array([0])))


def _errstate_raise_in_try(x):
    try:
        with np.errstate(all="raise"):
            return x[x > 10].mean()
    except FloatingPointError as e:
        return "caught: " + str(e)


case(_errstate_raise_in_try, (LOW,), (HIGH,))


# ========================================================= np.errstate in the function

def _errstate_ignore_inside(x):
    with np.errstate(invalid="ignore"):
        return x[x > 10].mean()


case(_errstate_ignore_inside, (LOW,), (HIGH,))


def _errstate_raise_inside(x):
    with np.errstate(all="raise"):
        return x[x > 10].mean()       # warns, then FloatingPointError


case(_errstate_raise_inside, (LOW,), (HIGH,))


# ============================================================================ loops

def _means_in_loop(x):
    total = 0.0
    for t in (0.0, 10.0, 20.0):
        total += x[x > t].mean()
    return total


case(_means_in_loop, (LOW,), (HIGH,))


def _nanmean_rows_loop(x):
    out = np.zeros(x.shape[0])
    for i in range(x.shape[0]):
        out[i] = np.nanmean(x[i])
    return out


case(_nanmean_rows_loop, (ROWS_NAN,), (np.ones((3, 2)),))


def _big_loop_then_mean(x):
    acc = np.zeros_like(x)
    for i in range(4):
        acc = acc + np.sqrt(x - i)    # sqrt of a negative: invalid
    return acc.sum(), acc[acc > 1e9].mean()


case(_big_loop_then_mean, lambda: (np.linspace(0.0, 3.0, BIG),),
     lambda: (np.linspace(4.0, 5.0, BIG),))


# ========================================================= the caller's settings

def _guarded_mean(x, i):
    y = x[i] * 1.0                    # the index makes the graph guarded
    return y, x[x > 10].mean()


def _modes(mode):
    def s(r):
        f = r.compile(_guarded_mean)
        with np.errstate(all=mode):
            for x in (LOW, HIGH, LOW):
                r.call(f, x, np.array([0]))
    s.__name__ = f"s_caller_errstate_{mode}"
    scenario(s)


_modes("raise")
_modes("ignore")
_modes("print")


@scenario
def s_caller_errstate_call(r):
    """``np.errstate(all="call")``: the callback sees each condition once."""
    f = r.compile(_guarded_mean)
    seen = []
    with np.errstate(all="call", call=lambda kind, flag: seen.append(kind)):
        for x in (LOW, HIGH, LOW):
            r.call(f, x, np.array([0]))
    r.see("callback", seen)


@scenario
def s_caller_seterr_raise_with_effects(r):
    """``np.seterr(all="raise")`` while the function has appended to a list."""
    f = r.compile(_append_then_mean)
    old = np.seterr(all="raise")
    try:
        for x in (LOW, HIGH):
            log = []
            r.call(f, log, x)
            r.see("log", log)
    finally:
        np.seterr(**old)


@scenario
def s_caller_invalid_raise_only(r):
    f = r.compile(_mask_mean)
    with np.errstate(invalid="raise", divide="ignore"):
        r.call(f, LOW)
        r.call(f, HIGH)


# ==================================================================== warnings filters

def _under_filter(action, f, times):
    def call(*args):
        with warnings.catch_warnings():
            warnings.simplefilter(action)
            return [f(*args) for _ in range(times)]
    return call


def _filter_scenario(action, fn, args, times=3):
    def s(r):
        f = r.compile(fn)
        for _ in range(2):
            fresh = [[] if isinstance(a, list) else a for a in args]   # a new log each
            r.call(_under_filter(action, f, times), *fresh)
    s.__name__ = f"s_filter_{action}_{fn.__name__.strip('_')}"
    scenario(s)


_filter_scenario("error", _mask_mean, (LOW,))
_filter_scenario("error", _append_then_mean, ([], LOW))
_filter_scenario("error", _nanmean, (ALL_NAN,))
_filter_scenario("once", _mask_mean, (LOW,))
_filter_scenario("default", _mask_mean, (LOW,))
_filter_scenario("default", _nanmax_rows, (ROWS_NAN,))
_filter_scenario("always", _log_then_mean, (LOW,))
_filter_scenario("ignore", _mean_then_inverse, (LOW, SINGULAR))


@scenario
def s_record_in_caller(r):
    """``catch_warnings(record=True)`` in the caller: what it records."""
    f = r.compile(_log_then_mean)

    def caller(x):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            out = f(x)
        return out, [(w.category.__name__, str(w.message)) for w in seen]
    r.call(caller, LOW)
    r.call(caller, HIGH)


# ============================================================================ threads

@scenario
def s_eight_threads(r):
    """Eight threads call the function at once, each under its own ``np.errstate``."""
    f = r.compile(_guarded_mean)
    modes = ["warn", "raise", "ignore", "warn", "raise", "ignore", "warn", "raise"]

    def run_all(x):
        results = [None] * len(modes)
        start = threading.Barrier(len(modes))

        def work(k):
            with np.errstate(all=modes[k]):
                start.wait()
                got = []
                for _ in range(20):
                    try:
                        got.append(f(x, np.array([0]))[1])
                    except FloatingPointError as e:
                        got.append(str(e))
                results[k] = (np.geterr()["invalid"], got)
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            threads = [threading.Thread(target=work, args=(k,)) for k in range(len(modes))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        return results, sorted((w.category.__name__, str(w.message)) for w in seen)
    r.call(run_all, LOW)
    r.call(run_all, HIGH)
