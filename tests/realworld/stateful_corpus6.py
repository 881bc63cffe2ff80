"""Issue #16's sixth stateful corpus, written before it was run: 15 caches, memo tables,
seen-sets, LRU dicts and counters keyed by data, of the kinds corpus 5 left over
(``stateful_corpus5_*.py``): memos keyed by a computed float or a tuple holding one,
sets merged from displays of changing ints, rounded float keys, ``functools.lru_cache``
helpers, a plain-dict LRU that evicts ``next(iter(d))``, counters keyed by an int the
data decides. Each runs ``CALLS`` calls with the same shapes and changing values;
results, a copy of the state after each call and what the program returns are compared
with plain Python's (``test_stateful_corpus6.py``). The targets were written with the
programs, before the first run; where a program recompiles more, its ``known`` note
holds today's count and the cause found by running it (docs/realworld.md).

Example::

    @program(recompiles=3, why=SIDES)
    def memo_by_float_key(wrap):
        m = FloatKeyMemo()
        f = wrap(m.apply)
        return [(f(XS[i], KEYS[i]), snap(m.memo)) for i in range(CALLS)]
"""

from __future__ import annotations

import collections
import functools

import numpy as np
from stateful_corpus4 import CALLS, LOSSES, XS, snap
from stateful_programs import NUMBER, registrar

PROGRAMS: list = []
program = registrar(PROGRAMS)

KEYS = [2, 3, 2, 4, 5, 3, 2, 6, 4, 4, 5, 2, 3, 6]
IDS = [3, 1, 3, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9]
SIDES = NUMBER + "; a key looked up is guarded present or absent (an entry per side)"


# ===================================================================== memo tables

class FloatKeyMemo:
    """A memo keyed by a computed float (``n + 1.0``) holding ``np.arange`` of it."""

    def __init__(self):
        self.memo = {}

    def apply(self, x, n):
        k = n + 1.0
        if k not in self.memo:
            self.memo[k] = np.arange(k)
        return x * self.memo[k].mean()


@program(recompiles=3, why=SIDES + "; the arange's length a size")
def memo_by_float_key(wrap):
    m = FloatKeyMemo()
    f = wrap(m.apply)
    return [(f(XS[i], KEYS[i]), snap(m.memo)) for i in range(CALLS)]


class TupleFloatMemo:
    """A memo keyed by ``(n, round(lr, 2))``: a tuple of a changing int and float."""

    def __init__(self):
        self.memo = {}

    def apply(self, x, n, lr):
        key = (n, round(lr, 2))
        y = self.memo.get(key)
        if y is None:
            y = self.memo[key] = np.tanh(x * lr) + n
        return y


@program(recompiles=3, why=SIDES)
def memo_by_tuple_with_float(wrap):
    m = TupleFloatMemo()
    f = wrap(m.apply)
    return [(f(XS[i], KEYS[i] % 2, LOSSES[i] // 0.1 * 0.1), snap(m.memo))
            for i in range(CALLS)]


class LengthMemo:
    """A memo keyed by the length of a list the frame appends to."""

    def __init__(self):
        self.history, self.memo = [], {}

    def apply(self, x):
        self.history.append(float(x[0]))
        n = len(self.history) % 3
        if n not in self.memo:
            self.memo[n] = x * (n + 1)
        return self.memo[n] + x


@program(recompiles=2, why=SIDES + "; the list's length a changing int, its remainder "
                                     "one too (4 before ShapeEnv.new_quotient took a "
                                     "list's length)")
def memo_by_list_length(wrap):
    m = LengthMemo()
    f = wrap(m.apply)
    return [(f(XS[i]), snap(m.memo), list(m.history)) for i in range(CALLS)]


class DefaultArrayMemo:
    """``self.memo.get(k, self.default)`` with an array default, filled every other k."""

    def __init__(self):
        self.memo, self.default = {}, np.ones(5)

    def apply(self, x, k):
        w = self.memo.get(k, self.default)
        if k % 2 == 0:
            self.memo[k] = x * 0.5
        return x * w


@program(recompiles=3, why=SIDES + "; k % 2 decides a branch (an entry per side)")
def memo_get_array_default(wrap):
    m = DefaultArrayMemo()
    f = wrap(m.apply)
    return [(f(XS[i], KEYS[i]), snap(m.memo)) for i in range(CALLS)]


# ===================================================================== seen-sets

class DisplayUpdate:
    """``self.seen.update({a, b, a + b})``: a set display of three changing ints."""

    def __init__(self):
        self.seen = set()

    def visit(self, x, a, b):
        self.seen.update({a, b, a + b})
        return x + 1.0


@program(recompiles=2, why=NUMBER + "; a and b first change at different calls")
def seen_update_display(wrap):
    s = DisplayUpdate()
    f = wrap(s.visit)
    return [(f(XS[i], IDS[i], KEYS[i]), snap(s.seen)) for i in range(CALLS)]


class RoundedLoss:
    """Rounded losses in a set, counted fresh (``round(loss, 2) not in self.seen``)."""

    def __init__(self):
        self.seen, self.fresh = set(), 0

    def visit(self, x, loss):
        key = round(loss, 2)
        if key not in self.seen:
            self.fresh += 1
            self.seen.add(key)
        return x * loss


@program(recompiles=3, why=SIDES + "; the counter a changing int")
def seen_rounded_losses(wrap):
    s = RoundedLoss()
    f = wrap(s.visit)
    return [(f(XS[i], LOSSES[i]), snap(s.seen), s.fresh) for i in range(CALLS)]


class DataKeySet:
    """``self.seen.add(round(float(x.sum()), 3))``: a float key the data decides."""

    def __init__(self):
        self.seen = set()

    def visit(self, x):
        self.seen.add(round(float(x.sum()), 3))
        return x * 2.0


@program(recompiles=1, why="a float the data decides, only added")
def seen_data_float_keys(wrap):
    s = DataKeySet()
    f = wrap(s.visit)
    return [(f(XS[i]), snap(s.seen)) for i in range(CALLS)]


class DecayedKeys:
    """A closure set of rounded learning rates ``round(0.1 * 0.9 ** step, 4)``."""

    def __init__(self):
        self.step, self.seen = 0, set()

    def visit(self, x):
        self.step += 1
        lr = 0.1 * 0.9 ** self.step
        self.seen.add(round(lr, 4))
        return x * lr


@program(recompiles=1, why=NUMBER)
def seen_decayed_rates(wrap):
    s = DecayedKeys()
    f = wrap(s.visit)
    return [(f(XS[i]), snap(s.seen)) for i in range(CALLS)]


class HitRate:
    """Hits over calls of a seen-set, a float ratio of two int counters."""

    def __init__(self):
        self.seen, self.hits, self.calls = set(), 0, 0

    def visit(self, x, k):
        self.calls += 1
        if k in self.seen:
            self.hits += 1
        else:
            self.seen.add(k)
        return x * (self.hits / self.calls)


@program(recompiles=3, why=SIDES + "; the counters changing ints")
def seen_hit_rate(wrap):
    s = HitRate()
    f = wrap(s.visit)
    return [(f(XS[i], KEYS[i]), snap(s.seen), s.hits) for i in range(CALLS)]


# ===================================================================== LRU dicts

class FirstKeyLRU:
    """A plain-dict LRU of 3: a hit moves its key last (``pop`` then set), a miss on a
    full cache evicts ``next(iter(self.cache))``."""

    def __init__(self):
        self.cache = {}

    def get(self, x, k):
        if k in self.cache:
            y = self.cache.pop(k)
        else:
            y = x * k
        self.cache[k] = y
        if len(self.cache) > 3:
            del self.cache[next(iter(self.cache))]
        return y - x


@program(recompiles=3, why=SIDES + "; full or not an entry per side")
def lru_dict_first_key(wrap):
    c = FirstKeyLRU()
    f = wrap(c.get)
    return [(f(XS[i], KEYS[i]), snap(c.cache)) for i in range(CALLS)]


class EpochCache:
    """A cache cleared every 5 steps, written under the step."""

    def __init__(self):
        self.cache, self.step = {}, 0

    def put(self, x, loss):
        self.step += 1
        if self.step % 5 == 0:
            self.cache.clear()
        self.cache[self.step] = loss
        return x * len(self.cache)


@program(recompiles=3, why=NUMBER + "; step % 5 decides a branch; len() after a clear "
                                     "is known")
def cache_cleared_by_epoch(wrap):
    c = EpochCache()
    f = wrap(c.put)
    return [(f(XS[i], LOSSES[i]), snap(c.cache)) for i in range(CALLS)]


# ===================================================================== counters by data

class IntCounter:
    """``self.counts[k] = self.counts.get(k, 0) + 1`` then the count scales x."""

    def __init__(self):
        self.counts = {}

    def visit(self, x, k):
        self.counts[k] = self.counts.get(k, 0) + 1
        return x * self.counts[k]


@program(recompiles=3, why=SIDES + "; the count read a changing int")
def counter_by_int_key(wrap):
    c = IntCounter()
    f = wrap(c.visit)
    return [(f(XS[i], KEYS[i]), snap(c.counts)) for i in range(CALLS)]


class ArgmaxCounter:
    """A ``defaultdict(int)`` counting the argmax bin of each input (data decides)."""

    def __init__(self):
        self.counts = collections.defaultdict(int)

    def visit(self, x):
        self.counts[int(np.argmax(x))] += 1
        return x - x.max()


@program(recompiles=1, why="a key the data decides: int() of an array is a break; "
                           "carried over it, a changing int of the resume function "
                           "(2 before break_entry._data_numbers)")
def counter_by_argmax(wrap):
    c = ArgmaxCounter()
    f = wrap(c.visit)
    return [(f(XS[i]), dict(c.counts)) for i in range(CALLS)]


# ===================================================================== lru_cache helpers

@functools.lru_cache(maxsize=4)
def halved(lr):
    return lr * 0.5


def scaled_by_cached(x, lr):
    """An ``lru_cache`` helper called with a changing float."""
    return x * halved(lr)


@program(recompiles=1, why=NUMBER)
def lru_cache_float_argument(wrap):
    halved.cache_clear()
    f = wrap(scaled_by_cached)
    out = [f(XS[i], LOSSES[i]) for i in range(CALLS)]
    return out, halved.cache_info()


@functools.lru_cache(maxsize=2)
def window_of(n):
    return np.hanning(n) / n


def window_by_key(x, k):
    """An ``lru_cache`` helper of 2 returning an array (a fresh one per size), by an int
    that changes; the cache's hits, misses and evictions must be eager's."""
    return x[:3] * window_of(3)[k % 3]


@program(recompiles=1, why=NUMBER)
def lru_cache_small_evicting(wrap):
    window_of.cache_clear()
    f = wrap(window_by_key)
    out = [f(XS[i], KEYS[i]) for i in range(CALLS)]
    return out, window_of.cache_info()
