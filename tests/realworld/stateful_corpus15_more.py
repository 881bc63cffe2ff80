"""Issue #16's fifteenth stateful corpus, the other 21 programs (``stateful_corpus15.py``
holds the first 21 and the conventions): Python idioms that keep state between calls
(a mutable default argument as a cache and as a history, a counter kept as a function
attribute, ``functools.cached_property``, a ``NamedTuple`` state threaded through a
pure function, a ``types.SimpleNamespace`` in a closure, a 0-d array counter,
``itertools.cycle`` over arrays, a frozen dataclass renewed with
``dataclasses.replace``, a ``@property`` learning rate from a step), stochastic
simulations holding a random generator (a Metropolis sampler, an Ising sweep, the
Nagel-Schreckenberg traffic model, simulated annealing, leaky integrate-and-fire
neurons with a spike log, a legacy ``np.random.RandomState``), and trackers and agents
(AutoClip's percentile over its history of gradient norms, a z-score anomaly detector
over a ``deque``, a top-k ``heapq``, a moving-average trading strategy with a string
position and a trade log, a perceptron counting its mistakes).

Example::

    @program(recompiles=0)
    def zero_d_array_counter(wrap):
        c = ArrayCounter()
        f = wrap(c.mean_so_far)
        return [(f(x), snap(c.count)) for x in XS]
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import heapq
import itertools
import math
import sys
import types
from typing import NamedTuple

import numpy as np
from stateful_corpus4 import snap
from stateful_corpus15_data import COUNTER, GS, LABELS, PRICES, SIDES, TARGETS, W6, XS
from stateful_programs import NUMBER, registrar

PROGRAMS: list = []
program = registrar(PROGRAMS)

GROWS = "a list of floats that grows and is read whole: data with a symbolic length"


# ===================================================================== Python idioms

def basis_cached(x, k, _cache={}):  # noqa: B006 - the idiom under test
    """A mutable default argument as a cache: a cosine basis row per int ``k``."""
    if k not in _cache:
        _cache[k] = np.cos(np.arange(6) * (k + 1) * 0.3)
    return x * _cache[k]


@program(recompiles=3, why="the key an int that picks a cached array (3 keys); the "
                            "cache fills")
def mutable_default_cache(wrap):
    basis_cached.__defaults__[0].clear()
    f = wrap(basis_cached)
    return [(f(x, k), sorted(basis_cached.__defaults__[0])) for x, k in zip(XS, LABELS)]


def std_tracked(x, history=[]):  # noqa: B006 - the idiom under test
    """A mutable default list as a history of floats, read whole each call."""
    history.append(float(x.std()))
    return x / np.mean(history)


@program(recompiles=2, why=GROWS)
def mutable_default_history(wrap):
    std_tracked.__defaults__[0].clear()
    f = wrap(std_tracked)
    return [(f(x), list(std_tracked.__defaults__[0])) for x in XS]


def decayed(x):
    """A call counter kept as an attribute of the function itself."""
    decayed.calls = getattr(decayed, "calls", 0) + 1
    return x * 0.99 ** decayed.calls


@program(recompiles=1, why=COUNTER,
         known=(2, (
                   "the trace reads and writes no attribute of a function of its own "
                   "(\"attribute 'calls' of a function\", \"attribute assignment on "
                   "function\"): the frame breaks at both lines and each of the two "
                   "resume functions guards the count carried over its break by value "
                   "until its first change")))
def function_attribute_counter(wrap):
    decayed.calls = 0
    f = wrap(decayed)
    return [(f(x), decayed.calls) for x in XS]


class Projector:
    """``functools.cached_property``: an orthonormal basis computed on first use and
    kept in the instance ``__dict__``."""

    def __init__(self):
        self.calls = 0

    @functools.cached_property
    def basis(self):
        return np.linalg.qr(W6)[0]

    def project(self, x):
        self.calls += 1
        return self.basis.T @ x


@program(recompiles=2, why="the property computed on the first call, read from the "
                            "instance dict after; " + COUNTER)
def cached_property_basis(wrap):
    p = Projector()
    f = wrap(p.project)
    return [(f(x), p.calls, "basis" in vars(p)) for x in XS]


class Stats(NamedTuple):
    count: int
    mean: np.ndarray
    m2: np.ndarray


def welford_step(state, x):
    """A pure function: Welford's update on a ``NamedTuple`` state, returned anew."""
    n = state.count + 1
    d = x - state.mean
    mean = state.mean + d / n
    return Stats(n, mean, state.m2 + d * (x - mean))


@program(recompiles=1, why="the count an int field that changes; " + NUMBER)
def namedtuple_state_threaded(wrap):
    f = wrap(welford_step)
    s = Stats(0, np.zeros(6), np.zeros(6))
    out = []
    for x in XS:
        s = f(s, x)
        out.append((s.count, snap(s.mean), snap(s.m2)))
    return out


def make_ema(decay=0.9):
    """A ``types.SimpleNamespace`` in a closure holding a step and a bias-corrected
    EMA."""
    state = types.SimpleNamespace(step=0, ema=np.zeros(6))

    def update(x):
        state.step += 1
        state.ema = decay * state.ema + (1 - decay) * x
        return state.ema / (1 - decay ** state.step)
    return update, state


@program(recompiles=1, why=COUNTER)
def simplenamespace_in_closure(wrap):
    update, state = make_ema()
    f = wrap(update)
    return [(f(x), state.step, snap(state.ema)) for x in XS]


class ArrayCounter:
    """A count kept as a 0-d int array (``self.count += 1``, in place) and a running
    sum: the mean so far."""

    def __init__(self):
        self.count = np.zeros((), dtype=np.int64)
        self.total = np.zeros(6)

    def mean_so_far(self, x):
        self.count += 1
        self.total += x
        return self.total / self.count


@program(recompiles=0)
def zero_d_array_counter(wrap):
    c = ArrayCounter()
    f = wrap(c.mean_so_far)
    return [(f(x), snap(c.count), snap(c.total)) for x in XS]


class CycledMasks:
    """``itertools.cycle`` over three masks kept across calls: ``next()`` each call."""

    def __init__(self):
        masks = [(np.arange(6) % 3 != k).astype(np.float64) for k in range(3)]
        self.masks = itertools.cycle(masks)

    def apply(self, x):
        return x * next(self.masks)


@program(recompiles=2, why="the cycle's position picks one of 3 arrays")
def itertools_cycle_of_masks(wrap):
    c = CycledMasks()
    f = wrap(c.apply)
    return [f(x) for x in XS]


@dataclasses.dataclass(frozen=True)
class Config:
    lr: float
    step: int


class ReplacedConfig:
    """A frozen dataclass renewed each call with ``dataclasses.replace`` (a decayed lr
    and the next step)."""

    def __init__(self):
        self.cfg, self.w = Config(lr=0.1, step=0), np.zeros(6)

    def step(self, g):
        self.w = self.w - self.cfg.lr * g
        self.cfg = dataclasses.replace(self.cfg, lr=self.cfg.lr * 0.95, step=self.cfg.step + 1)
        return self.w


@program(recompiles=1, why="the lr and step fields " + NUMBER)
def frozen_dataclass_replaced(wrap):
    r = ReplacedConfig()
    f = wrap(r.step)
    return [(f(g), r.cfg) for g in GS]


class PropertyLR:
    """A learning rate as a ``@property`` computed from the step: halved every 5."""

    def __init__(self):
        self.step_n, self.base, self.w = 0, 0.1, np.zeros(6)

    @property
    def lr(self):
        return self.base * 0.5 ** (self.step_n // 5)

    def step(self, g):
        self.w = self.w - self.lr * g
        self.step_n += 1
        return self.w


@program(recompiles=1, why=COUNTER)
def property_lr_from_step(wrap):
    p = PropertyLR()
    f = wrap(p.step)
    return [(f(g), p.step_n) for g in GS]


# ===================================================================== stochastic simulations

class Metropolis:
    """A random-walk Metropolis sampler of a standard normal: a Generator attribute,
    the accept test on a uniform draw, an accept counter."""

    def __init__(self):
        self.rng = np.random.default_rng(7)
        self.x, self.accepted = np.zeros(6), 0

    def step(self, scale):
        prop = self.x + scale * self.rng.standard_normal(6)
        log_ratio = 0.5 * (self.x @ self.x - prop @ prop)
        if np.log(self.rng.random()) < log_ratio:
            self.x = prop
            self.accepted += 1
        return self.x.copy()


@program(recompiles=2, why="the accept test on random data" + SIDES + "; the counter "
                            + NUMBER)
def metropolis_sampler_accepts(wrap):
    m = Metropolis()
    f = wrap(m.step)
    return [(f(0.5), m.accepted, m.rng.bit_generator.state) for _ in XS]


class Ising:
    """A 6x6 Ising lattice swept by checkerboard Metropolis updates, the temperature
    (a Python float) lowered each sweep; the field an argument."""

    def __init__(self):
        self.rng = np.random.default_rng(11)
        self.s = np.where(self.rng.random((6, 6)) < 0.5, -1, 1)
        self.T = 3.0
        ii, jj = np.indices((6, 6))
        self.parity = (ii + jj) % 2

    def sweep(self, field):
        for p in (0, 1):
            nb = (np.roll(self.s, 1, 0) + np.roll(self.s, -1, 0)
                  + np.roll(self.s, 1, 1) + np.roll(self.s, -1, 1))
            dE = 2 * self.s * (nb + field)
            flip = (dE <= 0) | (self.rng.random((6, 6)) < np.exp(-dE / self.T))
            self.s = np.where((self.parity == p) & flip, -self.s, self.s)
        self.T *= 0.95
        return self.s.mean()


@program(recompiles=1, why="the temperature and the field " + NUMBER)
def ising_checkerboard_sweeps(wrap):
    m = Ising()
    f = wrap(m.sweep)
    return [(f(0.1 * t), m.T, snap(m.s)) for t in TARGETS]


class Traffic:
    """The Nagel-Schreckenberg traffic model on a ring of 20 cells, 6 cars: int
    positions and speeds, random slowdowns from a Generator attribute, a step count."""

    def __init__(self):
        self.rng = np.random.default_rng(3)
        self.pos = np.array([0, 3, 6, 9, 12, 15])
        self.v = np.zeros(6, dtype=np.int64)
        self.t = 0

    def step(self, p_slow):
        v = np.minimum(self.v + 1, 5)
        gaps = (np.roll(self.pos, -1) - self.pos - 1) % 20
        v = np.minimum(v, gaps)
        slow = self.rng.random(6) < p_slow
        self.v = np.where(slow, np.maximum(v - 1, 0), v)
        self.pos = (self.pos + self.v) % 20
        self.t += 1
        return self.v.mean()


@program(recompiles=1, why=COUNTER)
def nagel_schreckenberg_traffic(wrap):
    m = Traffic()
    f = wrap(m.step)
    return [(f(0.3), m.t, snap(m.pos), snap(m.v)) for _ in XS]


class Annealer:
    """Simulated annealing of a quadratic: a Gaussian move scaled by the temperature,
    accepted if better or with probability ``exp(-delta / T)``; ``T *= 0.9``."""

    def __init__(self):
        self.rng = np.random.default_rng(5)
        self.x, self.T = np.ones(6) * 2.0, 1.0

    def step(self, target):
        cand = self.x + self.T * self.rng.standard_normal(6)
        fc = float(np.sum((cand - target) ** 2))
        fx = float(np.sum((self.x - target) ** 2))
        if fc < fx or self.rng.random() < math.exp(-(fc - fx) / self.T):
            self.x = cand
        self.T *= 0.9
        return fx


@program(recompiles=2, why="the accept test on data" + SIDES + "; the temperature "
                            + NUMBER)
def simulated_annealing_temperature(wrap):
    a = Annealer()
    f = wrap(a.step)
    return [(f(x), a.T, snap(a.x)) for x in XS]


class LIFNeurons:
    """Leaky integrate-and-fire neurons: the membrane potential (an array), reset where
    it crossed the threshold, the spiking indices appended to a log each step, the time
    a float ``self.t += dt``."""

    def __init__(self):
        self.v, self.t, self.dt, self.spikes = np.zeros(6), 0.0, 0.5, []

    def step(self, current):
        self.v = self.v + self.dt * (-self.v + 3.0 * np.abs(current)) / 2.0
        fired = self.v > 1.0
        self.v[fired] = 0.0
        self.spikes.append((self.t, np.flatnonzero(fired)))
        self.t += self.dt
        return fired.sum()


@program(recompiles=1, why="the time " + NUMBER + "; the spike log only appended to")
def leaky_integrate_and_fire_log(wrap):
    n = LIFNeurons()
    f = wrap(n.step)
    return [(f(x), n.t, snap(n.v), snap(n.spikes)) for x in XS]


class LegacyNoise:
    """Noise from a legacy ``np.random.RandomState`` attribute with a sigma decayed per
    call (a Python float)."""

    def __init__(self):
        self.rs, self.sigma = np.random.RandomState(0), 1.0

    def perturb(self, x):
        noise = self.rs.normal(0.0, self.sigma, 6)
        self.sigma *= 0.9
        return x + noise


@program(recompiles=1, why="sigma " + NUMBER)
def legacy_randomstate_attribute(wrap):
    n = LegacyNoise()
    f = wrap(n.perturb)
    return [(f(x), n.sigma, n.rs.get_state()[2]) for x in XS]


# ===================================================================== trackers, agents

class AutoClip:
    """AutoClip (Seetharaman et al. 2020): every gradient norm appended to a history,
    the clip value the 10th percentile of the history."""

    def __init__(self):
        self.norms = []

    def clip(self, g):
        norm = float(np.linalg.norm(g))
        self.norms.append(norm)
        limit = np.percentile(self.norms, 10)
        return g * min(1.0, limit / (norm + 1e-6))


@program(recompiles=2, why=GROWS + "; min() of data" + SIDES)
def autoclip_percentile_of_history(wrap):
    a = AutoClip()
    f = wrap(a.clip)
    return [(f(g), list(a.norms)) for g in GS]


class ZScoreDetector:
    """A z-score anomaly detector over a ``deque(maxlen=5)`` of input means; the steps
    whose |z| > 1.5 are appended to a list."""

    def __init__(self):
        self.win, self.t, self.anomalies = collections.deque(maxlen=5), 0, []

    def observe(self, x):
        m = x.mean()
        z = 0.0
        if len(self.win) == 5:
            z = (m - np.mean(self.win)) / (np.std(self.win) + 1e-9)
            if abs(z) > 1.5:
                self.anomalies.append(self.t)
        self.win.append(m)
        self.t += 1
        return x - z


@program(recompiles=7, why="the window fills (5 lengths); the anomaly test" + SIDES
                            + "; " + COUNTER)
def zscore_anomalies_over_deque(wrap):
    d = ZScoreDetector()
    f = wrap(d.observe)
    return [(f(x), list(d.win), list(d.anomalies), d.t) for x in XS]


class TopK:
    """The 3 best scores seen so far with their step, in a ``heapq`` min-heap of
    (score, step) tuples: ``heappush`` while filling, then ``heappushpop``."""

    def __init__(self):
        self.heap, self.t = [], 0

    def offer(self, x):
        score = float(W6[0] @ x)
        if len(self.heap) < 3:
            heapq.heappush(self.heap, (score, self.t))
        else:
            heapq.heappushpop(self.heap, (score, self.t))
        self.t += 1
        return np.array([s for s, _ in sorted(self.heap)])


@program(recompiles=4, why="the heap fills (3 lengths)" + SIDES + "; the scores "
                            + NUMBER,
         known=(13, (
                   "heapq.heappush and heappushpop are C functions the trace does not "
                   "model: each breaks, and the heap's smallest score (heap[0][0], which "
                   "heappushpop compares and sorted() orders in the resume function) is "
                   "guarded by value with the heap's length: an entry per fill length, "
                   "then one per new smallest score, until the cache limit. The order "
                   "truly decides which tuples are kept")))
def heapq_top_k_scores(wrap):
    t = TopK()
    f = wrap(t.offer)
    return [(f(x), list(t.heap)) for x in XS]


class Crossover:
    """A moving-average crossover strategy: prices appended to a list, the means of the
    last 3 and last 6, a position kept as a string ("flat"/"long") and a trade log of
    (step, side, price) tuples."""

    def __init__(self):
        self.prices, self.position, self.trades = [], "flat", []

    def on_price(self, price):
        self.prices.append(price)
        fast = np.mean(self.prices[-3:])
        slow = np.mean(self.prices[-6:])
        if fast > slow and self.position == "flat":
            self.position = "long"
            self.trades.append((len(self.prices), "buy", price))
        elif fast < slow and self.position == "long":
            self.position = "flat"
            self.trades.append((len(self.prices), "sell", price))
        return np.array([fast, slow])


@program(recompiles=6, why="the price list grows and is read by slices (6 lengths "
                            "until the windows are full); the position string and the "
                            "crossing" + SIDES,
         known=(7, (
                   "fast > slow compares array data: the frame breaks at both tests, "
                   "and each resume function guards the comparison carried over its "
                   "break, the position string and len(self.prices) (read for the "
                   "trade's step) by value: an entry per crossing side and per trade "
                   "step (5 on 3.11)")) if sys.version_info >= (3, 12) else None)
def moving_average_crossover(wrap):
    c = Crossover()
    f = wrap(c.on_price)
    return [(f(p), c.position, list(c.trades)) for p in PRICES]


class Perceptron:
    """A perceptron trained online on +-1 labels: an update and a mistake count only
    when the prediction is wrong."""

    def __init__(self):
        self.w, self.mistakes = np.zeros(6), 0

    def learn(self, x, y):
        pred = 1 if self.w @ x >= 0 else -1
        if pred != y:
            self.w = self.w + y * x
            self.mistakes += 1
        return pred


@program(recompiles=3, why="the prediction and the label" + SIDES + "; the mistakes "
                            + NUMBER)
def perceptron_mistake_counter(wrap):
    p = Perceptron()
    f = wrap(p.learn)
    ys = [1 if lab else -1 for lab in LABELS]
    return [(f(x, y), p.mistakes, snap(p.w)) for x, y in zip(XS, ys)]


assert len(PROGRAMS) == 21, len(PROGRAMS)
