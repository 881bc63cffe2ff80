"""The thirteenth corpus of scripts/bench_realworld.py, second half (see
``realworld_programs13.py``): graph algorithms on adjacency matrices (BFS with a deque,
Dijkstra with small arrays, Floyd-Warshall by broadcasting, PageRank with dangling
nodes, union-find, triangle counts), finance (Black-Scholes with a polynomial normal CDF,
an American binomial tree, implied volatility by Newton, a minimum-variance frontier),
physics (leapfrog n-body with softening, a 2-D heat equation with insulated edges, a
spring chain by velocity Verlet, Lennard-Jones with the minimum image) and ML
(logistic regression minibatch epochs, k-NN by ``argpartition``, PCA by power iteration
and deflation, k-means++ seeding, 1-D Gaussian mixture EM).

Example::

    >>> programs(small=True)[0][0]
    'BFS levels with a deque'
"""

from __future__ import annotations

import math
from collections import deque

import numpy as np

# ---------------------------------------------------------------- graph algorithms


def bfs_levels_deque(adj, source):
    """Breadth-first levels from ``source`` on a 0/1 adjacency matrix."""
    n = adj.shape[0]
    level = np.full(n, -1)
    level[source] = 0
    queue = deque([source])
    while queue:
        u = queue.popleft()
        for v in np.flatnonzero(adj[u]):
            if level[v] < 0:
                level[v] = level[u] + 1
                queue.append(v)
    return level


def dijkstra_argmin(W, source):
    """Dijkstra on a dense weight matrix (inf: no edge) with an unvisited mask."""
    n = W.shape[0]
    dist = np.full(n, np.inf)
    dist[source] = 0.0
    done = np.zeros(n, dtype=bool)
    for _ in range(n):
        u = np.argmin(np.where(done, np.inf, dist))
        if np.isinf(dist[u]):
            break
        done[u] = True
        dist = np.minimum(dist, dist[u] + W[u])
    return dist


def floyd_warshall_broadcast(W):
    """All-pairs shortest paths, one broadcast relaxation per intermediate vertex."""
    D = W.copy()
    for k in range(D.shape[0]):
        D = np.minimum(D, D[:, k:k + 1] + D[k:k + 1, :])
    return D


def pagerank_even_dangling(adj, d=0.85, tol=1e-10, max_iter=100):
    """PageRank by power iteration; dangling nodes spread their rank evenly."""
    n = adj.shape[0]
    out_deg = adj.sum(axis=1)
    dangling = out_deg == 0
    P = adj / np.where(dangling, 1.0, out_deg)[:, None]
    r = np.full(n, 1.0 / n)
    iterations = 0
    for _ in range(max_iter):
        r_new = d * (r @ P + r[dangling].sum() / n) + (1 - d) / n
        iterations += 1
        if np.abs(r_new - r).sum() < tol:
            r = r_new
            break
        r = r_new
    return r, iterations


def union_find_components(edges, n):
    """Connected components of an edge list by union-find with path halving."""
    parent = list(range(n))

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for a, b in edges:
        ra, rb = find(int(a)), find(int(b))
        if ra != rb:
            parent[ra] = rb
    roots = np.array([find(i) for i in range(n)])
    _, labels = np.unique(roots, return_inverse=True)
    return labels, labels.max() + 1


def triangle_counts(adj):
    """Triangles through every vertex and in total, and the clustering coefficients."""
    A2 = adj @ adj
    tri = (A2 * adj).sum(axis=1) / 2
    deg = adj.sum(axis=1)
    possible = deg * (deg - 1) / 2
    clustering = np.divide(tri, possible, out=np.zeros_like(tri), where=possible > 0)
    return tri, tri.sum() / 3, clustering.mean()


# ---------------------------------------------------------------- finance


def norm_cdf_poly(x):
    """Standard normal CDF, Abramowitz-Stegun 26.2.17 (error < 7.5e-8)."""
    t = 1.0 / (1.0 + 0.2316419 * np.abs(x))
    poly = t * (0.319381530 + t * (-0.356563782 + t * (1.781477937
                                                       + t * (-1.821255978 + t * 1.330274429))))
    pdf = np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)
    upper = 1.0 - pdf * poly
    return np.where(x >= 0, upper, 1.0 - upper)


def bs_call_put_delta_vega(S, K, T, r, sigma):
    """European call and put prices with delta and vega, vectorised over options."""
    sqrtT = np.sqrt(T)
    d1 = (np.log(S / K) + (r + 0.5 * sigma ** 2) * T) / (sigma * sqrtT)
    d2 = d1 - sigma * sqrtT
    disc = K * np.exp(-r * T)
    call = S * norm_cdf_poly(d1) - disc * norm_cdf_poly(d2)
    put = call - S + disc
    delta = norm_cdf_poly(d1)
    vega = S * np.exp(-0.5 * d1 ** 2) / math.sqrt(2 * math.pi) * sqrtT
    return call, put, delta, vega


def american_put_binomial(S, K, T, r, sigma, n):
    """Cox-Ross-Rubinstein tree for an American put, backward induction by slices."""
    dt = T / n
    u = math.exp(sigma * math.sqrt(dt))
    d = 1 / u
    p = (math.exp(r * dt) - d) / (u - d)
    disc = math.exp(-r * dt)
    j = np.arange(n + 1)
    prices = S * u ** (n - j) * d ** j
    values = np.maximum(K - prices, 0.0)
    for _ in range(n):
        prices = prices[:-1] * d
        values = disc * (p * values[:-1] + (1 - p) * values[1:])
        values = np.maximum(values, K - prices)
    return values[0]


def implied_vol_newton(price, S, K, T, r, n_iter=20):
    """Implied volatilities of call prices by vectorised Newton steps on vega."""
    sigma = np.full_like(price, 0.3)
    for _ in range(n_iter):
        call, _, _, vega = bs_call_put_delta_vega(S, K, T, r, sigma)
        sigma = sigma - (call - price) / np.maximum(vega, 1e-8)
        sigma = np.clip(sigma, 1e-4, 5.0)
    return sigma


def min_variance_frontier(returns, targets):
    """Minimum-variance portfolios for target returns from the KKT system."""
    mu = returns.mean(axis=0)
    cov = np.cov(returns, rowvar=False)
    n = len(mu)
    kkt = np.zeros((n + 2, n + 2))
    kkt[:n, :n] = 2 * cov
    kkt[:n, n] = kkt[n, :n] = mu
    kkt[:n, n + 1] = kkt[n + 1, :n] = 1.0
    risks, weights = [], []
    for target in targets:
        rhs = np.concatenate([np.zeros(n), [target, 1.0]])
        w = np.linalg.solve(kkt, rhs)[:n]
        weights.append(w)
        risks.append(np.sqrt(w @ cov @ w))
    return np.array(risks), np.array(weights)


# ---------------------------------------------------------------- physics


def nbody_leapfrog_softened(pos, vel, mass, dt, steps, eps=0.05):
    """Kick-drift-kick leapfrog for gravitating bodies with Plummer softening; energy."""
    pos, vel = pos.copy(), vel.copy()

    def accel(p):
        d = p[None, :, :] - p[:, None, :]
        inv = ((d ** 2).sum(-1) + eps ** 2) ** -1.5
        return (d * (inv * mass[None, :])[:, :, None]).sum(axis=1)

    a = accel(pos)
    for _ in range(steps):
        vel += 0.5 * dt * a
        pos += dt * vel
        a = accel(pos)
        vel += 0.5 * dt * a
    kinetic = 0.5 * (mass * (vel ** 2).sum(axis=1)).sum()
    return pos, vel, kinetic


def heat_2d_insulated(u, alpha, steps):
    """Explicit 2-D heat equation with zero-flux edges (edge padding every step)."""
    u = u.copy()
    for _ in range(steps):
        p = np.pad(u, 1, mode="edge")
        u = u + alpha * (p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:] - 4 * u)
    return u


def spring_chain_verlet(x, v, k, m, dt, steps):
    """A chain of masses on springs with fixed ends, velocity Verlet; energies."""
    x, v = x.copy(), v.copy()

    def force(x):
        ext = np.concatenate([[0.0], x, [0.0]])
        return k * (ext[2:] - 2 * ext[1:-1] + ext[:-2])

    f = force(x)
    energies = np.empty(steps)
    for i in range(steps):
        x += v * dt + 0.5 * f / m * dt ** 2
        f_new = force(x)
        v += 0.5 * (f + f_new) / m * dt
        f = f_new
        ext = np.concatenate([[0.0], x, [0.0]])
        energies[i] = 0.5 * m * (v ** 2).sum() + 0.5 * k * (np.diff(ext) ** 2).sum()
    return x, v, energies


def lennard_jones_periodic(pos, box, rc=2.5):
    """Lennard-Jones energy and forces with the minimum image and a cutoff."""
    d = pos[:, None, :] - pos[None, :, :]
    d -= box * np.round(d / box)
    r2 = (d ** 2).sum(-1)
    np.fill_diagonal(r2, np.inf)
    mask = r2 < rc * rc
    inv6 = np.where(mask, 1.0 / r2 ** 3, 0.0)
    energy = 2.0 * (inv6 * inv6 - inv6).sum()
    fmag = np.where(mask, 24.0 * (2 * inv6 * inv6 - inv6) / r2, 0.0)
    forces = (fmag[:, :, None] * d).sum(axis=1)
    return energy, forces


# ---------------------------------------------------------------- ML


def logreg_minibatch_epochs(X, y, epochs=5, batch=64, lr=0.1, l2=1e-3):
    """Logistic regression by minibatch SGD in a fixed order; loss after every epoch."""
    n, d = X.shape
    w = np.zeros(d)
    b = 0.0
    losses = []
    for _ in range(epochs):
        for start in range(0, n, batch):
            xb, yb = X[start:start + batch], y[start:start + batch]
            p = 1.0 / (1.0 + np.exp(-(xb @ w + b)))
            err = p - yb
            w -= lr * (xb.T @ err / len(yb) + l2 * w)
            b -= lr * err.mean()
        z = X @ w + b
        losses.append(np.mean(np.logaddexp(0.0, z) - y * z))
    return w, b, losses


def knn_argpartition(X_train, y_train, X_test, k=5):
    """k-NN classification: squared distances by expansion, argpartition, bincount vote."""
    d2 = ((X_test ** 2).sum(1)[:, None] - 2 * X_test @ X_train.T
          + (X_train ** 2).sum(1)[None, :])
    nearest = np.argpartition(d2, k, axis=1)[:, :k]
    votes = y_train[nearest]
    n_classes = y_train.max() + 1
    pred = np.empty(len(X_test), dtype=y_train.dtype)
    for i in range(len(X_test)):
        pred[i] = np.argmax(np.bincount(votes[i], minlength=n_classes))
    return pred


def principal_axes_by_deflation(X, n_components=3, n_iter=100):
    """Leading principal components by power iteration with deflation."""
    Xc = X - X.mean(axis=0)
    C = Xc.T @ Xc / (len(X) - 1)
    comps, variances = [], []
    v0 = np.linspace(1.0, 2.0, C.shape[0])
    for _ in range(n_components):
        v = v0 / np.linalg.norm(v0)
        for _ in range(n_iter):
            v = C @ v
            v /= np.linalg.norm(v)
        lam = v @ C @ v
        comps.append(v)
        variances.append(lam)
        C = C - lam * np.outer(v, v)
    return np.array(comps), np.array(variances)


def kmeans_plusplus_seeds(X, k, seed):
    """k-means++ seeding: each next centre drawn with probability D(x)^2."""
    rng = np.random.default_rng(seed)
    centres = [X[rng.integers(len(X))]]
    d2 = ((X - centres[0]) ** 2).sum(axis=1)
    for _ in range(1, k):
        idx = rng.choice(len(X), p=d2 / d2.sum())
        centres.append(X[idx])
        d2 = np.minimum(d2, ((X - X[idx]) ** 2).sum(axis=1))
    return np.array(centres)


def gmm_em_1d(x, mu, var, pi, n_iter=30):
    """EM for a 1-D Gaussian mixture: responsibilities, then weighted moments."""
    mu, var, pi = mu.copy(), var.copy(), pi.copy()
    for _ in range(n_iter):
        logp = (-0.5 * (x[:, None] - mu) ** 2 / var - 0.5 * np.log(2 * np.pi * var)
                + np.log(pi))
        logp -= logp.max(axis=1, keepdims=True)
        resp = np.exp(logp)
        resp /= resp.sum(axis=1, keepdims=True)
        nk = resp.sum(axis=0)
        mu = (resp * x[:, None]).sum(axis=0) / nk
        var = (resp * (x[:, None] - mu) ** 2).sum(axis=0) / nk + 1e-6
        pi = nk / len(x)
    return mu, var, pi


def programs(small: bool = False):
    """(name, fn, args, kwargs) of this file's programs."""
    rng = np.random.default_rng(1313)
    s = lambda big, little: little if small else big
    n_g = s(300, 12)
    adj = np.triu((rng.random((n_g, n_g)) < s(0.03, 0.3)).astype(float), 1)
    adj = adj + adj.T
    W = np.where(adj > 0, rng.random((n_g, n_g)) * 9 + 1, np.inf)
    W = np.minimum(W, W.T)
    np.fill_diagonal(W, 0.0)
    n_fw = s(150, 8)
    Wfw = W[:n_fw, :n_fw].copy()
    directed = (rng.random((s(500, 10), s(500, 10))) < s(0.01, 0.2)).astype(float)
    edges = rng.integers(0, s(5000, 20), (s(4000, 15), 2))
    n_opt = s(500000, 50)
    S = rng.uniform(50, 150, n_opt)
    K = rng.uniform(60, 140, n_opt)
    T = rng.uniform(0.1, 2.0, n_opt)
    n_iv = s(20000, 30)
    iv_true = rng.uniform(0.1, 0.6, n_iv)
    iv_price = bs_call_put_delta_vega(S[:n_iv], K[:n_iv], T[:n_iv], 0.02, iv_true)[0]
    rets = rng.standard_normal((s(1000, 40), s(30, 4))) * 0.01 + rng.uniform(0, 1e-3, s(30, 4))
    nb = s(64, 5)
    pos = rng.standard_normal((nb, 3))
    vel = 0.1 * rng.standard_normal((nb, 3))
    mass = rng.uniform(0.5, 1.5, nb)
    u0 = np.zeros((s(200, 10), s(200, 12)))
    u0[u0.shape[0] // 4:u0.shape[0] // 2, u0.shape[1] // 3:u0.shape[1] // 2] = 1.0
    xs = 0.1 * rng.standard_normal(s(1000, 10))
    n_lj = s(300, 8)
    box = 10.0 if not small else 4.0
    lj_pos = rng.uniform(0, box, (n_lj, 3))
    X = rng.standard_normal((s(5000, 100), s(20, 4)))
    y01 = (X @ np.linspace(-1, 1, X.shape[1]) + 0.5 * rng.standard_normal(len(X)) > 0)
    y01 = y01.astype(float)
    Xtr = rng.standard_normal((s(2000, 30), s(16, 3)))
    ytr = rng.integers(0, 4, len(Xtr))
    Xte = rng.standard_normal((s(300, 6), Xtr.shape[1]))
    Xp = rng.standard_normal((s(3000, 40), s(50, 6))) @ rng.standard_normal((s(50, 6),) * 2)
    x1d = np.concatenate([rng.normal(-2, 0.7, s(8000, 60)), rng.normal(1.5, 1.0, s(12000, 80))])
    return [
        ("BFS levels with a deque", bfs_levels_deque, (adj, 0), {}),
        ("Dijkstra with argmin over a mask", dijkstra_argmin, (W, 0), {}),
        ("Floyd-Warshall by broadcasting", floyd_warshall_broadcast, (Wfw,), {}),
        ("PageRank with dangling nodes", pagerank_even_dangling, (directed,), {}),
        ("union-find components of an edge list", union_find_components,
         (edges, s(5000, 20)), {}),
        ("triangle counts and clustering", triangle_counts, (adj,), {}),
        ("Black-Scholes prices and greeks", bs_call_put_delta_vega, (S, K, T, 0.02, 0.25), {}),
        ("American put on a binomial tree", american_put_binomial,
         (100.0, 100.0, 1.0, 0.05, 0.2, s(2000, 20)), {}),
        ("implied volatility by Newton", implied_vol_newton,
         (iv_price, S[:n_iv], K[:n_iv], T[:n_iv], 0.02), {"n_iter": s(20, 3)}),
        ("minimum-variance frontier by KKT solves", min_variance_frontier,
         (rets, np.linspace(2e-4, 8e-4, s(50, 3))), {}),
        ("leapfrog n-body with softening", nbody_leapfrog_softened,
         (pos, vel, mass, 0.01, s(50, 3)), {}),
        ("2-D heat equation, insulated edges", heat_2d_insulated, (u0, 0.2, s(100, 3)), {}),
        ("spring chain by velocity Verlet", spring_chain_verlet,
         (xs, np.zeros_like(xs), 1.0, 1.0, 0.05, s(300, 5)), {}),
        ("Lennard-Jones with minimum image", lennard_jones_periodic, (lj_pos, box), {}),
        ("logistic regression minibatch epochs", logreg_minibatch_epochs, (X, y01),
         {"epochs": s(5, 2), "batch": s(64, 32)}),
        ("k-NN by argpartition and bincount votes", knn_argpartition, (Xtr, ytr, Xte),
         {"k": s(7, 3)}),
        ("PCA by power iteration and deflation", principal_axes_by_deflation, (Xp,),
         {"n_iter": s(100, 5)}),
        ("k-means++ seeding", kmeans_plusplus_seeds, (Xtr, s(16, 3), 4), {}),
        ("1-D Gaussian mixture EM", gmm_em_1d,
         (x1d, np.array([-1.0, 1.0]), np.array([1.0, 1.0]), np.array([0.5, 0.5])),
         {"n_iter": s(20, 3)}),
    ]
