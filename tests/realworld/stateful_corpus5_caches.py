"""Issue #16's fifth corpus, its second half (``stateful_corpus5_sets.py`` has the sets):
LRU and memo caches kept between calls: ``collections.OrderedDict`` with
``move_to_end`` and ``popitem(last=False)``, dict memos keyed by a shape tuple or an
int (a plain-dict LRU is corpus 4's), and ``functools.lru_cache``/``functools.cache``
helpers called from the compiled function. Each runs ``CALLS`` calls with the same shapes and changing values; results,
a copy of the state after each call and what the program returns are compared with
plain Python's (``test_stateful_corpus5.py``).

Example::

    @program(recompiles=1, why=SIDES)
    def memo_by_shape(wrap):
        m = ShapeMemo()
        f = wrap(m.apply)
        return [(f(XS[i]), len(m.memo)) for i in range(CALLS)]
"""

from __future__ import annotations

import collections
import functools

import numpy as np
from stateful_corpus4 import CALLS, LOSSES, XS, snap
from stateful_programs import NUMBER, registrar

PROGRAMS: list = []
program = registrar(PROGRAMS)

KEYS = [1, 2, 3, 1, 4, 2, 5, 1, 3, 3, 4, 5, 1, 2]
SIDES = NUMBER + "; a key looked up is guarded present or absent (an entry per side)"


# ===================================================================== OrderedDict

class OrderedLRU:
    """An ``OrderedDict`` LRU of 3: ``move_to_end`` on a hit, ``popitem(last=False)``."""

    def __init__(self):
        self.cache = collections.OrderedDict()

    def get(self, x, k):
        if k in self.cache:
            self.cache.move_to_end(k)
            return self.cache[k] + x
        y = np.tanh(x * k)
        self.cache[k] = y
        if len(self.cache) > 3:
            self.cache.popitem(last=False)
        return y + x


@program(recompiles=4, why=SIDES + "; len() a changing int once it changed, full or not "
                                   "an entry per side; popitem(last=False) reads the order: "
                                   "a break")
def ordered_lru_move_popitem(wrap):
    c = OrderedLRU()
    f = wrap(c.get)
    return [(f(XS[i], KEYS[i]), snap(c.cache)) for i in range(CALLS)]


class OrderedLog:
    """``self.log[self.step] = loss`` into an ``OrderedDict``: only written."""

    def __init__(self):
        self.log, self.step = collections.OrderedDict(), 0

    def record(self, x, loss):
        self.step += 1
        self.log[self.step] = loss
        return x * loss


@program(recompiles=1, why=NUMBER)
def ordered_log_write_only(wrap):
    s = OrderedLog()
    f = wrap(s.record)
    return [(f(XS[i], LOSSES[i]), snap(s.log)) for i in range(CALLS)]


class OrderedGet:
    """``self.cache.get(k)`` of an ``OrderedDict``, filled on a miss."""

    def __init__(self):
        self.cache = collections.OrderedDict()

    def get(self, x, k):
        y = self.cache.get(k)
        if y is None:
            y = self.cache[k] = x * k
        return y + 1.0


@program(recompiles=2, why=SIDES)
def ordered_get_or_fill(wrap):
    c = OrderedGet()
    f = wrap(c.get)
    return [(f(XS[i], KEYS[i]), snap(c.cache)) for i in range(CALLS)]


class OrderedTouch:
    """``move_to_end(k)`` of a key always present (the recent-use order only)."""

    def __init__(self):
        self.order = collections.OrderedDict((k, k * 0.5) for k in range(1, 6))

    def use(self, x, k):
        self.order.move_to_end(k)
        return x * self.order[k]


@program(recompiles=2, why=NUMBER + " (the key, then the value read under it)")
def ordered_move_to_end_only(wrap):
    c = OrderedTouch()
    f = wrap(c.use)
    return [(f(XS[i], KEYS[i]), snap(c.order)) for i in range(CALLS)]


class OrderedBounded:
    """Always insert, drop the oldest past 4: ``popitem(last=False)`` by length."""

    def __init__(self):
        self.buf, self.step = collections.OrderedDict(), 0

    def push(self, x):
        self.step += 1
        self.buf[self.step] = float(np.sum(x))
        if len(self.buf) > 4:
            self.buf.popitem(last=False)
        return x * 2.0


@program(recompiles=3, why=NUMBER + "; full or not an entry per side; popitem(last=False) "
                                     "reads the order: a break")
def ordered_fifo_popitem(wrap):
    c = OrderedBounded()
    f = wrap(c.push)
    return [(f(XS[i]), snap(c.buf)) for i in range(CALLS)]


# ===================================================================== dict memos

class ShapeMemo:
    """A window memoized by the input's shape tuple (always the same here)."""

    def __init__(self):
        self.memo = {}

    def apply(self, x):
        key = x.shape
        if key not in self.memo:
            self.memo[key] = np.hanning(x.shape[0])
        return x * self.memo[key]


@program(recompiles=1, why="the shape's key absent at the first call, present after")
def memo_by_shape(wrap):
    m = ShapeMemo()
    f = wrap(m.apply)
    return [(f(XS[i]), len(m.memo)) for i in range(CALLS)]


class IntMemo:
    """Powers memoized by an int degree that changes (``self.memo[n]``)."""

    def __init__(self):
        self.memo = {}

    def apply(self, x, n):
        if n not in self.memo:
            self.memo[n] = np.arange(n + 1.0)
        return x * self.memo[n].sum()


@program(recompiles=3, why=SIDES + "; np.arange(n + 1.0) has n + 1 elements, n a size "
                                    "(guarded >= 2, 1 pinned: shape_env.floats_as_sizes)")
def memo_by_changing_int(wrap):
    m = IntMemo()
    f = wrap(m.apply)
    return [(f(XS[i], KEYS[i]), sorted(m.memo)) for i in range(CALLS)]


class GetMemo:
    """``self.memo.get(key)`` then a fill on a miss, with hit and miss counters."""

    def __init__(self):
        self.memo, self.hits, self.misses = {}, 0, 0

    def apply(self, x, k):
        y = self.memo.get(k)
        if y is None:
            self.misses += 1
            y = self.memo[k] = x * k
        else:
            self.hits += 1
        return y - x


@program(recompiles=3, why=SIDES + "; the counters changing ints")
def memo_get_with_counters(wrap):
    m = GetMemo()
    f = wrap(m.apply)
    return [(f(XS[i], KEYS[i]), snap(m.memo), m.hits, m.misses) for i in range(CALLS)]


_GLOBAL_MEMO: dict = {}


def global_memo(x, n):
    """A module-level memo dict keyed by a changing int."""
    if n not in _GLOBAL_MEMO:
        _GLOBAL_MEMO[n] = float(n) ** 0.5
    return x * _GLOBAL_MEMO[n]


@program(recompiles=3, why=SIDES)
def global_dict_memo(wrap):
    _GLOBAL_MEMO.clear()
    f = wrap(global_memo)
    return [(f(XS[i], KEYS[i]), snap(_GLOBAL_MEMO)) for i in range(CALLS)]


class SetdefaultMemo:
    """``self.memo.setdefault(k, [])`` of a list appended to."""

    def __init__(self):
        self.memo = {}

    def apply(self, x, k):
        self.memo.setdefault(k % 2, []).append(k)
        return x * 2.0


@program(recompiles=3, why=SIDES + "; the list appended to is read by key")
def setdefault_list_memo(wrap):
    m = SetdefaultMemo()
    f = wrap(m.apply)
    return [(f(XS[i], KEYS[i]), snap(m.memo)) for i in range(CALLS)]


# ===================================================================== lru_cache helpers

@functools.lru_cache(maxsize=8)
def hann(n):
    return 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / (n - 1))


def windowed(x):
    """An ``lru_cache`` helper called by the input's length (the same every call)."""
    return x * hann(x.shape[-1])


@program(recompiles=0)
def lru_cache_by_length(wrap):
    hann.cache_clear()
    f = wrap(windowed)
    return [f(XS[i]) for i in range(CALLS)], hann.cache_info().currsize


@functools.lru_cache(maxsize=64)
def decay(k):
    return 0.9 ** k


def decayed(x, k):
    """An ``lru_cache`` helper called by a changing int."""
    return x * decay(k)


@program(recompiles=1, why=NUMBER + "; the call a break (Python's cache, exactly), its "
                                     "result a changing number (cached_call_results.py)")
def lru_cache_by_changing_int(wrap):
    decay.cache_clear()
    f = wrap(decayed)
    return [f(XS[i], KEYS[i]) for i in range(CALLS)], decay.cache_info().currsize


@functools.cache
def coeffs(order):
    return tuple(1.0 / (j + 1) for j in range(order))


def series(x, order):
    """A ``functools.cache`` helper returning a tuple of floats, order fixed."""
    c = coeffs(order)
    return sum(ci * x ** (j + 1) for j, ci in enumerate(c))


@program(recompiles=0)
def functools_cache_tuple(wrap):
    coeffs.cache_clear()
    f = wrap(series)
    return [f(XS[i], 3) for i in range(CALLS)]


@functools.lru_cache(maxsize=4)
def scaled_eye(n, s):
    return np.eye(n) * s


def eye_mix(x, s):
    """An ``lru_cache`` helper returning an array, by a shape and a float."""
    return x @ scaled_eye(x.shape[0], s)


@program(recompiles=1, why=NUMBER)
def lru_cache_returns_array(wrap):
    scaled_eye.cache_clear()
    f = wrap(eye_mix)
    return [f(XS[i], LOSSES[i] // 0.5 * 0.5) for i in range(CALLS)]
