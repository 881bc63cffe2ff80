"""The twelfth corpus's second half (``realworld_programs12.py`` joins it, issues #15/#19,
task t8): ML pieces from scratch (logistic regression by gradient descent, Gaussian naive
Bayes, k-nearest neighbours with a list vote, a decision stump, the perceptron, an RNN
cell loop, attention with padding masks), numerical methods (Gauss-Seidel, SOR to a
tolerance, LU without pivoting, modified Gram-Schmidt QR, power iteration, Runge-Kutta,
velocity Verlet, bisection) and graph algorithms on adjacency matrices (Dijkstra, Prim,
label propagation, a degree histogram, Katz centrality).

Example::

    >>> programs(small=True)[0][0]
    'logistic regression by batch gradient descent'
"""

from __future__ import annotations

import numpy as np

# ---------------------------------------------------------------- ML pieces


def logreg_batch_gd(X, y, lr=0.1, n_iter=100, l2=1e-3):
    """Logistic regression by full-batch gradient descent with an L2 penalty."""
    n, d = X.shape
    w = np.zeros(d)
    b = 0.0
    losses = []
    for _ in range(n_iter):
        z = X @ w + b
        p = 1.0 / (1.0 + np.exp(-z))
        losses.append(-np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12)))
        grad_w = X.T @ (p - y) / n + l2 * w
        grad_b = np.mean(p - y)
        w -= lr * grad_w
        b -= lr * grad_b
    return w, b, np.array(losses)


def gaussian_nb_fit_predict(X, y, X_test, n_classes):
    """Gaussian naive Bayes: per-class means/variances by masks, log-posterior argmax."""
    d = X.shape[1]
    means = np.zeros((n_classes, d))
    variances = np.zeros((n_classes, d))
    priors = np.zeros(n_classes)
    for c in range(n_classes):
        Xc = X[y == c]
        means[c] = Xc.mean(axis=0)
        variances[c] = Xc.var(axis=0) + 1e-9
        priors[c] = Xc.shape[0] / X.shape[0]
    log_like = -0.5 * (np.log(2 * np.pi * variances)[None, :, :]
                       + (X_test[:, None, :] - means[None]) ** 2 / variances[None]).sum(-1)
    return np.argmax(log_like + np.log(priors), axis=1), means


def knn_list_vote(X_train, y_train, X_test, k=5):
    """k-nearest neighbours: squared distances, argsort, majority vote in a list."""
    d2 = ((X_test ** 2).sum(1)[:, None] - 2 * X_test @ X_train.T
          + (X_train ** 2).sum(1)[None, :])
    nearest = np.argsort(d2, axis=1)[:, :k]
    n_classes = int(y_train.max()) + 1
    preds = []
    for row in nearest:
        votes = [0] * n_classes
        for j in row:
            votes[y_train[j]] += 1
        preds.append(int(np.argmax(votes)))
    return np.array(preds)


def fit_decision_stump(X, y, w):
    """Best weighted single-feature threshold split (AdaBoost's weak learner); y in {-1, 1}."""
    best = (np.inf, 0, 0.0, 1)
    for f in range(X.shape[1]):
        thresholds = np.unique(X[:, f])
        for thr in thresholds[::max(1, len(thresholds) // 16)]:
            for polarity in (1, -1):
                pred = np.where(polarity * (X[:, f] - thr) >= 0, 1, -1)
                err = w[pred != y].sum()
                if err < best[0]:
                    best = (err, f, thr, polarity)
    return best


def perceptron_epochs(X, y, n_epochs=5, lr=1.0):
    """Rosenblatt's perceptron, sample by sample; updates only on mistakes."""
    w = np.zeros(X.shape[1])
    b = 0.0
    mistakes = []
    for _ in range(n_epochs):
        m = 0
        for i in range(len(X)):
            if y[i] * (X[i] @ w + b) <= 0:
                w += lr * y[i] * X[i]
                b += lr * y[i]
                m += 1
        mistakes.append(m)
    return w, b, mistakes


def rnn_tanh_unroll(X, Wx, Wh, b, Wy):
    """Vanilla RNN over time (batch, time, features), outputs at every step."""
    batch, T, _ = X.shape
    h = np.zeros((batch, Wh.shape[0]))
    outs = []
    for t in range(T):
        h = np.tanh(X[:, t] @ Wx + h @ Wh + b)
        outs.append(h @ Wy)
    return np.stack(outs, axis=1), h


def attention_with_padding(Q, K, V, lengths):
    """Scaled dot-product attention with a key padding mask built from sequence lengths."""
    B, T, d = Q.shape
    scores = Q @ K.transpose(0, 2, 1) / np.sqrt(d)
    key_pad = np.arange(T)[None, :] >= lengths[:, None]          # (B, T)
    scores = np.where(key_pad[:, None, :], -1e9, scores)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights /= weights.sum(axis=-1, keepdims=True)
    out = weights @ V
    query_pad = np.arange(T)[None, :, None] >= lengths[:, None, None]
    return np.where(query_pad, 0.0, out), weights


def pegasos_svm(X, y, lam=0.01, n_epochs=3, seed=0):
    """Pegasos SGD for a linear SVM, a shuffled pass per epoch."""
    rng = np.random.default_rng(seed)
    w = np.zeros(X.shape[1])
    step = 0
    for _ in range(n_epochs):
        for i in rng.permutation(len(X)):
            step += 1
            eta = 1.0 / (lam * step)
            if y[i] * (X[i] @ w) < 1:
                w = (1 - eta * lam) * w + eta * y[i] * X[i]
            else:
                w = (1 - eta * lam) * w
    return w, np.mean(np.sign(X @ w) == y)


def multinomial_nb_counts(counts, labels, n_classes, alpha=1.0):
    """Multinomial naive Bayes on a document-term count matrix (Laplace smoothing)."""
    n_docs, vocab = counts.shape
    feature_counts = np.zeros((n_classes, vocab))
    class_counts = np.zeros(n_classes)
    for c in range(n_classes):
        rows = labels == c
        feature_counts[c] = counts[rows].sum(axis=0)
        class_counts[c] = rows.sum()
    log_prior = np.log(class_counts / n_docs)
    smoothed = feature_counts + alpha
    log_prob = np.log(smoothed / smoothed.sum(axis=1, keepdims=True))
    joint = counts @ log_prob.T + log_prior
    return np.argmax(joint, axis=1), log_prob


# ---------------------------------------------------------------- numerical methods


def gauss_seidel_sweeps(A, b, n_sweeps=20):
    """Gauss-Seidel: each unknown updated in place from the newest values."""
    n = len(b)
    x = np.zeros(n)
    for _ in range(n_sweeps):
        for i in range(n):
            sigma = A[i, :i] @ x[:i] + A[i, i + 1:] @ x[i + 1:]
            x[i] = (b[i] - sigma) / A[i, i]
    return x, np.linalg.norm(A @ x - b)


def sor_to_tolerance(A, b, omega=1.25, tol=1e-8, max_iter=500):
    """Successive over-relaxation until the update's infinity norm is below ``tol``."""
    n = len(b)
    x = np.zeros(n)
    for it in range(max_iter):
        x_old = x.copy()
        for i in range(n):
            s = A[i] @ x - A[i, i] * x[i]
            x[i] = (1 - omega) * x[i] + omega * (b[i] - s) / A[i, i]
        if np.max(np.abs(x - x_old)) < tol:
            return x, it + 1
    return x, max_iter


def lu_no_pivot_solve(A, b):
    """Doolittle LU without pivoting, then forward and back substitution."""
    n = A.shape[0]
    L = np.eye(n)
    U = A.astype(float).copy()
    for k in range(n - 1):
        factors = U[k + 1:, k] / U[k, k]
        L[k + 1:, k] = factors
        U[k + 1:, k:] -= factors[:, None] * U[k, k:]
    y = np.zeros(n)
    for i in range(n):
        y[i] = b[i] - L[i, :i] @ y[:i]
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        x[i] = (y[i] - U[i, i + 1:] @ x[i + 1:]) / U[i, i]
    return L, U, x


def mgs_qr(A):
    """QR by modified Gram-Schmidt, column by column."""
    m, n = A.shape
    Q = A.astype(float).copy()
    R = np.zeros((n, n))
    for k in range(n):
        R[k, k] = np.linalg.norm(Q[:, k])
        Q[:, k] /= R[k, k]
        for j in range(k + 1, n):
            R[k, j] = Q[:, k] @ Q[:, j]
            Q[:, j] -= R[k, j] * Q[:, k]
    return Q, R


def dominant_eig_power(A, n_iter=100):
    """Power iteration with a Rayleigh quotient history."""
    v = np.ones(A.shape[0]) / np.sqrt(A.shape[0])
    history = np.empty(n_iter)
    for i in range(n_iter):
        w = A @ v
        v = w / np.linalg.norm(w)
        history[i] = v @ A @ v
    return history[-1], v, history


def rk4_damped_pendulums(theta0, omega0, damping, dt, n_steps):
    """Classic RK4 on a batch of damped pendulums (a state of two arrays)."""
    def deriv(th, om):
        return om, -damping * om - 9.81 * np.sin(th)
    th, om = theta0.copy(), omega0.copy()
    for _ in range(n_steps):
        k1t, k1o = deriv(th, om)
        k2t, k2o = deriv(th + 0.5 * dt * k1t, om + 0.5 * dt * k1o)
        k3t, k3o = deriv(th + 0.5 * dt * k2t, om + 0.5 * dt * k2o)
        k4t, k4o = deriv(th + dt * k3t, om + dt * k3o)
        th = th + dt / 6 * (k1t + 2 * k2t + 2 * k3t + k4t)
        om = om + dt / 6 * (k1o + 2 * k2o + 2 * k3o + k4o)
    return th, om


def verlet_spring_chain(x, v, k=1.0, mass=1.0, dt=0.01, n_steps=100):
    """Velocity Verlet on a chain of masses joined by springs, fixed ends."""
    def forces(pos):
        f = np.zeros_like(pos)
        stretch = np.diff(pos)
        f[:-1] += k * stretch
        f[1:] -= k * stretch
        f[0] = f[-1] = 0.0
        return f
    x, v = x.copy(), v.copy()
    a = forces(x) / mass
    energy = []
    for _ in range(n_steps):
        x += v * dt + 0.5 * a * dt * dt
        a_new = forces(x) / mass
        v += 0.5 * (a + a_new) * dt
        a = a_new
        energy.append(0.5 * mass * (v ** 2).sum() + 0.5 * k * (np.diff(x) ** 2).sum())
    return x, v, np.array(energy)


def bisect_roots(coeffs, lo, hi, tol=1e-10):
    """A root of each polynomial in [lo, hi] by bisection, a while loop per polynomial."""
    roots = []
    for c in coeffs:
        a, b = lo, hi
        fa = np.polyval(c, a)
        while b - a > tol:
            m = 0.5 * (a + b)
            fm = np.polyval(c, m)
            if np.sign(fm) == np.sign(fa):
                a, fa = m, fm
            else:
                b = m
        roots.append(0.5 * (a + b))
    return np.array(roots)


def simpson_composite(f_values, a, b):
    """Composite Simpson's rule on each row (an odd number of samples)."""
    n = f_values.shape[-1] - 1
    h = (b - a) / n
    weights = np.ones(n + 1)
    weights[1:-1:2] = 4
    weights[2:-1:2] = 2
    return f_values @ weights * h / 3


# ---------------------------------------------------------------- graphs


def dijkstra_dense(W, source=0):
    """Dijkstra on a dense weight matrix (np.inf: no edge), argmin over unvisited."""
    n = W.shape[0]
    dist = np.full(n, np.inf)
    dist[source] = 0.0
    visited = np.zeros(n, dtype=bool)
    for _ in range(n):
        masked = np.where(visited, np.inf, dist)
        u = int(np.argmin(masked))
        if not np.isfinite(masked[u]):
            break
        visited[u] = True
        dist = np.minimum(dist, dist[u] + W[u])
    return dist


def prim_mst_dense(W):
    """Prim's minimum spanning tree weight on a dense symmetric weight matrix."""
    n = W.shape[0]
    in_tree = np.zeros(n, dtype=bool)
    in_tree[0] = True
    best = W[0].copy()
    parent = np.zeros(n, dtype=int)
    total = 0.0
    for _ in range(n - 1):
        cand = np.where(in_tree, np.inf, best)
        u = int(np.argmin(cand))
        total += cand[u]
        in_tree[u] = True
        closer = W[u] < best
        parent = np.where(closer & ~in_tree, u, parent)
        best = np.minimum(best, W[u])
    return total, parent


def label_propagation_components(adj, max_iter=100):
    """Connected components by min-label propagation until nothing changes."""
    n = adj.shape[0]
    labels = np.arange(n, dtype=float)
    rounds = 0
    for _ in range(max_iter):
        neighbour_min = np.where(adj > 0, labels[None, :], np.inf).min(axis=1)
        new = np.minimum(labels, neighbour_min)
        if np.array_equal(new, labels):
            break
        labels = new
        rounds += 1
    return labels.astype(int), rounds


def degree_list_histogram(adj):
    """Degree distribution counted in a Python list, then mean and max degree."""
    degrees = adj.sum(axis=1).astype(int)
    max_deg = int(degrees.max())
    hist = [0] * (max_deg + 1)
    for d in degrees:
        hist[d] += 1
    return np.array(hist), degrees.mean(), max_deg


def katz_centrality(adj, alpha=0.05, n_iter=50):
    """Katz centrality by fixed-point iteration x = alpha A^T x + 1, then normalised."""
    x = np.ones(adj.shape[0])
    for _ in range(n_iter):
        x = alpha * (adj.T @ x) + 1.0
    return x / np.linalg.norm(x)


def programs(small: bool = False):
    """(name, fn, args, kwargs) of this file's programs."""
    rng = np.random.default_rng(1212)
    s = lambda big, little: little if small else big
    n, d = s(2000, 30), s(20, 4)
    X = rng.standard_normal((n, d))
    w_true = rng.standard_normal(d)
    y01 = (X @ w_true + 0.3 * rng.standard_normal(n) > 0).astype(float)
    ypm = 2 * y01 - 1
    labels3 = rng.integers(0, 3, n)
    Xc = X + labels3[:, None] * 1.5
    docs = rng.poisson(0.5, (s(800, 20), s(300, 12))).astype(float)
    A_dd = rng.random((s(120, 8), s(120, 8)))
    A_dd += np.diag(A_dd.sum(axis=1) + 1.0)
    b_dd = rng.random(A_dd.shape[0])
    Xseq = rng.standard_normal((s(32, 2), s(50, 4), s(16, 3)))
    H = s(64, 5)
    QKV = [rng.standard_normal((s(16, 2), s(64, 5), s(32, 4))) for _ in range(3)]
    lengths = rng.integers(1, s(64, 5) + 1, s(16, 2))
    n_g = s(400, 12)
    adj = np.triu((rng.random((n_g, n_g)) < s(0.02, 0.25)).astype(float), 1)
    adj = adj + adj.T
    Wg = np.where(adj > 0, rng.random((n_g, n_g)) * 5 + 0.1, np.inf)
    Wg = np.minimum(Wg, Wg.T)
    np.fill_diagonal(Wg, 0.0)
    Wfull = rng.random((n_g, n_g))
    Wfull = Wfull + Wfull.T
    xs = np.linspace(0.0, 1.0, s(1001, 21))
    return [
        ("logistic regression by batch gradient descent", logreg_batch_gd, (X, y01),
         {"n_iter": s(100, 4)}),
        ("Gaussian naive Bayes by class masks", gaussian_nb_fit_predict,
         (Xc, labels3, Xc[:s(500, 10)], 3), {}),
        ("k-NN with a list vote", knn_list_vote,
         (Xc[:s(1000, 20)], labels3[:s(1000, 20)], Xc[-s(200, 6):]), {"k": s(7, 3)}),
        ("weighted decision stump", fit_decision_stump,
         (X[:s(500, 20), :s(8, 3)], ypm[:s(500, 20)], np.full(s(500, 20), 1 / s(500, 20))), {}),
        ("perceptron epochs, updates on mistakes", perceptron_epochs,
         (X[:s(500, 12)], ypm[:s(500, 12)]), {"n_epochs": s(5, 2)}),
        ("RNN tanh cell unrolled", rnn_tanh_unroll,
         (Xseq, rng.standard_normal((Xseq.shape[2], H)) * 0.3,
          rng.standard_normal((H, H)) * 0.1, np.zeros(H), rng.standard_normal((H, 4))), {}),
        ("attention with a padding mask", attention_with_padding, (*QKV, lengths), {}),
        ("Pegasos linear SVM", pegasos_svm, (X[:s(1000, 15)], ypm[:s(1000, 15)]),
         {"n_epochs": s(3, 1)}),
        ("multinomial naive Bayes on counts", multinomial_nb_counts,
         (docs, labels3[:docs.shape[0]], 3), {}),
        ("Gauss-Seidel sweeps", gauss_seidel_sweeps, (A_dd, b_dd), {"n_sweeps": s(20, 3)}),
        ("SOR to a tolerance", sor_to_tolerance, (A_dd, b_dd), {"max_iter": s(500, 60)}),
        ("LU without pivoting and substitution", lu_no_pivot_solve, (A_dd, b_dd), {}),
        ("QR by modified Gram-Schmidt", mgs_qr, (rng.standard_normal((s(200, 8), s(60, 4))),), {}),
        ("power iteration, Rayleigh history", dominant_eig_power,
         (A_dd @ A_dd.T,), {"n_iter": s(100, 5)}),
        ("RK4 on damped pendulums", rk4_damped_pendulums,
         (rng.uniform(-1, 1, s(500, 6)), np.zeros(s(500, 6)), 0.3, 0.01, s(200, 4)), {}),
        ("velocity Verlet spring chain", verlet_spring_chain,
         (np.arange(s(400, 8), dtype=float) + 0.1 * rng.standard_normal(s(400, 8)),
          np.zeros(s(400, 8))), {"n_steps": s(200, 4)}),
        ("bisection roots of polynomials", bisect_roots,
         ([np.array([1.0, 0.0, -a]) for a in np.linspace(0.5, 3.5, s(20, 3))], 0.0, 2.0),
         {"tol": s(1e-10, 1e-3)}),
        ("composite Simpson on rows", simpson_composite,
         (np.sin(np.outer(np.arange(1, s(2000, 4)), xs)), 0.0, 1.0), {}),
        ("Dijkstra on a dense matrix", dijkstra_dense, (Wg,), {}),
        ("Prim MST on a dense matrix", prim_mst_dense, (Wfull,), {}),
        ("connected components by label propagation", label_propagation_components, (adj,), {}),
        ("degree histogram in a list", degree_list_histogram, (adj,), {}),
        ("Katz centrality iteration", katz_centrality, (adj,), {"n_iter": s(50, 5)}),
    ]
