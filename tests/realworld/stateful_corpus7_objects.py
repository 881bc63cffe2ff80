"""The other 20 programs of issue #16's seventh stateful corpus (``stateful_corpus7.py``
holds the first 20 and ``PROGRAMS`` of all 40), written before they were run: event
logs, token lists, particles with object state, RL-style replay buffers and epsilon
schedules, simulations with step counters. Conventions as there: ``CALLS`` calls with
the same shapes and changing values, each call's result and a copy of the state after
it compared with plain Python's.

Example::

    @program(recompiles=1, why=NUMBER)
    def event_log_tuples(wrap):
        t = Trainer()
        f = wrap(t.step)
        return [(f(XS[i], LOSSES[i]), snap(t.events)) for i in range(CALLS)]
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
KEYED = NUMBER + "; a key looked up is guarded present or absent (an entry per side)"
EMB = np.random.default_rng(4700).standard_normal((10, 5)) * 0.5


# ===================================================================== event logs

class EventTrainer:
    """``self.events.append(("step", self.step, loss))``: a log of tuples, only written."""

    def __init__(self):
        self.events, self.step = [], 0

    def step_fn(self, x, loss):
        self.step += 1
        self.events.append(("step", self.step, loss))
        return x * loss


@program(recompiles=1, why=NUMBER)
def event_log_tuples(wrap):
    t = EventTrainer()
    f = wrap(t.step_fn)
    return [(f(XS[i], LOSSES[i]), snap(t.events)) for i in range(CALLS)]


class MetricLog:
    """``self.log.setdefault(name, []).append(value)`` for two metrics."""

    def __init__(self):
        self.log = {}

    def record(self, x, loss):
        self.log.setdefault("loss", []).append(loss)
        self.log.setdefault("lr", []).append(0.1 / len(self.log["loss"]))
        return x - loss


@program(recompiles=1, why=NUMBER,
         known=(2, (
                   "two changing numbers change first at different calls (the loss at "
                   "call 1, len(self.log['loss']) at call 2): one recompile each")))
def metric_log_setdefault(wrap):
    m = MetricLog()
    f = wrap(m.record)
    return [(f(XS[i], LOSSES[i]), snap(m.log)) for i in range(CALLS)]


class EveryNthLog:
    """Logs every third step (``if self.step % 3 == 0``), keeps the arrays it logged."""

    def __init__(self):
        self.step, self.logged = 0, []

    def step_fn(self, x):
        y = np.tanh(x)
        if self.step % 3 == 0:
            self.logged.append((self.step, y.sum()))
        self.step += 1
        return y


@program(recompiles=3, why=NUMBER + "; step % 3 == 0 decides a branch (an entry per side)")
def log_every_third_step(wrap):
    e = EveryNthLog()
    f = wrap(e.step_fn)
    return [(f(XS[i]), snap(e.logged)) for i in range(CALLS)]


class DequeLog:
    """A ``deque(maxlen=4)`` of recent losses and their running mean."""

    def __init__(self):
        self.recent = collections.deque(maxlen=4)

    def record(self, x, loss):
        self.recent.append(loss)
        return x * (sum(self.recent) / len(self.recent))


@program(recompiles=2, why=NUMBER + "; the deque's length grows to 4, then stays")
def deque_recent_losses(wrap):
    d = DequeLog()
    f = wrap(d.record)
    return [(f(XS[i], LOSSES[i]), list(d.recent)) for i in range(CALLS)]


# ===================================================================== token lists

def next_token_logits(tokens, emb):
    """A bag-of-embeddings LM step: ``emb[tokens]`` of a growing list of ints."""
    h = emb[tokens].mean(axis=0)
    return emb @ h


@program(recompiles=1, why="the list of tokens grows: a symbolic length after one change")
def greedy_decode_token_list(wrap):
    f = wrap(next_token_logits)
    out = []
    for prompt in ([1, 2], [3, 4]):
        tokens = list(prompt)
        for _ in range(CALLS // 2):
            logits = f(tokens, EMB)
            tokens.append(int(np.argmax(logits)))
            out.append((logits, list(tokens)))
    return out


class Vocab:
    """A growing vocabulary: unseen token ids get the next index, ids mapped to it."""

    def __init__(self):
        self.index = {}

    def encode(self, ids, x):
        for t in ids:
            if t not in self.index:
                self.index[t] = len(self.index)
        return x * len(self.index), [self.index[t] for t in ids]


@program(recompiles=3, why=KEYED,
         known=(4, (
                   "each id looked up is guarded present or absent: an entry per "
                   "combination of the two ids' sides, until the 7 ids are all known")))
def vocab_builder(wrap):
    v = Vocab()
    f = wrap(v.encode)
    return [(f([i % 7, (3 * i) % 7], XS[i]), snap(v.index)) for i in range(CALLS)]


class ContextWindow:
    """A token list appended each call and its last 3 tokens embedded (``ids[-3:]``)."""

    def __init__(self):
        self.ids = []

    def step(self, tok):
        self.ids.append(tok)
        ctx = self.ids[-3:]
        return EMB[ctx].sum(axis=0)


@program(recompiles=2, why="the window grows to 3, then stays: its tokens are data")
def context_window_tokens(wrap):
    c = ContextWindow()
    f = wrap(c.step)
    return [(f((3 * i + 1) % 10), list(c.ids)) for i in range(CALLS)]


class TokenCounts:
    """``collections.Counter.update(ids)`` and the most common count scaling x."""

    def __init__(self):
        self.freq = collections.Counter()

    def observe(self, ids, x):
        self.freq.update(ids)
        return x * self.freq[ids[0]]


@program(recompiles=2, why=KEYED)
def token_counter_update(wrap):
    t = TokenCounts()
    f = wrap(t.observe)
    return [(f([i % 4, i % 3], XS[i]), dict(t.freq)) for i in range(CALLS)]


# ===================================================================== particles

class Particle:
    def __init__(self, pos, vel):
        self.pos, self.vel, self.age = pos, vel, 0


class ParticleSystem:
    """A list of Particle objects, each moved by gravity and aged by one."""

    def __init__(self):
        self.particles = [Particle(np.full(2, float(i)), np.zeros(2)) for i in range(3)]

    def step(self, dt):
        for p in self.particles:
            p.vel = p.vel + dt * np.array([0.0, -9.8])
            p.pos = p.pos + dt * p.vel
            p.age += 1
        return np.stack([p.pos for p in self.particles])


def _state(system):
    return [(p.pos.copy(), p.vel.copy(), p.age) for p in system.particles]


@program(recompiles=1, why=NUMBER)
def particles_gravity(wrap):
    s = ParticleSystem()
    f = wrap(s.step)
    return [(f(0.01 * (1 + i % 3)), _state(s)) for i in range(CALLS)]


class Emitter:
    """Particles spawned one per call, removed past age 4 (a list rebuilt by a filter)."""

    def __init__(self):
        self.particles = []

    def step(self, x):
        self.particles.append(Particle(x[:2].copy(), x[2:4].copy()))
        for p in self.particles:
            p.pos = p.pos + 0.1 * p.vel
            p.age += 1
        self.particles = [p for p in self.particles if p.age <= 4]
        return sum(p.pos for p in self.particles)


@program(recompiles=4, why="the list of objects grows to 4 then stays (its length)")
def particle_emitter_lifetimes(wrap):
    s = Emitter()
    f = wrap(s.step)
    return [(f(XS[i]), _state(s)) for i in range(CALLS)]


class Swarm:
    """A particle swarm (PSO) with personal bests as arrays and a global best float."""

    def __init__(self):
        rng = np.random.default_rng(4701)
        self.x, self.v = rng.standard_normal((6, 5)), np.zeros((6, 5))
        self.pbest, self.pbest_f = self.x.copy(), np.full(6, np.inf)
        self.gbest, self.it = self.x[0].copy(), 0

    def step(self, target):
        f = ((self.x - target) ** 2).sum(axis=1)
        better = f < self.pbest_f
        self.pbest[better] = self.x[better]
        self.pbest_f = np.where(better, f, self.pbest_f)
        self.gbest = self.pbest[np.argmin(self.pbest_f)]
        w = 0.9 - 0.05 * self.it
        self.v = w * self.v + 0.5 * (self.pbest - self.x) + 0.5 * (self.gbest - self.x)
        self.x = self.x + self.v
        self.it += 1
        return self.pbest_f.min()


@program(recompiles=1, why=NUMBER)
def particle_swarm_optimizer(wrap):
    s = Swarm()
    f = wrap(s.step)
    return [(f(XS[0] * 0.1), s.gbest.copy(), s.it) for _ in range(CALLS)]


class Charged:
    """Particles with a float ``energy`` attribute decayed in place (``*= 0.9``)."""

    def __init__(self):
        self.items = [Particle(np.zeros(5), np.ones(5)) for _ in range(2)]
        for p in self.items:
            p.energy = 1.0

    def step(self, x):
        total = np.zeros(5)
        for p in self.items:
            p.energy *= 0.9
            p.pos = p.pos + p.energy * x
            total = total + p.pos
        return total


@program(recompiles=1, why=NUMBER)
def particle_energy_decay(wrap):
    s = Charged()
    f = wrap(s.step)
    return [(f(XS[i]), [(p.energy, p.pos.copy()) for p in s.items]) for i in range(CALLS)]


# ===================================================================== RL

class RingReplay:
    """A replay buffer of 4 slots written at ``self.pos``, ``pos = (pos + 1) % 4``."""

    def __init__(self):
        self.buf, self.pos, self.size = [None] * 4, 0, 0

    def add(self, obs, reward):
        self.buf[self.pos] = (obs.copy(), reward)
        self.pos = (self.pos + 1) % 4
        self.size = min(self.size + 1, 4)
        return obs * reward


@program(recompiles=1, why=NUMBER,
         known=(2, (
                   "min(self.size + 1, 4) compares a changing int: an entry per side "
                   "(not full, then full), besides the reward's first change")))
def ring_replay_buffer(wrap):
    r = RingReplay()
    f = wrap(r.add)
    return [(f(XS[i], LOSSES[i]), snap(r.buf), r.size) for i in range(CALLS)]


class ListReplay:
    """A list buffer of 5 transitions with ``pop(0)`` when full, a batch mean sampled."""

    def __init__(self):
        self.buf = []

    def push(self, obs, reward):
        self.buf.append((obs, reward))
        if len(self.buf) > 5:
            self.buf.pop(0)
        return sum(r for _, r in self.buf) / len(self.buf)


@program(recompiles=2, why="the list grows to 5, then stays full",
         known=(5, (
                   "sum(r for _, r in self.buf) iterates the list: read whole, guarded "
                   "by its length, an entry per length until it is full (5). 6 before "
                   "the rewards of a list whose length changes were changing numbers "
                   "from the first read (builder._unread_list)")))
def list_replay_pop_front(wrap):
    r = ListReplay()
    f = wrap(r.push)
    return [(f(XS[i], LOSSES[i]), len(r.buf)) for i in range(CALLS)]


class EpsilonGreedy:
    """Epsilon decays each call (``max(0.05, eps * 0.8)``); a seeded ``random.Random``
    explores, else ``int(np.argmax(q))`` exploits."""

    def __init__(self):
        self.eps, self.rng, self.actions = 1.0, random.Random(3), []

    def act(self, q):
        if self.rng.random() < self.eps:
            a = self.rng.randrange(5)
        else:
            a = int(np.argmax(q))
        self.eps = max(0.05, self.eps * 0.8)
        self.actions.append(a)
        return a


@program(recompiles=2, why=NUMBER + "; explore or exploit decides a branch")
def epsilon_greedy_actions(wrap):
    e = EpsilonGreedy()
    f = wrap(e.act)
    return [(f(XS[i]), e.eps, list(e.actions)) for i in range(CALLS)]


class QTable:
    """Tabular Q-learning: ``q[s, a] += alpha * (r + gamma * q[s2].max() - q[s, a])``."""

    def __init__(self):
        self.q, self.updates = np.zeros((4, 3)), 0

    def update(self, s, a, r, s2):
        td = r + 0.9 * self.q[s2].max() - self.q[s, a]
        self.q[s, a] += 0.5 * td
        self.updates += 1
        return td


@program(recompiles=1, why=NUMBER)
def q_learning_table(wrap):
    t = QTable()
    f = wrap(t.update)
    return [(f(i % 4, i % 3, LOSSES[i], (i + 1) % 4), t.q.copy(), t.updates)
            for i in range(CALLS)]


# ===================================================================== simulations

class Heat1D:
    """Explicit heat diffusion, a snapshot kept every 4 steps (a step counter)."""

    def __init__(self):
        self.u, self.t, self.snaps = np.zeros(8), 0, []
        self.u[4] = 1.0

    def step(self, alpha):
        u = self.u
        self.u = u + alpha * (np.roll(u, 1) - 2 * u + np.roll(u, -1))
        self.t += 1
        if self.t % 4 == 0:
            self.snaps.append(self.u.copy())
        return self.u.sum()


@program(recompiles=3, why=NUMBER + "; t % 4 == 0 decides a branch (an entry per side)")
def heat_snapshots(wrap):
    h = Heat1D()
    f = wrap(h.step)
    return [(f(0.1 + 0.01 * (i % 2)), h.t, snap(h.snaps)) for i in range(CALLS)]


class SIR:
    """An SIR epidemic: float time ``t += dt`` and a history of (t, infected)."""

    def __init__(self):
        self.y, self.t, self.history = np.array([0.99, 0.01, 0.0]), 0.0, []

    def step(self, beta, dt):
        s, i, r = self.y
        new_inf, new_rec = beta * s * i * dt, 0.1 * i * dt
        self.y = self.y + np.array([-new_inf, new_inf - new_rec, new_rec])
        self.t += dt
        self.history.append((self.t, self.y[1]))
        return self.y


@program(recompiles=1, why=NUMBER)
def sir_with_float_time(wrap):
    m = SIR()
    f = wrap(m.step)
    return [(f(0.3 + 0.01 * i, 0.5), m.t, snap(m.history)) for i in range(CALLS)]


class RandomWalk:
    """A walk with a seeded Generator attribute and a step counter."""

    def __init__(self):
        self.rng, self.pos, self.steps = np.random.default_rng(4702), np.zeros(2), 0

    def step(self, scale):
        self.pos = self.pos + scale * self.rng.standard_normal(2)
        self.steps += 1
        return np.linalg.norm(self.pos) / self.steps


@program(recompiles=1, why=NUMBER)
def random_walk_generator(wrap):
    w = RandomWalk()
    f = wrap(w.step)
    return [(f(1.0 + 0.1 * (i % 3)), w.pos.copy(), w.steps) for i in range(CALLS)]


class Orbit:
    """Leapfrog integration of a body around the origin; energy drift logged per call."""

    def __init__(self):
        self.q, self.p, self.n, self.energies = np.array([1.0, 0.0]), np.array([0.0, 1.0]), 0, []

    def step(self, dt, substeps):
        for _ in range(substeps):
            r = np.linalg.norm(self.q)
            self.p = self.p - 0.5 * dt * self.q / r ** 3
            self.q = self.q + dt * self.p
            r = np.linalg.norm(self.q)
            self.p = self.p - 0.5 * dt * self.q / r ** 3
            self.n += 1
        e = 0.5 * self.p @ self.p - 1.0 / np.linalg.norm(self.q)
        self.energies.append(e)
        return self.q


@program(recompiles=2, why=NUMBER + "; substeps a loop's trip count (2 values)")
def leapfrog_orbit(wrap):
    o = Orbit()
    f = wrap(o.step)
    return [(f(0.05, 2 + i % 2), o.n, snap(o.energies)) for i in range(CALLS)]
