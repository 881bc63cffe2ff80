"""Round 32, ``deque(maxlen=k)`` windows of arrays stacked or reduced as one symbolic
input (``variables/deques.py``: ``_held_rows``, ``_symbolic_stack``): ``np.stack(d)``,
``np.mean(d, axis=0)`` and ``np.sum``/``max``/``min``/``std``/``var``/``median``/
``average`` of the deque, while it fills and once it is full, with ``appendleft``,
``extend`` of several rows, ``clear``, ``rotate``, the deque replaced by one of another
``maxlen``, rows that change shape or dtype, the deque reached through two names, a
deque subclass, and an exception raised after the append.

    >>> def _smooth(h, x):
    ...     h.window.append(x)
    ...     return np.mean(h.window, axis=0)
"""

import collections

import numpy as np
from hostile_check import Programs

reg = Programs("round32_windows")

deque = collections.deque
ROW = np.array([1.0, -2.0, 3.5])


class Holder:
    def __init__(self, d):
        self.window = d


class LoudDeque(deque):
    def append(self, v):
        super().append(v * 2)


class PlainSub(deque):
    pass


def _stack(h, x):
    h.window.append(x)
    return np.stack(h.window)


def _mean(h, x):
    h.window.append(x)
    return np.mean(h.window, axis=0)


def _sum(h, x):
    h.window.append(x)
    return np.sum(h.window, axis=0), np.sum(h.window)


def _max_min(h, x):
    h.window.append(x)
    return np.max(h.window, axis=0), np.min(h.window, axis=1)


def _std_var(h, x):
    h.window.append(x)
    return np.std(h.window, axis=0), np.var(h.window, axis=0, ddof=1)


def _median(h, x):
    h.window.append(x)
    return np.median(h.window, axis=0)


def _average(h, x):
    h.window.append(x)
    return np.average(h.window, axis=0)


def _appendleft_mean(h, x):
    h.window.appendleft(x)
    return np.mean(h.window, axis=0)


def _extend_two(h, x):
    h.window.extend([x, x * 2])
    return np.stack(h.window)


def _extend_three_mean(h, x):
    h.window.extend([x, x + 1, x - 1])
    return np.mean(h.window, axis=0), len(h.window)


def _append_twice_sum(h, x):
    h.window.append(x)
    h.window.append(-x)
    return np.sum(h.window, axis=0)


def _stack_then_raise(h, x):
    h.window.append(x)
    s = np.stack(h.window)
    if s.shape[0] >= 3:
        raise ValueError(f"full at {s.shape}")
    return s


def _raise_after_append(h, x):
    h.window.append(x)
    if x[0] > 3:
        raise RuntimeError("late")
    return np.mean(h.window, axis=0)


def _mean_then_clear(h, x):
    h.window.append(x)
    m = np.mean(h.window, axis=0)
    if len(h.window) == 3:
        h.window.clear()
    return m


def _rotate_stack(h, x):
    h.window.append(x)
    h.window.rotate(1)
    return np.stack(h.window)


def _both_ends(h, x):
    h.window.append(x)
    h.window.appendleft(x * 0)
    return np.stack(h.window)


def _no_write_mean(h, x):
    return np.mean(h.window, axis=0) + x


def _vstack(h, x):
    h.window.append(x)
    return np.vstack(h.window)


def _asarray_mean_axis1(h, x):
    h.window.append(x)
    return np.asarray(h.window).mean(axis=1)


def _mean_all(h, x):
    h.window.append(x)
    return np.mean(h.window), np.sum(h.window, axis=1)


def _average_weights(h, x):
    h.window.append(x)
    w = np.arange(1.0, len(h.window) + 1)
    return np.average(h.window, axis=0, weights=w)


def _stack_axis1(h, x):
    h.window.append(x)
    return np.stack(h.window, axis=1), np.array(h.window, dtype=np.float32)


def _median_nan(h, x):
    h.window.append(x / (x - x[0]) if x[0] > 2 else x)
    return np.median(h.window, axis=0), np.nanmean(h.window, axis=0)


FNS = (_mean_all, _average_weights, _stack_axis1, _median_nan, _stack, _mean, _sum, _max_min, _std_var, _median, _average, _appendleft_mean,
       _extend_two, _extend_three_mean, _append_twice_sum, _stack_then_raise,
       _raise_after_append, _mean_then_clear, _rotate_stack, _both_ends, _no_write_mean,
       _vstack, _asarray_mean_axis1)


def _rows(kind, k):
    if kind == "float":
        return ROW * (k + 1) - k
    if kind == "dtype":      # float32 rows from the fourth call
        return (ROW + k).astype(np.float32 if k >= 3 else np.float64)
    if kind == "shape":      # a longer row at call 4 (NumPy raises), then short again
        return np.arange(4.0) + k if k == 4 else ROW + k
    if kind == "ints":
        return np.array([k, -k, 2 * k])
    raise ValueError(kind)


def _program(fn, kind, maxlen, start=0):
    def scenario(r):
        f = r.compile(fn)
        h = Holder(deque([ROW * 0.5] * start, maxlen=maxlen))
        for k in range(7):
            r.call(f, h, _rows(kind, k))
            r.see("window", list(h.window))
    reg._add(f"{fn.__name__.removeprefix('_')}_{kind}_{maxlen}", scenario,
             (fn.__doc__ or "").strip())


for _fn in FNS:
    _program(_fn, "float", 3)
    _program(_fn, "dtype", 4)
for _fn in FNS[4:14]:
    _program(_fn, "shape", 3)
    _program(_fn, "ints", 2)
for _fn in (_stack, _mean, _median, _extend_two):
    _program(_fn, "float", None, start=1)


# ------------------------------------------------------------------ hostile holders

def _scenario(name, fn, steps):
    """``steps(r, f)``: the calls and the changes between them."""
    def scenario(r):
        steps(r, r.compile(fn))
    reg._add(name, scenario, "")


def _replaced_maxlen(r, f):
    h = Holder(deque(maxlen=3))
    for k in range(4):
        r.call(f, h, ROW + k)
    h.window = deque(h.window, maxlen=2)
    for k in range(3):
        r.call(f, h, ROW - k)
    h.window = deque(h.window, maxlen=5)
    r.call(f, h, ROW)
    r.see("window", list(h.window))


def _aliased(r, f):
    d = deque(maxlen=3)
    a, b = Holder(d), Holder(d)
    for k in range(5):
        r.call(f, a if k % 2 else b, ROW + k)
    r.see("window", list(d))


def _subclass(r, f):
    h = Holder(deque(maxlen=3))
    for k in range(4):
        r.call(f, h, ROW + k)
    h.window = LoudDeque(h.window, maxlen=3)
    for k in range(3):
        r.call(f, h, ROW + k)
    h.window = PlainSub(h.window, maxlen=3)
    r.call(f, h, ROW)
    r.see("window", list(h.window))


def _item_not_array(r, f):
    h = Holder(deque(maxlen=3))
    for k in range(4):
        r.call(f, h, ROW + k)
    h.window.append([9.0, 8.0, 7.0])      # a list row held
    r.call(f, h, ROW)
    r.call(f, h, ROW)
    h.window.append(np.float64(2.0) + ROW)
    r.call(f, h, ROW)
    r.see("window", list(h.window))


def _row_written_between(r, f):
    h = Holder(deque(maxlen=3))
    for k in range(4):
        r.call(f, h, ROW + k)
    h.window[0][1] = -100.0               # a held row written in place
    h.window[-1] = h.window[-1].astype(np.float32)
    r.call(f, h, ROW)
    r.call(f, h, ROW)
    r.see("window", list(h.window))


def _cleared_between(r, f):
    h = Holder(deque(maxlen=3))
    for k in range(4):
        r.call(f, h, ROW + k)
    h.window.clear()
    r.call(f, h, ROW)
    r.call(f, h, ROW + 1)
    r.see("window", list(h.window))


def _views_held(r, f):
    base = np.arange(12.0).reshape(4, 3)
    h = Holder(deque(maxlen=3))
    for k in range(4):
        r.call(f, h, base[k])
    base[:] = -1.0                        # the rows held are views of base
    r.call(f, h, ROW)
    r.see("window", list(h.window))


for _fn in (_stack, _mean, _median, _std_var, _extend_two):
    for _steps in (_replaced_maxlen, _aliased, _subclass, _item_not_array,
                   _row_written_between, _cleared_between, _views_held):
        _scenario(f"{_fn.__name__.removeprefix('_')}{_steps.__name__}", _fn, _steps)
