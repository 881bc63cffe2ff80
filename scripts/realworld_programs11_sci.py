"""The eleventh corpus's scientific half (``realworld_programs11.py`` joins it, issues
#15/#19): clustering (k-means++ seeding, Lloyd iterations, a diagonal GMM's EM step,
DBSCAN by region queries), decompositions (PCA by SVD, NMF by multiplicative updates,
power iteration with deflation, a randomized SVD), graph algorithms on adjacency
matrices (PageRank with dangling nodes, BFS levels by matrix products, Floyd-Warshall,
triangles) and scientific kernels (Lennard-Jones forces, Crank-Nicolson heat steps by a
tridiagonal solve, SOR, a leapfrog wave equation, a spectral derivative, direct-sum
n-body, Mandelbrot escape counts, Gillespie's SSA, an age-structured SIR model, Kuramoto
oscillators), written before any ran under dynamo.

Example::

    >>> programs(small=True)[0][0]
    'k-means++ seeding'
"""

from __future__ import annotations

import numpy as np

# ---------------------------------------------------------------- clustering


def sq_dists(X, C):
    return (X ** 2).sum(1)[:, None] - 2 * X @ C.T + (C ** 2).sum(1)[None, :]


def kmeans_plusplus(X, k, seed=0):
    rng = np.random.default_rng(seed)
    n = X.shape[0]
    centers = np.empty((k, X.shape[1]))
    centers[0] = X[rng.integers(n)]
    closest = ((X - centers[0]) ** 2).sum(axis=1)
    for c in range(1, k):
        probs = closest / closest.sum()
        idx = np.searchsorted(np.cumsum(probs), rng.random())
        idx = min(idx, n - 1)
        centers[c] = X[idx]
        closest = np.minimum(closest, ((X - centers[c]) ** 2).sum(axis=1))
    return centers, closest.sum()


def kmeans_lloyd(X, centers, n_iter=10):
    k = len(centers)
    for _ in range(n_iter):
        labels = sq_dists(X, centers).argmin(axis=1)
        counts = np.bincount(labels, minlength=k)
        sums = np.zeros_like(centers)
        np.add.at(sums, labels, X)
        centers = np.where(counts[:, None] > 0, sums / np.maximum(counts, 1)[:, None], centers)
    inertia = sq_dists(X, centers).min(axis=1).sum()
    return centers, labels, inertia


def logsumexp(a, axis=None):
    m = a.max(axis=axis, keepdims=True)
    return (m + np.log(np.exp(a - m).sum(axis=axis, keepdims=True))).squeeze(axis)


def gmm_em_steps_diag(X, means, variances, weights, n_iter=5, reg=1e-6):
    n, d = X.shape
    for _ in range(n_iter):
        # E step
        log_prob = -0.5 * (np.log(2 * np.pi * variances).sum(axis=1)[None, :]
                           + (((X[:, None, :] - means[None]) ** 2) / variances[None]).sum(-1))
        log_resp = log_prob + np.log(weights)
        log_norm = logsumexp(log_resp, axis=1)
        resp = np.exp(log_resp - log_norm[:, None])
        # M step
        nk = resp.sum(axis=0) + 10 * np.finfo(float).eps
        means = resp.T @ X / nk[:, None]
        variances = (resp.T @ (X ** 2)) / nk[:, None] - means ** 2 + reg
        weights = nk / n
    return means, variances, weights, log_norm.mean()


def dbscan(X, eps=0.5, min_samples=5):
    n = len(X)
    D = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    neighborhoods = [np.flatnonzero(D[i] <= eps) for i in range(n)]
    core = np.array([len(nb) >= min_samples for nb in neighborhoods])
    labels = np.full(n, -1)
    cluster = 0
    for i in range(n):
        if labels[i] != -1 or not core[i]:
            continue
        stack = [i]
        labels[i] = cluster
        while stack:
            j = stack.pop()
            if not core[j]:
                continue
            for nb in neighborhoods[j]:
                if labels[nb] == -1:
                    labels[nb] = cluster
                    stack.append(nb)
        cluster += 1
    return labels, cluster


# ---------------------------------------------------------------- decompositions


class PCA:
    def __init__(self, n_components):
        self.n_components = n_components

    def fit(self, X):
        self.mean_ = X.mean(axis=0)
        U, S, Vt = np.linalg.svd(X - self.mean_, full_matrices=False)
        # svd_flip: largest |loading| of each component positive
        signs = np.sign(U[np.argmax(np.abs(U), axis=0), np.arange(U.shape[1])])
        Vt *= signs[:, None]
        self.components_ = Vt[:self.n_components]
        var = S ** 2 / (X.shape[0] - 1)
        self.explained_variance_ratio_ = var[:self.n_components] / var.sum()
        return self

    def transform(self, X):
        return (X - self.mean_) @ self.components_.T


def pca_by_svd(X, k=5):
    pca = PCA(k).fit(X)
    Z = pca.transform(X)
    recon = Z @ pca.components_ + pca.mean_
    return Z, pca.explained_variance_ratio_, np.linalg.norm(X - recon) / np.linalg.norm(X)


def nmf_lee_seung(V, rank=8, n_iter=50, seed=0):
    rng = np.random.default_rng(seed)
    n, m = V.shape
    avg = np.sqrt(V.mean() / rank)
    W = avg * rng.random((n, rank))
    H = avg * rng.random((rank, m))
    eps = 1e-10
    for _ in range(n_iter):
        H *= (W.T @ V) / (W.T @ W @ H + eps)
        W *= (V @ H.T) / (W @ (H @ H.T) + eps)
    return W, H, np.linalg.norm(V - W @ H, "fro")


def top_k_eigs_deflation(A, k=3, n_iter=100):
    A = A.copy()
    n = A.shape[0]
    vals, vecs = [], []
    for _ in range(k):
        v = np.ones(n) / np.sqrt(n)
        lam = 0.0
        for _ in range(n_iter):
            w = A @ v
            lam = v @ w
            v = w / np.linalg.norm(w)
        vals.append(lam)
        vecs.append(v)
        A -= lam * np.outer(v, v)
    return np.array(vals), np.column_stack(vecs)


def randomized_svd(M, k=10, n_oversample=10, n_power=2, seed=0):
    rng = np.random.default_rng(seed)
    Omega = rng.standard_normal((M.shape[1], k + n_oversample))
    Y = M @ Omega
    for _ in range(n_power):
        Y, _ = np.linalg.qr(Y)
        Y = M @ (M.T @ Y)
    Q, _ = np.linalg.qr(Y)
    B = Q.T @ M
    Ub, S, Vt = np.linalg.svd(B, full_matrices=False)
    return (Q @ Ub)[:, :k], S[:k], Vt[:k]


# ---------------------------------------------------------------- graphs


def pagerank_dangling(A, damping=0.85, n_iter=50):
    n = A.shape[0]
    out_deg = A.sum(axis=1)
    dangling = out_deg == 0
    P = np.divide(A, out_deg[:, None], out=np.zeros_like(A), where=out_deg[:, None] > 0)
    r = np.full(n, 1.0 / n)
    for _ in range(n_iter):
        r = damping * (r @ P + r[dangling].sum() / n) + (1 - damping) / n
    return r / r.sum()


def bfs_levels_by_matmul(A, source=0):
    n = A.shape[0]
    level = np.full(n, -1)
    level[source] = 0
    frontier = np.zeros(n)
    frontier[source] = 1.0
    for depth in range(1, n):
        reach = (frontier @ A) > 0
        new = reach & (level < 0)
        if not new.any():
            break
        level[new] = depth
        frontier = new.astype(float)
    return level


def floyd_warshall(W):
    D = W.copy()
    n = D.shape[0]
    for k in range(n):
        D = np.minimum(D, D[:, k:k + 1] + D[k:k + 1, :])
    return D


def triangles_and_clustering(A):
    A2 = A @ A
    tri = (A2 * A).sum(axis=1) / 2
    deg = A.sum(axis=1)
    possible = deg * (deg - 1) / 2
    cc = np.divide(tri, possible, out=np.zeros_like(tri), where=possible > 0)
    return tri.sum() / 3, cc.mean()


# ---------------------------------------------------------------- scientific kernels


def lennard_jones_forces(pos, box, eps=1.0, sigma=1.0, rc=2.5):
    d = pos[:, None, :] - pos[None, :, :]
    d -= box * np.round(d / box)          # minimum image
    r2 = (d ** 2).sum(-1)
    np.fill_diagonal(r2, np.inf)
    inside = r2 < rc * rc
    inv6 = np.where(inside, (sigma * sigma / r2) ** 3, 0.0)
    energy = 2.0 * eps * (inv6 * (inv6 - 1.0)).sum()
    fmag = np.where(inside, 24 * eps * (2 * inv6 ** 2 - inv6) / r2, 0.0)
    forces = (fmag[:, :, None] * d).sum(axis=1)
    return forces, energy


def solve_tridiag(a, b, c, d):
    n = len(d)
    cp, dp = np.empty(n), np.empty(n)
    cp[0], dp[0] = c[0] / b[0], d[0] / b[0]
    for i in range(1, n):
        m = b[i] - a[i] * cp[i - 1]
        cp[i] = c[i] / m if i < n - 1 else 0.0
        dp[i] = (d[i] - a[i] * dp[i - 1]) / m
    x = np.empty(n)
    x[-1] = dp[-1]
    for i in range(n - 2, -1, -1):
        x[i] = dp[i] - cp[i] * x[i + 1]
    return x


def crank_nicolson_heat(u0, alpha=1.0, dx=0.01, dt=1e-4, n_steps=10):
    n = len(u0)
    r = alpha * dt / (2 * dx * dx)
    a = np.full(n, -r)
    b = np.full(n, 1 + 2 * r)
    c = np.full(n, -r)
    a[0] = c[-1] = 0.0
    u = u0.copy()
    for _ in range(n_steps):
        rhs = (1 - 2 * r) * u
        rhs[1:] += r * u[:-1]
        rhs[:-1] += r * u[1:]
        u = solve_tridiag(a, b, c, rhs)
    return u


def sor_poisson(f, omega=1.8, n_sweeps=20, h=1.0):
    u = np.zeros_like(f)
    for _ in range(n_sweeps):
        for i in range(1, f.shape[0] - 1):
            gs = 0.25 * (u[i - 1, 1:-1] + u[i + 1, 1:-1] + u[i, :-2] + u[i, 2:]
                         - h * h * f[i, 1:-1])
            u[i, 1:-1] = (1 - omega) * u[i, 1:-1] + omega * gs
    res = f[1:-1, 1:-1] - (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
                           - 4 * u[1:-1, 1:-1]) / (h * h)
    return u, np.abs(res).max()


def wave_leapfrog_2d(u0, c=1.0, dx=0.01, n_steps=50):
    dt = 0.5 * dx / c
    C2 = (c * dt / dx) ** 2
    u_prev = u0.copy()
    u = u0.copy()
    for _ in range(n_steps):
        lap = (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4 * u[1:-1, 1:-1])
        u_next = np.zeros_like(u)
        u_next[1:-1, 1:-1] = 2 * u[1:-1, 1:-1] - u_prev[1:-1, 1:-1] + C2 * lap
        u_prev, u = u, u_next
    energy = 0.5 * ((u - u_prev) ** 2).sum() / dt ** 2
    return u, energy


def spectral_burgers(u, nu=0.05, dt=1e-3, n_steps=20, L=2 * np.pi):
    n = len(u)
    k = np.fft.rfftfreq(n, d=L / (2 * np.pi * n))
    dealias = k < (2.0 / 3.0) * k.max()
    for _ in range(n_steps):
        u_hat = np.fft.rfft(u)
        ux = np.fft.irfft(1j * k * u_hat * dealias, n)
        uxx = np.fft.irfft(-(k ** 2) * u_hat, n)
        u = u + dt * (-u * ux + nu * uxx)
    return u, np.fft.irfft(1j * k * np.fft.rfft(u), n)


def nbody_leapfrog(pos, vel, mass, dt=1e-3, n_steps=10, soft=1e-2):
    def accel(p):
        d = p[None, :, :] - p[:, None, :]
        inv3 = ((d ** 2).sum(-1) + soft ** 2) ** -1.5
        return (d * (inv3 * mass[None, :])[:, :, None]).sum(axis=1)
    a = accel(pos)
    for _ in range(n_steps):
        vel = vel + 0.5 * dt * a
        pos = pos + dt * vel
        a = accel(pos)
        vel = vel + 0.5 * dt * a
    kinetic = 0.5 * (mass * (vel ** 2).sum(1)).sum()
    return pos, vel, kinetic


def mandelbrot_counts(xmin, xmax, ymin, ymax, width, height, max_iter=50):
    x = np.linspace(xmin, xmax, width)
    y = np.linspace(ymin, ymax, height)
    c = x[None, :] + 1j * y[:, None]
    z = np.zeros_like(c)
    counts = np.zeros(c.shape, dtype=np.int32)
    alive = np.ones(c.shape, dtype=bool)
    for i in range(max_iter):
        z[alive] = z[alive] ** 2 + c[alive]
        escaped = alive & (np.abs(z) > 2.0)
        counts[escaped] = i
        alive &= ~escaped
    counts[alive] = max_iter
    return counts


def gillespie_birth_death(x0, k_birth=10.0, k_death=0.1, n_events=2000, seed=0):
    rng = np.random.default_rng(seed)
    t, x = 0.0, x0
    times = np.zeros(n_events + 1)
    states = np.zeros(n_events + 1, dtype=np.int64)
    states[0] = x
    for i in range(n_events):
        rates = np.array([k_birth, k_death * x])
        total = rates.sum()
        if total <= 0:
            times, states = times[:i + 1], states[:i + 1]
            break
        t += rng.exponential(1.0 / total)
        x += 1 if rng.random() * total < rates[0] else -1
        times[i + 1], states[i + 1] = t, x
    return times, states


def sir_age_structured(params, n_days=100, dt=0.1):
    C, beta, gamma = params["contact"], params["beta"], params["gamma"]
    N = params["population"]
    S, Inf, R = N - params["I0"], params["I0"].astype(float), np.zeros_like(N)
    history = []

    def deriv(S, Inf, R):
        force = beta * C @ (Inf / N)
        new_inf = force * S
        return -new_inf, new_inf - gamma * Inf, gamma * Inf
    steps_per_day = int(round(1 / dt))
    for _day in range(n_days):
        for _ in range(steps_per_day):
            k1 = deriv(S, Inf, R)
            k2 = deriv(*(v + 0.5 * dt * dv for v, dv in zip((S, Inf, R), k1)))
            S, Inf, R = (v + dt * dv for v, dv in zip((S, Inf, R), k2))
        history.append(Inf.sum())
    return np.array(history), S, R


def kuramoto_mean_field(theta, omega, K=1.5, dt=0.01, n_steps=100):
    n = len(theta)
    for _ in range(n_steps):
        coupling = np.sin(theta[None, :] - theta[:, None]).sum(axis=1)
        theta = theta + dt * (omega + K / n * coupling)
    order = np.abs(np.exp(1j * theta).mean())
    return np.mod(theta, 2 * np.pi), order


def programs(small: bool = False):
    """(name, fn, args, kwargs) of this file's programs."""
    rng = np.random.default_rng(1111)
    s = lambda big, little: little if small else big
    blobs = np.concatenate([rng.normal(c, 0.6, (s(500, 10), 2))
                            for c in ((0, 0), (4, 4), (0, 5), (5, 0))])
    Xh = rng.standard_normal((s(2000, 30), s(16, 3)))
    Xpca = rng.standard_normal((s(1000, 20), s(40, 6))) @ rng.standard_normal((s(40, 6), s(40, 6)))
    V = rng.random((s(200, 8), s(150, 6)))
    S = rng.standard_normal((s(200, 8), s(200, 8)))
    A_sym = S @ S.T
    adj = (rng.random((s(400, 10), s(400, 10))) < s(0.02, 0.3)).astype(float)
    adj_u = np.triu(adj, 1)
    adj_u = adj_u + adj_u.T
    Wd = np.where(adj > 0, rng.random(adj.shape) * 10, np.inf)
    np.fill_diagonal(Wd, 0.0)
    n_p = s(300, 8)
    grid = np.stack(np.meshgrid(np.arange(7), np.arange(7), np.arange(7)), -1).reshape(-1, 3)
    lj_pos = (grid[:n_p] * 1.12 + 0.05 * rng.standard_normal((n_p, 3)))
    xs = np.linspace(0, 1, s(200, 12))
    f_src = rng.standard_normal((s(64, 8), s(64, 8)))
    gx = np.linspace(-1, 1, s(200, 12))
    u_wave = np.exp(-40 * (gx[:, None] ** 2 + gx[None, :] ** 2))
    ub = np.sin(np.linspace(0, 2 * np.pi, s(1024, 32), endpoint=False))
    n_b = s(200, 6)
    sir = {"contact": rng.random((s(16, 3), s(16, 3))) * 2, "beta": 0.05, "gamma": 0.1,
           "population": rng.integers(1000, 5000, s(16, 3)).astype(float),
           "I0": np.r_[10, np.zeros(s(15, 2), dtype=int)]}
    adj_big = np.triu(rng.random((s(1500, 12), s(1500, 12))) < s(0.002, 0.15), 1).astype(float)
    adj_big = adj_big + adj_big.T
    return [
        ("k-means++ seeding", kmeans_plusplus, (blobs, s(16, 3)), {}),
        ("k-means Lloyd iterations, bincount updates", kmeans_lloyd,
         (blobs, blobs[:: max(1, len(blobs) // 4)][:4].copy()), {"n_iter": s(10, 3)}),
        ("GMM EM steps, diagonal covariances", gmm_em_steps_diag,
         (Xh, Xh[:4].copy(), np.ones((4, Xh.shape[1])), np.full(4, 0.25)),
         {"n_iter": s(5, 2)}),
        ("DBSCAN by region queries", dbscan, (blobs[:s(400, 40)],), {}),
        ("PCA by SVD with svd_flip", pca_by_svd, (Xpca,), {"k": s(5, 2)}),
        ("NMF multiplicative updates", nmf_lee_seung, (V,), {"n_iter": s(50, 4)}),
        ("top-k eigenpairs by power iteration and deflation", top_k_eigs_deflation,
         (A_sym,), {"n_iter": s(100, 6)}),
        ("randomized SVD with power steps", randomized_svd, (Xpca,), {"k": s(10, 2)}),
        ("PageRank with dangling nodes", pagerank_dangling, (adj,), {"n_iter": s(50, 5)}),
        ("BFS levels by matrix products", bfs_levels_by_matmul, (adj_big,), {}),
        ("Floyd-Warshall all pairs", floyd_warshall, (Wd[:s(200, 10), :s(200, 10)],), {}),
        ("triangles and clustering coefficient", triangles_and_clustering, (adj_u,), {}),
        ("Lennard-Jones forces, minimum image", lennard_jones_forces,
         (lj_pos, 7 * 1.12), {}),
        ("Crank-Nicolson heat by a tridiagonal solve", crank_nicolson_heat,
         (np.sin(np.pi * xs),), {"n_steps": s(10, 2)}),
        ("SOR sweeps on Poisson, row by row", sor_poisson, (f_src,), {"n_sweeps": s(20, 2)}),
        ("2-D wave equation, leapfrog", wave_leapfrog_2d, (u_wave,), {"n_steps": s(50, 3)}),
        ("spectral Burgers with dealiasing", spectral_burgers, (ub,), {"n_steps": s(20, 3)}),
        ("direct-sum n-body, leapfrog", nbody_leapfrog,
         (rng.standard_normal((n_b, 3)), np.zeros((n_b, 3)), rng.random(n_b)),
         {"n_steps": s(5, 2)}),
        ("Mandelbrot escape counts", mandelbrot_counts,
         (-2.0, 0.5, -1.25, 1.25, s(200, 16), s(150, 12)), {"max_iter": s(50, 8)}),
        ("Gillespie SSA, birth-death", gillespie_birth_death, (5,),
         {"n_events": s(2000, 30)}),
        ("age-structured SIR, RK2", sir_age_structured, (sir,),
         {"n_days": s(30, 2), "dt": s(0.1, 0.5)}),
        ("Kuramoto oscillators", kuramoto_mean_field,
         (rng.uniform(0, 2 * np.pi, s(150, 10)), rng.normal(0, 1, s(150, 10))),
         {"n_steps": s(50, 4)}),
    ]
