"""Round 47, the entry trial on (1 of 2; ``round47_entry.py``): small stateful programs, called
6-10 times, whose calls the trial runs compiled or as the plain function by turns.
Whichever way runs a call, the program sees the same: counters on objects, in globals,
in closure cells and in mutable defaults; lists and dicts it appends to; inputs it
writes; inputs that change shape, dtype and layout between calls; exceptions raised
on some calls and caught by the caller (after a mutation, or before); printed output
and warnings on every call; ``__defaults__`` replaced between calls; keyword arguments
(``prog_round47_trial_calls.py``: calls between compiled functions, frames, loops).

    >>> def _counts_calls(o, x):
    ...     o.n += 1                 # one more per call, whichever way ran it
    ...     return x * o.n
"""

import warnings

import numpy as np
from hostile_check import Args, Programs
from round47_entry import Entry

reg = Programs("round47_trial")
entry = Entry(reg)


def _x(n=5, k=0.0, dtype=np.float64):
    return (np.arange(n, dtype=dtype) - 2 + k).astype(dtype)


class Counter:
    def __init__(self):
        self.n = 0
        self.log = []


# ----------------------------------------------------------------------------- counters

def _counts_calls(o, x):
    o.n += 1
    return x * o.n


SHARED = Counter()


entry.case(_counts_calls, lambda: (SHARED, _x()), lambda: (SHARED, _x(7, 1.0)),
           setup=lambda: SHARED.__init__(), watch=lambda: SHARED.n)


CALLS = 0


def _global_counter(x):
    global CALLS
    CALLS += 1
    return x + CALLS, CALLS


def _reset_calls():
    global CALLS
    CALLS = 0


entry.case(_global_counter, (_x(),), (_x(3, 0.5),), (_x(4, dtype=np.float32),),
           setup=_reset_calls, watch=lambda: CALLS)


def _make_cell_counter():
    n = 0

    def step(x):
        nonlocal n
        n += 1
        return x * 2.0 - n

    return step


@entry.scenario
def s_cell_counter(r):
    f = r.compile(_make_cell_counter())
    for k in range(8):
        r.call(f, _x(4 + k % 3, k))


def _mutable_default(x, acc=[]):   # noqa: B006 (the shared default is the point)
    acc.append(float(x.sum()))
    return x * len(acc), len(acc)


@entry.scenario
def s_mutable_default(r):
    del _mutable_default.__defaults__[0][:]
    f = r.compile(_mutable_default)
    for k in range(8):
        r.call(f, _x(5, k * 0.5))
    r.see("default", _mutable_default.__defaults__[0])
    del _mutable_default.__defaults__[0][:]


def _defaults_replaced(x, scale=2.0, *, shift=1.0):
    return x * scale + shift


@entry.scenario
def s_defaults_replaced(r):
    f = r.compile(_defaults_replaced)
    r.patch(_defaults_replaced, "__defaults__", (2.0,))
    r.patch(_defaults_replaced, "__kwdefaults__", {"shift": 1.0})
    for k in range(9):
        if k == 4:
            _defaults_replaced.__defaults__ = (-3.0,)
        if k == 6:
            _defaults_replaced.__kwdefaults__ = {"shift": 100.0}
        r.call(f, _x(4))


def _keywords(x, *, scale=1.0, log=None):
    if log is not None:
        log.append(scale)
    return x * scale


entry.case(_keywords, Args(_x(), scale=2.0, log=[]), Args(_x(), log=[1]),
           Args(_x(6), scale=-0.5))


# ----------------------------------------------------------------------------- containers

def _appends(log, x):
    log.append(x.sum())
    log.append(len(log))
    return x[: len(log) % 4]


LOG = []
entry.case(_appends, lambda: (LOG, _x()), lambda: (LOG, _x(6, 2.0)), setup=LOG.clear,
           watch=lambda: list(LOG))


def _dict_state(d, x):
    d["calls"] = d.get("calls", 0) + 1
    d[f"k{d['calls'] % 3}"] = x.max()
    return x - d["calls"]


STATE = {}
entry.case(_dict_state, lambda: (STATE, _x()), lambda: (STATE, _x(3, -1.0)),
           setup=STATE.clear, watch=lambda: dict(STATE))


def _object_log(o, x):
    o.log.append(x.shape)
    o.n = len(o.log)
    return np.full(o.n, x.mean())


OBJ = Counter()
entry.case(_object_log, lambda: (OBJ, _x()), lambda: (OBJ, _x(8).reshape(2, 4)),
           setup=lambda: OBJ.__init__(), watch=lambda: (OBJ.n, list(OBJ.log)))


# ----------------------------------------------------------------------------- inputs written

def _writes_input(x):
    x += 1.0
    x[0] = x.sum()
    return x.max()


entry.case(_writes_input, (_x(),), (_x(9, 1.5),), (_x(4, dtype=np.float32),))


KEPT = np.zeros(6)


def _writes_global(x):
    KEPT[: x.size] += x
    return KEPT.sum()


entry.case(_writes_global, (_x(),), (_x(6, 0.5),), setup=lambda: KEPT.fill(0.0),
           watch=lambda: KEPT.copy())


def _returns_input(x, flag):
    if flag:
        return x
    return x * 1.0


entry.case(_returns_input, (_x(), True), (_x(), False), (_x(3), True))


def _views_change(x):
    x[::2] = -x[::2]
    return x.T.copy(), x.flags.c_contiguous


entry.case(_views_change, lambda: (np.arange(12.0).reshape(3, 4),),
           lambda: (np.arange(12.0).reshape(4, 3).T,), lambda: (np.arange(24.0)[::2],))


def _dtype_changes(x):
    return x * 3 // 2, (x + 1).dtype


entry.case(_dtype_changes, (_x(dtype=np.int64),), (_x(dtype=np.float32),),
           (_x(dtype=np.int8),))


# ----------------------------------------------------------------------------- exceptions

def _raises_on_negative(o, x):
    o.n += 1
    if x.min() < -1.5:
        raise ValueError(f"negative at call {o.n}")
    return np.sqrt(x + 2.0)


@entry.scenario
def s_caught_by_caller(r):
    o = Counter()
    f = r.compile(_raises_on_negative)

    def caller(x):
        try:
            return f(o, x)
        except ValueError as e:
            o.log.append(str(e))
            return None

    for k in range(9):
        r.call(caller, _x(4, 0.5 if k % 3 else -1.0))
    r.see("object", o)


def _index_error(x, i):
    return x[i] * 2.0


@entry.scenario
def s_index_error_caught(r):
    f = r.compile(_index_error)
    seen = []

    def caller(x, i):
        try:
            return f(x, i)
        except IndexError:
            seen.append(i)
            return -1.0

    for k in range(9):
        r.call(caller, _x(5), (k * 3) % 8)
    r.see("seen", seen)


def _mutates_then_raises(log, x):
    log.append(x.size)
    x[0] = 99.0
    if len(log) % 3 == 0:
        raise KeyError(len(log))
    return x.sum()


@entry.scenario
def s_mutates_then_raises(r):
    log = []
    f = r.compile(_mutates_then_raises)
    for k in range(9):
        r.call(f, log, _x(3 + k % 2))
    r.see("log", log)


def _fp_raise(x):
    with np.errstate(divide="raise"):
        return 1.0 / x


@entry.scenario
def s_fp_error_caught(r):
    f = r.compile(_fp_raise)

    def caller(x):
        try:
            return f(x)
        except FloatingPointError as e:
            return str(e)

    for k in range(8):
        r.call(caller, _x(4, 0.5 if k % 2 else 0.0))


# ----------------------------------------------------------------------------- output

def _prints(x, tag):
    print(tag, x.shape, float(x.sum()))
    return x - 1.0


entry.case(_prints, (_x(), "a"), (_x(3), "b"), (_x(5, 1.0), "c"))


def _warns(x):
    warnings.warn(f"called on {x.size}", UserWarning, stacklevel=2)
    return np.log(x)


entry.case(_warns, (_x(),), (_x(4, 3.0),), (np.array([0.0, 1.0]),))


def _print_np(x):
    print(x)
    print(repr(x * 0.1))
    return x.size


entry.case(_print_np, (_x(),), (_x(3, 0.25, np.float32),))
