"""The other 13 programs of issue #16's eleventh stateful corpus
(``stateful_corpus11.py`` holds the first 13 and ``PROGRAMS`` of all 26), written
before they were run: RL agents (a Q-table with an epsilon decayed by step, SARSA(lambda)
traces, a REINFORCE episode list cleared at episode ends, a list replay buffer with a
capacity), simulation objects with a step counter and an event log (bouncing
particles, a service queue, an event heap, heat diffusion with snapshots, predator-prey), early
stopping that keeps the best weights, and metric trackers (floats appended, EMAs of
named metrics, a growing score list ranked each call). Conventions as there.

Example::

    @program(recompiles=1, why=COUNTER)
    def heat_diffusion_snapshots(wrap):
        h = HeatRod()
        f = wrap(h.step)
        return [(f(x), h.step_count, sorted(h.snaps)) for x in XS]
"""

from __future__ import annotations

import heapq

import numpy as np
from stateful_corpus4 import snap
from stateful_corpus11_data import COUNTER, LOSSES, REWARDS, SIDES, XS
from stateful_programs import NUMBER, registrar

PROGRAMS: list = []
program = registrar(PROGRAMS)

DRAWS = "; a scalar draw of the generator is a break (the draws are eager's)"


def _rng_state(rng):   # (the generator's state after the call is compared too)
    return snap(rng.bit_generator.state)


# ===================================================================== RL agents

class QTableAgent:
    """Tabular Q-learning on 4 states x 3 actions: epsilon ``max(0.05, 0.8 ** step)``,
    the action greedy or drawn; the state an int attribute the call moves."""

    def __init__(self, seed=1):
        self.Q, self.s, self.step = np.zeros((4, 3)), 0, 0
        self.rng = np.random.default_rng(seed)

    def act_and_learn(self, obs, reward):
        self.step += 1
        eps = max(0.05, 0.8 ** self.step)
        if self.rng.random() < eps:
            a = int(self.rng.integers(3))
        else:
            a = int(np.argmax(self.Q[self.s]))
        s2 = int(np.argmax(obs[:4]))
        target = reward + 0.9 * self.Q[s2].max()
        self.Q[self.s, a] += 0.5 * (target - self.Q[self.s, a])
        self.s = s2
        return a


@program(recompiles=3, why=COUNTER + DRAWS + "; the state and action ints index the "
                           "table (an entry per side of the draw)")
def q_table_epsilon_decay(wrap):
    ag = QTableAgent()
    f = wrap(ag.act_and_learn)
    return [(f(x, r), ag.s, snap(ag.Q), _rng_state(ag.rng)) for x, r in zip(XS, REWARDS)]


class SarsaLambda:
    """SARSA(lambda) with linear features: an eligibility trace array decayed and
    bumped by the features each call; the previous features kept (None first)."""

    def __init__(self, n=6, gamma=0.9, lam=0.8, alpha=0.1):
        self.w, self.e = np.zeros(n), np.zeros(n)
        self.gamma, self.lam, self.alpha, self.prev = gamma, lam, alpha, None

    def learn(self, phi, reward):
        if self.prev is not None:
            delta = reward + self.gamma * self.w @ phi - self.w @ self.prev
            self.w = self.w + self.alpha * delta * self.e
        self.e = self.gamma * self.lam * self.e + phi
        self.prev = phi
        return self.w @ phi


@program(recompiles=2, why="prev None -> array (an entry per type); " + NUMBER)
def sarsa_lambda_traces(wrap):
    ag = SarsaLambda()
    f = wrap(ag.learn)
    return [(f(x, r), snap(ag.w), snap(ag.e)) for x, r in zip(XS, REWARDS)]


class Reinforce:
    """REINFORCE: each call appends (features, reward) to the episode list; every 4th
    call ends the episode: discounted returns over it update the weights, the list is
    cleared in place (``.clear()``) and the episode count stepped."""

    def __init__(self, n=6):
        self.theta, self.episode, self.episodes, self.t = np.zeros(n), [], 0, 0

    def observe(self, phi, reward):
        self.episode.append((phi, reward))
        self.t += 1
        if self.t % 4 == 0:
            G = 0.0
            for phi_i, r_i in reversed(self.episode):
                G = r_i + 0.9 * G
                self.theta = self.theta + 0.01 * G * phi_i
            self.episode.clear()
            self.episodes += 1
        return np.tanh(self.theta @ phi)


@program(recompiles=4, why=COUNTER + SIDES + " (the episode's end); the episode list "
                           "read whole at its end (an entry per length)")
def reinforce_episode_list(wrap):
    ag = Reinforce()
    f = wrap(ag.observe)
    ep = ag.episode
    return [(f(x, r), snap(ag.theta), len(ag.episode), ag.episodes, ag.episode is ep)
            for x, r in zip(XS, REWARDS)]


class ListReplay:
    """A replay buffer as a list with a capacity (``pop(0)`` past it); the call stores
    its transition, then averages the features of the last two stored."""

    def __init__(self, capacity=4):
        self.buf, self.capacity, self.pushed = [], capacity, 0

    def push_and_mix(self, x, r):
        self.buf.append((x, r))
        self.pushed += 1
        if len(self.buf) > self.capacity:
            self.buf.pop(0)
        last = self.buf[-2:]
        return sum(xi * ri for xi, ri in last) / len(last)


@program(recompiles=3, why="the buffer's length read (it fills to its capacity): an "
                           "entry per length until full; " + NUMBER)
def replay_list_capacity(wrap):
    rb = ListReplay()
    f = wrap(rb.push_and_mix)
    buf = rb.buf
    return [(f(x, r), len(rb.buf), rb.pushed, rb.buf is buf) for x, r in zip(XS, REWARDS)]


# ===================================================================== simulations

class BouncingParticles:
    """Particles in [-1, 1] that bounce off the walls; every step logs
    ``(step, bounces)`` with ``int`` of the count (a value read back)."""

    def __init__(self):
        self.pos = np.linspace(-0.9, 0.9, 6)
        self.step_count, self.events = 0, []

    def step(self, vel):
        self.pos = self.pos + 0.3 * vel
        hit = np.abs(self.pos) > 1.0
        self.pos = np.where(hit, np.sign(self.pos) * 2.0 - self.pos, self.pos)
        self.step_count += 1
        self.events.append((self.step_count, int(hit.sum())))
        return self.pos


@program(recompiles=1, why=COUNTER + "; int() of the data a break")
def bouncing_particles_event_log(wrap):
    s = BouncingParticles()
    f = wrap(s.step)
    ev = s.events
    return [(f(x), list(s.events), s.events is ev) for x in XS]


class ServiceQueue:
    """A discrete-time queue: arrivals from the input, a fixed service rate; the queue
    length a Python float (``max(0.0, ...)``), events logged as strings when long."""

    def __init__(self, rate=2.5):
        self.q, self.rate, self.t, self.log = 0.0, rate, 0, []

    def tick(self, x):
        arrivals = float(np.abs(x).sum())
        self.q = max(0.0, self.q + arrivals - self.rate)
        self.t += 1
        if self.q > 3.0:
            self.log.append(f"t={self.t} long queue {self.q:.2f}")
        return x * (1.0 / (1.0 + self.q))


@program(recompiles=2, why="float() of the data a break; q a float the call "
                           "recomputes; " + COUNTER)
def service_queue_string_log(wrap):
    s = ServiceQueue()
    f = wrap(s.tick)
    return [(f(x), s.q, s.t, list(s.log)) for x in XS]


class EventHeap:
    """A discrete-event simulation: a ``heapq`` of (time, kind) events; each call
    advances the float clock by 1.0, fires the events due (logged), schedules the
    next ones, and applies a gain per event fired."""

    def __init__(self):
        self.clock, self.heap, self.fired = 0.0, [(0.5, "a"), (1.5, "b")], []

    def advance(self, x):
        self.clock += 1.0
        gain = 1.0
        while self.heap and self.heap[0][0] <= self.clock:
            t, kind = heapq.heappop(self.heap)
            self.fired.append((t, kind))
            gain *= 1.1 if kind == "a" else 0.9
            heapq.heappush(self.heap, (t + (1.5 if kind == "a" else 2.5), kind))
        return x * gain


@program(recompiles=3, why="the heap's (time, kind) tuples read by value and the "
                           "events due decide the loop: an entry per pattern of events")
def event_heap_simulation(wrap):
    s = EventHeap()
    f = wrap(s.advance)
    fired = s.fired
    return [(f(x), s.clock, list(s.heap), list(s.fired), s.fired is fired) for x in XS]


class HeatRod:
    """Explicit heat diffusion on a rod with a source from the input; a float clock
    ``t += dt`` and a dict of snapshots every third step keyed by the step."""

    def __init__(self):
        self.u, self.t, self.step_count, self.snaps = np.zeros(6), 0.0, 0, {}

    def step(self, src):
        lap = np.zeros_like(self.u)
        lap[1:-1] = self.u[2:] - 2 * self.u[1:-1] + self.u[:-2]
        self.u = self.u + 0.2 * lap + 0.05 * src
        self.t += 0.01
        self.step_count += 1
        if self.step_count % 3 == 0:
            self.snaps[self.step_count] = self.u.copy()
        return self.u


@program(recompiles=2, why=COUNTER + SIDES + " (a snapshot step or not); the float "
                           "clock changing from the first trace")
def heat_diffusion_snapshots(wrap):
    h = HeatRod()
    f = wrap(h.step)
    snaps = h.snaps
    return [(f(x), h.t, h.step_count, snap(h.snaps), h.snaps is snaps) for x in XS]


class PredatorPrey:
    """Lotka-Volterra populations per patch (arrays), a day counter, and a history of
    Python float totals (``float(self.prey.sum())``)."""

    def __init__(self):
        self.prey, self.pred = np.full(6, 2.0), np.full(6, 1.0)
        self.day, self.history = 0, []

    def step(self, noise):
        dprey = self.prey * (1.0 - 0.5 * self.pred)
        dpred = self.pred * (0.3 * self.prey - 0.8)
        self.prey = np.maximum(self.prey + 0.1 * dprey + 0.01 * noise, 0.0)
        self.pred = np.maximum(self.pred + 0.1 * dpred, 0.0)
        self.day += 1
        self.history.append((self.day, float(self.prey.sum()), float(self.pred.sum())))
        return self.prey / (self.prey + self.pred)


@program(recompiles=1, why=COUNTER + "; float() of the data a break")
def predator_prey_history(wrap):
    m = PredatorPrey()
    f = wrap(m.step)
    return [(f(x), m.day, list(m.history)) for x in XS]


# ===================================================================== early stopping, metrics

class BestWeightsStopper:
    """Early stopping on a validation loss computed from arrays (a NumPy scalar, never
    ``float()``): the best weights copied, a patience counter, a stop flag."""

    def __init__(self, patience=2):
        self.best, self.best_w, self.bad, self.patience, self.stop = np.inf, None, 0, \
            patience, False

    def check(self, w, target):
        loss = ((w - target) ** 2).mean()
        if loss < self.best:
            self.best, self.best_w, self.bad = loss, w.copy(), 0
        else:
            self.bad += 1
            self.stop = self.bad >= self.patience
        return loss


@program(recompiles=4, why=SIDES + " (improved or not, stopped or not); best inf -> "
                           "np.float64, best_w None -> array (an entry per type)")
def early_stop_best_weights(wrap):
    es = BestWeightsStopper()
    f = wrap(es.check)
    t = XS[0] * 0.5
    ws = [XS[0] * (0.9 ** k) if k % 3 else XS[k] for k in range(len(XS))]
    return [(f(w, t), es.best, snap(es.best_w), es.bad, es.stop) for w in ws]


class MetricTracker:
    """A tracker appending Python floats (``float()`` of NumPy scalars) per metric name
    and keeping the best loss with ``min``."""

    def __init__(self):
        self.history, self.best = {"loss": [], "acc": []}, float("inf")

    def log(self, pred, y):
        loss = float(((pred - y) ** 2).mean())
        acc = float((np.sign(pred) == np.sign(y)).mean())
        self.history["loss"].append(loss)
        self.history["acc"].append(acc)
        self.best = min(self.best, loss)
        return pred - y


@program(recompiles=2, why="float() of the data a break; best a float min() keeps "
                           "(an entry per side)")
def metric_tracker_floats(wrap):
    m = MetricTracker()
    f = wrap(m.log)
    hist = m.history
    return [(f(x, 0.5 * x + 0.1), snap(m.history), m.best, m.history is hist) for x in XS]


class NamedEMAs:
    """EMAs of named metrics passed as Python float arguments; the dict of floats is
    updated in place and the EMA of the loss scales the call's array."""

    def __init__(self):
        self.ema, self.n = {"loss": 0.0, "reward": 0.0}, 0

    def update(self, x, loss, reward):
        self.n += 1
        for k, v in (("loss", loss), ("reward", reward)):
            self.ema[k] = 0.8 * self.ema[k] + 0.2 * v
        return x * self.ema["loss"] / (1 - 0.8 ** self.n)


@program(recompiles=2, why=NUMBER + "; " + COUNTER)
def named_ema_floats(wrap):
    m = NamedEMAs()
    f = wrap(m.update)
    ema = m.ema
    return [(f(x, loss, r), dict(m.ema), m.ema is ema)
            for x, loss, r in zip(XS, LOSSES, REWARDS)]


class RankTracker:
    """Scores appended to a list each call and concatenated (it grows): the call's
    scores ranked against every score seen (``np.searchsorted`` on the sorted pool)."""

    def __init__(self):
        self.scores = []

    def rank(self, s):
        self.scores.append(s)
        pool = np.sort(np.concatenate(self.scores))
        return np.searchsorted(pool, s) / pool.shape[0]


@program(recompiles=2, why="a growing list concatenated: its length symbolic after "
                           "the first change")
def rank_tracker_growing_pool(wrap):
    r = RankTracker()
    f = wrap(r.rank)
    sc = r.scores
    return [(f(x), len(r.scores), r.scores is sc) for x in XS]
