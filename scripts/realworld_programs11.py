"""An eleventh program corpus of scripts/bench_realworld.py (issues #15/#19, task t5): 50
programs in the style of public NumPy repositories (numpy-ml, from-scratch ML courses,
scientific notebooks), of kinds corpora 1-10 have little of, written before any ran
under dynamo. This file: layer classes with forward and backward passes (conv1d by
im2col, batch norm with running statistics, dropout with a seeded Generator, an LSTM
cell, masked attention, layer norm, embeddings, max pooling) and loss functions with
their gradients. ``realworld_programs11_train.py`` (optimizers as classes,
preprocessing, metrics) and ``realworld_programs11_sci.py`` (clustering,
decompositions, graph algorithms, scientific kernels) are the rest of the corpus,
joined here. ``programs(small=False)``: (name, fn, args, kwargs); ``small``: the
differential test's sizes (tests/realworld/test_realworld_programs11.py).

Example::

    >>> programs(small=True)[0][0]
    'Conv1D by im2col, forward and backward'
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np


def _sibling(name):
    """A sibling script module (scripts/ need not be on sys.path)."""
    key = f"scripts.{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, Path(__file__).with_name(f"{name}.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


# ---------------------------------------------------------------- layers


def im2col_1d(X, kernel_width, stride=1, pad=0):
    """(N, L, C) -> (N * L_out, kernel_width * C) patches."""
    N, L, C = X.shape
    if pad > 0:
        X = np.pad(X, ((0, 0), (pad, pad), (0, 0)))
    L_out = (L + 2 * pad - kernel_width) // stride + 1
    idx = np.arange(kernel_width)[None, :] + stride * np.arange(L_out)[:, None]
    cols = X[:, idx, :]                       # (N, L_out, kw, C)
    return cols.reshape(N * L_out, kernel_width * C), L_out


class Conv1D:
    def __init__(self, in_ch, out_ch, kernel_width, stride=1, pad=0, seed=0):
        rng = np.random.default_rng(seed)
        scale = np.sqrt(2.0 / (in_ch * kernel_width))
        self.W = rng.standard_normal((kernel_width, in_ch, out_ch)) * scale
        self.b = np.zeros((1, 1, out_ch))
        self.stride, self.pad, self.kw = stride, pad, kernel_width
        self.derived_variables = {}
        self.gradients = {"W": np.zeros_like(self.W), "b": np.zeros_like(self.b)}

    def forward(self, X):
        assert X.ndim == 3, "expected (n_ex, l_in, in_ch)"
        n_ex = X.shape[0]
        cols, l_out = im2col_1d(X, self.kw, self.stride, self.pad)
        W_col = self.W.reshape(-1, self.W.shape[-1])
        Z = (cols @ W_col).reshape(n_ex, l_out, -1) + self.b
        self.derived_variables["cols"] = cols
        self.derived_variables["X_shape"] = X.shape
        return np.maximum(Z, 0), Z

    def backward(self, dY, Z):
        dZ = dY * (Z > 0)
        n_ex, l_out, out_ch = dZ.shape
        cols = self.derived_variables["cols"]
        dZ_col = dZ.reshape(-1, out_ch)
        self.gradients["W"] = (cols.T @ dZ_col).reshape(self.W.shape)
        self.gradients["b"] = dZ.sum(axis=(0, 1), keepdims=True)
        dcols = dZ_col @ self.W.reshape(-1, out_ch).T
        N, L, C = self.derived_variables["X_shape"]
        dX = np.zeros((N, L + 2 * self.pad, C))
        dcols = dcols.reshape(N, l_out, self.kw, C)
        for k in range(self.kw):
            dX[:, k:k + self.stride * l_out:self.stride, :] += dcols[:, :, k, :]
        if self.pad > 0:
            dX = dX[:, self.pad:-self.pad, :]
        return dX


def conv1d_forward_backward(X, out_ch=16, kernel_width=5):
    layer = Conv1D(X.shape[2], out_ch, kernel_width, pad=kernel_width // 2)
    Y, Z = layer.forward(X)
    dY = Y / Y.size
    dX = layer.backward(dY, Z)
    return Y.sum(), dX, layer.gradients["W"], layer.gradients["b"]


class BatchNorm1D:
    def __init__(self, n_in, momentum=0.9, epsilon=1e-5):
        self.momentum, self.epsilon = momentum, epsilon
        self.parameters = {"scaler": np.ones(n_in), "intercept": np.zeros(n_in),
                           "running_mean": np.zeros(n_in), "running_var": np.ones(n_in)}
        self.cache = None
        self.trainable = True

    def forward(self, X):
        P = self.parameters
        if not self.trainable:
            Xn = (X - P["running_mean"]) / np.sqrt(P["running_var"] + self.epsilon)
            return P["scaler"] * Xn + P["intercept"]
        mean, var = X.mean(axis=0), X.var(axis=0)
        m = self.momentum
        P["running_mean"] = m * P["running_mean"] + (1.0 - m) * mean
        P["running_var"] = m * P["running_var"] + (1.0 - m) * var
        Xn = (X - mean) / np.sqrt(var + self.epsilon)
        self.cache = (Xn, var)
        return P["scaler"] * Xn + P["intercept"]

    def backward(self, dY):
        Xn, var = self.cache
        n = dY.shape[0]
        dscaler = (dY * Xn).sum(axis=0)
        dintercept = dY.sum(axis=0)
        dXn = dY * self.parameters["scaler"]
        dX = (n * dXn - dXn.sum(axis=0) - Xn * (dXn * Xn).sum(axis=0))
        dX /= n * np.sqrt(var + self.epsilon)
        return dX, dscaler, dintercept


def batchnorm_train_then_eval(batches):
    bn = BatchNorm1D(batches[0].shape[1])
    grads = []
    for X in batches:
        Y = bn.forward(X)
        dX, ds, di = bn.backward(2 * (Y - 1.0) / Y.shape[0])
        grads.append(ds)
    bn.trainable = False
    out = bn.forward(batches[-1])
    return out, dX, np.stack(grads), bn.parameters["running_var"]


class Dropout:
    def __init__(self, p, seed=1):
        self.p = p
        self.rng = np.random.default_rng(seed)
        self._mask = None

    def forward(self, X, train=True):
        if not train or self.p == 0:
            return X
        self._mask = (self.rng.random(X.shape) >= self.p) / (1.0 - self.p)
        return X * self._mask

    def backward(self, dY):
        return dY * self._mask


def mlp_with_dropout(X, W1, W2, p=0.3, steps=3):
    drop = Dropout(p)
    losses = []
    for _ in range(steps):
        H = np.tanh(X @ W1)
        Hd = drop.forward(H)
        out = Hd @ W2
        loss = 0.5 * float(np.mean(out ** 2))
        dout = out / out.size
        dHd = dout @ W2.T
        dH = drop.backward(dHd) * (1 - H ** 2)
        W1 = W1 - 0.1 * X.T @ dH
        W2 = W2 - 0.1 * Hd.T @ dout
        losses.append(loss)
    return W1, W2, losses, drop.forward(X, train=False) is X


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


class LSTMCell:
    def __init__(self, n_in, n_hid, seed=2):
        rng = np.random.default_rng(seed)
        s = 1.0 / np.sqrt(n_hid)
        self.params = {g: rng.uniform(-s, s, (n_in + n_hid, n_hid)) for g in "fioc"}
        self.params.update({"b" + g: np.zeros(n_hid) for g in "fioc"})
        self.n_hid = n_hid

    def step(self, x_t, h_prev, c_prev):
        p = self.params
        z = np.hstack([h_prev, x_t])
        f = sigmoid(z @ p["f"] + p["bf"])
        i = sigmoid(z @ p["i"] + p["bi"])
        o = sigmoid(z @ p["o"] + p["bo"])
        c_tilde = np.tanh(z @ p["c"] + p["bc"])
        c = f * c_prev + i * c_tilde
        h = o * np.tanh(c)
        return h, c, (z, f, i, o, c_tilde, c_prev, c)

    def step_backward(self, dh, dc_next, cache):
        z, f, i, o, c_tilde, c_prev, c = cache
        p = self.params
        tc = np.tanh(c)
        do = dh * tc * o * (1 - o)
        dc = dc_next + dh * o * (1 - tc ** 2)
        df = dc * c_prev * f * (1 - f)
        di = dc * c_tilde * i * (1 - i)
        dct = dc * i * (1 - c_tilde ** 2)
        grads = {"f": z.T @ df, "i": z.T @ di, "o": z.T @ do, "c": z.T @ dct}
        dz = df @ p["f"].T + di @ p["i"].T + do @ p["o"].T + dct @ p["c"].T
        return dz[:, :self.n_hid], dc * f, grads


def lstm_sequence_bptt(X, n_hid=32):
    n_ex, n_t, n_in = X.shape
    cell = LSTMCell(n_in, n_hid)
    h = np.zeros((n_ex, n_hid))
    c = np.zeros((n_ex, n_hid))
    caches = []
    for t in range(n_t):
        h, c, cache = cell.step(X[:, t, :], h, c)
        caches.append(cache)
    dh, dc = h - 1.0, np.zeros_like(c)
    total = {g: np.zeros_like(cell.params[g]) for g in "fioc"}
    for t in reversed(range(n_t)):
        dh, dc, grads = cell.step_backward(dh, dc, caches[t])
        for g in total:
            total[g] += grads[g]
    return h, total


def masked_attention_fwd_bwd(Q, K, V, causal=True):
    assert Q.shape[-1] == K.shape[-1]
    B, T, d = Q.shape
    scores = Q @ K.transpose(0, 2, 1) / np.sqrt(d)
    if causal:
        mask = np.triu(np.ones((T, T), dtype=bool), k=1)
        scores = np.where(mask, -1e9, scores)
    scores = scores - scores.max(axis=-1, keepdims=True)
    A = np.exp(scores)
    A /= A.sum(axis=-1, keepdims=True)
    out = A @ V
    dout = np.ones_like(out) / out.size
    dV = A.transpose(0, 2, 1) @ dout
    dA = dout @ V.transpose(0, 2, 1)
    dS = A * (dA - (dA * A).sum(axis=-1, keepdims=True))
    dQ = dS @ K / np.sqrt(d)
    dK = dS.transpose(0, 2, 1) @ Q / np.sqrt(d)
    return out, dQ, dK, dV


class LayerNorm:
    def __init__(self, dim, eps=1e-5):
        self.gamma, self.beta, self.eps = np.ones(dim), np.zeros(dim), eps

    def forward(self, X):
        mu = X.mean(axis=-1, keepdims=True)
        var = ((X - mu) ** 2).mean(axis=-1, keepdims=True)
        self.inv = 1.0 / np.sqrt(var + self.eps)
        self.xhat = (X - mu) * self.inv
        return self.gamma * self.xhat + self.beta

    def backward(self, dY):
        D = dY.shape[-1]
        dgamma = (dY * self.xhat).reshape(-1, D).sum(axis=0)
        dbeta = dY.reshape(-1, D).sum(axis=0)
        dxhat = dY * self.gamma
        dX = self.inv / D * (D * dxhat - dxhat.sum(axis=-1, keepdims=True)
                             - self.xhat * (dxhat * self.xhat).sum(axis=-1, keepdims=True))
        return dX, dgamma, dbeta


def layernorm_residual_block(X, W):
    ln = LayerNorm(X.shape[-1])
    H = ln.forward(X)
    Y = X + np.maximum(H @ W, 0.0)
    dY = 2.0 * Y / Y.size
    dH = (dY * (H @ W > 0)) @ W.T
    dX, dg, db = ln.backward(dH)
    return Y, dX + dY, dg, db


class Embedding:
    def __init__(self, vocab, dim, seed=3):
        self.W = np.random.default_rng(seed).normal(0, 0.1, (vocab, dim))

    def forward(self, ids):
        self.ids = ids
        return self.W[ids]

    def backward(self, dY):
        dW = np.zeros_like(self.W)
        np.add.at(dW, self.ids.ravel(), dY.reshape(-1, self.W.shape[1]))
        return dW


def embedding_bag_sgd(ids, targets, lr=0.5, epochs=3):
    emb = Embedding(int(ids.max()) + 1, 16)
    for _ in range(epochs):
        E = emb.forward(ids)             # (n, L, d)
        pooled = E.mean(axis=1)
        err = pooled - targets
        dE = np.repeat(err[:, None, :] / ids.shape[1], ids.shape[1], axis=1) / len(ids)
        emb.W -= lr * emb.backward(dE)
    return emb.W, float((err ** 2).mean())


def maxpool1d_fwd_bwd(X, pool=4):
    n, L, c = X.shape
    L_out = L // pool
    windows = X[:, :L_out * pool, :].reshape(n, L_out, pool, c)
    arg = windows.argmax(axis=2)
    Y = np.take_along_axis(windows, arg[:, :, None, :], axis=2)[:, :, 0, :]
    dY = np.ones_like(Y)
    dwin = np.zeros_like(windows)
    np.put_along_axis(dwin, arg[:, :, None, :], dY[:, :, None, :], axis=2)
    dX = np.zeros_like(X)
    dX[:, :L_out * pool, :] = dwin.reshape(n, L_out * pool, c)
    return Y, dX


# ---------------------------------------------------------------- losses


def softmax_xent_loss_grad(logits, y):
    n = logits.shape[0]
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    loss = -log_probs[np.arange(n), y].mean()
    grad = np.exp(log_probs)
    grad[np.arange(n), y] -= 1
    return loss, grad / n


def bce_with_logits(z, y, pos_weight=1.0):
    # log(1 + exp(-|z|)) form, stable for large |z|
    log_weight = 1.0 + (pos_weight - 1.0) * y
    loss = (1 - y) * z + log_weight * (np.log1p(np.exp(-np.abs(z))) + np.maximum(-z, 0))
    p = sigmoid(z)
    grad = (log_weight * (p - 1) * y + (1 - y) * p) / z.size
    return loss.mean(), grad


def huber_loss_grad(pred, target, delta=1.0):
    r = pred - target
    small = np.abs(r) <= delta
    loss = np.where(small, 0.5 * r ** 2, delta * (np.abs(r) - 0.5 * delta))
    grad = np.where(small, r, delta * np.sign(r))
    return loss.mean(), grad / r.size


def multiclass_svm_loss(W, X, y, reg=1e-3):
    n = X.shape[0]
    scores = X @ W
    correct = scores[np.arange(n), y][:, None]
    margins = np.maximum(0, scores - correct + 1.0)
    margins[np.arange(n), y] = 0
    loss = margins.sum() / n + reg * np.sum(W * W)
    binary = (margins > 0).astype(float)
    binary[np.arange(n), y] = -binary.sum(axis=1)
    dW = X.T @ binary / n + 2 * reg * W
    return loss, dW


def focal_loss_grad(logits, y, gamma=2.0, alpha=0.25):
    p = sigmoid(logits)
    pt = np.where(y == 1, p, 1 - p)
    at = np.where(y == 1, alpha, 1 - alpha)
    loss = -at * (1 - pt) ** gamma * np.log(np.clip(pt, 1e-12, 1.0))
    dpt = at * (gamma * (1 - pt) ** (gamma - 1) * np.log(np.clip(pt, 1e-12, 1.0))
                - (1 - pt) ** gamma / np.clip(pt, 1e-12, 1.0))
    dp = np.where(y == 1, dpt, -dpt)
    return loss.sum() / max(1.0, float(y.sum())), dp * p * (1 - p)


def kl_divergence_grad(p_logits, q):
    p = np.exp(p_logits - p_logits.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    eps = np.finfo(p.dtype).eps
    kl = np.sum(p * (np.log(p + eps) - np.log(q + eps)), axis=-1)
    g = np.log(p + eps) - np.log(q + eps) + 1
    grad = p * (g - (p * g).sum(axis=-1, keepdims=True))
    return kl.mean(), grad / len(p)


def programs(small: bool = False):
    """(name, fn, args, kwargs) of the whole eleventh corpus, this file's and the siblings'."""
    rng = np.random.default_rng(11)
    s = lambda big, little: little if small else big
    X3 = rng.standard_normal((s(32, 3), s(128, 12), s(8, 3)))
    batches = [rng.normal(2.0, 3.0, (s(256, 8), s(64, 5))) for _ in range(s(8, 3))]
    Xd = rng.standard_normal((s(512, 10), s(64, 6)))
    W1 = rng.standard_normal((s(64, 6), s(128, 7))) * 0.1
    W2 = rng.standard_normal((s(128, 7), s(10, 3))) * 0.1
    Xs = rng.standard_normal((s(32, 2), s(20, 4), s(16, 3)))
    Q, K, V = (rng.standard_normal((s(16, 2), s(64, 6), s(32, 4))) for _ in range(3))
    Xl = rng.standard_normal((s(16, 2), s(64, 5), s(128, 8)))
    Wl = rng.standard_normal((s(128, 8), s(128, 8))) * 0.05
    ids = rng.integers(0, s(500, 20), (s(256, 12), s(8, 3)))
    tgt = rng.standard_normal((s(256, 12), 16))
    logits = rng.standard_normal((s(4000, 20), s(50, 5))) * 3
    labels = rng.integers(0, s(50, 5), s(4000, 20))
    z = rng.standard_normal(s(200000, 50)) * 4
    yb = (rng.random(s(200000, 50)) < 0.3).astype(float)
    Xsvm = rng.standard_normal((s(4000, 20), s(100, 6)))
    Wsvm = rng.standard_normal((s(100, 6), s(10, 4))) * 0.01
    q = rng.dirichlet(np.ones(s(100, 6)), s(2000, 10))
    Xpool = rng.standard_normal((s(64, 3), s(512, 12), s(16, 3)))
    ours = [
        ("Conv1D by im2col, forward and backward", conv1d_forward_backward, (X3,), {}),
        ("BatchNorm1D with running stats, train then eval", batchnorm_train_then_eval,
         (batches,), {}),
        ("MLP with seeded dropout, three SGD steps", mlp_with_dropout, (Xd, W1, W2), {}),
        ("LSTM cell over a sequence with BPTT", lstm_sequence_bptt, (Xs,),
         {"n_hid": s(32, 4)}),
        ("causal attention, forward and backward", masked_attention_fwd_bwd, (Q, K, V), {}),
        ("LayerNorm residual block with its backward", layernorm_residual_block, (Xl, Wl), {}),
        ("embedding bag trained by np.add.at", embedding_bag_sgd, (ids, tgt), {}),
        ("MaxPool1D forward and backward", maxpool1d_fwd_bwd, (Xpool,), {}),
        ("softmax cross-entropy with its gradient", softmax_xent_loss_grad,
         (logits, labels), {}),
        ("BCE with logits, pos_weight", bce_with_logits, (z, yb), {"pos_weight": 2.0}),
        ("Huber loss and gradient", huber_loss_grad, (z, yb), {}),
        ("multiclass SVM hinge loss, vectorized", multiclass_svm_loss,
         (Wsvm, Xsvm, labels[:s(4000, 20)] % s(10, 4)), {}),
        ("focal loss and gradient", focal_loss_grad, (z, yb), {}),
        ("KL divergence of a softmax, with gradient", kl_divergence_grad,
         (rng.standard_normal(q.shape), q), {}),
    ]
    return (ours + _sibling("realworld_programs11_train").programs(small)
            + _sibling("realworld_programs11_sci").programs(small))
