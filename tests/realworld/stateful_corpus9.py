"""Issue #16's ninth stateful corpus, written before it was run: 40 programs of the
stateful kinds corpora 1-8 lack. This file holds 20: optimizers with per-parameter
state dicts keyed by name, schedulers with an int epoch and a float lr, caches of
arrays keyed by a tuple of shape and an int, event logs of dicts, running statistics
objects updated per call. ``stateful_corpus9_models.py`` holds the other 20 (replay
buffers with a ring index, tokenizers whose vocabulary grows, simulation objects with a
step count and a time, models whose ``training`` flag the caller toggles, callback
lists); ``PROGRAMS`` here is all 40.

Each scenario makes fresh state, compiles one callable (``wrap``), calls it ``CALLS``
(10) times with the same shapes and changing values, then once more with a new shape
(``X_NEW``, 7 elements where the others have 5; state shaped by the input is re-made
by the caller first, as a program re-initialized for a new size would), and returns
each call's result with a copy of the state after it (``snap``), all compared with
plain Python's (``test_stateful_corpus9.py``). The targets (recompiles after the
first call, the new shape's included) were written with the programs, before the
first run; a ``known`` note holds the count measured where a program recompiles more,
and the cause found.

Example::

    @program(recompiles=2, why=NUMBER + NEW_SHAPE)
    def welford_object(wrap):
        s = Welford(5)
        f = wrap(s.update)
        return [(f(x), s.n, snap(s.mean)) for x in XS]
"""

from __future__ import annotations

import collections

import numpy as np
import stateful_corpus9_models
from stateful_corpus4 import snap
from stateful_corpus9_data import (
    BATCH_NEW,
    BATCHES,
    CALLS,
    G_NEW,
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


# ===================================================================== optimizers

class AdamByName:
    """torch-style Adam: ``self.state[name]`` a dict of ``step`` (int), ``m``, ``v``
    made on first sight of a parameter name."""

    def __init__(self, lr=0.01):
        self.lr, self.state = lr, {}

    def step(self, params, grads):
        out = {}
        for name, p in params.items():
            g = grads[name]
            st = self.state.get(name)
            if st is None:
                st = self.state[name] = {"step": 0, "m": np.zeros_like(p),
                                         "v": np.zeros_like(p)}
            st["step"] += 1
            st["m"] = 0.9 * st["m"] + 0.1 * g
            st["v"] = 0.999 * st["v"] + 0.001 * g * g
            mhat = st["m"] / (1 - 0.9 ** st["step"])
            vhat = st["v"] / (1 - 0.999 ** st["step"])
            out[name] = p - self.lr * mhat / (np.sqrt(vhat) + 1e-8)
        return out


@program(recompiles=2, why=NUMBER + "; a new parameter name at the new shape "
                           "(st['step'] += 1 changing from the first trace since t8)")
def adam_state_dict_by_name(wrap):
    opt = AdamByName()
    f = wrap(opt.step)
    w, b = XS[0].copy(), XS[1][:2].copy()
    out = []
    for i in range(CALLS):
        new = f({"w": w, "b": b}, {"w": GS[i], "b": GS[i][:2]})
        w, b = new["w"], new["b"]
        out.append((new, snap(opt.state)))
    out.append((f({"w2": X_NEW}, {"w2": G_NEW}), snap(opt.state)))
    return out


class NesterovSGD:
    """Momentum made lazily: ``self.velocity`` None until the first step."""

    def __init__(self, lr=0.1, mu=0.9):
        self.lr, self.mu, self.velocity = lr, mu, None

    def step(self, w, g):
        if self.velocity is None:
            self.velocity = np.zeros_like(w)
        self.velocity = self.mu * self.velocity - self.lr * g
        return w + self.mu * self.velocity - self.lr * g


@program(recompiles=2, why="the velocity's type None -> array" + NEW_SHAPE)
def nesterov_lazy_velocity(wrap):
    opt = NesterovSGD()
    f = wrap(opt.step)
    out, w = [], XS[0]
    for i in range(CALLS):
        w = f(w, GS[i])
        out.append((w, snap(opt.velocity)))
    opt.velocity = None
    out.append((f(X_NEW, G_NEW), snap(opt.velocity)))
    return out


class StepScheduler:
    """An int epoch and a float lr halved every third epoch (``epoch % 3 == 0``)."""

    def __init__(self):
        self.epoch, self.lr = 0, 0.1

    def step(self, x):
        self.epoch += 1
        if self.epoch % 3 == 0:
            self.lr *= 0.5
        return x * self.lr


@program(recompiles=3, why=NUMBER + SIDES + NEW_SHAPE)
def scheduler_epoch_halving(wrap):
    s = StepScheduler()
    f = wrap(s.step)
    return [(f(x), s.epoch, s.lr) for x in XS + [X_NEW]]


class WarmupDecay:
    """Linear warmup then linear decay: ``min``/``max`` of changing floats."""

    def __init__(self, warm=3, total=12):
        self.t, self.warm, self.total, self.lrs = 0, warm, total, []

    def step(self, w, g):
        self.t += 1
        lr = 0.1 * min(1.0, self.t / self.warm) * max(0.0, (self.total - self.t) / self.total)
        self.lrs.append(lr)
        return w - lr * g


@program(recompiles=3, why=NUMBER + "; min() and max() of a changing float: an entry "
                           "per side of each" + NEW_SHAPE)
def warmup_linear_decay(wrap):
    s = WarmupDecay()
    f = wrap(s.step)
    return [(f(x, g), list(s.lrs)) for x, g in zip(XS + [X_NEW], GS + [G_NEW])]


class Lookahead:
    """Lookahead: fast weights step every call, slow weights pulled every 3rd."""

    def __init__(self, w):
        self.fast, self.slow, self.k = w.copy(), w.copy(), 0

    def step(self, g):
        self.k += 1
        self.fast = self.fast - 0.1 * g
        if self.k % 3 == 0:
            self.slow = self.slow + 0.5 * (self.fast - self.slow)
            self.fast = self.slow.copy()
        return self.fast


@program(recompiles=3, why=NUMBER + SIDES + NEW_SHAPE)
def lookahead_sync_every_k(wrap):
    o = Lookahead(XS[0])
    f = wrap(o.step)
    out = [(f(g), snap(o.slow), o.k) for g in GS]
    o.fast, o.slow = X_NEW.copy(), X_NEW.copy()
    out.append((f(G_NEW), snap(o.slow), o.k))
    return out


class EMAWeights:
    """A shadow dict of parameters; the decay ``min(0.999, (1 + n) / (10 + n))``."""

    def __init__(self):
        self.shadow, self.n = {}, 0

    def update(self, params):
        self.n += 1
        decay = min(0.999, (1 + self.n) / (10 + self.n))
        for name, p in params.items():
            if name in self.shadow:
                self.shadow[name] = decay * self.shadow[name] + (1 - decay) * p
            else:
                self.shadow[name] = p.copy()
        return decay


@program(recompiles=2, why=NUMBER + "; the name present or absent" + NEW_SHAPE)
def ema_shadow_weights(wrap):
    e = EMAWeights()
    f = wrap(e.update)
    out = [(f({"w": x}), snap(e.shadow)) for x in XS]
    out.append((f({"v": X_NEW}), snap(e.shadow)))
    return out


class ClipHistory:
    """Gradient clipping by norm; each norm logged as a Python float."""

    def __init__(self, max_norm=1.0):
        self.max_norm, self.norms = max_norm, []

    def clip(self, g):
        norm = np.linalg.norm(g)
        self.norms.append(float(norm))
        return g * np.minimum(1.0, self.max_norm / (norm + 1e-6))


@program(recompiles=1, why=NEW_SHAPE)
def clip_norm_float_log(wrap):
    c = ClipHistory()
    f = wrap(c.clip)
    return [(f(g * 20), list(c.norms)) for g in GS + [G_NEW]]


# ===================================================================== caches

class ShapeIntLRU:
    """An ``OrderedDict`` LRU of arrays keyed by ``(x.shape, k)``: hits move to the end,
    the oldest is evicted past 3 entries."""

    def __init__(self):
        self.cache = collections.OrderedDict()

    def window(self, x, k):
        key = (x.shape, k)
        if key in self.cache:
            self.cache.move_to_end(key)
        else:
            self.cache[key] = np.cos(np.linspace(0.0, 1.0, x.shape[0]) * k)
            if len(self.cache) > 3:
                self.cache.popitem(last=False)
        return x * self.cache[key]


@program(recompiles=3, why="a key of a changing int present or absent (an entry per "
                           "side)" + NEW_SHAPE,
         known=(6, (
                   "each key (x.shape, k) present or absent (an entry per side, a "
                   "guard that must stay) and len(self.cache) > 3 an entry per side; "
                   "popitem(last=False) after an insert is a break, and the key "
                   "carried over it is guarded by value in the resume function")))
def lru_shape_int_key(wrap):
    c = ShapeIntLRU()
    f = wrap(c.window)
    ks = [0, 1, 2, 0, 3, 1, 0, 2, 2, 3]
    return [(f(x, k), list(c.cache)) for x, k in zip(XS + [X_NEW], ks + [1])]


class HannMemo:
    """A window per length ``n`` memoized in a dict keyed by ``(n, sym)``."""

    def __init__(self):
        self.memo = {}

    def smooth(self, x, sym):
        n = x.shape[0]
        key = (n, sym)
        if key not in self.memo:
            self.memo[key] = np.hanning(n) if sym else np.hamming(n)
        return x * self.memo[key]


@program(recompiles=3, why="the bool in the key present or absent (an entry per side)"
                           + NEW_SHAPE,
         known=(4, (
                   "a bool in the key: guarded by value (an entry per flag), and each key "
                   "present or absent")))
def memo_window_by_shape_and_flag(wrap):
    m = HannMemo()
    f = wrap(m.smooth)
    flags = [True, True, False, True, False, False, True, True, False, True]
    return [(f(x, s), sorted(m.memo)) for x, s in zip(XS + [X_NEW], flags + [True])]


class CountingCache:
    """Hit and miss counters (ints) beside a dict of normalizers keyed by length."""

    def __init__(self):
        self.cache, self.hits, self.misses = {}, 0, 0

    def normalize(self, x):
        n = len(x)
        if n in self.cache:
            self.hits += 1
        else:
            self.misses += 1
            self.cache[n] = 1.0 / np.sqrt(np.arange(1, n + 1))
        return x * self.cache[n]


@program(recompiles=2, why=NUMBER + "; the length key present" + NEW_SHAPE)
def cache_hit_miss_counters(wrap):
    c = CountingCache()
    f = wrap(c.normalize)
    return [(f(x), c.hits, c.misses, len(c.cache)) for x in XS + [X_NEW]]


class VersionedCache:
    """A cached cumulative sum rebuilt when the owner bumps ``version`` (every 4th
    call, by the caller)."""

    def __init__(self):
        self.version, self.built, self.table = 0, -1, None

    def lookup(self, x):
        if self.built != self.version:
            self.table = np.cumsum(x)
            self.built = self.version
        return x + self.table


@program(recompiles=3, why="the versions compared (an entry per side)" + NEW_SHAPE,
         known=(4, (
                   "self.built != self.version decides control flow: an entry per side, "
                   "and the version's first change")))
def cache_invalidated_by_version(wrap):
    c = VersionedCache()
    f = wrap(c.lookup)
    out = []
    for i, x in enumerate(XS + [X_NEW]):
        if i % 4 == 3 or i == CALLS:
            c.version += 1
        out.append((f(x), c.version, c.built, snap(c.table)))
    return out


# ===================================================================== logs

class EventLog:
    """An event log of dicts: step, the loss (a Python float) and a mean (a NumPy
    float); never read by the step."""

    def __init__(self):
        self.events, self.step = [], 0

    def record(self, x, loss):
        self.step += 1
        y = np.tanh(x)
        self.events.append({"step": self.step, "loss": loss, "mean": y.mean()})
        return y


@program(recompiles=2, why=NUMBER + NEW_SHAPE)
def event_log_of_dicts(wrap):
    e = EventLog()
    f = wrap(e.record)
    return [(f(x, loss), snap(e.events)) for x, loss in zip(XS + [X_NEW], LOSSES)]


class History:
    """Keras-style ``History``: a ``defaultdict(list)`` of metric lists."""

    def __init__(self):
        self.history = collections.defaultdict(list)

    def on_epoch_end(self, x, loss, lr):
        self.history["loss"].append(loss)
        self.history["lr"].append(lr)
        return x * loss


@program(recompiles=2, why=NUMBER + NEW_SHAPE)
def history_defaultdict_lists(wrap):
    h = History()
    f = wrap(h.on_epoch_end)
    lrs = [0.1 * 0.9 ** i for i in range(CALLS + 1)]
    return [(f(x, loss, lr), snap(dict(h.history)))
            for x, loss, lr in zip(XS + [X_NEW], LOSSES, lrs)]


class ScalarWriter:
    """TensorBoard-like: ``self.scalars.setdefault(f"train/{tag}", []).append((step,
    value))``."""

    def __init__(self):
        self.scalars, self.step = {}, 0

    def write(self, x, tag, value):
        self.step += 1
        self.scalars.setdefault(f"train/{tag}", []).append((self.step, value))
        return x - value


@program(recompiles=3, why=NUMBER + "; the tag a string the caller picks (two)"
                           + NEW_SHAPE,
         known=(4, (
                   "the tag a string the caller picks: guarded by value (an entry per "
                   "tag), each f-string key present or absent")))
def scalar_writer_tags(wrap):
    w = ScalarWriter()
    f = wrap(w.write)
    tags = ["loss", "acc"] * 5 + ["loss"]
    return [(f(x, t, v), snap(w.scalars)) for x, t, v in zip(XS + [X_NEW], tags, LOSSES)]


class TailMean:
    """The mean of the last three logged losses scales the input."""

    def __init__(self):
        self.log = []

    def step(self, x, loss):
        self.log.append(loss)
        return x * np.mean(self.log[-3:])


@program(recompiles=3, why=NUMBER + "; the tail's length grows to 3" + NEW_SHAPE)
def log_tail_mean(wrap):
    t = TailMean()
    f = wrap(t.step)
    return [(f(x, loss), list(t.log)) for x, loss in zip(XS + [X_NEW], LOSSES)]


# ===================================================================== running statistics

class Welford:
    """Welford's online mean and variance of arrays: an int count, two arrays."""

    def __init__(self, n):
        self.n, self.mean, self.m2 = 0, np.zeros(n), np.zeros(n)

    def update(self, x):
        self.n += 1
        delta = x - self.mean
        self.mean = self.mean + delta / self.n
        self.m2 = self.m2 + delta * (x - self.mean)
        return self.m2 / max(self.n - 1, 1)


@program(recompiles=3, why=NUMBER + "; max(n - 1, 1) an entry per side" + NEW_SHAPE)
def welford_object(wrap):
    s = Welford(5)
    f = wrap(s.update)
    out = [(f(x), s.n, snap(s.mean)) for x in XS]
    s.__init__(7)
    out.append((f(X_NEW), s.n, snap(s.mean)))
    return out


class MinMaxScaler:
    """Running extremes, ``None`` until the first batch."""

    def __init__(self):
        self.lo = self.hi = None

    def partial_fit(self, x):
        if self.lo is None:
            self.lo, self.hi = x.copy(), x.copy()
        else:
            self.lo, self.hi = np.minimum(self.lo, x), np.maximum(self.hi, x)
        return (x - self.lo) / (self.hi - self.lo + 1e-9)


@program(recompiles=2, why="None -> array" + NEW_SHAPE)
def running_minmax_scaler(wrap):
    s = MinMaxScaler()
    f = wrap(s.partial_fit)
    out = [(f(x), snap(s.lo), snap(s.hi)) for x in XS]
    s.lo = s.hi = None
    out.append((f(X_NEW), snap(s.lo), snap(s.hi)))
    return out


class BiasCorrectedMoments:
    """EMA of the mean and of the square, bias-corrected by ``1 - beta ** t``."""

    def __init__(self):
        self.t, self.m, self.s = 0, 0.0, 0.0

    def update(self, x):
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * x.mean()
        self.s = 0.9 * self.s + 0.1 * (x * x).mean()
        mhat = self.m / (1 - 0.9 ** self.t)
        shat = self.s / (1 - 0.9 ** self.t)
        return (x - mhat) / np.sqrt(shat - mhat * mhat + 1e-6)


@program(recompiles=2, why=NUMBER + "; m and s go float -> np.float64" + NEW_SHAPE)
def bias_corrected_moments(wrap):
    s = BiasCorrectedMoments()
    f = wrap(s.update)
    return [(f(x), s.t, s.m, s.s) for x in XS + [X_NEW]]


class StandardScaler:
    """sklearn's ``partial_fit``: ``n_samples_seen_`` an int, batches of rows."""

    def __init__(self):
        self.n_samples_seen_, self.mean_, self.var_ = 0, np.zeros(5), np.zeros(5)

    def partial_fit(self, batch):
        m = batch.shape[0]
        n = self.n_samples_seen_ + m
        new_mean = batch.mean(axis=0)
        delta = new_mean - self.mean_
        total = self.mean_ + delta * m / n
        m2 = self.var_ * self.n_samples_seen_ + batch.var(axis=0) * m + \
            delta ** 2 * self.n_samples_seen_ * m / n
        self.mean_, self.var_, self.n_samples_seen_ = total, m2 / n, n
        return (batch - self.mean_) / np.sqrt(self.var_ + 1e-12)


@program(recompiles=2, why=NUMBER + "; a batch of more rows at the end" + NEW_SHAPE)
def standard_scaler_partial_fit(wrap):
    s = StandardScaler()
    f = wrap(s.partial_fit)
    return [(f(b), s.n_samples_seen_, snap(s.mean_), snap(s.var_))
            for b in BATCHES + [BATCH_NEW]]


PROGRAMS += stateful_corpus9_models.PROGRAMS
