"""Functions in the style of public NumPy repositories, for break counts
(``scripts/break_counts.py``, docs/realworld.md, issue #19) and differential tests
(``test_repository_programs.py``).

Written for this corpus, in the way from-scratch NumPy machine-learning and simulation
repositories write them (none is copied): numpy-ml-style layers that keep their
parameters and gradients in dicts and their inputs in ``self.X`` lists, activations and
their gradients, losses, optimizers with integer step counters and dict state, k-means,
k-medoids and GMM-EM steps, PCA, linear and logistic regression by gradient descent,
naive Bayes, kNN, decision-tree split search, metrics, preprocessing, simulations and
signal processing. They use the idioms such code uses: ``assert`` with a message,
``raise ValueError`` with an f-string, ``isinstance`` checks, legacy ``np.random`` calls
and Generators, dict and list state, ``@property``, small helpers and classes, and
``float()``/``int()`` of results handed back to the caller.

``PROGRAMS`` lists ``(name, fn, args)``; the arguments are small and seeded. The module
imports only NumPy, so the scripts load it from its file and the tests import it by name.
"""

from __future__ import annotations

import numpy as np

_rng = np.random.default_rng(2026)


def _normal(*shape):
    return _rng.normal(size=shape)


def _labels(n, k):
    return _rng.integers(0, k, n)


# ================================================================ activations


class ActivationBase:
    def __call__(self, z):
        if z.ndim == 1:
            z = z.reshape(1, -1)
        return self.fn(z)

    def __str__(self):
        return type(self).__name__


class Sigmoid(ActivationBase):
    def fn(self, z):
        return 1 / (1 + np.exp(-z))

    def grad(self, x):
        fn_x = self.fn(x)
        return fn_x * (1 - fn_x)


class ReLU(ActivationBase):
    def fn(self, z):
        return np.clip(z, 0, np.inf)

    def grad(self, x):
        return (x > 0).astype(int)


class LeakyReLU(ActivationBase):
    def __init__(self, alpha=0.3):
        self.alpha = alpha

    def fn(self, z):
        _z = z.copy()
        _z[z < 0] = _z[z < 0] * self.alpha
        return _z

    def grad(self, x):
        out = np.ones_like(x)
        out[x < 0] *= self.alpha
        return out


class SoftPlus(ActivationBase):
    def fn(self, z):
        return np.log(np.exp(z) + 1)

    def grad(self, x):
        exp_x = np.exp(x)
        return exp_x / (exp_x + 1)


def activations_and_grads(z):
    out = {}
    for act in (Sigmoid(), ReLU(), LeakyReLU(0.1), SoftPlus()):
        out[str(act)] = (act(z), act.grad(z))
    return out


def tanh_grad_check(z, eps=1e-6):
    """Central-difference check of tanh's derivative, as tests in such repos do."""
    analytic = 1 - np.tanh(z) ** 2
    numeric = (np.tanh(z + eps) - np.tanh(z - eps)) / (2 * eps)
    max_err = np.max(np.abs(analytic - numeric))
    return analytic, float(max_err)


def softmax(x, axis=-1):
    e_x = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e_x / e_x.sum(axis=axis, keepdims=True)


def log_softmax(x):
    x_max = np.max(x, axis=1, keepdims=True)
    return x - x_max - np.log(np.sum(np.exp(x - x_max), axis=1, keepdims=True))


def gelu_approx(x, approximate=True):
    if approximate:
        return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))
    from math import erf
    return 0.5 * x * (1 + np.vectorize(erf)(x / np.sqrt(2)))


# ================================================================ losses


def cross_entropy(y, y_pred):
    """Cross-entropy of one-hot targets, with clipped predictions."""
    assert y.shape == y_pred.shape, f"shapes differ: {y.shape} vs {y_pred.shape}"
    eps = np.finfo(float).eps
    y_pred = np.clip(y_pred, eps, 1 - eps)
    return -np.sum(y * np.log(y_pred))


def cross_entropy_grad(y, y_pred):
    return y_pred - y


def binary_cross_entropy(y_true, y_prob, eps=1e-15):
    y_prob = np.clip(y_prob, eps, 1 - eps)
    loss = -np.mean(y_true * np.log(y_prob) + (1 - y_true) * np.log(1 - y_prob))
    return float(loss)


def hinge_loss(scores, y):
    n = scores.shape[0]
    correct = scores[np.arange(n), y][:, None]
    margins = np.maximum(0, scores - correct + 1.0)
    margins[np.arange(n), y] = 0
    loss = margins.sum() / n
    dscores = (margins > 0).astype(float)
    dscores[np.arange(n), y] -= dscores.sum(axis=1)
    return loss, dscores / n


def huber_loss(y, y_pred, delta=1.0):
    r = y - y_pred
    quad = 0.5 * r ** 2
    lin = delta * (np.abs(r) - 0.5 * delta)
    return np.where(np.abs(r) <= delta, quad, lin).mean()


def kl_divergence(p, q, eps=1e-12):
    if p.shape != q.shape:
        raise ValueError(f"p and q must have the same shape, got {p.shape} and {q.shape}")
    p = p / p.sum(axis=-1, keepdims=True)
    q = q / q.sum(axis=-1, keepdims=True)
    return np.sum(p * np.log((p + eps) / (q + eps)), axis=-1)


class SquaredError:
    def __call__(self, y, y_pred):
        return self.loss(y, y_pred)

    @staticmethod
    def loss(y, y_pred):
        return 0.5 * np.linalg.norm(y_pred - y) ** 2

    @staticmethod
    def grad(y, y_pred, z, act_fn):
        return (y_pred - y) * act_fn.grad(z)


def squared_error_and_grad(y, z):
    act = Sigmoid()
    y_pred = act(z)
    loss_fn = SquaredError()
    return loss_fn(y, y_pred), loss_fn.grad(y, y_pred, z, act)


# ================================================================ layers


class Dense:
    """A fully connected layer that keeps its inputs for the backward pass."""

    def __init__(self, n_in, n_out, seed=0):
        rng = np.random.RandomState(seed)
        self.parameters = {"W": rng.randn(n_in, n_out) * np.sqrt(2 / n_in),
                           "b": np.zeros((1, n_out))}
        self.gradients = {"W": np.zeros((n_in, n_out)), "b": np.zeros((1, n_out))}
        self.derived_variables = {"Z": []}
        self.X = []
        self.act_fn = ReLU()
        self.trainable = True

    def forward(self, X, retain_derived=True):
        W, b = self.parameters["W"], self.parameters["b"]
        Z = X @ W + b
        Y = self.act_fn(Z)
        if retain_derived:
            self.X.append(X)
            self.derived_variables["Z"].append(Z)
        return Y

    def backward(self, dLdy, retain_grads=True):
        assert self.trainable, "Layer is frozen"
        X = self.X[-1]
        Z = self.derived_variables["Z"][-1]
        W = self.parameters["W"]
        dZ = dLdy * self.act_fn.grad(Z)
        dX = dZ @ W.T
        if retain_grads:
            self.gradients["W"] += X.T @ dZ
            self.gradients["b"] += dZ.sum(axis=0, keepdims=True)
        return dX

    def flush_gradients(self):
        self.X = []
        for k in self.derived_variables:
            self.derived_variables[k] = []
        for k, v in self.gradients.items():
            self.gradients[k] = np.zeros_like(v)


def dense_forward_backward(X, dY):
    layer = Dense(X.shape[1], dY.shape[1])
    Y = layer.forward(X)
    dX = layer.backward(dY)
    return Y, dX, layer.gradients["W"], layer.gradients["b"]


def dense_two_layers(X):
    l1 = Dense(X.shape[1], 8, seed=1)
    l2 = Dense(8, 3, seed=2)
    out = l2.forward(l1.forward(X))
    n_cached = len(l1.X) + len(l2.X)
    return softmax(out), n_cached


def dense_layer_state(layer, X, dY):
    """A layer passed in: its lists and dicts change in place."""
    layer.forward(X)
    layer.backward(dY)
    return layer.gradients["W"].sum()


def im2col_1d(X, k, stride=1):
    n, length, c = X.shape
    out_len = (length - k) // stride + 1
    if out_len <= 0:
        raise ValueError(f"kernel of width {k} is wider than the input ({length})")
    cols = np.empty((n, out_len, k * c))
    for i in range(out_len):
        start = i * stride
        cols[:, i, :] = X[:, start:start + k, :].reshape(n, -1)
    return cols


def conv1d_forward(X, W, b, stride=1):
    """Conv1D by im2col: X (n, length, c_in), W (k, c_in, c_out)."""
    k, c_in, c_out = W.shape
    assert X.shape[2] == c_in, "channel mismatch"
    cols = im2col_1d(X, k, stride)
    out = cols @ W.reshape(-1, c_out) + b
    return out


def conv2d_naive(X, W, pad=1):
    n, h, w = X.shape
    kh, kw = W.shape
    Xp = np.pad(X, ((0, 0), (pad, pad), (pad, pad)), mode="constant")
    out_h, out_w = h + 2 * pad - kh + 1, w + 2 * pad - kw + 1
    out = np.zeros((n, out_h, out_w))
    for i in range(out_h):
        for j in range(out_w):
            out[:, i, j] = np.sum(Xp[:, i:i + kh, j:j + kw] * W, axis=(1, 2))
    return out


def maxpool2d(X, size=2):
    n, h, w = X.shape
    if h % size or w % size:
        raise ValueError(f"input {h}x{w} is not divisible by the pool size {size}")
    Xr = X.reshape(n, h // size, size, w // size, size)
    out = Xr.max(axis=(2, 4))
    mask = Xr == out[:, :, None, :, None]
    return out, mask


class BatchNorm1D:
    def __init__(self, n_in, momentum=0.9, epsilon=1e-5):
        self.hyperparameters = {"momentum": momentum, "epsilon": epsilon}
        self.parameters = {"scaler": np.ones(n_in), "intercept": np.zeros(n_in),
                           "running_mean": np.zeros(n_in), "running_var": np.ones(n_in)}
        self.is_initialized = True
        self.trainable = True

    def forward(self, X, retain_derived=True):
        if not self.is_initialized:
            raise RuntimeError("layer not initialized")
        P = self.parameters
        mom, eps = self.hyperparameters["momentum"], self.hyperparameters["epsilon"]
        if self.trainable:
            mean, var = X.mean(axis=0), X.var(axis=0)
            if retain_derived:
                P["running_mean"] = mom * P["running_mean"] + (1.0 - mom) * mean
                P["running_var"] = mom * P["running_var"] + (1.0 - mom) * var
        else:
            mean, var = P["running_mean"], P["running_var"]
        N = (X - mean) / np.sqrt(var + eps)
        return P["scaler"] * N + P["intercept"]


def batchnorm_train_then_eval(X, X_test):
    bn = BatchNorm1D(X.shape[1])
    y_train = bn.forward(X)
    bn.trainable = False
    y_test = bn.forward(X_test)
    return y_train, y_test, bn.parameters["running_mean"]


def layernorm_forward_backward(X, gamma, beta, dY, eps=1e-5):
    mu = X.mean(axis=1, keepdims=True)
    var = X.var(axis=1, keepdims=True)
    std = np.sqrt(var + eps)
    xhat = (X - mu) / std
    out = gamma * xhat + beta
    d = X.shape[1]
    dxhat = dY * gamma
    dX = (1.0 / d) / std * (d * dxhat - dxhat.sum(axis=1, keepdims=True)
                            - xhat * (dxhat * xhat).sum(axis=1, keepdims=True))
    return out, dX, (dY * xhat).sum(axis=0), dY.sum(axis=0)


def dropout_forward(X, p, seed):
    """Inverted dropout with the legacy global state seeded first."""
    np.random.seed(seed)
    mask = (np.random.rand(*X.shape) >= p) / (1.0 - p)
    return X * mask, mask


def dropout_generator(X, p, rng):
    if not 0 <= p < 1:
        raise ValueError(f"dropout probability must be in [0, 1), got {p}")
    mask = rng.random(X.shape) >= p
    return np.where(mask, X / (1 - p), 0.0)


class RNNCell:
    def __init__(self, n_in, n_out, seed=3):
        rng = np.random.default_rng(seed)
        self.parameters = {"Wax": rng.normal(0, 0.1, (n_in, n_out)),
                           "Waa": rng.normal(0, 0.1, (n_out, n_out)),
                           "ba": np.zeros((1, n_out))}
        self.derived_variables = {"A": [], "Z": [], "current_step": 0}
        self.X = []

    def forward(self, Xt):
        P, dv = self.parameters, self.derived_variables
        if dv["current_step"] == 0:
            dv["A"].append(np.zeros((Xt.shape[0], P["Waa"].shape[0])))
        A_prev = dv["A"][-1]
        Zt = A_prev @ P["Waa"] + Xt @ P["Wax"] + P["ba"]
        At = np.tanh(Zt)
        dv["Z"].append(Zt)
        dv["A"].append(At)
        dv["current_step"] += 1
        self.X.append(Xt)
        return At


def rnn_unrolled(X):
    """X: (batch, n_in, n_t); one cell stepped over time."""
    cell = RNNCell(X.shape[1], 6)
    outs = []
    for t in range(X.shape[2]):
        outs.append(cell.forward(X[:, :, t]))
    return np.dstack(outs), cell.derived_variables["current_step"], len(cell.X)


def lstm_step(x, h, c, W, b):
    n = h.shape[1]
    z = np.hstack([h, x]) @ W + b
    i, f, o = (1 / (1 + np.exp(-z[:, k * n:(k + 1) * n])) for k in range(3))
    g = np.tanh(z[:, 3 * n:])
    c = f * c + i * g
    h = o * np.tanh(c)
    return h, c


def embedding_lookup(W, ids):
    if not np.issubdtype(ids.dtype, np.integer):
        raise TypeError("ids must be integers")
    out = W[ids]
    grad = np.zeros_like(W)
    np.add.at(grad, ids, 1.0)
    return out, grad


# ================================================================ optimizers


class SGD:
    def __init__(self, lr=0.01, momentum=0.0):
        self.hyperparameters = {"lr": lr, "momentum": momentum}
        self.cache = {}

    def update(self, param, param_grad, param_name):
        C, H = self.cache, self.hyperparameters
        if param_name not in C:
            C[param_name] = np.zeros_like(param_grad)
        update = H["momentum"] * C[param_name] + H["lr"] * param_grad
        self.cache[param_name] = update
        return param - update


def sgd_momentum_steps(params, grads):
    opt = SGD(lr=0.1, momentum=0.9)
    for _ in range(3):
        for name in params:
            params[name] = opt.update(params[name], grads[name], name)
    return params, sorted(opt.cache)


class Adam:
    def __init__(self, lr=0.001, decay1=0.9, decay2=0.999, eps=1e-7):
        self.hyperparameters = {"lr": lr, "decay1": decay1, "decay2": decay2, "eps": eps}
        self.cache = {}
        self.cur_step = 0

    def update(self, param, param_grad, param_name):
        C, H = self.cache, self.hyperparameters
        d1, d2, eps = H["decay1"], H["decay2"], H["eps"]
        if param_name not in C:
            C[param_name] = {"t": 0, "mean": np.zeros_like(param_grad),
                             "var": np.zeros_like(param_grad)}
        t = C[param_name]["t"] + 1
        mean = d1 * C[param_name]["mean"] + (1 - d1) * param_grad
        var = d2 * C[param_name]["var"] + (1 - d2) * param_grad ** 2
        C[param_name].update({"t": t, "mean": mean, "var": var})
        m_hat = mean / (1 - d1 ** t)
        v_hat = var / (1 - d2 ** t)
        return param - H["lr"] * m_hat / (np.sqrt(v_hat) + eps)


def adam_steps(W, b, gW, gb, n_steps):
    opt = Adam(lr=0.01)
    for _ in range(n_steps):
        W = opt.update(W, gW, "W")
        b = opt.update(b, gb, "b")
        opt.cur_step += 1
    return W, b, opt.cache["W"]["t"], opt.cur_step


def rmsprop_update(params, grads, cache, step, lr=0.01, decay=0.9, eps=1e-8):
    """Functional RMSProp: dict state and an int step counter returned."""
    new_params = {}
    for k, p in params.items():
        cache[k] = decay * cache.get(k, 0.0) + (1 - decay) * grads[k] ** 2
        new_params[k] = p - lr * grads[k] / (np.sqrt(cache[k]) + eps)
    return new_params, step + 1


def clip_grad_norm(grads, max_norm):
    total = np.sqrt(sum(np.sum(g ** 2) for g in grads.values()))
    scale = np.minimum(1.0, max_norm / (total + 1e-6))
    return {k: g * scale for k, g in grads.items()}, total


def lr_schedule(initial_lr, step, decay=0.96, decay_steps=100, staircase=True):
    exponent = step // decay_steps if staircase else step / decay_steps
    return initial_lr * decay ** exponent


# ================================================================ clustering


def kmeans_step(X, centroids):
    dists = np.linalg.norm(X[:, None, :] - centroids[None, :, :], axis=2)
    labels = np.argmin(dists, axis=1)
    new = np.array([X[labels == k].mean(axis=0) for k in range(centroids.shape[0])])
    inertia = np.sum((X - new[labels]) ** 2)
    return labels, new, inertia


def kmeans_fit(X, k, n_iter=5, seed=0):
    rng = np.random.default_rng(seed)
    centroids = X[rng.choice(X.shape[0], size=k, replace=False)]
    history = []
    for _ in range(n_iter):
        d2 = ((X[:, None, :] - centroids[None]) ** 2).sum(axis=-1)
        labels = d2.argmin(axis=1)
        for j in range(k):
            centroids[j] = X[labels == j].mean(axis=0)
        history.append(d2.min(axis=1).sum())
    return centroids, labels, history


def kmeans_plus_plus_init(X, k, rng):
    centers = [X[rng.integers(X.shape[0])]]
    for _ in range(1, k):
        d2 = np.min([np.sum((X - c) ** 2, axis=1) for c in centers], axis=0)
        probs = d2 / d2.sum()
        centers.append(X[rng.choice(X.shape[0], p=probs)])
    return np.array(centers)


def kmedoids_step(X, medoid_idx):
    D = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    labels = np.argmin(D[:, medoid_idx], axis=1)
    new_idx = medoid_idx.copy()
    for j in range(len(medoid_idx)):
        members = np.flatnonzero(labels == j)
        costs = D[np.ix_(members, members)].sum(axis=1)
        new_idx[j] = members[np.argmin(costs)]
    return labels, new_idx


def gaussian_pdf(X, mu, cov):
    d = X.shape[1]
    diff = X - mu
    inv = np.linalg.inv(cov)
    norm = 1.0 / np.sqrt((2 * np.pi) ** d * np.linalg.det(cov))
    return norm * np.exp(-0.5 * np.einsum("ij,jk,ik->i", diff, inv, diff))


def gmm_em_step(X, pi, mu, sigma):
    n, k = X.shape[0], len(pi)
    resp = np.zeros((n, k))
    for j in range(k):
        resp[:, j] = pi[j] * gaussian_pdf(X, mu[j], sigma[j])
    log_likelihood = np.sum(np.log(resp.sum(axis=1)))
    resp /= resp.sum(axis=1, keepdims=True)
    nk = resp.sum(axis=0)
    pi = nk / n
    mu = (resp.T @ X) / nk[:, None]
    sigma = np.stack([((resp[:, j, None] * (X - mu[j])).T @ (X - mu[j])) / nk[j]
                      + 1e-6 * np.eye(X.shape[1]) for j in range(k)])
    return pi, mu, sigma, log_likelihood


# ================================================================ decomposition


def pca_svd(X, n_components):
    if n_components > X.shape[1]:
        raise ValueError(f"n_components={n_components} must be <= {X.shape[1]}")
    Xc = X - X.mean(axis=0)
    U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    explained = S ** 2 / (X.shape[0] - 1)
    ratio = explained / explained.sum()
    return Xc @ Vt[:n_components].T, ratio[:n_components]


def pca_eigh(X, n_components=2):
    Xc = X - X.mean(axis=0)
    cov = np.cov(Xc, rowvar=False)
    evals, evecs = np.linalg.eigh(cov)
    order = np.argsort(evals)[::-1]
    evals, evecs = evals[order], evecs[:, order]
    W = evecs[:, :n_components]
    return Xc @ W, evals[:n_components] / evals.sum()


class PCA:
    def __init__(self, n_components):
        self.n_components = n_components
        self.components_ = None
        self.mean_ = None

    def fit(self, X):
        self.mean_ = X.mean(axis=0)
        _, _, Vt = np.linalg.svd(X - self.mean_, full_matrices=False)
        self.components_ = Vt[:self.n_components]
        return self

    def transform(self, X):
        if self.components_ is None:
            raise RuntimeError("PCA is not fitted")
        return (X - self.mean_) @ self.components_.T

    @property
    def n_features(self):
        return self.components_.shape[1]


def pca_fit_transform(X):
    model = PCA(2).fit(X)
    return model.transform(X), model.n_features


def whiten(X, eps=1e-5):
    Xc = X - X.mean(axis=0)
    cov = Xc.T @ Xc / X.shape[0]
    U, S, _ = np.linalg.svd(cov)
    return Xc @ U @ np.diag(1.0 / np.sqrt(S + eps)) @ U.T


# ================================================================ regression, classifiers


def linear_regression_gd(X, y, lr=0.05, n_iter=50):
    n, d = X.shape
    w, b = np.zeros(d), 0.0
    losses = []
    for _ in range(n_iter):
        y_hat = X @ w + b
        err = y_hat - y
        w -= lr * (2 / n) * (X.T @ err)
        b -= lr * (2 / n) * err.sum()
        losses.append(np.mean(err ** 2))
    return w, b, losses[-1]


def ridge_closed_form(X, y, alpha=1.0, fit_intercept=True):
    if fit_intercept:
        X = np.c_[np.ones(X.shape[0]), X]
    A = X.T @ X + alpha * np.eye(X.shape[1])
    return np.linalg.solve(A, X.T @ y)


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


class LogisticRegression:
    def __init__(self, lr=0.1, n_iter=30, penalty="l2", gamma=0.01):
        if penalty not in ("l1", "l2"):
            raise ValueError(f"penalty must be 'l1' or 'l2', got {penalty!r}")
        self.lr, self.n_iter, self.penalty, self.gamma = lr, n_iter, penalty, gamma
        self.beta = None

    def fit(self, X, y):
        X = np.c_[np.ones(X.shape[0]), X]
        self.beta = np.zeros(X.shape[1])
        for _ in range(self.n_iter):
            y_pred = sigmoid(X @ self.beta)
            grad = X.T @ (y_pred - y) / X.shape[0]
            if self.penalty == "l2":
                grad += self.gamma * self.beta
            else:
                grad += self.gamma * np.sign(self.beta)
            self.beta -= self.lr * grad
        return self

    def predict_proba(self, X):
        return sigmoid(np.c_[np.ones(X.shape[0]), X] @ self.beta)


def logistic_fit_predict(X, y, X_test):
    model = LogisticRegression(penalty="l1").fit(X, y)
    proba = model.predict_proba(X_test)
    return (proba >= 0.5).astype(int), model.beta


def softmax_regression_step(X, y, W, lr=0.1):
    n = X.shape[0]
    probs = softmax(X @ W)
    loss = -np.log(probs[np.arange(n), y]).mean()
    probs[np.arange(n), y] -= 1
    W = W - lr * X.T @ probs / n
    return W, loss


def gaussian_naive_bayes(X, y, X_test):
    classes = np.unique(y)
    means = np.array([X[y == c].mean(axis=0) for c in classes])
    vars_ = np.array([X[y == c].var(axis=0) for c in classes]) + 1e-9
    priors = np.array([np.mean(y == c) for c in classes])
    ll = -0.5 * np.sum(np.log(2 * np.pi * vars_)[None] +
                       (X_test[:, None, :] - means[None]) ** 2 / vars_[None], axis=2)
    return classes[np.argmax(ll + np.log(priors), axis=1)]


def multinomial_naive_bayes(counts, y, n_classes, alpha=1.0):
    feature_counts = np.zeros((n_classes, counts.shape[1]))
    np.add.at(feature_counts, y, counts)
    smoothed = feature_counts + alpha
    log_probs = np.log(smoothed / smoothed.sum(axis=1, keepdims=True))
    class_log_prior = np.log(np.bincount(y, minlength=n_classes) / len(y))
    return counts @ log_probs.T + class_log_prior


def knn_predict(X_train, y_train, X_test, k=3):
    d = np.sum((X_test[:, None, :] - X_train[None, :, :]) ** 2, axis=-1)
    nn = np.argsort(d, axis=1)[:, :k]
    votes = y_train[nn]
    return np.array([np.bincount(v).argmax() for v in votes])


def knn_argpartition(X_train, y_train, X_test, k=3):
    d = -2 * X_test @ X_train.T + (X_test ** 2).sum(1)[:, None] + (X_train ** 2).sum(1)
    nn = np.argpartition(d, k, axis=1)[:, :k]
    return np.round(y_train[nn].mean(axis=1)).astype(int)


def perceptron_train(X, y, epochs=3):
    w = np.zeros(X.shape[1])
    b = 0.0
    mistakes = 0
    for _ in range(epochs):
        for xi, yi in zip(X, y):
            if yi * (xi @ w + b) <= 0:
                w += yi * xi
                b += yi
                mistakes += 1
    return w, b, mistakes


def gini(y):
    _, counts = np.unique(y, return_counts=True)
    p = counts / counts.sum()
    return 1.0 - np.sum(p ** 2)


def entropy(y):
    hist = np.bincount(y)
    ps = hist / np.sum(hist)
    return -np.sum([p * np.log2(p) for p in ps if p > 0])


def best_split(X, y):
    """Search every feature's unique thresholds for the lowest weighted Gini impurity."""
    best_gain, best_feat, best_thresh = -1.0, None, None
    parent = gini(y)
    for feat in range(X.shape[1]):
        col = X[:, feat]
        for t in np.unique(col):
            left = col <= t
            n_left = left.sum()
            if n_left == 0 or n_left == len(y):
                continue
            child = (n_left * gini(y[left]) + (len(y) - n_left) * gini(y[~left])) / len(y)
            gain = parent - child
            if gain > best_gain:
                best_gain, best_feat, best_thresh = gain, feat, t
    return best_feat, best_thresh, best_gain


def information_gain(y, left_mask):
    n = len(y)
    n_l = np.sum(left_mask)
    n_r = n - n_l
    child = (n_l / n) * entropy(y[left_mask]) + (n_r / n) * entropy(y[~left_mask])
    return entropy(y) - child


# ================================================================ metrics


def confusion_matrix(y_true, y_pred, n_classes):
    cm = np.zeros((n_classes, n_classes), dtype=int)
    np.add.at(cm, (y_true, y_pred), 1)
    return cm


def confusion_matrix_bincount(y_true, y_pred, n_classes):
    return np.bincount(n_classes * y_true + y_pred,
                       minlength=n_classes ** 2).reshape(n_classes, n_classes)


def precision_recall_f1(y_true, y_pred):
    tp = np.sum((y_true == 1) & (y_pred == 1))
    fp = np.sum((y_true == 0) & (y_pred == 1))
    fn = np.sum((y_true == 1) & (y_pred == 0))
    precision = tp / (tp + fp) if tp + fp > 0 else 0.0
    recall = tp / (tp + fn) if tp + fn > 0 else 0.0
    f1 = 2 * precision * recall / (precision + recall + 1e-12)
    return {"precision": precision, "recall": recall, "f1": f1}


def roc_auc(y_true, scores):
    order = np.argsort(-scores)
    y = y_true[order]
    tps = np.cumsum(y)
    fps = np.cumsum(1 - y)
    tpr = np.r_[0, tps / tps[-1]]
    fpr = np.r_[0, fps / fps[-1]]
    return np.trapz(tpr, fpr) if hasattr(np, "trapz") else np.trapezoid(tpr, fpr)


def r2_score(y, y_pred):
    ss_res = np.sum((y - y_pred) ** 2)
    ss_tot = np.sum((y - np.mean(y)) ** 2)
    return 1 - ss_res / ss_tot


def accuracy_score(y_true, y_pred):
    assert len(y_true) == len(y_pred), "length mismatch"
    return float(np.mean(y_true == y_pred))


def silhouette_samples(X, labels, n_clusters):
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
    a = np.zeros(len(X))
    b = np.full(len(X), np.inf)
    for k in range(n_clusters):
        in_k = labels == k
        mean_d = D[:, in_k].sum(axis=1) / np.maximum(in_k.sum() - in_k, 1)
        a = np.where(in_k, mean_d, a)
        b = np.where(in_k, b, np.minimum(b, D[:, in_k].mean(axis=1)))
    return (b - a) / np.maximum(a, b)


# ================================================================ preprocessing


def standardize(X, with_mean=True, with_std=True):
    if not isinstance(X, np.ndarray):
        X = np.asarray(X, dtype=float)
    mean = X.mean(axis=0) if with_mean else 0.0
    std = X.std(axis=0) if with_std else 1.0
    std = np.where(std == 0, 1.0, std)
    return (X - mean) / std


def to_one_hot(labels, n_classes=None):
    if n_classes is None:
        n_classes = labels.max() + 1
    out = np.zeros((labels.size, n_classes))
    out[np.arange(labels.size), labels] = 1
    return out


def one_hot_eye(labels, n_classes):
    return np.eye(n_classes)[labels]


def polynomial_features(X, degree):
    n, d = X.shape
    feats = [np.ones((n, 1))]
    for deg in range(1, degree + 1):
        for i in range(d):
            feats.append(X[:, i:i + 1] ** deg)
    return np.hstack(feats)


def train_test_split(X, y, test_size=0.25, seed=42):
    rng = np.random.default_rng(seed)
    idx = rng.permutation(len(X))
    n_test = int(len(X) * test_size)
    test, train = idx[:n_test], idx[n_test:]
    return X[train], X[test], y[train], y[test]


def train_test_split_rng(X, y, rng, test_size=0.2):
    idx = np.arange(X.shape[0])
    rng.shuffle(idx)
    cut = X.shape[0] - int(round(test_size * X.shape[0]))
    return X[idx[:cut]], X[idx[cut:]], y[idx[:cut]], y[idx[cut:]]


def minibatches(X, y, batch_size, rng):
    order = rng.permutation(X.shape[0])
    batches = []
    for start in range(0, X.shape[0], batch_size):
        sel = order[start:start + batch_size]
        batches.append((X[sel], y[sel]))
    return batches


def label_encode(labels):
    classes, encoded = np.unique(labels, return_inverse=True)
    return classes, encoded


# ================================================================ simulations


def random_walk_2d(n_steps, seed):
    rng = np.random.default_rng(seed)
    steps = rng.choice([-1, 1], size=(n_steps, 2))
    path = np.cumsum(steps, axis=0)
    return path, np.abs(path).max()


def gambler_walks(n_walks, n_steps, p=0.5, seed=0):
    np.random.seed(seed)
    steps = np.where(np.random.rand(n_walks, n_steps) < p, 1, -1)
    pos = steps.cumsum(axis=1)
    return pos[:, -1].mean(), (pos.min(axis=1) < -5).mean()


def sir_euler(beta, gamma, S0, I0, R0, dt, n_steps):
    S, I, R = S0, I0, R0  # noqa: E741 (the model's own names)
    N = S + I + R
    out = np.zeros((n_steps, 3))
    for t in range(n_steps):
        dS = -beta * S * I / N
        dI = beta * S * I / N - gamma * I
        dR = gamma * I
        S, I, R = S + dt * dS, I + dt * dI, R + dt * dR  # noqa: E741
        out[t] = S, I, R
    return out


def lotka_volterra(state, params, dt, n_steps):
    a, b, c, d = params["alpha"], params["beta"], params["gamma"], params["delta"]
    traj = [state.copy()]
    for _ in range(n_steps):
        x, y = state
        state = state + dt * np.array([a * x - b * x * y, d * x * y - c * y])
        traj.append(state)
    return np.array(traj)


def ising_metropolis_sweep(spins, beta, rng):
    n, m = spins.shape
    for i in range(n):
        for j in range(m):
            nb = (spins[(i + 1) % n, j] + spins[i - 1, j] +
                  spins[i, (j + 1) % m] + spins[i, j - 1])
            dE = 2 * spins[i, j] * nb
            if dE <= 0 or rng.random() < np.exp(-beta * dE):
                spins[i, j] *= -1
    return spins, spins.mean()


def heat_1d(u, alpha, n_steps):
    u = u.copy()
    for _ in range(n_steps):
        u[1:-1] = u[1:-1] + alpha * (u[2:] - 2 * u[1:-1] + u[:-2])
    return u


def brownian_paths(n_paths, n_steps, dt, rng):
    dW = rng.normal(0, np.sqrt(dt), size=(n_paths, n_steps))
    W = np.concatenate([np.zeros((n_paths, 1)), np.cumsum(dW, axis=1)], axis=1)
    return W, W[:, -1].var()


def projectile(v0, angle_deg, dt=0.01, g=9.81):
    theta = np.deg2rad(angle_deg)
    vx, vy = v0 * np.cos(theta), v0 * np.sin(theta)
    t_flight = 2 * vy / g
    t = np.arange(0, t_flight, dt)
    return vx * t, vy * t - 0.5 * g * t ** 2


# ================================================================ signal


def moving_average(x, w):
    if w < 1:
        raise ValueError(f"window must be positive, got {w}")
    return np.convolve(x, np.ones(w) / w, mode="valid")


def fft_lowpass(x, fs, cutoff):
    X = np.fft.rfft(x)
    freqs = np.fft.rfftfreq(len(x), d=1 / fs)
    X[freqs > cutoff] = 0
    return np.fft.irfft(X, n=len(x))


def power_spectrum(x, fs):
    n = len(x)
    X = np.fft.fft(x * np.hanning(n))
    freqs = np.fft.fftfreq(n, 1 / fs)
    psd = np.abs(X) ** 2 / n
    pos = freqs >= 0
    return freqs[pos], psd[pos], freqs[np.argmax(psd[pos])]


def autocorrelation(x, max_lag):
    x = x - x.mean()
    full = np.correlate(x, x, mode="full")
    ac = full[full.size // 2:]
    return ac[:max_lag + 1] / ac[0]


def zero_crossings(x):
    signs = np.sign(x)
    return np.count_nonzero(np.diff(signs)), np.where(np.diff(signs) != 0)[0]


PROGRAMS = [
    ("activations_and_grads", activations_and_grads, (_normal(4, 5),)),
    ("tanh_grad_check", tanh_grad_check, (_normal(3, 4),)),
    ("softmax", softmax, (_normal(5, 4),)),
    ("log_softmax", log_softmax, (_normal(5, 4),)),
    ("gelu_approx", gelu_approx, (_normal(6, 3),)),
    ("cross_entropy", cross_entropy, (np.eye(4)[_labels(6, 4)], softmax(_normal(6, 4)))),
    ("cross_entropy_grad", cross_entropy_grad,
     (np.eye(3)[_labels(5, 3)], softmax(_normal(5, 3)))),
    ("binary_cross_entropy", binary_cross_entropy,
     (_labels(10, 2).astype(float), _rng.uniform(size=10))),
    ("hinge_loss", hinge_loss, (_normal(6, 4), _labels(6, 4))),
    ("huber_loss", huber_loss, (_normal(20), _normal(20), 0.8)),
    ("kl_divergence", kl_divergence, (_rng.uniform(size=(3, 5)), _rng.uniform(size=(3, 5)))),
    ("squared_error_and_grad", squared_error_and_grad, (_normal(4, 3), _normal(4, 3))),
    ("dense_forward_backward", dense_forward_backward, (_normal(6, 4), _normal(6, 5))),
    ("dense_two_layers", dense_two_layers, (_normal(5, 4),)),
    ("dense_layer_state", dense_layer_state, (Dense(4, 3), _normal(5, 4), _normal(5, 3))),
    ("conv1d_forward", conv1d_forward,
     (_normal(2, 10, 3), _normal(3, 3, 4), np.zeros(4), 2)),
    ("conv2d_naive", conv2d_naive, (_normal(2, 6, 6), _normal(3, 3))),
    ("maxpool2d", maxpool2d, (_normal(2, 4, 6),)),
    ("batchnorm_train_then_eval", batchnorm_train_then_eval, (_normal(8, 3), _normal(4, 3))),
    ("layernorm_forward_backward", layernorm_forward_backward,
     (_normal(4, 6), _normal(6), _normal(6), _normal(4, 6))),
    ("dropout_forward", dropout_forward, (_normal(4, 5), 0.3, 7)),
    ("dropout_generator", dropout_generator, (_normal(4, 5), 0.25, np.random.default_rng(3))),
    ("rnn_unrolled", rnn_unrolled, (_normal(2, 3, 4),)),
    ("lstm_step", lstm_step,
     (_normal(2, 3), _normal(2, 4), _normal(2, 4), _normal(7, 16) * 0.3, np.zeros(16))),
    ("embedding_lookup", embedding_lookup, (_normal(10, 4), _labels(7, 10))),
    ("sgd_momentum_steps", sgd_momentum_steps,
     ({"W": _normal(3, 2), "b": _normal(2)}, {"W": _normal(3, 2), "b": _normal(2)})),
    ("adam_steps", adam_steps, (_normal(3, 2), _normal(2), _normal(3, 2), _normal(2), 4)),
    ("rmsprop_update", rmsprop_update,
     ({"W": _normal(3, 2), "b": _normal(2)}, {"W": _normal(3, 2), "b": _normal(2)}, {}, 0)),
    ("clip_grad_norm", clip_grad_norm, ({"W": _normal(3, 2) * 5, "b": _normal(2)}, 1.0)),
    ("lr_schedule", lr_schedule, (0.1, 250)),
    ("kmeans_step", kmeans_step, (_normal(30, 2), _normal(3, 2))),
    ("kmeans_fit", kmeans_fit, (_normal(40, 2), 3)),
    ("kmeans_plus_plus_init", kmeans_plus_plus_init,
     (_normal(25, 2), 3, np.random.default_rng(11))),
    ("kmedoids_step", kmedoids_step, (_normal(15, 2), np.array([0, 5, 10]))),
    ("gmm_em_step", gmm_em_step,
     (_normal(30, 2), np.array([0.5, 0.5]), _normal(2, 2), np.stack([np.eye(2)] * 2))),
    ("pca_svd", pca_svd, (_normal(20, 4), 2)),
    ("pca_eigh", pca_eigh, (_normal(20, 4),)),
    ("pca_fit_transform", pca_fit_transform, (_normal(12, 5),)),
    ("whiten", whiten, (_normal(15, 3),)),
    ("linear_regression_gd", linear_regression_gd, (_normal(20, 3), _normal(20))),
    ("ridge_closed_form", ridge_closed_form, (_normal(20, 3), _normal(20), 0.5)),
    ("logistic_fit_predict", logistic_fit_predict,
     (_normal(20, 3), _labels(20, 2).astype(float), _normal(5, 3))),
    ("softmax_regression_step", softmax_regression_step,
     (_normal(10, 3), _labels(10, 4), np.zeros((3, 4)))),
    ("gaussian_naive_bayes", gaussian_naive_bayes,
     (_normal(30, 2), np.repeat([0, 1, 2], 10), _normal(6, 2))),
    ("multinomial_naive_bayes", multinomial_naive_bayes,
     (_rng.integers(0, 5, (12, 6)).astype(float), np.tile([0, 1, 2], 4), 3)),
    ("knn_predict", knn_predict, (_normal(20, 2), _labels(20, 3), _normal(5, 2))),
    ("knn_argpartition", knn_argpartition, (_normal(20, 2), _labels(20, 3), _normal(5, 2))),
    ("perceptron_train", perceptron_train,
     (_normal(10, 2), np.where(_normal(10) > 0, 1.0, -1.0))),
    ("best_split", best_split, (_rng.integers(0, 4, (12, 2)).astype(float), _labels(12, 2))),
    ("information_gain", information_gain, (_labels(12, 3), _rng.uniform(size=12) < 0.5)),
    ("confusion_matrix", confusion_matrix, (_labels(20, 3), _labels(20, 3), 3)),
    ("confusion_matrix_bincount", confusion_matrix_bincount,
     (_labels(20, 3), _labels(20, 3), 3)),
    ("precision_recall_f1", precision_recall_f1, (_labels(20, 2), _labels(20, 2))),
    ("roc_auc", roc_auc, (np.array([0, 1, 1, 0, 1, 0, 1, 1]), _normal(8))),
    ("r2_score", r2_score, (_normal(15), _normal(15))),
    ("accuracy_score", accuracy_score, (_labels(15, 3), _labels(15, 3))),
    ("silhouette_samples", silhouette_samples,
     (_normal(12, 2), np.array([0, 1, 2] * 4), 3)),
    ("standardize", standardize, (_normal(10, 3) * 3 + 1,)),
    ("to_one_hot", to_one_hot, (_labels(8, 4),)),
    ("one_hot_eye", one_hot_eye, (_labels(8, 4), 4)),
    ("polynomial_features", polynomial_features, (_normal(6, 2), 3)),
    ("train_test_split", train_test_split, (_normal(12, 2), _normal(12))),
    ("train_test_split_rng", train_test_split_rng,
     (_normal(10, 2), _normal(10), np.random.default_rng(5))),
    ("minibatches", minibatches, (_normal(10, 2), _normal(10), 4, np.random.default_rng(2))),
    ("label_encode", label_encode, (np.array([3, 1, 3, 7, 1, 1]),)),
    ("random_walk_2d", random_walk_2d, (50, 4)),
    ("gambler_walks", gambler_walks, (5, 30)),
    ("sir_euler", sir_euler, (0.3, 0.1, 990.0, 10.0, 0.0, 0.5, 40)),
    ("lotka_volterra", lotka_volterra,
     (np.array([10.0, 5.0]), {"alpha": 1.1, "beta": 0.4, "gamma": 0.4, "delta": 0.1},
      0.01, 30)),
    ("ising_metropolis_sweep", ising_metropolis_sweep,
     (np.where(_rng.uniform(size=(4, 4)) < 0.5, -1, 1), 0.4, np.random.default_rng(9))),
    ("heat_1d", heat_1d, (np.sin(np.linspace(0, np.pi, 20)), 0.2, 10)),
    ("brownian_paths", brownian_paths, (4, 10, 0.1, np.random.default_rng(6))),
    ("projectile", projectile, (20.0, 45.0, 0.1)),
    ("moving_average", moving_average, (_normal(20), 4)),
    ("fft_lowpass", fft_lowpass, (np.sin(np.linspace(0, 20, 64)) + 0.3 * _normal(64), 32.0, 3.0)),
    ("power_spectrum", power_spectrum, (np.sin(np.linspace(0, 30, 50)), 10.0)),
    ("autocorrelation", autocorrelation, (_normal(30), 5)),
    ("zero_crossings", zero_crossings, (_normal(20),)),
]
