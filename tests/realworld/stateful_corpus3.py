"""A third corpus of stateful programs (issue #16), of kinds the first two lack: training
loops that count steps and log every k-th (``if self.step % 10 == 0: print``), learning
rates by step (step decay, warmup then cosine, plateau), early stopping with patience,
Welford statistics in Python floats, EMA of parameters in a dict of arrays, memo dicts
keyed by ints and tuples that grow, ring buffers as arrays with a write index, replay
buffers as lists sampled by a Generator, windows with a step (``h[-6::2]``), loops over
a window (``for v in self.hist[-3:]``), token lists for decoding, optimizer state made
on the first call (``if k not in self.m``), closure and class-level counters, and
generators held in state (windows, decoding and optimizer state are in
``stateful_corpus3_windows.py``, to keep each file short).

Each runs 12 or more calls with changing values, lengths crossing 0, 1 and the window's
width; what a program prints is part of what it returns (``printed``). Targets and
``known`` notes as in ``stateful_programs.py`` (``test_stateful_corpus3.py``).

Example::

    @program(recompiles=2, why=STEP_LOG)
    def train_loop_logs_every_k(wrap):
        t = Trainer()
        f = wrap(t.train_step)
        out = printed(lambda: [f(g) for g in GS])     # (results, what was printed)
        return out, t.step, t.history
"""

from __future__ import annotations

import contextlib
import io
import math

import numpy as np
from stateful_programs import NUMBER, registrar

PROGRAMS: list = []
program = registrar(PROGRAMS)

CALLS = 14
STEP_LOG = NUMBER + "; `step % k == 0` decides a print: one entry per side"


def _data(seed, *shape):
    return np.random.default_rng(seed).standard_normal(shape)


def printed(calls):
    """``calls()`` with what it prints: (result, text)."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        out = calls()
    return out, buf.getvalue()


XS = [_data(3000 + i, 6) for i in range(CALLS)]
GS = [_data(3100 + i, 4, 3) for i in range(CALLS)]
W4x3 = _data(3200, 4, 3) * 0.3
LOSSES = [1.0, 0.8, 0.85, 0.7, 0.72, 0.71, 0.73, 0.74, 0.69, 0.7, 0.75, 0.76, 0.8, 0.81]
EMB = _data(3300, 10, 4)


# ===================================================================== training loops

class Trainer:
    """``self.step += 1``; every 5th step a log line and an entry in ``history``."""

    def __init__(self):
        self.w = W4x3.copy()
        self.step = 0
        self.history = []

    def train_step(self, g):
        self.w = self.w - 0.1 * g
        self.step += 1
        if self.step % 5 == 0:
            loss = float(np.sum(self.w ** 2))
            print(f"step {self.step}: loss {loss:.4f}")
            self.history.append((self.step, loss))
        return self.w


@program(recompiles=2, why=STEP_LOG)
def train_loop_logs_every_k(wrap):
    t = Trainer()
    f = wrap(t.train_step)
    out = printed(lambda: [f(g) for g in GS])
    return out, t.step, t.history


class StepDecay:
    """``lr = base * gamma ** (step // every)``: an int step in float math."""

    def __init__(self):
        self.w = W4x3.copy()
        self.step = 0

    def update(self, g):
        lr = 0.1 * 0.5 ** (self.step // 4)
        self.w = self.w - lr * g
        self.step += 1
        return self.w, lr


@program(recompiles=1, why=NUMBER)
def step_decay_schedule(wrap):
    s = StepDecay()
    f = wrap(s.update)
    return [f(g) for g in GS], s.step


class WarmupCosine:
    """Linear warmup for 4 steps, then a cosine decay over the rest."""

    def __init__(self, warmup=4, total=14):
        self.w = W4x3.copy()
        self.t = 0
        self.warmup, self.total = warmup, total

    def update(self, g):
        self.t += 1
        if self.t <= self.warmup:
            lr = 0.1 * self.t / self.warmup
        else:
            p = (self.t - self.warmup) / (self.total - self.warmup)
            lr = 0.05 * (1 + math.cos(math.pi * p))
        self.w = self.w - lr * g
        return self.w


@program(recompiles=2, why=NUMBER + "; `t <= warmup` decides the formula: one entry per side")
def warmup_then_cosine_lr(wrap):
    s = WarmupCosine()
    f = wrap(s.update)
    return [f(g) for g in GS], s.t


class EarlyStopping:
    """Patience counter: ``wait`` resets when the loss improves on ``best``."""

    def __init__(self, patience=3):
        self.best = math.inf
        self.wait = 0
        self.patience = patience
        self.stopped = False

    def check(self, x, loss):
        if loss < self.best:
            self.best = loss
            self.wait = 0
        else:
            self.wait += 1
        if self.wait >= self.patience:
            self.stopped = True
        return x * self.best


@program(recompiles=3, why="`loss < best` and `wait >= patience` decide control flow (an "
                           "entry per side); best and wait are numbers")
def early_stopping_patience(wrap):
    es = EarlyStopping()
    f = wrap(es.check)
    return [f(XS[i], LOSSES[i]) for i in range(CALLS)], es.best, es.wait, es.stopped


class Plateau:
    """ReduceLROnPlateau: the lr halves after 2 steps without improvement."""

    def __init__(self):
        self.lr, self.best, self.bad = 0.1, math.inf, 0
        self.w = W4x3.copy()

    def step(self, g, loss):
        if loss < self.best - 1e-3:
            self.best, self.bad = loss, 0
        else:
            self.bad += 1
            if self.bad > 2:
                self.lr *= 0.5
                self.bad = 0
        self.w = self.w - self.lr * g
        return self.w


@program(recompiles=4, why="the comparisons decide control flow; lr, best, bad are numbers "
                           "(was 5: lr, halved in its own branch at the 7th call, was a "
                           "constant of the entries made before; a float the method stores "
                           "is changing from the first trace, dynamo/stored_floats.py)")
def reduce_lr_on_plateau(wrap):
    p = Plateau()
    f = wrap(p.step)
    return [f(GS[i], LOSSES[i]) for i in range(CALLS)], p.lr, p.best, p.bad


class GradAccumulator:
    """Gradients summed over 3 calls, applied on the third."""

    def __init__(self):
        self.acc = np.zeros((4, 3))
        self.count = 0
        self.w = W4x3.copy()

    def step(self, g):
        self.acc = self.acc + g
        self.count += 1
        if self.count % 3 == 0:
            self.w = self.w - 0.1 * self.acc / 3
            self.acc = np.zeros_like(self.acc)
        return self.w


@program(recompiles=2, why=NUMBER + "; `count % 3 == 0` decides the update: one entry a side")
def gradient_accumulation_every_3(wrap):
    a = GradAccumulator()
    f = wrap(a.step)
    return [f(g) for g in GS], a.count, a.acc


# ===================================================================== statistics

class FloatWelford:
    """Welford's mean and variance of a scalar stream, all Python floats."""

    def __init__(self):
        self.n, self.mean, self.m2 = 0, 0.0, 0.0

    def push(self, x, v):
        self.n += 1
        d = v - self.mean
        self.mean += d / self.n
        self.m2 += d * (v - self.mean)
        var = self.m2 / self.n
        return (x - self.mean) / math.sqrt(var + 1e-5)


@program(recompiles=1, why=NUMBER)
def welford_python_floats(wrap):
    w = FloatWelford()
    f = wrap(w.push)
    return [f(XS[i], LOSSES[i]) for i in range(CALLS)], w.n, w.mean, w.m2


class BatchNormStats:
    """Running mean/var with momentum and ``num_batches_tracked``."""

    def __init__(self):
        self.mean, self.var = np.zeros(3), np.ones(3)
        self.tracked = 0

    def forward(self, X):
        m, v = X.mean(0), X.var(0)
        self.mean = 0.9 * self.mean + 0.1 * m
        self.var = 0.9 * self.var + 0.1 * v
        self.tracked += 1
        return (X - m) / np.sqrt(v + 1e-5)


@program(recompiles=0)
def batchnorm_running_stats(wrap):
    bn = BatchNormStats()
    f = wrap(bn.forward)
    return [f(g) for g in GS], bn.mean, bn.var, bn.tracked


class ParamEMA:
    """EMA of parameters in a dict of arrays, decay warming up with the update count."""

    def __init__(self, params):
        self.shadow = {k: v.copy() for k, v in params.items()}
        self.n = 0

    def update(self, params):
        self.n += 1
        decay = min(0.99, (1 + self.n) / (10 + self.n))
        for k, p in params.items():
            self.shadow[k] = decay * self.shadow[k] + (1 - decay) * p
        return self.shadow["w"]


@program(recompiles=1, why=NUMBER)
def ema_of_params_dict(wrap):
    ema = ParamEMA({"w": W4x3, "b": np.zeros(3)})
    f = wrap(ema.update)
    outs = [f({"w": GS[i], "b": XS[i][:3]}) for i in range(CALLS)]
    return outs, ema.shadow, ema.n


# ===================================================================== memo dicts

class IntMemo:
    """Powers of a matrix memoized by the exponent, which cycles through 1..4."""

    def __init__(self):
        self.memo = {}
        self.A = W4x3[:3] + np.eye(3)

    def apply(self, x, k):
        if k not in self.memo:
            self.memo[k] = np.linalg.matrix_power(self.A, k)
        return self.memo[k] @ x[:3]


@program(recompiles=2, why=NUMBER + "; `k in self.memo` is guarded present or absent, "
                                    "not the memo's keys (an entry per side); k from 2 up "
                                    "is a size (matrix_power)")
def memo_dict_int_keys_grows(wrap):
    m = IntMemo()
    f = wrap(m.apply)
    return [f(XS[i], 1 + i % 4) for i in range(CALLS)], m.memo


class TupleMemo:
    """Gaussian kernels memoized by ``(size, sigma_index)``."""

    def __init__(self):
        self.cache = {}

    def smooth(self, x, size, s):
        key = (size, s)
        if key not in self.cache:
            t = np.arange(size) - (size - 1) / 2
            k = np.exp(-0.5 * (t / (0.5 + s)) ** 2)
            self.cache[key] = k / k.sum()
        return np.convolve(x, self.cache[key], mode="same")


@program(recompiles=2, why=NUMBER + "; `key not in self.cache` of a tuple holding a changing "
                                    "int is guarded present or absent (an entry per side), "
                                    "not the cache's keys")
def memo_dict_tuple_keys_grows(wrap):
    m = TupleMemo()
    f = wrap(m.smooth)
    return [f(XS[i], 3, i % 3) for i in range(CALLS)], sorted(m.cache)


# ===================================================================== ring and replay buffers

class RingBuffer:
    """An array ring buffer with a write index; the mean of the rows filled."""

    def __init__(self, n=4):
        self.buf = np.zeros((n, 6))
        self.idx = 0
        self.count = 0

    def push(self, x):
        self.buf[self.idx] = x
        self.idx = (self.idx + 1) % self.buf.shape[0]
        self.count = min(self.count + 1, self.buf.shape[0])
        return self.buf[:self.count].mean(0)


@program(recompiles=2, why=NUMBER + "; count shapes the slice while the buffer fills")
def ring_buffer_array_write_index(wrap):
    r = RingBuffer()
    f = wrap(r.push)
    return [f(x) for x in XS], r.buf, r.idx, r.count


class ReplayList:
    """A replay buffer as a list capped at 5 (pop(0)), sampled with a Generator."""

    def __init__(self):
        self.items = []
        self.rng = np.random.default_rng(7)

    def add_and_sample(self, x):
        self.items.append(x)
        if len(self.items) > 5:
            self.items.pop(0)
        i = int(self.rng.integers(len(self.items)))
        return self.items[i] * 2.0


@program(recompiles=1, why="the list fills to 5 (its length decides the pop) and the "
                           "sampled index selects an item: the draw breaks the graph")
def replay_list_rng_sample(wrap):
    r = ReplayList()
    f = wrap(r.add_and_sample)
    return [f(x) for x in XS], r.items, r.rng.bit_generator.state


# ===================================================================== counters

def make_counter():
    n = 0

    def scaled(x):
        nonlocal n
        n += 1
        return x / n
    return scaled


@program(recompiles=1, why=NUMBER)
def closure_nonlocal_counter(wrap):
    f = wrap(make_counter())
    return [f(x) for x in XS]


def make_logging_counter(every=4):
    n = 0
    lines = []

    def step(x):
        nonlocal n
        n += 1
        if n % every == 0:
            lines.append(f"call {n}")
        return x * 2.0
    return step, lines


@program(recompiles=2, why=STEP_LOG)
def closure_counter_logs_every_k(wrap):
    step, lines = make_logging_counter()
    f = wrap(step)
    return [f(x) for x in XS], lines


class Calls:
    total = 0

    def __call__(self, x):
        Calls.total += 1
        return x * 0.5 + Calls.total


@program(recompiles=1, why=NUMBER)
def class_attribute_counter(wrap):
    Calls.total = 0
    f = wrap(Calls())
    return [f(x) for x in XS], Calls.total


# ===================================================================== generators in state

def noise_levels(start=1.0):
    s = start
    while True:
        yield s
        s *= 0.7


class Denoiser:
    """The noise level comes from a generator held on the object."""

    def __init__(self):
        self.levels = noise_levels()
        self.rng = np.random.default_rng(5)

    def step(self, x):
        s = next(self.levels)
        return x + s * self.rng.standard_normal(x.shape)


@program(recompiles=1, why=NUMBER)
def generator_noise_schedule(wrap):
    d = Denoiser()
    f = wrap(d.step)
    return [f(x) for x in XS], next(d.levels), d.rng.bit_generator.state


class CyclingBatches:
    """An iterator over 3 weight sets restarted when exhausted (StopIteration)."""

    def __init__(self):
        self.pool = [W4x3, W4x3 * 2, W4x3 * 3]
        self.it = iter(self.pool)

    def step(self, g):
        try:
            w = next(self.it)
        except StopIteration:
            self.it = iter(self.pool)
            w = next(self.it)
        return w * g


@program(recompiles=3, why="the iterator's position selects the item (one per item)")
def iterator_restarted_on_stop(wrap):
    c = CyclingBatches()
    f = wrap(c.step)
    return [f(g) for g in GS]


class MetricsLog:
    """``self.metrics.setdefault(name, []).append(float(...))``: write-only lists."""

    def __init__(self):
        self.metrics = {}

    def log(self, x):
        y = np.tanh(x)
        self.metrics.setdefault("mean", []).append(float(y.mean()))
        self.metrics.setdefault("max", []).append(float(y.max()))
        return y


@program(recompiles=1, why="the dict is empty on the first call")
def metrics_setdefault_append(wrap):
    m = MetricsLog()
    f = wrap(m.log)
    return [f(x) for x in XS], m.metrics
