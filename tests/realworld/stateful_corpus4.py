"""A fourth corpus of stateful programs (issue #16): dicts written and read back under a
key that changes every call, as memo tables and logs keep them (``self.cache[self.step] =
y``, ``hist[t] = loss``, ``if k not in self.m: self.m[k] = ...``), and their neighbours:
a dict of step -> array read at the previous step, a sliding dict that deletes its oldest
step, ``dict.get``/``setdefault``/``pop`` under a changing int, dicts of tuple keys,
``defaultdict`` counters, ``OrderedDict`` LRU caches with ``popitem`` (windows, and sets
of seen ids, are in ``stateful_corpus4_windows.py``, to keep each file short).

Each runs ``CALLS`` calls with changing values; what a scenario returns holds each
call's result, a copy of the state after it (``snap``) and what was printed, so all of
them are compared with plain Python's. Targets and ``known`` notes as in
``stateful_programs.py`` (``test_stateful_corpus4.py``).

Example::

    @program(recompiles=1, why=NUMBER)
    def step_log_write_only(wrap):
        s = StepLog()
        f = wrap(s.record)
        return [(f(XS[i], LOSSES[i]), snap(s.log)) for i in range(CALLS)]
"""

from __future__ import annotations

import collections
import copy

import numpy as np
from stateful_corpus3 import printed
from stateful_programs import NUMBER, registrar

PROGRAMS: list = []
program = registrar(PROGRAMS)

CALLS = 14
KEYED = NUMBER + "; a key looked up is guarded present or absent (an entry per side)"


def _data(seed, *shape):
    return np.random.default_rng(seed).standard_normal(shape)


def snap(state):
    """A copy of ``state`` as it is now (the state after each call is compared)."""
    return copy.deepcopy(state)


XS = [_data(4000 + i, 5) for i in range(CALLS)]
LOSSES = [1.0, 0.9, 0.95, 0.8, 0.82, 0.7, 0.71, 0.69, 0.72, 0.6, 0.61, 0.65, 0.58, 0.57]
W5 = _data(4100, 5, 5) * 0.3


# ===================================================================== step -> value

class StepLog:
    """``self.log[self.step] = loss``: a dict only written, keyed by a growing step."""

    def __init__(self):
        self.log, self.step = {}, 0

    def record(self, x, loss):
        self.step += 1
        self.log[self.step] = loss
        return x * loss


@program(recompiles=1, why=NUMBER)
def step_log_write_only(wrap):
    s = StepLog()
    f = wrap(s.record)
    return [(f(XS[i], LOSSES[i]), snap(s.log)) for i in range(CALLS)]


def record_loss(x, hist, t):
    """``hist[t] = loss`` of a dict passed in, ``t`` an int argument."""
    loss = float(np.sum(x * x))
    hist[t] = loss
    return x / (1.0 + loss)


@program(recompiles=1, why=NUMBER)
def hist_dict_argument_by_t(wrap):
    hist = {}
    f = wrap(record_loss)
    return [(f(XS[i], hist, 10 + i), snap(hist)) for i in range(CALLS)]


class OutputCache:
    """``self.cache[self.step] = y`` then ``self.cache[self.step]`` read back."""

    def __init__(self):
        self.cache, self.step = {}, 0

    def forward(self, x):
        self.step += 1
        self.cache[self.step] = np.tanh(x)
        return self.cache[self.step] * 2.0


@program(recompiles=0, why="a step written back is a changing int from the first trace "
                           "(``written_numbers``); the dict is only written, then read "
                           "at that key")
def cache_written_then_read_back(wrap):
    c = OutputCache()
    f = wrap(c.forward)
    return [(f(XS[i]), snap(c.cache)) for i in range(CALLS)]


class PrevStepDiff:
    """``self.outs.get(self.step - 1)``: the previous step's array, None at first."""

    def __init__(self):
        self.outs, self.step = {}, 0

    def forward(self, x):
        prev = self.outs.get(self.step - 1)
        y = x @ W5
        self.outs[self.step] = y
        self.step += 1
        return y if prev is None else y - prev


@program(recompiles=1, why=KEYED + "; the previous step is absent only at the first call")
def previous_step_by_get(wrap):
    p = PrevStepDiff()
    f = wrap(p.forward)
    return [(f(XS[i]), snap(p.outs)) for i in range(CALLS)]


class SlidingDict:
    """A dict of the last 3 steps: the oldest deleted (``del self.buf[self.step - 3]``)."""

    def __init__(self):
        self.buf, self.step = {}, 0

    def push(self, x):
        self.buf[self.step] = x.copy()
        if self.step - 3 in self.buf:
            del self.buf[self.step - 3]
        self.step += 1
        return x * len(self.buf)


@program(recompiles=2, why=NUMBER + "; len(self.buf) is a changing int from its first "
                                    "change; the oldest step is absent while it fills")
def sliding_dict_deletes_oldest(wrap):
    s = SlidingDict()
    f = wrap(s.push)
    return [(f(XS[i]), snap(s.buf)) for i in range(CALLS)]


class PopOld:
    """``self.buf.pop(self.step - 2, None)``: drop the step before last."""

    def __init__(self):
        self.buf, self.step = {}, 0

    def push(self, x):
        self.buf[self.step] = x * 0.5
        old = self.buf.pop(self.step - 2, None)
        self.step += 1
        return x if old is None else x + old


@program(recompiles=1, why=KEYED + "; the key two steps back is absent only at first")
def pop_step_before_last(wrap):
    p = PopOld()
    f = wrap(p.push)
    return [(f(XS[i]), snap(p.buf)) for i in range(CALLS)]


class FibMemo:
    """``self.memo[n] = self.memo[n - 1] + self.memo[n - 2]``, n one more each call."""

    def __init__(self):
        self.memo = {0: np.ones(5), 1: np.ones(5)}
        self.n = 2

    def next(self, x):
        self.memo[self.n] = self.memo[self.n - 1] * 0.5 + self.memo[self.n - 2] * 0.25 + x
        self.n += 1
        return self.memo[self.n - 1]


@program(recompiles=0, why="the step written back is a changing int from the first "
                           "trace; both keys read are present every call")
def recurrence_over_two_previous_keys(wrap):
    m = FibMemo()
    f = wrap(m.next)
    return [(f(XS[i]), snap(m.memo)) for i in range(CALLS)]


def global_history(x, step):
    """A module-level dict written at ``step``: ``HISTORY[step] = ...``."""
    HISTORY[step] = float(x.mean())
    return x - HISTORY[step]


HISTORY: dict = {}


@program(recompiles=1, why=NUMBER)
def global_dict_by_step(wrap):
    HISTORY.clear()
    f = wrap(global_history)
    return [(f(XS[i], i), snap(HISTORY)) for i in range(CALLS)]


# ===================================================================== memo tables

class IntKeyMemo:
    """``if k not in self.m: self.m[k] = ...`` with k cycling through 0..3."""

    def __init__(self):
        self.m = {}

    def apply(self, x, k):
        if k not in self.m:
            self.m[k] = np.tanh(x * (k + 1))
        return self.m[k] + x


@program(recompiles=2, why=KEYED)
def memo_int_key_not_in(wrap):
    m = IntKeyMemo()
    f = wrap(m.apply)
    return [(f(XS[i], i % 4), snap(m.m)) for i in range(CALLS)]


class SetdefaultCounter:
    """``self.counts.setdefault(k, 0)`` then ``+= 1``: counts by a changing int key."""

    def __init__(self):
        self.counts = {}

    def see(self, x, k):
        self.counts.setdefault(k, 0)
        self.counts[k] += 1
        return x * self.counts[k]


@program(recompiles=3, why=KEYED + "; a count that changes is a number (its first change "
                                   "in the entry of a present key)")
def setdefault_counter_int_key(wrap):
    c = SetdefaultCounter()
    f = wrap(c.see)
    return [(f(XS[i], i % 3), snap(c.counts)) for i in range(CALLS)]


class GetDefaultTable:
    """``self.table.get(t, 0.0)``: a value table read with a default, then updated."""

    def __init__(self):
        self.table = {}

    def update(self, x, t, r):
        v = self.table.get(t, 0.0)
        self.table[t] = v + 0.5 * (r - v)
        return x * self.table[t]


@program(recompiles=3, why=KEYED + "; the value read is a number")
def get_with_default_by_state(wrap):
    g = GetDefaultTable()
    f = wrap(g.update)
    return [(f(XS[i], i % 3, LOSSES[i]), snap(g.table)) for i in range(CALLS)]


class SizeCache:
    """A window function memoized by the input's length (``self.cache[len(x)]``)."""

    def __init__(self):
        self.cache = {}

    def apply(self, x):
        n = x.shape[0]
        if n not in self.cache:
            self.cache[n] = np.hanning(n)
        return x * self.cache[n]


@program(recompiles=4, why="np.hanning(n) pins n: an entry per length while the cache "
                           "fills (3), then one for a length found in the cache")
def memo_keyed_by_length(wrap):
    c = SizeCache()
    f = wrap(c.apply)
    sizes = [5, 6, 7]
    return [(f(_data(4200 + i, sizes[i % 3])), snap(c.cache)) for i in range(CALLS)]


class StringKeyEMA:
    """``self.ema[name] = 0.9 * self.ema[name] + ...`` with names fixed, values changing."""

    def __init__(self):
        self.ema = {"loss": 0.0, "acc": 0.0}

    def update(self, x, loss, acc):
        self.ema["loss"] = 0.9 * self.ema["loss"] + 0.1 * loss
        self.ema["acc"] = 0.9 * self.ema["acc"] + 0.1 * acc
        return x * self.ema["loss"]


@program(recompiles=2, why=NUMBER + " (loss at call 1; the second average's value at "
                                    "call 2, unchanged by call 1)")
def string_key_ema_floats(wrap):
    s = StringKeyEMA()
    f = wrap(s.update)
    return [(f(XS[i], LOSSES[i], 1 - LOSSES[i]), snap(s.ema)) for i in range(CALLS)]


# ===================================================================== tuple keys

class TupleKeyCache:
    """A kernel memoized by ``(size, scale)``, which cycle through 3 pairs."""

    def __init__(self):
        self.cache = {}

    def smooth(self, x, size, scale):
        key = (size, scale)
        if key not in self.cache:
            self.cache[key] = np.ones(size) / (size * scale)
        return np.convolve(x, self.cache[key], mode="same")


@program(recompiles=5, why="the key selects the kernel: an entry per key while the cache "
                           "fills, and per key once full (tuple keys are constants)")
def tuple_key_kernel_cache(wrap):
    c = TupleKeyCache()
    f = wrap(c.smooth)
    pairs = [(2, 1.0), (3, 2.0), (2, 0.5)]
    return [(f(XS[i], *pairs[i % 3]), snap(c.cache)) for i in range(CALLS)]


class EpochMetricLog:
    """``self.log[(self.epoch, "loss")] = loss``: a tuple key holding a changing int."""

    def __init__(self):
        self.log, self.epoch = {}, 0

    def record(self, x, loss):
        self.epoch += 1
        self.log[(self.epoch, "loss")] = loss
        return x * loss


@program(recompiles=1, why=NUMBER + "; a tuple key holding a changing int is a key of its "
                                    "form, written back by the glue")
def tuple_key_with_step(wrap):
    e = EpochMetricLog()
    f = wrap(e.record)
    return [(f(XS[i], LOSSES[i]), snap(e.log)) for i in range(CALLS)]


# ===================================================================== defaultdicts

class DefaultCounter:
    """``self.counts[k] += 1`` of a ``defaultdict(int)``, k cycling through 0..2."""

    def __init__(self):
        self.counts = collections.defaultdict(int)

    def see(self, x, k):
        self.counts[k] += 1
        return x * self.counts[k]


@program(recompiles=3, why=KEYED + "; the factory runs in the entry of an absent key; a "
                                   "count that changes is a number")
def defaultdict_counter(wrap):
    c = DefaultCounter()
    f = wrap(c.see)
    return [(f(XS[i], i % 3), snap(c.counts)) for i in range(CALLS)]


class DefaultListByStep:
    """``self.by_step[self.step].append(loss)`` of a ``defaultdict(list)``."""

    def __init__(self):
        self.by_step, self.step = collections.defaultdict(list), 0

    def record(self, x, loss):
        self.step += 1
        self.by_step[self.step].append(loss)
        return x * loss


@program(recompiles=1, why=NUMBER + "; the new key is guarded absent, its list made by "
                                    "the factory in the trace")
def defaultdict_list_by_step(wrap):
    d = DefaultListByStep()
    f = wrap(d.record)
    return [(f(XS[i], LOSSES[i]), snap(d.by_step)) for i in range(CALLS)]


class DefaultListByName:
    """``self.metrics[name].append(v)`` of a ``defaultdict(list)``, two names."""

    def __init__(self):
        self.metrics = collections.defaultdict(list)

    def log(self, x, loss):
        self.metrics["loss"].append(loss)
        self.metrics["scaled"].append(loss * 2)
        return x * loss


@program(recompiles=1, why=NUMBER + "; its keys are made on the first call")
def defaultdict_lists_by_name(wrap):
    d = DefaultListByName()
    f = wrap(d.log)
    return [(f(XS[i], LOSSES[i]), snap(d.metrics)) for i in range(CALLS)]


# ===================================================================== OrderedDict LRU

class LRU:
    """An ``OrderedDict`` LRU cache of 3: ``move_to_end`` on a hit, ``popitem(last=False)``
    when full."""

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


@program(recompiles=3, why=KEYED + "; full or not an entry per side; popitem(last=False) "
                                     "pops the first key at the start, no break (4 "
                                     "recompiles and a break before)")
def ordered_dict_lru(wrap):
    c = LRU()
    f = wrap(c.get)
    keys = [1, 2, 3, 1, 4, 2, 5, 1, 3, 3, 4, 5, 1, 2]
    return [(f(XS[i], keys[i]), snap(c.cache)) for i in range(CALLS)]


class DictLRU:
    """A plain-dict LRU cache of 3: a hit re-inserts its key (``pop`` then set), a full
    cache drops its first key (``next(iter(d))``)."""

    def __init__(self):
        self.cache = {}

    def get(self, x, k):
        if k in self.cache:
            y = self.cache.pop(k)
        else:
            y = np.tanh(x * k)
        self.cache[k] = y
        if len(self.cache) > 3:
            del self.cache[next(iter(self.cache))]
        return y + x


@program(recompiles=3, why=KEYED + "; next(iter(d)) the first key at the start, a changing "
                                    "int (first_key_iterators.py)")
def plain_dict_lru_pop_reinsert(wrap):
    c = DictLRU()
    f = wrap(c.get)
    keys = [1, 2, 3, 1, 4, 2, 5, 1, 3, 3, 4, 5, 1, 2]
    return [(f(XS[i], keys[i]), snap(c.cache)) for i in range(CALLS)]


class PrintingLog:
    """Prints each step's loss and keeps it by step (``print`` and a dict write)."""

    def __init__(self):
        self.log, self.step = {}, 0

    def record(self, x, loss):
        self.step += 1
        self.log[self.step] = loss
        print(f"step {self.step}: {loss:.3f}")
        return x * loss


@program(recompiles=2, why=NUMBER + "; print() is a break: the resume function's own "
                                    "first change")
def printed_step_log(wrap):
    p = PrintingLog()
    f = wrap(p.record)
    return printed(lambda: [(f(XS[i], LOSSES[i]), snap(p.log)) for i in range(CALLS)])
