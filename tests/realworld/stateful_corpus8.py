"""Issue #16's eighth stateful corpus, written before it was run: 40 programs of the kinds
public repositories keep state in between calls. This file holds 20: layers that keep
caches and retained inputs, optimizers with step counters and per-parameter state dicts,
decoders and tokenizers appending to lists, running statistics, memo dicts keyed by
shapes and lengths. ``stateful_corpus8_sim.py`` holds the other 20 (``random.Random``
and ``np.random.Generator`` simulations, replay buffers, generators reading a list whole,
``max``/``sum`` of a growing dict's values, attributes whose type changes); ``PROGRAMS``
here is all 40.

Conventions as corpus 7's: each scenario makes fresh state, compiles one callable
(``wrap``), calls it ``CALLS`` times with the same shapes and changing values, and
returns each call's result with a copy of the state after it (``snap``), all compared
with plain Python's (``test_stateful_corpus8.py``). The targets were written with the
programs, before the first run; a ``known`` note holds the count measured where a
program recompiles more, and the cause found.

Example::

    @program(recompiles=0)
    def dense_layer_cache(wrap):
        layer = DenseCache()
        f = wrap(layer.forward)
        return [(f(XS[i]), snap(layer.cache)) for i in range(CALLS)]
"""

from __future__ import annotations

import math

import numpy as np
import stateful_corpus8_sim
from stateful_corpus4 import CALLS, LOSSES, XS, snap
from stateful_programs import NUMBER, registrar

PROGRAMS: list = []
program = registrar(PROGRAMS)

DATA = "a number the data decides (float()/int() of an array) needs its value: a break"
W = np.random.default_rng(4800).standard_normal((5, 5)) * 0.4
EMB = np.random.default_rng(4801).standard_normal((10, 5)) * 0.5
IDS = [[(3 * i + j) % 10 for j in range(4)] for i in range(CALLS)]


# ===================================================================== layers

class DenseCache:
    """numpy-ml style: ``self.cache["X"] = x`` and ``self.cache["Z"] = z`` each forward,
    never read by the forward pass."""

    def __init__(self):
        self.cache = {}

    def forward(self, x):
        z = W @ x
        self.cache["X"] = x
        self.cache["Z"] = z
        return np.tanh(z)


@program(recompiles=0)
def dense_layer_cache(wrap):
    layer = DenseCache()
    f = wrap(layer.forward)
    return [(f(XS[i]), snap(layer.cache)) for i in range(CALLS)]


class RetainDerived:
    """``retain_derived=True``: inputs and pre-activations appended, a call counter."""

    def __init__(self):
        self.X, self.Z, self.n_calls = [], [], 0

    def forward(self, x):
        z = W @ x + 0.1
        self.X.append(x)
        self.Z.append(z)
        self.n_calls += 1
        return np.maximum(z, 0.0)


@program(recompiles=1, why=NUMBER)
def layer_retain_derived(wrap):
    layer = RetainDerived()
    f = wrap(layer.forward)
    return [(f(XS[i]), snap(layer.X), snap(layer.Z), layer.n_calls) for i in range(CALLS)]


class ShapeKernels:
    """A kernel made on first sight of an input shape, kept in a dict keyed by the shape."""

    def __init__(self):
        self.kernels = {}

    def forward(self, x):
        if x.shape not in self.kernels:
            self.kernels[x.shape] = np.linspace(0.0, 1.0, x.shape[0])
        return np.convolve(x, self.kernels[x.shape], mode="same")


@program(recompiles=1, why="the shape key present or absent (an entry per side)")
def layer_kernel_by_shape(wrap):
    layer = ShapeKernels()
    f = wrap(layer.forward)
    return [(f(XS[i]), snap(layer.kernels)) for i in range(CALLS)]


class KVCache:
    """Attention over a growing key/value cache: one new row per call, stacked."""

    def __init__(self):
        self.k, self.v = [], []

    def attend(self, x):
        self.k.append(W @ x)
        self.v.append(x * 0.5)
        K, V = np.stack(self.k), np.stack(self.v)
        s = K @ x
        p = np.exp(s - s.max())
        return (p / p.sum()) @ V


@program(recompiles=2, why="the stacked length a size: its first change costs one "
                           "recompile, then it is symbolic")
def attention_kv_cache(wrap):
    layer = KVCache()
    f = wrap(layer.attend)
    return [(f(XS[i]), len(layer.k), snap(layer.v[-1])) for i in range(CALLS)]


class LayerNormMode:
    """A layer with a ``training`` flag flipped by the caller at call 7, which truly
    selects control flow, and running stats updated only when training."""

    def __init__(self):
        self.training, self.mu = True, np.zeros(5)

    def forward(self, x):
        if self.training:
            self.mu = 0.9 * self.mu + 0.1 * x
        return (x - self.mu) / (np.abs(x).mean() + 1e-5)


@program(recompiles=1, why="the flag truly decides control flow (one entry per value)")
def layer_train_eval_flag(wrap):
    layer = LayerNormMode()
    f = wrap(layer.forward)
    out = []
    for i in range(CALLS):
        layer.training = i < 7
        out.append((f(XS[i]), layer.mu.copy()))
    return out


# ===================================================================== optimizers

class AdamDicts:
    """Adam with ``self.t`` and per-parameter ``m``/``v`` dicts keyed by name."""

    def __init__(self):
        self.t, self.m, self.v = 0, {}, {}
        self.lr, self.b1, self.b2 = 0.01, 0.9, 0.999

    def step(self, params, grads):
        self.t += 1
        for name in params:
            g = grads[name]
            if name not in self.m:
                self.m[name] = np.zeros_like(g)
                self.v[name] = np.zeros_like(g)
            self.m[name] = self.b1 * self.m[name] + (1 - self.b1) * g
            self.v[name] = self.b2 * self.v[name] + (1 - self.b2) * g * g
            mh = self.m[name] / (1 - self.b1 ** self.t)
            vh = self.v[name] / (1 - self.b2 ** self.t)
            params[name] = params[name] - self.lr * mh / (np.sqrt(vh) + 1e-8)
        return params


@program(recompiles=2, why=NUMBER + "; the state dicts filled on the first call")
def adam_per_param_dicts(wrap):
    opt = AdamDicts()
    f = wrap(opt.step)
    params = {"w": np.zeros(5), "b": np.zeros(5)}
    out = []
    for i in range(CALLS):
        params = f(params, {"w": XS[i], "b": XS[-1 - i] * 0.5})
        out.append((snap(params), snap(opt.m), opt.t))
    return out


class AdagradSqrt:
    """Adagrad with ``lr / math.sqrt(self.t)`` decay (a math call on the counter)."""

    def __init__(self):
        self.t, self.acc, self.w = 0, np.zeros(5), np.zeros(5)

    def step(self, g):
        self.t += 1
        self.acc = self.acc + g * g
        self.w = self.w - (0.1 / math.sqrt(self.t)) * g / (np.sqrt(self.acc) + 1e-8)
        return self.w


@program(recompiles=1, why=NUMBER)
def adagrad_sqrt_counter(wrap):
    opt = AdagradSqrt()
    f = wrap(opt.step)
    return [(f(XS[i]).copy(), opt.t) for i in range(CALLS)]


class RMSPropDecay:
    """``self.lr *= 0.95`` each step, the lr logged in a list only written."""

    def __init__(self):
        self.lr, self.sq, self.lrs = 0.05, np.zeros(5), []

    def step(self, w, g):
        self.sq = 0.9 * self.sq + 0.1 * g * g
        self.lrs.append(self.lr)
        w = w - self.lr * g / (np.sqrt(self.sq) + 1e-6)
        self.lr *= 0.95
        return w


@program(recompiles=1, why=NUMBER)
def rmsprop_lr_history(wrap):
    opt = RMSPropDecay()
    f = wrap(opt.step)
    w, out = np.zeros(5), []
    for i in range(CALLS):
        w = f(w, XS[i])
        out.append((w, snap(opt.lrs), opt.lr))
    return out


class LazyMomentum:
    """Momentum state made lazily per parameter name on first use (``setdefault``)."""

    def __init__(self):
        self.state, self.steps = {}, 0

    def step(self, name, p, g):
        buf = self.state.setdefault(name, np.zeros_like(p))
        buf *= 0.9
        buf += g
        self.steps += 1
        return p - 0.01 * buf


@program(recompiles=2, why=NUMBER + "; the buffer made on the first call (an entry "
                                     "per side of the key's presence)")
def momentum_setdefault_state(wrap):
    opt = LazyMomentum()
    f = wrap(opt.step)
    p, out = np.zeros(5), []
    for i in range(CALLS):
        p = f("w", p, XS[i])
        out.append((p, snap(opt.state), opt.steps))
    return out


# ===================================================================== decoders, tokens

class GreedyDecoder:
    """``self.tokens.append(int(np.argmax(logits)))``: the next token from the last."""

    def __init__(self):
        self.tokens = [1]

    def step(self, x):
        logits = EMB @ (EMB[self.tokens[-1]] + 0.1 * x)
        self.tokens.append(int(np.argmax(logits)))
        return logits


@program(recompiles=2, why=DATA)
def decoder_append_argmax(wrap):
    d = GreedyDecoder()
    f = wrap(d.step)
    return [(f(XS[i]), list(d.tokens)) for i in range(CALLS)]


class IdsEmbedder:
    """A fresh list of 4 Python ints each call: ``EMB[ids]``, the ids logged by extend."""

    def __init__(self):
        self.seen = []

    def embed(self, ids):
        self.seen.extend(ids)
        return EMB[ids].mean(axis=0)


@program(recompiles=1, why="a list of ints used as an index is data, not a constant; "
                           "read by extend, its items changing ints guarded in bounds")
def token_ids_extend_log(wrap):
    e = IdsEmbedder()
    f = wrap(e.embed)
    return [(f(list(IDS[i])), list(e.seen)) for i in range(CALLS)]


class PairCounts:
    """BPE-style pair counting: ``counts[(a, b)] = counts.get((a, b), 0) + 1``."""

    def __init__(self):
        self.counts = {}

    def update(self, ids, x):
        for a, b in zip(ids, ids[1:]):
            self.counts[(a, b)] = self.counts.get((a, b), 0) + 1
        return x * len(self.counts)


@program(recompiles=2, why=NUMBER + "; keys looked up present or absent",
         known=(5, (
                   "tuple keys of the ids' values, each looked up present or absent, and "
                   "len(self.counts) an entry per count until it changes twice")))
def bpe_pair_counts(wrap):
    c = PairCounts()
    f = wrap(c.update)
    return [(f(list(IDS[i]), XS[i]), snap(c.counts)) for i in range(CALLS)]


class PositionalDecode:
    """picoGPT-style: ``EMB[ids] + pos[range(len(ids))]`` over a list that grows by one
    token per call (the token chosen by the caller)."""

    def __init__(self):
        self.ids = [0, 1]
        self.pos = np.random.default_rng(4802).standard_normal((32, 5)) * 0.1

    def forward(self):
        h = EMB[self.ids] + self.pos[range(len(self.ids))]
        return h.sum(axis=0)


@program(recompiles=2, why="the list's length a size, its ids data")
def positional_decode_list(wrap):
    d = PositionalDecode()
    f = wrap(d.forward)
    out = []
    for i in range(CALLS):
        out.append(f())
        d.ids.append((7 * i) % 10)
    return out


# ===================================================================== running statistics

class ChanMerge:
    """Chan's parallel variance: merge a batch's count, mean and M2 into the running."""

    def __init__(self):
        self.n, self.mean, self.m2 = 0, np.zeros(5), np.zeros(5)

    def update(self, batch):
        nb = batch.shape[0]
        mb = batch.mean(axis=0)
        d = mb - self.mean
        tot = self.n + nb
        self.mean = self.mean + d * nb / tot
        self.m2 = self.m2 + ((batch - mb) ** 2).sum(axis=0) + d * d * self.n * nb / tot
        self.n = tot
        return self.m2 / max(self.n - 1, 1)


@program(recompiles=1, why=NUMBER)
def chan_parallel_variance(wrap):
    s = ChanMerge()
    f = wrap(s.update)
    return [(f(np.stack([XS[i], XS[-1 - i]])), s.n, s.mean.copy()) for i in range(CALLS)]


class MetricEMA:
    """``self.ema[k] = 0.9 * self.ema.get(k, v) + 0.1 * v`` over a dict of floats."""

    def __init__(self):
        self.ema = {}

    def update(self, x, metrics):
        for k, v in metrics.items():
            self.ema[k] = 0.9 * self.ema.get(k, v) + 0.1 * v
        return x * self.ema["loss"]


@program(recompiles=2, why=NUMBER + "; the keys added on the first call")
def ema_metric_dict(wrap):
    m = MetricEMA()
    f = wrap(m.update)
    return [(f(XS[i], {"loss": LOSSES[i], "acc": 1.0 - LOSSES[i]}), snap(m.ema))
            for i in range(CALLS)]


class MeanTracker:
    """``self.total += loss; self.count += 1``; the mean scales the input."""

    def __init__(self):
        self.total, self.count = 0.0, 0

    def __call__(self, x, loss):
        self.total += loss
        self.count += 1
        return x * (self.total / self.count)


@program(recompiles=1, why=NUMBER)
def running_mean_float_int(wrap):
    t = MeanTracker()
    f = wrap(t)
    return [(f(XS[i], LOSSES[i]), t.total, t.count) for i in range(CALLS)]


class WindowMedian:
    """``self.buf.append(float(x.mean()))``; the median of the last 5."""

    def __init__(self):
        self.buf = []

    def update(self, x):
        self.buf.append(float(x.mean()))
        return x - np.median(self.buf[-5:])


@program(recompiles=2, why=DATA + "; the window's length a size until full")
def running_median_window(wrap):
    w = WindowMedian()
    f = wrap(w.update)
    return [(f(XS[i]), list(w.buf)) for i in range(CALLS)]


# ===================================================================== memo dicts

class InverseMemo:
    """``(I + x x^T)^-1`` kept per ``x.shape``; a hit counter."""

    def __init__(self):
        self.memo, self.hits = {}, 0

    def solve(self, x):
        key = x.shape
        if key in self.memo:
            self.hits += 1
        else:
            self.memo[key] = np.linalg.inv(np.eye(x.shape[0]) + 0.1 * np.outer(x, x))
        return self.memo[key] @ x


@program(recompiles=2, why=NUMBER + "; the shape key present or absent")
def memo_inverse_by_shape(wrap):
    m = InverseMemo()
    f = wrap(m.solve)
    return [(f(XS[i]), m.hits, len(m.memo)) for i in range(CALLS)]


class LengthMemo:
    """A window of weights memoized per history length (``len(self.h)`` capped at 4)."""

    def __init__(self):
        self.h, self.memo = [], {}

    def update(self, x):
        self.h.append(x)
        n = min(len(self.h), 4)
        if n not in self.memo:
            self.memo[n] = np.arange(1.0, n + 1.0) / (n * (n + 1) / 2)
        return self.memo[n] @ np.stack(self.h[-n:])


@program(recompiles=3, why="the capped length decides the memo key until full; then "
                           "one entry",
         known=(7, (
                   "np.arange(1.0, n + 1.0) of the capped length pins len(self.h): an "
                   "entry per length while the list grows")))
def memo_weights_by_length(wrap):
    m = LengthMemo()
    f = wrap(m.update)
    return [(f(XS[i]), snap(m.memo)) for i in range(CALLS)]


PROGRAMS += stateful_corpus8_sim.PROGRAMS
