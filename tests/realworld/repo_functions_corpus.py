"""Functions written as public NumPy repositories write them (issue #19, a sixth corpus).

None is copied from a repository or from the other corpora here: they follow the habits
of from-scratch NumPy machine-learning and simulation code (numpy-ml-style layers with
``self.parameters``/``self.gradients`` dicts and ``**kwargs``, initializers chosen by
name, activations looked up with ``getattr``, ``super().__init__()`` chains,
``@property`` hyper-parameters, ``isinstance`` checks, ``assert``s and
``raise ValueError(f"...")``, string-keyed configs, list comprehensions, ``zip`` and
``enumerate``), plus k-means, PCA, GMM/EM, HMMs, simulations, preprocessing and
metrics. ``PROGRAMS`` is ``[(name, fn, args)]``; each is checked against plain NumPy by
``test_repo_functions_corpus.py``.

Example::

    name, fn, args = PROGRAMS[0]
    fn(*args)          # plain NumPy; dynamo.compile(fn)(*args) must give the same
"""

from __future__ import annotations

import numpy as np

_rng = np.random.default_rng(20261204)


def _normal(*shape):
    return _rng.standard_normal(shape)


def _uniform(*shape):
    return _rng.random(shape)


def _labels(n, k):
    y = np.arange(n) % k
    _rng.shuffle(y)
    return y


# ================================================================ initializers


def he_uniform(weight_shape):
    fan_in = weight_shape[0] if len(weight_shape) == 2 else int(np.prod(weight_shape[:-1]))
    b = np.sqrt(6 / fan_in)
    return np.random.uniform(-b, b, size=weight_shape)


def glorot_normal(weight_shape, gain=1.0):
    fan_in, fan_out = weight_shape[0], weight_shape[1]
    std = gain * np.sqrt(2 / (fan_in + fan_out))
    return np.random.normal(0.0, std, size=weight_shape)


_INITIALIZERS = {"he_uniform": he_uniform, "glorot_normal": glorot_normal}


def init_weights_by_name(shape, init="glorot_normal", seed=1):
    np.random.seed(seed)
    if init not in _INITIALIZERS:
        raise ValueError(f"Unrecognized initialization scheme: {init}")
    W = _INITIALIZERS[init](shape)
    b = np.zeros((1, shape[1]))
    return {"W": W, "b": b}


def truncated_normal_init(shape, mean=0.0, std=1.0, seed=3):
    rng = np.random.default_rng(seed)
    samples = rng.normal(mean, std, size=shape)
    samples = np.clip(samples, mean - 2 * std, mean + 2 * std)
    return samples


# ================================================================ activations


class ActivationBase:
    def __init__(self, **kwargs):
        self.hyperparameters = dict(kwargs)

    def __call__(self, z):
        if z.ndim == 1:
            z = z.reshape(1, -1)
        return self.fn(z)

    def fn(self, z):
        raise NotImplementedError

    def grad(self, x, **kwargs):
        raise NotImplementedError


class Sigmoid(ActivationBase):
    def __init__(self):
        super().__init__()

    def __str__(self):
        return "Sigmoid"

    def fn(self, z):
        return 1 / (1 + np.exp(-z))

    def grad(self, x):
        fn_x = self.fn(x)
        return fn_x * (1 - fn_x)


class LeakyReLU(ActivationBase):
    def __init__(self, alpha=0.3):
        self.alpha = alpha
        super().__init__(alpha=alpha)

    def __str__(self):
        return f"Leaky ReLU(alpha={self.alpha})"

    def fn(self, z):
        _z = z.copy()
        _z[z < 0] = _z[z < 0] * self.alpha
        return _z

    def grad(self, x):
        out = np.ones_like(x)
        out[x < 0] *= self.alpha
        return out


class Tanh(ActivationBase):
    def fn(self, z):
        return np.tanh(z)

    def grad(self, x):
        return 1 - np.tanh(x) ** 2


class ELU(ActivationBase):
    def __init__(self, alpha=1.0):
        self.alpha = alpha
        super().__init__(alpha=alpha)

    def fn(self, z):
        return np.where(z > 0, z, self.alpha * (np.exp(z) - 1))

    def grad(self, x):
        return np.where(x > 0, np.ones_like(x), self.alpha * np.exp(x))


class ActivationInitializer:
    """Look an activation up by its name, as numpy-ml's initializers do."""

    def __init__(self, param=None):
        self.param = param

    def __call__(self):
        param = self.param
        if param is None:
            return Tanh()
        if isinstance(param, ActivationBase):
            return param
        if isinstance(param, str):
            return self.init_from_str(param)
        raise ValueError(f"Unknown activation: {param}")

    def init_from_str(self, act_str):
        act_str = act_str.lower()
        if act_str == "sigmoid":
            return Sigmoid()
        if act_str == "tanh":
            return Tanh()
        if act_str.startswith("leaky relu"):
            return LeakyReLU()
        if act_str == "elu":
            return ELU()
        raise ValueError(f"Unknown activation: {act_str}")


def activation_by_name(z, names=("sigmoid", "tanh", "leaky relu", "elu")):
    outs = {}
    for name in names:
        act = ActivationInitializer(name)()
        outs[name] = (act(z), act.grad(z))
    return outs


def activation_getattr_dispatch(z, kind="tanh", method="fn", grad_method="grad"):
    table = {"tanh": Tanh, "sigmoid": Sigmoid, "elu": ELU}
    act = table[kind]()
    fn = getattr(act, method)
    derivative = getattr(act, grad_method)
    return fn(z), derivative(z)


def activation_str_report(z):
    acts = [Sigmoid(), LeakyReLU(0.1)]
    labels = [str(a) for a in acts]
    values = [a(z).mean(axis=0) for a in acts]
    return dict(zip(labels, values))


# ================================================================ layers


class LayerBase:
    def __init__(self, optimizer=None):
        self.X = []
        self.act_fn = None
        self.trainable = True
        self.optimizer = optimizer
        self.gradients = {}
        self.parameters = {}
        self.derived_variables = {}

    def freeze(self):
        self.trainable = False

    def flush_gradients(self):
        assert self.trainable, "Layer is frozen"
        self.X = []
        for k, v in self.derived_variables.items():
            self.derived_variables[k] = []
        for k, v in self.gradients.items():
            self.gradients[k] = np.zeros_like(v)

    @property
    def hyperparameters(self):
        return {"layer": type(self).__name__, "trainable": self.trainable}


class FullyConnected(LayerBase):
    def __init__(self, n_in, n_out, act_fn=None, init="glorot_normal", seed=0, **kwargs):
        super().__init__(**kwargs)
        self.n_in = n_in
        self.n_out = n_out
        self.init = init
        self.act_fn = ActivationInitializer(act_fn)()
        np.random.seed(seed)
        self.parameters = init_weights_by_name((n_in, n_out), init, seed)
        self.gradients = {"W": np.zeros((n_in, n_out)), "b": np.zeros((1, n_out))}
        self.derived_variables = {"Z": []}

    def forward(self, X, retain_derived=True):
        W = self.parameters["W"]
        b = self.parameters["b"]
        Z = X @ W + b
        Y = self.act_fn(Z)
        if retain_derived:
            self.X.append(X)
            self.derived_variables["Z"].append(Z)
        return Y

    def backward(self, dLdy, retain_grads=True):
        assert self.trainable, "Layer is frozen"
        dX = []
        X = self.X
        for dy, x, z in zip([dLdy], X, self.derived_variables["Z"]):
            dz = dy * self.act_fn.grad(z)
            dw = x.T @ dz
            db = dz.sum(axis=0, keepdims=True)
            dX.append(dz @ self.parameters["W"].T)
            if retain_grads:
                self.gradients["W"] += dw
                self.gradients["b"] += db
        return dX[0] if len(X) == 1 else dX


def fully_connected_forward_backward(X, dY):
    layer = FullyConnected(X.shape[1], dY.shape[1], act_fn="tanh", seed=4)
    Y = layer.forward(X)
    dX = layer.backward(dY)
    grads = {k: v.copy() for k, v in layer.gradients.items()}
    layer.flush_gradients()
    return Y, dX, grads, layer.hyperparameters


def stacked_layers_forward(X, sizes=(5, 4, 2)):
    dims = [X.shape[1], *sizes]
    layers = [FullyConnected(i, o, act_fn="elu", seed=k)
              for k, (i, o) in enumerate(zip(dims[:-1], dims[1:]))]
    out = X
    for layer in layers:
        out = layer.forward(out, retain_derived=False)
    return out, [layer.parameters["W"].shape for layer in layers]


class Dropout(LayerBase):
    def __init__(self, p=0.5, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= p < 1:
            raise ValueError(f"p must be in [0, 1), got {p}")
        self.p = p
        self.rng = np.random.RandomState(seed)

    def forward(self, X, train=True):
        if not train:
            return X
        mask = (self.rng.rand(*X.shape) >= self.p) / (1.0 - self.p)
        self.derived_variables["mask"] = mask
        return X * mask


def dropout_train_eval(X, p=0.25):
    layer = Dropout(p=p, seed=7)
    return layer.forward(X), layer.forward(X, train=False)


class LayerNorm1D(LayerBase):
    def __init__(self, n_in, epsilon=1e-5, **kwargs):
        super().__init__(**kwargs)
        self.epsilon = epsilon
        self.parameters = {"scaler": np.ones(n_in), "intercept": np.zeros(n_in)}

    def forward(self, X):
        mean = X.mean(axis=1, keepdims=True)
        var = X.var(axis=1, keepdims=True)
        norm = (X - mean) / np.sqrt(var + self.epsilon)
        self.X.append(X)
        return self.parameters["scaler"] * norm + self.parameters["intercept"]


def layernorm_layer(X):
    ln = LayerNorm1D(X.shape[1])
    return ln.forward(X), len(ln.X)


class Embedding(LayerBase):
    def __init__(self, n_out, vocab_size, pool=None, seed=0, **kwargs):
        super().__init__(**kwargs)
        if pool not in (None, "sum", "mean"):
            raise ValueError(f"pool must be None, 'sum' or 'mean', got {pool!r}")
        self.pool = pool
        rng = np.random.default_rng(seed)
        self.parameters = {"W": rng.normal(0, 0.1, (vocab_size, n_out))}

    def forward(self, X):
        Y = self.parameters["W"][X]
        if self.pool == "sum":
            Y = Y.sum(axis=1)
        elif self.pool == "mean":
            Y = Y.mean(axis=1)
        return Y


def embedding_pooling(ids):
    return {pool: Embedding(3, 10, pool=pool).forward(ids) for pool in (None, "sum", "mean")}


def conv1d_via_stride_tricks(X, W, stride=1):
    n_ex, l_in, in_ch = X.shape
    fw, _, out_ch = W.shape
    l_out = (l_in - fw) // stride + 1
    cols = np.stack([X[:, i * stride:i * stride + fw, :] for i in range(l_out)], axis=1)
    return np.einsum("nlfc,fco->nlo", cols, W)


def avgpool2d(X, kernel=(2, 2)):
    n, h, w, c = X.shape
    kh, kw = kernel
    out_h, out_w = h // kh, w // kw
    X = X[:, :out_h * kh, :out_w * kw, :]
    return X.reshape(n, out_h, kh, out_w, kw, c).mean(axis=(2, 4))


# ================================================================ losses


class ObjectiveBase:
    def __call__(self, y, y_pred):
        return self.loss(y, y_pred)


class SquaredErrorLoss(ObjectiveBase):
    def __str__(self):
        return "SquaredError"

    @staticmethod
    def loss(y, y_pred):
        return 0.5 * np.linalg.norm(y_pred - y) ** 2

    @staticmethod
    def grad(y, y_pred, z, act_fn):
        return (y_pred - y) * act_fn.grad(z)


class CrossEntropyLoss(ObjectiveBase):
    def __str__(self):
        return "CrossEntropy"

    @staticmethod
    def loss(y, y_pred):
        is_binary(y)
        is_stochastic(y_pred)
        eps = np.finfo(float).eps
        return -np.sum(y * np.log(y_pred + eps))

    @staticmethod
    def grad(y, y_pred):
        is_binary(y)
        is_stochastic(y_pred)
        return y_pred - y


def is_binary(x):
    msg = "Matrix must be binary"
    assert np.array_equal(x, x.astype(bool)), msg
    return True


def is_stochastic(X):
    msg = "Array should be stochastic along the columns"
    assert len(X[X < 0]) == len(X[X > 1]) == 0, msg
    assert np.allclose(np.sum(X, axis=1), np.ones(X.shape[0])), msg
    return True


def squared_error_objective(y, y_pred, z):
    obj = SquaredErrorLoss()
    return str(obj), obj(y, y_pred), obj.grad(y, y_pred, z, Sigmoid())


def cross_entropy_objective(y, logits):
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p = p / p.sum(axis=1, keepdims=True)
    obj = CrossEntropyLoss()
    return obj(y, p), obj.grad(y, p)


def focal_loss(y_true, p, gamma=2.0, alpha=0.25, eps=1e-7):
    p = np.clip(p, eps, 1 - eps)
    pt = np.where(y_true == 1, p, 1 - p)
    at = np.where(y_true == 1, alpha, 1 - alpha)
    return float(np.mean(-at * (1 - pt) ** gamma * np.log(pt)))


def losses_by_name(y, y_pred, names=("mse", "mae", "huber")):
    def mse(a, b):
        return np.mean((a - b) ** 2)

    def mae(a, b):
        return np.mean(np.abs(a - b))

    def huber(a, b, delta=1.0):
        r = np.abs(a - b)
        return np.mean(np.where(r <= delta, 0.5 * r ** 2, delta * (r - 0.5 * delta)))

    funcs = {"mse": mse, "mae": mae, "huber": huber}
    return {name: funcs[name](y, y_pred) for name in names}


def contrastive_loss(d, same, margin=1.0):
    if d.shape != same.shape:
        raise ValueError(f"shape mismatch: {d.shape} vs {same.shape}")
    pos = same * d ** 2
    neg = (1 - same) * np.maximum(margin - d, 0) ** 2
    return 0.5 * np.mean(pos + neg)


# ================================================================ optimizers


class OptimizerBase:
    def __init__(self, lr=0.01, scheduler=None):
        self.cache = {}
        self.cur_step = 0
        self.hyperparameters = {}
        self.lr_scheduler = scheduler if scheduler is not None else ConstantScheduler(lr)

    def __call__(self, param, param_grad, param_name, cur_loss=None):
        return self.update(param, param_grad, param_name, cur_loss)

    def step(self):
        self.cur_step += 1


class ConstantScheduler:
    def __init__(self, lr=0.01, **kwargs):
        self.lr = lr

    def learning_rate(self, step=None):
        return self.lr


class ExponentialScheduler:
    def __init__(self, initial_lr=0.01, stage_length=500, staircase=False, decay=0.1):
        self.decay = decay
        self.staircase = staircase
        self.initial_lr = initial_lr
        self.stage_length = stage_length

    def learning_rate(self, step):
        cur_stage = step / self.stage_length
        if self.staircase:
            cur_stage = np.floor(cur_stage)
        return self.initial_lr * self.decay ** cur_stage


class SGDMomentum(OptimizerBase):
    def __init__(self, lr=0.01, momentum=0.0, clip_norm=None, lr_scheduler=None, **kwargs):
        super().__init__(lr, lr_scheduler)
        self.hyperparameters = {"id": "SGD", "lr": lr, "momentum": momentum,
                                "clip_norm": clip_norm}

    def update(self, param, param_grad, param_name, cur_loss=None):
        C = self.cache
        H = self.hyperparameters
        momentum, clip_norm = H["momentum"], H["clip_norm"]
        lr = self.lr_scheduler.learning_rate(self.cur_step)
        if param_name not in C:
            C[param_name] = np.zeros_like(param_grad)
        t = np.inf if clip_norm is None else clip_norm
        if np.linalg.norm(param_grad) > t:
            param_grad = param_grad * t / np.linalg.norm(param_grad)
        update = momentum * C[param_name] + lr * param_grad
        self.cache[param_name] = update
        return param - update


def sgd_momentum_named_params(params, grads, steps=3):
    opt = SGDMomentum(lr=0.1, momentum=0.9)
    for _ in range(steps):
        for name in sorted(params):
            params[name] = opt(params[name], grads[name], name)
        opt.step()
    return params, opt.cur_step


def sgd_with_exponential_schedule(w, g, steps=4):
    opt = SGDMomentum(lr_scheduler=ExponentialScheduler(0.5, stage_length=2, staircase=True))
    for _ in range(steps):
        w = opt.update(w, g, "w")
        opt.step()
    return w


class AdamOptimizer(OptimizerBase):
    def __init__(self, lr=0.001, decay1=0.9, decay2=0.999, eps=1e-7, **kwargs):
        super().__init__(lr, None)
        self.hyperparameters = {"id": "Adam", "lr": lr, "eps": eps,
                                "decay1": decay1, "decay2": decay2}

    def update(self, param, param_grad, param_name, cur_loss=None):
        C = self.cache
        H = self.hyperparameters
        d1, d2 = H["decay1"], H["decay2"]
        eps = H["eps"]
        lr = self.lr_scheduler.learning_rate(self.cur_step)
        if param_name not in C:
            C[param_name] = {"t": 0, "mean": np.zeros_like(param_grad),
                             "var": np.zeros_like(param_grad)}
        t = C[param_name]["t"] + 1
        var = C[param_name]["var"]
        mean = C[param_name]["mean"]
        C[param_name]["t"] = t
        C[param_name]["var"] = d2 * var + (1 - d2) * param_grad ** 2
        C[param_name]["mean"] = d1 * mean + (1 - d1) * param_grad
        self.cache = C
        m_hat = C[param_name]["mean"] / (1 - d1 ** t)
        v_hat = C[param_name]["var"] / (1 - d2 ** t)
        return param - lr * m_hat / (np.sqrt(v_hat) + eps)


def adam_on_quadratic(w0, target, steps=5):
    opt = AdamOptimizer(lr=0.05)
    w = w0.copy()
    losses = []
    for _ in range(steps):
        grad = 2 * (w - target)
        losses.append(float(np.sum((w - target) ** 2)))
        w = opt(w, grad, "w")
    return w, losses, opt.cache["w"]["t"]


class AdaGrad(OptimizerBase):
    def __init__(self, lr=0.01, eps=1e-7, **kwargs):
        super().__init__(lr)
        self.hyperparameters = {"id": "AdaGrad", "lr": lr, "eps": eps}

    def update(self, param, param_grad, param_name, cur_loss=None):
        C = self.cache
        H = self.hyperparameters
        if param_name not in C:
            C[param_name] = np.zeros_like(param_grad)
        C[param_name] += param_grad ** 2
        update = H["lr"] * param_grad / (np.sqrt(C[param_name]) + H["eps"])
        return param - update


def optimizer_by_name(name, w, g, steps=3, **kwargs):
    optimizers = {"sgd": SGDMomentum, "adam": AdamOptimizer, "adagrad": AdaGrad}
    if name not in optimizers:
        raise ValueError(f"unknown optimizer {name!r}; choose from {sorted(optimizers)}")
    opt = optimizers[name](**kwargs)
    for _ in range(steps):
        w = opt(w, g, "w")
    return w, opt.hyperparameters["id"]


# ================================================================ clustering


def kmeans_lloyd(X, k, max_iter=6, seed=0):
    rng = np.random.default_rng(seed)
    centroids = X[rng.choice(X.shape[0], size=k, replace=False)]
    for _ in range(max_iter):
        dists = np.linalg.norm(X[:, None, :] - centroids[None, :, :], axis=2)
        labels = np.argmin(dists, axis=1)
        new = np.array([X[labels == j].mean(axis=0) if np.any(labels == j) else centroids[j]
                        for j in range(k)])
        centroids = new
    inertia = np.sum((X - centroids[labels]) ** 2)
    return centroids, labels, inertia


class KMeans:
    def __init__(self, n_clusters=3, n_iter=4, seed=1):
        self.n_clusters = n_clusters
        self.n_iter = n_iter
        self.seed = seed
        self.centers_ = None

    def _assign(self, X):
        d = ((X[:, None, :] - self.centers_[None]) ** 2).sum(-1)
        return d.argmin(1)

    def fit(self, X):
        rng = np.random.RandomState(self.seed)
        idx = rng.permutation(len(X))[:self.n_clusters]
        self.centers_ = X[idx].copy()
        for _ in range(self.n_iter):
            labels = self._assign(X)
            for j in range(self.n_clusters):
                members = labels == j
                counts = members.sum()
                self.centers_[j] = np.where(counts > 0,
                                            (X * members[:, None]).sum(0) / np.maximum(counts, 1),
                                            self.centers_[j])
        return self

    def predict(self, X):
        if self.centers_ is None:
            raise RuntimeError("call fit before predict")
        return self._assign(X)


def kmeans_class_fit_predict(X, X_new):
    model = KMeans(n_clusters=3).fit(X)
    return model.predict(X_new), model.centers_


def gmm_em(X, k=2, n_iter=4, seed=0):
    n, d = X.shape
    rng = np.random.default_rng(seed)
    mu = X[rng.choice(n, k, replace=False)]
    sigma = np.array([np.eye(d) for _ in range(k)])
    pi = np.full(k, 1.0 / k)
    for _ in range(n_iter):
        resp = np.zeros((n, k))
        for c in range(k):
            diff = X - mu[c]
            inv = np.linalg.inv(sigma[c])
            norm = 1.0 / np.sqrt((2 * np.pi) ** d * np.linalg.det(sigma[c]))
            resp[:, c] = pi[c] * norm * np.exp(-0.5 * np.sum(diff @ inv * diff, axis=1))
        resp /= resp.sum(axis=1, keepdims=True)
        nk = resp.sum(axis=0)
        pi = nk / n
        mu = (resp.T @ X) / nk[:, None]
        for c in range(k):
            diff = X - mu[c]
            sigma[c] = (resp[:, c, None] * diff).T @ diff / nk[c] + 1e-6 * np.eye(d)
    return pi, mu, sigma


def gmm_log_likelihood(X, pi, mu, var):
    log_probs = []
    for c, (w, m, v) in enumerate(zip(pi, mu, var)):
        ll = -0.5 * np.sum((X - m) ** 2 / v + np.log(2 * np.pi * v), axis=1)
        log_probs.append(np.log(w) + ll)
    log_probs = np.stack(log_probs, axis=1)
    mx = log_probs.max(axis=1, keepdims=True)
    return np.sum(mx.ravel() + np.log(np.exp(log_probs - mx).sum(axis=1)))


# ================================================================ PCA and friends


class PCAModel:
    def __init__(self, n_components=None, whiten=False):
        self.n_components = n_components
        self.whiten = whiten

    @property
    def explained_variance_ratio_(self):
        return self.explained_variance_ / self.explained_variance_.sum()

    def fit(self, X):
        self.mean_ = X.mean(axis=0)
        Xc = X - self.mean_
        U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
        k = self.n_components or X.shape[1]
        self.components_ = Vt[:k]
        self.explained_variance_ = S[:k] ** 2 / (X.shape[0] - 1)
        return self

    def transform(self, X):
        Z = (X - self.mean_) @ self.components_.T
        if self.whiten:
            Z /= np.sqrt(self.explained_variance_)
        return Z

    def inverse_transform(self, Z):
        if self.whiten:
            Z = Z * np.sqrt(self.explained_variance_)
        return Z @ self.components_ + self.mean_


def pca_model_roundtrip(X, k=2):
    pca = PCAModel(n_components=k, whiten=True).fit(X)
    Z = pca.transform(X)
    return Z, pca.inverse_transform(Z), pca.explained_variance_ratio_


def pca_cov_eig(X, n_components=2):
    Xc = X - X.mean(axis=0)
    cov = np.cov(Xc, rowvar=False)
    vals, vecs = np.linalg.eigh(cov)
    order = np.argsort(vals)[::-1][:n_components]
    return Xc @ vecs[:, order], vals[order]


def zca_whitening(X, eps=1e-5):
    Xc = X - X.mean(axis=0)
    sigma = Xc.T @ Xc / Xc.shape[0]
    U, S, _ = np.linalg.svd(sigma)
    W = U @ np.diag(1.0 / np.sqrt(S + eps)) @ U.T
    return Xc @ W


# ================================================================ HMMs


def hmm_forward(A, B, pi, obs):
    T = len(obs)
    N = A.shape[0]
    alpha = np.zeros((T, N))
    alpha[0] = pi * B[:, obs[0]]
    for t in range(1, T):
        alpha[t] = alpha[t - 1] @ A * B[:, obs[t]]
    return alpha, np.log(alpha[-1].sum())


def hmm_forward_scaled(A, B, pi, obs):
    T = len(obs)
    alpha = np.zeros((T, A.shape[0]))
    scale = np.zeros(T)
    for t, o in enumerate(obs):
        a = pi * B[:, o] if t == 0 else alpha[t - 1] @ A * B[:, o]
        scale[t] = a.sum()
        alpha[t] = a / scale[t]
    return alpha, np.sum(np.log(scale))


def hmm_viterbi(A, B, pi, obs):
    eps = np.finfo(float).eps
    logA, logB, logpi = np.log(A + eps), np.log(B + eps), np.log(pi + eps)
    T, N = len(obs), A.shape[0]
    delta = np.zeros((T, N))
    psi = np.zeros((T, N), dtype=int)
    delta[0] = logpi + logB[:, obs[0]]
    for t in range(1, T):
        scores = delta[t - 1][:, None] + logA
        psi[t] = np.argmax(scores, axis=0)
        delta[t] = scores[psi[t], np.arange(N)] + logB[:, obs[t]]
    path = np.zeros(T, dtype=int)
    path[-1] = np.argmax(delta[-1])
    for t in range(T - 2, -1, -1):
        path[t] = psi[t + 1, path[t + 1]]
    return path, delta[-1].max()


class HMM:
    def __init__(self, A=None, B=None, pi=None, eps=None):
        self.eps = np.finfo(float).eps if eps is None else eps
        self.A, self.B, self.pi = A, B, pi
        if self.A is not None:
            self.N = self.A.shape[0]

    def backward(self, obs):
        T = obs.shape[0]
        beta = np.zeros((self.N, T))
        beta[:, T - 1] = 0.0
        for t in reversed(range(T - 1)):
            for i in range(self.N):
                terms = [np.log(self.A[i, j] + self.eps) + np.log(self.B[j, obs[t + 1]] + self.eps)
                         + beta[j, t + 1] for j in range(self.N)]
                beta[i, t] = np.logaddexp.reduce(terms)
        return beta


def hmm_backward_class(A, B, pi, obs):
    return HMM(A, B, pi).backward(obs)


# ================================================================ regression and classifiers


class LinearModel:
    def __init__(self, fit_intercept=True, **kwargs):
        self.fit_intercept = fit_intercept
        self.beta = None
        self.hyperparams = {"fit_intercept": fit_intercept, **kwargs}

    def _design(self, X):
        if self.fit_intercept:
            return np.c_[np.ones(X.shape[0]), X]
        return X


class RidgeRegression(LinearModel):
    def __init__(self, alpha=1.0, fit_intercept=True):
        super().__init__(fit_intercept, alpha=alpha)
        self.alpha = alpha

    def fit(self, X, y):
        Xd = self._design(X)
        A = np.eye(Xd.shape[1]) * self.alpha
        self.beta = np.linalg.solve(Xd.T @ Xd + A, Xd.T @ y)
        return self

    def predict(self, X):
        return self._design(X) @ self.beta


def ridge_model(X, y, X_test):
    model = RidgeRegression(alpha=0.5).fit(X, y)
    return model.predict(X_test), model.hyperparams


class LogisticRegressionGD(LinearModel):
    def __init__(self, penalty="l2", gamma=0.1, fit_intercept=True):
        super().__init__(fit_intercept)
        if penalty not in ("l1", "l2"):
            raise ValueError(f"penalty must be 'l1' or 'l2', got {penalty}")
        self.penalty = penalty
        self.gamma = gamma

    def _nll_grad(self, X, y, y_pred):
        N, M = X.shape
        p = self.penalty
        beta = self.beta
        d_penalty = self.gamma * beta if p == "l2" else self.gamma * np.sign(beta)
        return -(np.dot(y - y_pred, X) + d_penalty) / N

    def fit(self, X, y, lr=0.1, max_iter=20):
        Xd = self._design(X)
        self.beta = np.zeros(Xd.shape[1])
        for _ in range(max_iter):
            y_pred = 1 / (1 + np.exp(-Xd @ self.beta))
            self.beta -= lr * self._nll_grad(Xd, y, y_pred)
        return self

    def predict(self, X):
        return 1 / (1 + np.exp(-self._design(X) @ self.beta))


def logistic_l1_l2(X, y):
    return [LogisticRegressionGD(penalty=p).fit(X, y).predict(X) for p in ("l1", "l2")]


def naive_bayes_gaussian_class_stats(X, y, n_classes):
    means = np.zeros((n_classes, X.shape[1]))
    variances = np.zeros((n_classes, X.shape[1]))
    priors = np.zeros(n_classes)
    for c in range(n_classes):
        Xc = X[y == c]
        means[c] = Xc.mean(axis=0)
        variances[c] = Xc.var(axis=0) + 1e-9
        priors[c] = Xc.shape[0] / X.shape[0]
    log_like = -0.5 * np.sum(np.log(2 * np.pi * variances)[None]
                             + (X[:, None, :] - means[None]) ** 2 / variances[None], axis=2)
    return np.argmax(log_like + np.log(priors), axis=1)


def knn_regression(X_train, y_train, X_test, k=3, weights="distance"):
    d = np.sqrt(((X_test[:, None, :] - X_train[None, :, :]) ** 2).sum(-1))
    idx = np.argsort(d, axis=1)[:, :k]
    if weights == "uniform":
        return y_train[idx].mean(axis=1)
    elif weights == "distance":
        w = 1.0 / (np.take_along_axis(d, idx, axis=1) + 1e-12)
        return (w * y_train[idx]).sum(1) / w.sum(1)
    raise ValueError(f"weights must be 'uniform' or 'distance', got {weights}")


def linear_svm_sgd(X, y, lam=0.01, epochs=3, seed=0):
    rng = np.random.default_rng(seed)
    w = np.zeros(X.shape[1])
    t = 0
    for _ in range(epochs):
        for i in rng.permutation(len(y)):
            t += 1
            eta = 1.0 / (lam * t)
            margin = y[i] * (X[i] @ w)
            w = (1 - eta * lam) * w + np.where(margin < 1, eta * y[i] * X[i], 0.0)
    return w


# ================================================================ preprocessing


class StandardScaler:
    def __init__(self, with_mean=True, with_std=True):
        self.with_mean = with_mean
        self.with_std = with_std
        self._is_fit = False

    @property
    def hyperparameters(self):
        return {"with_mean": self.with_mean, "with_std": self.with_std}

    def fit(self, X):
        if not isinstance(X, np.ndarray):
            X = np.array(X)
        if X.shape[0] < 2:
            raise ValueError(f"`X` must contain at least 2 samples, but got {X.shape[0]}")
        self._mean = X.mean(axis=0) if self.with_mean else np.zeros(X.shape[1])
        std = X.std(axis=0) if self.with_std else np.ones(X.shape[1])
        std[std == 0] = 1
        self._std = std
        self._is_fit = True

    def transform(self, X):
        if not self._is_fit:
            raise Exception("Must call `fit` before using the `transform` method")
        return (X - self._mean) / self._std

    def inverse_transform(self, Z):
        return Z * self._std + self._mean


def standard_scaler_roundtrip(X, X_new):
    scaler = StandardScaler()
    scaler.fit(X)
    Z = scaler.transform(X_new)
    return Z, scaler.inverse_transform(Z), scaler.hyperparameters


class MinMaxScaler:
    def __init__(self, feature_range=(0, 1)):
        lo, hi = feature_range
        if lo >= hi:
            raise ValueError(f"Minimum of desired feature range must be smaller than "
                             f"maximum. Got {feature_range}.")
        self.feature_range = feature_range

    def fit_transform(self, X):
        lo, hi = self.feature_range
        self.data_min_ = np.nanmin(X, axis=0)
        self.data_max_ = np.nanmax(X, axis=0)
        rng_ = self.data_max_ - self.data_min_
        rng_[rng_ == 0.0] = 1.0
        self.scale_ = (hi - lo) / rng_
        return (X - self.data_min_) * self.scale_ + lo


def minmax_scaler(X):
    return MinMaxScaler((-1, 1)).fit_transform(X)


def one_hot_encoder_categories(labels, categories):
    cat2idx = {c: i for i, c in enumerate(categories)}
    out = np.zeros((len(labels), len(categories)))
    for row, lab in enumerate(labels):
        out[row, cat2idx[lab]] = 1.0
    return out


def polynomial_expansion(X, degree=2, include_bias=True):
    assert degree >= 1, "degree must be positive"
    cols = [np.ones(X.shape[0])] if include_bias else []
    for d in range(1, degree + 1):
        cols.extend(X[:, j] ** d for j in range(X.shape[1]))
    return np.column_stack(cols)


def batch_generator_indices(n, batch_size, shuffle=True, seed=0):
    idx = np.arange(n)
    if shuffle:
        np.random.seed(seed)
        np.random.shuffle(idx)
    return [idx[i:i + batch_size] for i in range(0, n, batch_size)]


def tfidf_matrix(counts, smooth=True):
    n_docs = counts.shape[0]
    df = (counts > 0).sum(axis=0)
    if smooth:
        idf = np.log((1 + n_docs) / (1 + df)) + 1
    else:
        idf = np.log(n_docs / df) + 1
    tf = counts / np.maximum(counts.sum(axis=1, keepdims=True), 1)
    tfidf = tf * idf
    norms = np.linalg.norm(tfidf, axis=1, keepdims=True)
    return tfidf / np.where(norms == 0, 1, norms)


def impute_column_median(X):
    X = X.copy()
    med = np.nanmedian(X, axis=0)
    inds = np.where(np.isnan(X))
    X[inds] = np.take(med, inds[1])
    return X


# ================================================================ metrics


def classification_report(y_true, y_pred, labels=(0, 1, 2)):
    report = {}
    for lab in labels:
        tp = np.sum((y_pred == lab) & (y_true == lab))
        fp = np.sum((y_pred == lab) & (y_true != lab))
        fn = np.sum((y_pred != lab) & (y_true == lab))
        precision = tp / max(tp + fp, 1)
        recall = tp / max(tp + fn, 1)
        f1 = 2 * precision * recall / np.maximum(precision + recall, 1e-12)
        report[str(lab)] = {"precision": precision, "recall": recall, "f1": f1}
    return report


def mean_average_precision_at_k(relevance, k=3):
    rel = relevance[:, :k]
    hits = np.cumsum(rel, axis=1)
    precisions = hits / np.arange(1, k + 1)
    ap = (precisions * rel).sum(axis=1) / np.maximum(rel.sum(axis=1), 1)
    return ap.mean()


def ndcg_at_k(scores, k=4):
    discounts = 1.0 / np.log2(np.arange(2, k + 2))
    dcg = (scores[:, :k] * discounts).sum(axis=1)
    ideal = np.sort(scores, axis=1)[:, ::-1][:, :k]
    idcg = (ideal * discounts).sum(axis=1)
    return np.mean(np.where(idcg > 0, dcg / np.where(idcg > 0, idcg, 1), 0.0))


def regression_metrics(y, y_hat, metrics=("mse", "rmse", "mae", "r2")):
    resid = y - y_hat
    out = {}
    for name in metrics:
        if name == "mse":
            out[name] = np.mean(resid ** 2)
        elif name == "rmse":
            out[name] = np.sqrt(np.mean(resid ** 2))
        elif name == "mae":
            out[name] = np.mean(np.abs(resid))
        elif name == "r2":
            out[name] = 1 - np.sum(resid ** 2) / np.sum((y - y.mean()) ** 2)
        else:
            raise ValueError(f"unknown metric {name}")
    return out


def log_loss_multiclass(y_true, probs, eps=1e-15):
    probs = np.clip(probs, eps, 1 - eps)
    probs /= probs.sum(axis=1, keepdims=True)
    return -np.mean(np.log(probs[np.arange(len(y_true)), y_true]))


def pairwise_cosine(X, Y=None):
    Y = X if Y is None else Y
    Xn = X / np.linalg.norm(X, axis=1, keepdims=True)
    Yn = Y / np.linalg.norm(Y, axis=1, keepdims=True)
    return Xn @ Yn.T


# ================================================================ simulations


def gillespie_like_fixed_steps(rates, x0, n_steps=8, seed=5):
    rng = np.random.default_rng(seed)
    x = np.array(x0, dtype=float)
    times = np.zeros(n_steps + 1)
    for i in range(n_steps):
        props = rates * x
        total = props.sum()
        times[i + 1] = times[i] + rng.exponential(1.0 / total)
        x = x - props / total
    return times, x


def predator_prey_rk2(state, params, dt=0.01, n_steps=20):
    a, b, c, d = (params[k] for k in ("alpha", "beta", "gamma", "delta"))

    def deriv(s):
        x, y = s
        return np.array([a * x - b * x * y, d * x * y - c * y])

    traj = [state]
    for _ in range(n_steps):
        k1 = deriv(state)
        state = state + dt * deriv(state + 0.5 * dt * k1)
        traj.append(state)
    return np.array(traj)


def particle_swarm_step(pos, vel, pbest, gbest, w=0.7, c1=1.5, c2=1.5, seed=0):
    rng = np.random.default_rng(seed)
    r1 = rng.random(pos.shape)
    r2 = rng.random(pos.shape)
    vel = w * vel + c1 * r1 * (pbest - pos) + c2 * r2 * (gbest - pos)
    pos = pos + vel
    f = np.sum(pos ** 2, axis=1)
    fbest = np.sum(pbest ** 2, axis=1)
    better = f < fbest
    pbest = np.where(better[:, None], pos, pbest)
    return pos, vel, pbest, pbest[np.argmin(np.sum(pbest ** 2, axis=1))]


def diffusion_2d_explicit(u, D=0.1, steps=5, dx=1.0, dt=None):
    dt = dt if dt is not None else 0.2 * dx ** 2 / D
    assert dt <= dx ** 2 / (4 * D), f"unstable time step {dt}"
    for _ in range(steps):
        lap = (np.roll(u, 1, 0) + np.roll(u, -1, 0) + np.roll(u, 1, 1) + np.roll(u, -1, 1)
               - 4 * u) / dx ** 2
        u = u + D * dt * lap
    return u


def epidemic_seir(params, y0, days=10, dt=0.5):
    beta, sigma, gamma = params["beta"], params["sigma"], params["gamma"]
    S, E, I, R = y0  # noqa: E741 (the model's own names)
    N = S + E + I + R
    hist = {"S": [], "E": [], "I": [], "R": []}
    for _ in range(int(days / dt)):
        dS = -beta * S * I / N
        dE = beta * S * I / N - sigma * E
        dI = sigma * E - gamma * I
        dR = gamma * I
        S, E, I, R = S + dt * dS, E + dt * dE, I + dt * dI, R + dt * dR  # noqa: E741
        for key, val in zip("SEIR", (S, E, I, R)):
            hist[key].append(val)
    return {k: np.array(v) for k, v in hist.items()}


def random_walk_metropolis(log_target_scale, n_samples=30, step=0.5, seed=2):
    rng = np.random.default_rng(seed)
    x = np.zeros(2)
    samples = np.empty((n_samples, 2))
    proposals = rng.normal(0, step, (n_samples, 2))
    u = rng.random(n_samples)
    for i in range(n_samples):
        prop = x + proposals[i]
        log_ratio = -0.5 * np.sum(prop ** 2 - x ** 2) / log_target_scale
        x = np.where(np.log(u[i]) < log_ratio, prop, x)
        samples[i] = x
    return samples


# ================================================================ added after the first count
# (more everyday idioms, to find more causes: getattr(np, name), classmethods, setattr
# and hasattr, defaultdict, generators of batches, kwargs forwarded through super())


def reduce_by_name(X, how="mean", axis=0):
    fn = getattr(np, how, None)
    if fn is None or not callable(fn):
        raise ValueError(f"unknown reduction {how!r}")
    return fn(X, axis=axis)


class Scheduler:
    registry = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        Scheduler.registry[cls.__name__.lower()] = cls

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        kind = config.pop("kind")
        return cls.registry[kind](**config)


class Cosine(Scheduler):
    def __init__(self, lr=0.1, total=10):
        self.lr, self.total = lr, total

    def __call__(self, step):
        return 0.5 * self.lr * (1 + np.cos(np.pi * min(step, self.total) / self.total))


class Linear(Scheduler):
    def __init__(self, lr=0.1, total=10):
        self.lr, self.total = lr, total

    def __call__(self, step):
        return self.lr * max(0.0, 1 - step / self.total)


def scheduled_descent(w, g, config, steps=4):
    sched = Scheduler.from_config(config)
    for step in range(steps):
        w = w - sched(step) * g
    return w


class Module:
    def __init__(self, **kwargs):
        for key, value in kwargs.items():
            setattr(self, key, value)
        self.training = True

    def eval(self):
        self.training = False
        return self

    def params(self):
        return {k: v for k, v in vars(self).items() if isinstance(v, np.ndarray)}


class Linear2(Module):
    def __init__(self, n_in, n_out, bias=True, seed=0):
        rng = np.random.default_rng(seed)
        kwargs = {"W": rng.normal(0, 1 / np.sqrt(n_in), (n_in, n_out))}
        if bias:
            kwargs["b"] = np.zeros(n_out)
        super().__init__(**kwargs)

    def __call__(self, X):
        out = X @ self.W
        if hasattr(self, "b"):
            out = out + self.b
        return out


def module_setattr_params(X):
    layers = [Linear2(X.shape[1], 3), Linear2(3, 2, bias=False, seed=1).eval()]
    h = X
    for layer in layers:
        h = layer(h)
    return h, [sorted(layer.params()) for layer in layers], layers[1].training


def word_counts_matrix(docs, vocab):
    from collections import defaultdict
    counts = defaultdict(int)
    index = {w: i for i, w in enumerate(vocab)}
    M = np.zeros((len(docs), len(vocab)))
    for d, doc in enumerate(docs):
        for word in doc.split():
            if word in index:
                M[d, index[word]] += 1
                counts[word] += 1
    return M, dict(counts)


def iterate_minibatches(X, y, batch_size):
    for start in range(0, len(X), batch_size):
        yield X[start:start + batch_size], y[start:start + batch_size]


def train_linear_minibatch(X, y, batch_size=4, lr=0.1, epochs=2):
    w = np.zeros(X.shape[1])
    for _ in range(epochs):
        for xb, yb in iterate_minibatches(X, y, batch_size):
            grad = xb.T @ (xb @ w - yb) / len(yb)
            w -= lr * grad
    return w


def weighted_random_choice(weights, n=5, seed=0):
    rng = np.random.default_rng(seed)
    p = np.asarray(weights, dtype=float)
    p = p / p.sum()
    draws = rng.choice(len(p), size=n, p=p)
    return draws, np.bincount(draws, minlength=len(p))


def softmax_temperature(logits, temperature=1.0, axis=-1):
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    z = logits / temperature
    z = z - np.max(z, axis=axis, keepdims=True)
    e = np.exp(z)
    return e / np.sum(e, axis=axis, keepdims=True)


def batch_norm_dict_state(X, state=None, momentum=0.9, eps=1e-5, training=True):
    if state is None:
        state = {"mean": np.zeros(X.shape[1]), "var": np.ones(X.shape[1])}
    if training:
        mu, var = X.mean(0), X.var(0)
        state["mean"] = momentum * state["mean"] + (1 - momentum) * mu
        state["var"] = momentum * state["var"] + (1 - momentum) * var
    else:
        mu, var = state["mean"], state["var"]
    return (X - mu) / np.sqrt(var + eps), state


def confusion_from_pairs(y_true, y_pred, labels):
    idx = {lab: i for i, lab in enumerate(labels)}
    cm = np.zeros((len(labels), len(labels)), dtype=int)
    for t, p in zip(y_true, y_pred):
        cm[idx[t], idx[p]] += 1
    return cm


def exponential_moving_stats(x, alpha=0.3):
    mean, var = x[0], 0.0
    means, variances = [mean], [var]
    for v in x[1:]:
        diff = v - mean
        incr = alpha * diff
        mean = mean + incr
        var = (1 - alpha) * (var + diff * incr)
        means.append(mean)
        variances.append(var)
    return np.array(means), np.array(variances)


def euclidean_distance_matrix(X, squared=False):
    sq = np.sum(X ** 2, axis=1)
    d2 = sq[:, None] + sq[None, :] - 2 * X @ X.T
    np.maximum(d2, 0, out=d2)
    np.fill_diagonal(d2, 0)
    return d2 if squared else np.sqrt(d2)


# ================================================================ the corpus

_X = _normal(12, 4)
_y3 = _labels(12, 3)
_A = np.array([[0.7, 0.3], [0.4, 0.6]])
_B = np.array([[0.5, 0.4, 0.1], [0.1, 0.3, 0.6]])
_pi = np.array([0.6, 0.4])
_obs = np.array([0, 1, 2, 2, 1, 0])
_onehot = np.eye(3)[_labels(8, 3)]

PROGRAMS = [
    ("init_weights_by_name", init_weights_by_name, ((4, 3), "he_uniform", 2)),
    ("truncated_normal_init", truncated_normal_init, ((5, 3),)),
    ("activation_by_name", activation_by_name, (_normal(3, 4),)),
    ("activation_getattr_dispatch", activation_getattr_dispatch, (_normal(6), "elu")),
    ("activation_str_report", activation_str_report, (_normal(5, 3),)),
    ("fully_connected_forward_backward", fully_connected_forward_backward,
     (_normal(6, 4), _normal(6, 3))),
    ("stacked_layers_forward", stacked_layers_forward, (_normal(7, 3),)),
    ("dropout_train_eval", dropout_train_eval, (_normal(4, 5),)),
    ("layernorm_layer", layernorm_layer, (_normal(5, 6),)),
    ("embedding_pooling", embedding_pooling, (np.array([[1, 3, 5], [2, 2, 9]]),)),
    ("conv1d_via_stride_tricks", conv1d_via_stride_tricks, (_normal(2, 9, 3), _normal(3, 3, 4), 2)),
    ("avgpool2d", avgpool2d, (_normal(2, 5, 6, 3),)),
    ("squared_error_objective", squared_error_objective, (_normal(5, 2), _normal(5, 2), _normal(5, 2))),
    ("cross_entropy_objective", cross_entropy_objective, (_onehot, _normal(8, 3))),
    ("focal_loss", focal_loss, ((_uniform(20) > 0.5).astype(float), _uniform(20))),
    ("losses_by_name", losses_by_name, (_normal(10), _normal(10))),
    ("contrastive_loss", contrastive_loss, (_uniform(9) * 2, (_uniform(9) > 0.5).astype(float))),
    ("sgd_momentum_named_params", sgd_momentum_named_params,
     ({"W": _normal(3, 2), "b": _normal(2)}, {"W": _normal(3, 2), "b": _normal(2) * 10})),
    ("sgd_with_exponential_schedule", sgd_with_exponential_schedule, (_normal(4), _normal(4))),
    ("adam_on_quadratic", adam_on_quadratic, (_normal(5), _normal(5))),
    ("optimizer_by_name", optimizer_by_name, ("adagrad", _normal(3), _normal(3))),
    ("kmeans_lloyd", kmeans_lloyd, (_X, 3)),
    ("kmeans_class_fit_predict", kmeans_class_fit_predict, (_X, _normal(5, 4))),
    ("gmm_em", gmm_em, (np.vstack([_normal(10, 2), _normal(10, 2) + 4]),)),
    ("gmm_log_likelihood", gmm_log_likelihood,
     (_normal(8, 2), np.array([0.3, 0.7]), _normal(2, 2), _uniform(2, 2) + 0.5)),
    ("pca_model_roundtrip", pca_model_roundtrip, (_X,)),
    ("pca_cov_eig", pca_cov_eig, (_X,)),
    ("zca_whitening", zca_whitening, (_X,)),
    ("hmm_forward", hmm_forward, (_A, _B, _pi, _obs)),
    ("hmm_forward_scaled", hmm_forward_scaled, (_A, _B, _pi, _obs)),
    ("hmm_viterbi", hmm_viterbi, (_A, _B, _pi, _obs)),
    ("hmm_backward_class", hmm_backward_class, (_A, _B, _pi, _obs)),
    ("ridge_model", ridge_model, (_X, _normal(12), _normal(3, 4))),
    ("logistic_l1_l2", logistic_l1_l2, (_X, (_uniform(12) > 0.5).astype(float))),
    ("naive_bayes_gaussian_class_stats", naive_bayes_gaussian_class_stats, (_X, _y3, 3)),
    ("knn_regression", knn_regression, (_X, _normal(12), _normal(4, 4))),
    ("linear_svm_sgd", linear_svm_sgd, (_X, np.where(_uniform(12) > 0.5, 1.0, -1.0))),
    ("standard_scaler_roundtrip", standard_scaler_roundtrip, (_X, _normal(3, 4))),
    ("minmax_scaler", minmax_scaler, (np.c_[_normal(6, 2), np.ones(6)],)),
    ("one_hot_encoder_categories", one_hot_encoder_categories,
     (["cat", "dog", "cat", "bird"], ["bird", "cat", "dog"])),
    ("polynomial_expansion", polynomial_expansion, (_normal(5, 2), 3)),
    ("batch_generator_indices", batch_generator_indices, (10, 4)),
    ("tfidf_matrix", tfidf_matrix, (_rng.integers(0, 3, (5, 6)).astype(float),)),
    ("impute_column_median", impute_column_median,
     (np.where(_uniform(6, 3) > 0.8, np.nan, _normal(6, 3)),)),
    ("classification_report", classification_report, (_labels(15, 3), _labels(15, 3))),
    ("mean_average_precision_at_k", mean_average_precision_at_k,
     ((_uniform(5, 6) > 0.5).astype(float),)),
    ("ndcg_at_k", ndcg_at_k, (_rng.integers(0, 4, (4, 6)).astype(float),)),
    ("regression_metrics", regression_metrics, (_normal(10), _normal(10))),
    ("log_loss_multiclass", log_loss_multiclass, (_labels(8, 3), _uniform(8, 3))),
    ("pairwise_cosine", pairwise_cosine, (_normal(4, 3),)),
    ("gillespie_like_fixed_steps", gillespie_like_fixed_steps,
     (np.array([0.5, 0.2, 0.1]), [10.0, 5.0, 2.0])),
    ("predator_prey_rk2", predator_prey_rk2,
     (np.array([10.0, 5.0]), {"alpha": 1.1, "beta": 0.4, "gamma": 0.4, "delta": 0.1})),
    ("particle_swarm_step", particle_swarm_step,
     (_normal(6, 2), _normal(6, 2) * 0.1, _normal(6, 2), np.zeros(2))),
    ("diffusion_2d_explicit", diffusion_2d_explicit, (_uniform(6, 7),)),
    ("epidemic_seir", epidemic_seir,
     ({"beta": 0.5, "sigma": 0.2, "gamma": 0.1}, (990.0, 5.0, 5.0, 0.0))),
    ("random_walk_metropolis", random_walk_metropolis, (1.5,)),
    # added after the first count
    ("reduce_by_name", reduce_by_name, (_X, "median")),
    ("scheduled_descent", scheduled_descent,
     (_normal(3), _normal(3), {"kind": "cosine", "lr": 0.2, "total": 3})),
    ("module_setattr_params", module_setattr_params, (_normal(4, 5),)),
    ("word_counts_matrix", word_counts_matrix,
     (["a b a", "c a", "b b d"], ["a", "b", "c"])),
    ("train_linear_minibatch", train_linear_minibatch, (_X, _normal(12))),
    ("weighted_random_choice", weighted_random_choice, ([1, 2, 3, 4],)),
    ("softmax_temperature", softmax_temperature, (_normal(3, 5), 0.5)),
    ("batch_norm_dict_state", batch_norm_dict_state, (_normal(6, 3),)),
    ("confusion_from_pairs", confusion_from_pairs,
     (["a", "b", "a", "c"], ["a", "a", "a", "c"], ["a", "b", "c"])),
    ("exponential_moving_stats", exponential_moving_stats, (_normal(8),)),
    ("euclidean_distance_matrix", euclidean_distance_matrix, (_normal(5, 3),)),
]
