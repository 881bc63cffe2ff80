"""Issue #16's tenth stateful corpus, written before it was run: 40 programs of the
stateful kinds corpora 1-9 lack. This file holds 20: trackers and filters (an EMA
tracker object, Kalman filters, an alpha-beta tracker), controllers (PID, with
anti-windup and a derivative filter), training monitors (early stopping with patience
and a min delta, an LR finder, SWA, Polyak target weights, cyclic and one-cycle
schedules, temperature annealing), metrics accumulators (a dict of lists, running
means in dict items, a confusion matrix), search state (a beam-search step over a list
of hypotheses, a k-NN index that grows), an HMM forward filter. ``stateful_corpus10_agents.py`` holds the
other 20 (particle filters, rng-driven agents, deque windows, environments,
simulations); ``PROGRAMS`` here is all 40.

Each scenario makes fresh state, compiles one callable (``wrap``), calls it ``CALLS``
(10) times with the same shapes and changing values, then once more with a new shape
(``X_NEW``, 7 elements where the others have 5; state shaped by the input re-made by
the caller first), and returns each call's result with a copy of the state after it
(``snap``), all compared with plain Python's (``test_stateful_corpus10.py``). The
targets (recompiles after the first call, the new shape's included) were written with
the programs, before the first run; a ``known`` note holds the count measured where a
program recompiles more, and the cause found.

Example::

    @program(recompiles=1, why=COUNTER + NEW_SHAPE)
    def pid_controller(wrap):
        c = PID()
        f = wrap(c.control)
        return [(f(z), c.steps, snap(c.integral)) for z in ZS]
"""

from __future__ import annotations

import math

import numpy as np
import stateful_corpus10_agents
from stateful_corpus4 import snap
from stateful_corpus10_data import (
    CALLS,
    COUNTER,
    LOGITS,
    LOSSES,
    NEW_SHAPE,
    SIDES,
    X_NEW,
    XS,
    Z_NEW,
    ZS,
)
from stateful_programs import NUMBER, registrar

PROGRAMS: list = []
program = registrar(PROGRAMS)

NONE_FIRST = "; an attribute None until the first call, then an array (an entry per type)"


# ===================================================================== trackers, filters

class EMATracker:
    """An EMA of arrays: ``value`` None until the first update, ``count`` stepped."""

    def __init__(self, alpha=0.8):
        self.alpha, self.value, self.count = alpha, None, 0

    def update(self, x):
        self.count += 1
        if self.value is None:
            self.value = x.copy()
        else:
            self.value = self.alpha * self.value + (1 - self.alpha) * x
        return self.value / (1 - self.alpha ** self.count)


@program(recompiles=2, why=COUNTER + NONE_FIRST + NEW_SHAPE)
def ema_tracker_object(wrap):
    t = EMATracker()
    f = wrap(t.update)
    out = [(f(x), t.count, snap(t.value)) for x in XS]
    t.value = None
    out.append((f(X_NEW), t.count, snap(t.value)))
    return out


class Kalman1D:
    """Independent scalar Kalman filters, one per element: a random-walk state."""

    def __init__(self, n, q=0.01, r=0.1):
        self.x, self.p = np.zeros(n), np.ones(n)
        self.q, self.r, self.t = q, r, 0

    def step(self, z):
        self.t += 1
        p = self.p + self.q
        k = p / (p + self.r)
        self.x = self.x + k * (z - self.x)
        self.p = (1 - k) * p
        return self.x


@program(recompiles=1, why=COUNTER + NEW_SHAPE)
def kalman_filter_object(wrap):
    kf = Kalman1D(5)
    f = wrap(kf.step)
    out = [(f(z), kf.t, snap(kf.p)) for z in ZS]
    kf.__init__(7)
    out.append((f(Z_NEW), kf.t, snap(kf.p)))
    return out


class ConstantVelocityKalman:
    """A 2-state (position, velocity) Kalman filter with matrices; ``dt`` a float
    attribute, the measurement a scalar position per call (the mean of ``z``)."""

    def __init__(self, dt=0.1):
        self.dt = dt
        self.x = np.zeros(2)
        self.P = np.eye(2)
        self.F = np.array([[1.0, dt], [0.0, 1.0]])
        self.H = np.array([[1.0, 0.0]])
        self.Q = 0.01 * np.eye(2)
        self.R = np.array([[0.25]])
        self.history = []

    def step(self, z):
        x = self.F @ self.x
        P = self.F @ self.P @ self.F.T + self.Q
        y = z.mean() - (self.H @ x)[0]
        S = self.H @ P @ self.H.T + self.R
        K = P @ self.H.T / S[0, 0]
        self.x = x + K[:, 0] * y
        self.P = (np.eye(2) - K @ self.H) @ P
        self.history.append(self.x.copy())
        return self.x


@program(recompiles=1, why="the log only appended to" + NEW_SHAPE)
def kalman_constant_velocity(wrap):
    kf = ConstantVelocityKalman()
    f = wrap(kf.step)
    return [(f(z), snap(kf.P), len(kf.history)) for z in ZS + [Z_NEW]]


class AlphaBeta:
    """An alpha-beta tracker of arrays; ``dt`` grows by a float each call."""

    def __init__(self, n):
        self.pos, self.vel, self.dt = np.zeros(n), np.zeros(n), 0.1

    def step(self, z):
        pred = self.pos + self.dt * self.vel
        r = z - pred
        self.pos = pred + 0.85 * r
        self.vel = self.vel + 0.005 / self.dt * r
        self.dt = self.dt * 1.05
        return self.pos


@program(recompiles=1, why="dt a float the call rescales: changing from the first trace"
                           + NEW_SHAPE)
def alpha_beta_tracker(wrap):
    t = AlphaBeta(5)
    f = wrap(t.step)
    out = [(f(z), t.dt, snap(t.vel)) for z in ZS]
    t.__init__(7)
    out.append((f(Z_NEW), t.dt, snap(t.vel)))
    return out


# ===================================================================== controllers

class PID:
    """A PID controller on arrays: ``prev`` None until the first call, ``steps``."""

    def __init__(self, kp=1.2, ki=0.3, kd=0.05, dt=0.1):
        self.kp, self.ki, self.kd, self.dt = kp, ki, kd, dt
        self.integral, self.prev, self.steps = 0.0, None, 0

    def control(self, err):
        self.steps += 1
        self.integral = self.integral + err * self.dt
        deriv = 0.0 if self.prev is None else (err - self.prev) / self.dt
        self.prev = err
        return self.kp * err + self.ki * self.integral + self.kd * deriv


@program(recompiles=2, why=COUNTER + "; prev None -> array, integral float -> array"
                           + NEW_SHAPE)
def pid_controller(wrap):
    c = PID()
    f = wrap(c.control)
    out = [(f(z), c.steps, snap(c.integral)) for z in ZS]
    c.integral, c.prev = 0.0, None
    out.append((f(Z_NEW), c.steps, snap(c.integral)))
    return out


class PIDAntiWindup:
    """Integral clamped (``np.clip``), output saturated, a low-pass derivative; the
    setpoint a float the caller changes every third call."""

    def __init__(self, n):
        self.i, self.d, self.prev = np.zeros(n), np.zeros(n), np.zeros(n)
        self.setpoint = 0.0

    def control(self, y):
        e = self.setpoint - y
        self.i = np.clip(self.i + 0.1 * e, -0.5, 0.5)
        self.d = 0.7 * self.d + 0.3 * (e - self.prev)
        self.prev = e
        return np.clip(2.0 * e + self.i + 0.5 * self.d, -1.0, 1.0)


@program(recompiles=2, why=NUMBER + NEW_SHAPE)
def pid_anti_windup(wrap):
    c = PIDAntiWindup(5)
    f = wrap(c.control)
    out = []
    for i, z in enumerate(ZS):
        if i % 3 == 2:
            c.setpoint += 0.25
        out.append((f(z), snap(c.i), c.setpoint))
    c.__init__(7)
    out.append((f(Z_NEW), snap(c.i), c.setpoint))
    return out


# ===================================================================== training monitors

class EarlyStopping:
    """Patience with a min delta: ``best`` (inf first), ``wait``, ``stopped``."""

    def __init__(self, patience=2, min_delta=0.02):
        self.patience, self.min_delta = patience, min_delta
        self.best, self.wait, self.stopped = math.inf, 0, False

    def __call__(self, x, loss):
        if loss < self.best - self.min_delta:
            self.best, self.wait = loss, 0
        else:
            self.wait += 1
            if self.wait >= self.patience:
                self.stopped = True
        return x * self.best


@program(recompiles=4, why=NUMBER + SIDES + " (improved, waited, stopped)" + NEW_SHAPE)
def early_stopping_patience(wrap):
    es = EarlyStopping()
    f = wrap(es.__call__)
    return [(f(x, loss), es.best, es.wait, es.stopped)
            for x, loss in zip(XS + [X_NEW], LOSSES)]


class LRFinder:
    """An exponential LR sweep: ``lr = lr0 * mult ** step``; (lr, loss) pairs logged,
    the smoothed loss and the best smoothed loss kept as floats."""

    def __init__(self):
        self.step, self.avg, self.best, self.log = 0, 0.0, math.inf, []

    def record(self, w, g, loss):
        lr = 1e-4 * 3.0 ** self.step
        self.step += 1
        self.avg = 0.9 * self.avg + 0.1 * loss
        smooth = self.avg / (1 - 0.9 ** self.step)
        self.best = min(self.best, smooth)
        self.log.append((lr, smooth))
        return w - lr * g


@program(recompiles=3, why=COUNTER + "; min() of the smoothed loss an entry per side"
                           + NEW_SHAPE)
def lr_finder_sweep(wrap):
    r = LRFinder()
    f = wrap(r.record)
    return [(f(x, x * 0.1, loss), r.best, list(r.log)) for x, loss in zip(XS + [X_NEW], LOSSES)]


class SWA:
    """Stochastic weight averaging from step ``start`` on: ``n_models`` counted."""

    def __init__(self, w, start=3):
        self.swa, self.n_models, self.step, self.start = w.copy(), 0, 0, start

    def update(self, w):
        self.step += 1
        if self.step >= self.start:
            self.n_models += 1
            self.swa = self.swa + (w - self.swa) / self.n_models
        return self.swa


@program(recompiles=2, why=COUNTER + SIDES + " (before and after start)" + NEW_SHAPE)
def swa_weight_averaging(wrap):
    s = SWA(XS[0])
    f = wrap(s.update)
    out = [(f(x), s.n_models, s.step) for x in XS]
    s.__init__(X_NEW)
    out.append((f(X_NEW), s.n_models, s.step))
    return out


class PolyakTarget:
    """A target network's dict of weights pulled toward the online one by ``tau``."""

    def __init__(self, params, tau=0.1):
        self.tau = tau
        self.target = {k: v.copy() for k, v in params.items()}
        self.updates = 0

    def sync(self, params):
        for k, v in params.items():
            self.target[k] = self.tau * v + (1 - self.tau) * self.target[k]
        self.updates += 1
        return self.target["w"] - params["w"]


@program(recompiles=1, why=COUNTER + NEW_SHAPE)
def polyak_target_weights(wrap):
    p = PolyakTarget({"w": XS[0], "b": XS[1][:2]})
    f = wrap(p.sync)
    out = [(f({"w": x, "b": x[:2]}), snap(p.target), p.updates) for x in XS]
    p.__init__({"w": X_NEW, "b": X_NEW[:2]})
    out.append((f({"w": X_NEW, "b": X_NEW[:2]}), snap(p.target), p.updates))
    return out


class CyclicLR:
    """The triangular cyclic LR of Smith (2017): ``math.floor`` of a changing float."""

    def __init__(self, base=0.001, top=0.006, step_size=2):
        self.base, self.top, self.step_size, self.it = base, top, step_size, 0

    def step(self, w, g):
        cycle = math.floor(1 + self.it / (2 * self.step_size))
        xx = abs(self.it / self.step_size - 2 * cycle + 1)
        lr = self.base + (self.top - self.base) * max(0.0, 1 - xx)
        self.it += 1
        return w - lr * g


@program(recompiles=4, why=COUNTER + "; floor() and abs() of the phase: an entry per "
                           "cycle and side" + NEW_SHAPE)
# (measured: 1, the new shape's; math.floor of the changing float is a changing int the
# call computes, dynamo/symbolic/float_floors.py, where it pinned the counter: 7)
def cyclic_lr_triangular(wrap):
    c = CyclicLR()
    f = wrap(c.step)
    return [(f(x, x * 0.5), c.it) for x in XS + [X_NEW]]


class OneCycle:
    """Cosine one-cycle: ``math.cos(math.pi * t / total)`` of an int counter."""

    def __init__(self, total=12):
        self.t, self.total, self.lrs = 0, total, []

    def step(self, w, g):
        lr = 0.05 * 0.5 * (1 + math.cos(math.pi * self.t / self.total))
        self.t += 1
        self.lrs.append(lr)
        return w - lr * g


@program(recompiles=1, why=COUNTER + NEW_SHAPE)
def one_cycle_cosine(wrap):
    c = OneCycle()
    f = wrap(c.step)
    return [(f(x, x * 0.5), c.t, list(c.lrs)) for x in XS + [X_NEW]]


class TemperatureSampler:
    """A softmax temperature annealed by ``max(0.2, temp * 0.8)``."""

    def __init__(self):
        self.temp = 2.0

    def probs(self, logits):
        z = logits / self.temp
        e = np.exp(z - z.max())
        self.temp = max(0.2, self.temp * 0.8)
        return e / e.sum()


@program(recompiles=2, why="temp a float the call rescales; max() an entry per side"
                           + NEW_SHAPE)
def temperature_annealing(wrap):
    s = TemperatureSampler()
    f = wrap(s.probs)
    return [(f(x), s.temp) for x in XS + [X_NEW]]


# ===================================================================== metrics

class MetricsLog:
    """A dict of lists: ``self.metrics[name].append(value)`` for fixed names, values
    NumPy scalars from the call's arrays; never read by the call."""

    def __init__(self):
        self.metrics = {"loss": [], "mae": [], "max": []}

    def log(self, pred, target):
        err = pred - target
        self.metrics["loss"].append((err * err).mean())
        self.metrics["mae"].append(np.abs(err).mean())
        self.metrics["max"].append(np.abs(err).max())
        return err


@program(recompiles=1, why="lists only appended to" + NEW_SHAPE)
def metrics_dict_of_lists(wrap):
    m = MetricsLog()
    f = wrap(m.log)
    return [(f(x, x * 0.9), snap(m.metrics)) for x in XS + [X_NEW]]


class RunningMeans:
    """Sums and counts in dict items (``self.sums[k] += v``, ``self.counts[k] += 1``)
    and their means read back as Python floats."""

    def __init__(self):
        self.sums, self.counts = {"loss": 0.0, "acc": 0.0}, {"loss": 0, "acc": 0}

    def update(self, x, loss, acc):
        for k, v in (("loss", loss), ("acc", acc)):
            self.sums[k] += v
            self.counts[k] += 1
        return x * (self.sums["loss"] / self.counts["loss"])


@program(recompiles=1, why="dict items the call steps: changing from the first trace"
                           + NEW_SHAPE,
         known=(2, (
                   "the loss argument's first change (a changing number from the "
                   "second call on); the dict items the call steps are changing from "
                   "the first trace")))
def running_means_dict_items(wrap):
    r = RunningMeans()
    f = wrap(r.update)
    return [(f(x, loss, 1 - loss), dict(r.sums), dict(r.counts))
            for x, loss in zip(XS + [X_NEW], LOSSES)]


class ConfusionMatrix:
    """A 3x3 confusion matrix accumulated by ``np.add.at`` of the arg-maxes."""

    def __init__(self):
        self.cm, self.seen = np.zeros((3, 3), dtype=np.int64), 0

    def update(self, logits, labels):
        pred = logits.reshape(-1, 3).argmax(axis=1)
        np.add.at(self.cm, (labels, pred), 1)
        self.seen += labels.shape[0]
        return np.trace(self.cm) / self.cm.sum()


@program(recompiles=1, why=COUNTER + NEW_SHAPE)
def confusion_matrix_accumulator(wrap):
    c = ConfusionMatrix()
    f = wrap(c.update)
    out = []
    for i in range(CALLS):
        logits = np.concatenate([XS[i], XS[(i + 1) % CALLS][:1]])   # 2 rows of 3
        out.append((f(logits, np.array([i % 3, (i + 1) % 3])), snap(c.cm), c.seen))
    logits = np.concatenate([X_NEW, XS[0][:2]])                      # 3 rows of 3
    out.append((f(logits, np.array([0, 1, 2])), snap(c.cm), c.seen))
    return out


# ===================================================================== search state

class BeamSearch:
    """A beam-search step: ``self.beams`` a list of (tokens tuple, score) hypotheses;
    each step extends every beam by each token and keeps the best ``width``."""

    def __init__(self, width=2):
        self.width, self.beams = width, [((), 0.0)]

    def step(self, logits):
        logp = logits - np.log(np.exp(logits).sum())
        cands = []
        for tokens, score in self.beams:
            for t in range(logp.shape[0]):
                cands.append((tokens + (t,), score + float(logp[t])))
        cands.sort(key=lambda c: -c[1])
        self.beams = cands[:self.width]
        return np.array([s for _, s in self.beams])


@program(recompiles=3, why="float() of the data a break; the beams' token tuples read "
                           "by value" + NEW_SHAPE,
         known=(15, (
                   "each hypothesis's token tuple grows by one per step and is read item "
                   "by item (tokens + (t,)): its length is part of what the trace used "
                   "(an entry per step, in the frame and in each resume function of the "
                   "float() break; the guard's note says so); the list of candidates too. "
                   "18 before the tuples were read only where used "
                   "(dynamo/variables/data_tuples.py)")))
def beam_search_step(wrap):
    b = BeamSearch()
    f = wrap(b.step)
    out = [(f(lg), list(b.beams)) for lg in LOGITS[:6]]
    b.beams = [((), 0.0)]
    out.append((f(X_NEW), list(b.beams)))
    return out


class GrowingKNN:
    """A k-NN index of stored rows that grows by ``np.vstack`` each call; the query
    returns the label of its nearest stored row."""

    def __init__(self, dim):
        self.keys, self.labels = np.zeros((1, dim)), np.zeros(1)

    def add_and_query(self, x, label):
        d = ((self.keys - x) ** 2).sum(axis=1)
        nearest = self.labels[np.argmin(d)]
        self.keys = np.vstack([self.keys, x[None]])
        self.labels = np.append(self.labels, label)
        return nearest


@program(recompiles=2, why="the index's rows grow: symbolic after the first change"
                           + NEW_SHAPE)
def knn_index_grows(wrap):
    k = GrowingKNN(5)
    f = wrap(k.add_and_query)
    out = [(f(x, float(i)), k.keys.shape) for i, x in enumerate(XS)]
    k.__init__(7)
    out.append((f(X_NEW, 1.0), k.keys.shape))
    return out


class ListKNN:
    """A k-NN memory kept as a list of arrays; queries stack it (a growing list)."""

    def __init__(self):
        self.items = []

    def query(self, x):
        self.items.append(x)
        mem = np.stack(self.items)
        w = np.exp(-((mem - x) ** 2).sum(axis=1))
        return (w[:, None] * mem).sum(axis=0) / w.sum()


@program(recompiles=2, why="a growing list stacked: rows symbolic after the first change"
                           + NEW_SHAPE)
def knn_list_memory(wrap):
    k = ListKNN()
    f = wrap(k.query)
    out = [(f(x), len(k.items)) for x in XS]
    k.items = []
    out.append((f(X_NEW), len(k.items)))
    return out


# ===================================================================== hidden state

class HMMFilter:
    """The forward filter of a 3-state HMM: the belief vector normalized each call,
    the emission likelihood from the observation's mean; the log-likelihood summed."""

    def __init__(self):
        self.A = np.array([[0.8, 0.1, 0.1], [0.2, 0.7, 0.1], [0.1, 0.2, 0.7]])
        self.mu = np.array([-1.0, 0.0, 1.0])
        self.belief, self.loglik, self.t = np.full(3, 1 / 3), 0.0, 0

    def step(self, x):
        prior = self.A.T @ self.belief
        like = np.exp(-0.5 * (x.mean() - self.mu) ** 2)
        post = prior * like
        z = post.sum()
        self.belief = post / z
        self.loglik = self.loglik + np.log(z)
        self.t += 1
        return self.belief


@program(recompiles=1, why=COUNTER + "; loglik float -> np.float64" + NEW_SHAPE,
         known=(2, (
                   "loglik goes from a Python float to np.float64 at the first call "
                   "(an entry per type)")))
def hmm_forward_filter(wrap):
    h = HMMFilter()
    f = wrap(h.step)
    return [(f(x), h.t, h.loglik, snap(h.belief)) for x in XS + [X_NEW]]


PROGRAMS += stateful_corpus10_agents.PROGRAMS
