"""Round 36, direct writes under the frontend's own floating-point guard
(``ops/errstate.entered_by_glue``, the numpy backend's ``ufunc_guard``): arrays the
trace makes and writes into (``out[i] = a / b``, ``h[k] += w``, ``np.add.at``), where
between the writes the program itself calls ``np.seterr``, enters ``np.errstate``,
calls a helper that does either, sets ``np.seterrcall`` with a logging callback, or
catches the ``FloatingPointError`` of one write and goes on to the next. Values change
between calls: no condition, divide by zero, 0/0, overflow, underflow, NaN inputs.

    >>> def _set_between(x):
    ...     out = np.zeros(3)
    ...     out[0] = x[0] / x[1]
    ...     old = np.seterr(divide="ignore")
    ...     out[1] = 1.0 / x[1]
    ...     np.seterr(**old)
    ...     out[2] = np.log(x[1])
    ...     return out
"""

import math

import numpy as np
from hostile_check import Programs

reg = Programs("round36_seterr")
NAN, INF = math.nan, math.inf
LOG = []


def _quiet():
    return np.seterr(all="ignore")


def _loud():
    return np.seterr(all="raise")


def _log_call(kind, flag):
    LOG.append(kind)


# ---------------------------------------------------------------- the traced functions
def _set_between(x):
    out = np.zeros(3)
    out[0] = x[0] / x[1]
    old = np.seterr(divide="ignore")
    out[1] = 1.0 / x[1]
    np.seterr(**old)
    out[2] = np.log(x[1]) if x[1] >= 0 else 0.0
    return out


def _raise_between(x):
    out = np.zeros(3)
    out[0] = x[0] * 2.0
    old = np.seterr(all="raise")
    try:
        out[1] = x[0] / x[1]
    except FloatingPointError as e:
        out[1] = -1.0
        LOG.append(str(e))
    finally:
        np.seterr(**old)
    out[2] = x[1] / x[0]
    return out


def _errstate_block(x):
    out = np.zeros(4)
    out[0] = x[0] / x[1]
    with np.errstate(divide="raise", invalid="ignore"):
        try:
            out[1] = x[1] / x[0]
        except FloatingPointError:
            out[1] = INF
        out[2] = (x[0] - x[0]) / (x[1] - x[1])
    out[3] = np.sqrt(x[0])
    return out


def _helper_quiets(x):             # a helper changes the state and does not restore it
    out = np.empty(2)
    out[0] = x[0] / x[1]
    _quiet()
    out[1] = x[1] / x[0]
    return out, np.geterr()["divide"]


def _helper_raises(x):
    out = np.zeros(2)
    out[0] = np.exp(x[0])
    _loud()
    try:
        out[1] = np.exp(x[1] * 1000.0)
    except FloatingPointError as e:
        return out, str(e)
    return out, ""


def _seterrcall_between(x):
    out = np.zeros(3)
    old_call = np.seterrcall(_log_call)
    old = np.seterr(all="call")
    try:
        out[0] = x[0] / x[1]
        out[1] = np.log(x[0])
    finally:
        np.seterr(**old)
        np.seterrcall(old_call)
    out[2] = x[1] / x[0]
    return out, list(LOG)


def _histogram_writes(x):          # the gradient histogram: += into a fresh array
    h = np.zeros(4)
    for k in range(x.shape[0]):
        b = int(abs(x[k])) % 4
        h[b] += 1.0 / x[k]
        if k == 1:
            np.seterr(divide="ignore", invalid="ignore")
    return h


def _add_at_writes(x):
    h = np.zeros(3)
    old = np.seterr(over="raise")
    try:
        np.add.at(h, [0, 1, 1], x[:3] * 1e308)
    except FloatingPointError:
        h[2] = -1.0
    np.seterr(**old)
    h[0] += x[0] / x[1]
    return h


def _row_writes_in_loop(x):
    out = np.zeros((3, x.shape[0]))
    for i in range(3):
        if i == 1:
            np.seterr(under="raise", divide="ignore")
        try:
            out[i] = x / (x - i)
        except FloatingPointError:
            out[i] = -2.0
    return out


def _state_only_at_end(x):         # the state changes after the last write
    out = np.zeros(2)
    out[0] = x[0] / x[1]
    out[1] = np.log(x[1]) if x[1] >= 0 else -1.0
    np.seterr(all="warn")
    return out


def _nested_errstates(x):
    out = np.zeros(3)
    with np.errstate(all="ignore"):
        out[0] = x[0] / x[1]
        with np.errstate(divide="raise"):
            try:
                out[1] = x[1] / x[1]
                out[2] = 1.0 / x[1]
            except FloatingPointError:
                out[2] = 7.0
    return out


def _returned_state(x):
    out = np.zeros(1)
    old = np.seterr(divide="raise")
    before = np.geterr()
    np.seterr(**old)
    out[0] = x[0] / x[1]
    return out, before["divide"]


FNS = (_set_between, _raise_between, _errstate_block, _helper_quiets, _helper_raises,
       _seterrcall_between, _histogram_writes, _add_at_writes, _row_writes_in_loop,
       _state_only_at_end, _nested_errstates, _returned_state)

VALUES = {
    "divide": [(np.array([1.0, 2.0, 3.0]),), (np.array([1.0, 0.0, 2.0]),),
               (np.array([0.0, 0.0, -1.0]),), (np.array([-1.0, 4.0, 0.5]),)],
    "overflow": [(np.array([2.0, 1.0, 1.0]),), (np.array([1e308, 1e-308, 5.0]),),
                 (np.array([800.0, 1.0, 2.0]),), (np.array([-800.0, 0.5, 1.0]),)],
    "nan": [(np.array([NAN, 1.0, 2.0]),), (np.array([1.0, NAN, 0.0]),),
            (np.array([INF, -INF, 1.0]),), (np.array([3.0, 3.0, 3.0]),)],
    "float32": [(np.array([1.0, 0.0, 2.0], np.float32),),
                (np.array([3e38, 0.5, 1.0], np.float32),),
                (np.array([1.0, 2.0, 1.0], np.float32),)],
}


def _setup():
    LOG.clear()


for _i, _fn in enumerate(FNS):
    for _j, (_vname, _vals) in enumerate(VALUES.items()):
        if (_i + _j) % 4 == 3:
            continue
        reg.case(_fn, *_vals, calls=1, name=f"{_fn.__name__[1:]}_{_vname}", setup=_setup,
                 watch=lambda: list(LOG))


# ---------------------------------------------------------------- scenarios
def _s_caller_state_changes(r):
    """The caller's own state changes between calls (warn, ignore, raise, call)."""
    def f(x):
        out = np.zeros(2)
        out[0] = x[0] / x[1]
        out[1] = x[1] / x[0]
        return out
    g = r.compile(f)
    old = np.geterr()
    old_call = np.seterrcall(_log_call)
    LOG.clear()
    try:
        for mode in ("warn", "ignore", "raise", "call", "warn", "raise"):
            np.seterr(all=mode)
            r.call(g, np.array([1.0, 0.0]))
            r.call(g, np.array([2.0, 4.0]))
            r.see("log", list(LOG))
    finally:
        np.seterr(**old)
        np.seterrcall(old_call)
        LOG.clear()


reg._add("caller_state_changes", _s_caller_state_changes, "")


# ---------------------------------------------------------------- other ways in
class _Log:
    """An ``np.seterrcall`` object for ``"log"``: NumPy calls its ``write``."""

    def write(self, text):
        LOG.append(text.strip())


@np.errstate(divide="raise", invalid="raise")
def _strict_ratio(a, b):
    return a / b


def _decorated_helper(x):          # np.errstate as a decorator of a helper
    out = np.zeros(3)
    out[0] = x[0] / x[1]
    try:
        out[1] = _strict_ratio(x[1], x[0])
    except FloatingPointError as e:
        out[1] = -3.0
        LOG.append(str(e))
    out[2] = x[2] / x[1]
    return out


def _log_mode(x):
    out = np.zeros(2)
    old_call = np.seterrcall(_Log())
    with np.errstate(all="log"):
        out[0] = x[0] / x[1]
        out[1] = np.sqrt(x[1] - x[0])
    np.seterrcall(old_call)
    return out


def _warnings_as_errors(x):        # the warnings filter, not the ufunc state, raises
    import warnings
    out = np.zeros(2)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        try:
            out[0] = x[0] / x[1]
        except RuntimeWarning as e:
            out[0] = -4.0
            LOG.append(str(e))
    out[1] = x[1] / x[0]
    return out


for _fn in (_decorated_helper, _log_mode, _warnings_as_errors):
    for _vname in ("divide", "nan"):
        reg.case(_fn, *VALUES[_vname], calls=1, name=f"{_fn.__name__[1:]}_{_vname}",
                 setup=_setup, watch=lambda: list(LOG))
