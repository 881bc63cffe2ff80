"""Round 45, state that flows between calls (1 of 3): filling deques
(``dynamo/filling_deques.py``: while a ``deque(maxlen=n)`` of arrays read item by item
fills, the call runs the original code; the call that finds it full compiles) made to
pop, rotate, clear, be replaced by one of another ``maxlen``, be shared by two names,
be appended to twice or only sometimes, hold floats, other shapes, NaN, be a subclass;
resume functions sharing changing numbers (``dynamo/sibling_numbers.py``) that are NaN,
``-0.0``, huge ints, bools and NumPy scalars, or a name rebound to a container; the
numpy backend's buffers (``sizes.UNREUSED_AFTER``) where results alias inputs, are kept
by the caller across calls or fed back, and sizes grow and shrink again; loop ints past
int64; NaN in ``k in items``.

    >>> class Window:
    ...     def __init__(self):
    ...         self.buf = deque(maxlen=3)
    ...     def __call__(self, x):
    ...         self.buf.append(x)
    ...         if len(self.buf) == 3 and x[0] > 2:
    ...             self.buf.pop()                 # the deque never fills for good
    ...         return sum(b * 0.5 for b in self.buf)
"""

import collections

import numpy as np
from hostile_check import Programs
from round45_support import NAN, _calls, _x

reg = Programs("round45_flow")


# ----------------------------------------------------------------------------- deques

class _Win:
    def __init__(self, maxlen=3):
        self.buf = collections.deque(maxlen=maxlen)

    def mean(self, x):
        self.buf.append(x)
        return sum(b * 0.5 for b in self.buf), len(self.buf)

    def left(self, x):
        self.buf.appendleft(x)
        return [b * (i + 1) for i, b in enumerate(self.buf)]

    def pops_sometimes(self, x):
        self.buf.append(x)
        if len(self.buf) == self.buf.maxlen and float(x[0]) > 2.0:
            self.buf.pop()
        return sum(b for b in self.buf)

    def rotates(self, x):
        self.buf.append(x)
        if len(self.buf) == self.buf.maxlen:
            self.buf.rotate(1)
        return [b + 0.0 for b in self.buf]

    def clears(self, x):
        self.buf.append(x)
        s = sum(b for b in self.buf)
        if len(self.buf) == self.buf.maxlen:
            self.buf.clear()
        return s

    def twice(self, x):
        self.buf.append(x)
        self.buf.append(x * 2)
        return sum(b for b in self.buf)

    def ends(self, x):
        self.buf.append(x)
        return self.buf[0] - self.buf[-1], [b.sum() for b in self.buf]

    def extends(self, x):
        self.buf.extend([x, x + 1])
        return sum(b for b in self.buf)

    def bumps_items(self, x):
        self.buf.append(x)
        for b in self.buf:
            b += 1.0
        return [b.copy() for b in self.buf]


def _deque_state(w):
    return lambda: (len(w.buf), w.buf.maxlen, list(w.buf))


def _deque_program(name, method, maxlen=3, n=7, make=lambda k: (_x(k=k),)):
    def scenario(r):
        w = _Win(maxlen)
        f = r.compile(getattr(w, method))
        _calls(r, f, make, n, watch=_deque_state(w))
    reg._add(name, scenario, getattr(_Win, method).__doc__ or "")


_deque_program("deque_fills_then_steady", "mean")
_deque_program("deque_appendleft_fills", "left")
_deque_program("deque_pops_when_full_sometimes", "pops_sometimes", n=9)
_deque_program("deque_rotates_when_full", "rotates")
_deque_program("deque_clears_when_full", "clears", n=9)
_deque_program("deque_two_appends_a_call", "twice", maxlen=5)
_deque_program("deque_read_by_index", "ends")
_deque_program("deque_extends", "extends", maxlen=5)
_deque_program("deque_items_written_in_place", "bumps_items")
_deque_program("deque_maxlen_one", "mean", maxlen=1, n=4)
_deque_program("deque_maxlen_zero", "mean", maxlen=0, n=3)
_deque_program("deque_shapes_change", "mean", n=7, make=lambda k: (_x(3 + (k > 3)),))
_deque_program("deque_dtypes_change", "mean", n=7,
               make=lambda k: (_x(k=k, dtype=np.float32 if k % 3 == 2 else np.float64),))
_deque_program("deque_nan_items", "mean", n=6,
               make=lambda k: (np.array([NAN if k == 1 else k, -0.0, 1.0]),))
_deque_program("deque_floats_then_arrays", "mean", n=7,
               make=lambda k: (float(k) if k < 2 else _x(k=k),))


@reg.scenario
def s_deque_replaced_with_other_maxlen(r):
    w = _Win(3)
    f = r.compile(w.mean)
    _calls(r, f, lambda k: (_x(k=k),), 5, watch=_deque_state(w))
    w.buf = collections.deque(list(w.buf), maxlen=4)
    _calls(r, f, lambda k: (_x(k=10 + k),), 3, watch=_deque_state(w))
    w.buf = collections.deque(list(w.buf)[:3], maxlen=3)
    w.buf = collections.deque(w.buf, maxlen=5)
    _calls(r, f, lambda k: (_x(k=20 + k),), 4, watch=_deque_state(w))


@reg.scenario
def s_deque_cleared_from_outside(r):
    w = _Win(3)
    f = r.compile(w.mean)
    _calls(r, f, lambda k: (_x(k=k),), 5, watch=_deque_state(w))
    w.buf.clear()
    _calls(r, f, lambda k: (_x(k=k),), 5, watch=_deque_state(w))
    w.buf.append(np.zeros(4))
    w.buf.append(np.zeros(4))
    w.buf.append(np.zeros(4))
    _calls(r, f, lambda k: (_x(k=-k),), 2, watch=_deque_state(w))


SHARED = collections.deque(maxlen=3)


class _Shares:
    def __init__(self):
        self.buf = SHARED

    def both(self, x):
        self.buf.append(x)
        SHARED.append(x * 2)
        return sum(b for b in self.buf), len(SHARED)


@reg.scenario
def s_deque_global_and_attribute(r):
    SHARED.clear()
    o = _Shares()
    f = r.compile(o.both)
    _calls(r, f, lambda k: (_x(k=k),), 6, watch=lambda: list(SHARED))


class _CountingDeque(collections.deque):
    def append(self, v):
        COUNTS.append(len(self))
        super().append(v)


COUNTS = []


@reg.scenario
def s_deque_subclass_append_counts(r):
    COUNTS.clear()
    w = _Win(3)
    w.buf = _CountingDeque(maxlen=3)
    f = r.compile(w.mean)
    _calls(r, f, lambda k: (_x(k=k),), 6, watch=lambda: (list(COUNTS), list(w.buf)))


class _Sometimes:
    def __init__(self):
        self.buf = collections.deque(maxlen=3)
        self.n = 0

    def step(self, x):
        self.n += 1
        if self.n % 3:
            self.buf.append(x)
        return sum(b * 2 for b in self.buf), self.n


@reg.scenario
def s_deque_appended_on_some_calls(r):
    o = _Sometimes()
    f = r.compile(o.step)
    _calls(r, f, lambda k: (_x(k=k),), 12, watch=lambda: list(o.buf))


class _Raises:
    def __init__(self):
        self.buf = collections.deque(maxlen=3)

    def step(self, x, d):
        self.buf.append(x)
        s = sum(b for b in self.buf)
        return s / (1 // d)


@reg.scenario
def s_deque_append_then_raise(r):
    o = _Raises()
    f = r.compile(o.step)
    _calls(r, f, lambda k: (_x(k=k), 0 if k in (2, 5) else 1), 8, watch=lambda: list(o.buf))


@reg.scenario
def s_deque_item_mutated_by_caller(r):
    w = _Win(3)
    f = r.compile(w.mean)
    keep = []
    for k in range(6):
        x = _x(k=k)
        keep.append(x)
        r.call(f, x)
        keep[0][0] += 100.0   # the deque holds the caller's array
        r.see("buf", list(w.buf))


# ----------------------------------------------------------------------------- siblings

def _branchy(x, reward):
    if float(x[0]) > 1.0:         # reads data: each side is a resume function
        y = x * reward
    else:
        y = x - reward
    return y, reward


SIBLING_VALUES = (1.0, 2.0, 3.0, NAN, -0.0, 0.0, 2 ** 70, True, False,
                  np.float32(2.5), np.int64(3), np.float64(-0.0), 7, NAN)


@reg.scenario
def s_sibling_numbers_odd_values(r):
    f = r.compile(_branchy)
    for k, v in enumerate(SIBLING_VALUES):
        r.call(f, np.array([2.0 if k % 2 else 0.0, 1.0]), v)


def _branchy_size(x, k):
    if float(x[0]) > 1.0:
        return np.zeros(k) + x[0], k
    return np.ones(k) * x[1], -k


@reg.scenario
def s_sibling_number_as_size(r):
    f = r.compile(_branchy_size)
    for j, k in enumerate((2, 3, 4, 5, 0, True, np.int32(3), 6)):
        r.call(f, np.array([2.0 if j % 2 else 0.0, 1.0]), k)


def _branchy_membership(x, k, items):
    if float(x[0]) > 1.0:
        return k in items, x * 2
    return items.count(k), x * 3


@reg.scenario
def s_sibling_nan_membership(r):
    f = r.compile(_branchy_membership)
    items = [NAN, 1.0, -0.0]
    for j, k in enumerate((1.0, 2.0, NAN, items[0], 0.0, float("nan"), items[0], -0.0)):
        r.call(f, np.array([2.0 if j % 2 else 0.0, 1.0]), k, items)


def _nested_branches(x, a, b):
    if float(x[0]) > 1.0:
        t = a * 2
        if float(x[1]) > 1.0:
            return x * t + b
        return x - t
    return x + a - b


@reg.scenario
def s_sibling_nested_breaks(r):
    f = r.compile(_nested_branches)
    vals = [(1.0, 2.0), (3.0, 4.0), (NAN, -0.0), (2 ** 64, 1), (True, np.float16(1.5)),
            (-0.0, NAN), (1.0, 2.0)]
    for j, (a, b) in enumerate(vals):
        r.call(f, np.array([2.0 if j % 2 else 0.0, 2.0 if j % 3 else 0.0]), a, b)


# ----------------------------------------------------------------------------- siblings, more

class _Agent:
    def __init__(self):
        self.eps = 0.5
        self.total = 0.0

    def step(self, x, reward):
        if float(x[0]) > 1.0:
            self.total = self.total + reward
            return x * reward
        self.total = self.total - reward
        return x + reward


@reg.scenario
def s_sibling_attribute_total_odd_numbers(r):
    a = _Agent()
    f = r.compile(a.step)
    for j, v in enumerate((1.0, 2.0, 3.0, 4.0, NAN, -0.0, 1e308, 1e308, -np.inf, 0.5)):
        r.call(f, np.array([2.0 if j % 2 else 0.0, 1.0]), v)
        r.see("total", a.total)
        if a.total != a.total or abs(a.total) == np.inf:
            a.total = 0.0


def _sibling_int_ops(x, k):
    if float(x[0]) > 1.0:
        return x * (k // 3), k % 7, k ** 2
    return x + (k << 1), -k, abs(k)


@reg.scenario
def s_sibling_huge_and_negative_ints(r):
    f = r.compile(_sibling_int_ops)
    for j, k in enumerate((5, 6, 7, 8, 2 ** 63, -(2 ** 63) - 1, 2 ** 100, -3, True, np.int8(-128))):
        r.call(f, np.array([2.0 if j % 2 else 0.0, 1.0]), k)


# ----------------------------------------------------------------------------- buffers

def _two_outputs(x):
    y = np.exp(x * 0.1)
    return y, y[1:] * 2.0


@reg.scenario
def s_buffers_kept_sizes_grow_and_shrink(r):
    f = r.compile(_two_outputs)
    for n in (10, 11, 12, 13, 14, 12, 11, 10, 13, 10):
        r.call(f, _x(n))


def _returns_input_and_new(x):
    return x, x * 2.0, x[::2]


@reg.scenario
def s_buffers_output_aliases_input(r):
    f = r.compile(_returns_input_and_new)
    for n in (6, 7, 8, 9, 7, 6):
        r.call(f, _x(n))


def _into_out(x, out):
    np.multiply(x, 2.0, out=out)
    out += 1.0
    return out, out.sum()


@reg.scenario
def s_buffers_out_argument_reused(r):
    f = r.compile(_into_out)
    for n in (5, 6, 7, 8, 6, 5):
        out = np.empty(n)
        r.call(f, _x(n), out)
        r.call(f, _x(n, k=1.0), out)


def _step(x):
    return np.tanh(x) + x * 0.5


@reg.scenario
def s_buffers_result_fed_back(r):
    f = r.compile(_step)
    x = _x(8)
    for _ in range(5):
        x = r.call(f, x)
    for n in (9, 10, 11, 9):
        y = r.call(f, _x(n))
        r.call(f, y)


@reg.scenario
def s_buffers_result_written_by_caller(r):
    f = r.compile(_two_outputs)
    for n in (6, 7, 8, 9, 8, 6, 6):
        y = r.call(f, _x(n))
        y[0][...] = -1.0
        y[1][0] = 5.0


def _same_twice(a, b):
    a *= 2.0
    return a + b, b


@reg.scenario
def s_buffers_same_array_two_args(r):
    f = r.compile(_same_twice)
    for n in (5, 6, 7, 8, 5):
        x = _x(n)
        r.call(f, x, x)
        r.call(f, x, x[::-1])


def _reduce(x):
    m = x.mean()
    return x - m, (x * x).sum(), m


@reg.scenario
def s_buffers_growing_reductions_shrink(r):
    f = r.compile(_reduce)
    for n in (3, 4, 5, 6, 7, 8, 2, 1, 8, 3):
        r.call(f, _x(n, dtype=np.float32))


# ----------------------------------------------------------------------------- numbers

def _loop_int_big(x, n):
    s = 0
    for i in range(n):
        s = s + i * 2 ** 62
        x = x + 1.0
    return x, s, i


@reg.scenario
def s_loop_ints_past_int64(r):
    f = r.compile(_loop_int_big)
    for n in (3, 4, 5, 9, 1):
        r.call(f, _x(), n)


def _nan_identity(x, k, items):
    return k in items, items.index(k) if k in items else -1, x * 2


@reg.scenario
def s_nan_identity_membership(r):
    f = r.compile(_nan_identity)
    items = [1.0, NAN, 2.0]
    for k in (1.0, 2.0, NAN, float("nan"), items[1], np.nan, np.float64("nan"), 3.0):
        r.call(f, _x(), k, items)


# ----------------------------------------------------------------------------- large buffers

def _big_chain(x):
    t = np.exp(x * 0.001)
    u = t * t + 1.0
    return u / (t + 2.0), u[:10].copy()


def _big_chain_other(x):
    t = np.sin(x * 0.01)
    v = t * 3.0 - 1.0
    return v * v, v.sum()


@reg.scenario
def s_large_results_of_two_functions_kept(r):
    f, g = r.compile(_big_chain), r.compile(_big_chain_other)
    for n in (200_000, 200_000, 210_000, 200_000):
        x = np.linspace(-1.0, 1.0, n)
        r.call(f, x)
        r.call(g, x)
        r.call(f, x[::-1])


def _big_inplace(x, out):
    np.multiply(x, 2.0, out=out)
    out += np.sqrt(np.abs(x))
    return out, x * out


@reg.scenario
def s_large_out_argument_and_new_result(r):
    f = r.compile(_big_inplace)
    out = np.empty(150_000)
    for k in range(4):
        x = np.linspace(-1.0, 1.0 + k, 150_000)
        r.call(f, x, out)
        r.call(f, x, np.empty(150_000))


def _big_returns_view_of_input(x):
    y = x[1:] - x[:-1]
    return x[::2], y, y[::3]


@reg.scenario
def s_large_views_kept_sizes_shrink(r):
    f = r.compile(_big_returns_view_of_input)
    for n in (120_000, 121_000, 122_000, 123_000, 120_000, 119_000):
        r.call(f, np.linspace(0.0, 3.0, n) ** 2)


class _TwoDeques:
    def __init__(self):
        self.buf = collections.deque(maxlen=3)

    def step(self, x, other):
        self.buf.append(x)
        other.append(x * 2)
        return sum(b for b in self.buf), [o.sum() for o in other], len(other)


@reg.scenario
def s_deque_argument_aliases_attribute(r):
    o = _TwoDeques()
    f = r.compile(o.step)
    mine = collections.deque(maxlen=3)
    for k in range(9):
        other = o.buf if k % 3 == 1 else mine
        r.call(f, _x(k=k), other)
        r.see("bufs", (list(o.buf), list(mine)))
