"""A second corpus of stateful programs (issue #16), unlike ``stateful_programs.py``'s:
RL agents with deque replay buffers and epsilon-soft policies, bandits, Welford and
reservoir statistics, schedulers kept in their own objects, ``functools.lru_cache``
helpers, simulations that keep a float clock and an event list, loggers of strings and
tuples, iterators and generators advanced by each call, attributes swapped between
``None`` and arrays, class-level and closure counters, Generators passed in or kept on
``self``, and decoders that grow lists of arrays and of token ids.

Each program is a scenario as in ``stateful_programs.py`` (``scenario(wrap)`` compiles
one callable through ``wrap``, calls it 6-10 times with the same shapes as a user's loop
would, and returns the results and the state left behind); ``@program(recompiles=N,
why=...)`` bounds the recompiles over the calls after the first, and ``known=(n, cause)``
records a program that recompiles more today and why (``test_stateful_corpus2.py``).

Example::

    @program(recompiles=0)
    def logger_appends_tuples(wrap):
        log = TupleLogger()
        f = wrap(log.record)
        return [f(X8) for _ in range(8)], log.rows
"""

from __future__ import annotations

import collections
import functools
import itertools
import math

import numpy as np
from stateful_programs import NUMBER, registrar

PROGRAMS: list = []


program = registrar(PROGRAMS)


def _data(seed, *shape):
    return np.random.default_rng(seed).standard_normal(shape)


X8 = _data(1000, 8)
OBS = [_data(1010 + i, 4) for i in range(10)]
GRADS = [_data(1030 + i, 6, 3) for i in range(10)]
W6x3 = _data(1050, 6, 3) * 0.3
W4x3 = _data(1051, 4, 3) * 0.5


# ===================================================================== RL agents

class SoftPolicyAgent:
    """An epsilon-soft policy: epsilon decays per step and weighs the probabilities (no
    branch on it); transitions go into a ``deque(maxlen=...)``; a step counter."""

    def __init__(self):
        self.W = W4x3.copy()
        self.eps, self.eps_decay = 1.0, 0.9
        self.memory = collections.deque(maxlen=5)
        self.steps = 0

    def act(self, obs, rng):
        q = obs @ self.W
        greedy = (q == q.max()).astype(float)
        probs = self.eps / 3 + (1.0 - self.eps) * greedy / greedy.sum()
        a = rng.choice(3, p=probs)
        self.memory.append((obs, a))
        self.eps *= self.eps_decay
        self.steps += 1
        return probs


@program(recompiles=1, why=NUMBER)
def epsilon_soft_policy_deque_memory(wrap):
    agent = SoftPolicyAgent()
    rng = np.random.default_rng(0)
    f = wrap(agent.act)
    outs = [f(o, rng) for o in OBS]
    return outs, list(agent.memory), agent.eps, agent.steps, rng.bit_generator.state


class RunningReward:
    """A running reward average as a Python float, updated from the reward argument."""

    def __init__(self):
        self.avg = 0.0
        self.episodes = 0

    def update(self, rewards, reward):
        self.avg = 0.95 * self.avg + 0.05 * reward
        self.episodes += 1
        return (rewards - self.avg) / (1.0 + self.episodes)


@program(recompiles=1, why=NUMBER)
def running_reward_average_float(wrap):
    rr = RunningReward()
    f = wrap(rr.update)
    outs = [f(X8, 0.5 * i - 1.0) for i in range(8)]
    return outs, rr.avg, rr.episodes


class UCBBandit:
    """UCB1 over k arms: an int step ``t`` in ``math.log`` and per-arm count arrays."""

    def __init__(self, k=5, c=2.0):
        self.Q = np.zeros(k)
        self.N = np.zeros(k)
        self.t = 0
        self.c = c

    def step(self, rewards):
        self.t += 1
        ucb = self.Q + self.c * np.sqrt(math.log(self.t) / (self.N + 1.0))
        a = np.argmax(ucb)
        self.N[a] += 1
        self.Q[a] += (rewards[a] - self.Q[a]) / self.N[a]
        return ucb


@program(recompiles=1, why=NUMBER)
def ucb_bandit_log_of_step(wrap):
    b = UCBBandit()
    f = wrap(b.step)
    outs = [f(_data(1100 + i, 5)) for i in range(8)]
    return outs, b.Q, b.N, b.t


class TDActorCritic:
    """Linear actor-critic: td errors appended to a list, ``gamma ** t`` discounting."""

    def __init__(self, gamma=0.9):
        self.v = np.zeros(4)
        self.gamma = gamma
        self.t = 0
        self.td_errors = []

    def learn(self, s, r, s2):
        delta = r + self.gamma * (s2 @ self.v) - s @ self.v
        self.v = self.v + 0.1 * (self.gamma ** self.t) * delta * s
        self.td_errors.append(delta)
        self.t += 1
        return self.v


@program(recompiles=1, why=NUMBER)
def actor_critic_discount_power_step(wrap):
    ac = TDActorCritic()
    f = wrap(ac.learn)
    outs = [f(OBS[i], 0.1 * i, OBS[i + 1]) for i in range(8)]
    return outs, ac.td_errors, ac.t


class NStepBuffer:
    """n-step returns from a ``deque(maxlen=n)`` of float rewards and array states."""

    def __init__(self, n=3, gamma=0.9):
        self.rewards = collections.deque(maxlen=n)
        self.states = collections.deque(maxlen=n)
        self.gamma = gamma

    def push(self, s, r):
        self.rewards.append(r)
        self.states.append(s)
        g = sum(self.gamma ** i * x for i, x in enumerate(self.rewards))
        return self.states[0] * g


@program(recompiles=3,
         why='the deques fill to maxlen over the first three calls (their length drives '
             'a Python loop); the rewards are numbers')
def n_step_return_deques(wrap):
    buf = NStepBuffer()
    f = wrap(buf.push)
    outs = [f(OBS[i], 0.25 * i) for i in range(9)]
    return outs, list(buf.rewards), list(buf.states)


# ===================================================================== online statistics

class Welford:
    """Welford's online mean and variance of array samples: n is an int attribute."""

    def __init__(self, d):
        self.n = 0
        self.mean = np.zeros(d)
        self.M2 = np.zeros(d)

    def push(self, x):
        self.n += 1
        delta = x - self.mean
        self.mean = self.mean + delta / self.n
        self.M2 = self.M2 + delta * (x - self.mean)
        return self.M2 / max(self.n - 1, 1)


@program(recompiles=2,
         why=NUMBER + '; `max(n - 1, 1)` compares n with 2: its outcome is guarded '
                      '(one more entry when n - 1 passes 1)')
def welford_mean_var_object(wrap):
    w = Welford(8)
    f = wrap(w.push)
    outs = [f(_data(1200 + i, 8)) for i in range(8)]
    return outs, w.n, w.mean, w.M2


class BiasCorrectedEMA:
    """An EMA with Adam-style bias correction: ``1 - beta ** step`` in float math."""

    def __init__(self, beta=0.8):
        self.beta = beta
        self.value = None
        self.step = 0

    def update(self, x):
        self.step += 1
        if self.value is None:
            self.value = np.zeros_like(x)
        self.value = self.beta * self.value + (1 - self.beta) * x
        return self.value / (1 - self.beta ** self.step)


@program(recompiles=2,
         why='value is None on the first call only (one entry), and step is a number')
def ema_bias_corrected_lazy_init(wrap):
    e = BiasCorrectedEMA()
    f = wrap(e.update)
    return [f(_data(1210 + i, 8)) for i in range(8)], e.value, e.step


class Reservoir:
    """Reservoir sampling (algorithm R) of rows with the Generator kept on ``self``."""

    def __init__(self, k=3):
        self.k = k
        self.items = []
        self.seen = 0
        self.rng = np.random.default_rng(4)

    def offer(self, x):
        self.seen += 1
        if len(self.items) < self.k:
            self.items.append(x)
        else:
            j = int(self.rng.integers(0, self.seen))
            if j < self.k:
                self.items[j] = x
        return np.mean(self.items, axis=0)


@program(recompiles=5,
         why='`len(items) < k` and `j < k` (a random draw) decide control flow')
def reservoir_sampling_rng_on_self(wrap):
    r = Reservoir()
    f = wrap(r.offer)
    outs = [f(_data(1220 + i, 4)) for i in range(10)]
    return outs, r.items, r.seen, r.rng.bit_generator.state


class MinMaxTracker:
    """Running per-feature min and max, and a sample count summed from shapes."""

    def __init__(self, d):
        self.lo = np.full(d, np.inf)
        self.hi = np.full(d, -np.inf)
        self.count = 0

    def update(self, X):
        self.lo = np.minimum(self.lo, X.min(axis=0))
        self.hi = np.maximum(self.hi, X.max(axis=0))
        self.count += X.shape[0]
        return (X - self.lo) / (self.hi - self.lo + 1e-12)


@program(recompiles=1, why=NUMBER)
def running_min_max_scaler(wrap):
    t = MinMaxTracker(6)
    f = wrap(t.update)
    outs = [f(_data(1230 + i, 5, 6)) for i in range(8)]
    return outs, t.lo, t.hi, t.count


class OnlineHistogram:
    """A histogram accumulated in place with ``np.add.at``; a float total."""

    def __init__(self, bins=6):
        self.edges = np.linspace(-2.0, 2.0, bins + 1)
        self.counts = np.zeros(bins, np.int64)
        self.total = 0.0

    def add(self, x):
        idx = np.clip(np.searchsorted(self.edges, x) - 1, 0, len(self.counts) - 1)
        np.add.at(self.counts, idx, 1)
        self.total += x.size
        return self.counts / self.total


@program(recompiles=1, why=NUMBER)
def online_histogram_add_at(wrap):
    h = OnlineHistogram()
    f = wrap(h.add)
    outs = [f(_data(1240 + i, 16)) for i in range(8)]
    return outs, h.counts, h.total


# ===================================================================== optimizers

class WarmupCosine:
    """A linear-warmup then cosine schedule object, stepped by the optimizer."""

    def __init__(self, base_lr=0.1, warmup=3, total=10):
        self.base_lr, self.warmup, self.total = base_lr, warmup, total
        self.last_step = 0

    def step(self):
        self.last_step += 1
        s = self.last_step
        if s <= self.warmup:
            return self.base_lr * s / self.warmup
        p = (s - self.warmup) / (self.total - self.warmup)
        return 0.5 * self.base_lr * (1 + math.cos(math.pi * p))


class AdamW:
    """AdamW with a schedule object and per-parameter state in a list of dicts."""

    def __init__(self, params, sched, wd=0.01):
        self.params = params
        self.sched = sched
        self.wd = wd
        self.state = [{"m": np.zeros_like(p), "v": np.zeros_like(p)} for p in params]
        self.t = 0
        self.lrs = []

    def step(self, grads):
        self.t += 1
        lr = self.sched.step()
        self.lrs.append(lr)
        for p, g, st in zip(self.params, grads, self.state):
            st["m"] = 0.9 * st["m"] + 0.1 * g
            st["v"] = 0.999 * st["v"] + 0.001 * g * g
            mhat = st["m"] / (1 - 0.9 ** self.t)
            vhat = st["v"] / (1 - 0.999 ** self.t)
            p -= lr * (mhat / (np.sqrt(vhat) + 1e-8) + self.wd * p)
        return self.params[0].sum()


@program(recompiles=2,
         why='`s <= warmup` decides which formula runs (one entry each side); step '
             'counts are numbers')
def adamw_warmup_cosine_scheduler(wrap):
    params = [W6x3.copy(), np.zeros(3)]
    opt = AdamW(params, WarmupCosine())
    f = wrap(opt.step)
    outs = [f([GRADS[i], GRADS[i][0]]) for i in range(8)]
    return outs, params, opt.state, opt.lrs, opt.t


def clip_by_global_norm(grads, max_norm, norms):
    """Clip a list of gradients to a global norm; the norm is logged (an array)."""
    total = np.sqrt(sum(np.sum(g * g) for g in grads))
    norms.append(total)
    coef = np.minimum(max_norm / (total + 1e-6), 1.0)
    return [g * coef for g in grads]


@program(recompiles=0)
def grad_clip_global_norm_log(wrap):
    f = wrap(clip_by_global_norm)
    norms = []
    outs = [f([GRADS[i], GRADS[i][:, 0]], 2.0, norms) for i in range(8)]
    return outs, norms


class StepLR:
    """torch-style StepLR: ``gamma ** (epoch // step_size)`` written into an optimizer."""

    def __init__(self, opt, step_size=2, gamma=0.5):
        self.opt, self.step_size, self.gamma = opt, step_size, gamma
        self.base = opt.lr
        self.last_epoch = 0

    def step(self):
        self.last_epoch += 1
        self.opt.lr = self.base * self.gamma ** (self.last_epoch // self.step_size)


class SGD:
    def __init__(self, lr=0.2):
        self.lr = lr
        self.w = W6x3.copy()
        self.sched = StepLR(self)

    def train_step(self, g):
        self.w = self.w - self.lr * g
        self.sched.step()
        return self.w


@program(recompiles=1, why=NUMBER)
def step_lr_scheduler_writes_optimizer_lr(wrap):
    opt = SGD()
    f = wrap(opt.train_step)
    outs = [f(GRADS[i]) for i in range(8)]
    return outs, opt.lr, opt.sched.last_epoch


class ListScheduleSGD:
    """A learning-rate schedule as a precomputed list of floats indexed by a counter."""

    def __init__(self):
        self.lrs = [0.1 * 0.7 ** i for i in range(20)]
        self.i = 0
        self.v = np.zeros((6, 3))

    def step(self, w, g):
        lr = self.lrs[self.i]
        self.i += 1
        self.v = 0.9 * self.v + g
        return w - lr * (g + 0.9 * self.v)


@program(recompiles=1,
         why='the item read at a changing index changes: a number from then on '
             '(``lrs[self.i]`` reads that item alone: builder._item_at)')
def lr_list_indexed_by_counter(wrap):
    opt = ListScheduleSGD()
    f = wrap(opt.step)
    w = W6x3.copy()
    outs = []
    for i in range(8):
        w = f(w, GRADS[i])
        outs.append(w)
    return outs, opt.i, opt.v


# ===================================================================== caches

@functools.lru_cache(maxsize=32)
def hann_window(n):
    return 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / (n - 1))


def windowed_power(frame):
    w = hann_window(frame.shape[-1])
    spec = np.abs(np.fft.rfft(frame * w)) ** 2
    return spec / np.sum(w ** 2)


@program(recompiles=0)
def lru_cache_window_by_length(wrap):
    hann_window.cache_clear()
    f = wrap(windowed_power)
    outs = [f(_data(1300 + i, 16)) for i in range(8)]
    return outs, hann_window.cache_info().currsize


class PolyFeatures:
    """Vandermonde exponents memoized in a dict keyed by an int degree (always 3 here)."""

    def __init__(self):
        self.memo = {}
        self.hits = 0

    def transform(self, x, degree):
        if degree not in self.memo:
            self.memo[degree] = np.arange(degree + 1)
        else:
            self.hits += 1
        return x[:, None] ** self.memo[degree]


@program(recompiles=1,
         why='the memo is empty on the first call, filled afterwards (control flow)')
def dict_memo_keyed_by_int_degree(wrap):
    p = PolyFeatures()
    f = wrap(p.transform)
    outs = [f(_data(1310 + i, 5), 3) for i in range(8)]
    return outs, sorted(p.memo), p.hits


# ===================================================================== simulations

class Particles:
    """Explicit Euler with a float clock ``t += dt`` and an event list of (t, energy)."""

    def __init__(self, n=6, dt=0.05):
        self.pos = _data(1400, n, 2)
        self.vel = np.zeros((n, 2))
        self.t = 0.0
        self.dt = dt
        self.events = []

    def step(self, force):
        self.vel = self.vel + self.dt * force
        self.pos = self.pos + self.dt * self.vel
        self.t += self.dt
        energy = 0.5 * np.sum(self.vel ** 2)
        self.events.append((self.t, energy))
        return self.pos


@program(recompiles=1, why=NUMBER)
def particles_float_clock_event_log(wrap):
    sim = Particles()
    f = wrap(sim.step)
    outs = [f(_data(1410 + i, 6, 2)) for i in range(8)]
    return outs, sim.t, sim.events


class DampedOscillator:
    """Forcing ``sin(omega * t)`` from a float clock in ``math.sin``; scheduled events
    fire when the clock passes them (control flow on the clock)."""

    def __init__(self):
        self.x = np.ones(3)
        self.v = np.zeros(3)
        self.t = 0.0
        self.dt = 0.1
        self.pending = [0.35, 0.75]
        self.fired = []

    def step(self, k):
        f = math.sin(2.0 * self.t)
        self.v = self.v + self.dt * (-k * self.x - 0.2 * self.v + f)
        self.x = self.x + self.dt * self.v
        self.t += self.dt
        while self.pending and self.pending[0] <= self.t:
            self.fired.append(self.pending.pop(0))
        return self.x


@program(recompiles=4,
         why='control flow: each pending event fires once (the clock passes it: a '
             'decision on the changing float ``t``), and each pop shortens the queue '
             'whose items the ``while`` reads (its length is guarded)')
def oscillator_event_queue_float_clock(wrap):
    sim = DampedOscillator()
    f = wrap(sim.step)
    k = np.array([1.0, 2.0, 3.0])
    outs = [f(k) for _ in range(10)]
    return outs, sim.t, sim.fired, sim.pending


class SIRModel:
    """An SIR epidemic with a day counter and a dict of lists of daily counts."""

    def __init__(self):
        self.state = np.array([[0.99, 0.01, 0.0], [0.95, 0.05, 0.0]])
        self.day = 0
        self.log = {"day": [], "infected": []}

    def advance(self, beta, gamma):
        s, i, r = self.state[:, 0], self.state[:, 1], self.state[:, 2]
        new_inf = beta * s * i
        new_rec = gamma * i
        self.state = np.stack([s - new_inf, i + new_inf - new_rec, r + new_rec], axis=1)
        self.day += 1
        self.log["day"].append(self.day)
        self.log["infected"].append(self.state[:, 1])
        return self.state


@program(recompiles=1, why=NUMBER)
def sir_model_day_counter_dict_log(wrap):
    m = SIRModel()
    f = wrap(m.advance)
    outs = [f(np.array([0.3, 0.4]), 0.1) for _ in range(8)]
    return outs, m.day, m.log


# ===================================================================== loggers

class TupleLogger:
    """Appends (call number, shape, dtype name) tuples and a formatted string per call."""

    def __init__(self):
        self.rows = []
        self.lines = []
        self.n = 0

    def record(self, x):
        self.n += 1
        self.rows.append((self.n, x.shape, x.dtype.name))
        self.lines.append(f"call {self.n}: shape={x.shape}")
        return np.cumsum(x) / self.n


@program(recompiles=1, why=NUMBER)
def logger_appends_tuples_and_strings(wrap):
    log = TupleLogger()
    f = wrap(log.record)
    return [f(_data(1500 + i, 8)) for i in range(8)], log.rows, log.lines


def summarize_batch(X, history):
    """Appends a dict of array statistics per call to a caller's list."""
    mu = X.mean(axis=0)
    history.append({"mean": mu, "std": X.std(axis=0), "n": X.shape[0]})
    return (X - mu) / (X.std(axis=0) + 1e-8)


@program(recompiles=0)
def logger_appends_dicts_of_arrays(wrap):
    history = []
    f = wrap(summarize_batch)
    outs = [f(_data(1510 + i, 5, 3), history) for i in range(8)]
    return outs, history


# ===================================================================== iterators

class BatchFeeder:
    """A model that pulls its next batch from an iterator it keeps."""

    def __init__(self, batches):
        self.it = iter(batches)
        self.w = W6x3.copy()

    def step(self, lr):
        X = next(self.it)
        self.w = self.w - lr * X.T @ (X @ self.w) / X.shape[0]
        return self.w


@program(recompiles=0)
def iterator_of_batches_advanced_each_call(wrap):
    feeder = BatchFeeder([_data(1600 + i, 4, 6) for i in range(10)])
    f = wrap(feeder.step)
    return [f(0.05) for _ in range(8)], feeder.w


def lr_generator(base=0.1, decay=0.8):
    lr = base
    while True:
        yield lr
        lr *= decay


class GenScheduled:
    def __init__(self):
        self.lrs = lr_generator()
        self.w = W6x3.copy()

    def step(self, g):
        lr = next(self.lrs)
        self.w = self.w - lr * g
        return self.w


@program(recompiles=1, why=NUMBER)
def generator_schedule_next_each_call(wrap):
    m = GenScheduled()
    f = wrap(m.step)
    return [f(GRADS[i]) for i in range(8)], m.w, next(m.lrs)


class CountedSteps:
    """Step ids from ``itertools.count`` used in float math."""

    def __init__(self):
        self.ids = itertools.count(1)
        self.w = np.zeros(8)

    def step(self, x):
        k = next(self.ids)
        self.w = self.w + (x - self.w) / k
        return self.w


@program(recompiles=1, why=NUMBER)
def itertools_count_step_ids(wrap):
    c = CountedSteps()
    f = wrap(c.step)
    return [f(_data(1620 + i, 8)) for i in range(8)], c.w, next(c.ids)


# ===================================================================== None <-> arrays

class DeltaEncoder:
    """Keeps the previous input, ``None`` before the first call and after a reset."""

    def __init__(self):
        self.prev = None

    def encode(self, x):
        out = x if self.prev is None else x - self.prev
        self.prev = x
        return out


@program(recompiles=2,
         why='prev is None or an array: one entry each (after the reset: no more)')
def previous_input_swapped_with_none(wrap):
    enc = DeltaEncoder()
    f = wrap(enc.encode)
    outs = []
    for i in range(8):
        if i == 4:
            enc.prev = None           # a reset between episodes
        outs.append(f(_data(1700 + i, 5)))
    return outs, enc.prev


class CachedLayer:
    """A layer that caches its input for backward and clears the cache in backward."""

    def __init__(self):
        self.W = W6x3.copy()
        self.cache = None
        self.grads = []

    def train_step(self, X, dY):
        self.cache = X
        out = X @ self.W
        dW = self.cache.T @ dY
        self.grads.append(dW)
        self.W = self.W - 0.01 * dW
        self.cache = None
        return out


@program(recompiles=0)
def cache_set_then_cleared_each_call(wrap):
    layer = CachedLayer()
    f = wrap(layer.train_step)
    outs = [f(_data(1710 + i, 4, 6), _data(1720 + i, 4, 3)) for i in range(8)]
    return outs, layer.W, layer.grads, layer.cache


# ===================================================================== deques

class MovingAverage:
    """A moving average over the last four arrays in a ``deque(maxlen=4)``."""

    def __init__(self):
        self.window = collections.deque(maxlen=4)

    def update(self, x):
        self.window.append(x)
        return np.mean(np.stack(self.window), axis=0)


@program(recompiles=1,
         why='the empty deque, then one entry for every length: the rows held that '
             'the append keeps (``list(d)[-3:]``) are one input of symbolic length')
def moving_average_deque_window(wrap):
    m = MovingAverage()
    f = wrap(m.update)
    return [f(_data(1800 + i, 6)) for i in range(9)], list(m.window)


class LossSmoother:
    """Smoothed loss over a ``deque(maxlen=3)`` of Python floats passed in."""

    def __init__(self):
        self.recent = collections.deque(maxlen=3)

    def step(self, x, loss):
        self.recent.append(loss)
        return x * (sum(self.recent) / len(self.recent))


@program(recompiles=1,
         why='the losses are numbers; `sum(d)` is a float the call computes with '
             "Python's own sum and `len(d)` an int it computes (variables/float_windows.py),"
             ' so the filling window needs no entry per length')
def loss_smoother_deque_of_floats(wrap):
    s = LossSmoother()
    f = wrap(s.step)
    return [f(X8, 1.0 / (i + 1)) for i in range(9)], list(s.recent)


# ===================================================================== counters

def make_decayed_scaler(base=1.0, decay=0.5):
    step = 0

    def scale(x):
        nonlocal step
        step += 1
        return x * (base * decay ** step)

    return scale, lambda: step


@program(recompiles=1, why=NUMBER)
def closure_nonlocal_step_decay(wrap):
    scale, steps = make_decayed_scaler()
    f = wrap(scale)
    return [f(X8) for _ in range(8)], steps()


class Node:
    """A class-level counter of calls over all instances."""

    calls = 0

    def __init__(self, w):
        self.w = w

    def __call__(self, x):
        Node.calls += 1
        return np.tanh(x @ self.w)


@program(recompiles=1, why=NUMBER)
def class_level_call_counter(wrap):
    Node.calls = 0
    n = Node(W4x3)
    f = wrap(n)
    return [f(OBS[i]) for i in range(8)], Node.calls


class IdAssigner:
    """A class attribute counter used as data (an id written into the output)."""

    next_id = 0

    def tag(self, x):
        IdAssigner.next_id += 1
        return np.concatenate([x, [IdAssigner.next_id]])


@program(recompiles=0, why='an int used as array data (``[IdAssigner.next_id]`` in '
                            '``np.concatenate``) is a number, not a size')
def class_counter_used_as_data(wrap):
    IdAssigner.next_id = 0
    a = IdAssigner()
    f = wrap(a.tag)
    return [f(X8) for _ in range(8)], IdAssigner.next_id


# ===================================================================== random generators

def minibatch_sgd(w, X, y, rng, lr):
    """Minibatch selection with a Generator passed in; lr changes each call."""
    idx = rng.permutation(X.shape[0])[:4]
    Xb, yb = X[idx], y[idx]
    return w - lr * Xb.T @ (Xb @ w - yb) / 4


@program(recompiles=1, why=NUMBER)
def rng_passed_in_permutation_minibatch(wrap):
    f = wrap(minibatch_sgd)
    rng = np.random.default_rng(21)
    X, y = _data(1900, 10, 6), _data(1901, 10)
    w = np.zeros(6)
    outs = []
    for i in range(8):
        w = f(w, X, y, rng, 0.1 / (1 + i))
        outs.append(w)
    return outs, rng.bit_generator.state


class OUNoise:
    """Ornstein-Uhlenbeck exploration noise (DDPG): state array, Generator on self,
    sigma decayed per call."""

    def __init__(self, d=3, theta=0.15, sigma=0.3):
        self.theta, self.sigma = theta, sigma
        self.state = np.zeros(d)
        self.rng = np.random.default_rng(22)

    def sample(self, action):
        dx = self.theta * (-self.state) + self.sigma * self.rng.standard_normal(len(self.state))
        self.state = self.state + dx
        self.sigma *= 0.95
        return action + self.state


@program(recompiles=1, why=NUMBER)
def ou_noise_rng_on_self_sigma_decay(wrap):
    n = OUNoise()
    f = wrap(n.sample)
    outs = [f(_data(1910 + i, 3)) for i in range(8)]
    return outs, n.state, n.sigma, n.rng.bit_generator.state


# ===================================================================== decoders

V2, D2 = 12, 6
EMB = _data(2000, V2, D2) * 0.5
WH = _data(2001, D2, D2) * 0.4
WO = _data(2002, D2, V2) * 0.5


class RNNDecoder:
    """Greedy RNN decoding: reads the last token id (an int) from a growing token list,
    appends hidden states and the new token."""

    def __init__(self, bos=1):
        self.tokens = [bos]
        self.hiddens = [np.zeros(D2)]

    def step(self):
        x = EMB[self.tokens[-1]]
        h = np.tanh(x + self.hiddens[-1] @ WH)
        self.hiddens.append(h)
        logits = h @ WO
        self.tokens.append(int(np.argmax(logits)))
        return logits


@program(recompiles=1,
         why='the last token id is data (one recompile when it first changes)')
def rnn_decoder_token_list_last_id(wrap):
    dec = RNNDecoder()
    f = wrap(dec.step)
    outs = [f() for _ in range(8)]
    return outs, dec.tokens, dec.hiddens


class ConcatAttentionCache:
    """Attention over a cache grown with ``np.concatenate`` of (1, d) rows kept in a
    list, reading all of it each step."""

    def __init__(self):
        self.rows = []

    def step(self, x):
        self.rows.append(x[None, :])
        K = np.concatenate(self.rows, axis=0)
        s = K @ x
        p = np.exp(s - s.max())
        return (p / p.sum()) @ K


@program(recompiles=1,
         why='the row list grows: one generic entry after the first length')
def attention_cache_concatenated_rows(wrap):
    c = ConcatAttentionCache()
    f = wrap(c.step)
    return [f(EMB[i % V2]) for i in range(8)], len(c.rows)


def decode_step_with_history(ids, emb, wo):
    """A fresh list of token ids of growing length: mean-pooled context, next logits."""
    ctx = emb[ids].mean(axis=0)
    pos = np.arange(len(ids)) / len(ids)
    return ctx @ wo + pos.sum()


@program(recompiles=1,
         why='a growing list of ints used as an index: one generic entry')
def growing_id_list_mean_pool(wrap):
    f = wrap(decode_step_with_history)
    ids = [3, 1]
    outs = []
    for _ in range(8):
        logits = f(ids, EMB, WO)
        ids = ids + [int(np.argmax(logits))]
        outs.append(logits)
    return outs, ids
