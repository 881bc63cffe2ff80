"""The other 21 programs of issue #16's ninth stateful corpus (``stateful_corpus9.py``
holds the first 19 and ``PROGRAMS`` of all 40), written before they were run: replay
buffers with a ring index, reinforcement-learning trackers, tokenizers whose vocabulary
grows per call, simulation objects whose step count and time are attributes, models
whose ``training`` flag the caller toggles between calls, callback lists and hook
dicts, accumulators the caller resets. Conventions as there.

Example::

    @program(recompiles=2, why=NUMBER + NEW_SHAPE)
    def sim_step_count_and_time(wrap):
        s = Clock()
        f = wrap(s.step)
        return [(f(x), s.steps, s.t) for x in XS + [X_NEW]]
"""

from __future__ import annotations

import collections
import math

import numpy as np
from stateful_corpus4 import snap
from stateful_corpus9_data import (
    BATCH_NEW,
    BATCHES,
    CALLS,
    EMB,
    GS,
    LOSSES,
    NEW_SHAPE,
    SIDES,
    X_NEW,
    XS,
)
from stateful_programs import NUMBER, registrar

PROGRAMS: list = []
program = registrar(PROGRAMS)

TOGGLED = "; the training flag the caller toggles truly selects control flow: an " \
          "entry per value"


# ===================================================================== replay and RL

class RingReplay:
    """Preallocated arrays, a ring index ``ptr`` and a ``size`` capped at capacity."""

    def __init__(self, dim, capacity=4):
        self.obs = np.zeros((capacity, dim))
        self.rew = np.zeros(capacity)
        self.ptr, self.size, self.capacity = 0, 0, capacity

    def add(self, x, r):
        self.obs[self.ptr] = x
        self.rew[self.ptr] = r
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)
        return self.obs[:self.size].mean(axis=0) * self.rew[:self.size].sum()


@program(recompiles=3, why=NUMBER + "; the size capped (min: an entry per side)"
                           + NEW_SHAPE)
def replay_ring_index_arrays(wrap):
    b = RingReplay(5)
    f = wrap(b.add)
    out = [(f(x, r), b.ptr, b.size, snap(b.rew)) for x, r in zip(XS, LOSSES)]
    b.__init__(7)
    out.append((f(X_NEW, 0.5), b.ptr, b.size, snap(b.rew)))
    return out


class NStepReturn:
    """A ``deque(maxlen=3)`` of rewards discounted ``sum(r * 0.9 ** i ...)``."""

    def __init__(self):
        self.q = collections.deque(maxlen=3)

    def add(self, x, r):
        self.q.append(r)
        ret = sum(rr * 0.9 ** i for i, rr in enumerate(self.q))
        return x * ret


@program(recompiles=4, why=NUMBER + "; the deque fills to 3 (an entry per length)"
                           + NEW_SHAPE)
def n_step_return_deque(wrap):
    n = NStepReturn()
    f = wrap(n.add)
    return [(f(x, r), list(n.q)) for x, r in zip(XS + [X_NEW], LOSSES)]


class EpisodeTracker:
    """The reward summed per episode; ``done`` (every 4th step) logs and resets it."""

    def __init__(self):
        self.ep_reward, self.rewards, self.steps = 0.0, [], 0

    def step(self, x, r, done):
        self.ep_reward += r
        self.steps += 1
        if done:
            self.rewards.append(self.ep_reward)
            self.ep_reward = 0.0
        return x * self.ep_reward


@program(recompiles=3, why=NUMBER + "; done a bool the caller passes (an entry per "
                           "value)" + NEW_SHAPE)
def episode_reward_tracker(wrap):
    t = EpisodeTracker()
    f = wrap(t.step)
    return [(f(x, r, i % 4 == 3), t.ep_reward, list(t.rewards), t.steps)
            for i, (x, r) in enumerate(zip(XS + [X_NEW], LOSSES))]


class Bandit:
    """Incremental action values: ``counts[arm] += 1``; ``q[arm] += (r - q[arm]) /
    counts[arm]`` in arrays, the arm an int the caller picks."""

    def __init__(self, arms=3):
        self.counts, self.q = np.zeros(arms), np.zeros(arms)

    def update(self, x, arm, r):
        self.counts[arm] += 1
        self.q[arm] += (r - self.q[arm]) / self.counts[arm]
        return x * self.q.max()


@program(recompiles=2, why=NUMBER + NEW_SHAPE)
def bandit_incremental_values(wrap):
    b = Bandit()
    f = wrap(b.update)
    return [(f(x, i % 3, r), snap(b.counts), snap(b.q))
            for i, (x, r) in enumerate(zip(XS + [X_NEW], LOSSES))]


# ===================================================================== tokenizers

SENTENCES = [["the", "cat"], ["a", "cat"], ["the", "dog"], ["a", "dog"], ["the", "cat"],
             ["my", "cat"], ["the", "dog"], ["a", "cat"], ["my", "dog"], ["the", "cat"],
             ["a", "dog"]]


class GrowingVocab:
    """A word -> id dict that grows per call; ``EMB[ids]`` of the sentence's ids."""

    def __init__(self):
        self.vocab = {}

    def encode(self, words):
        for w in words:
            if w not in self.vocab:
                self.vocab[w] = len(self.vocab)
        ids = [self.vocab[w] for w in words]
        return EMB[ids].sum(axis=0)


@program(recompiles=5, why="words the caller passes, each present or absent, the "
                           "vocabulary's length a changing int (was 7 recompiles, an entry "
                           "per sentence; now 1: once a word changed, the loop over them "
                           "runs as Python at a break, variables/text_items.py)")
def vocab_growing_per_call(wrap):
    v = GrowingVocab()
    f = wrap(v.encode)
    return [(f(s), snap(v.vocab)) for s in SENTENCES]


class CharCounts:
    """Character counts of a text: ``counts[ch] = counts.get(ch, 0) + 1``."""

    def __init__(self):
        self.counts = {}

    def update(self, x, text):
        for ch in text:
            self.counts[ch] = self.counts.get(ch, 0) + 1
        return x * len(self.counts)


TEXTS = ["ab", "ba", "ab", "bc", "ca", "ab", "cc", "ba", "ab", "bc", "ca"]


@program(recompiles=4, why="characters present or absent; the count a changing int"
                           + NEW_SHAPE + " (was 7 recompiles, an entry per text; now 1: "
                           "once the text changed, the loop over its characters runs as "
                           "Python at a break, variables/text_iterators.py)")
def char_count_dict(wrap):
    c = CharCounts()
    f = wrap(c.update)
    return [(f(x, t), snap(c.counts)) for x, t in zip(XS + [X_NEW], TEXTS)]


class PositionOffset:
    """A streaming embedder: ``self.offset`` grows by ``len(ids)``; positions are
    ``np.arange(offset - len(ids), offset)``."""

    def __init__(self):
        self.offset = 0

    def embed(self, ids):
        self.offset += len(ids)
        pos = np.arange(self.offset - len(ids), self.offset)
        return EMB[ids] + 0.01 * pos[:, None]


ID_LISTS = [[(2 * i + j) % 12 for j in range(3)] for i in range(CALLS)] + [[1, 2, 3, 4, 5]]


@program(recompiles=2, why=NUMBER + "; a longer list of ids at the end" + NEW_SHAPE)
def token_position_offsets(wrap):
    p = PositionOffset()
    f = wrap(p.embed)
    return [(f(list(ids)), p.offset) for ids in ID_LISTS]


# ===================================================================== simulations

class Clock:
    """A simulation whose step count (int) and time (float) are attributes."""

    def __init__(self, dt=0.1):
        self.steps, self.t, self.dt = 0, 0.0, dt

    def step(self, x):
        self.steps += 1
        self.t += self.dt
        return x * math.cos(self.t) + self.steps


@program(recompiles=2, why=NUMBER + NEW_SHAPE)
def sim_step_count_and_time(wrap):
    s = Clock()
    f = wrap(s.step)
    return [(f(x), s.steps, s.t) for x in XS + [X_NEW]]


class SpringMass:
    """Semi-implicit Euler of springs; ``dt`` changes per call (adaptive)."""

    def __init__(self, x0):
        self.pos, self.vel, self.time = x0.copy(), np.zeros_like(x0), 0.0

    def step(self, dt):
        self.vel = self.vel - dt * 4.0 * self.pos
        self.pos = self.pos + dt * self.vel
        self.time += dt
        return 0.5 * (self.vel ** 2).sum() + 2.0 * (self.pos ** 2).sum()


@program(recompiles=2, why=NUMBER + NEW_SHAPE)
def spring_mass_adaptive_dt(wrap):
    s = SpringMass(XS[0])
    f = wrap(s.step)
    out = [(f(0.05 + 0.01 * (i % 3)), snap(s.pos), s.time) for i in range(CALLS)]
    s.__init__(X_NEW)
    out.append((f(0.05), snap(s.pos), s.time))
    return out


class LotkaVolterra:
    """Predator-prey populations as arrays, each state copied into a history list."""

    def __init__(self, prey, pred):
        self.prey, self.pred, self.history = prey, pred, []

    def step(self, dt):
        dprey = self.prey * (1.0 - 0.5 * self.pred)
        dpred = self.pred * (0.2 * self.prey - 0.6)
        self.prey = self.prey + dt * dprey
        self.pred = self.pred + dt * dpred
        self.history.append((self.prey.copy(), self.pred.copy()))
        return self.prey.sum() + self.pred.sum()


@program(recompiles=2, why=NUMBER + NEW_SHAPE)
def predator_prey_history(wrap):
    s = LotkaVolterra(np.abs(XS[0]) + 1.0, np.abs(XS[1]) + 0.5)
    f = wrap(s.step)
    out = [(f(0.01 * (1 + i % 2)), len(s.history)) for i in range(CALLS)]
    s.__init__(np.abs(X_NEW) + 1.0, np.abs(X_NEW[::-1]) + 0.5)
    out.append((f(0.01), len(s.history)))
    out.append(snap(s.history))
    return out


class Life:
    """Game of life on a grid with a generation counter; the alive count logged."""

    def __init__(self, n):
        self.grid = (np.arange(n * n).reshape(n, n) * 7 % 3 == 0).astype(np.int64)
        self.generation, self.alive = 0, []

    def step(self):
        g = self.grid
        nb = sum(np.roll(np.roll(g, i, 0), j, 1)
                 for i in (-1, 0, 1) for j in (-1, 0, 1) if (i, j) != (0, 0))
        self.grid = ((nb == 3) | ((g == 1) & (nb == 2))).astype(np.int64)
        self.generation += 1
        self.alive.append(int(self.grid.sum()))
        return self.grid


@program(recompiles=2, why=NUMBER + NEW_SHAPE)
def life_generation_counter(wrap):
    s = Life(6)
    f = wrap(s.step)
    out = [(f(), s.generation, list(s.alive)) for _ in range(CALLS)]
    s.__init__(8)
    out.append((f(), s.generation, list(s.alive)))
    return out


# ===================================================================== training flags

class DropoutMLP:
    """Dropout from the model's own Generator when ``training``; the caller toggles
    ``training`` (eval at calls 4-6)."""

    def __init__(self):
        self.training, self.rng = True, np.random.default_rng(77)

    def forward(self, x):
        h = np.maximum(x, 0.0)
        if self.training:
            h = h * (self.rng.random(h.shape) > 0.3) / 0.7
        return h.sum()


@program(recompiles=3, why=TOGGLED + NEW_SHAPE)
def dropout_training_flag(wrap):
    m = DropoutMLP()
    f = wrap(m.forward)
    out = []
    for i, x in enumerate(XS + [X_NEW]):
        m.training = not 4 <= i <= 6
        out.append((f(x), snap(m.rng.bit_generator.state)))
    return out


class BatchNorm:
    """Batch norm with running stats, a momentum and a ``training`` flag."""

    def __init__(self, d):
        self.training, self.momentum = True, 0.1
        self.running_mean, self.running_var = np.zeros(d), np.ones(d)
        self.num_batches_tracked = 0

    def forward(self, batch):
        if self.training:
            mean, var = batch.mean(axis=0), batch.var(axis=0)
            self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * mean
            self.running_var = (1 - self.momentum) * self.running_var + self.momentum * var
            self.num_batches_tracked += 1
        else:
            mean, var = self.running_mean, self.running_var
        return (batch - mean) / np.sqrt(var + 1e-5)


@program(recompiles=3, why=NUMBER + TOGGLED)
def batchnorm_train_eval_toggle(wrap):
    bn = BatchNorm(5)
    f = wrap(bn.forward)
    out = []
    for i, b in enumerate(BATCHES + [BATCH_NEW]):
        bn.training = i % 5 != 4
        out.append((f(b), snap(bn.running_mean), bn.num_batches_tracked))
    return out


class CachingEncoder:
    """In eval mode the outputs are cached by a call counter (the key an int)."""

    def __init__(self):
        self.training, self.cache, self.calls = True, {}, 0

    def forward(self, x):
        self.calls += 1
        y = np.tanh(x) * 2.0
        if not self.training:
            self.cache[self.calls] = y
        return y


@program(recompiles=3, why=NUMBER + TOGGLED + NEW_SHAPE)
def eval_mode_output_cache(wrap):
    e = CachingEncoder()
    f = wrap(e.forward)
    out = []
    for i, x in enumerate(XS + [X_NEW]):
        e.training = i < 5
        out.append((f(x), snap(e.cache)))
    return out


# ===================================================================== callbacks

class StepCounter:
    def __init__(self):
        self.n = 0

    def on_step(self, loss):
        self.n += 1


class LossLogger:
    def __init__(self):
        self.losses = []

    def on_step(self, loss):
        self.losses.append(loss)


class Trainer:
    """A list of callbacks (bound methods) called after each step."""

    def __init__(self, callbacks):
        self.callbacks, self.w = callbacks, None

    def step(self, x, loss):
        y = np.tanh(x) * loss
        for cb in self.callbacks:
            cb(loss)
        return y


@program(recompiles=2, why=NUMBER + NEW_SHAPE)
def callback_list_bound_methods(wrap):
    counter, logger = StepCounter(), LossLogger()
    t = Trainer([counter.on_step, logger.on_step])
    f = wrap(t.step)
    return [(f(x, loss), counter.n, list(logger.losses))
            for x, loss in zip(XS + [X_NEW], LOSSES)]


class EarlyStop:
    """A callback that sets the trainer's ``stop`` flag once the loss is under 0.75."""

    def __init__(self, trainer):
        self.trainer = trainer

    def on_step(self, loss):
        if loss < 0.75:
            self.trainer.stop = True


class StoppableTrainer:
    def __init__(self):
        self.stop, self.callbacks, self.updates = False, [], 0

    def step(self, x, loss):
        if self.stop:
            return x
        self.updates += 1
        for cb in self.callbacks:
            cb.on_step(loss)
        return x - 0.1 * loss


@program(recompiles=4, why=NUMBER + "; the loss compared and the stop flag (an entry "
                           "per side)" + NEW_SHAPE)
def early_stop_callback_flag(wrap):
    t = StoppableTrainer()
    t.callbacks.append(EarlyStop(t))
    f = wrap(t.step)
    return [(f(x, loss), t.stop, t.updates) for x, loss in zip(XS + [X_NEW], LOSSES)]


class Hooks:
    """Forward hooks in a dict of lists: ``pre`` hooks scale, ``post`` hooks shift; a
    hook is added by the caller at call 5."""

    def __init__(self):
        self.hooks = {"pre": [lambda x: x * 2.0], "post": []}

    def forward(self, x):
        for h in self.hooks["pre"]:
            x = h(x)
        y = np.sin(x)
        for h in self.hooks["post"]:
            y = h(y)
        return y


@program(recompiles=2, why="a hook added (the list's length read)" + NEW_SHAPE)
def forward_hooks_dict(wrap):
    m = Hooks()
    f = wrap(m.forward)
    out = []
    for i, x in enumerate(XS + [X_NEW]):
        if i == 5:
            m.hooks["post"].append(lambda y: y + 1.0)
        out.append(f(x))
    return out


class MeanMetric:
    """A metric's sum and count, reset by the caller every 4 calls."""

    def __init__(self):
        self.total, self.count = 0.0, 0

    def update(self, x):
        self.total += float(x.sum())
        self.count += x.shape[0]
        return self.total / self.count

    def reset(self):
        self.total, self.count = 0.0, 0


@program(recompiles=2, why="float() of data a break; the count a changing int"
                           + NEW_SHAPE)
def metric_sum_count_reset(wrap):
    m = MeanMetric()
    f = wrap(m.update)
    out = []
    for i, x in enumerate(XS + [X_NEW]):
        if i % 4 == 0:
            m.reset()
        out.append((f(x), m.total, m.count))
    return out


class GradAccumulator:
    """Gradients summed over 4 steps, then applied and zeroed: ``k`` an int counter."""

    def __init__(self, w):
        self.w, self.acc, self.k = w.copy(), np.zeros_like(w), 0

    def step(self, g):
        self.acc += g
        self.k += 1
        if self.k == 4:
            self.w -= 0.1 * self.acc / 4
            self.acc[:] = 0.0
            self.k = 0
        return self.w


@program(recompiles=3, why=NUMBER + SIDES + NEW_SHAPE)
def gradient_accumulation_steps(wrap):
    a = GradAccumulator(XS[0])
    f = wrap(a.step)
    out = [(f(g).copy(), a.k, snap(a.acc)) for g in GS]
    a.__init__(X_NEW)
    out.append((f(X_NEW * 0.1).copy(), a.k, snap(a.acc)))
    return out


class BestCheckpoint:
    """The best loss (a Python float) and a copy of the weights at it."""

    def __init__(self):
        self.best, self.best_w, self.saves = math.inf, None, 0

    def step(self, w, loss):
        if loss < self.best:
            self.best, self.best_w = loss, w.copy()
            self.saves += 1
        return w * 0.99


@program(recompiles=4, why=NUMBER + "; the loss compared with the best (an entry per "
                           "side); best_w None -> array" + NEW_SHAPE)
def checkpoint_best_weights(wrap):
    c = BestCheckpoint()
    f = wrap(c.step)
    return [(f(x, loss), c.best, snap(c.best_w), c.saves)
            for x, loss in zip(XS + [X_NEW], LOSSES)]


class RunningGradNorm:
    """A dict of per-layer gradient norms kept as NumPy floats, keyed by layer name."""

    def __init__(self):
        self.norms = {}

    def update(self, grads):
        for name, g in grads.items():
            n = np.sqrt((g * g).sum())
            self.norms[name] = 0.9 * self.norms.get(name, n) + 0.1 * n
        return sum(self.norms.values())


@program(recompiles=2, why="the names present or absent; the norms carried"
                           + NEW_SHAPE)
def grad_norms_by_layer(wrap):
    r = RunningGradNorm()
    f = wrap(r.update)
    out = [(f({"l1": g, "l2": g[:3]}), snap(r.norms)) for g in GS]
    out.append((f({"l1": GS[0][:4], "l2": GS[1]}), snap(r.norms)))
    return out
