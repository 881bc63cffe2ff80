"""Issue #16's thirteenth stateful corpus, written before it was run: 24 programs of the
state people keep between calls in real code. This file holds 12: LRU caches of
arrays (an ``OrderedDict`` with ``move_to_end``/``popitem(last=False)``), a memoised
helper (``functools.lru_cache``) and a memo dict of floats, counters keyed by tuples
and a ``collections.Counter``, buckets in a ``defaultdict(list)``, running statistics
objects (a baselines-style ``RunningMeanStd``, an EMA with bias correction, a min/max
tracker), and learning-rate schedulers kept as objects (step decay, cosine annealing
with warm restarts). ``stateful_corpus13_agents.py`` holds the other 13 (token
buffers, env/agent objects, online learners, generators kept across calls, logging
hooks); ``PROGRAMS`` here is all 25.

Conventions as in corpus 12: each scenario makes fresh state, compiles one callable
(``wrap``), calls it ``CALLS`` (20) times with one shape and changing values, and
returns each call's result with a copy of the state after it (``snap``), compared with
plain Python's (``test_stateful_corpus13.py``). ``recompiles`` is the target written
before the first run; a ``known`` note holds the count measured where a program
recompiles more, and the cause found.

Example::

    @program(recompiles=1, why=COUNTER)
    def ema_bias_corrected(wrap):
        e = BiasCorrectedEMA()
        f = wrap(e.update)
        return [(f(x), e.t, snap(e.shadow)) for x in XS]
"""

from __future__ import annotations

import collections
import functools
import math

import numpy as np
import stateful_corpus13_agents
from stateful_corpus4 import snap
from stateful_corpus13_data import (
    COUNTER,
    FILL,
    GS,
    IDS,
    KEYS,
    LOSSES,
    SIDES,
    TOKEN_IDS,
    W6,
    XS,
)
from stateful_programs import NUMBER, registrar

PROGRAMS: list = []
program = registrar(PROGRAMS)


# ===================================================================== caches, memos

class ArrayLRU:
    """An LRU cache of arrays keyed by an int (capacity 3): a hit moves the key to the
    end, a miss computes ``tanh(W @ x) * (k + 1)`` and evicts the oldest."""

    def __init__(self, cap=3):
        self.cache, self.cap, self.hits = collections.OrderedDict(), cap, 0

    def get(self, x, k):
        if k in self.cache:
            self.cache.move_to_end(k)
            self.hits += 1
        else:
            self.cache[k] = np.tanh(W6 @ x) * (k + 1)
            if len(self.cache) > self.cap:
                self.cache.popitem(last=False)
        return x + self.cache[k]


@program(recompiles=6, why="the key a changing int that selects a cached array: hit and "
                           "miss sides, the cache fills to 3" + SIDES)
def lru_cache_of_arrays(wrap):
    c = ArrayLRU()
    f = wrap(c.get)
    return [(f(x, k), list(c.cache), c.hits, snap(dict(c.cache))) for x, k in zip(XS, KEYS)]


@functools.lru_cache(maxsize=32)
def _decay(k):
    return 0.5 ** k


class MemoisedHelper:
    """A module-level ``functools.lru_cache`` helper called with a changing int."""

    def __init__(self):
        self.calls = 0

    def scale(self, x, k):
        self.calls += 1
        return x * _decay(k)


@program(recompiles=2, why="the cached helper's result a changing float; " + NUMBER)
def lru_cached_helper(wrap):
    _decay.cache_clear()
    m = MemoisedHelper()
    f = wrap(m.scale)
    return [(f(x, k), m.calls) for x, k in zip(XS, KEYS)]


class MemoDict:
    """A memo dict of Python floats keyed by an int: ``memo.get(k)``, computed and
    stored on a miss (``float(np.sum(...))``)."""

    def __init__(self):
        self.memo = {}

    def run(self, x, k):
        v = self.memo.get(k)
        if v is None:
            v = float(np.sum(W6[k]))
            self.memo[k] = v
        return x * v


@program(recompiles=3, why="hit or miss" + SIDES + "; the memo's keys fill (5 keys)")
def memo_dict_of_floats(wrap):
    m = MemoDict()
    f = wrap(m.run)
    return [(f(x, k), dict(m.memo)) for x, k in zip(XS, KEYS)]


# ===================================================================== counters

class PairCounter:
    """Counts of (argmax, argmin) pairs of the input, keyed by a tuple of ints."""

    def __init__(self):
        self.counts = {}

    def observe(self, x):
        key = (int(np.argmax(x)), int(np.argmin(x)))
        self.counts[key] = self.counts.get(key, 0) + 1
        return x * self.counts[key]


@program(recompiles=2, why="the key data-dependent ints (a break at int()), the "
                           "count a changing int")
def counter_keyed_by_tuple(wrap):
    c = PairCounter()
    f = wrap(c.observe)
    return [(f(x), dict(c.counts)) for x in XS]


class TokenFrequencies:
    """``collections.Counter.update`` with a fresh list of token ids each call; the
    number of distinct tokens scales the input."""

    def __init__(self):
        self.freq = collections.Counter()

    def update(self, x, ids):
        self.freq.update(ids)
        return x * len(self.freq)


@program(recompiles=2, why=IDS + "; the Counter's length a changing int")
def collections_counter_update(wrap):
    t = TokenFrequencies()
    f = wrap(t.update)
    return [(f(x, ids), dict(t.freq)) for x, ids in zip(XS, TOKEN_IDS)]


class Buckets:
    """Arrays appended to a ``defaultdict(list)`` by a sign bucket; the mean of the
    bucket's last two arrays."""

    def __init__(self):
        self.buckets = collections.defaultdict(list)

    def add(self, x):
        b = int(x.sum() > 0)
        self.buckets[b].append(x)
        return np.mean(self.buckets[b][-2:], axis=0)


@program(recompiles=3, why="the bucket data-dependent (a break at int()); each bucket "
                           "fills to 2 " + FILL)
def defaultdict_list_buckets(wrap):
    b = Buckets()
    f = wrap(b.add)
    return [(f(x), {k: len(v) for k, v in b.buckets.items()}) for x in XS]


# ===================================================================== running statistics

class RunningMeanStd:
    """baselines' ``RunningMeanStd``: a float count, mean and var arrays, merged with
    each batch by the parallel algorithm; the batch normalised."""

    def __init__(self, shape=(6,), epsilon=1e-4):
        self.mean, self.var, self.count = np.zeros(shape), np.ones(shape), epsilon

    def update(self, x):
        batch = np.stack([x, 0.5 * x + 0.1])
        b_mean, b_var, b_count = batch.mean(axis=0), batch.var(axis=0), batch.shape[0]
        delta = b_mean - self.mean
        tot = self.count + b_count
        self.mean = self.mean + delta * b_count / tot
        m2 = self.var * self.count + b_var * b_count + delta ** 2 * self.count * b_count / tot
        self.var, self.count = m2 / tot, tot
        return (x - self.mean) / np.sqrt(self.var + 1e-8)


@program(recompiles=1, why="the count a float the call steps: " + NUMBER)
def running_mean_std_object(wrap):
    r = RunningMeanStd()
    f = wrap(r.update)
    return [(f(x), r.count, snap(r.mean), snap(r.var)) for x in XS]


class BiasCorrectedEMA:
    """An EMA of the inputs with Adam-style bias correction by a step counter."""

    def __init__(self, decay=0.9):
        self.decay, self.t, self.shadow = decay, 0, np.zeros(6)

    def update(self, x):
        self.t += 1
        self.shadow = self.decay * self.shadow + (1 - self.decay) * x
        return self.shadow / (1 - self.decay ** self.t)


@program(recompiles=1, why=COUNTER)
def ema_bias_corrected(wrap):
    e = BiasCorrectedEMA()
    f = wrap(e.update)
    return [(f(x), e.t, snap(e.shadow)) for x in XS]


class MinMaxTracker:
    """The smallest and largest values seen, as Python floats (``float(x.min())``);
    the input scaled to that range."""

    def __init__(self):
        self.lo, self.hi = float("inf"), float("-inf")

    def scale(self, x):
        self.lo = min(self.lo, float(x.min()))
        self.hi = max(self.hi, float(x.max()))
        return (x - self.lo) / (self.hi - self.lo + 1e-12)


@program(recompiles=2, why="floats from the data (a break at float()); min/max of "
                           "changing floats" + SIDES)
def min_max_tracker(wrap):
    t = MinMaxTracker()
    f = wrap(t.scale)
    return [(f(x), t.lo, t.hi) for x in XS]


class LossLog:
    """A logging hook: each call appends ``(step, loss, lr)`` to a log list and keeps a
    running sum of the loss; the update uses the lr."""

    def __init__(self):
        self.log, self.step, self.total, self.lr = [], 0, 0.0, 0.05

    def train_step(self, w, g, loss):
        self.step += 1
        self.total += loss
        self.log.append((self.step, loss, self.lr))
        return w - self.lr * g


@program(recompiles=1, why="the log append-only; the loss a changing float: " + NUMBER)
def append_only_loss_log(wrap):
    s = LossLog()
    f = wrap(s.train_step)
    return [(f(x, g, loss), list(s.log), s.total) for x, g, loss in zip(XS, GS, LOSSES)]


# ===================================================================== schedulers

class StepLR:
    """torch's ``StepLR`` as an object beside the optimizer: ``last_epoch`` stepped per
    call, ``lr = base * gamma ** (last_epoch // step_size)``."""

    def __init__(self, base=0.1, step_size=5, gamma=0.5):
        self.base, self.step_size, self.gamma, self.last_epoch = base, step_size, gamma, -1

    def step(self):
        self.last_epoch += 1

    def get_lr(self):
        return self.base * self.gamma ** (self.last_epoch // self.step_size)


class Optimizer:
    def __init__(self):
        self.sched = StepLR()

    def update(self, w, g):
        self.sched.step()
        return w - self.sched.get_lr() * g


@program(recompiles=1, why=COUNTER + " (on the scheduler object)")
def step_lr_scheduler_object(wrap):
    o = Optimizer()
    f = wrap(o.update)
    return [(f(x, g), o.sched.last_epoch) for x, g in zip(XS, GS)]


class CosineWarmRestarts:
    """SGDR: ``T_cur`` steps each call; at ``T_i`` it restarts and ``T_i`` doubles; the
    lr by ``math.cos``."""

    def __init__(self, t0=3, eta_max=0.1, eta_min=0.001):
        self.t_cur, self.t_i, self.eta_max, self.eta_min = 0, t0, eta_max, eta_min

    def step(self, w, g):
        if self.t_cur >= self.t_i:
            self.t_cur, self.t_i = 0, self.t_i * 2
        lr = self.eta_min + 0.5 * (self.eta_max - self.eta_min) * \
            (1 + math.cos(math.pi * self.t_cur / self.t_i))
        self.t_cur += 1
        return w - lr * g


@program(recompiles=3, why=COUNTER + "; the restart" + SIDES + "; t_i doubles")
def cosine_warm_restarts(wrap):
    s = CosineWarmRestarts()
    f = wrap(s.step)
    return [(f(x, g), s.t_cur, s.t_i) for x, g in zip(XS, GS)]


PROGRAMS += stateful_corpus13_agents.PROGRAMS
