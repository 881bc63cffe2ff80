"""Round 42, outline trials (``dynamo/outline_trial.py``): a loop whose body breaks runs
outlined and as plain Python in turn on a frame's first calls (``config.
outline_min_elements`` patched to 0, so small arrays qualify; ``outline_trial_calls``
1, 3 and 5). Each call runs one way only, so the program's effects happen once a call:
prints, appends to a list argument and to a global, ``np.random`` draws (global state
and a ``Generator``), writes into the input, a generator advanced across the loop, an
exception raised at trip k during the trial (and caught by the caller's ``except``
inside the function), sizes that change between the trial's calls, 8 threads calling
while the trial runs, the loop's variables after it.

    >>> def _print_hits(x, hi):
    ...     for i in range(len(x)):
    ...         if x[i] > hi:
    ...             print("hit", i)
    ...     return x.sum()
"""

import threading

import numpy as np
from hostile_check import Programs

import dynamo

reg = Programs("round42_state")
LOG = []
CALLS = 9


def _data(n, seed=0):
    return np.random.default_rng(seed + n).random(n) * 2 - 0.5


def _trial(fn, make, calls=CALLS, trial_calls=None, sizes=None, name=None, see=None):
    """``fn`` called ``calls`` times (the whole trial and past it) on ``make(n)``."""
    def scenario(r):
        r.patch(dynamo.config, "outline_min_elements", 0)
        if trial_calls is not None:
            r.patch(dynamo.config, "outline_trial_calls", trial_calls)
        LOG.clear()
        f = r.compile(fn)
        for k in range(calls):
            n = sizes[k % len(sizes)] if sizes else 12
            r.call(f, *make(n, k))
        if see is not None:
            r.see("state", see())
    reg._add(name or fn.__name__.removeprefix("_"), scenario, (fn.__doc__ or "").strip())


def _print_hits(x, hi):
    for i in range(len(x)):
        if x[i] > hi:
            print("hit", i, x[i])
    return x.sum()


def _append_arg(x, out):
    for i in range(len(x)):
        if x[i] > 0.5:
            out.append(i)
        x[i] = x[i] * 2.0
    return len(out)


def _append_global(x):
    for i in range(len(x)):
        if x[i] > 0.2:
            LOG.append(float(x[i]))
    return len(LOG)


def _global_draws(x):
    for i in range(len(x)):
        if x[i] > 0.5:
            x[i] = np.random.random()
    return x


def _rng_draws(x, rng):
    for i in range(len(x)):
        if x[i] > 0.3:
            x[i] = rng.normal()
    return x, rng.random()


def _mutates_input(x):
    for i in range(1, len(x)):
        if x[i] < x[i - 1]:
            x[i] = x[i - 1]
            print("fix", i)
    return x


def _generator_across(x, gen):
    s = 0.0
    for i in range(len(x)):
        if x[i] > 0.5:
            s += next(gen)
    return s, next(gen, "end")


def _raises_at(x, k):
    for i in range(len(x)):
        if i == k and x[i] > -10:
            raise ValueError(f"trip {i}")
        if x[i] > 0.8:
            print("big", i)
    return x.sum()


def _catches(x, k):
    seen = []
    try:
        for i in range(len(x)):
            seen.append(i)
            if i == k and x[i] > -10:
                raise KeyError(i)
    except KeyError as e:
        return "caught", e.args, seen
    return "done", seen


def _loop_vars_after(x):
    acc = 0.0
    for i in range(len(x)):
        if x[i] > 0.1:
            acc = acc + float(x[i])
            print(i)
    return acc, i if len(x) else None


def _time_steps(u, log):
    for t in range(10):
        u = 0.5 * (np.roll(u, 1) + np.roll(u, -1)) + 0.01
        if u[0] > 0.3:
            log.append(t)
    return u


def _while_print(x):
    k = 0
    while k < len(x):
        if x[k] > 0.7:
            print("w", k)
        k += 1
    return k


def _kwarg_mutation(x, d):
    for i in range(len(x)):
        if x[i] > 0.4:
            d[i] = d.get(i, 0) + 1
    return sorted(d.items())


class _Counter:
    def __init__(self):
        self.n = 0

    def bump(self, v):
        self.n += 1
        return v * 2


def _method_calls(x, c):
    for i in range(len(x)):
        if x[i] > 0.0:
            x[i] = c.bump(x[i])
    return c.n


_trial(_print_hits, lambda n, k: (_data(n, k), 0.9))
_trial(_print_hits, lambda n, k: (_data(n, k), 0.9), trial_calls=1, name="print_hits_1")
_trial(_print_hits, lambda n, k: (_data(n, k), 0.9), trial_calls=5, calls=13,
       name="print_hits_5")
_trial(_print_hits, lambda n, k: (_data(n, k), 0.9), sizes=(12, 3, 0, 20, 1, 12),
       name="print_hits_sizes")
_APPENDS = []


def _shared_list(n, k):
    if k == 0:
        _APPENDS.clear()
    return (_data(n, k), _APPENDS)


_trial(_append_arg, _shared_list, see=lambda: _APPENDS)
_trial(_append_arg, lambda n, k: (_data(n, k), []), sizes=(12, 5, 30, 0), name="append_fresh")
_trial(_append_global, lambda n, k: (_data(n, k),), see=lambda: list(LOG))


def _seeded(n, k):
    np.random.seed(k)
    return (_data(n, k),)


_trial(_global_draws, _seeded)
def _seeded_once(n, k):
    if k == 0:
        np.random.seed(3)
    return (_data(n, k),)


_trial(_global_draws, _seeded_once, name="global_draws_state_carried",
       see=lambda: np.random.get_state()[1][:4].tolist())
_RNG = [None]


def _rng(n, k):
    if k == 0:
        _RNG[0] = np.random.default_rng(7)
    return (_data(n, k), _RNG[0])


_trial(_rng_draws, _rng)
_trial(_mutates_input, lambda n, k: (_data(n, k),), sizes=(12, 12, 4, 12, 16))


def _gen(n, k):
    return (_data(n, k), iter(range(100 * k, 100 * k + 30)))


_trial(_generator_across, _gen)
_trial(_raises_at, lambda n, k: (_data(n, k), (3, 20, 0, 11, 20, 5, 20, 20, 2)[k]))
_trial(_catches, lambda n, k: (_data(n, k), (3, 20, 0, 11, 20, 5, 20, 20, 2)[k]))
_trial(_loop_vars_after, lambda n, k: (_data(n, k),), sizes=(12, 0, 12, 1, 12))
_TS = []


def _steps_log(n, k):
    if k == 0:
        _TS.clear()
    return (_data(n, k), _TS)


_trial(_time_steps, _steps_log, see=lambda: list(_TS))
_trial(_while_print, lambda n, k: (_data(n, k),))
_trial(_kwarg_mutation, lambda n, k: (_data(n, k), {0: 5, 3: -1}))
_C = [None]


def _counter(n, k):
    if k == 0:
        _C[0] = _Counter()
    return (_data(n, k), _C[0])


_trial(_method_calls, _counter, see=lambda: _C[0].n)


@reg.scenario
def s_threads_during_trial(r):
    """8 threads call while the trial alternates the ways; each keeps its results and
    its own output list."""
    r.patch(dynamo.config, "outline_min_elements", 0)
    f = r.compile(_append_arg)
    outs = [[] for _ in range(8)]
    got = [[] for _ in range(8)]
    errors = []

    def work(t):
        try:
            for k in range(4):
                got[t].append(f(_data(10 + t, k), outs[t]))
        except Exception as e:  # noqa: BLE001
            errors.append(repr(e))
    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    r.see("results", got)
    r.see("outs", outs)
    r.see("errors", errors)
    r.call(f, _data(12), [])


@reg.scenario
def s_trial_then_reset(r):
    """``dynamo.reset()`` in the middle of the trial: the next calls start over."""
    r.patch(dynamo.config, "outline_min_elements", 0)
    f = r.compile(_print_hits)
    for k in range(3):
        r.call(f, _data(12, k), 0.8)
    if r.compiled:
        dynamo.reset()
    for k in range(6):
        r.call(f, _data(12, k), 0.8)


@reg.scenario
def s_two_frames_one_loop(r):
    """Two compiled functions share one body's code; their trials are their own."""
    r.patch(dynamo.config, "outline_min_elements", 0)
    f, g = r.compile(_print_hits), r.compile(_print_hits)
    for k in range(8):
        r.call(f if k % 3 else g, _data(12, k), 0.85)


# ---- the loop among other code: a graph before and after, try/finally, defaults ---------

def _prefix_suffix(x, hi):
    y = np.exp(x) - 1.0
    z = y * 2.0
    for i in range(len(z)):
        if z[i] > hi:
            print("over", i)
            z[i] = hi
    return z.sum() + y.mean(), z


def _try_finally(x):
    try:
        for i in range(len(x)):
            if x[i] > 0.6:
                LOG.append(i)
    finally:
        LOG.append("finally")
    return len(LOG)


def _default_list(x, seen=[]):  # noqa: B006 (the default is the state under test)
    for i in range(len(x)):
        if x[i] > 0.7:
            seen.append(i)
    return len(seen)


def _closure_counter():
    hits = 0

    def run(x):
        nonlocal hits
        for i in range(len(x)):
            if x[i] > 0.5:
                hits += 1
                print(hits)
        return hits
    return run


_CLOSURE = [None]


def _closure_run(x):
    return _CLOSURE[0](x)


def _for_else_break(x):
    for i in range(len(x)):
        if x[i] > 1.2:
            print("break at", i)
            break
    else:
        print("no break")
        i = -1
    return i


def _nested_break(x):
    found = []
    for i in range(4):
        for j in range(len(x)):
            if x[j] > 1.0 - 0.2 * i:
                found.append((i, j))
                break
    return found


def _while_break(x):
    k = 0
    while True:
        if k >= len(x) or x[k] > 1.1:
            break
        if x[k] < 0:
            print("neg", k)
        k += 1
    return k


def _over_list(x, items):
    out = 0.0
    for v in items:
        if v > 0.5:
            print(v)
        out += v
    return out * x


def _checks_first(x, k):
    if k < 0:
        raise ValueError("negative k")
    for i in range(len(x)):
        if x[i] > 0.9:
            x[i] = k
    return x


_trial(_prefix_suffix, lambda n, k: (_data(n, k), 1.0))
_trial(_try_finally, lambda n, k: (_data(n, k),), see=lambda: list(LOG))


def _fresh_default(n, k):
    if k == 0:
        _default_list.__defaults__[0].clear()
    return (_data(n, k),)


_trial(_default_list, _fresh_default, see=lambda: list(_default_list.__defaults__[0]))


def _fresh_closure(n, k):
    if k == 0:
        _CLOSURE[0] = _closure_counter()
    return (_data(n, k),)


_trial(_closure_run, _fresh_closure)
_trial(_for_else_break, lambda n, k: (_data(n, k) * (k % 3),))
_trial(_nested_break, lambda n, k: (_data(n, k),))
_trial(_while_break, lambda n, k: (_data(n, k),))
_trial(_over_list, lambda n, k: (_data(n, k), list(_data(n, k + 5))))
_trial(_checks_first, lambda n, k: (_data(n, k), (1, 2, -1, 3, 4, -2, 5, 6, 7)[k]))


# ---- a loop heavy enough that the outlined way may win (either way: the same effects) ----

def _heavy_steps(u, log):
    for t in range(10):
        u = np.tanh(0.5 * (u[::-1] + u) + 0.01) * 1.01 - u * 0.2
        u = u * 0.5 + np.sin(u) * 0.25 + np.cos(u) * 0.125
        if u[0] > 0.3:
            log.append(t)
            print("step", t)
    return u


def _heavy_in_place(u):
    for t in range(10):
        u *= 0.9
        u += np.cos(u) * 0.1
        if u[t] > 0.5:
            u[t] = -1.0
    return u.sum()


_trial(_heavy_steps, lambda n, k: (_data(40000, k), []), calls=8, trial_calls=2)
_trial(_heavy_in_place, lambda n, k: (_data(40000, k),), calls=8, trial_calls=2)
