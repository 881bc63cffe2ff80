"""The other 20 programs of issue #16's tenth stateful corpus (``stateful_corpus10.py``
holds the first 20 and ``PROGRAMS`` of all 40), written before they were run: particle
filters with resampling, rng-driven agents (an epsilon schedule, a softmax policy,
UCB, Thompson sampling), sliding windows kept in deques (arrays, tuples, a frame
stack, comprehensions over them), replay buffers, environments with a step count and
a done flag, simulation objects, an Elo table, an online AdaGrad learner. Conventions as
there.

Example::

    @program(recompiles=1, why=COUNTER + NEW_SHAPE)
    def boids_flock(wrap):
        b = Boids(5)
        f = wrap(b.step)
        return [(f(x), b.frame) for x in XS]
"""

from __future__ import annotations

import collections
import math

import numpy as np
from stateful_corpus4 import snap
from stateful_corpus10_data import (
    CALLS,
    COUNTER,
    NEW_SHAPE,
    REWARDS,
    SIDES,
    X_NEW,
    XS,
    Z_NEW,
    ZS,
)
from stateful_programs import NUMBER, registrar

PROGRAMS: list = []
program = registrar(PROGRAMS)

DRAWS = "; a scalar draw of the generator is a break (the draws are eager's)"
FILLS = ("; the deque fills to its maxlen (read item by item: one entry that runs "
         "uncompiled until it is full, dynamo/filling_deques.py)")


def _rng_state(rng):   # (the generator's state after the call is compared too)
    return snap(rng.bit_generator.state)


# ===================================================================== particle filters

class ParticleFilter:
    """A bootstrap particle filter: particles move, are weighted by the measurement's
    mean, and are resampled systematically (``np.searchsorted``) every call."""

    def __init__(self, n=64, seed=0):
        self.rng = np.random.default_rng(seed)
        self.p = self.rng.standard_normal(n)
        self.w = np.full(n, 1.0 / n)
        self.t = 0

    def step(self, z):
        self.t += 1
        n = self.p.shape[0]
        self.p = self.p + 0.1 * self.rng.standard_normal(n)
        self.w = self.w * np.exp(-0.5 * (self.p - z.mean()) ** 2 / 0.25)
        self.w = self.w / self.w.sum()
        pos = (self.rng.random() + np.arange(n)) / n
        idx = np.minimum(np.searchsorted(np.cumsum(self.w), pos), n - 1)
        self.p, self.w = self.p[idx], np.full(n, 1.0 / n)
        return z - self.p.mean()


@program(recompiles=1, why=COUNTER + DRAWS + NEW_SHAPE)
def particle_filter_resampling(wrap):
    pf = ParticleFilter()
    f = wrap(pf.step)
    return [(f(z), pf.t, snap(pf.p), _rng_state(pf.rng)) for z in ZS + [Z_NEW]]


class ESSParticleFilter(ParticleFilter):
    """Resamples only when the effective sample size falls under half (a branch on
    the data), by ``rng.choice`` with the weights."""

    def step(self, z):
        self.t += 1
        n = self.p.shape[0]
        self.p = self.p + 0.2 * self.rng.standard_normal(n)
        self.w = self.w * np.exp(-0.5 * (self.p - z.mean()) ** 2)
        self.w = self.w / self.w.sum()
        if 1.0 / (self.w ** 2).sum() < n / 2:
            idx = self.rng.choice(n, n, p=self.w)
            self.p, self.w = self.p[idx], np.full(n, 1.0 / n)
        return (self.w * self.p).sum()


@program(recompiles=2, why=COUNTER + "; the ESS test on the data a break" + NEW_SHAPE)
def particle_filter_ess_resample(wrap):
    pf = ESSParticleFilter(32, seed=1)
    f = wrap(pf.step)
    return [(f(z), pf.t, snap(pf.w), _rng_state(pf.rng)) for z in ZS + [Z_NEW]]


# ===================================================================== agents

class EpsilonAgent:
    """Epsilon-greedy with ``eps = max(eps_min, eps0 * decay ** steps)``, draws from
    the agent's own Generator, a Q vector updated at the action taken."""

    def __init__(self, n=5, seed=3):
        self.rng = np.random.default_rng(seed)
        self.q, self.steps = np.zeros(n), 0
        self.eps0, self.eps_min, self.decay = 1.0, 0.05, 0.7

    def act(self, obs, reward):
        eps = max(self.eps_min, self.eps0 * self.decay ** self.steps)
        self.steps += 1
        if self.rng.random() < eps:
            a = int(self.rng.integers(self.q.shape[0]))
        else:
            a = int(np.argmax(self.q + obs))
        self.q[a] += 0.5 * (reward - self.q[a])
        return a, self.q * eps


@program(recompiles=3, why=COUNTER + DRAWS + "; the explore test an entry per side"
                           + NEW_SHAPE)
def epsilon_schedule_agent(wrap):
    a = EpsilonAgent()
    f = wrap(a.act)
    out = [(f(x, r), a.steps, snap(a.q), _rng_state(a.rng)) for x, r in zip(XS, REWARDS)]
    a.q = np.zeros(7)
    out.append((f(X_NEW, 0.5), a.steps, snap(a.q), _rng_state(a.rng)))
    return out


class SoftmaxPolicy:
    """A Boltzmann policy: ``rng.choice(n, p=softmax(prefs / tau))``, the preferences
    updated by a REINFORCE-style step; tau annealed."""

    def __init__(self, n=5, seed=4):
        self.rng, self.prefs, self.tau = np.random.default_rng(seed), np.zeros(n), 1.0

    def act(self, reward):
        z = self.prefs / self.tau
        p = np.exp(z - z.max())
        p = p / p.sum()
        a = self.rng.choice(p.shape[0], p=p)
        grad = -p
        grad[a] += 1.0
        self.prefs = self.prefs + 0.3 * reward * grad
        self.tau = self.tau * 0.9
        return a, p


@program(recompiles=2, why="tau rescaled by the call" + DRAWS + NEW_SHAPE)
def softmax_policy_agent(wrap):
    s = SoftmaxPolicy()
    f = wrap(s.act)
    out = [(f(r), snap(s.prefs), s.tau, _rng_state(s.rng)) for r in REWARDS[:CALLS]]
    s.prefs = np.zeros(7)
    out.append((f(1.0), snap(s.prefs), s.tau, _rng_state(s.rng)))
    return out


class UCBAgent:
    """UCB1 over arms: ``np.log(self.t)`` of an int counter, counts and values as
    arrays updated at the arm picked by ``np.argmax`` (a graph int)."""

    def __init__(self, n=5):
        self.counts, self.values, self.t = np.zeros(n), np.zeros(n), 0

    def act(self, rewards):
        self.t += 1
        ucb = self.values + 1.5 * np.sqrt(np.log(self.t) / (self.counts + 1e-9))
        a = np.argmax(ucb)
        self.counts[a] += 1
        self.values[a] += (rewards[a] - self.values[a]) / self.counts[a]
        return a


@program(recompiles=1, why=COUNTER + NEW_SHAPE)
def ucb_bandit_agent(wrap):
    u = UCBAgent()
    f = wrap(u.act)
    out = [(f(x), u.t, snap(u.counts), snap(u.values)) for x in XS]
    u.__init__(7)
    out.append((f(X_NEW), u.t, snap(u.counts), snap(u.values)))
    return out


class ThompsonBeta:
    """Thompson sampling for Bernoulli arms: ``rng.beta(alpha, beta)`` of arrays, the
    arm's alpha or beta incremented by the observed outcome."""

    def __init__(self, n=5, seed=5):
        self.rng, self.alpha, self.beta = np.random.default_rng(seed), np.ones(n), np.ones(n)

    def act(self, x):
        theta = self.rng.beta(self.alpha, self.beta)
        a = np.argmax(theta)
        win = x[a] > 0
        self.alpha[a] += win
        self.beta[a] += 1 - win
        return a, theta


@program(recompiles=1, why=NEW_SHAPE)
def thompson_sampling_agent(wrap):
    t = ThompsonBeta()
    f = wrap(t.act)
    out = [(f(x), snap(t.alpha), _rng_state(t.rng)) for x in XS]
    t.alpha, t.beta = np.ones(7), np.ones(7)
    out.append((f(X_NEW), snap(t.alpha), _rng_state(t.rng)))
    return out


# ===================================================================== deque windows

class DequeMean:
    """A sliding window of arrays in a ``deque(maxlen=3)``, averaged by ``np.mean``."""

    def __init__(self):
        self.win = collections.deque(maxlen=3)

    def smooth(self, x):
        self.win.append(x)
        return np.mean(self.win, axis=0)


@program(recompiles=2, why="the window's rows symbolic after the first change" + NEW_SHAPE)
def deque_window_mean(wrap):
    d = DequeMean()
    f = wrap(d.smooth)
    out = [(f(x), len(d.win)) for x in XS]
    d.win.clear()
    out.append((f(X_NEW), len(d.win)))
    return out


class DequeWeighted:
    """A comprehension over a deque of arrays zipped with fixed weights."""

    def __init__(self):
        self.win = collections.deque(maxlen=3)
        self.weights = (0.5, 0.3, 0.2)

    def smooth(self, x):
        self.win.appendleft(x)
        parts = [w * wt for w, wt in zip(self.win, self.weights)]
        return sum(parts) / sum(self.weights[:len(parts)])


@program(recompiles=3, why=FILLS + NEW_SHAPE)
def deque_comprehension_weights(wrap):
    d = DequeWeighted()
    f = wrap(d.smooth)
    out = [(f(x), len(d.win)) for x in XS]
    d.win.clear()
    out.append((f(X_NEW), len(d.win)))
    return out


class DequeTuples:
    """A deque of (observation, reward) tuples: the rewards' mean by a comprehension,
    the observations stacked by another."""

    def __init__(self):
        self.buf = collections.deque(maxlen=4)

    def push(self, x, r):
        self.buf.append((x, r))
        rs = [rr for _, rr in self.buf]
        obs = np.stack([o for o, _ in self.buf])
        return obs.mean(axis=0) * (sum(rs) / len(rs))


@program(recompiles=4, why=FILLS + "; the rewards floats in the tuples" + NEW_SHAPE)
def deque_of_tuples_comprehensions(wrap):
    d = DequeTuples()
    f = wrap(d.push)
    out = [(f(x, r), [r for _, r in d.buf]) for x, r in zip(XS, REWARDS)]
    d.buf.clear()
    out.append((f(X_NEW, 0.5), [r for _, r in d.buf]))
    return out


class FrameStack:
    """Atari-style frame stacking: a ``deque(maxlen=4)`` filled with zeros at reset,
    so its length never changes; the stack concatenated."""

    def __init__(self, n):
        self.frames = collections.deque([np.zeros(n)] * 4, maxlen=4)

    def observe(self, x):
        self.frames.append(x)
        return np.concatenate(list(self.frames))


@program(recompiles=1, why=NEW_SHAPE,
         known=(4, (
                   "[np.zeros(n)] * 4 holds one array four times: the items are "
                   "guarded as one object under two names until the zeros slide out "
                   "(an entry per shift)")))
def frame_stack_deque(wrap):
    s = FrameStack(5)
    f = wrap(s.observe)
    out = [f(x) for x in XS]
    s.__init__(7)
    out.append(f(X_NEW))
    return out


class NStepList:
    """An n-step buffer as a list: ``pop(0)`` past 3, the discounted sum of rewards by a
    generator over ``enumerate``."""

    def __init__(self):
        self.buf = []

    def add(self, x, r):
        self.buf.append(r)
        if len(self.buf) > 3:
            self.buf.pop(0)
        ret = sum(0.9 ** i * rr for i, rr in enumerate(self.buf))
        return x * ret


@program(recompiles=4, why="the list fills to 3 (an entry per length until full); "
                           "len() > 3 an entry per side" + NEW_SHAPE)
def n_step_list_pop_front(wrap):
    n = NStepList()
    f = wrap(n.add)
    return [(f(x, r), list(n.buf)) for x, r in zip(XS + [X_NEW], REWARDS)]


class PrioritizedArrays:
    """Priorities in a preallocated array: a new item gets the max priority so far;
    two indices drawn by ``rng.choice`` with ``p`` over the filled part."""

    def __init__(self, cap=4, seed=6):
        self.rng = np.random.default_rng(seed)
        self.prios, self.data = np.zeros(cap), np.zeros((cap, 5))
        self.pos, self.size, self.cap = 0, 0, cap

    def add(self, x):
        self.prios[self.pos] = max(self.prios.max(), 1e-3)
        self.data[self.pos] = x
        self.pos = (self.pos + 1) % self.cap
        self.size = min(self.size + 1, self.cap)
        p = self.prios[:self.size] / self.prios[:self.size].sum()
        idx = self.rng.choice(self.size, 2, p=p)
        self.prios[idx] = self.prios[idx] * 0.9 + 0.1 * np.abs(x[:2])
        return self.data[idx].sum(axis=0)


@program(recompiles=4, why=NUMBER + "; the size capped (min: an entry per side); "
                           "max() of the data a break" + DRAWS)
def prioritized_replay_arrays(wrap):
    b = PrioritizedArrays()
    f = wrap(b.add)
    return [(f(x), snap(b.prios), b.pos, b.size, _rng_state(b.rng)) for x in XS]


class RandomWalker:
    """An int position moved by ``rng.integers(-1, 2)`` (a scalar draw), kept in a trail
    list, clipped to a track of 5 cells; reads the cell's value from the input."""

    def __init__(self, seed=7):
        self.rng, self.pos, self.trail = np.random.default_rng(seed), 2, []

    def step(self, x):
        self.pos = min(4, max(0, self.pos + int(self.rng.integers(-1, 2))))
        self.trail.append(self.pos)
        return x[self.pos] * x


@program(recompiles=3, why=DRAWS + "; the position a changing int, clipped (an entry "
                           "per side)" + NEW_SHAPE)
def random_walk_trail(wrap):
    w = RandomWalker()
    f = wrap(w.step)
    return [(f(x), list(w.trail), _rng_state(w.rng)) for x in XS + [X_NEW]]


# ===================================================================== environments

class CartPole:
    """Gym's cart-pole dynamics on Python floats (``math.sin``/``math.cos``), a step
    count and a done flag; the action an int the caller alternates."""

    def __init__(self):
        self.state = (0.01, 0.0, 0.02, 0.0)
        self.steps, self.done = 0, False

    def step(self, obs_noise, action):
        x, x_dot, theta, theta_dot = self.state
        force = 10.0 if action == 1 else -10.0
        cos, sin = math.cos(theta), math.sin(theta)
        temp = (force + 0.05 * theta_dot ** 2 * sin) / 1.1
        theta_acc = (9.8 * sin - cos * temp) / (0.5 * (4.0 / 3.0 - 0.1 * cos ** 2 / 1.1))
        x_acc = temp - 0.05 * theta_acc * cos / 1.1
        x, x_dot = x + 0.02 * x_dot, x_dot + 0.02 * x_acc
        theta, theta_dot = theta + 0.02 * theta_dot, theta_dot + 0.02 * theta_acc
        self.state = (x, x_dot, theta, theta_dot)
        self.steps += 1
        self.done = abs(x) > 2.4 or abs(theta) > 0.2095
        return np.array(self.state) + 0.01 * obs_noise[:4]


@program(recompiles=3, why=COUNTER + "; the action selects the force (an entry per "
                           "value); the state's floats" + SIDES + NEW_SHAPE)
def cart_pole_env(wrap):
    env = CartPole()
    f = wrap(env.step)
    return [(f(x, i % 2), env.state, env.steps, env.done)
            for i, x in enumerate(XS + [X_NEW])]


class MassSpring:
    """A damped mass-spring chain as arrays; ``t`` a float advanced by ``dt``."""

    def __init__(self, n, dt=0.05):
        self.x, self.v, self.t, self.dt = np.linspace(-1.0, 1.0, n), np.zeros(n), 0.0, dt

    def step(self, force):
        a = -4.0 * self.x - 0.3 * self.v + force
        self.v = self.v + self.dt * a
        self.x = self.x + self.dt * self.v
        self.t += self.dt
        return self.x * math.exp(-0.1 * self.t)


@program(recompiles=1, why="t a float the call advances: changing from the first trace"
                           + NEW_SHAPE)
def mass_spring_env(wrap):
    m = MassSpring(5)
    f = wrap(m.step)
    out = [(f(x), m.t, snap(m.v)) for x in XS]
    m.__init__(7)
    out.append((f(X_NEW), m.t, snap(m.v)))
    return out


class RK4Integrator:
    """An ODE integrator object: ``self.rhs`` a bound method, RK4 steps, a step count
    and a float time."""

    def __init__(self, y):
        self.y, self.t, self.h, self.n_steps = y.copy(), 0.0, 0.1, 0

    def rhs(self, t, y):
        return -0.5 * y + np.sin(t)

    def advance(self, forcing):
        h, t, y = self.h, self.t, self.y
        k1 = self.rhs(t, y)
        k2 = self.rhs(t + h / 2, y + h / 2 * k1)
        k3 = self.rhs(t + h / 2, y + h / 2 * k2)
        k4 = self.rhs(t + h, y + h * k3)
        self.y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4) + 0.01 * forcing
        self.t += h
        self.n_steps += 1
        return self.y


@program(recompiles=1, why=COUNTER + NEW_SHAPE)
def rk4_integrator_object(wrap):
    r = RK4Integrator(XS[0])
    f = wrap(r.advance)
    out = [(f(x), r.t, r.n_steps) for x in XS]
    r.__init__(X_NEW)
    out.append((f(X_NEW), r.t, r.n_steps))
    return out


class Boids:
    """Boids in 2-D: cohesion, alignment and separation by means, speed capped by
    ``np.clip`` of the norms; the frame count stepped."""

    def __init__(self, n, seed=8):
        rng = np.random.default_rng(seed)
        self.pos, self.vel, self.frame = rng.standard_normal((n, 2)), rng.standard_normal((n, 2)), 0

    def step(self, wind):
        center = self.pos.mean(axis=0)
        avg_vel = self.vel.mean(axis=0)
        diff = self.pos[:, None, :] - self.pos[None, :, :]
        dist2 = (diff ** 2).sum(axis=2) + np.eye(self.pos.shape[0])
        sep = (diff / dist2[:, :, None]).sum(axis=1)
        self.vel = self.vel + 0.01 * (center - self.pos) + 0.05 * (avg_vel - self.vel) \
            + 0.02 * sep + 0.01 * wind[:2]
        speed = np.linalg.norm(self.vel, axis=1, keepdims=True)
        self.vel = self.vel * np.clip(speed, 0.0, 2.0) / (speed + 1e-12)
        self.pos = self.pos + 0.1 * self.vel
        self.frame += 1
        return self.pos


@program(recompiles=1, why=COUNTER + NEW_SHAPE)
def boids_flock(wrap):
    b = Boids(5)
    f = wrap(b.step)
    out = [(f(x), b.frame) for x in XS]
    b.__init__(7)
    out.append((f(X_NEW), b.frame))
    return out


class SIRInterventions:
    """SIR by compartments per region (arrays); the contact rate cut from the day a
    lockdown starts (``self.day >= self.lockdown``)."""

    def __init__(self, n):
        self.s, self.i, self.r = np.full(n, 0.99), np.full(n, 0.01), np.zeros(n)
        self.day, self.lockdown = 0, 4

    def step(self, noise):
        beta = 0.4 if self.day < self.lockdown else 0.15
        new_inf = beta * self.s * self.i * (1 + 0.01 * noise)
        new_rec = 0.1 * self.i
        self.s, self.i, self.r = self.s - new_inf, self.i + new_inf - new_rec, self.r + new_rec
        self.day += 1
        return self.i


@program(recompiles=2, why=COUNTER + SIDES + " (before and after the lockdown)" + NEW_SHAPE)
def sir_interventions(wrap):
    m = SIRInterventions(5)
    f = wrap(m.step)
    out = [(f(x), m.day, snap(m.i)) for x in XS]
    m.__init__(7)
    out.append((f(X_NEW), m.day, snap(m.i)))
    return out


# ===================================================================== tables, learners

class EloTable:
    """Elo ratings in a dict keyed by player names; each call plays one game."""

    def __init__(self):
        self.ratings = {"ann": 1500.0, "bob": 1500.0, "cy": 1500.0}
        self.games = 0

    def play(self, x, a, b, score):
        ra, rb = self.ratings[a], self.ratings[b]
        ea = 1.0 / (1.0 + 10 ** ((rb - ra) / 400.0))
        self.ratings[a] = ra + 16.0 * (score - ea)
        self.ratings[b] = rb - 16.0 * (score - ea)
        self.games += 1
        return x * ea


@program(recompiles=4, why="the names strings the caller picks: an entry per pair (a "
                           "guard that must stay)" + NEW_SHAPE)
def elo_rating_table(wrap):
    e = EloTable()
    f = wrap(e.play)
    pairs = [("ann", "bob"), ("bob", "cy"), ("ann", "cy")]
    return [(f(x, *pairs[i % 3], float(i % 2)), dict(e.ratings), e.games)
            for i, x in enumerate(XS + [X_NEW])]


class AdaGradLogistic:
    """Online logistic regression by AdaGrad: squared gradients accumulated, a step
    counter, the loss appended as a NumPy float."""

    def __init__(self, n):
        self.w, self.G, self.t, self.losses = np.zeros(n), np.full(n, 1e-8), 0, []

    def update(self, x, y):
        p = 1.0 / (1.0 + np.exp(-(x @ self.w)))
        g = (p - y) * x
        self.G = self.G + g * g
        self.w = self.w - 0.5 / np.sqrt(self.G) * g
        self.t += 1
        self.losses.append(-(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12)))
        return p


@program(recompiles=1, why=COUNTER + NEW_SHAPE,
         known=(2, (
                   "the label argument y (0.0, then 1.0): its first change")))
def adagrad_logistic_online(wrap):
    m = AdaGradLogistic(5)
    f = wrap(m.update)
    out = [(f(x, float(i % 2)), snap(m.w), m.t) for i, x in enumerate(XS)]
    m.__init__(7)
    out.append((f(X_NEW, 1.0), snap(m.w), m.t))
    return out

