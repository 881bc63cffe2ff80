"""A tenth corpus: scientific kernels and library-style functions written the way public
NumPy code is written, before any of them was run under dynamo (issue #19, standing in
for the held-out suites), for break counts (``scripts/break_counts.py``,
docs/realworld.md) and differential tests (``test_heldout_corpus10.py``).

Kernels: explicit Euler, RK4 and leapfrog steps, a Lorenz trajectory, 2-D heat and
wave stencils, Jacobi sweeps, particle updates with periodic walls, a spectral low-pass
filter, Newton and bisection root finders, Monte Carlo pi and a random walk, Simpson's
rule, the power method. Library-style functions: metrics (accuracy, F1, confusion
matrix, R^2, ROC AUC by ranks), losses (cross-entropy with ``np.finfo`` clipping,
Huber, hinge), preprocessing (standard and min-max scalers as classes holding state,
one-hot, train/test split, sliding windows, argsort ranks, histogram binning, label
encoding), optimizers (SGD with momentum and Adam kept in dicts, gradient descent on a
quadratic), an exponential moving average class, a k-means step, softmax, and input
checks that ``raise ValueError`` with f-strings.

For example ``PROGRAMS[0]`` is ``("euler_decay", euler_decay, (y0, 0.01, 50))``: fifty
explicit Euler steps of y' = -k y.

``PROGRAMS`` lists ``(name, fn, args)``; the arguments are small and seeded. The module
imports only NumPy, so the scripts load it from its file and the tests import it by name.
"""

from __future__ import annotations

import numpy as np

_rng = np.random.default_rng(10010)

# ================================================================ ODE steps


def _decay_rhs(t, y, k=0.5):
    return -k * y


def euler_decay(y0, dt, n_steps):
    y = np.array(y0, dtype=float)
    t = 0.0
    for _ in range(n_steps):
        y = y + dt * _decay_rhs(t, y)
        t += dt
    return t, y


def rk4_step(f, t, y, h):
    k1 = f(t, y)
    k2 = f(t + h / 2, y + h / 2 * k1)
    k3 = f(t + h / 2, y + h / 2 * k2)
    k4 = f(t + h, y + h * k3)
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def _oscillator(t, y, omega=2.0):
    return np.array([y[1], -omega ** 2 * y[0]])


def rk4_oscillator(y0, h=0.05, steps=40):
    ys = [np.asarray(y0, dtype=np.float64)]
    t = 0.0
    for _ in range(steps):
        ys.append(rk4_step(_oscillator, t, ys[-1], h))
        t += h
    return np.stack(ys)


def lorenz_trajectory(state, sigma=10.0, rho=28.0, beta=8.0 / 3.0, dt=0.005, n=60):
    x, y, z = state
    out = np.empty((n, 3))
    for i in range(n):
        dx = sigma * (y - x)
        dy = x * (rho - z) - y
        dz = x * y - beta * z
        x, y, z = x + dt * dx, y + dt * dy, z + dt * dz
        out[i] = (x, y, z)
    return out


def leapfrog(pos, vel, masses, dt=0.01, steps=5, soft=1e-2):
    def accel(p):
        d = p[None, :, :] - p[:, None, :]
        r2 = (d ** 2).sum(-1) + soft ** 2
        inv = r2 ** -1.5
        np.fill_diagonal(inv, 0.0)
        return (d * (inv * masses[None, :])[:, :, None]).sum(1)

    a = accel(pos)
    for _ in range(steps):
        vel = vel + 0.5 * dt * a
        pos = pos + dt * vel
        a = accel(pos)
        vel = vel + 0.5 * dt * a
    energy = 0.5 * np.sum(masses[:, None] * vel ** 2)
    return pos, vel, energy


# ================================================================ stencils


def heat_2d(u, alpha=0.1, steps=10):
    u = u.copy()
    for _ in range(steps):
        lap = (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2]
               - 4 * u[1:-1, 1:-1])
        u[1:-1, 1:-1] += alpha * lap
    return u


def wave_1d(u0, c=1.0, dx=0.1, dt=0.05, steps=20):
    r2 = (c * dt / dx) ** 2
    if r2 > 1.0:
        raise ValueError(f"CFL condition violated: r^2={r2:.3f}")
    u_prev = u0.copy()
    u = u0.copy()
    for _ in range(steps):
        u_next = np.zeros_like(u)
        u_next[1:-1] = 2 * u[1:-1] - u_prev[1:-1] + r2 * (u[2:] - 2 * u[1:-1] + u[:-2])
        u_prev, u = u, u_next
    return u


def jacobi_poisson(f, h=0.1, iters=30):
    u = np.zeros_like(f)
    for it in range(iters):
        u_new = u.copy()
        u_new[1:-1, 1:-1] = 0.25 * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:]
                                    + u[1:-1, :-2] - h * h * f[1:-1, 1:-1])
        u = u_new
    residual = np.abs(u[1:-1, 1:-1] - u_new[1:-1, 1:-1]).max()
    return u, residual


def game_of_life(board, generations=4):
    b = board.astype(np.int64)
    for _ in range(generations):
        n = sum(np.roll(np.roll(b, i, 0), j, 1)
                for i in (-1, 0, 1) for j in (-1, 0, 1) if (i, j) != (0, 0))
        b = ((n == 3) | ((b == 1) & (n == 2))).astype(np.int64)
    return b


# ================================================================ particles and spectra


def particles_periodic(pos, vel, box=1.0, dt=0.05, steps=8):
    for _ in range(steps):
        pos = pos + vel * dt
        pos = np.mod(pos, box)
    kinetic = 0.5 * (vel ** 2).sum()
    return pos, kinetic


def particles_reflect(pos, vel, lo=0.0, hi=1.0, dt=0.1, steps=6):
    pos = pos.copy()
    vel = vel.copy()
    for _ in range(steps):
        pos += vel * dt
        hit_lo = pos < lo
        hit_hi = pos > hi
        pos[hit_lo] = 2 * lo - pos[hit_lo]
        pos[hit_hi] = 2 * hi - pos[hit_hi]
        vel[hit_lo | hit_hi] *= -1
    return pos, vel


def spectral_lowpass(signal, cutoff=0.1, fs=1.0):
    n = signal.shape[-1]
    spec = np.fft.rfft(signal)
    freqs = np.fft.rfftfreq(n, d=1.0 / fs)
    spec[freqs > cutoff] = 0
    return np.fft.irfft(spec, n=n)


def spectral_derivative(u, length=2 * np.pi):
    n = u.size
    k = 2j * np.pi * np.fft.fftfreq(n, d=length / n)
    return np.real(np.fft.ifft(k * np.fft.fft(u)))


# ================================================================ root finders


def newton_sqrt(a, tol=1e-12, max_iter=50):
    a = np.asarray(a, dtype=float)
    if np.any(a < 0):
        raise ValueError("newton_sqrt: negative input")
    x = np.where(a > 1, a, 1.0)
    for i in range(max_iter):
        x_new = 0.5 * (x + a / x)
        if np.max(np.abs(x_new - x)) < tol:
            return x_new, i + 1
        x = x_new
    return x, max_iter


def bisection(f, lo, hi, tol=1e-8, max_iter=100):
    flo = f(lo)
    if flo * f(hi) > 0:
        raise ValueError(f"f({lo}) and f({hi}) must have opposite signs")
    for _ in range(max_iter):
        mid = 0.5 * (lo + hi)
        fmid = f(mid)
        if flo * fmid <= 0:
            hi = mid
        else:
            lo, flo = mid, fmid
        if hi - lo < tol:
            break
    return 0.5 * (lo + hi)


def _cubic(x):
    return x ** 3 - 2 * x - 5


def bisection_cubic(lo, hi):
    return bisection(_cubic, lo, hi)


def vectorized_newton(coeffs, x0, iters=20):
    p = np.asarray(coeffs, dtype=float)
    dp = np.polyder(p)
    x = np.array(x0, dtype=float)
    for _ in range(iters):
        x = x - np.polyval(p, x) / np.polyval(dp, x)
    return x


# ================================================================ integration, Monte Carlo


def simpson(f_vals, dx):
    n = len(f_vals)
    if n % 2 == 0:
        raise ValueError(f"simpson needs an odd number of samples, got {n}")
    return dx / 3 * (f_vals[0] + 4 * f_vals[1:-1:2].sum() + 2 * f_vals[2:-1:2].sum()
                     + f_vals[-1])


def monte_carlo_pi(rng, n=2000):
    pts = rng.random((n, 2))
    inside = np.count_nonzero((pts ** 2).sum(axis=1) <= 1.0)
    return 4.0 * inside / n


def random_walk_stats(rng, n_walkers=50, n_steps=30):
    steps = rng.choice([-1, 1], size=(n_walkers, n_steps))
    paths = np.cumsum(steps, axis=1)
    final = paths[:, -1]
    return {"mean": final.mean(), "msd": (final ** 2).mean(),
            "max_excursion": np.abs(paths).max()}


def power_method(A, iters=50, tol=1e-10):
    v = np.ones(A.shape[0]) / np.sqrt(A.shape[0])
    lam = 0.0
    for _ in range(iters):
        w = A @ v
        v = w / np.linalg.norm(w)
        lam_new = v @ A @ v
        if abs(lam_new - lam) < tol:
            break
        lam = lam_new
    return lam_new, v


# ================================================================ metrics


def _check_same_length(y_true, y_pred):
    y_true = np.asarray(y_true)
    y_pred = np.asarray(y_pred)
    if y_true.shape != y_pred.shape:
        raise ValueError(f"shape mismatch: {y_true.shape} vs {y_pred.shape}")
    return y_true, y_pred


def accuracy(y_true, y_pred):
    y_true, y_pred = _check_same_length(y_true, y_pred)
    return float(np.mean(y_true == y_pred))


def f1_binary(y_true, y_pred, eps=None):
    eps = np.finfo(np.float64).eps if eps is None else eps
    y_true, y_pred = _check_same_length(y_true, y_pred)
    tp = np.sum((y_true == 1) & (y_pred == 1))
    fp = np.sum((y_true == 0) & (y_pred == 1))
    fn = np.sum((y_true == 1) & (y_pred == 0))
    precision = tp / (tp + fp + eps)
    recall = tp / (tp + fn + eps)
    return 2 * precision * recall / (precision + recall + eps)


def confusion_matrix(y_true, y_pred, n_classes):
    cm = np.zeros((n_classes, n_classes), dtype=np.int64)
    np.add.at(cm, (y_true, y_pred), 1)
    return cm


def r2_score(y_true, y_pred):
    ss_res = np.sum((y_true - y_pred) ** 2)
    ss_tot = np.sum((y_true - np.mean(y_true)) ** 2)
    return 1.0 - ss_res / ss_tot


def roc_auc(y_true, scores):
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    n_pos = np.sum(y_true == 1)
    n_neg = len(y_true) - n_pos
    return (ranks[y_true == 1].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def classification_report(y_true, y_pred, labels=("neg", "pos")):
    report = {}
    for k, name in enumerate(labels):
        tp = int(np.sum((y_true == k) & (y_pred == k)))
        support = int(np.sum(y_true == k))
        report[name] = {"recall": tp / max(support, 1), "support": support}
    return report


# ================================================================ losses


def cross_entropy(probs, labels):
    eps = np.finfo(probs.dtype).eps
    p = np.clip(probs, eps, 1 - eps)
    n = probs.shape[0]
    return -np.log(p[np.arange(n), labels]).mean()


def huber(y, y_hat, delta=1.0):
    r = np.abs(y - y_hat)
    quad = np.minimum(r, delta)
    lin = r - quad
    return np.mean(0.5 * quad ** 2 + delta * lin)


def hinge_loss(w, X, y, C=1.0):
    margins = 1 - y * (X @ w)
    loss = 0.5 * w @ w + C * np.maximum(0, margins).sum()
    grad = w - C * (X * y[:, None])[margins > 0].sum(axis=0)
    return loss, grad


def softmax(z, axis=-1):
    z = z - np.max(z, axis=axis, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)


# ================================================================ preprocessing


class StandardScaler:
    def __init__(self, with_mean=True, with_std=True):
        self.with_mean = with_mean
        self.with_std = with_std
        self.mean_ = None
        self.scale_ = None

    def fit(self, X):
        self.mean_ = X.mean(axis=0) if self.with_mean else np.zeros(X.shape[1])
        std = X.std(axis=0) if self.with_std else np.ones(X.shape[1])
        std[std == 0.0] = 1.0
        self.scale_ = std
        return self

    def transform(self, X):
        if self.mean_ is None:
            raise RuntimeError("StandardScaler is not fitted yet")
        return (X - self.mean_) / self.scale_


def standard_scale(X_train, X_test):
    scaler = StandardScaler().fit(X_train)
    return scaler.transform(X_train), scaler.transform(X_test)


class MinMaxScaler:
    def __init__(self, feature_range=(0.0, 1.0)):
        lo, hi = feature_range
        if lo >= hi:
            raise ValueError(f"invalid feature_range {feature_range}")
        self.feature_range = feature_range

    def fit_transform(self, X):
        lo, hi = self.feature_range
        self.data_min_ = X.min(axis=0)
        self.data_range_ = X.max(axis=0) - self.data_min_
        span = np.where(self.data_range_ == 0, 1.0, self.data_range_)
        return lo + (X - self.data_min_) / span * (hi - lo)


def minmax_scale(X, feature_range=(-1.0, 1.0)):
    return MinMaxScaler(feature_range=feature_range).fit_transform(X)


def one_hot(labels, num_classes=None):
    labels = np.asarray(labels, dtype=np.int64)
    if num_classes is None:
        num_classes = int(labels.max()) + 1
    out = np.zeros((labels.size, num_classes))
    out[np.arange(labels.size), labels] = 1.0
    return out


def train_test_split(X, y, test_size=0.25, seed=0):
    if not 0.0 < test_size < 1.0:
        raise ValueError(f"test_size must be in (0, 1), got {test_size}")
    n = X.shape[0]
    n_test = int(round(n * test_size))
    idx = np.random.default_rng(seed).permutation(n)
    test, train = idx[:n_test], idx[n_test:]
    return X[train], X[test], y[train], y[test]


def sliding_windows(x, size, step=1):
    if size > len(x):
        raise ValueError(f"window {size} longer than series {len(x)}")
    n = (len(x) - size) // step + 1
    idx = np.arange(size)[None, :] + step * np.arange(n)[:, None]
    return x[idx]


def rank_data(x):
    order = np.argsort(x, kind="stable")
    ranks = np.empty_like(order)
    ranks[order] = np.arange(len(x))
    return ranks + 1


def histogram_binning(x, n_bins=10, **kwargs):
    lo = kwargs.get("lo", x.min())
    hi = kwargs.get("hi", x.max())
    edges = np.linspace(lo, hi, n_bins + 1)
    idx = np.clip(np.digitize(x, edges) - 1, 0, n_bins - 1)
    counts = np.bincount(idx, minlength=n_bins)
    return edges, counts


def label_encode(values, classes):
    lookup = {c: i for i, c in enumerate(classes)}
    return np.array([lookup[v] for v in values])


# ================================================================ optimizers and models


def sgd_momentum(grad_fn, w, lr=0.1, momentum=0.9, steps=20):
    state = {"v": np.zeros_like(w), "step": 0}
    for _ in range(steps):
        g = grad_fn(w)
        state["v"] = momentum * state["v"] - lr * g
        w = w + state["v"]
        state["step"] += 1
    return w, state["step"]


def _quad_grad(w):
    return 2.0 * (w - np.array([1.0, -2.0, 0.5]))


def sgd_on_quadratic(w0):
    return sgd_momentum(_quad_grad, w0)


class Adam:
    def __init__(self, lr=1e-2, beta1=0.9, beta2=0.999, eps=1e-8):
        self.lr, self.beta1, self.beta2, self.eps = lr, beta1, beta2, eps
        self.cache = {}

    def update(self, name, param, grad):
        if name not in self.cache:
            self.cache[name] = {"m": np.zeros_like(param), "v": np.zeros_like(param),
                                "t": 0}
        c = self.cache[name]
        c["t"] += 1
        c["m"] = self.beta1 * c["m"] + (1 - self.beta1) * grad
        c["v"] = self.beta2 * c["v"] + (1 - self.beta2) * grad ** 2
        m_hat = c["m"] / (1 - self.beta1 ** c["t"])
        v_hat = c["v"] / (1 - self.beta2 ** c["t"])
        return param - self.lr * m_hat / (np.sqrt(v_hat) + self.eps)


def adam_linear_regression(X, y, steps=15):
    opt = Adam(lr=0.05)
    params = {"W": np.zeros(X.shape[1]), "b": 0.0}
    for _ in range(steps):
        err = X @ params["W"] + params["b"] - y
        grads = {"W": X.T @ err / len(y), "b": err.mean()}
        for k in params:
            params[k] = opt.update(k, params[k], grads[k])
    return params


class EMA:
    def __init__(self, decay=0.9):
        self.decay = decay
        self.value = None

    def __call__(self, x):
        self.value = x if self.value is None else self.decay * self.value + (
            1 - self.decay) * x
        return self.value


def ema_smooth(series, decay=0.8):
    ema = EMA(decay)
    return np.array([ema(v) for v in series])


def kmeans_step(X, centers):
    d2 = ((X[:, None, :] - centers[None, :, :]) ** 2).sum(-1)
    labels = d2.argmin(axis=1)
    new = np.array([X[labels == k].mean(axis=0) if np.any(labels == k) else centers[k]
                    for k in range(len(centers))])
    inertia = d2[np.arange(len(X)), labels].sum()
    return new, labels, inertia


def logistic_fit(X, y, lr=0.5, epochs=25, l2=1e-3):
    n, d = X.shape
    w = np.zeros(d)
    b = 0.0
    history = []
    for epoch in range(epochs):
        z = X @ w + b
        p = 1.0 / (1.0 + np.exp(-z))
        grad_w = X.T @ (p - y) / n + l2 * w
        grad_b = np.mean(p - y)
        w -= lr * grad_w
        b -= lr * grad_b
        if epoch % 10 == 0:
            loss = -np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))
            history.append(loss)
    return w, b, np.array(history)


def gradient_check(f, x, h=1e-5):
    grad = np.zeros_like(x)
    for i in range(x.size):
        e = np.zeros_like(x)
        e[i] = h
        grad[i] = (f(x + e) - f(x - e)) / (2 * h)
    return grad


def _rosen(x):
    return np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


def rosen_gradient_check(x):
    return gradient_check(_rosen, x)


def summarize(x, name="x", precision=3):
    if x.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {x.shape}")
    stats = {"n": x.size, "mean": x.mean(), "std": x.std(ddof=1), "min": x.min(),
             "max": x.max()}
    parts = [f"{k}={v:.{precision}f}" if isinstance(v, float) else f"{k}={v}"
             for k, v in stats.items()]
    return f"{name}: " + ", ".join(parts), stats


# ================================================================ inputs

_Y0 = np.array([1.0, 2.0, 0.5])
_POS = _rng.random((6, 2))
_VEL = _rng.normal(scale=0.3, size=(6, 2))
_MASS = _rng.uniform(0.5, 2.0, size=6)
_GRID = _rng.random((12, 12))
_U0 = np.sin(np.linspace(0, np.pi, 30))
_SIG = np.sin(np.linspace(0, 8 * np.pi, 64)) + 0.3 * _rng.normal(size=64)
_PER = np.sin(np.linspace(0, 2 * np.pi, 32, endpoint=False))
_BOARD = (_rng.random((10, 10)) < 0.35).astype(np.int64)
_SPD = (lambda a: a @ a.T + 3 * np.eye(5))(_rng.normal(size=(5, 5)))
_YT = _rng.integers(0, 2, 40)
_YP = np.where(_rng.random(40) < 0.8, _YT, 1 - _YT)
_SCORES = _rng.random(40) + 0.5 * _YT
_Y3T = _rng.integers(0, 3, 30)
_Y3P = _rng.integers(0, 3, 30)
_REG_T = _rng.normal(size=25)
_REG_P = _REG_T + 0.2 * _rng.normal(size=25)
_PROBS = softmax(_rng.normal(size=(12, 4)))
_LAB = _rng.integers(0, 4, 12)
_XS = _rng.normal(size=(20, 3))
_YS = np.where(_XS @ np.array([1.0, -1.0, 0.5]) > 0, 1.0, -1.0)
_XT = _rng.normal(loc=2.0, scale=3.0, size=(30, 4))
_XV = _rng.normal(loc=2.0, scale=3.0, size=(8, 4))
_YB = (_XS @ np.array([0.5, 1.0, -0.3]) > 0).astype(np.float64)
_CENT = _XS[:3].copy()

PROGRAMS = [
    ("euler_decay", euler_decay, (_Y0, 0.01, 50)),
    ("rk4_oscillator", rk4_oscillator, ([1.0, 0.0],)),
    ("lorenz_trajectory", lorenz_trajectory, ((1.0, 1.0, 1.0),)),
    ("leapfrog", leapfrog, (_POS, _VEL, _MASS)),
    ("heat_2d", heat_2d, (_GRID,)),
    ("wave_1d", wave_1d, (_U0,)),
    ("jacobi_poisson", jacobi_poisson, (_GRID,)),
    ("game_of_life", game_of_life, (_BOARD,)),
    ("particles_periodic", particles_periodic, (_POS, _VEL)),
    ("particles_reflect", particles_reflect, (_POS, 3 * _VEL)),
    ("spectral_lowpass", spectral_lowpass, (_SIG,)),
    ("spectral_derivative", spectral_derivative, (_PER,)),
    ("newton_sqrt", newton_sqrt, (np.array([2.0, 9.0, 0.25, 10.0]),)),
    ("bisection_cubic", bisection_cubic, (2.0, 3.0)),
    ("vectorized_newton", vectorized_newton, ([1.0, 0.0, -2.0], [1.0, -1.0, 3.0])),
    ("simpson", simpson, (np.sin(np.linspace(0, np.pi, 21)), np.pi / 20)),
    ("monte_carlo_pi", monte_carlo_pi, (np.random.default_rng(1),)),
    ("random_walk_stats", random_walk_stats, (np.random.default_rng(2),)),
    ("power_method", power_method, (_SPD,)),
    ("accuracy", accuracy, (_YT, _YP)),
    ("f1_binary", f1_binary, (_YT, _YP)),
    ("confusion_matrix", confusion_matrix, (_Y3T, _Y3P, 3)),
    ("r2_score", r2_score, (_REG_T, _REG_P)),
    ("roc_auc", roc_auc, (_YT, _SCORES)),
    ("classification_report", classification_report, (_YT, _YP)),
    ("cross_entropy", cross_entropy, (_PROBS, _LAB)),
    ("huber", huber, (_REG_T, _REG_P, 0.1)),
    ("hinge_loss", hinge_loss, (np.array([0.1, -0.2, 0.3]), _XS, _YS)),
    ("softmax", softmax, (_rng.normal(size=(5, 6)),)),
    ("standard_scale", standard_scale, (_XT, _XV)),
    ("minmax_scale", minmax_scale, (_XT,)),
    ("one_hot", one_hot, (_LAB,)),
    ("train_test_split", train_test_split, (_XS, _YS)),
    ("sliding_windows", sliding_windows, (_SIG[:20], 5, 3)),
    ("rank_data", rank_data, (_REG_T,)),
    ("histogram_binning", histogram_binning, (_REG_T,)),
    ("label_encode", label_encode, (["b", "a", "c", "a"], ("a", "b", "c"))),
    ("sgd_on_quadratic", sgd_on_quadratic, (np.zeros(3),)),
    ("adam_linear_regression", adam_linear_regression, (_XS, _REG_T[:20])),
    ("ema_smooth", ema_smooth, (_SIG[:16],)),
    ("kmeans_step", kmeans_step, (_XS, _CENT)),
    ("logistic_fit", logistic_fit, (_XS, _YB)),
    ("rosen_gradient_check", rosen_gradient_check, (np.array([0.5, 1.2, -0.3, 0.8]),)),
    ("summarize", summarize, (_REG_T,)),
]
