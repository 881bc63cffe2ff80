"""Issue #16's eleventh stateful corpus, written before it was run: 26 programs of
stateful kinds corpora 1-10 lack. This file holds 13: streaming statistics objects (a
frugal quantile sketch, a count-min sketch, an exponentially decayed histogram, a streaming covariance,
running extremes with a range), optimizers whose per-parameter state lives in dicts
keyed by name (RMSprop, lazily made Nesterov state, Lookahead's slow weights, AdaGrad
with per-name step counts), caches (a FIFO-evicting window cache with hit/miss
counters), a vocabulary that grows across calls, and learning-rate schedules (SGDR
restarts, Noam warmup). ``stateful_corpus11_sims.py`` holds the other 13 (RL agents,
simulations with step counters and event logs, early stopping, metric trackers);
``PROGRAMS`` here is all 26.

Each scenario makes fresh state, compiles one callable (``wrap``), calls it ``CALLS``
(10) times with the same shapes and changing values, and returns each call's result
with a copy of the state after it (``snap``) and, where the call mutates a container in
place, whether the container is still the very object it was (identity), all compared
with plain Python's (``test_stateful_corpus11.py``). ``recompiles`` is the target
written with the program before the first run; a ``known`` note holds the count
measured where a program recompiles more, and the cause found.

Example::

    @program(recompiles=1, why=COUNTER)
    def noam_warmup_schedule(wrap):
        s = Noam()
        f = wrap(s.step)
        return [(f(x, g), s.step_num) for x, g in zip(XS, GS)]
"""

from __future__ import annotations

import math

import numpy as np
import stateful_corpus11_sims
from stateful_corpus4 import snap
from stateful_corpus11_data import COUNTER, GS, SIDES, WORDS, XS
from stateful_programs import registrar

PROGRAMS: list = []
program = registrar(PROGRAMS)


# ===================================================================== streaming statistics

class FrugalQuantile:
    """A per-element streaming quantile (stochastic approximation): the estimate
    moves by a step that shrinks as ``1 / sqrt(n)`` of an int count."""

    def __init__(self, n, tau=0.9):
        self.q, self.tau, self.n = np.zeros(n), tau, 0

    def update(self, x):
        self.n += 1
        step = 1.0 / math.sqrt(self.n)
        self.q = self.q + step * (np.sign(x - self.q) + 2 * self.tau - 1)
        return self.q


@program(recompiles=1, why=COUNTER)
def frugal_quantile_sketch(wrap):
    s = FrugalQuantile(6)
    f = wrap(s.update)
    return [(f(x), s.n, snap(s.q)) for x in XS]


class DecayedHistogram:
    """An exponential histogram: counts decayed each call, the call's values binned
    (``np.digitize``, ``np.add.at``); the decayed total a Python float."""

    def __init__(self, decay=0.7):
        self.edges = np.linspace(-2.0, 2.0, 5)
        self.counts = np.zeros(6)
        self.total, self.decay = 0.0, decay

    def add(self, x):
        self.counts = self.counts * self.decay
        np.add.at(self.counts, np.digitize(x, self.edges), 1.0)
        self.total = self.total * self.decay + x.shape[0]
        return self.counts / self.total


@program(recompiles=1, why="total a float the call rescales: changing from the first "
                           "trace")
def exponential_histogram(wrap):
    h = DecayedHistogram()
    f = wrap(h.add)
    return [(f(x), h.total, snap(h.counts)) for x in XS]


class StreamingCovariance:
    """Welford's co-moment matrix of 3-vectors (the call's 6 values as 2 rows)."""

    def __init__(self, d=3):
        self.n, self.mean, self.C = 0, np.zeros(d), np.zeros((d, d))

    def update(self, x):
        for row in x.reshape(2, 3):
            self.n += 1
            delta = row - self.mean
            self.mean = self.mean + delta / self.n
            self.C = self.C + np.outer(delta, row - self.mean)
        return self.C / (self.n - 1)


@program(recompiles=1, why=COUNTER)
def streaming_covariance(wrap):
    s = StreamingCovariance()
    f = wrap(s.update)
    return [(f(x), s.n, snap(s.mean)) for x in XS]


class RunningRange:
    """Running extremes kept as NumPy scalars (``np.minimum`` of ``x.min()``); the
    call returns ``x`` scaled into the range seen so far, the call count an int."""

    def __init__(self):
        self.lo, self.hi, self.calls = np.float64(np.inf), np.float64(-np.inf), 0

    def scale(self, x):
        self.lo = np.minimum(self.lo, x.min())
        self.hi = np.maximum(self.hi, x.max())
        self.calls += 1
        return (x - self.lo) / (self.hi - self.lo)


@program(recompiles=1, why=COUNTER)
def running_extremes_scalars(wrap):
    r = RunningRange()
    f = wrap(r.scale)
    return [(f(x), r.lo, r.hi, r.calls) for x in XS]


class CountMinSketch:
    """A count-min sketch of the call's values bucketed to ints in the graph
    (``(x * 10).astype(int)``): two hashed rows of counters bumped by ``np.add.at``;
    the estimate of each value's count is the minimum over the rows."""

    def __init__(self, width=7):
        self.table, self.width, self.items = np.zeros((2, width), dtype=np.int64), width, 0

    def add_and_estimate(self, x):
        keys = (np.abs(x) * 10).astype(np.int64)
        h0, h1 = keys % self.width, (3 * keys + 1) % self.width
        np.add.at(self.table[0], h0, 1)
        np.add.at(self.table[1], h1, 1)
        self.items += keys.shape[0]
        return np.minimum(self.table[0][h0], self.table[1][h1])


@program(recompiles=1, why=COUNTER)
def count_min_sketch(wrap):
    s = CountMinSketch()
    f = wrap(s.add_and_estimate)
    table = s.table
    return [(f(x), snap(s.table), s.items, s.table is table) for x in XS]


# ===================================================================== optimizers

def _params(x):
    return {"w": x.reshape(2, 3), "b": x[:3]}


def _grads(g):
    return {"w": g.reshape(2, 3), "b": g[3:]}


class RMSprop:
    """RMSprop with a squared-gradient average per parameter name, made at __init__;
    the parameters dict updated in place, its arrays replaced."""

    def __init__(self, params, lr=0.01, rho=0.9):
        self.lr, self.rho = lr, rho
        self.sq = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, params, grads):
        for name in params:
            self.sq[name] = self.rho * self.sq[name] + (1 - self.rho) * grads[name] ** 2
            params[name] = params[name] - self.lr * grads[name] / (np.sqrt(self.sq[name])
                                                                    + 1e-8)
        return params


@program(recompiles=0)
def rmsprop_state_by_name(wrap):
    params = _params(XS[0])
    opt = RMSprop(params)
    f = wrap(opt.step)
    out = []
    for g in GS:
        r = f(params, _grads(g))
        out.append((snap(r), r is params, snap(opt.sq)))
    return out


class LazyNesterov:
    """Nesterov momentum whose state is made on a parameter's first step
    (``self.state.setdefault(name, {...})``): a nested dict per name."""

    def __init__(self, lr=0.05, mu=0.9):
        self.lr, self.mu, self.state = lr, mu, {}

    def step(self, params, grads):
        for name, p in params.items():
            st = self.state.setdefault(name, {"v": np.zeros_like(p), "steps": 0})
            st["v"] = self.mu * st["v"] + grads[name]
            st["steps"] += 1
            params[name] = p - self.lr * (grads[name] + self.mu * st["v"])
        return sum(float(st["steps"]) for st in self.state.values())


@program(recompiles=2, why="the state dict empty at the first call, then filled; "
                           + COUNTER)
def nesterov_lazy_nested_state(wrap):
    params = _params(XS[1])
    opt = LazyNesterov()
    f = wrap(opt.step)
    return [(f(params, _grads(g)), snap(params), snap(opt.state)) for g in GS]


class Lookahead:
    """Lookahead around SGD: fast weights step every call, the slow weights (a dict by
    name) pulled toward them every ``k`` calls and copied back."""

    def __init__(self, params, k=3, alpha=0.5, lr=0.1):
        self.slow = {n: p.copy() for n, p in params.items()}
        self.k, self.alpha, self.lr, self.t = k, alpha, lr, 0

    def step(self, params, grads):
        for n in params:
            params[n] = params[n] - self.lr * grads[n]
        self.t += 1
        if self.t % self.k == 0:
            for n in params:
                self.slow[n] = self.slow[n] + self.alpha * (params[n] - self.slow[n])
                params[n] = self.slow[n].copy()
        return params["w"].sum(axis=0)


@program(recompiles=2, why=COUNTER + SIDES + " (a sync call or not)")
def lookahead_slow_weights(wrap):
    params = _params(XS[2])
    opt = Lookahead(params)
    f = wrap(opt.step)
    return [(f(params, _grads(g)), snap(params), snap(opt.slow), opt.t) for g in GS]


class AdaGradCounts:
    """AdaGrad with per-name step counts in a dict of ints and a bias-like scale
    ``1 / sqrt(steps)`` computed from them."""

    def __init__(self, names, lr=0.1):
        self.lr = lr
        self.G = {n: 0.0 for n in names}
        self.steps = {n: 0 for n in names}

    def step(self, params, grads):
        new = {}
        for n in sorted(params):
            self.steps[n] += 1
            self.G[n] = self.G[n] + grads[n] * grads[n]
            scale = self.lr / math.sqrt(self.steps[n])
            new[n] = params[n] - scale * grads[n] / (np.sqrt(self.G[n]) + 1e-8)
        return new


@program(recompiles=2, why="G floats -> arrays at the first call; per-name counts "
                           "changing from the first trace")
def adagrad_counts_by_name(wrap):
    opt = AdaGradCounts(["b", "w"])
    f = wrap(opt.step)
    params = _params(XS[3])
    out = []
    for g in GS:
        params = f(params, _grads(g))
        out.append((snap(params), snap(opt.G), dict(opt.steps)))
    return out


# ===================================================================== caches, vocabularies

class FIFOWindowCache:
    """A cache of window arrays keyed by an int kind (cycling 0-3), at most 2 kept: the
    oldest evicted (``next(iter(...))``); hits and misses counted in a dict."""

    def __init__(self):
        self.cache, self.stats = {}, {"hits": 0, "misses": 0}

    def window(self, k):
        if k in self.cache:
            self.stats["hits"] += 1
            return self.cache[k]
        self.stats["misses"] += 1
        w = np.cos(np.linspace(0.0, np.pi * (k + 1), 6))
        if len(self.cache) >= 2:
            del self.cache[next(iter(self.cache))]
        self.cache[k] = w
        return w

    def apply(self, x, k):
        return x * self.window(k)


@program(recompiles=4, why="the kind an int that selects the cache entry: an entry "
                           "per kind and per hit/miss side")
def fifo_window_cache(wrap):
    c = FIFOWindowCache()
    f = wrap(c.apply)
    kinds = [0, 1, 0, 2, 2, 1, 0, 1, 1, 0]
    return [(f(x, k), sorted(c.cache), dict(c.stats)) for x, k in zip(XS, kinds)]


class Vocabulary:
    """A tokenizer's vocabulary growing across calls (``setdefault(w, len(vocab))``);
    the call embeds its sentence (``E[ids]``) and mean-pools it."""

    def __init__(self):
        self.vocab, self.E = {}, np.cos(np.arange(48.0)).reshape(16, 3)

    def encode(self, words):
        ids = [self.vocab.setdefault(w, len(self.vocab)) for w in words]
        return self.E[ids].mean(axis=0), ids


@program(recompiles=3, why="the words change every call: once one changed, the "
                           "comprehension over them runs as Python at a break "
                           "(variables/text_items.py; was 7 recompiles, to the cache "
                           "limit, each sentence that met a new word an entry)")
def vocabulary_grows(wrap):
    v = Vocabulary()
    f = wrap(v.encode)
    vocab = v.vocab
    return [(f(ws), dict(v.vocab), v.vocab is vocab) for ws in WORDS]


# ===================================================================== LR schedules

class SGDR:
    """Cosine annealing with warm restarts: ``t_cur`` steps, at ``T_i`` it restarts and
    the period doubles (two ints the call changes)."""

    def __init__(self, lo=0.001, hi=0.1, t0=2):
        self.lo, self.hi, self.t_cur, self.T_i, self.restarts = lo, hi, 0, t0, 0

    def step(self, w, g):
        lr = self.lo + 0.5 * (self.hi - self.lo) * (1 + math.cos(math.pi * self.t_cur
                                                                  / self.T_i))
        self.t_cur += 1
        if self.t_cur >= self.T_i:
            self.t_cur, self.T_i = 0, self.T_i * 2
            self.restarts += 1
        return w - lr * g


@program(recompiles=2, why=COUNTER + SIDES + " (a restart or not)")
def sgdr_warm_restarts(wrap):
    s = SGDR()
    f = wrap(s.step)
    return [(f(x, g), s.t_cur, s.T_i, s.restarts) for x, g in zip(XS, GS)]


class Noam:
    """The Transformer's schedule: ``d ** -0.5 * min(step ** -0.5, step * warm ** -1.5)``."""

    def __init__(self, d=16, warmup=4):
        self.d, self.warmup, self.step_num, self.lrs = d, warmup, 0, []

    def step(self, w, g):
        self.step_num += 1
        lr = self.d ** -0.5 * min(self.step_num ** -0.5, self.step_num * self.warmup ** -1.5)
        self.lrs.append(lr)
        return w - lr * g


@program(recompiles=2, why=COUNTER + "; min() of two changing floats: an entry per side")
def noam_warmup_schedule(wrap):
    s = Noam()
    f = wrap(s.step)
    lrs = s.lrs
    return [(f(x, g), s.step_num, list(s.lrs), s.lrs is lrs) for x, g in zip(XS, GS)]


PROGRAMS += stateful_corpus11_sims.PROGRAMS
