"""Round 15, Python state and loops around graphs: list lengths as changing ints,
append-only and write-only lists replayed after the graph (aliased, indexed while
growing, read after an exception), ``defaultdict``, while loops with a float clock
beside the array test (NaN, -0.0, clocks that never reach the bound, a step of 0),
trip counters read after the loop, fresh ``out=`` targets, library calls along an axis,
globals rebound and argument types changed between calls, re-entrancy and threads.

    >>> def _clock(x, dt):
    ...     t = 0.0
    ...     while t < 1.0 and x.max() < 100:
    ...         x = x * 1.5
    ...         t += dt                 # dt = nan: the loop ends at once; -0.0: never
    ...     return x, t
"""

import threading
from collections import defaultdict

import numpy as np
from hostile_check import Programs

reg = Programs("round15_state")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 0.5, 4.0])
G = np.arange(12.0).reshape(3, 4)


# ------------------------------------------------------------------ list lengths

def _len_scale(x, lst):
    return x * len(lst)


def _len_index(x, lst):
    return x[len(lst) - 1]


def _len_quot(x, lst):
    return x * (len(lst) // 2) / (len(lst) % 3 + 1)


def _append_then_len(x, lst):
    lst.append(x.sum())
    return x * len(lst), lst


def _append_aliased(x, a, b):
    a.append(1)
    b.append(2)
    return x * len(a), len(b)


def _append_index_grow(x, lst):
    for i in range(3):
        lst.append(x[i])
        x = x + lst[-1]
    return x, lst


def _append_read_mid(x, lst):
    lst.append(x * 2)
    y = lst[0] + lst[-1]
    lst.append(y)
    return y


def _write_only(x, out):
    out[0] = x.sum()
    out[-1] = x.max()
    return x * 2


def _append_then_raise(x, lst):
    lst.append(1)
    lst.append(x[5])
    return lst


def _append_then_raise_caught(x, lst):
    try:
        lst.append(1)
        lst.append(x[lst[0] + 10])
    except IndexError:
        lst.append("caught")
    return len(lst), x * len(lst)


def _append_in_loop_index(x, lst):
    for v in x:
        lst.append(v)
        if len(lst) > 5:
            break
    return np.array(lst) * 2


def _extend_self(x, lst):
    lst.extend(lst)
    return x * len(lst)


def _pop_len(x, lst):
    v = lst.pop()
    return x * v + len(lst)


def _insert_front(x, lst):
    lst.insert(0, x[0])
    return lst[0] + x[1], len(lst)


def _list_self_nested(x, lst):
    lst.append(lst)
    return x * (len(lst))


for fn in (_len_scale, _len_index, _len_quot, _append_then_len, _append_index_grow,
           _append_read_mid, _append_then_raise, _append_then_raise_caught,
           _append_in_loop_index, _extend_self, _insert_front, _list_self_nested):
    case(fn, (X, [1]), (X, [1, 2]), (X, []), (X, [0] * 5), (X, [True]), (X, (1, 2)),
         calls=1)
case(_pop_len, (X, [1, 2]), (X, [3, 4, 5]), (X, [2.5]), (X, []), (X, [np.int8(7)]), calls=1)
case(_write_only, (X, [0, 0]), (X, [0]), (X, [0, 0, 0]), (X, []), calls=1)


@scenario
def append_aliased_same(r):
    f = r.compile(_append_aliased)
    a = []
    r.call(f, X, a, a)
    r.call(f, X, a, a)
    r.call(f, X, a, [])
    r.call(f, X, a, a)
    r.see("a", a)


@scenario
def append_grows_while_called(r):
    log = []

    def g(x):
        log.append(len(log))
        return x * len(log)

    f = r.compile(g)
    for _ in range(5):
        r.call(f, X)
    log.clear()
    r.call(f, X)
    log.extend(range(100))
    r.call(f, X)
    r.see("log", log)


@scenario
def list_replaced_global(r):
    state = {"lst": [1, 2]}

    def g(x):
        lst = state["lst"]
        lst.append(3)
        return x * len(lst)

    f = r.compile(g)
    r.call(f, X)
    state["lst"] = [9]
    r.call(f, X)
    state["lst"] = (1, 2)
    r.call(f, X)
    r.see("state", state)


# -------------------------------------------------------------------- defaultdict

def _dd_count(x, d):
    for v in x:
        d[v > 0] += 1
    return d


def _dd_list(x, d):
    d["a"].append(x.sum())
    d["b"]
    return len(d), x * len(d["a"])


def _dd_missing_read(x, d):
    return x * d["zz"]


def _dd_factory_raises(x, d):
    try:
        d["k"]
    except RuntimeError as e:
        return str(e), x
    return x * 2


def _bad_factory():
    raise RuntimeError("factory")


case(_dd_count, (X, defaultdict(int)), (X, defaultdict(int, {True: 5})),
     (X, defaultdict(float)), (X, {True: 0, False: 0}), calls=1)
case(_dd_list, (X, defaultdict(list)), (X, defaultdict(list, {"a": [1]})),
     (X, defaultdict(tuple)), calls=1)
case(_dd_missing_read, (X, defaultdict(int)), (X, defaultdict(float)),
     (X, defaultdict(lambda: 2.5)), (X, defaultdict(bool)), (X, {"zz": 3}), calls=1)
case(_dd_factory_raises, (X, defaultdict(_bad_factory)), (X, defaultdict(int)), calls=1)


@scenario
def dd_factory_changed(r):
    d = defaultdict(int)
    f = r.compile(_dd_missing_read)
    r.call(f, X, d)
    d.default_factory = float
    del d["zz"]
    r.call(f, X, d)
    d.default_factory = None
    del d["zz"]
    r.call(f, X, d)
    r.see("d", dict(d))


# --------------------------------------------------------------- while float clocks

def _clock(x, dt):
    t = 0.0
    n = 0
    while t < 1.0 and x.max() < 100 and n < 50:
        x = x * 1.5
        t += dt
        n += 1
    return x, t, n


def _clock_only_array(x, dt):
    t = 0.0
    while np.abs(x).sum() < 1e3 and t < 2.0:
        x = x + x
        t = t + dt
    return t


def _clock_down(x, t):
    while t > 0.0 and x.sum() < 50:
        x = x + 1
        t -= 0.25
    return x, t


def _clock_mul(x, t):
    k = 0
    while t < 10.0 and k < 30:
        x = x * 1.1
        t *= 2.0
        k += 1
    return x, t, k


def _clock_raise(x, dt):
    t = 0.0
    try:
        while t < 1.0:
            x = x * 2
            t += dt
            if t > 0.6:
                x[10] = 1.0
    except IndexError:
        return "caught", x, t
    return x, t


def _clock_int_counter(x, n):
    i = 0
    while i < n and x.sum() < 1e6:
        x = x * 2
        i += 1
    return x, i


CLOCK_DT = (0.25, 0.3, 0.1, float("nan"), -0.0, 0.0, -0.5, 1e-300, float("inf"),
            np.float32(0.2), 1, True, 0.5)
for fn in (_clock, _clock_only_array, _clock_raise):
    # Only _clock bounds its trips by a counter: the others get positive steps.
    case(fn, *[(np.abs(X) + 1, dt) for dt in CLOCK_DT if fn is _clock or dt == dt and dt > 0.01],
         calls=1)
case(_clock_down, *[(X.copy(), t) for t in (1.0, 0.3, -0.0, float("nan"), float("inf"),
                                            0.0, 2, np.float32(0.7), 1.0)], calls=1)
case(_clock_mul, *[(X.copy(), t) for t in (1.0, 0.5, -1.0, 0.0, -0.0, float("nan"),
                                          1e-320, 3, 1.0)], calls=1)
case(_clock_int_counter, *[(X.copy(), n) for n in (3, 4, 0, -1, 2 ** 63, True,
                                                  np.int64(5), 40, 3)], calls=1)

# ----------------------------------------------------------------- out= and axis calls

def _out_fresh(x):
    out = np.empty_like(x)
    np.multiply(x, 2, out=out)
    return out


def _out_alias_input(x):
    np.add(x, 1, out=x)
    return x


def _out_view(x):
    out = np.zeros(8)
    np.sqrt(np.abs(x), out=out[::2])
    return out


def _out_dtype(x):
    out = np.empty(x.shape, dtype=np.int32)
    np.floor_divide(x, 1, out=out, casting="unsafe")
    return out


def _out_returned_is(x):
    out = np.empty_like(x)
    r = np.exp(x, out=out)
    return r is out


def _axis_calls(g, ax):
    return np.cumsum(g, axis=ax), np.argmax(g, axis=ax), np.sort(-g, axis=ax)


def _apply_along(g, ax):
    return np.apply_along_axis(np.diff, ax, g)


for fn in (_out_fresh, _out_alias_input, _out_view, _out_dtype, _out_returned_is):
    case(fn, (X.copy(),), (np.array([np.nan, -0.0, np.inf, -3.5]),))
case(_axis_calls, (G, 0), (G, 1), (G, -1), (G, True), (G, np.int64(0)), (G, 2), calls=1)
case(_apply_along, (G, 0), (G, 1), (G, -1), calls=1)

# ---------------------------------------------------- globals and types that change

SCALE = 2


def _global_scale(x):
    return x * SCALE


@scenario
def global_rebound(r):
    global SCALE
    f = r.compile(_global_scale)
    for v in (2, 3, 2 ** 64, 1.5, float("nan"), True, np.int8(100), X):
        SCALE = v
        r.call(f, X)
    SCALE = 2


@scenario
def types_change(r):
    f = r.compile(_len_scale)
    for lst in ([1], "abc", {1: 2}, range(3), np.arange(4), b"xy", set(), [1]):
        r.call(f, X, lst)


@scenario
def reentrant(r):
    depth = []

    def g(x, n):
        depth.append(n)
        if n > 0:
            return f(x * 2, n - 1) + 1
        return x

    f = r.compile(g)
    r.call(f, X, 3)
    r.call(f, X, 0)
    r.call(f, X, 4)
    r.see("depth", depth)


@scenario
def threads_changing_ints(r):
    f = r.compile(_decay_t)
    results = [None] * 6

    def work(k):
        acc = []
        for t in range(k, k + 20):
            acc.append(float(f(X, t).sum()))
        results[k] = acc

    ts = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    r.see("results", results)
    r.call(f, X, 2 ** 70)


def _decay_t(x, t):
    return x * 0.9 ** t


# ---------------------------------------------------------------- trip counters

def _trip_count(x, n):
    k = 0
    for _ in range(n):
        x = x * 0.5 + 1
        k += 1
    return x, k


def _trip_while_break(x, n):
    k = 0
    while True:
        x = np.sqrt(np.abs(x)) + k
        k += 1
        if k >= n:
            break
    return x, k


def _trip_float_acc(x, n):
    acc = 0.0
    for i in range(n):
        acc += 0.1 * i
        x = x + acc
    return x, acc


def _trip_list_idx(x, lst):
    for i in range(len(lst)):
        x = x * lst[i]
        lst[i] = -lst[i]
    return x, lst


def _trip_list_mutated(x, lst):
    i = 0
    while i < len(lst):
        x = x + lst[i]
        if lst[i] > 1:
            lst.append(lst[i] - 1)
        i += 1
    return x, lst


def _trip_exc_mid(x, n):
    out = []
    for i in range(n):
        try:
            out.append(float(x[i]))
        except IndexError:
            out.append(None)
    return out


def _trip_else(x, n):
    for i in range(n):
        if x[i % len(x)] > 3:
            break
        x = x + 1
    else:
        return "else", x
    return i, x


TRIPS = (3, 4, 0, -2, 1, True, np.int64(6), np.uint8(2), 9, 3)
for fn in (_trip_count, _trip_float_acc, _trip_exc_mid, _trip_else):
    case(fn, *[(X.copy(), n) for n in TRIPS], calls=1)
case(_trip_while_break, *[(X.copy(), n) for n in (1, 3, 5, True, np.int64(2), 2)], calls=1)
for fn in (_trip_list_idx, _trip_list_mutated):
    case(fn, (X, [1, 2]), (X, [3]), (X, []), (X, [2, 2, 2]), (X, [True, 0.5]),
         (X, [np.int8(2), 4]), calls=1)


@scenario
def state_after_exception(r):
    log = []

    def g(x, i):
        log.append(i)
        y = x * len(log)
        log.append(float(y[i]))
        return y

    f = r.compile(g)
    for i in (0, 1, 9, 2, -9, 3):
        r.call(f, X, i)
    r.see("log", log)


@scenario
def dd_shared_across_calls(r):
    d = defaultdict(list)

    def g(x, k):
        d[k].append(len(d))
        return x * len(d[k])

    f = r.compile(g)
    for k in ("a", "b", "a", 1, True, 1.0, "a"):
        r.call(f, X, k)
    r.see("d", dict(d))


@scenario
def clock_global_bound(r):
    bound = {"t": 1.0}

    def g(x, dt):
        t = 0.0
        while t < bound["t"] and x.sum() < 1e3:
            x = x + 1
            t += dt
        return x, t

    f = r.compile(g)
    for b in (1.0, 0.5, -1.0, float("nan"), 2.0, 0.0):
        bound["t"] = b
        r.call(f, X, 0.25)
