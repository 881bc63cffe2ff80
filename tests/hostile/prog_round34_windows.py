"""Round 34, Python floats in windows read whole (``variables/float_windows.py``) and
clamped int choices (``variables/int_choices.py``): ``sum``/``max``/``min``/``len`` of a
``deque(maxlen=k)`` or a list of losses that grows, slides and holds NaN, inf, -0.0,
ints, bools, float subclasses and NumPy floats; appended items made of ``loss * 2``,
``abs(loss)``, ``-loss``; a window changed between calls by other code (an int or a
NumPy float appended, cleared, replaced by one of another ``maxlen``, an item swapped);
and ``x[min(n, k)]``, ``x[max(0, n - w)]``, ``x[max(0, n - w):n]`` with ``n`` negative,
past the array, huge, a bool, a NumPy int.

    >>> def _mean(h, x, loss):
    ...     h.d.append(loss)
    ...     return x * (sum(h.d) / len(h.d))
"""

import collections
import math

import numpy as np
from hostile_check import Programs

reg = Programs("round34_windows")

deque = collections.deque
X = np.array([1.0, -2.0, 0.5])
INF, NAN = math.inf, math.nan


class FloatSub(float):
    def __add__(self, other):       # a subclass whose sum is not float's
        return float.__add__(self, other) + 1000.0

    __radd__ = __add__


class Holder:
    def __init__(self, d):
        self.d = d


def _mean(h, x, loss):
    h.d.append(loss)
    return x * (sum(h.d) / len(h.d))


def _max_min(h, x, loss):
    h.d.append(loss)
    return x * max(h.d) - min(h.d), len(h.d)


def _sum_only(h, x, loss):
    h.d.append(loss)
    return sum(h.d)


def _expr_items(h, x, loss):
    h.d.append(loss * 2.0 + 1.0)
    h.d.append(-loss)
    return x + sum(h.d), max(h.d)


def _abs_item(h, x, loss):
    h.d.append(abs(loss))
    return x * min(h.d), sum(h.d) / len(h.d)


def _extend(h, x, loss):
    h.d.extend([loss, 0.25])
    return x - sum(h.d), min(h.d)


def _no_append(h, x, loss):
    return x * sum(h.d) + len(h.d), max(h.d)


def _constant_append(h, x, loss):
    h.d.append(0.5)
    return x * sum(h.d), loss


def _sum_start(h, x, loss):
    h.d.append(loss)
    return sum(h.d, 10.0) * x


def _branch_on_sum(h, x, loss):
    h.d.append(loss)
    s = sum(h.d)
    if s > 1.0:
        return x * s
    return x - s


FNS = (_mean, _max_min, _sum_only, _expr_items, _abs_item, _extend, _no_append,
       _constant_append, _sum_start, _branch_on_sum)

SEQS = {
    "nan": [0.5, NAN, 1.0, 2.0, -1.0, 3.0, 0.25],
    "inf": [1.0, INF, -INF, 2.0, 3.0, 4.0, INF],
    "negzero": [-0.0, -0.0, 0.0, -0.0, -0.0, -0.0, 1.0],
    "ints": [1.0, 2, 3.5, True, -4, 0.5, 2**70],
    "np64": [1.0, np.float64(2.5), 0.5, np.float32(0.1), 1.5, np.float64(NAN), 2.0],
    "subclass": [1.0, 2.0, FloatSub(0.5), 3.0, 1.5, 2.5, 0.75],
    "rounding": [0.1, 1e16, 0.3, -1e16, 0.7, 1.0 / 3.0, 2.5e-8],
    "huge": [1e308, 1e308, -1e308, 5e-324, 1e308, 2.0, -0.0],
}


def _window_program(fn, seq_name, maxlen, start):
    def scenario(r):
        h = Holder(deque(start, maxlen=maxlen) if maxlen != "list" else list(start))
        f = r.compile(fn)
        for loss in SEQS[seq_name]:
            r.call(f, h, X.copy(), loss)
            r.see("window", list(h.d))
    kind = "list" if maxlen == "list" else f"dq{maxlen}"
    reg._add(f"{fn.__name__.removeprefix('_')}_{seq_name}_{kind}", scenario, "")


for _i, _fn in enumerate(FNS):
    for _j, _seq in enumerate(SEQS):
        if (_i + _j) % 3:
            continue      # a spread of (fn, sequence) pairs, not every one (CI time)
        _maxlen = (3, "list", 1, 4)[(_i + _j) % 4]
        _start = [] if _fn is not _no_append else [0.5, 1.5]
        _window_program(_fn, _seq, _maxlen, _start)


# ---------------------------------------------------------------- changed between calls
def _mutations():
    def add_int(h, k):
        h.d.append(k)

    def add_np(h, k):
        h.d.append(np.float64(k) / 3)

    def clear(h, k):
        if k == 3:
            h.d.clear()

    def new_maxlen(h, k):
        h.d = deque(h.d, maxlen=(2, 5, 1, 3)[k % 4])

    def swap_item(h, k):
        if h.d:
            h.d[0] = (NAN, -0.0, 7, FloatSub(1.0))[k % 4]

    def to_list(h, k):
        h.d = list(h.d) if k % 2 else deque(h.d, maxlen=3)

    def rebind_attr(h, k):
        h.d = deque([float(k)] * k, maxlen=3)

    def pop_left(h, k):
        if h.d:
            h.d.popleft()

    return {"add_int": add_int, "add_np": add_np, "clear": clear,
            "new_maxlen": new_maxlen, "swap_item": swap_item, "to_list": to_list,
            "rebind_attr": rebind_attr, "pop_left": pop_left}


for _k, (_mname, _mut) in enumerate(_mutations().items()):
    for _fn in ((_mean, _max_min, _expr_items, _extend, _sum_only)[_k % 5],):
        def _scenario(r, fn=_fn, mut=_mut):
            h = Holder(deque([1.0], maxlen=3))
            f = r.compile(fn)
            for k, loss in enumerate([0.5, 2.0, -1.0, 4.0, 0.125, -0.0, 3.0]):
                if k:
                    mut(h, k)
                r.call(f, h, X.copy(), loss)
                r.see("window", (type(h.d).__name__, list(h.d),
                                 getattr(h.d, "maxlen", None)))
        reg._add(f"between_{_mname}_{_fn.__name__.removeprefix('_')}", _scenario, "")


class Smoother:
    def __init__(self):
        self.recent = deque(maxlen=3)
        self.log = []

    def step(self, x, loss):
        self.recent.append(loss)
        self.log.append(len(self.recent))
        return x * (sum(self.recent) / len(self.recent))


def _s_raise_after_append(r):
    """The trace appends, then raises on some calls: the window keeps the append."""
    def step(h, x, loss):
        h.d.append(loss)
        if loss > 2.0:
            raise ValueError(f"loss {loss}")
        return x * sum(h.d)
    h = Holder(deque(maxlen=3))
    f = r.compile(step)
    for loss in (1.0, 3.0, 0.5, 2.5, -1.0, 0.25):
        r.call(f, h, X.copy(), loss)
        r.see("window", list(h.d))


reg._add("raise_after_append", _s_raise_after_append, "")


def _s_bound_method(r):
    s = Smoother()
    f = r.compile(s.step)
    for loss in (0.5, NAN, 1.0, -0.0, 2.0, INF):
        r.call(f, X.copy(), loss)
        r.see("smoother", (list(s.recent), list(s.log)))


reg._add("bound_method_nan_inf", _s_bound_method, "")


def _s_same_deque_two_holders(r):
    def step(a, b, x, loss):
        a.d.append(loss)
        b.d.append(loss * 2)
        return sum(a.d), max(b.d), len(a.d)
    d = deque(maxlen=4)
    a, b = Holder(d), Holder(d)
    f = r.compile(step)
    for loss in (1.0, -2.0, 0.5, 3.0, -0.0, 1.5):
        r.call(f, a, b, X.copy(), loss)
        r.see("window", list(d))


reg._add("same_deque_two_holders", _s_same_deque_two_holders, "")


# ---------------------------------------------------------------- clamped int choices
M = np.arange(20.0).reshape(10, 2)


def _clamped_row(x, n):
    return x[min(n, 7)] * 2.0


def _trailing_row(x, n):
    return x[max(0, n - 4)] + 1.0


def _window_slice(x, n):
    return x[max(0, n - 4):n].sum(axis=0), x[max(0, n - 4):n].shape


def _min_neg(x, n):
    return x[min(n, -2)], x[max(n, -3)]


def _three_args(x, n):
    return x[min(n, 9, 5)] - x[max(1, n, 0)]


def _choice_stored(x, n):
    k = min(n, 3)
    return x[k], k


NS = {"walk": [1, 2, 3, 5, 7, 8, 9, 12, 6, 0],
      "negative": [1, -1, -3, -10, -11, -20, 2],
      "huge": [3, 8, 2**40, 2**63, -(2**63) - 1, 4],
      "bools": [True, 1, False, 0, True, 9],
      "np_ints": [np.int64(2), 3, np.int8(-4), np.uint8(200), np.int32(9), 1]}


for _i, _fn in enumerate((_clamped_row, _trailing_row, _window_slice, _min_neg,
                          _three_args, _choice_stored)):
    for _j, _ns in enumerate(NS):
        if (_i + _j) % 3 and (_i, _j) != (2, 1):
            continue
        def _scenario(r, fn=_fn, ns=_ns):
            f = r.compile(fn)
            for n in NS[ns]:
                r.call(f, M.copy(), n)
        reg._add(f"choice_{_fn.__name__.removeprefix('_')}_{_ns}", _scenario, "")


class Filler:
    def __init__(self, cap):
        self.size, self.cap, self.buf = 0, cap, np.zeros((6, 2))

    def add(self, v):
        self.size = min(self.size + 1, self.cap)
        self.buf[self.size - 1] = v
        return self.buf.sum(), self.size


for _cap in (6, 3, 7):
    def _scenario(r, cap=_cap):
        fl = Filler(cap)
        f = r.compile(fl.add)
        for k in range(9):
            r.call(f, np.array([k, -k], dtype=float))
            r.see("filler", (fl.size, fl.buf.tolist()))
    reg._add(f"filler_cap_{_cap}", _scenario, "")


class Walker:
    def __init__(self, start, step):
        self.n, self.step = start, step


def _walk_min(c, x):
    c.n += c.step
    return x[min(c.n, 3)] * 2


def _walk_max(c, x):
    c.n += c.step
    return x[max(0, c.n - 2)] - 1, x[max(c.n, -4)]


def _walk_window(c, x):
    c.n += c.step
    return x[max(0, c.n - 2):c.n].sum(), x[min(c.n, 2):].shape


for _fn in (_walk_min, _walk_max, _walk_window):
    for _walk, (_start, _step) in (("up", (0, 1)), ("down", (3, -2))):
        def _scenario(r, fn=_fn, start=_start, step=_step):
            f = r.compile(fn)
            c = Walker(start, step)
            for _ in range(7):
                r.call(f, c, np.array([10.0, -1.0, 2.5, 7.0]))
                r.see("n", c.n)
        reg._add(f"{_fn.__name__[1:]}_{_walk}", _scenario, "")
