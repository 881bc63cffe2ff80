"""Stateful programs as users write them (issue #16): one compiled callable called 6-10
times with the same shapes while its Python state changes: layers that append to
``self.X``, optimizers with step counters and per-parameter dicts, caches keyed by shape,
token lists that grow, running statistics, EMA, schedulers, RNG state in objects,
logging lists and dicts, counters in globals and closures, dataclass configs.

Each program is a *scenario*: ``scenario(wrap)`` builds its objects, passes the one
function it calls repeatedly through ``wrap`` (the identity for the eager reference,
``dynamo.compile`` or an ``explain`` recorder when measured), makes its calls the way
a user's loop would, and returns what the user would look at afterwards (results and the
state left behind). ``@program(recompiles=N)`` says how many recompiles the calls after
the first may cost at most: 0 where issue #16 says the state needs no guard (append-only
or write-only state), 1 for a number or an int sequence that changes (its first change
costs one recompile, then it is a graph input); more only where a value truly selects
control flow, with the reason. ``known=(n, cause)`` records a program that recompiles
more today (n times) and the cause, until the cause is fixed
(``test_stateful_programs.py`` holds it to n and reports the gap).

Example::

    @program(recompiles=0)
    def layer_appends_input(wrap):
        layer = TanhLayer()
        f = wrap(layer.forward)
        return [f(X4) for _ in range(8)], layer.X
"""

from __future__ import annotations

import collections
import math
from dataclasses import dataclass, field

import numpy as np

PROGRAMS: list = []

# Why a program may recompile (``why``), and known causes of more (``known``)
NUMBER = "a changing number: its first change costs one recompile, then it is a graph input"


@dataclass
class Program:
    name: str
    scenario: object
    recompiles: int      # at most this many recompiles over the calls after the first
    why: str = ""        # why recompiles are expected at all
    known: tuple | None = None   # (recompiles today, cause) where today is over target


def registrar(programs: list, why: str = ""):
    """The decorator factory a corpus registers its programs with::

        program = registrar(PROGRAMS)

        @program(recompiles=1, why=NUMBER)
        def counter_program(check): ...
    """
    def program(recompiles=0, why=why, known=None):
        def register(fn):
            programs.append(Program(fn.__name__, fn, recompiles, why, known))
            return fn
        return register
    return program


program = registrar(PROGRAMS)


def _data(seed, *shape):
    return np.random.default_rng(seed).standard_normal(shape)


X4 = _data(0, 4)
X8x16 = _data(1, 8, 16)
W16x8 = _data(2, 16, 8) * 0.25
Y8 = _data(3, 8)
BATCHES = [_data(10 + i, 8, 16) for i in range(8)]
TARGETS = [_data(20 + i, 8) for i in range(8)]


# ===================================================================== numpy-ml layers

class TanhLayer:
    """numpy-ml's ``retain_derived=True``: every forward keeps its input."""

    def __init__(self):
        self.X = []

    def forward(self, x):
        self.X.append(x)
        return np.tanh(x)


@program()
def layer_appends_input(wrap):
    layer = TanhLayer()
    f = wrap(layer.forward)
    return [f(X4) for _ in range(10)], layer.X


class FullyConnected:
    """numpy-ml's FullyConnected: parameters in a dict, derived variables in lists."""

    def __init__(self, n_in, n_out, retain_derived=True):
        self.parameters = {"W": _data(5, n_in, n_out) * 0.1, "b": np.zeros((1, n_out))}
        self.derived_variables = {"Z": [], "n_ex": []}
        self.X = []
        self.retain_derived = retain_derived
        self.trainable = True

    def forward(self, X):
        W, b = self.parameters["W"], self.parameters["b"]
        Z = X @ W + b
        Y = np.maximum(Z, 0)
        if self.retain_derived:
            self.X.append(X)
            self.derived_variables["Z"].append(Z)
            self.derived_variables["n_ex"].append(X.shape[0])
        return Y


@program()
def dense_layer_derived_variables(wrap):
    layer = FullyConnected(16, 8)
    f = wrap(layer.forward)
    outs = [f(b) for b in BATCHES]
    return outs, layer.X, layer.derived_variables


class BatchNorm1D:
    """numpy-ml's BatchNorm1D in training mode: running statistics with momentum."""

    def __init__(self, n_in, momentum=0.9, epsilon=1e-5):
        self.momentum, self.epsilon = momentum, epsilon
        self.parameters = {"scaler": np.ones(n_in), "intercept": np.zeros(n_in),
                           "running_mean": np.zeros(n_in), "running_var": np.ones(n_in)}
        self.is_initialized = True
        self.trainable = True

    def forward(self, X):
        P = self.parameters
        ep, mm = self.epsilon, self.momentum
        rm, rv = P["running_mean"], P["running_var"]
        X_mean, X_var = np.mean(X, axis=0), np.var(X, axis=0)
        if self.trainable:
            P["running_mean"] = mm * rm + (1.0 - mm) * X_mean
            P["running_var"] = mm * rv + (1.0 - mm) * X_var
        N = (X - X_mean) / np.sqrt(X_var + ep)
        return P["scaler"] * N + P["intercept"]


@program()
def batchnorm_running_statistics(wrap):
    bn = BatchNorm1D(16)
    f = wrap(bn.forward)
    outs = [f(b) for b in BATCHES]
    return outs, bn.parameters


class BatchNormCounting(BatchNorm1D):
    """The same, with a counter of forward passes nobody reads inside ``forward``."""

    def __init__(self, n_in):
        super().__init__(n_in)
        self.n_iter = 0

    def forward(self, X):
        self.n_iter += 1
        return super().forward(X)


@program(recompiles=1,
         why=NUMBER)
def batchnorm_with_iteration_counter(wrap):
    bn = BatchNormCounting(16)
    f = wrap(bn.forward)
    outs = [f(b) for b in BATCHES]
    return outs, bn.parameters, bn.n_iter


class RNNCell:
    """A vanilla RNN cell that keeps its hidden state and a time step."""

    def __init__(self, n_in, n_hid):
        self.Wx = _data(6, n_in, n_hid) * 0.2
        self.Wh = _data(7, n_hid, n_hid) * 0.2
        self.h = np.zeros((1, n_hid))
        self.t = 0
        self.hidden_states = []

    def step(self, x):
        self.h = np.tanh(x @ self.Wx + self.h @ self.Wh)
        self.t += 1
        self.hidden_states.append(self.h)
        return self.h


@program(recompiles=1,
         why=NUMBER)
def rnn_cell_carries_hidden_state(wrap):
    cell = RNNCell(16, 8)
    f = wrap(cell.step)
    outs = [f(b[:1]) for b in BATCHES]
    return outs, cell.t, cell.hidden_states


# ===================================================================== optimizers

class Adam:
    """numpy-ml's Adam: a per-parameter cache dict with an int step ``t``."""

    def __init__(self, lr=0.001, decay1=0.9, decay2=0.999, eps=1e-7):
        self.cache = {}
        self.hyperparameters = {"lr": lr, "decay1": decay1, "decay2": decay2, "eps": eps}

    def update(self, param, param_grad, param_name):
        C, H = self.cache, self.hyperparameters
        d1, d2 = H["decay1"], H["decay2"]
        lr, eps = H["lr"], H["eps"]
        if param_name not in C:
            C[param_name] = {"t": 0, "mean": np.zeros_like(param_grad),
                             "var": np.zeros_like(param_grad)}
        t = C[param_name]["t"] + 1
        var = C[param_name]["var"]
        mean = C[param_name]["mean"]
        C[param_name]["t"] = t
        C[param_name]["var"] = d2 * var + (1 - d2) * param_grad ** 2
        C[param_name]["mean"] = d1 * mean + (1 - d1) * param_grad
        v_hat = C[param_name]["var"] / (1 - d2 ** t)
        m_hat = C[param_name]["mean"] / (1 - d1 ** t)
        return param - lr * m_hat / (np.sqrt(v_hat) + eps)


@program(recompiles=2,
         why='the first call creates the cache entry (`not in C` decides a branch); then t changes')
def adam_cache_dict_step_counter(wrap):
    opt = Adam()
    f = wrap(opt.update)
    w = W16x8.copy()
    outs = []
    for i in range(8):
        w = f(w, _data(30 + i, 16, 8), "W")
        outs.append(w)
    return outs, opt.cache


def adam_step(g, m, v, t, lr=1e-3, b1=0.9, b2=0.999):
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    m_hat = m / (1 - b1 ** t)
    v_hat = v / (1 - b2 ** t)
    return lr * m_hat / (np.sqrt(v_hat) + 1e-8), m, v


@program(recompiles=1,
         why=NUMBER)
def adam_function_int_step(wrap):
    f = wrap(adam_step)
    m = np.zeros((16, 8))
    v = np.zeros((16, 8))
    w = W16x8.copy()
    outs = []
    for t in range(1, 9):
        step, m, v = f(_data(40 + t, 16, 8), m, v, t)
        w = w - step
        outs.append(w)
    return outs


class SGDMomentum:
    """SGD with momentum; velocities per parameter name; a step-decay scheduler."""

    def __init__(self, lr=0.1, momentum=0.9, step_size=3, gamma=0.5):
        self.lr0, self.momentum = lr, momentum
        self.step_size, self.gamma = step_size, gamma
        self.epoch = 0
        self.velocity = {}

    def lr(self):
        return self.lr0 * self.gamma ** (self.epoch // self.step_size)

    def step(self, params, grads):
        lr = self.lr()
        for name in params:
            v = self.velocity.get(name, 0.0)
            v = self.momentum * v - lr * grads[name]
            self.velocity[name] = v
            params[name] = params[name] + v
        self.epoch += 1
        return params


@program(recompiles=2,
         why='the velocity dict is empty on the first call; then epoch changes')
def sgd_momentum_step_decay(wrap):
    opt = SGDMomentum()
    f = wrap(opt.step)
    params = {"W": W16x8.copy(), "b": np.zeros(8)}
    outs = []
    for i in range(8):
        grads = {"W": _data(50 + i, 16, 8), "b": _data(60 + i, 8)}
        params = f(params, grads)
        outs.append(dict(params))
    return outs, opt.velocity, opt.epoch


class RMSProp:
    def __init__(self, lr=0.01, decay=0.9, eps=1e-7):
        self.lr, self.decay, self.eps = lr, decay, eps
        self.cache = {}
        self.n_updates = 0

    def update(self, param, grad, name):
        if name not in self.cache:
            self.cache[name] = np.zeros_like(grad)
        c = self.cache[name] = self.decay * self.cache[name] + (1 - self.decay) * grad ** 2
        self.n_updates += 1
        return param - self.lr * grad / (np.sqrt(c) + self.eps)


@program(recompiles=2,
         why='the first call creates the cache entry; then n_updates changes')
def rmsprop_cache_and_update_count(wrap):
    opt = RMSProp()
    f = wrap(opt.update)
    w = W16x8.copy()
    outs = []
    for i in range(8):
        w = f(w, _data(70 + i, 16, 8), "W")
        outs.append(w)
    return outs, opt.cache, opt.n_updates


class Adagrad:
    def __init__(self, lr=0.1, eps=1e-8):
        self.lr, self.eps = lr, eps
        self.G = None
        self.t = 0

    def update(self, w, g):
        self.t += 1
        self.G = g * g if self.G is None else self.G + g * g
        return w - self.lr * g / (np.sqrt(self.G) + self.eps)


@program(recompiles=1,
         why='`self.G is None` on the first call only; t changes from the same call')
def adagrad_accumulator_none_then_array(wrap):
    opt = Adagrad()
    f = wrap(opt.update)
    w = W16x8.copy()
    outs = []
    for i in range(8):
        w = f(w, _data(80 + i, 16, 8))
        outs.append(w)
    return outs, opt.G, opt.t


def warmup_lr(step, base_lr=0.1, warmup=4):
    return base_lr * min(1.0, (step + 1) / warmup)


def sgd_with_warmup(w, g, step):
    lr = warmup_lr(step)
    return w - lr * g


@program(recompiles=1,
         why=NUMBER)
def sgd_linear_warmup(wrap):
    f = wrap(sgd_with_warmup)
    w = W16x8.copy()
    outs = []
    for step in range(8):
        w = f(w, _data(90 + step, 16, 8), step)
        outs.append(w)
    return outs


def cosine_annealing_update(w, g, t, T=8, lr_min=1e-3, lr_max=0.1):
    lr = lr_min + 0.5 * (lr_max - lr_min) * (1 + math.cos(math.pi * t / T))
    return w - lr * g


@program(recompiles=1,
         why=NUMBER)
def sgd_cosine_annealing(wrap):
    f = wrap(cosine_annealing_update)
    w = W16x8.copy()
    outs = []
    for t in range(8):
        w = f(w, _data(100 + t, 16, 8), t)
        outs.append(w)
    return outs


class ExponentialDecay:
    def __init__(self, lr=0.1, k=0.3):
        self.initial_lr, self.k = lr, k
        self.step_count = 0

    def apply(self, w, g):
        lr = self.initial_lr * np.exp(-self.k * self.step_count)
        self.step_count += 1
        return w - lr * g


@program(recompiles=1,
         why=NUMBER)
def exponential_decay_scheduler(wrap):
    sched = ExponentialDecay()
    f = wrap(sched.apply)
    w = W16x8.copy()
    outs = []
    for i in range(8):
        w = f(w, _data(110 + i, 16, 8))
        outs.append(w)
    return outs, sched.step_count


class GradClipper:
    """Clips by global norm and records the norms it saw."""

    def __init__(self, max_norm=5.0):
        self.max_norm = max_norm
        self.history = []

    def clip(self, grads):
        total = np.sqrt(sum(np.sum(g * g) for g in grads))
        scale = np.minimum(1.0, self.max_norm / (total + 1e-6))
        self.history.append(total)
        return [g * scale for g in grads]


@program()
def grad_clip_norm_history(wrap):
    clip = GradClipper()
    f = wrap(clip.clip)
    outs = [f([_data(120 + i, 16, 8) * (i + 1), _data(130 + i, 8)]) for i in range(8)]
    return outs, clip.history


class DynamicLossScaler:
    """Mixed-precision style loss scaling: doubles after N good steps."""

    def __init__(self, scale=1024.0, growth_interval=3):
        self.scale = scale
        self.growth_interval = growth_interval
        self.good_steps = 0

    def unscale(self, grads):
        out = grads / self.scale
        self.good_steps += 1
        if self.good_steps % self.growth_interval == 0:
            self.scale *= 2.0
        return out


@program(recompiles=2,
         why='`good_steps % growth_interval == 0` selects control flow; scale changes '
             '(written back by the trace that doubles it: symbolic from that entry on)')
def loss_scaler_growth(wrap):
    scaler = DynamicLossScaler()
    f = wrap(scaler.unscale)
    outs = [f(_data(140 + i, 16, 8) * 1024.0) for i in range(9)]
    return outs, scaler.scale, scaler.good_steps


# ===================================================================== EMA, running stats

class EMA:
    """Exponential moving average of weights with the TF-style warmup decay."""

    def __init__(self, decay=0.999):
        self.decay = decay
        self.num_updates = 0
        self.shadow = None

    def update(self, w):
        self.num_updates += 1
        decay = min(self.decay, (1 + self.num_updates) / (10 + self.num_updates))
        if self.shadow is None:
            self.shadow = w.copy()
        else:
            self.shadow = decay * self.shadow + (1 - decay) * w
        return self.shadow


@program(recompiles=1,
         why='`shadow is None` on the first call only')
def ema_with_warmup_decay(wrap):
    ema = EMA()
    f = wrap(ema.update)
    outs = [f(W16x8 + 0.1 * i) for i in range(8)]
    return outs, ema.num_updates


class RunningMeanStd:
    """OpenAI baselines' RunningMeanStd (parallel Welford update)."""

    def __init__(self, shape, epsilon=1e-4):
        self.mean = np.zeros(shape)
        self.var = np.ones(shape)
        self.count = epsilon

    def update(self, x):
        batch_mean = np.mean(x, axis=0)
        batch_var = np.var(x, axis=0)
        batch_count = x.shape[0]
        delta = batch_mean - self.mean
        tot_count = self.count + batch_count
        new_mean = self.mean + delta * batch_count / tot_count
        m_a = self.var * self.count
        m_b = batch_var * batch_count
        M2 = m_a + m_b + np.square(delta) * self.count * batch_count / tot_count
        self.mean, self.var, self.count = new_mean, M2 / tot_count, tot_count
        return (x - self.mean) / np.sqrt(self.var + 1e-8)


@program(recompiles=1,
         why=NUMBER)
def running_mean_std_float_count(wrap):
    rms = RunningMeanStd((16,))
    f = wrap(rms.update)
    outs = [f(b) for b in BATCHES]
    return outs, rms.mean, rms.var, rms.count


class IncrementalMean:
    def __init__(self):
        self.n = 0
        self.mean = 0.0

    def add(self, reward):
        self.n += 1
        self.mean += (reward - self.mean) / self.n
        return self.mean


@program(recompiles=1,
         why=NUMBER)
def incremental_mean_of_rewards(wrap):
    m = IncrementalMean()
    f = wrap(m.add)
    outs = [f(np.float64(r)) for r in (1.0, 0.5, -2.0, 3.0, 0.25, 1.5, 0.0, 2.0)]
    return outs, m.n


class StandardScalerPartialFit:
    """sklearn's StandardScaler.partial_fit: n_samples_seen_ grows by the batch size."""

    def __init__(self):
        self.n_samples_seen_ = 0
        self.mean_ = None
        self.var_ = None

    def partial_fit(self, X):
        n = X.shape[0]
        if self.mean_ is None:
            self.mean_ = np.zeros(X.shape[1])
            self.var_ = np.zeros(X.shape[1])
        last_sum = self.mean_ * self.n_samples_seen_
        new_sum = X.sum(axis=0)
        updated_n = self.n_samples_seen_ + n
        updated_mean = (last_sum + new_sum) / updated_n
        new_unnorm_var = X.var(axis=0) * n
        last_unnorm_var = self.var_ * self.n_samples_seen_
        if self.n_samples_seen_ == 0:
            updated_unnorm_var = new_unnorm_var
        else:
            last_over_new = self.n_samples_seen_ / n
            updated_unnorm_var = (last_unnorm_var + new_unnorm_var
                                  + last_over_new / updated_n
                                  * (last_sum / last_over_new - new_sum) ** 2)
        self.mean_, self.var_ = updated_mean, updated_unnorm_var / updated_n
        self.n_samples_seen_ = updated_n
        return self


@program(recompiles=1,
         why='`mean_ is None` and `n_samples_seen_ == 0` on the first call only')
def standard_scaler_partial_fit(wrap):
    sc = StandardScalerPartialFit()
    f = wrap(sc.partial_fit)
    for b in BATCHES:
        f(b)
    return sc.mean_, sc.var_, sc.n_samples_seen_


class SGDRegressorPartialFit:
    """sklearn's SGDRegressor with learning_rate='invscaling': eta = eta0 / t ** power_t."""

    def __init__(self, n_features, eta0=0.01, power_t=0.25, alpha=1e-4):
        self.coef_ = np.zeros(n_features)
        self.intercept_ = 0.0
        self.t_ = 1
        self.eta0, self.power_t, self.alpha = eta0, power_t, alpha
        self.loss_curve_ = []

    def partial_fit(self, X, y):
        eta = self.eta0 / self.t_ ** self.power_t
        pred = X @ self.coef_ + self.intercept_
        err = pred - y
        grad = X.T @ err / X.shape[0] + self.alpha * self.coef_
        self.coef_ = self.coef_ - eta * grad
        self.intercept_ = self.intercept_ - eta * err.mean()
        self.t_ += X.shape[0]
        self.loss_curve_.append(float(np.mean(err ** 2)))
        return self


@program(recompiles=1,
         why=NUMBER)
def sgd_regressor_partial_fit(wrap):
    reg = SGDRegressorPartialFit(16)
    f = wrap(reg.partial_fit)
    for b, y in zip(BATCHES, TARGETS):
        f(b, y)
    return reg.coef_, reg.intercept_, reg.t_, reg.loss_curve_


class MiniBatchKMeans:
    """sklearn-like MiniBatchKMeans.partial_fit with per-center counts."""

    def __init__(self, centers):
        self.cluster_centers_ = centers.copy()
        self.counts_ = np.zeros(centers.shape[0])
        self.n_steps_ = 0

    def partial_fit(self, X):
        d = ((X[:, None, :] - self.cluster_centers_[None]) ** 2).sum(-1)
        labels = d.argmin(axis=1)
        for k in range(self.cluster_centers_.shape[0]):
            mask = labels == k
            n = mask.sum()
            self.counts_[k] += n
            if n:
                lr = n / self.counts_[k]
                self.cluster_centers_[k] = ((1 - lr) * self.cluster_centers_[k]
                                            + lr * X[mask].mean(axis=0))
        self.n_steps_ += 1
        return labels


@program()
def minibatch_kmeans_partial_fit(wrap):
    km = MiniBatchKMeans(X8x16[:3])
    f = wrap(km.partial_fit)
    outs = [f(b) for b in BATCHES]
    return outs, km.cluster_centers_, km.counts_, km.n_steps_


# ===================================================================== decoders

VOCAB, CTX, D = 32, 24, 16
WTE = _data(200, VOCAB, D) * 0.5
WPE = _data(201, CTX, D) * 0.1
WOUT = _data(202, D, VOCAB) * 0.5


def layer_norm(x, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)


def gpt_forward(inputs, wte, wpe, wout):
    """picoGPT's embedding + (here, one) block + unembedding."""
    x = wte[inputs] + wpe[range(len(inputs))]
    n = x.shape[0]
    mask = (1 - np.tri(n)) * -1e10
    att = x @ x.T / np.sqrt(x.shape[-1]) + mask
    att = np.exp(att - att.max(axis=-1, keepdims=True))
    att = att / att.sum(axis=-1, keepdims=True)
    x = layer_norm(x + att @ x)
    return x @ wout


@program(recompiles=1,
         why='a growing token list: one generic entry after the first length')
def picogpt_greedy_decode_list(wrap):
    f = wrap(gpt_forward)
    out = []
    for prompt in ([1, 5, 7], [2, 9, 3]):
        inputs = list(prompt)
        for _ in range(8):
            logits = f(inputs, WTE, WPE, WOUT)
            inputs.append(int(np.argmax(logits[-1])))
        out.append(inputs)
    return out


@program(recompiles=1,
         why='a growing int64 array of ids: one generic entry')
def picogpt_greedy_decode_array(wrap):
    f = wrap(gpt_forward)
    out = []
    for prompt in ([1, 5, 7], [2, 9, 3]):
        ids = np.array(prompt, dtype=np.int64)
        for _ in range(8):
            logits = f(ids, WTE, WPE, WOUT)
            ids = np.append(ids, np.argmax(logits[-1]))
        out.append(ids)
    return out


def embed_tokens(ids, wte):
    """A fresh list of token ids of one length each call."""
    x = wte[np.array(ids)]
    return x.mean(axis=0)


@program(recompiles=1,
         why='a fresh list of ints: array data after the first change')
def embedding_of_fresh_id_lists(wrap):
    f = wrap(embed_tokens)
    rng = np.random.default_rng(5)
    return [f([int(t) for t in rng.integers(0, VOCAB, 6)], WTE) for _ in range(8)]


class KVCacheDecoder:
    """Decoding with a key/value cache kept as lists of per-step rows."""

    def __init__(self):
        self.keys = []
        self.values = []
        self.Wk = _data(210, D, D) * 0.3
        self.Wv = _data(211, D, D) * 0.3

    def step(self, x):
        self.keys.append(x @ self.Wk)
        self.values.append(x @ self.Wv)
        K = np.stack(self.keys)
        V = np.stack(self.values)
        s = K @ x / np.sqrt(D)
        p = np.exp(s - s.max())
        return (p / p.sum()) @ V


@program(recompiles=1,
         why='the cache lists grow: one generic entry (each list one stacked input of '
             'symbolic length, the appended row from the graph: variables/stacked_lists.py)')
def kv_cache_decode_lists(wrap):
    dec = KVCacheDecoder()
    f = wrap(dec.step)
    return [f(WTE[i]) for i in range(8)], len(dec.keys)


def sample_with_temperature(logits, temperature, rng):
    z = logits / temperature
    p = np.exp(z - z.max())
    p = p / p.sum()
    return rng.choice(len(p), p=p)


@program(recompiles=1,
         why=NUMBER)
def temperature_sampling_changing_float(wrap):
    f = wrap(sample_with_temperature)
    rng = np.random.default_rng(7)
    return [f(WOUT[0], t, rng) for t in (1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3)]


class PositionalEncodingCache:
    """Sinusoidal position tables memoized per sequence length."""

    def __init__(self, d):
        self.d = d
        self._cache = {}

    def encode(self, x):
        n = x.shape[0]
        if n not in self._cache:
            pos = np.arange(n)[:, None]
            i = np.arange(self.d)[None, :]
            angle = pos / np.power(10000, (2 * (i // 2)) / self.d)
            self._cache[n] = np.where(i % 2 == 0, np.sin(angle), np.cos(angle))
        return x + self._cache[n]


@program(recompiles=1,
         why='the table is missing on the first call, present afterwards')
def positional_encoding_cache_by_length(wrap):
    pe = PositionalEncodingCache(16)
    f = wrap(pe.encode)
    return [f(b) for b in BATCHES], sorted(pe._cache)


_SHAPE_CACHE: dict = {}


def dft_matrix_cached(x):
    n = x.shape[-1]
    key = (n, x.dtype.str)
    if key not in _SHAPE_CACHE:
        k = np.arange(n)
        _SHAPE_CACHE[key] = np.exp(-2j * np.pi * np.outer(k, k) / n)
    return x @ _SHAPE_CACHE[key]


@program(recompiles=1,
         why='the matrix is missing on the first call, present afterwards')
def global_cache_keyed_by_shape(wrap):
    _SHAPE_CACHE.clear()
    f = wrap(dft_matrix_cached)
    return [f(b) for b in BATCHES], sorted(_SHAPE_CACHE)


# ===================================================================== RL

class ReplayBuffer:
    """A list-backed replay buffer: transitions appended, position wraps at capacity."""

    def __init__(self, capacity=100):
        self.capacity = capacity
        self.memory = []
        self.position = 0

    def push(self, state, action, reward, next_state, done):
        if len(self.memory) < self.capacity:
            self.memory.append(None)
        self.memory[self.position] = (state, action, reward, next_state, done)
        self.position = (self.position + 1) % self.capacity


class Agent:
    def __init__(self):
        self.W = _data(300, 4, 2) * 0.5
        self.buffer = ReplayBuffer()
        self.total_reward = 0.0
        self.steps = 0

    def act_and_store(self, state, reward, next_state):
        q = state @ self.W
        action = int(np.argmax(q))
        self.buffer.push(state, action, reward, next_state, False)
        self.total_reward += reward
        self.steps += 1
        return q


@program(recompiles=2,
         why='reward changes; `len(memory) < capacity` is control flow (its outcome is '
             'guarded: the list length is a changing int, `memory[position] = t` a set '
             'replayed after the graph, `(position + 1) % capacity` computed by the call)')
def dqn_agent_replay_buffer_list(wrap):
    agent = Agent()
    f = wrap(agent.act_and_store)
    outs = []
    for i in range(8):
        s, s2 = _data(310 + i, 4), _data(320 + i, 4)
        outs.append(f(s, 0.1 * i, s2))
    return outs, agent.buffer.memory, agent.buffer.position, agent.total_reward, agent.steps


class ArrayReplayBuffer:
    """SpinningUp's ReplayBuffer: preallocated arrays, ptr and size ints."""

    def __init__(self, obs_dim, size):
        self.obs_buf = np.zeros((size, obs_dim))
        self.rew_buf = np.zeros(size)
        self.ptr, self.size, self.max_size = 0, 0, size

    def store(self, obs, rew):
        self.obs_buf[self.ptr] = obs
        self.rew_buf[self.ptr] = rew
        self.ptr = (self.ptr + 1) % self.max_size
        self.size = min(self.size + 1, self.max_size)
        return self.obs_buf[:self.size].mean(axis=0)


@program(recompiles=1,
         why=NUMBER + "; `size` counts 0, 1, 2... and bounds a slice (`obs_buf[:size]`): "
                      "symbolic at 1 too, guarded `>= 1`")
def spinningup_array_replay_buffer(wrap):
    buf = ArrayReplayBuffer(4, 16)
    f = wrap(buf.store)
    outs = [f(_data(330 + i, 4), 0.5 * i) for i in range(8)]
    return outs, buf.obs_buf, buf.rew_buf, buf.ptr, buf.size


class RingBuffer:
    """A preallocated ring buffer that wraps with a comparison: rows written and read at
    a changing int position (the position is bounds-checked by NumPy, not guarded)."""

    def __init__(self, n, d):
        self.data = np.zeros((n, d))
        self.idx = 0

    def add(self, x):
        self.data[self.idx] = x
        prev = self.data[self.idx - 1]
        self.idx += 1
        if self.idx == len(self.data):
            self.idx = 0
        return x - prev, self.data.mean(axis=0)


@program(recompiles=2,
         why='the position changes (one recompile); the wrap test `idx == len(data)` '
             'is control flow: it turns true once (one more)')
def ring_buffer_changing_position(wrap):
    ring = RingBuffer(16, 4)
    f = wrap(ring.add)
    return [f(_data(340 + i, 4)) for i in range(19)], ring.data, ring.idx


def visit_cell(values, counts, pos, reward, alpha=0.1):
    """A tabular value estimate on a grid: the agent's cell is a tuple of ints."""
    counts[pos] += 1
    values[pos] += alpha * (reward - values[pos])
    return values[pos], values[pos[0]].max()


@program(recompiles=2,
         why='the cell changes: each coordinate\'s first change costs one recompile')
def grid_world_tuple_cell(wrap):
    f = wrap(visit_cell)
    values, counts = np.zeros((6, 6)), np.zeros((6, 6), np.int64)
    path = [(3, 2), (3, 3), (4, 3), (4, 4), (5, 4), (5, 5), (4, 5), (3, 5), (2, 4)]
    outs = [f(values, counts, pos, 0.25 * k) for k, pos in enumerate(path)]
    return outs, values, counts


def discounted_returns(rewards, gamma=0.99):
    """REINFORCE's return computation over a fresh list of float rewards."""
    out = np.zeros(len(rewards))
    running = 0.0
    for t in reversed(range(len(rewards))):
        running = rewards[t] + gamma * running
        out[t] = running
    return (out - out.mean()) / (out.std() + 1e-8)


@program(recompiles=1,
         why='a fresh list of floats: one input after the first change')
def reinforce_returns_fresh_float_list(wrap):
    f = wrap(discounted_returns)
    rng = np.random.default_rng(9)
    return [f([float(r) for r in rng.standard_normal(6)]) for _ in range(8)]


class RolloutWorker:
    """A rollout that logs episode rewards and uses its own RandomState for noise."""

    def __init__(self):
        self.rng = np.random.RandomState(0)
        self.W = _data(340, 4, 2)
        self.episode_rewards = []
        self.noise_scale = 0.5

    def act(self, obs):
        a = np.tanh(obs @ self.W) + self.noise_scale * self.rng.randn(2)
        self.episode_rewards.append(float(-np.sum(a ** 2)))
        self.noise_scale *= 0.9
        return a


@program(recompiles=1,
         why=NUMBER)
def rollout_worker_rng_noise_decay(wrap):
    w = RolloutWorker()
    f = wrap(w.act)
    outs = [f(_data(350 + i, 4)) for i in range(8)]
    return outs, w.episode_rewards, w.noise_scale, w.rng.get_state()[1]


class EpsilonGreedy:
    def __init__(self, n_actions=4, eps=1.0, eps_min=0.05, decay=0.7):
        self.rng = np.random.default_rng(1)
        self.n_actions = n_actions
        self.eps, self.eps_min, self.decay = eps, eps_min, decay
        self.Q = _data(360, 5, n_actions)

    def select(self, state):
        if self.rng.random() < self.eps:
            a = int(self.rng.integers(self.n_actions))
        else:
            a = int(np.argmax(self.Q[state]))
        self.eps = max(self.eps_min, self.eps * self.decay)
        return a


@program(recompiles=2,
         why='which branch runs depends on a random draw; eps is written back with a '
             'new value by each trace: symbolic from the first entry on')
def epsilon_greedy_decay(wrap):
    pol = EpsilonGreedy()
    f = wrap(pol.select)
    return [f(i % 5) for i in range(10)], pol.eps


def polyak_update(target, online, tau):
    for k in target:
        target[k] = tau * online[k] + (1 - tau) * target[k]
    return target


@program(recompiles=1,
         why=NUMBER)
def polyak_target_network_dict(wrap):
    f = wrap(polyak_update)
    target = {"W1": np.zeros((4, 8)), "b1": np.zeros(8)}
    outs = []
    for i in range(8):
        online = {"W1": _data(370 + i, 4, 8), "b1": _data(380 + i, 8)}
        outs.append(dict(f(target, online, 0.005 * (i + 1))))
    return outs


def td_update(Q, s, a, r, s2, alpha, gamma=0.99):
    """Tabular Q-learning with a decaying step size."""
    td_target = r + gamma * np.max(Q[s2])
    Q[s, a] += alpha * (td_target - Q[s, a])
    return Q[s, a]


@program(recompiles=1,
         why=NUMBER)
def tabular_q_learning_decaying_alpha(wrap):
    f = wrap(td_update)
    Q = np.zeros((5, 3))
    rng = np.random.default_rng(11)
    outs = []
    for t in range(8):
        s, a, s2 = (int(v) for v in rng.integers(0, 3, 3))
        outs.append(f(Q, s, a, float(rng.standard_normal()), s2, 1.0 / (t + 1)))
    return outs, Q


# ===================================================================== logging, counters

class Trainer:
    """A training step that logs into a dict of lists and a list of dicts."""

    def __init__(self):
        self.w = np.zeros(16)
        self.metrics = collections.defaultdict(list)
        self.history = []
        self.global_step = 0

    def train_step(self, X, y, lr):
        pred = X @ self.w
        err = pred - y
        loss = np.mean(err ** 2)
        self.w = self.w - lr * (X.T @ err) / len(y)
        self.metrics["loss"].append(loss)
        self.metrics["lr"].append(lr)
        self.history.append({"step": self.global_step, "loss": loss})
        self.global_step += 1
        return loss


@program(recompiles=1,
         why=NUMBER)
def trainer_logs_metrics_and_history(wrap):
    tr = Trainer()
    f = wrap(tr.train_step)
    outs = [f(b, y, 0.05 / (1 + i)) for i, (b, y) in enumerate(zip(BATCHES, TARGETS))]
    return outs, dict(tr.metrics), tr.history, tr.global_step, tr.w


N_CALLS = 0
LOSSES: list = []


def step_with_global_counter(w, X, y):
    global N_CALLS
    N_CALLS += 1
    err = X @ w - y
    LOSSES.append(np.mean(err ** 2))
    return w - 0.01 * X.T @ err


@program(recompiles=1,
         why=NUMBER)
def global_counter_and_loss_list(wrap):
    global N_CALLS
    N_CALLS = 0
    LOSSES.clear()
    f = wrap(step_with_global_counter)
    w = np.zeros(16)
    for b, y in zip(BATCHES, TARGETS):
        w = f(w, b, y)
    return w, N_CALLS, list(LOSSES)


def make_counted_forward(W):
    count = 0
    seen = []

    def forward(x):
        nonlocal count
        count += 1
        seen.append(x.shape)
        return np.maximum(x @ W, 0)

    def stats():
        return count, seen
    return forward, stats


@program(recompiles=1,
         why=NUMBER)
def closure_counter_and_shape_log(wrap):
    forward, stats = make_counted_forward(W16x8)
    f = wrap(forward)
    return [f(b) for b in BATCHES], stats()


STATS = {"calls": 0, "total": 0.0}


def normalize_and_count(x):
    STATS["calls"] += 1
    STATS["total"] += x.shape[0]
    return layer_norm(x)


@program(recompiles=1,
         why=NUMBER)
def global_stats_dict_counters(wrap):
    STATS.update(calls=0, total=0.0)
    f = wrap(normalize_and_count)
    return [f(b) for b in BATCHES], dict(STATS)


class EarlyStopping:
    def __init__(self, patience=3):
        self.patience = patience
        self.best = np.inf
        self.wait = 0
        self.stopped = False

    def check(self, val_loss):
        if val_loss < self.best:
            self.best = val_loss
            self.wait = 0
        else:
            self.wait += 1
            if self.wait >= self.patience:
                self.stopped = True
        return self.stopped


@program(recompiles=4,
         why='the loss comparison and `wait >= patience` are control flow; `best` turns '
             'from float inf to np.float64 (3.13 and later: one more entry)')
def early_stopping_patience(wrap):
    es = EarlyStopping()
    f = wrap(es.check)
    losses = [1.0, 0.8, 0.9, 0.7, 0.75, 0.76, 0.8, 0.9]
    return [f(np.float64(v)) for v in losses], es.best, es.wait


class GradientAccumulator:
    def __init__(self, k=3, lr=0.1):
        self.k, self.lr = k, lr
        self.acc = np.zeros((16, 8))
        self.n = 0
        self.w = W16x8.copy()

    def step(self, g):
        self.acc = self.acc + g
        self.n += 1
        if self.n == self.k:
            self.w = self.w - self.lr * self.acc / self.k
            self.acc = np.zeros_like(self.acc)
            self.n = 0
        return self.w


@program(recompiles=2,
         why='`n == k` is control flow over n in 1..k')
def gradient_accumulation_every_k(wrap):
    ga = GradientAccumulator()
    f = wrap(ga.step)
    return [f(_data(400 + i, 16, 8)) for i in range(9)], ga.n


# ===================================================================== configs

@dataclass
class TrainConfig:
    lr: float = 0.1
    weight_decay: float = 1e-4
    momentum: float = 0.9
    mode: str = "train"
    dropout: float = 0.1
    tags: list = field(default_factory=list)


def sgd_step_from_config(w, g, v, cfg):
    g = g + cfg.weight_decay * w
    v = cfg.momentum * v + g
    return w - cfg.lr * v, v


@program(recompiles=1,
         why=NUMBER)
def dataclass_config_lr_changes(wrap):
    cfg = TrainConfig()
    f = wrap(sgd_step_from_config)
    w, v = W16x8.copy(), np.zeros((16, 8))
    outs = []
    for i in range(8):
        cfg.lr = 0.1 * 0.8 ** i
        w, v = f(w, _data(410 + i, 16, 8), v, cfg)
        outs.append(w)
    return outs


def forward_with_mode(x, w, cfg, rng):
    h = x @ w
    if cfg.mode == "train":
        mask = rng.random(h.shape) >= cfg.dropout
        h = h * mask / (1 - cfg.dropout)
    return np.maximum(h, 0)


@program(recompiles=1,
         why='mode selects control flow: train and eval are two entries')
def dataclass_config_mode_switch(wrap):
    cfg = TrainConfig()
    rng = np.random.default_rng(3)
    f = wrap(forward_with_mode)
    outs = []
    for i in range(8):
        cfg.mode = "train" if i % 2 == 0 else "eval"
        outs.append(f(BATCHES[i], W16x8, cfg, rng))
    return outs


@program()
def dataclass_config_tags_appended(wrap):
    cfg = TrainConfig()
    f = wrap(sgd_step_from_config)
    w, v = W16x8.copy(), np.zeros((16, 8))
    outs = []
    for i in range(8):
        cfg.tags.append(f"epoch{i}")
        w, v = f(w, _data(420 + i, 16, 8), v, cfg)
        outs.append(w)
    return outs, cfg.tags


class Dropout:
    """A dropout layer with its own Generator and a call counter."""

    def __init__(self, p=0.2, seed=0):
        self.p = p
        self.rng = np.random.default_rng(seed)
        self.calls = 0
        self.masks = []

    def forward(self, x):
        self.calls += 1
        mask = (self.rng.random(x.shape) >= self.p) / (1.0 - self.p)
        self.masks.append(mask)
        return x * mask


@program(recompiles=1,
         why=NUMBER)
def dropout_generator_in_object(wrap):
    d = Dropout()
    f = wrap(d.forward)
    return [f(b) for b in BATCHES], d.calls, d.masks


class FrameStack:
    """Atari-style frame stacking with a deque(maxlen=4)."""

    def __init__(self, k=4):
        self.frames = collections.deque(maxlen=k)
        self.k = k

    def observe(self, frame):
        if not self.frames:
            for _ in range(self.k):
                self.frames.append(frame)
        else:
            self.frames.append(frame)
        return np.stack(self.frames, axis=0)


@program(recompiles=1,
         why="the empty deque takes the fill branch on the first call only (3.13 and "
             "later carry `not self.frames` over the break: one entry for each outcome)")
def frame_stack_deque_maxlen(wrap):
    fs = FrameStack()
    f = wrap(fs.observe)
    return [f(_data(430 + i, 3, 3)) for i in range(8)]


def weighted_sum_fresh_float_list(xs, weights):
    total = np.zeros_like(xs[0])
    for x, w in zip(xs, weights):
        total = total + w * x
    return total / sum(weights)


@program(recompiles=1,
         why='a fresh list of floats: one input after the first change')
def ensemble_weights_fresh_float_list(wrap):
    f = wrap(weighted_sum_fresh_float_list)
    rng = np.random.default_rng(13)
    xs = [_data(440 + i, 8) for i in range(3)]
    return [f(xs, [float(v) for v in rng.random(3)]) for _ in range(8)]


class Perceptron:
    """An online perceptron: the number of mistakes is an int attribute."""

    def __init__(self, d):
        self.w = np.zeros(d)
        self.mistakes = 0
        self.updates = []

    def fit_one(self, x, y):
        pred = 1.0 if x @ self.w >= 0 else -1.0
        if pred != y:
            self.w = self.w + y * x
            self.mistakes += 1
            self.updates.append(len(self.updates))
        return pred


@program(recompiles=5,
         why="the prediction's sign and the mistake test are control flow on data; "
             "mistakes changes (3.13 and later carry the test's bool over the break: "
             "one more entry)")
def online_perceptron(wrap):
    p = Perceptron(16)
    f = wrap(p.fit_one)
    ys = [1.0, -1.0, 1.0, 1.0, -1.0, -1.0, 1.0, -1.0]
    return [f(BATCHES[i][0], ys[i]) for i in range(8)], p.w, p.mistakes, p.updates


def lr_poly_decay(w, g, epoch, max_epochs=10, base_lr=0.1, power=0.9):
    lr = base_lr * (1 - epoch / max_epochs) ** power
    return w - lr * g, lr


@program(recompiles=1,
         why=NUMBER)
def poly_lr_epoch_int(wrap):
    f = wrap(lr_poly_decay)
    w = W16x8.copy()
    outs = []
    for epoch in range(8):
        w, lr = f(w, _data(450 + epoch, 16, 8), epoch)
        outs.append((w, lr))
    return outs


def gather_rows(table, idx):
    """Row gather by a fresh tuple of ints of one length."""
    return table[list(idx)].sum(axis=0)


@program(recompiles=1,
         why='a fresh tuple of ints: a fancy index of inputs after the first change')
def gather_rows_fresh_int_tuples(wrap):
    f = wrap(gather_rows)
    rng = np.random.default_rng(17)
    return [f(WTE, tuple(int(i) for i in rng.integers(0, VOCAB, 5))) for _ in range(8)]
