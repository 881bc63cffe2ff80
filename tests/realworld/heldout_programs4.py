"""A fourth corpus of everyday NumPy, written before any of it was run (issue #19), for
break counts (``scripts/break_counts.py``, docs/realworld.md) and differential tests
(``test_heldout_programs4.py``).

Like ``heldout_programs3.py`` it stands in for held-out suites: other people's code,
written for this file (none copied, none taken from our other corpora) the way public
NumPy repositories and scientific scripts write it. Its kinds: scikit-learn-style
estimators written in NumPy (logistic regression, ridge, Gaussian naive Bayes, LDA,
k-nearest neighbours, a decision stump, a perceptron), numpy-ml-style pieces (batch
norm, a GRU cell, attention, embeddings, hinge and KL losses), optimizers (Nesterov,
Adagrad, Newton, conjugate gradient, projected gradient), statistics (Welch's t,
chi-square, Spearman, kernel density, Mahalanobis, shrinkage covariance, a confusion
matrix), signal processing (a windowed-sinc FIR, a DFT matrix, an analytic signal,
the spectral centroid, resampling, a cepstrum), graph algorithms on adjacency matrices
(PageRank, degree and closeness, Floyd-Warshall, triangles, a Laplacian embedding,
label propagation) and image filters (box blur by integral image, a median filter,
unsharp masking, erosion/dilation, Otsu's threshold, gradient-orientation histograms).

It uses the idioms such code uses and that a capture frontend finds hard: sizes read
from the data (``labels.max() + 1``, ``np.bincount(..., minlength=k)``), ``.item()``
and ``float(arr)`` used as numbers afterwards, ``np.linalg.matrix_rank``, ``np.finfo``,
``np.unique(..., return_inverse=True)``, ``np.cov``, ``np.kron``, ``np.isin``,
``np.triu_indices``, ``np.add.at``, ``np.lib.stride_tricks``, small classes with
``fit``/``predict``, ``assert`` and ``ValueError`` checks, and early exits on a
tolerance.

``PROGRAMS`` lists ``(name, fn, args)``; the arguments are small and seeded. The module
imports only NumPy, so the scripts load it from its file and the tests import it by name.
"""

from __future__ import annotations

import numpy as np

_rng = np.random.default_rng(2718)


def _normal(*shape):
    return _rng.normal(size=shape)


def _uniform(*shape):
    return _rng.uniform(size=shape)


def _labels(n, k):
    return _rng.integers(0, k, n)


# ================================================================ estimators


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


class LogisticRegression:
    """Batch gradient descent with L2 penalty, the way tutorials write it."""

    def __init__(self, lr=0.1, n_iter=20, C=1.0):
        self.lr = lr
        self.n_iter = n_iter
        self.C = C

    def fit(self, X, y):
        n, d = X.shape
        self.w = np.zeros(d)
        self.b = 0.0
        for _ in range(self.n_iter):
            p = _sigmoid(X @ self.w + self.b)
            grad_w = X.T @ (p - y) / n + self.w / (self.C * n)
            grad_b = np.mean(p - y)
            self.w -= self.lr * grad_w
            self.b -= self.lr * grad_b
        return self

    def predict_proba(self, X):
        return _sigmoid(X @ self.w + self.b)

    def predict(self, X):
        return (self.predict_proba(X) >= 0.5).astype(int)


def logistic_regression_fit_predict(X, y, Xtest):
    clf = LogisticRegression(lr=0.5, n_iter=15).fit(X, y)
    acc = np.mean(clf.predict(X) == y)
    return clf.w, clf.b, clf.predict_proba(Xtest), acc


def ridge_closed_form(X, y, alpha=1.0):
    X_mean = X.mean(axis=0)
    y_mean = y.mean()
    Xc = X - X_mean
    yc = y - y_mean
    d = X.shape[1]
    coef = np.linalg.solve(Xc.T @ Xc + alpha * np.eye(d), Xc.T @ yc)
    intercept = y_mean - X_mean @ coef
    resid = y - (X @ coef + intercept)
    r2 = 1 - np.sum(resid ** 2) / np.sum(yc ** 2)
    return coef, intercept, r2


def gaussian_naive_bayes(X, y, Xtest):
    classes = np.unique(y)
    n_classes = len(classes)
    n_features = X.shape[1]
    theta = np.zeros((n_classes, n_features))
    var = np.zeros((n_classes, n_features))
    prior = np.zeros(n_classes)
    eps = 1e-9 * np.var(X, axis=0).max()
    for i, c in enumerate(classes):
        Xc = X[y == c]
        theta[i] = Xc.mean(axis=0)
        var[i] = Xc.var(axis=0) + eps
        prior[i] = Xc.shape[0] / X.shape[0]
    jll = []
    for i in range(n_classes):
        log_prior = np.log(prior[i])
        n_ij = -0.5 * np.sum(np.log(2.0 * np.pi * var[i]))
        n_ij = n_ij - 0.5 * np.sum((Xtest - theta[i]) ** 2 / var[i], axis=1)
        jll.append(log_prior + n_ij)
    jll = np.array(jll).T
    return classes[np.argmax(jll, axis=1)], jll


def lda_two_class(X, y):
    X0 = X[y == 0]
    X1 = X[y == 1]
    m0 = X0.mean(axis=0)
    m1 = X1.mean(axis=0)
    S0 = (X0 - m0).T @ (X0 - m0)
    S1 = (X1 - m1).T @ (X1 - m1)
    Sw = S0 + S1
    w = np.linalg.solve(Sw, m1 - m0)
    w /= np.linalg.norm(w)
    threshold = 0.5 * (m0 + m1) @ w
    pred = (X @ w > threshold).astype(np.int64)
    return w, threshold, pred


def knn_predict(Xtrain, ytrain, Xtest, k=3):
    d2 = (np.sum(Xtest ** 2, axis=1)[:, None] + np.sum(Xtrain ** 2, axis=1)[None, :]
          - 2 * Xtest @ Xtrain.T)
    nn = np.argsort(d2, axis=1)[:, :k]
    votes = ytrain[nn]
    n_classes = ytrain.max() + 1
    counts = np.zeros((Xtest.shape[0], n_classes), dtype=np.int64)
    for j in range(k):
        counts[np.arange(Xtest.shape[0]), votes[:, j]] += 1
    return np.argmax(counts, axis=1), counts


def decision_stump(X, y, w):
    n, d = X.shape
    best_err = np.inf
    best = (0, 0.0, 1)
    for j in range(d):
        thresholds = np.unique(X[:, j])
        for t in thresholds[:4]:
            for polarity in (1, -1):
                pred = np.where(polarity * X[:, j] < polarity * t, -1, 1)
                err = np.sum(w[pred != y])
                if err < best_err:
                    best_err = err
                    best = (j, t, polarity)
    return best, best_err


def perceptron_epochs(X, y, epochs=3, lr=1.0):
    w = np.zeros(X.shape[1])
    b = 0.0
    mistakes = 0
    for _ in range(epochs):
        for i in range(X.shape[0]):
            if y[i] * (X[i] @ w + b) <= 0:
                w = w + lr * y[i] * X[i]
                b = b + lr * y[i]
                mistakes += 1
    return w, b, mistakes


def label_encode_and_counts(y):
    classes, y_enc = np.unique(y, return_inverse=True)
    counts = np.bincount(y_enc, minlength=len(classes))
    weights = len(y) / (len(classes) * counts)
    return classes, y_enc, counts, weights


def confusion_matrix(y_true, y_pred):
    n_labels = int(max(y_true.max(), y_pred.max())) + 1
    cm = np.zeros((n_labels, n_labels), dtype=np.int64)
    np.add.at(cm, (y_true, y_pred), 1)
    tp = np.diag(cm)
    precision = tp / np.maximum(cm.sum(axis=0), 1)
    recall = tp / np.maximum(cm.sum(axis=1), 1)
    f1 = 2 * precision * recall / np.maximum(precision + recall, np.finfo(float).eps)
    return cm, f1.mean()


# ================================================================ numpy-ml-style pieces


def batchnorm_train_forward(X, gamma, beta, running_mean, running_var, momentum=0.9,
                            eps=1e-5):
    mu = X.mean(axis=0)
    var = X.var(axis=0)
    X_hat = (X - mu) / np.sqrt(var + eps)
    out = gamma * X_hat + beta
    running_mean[:] = momentum * running_mean + (1 - momentum) * mu
    running_var[:] = momentum * running_var + (1 - momentum) * var
    return out


def gru_cell_sequence(xs, h0, Wz, Uz, Wr, Ur, Wh, Uh):
    h = h0
    hs = []
    for t in range(xs.shape[0]):
        x = xs[t]
        z = _sigmoid(x @ Wz + h @ Uz)
        r = _sigmoid(x @ Wr + h @ Ur)
        h_tilde = np.tanh(x @ Wh + (r * h) @ Uh)
        h = (1 - z) * h + z * h_tilde
        hs.append(h)
    return np.stack(hs), h


def scaled_dot_attention(Q, K, V, mask=None):
    d_k = Q.shape[-1]
    scores = Q @ K.swapaxes(-1, -2) / np.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask, scores, -1e9)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights @ V, weights


def causal_attention(Q, K, V):
    T = Q.shape[0]
    mask = np.tril(np.ones((T, T), dtype=bool))
    return scaled_dot_attention(Q, K, V, mask)


def embedding_lookup_backward(ids, table, dout):
    out = table[ids]
    dtable = np.zeros_like(table)
    np.add.at(dtable, ids, dout)
    return out, dtable


def hinge_loss_and_grad(scores, y, margin=1.0):
    n = scores.shape[0]
    correct = scores[np.arange(n), y][:, None]
    margins = np.maximum(0, scores - correct + margin)
    margins[np.arange(n), y] = 0
    loss = margins.sum() / n
    dscores = (margins > 0).astype(scores.dtype)
    dscores[np.arange(n), y] -= dscores.sum(axis=1)
    return loss, dscores / n


def kl_divergence_rows(P, Q):
    eps = np.finfo(P.dtype).eps
    P = np.clip(P, eps, 1.0)
    Q = np.clip(Q, eps, 1.0)
    P = P / P.sum(axis=1, keepdims=True)
    Q = Q / Q.sum(axis=1, keepdims=True)
    return np.sum(P * np.log(P / Q), axis=1)


# ================================================================ optimizers


def nesterov_least_squares(A, b, lr=0.05, mu=0.9, steps=25):
    x = np.zeros(A.shape[1])
    v = np.zeros_like(x)
    history = []
    for _ in range(steps):
        look = x + mu * v
        g = A.T @ (A @ look - b)
        v = mu * v - lr * g
        x = x + v
        history.append(0.5 * np.sum((A @ x - b) ** 2))
    return x, np.array(history)


def adagrad_rosenbrock(x0, lr=0.1, steps=30, eps=1e-8):
    x = np.array(x0, dtype=float)
    G = np.zeros_like(x)
    for _ in range(steps):
        g = np.array([-2 * (1 - x[0]) - 400 * x[0] * (x[1] - x[0] ** 2),
                      200 * (x[1] - x[0] ** 2)])
        G += g * g
        x -= lr * g / (np.sqrt(G) + eps)
    f = (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2
    return x, f


def newton_logistic(X, y, iters=6, tol=1e-8):
    w = np.zeros(X.shape[1])
    for it in range(iters):
        p = _sigmoid(X @ w)
        g = X.T @ (p - y)
        H = (X * (p * (1 - p))[:, None]).T @ X + 1e-6 * np.eye(X.shape[1])
        step = np.linalg.solve(H, g)
        w -= step
        if np.linalg.norm(step) < tol:
            break
    return w, it


def conjugate_gradient(A, b, tol=1e-10, max_iter=50):
    x = np.zeros_like(b)
    r = b - A @ x
    p = r.copy()
    rs_old = r @ r
    for i in range(max_iter):
        Ap = A @ p
        alpha = rs_old / (p @ Ap)
        x = x + alpha * p
        r = r - alpha * Ap
        rs_new = r @ r
        if np.sqrt(rs_new) < tol:
            break
        p = r + (rs_new / rs_old) * p
        rs_old = rs_new
    return x, i + 1


def projected_gradient_simplex(c, Q, steps=20, lr=0.1):
    def project(v):
        u = np.sort(v)[::-1]
        css = np.cumsum(u)
        ind = np.arange(1, len(v) + 1)
        cond = u - (css - 1) / ind > 0
        rho = ind[cond][-1]
        theta = (css[cond][-1] - 1) / rho
        return np.maximum(v - theta, 0)

    x = np.full(len(c), 1.0 / len(c))
    for _ in range(steps):
        grad = Q @ x + c
        x = project(x - lr * grad)
    return x, 0.5 * x @ Q @ x + c @ x


# ================================================================ statistics


def welch_t_test(a, b):
    na, nb = len(a), len(b)
    va, vb = a.var(ddof=1), b.var(ddof=1)
    t = (a.mean() - b.mean()) / np.sqrt(va / na + vb / nb)
    df = (va / na + vb / nb) ** 2 / ((va / na) ** 2 / (na - 1) + (vb / nb) ** 2 / (nb - 1))
    return float(t), float(df)


def chi_square_independence(table):
    table = np.asarray(table, dtype=float)
    row = table.sum(axis=1, keepdims=True)
    col = table.sum(axis=0, keepdims=True)
    total = table.sum()
    expected = row @ col / total
    chi2 = ((table - expected) ** 2 / expected).sum()
    dof = (table.shape[0] - 1) * (table.shape[1] - 1)
    return chi2, dof, expected


def _rankdata(x):
    order = np.argsort(x)
    ranks = np.empty(len(x))
    ranks[order] = np.arange(1, len(x) + 1)
    return ranks


def spearman_rho(x, y):
    rx = _rankdata(x)
    ry = _rankdata(y)
    return np.corrcoef(rx, ry)[0, 1]


def gaussian_kde_eval(samples, grid, bandwidth=None):
    n = samples.shape[0]
    if bandwidth is None:
        bandwidth = 1.06 * samples.std(ddof=1) * n ** (-1 / 5)
    u = (grid[:, None] - samples[None, :]) / bandwidth
    dens = np.exp(-0.5 * u ** 2).sum(axis=1) / (n * bandwidth * np.sqrt(2 * np.pi))
    return dens, bandwidth


def mahalanobis_outliers(X, q=0.9):
    mu = X.mean(axis=0)
    S = np.cov(X, rowvar=False)
    Sinv = np.linalg.inv(S)
    D = X - mu
    d2 = np.einsum("ij,jk,ik->i", D, Sinv, D)
    cut = np.quantile(d2, q)
    return d2, d2 > cut


def ledoit_wolf_like_shrinkage(X):
    n, p = X.shape
    Xc = X - X.mean(axis=0)
    S = Xc.T @ Xc / n
    mu = np.trace(S) / p
    delta = np.sum((S - mu * np.eye(p)) ** 2) / p
    beta = 0.0
    for i in range(n):
        xi = Xc[i][:, None]
        beta += np.sum((xi @ xi.T - S) ** 2)
    beta = min(beta / (p * n * n), delta)
    shrink = beta / delta
    return shrink * mu * np.eye(p) + (1 - shrink) * S, shrink


def describe_columns(X):
    out = {}
    for j in range(X.shape[1]):
        col = X[:, j]
        q1, med, q3 = np.percentile(col, [25, 50, 75])
        out[f"col{j}"] = {
            "mean": col.mean().item(),
            "std": col.std(ddof=1).item(),
            "iqr": float(q3 - q1),
            "median": float(med),
        }
    return out


# ================================================================ signal processing


def windowed_sinc_fir(x, cutoff=0.2, numtaps=9):
    n = np.arange(numtaps) - (numtaps - 1) / 2
    h = np.sinc(2 * cutoff * n) * np.hamming(numtaps)
    h /= h.sum()
    y = np.convolve(x, h, mode="same")
    return y, h


def dft_matrix_transform(x):
    N = x.shape[0]
    k = np.arange(N)
    W = np.exp(-2j * np.pi * np.outer(k, k) / N)
    X = W @ x
    return X, np.allclose(X, np.fft.fft(x))


def analytic_signal(x):
    N = x.shape[0]
    Xf = np.fft.fft(x)
    h = np.zeros(N)
    if N % 2 == 0:
        h[0] = h[N // 2] = 1
        h[1:N // 2] = 2
    else:
        h[0] = 1
        h[1:(N + 1) // 2] = 2
    z = np.fft.ifft(Xf * h)
    return np.abs(z), np.unwrap(np.angle(z))


def spectral_centroid_frames(x, frame=16, hop=8, sr=100.0):
    n_frames = 1 + (len(x) - frame) // hop
    idx = np.arange(frame)[None, :] + hop * np.arange(n_frames)[:, None]
    frames = x[idx] * np.hanning(frame)
    mag = np.abs(np.fft.rfft(frames, axis=1))
    freqs = np.fft.rfftfreq(frame, d=1.0 / sr)
    centroid = (mag * freqs).sum(axis=1) / (mag.sum(axis=1) + 1e-12)
    return centroid






def peak_finder(x, min_height=0.0):
    left = x[1:-1] > x[:-2]
    right = x[1:-1] >= x[2:]
    peaks = np.flatnonzero(left & right & (x[1:-1] > min_height)) + 1
    return peaks, x[peaks]


# ================================================================ graphs on adjacency matrices


def pagerank_power(A, d=0.85, tol=1e-10, max_iter=100):
    n = A.shape[0]
    out_deg = A.sum(axis=1)
    dangling = out_deg == 0
    P = np.divide(A, out_deg[:, None], out=np.zeros_like(A), where=out_deg[:, None] > 0)
    r = np.full(n, 1.0 / n)
    for it in range(max_iter):
        r_new = d * (r @ P + r[dangling].sum() / n) + (1 - d) / n
        if np.abs(r_new - r).sum() < tol:
            r = r_new
            break
        r = r_new
    return r, it


def degree_and_closeness(A):
    deg = A.sum(axis=0)
    n = A.shape[0]
    D = np.where(A > 0, 1.0, np.inf)
    np.fill_diagonal(D, 0.0)
    for k in range(n):
        D = np.minimum(D, D[:, k:k + 1] + D[k:k + 1, :])
    reach = np.isfinite(D)
    closeness = (reach.sum(axis=1) - 1) / np.where(reach, D, 0).sum(axis=1)
    return deg, closeness


def floyd_warshall_weights(W):
    n = W.shape[0]
    dist = W.copy()
    nxt = np.tile(np.arange(n), (n, 1))
    for k in range(n):
        via = dist[:, k][:, None] + dist[k, :][None, :]
        better = via < dist
        dist = np.where(better, via, dist)
        nxt = np.where(better, nxt[:, k][:, None], nxt)
    return dist, nxt


def triangle_count(A):
    A3 = A @ A @ A
    per_node = np.diag(A3) / 2
    return int(np.trace(A3) // 6), per_node


def laplacian_embedding(A, dim=2):
    deg = A.sum(axis=1)
    L = np.diag(deg) - A
    d_inv_sqrt = 1.0 / np.sqrt(deg)
    L_sym = d_inv_sqrt[:, None] * L * d_inv_sqrt[None, :]
    vals, vecs = np.linalg.eigh(L_sym)
    return vals[:dim + 1], vecs[:, 1:dim + 1]


def label_propagation(A, labels, n_iter=5):
    n = A.shape[0]
    n_classes = labels.max() + 1
    Y = np.zeros((n, n_classes))
    Y[np.arange(n), labels] = 1.0
    for _ in range(n_iter):
        Y = A @ Y + Y
        Y /= Y.sum(axis=1, keepdims=True)
    return Y.argmax(axis=1)


def connected_components_matrix(A):
    n = A.shape[0]
    R = (A + np.eye(n)) > 0
    for _ in range(int(np.ceil(np.log2(n))) + 1):
        R = (R.astype(np.int64) @ R.astype(np.int64)) > 0
    comp = R.argmax(axis=1)
    _, comp = np.unique(comp, return_inverse=True)
    return comp, comp.max() + 1


# ================================================================ image filters


def box_blur_integral(img, r=1):
    pad = np.pad(img, r + 1, mode="edge")
    S = pad.cumsum(axis=0).cumsum(axis=1)
    k = 2 * r + 1
    H, W = img.shape
    tot = (S[k:k + H, k:k + W] - S[:H, k:k + W] - S[k:k + H, :W] + S[:H, :W])
    return tot / (k * k)


def median_filter3(img):
    p = np.pad(img, 1, mode="reflect")
    H, W = img.shape
    stack = np.stack([p[i:i + H, j:j + W] for i in range(3) for j in range(3)])
    return np.median(stack, axis=0)


def unsharp_mask(img, amount=1.5, threshold=0.05):
    k = np.array([1.0, 2.0, 1.0]) / 4.0
    blurred = np.apply_along_axis(lambda r: np.convolve(r, k, mode="same"), 1, img)
    blurred = np.apply_along_axis(lambda c: np.convolve(c, k, mode="same"), 0, blurred)
    detail = img - blurred
    sharp = img + amount * detail * (np.abs(detail) > threshold)
    return np.clip(sharp, 0.0, 1.0)


def morphology_open(binary, size=3):
    r = size // 2
    H, W = binary.shape
    p = np.pad(binary, r, mode="constant", constant_values=False)
    view = np.lib.stride_tricks.sliding_window_view(p, (size, size))
    eroded = view.all(axis=(-2, -1))
    p2 = np.pad(eroded, r, mode="constant", constant_values=False)
    view2 = np.lib.stride_tricks.sliding_window_view(p2, (size, size))
    return view2.any(axis=(-2, -1)), eroded


def otsu_threshold(img, nbins=32):
    hist, edges = np.histogram(img.ravel(), bins=nbins, range=(0.0, 1.0))
    centers = (edges[:-1] + edges[1:]) / 2
    w0 = np.cumsum(hist)
    w1 = np.cumsum(hist[::-1])[::-1]
    m0 = np.cumsum(hist * centers) / np.maximum(w0, 1)
    m1 = (np.cumsum((hist * centers)[::-1]) / np.maximum(w1[::-1], 1))[::-1]
    between = w0[:-1] * w1[1:] * (m0[:-1] - m1[1:]) ** 2
    t = centers[np.argmax(between)]
    return t, img > t


def orientation_histogram(img, nbins=9):
    gy, gx = np.gradient(img)
    mag = np.hypot(gx, gy)
    ang = np.rad2deg(np.arctan2(gy, gx)) % 180
    bins = np.minimum((ang / (180 / nbins)).astype(int), nbins - 1)
    hist = np.bincount(bins.ravel(), weights=mag.ravel(), minlength=nbins)
    return hist / (np.linalg.norm(hist) + 1e-6)




# ================================================================ linear algebra helpers


def least_squares_rank_check(X, y):
    rank = np.linalg.matrix_rank(X)
    if rank < X.shape[1]:
        raise ValueError(f"design matrix is rank deficient: {rank} < {X.shape[1]}")
    beta, res, rk, sv = np.linalg.lstsq(X, y, rcond=None)
    cond = sv[0] / sv[-1]
    return beta, rk, cond


def kron_separable_filter(img, kx, ky):
    K = np.kron(ky[:, None], kx[None, :])
    H, W = img.shape
    kh, kw = K.shape
    out = np.zeros((H - kh + 1, W - kw + 1))
    for i in range(kh):
        for j in range(kw):
            out += K[i, j] * img[i:i + out.shape[0], j:j + out.shape[1]]
    return out, K


def pairwise_upper_distances(X):
    n = X.shape[0]
    iu, ju = np.triu_indices(n, k=1)
    d = np.linalg.norm(X[iu] - X[ju], axis=1)
    return d, d.argmin(), (iu[d.argmin()], ju[d.argmin()])


def filter_known_ids(ids, known, values):
    keep = np.isin(ids, known)
    return ids[keep], values[keep].sum(), keep.sum()


# ================================================================ the corpus


def _adjacency(n, p, seed):
    r = np.random.default_rng(seed)
    A = (r.uniform(size=(n, n)) < p).astype(float)
    A = np.triu(A, 1)
    A = A + A.T
    # a ring so every node has a neighbour
    idx = np.arange(n)
    A[idx, (idx + 1) % n] = 1.0
    A[(idx + 1) % n, idx] = 1.0
    return A


def _directed(n, p, seed):
    r = np.random.default_rng(seed)
    A = (r.uniform(size=(n, n)) < p).astype(float)
    np.fill_diagonal(A, 0.0)
    A[-1] = 0.0  # a dangling node
    return A


def _spd(n):
    M = _normal(n, n)
    return M @ M.T + n * np.eye(n)


def _weights(n):
    W = _uniform(n, n) * 5 + 1
    W[_uniform(n, n) < 0.4] = np.inf
    np.fill_diagonal(W, 0.0)
    return W


_Xlin = _normal(30, 3)
_ylog = (_Xlin @ np.array([1.0, -2.0, 0.5]) + 0.3 * _normal(30) > 0).astype(float)
_Xgnb = np.vstack([_normal(10, 2), _normal(10, 2) + 2.0])
_ygnb = np.repeat([0, 1], 10)
_bin_img = _uniform(9, 10) > 0.35

PROGRAMS = [
    ("logistic_regression_fit_predict", logistic_regression_fit_predict,
     (_Xlin, _ylog, _normal(5, 3))),
    ("ridge_closed_form", ridge_closed_form, (_normal(20, 4), _normal(20))),
    ("gaussian_naive_bayes", gaussian_naive_bayes, (_Xgnb, _ygnb, _normal(6, 2) + 1.0)),
    ("lda_two_class", lda_two_class, (_Xgnb, _ygnb)),
    ("knn_predict", knn_predict, (_normal(15, 2), _labels(15, 3), _normal(5, 2))),
    ("decision_stump", decision_stump,
     (_normal(12, 2), np.where(_uniform(12) > 0.5, 1, -1), np.full(12, 1 / 12))),
    ("perceptron_epochs", perceptron_epochs,
     (_Xgnb, np.where(_ygnb == 1, 1.0, -1.0))),
    ("label_encode_and_counts", label_encode_and_counts,
     (np.array([3, 7, 7, 3, 9, 7, 3, 3, 9]),)),
    ("confusion_matrix", confusion_matrix, (_labels(25, 4), _labels(25, 4))),
    ("batchnorm_train_forward", batchnorm_train_forward,
     (_normal(8, 5), _uniform(5), _normal(5), np.zeros(5), np.ones(5))),
    ("gru_cell_sequence", gru_cell_sequence,
     (_normal(5, 3), np.zeros(4), *(_normal(3, 4) * 0.5 if i % 2 == 0 else _normal(4, 4) * 0.5
                                    for i in range(6)))),
    ("scaled_dot_attention", scaled_dot_attention,
     (_normal(2, 4, 3), _normal(2, 5, 3), _normal(2, 5, 6))),
    ("causal_attention", causal_attention, (_normal(5, 4), _normal(5, 4), _normal(5, 2))),
    ("embedding_lookup_backward", embedding_lookup_backward,
     (np.array([1, 3, 1, 0, 3, 3]), _normal(5, 4), _normal(6, 4))),
    ("hinge_loss_and_grad", hinge_loss_and_grad, (_normal(7, 4), _labels(7, 4))),
    ("kl_divergence_rows", kl_divergence_rows, (_uniform(4, 6), _uniform(4, 6))),
    ("nesterov_least_squares", nesterov_least_squares, (_normal(12, 3) * 0.5, _normal(12))),
    ("adagrad_rosenbrock", adagrad_rosenbrock, ([-1.2, 1.0],)),
    ("newton_logistic", newton_logistic, (_Xlin, _ylog)),
    ("conjugate_gradient", conjugate_gradient, (_spd(6), _normal(6))),
    ("projected_gradient_simplex", projected_gradient_simplex, (_normal(5), _spd(5) * 0.1)),
    ("welch_t_test", welch_t_test, (_normal(14), _normal(11) + 0.4)),
    ("chi_square_independence", chi_square_independence, ([[12, 5, 9], [7, 14, 6]],)),
    ("spearman_rho", spearman_rho, (_normal(15), _normal(15))),
    ("gaussian_kde_eval", gaussian_kde_eval, (_normal(25), np.linspace(-3, 3, 13))),
    ("mahalanobis_outliers", mahalanobis_outliers, (_normal(30, 3),)),
    ("ledoit_wolf_like_shrinkage", ledoit_wolf_like_shrinkage, (_normal(10, 4),)),
    ("describe_columns", describe_columns, (_normal(12, 3),)),
    ("windowed_sinc_fir", windowed_sinc_fir, (_normal(30),)),
    ("dft_matrix_transform", dft_matrix_transform, (_normal(8),)),
    ("analytic_signal", analytic_signal, (np.sin(np.linspace(0, 6 * np.pi, 32)),)),
    ("spectral_centroid_frames", spectral_centroid_frames, (_normal(64),)),
    ("peak_finder", peak_finder, (np.sin(np.linspace(0, 4 * np.pi, 40)) + 0.1 * _normal(40),)),
    ("pagerank_power", pagerank_power, (_directed(7, 0.35, 5),)),
    ("degree_and_closeness", degree_and_closeness, (_adjacency(7, 0.2, 6),)),
    ("floyd_warshall_weights", floyd_warshall_weights, (_weights(6),)),
    ("triangle_count", triangle_count, (_adjacency(8, 0.4, 7),)),
    ("laplacian_embedding", laplacian_embedding, (_adjacency(8, 0.3, 8),)),
    ("label_propagation", label_propagation, (_adjacency(8, 0.3, 9), _labels(8, 3))),
    ("connected_components_matrix", connected_components_matrix,
     (np.kron(np.eye(2), _adjacency(4, 0.0, 10)),)),
    ("box_blur_integral", box_blur_integral, (_uniform(6, 7),)),
    ("median_filter3", median_filter3, (_uniform(6, 5),)),
    ("unsharp_mask", unsharp_mask, (_uniform(6, 6),)),
    ("morphology_open", morphology_open, (_bin_img,)),
    ("otsu_threshold", otsu_threshold, (_uniform(8, 8) ** 2,)),
    ("orientation_histogram", orientation_histogram, (_uniform(7, 7),)),
    ("least_squares_rank_check", least_squares_rank_check, (_normal(12, 3), _normal(12))),
    ("kron_separable_filter", kron_separable_filter,
     (_uniform(7, 8), np.array([1.0, 2.0, 1.0]) / 4, np.array([1.0, 0.0, -1.0]))),
    ("pairwise_upper_distances", pairwise_upper_distances, (_normal(6, 2),)),
    ("filter_known_ids", filter_known_ids,
     (np.array([4, 8, 15, 16, 23, 42, 8]), np.array([8, 23, 99]), _normal(7))),
]
