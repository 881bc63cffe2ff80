"""Round 40 (native half), error state, warnings, exceptions, the race and threads in
tier 2: ``np.errstate``/``np.seterr`` set by the program around the call, inside it and
between calls (``raise``, ``ignore``, ``call`` with a counting callback); ``divide by
zero``/``invalid``/``overflow`` warnings once per op per call as eager; exceptions raised
at trip k of a loop node after writes to the inputs; the race of the tiers
(``prefer="measure"``) deciding while the inputs change dtype and size; two threads
calling while tier 2 compiles in the background and swaps in.

    >>> def _sqrt_loop(x):
    ...     acc = np.zeros_like(x)
    ...     for k in range(3):
    ...         acc = acc + np.sqrt(x - k) + 1.0 / (x - k)
    ...     return acc
"""

import threading

import numpy as np
from hostile_check import TIER2, Programs
from round40_native_runs import scenario_twice, twice

reg = Programs("round40_native")

X = np.array([3.0, 1.0, 2.0, 0.5, 4.0, 5.0])
X_OK = np.array([5.0, 6.0, 7.0, 8.0, 9.0, 10.0])


def _sqrt_loop(x):
    acc = np.zeros_like(x)
    for k in range(3):
        acc = acc + np.sqrt(x - k) + 1.0 / (x - k)
    return acc


def _divide_loop(x):
    acc = np.zeros_like(x)
    for k in range(3):
        acc = acc + 1.0 / (x - k)
    return acc


def _overflow_loop(x):
    y = x
    for k in range(4):
        y = y * 1e100
    return y


def _sqrt_neg(x):
    return np.sqrt(x - 2.0) + np.sqrt(x) * 0.5


def _int_overflow_warn_free(x):
    acc = x
    for k in range(6):
        acc = acc * 10
    return acc


def _raise_mid_loop(x, ks):
    for k in range(ks.shape[0]):
        x[k] = x[k] * 2.0
        if x[k] > 9.0:
            raise ValueError(f"too big at {k}")
    return x


def _raise_float_conv(x):
    out = np.zeros(x.shape[0], dtype=np.int64)
    for k in range(x.shape[0]):
        x[k] = x[k] + 1.0
        out[k] = int(x[k])
    return out, x


def _inner_errstate(x):
    with np.errstate(divide="ignore", invalid="ignore"):
        y = 1.0 / (x - 3.0)
    return y, np.log(x - 3.0)


def _inner_raise(x):
    with np.errstate(divide="raise"):
        try:
            return 1.0 / (x - 3.0)
        except FloatingPointError as e:
            return str(e)


for _fn, _bad in ((_sqrt_loop, X), (_divide_loop, X), (_overflow_loop, np.array([1e200, 1.0, 2, 3, 4, 5])),
                  (_sqrt_neg, np.array([3.0, 1.0, -0.0, 0.5, 2.0, 3.0])),
                  (_int_overflow_warn_free, np.array([7, -3, 2**60, 1, 2, 3], dtype=np.int64))):
    twice(reg, _fn.__name__[1:], _fn, lambda: (X_OK.copy(),), lambda _b=_bad: (_b.copy(),))

twice(reg, "raise_mid_loop", _raise_mid_loop, lambda: (np.ones(5), np.zeros(5)),
      lambda: (np.array([1.0, 2.0, 6.0, 1.0, 1.0]), np.zeros(5)))
twice(reg, "raise_float_conv", _raise_float_conv, lambda: (X_OK.copy(),),
      lambda: (np.array([1.0, np.nan, 2.0, 3, 4, 5]),),
      lambda: (np.array([1.0, 2, 3, np.inf, 4, 5]),))
twice(reg, "inner_errstate", _inner_errstate, lambda: (X_OK.copy(),), lambda: (X.copy(),))
twice(reg, "inner_raise", _inner_raise, lambda: (X_OK.copy(),), lambda: (X.copy(),))


# ---------------------------------------------------------------- error state set outside

def _errstate_around(kind, mode):
    def body(r, backend):
        f = r.compile_on(_divide_loop, backend, options=TIER2)

        def under(x):
            with np.errstate(**{kind: mode}):
                return f(x)
        r.call(f, X_OK.copy())
        r.call(f, X_OK.copy())
        r.call(under, X.copy())
        r.call(under, X_OK.copy())
        r.call(f, X.copy())
    return body


for _kind, _mode in (("divide", "raise"), ("divide", "ignore"), ("all", "raise"),
                     ("invalid", "raise"), ("over", "ignore"), ("all", "print")):
    scenario_twice(reg, f"errstate_{_kind}_{_mode}", _errstate_around(_kind, _mode))


def _seterr_between(r, backend):
    """np.seterr changed between calls (put back by the recorder after each call)."""
    f = r.compile_on(_sqrt_loop, backend, options=TIER2)
    r.call(f, X_OK.copy())
    r.call(f, X_OK.copy())
    for mode in ("raise", "ignore", "warn"):
        def call(x, mode=mode):
            np.seterr(all=mode)
            return f(x)
        r.call(call, X.copy())
        r.call(f, X.copy())


scenario_twice(reg, "seterr_between", _seterr_between)


def _seterrcall_counting(r, backend):
    """np.seterr(all="call") with a callback that counts its calls."""
    seen = []
    f = r.compile_on(_divide_loop, backend, options=TIER2)
    r.call(f, X_OK.copy())
    r.call(f, X_OK.copy())

    def call(x):
        old = np.seterrcall(lambda kind, flag: seen.append(kind))
        try:
            with np.errstate(all="call"):
                return f(x)
        finally:
            np.seterrcall(old)
    r.call(call, X.copy())
    r.call(call, X_OK.copy())
    r.see("callbacks", seen)


scenario_twice(reg, "seterrcall_counting", _seterrcall_counting)


# ---------------------------------------------------------------- the race

def _race_body(x):
    y = x * 2.0 + 1.0
    for k in range(3):
        y = y - x * 0.5
    return y, y.sum()


def _race_changing(r, backend):
    """prefer="measure": the race runs while dtypes and sizes change under it."""
    f = r.compile_on(_race_body, backend,
                     options={"after_calls": 1, "background": False, "prefer": "measure",
                              "trial_calls": 2})
    inputs = [np.arange(6.0), np.arange(6.0), np.arange(6, dtype=np.float32),
              np.arange(9.0), np.arange(6, dtype=np.int8), np.arange(6.0)[::-1],
              np.arange(1.0), np.zeros(0), np.arange(6.0), np.arange(6.0),
              np.full(6, np.nan), np.arange(6, dtype=np.float32)]
    for x in inputs:
        r.call(f, x.copy())


scenario_twice(reg, "race_changing", _race_changing)


def _race_in_place(x, y):
    x += y
    return x.max()


def _race_written(r, backend):
    """the race's calls each write the input: each tier must write it once."""
    f = r.compile_on(_race_in_place, backend,
                     options={"after_calls": 1, "background": False, "prefer": "measure",
                              "trial_calls": 2})
    x = np.arange(5.0)
    for k in range(8):
        r.call(f, x, np.full(5, 1.0 if k != 5 else np.nan))
    r.see("x", x)


scenario_twice(reg, "race_written", _race_written)


# ---------------------------------------------------------------- threads

def _thread_body(x, k):
    y = x
    for j in range(4):
        y = y * 0.5 + x
    return y + k[0]


def _threads_swap(r, backend):
    """two threads call while tier 2 compiles in the background and swaps in."""
    f = r.compile_on(_thread_body, backend,
                     options={"after_calls": 1, "background": True, "prefer": "native"})
    results = {}

    def worker(t):
        out = []
        for k in range(300):
            x = np.arange(8.0) + t if k % 7 else np.arange(8, dtype=np.float32)
            out.append(f(x, np.full(1, k, dtype=x.dtype)))
        results[t] = out
    threads = [threading.Thread(target=worker, args=(t,)) for t in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    r.see("thread results", [results[0], results[1]])
    r.call(f, np.arange(8.0), np.ones(1))


scenario_twice(reg, "threads_swap", _threads_swap)


def _thread_writes(x, v):
    x[1:] += x[:-1] * v
    return x.sum()


def _threads_writing(r, backend):
    """two threads, each writing its own input in place, during the swap."""
    f = r.compile_on(_thread_writes, backend,
                     options={"after_calls": 1, "background": True, "prefer": "native"})
    results = {}

    def worker(t):
        out = []
        for k in range(300):
            x = np.arange(6.0) * (t + 1)
            out.append((f(x, 0.5), x))
        results[t] = out
    threads = [threading.Thread(target=worker, args=(t,)) for t in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    r.see("thread results", [results[0], results[1]])


scenario_twice(reg, "threads_writing", _threads_writing)


# ---------------------------------------------------------------- warnings as errors

def _write_then_warn(x, y):
    for k in range(2):
        x += 1.0 / (y - k)
    return x


def _write_then_warn_big(x, y):
    for k in range(2):
        x += 1.0 / (y - k)
    return x


def _warnings_as_errors(r, backend):
    """``warnings.simplefilter("error")`` around some calls: the divide-by-zero warning
    raises (RuntimeWarning) after the kernel wrote ``x`` in place; ``x`` afterwards must
    be eager's (written by the first trip only), also for a large ``x`` whose backup a
    call may skip."""
    import warnings
    for n in (6, 40000):
        f = r.compile_on(_write_then_warn if n == 6 else _write_then_warn_big, backend,
                         options=TIER2)

        def strict(x, y, f=f):
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                return f(x, y)
        good = np.arange(2.0, n + 2.0)
        bad = good.copy()
        bad[n // 2] = 1.0
        r.call(f, np.ones(n), good.copy())
        r.call(f, np.ones(n), good.copy())
        r.call(strict, np.ones(n), bad.copy())
        r.call(f, np.ones(n), bad.copy())
        r.call(strict, np.ones(n), good.copy())


scenario_twice(reg, "warnings_as_errors", _warnings_as_errors)


def _seterr_inside(x):
    old = np.seterr(divide="ignore")
    try:
        return 1.0 / x
    finally:
        np.seterr(**old)


twice(reg, "seterr_inside", _seterr_inside, lambda: (np.arange(1.0, 7.0),),
      lambda: (np.arange(6.0),))


def _underflow_loop(x):
    y = x
    for k in range(3):
        y = y * 1e-200
    return y


def _underflow_around(mode):
    def body(r, backend):
        """np.errstate(under=...) around some calls: NumPy reports underflow there, which
        the kernel never flags (the default ignores it)."""
        f = r.compile_on(_underflow_loop, backend, options=TIER2)

        def under(x):
            with np.errstate(under=mode):
                return f(x)
        r.call(f, X_OK.copy())
        r.call(f, X_OK.copy())
        r.call(under, X_OK.copy())
        r.call(f, X_OK.copy())
        r.call(under, np.zeros(6))
    return body


for _mode in ("warn", "raise", "print"):
    scenario_twice(reg, f"errstate_under_{_mode}", _underflow_around(_mode))
