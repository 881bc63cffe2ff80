"""The fourteenth corpus of scripts/bench_realworld.py, third part (see
``realworld_programs14.py``): ML pieces written the way tutorials write them
(one-vs-rest logistic regression, Bernoulli naive Bayes, a decision-tree node's best
Gini split, mini-batch k-means with per-centre rates, LDA, ridge's alpha by k-fold
cross-validation) and numerical methods (Newton on the Bratu problem with a
finite-difference Jacobian, a natural cubic spline, Gauss-Legendre nodes by Newton,
Chebyshev fits evaluated by Clenshaw, a Romberg table with an early exit, unshifted QR
iterations, Halton quasi-Monte Carlo, Levenberg-Marquardt).

Example::

    >>> programs(small=True)[0][0]
    'one-vs-rest logistic regression'
"""

from __future__ import annotations

import math

import numpy as np

# ---------------------------------------------------------------- ML pieces


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def one_vs_rest_logreg(X, labels, n_classes, lr=0.1, epochs=100):
    """One-vs-rest logistic regression: one binary model per class by gradient
    descent, then the argmax of the scores."""
    n, d = X.shape
    Xb = np.hstack([X, np.ones((n, 1))])
    W = np.zeros((n_classes, d + 1))
    for c in range(n_classes):
        y = (labels == c).astype(float)
        w = np.zeros(d + 1)
        for _ in range(epochs):
            p = _sigmoid(Xb @ w)
            w -= lr * Xb.T @ (p - y) / n
        W[c] = w
    pred = np.argmax(Xb @ W.T, axis=1)
    return W, np.mean(pred == labels)


def bernoulli_nb(Xtr, ytr, Xte, alpha=1.0):
    """Bernoulli naive Bayes on binary features with Laplace smoothing."""
    classes = np.unique(ytr)
    log_prior = np.empty(len(classes))
    log_p = np.empty((len(classes), Xtr.shape[1]))
    log_q = np.empty_like(log_p)
    for i, c in enumerate(classes):
        Xc = Xtr[ytr == c]
        p = (Xc.sum(axis=0) + alpha) / (len(Xc) + 2 * alpha)
        log_prior[i] = np.log(len(Xc) / len(Xtr))
        log_p[i] = np.log(p)
        log_q[i] = np.log(1 - p)
    joint = Xte @ log_p.T + (1 - Xte) @ log_q.T + log_prior
    return classes[np.argmax(joint, axis=1)]


def best_gini_split(X, y, n_classes):
    """The best (feature, threshold) of a decision-tree node by Gini impurity, scanning
    every cut of every sorted feature with cumulative class counts."""
    n, d = X.shape
    onehot = np.eye(n_classes)[y]
    best = (np.inf, -1, 0.0)
    for j in range(d):
        order = np.argsort(X[:, j])
        xs = X[order, j]
        left = np.cumsum(onehot[order], axis=0)[:-1]
        right = left[-1] + onehot[order][-1] - left
        nl = np.arange(1, n)
        nr = n - nl
        gini = (nl * (1 - ((left / nl[:, None]) ** 2).sum(1))
                + nr * (1 - ((right / nr[:, None]) ** 2).sum(1))) / n
        gini[xs[1:] == xs[:-1]] = np.inf
        i = int(np.argmin(gini))
        if gini[i] < best[0]:
            best = (gini[i], j, 0.5 * (xs[i] + xs[i + 1]))
    return best


def minibatch_kmeans(seed, X, k, batch, n_iter):
    """Mini-batch k-means with per-centre learning rates 1 / count."""
    rng = np.random.default_rng(seed)
    C = X[rng.choice(len(X), k, replace=False)].copy()
    counts = np.zeros(k)
    for _ in range(n_iter):
        B = X[rng.integers(0, len(X), batch)]
        d = ((B[:, None, :] - C[None, :, :]) ** 2).sum(-1)
        nearest = d.argmin(axis=1)
        for i, c in enumerate(nearest):
            counts[c] += 1
            C[c] += (B[i] - C[c]) / counts[c]
    inertia = ((X[:, None, :] - C[None]) ** 2).sum(-1).min(axis=1).sum()
    return C, inertia


def lda_fit_predict(X, y, Xte):
    """Linear discriminant analysis: class means, pooled covariance, linear scores."""
    classes = np.unique(y)
    means = np.array([X[y == c].mean(axis=0) for c in classes])
    priors = np.array([np.mean(y == c) for c in classes])
    centered = X - means[np.searchsorted(classes, y)]
    cov = centered.T @ centered / (len(X) - len(classes))
    coef = np.linalg.solve(cov, means.T).T
    intercept = -0.5 * (coef * means).sum(axis=1) + np.log(priors)
    return classes[np.argmax(Xte @ coef.T + intercept, axis=1)]


def ridge_kfold_alpha(X, y, alphas, k=5):
    """Ridge regression's alpha chosen by k-fold cross-validation (solves per fold)."""
    n, d = X.shape
    folds = np.array_split(np.arange(n), k)
    scores = []
    for a in alphas:
        err = 0.0
        for f in folds:
            mask = np.ones(n, dtype=bool)
            mask[f] = False
            Xt, yt = X[mask], y[mask]
            w = np.linalg.solve(Xt.T @ Xt + a * np.eye(d), Xt.T @ yt)
            err += np.sum((X[f] @ w - y[f]) ** 2)
        scores.append(err / n)
    best = alphas[int(np.argmin(scores))]
    return best, np.array(scores)


# ---------------------------------------------------------------- numerical methods


def bratu_newton_fd(n, lam, tol=1e-10, max_iter=30):
    """Newton on the discretised Bratu problem u'' + lam e^u = 0 with a Jacobian by
    forward differences, column by column."""
    h = 1.0 / (n + 1)
    u = np.zeros(n)

    def F(v):
        vp = np.concatenate([[0.0], v, [0.0]])
        return (vp[:-2] - 2 * vp[1:-1] + vp[2:]) / h ** 2 + lam * np.exp(v)

    for it in range(max_iter):  # noqa: B007  (the count is returned)
        f = F(u)
        if np.linalg.norm(f) < tol:
            break
        J = np.empty((n, n))
        eps = 1e-7
        for j in range(n):
            du = u.copy()
            du[j] += eps
            J[:, j] = (F(du) - f) / eps
        u = u - np.linalg.solve(J, f)
    return u, it


def natural_spline_eval(x, y, xq):
    """A natural cubic spline: second derivatives from the tridiagonal system (built in
    a loop), then evaluation at many points through searchsorted."""
    n = len(x)
    h = np.diff(x)
    A = np.zeros((n, n))
    rhs = np.zeros(n)
    A[0, 0] = A[-1, -1] = 1.0
    for i in range(1, n - 1):
        A[i, i - 1] = h[i - 1]
        A[i, i] = 2 * (h[i - 1] + h[i])
        A[i, i + 1] = h[i]
        rhs[i] = 6 * ((y[i + 1] - y[i]) / h[i] - (y[i] - y[i - 1]) / h[i - 1])
    M = np.linalg.solve(A, rhs)
    k = np.clip(np.searchsorted(x, xq) - 1, 0, n - 2)
    t0, t1 = xq - x[k], x[k + 1] - xq
    hk = h[k]
    return (M[k] * t1 ** 3 + M[k + 1] * t0 ** 3) / (6 * hk) \
        + (y[k] / hk - M[k] * hk / 6) * t1 + (y[k + 1] / hk - M[k + 1] * hk / 6) * t0


def gauss_legendre_integrate(n, funcs, a, b):
    """Gauss-Legendre nodes by Newton on the three-term recurrence, then integrals of
    several functions over [a, b]."""
    x = np.cos(np.pi * (np.arange(1, n + 1) - 0.25) / (n + 0.5))
    for _ in range(100):
        p0, p1 = np.ones_like(x), x.copy()
        for k in range(2, n + 1):
            p0, p1 = p1, ((2 * k - 1) * x * p1 - (k - 1) * p0) / k
        dp = n * (x * p1 - p0) / (x ** 2 - 1)
        dx = p1 / dp
        x = x - dx
        if np.max(np.abs(dx)) < 1e-14:
            break
    w = 2 / ((1 - x ** 2) * dp ** 2)
    t = 0.5 * (b - a) * x + 0.5 * (b + a)
    return [0.5 * (b - a) * np.sum(w * f(t)) for f in funcs]


def chebyshev_fit_clenshaw(f, n, xq):
    """Chebyshev coefficients of ``f`` on [-1, 1] from its values at the Chebyshev
    nodes, evaluated at many points by Clenshaw's recurrence."""
    k = np.arange(n)
    nodes = np.cos(np.pi * (k + 0.5) / n)
    fx = f(nodes)
    c = np.array([2.0 / n * np.sum(fx * np.cos(np.pi * j * (k + 0.5) / n)) for j in range(n)])
    b1 = np.zeros_like(xq)
    b2 = np.zeros_like(xq)
    for cj in c[:0:-1]:
        b1, b2 = 2 * xq * b1 - b2 + cj, b1
    return xq * b1 - b2 + 0.5 * c[0], c


def romberg_table(f, a, b, levels):
    """Romberg integration: trapezoid sums refined by halving, extrapolated in a list
    of lists; stops early when two diagonal entries agree."""
    R = [[0.5 * (b - a) * (f(np.array([a]))[0] + f(np.array([b]))[0])]]
    for i in range(1, levels):
        h = (b - a) / 2 ** i
        mids = a + h * np.arange(1, 2 ** i, 2)
        row = [0.5 * R[-1][0] + h * np.sum(f(mids))]
        for j in range(1, i + 1):
            row.append(row[j - 1] + (row[j - 1] - R[-1][j - 1]) / (4 ** j - 1))
        R.append(row)
        if abs(R[-1][-1] - R[-2][-1]) < 1e-12 * abs(R[-1][-1]):
            break
    return R[-1][-1], len(R)


def qr_algorithm_eigs(A, tol=1e-9, max_iter=500):
    """Eigenvalues of a symmetric matrix by unshifted QR iterations until the
    off-diagonal part is small."""
    Ak = A.copy()
    for it in range(max_iter):  # noqa: B007  (the count is returned)
        Q, R = np.linalg.qr(Ak)
        Ak = R @ Q
        off = np.sqrt(np.sum(Ak ** 2) - np.sum(np.diag(Ak) ** 2))
        if off < tol:
            break
    return np.sort(np.diag(Ak)), it


def halton_qmc_integrate(n, dim, f):
    """Quasi-Monte Carlo with a Halton sequence (radical inverses digit by digit)."""
    primes = [2, 3, 5, 7, 11, 13, 17, 19][:dim]
    idx = np.arange(1, n + 1)
    pts = np.empty((n, dim))
    for d, base in enumerate(primes):
        i = idx.copy()
        r = np.zeros(n)
        fdig = 1.0 / base
        while np.any(i > 0):
            r += fdig * (i % base)
            i //= base
            fdig /= base
        pts[:, d] = r
    vals = f(pts)
    return vals.mean(), vals.std() / math.sqrt(n)


def levenberg_marquardt_gauss(t, y, p0, n_iter=50):
    """Fit a * exp(-(t - mu)^2 / (2 s^2)) + c by Levenberg-Marquardt, damping halved on
    an accepted step and multiplied by ten otherwise."""
    p = np.array(p0, dtype=float)
    lam = 1e-2

    def model(q):
        return q[0] * np.exp(-(t - q[1]) ** 2 / (2 * q[2] ** 2)) + q[3]

    cost = np.sum((y - model(p)) ** 2)
    for _ in range(n_iter):
        a, mu, s, _c = p
        e = np.exp(-(t - mu) ** 2 / (2 * s ** 2))
        J = np.stack([e, a * e * (t - mu) / s ** 2, a * e * (t - mu) ** 2 / s ** 3,
                      np.ones_like(t)], axis=1)
        r = y - model(p)
        H = J.T @ J
        step = np.linalg.solve(H + lam * np.diag(np.diag(H)), J.T @ r)
        new_cost = np.sum((y - model(p + step)) ** 2)
        if new_cost < cost:
            p, cost, lam = p + step, new_cost, lam * 0.5
        else:
            lam *= 10.0
    return p, cost


def _runge(x):
    return 1.0 / (1.0 + 25.0 * x ** 2)


def _gauss_bump(p):
    return np.exp(-np.sum((p - 0.5) ** 2, axis=1) * 4.0)


def programs(small: bool = False):
    """(name, fn, args, kwargs) of this part of the fourteenth corpus."""
    rng = np.random.default_rng(14014)
    s = lambda big, little: little if small else big
    n_cls = 4
    centers = rng.standard_normal((n_cls, s(20, 3))) * 2
    labels = rng.integers(0, n_cls, s(3000, 40))
    X = centers[labels] + rng.standard_normal((len(labels), centers.shape[1]))
    Xte = centers[rng.integers(0, n_cls, s(500, 8))] + rng.standard_normal((s(500, 8),
                                                                           centers.shape[1]))
    Xbin = (rng.random((s(5000, 40), s(100, 6))) < 0.3).astype(float)
    ybin = (Xbin[:, :3].sum(axis=1) + rng.random(len(Xbin)) > 1.5).astype(int)
    Xbin_te = (rng.random((s(1000, 10), Xbin.shape[1])) < 0.3).astype(float)
    Xk = np.concatenate([rng.normal(c, 0.5, (s(3000, 30), 2)) for c in (-3, 0, 3)])
    Xr = rng.standard_normal((s(2000, 30), s(40, 4)))
    yr = Xr @ rng.standard_normal(Xr.shape[1]) + 0.5 * rng.standard_normal(len(Xr))
    xs_sp = np.sort(rng.uniform(0, 10, s(60, 6)))
    ys_sp = np.sin(xs_sp) + 0.1 * xs_sp
    B = rng.standard_normal((s(40, 5), s(40, 5)))
    Asym = B + B.T + np.diag(np.arange(B.shape[0]) * 3.0)
    t_lm = np.linspace(-5, 5, s(5000, 30))
    y_lm = 3.0 * np.exp(-(t_lm - 0.7) ** 2 / (2 * 1.3 ** 2)) + 0.5 \
        + 0.05 * rng.standard_normal(len(t_lm))
    return [
        ("one-vs-rest logistic regression", one_vs_rest_logreg, (X, labels, n_cls),
         {"epochs": s(100, 5)}),
        ("Bernoulli naive Bayes", bernoulli_nb, (Xbin, ybin, Xbin_te), {}),
        ("best Gini split of a tree node", best_gini_split, (X, labels, n_cls), {}),
        ("mini-batch k-means", minibatch_kmeans, (4, Xk, 3, s(100, 10), s(30, 3)), {}),
        ("LDA fit and predict", lda_fit_predict, (X, labels, Xte), {}),
        ("ridge alpha by k-fold cross-validation", ridge_kfold_alpha,
         (Xr, yr, [0.01, 0.1, 1.0, 10.0, 100.0]), {}),
        ("Bratu by Newton with an FD Jacobian", bratu_newton_fd, (s(60, 6), 2.0), {}),
        ("natural cubic spline evaluation", natural_spline_eval,
         (xs_sp, ys_sp, np.linspace(0, 10, s(200000, 25))), {}),
        ("Gauss-Legendre nodes and integrals", gauss_legendre_integrate,
         (s(200, 8), [np.exp, np.cos, _runge], -1.0, 1.0), {}),
        ("Chebyshev fit evaluated by Clenshaw", chebyshev_fit_clenshaw,
         (_runge, s(80, 8), np.linspace(-1, 1, s(100000, 30))), {}),
        ("Romberg table with an early exit", romberg_table,
         (_runge, -1.0, 1.0, s(20, 5)), {}),
        ("eigenvalues by unshifted QR iterations", qr_algorithm_eigs, (Asym,),
         {"max_iter": s(500, 20)}),
        ("Halton quasi-Monte Carlo integral", halton_qmc_integrate,
         (s(100000, 50), 4, _gauss_bump), {}),
        ("Levenberg-Marquardt Gaussian fit", levenberg_marquardt_gauss,
         (t_lm, y_lm, [1.0, 0.0, 1.0, 0.0]), {"n_iter": s(50, 5)}),
    ]
