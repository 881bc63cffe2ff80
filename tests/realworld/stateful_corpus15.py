"""Issue #16's fifteenth stateful corpus, written before it was run: 42 programs of
state kinds the earlier corpora lack. This file holds 21: optimizers kept as objects
that corpora 1-14 do not have (AdaMax, AMSGrad, Lion, Adadelta, NAdam's running
momentum product, torch-style ``param_groups`` whose ``lr`` a scheduler rewrites),
step-driven learning-rate schedules (cyclical triangular, polynomial decay to an end
value, inverse square root after warmup, exponential warmup), online estimators (an
EWMA covariance matrix, a recursive-least-squares filter, an LMS filter over a
``deque`` of taps, Oja's online PCA, Holt's linear trend in Python floats, a running
``np.histogram`` over fixed edges, online naive Bayes), and block-streaming signal
state (an FIR filter keeping its input tail, a sample-by-sample DC blocker, a phase
accumulator, a cumulative sum carried across blocks). ``stateful_corpus15_more.py``
holds the other 21 (Python idioms that keep state, stochastic simulations, trackers
and agents); ``PROGRAMS`` here is all 42.

Conventions as in corpus 13: each scenario makes fresh state, compiles one callable
(``wrap``), calls it ``CALLS`` (20) times with one shape and changing values, and
returns each call's result with a copy of the state after it (``snap``), compared with
plain Python's (``test_stateful_corpus15.py``). ``recompiles`` is the target written
before the first run; a ``known`` note holds the count measured where a program
recompiles more, and the cause found.

Example::

    @program(recompiles=1, why=COUNTER)
    def amsgrad_max_second_moment(wrap):
        opt = AMSGrad()
        f = wrap(opt.step)
        return [(f(g), opt.t, snap(opt.vmax)) for g in GS]
"""

from __future__ import annotations

import collections
import math

import numpy as np
import stateful_corpus15_more
from stateful_corpus4 import snap
from stateful_corpus15_data import COUNTER, FLOATS, GS, LABELS, SIDES, TARGETS, XS
from stateful_programs import NUMBER, registrar

PROGRAMS: list = []
program = registrar(PROGRAMS)


# ===================================================================== optimizers

class AdaMax:
    """AdaMax (Kingma & Ba, section 7): ``u = max(b2 * u, |g|)``, bias-corrected step
    ``lr / (1 - b1 ** t)``."""

    def __init__(self, lr=0.01, b1=0.9, b2=0.999):
        self.w, self.m, self.u = np.zeros(6), np.zeros(6), np.zeros(6)
        self.lr, self.b1, self.b2, self.t = lr, b1, b2, 0

    def step(self, g):
        self.t += 1
        self.m = self.b1 * self.m + (1 - self.b1) * g
        self.u = np.maximum(self.b2 * self.u, np.abs(g))
        self.w = self.w - (self.lr / (1 - self.b1 ** self.t)) * self.m / (self.u + 1e-8)
        return self.w


@program(recompiles=1, why=COUNTER)
def adamax_infinity_norm(wrap):
    opt = AdaMax()
    f = wrap(opt.step)
    return [(f(g), opt.t, snap(opt.u)) for g in GS]


class AMSGrad:
    """Adam with the running maximum of the second moment (``vmax``)."""

    def __init__(self, lr=0.01):
        self.w, self.m, self.v, self.vmax = (np.zeros(6) for _ in range(4))
        self.lr, self.t = lr, 0

    def step(self, g):
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * g
        self.v = 0.999 * self.v + 0.001 * g * g
        np.maximum(self.vmax, self.v, out=self.vmax)
        mhat = self.m / (1 - 0.9 ** self.t)
        self.w -= self.lr * mhat / (np.sqrt(self.vmax) + 1e-8)
        return self.w.copy()


@program(recompiles=1, why=COUNTER)
def amsgrad_max_second_moment(wrap):
    opt = AMSGrad()
    f = wrap(opt.step)
    return [(f(g), opt.t, snap(opt.vmax)) for g in GS]


class Lion:
    """Lion (Chen et al. 2023): the update is the sign of an interpolation; weight
    decay by a Python float."""

    def __init__(self, lr=1e-3, wd=0.01):
        self.w, self.m = np.ones(6), np.zeros(6)
        self.lr, self.wd = lr, wd

    def step(self, g):
        c = 0.9 * self.m + 0.1 * g
        self.w = self.w * (1 - self.lr * self.wd) - self.lr * np.sign(c)
        self.m = 0.99 * self.m + 0.01 * g
        return self.w


@program(recompiles=0)
def lion_sign_update(wrap):
    opt = Lion()
    f = wrap(opt.step)
    return [(f(g), snap(opt.m)) for g in GS]


class Adadelta:
    """Adadelta: two accumulators in a dict keyed by parameter name, no learning rate."""

    def __init__(self, rho=0.95, eps=1e-6):
        self.params = {"w": np.zeros(6), "b": np.zeros(6)}
        self.acc = {k: {"g2": np.zeros(6), "dx2": np.zeros(6)} for k in self.params}
        self.rho, self.eps = rho, eps

    def step(self, g):
        for name, p in self.params.items():
            grad = g if name == "w" else 0.5 * g
            a = self.acc[name]
            a["g2"] = self.rho * a["g2"] + (1 - self.rho) * grad ** 2
            dx = -np.sqrt(a["dx2"] + self.eps) / np.sqrt(a["g2"] + self.eps) * grad
            a["dx2"] = self.rho * a["dx2"] + (1 - self.rho) * dx ** 2
            self.params[name] = p + dx
        return self.params["w"] + self.params["b"]


@program(recompiles=0)
def adadelta_two_accumulators(wrap):
    opt = Adadelta()
    f = wrap(opt.step)
    return [(f(g), snap(opt.params), snap(opt.acc)) for g in GS]


class NAdam:
    """NAdam as torch writes it: a momentum schedule ``mu_t`` and the running product
    of the ``mu``s kept as a Python float (``self.mu_product *= mu_t``)."""

    def __init__(self, lr=0.01):
        self.w, self.m, self.v = np.zeros(6), np.zeros(6), np.zeros(6)
        self.lr, self.t, self.mu_product = lr, 0, 1.0

    def step(self, g):
        self.t += 1
        mu = 0.9 * (1 - 0.5 * 0.96 ** (self.t * 0.004))
        mu_next = 0.9 * (1 - 0.5 * 0.96 ** ((self.t + 1) * 0.004))
        self.mu_product *= mu
        self.m = 0.9 * self.m + 0.1 * g
        self.v = 0.999 * self.v + 0.001 * g * g
        denom = np.sqrt(self.v / (1 - 0.999 ** self.t)) + 1e-8
        self.w = self.w - self.lr * (1 - mu) / (1 - self.mu_product) * g / denom
        self.w = self.w - self.lr * mu_next / (1 - self.mu_product * mu_next) * self.m / denom
        return self.w


@program(recompiles=1, why=COUNTER + "; the momentum product " + NUMBER)
def nadam_momentum_product(wrap):
    opt = NAdam()
    f = wrap(opt.step)
    return [(f(g), opt.t, opt.mu_product) for g in GS]


class GroupedSGD:
    """torch-style ``param_groups``: a list of dicts, each with its params and ``lr``;
    a step-decay scheduler rewrites every group's ``lr`` every 5 steps."""

    def __init__(self):
        self.param_groups = [{"params": [np.zeros(6)], "lr": 0.1},
                             {"params": [np.zeros(6), np.zeros(6)], "lr": 0.01}]
        self.steps = 0

    def step(self, g):
        for group in self.param_groups:
            for i, p in enumerate(group["params"]):
                group["params"][i] = p - group["lr"] * (g + 0.01 * p)
        self.steps += 1
        if self.steps % 5 == 0:
            for group in self.param_groups:
                group["lr"] *= 0.5
        return self.param_groups[0]["params"][0]


@program(recompiles=2, why=COUNTER + "; the decay every 5 steps" + SIDES + "; the "
                           "groups' lr " + NUMBER)
def param_groups_lr_rewritten(wrap):
    opt = GroupedSGD()
    f = wrap(opt.step)
    return [(f(g), opt.steps, [gr["lr"] for gr in opt.param_groups], snap(opt.param_groups))
            for g in GS]


# ===================================================================== schedules

class CyclicLR:
    """Smith's triangular cyclical learning rate from the step count
    (``math.floor``, ``abs``), applied to an SGD step."""

    def __init__(self, base=0.001, top=0.01, size=4):
        self.base, self.top, self.size, self.it = base, top, size, 0
        self.w = np.zeros(6)

    def step(self, g):
        cycle = math.floor(1 + self.it / (2 * self.size))
        x = abs(self.it / self.size - 2 * cycle + 1)
        lr = self.base + (self.top - self.base) * max(0.0, 1 - x)
        self.it += 1
        self.w = self.w - lr * g
        return self.w


@program(recompiles=1, why=COUNTER)
def cyclical_triangular_lr(wrap):
    s = CyclicLR()
    f = wrap(s.step)
    return [(f(g), s.it) for g in GS]


class PolyDecay:
    """Polynomial decay to an end value over 12 steps, then constant:
    ``min(step, 12)``."""

    def __init__(self):
        self.step_n, self.w = 0, np.ones(6)

    def step(self, g):
        s = min(self.step_n, 12)
        lr = (0.1 - 0.001) * (1 - s / 12) ** 2.0 + 0.001
        self.step_n += 1
        self.w = self.w - lr * g
        return self.w, lr


@program(recompiles=2, why=COUNTER + "; min() picks the counter, then the constant"
                            + SIDES)
def polynomial_decay_to_end(wrap):
    s = PolyDecay()
    f = wrap(s.step)
    return [(f(g), s.step_n) for g in GS]


class InverseSqrt:
    """fairseq's inverse square root schedule: linear warmup for 4 steps, then
    ``lr * sqrt(warmup / step)``; the step ``int`` passed in by the training loop."""

    def __init__(self):
        self.w = np.zeros(6)

    def step(self, g, num_updates):
        if num_updates < 4:
            lr = 0.01 * (num_updates + 1) / 4
        else:
            lr = 0.01 * math.sqrt(4 / (num_updates + 1))
        self.w = self.w - lr * g
        return self.w


@program(recompiles=2, why="the step an int argument that changes; the warmup test"
                            + SIDES)
def inverse_sqrt_after_warmup(wrap):
    s = InverseSqrt()
    f = wrap(s.step)
    return [f(g, i) for i, g in enumerate(GS)]


class ExpWarmup:
    """Exponential warmup ``1 - exp(-step / 5)`` (``math.exp``) scaling the update."""

    def __init__(self):
        self.t, self.w = 0, np.zeros(6)

    def step(self, g):
        self.t += 1
        self.w += 0.05 * (1.0 - math.exp(-self.t / 5.0)) * g
        return self.w.copy()


@program(recompiles=1, why=COUNTER)
def exponential_warmup_factor(wrap):
    s = ExpWarmup()
    f = wrap(s.step)
    return [(f(g), s.t) for g in GS]


# ===================================================================== online estimators

class EWMACov:
    """An exponentially weighted mean and covariance matrix (``np.outer``)."""

    def __init__(self, alpha=0.1):
        self.mean, self.cov, self.alpha = np.zeros(6), np.eye(6), alpha

    def update(self, x):
        d = x - self.mean
        self.mean = self.mean + self.alpha * d
        self.cov = (1 - self.alpha) * (self.cov + self.alpha * np.outer(d, d))
        return np.linalg.eigvalsh(self.cov)[-1]


@program(recompiles=0)
def ewma_covariance_matrix(wrap):
    e = EWMACov()
    f = wrap(e.update)
    return [(f(x), snap(e.mean), snap(e.cov)) for x in XS]


class RLS:
    """A recursive-least-squares filter with forgetting factor 0.98: the inverse
    correlation matrix ``P`` and the weights, one (x, target) pair per call."""

    def __init__(self, lam=0.98):
        self.w, self.P, self.lam = np.zeros(6), np.eye(6) * 100.0, lam

    def update(self, x, d):
        Px = self.P @ x
        k = Px / (self.lam + x @ Px)
        err = d - self.w @ x
        self.w = self.w + k * err
        self.P = (self.P - np.outer(k, Px)) / self.lam
        return err


@program(recompiles=1, why="the target a Python float argument; " + NUMBER)
def rls_filter_forgetting(wrap):
    r = RLS()
    f = wrap(r.update)
    return [(f(x, d), snap(r.w), snap(r.P)) for x, d in zip(XS, TARGETS)]


class LMSFilter:
    """An LMS adaptive filter over the last 4 samples in a ``deque(maxlen=4)`` of
    floats: one new sample (a float) per call, ``np.array(self.taps)`` as the input."""

    def __init__(self):
        self.taps = collections.deque([0.0] * 4, maxlen=4)
        self.w, self.mu = np.zeros(4), 0.05

    def update(self, sample, desired):
        self.taps.appendleft(sample)
        u = np.array(self.taps)
        e = desired - self.w @ u
        self.w = self.w + self.mu * e * u
        return e


@program(recompiles=1, why="the taps, the sample and the target Python floats that "
                            "change; " + NUMBER)
def lms_filter_deque_taps(wrap):
    lms = LMSFilter()
    f = wrap(lms.update)
    samples = [float(x[0]) for x in XS]
    return [(f(s, d), list(lms.taps), snap(lms.w)) for s, d in zip(samples, TARGETS)]


class OjaPCA:
    """Oja's rule for the first principal component, normalised each call, with a
    learning rate ``1 / (10 + n)`` from a count."""

    def __init__(self):
        self.w = np.ones(6) / math.sqrt(6)
        self.n = 0

    def update(self, x):
        y = self.w @ x
        self.n += 1
        self.w = self.w + (1.0 / (10 + self.n)) * y * (x - y * self.w)
        self.w /= np.linalg.norm(self.w)
        return y


@program(recompiles=1, why=COUNTER)
def oja_online_pca(wrap):
    o = OjaPCA()
    f = wrap(o.update)
    return [(f(x), o.n, snap(o.w)) for x in XS]


class Holt:
    """Holt's linear trend on the mean of each call's input, kept as Python floats
    (``float(x.mean())``); the call returns a 3-step forecast as an array."""

    def __init__(self, alpha=0.5, beta=0.3):
        self.level, self.trend, self.alpha, self.beta = None, 0.0, alpha, beta

    def update(self, x):
        y = float(x.mean())
        if self.level is None:
            self.level = y
        else:
            prev = self.level
            self.level = self.alpha * y + (1 - self.alpha) * (self.level + self.trend)
            self.trend = self.beta * (self.level - prev) + (1 - self.beta) * self.trend
        return self.level + self.trend * np.arange(1, 4)


@program(recompiles=2, why="the level None then a float" + SIDES + "; " + FLOATS)
def holt_linear_trend_floats(wrap):
    h = Holt()
    f = wrap(h.update)
    return [(f(x), h.level, h.trend) for x in XS]


class RunningHistogram:
    """``np.histogram`` over fixed edges, counts added to an int array kept across
    calls; the call returns the normalised density so far."""

    def __init__(self):
        self.edges = np.linspace(-3.0, 3.0, 9)
        self.counts = np.zeros(8, dtype=np.int64)

    def add(self, x):
        c, _ = np.histogram(x, bins=self.edges)
        self.counts += c
        return self.counts / self.counts.sum()


@program(recompiles=0)
def np_histogram_fixed_edges(wrap):
    h = RunningHistogram()
    f = wrap(h.add)
    return [(f(x), snap(h.counts)) for x in XS]


class OnlineNaiveBayes:
    """Gaussian naive Bayes fit online: per-class counts (a dict keyed by the int
    label) and per-class sums and sums of squares (arrays in dicts)."""

    def __init__(self):
        self.n, self.s, self.s2 = {}, {}, {}

    def partial_fit(self, x, y):
        if y not in self.n:
            self.n[y], self.s[y], self.s2[y] = 0, np.zeros(6), np.zeros(6)
        self.n[y] += 1
        self.s[y] = self.s[y] + x
        self.s2[y] = self.s2[y] + x * x
        mean = self.s[y] / self.n[y]
        return self.s2[y] / self.n[y] - mean * mean


@program(recompiles=4, why="the label an int that picks a dict entry (3 labels); the "
                            "dicts fill; the counts " + NUMBER)
def online_naive_bayes_by_label(wrap):
    nb = OnlineNaiveBayes()
    f = wrap(nb.partial_fit)
    return [(f(x, y), dict(nb.n), snap(nb.s)) for x, y in zip(XS, LABELS)]


# ===================================================================== block streaming

class OverlapFIR:
    """A 3-tap FIR filter over blocks: the last 2 input samples are kept
    (``self.tail``) and prepended to the next block."""

    def __init__(self):
        self.h, self.tail = np.array([0.25, 0.5, 0.25]), np.zeros(2)

    def process(self, x):
        buf = np.concatenate([self.tail, x])
        self.tail = buf[-2:].copy()
        return np.convolve(buf, self.h, mode="valid")


@program(recompiles=0)
def fir_block_keeps_tail(wrap):
    fir = OverlapFIR()
    f = wrap(fir.process)
    return [(f(x), snap(fir.tail)) for x in XS]


class DCBlocker:
    """A DC blocker ``y[n] = x[n] - x[n-1] + r * y[n-1]`` run sample by sample, its
    previous input and output kept across blocks (NumPy floats)."""

    def __init__(self, r=0.95):
        self.r, self.xp, self.yp = r, 0.0, 0.0

    def process(self, x):
        y = np.empty_like(x)
        for i in range(len(x)):
            y[i] = x[i] - self.xp + self.r * self.yp
            self.xp, self.yp = x[i], y[i]
        return y


@program(recompiles=1, why="the kept samples floats that change (a Python float, then "
                            "NumPy floats); " + NUMBER)
def dc_blocker_sample_loop(wrap):
    d = DCBlocker()
    f = wrap(d.process)
    return [(f(x), d.xp, d.yp) for x in XS]


class PhaseOscillator:
    """An oscillator whose phase (a Python float) advances by ``2 pi f n / sr`` per
    block and wraps modulo ``2 pi``; the frequency an argument."""

    def __init__(self, sr=48.0):
        self.phase, self.sr = 0.0, sr

    def block(self, x, freq):
        n = np.arange(x.shape[0])
        out = x * np.sin(self.phase + 2 * np.pi * freq * n / self.sr)
        self.phase = (self.phase + 2 * math.pi * freq * x.shape[0] / self.sr) % (2 * math.pi)
        return out


@program(recompiles=1, why="the phase " + NUMBER)
def phase_accumulator_oscillator(wrap):
    o = PhaseOscillator()
    f = wrap(o.block)
    return [(f(x, 2.5), o.phase) for x in XS]


class CarriedCumsum:
    """A cumulative sum over a stream of blocks: the last value is carried
    (``self.carry``, a NumPy float) into the next block."""

    def __init__(self):
        self.carry = 0.0

    def block(self, x):
        out = np.cumsum(x) + self.carry
        self.carry = out[-1]
        return out


@program(recompiles=1, why="the carry a float that changes; " + NUMBER)
def cumsum_carried_across_blocks(wrap):
    c = CarriedCumsum()
    f = wrap(c.block)
    return [(f(x), c.carry) for x in XS]


assert len(PROGRAMS) == 21, len(PROGRAMS)
PROGRAMS += stateful_corpus15_more.PROGRAMS
