"""The other 13 programs of issue #16's thirteenth stateful corpus
(``stateful_corpus13.py`` holds the first 12 and ``PROGRAMS`` of all 25), written before
they were run: token buffers (a sliding context of ids, a KV cache of arrays),
environment and agent objects (a grid world that resets, a UCB bandit, epsilon-greedy
with decay), online learners (logistic SGD with a step counter, a mistake-driven
perceptron, passive-aggressive with a clipped step), generators kept across calls (a
batch-index generator, a learning-rate generator), logging hooks (callbacks held in a
list that append records) and metric accumulators reset every k calls. Conventions
as there.

Example::

    @program(recompiles=1, why=COUNTER)
    def online_logistic_sgd(wrap):
        m = OnlineLogistic()
        f = wrap(m.learn)
        return [(f(x, y), m.t, snap(m.w)) for x, y in zip(XS, LABELS)]
"""

from __future__ import annotations

import itertools
import math
import sys

import numpy as np
from stateful_corpus4 import snap
from stateful_corpus13_data import COUNTER, EMB, FILL, IDS, LABELS, SIDES, TOKEN_IDS, W6, XS
from stateful_programs import NUMBER, registrar

PROGRAMS: list = []
program = registrar(PROGRAMS)


# ===================================================================== token buffers

class SlidingContext:
    """A context of token ids kept across calls: ``extend`` with the new ids, keep the
    last 8; the context embedded and mean-pooled."""

    def __init__(self, size=8):
        self.tokens, self.size = [], size

    def feed(self, ids):
        self.tokens.extend(ids)
        self.tokens = self.tokens[-self.size:]
        return EMB[self.tokens].mean(axis=0)


@program(recompiles=2, why=IDS + "; the context fills to 8 (two lengths: 4, then 8)")
def sliding_token_context(wrap):
    c = SlidingContext()
    f = wrap(c.feed)
    return [(f(ids), list(c.tokens)) for ids in TOKEN_IDS]


class KVCache:
    """Keys and values appended per call (a list of arrays); attention of the query
    over the last 4 keys."""

    def __init__(self):
        self.keys, self.values = [], []

    def attend(self, x):
        self.keys.append(W6 @ x)
        self.values.append(np.tanh(x))
        k = np.stack(self.keys[-4:])
        v = np.stack(self.values[-4:])
        s = k @ x / math.sqrt(6.0)
        p = np.exp(s - s.max())
        return (p / p.sum()) @ v


@program(recompiles=4, why="the lists grow; the window of the last 4 " + FILL)
def kv_cache_window(wrap):
    c = KVCache()
    f = wrap(c.attend)
    return [(f(x), len(c.keys)) for x in XS]


# ===================================================================== env and agents

class GridWorld:
    """A 4x4 grid: the action is the argmax of the input's first 4 values (a break at
    ``int()``), the position a tuple of ints, reset at the goal; returns the reward
    times the input."""

    MOVES = ((0, 1), (1, 0), (0, -1), (-1, 0))

    def __init__(self):
        self.pos, self.steps, self.episodes = (0, 0), 0, 0

    def step(self, x):
        a = int(np.argmax(x[:4]))
        dr, dc = self.MOVES[a]
        r, c = self.pos
        self.pos = (min(max(r + dr, 0), 3), min(max(c + dc, 0), 3))
        self.steps += 1
        reward = 1.0 if self.pos == (3, 3) else -0.1
        if reward > 0 or self.steps >= 6:
            self.pos, self.steps, self.episodes = (0, 0), 0, self.episodes + 1
        return x * reward


@program(recompiles=4, why="the action data-dependent (a break at int()); the position "
                           "ints that change, the reset" + SIDES,
         known=(7, (
                   "self.pos == (3, 3), a tuple of changing ints compared with constants, "
                   "pins each int (\"a dynamic size used as a plain int\"), and the "
                   "resume function after the int() break guards the carried action: "
                   "an entry per position until the cache limit. Comparing item by "
                   "item as guards (tried: translator/compare.py) moved the breaks and "
                   "made it 17; left as it is")))
def gridworld_env_steps(wrap):
    g = GridWorld()
    f = wrap(g.step)
    return [(f(x), g.pos, g.steps, g.episodes) for x in XS]


class UCBBandit:
    """UCB1 over 6 arms with counts and values as arrays: the arm by ``np.argmax`` of
    the bound (a ``t`` counter in ``log``), its value updated by the reward."""

    def __init__(self):
        self.counts, self.values, self.t = np.ones(6), np.zeros(6), 1

    def pull(self, x):
        self.t += 1
        bound = self.values + np.sqrt(2 * np.log(self.t) / self.counts)
        a = np.argmax(bound)
        reward = x[a]
        self.counts[a] += 1
        self.values[a] += (reward - self.values[a]) / self.counts[a]
        return reward


@program(recompiles=1, why=COUNTER + "; the arm an array index, data in the graph")
def ucb_bandit_arrays(wrap):
    b = UCBBandit()
    f = wrap(b.pull)
    return [(f(x), b.t, snap(b.counts), snap(b.values)) for x in XS]


class EpsilonGreedy:
    """Epsilon decays by 0.8 per call to a floor of 0.05 (``max``); the Q estimate is
    mixed with the uniform policy by epsilon."""

    def __init__(self):
        self.eps, self.q = 1.0, np.zeros(6)

    def act(self, x):
        self.q = 0.9 * self.q + 0.1 * x
        probs = (1 - self.eps) * (self.q == self.q.max()) + self.eps / 6
        self.eps = max(0.05, self.eps * 0.8)
        return probs


@program(recompiles=2, why="epsilon a float the call stores: " + NUMBER + "; the floor "
                           "max() picks the other side once")
def epsilon_greedy_decay(wrap):
    a = EpsilonGreedy()
    f = wrap(a.act)
    return [(f(x), a.eps, snap(a.q)) for x in XS]


# ===================================================================== online learners

class OnlineLogistic:
    """Logistic regression by SGD, one example per call, lr / sqrt(t)."""

    def __init__(self, lr=0.5):
        self.w, self.lr, self.t = np.zeros(6), lr, 0

    def learn(self, x, y):
        self.t += 1
        p = 1.0 / (1.0 + np.exp(-(x @ self.w)))
        self.w = self.w - self.lr / math.sqrt(self.t) * (p - y) * x
        return p


@program(recompiles=1, why=COUNTER + "; the label a changing float: " + NUMBER)
def online_logistic_sgd(wrap):
    m = OnlineLogistic()
    f = wrap(m.learn)
    return [(f(x, y), m.t, snap(m.w)) for x, y in zip(XS, LABELS)]


class Perceptron:
    """A mistake-driven perceptron: the weights change only on a mistake (a branch on
    the data: ``if y * (x @ w) <= 0``); mistakes counted."""

    def __init__(self):
        self.w, self.mistakes = np.zeros(6), 0

    def learn(self, x, y):
        s = 2.0 * y - 1.0
        if s * (x @ self.w) <= 0:
            self.w = self.w + s * x
            self.mistakes += 1
        return self.w @ x


@program(recompiles=2, why="a branch on the data (a break); the label a changing float",
         known=(3, (
                   "on 3.12+ only: the resume function after the break at the data branch "
                   "holds s (2.0 * y - 1.0) as a constant (\"s: expected 1.0, got -1.0\", "
                   "line 197), one more entry; on 3.11 s is carried as a number (cause "
                   "not looked into)")) if sys.version_info >= (3, 12) else None)
def perceptron_mistakes(wrap):
    m = Perceptron()
    f = wrap(m.learn)
    return [(f(x, y), m.mistakes, snap(m.w)) for x, y in zip(XS, LABELS)]


class PassiveAggressive:
    """PA-I regression: the step ``min(C, loss / |x|^2)`` on the hinge of an
    epsilon-insensitive loss, all in array math (``np.minimum``, ``np.maximum``)."""

    def __init__(self, c=0.5, eps=0.1):
        self.w, self.c, self.eps = np.zeros(6), c, eps

    def learn(self, x, y):
        err = y - self.w @ x
        loss = np.maximum(np.abs(err) - self.eps, 0.0)
        tau = np.minimum(self.c, loss / (x @ x))
        self.w = self.w + np.sign(err) * tau * x
        return err


@program(recompiles=1, why="the target a changing float: " + NUMBER)
def passive_aggressive_regression(wrap):
    m = PassiveAggressive()
    f = wrap(m.learn)
    return [(f(x, y), snap(m.w)) for x, y in zip(XS, LABELS)]


# ===================================================================== generators

class BatchSampler:
    """A generator of index pairs kept across calls (``next(self.batches)``), cycling
    over 5 rows of a fixed table."""

    TABLE = np.sin(np.arange(30.0)).reshape(5, 6)

    def __init__(self):
        self.batches = self._pairs()

    def _pairs(self):
        for i in itertools.count():
            yield [i % 5, (i + 2) % 5]

    def sample(self, x):
        idx = next(self.batches)
        return self.TABLE[idx].sum(axis=0) * x


@program(recompiles=2, why="next() of a generator kept across calls (a break); the "
                           "indices a fresh list of ints: " + IDS)
def generator_of_batches(wrap):
    s = BatchSampler()
    f = wrap(s.sample)
    return [f(x) for x in XS]


class LrGenerator:
    """A learning-rate schedule as a generator expression kept across calls."""

    def __init__(self):
        self.lrs = (0.1 * 0.9 ** i for i in itertools.count())
        self.last = None

    def update(self, w, g):
        self.last = next(self.lrs)
        return w - self.last * g


@program(recompiles=2, why="next() of a generator (a break); the lr a changing float: "
                           + NUMBER)
def generator_of_learning_rates(wrap):
    o = LrGenerator()
    f = wrap(o.update)
    return [(f(x, g), o.last) for x, g in zip(XS, [0.1 * x for x in XS])]


# ===================================================================== hooks, accumulators

class HookedLayer:
    """A layer with forward hooks held in a list (``register_forward_hook``-style): each
    hook appends ``(name, output)`` to the layer's record list."""

    def __init__(self):
        self.records, self.hooks, self.calls = [], [], 0
        self.hooks.append(lambda name, out: self.records.append((name, out)))
        self.hooks.append(lambda name, out: self.records.append((name + "_sum", out.sum())))

    def forward(self, x):
        self.calls += 1
        out = np.tanh(W6 @ x)
        for h in self.hooks:
            h("dense", out)
        return out


@program(recompiles=0, why="the records append-only: no guard on their length")
def forward_hooks_append_records(wrap):
    m = HookedLayer()
    f = wrap(m.forward)
    return [(f(x), len(m.records), m.calls) for x in XS] + [snap(m.records)]


class MetricAccumulator:
    """Sums of the outputs and a count, reset every 5 calls where the mean is logged."""

    def __init__(self):
        self.total, self.n, self.means = np.zeros(6), 0, []

    def step(self, x):
        y = np.tanh(W6 @ x)
        self.total = self.total + y
        self.n += 1
        if self.n == 5:
            self.means.append(self.total / self.n)
            self.total, self.n = np.zeros(6), 0
        return y


@program(recompiles=2, why=COUNTER + "; the reset" + SIDES)
def metric_accumulator_reset(wrap):
    m = MetricAccumulator()
    f = wrap(m.step)
    return [(f(x), m.n, snap(m.total), len(m.means)) for x in XS] + [snap(m.means)]


class NgramCounts:
    """Bigram counts keyed by tuples of ints from the call's fresh list of ids; the
    number of distinct bigrams scales the pooled embedding."""

    def __init__(self):
        self.counts = {}

    def observe(self, ids):
        for a, b in zip(ids, ids[1:]):
            self.counts[(a, b)] = self.counts.get((a, b), 0) + 1
        return EMB[ids].sum(axis=0) * len(self.counts)


@program(recompiles=2, why=IDS + "; the tuple keys present or absent, the count a "
                           "changing int")
def bigram_counts_tuple_keys(wrap):
    n = NgramCounts()
    f = wrap(n.observe)
    return [(f(ids), dict(n.counts)) for ids in TOKEN_IDS]
