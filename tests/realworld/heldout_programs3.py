"""A third corpus of everyday NumPy, written before any of it was run (issue #19), for
break counts (``scripts/break_counts.py``, docs/realworld.md) and differential tests
(``test_heldout_programs3.py``).

Held-out suites are other people's code; this corpus stands in for them. It was written
for this file (none is copied) in the way public NumPy repositories write such code:
numpy-ml-style layers, losses and optimizers with dict state, scikit-style
preprocessing (scalers, encoders, imputers), k-means and PCA, signal processing
(filters, windows, spectra, envelopes), image filters (convolution, Sobel, gaussian
blur, histogram equalization), simulations (SIR, Lotka-Volterra, springs, heat),
and statistics (bootstrap-free summaries, correlation, regression diagnostics). It uses
the helper calls such code uses: ``np.finfo``, ``np.cov``, ``np.average``,
``np.gradient``, ``np.trapezoid``-style sums, ``np.pad``, ``np.convolve``,
``np.linalg.eigh/svd/norm``, ``np.percentile``, ``np.digitize``, ``np.searchsorted``,
``np.take_along_axis``, ``np.meshgrid``, ``np.einsum``, ``isinstance``/``assert``
checks, f-string errors, and small classes.

``PROGRAMS`` lists ``(name, fn, args)``; the arguments are small and seeded. The module
imports only NumPy, so the scripts load it from its file and the tests import it by name.
"""

from __future__ import annotations

import numpy as np

_rng = np.random.default_rng(3141)


def _normal(*shape):
    return _rng.normal(size=shape)


def _uniform(*shape):
    return _rng.uniform(size=shape)


def _labels(n, k):
    return _rng.integers(0, k, n)


# ================================================================ layers and losses


class Dense:
    """A fully connected layer with numpy-ml-style parameter and gradient dicts."""

    def __init__(self, W, b, act="relu"):
        self.params = {"W": W, "b": b}
        self.gradients = {"W": np.zeros_like(W), "b": np.zeros_like(b)}
        self.act = act
        self.X = []

    def _act(self, Z):
        if self.act == "relu":
            return np.maximum(Z, 0)
        if self.act == "tanh":
            return np.tanh(Z)
        return Z

    def _act_grad(self, Z):
        if self.act == "relu":
            return (Z > 0).astype(Z.dtype)
        if self.act == "tanh":
            return 1 - np.tanh(Z) ** 2
        return np.ones_like(Z)

    def forward(self, X):
        self.X.append(X)
        Z = X @ self.params["W"] + self.params["b"]
        return self._act(Z)

    def backward(self, dLdy):
        X = self.X[-1]
        Z = X @ self.params["W"] + self.params["b"]
        dZ = dLdy * self._act_grad(Z)
        self.gradients["W"] += X.T @ dZ
        self.gradients["b"] += dZ.sum(axis=0, keepdims=True)
        return dZ @ self.params["W"].T


def dense_two_layer_step(X, W1, b1, W2, b2, y):
    l1 = Dense(W1, b1, act="tanh")
    l2 = Dense(W2, b2, act="linear")
    out = l2.forward(l1.forward(X))
    diff = out - y
    loss = 0.5 * np.mean(np.sum(diff ** 2, axis=1))
    dx = l1.backward(l2.backward(diff / X.shape[0]))
    return loss, dx, l1.gradients["W"], l2.gradients["b"]


def softmax_cross_entropy(logits, labels):
    """Mean cross-entropy from integer labels, with its gradient."""
    n = logits.shape[0]
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    loss = -log_probs[np.arange(n), labels].mean()
    grad = np.exp(log_probs)
    grad[np.arange(n), labels] -= 1
    return loss, grad / n


def focal_loss(p, y, gamma=2.0, alpha=0.25):
    eps = np.finfo(p.dtype).eps
    p = np.clip(p, eps, 1.0 - eps)
    pt = np.where(y == 1, p, 1 - p)
    at = np.where(y == 1, alpha, 1 - alpha)
    return np.mean(-at * (1 - pt) ** gamma * np.log(pt))


def smooth_l1(pred, target, beta=1.0):
    diff = np.abs(pred - target)
    loss = np.where(diff < beta, 0.5 * diff ** 2 / beta, diff - 0.5 * beta)
    return loss.sum(axis=-1).mean()


def layer_norm_backward(x, gamma, dout, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    std = np.sqrt(var + eps)
    xhat = (x - mu) / std
    out = gamma * xhat
    d = x.shape[-1]
    dxhat = dout * gamma
    dx = (dxhat - dxhat.mean(-1, keepdims=True)
          - xhat * (dxhat * xhat).mean(-1, keepdims=True)) / std
    dgamma = np.sum(dout * xhat, axis=tuple(range(x.ndim - 1)))
    return out, dx, dgamma, d


def conv1d_valid(x, w, stride=1):
    """Batched 1-D convolution by an im2col gather, as from-scratch CNN code writes it."""
    n, L = x.shape
    k = w.shape[0]
    out_len = (L - k) // stride + 1
    idx = np.arange(k)[None, :] + stride * np.arange(out_len)[:, None]
    cols = x[:, idx]
    return cols @ w


def maxpool2d(x, size=2):
    n, h, w = x.shape
    assert h % size == 0 and w % size == 0, f"{h}x{w} not divisible by {size}"
    r = x.reshape(n, h // size, size, w // size, size)
    out = r.max(axis=(2, 4))
    mask = r == out[:, :, None, :, None]
    return out, mask


def dropout_forward(x, p, seed):
    rng = np.random.default_rng(seed)
    mask = (rng.random(x.shape) >= p) / (1.0 - p)
    return x * mask, mask


# ================================================================ optimizers


class Adam:
    def __init__(self, lr=1e-3, beta1=0.9, beta2=0.999, eps=1e-8):
        self.hp = {"lr": lr, "beta1": beta1, "beta2": beta2, "eps": eps}
        self.cache = {}
        self.t = 0

    def update(self, name, param, grad):
        if name not in self.cache:
            self.cache[name] = {"mean": np.zeros_like(grad), "var": np.zeros_like(grad)}
        self.t += 1
        b1, b2 = self.hp["beta1"], self.hp["beta2"]
        c = self.cache[name]
        c["mean"] = b1 * c["mean"] + (1 - b1) * grad
        c["var"] = b2 * c["var"] + (1 - b2) * grad ** 2
        m_hat = c["mean"] / (1 - b1 ** self.t)
        v_hat = c["var"] / (1 - b2 ** self.t)
        return param - self.hp["lr"] * m_hat / (np.sqrt(v_hat) + self.hp["eps"])


def adam_quadratic(w0, A, b, steps=5):
    opt = Adam(lr=0.1)
    w = w0.copy()
    for _ in range(steps):
        grad = A @ w - b
        w = opt.update("w", w, grad)
    return w, opt.t


def rmsprop_with_clipping(params, grads, cache, lr=0.01, decay=0.9, clip=1.0):
    new = {}
    for key in params:
        g = grads[key]
        norm = np.linalg.norm(g)
        if clip is not None:
            g = g * min(1.0, clip / (norm + 1e-12))
        cache[key] = decay * cache[key] + (1 - decay) * g * g
        new[key] = params[key] - lr * g / (np.sqrt(cache[key]) + 1e-8)
    return new


def sgd_momentum_schedule(w, grad_fn_A, epochs=4, lr0=0.5, momentum=0.9):
    v = np.zeros_like(w)
    history = []
    for epoch in range(epochs):
        lr = lr0 * 0.5 ** (epoch // 2)
        g = grad_fn_A @ w
        v = momentum * v - lr * g
        w = w + v
        history.append(float(np.linalg.norm(w)))
    return w, history


# ================================================================ preprocessing


class StandardScaler:
    def __init__(self, with_mean=True, with_std=True):
        self.with_mean = with_mean
        self.with_std = with_std

    def fit(self, X):
        self.mean_ = X.mean(axis=0) if self.with_mean else np.zeros(X.shape[1])
        scale = X.std(axis=0) if self.with_std else np.ones(X.shape[1])
        scale[scale == 0.0] = 1.0
        self.scale_ = scale
        return self

    def transform(self, X):
        return (X - self.mean_) / self.scale_

    def fit_transform(self, X):
        return self.fit(X).transform(X)


def standard_scaler(X, Xtest):
    sc = StandardScaler()
    return sc.fit_transform(X), sc.transform(Xtest), sc.scale_


def minmax_scale(X, feature_range=(0, 1)):
    lo, hi = feature_range
    if lo >= hi:
        raise ValueError(f"Minimum of desired feature range must be smaller than maximum. "
                         f"Got {feature_range}.")
    data_min = np.nanmin(X, axis=0)
    data_range = np.nanmax(X, axis=0) - data_min
    data_range[data_range == 0] = 1.0
    scale = (hi - lo) / data_range
    return X * scale + lo - data_min * scale


def simple_imputer_mean(X):
    col_mean = np.nanmean(X, axis=0)
    inds = np.where(np.isnan(X))
    X = X.copy()
    X[inds] = np.take(col_mean, inds[1])
    return X


def robust_scale(X, q=(25.0, 75.0)):
    center = np.median(X, axis=0)
    q_lo, q_hi = np.percentile(X, q, axis=0)
    iqr = q_hi - q_lo
    iqr = np.where(iqr == 0, 1.0, iqr)
    return (X - center) / iqr


def polynomial_features(X, degree=2):
    n, d = X.shape
    cols = [np.ones(n)]
    for i in range(d):
        cols.append(X[:, i])
    if degree >= 2:
        for i in range(d):
            for j in range(i, d):
                cols.append(X[:, i] * X[:, j])
    return np.stack(cols, axis=1)


def one_hot_encode(y, n_classes):
    y = np.asarray(y, dtype=int)
    out = np.zeros((y.shape[0], n_classes))
    out[np.arange(y.shape[0]), y] = 1.0
    return out


def quantile_binning(x, n_bins=4):
    edges = np.quantile(x, np.linspace(0, 1, n_bins + 1))
    codes = np.digitize(x, edges[1:-1])
    return codes, edges


# ================================================================ clustering and PCA


def kmeans_fixed_iters(X, centers, n_iter=5):
    C = centers.copy()
    k = C.shape[0]
    for _ in range(n_iter):
        d2 = ((X[:, None, :] - C[None, :, :]) ** 2).sum(axis=2)
        labels = np.argmin(d2, axis=1)
        for j in range(k):
            members = labels == j
            cnt = members.sum()
            C[j] = np.where(cnt > 0, (X * members[:, None]).sum(0) / max(cnt, 1), C[j])
    inertia = np.min(d2, axis=1).sum()
    return C, labels, inertia


def kmeans_plus_plus_init(X, k, seed=0):
    rng = np.random.default_rng(seed)
    n = X.shape[0]
    centers = [X[rng.integers(n)]]
    for _ in range(1, k):
        d2 = np.min(((X[:, None, :] - np.array(centers)[None]) ** 2).sum(-1), axis=1)
        probs = d2 / d2.sum()
        centers.append(X[rng.choice(n, p=probs)])
    return np.array(centers)


def pca_svd(X, n_components=2):
    Xc = X - X.mean(axis=0)
    U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    # sign flip so the largest loading of each component is positive (svd_flip)
    max_abs = np.argmax(np.abs(U), axis=0)
    signs = np.sign(U[max_abs, np.arange(U.shape[1])])
    U = U * signs
    Vt = Vt * signs[:, None]
    explained = S ** 2 / (X.shape[0] - 1)
    ratio = explained / explained.sum()
    return (U[:, :n_components] * S[:n_components]), Vt[:n_components], ratio


def pca_eigh(X, k=2):
    C = np.cov(X, rowvar=False)
    vals, vecs = np.linalg.eigh(C)
    order = np.argsort(vals)[::-1]
    vals, vecs = vals[order], vecs[:, order]
    return (X - X.mean(0)) @ vecs[:, :k], vals[:k] / vals.sum()


def silhouette_like(X, labels, k):
    D = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    onehot = np.eye(k)[labels]
    sums = D @ onehot
    counts = onehot.sum(0)
    mean_d = sums / np.maximum(counts, 1)
    own = mean_d[np.arange(len(labels)), labels]
    mean_d[np.arange(len(labels)), labels] = np.inf
    other = mean_d.min(axis=1)
    return np.mean((other - own) / np.maximum(own, other))


# ================================================================ signal processing


def moving_average_convolve(x, w=5):
    kernel = np.ones(w) / w
    return np.convolve(x, kernel, mode="valid")


def butter_like_iir(x, alpha=0.2):
    """A one-pole low-pass filter, y[n] = a x[n] + (1 - a) y[n-1]."""
    y = np.empty_like(x)
    y[0] = x[0]
    for n in range(1, x.shape[0]):
        y[n] = alpha * x[n] + (1 - alpha) * y[n - 1]
    return y


def power_spectrum_welch_like(x, nperseg=16):
    step = nperseg // 2
    win = np.hanning(nperseg)
    nseg = (len(x) - nperseg) // step + 1
    segs = np.stack([x[i * step:i * step + nperseg] for i in range(nseg)])
    segs = (segs - segs.mean(axis=1, keepdims=True)) * win
    spec = np.abs(np.fft.rfft(segs, axis=1)) ** 2
    scale = 1.0 / (win ** 2).sum()
    freqs = np.fft.rfftfreq(nperseg, d=1.0)
    return freqs, spec.mean(axis=0) * scale


def envelope_and_zero_crossings(x):
    env = np.abs(x)
    smooth = np.convolve(env, np.ones(4) / 4, mode="same")
    signs = np.sign(x)
    crossings = np.count_nonzero(np.diff(signs) != 0)
    return smooth, crossings


def autocorrelation(x, max_lag=10):
    x = x - x.mean()
    var = np.dot(x, x)
    return np.array([np.dot(x[:len(x) - k], x[k:]) / var for k in range(max_lag + 1)])


def savgol_like_smooth(x, window=5, order=2):
    half = window // 2
    t = np.arange(-half, half + 1)
    A = np.vander(t, order + 1, increasing=True)
    coeffs = np.linalg.pinv(A)[0]
    padded = np.pad(x, half, mode="edge")
    return np.convolve(padded, coeffs[::-1], mode="valid")


# ================================================================ image filters


def conv2d_same(img, kernel):
    kh, kw = kernel.shape
    ph, pw = kh // 2, kw // 2
    padded = np.pad(img, ((ph, ph), (pw, pw)), mode="reflect")
    out = np.zeros_like(img, dtype=float)
    for i in range(kh):
        for j in range(kw):
            out += kernel[i, j] * padded[i:i + img.shape[0], j:j + img.shape[1]]
    return out


def sobel_magnitude(img):
    kx = np.array([[1, 0, -1], [2, 0, -2], [1, 0, -1]], dtype=float)
    ky = kx.T
    gx = conv2d_same(img, kx)
    gy = conv2d_same(img, ky)
    mag = np.hypot(gx, gy)
    theta = np.arctan2(gy, gx)
    return mag / mag.max(), theta


def gaussian_kernel(size=5, sigma=1.0):
    ax = np.linspace(-(size - 1) / 2.0, (size - 1) / 2.0, size)
    xx, yy = np.meshgrid(ax, ax)
    k = np.exp(-0.5 * (xx ** 2 + yy ** 2) / sigma ** 2)
    return k / np.sum(k)


def gaussian_blur(img, sigma=1.0):
    return conv2d_same(img, gaussian_kernel(5, sigma))


def histogram_equalize(img, nbins=16):
    hist, bins = np.histogram(img.ravel(), bins=nbins, range=(0.0, 1.0))
    cdf = hist.cumsum()
    cdf = cdf / cdf[-1]
    return np.interp(img.ravel(), bins[:-1], cdf).reshape(img.shape)


def rgb_to_gray_and_threshold(rgb, thresh=0.5):
    gray = rgb[..., :3] @ np.array([0.299, 0.587, 0.114])
    binary = (gray > thresh).astype(np.uint8)
    return gray, binary, binary.mean()


# ================================================================ simulations


def sir_model(S0, I0, R0, beta=0.3, gamma=0.1, dt=0.5, steps=20):
    S, Inf, R = float(S0), float(I0), float(R0)
    N = S + Inf + R
    out = np.zeros((steps + 1, 3))
    out[0] = S, Inf, R
    for t in range(steps):
        new_inf = beta * S * Inf / N * dt
        new_rec = gamma * Inf * dt
        S, Inf, R = S - new_inf, Inf + new_inf - new_rec, R + new_rec
        out[t + 1] = S, Inf, R
    return out


def lotka_volterra_rk4(z0, params, dt=0.05, steps=20):
    a, b, c, d = params

    def f(z):
        x, y = z
        return np.array([a * x - b * x * y, d * x * y - c * y])

    z = np.asarray(z0, dtype=float)
    traj = [z]
    for _ in range(steps):
        k1 = f(z)
        k2 = f(z + 0.5 * dt * k1)
        k3 = f(z + 0.5 * dt * k2)
        k4 = f(z + dt * k3)
        z = z + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        traj.append(z)
    return np.array(traj)


def spring_mass_chain(x, v, k=1.0, m=1.0, dt=0.01, steps=10):
    x = x.copy()
    v = v.copy()
    for _ in range(steps):
        lap = np.zeros_like(x)
        lap[1:-1] = x[:-2] - 2 * x[1:-1] + x[2:]
        v += dt * k / m * lap
        x += dt * v
    energy = 0.5 * m * np.sum(v ** 2) + 0.5 * k * np.sum(np.diff(x) ** 2)
    return x, v, energy


def heat_2d_explicit(u, alpha=0.1, steps=5):
    u = u.copy()
    for _ in range(steps):
        un = u.copy()
        u[1:-1, 1:-1] = un[1:-1, 1:-1] + alpha * (
            un[2:, 1:-1] + un[:-2, 1:-1] + un[1:-1, 2:] + un[1:-1, :-2] - 4 * un[1:-1, 1:-1])
        u[0, :] = u[-1, :] = u[:, 0] = u[:, -1] = 0.0
    return u


def random_walk_msd(n_walkers, n_steps, seed=1):
    rng = np.random.default_rng(seed)
    steps = rng.choice([-1, 1], size=(n_walkers, n_steps))
    paths = np.cumsum(steps, axis=1)
    msd = np.mean(paths.astype(float) ** 2, axis=0)
    slope = np.polyfit(np.arange(1, n_steps + 1), msd, 1)[0]
    return msd, slope


# ================================================================ statistics


def weighted_stats(x, w):
    mean = np.average(x, weights=w)
    var = np.average((x - mean) ** 2, weights=w)
    return mean, np.sqrt(var)


def pearson_matrix(X):
    C = np.corrcoef(X, rowvar=False)
    C = np.nan_to_num(C)
    iu = np.triu_indices_from(C, k=1)
    return C, C[iu].mean()


def linear_regression_diagnostics(X, y):
    n, p = X.shape
    Xb = np.hstack([np.ones((n, 1)), X])
    beta, *_ = np.linalg.lstsq(Xb, y, rcond=None)
    resid = y - Xb @ beta
    sse = resid @ resid
    sst = np.sum((y - y.mean()) ** 2)
    r2 = 1 - sse / sst
    adj = 1 - (1 - r2) * (n - 1) / (n - p - 1)
    sigma2 = sse / (n - p - 1)
    se = np.sqrt(np.diag(sigma2 * np.linalg.inv(Xb.T @ Xb)))
    return beta, r2, adj, beta / se


def zscore_outliers(x, thresh=2.0):
    z = (x - x.mean()) / x.std(ddof=1)
    mask = np.abs(z) > thresh
    cleaned = np.where(mask, np.median(x), x)
    return cleaned, int(mask.sum())


def ecdf_and_ks(x, y):
    xs = np.sort(x)
    ys = np.sort(y)
    grid = np.concatenate([xs, ys])
    cdf_x = np.searchsorted(xs, grid, side="right") / xs.size
    cdf_y = np.searchsorted(ys, grid, side="right") / ys.size
    return np.max(np.abs(cdf_x - cdf_y))


def numeric_integrals(y, dx=0.1):
    trap = dx * (y[0] / 2 + y[1:-1].sum() + y[-1] / 2)
    grad = np.gradient(y, dx)
    cum = np.concatenate([[0.0], np.cumsum((y[1:] + y[:-1]) / 2 * dx)])
    return trap, grad, cum


def topk_per_row(scores, k=3):
    idx = np.argpartition(-scores, k, axis=1)[:, :k]
    vals = np.take_along_axis(scores, idx, axis=1)
    order = np.argsort(-vals, axis=1)
    return np.take_along_axis(idx, order, axis=1), np.take_along_axis(vals, order, axis=1)


# ================================================================ the corpus


def _lv_params():
    return (1.0, 0.1, 1.5, 0.075)


_X_nan = _normal(12, 3)
_X_nan[[1, 5, 7], [0, 2, 1]] = np.nan

PROGRAMS = [
    ("dense_two_layer_step", dense_two_layer_step,
     (_normal(6, 4), _normal(4, 5) * 0.3, np.zeros((1, 5)), _normal(5, 2) * 0.3,
      np.zeros((1, 2)), _normal(6, 2))),
    ("softmax_cross_entropy", softmax_cross_entropy, (_normal(7, 4), _labels(7, 4))),
    ("focal_loss", focal_loss, (_uniform(20), _labels(20, 2))),
    ("smooth_l1", smooth_l1, (_normal(5, 4), _normal(5, 4))),
    ("layer_norm_backward", layer_norm_backward, (_normal(3, 6), _uniform(6), _normal(3, 6))),
    ("conv1d_valid", conv1d_valid, (_normal(2, 12), _normal(3), 2)),
    ("maxpool2d", maxpool2d, (_normal(2, 4, 6),)),
    ("dropout_forward", dropout_forward, (_normal(4, 5), 0.3, 7)),
    ("adam_quadratic", adam_quadratic,
     (_normal(3), np.eye(3) * 2.0 + 0.1, _normal(3))),
    ("rmsprop_with_clipping", rmsprop_with_clipping,
     ({"W": _normal(3, 3), "b": _normal(3)}, {"W": _normal(3, 3) * 3, "b": _normal(3) * 0.1},
      {"W": np.zeros((3, 3)), "b": np.zeros(3)})),
    ("sgd_momentum_schedule", sgd_momentum_schedule, (_normal(4), np.eye(4) * 0.5)),
    ("standard_scaler", standard_scaler,
     (np.hstack([_normal(10, 3), np.ones((10, 1))]), _normal(4, 4))),
    ("minmax_scale", minmax_scale, (_normal(8, 3),)),
    ("simple_imputer_mean", simple_imputer_mean, (_X_nan,)),
    ("robust_scale", robust_scale, (_normal(15, 3),)),
    ("polynomial_features", polynomial_features, (_normal(5, 3),)),
    ("one_hot_encode", one_hot_encode, (_labels(9, 4), 4)),
    ("quantile_binning", quantile_binning, (_normal(30),)),
    ("kmeans_fixed_iters", kmeans_fixed_iters, (_normal(20, 2), _normal(3, 2))),
    ("kmeans_plus_plus_init", kmeans_plus_plus_init, (_normal(15, 2), 3)),
    ("pca_svd", pca_svd, (_normal(12, 4),)),
    ("pca_eigh", pca_eigh, (_normal(12, 4),)),
    ("silhouette_like", silhouette_like, (_normal(10, 2), _labels(10, 3), 3)),
    ("moving_average_convolve", moving_average_convolve, (_normal(20),)),
    ("butter_like_iir", butter_like_iir, (_normal(12),)),
    ("power_spectrum_welch_like", power_spectrum_welch_like, (_normal(64),)),
    ("envelope_and_zero_crossings", envelope_and_zero_crossings, (_normal(25),)),
    ("autocorrelation", autocorrelation, (_normal(30),)),
    ("savgol_like_smooth", savgol_like_smooth, (_normal(20),)),
    ("sobel_magnitude", sobel_magnitude, (_uniform(8, 9),)),
    ("gaussian_blur", gaussian_blur, (_uniform(7, 8),)),
    ("histogram_equalize", histogram_equalize, (_uniform(6, 6),)),
    ("rgb_to_gray_and_threshold", rgb_to_gray_and_threshold, (_uniform(4, 5, 3),)),
    ("sir_model", sir_model, (990.0, 10.0, 0.0)),
    ("lotka_volterra_rk4", lotka_volterra_rk4, ([10.0, 5.0], _lv_params())),
    ("spring_mass_chain", spring_mass_chain, (_normal(8) * 0.1, np.zeros(8))),
    ("heat_2d_explicit", heat_2d_explicit, (_uniform(8, 8),)),
    ("random_walk_msd", random_walk_msd, (50, 12)),
    ("weighted_stats", weighted_stats, (_normal(15), _uniform(15))),
    ("pearson_matrix", pearson_matrix, (_normal(10, 4),)),
    ("linear_regression_diagnostics", linear_regression_diagnostics,
     (_normal(15, 2), _normal(15))),
    ("zscore_outliers", zscore_outliers, (np.concatenate([_normal(20), [6.0, -5.0]]),)),
    ("ecdf_and_ks", ecdf_and_ks, (_normal(12), _normal(9) + 0.5)),
    ("numeric_integrals", numeric_integrals, (np.sin(np.linspace(0, 3, 16)),)),
    ("topk_per_row", topk_per_row, (_normal(4, 7),)),
]
