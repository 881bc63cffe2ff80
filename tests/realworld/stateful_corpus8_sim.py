"""The other 21 programs of issue #16's eighth stateful corpus (``stateful_corpus8.py``
holds the first 19 and ``PROGRAMS`` of all 40), written before they were run:
simulations carrying a ``random.Random`` or an ``np.random.Generator`` (the RNG's state
after each call is compared too), replay buffers, generators reading a list whole,
``max``/``sum``/``min`` of a dict's values while keys are added, and attributes whose
type changes between calls. Conventions as there.

Example::

    @program(recompiles=1, why=NUMBER + RNG)
    def random_gauss_noise(wrap):
        s = GaussNoise()
        f = wrap(s.step)
        return [(f(XS[i]), s.rng.getstate()) for i in range(CALLS)]
"""

from __future__ import annotations

import collections
import random

import numpy as np
from stateful_corpus4 import CALLS, LOSSES, XS, snap
from stateful_programs import NUMBER, registrar

PROGRAMS: list = []
program = registrar(PROGRAMS)

DATA = "a number the data decides (float()/int() of an array) needs its value: a break"
RNG = "; a random.Random's draws are program state: a draw is a changing number"
NAMES = ["a", "b", "a", "c", "b", "d", "a", "c", "d", "e", "a", "b", "e", "c"]


# ===================================================================== random.Random

class GaussNoise:
    """``x + self.rng.gauss(0.0, 0.1)``: a seeded Python RNG on the object."""

    def __init__(self):
        self.rng = random.Random(5)

    def step(self, x):
        return x + self.rng.gauss(0.0, 0.1)


@program(recompiles=1, why=NUMBER + RNG)
def random_gauss_noise(wrap):
    s = GaussNoise()
    f = wrap(s.step)
    return [(f(XS[i]), s.rng.getstate()) for i in range(CALLS)]


class JitteredLR:
    """``lr = base * rng.uniform(0.9, 1.1)``, an SGD step, the lrs logged."""

    def __init__(self):
        self.rng, self.base, self.lrs = random.Random(11), 0.1, []

    def step(self, w, g):
        lr = self.base * self.rng.uniform(0.9, 1.1)
        self.lrs.append(lr)
        return w - lr * g


@program(recompiles=1, why=NUMBER + RNG)
def random_uniform_lr_jitter(wrap):
    s = JitteredLR()
    f = wrap(s.step)
    w, out = np.zeros(5), []
    for i in range(CALLS):
        w = f(w, XS[i])
        out.append((w, snap(s.lrs), s.rng.getstate()))
    return out


class RandomRow:
    """``self.table[self.rng.randrange(4)]``: a random row of a list of arrays."""

    def __init__(self):
        self.rng = random.Random(13)
        self.table = [np.full(5, float(k)) for k in range(4)]

    def step(self, x):
        i = self.rng.randrange(4)
        return self.table[i] * x + i


@program(recompiles=2, why=NUMBER + RNG + "; the index picks a list item")
def random_randrange_row(wrap):
    s = RandomRow()
    f = wrap(s.step)
    return [(f(XS[i]), s.rng.getstate()) for i in range(CALLS)]


class Shuffled:
    """``self.rng.shuffle(self.order)`` then ``x[self.order]``."""

    def __init__(self):
        self.rng, self.order = random.Random(17), [0, 1, 2, 3, 4]

    def step(self, x):
        self.rng.shuffle(self.order)
        return x[self.order] * 2.0


@program(recompiles=2, why=RNG + "; the order a list of ints used as an index")
def random_shuffle_order(wrap):
    s = Shuffled()
    f = wrap(s.step)
    return [(f(XS[i]), list(s.order), s.rng.getstate()) for i in range(CALLS)]


class RandomSpawner:
    """Particles spawned with probability 0.4 (``rng.random() < 0.4``), all moved."""

    def __init__(self):
        self.rng, self.pos = random.Random(19), [np.zeros(2)]

    def step(self, v):
        if self.rng.random() < 0.4:
            self.pos.append(np.array([self.rng.random(), 0.0]))
        self.pos = [p + v for p in self.pos]
        return len(self.pos)


@program(recompiles=3, why=RNG + "; spawn or not decides a branch; the list grows",
         known=(9, (
                   "random.Random calls are breaks; the draw carried over them is "
                   "compared (spawn or not: an entry per side), the list of positions "
                   "grows (an entry per length)")))
def random_spawn_particles(wrap):
    s = RandomSpawner()
    f = wrap(s.step)
    return [(f(XS[i][:2]), snap(s.pos), s.rng.getstate()) for i in range(CALLS)]


# ===================================================================== np.random.Generator

class DropoutGen:
    """Dropout with a Generator on the layer; the masks appended to a list."""

    def __init__(self):
        self.rng, self.masks = np.random.default_rng(23), []

    def forward(self, x):
        mask = self.rng.random(x.shape) > 0.3
        self.masks.append(mask)
        return x * mask / 0.7


@program(recompiles=0)
def dropout_generator_masks(wrap):
    d = DropoutGen()
    f = wrap(d.forward)
    return [(f(XS[i]), snap(d.masks), snap(d.rng.bit_generator.state)) for i in range(CALLS)]


class Brownian:
    """Brownian motion with float time: ``x += sqrt(dt) * rng.standard_normal(5)``."""

    def __init__(self):
        self.rng, self.t, self.x = np.random.default_rng(29), 0.0, np.zeros(5)

    def step(self, dt):
        self.x = self.x + np.sqrt(dt) * self.rng.standard_normal(5)
        self.t += dt
        return self.x * self.t


@program(recompiles=1, why=NUMBER)
def brownian_generator_time(wrap):
    b = Brownian()
    f = wrap(b.step)
    return [(f(0.1 + 0.01 * i), b.t, snap(b.rng.bit_generator.state)) for i in range(CALLS)]


class GenReplay:
    """A ring of 6 rows (``pos``, ``size`` ints); a batch of 3 sampled by
    ``rng.integers(0, self.size, 3)``."""

    def __init__(self):
        self.rng, self.buf = np.random.default_rng(31), np.zeros((6, 5))
        self.pos, self.size = 0, 0

    def add_sample(self, x):
        self.buf[self.pos] = x
        self.pos = (self.pos + 1) % 6
        self.size = min(self.size + 1, 6)
        idx = self.rng.integers(0, self.size, 3)
        return self.buf[idx].sum(axis=0)


@program(recompiles=2, why=NUMBER + "; min(size + 1, 6) an entry per side")
def replay_ring_generator_sample(wrap):
    r = GenReplay()
    f = wrap(r.add_sample)
    return [(f(XS[i]), r.buf.copy(), r.pos, r.size, snap(r.rng.bit_generator.state)) for i in range(CALLS)]


class MonteCarloHits:
    """``self.hits += int((self.rng.random(64) < p).sum())``; the estimate returned."""

    def __init__(self):
        self.rng, self.hits, self.n = np.random.default_rng(37), 0, 0

    def step(self, x):
        self.hits += int((self.rng.random(64) < 0.5).sum())
        self.n += 64
        return x * (self.hits / self.n)


@program(recompiles=2, why=DATA)
def monte_carlo_hit_counter(wrap):
    m = MonteCarloHits()
    f = wrap(m.step)
    return [(f(XS[i]), m.hits, m.n, snap(m.rng.bit_generator.state)) for i in range(CALLS)]


class StochasticSIR:
    """Infections drawn by ``rng.binomial(self.s, p)`` (a Python int), ``s`` falls."""

    def __init__(self):
        self.rng, self.s, self.i = np.random.default_rng(41), 500, 5

    def step(self, x):
        p = 1.0 - np.exp(-0.3 * self.i / 505)
        new = self.rng.binomial(self.s, p)
        self.s -= new
        self.i += new
        return x * self.i


@program(recompiles=2, why=DATA)
def stochastic_sir_binomial(wrap):
    m = StochasticSIR()
    f = wrap(m.step)
    return [(f(XS[i]), m.s, m.i, snap(m.rng.bit_generator.state)) for i in range(CALLS)]


# ===================================================================== replay buffers

class DequeReplay:
    """``deque(maxlen=5)`` of (x, reward); the mean reward over the buffer."""

    def __init__(self):
        self.buf = collections.deque(maxlen=5)

    def add(self, x, r):
        self.buf.append((x, r))
        return x * np.mean([rr for _, rr in self.buf])


@program(recompiles=2, why="the deque fills (read item by item: one entry that runs "
                           "uncompiled until it is full, dynamo/filling_deques.py)")
def replay_deque_mean_reward(wrap):
    d = DequeReplay()
    f = wrap(d.add)
    return [(f(XS[i], LOSSES[i]), [r for _, r in d.buf]) for i in range(CALLS)]


class Prioritized:
    """Priorities appended as floats (``abs(td)`` from the caller); normalised."""

    def __init__(self):
        self.prios, self.items = [], []

    def add(self, x, td):
        self.items.append(x)
        self.prios.append(abs(td) + 0.01)
        p = np.array(self.prios)
        return p / p.sum()


@program(recompiles=2, why="the list of floats array data, its length a size")
def prioritized_replay_probs(wrap):
    b = Prioritized()
    f = wrap(b.add)
    return [(f(XS[i], LOSSES[i] - 0.75), list(b.prios)) for i in range(CALLS)]


# ===================================================================== lists read whole

class LossAverage:
    """``sum(l for l in self.losses) / len(self.losses)`` over appended floats."""

    def __init__(self):
        self.losses = []

    def update(self, x, loss):
        self.losses.append(loss)
        avg = sum(v for v in self.losses) / len(self.losses)
        return x * avg


@program(recompiles=2, why="a generator reads the list whole (its length changes)")
def generator_sum_losses(wrap):
    a = LossAverage()
    f = wrap(a.update)
    return [(f(XS[i], LOSSES[i]), list(a.losses)) for i in range(CALLS)]


class BestScore:
    """``max(s for s in self.scores)`` over appended float scores."""

    def __init__(self):
        self.scores = []

    def update(self, x, score):
        self.scores.append(score)
        return x * max(s for s in self.scores)


@program(recompiles=2, why="a generator reads the list whole (its length changes)")
def generator_max_scores(wrap):
    b = BestScore()
    f = wrap(b.update)
    return [(f(XS[i], -LOSSES[i]), list(b.scores)) for i in range(CALLS)]


# ===================================================================== dict values

class NamedTotals:
    """``self.totals[name] = self.totals.get(name, 0.0) + loss``; ``sum(values())``."""

    def __init__(self):
        self.totals = {}

    def add(self, x, name, loss):
        self.totals[name] = self.totals.get(name, 0.0) + loss
        return x * sum(self.totals.values())


@program(recompiles=2, why="keys added while sum(d.values()) reads the dict",
         known=(7, (
                   "string keys the caller picks: each name guarded by value, and the "
                   "overwritten key (its place kept) reads the dict whole for "
                   "sum(d.values())")))
def sum_dict_values_growing(wrap):
    t = NamedTotals()
    f = wrap(t.add)
    return [(f(XS[i], NAMES[i], LOSSES[i]), snap(t.totals)) for i in range(CALLS)]


class EpochBest:
    """``self.losses[self.epoch] = loss``, one key per call; ``max(values())``."""

    def __init__(self):
        self.losses, self.epoch = {}, 0

    def add(self, x, loss):
        self.losses[self.epoch] = loss
        self.epoch += 1
        return x * max(self.losses.values())


@program(recompiles=2, why="a key per call while max(d.values()) reads the dict")
def max_dict_values_per_epoch(wrap):
    e = EpochBest()
    f = wrap(e.add)
    return [(f(XS[i], LOSSES[i]), snap(e.losses)) for i in range(CALLS)]


class LayerLatency:
    """``self.lat[f"layer{k}"] = t`` for k cycling 0..2; ``min(values())``."""

    def __init__(self):
        self.lat, self.k = {}, 0

    def add(self, x, t):
        self.lat[f"layer{self.k % 3}"] = t
        self.k += 1
        return x * min(self.lat.values())


@program(recompiles=3, why="three keys added while min(d.values()) reads the dict; "
                           "k % 3 an entry per remainder")
def min_dict_values_fstring_keys(wrap):
    m = LayerLatency()
    f = wrap(m.add)
    return [(f(XS[i], LOSSES[i]), snap(m.lat)) for i in range(CALLS)]


# ===================================================================== types that change

class PrevSmoother:
    """``self.prev`` None on the first call, an array after."""

    def __init__(self):
        self.prev = None

    def step(self, x):
        out = x if self.prev is None else 0.5 * (x + self.prev)
        self.prev = x
        return out


@program(recompiles=1, why="None, then an array (one entry per type)")
def attr_none_then_array(wrap):
    s = PrevSmoother()
    f = wrap(s.step)
    return [(f(XS[i]), snap(s.prev)) for i in range(CALLS)]


class HalvingScale:
    """``self.scale = 1`` (an int) halved each call: a float from the second call."""

    def __init__(self):
        self.scale = 1

    def step(self, x):
        y = x * self.scale
        self.scale = self.scale * 0.5 if self.scale > 1e-3 else 1
        return y


@program(recompiles=2, why="an int, then a float; the floor resets it to an int once")
def attr_int_then_float(wrap):
    s = HalvingScale()
    f = wrap(s.step)
    return [(f(XS[i]), s.scale, type(s.scale).__name__) for i in range(CALLS)]


class LossHolder:
    """``self.loss = 0.0`` then ``self.loss = (x * x).sum()`` (an np.float64)."""

    def __init__(self):
        self.loss = 0.0

    def step(self, x):
        y = x * (1.0 + self.loss)
        self.loss = (x * x).sum() * 0.01
        return y


@program(recompiles=1, why="a float, then an np.float64 (one entry per type)")
def attr_float_then_numpy_scalar(wrap):
    s = LossHolder()
    f = wrap(s.step)
    return [(f(XS[i]), s.loss, type(s.loss).__name__) for i in range(CALLS)]


class ListThenArray:
    """Rows kept in a list until 4, then one array rolled in place each call."""

    def __init__(self):
        self.rows = []

    def step(self, x):
        if isinstance(self.rows, list):
            self.rows.append(x)
            if len(self.rows) == 4:
                self.rows = np.stack(self.rows)
            return x
        self.rows = np.roll(self.rows, -1, axis=0)
        self.rows[-1] = x
        return self.rows.mean(axis=0)


@program(recompiles=4, why="a list growing to 4 (an entry per length), then an array")
def attr_list_then_array(wrap):
    s = ListThenArray()
    f = wrap(s.step)
    return [(f(XS[i]), snap(s.rows)) for i in range(CALLS)]
