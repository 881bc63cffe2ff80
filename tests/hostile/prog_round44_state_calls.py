"""Round 44, helpers a loop that runs as Python calls while its callee trial times them
(``dynamo/callee_trial.py``: the island calls each user function compiled, then plain,
untimed, then alternately timed, until ``config.callee_trial_calls`` of each; the
faster way stays for ``RECHECK`` calls). Whichever way runs a call, the program must
see the same: helpers that count their calls in a global, a cell, an attribute or a
list, print, warn or draw random numbers on every call (each exactly as often as
plainly), return another type per call, raise on the first (untimed) call, on a timed
call or on a decided one (caught by the loop, or not), are rebound, monkeypatched
(``__code__``, ``__defaults__``, a global they read) or deleted mid-loop, recurse,
are generators, methods, lambdas in a list, or the compiled function itself
(``prog_round44_state_rebinds.py``); and threads running the loop at once through one
trial. Each case also as ``_compiled`` and ``_retried`` (``round44_trials``).

    >>> def loop(y, trips):
    ...     out = []
    ...     while float(y[0]) < trips:        # reads data: the loop runs as Python
    ...         out.append(helper(y[1]))      # compiled or plain, by the trial
    ...         y = y + 1.0
    ...     return out
"""

import random
import warnings

import numpy as np
from hostile_check import Programs
from round44_trials import TRIPS, Trials, _y

reg = Programs("round44_state")
trials = Trials(reg)


# ----------------------------------------------------------------------------- counters

COUNT = {"n": 0}
CALLS = 0


def _reset():
    global CALLS
    COUNT["n"] = 0
    CALLS = 0


def _count_global(v):
    global CALLS
    CALLS += 1
    return v * 2.0 + CALLS


def _loop_count_global(y, trips):
    s = 0.0
    while float(y[0]) < trips:
        s = s + _count_global(y[1])
        y = y + 1.0
    return s, CALLS


trials.case(_loop_count_global, (_y(), TRIPS), (_y(2.0), 5), setup=_reset, watch=lambda: CALLS)


def _count_dict(v):
    COUNT["n"] += 1
    return v - COUNT["n"]


def _loop_count_dict(y, trips):
    out = []
    while float(y[0]) < trips:
        out.append(_count_dict(y[1]))
        y = y + 1.0
    return out


trials.case(_loop_count_dict, (_y(), TRIPS), setup=_reset, watch=lambda: dict(COUNT))


def _make_counter():
    n = 0

    def tick(v):
        nonlocal n
        n += 1
        return v * n
    return tick, lambda: n


def _loop_cell_counter(y, trips):
    tick, read = _make_counter()
    out = []
    while float(y[0]) < trips:
        out.append(tick(y[1]))
        y = y + 1.0
    return out, read()


trials.case(_loop_cell_counter, (_y(), TRIPS), (_y(), 3))


class _Acc:
    def __init__(self):
        self.calls = 0
        self.seen = []

    def add(self, v):
        self.calls += 1
        self.seen.append(float(v))
        return v + self.calls


def _loop_method_state(y, acc, trips):
    s = 0.0
    while float(y[0]) < trips:
        s = s + acc.add(y[1])
        y = y + 1.0
    return s


trials.case(_loop_method_state, (_y(), _Acc(), TRIPS), (_y(), _Acc(), 2))


def _appends(log, v):
    log.append(v * 2)
    return len(log)


def _loop_appends(y, log, trips):
    n = 0
    while float(y[0]) < trips:
        n = _appends(log, y[1])
        y = y + 1.0
    return n


trials.case(_loop_appends, (_y(), [], TRIPS), (_y(), [1, 2], TRIPS))


def _writes_arg(a, k):
    a[k % a.shape[0]] += 1.0
    return a.sum()


def _loop_writes_arg(y, a, trips):
    s = []
    while float(y[0]) < trips:
        s.append(_writes_arg(a, int(y[0])))
        y = y + 1.0
    return s, a


trials.case(_loop_writes_arg, (_y(), np.zeros(4), TRIPS), (_y(), np.zeros(3, np.float32), TRIPS))


# ----------------------------------------------------------------------------- effects

def _prints(v, k):
    print("call", k, v)
    return v + k


def _loop_prints(y, trips):
    k = 0
    while float(y[0]) < trips:
        k = _prints(y[1], k)
        y = y + 1.0
    return k


trials.case(_loop_prints, (_y(), TRIPS))


def _warns(v):
    warnings.warn(f"helper saw {v}", stacklevel=1)
    return v * 3


def _loop_warns(y, trips):
    s = 0.0
    while float(y[0]) < trips:
        s = s + _warns(y[1])
        y = y + 1.0
    return s


trials.case(_loop_warns, (_y(), TRIPS))


def _draws(v):
    return v + random.random()


def _loop_draws(y, trips):
    random.seed(5)
    out = []
    while float(y[0]) < trips:
        out.append(_draws(y[1]))
        y = y + 1.0
    return out, random.random()


trials.case(_loop_draws, (_y(), TRIPS))


def _np_draws(rng, v):
    return v + rng.random()


def _loop_np_draws(y, trips):
    rng = np.random.default_rng(3)
    out = []
    while float(y[0]) < trips:
        out.append(_np_draws(rng, y[1]))
        y = y + 1.0
    return out, rng.random()


trials.case(_loop_np_draws, (_y(), TRIPS))


def _legacy_draws(v):
    return v + np.random.rand()


def _loop_legacy_draws(y, trips):
    np.random.seed(9)
    out = []
    while float(y[0]) < trips:
        out.append(_legacy_draws(y[1]))
        y = y + 1.0
    return out


trials.case(_loop_legacy_draws, (_y(), TRIPS))


def _fp_warns(v, d):
    return np.float64(v) / d


def _loop_fp_warns(y, trips):
    out = []
    while float(y[0]) < trips:
        out.append(_fp_warns(y[1], y[0] - 3.0))   # 0 at one trip: RuntimeWarning
        y = y + 1.0
    return out


trials.case(_loop_fp_warns, (_y(), TRIPS))


def _loop_fp_raise(y, trips):
    out = []
    with np.errstate(divide="raise"):
        while float(y[0]) < trips:
            try:
                out.append(_fp_warns(y[1], y[0] - 20.0))   # a decided call raises
            except FloatingPointError as e:
                out.append(str(e))
            y = y + 1.0
    return out


trials.case(_loop_fp_raise, (_y(), TRIPS))


# ----------------------------------------------------------------------------- types

def _types_by_trip(v, k):
    if k % 3 == 0:
        return int(k)
    if k % 3 == 1:
        return v * 1.0
    return (v, k)


def _loop_types(y, trips):
    out = []
    while float(y[0]) < trips:
        out.append(_types_by_trip(y[1], int(y[0])))
        y = y + 1.0
    return out


trials.case(_loop_types, (_y(), TRIPS))


def _types_by_value(v):
    return float(v) if v > 10 else v


def _loop_types_by_value(y, trips):
    out = []
    while float(y[0]) < trips:
        out.append(_types_by_value(y[0]))
        y = y + 1.0
    return [type(o).__name__ for o in out], out


trials.case(_loop_types_by_value, (_y(), TRIPS))


def _dtype_by_trip(a, k):
    return a.astype(np.float32) if k > 12 else a * 2


def _loop_dtypes(y, trips):
    out = []
    while float(y[0]) < trips:
        out.append(_dtype_by_trip(y, int(y[0])))
        y = y + 1.0
    return out


trials.case(_loop_dtypes, (_y(), TRIPS))


def _returns_arg(a):
    return a


def _loop_identity(y, trips):
    same = []
    while float(y[0]) < trips:
        same.append(_returns_arg(y) is y)
        y = y + 1.0
    return same


trials.case(_loop_identity, (_y(), TRIPS))


def _shapes_by_trip(a, k):
    return np.ones(k % 5) * a[1]


def _loop_shapes(y, trips):
    out = []
    while float(y[0]) < trips:
        out.append(_shapes_by_trip(y, int(y[0])))
        y = y + 1.0
    return out


trials.case(_loop_shapes, (_y(), TRIPS))


# ----------------------------------------------------------------------------- raising

def _raises_at(v, k, at):
    if k in at:
        raise KeyError(f"trip {k}")
    return v * k


def _loop_raises_caught(y, trips, at):
    out = []
    while float(y[0]) < trips:
        try:
            out.append(_raises_at(y[1], int(y[0]), at))
        except KeyError as e:
            out.append(repr(e))
        y = y + 1.0
    return out


trials.case(_loop_raises_caught, (_y(), TRIPS, (0,)), name="raises_untimed_first_call")
trials.case(_loop_raises_caught, (_y(), TRIPS, (1, 4, 7, 9)), name="raises_timed_calls")
trials.case(_loop_raises_caught, (_y(), TRIPS, (25,)), name="raises_decided_call")
trials.case(_loop_raises_caught, (_y(), TRIPS, tuple(range(TRIPS))), name="raises_every_call")


def _loop_raises_escapes(y, trips, at):
    out = []
    while float(y[0]) < trips:
        out.append(_raises_at(y[1], int(y[0]), at))
        y = y + 1.0
    return out


trials.case(_loop_raises_escapes, (_y(), TRIPS, (11,)), (_y(), TRIPS, (25,)), (_y(), TRIPS, ()),
     name="raises_escapes")


class _Stop(BaseException):
    pass


def _raises_base(k):
    if k == 14:
        raise _Stop("stop")
    return k


def _loop_base_exception(y, trips):
    out = []
    try:
        while float(y[0]) < trips:
            out.append(_raises_base(int(y[0])))
            y = y + 1.0
    except _Stop as e:
        out.append(str(e))
    return out


trials.case(_loop_base_exception, (_y(), TRIPS))


def _raises_stop_iteration(k):
    if k == 16:
        raise StopIteration(k)
    return k * 2


def _loop_stop_iteration(y, trips):
    out = []
    while float(y[0]) < trips:
        try:
            out.append(_raises_stop_iteration(int(y[0])))
        except StopIteration as e:
            out.append(("stop", e.args))
        y = y + 1.0
    return out


trials.case(_loop_stop_iteration, (_y(), TRIPS))


def _raises_chained(k):
    try:
        return {1: 2}[k]
    except KeyError as e:
        raise ValueError(k) from e


def _loop_chained(y, trips):
    out = []
    while float(y[0]) < trips:
        try:
            out.append(_raises_chained(int(y[0])))
        except ValueError as e:
            out.append((e.args, type(e.__cause__).__name__, e.__suppress_context__))
        y = y + 1.0
    return out


trials.case(_loop_chained, (_y(), TRIPS))
