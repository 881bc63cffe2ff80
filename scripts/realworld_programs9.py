"""A ninth program corpus of scripts/bench_realworld.py (issue #15, task T5): the two
shapes that ran at or under plain NumPy, in several variants each. Scalar recursions of
100 to 1000 steps over Python floats and ``np.float64`` (a reflection-coefficient
recursion, an AR(1) filter, Horner's rule, a running drawdown, Newton's square root), and
training loops that call a model object's ``__call__`` or methods every step, with the
parameters in a list and the optimizer an object (plain SGD, momentum, Adam).
``programs(small=False)``: (name, fn, args, kwargs). The benchmark's ``match`` column
checks each result against plain NumPy; the behaviour the training loops rely on is
tested by tests/translator/test_loop_held_arrays.py (no corpus test: CI time).

Example::

    >>> programs(small=True)[0][0]
    'reflection recursion, 300 steps'
"""

from __future__ import annotations

import numpy as np

# ---------------------------------------------------------------- scalar recursions


def reflection(r):
    """Levinson's reflection coefficients: np.float64 state, one array read a step."""
    alpha, beta = -r[0], 1.0
    for k in range(1, r.shape[0]):
        beta *= 1.0 - alpha * alpha
        alpha = -(r[k] + alpha) / beta
    return alpha


def ar1(eps, phi):
    """s[k] = phi * s[k-1] + eps[k] from a Python float 0.0."""
    s = 0.0
    for k in range(eps.shape[0]):
        s = phi * s + eps[k]
    return s


def horner(c, x):
    """A polynomial at a Python float, highest coefficient first."""
    acc = 0.0
    for k in range(c.shape[0]):
        acc = acc * x + c[k]
    return acc


def drawdown(p):
    """The largest fall from a running peak: builtin max over np.float64."""
    peak, worst = p[0], 0.0
    for k in range(1, p.shape[0]):
        peak = max(peak, p[k])
        worst = max(worst, (peak - p[k]) / peak)
    return worst


def newton_sqrt(a, steps):
    """Newton's iteration for sqrt(a), all Python floats."""
    x = a
    for _ in range(steps):
        x = 0.5 * (x + a / x)
    return x


# ---------------------------------------------------------------- training loops


class Sigmoid:
    def __call__(self, z):
        return 1.0 / (1.0 + np.exp(-z))


class LogisticModel:
    def __init__(self, d):
        self.act = Sigmoid()
        self.params = [np.zeros(d), np.zeros(1)]

    def __call__(self, X):
        w, b = self.params
        return self.act(X @ w + b)


class SGD:
    def __init__(self, params, lr):
        self.params, self.lr = params, lr

    def step(self, grads):
        for p, g in zip(self.params, grads):
            p -= self.lr * g


class Momentum:
    def __init__(self, params, lr, beta=0.9):
        self.params, self.lr, self.beta = params, lr, beta
        self.velocity = [np.zeros_like(p) for p in params]

    def step(self, grads):
        for p, v, g in zip(self.params, self.velocity, grads):
            v *= self.beta
            v += g
            p -= self.lr * v


class Adam:
    def __init__(self, params, lr, b1=0.9, b2=0.999, eps=1e-8):
        self.params, self.lr, self.b1, self.b2, self.eps = params, lr, b1, b2, eps
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, grads):
        self.t += 1
        for p, m, v, g in zip(self.params, self.m, self.v, grads):
            m *= self.b1
            m += (1 - self.b1) * g
            v *= self.b2
            v += (1 - self.b2) * g * g
            mhat = m / (1 - self.b1 ** self.t)
            vhat = v / (1 - self.b2 ** self.t)
            p -= self.lr * mhat / (np.sqrt(vhat) + self.eps)


def logistic_sgd(X, y, iters):
    """A model's ``__call__`` (itself calling an activation object) and SGD each step."""
    model = LogisticModel(X.shape[1])
    opt = SGD(model.params, 0.1)
    for _ in range(iters):
        err = model(X) - y
        opt.step([X.T @ err / len(y), np.array([err.mean()])])
    return model(X)


class MLP:
    def __init__(self, d, h, seed=1):
        r = np.random.default_rng(seed)
        self.params = [r.standard_normal((d, h)) * 0.1, np.zeros(h),
                       r.standard_normal((h, 1)) * 0.1]

    def forward(self, X):
        W1, b1, W2 = self.params
        H = np.tanh(X @ W1 + b1)
        return H, H @ W2

    def backward(self, X, H, err):
        W1, b1, W2 = self.params
        n = len(err)
        gW2 = H.T @ err[:, None] / n
        dH = (err[:, None] @ W2.T) * (1 - H * H)
        return [X.T @ dH / n, dH.mean(0), gW2]


def mlp_with_momentum_object(X, y, iters):
    """Forward and backward as methods, a momentum optimizer holding velocity lists."""
    model = MLP(X.shape[1], 8)
    opt = Momentum(model.params, 0.05)
    for _ in range(iters):
        H, out = model.forward(X)
        opt.step(model.backward(X, H, out[:, 0] - y))
    return model.forward(X)[1][:, 0]


def mlp_with_adam_object(X, y, iters):
    """The same with Adam, whose step counter is Python state on the optimizer."""
    model = MLP(X.shape[1], 8)
    opt = Adam(model.params, 0.01)
    for _ in range(iters):
        H, out = model.forward(X)
        opt.step(model.backward(X, H, out[:, 0] - y))
    return model.forward(X)[1][:, 0]


class LinearModel:
    def __init__(self, params):
        self.params = params

    def __call__(self, X):
        return X @ self.params[0] + self.params[1]


def fit_given_model(model, X, y, iters):
    """The model comes in as an argument; its parameters are written in place."""
    opt = SGD(model.params, 0.05)
    for _ in range(iters):
        err = model(X) - y
        opt.step([X.T @ err / len(y), err.mean(0)])
    return model.params[0].copy()


def programs(small: bool = False):
    """(name, fn, args, kwargs); ``small``: short recursions and few iterations."""
    rng = np.random.default_rng(9)
    s = lambda big, little: little if small else big
    X = rng.standard_normal((s(500, 20), 20))
    y = (X @ rng.standard_normal(20) > 0).astype(float)
    Y = X @ rng.standard_normal((20, 3))
    lin = LinearModel([np.zeros((20, 3)), np.zeros(3)])
    return [
        ("reflection recursion, 300 steps", reflection, (rng.random(s(300, 12)) * 0.01,), {}),
        ("reflection recursion, 1000 steps", reflection, (rng.random(s(1000, 12)) * 0.01,),
         {}),
        ("AR(1) filter from a Python float, 500 steps", ar1,
         (rng.standard_normal(s(500, 12)), 0.9), {}),
        ("Horner's rule at a Python float, 200 steps", horner,
         (rng.standard_normal(s(200, 12)), 0.7), {}),
        ("running drawdown with builtin max, 400 steps", drawdown,
         (1.0 + rng.random(s(400, 12)),), {}),
        ("Newton square root in Python floats, 100 steps", newton_sqrt, (2.0, s(100, 12)), {}),
        ("logistic model object + SGD object, 300 iters", logistic_sgd, (X, y, s(300, 12)), {}),
        ("MLP methods + momentum object, 100 iters", mlp_with_momentum_object,
         (X, y, s(100, 12)), {}),
        ("MLP methods + Adam object, 100 iters", mlp_with_adam_object, (X, y, s(100, 12)), {}),
        ("linear model argument + SGD object, 200 iters", fit_given_model,
         (lin, X, Y, s(200, 12)), {}),
    ]
