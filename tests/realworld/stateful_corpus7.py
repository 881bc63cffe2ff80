"""Issue #16's seventh stateful corpus, written before it was run: 40 programs of the kinds
public repositories keep state in between calls. This file holds 20: training loops
with learning-rate schedulers and early stopping, running statistics, caches and memo
tables (``OrderedDict`` LRU eviction, keys computed from data or from a list's length),
online algorithms (k-means, reservoir sampling, a perceptron, a best-so-far tracker).
``stateful_corpus7_objects.py`` holds the other 20 (event logs, token lists, particles
with object state, replay buffers, simulations with step counters); ``PROGRAMS`` here
is all 40.

Each scenario makes fresh state, compiles one callable (``wrap``) and calls it
``CALLS`` times with the same shapes and changing values; it returns each call's
result with a copy of the state after the call (``snap``), all compared with plain
Python's (``test_stateful_corpus7.py``). The targets were written with the programs,
before the first run; where a program recompiles more, its ``known`` note holds the
count measured and the cause found by running it (docs/realworld.md).

Example::

    @program(recompiles=1, why=NUMBER)
    def step_lr_scheduler(wrap):
        s = StepLR()
        f = wrap(s.step)
        return [(f(XS[i], XS[-1 - i]), snap(s.lrs)) for i in range(CALLS)]
"""

from __future__ import annotations

import collections
import math
import random

import numpy as np
import stateful_corpus7_objects
from stateful_corpus4 import CALLS, LOSSES, XS, snap
from stateful_programs import NUMBER, registrar

PROGRAMS: list = []
program = registrar(PROGRAMS)

KEYS = [2, 3, 2, 4, 5, 3, 2, 6, 4, 4, 5, 2, 3, 6]
DATA = "a number the data decides (float()/int() of an array) needs its value: a break"
KEYED = NUMBER + "; a key looked up is guarded present or absent (an entry per side)"


# ===================================================================== training loops

class StepLR:
    """``lr = base * gamma ** (epoch // step_size)`` (torch's StepLR), an SGD step."""

    def __init__(self):
        self.epoch, self.base, self.gamma, self.step_size = 0, 0.1, 0.5, 4
        self.w, self.lrs = np.zeros(5), []

    def step(self, x, g):
        lr = self.base * self.gamma ** (self.epoch // self.step_size)
        self.w = self.w - lr * g
        self.lrs.append(lr)
        self.epoch += 1
        return self.w @ x


@program(recompiles=1, why=NUMBER)
def step_lr_scheduler(wrap):
    s = StepLR()
    f = wrap(s.step)
    return [(f(XS[i], XS[-1 - i]), snap(s.lrs), s.epoch) for i in range(CALLS)]


class CosineWarmup:
    """Linear warmup for 3 steps, then cosine annealing over 10 (``math.cos``)."""

    def __init__(self):
        self.t, self.base, self.warmup, self.total = 0, 0.2, 3, 10

    def lr(self):
        if self.t < self.warmup:
            return self.base * (self.t + 1) / self.warmup
        p = (self.t - self.warmup) / (self.total - self.warmup)
        return 0.5 * self.base * (1.0 + math.cos(math.pi * min(p, 1.0)))

    def step(self, w, g):
        lr = self.lr()
        self.t += 1
        return w - lr * g


@program(recompiles=2, why=NUMBER + "; t < warmup decides a branch (an entry per side)")
def cosine_warmup_schedule(wrap):
    s = CosineWarmup()
    f = wrap(s.step)
    w = np.zeros(5)
    out = []
    for i in range(CALLS):
        w = f(w, XS[i])
        out.append((w, s.t))
    return out


class EarlyStopping:
    """Keras-style: the best loss, a patience counter and a stop flag, loss a float."""

    def __init__(self, patience=2, delta=0.01):
        self.best, self.wait, self.stop = math.inf, 0, False
        self.patience, self.delta = patience, delta

    def __call__(self, x, loss):
        if loss < self.best - self.delta:
            self.best, self.wait = loss, 0
        else:
            self.wait += 1
            if self.wait >= self.patience:
                self.stop = True
        return x * loss, self.stop


@program(recompiles=3, why=NUMBER + "; improved or not decides a branch (an entry per "
                                     "side); stop a bool that changes once",
         known=(5, (
                   "two branches on the changing loss (improved by delta or not; wait "
                   ">= patience or not): an entry per combination of their outcomes, "
                   "which the losses visit over the calls; the loss truly decides "
                   "control flow")))
def early_stopping_float_loss(wrap):
    e = EarlyStopping()
    f = wrap(e.__call__)
    return [(f(XS[i], LOSSES[i]), e.best, e.wait, e.stop) for i in range(CALLS)]


class ValLossTracker:
    """``best = min(self.best, float(loss))`` where the loss is computed from arrays."""

    def __init__(self):
        self.best, self.history = math.inf, []

    def evaluate(self, pred, target):
        loss = float(np.mean((pred - target) ** 2))
        self.history.append(loss)
        self.best = min(self.best, loss)
        return loss / self.best


@program(recompiles=1, why=DATA)
def best_val_loss_from_arrays(wrap):
    t = ValLossTracker()
    f = wrap(t.evaluate)
    return [(f(XS[i], XS[0] * 0.5), t.best, snap(t.history)) for i in range(CALLS)]


class Plateau:
    """ReduceLROnPlateau: after 2 calls without improvement the lr is halved."""

    def __init__(self):
        self.lr, self.best, self.bad = 0.1, math.inf, 0

    def step(self, w, g, loss):
        if loss < self.best:
            self.best, self.bad = loss, 0
        else:
            self.bad += 1
        if self.bad > 2:
            self.lr *= 0.5
            self.bad = 0
        return w - self.lr * g


@program(recompiles=3, why=NUMBER + "; improved or not, and reduced or not, decide "
                                     "branches (an entry per side)")
def reduce_lr_on_plateau(wrap):
    p = Plateau()
    f = wrap(p.step)
    w = np.ones(5)
    out = []
    for i in range(CALLS):
        w = f(w, XS[i], LOSSES[i])
        out.append((w, p.lr, p.bad, p.best))
    return out


class SmoothedLoss:
    """A loss history and its mean over the last 5 (``sum(h[-5:]) / len(h[-5:])``)."""

    def __init__(self):
        self.history = []

    def record(self, x, loss):
        self.history.append(loss)
        window = self.history[-5:]
        return x * (sum(window) / len(window))


@program(recompiles=2, why=NUMBER + "; the window's length grows to 5, then stays")
def smoothed_loss_window(wrap):
    s = SmoothedLoss()
    f = wrap(s.record)
    return [(f(XS[i], LOSSES[i]), snap(s.history)) for i in range(CALLS)]


# ===================================================================== running statistics

class Welford:
    """Welford's running mean and variance of arrays: a count and two arrays."""

    def __init__(self):
        self.n, self.mean, self.m2 = 0, np.zeros(5), np.zeros(5)

    def update(self, x):
        self.n += 1
        d = x - self.mean
        self.mean = self.mean + d / self.n
        self.m2 = self.m2 + d * (x - self.mean)
        return self.m2 / max(self.n - 1, 1)


@program(recompiles=1, why=NUMBER)
def welford_running_variance(wrap):
    w = Welford()
    f = wrap(w.update)
    return [(f(XS[i]), w.n, w.mean.copy()) for i in range(CALLS)]


class BiasCorrectedEMA:
    """Adam-style ``m / (1 - beta ** t)`` with the step counter an attribute."""

    def __init__(self, beta=0.9):
        self.t, self.beta, self.m = 0, beta, np.zeros(5)

    def __call__(self, x):
        self.t += 1
        self.m = self.beta * self.m + (1 - self.beta) * x
        return self.m / (1 - self.beta ** self.t)


@program(recompiles=1, why=NUMBER)
def bias_corrected_ema(wrap):
    e = BiasCorrectedEMA()
    f = wrap(e.__call__)
    return [(f(XS[i]), e.t, e.m.copy()) for i in range(CALLS)]


class BatchNormStats:
    """Running mean/var with momentum, and ``num_batches_tracked`` counted."""

    def __init__(self):
        self.mean, self.var, self.tracked, self.momentum = np.zeros(5), np.ones(5), 0, 0.1

    def forward(self, x, training):
        if training:
            m, v = x.mean(), x.var()
            self.mean = (1 - self.momentum) * self.mean + self.momentum * m
            self.var = (1 - self.momentum) * self.var + self.momentum * v
            self.tracked += 1
        return (x - self.mean) / np.sqrt(self.var + 1e-5)


@program(recompiles=2, why=NUMBER + "; training decides a branch (an entry per side)")
def batchnorm_running_stats_mode(wrap):
    b = BatchNormStats()
    f = wrap(b.forward)
    return [(f(XS[i], i % 4 != 3), b.tracked, b.mean.copy()) for i in range(CALLS)]


class RunningExtremes:
    """Running elementwise min and max, and the count of calls that raised the max."""

    def __init__(self):
        self.lo, self.hi, self.raised = np.full(5, np.inf), np.full(5, -np.inf), 0

    def observe(self, x):
        before = self.hi
        self.lo, self.hi = np.minimum(self.lo, x), np.maximum(self.hi, x)
        if (self.hi > before).any():
            self.raised += 1
        return self.hi - self.lo


@program(recompiles=1, why=DATA)
def running_min_max(wrap):
    r = RunningExtremes()
    f = wrap(r.observe)
    return [(f(XS[i]), r.raised) for i in range(CALLS)]


class HistogramAccumulator:
    """``self.hist += np.histogram(x, bins=4, range=(-3, 3))[0]``, and a call count."""

    def __init__(self):
        self.hist, self.calls = np.zeros(4, dtype=np.int64), 0

    def add(self, x):
        self.hist += np.histogram(x, bins=4, range=(-3, 3))[0]
        self.calls += 1
        return self.hist / (5 * self.calls)


@program(recompiles=1, why=NUMBER)
def histogram_accumulator(wrap):
    h = HistogramAccumulator()
    f = wrap(h.add)
    return [(f(XS[i]), h.hist.copy(), h.calls) for i in range(CALLS)]


# ===================================================================== caches and memos

class OrderedLRU:
    """An ``OrderedDict`` LRU of 3: ``move_to_end`` on a hit, ``popitem(last=False)``."""

    def __init__(self):
        self.cache = collections.OrderedDict()

    def get(self, x, k):
        if k in self.cache:
            self.cache.move_to_end(k)
        else:
            self.cache[k] = x * k
            if len(self.cache) > 3:
                self.cache.popitem(last=False)
        return self.cache[k] + x


@program(recompiles=3, why=KEYED + "; full or not an entry per side")
def ordered_lru_popitem(wrap):
    c = OrderedLRU()
    f = wrap(c.get)
    return [(f(XS[i], KEYS[i]), snap(c.cache)) for i in range(CALLS)]


class MeanKeyMemo:
    """A memo keyed by ``round(float(x.mean()), 1)``: a key the data decides."""

    def __init__(self):
        self.memo = {}

    def apply(self, x):
        key = round(float(x.mean()), 1)
        if key not in self.memo:
            self.memo[key] = np.exp(x * key)
        return self.memo[key]


@program(recompiles=2, why=DATA)
def memo_by_data_mean(wrap):
    m = MeanKeyMemo()
    f = wrap(m.apply)
    return [(f(XS[i]), snap(m.memo)) for i in range(CALLS)]


class ShapeMemo:
    """A memo of window arrays keyed by ``x.shape`` (the same shape every call)."""

    def __init__(self):
        self.windows, self.hits = {}, 0

    def apply(self, x):
        if x.shape in self.windows:
            self.hits += 1
        else:
            self.windows[x.shape] = np.hanning(x.shape[0])
        return x * self.windows[x.shape]


@program(recompiles=1, why="the shape is cached after the first call (present)")
def memo_by_shape(wrap):
    m = ShapeMemo()
    f = wrap(m.apply)
    return [(f(XS[i]), m.hits, len(m.windows)) for i in range(CALLS)]


class PhaseMemo:
    """A memo keyed by ``len(self.seen) % 4``: the phase of a list the frame appends."""

    def __init__(self):
        self.seen, self.memo = [], {}

    def apply(self, x, loss):
        self.seen.append(loss)
        phase = len(self.seen) % 4
        if phase not in self.memo:
            self.memo[phase] = np.cos(x * phase)
        return self.memo[phase] * loss


@program(recompiles=2, why=KEYED + "; the list's length a changing int")
def memo_by_length_phase(wrap):
    m = PhaseMemo()
    f = wrap(m.apply)
    return [(f(XS[i], LOSSES[i]), snap(m.memo), len(m.seen)) for i in range(CALLS)]


# ===================================================================== online algorithms

class OnlineKMeans:
    """Sequential k-means: the nearest centroid (``int(np.argmin(d))``) moves toward x,
    its count incremented (a list of Python ints)."""

    def __init__(self):
        self.c = np.stack([np.full(5, -1.0), np.zeros(5), np.full(5, 1.0)])
        self.counts = [0, 0, 0]

    def update(self, x):
        d = ((self.c - x) ** 2).sum(axis=1)
        i = int(np.argmin(d))
        self.counts[i] += 1
        self.c[i] += (x - self.c[i]) / self.counts[i]
        return i


@program(recompiles=2, why=DATA)
def online_kmeans(wrap):
    k = OnlineKMeans()
    f = wrap(k.update)
    return [(f(XS[i]), snap(k.counts), k.c.copy()) for i in range(CALLS)]


class Reservoir:
    """Reservoir sampling of 4 rows with a seeded ``random.Random``."""

    def __init__(self):
        self.rng, self.n, self.sample = random.Random(7), 0, []

    def offer(self, x):
        self.n += 1
        if len(self.sample) < 4:
            self.sample.append(x.copy())
        else:
            j = self.rng.randrange(self.n)
            if j < 4:
                self.sample[j] = x.copy()
        return x.sum()


@program(recompiles=3, why=NUMBER + "; full or not, and j < 4, decide branches")
def reservoir_sampling(wrap):
    r = Reservoir()
    f = wrap(r.offer)
    return [(f(XS[i]), snap(r.sample), r.n) for i in range(CALLS)]


class Perceptron:
    """An online perceptron: a mistake (``y * (w @ x) <= 0``) updates w and a counter."""

    def __init__(self):
        self.w, self.mistakes = np.zeros(5), 0

    def fit_one(self, x, y):
        if y * (self.w @ x) <= 0:
            self.w = self.w + y * x
            self.mistakes += 1
        return self.w.copy()


@program(recompiles=1, why=DATA,
         known=(2, (
                   "y's first change costs a recompile of the frame and one of the "
                   "resume function after the data-decided branch (each function's "
                   "entry guards y until it has seen it change)")))
def online_perceptron(wrap):
    p = Perceptron()
    f = wrap(p.fit_one)
    return [(f(XS[i], 1 if KEYS[i] % 2 else -1), p.mistakes) for i in range(CALLS)]


class BestScore:
    """``self.best = max(self.best, float(score))`` and the best step recorded."""

    def __init__(self):
        self.best, self.best_step, self.step = -math.inf, -1, 0

    def update(self, x):
        score = float(x.max() - x.min())
        if score > self.best:
            self.best, self.best_step = score, self.step
        self.step += 1
        return x / score


@program(recompiles=1, why=DATA)
def best_score_tracker(wrap):
    b = BestScore()
    f = wrap(b.update)
    return [(f(XS[i]), b.best, b.best_step) for i in range(CALLS)]


class ArgmaxVotes:
    """``self.votes[int(np.argmax(x))] += 1`` in a dict, the leader returned."""

    def __init__(self):
        self.votes = {}

    def vote(self, x):
        i = int(np.argmax(x))
        self.votes[i] = self.votes.get(i, 0) + 1
        return max(self.votes.values()) * x


@program(recompiles=2, why=DATA,
         known=(7, (
                   "max(self.votes.values()) reads the dict whole: guarded by its "
                   "keys, which the data adds one by one (5 bins), and the argmax key "
                   "then pinned there")))
def argmax_vote_counter(wrap):
    v = ArgmaxVotes()
    f = wrap(v.vote)
    return [(f(XS[i]), snap(v.votes)) for i in range(CALLS)]


PROGRAMS += stateful_corpus7_objects.PROGRAMS
