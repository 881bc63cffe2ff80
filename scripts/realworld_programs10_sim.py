"""The tenth corpus's second half (``realworld_programs10.py`` joins it, issue #15/#19):
numerical methods (adaptive RK45 with step control, Newton with a line search, conjugate
gradients with a stopping test, RK4 on a small system, tridiagonal solves), ML training
(mini-batch SGD epochs with shuffling, k-means with empty clusters, logistic regression
with early stopping, a tiny MLP step with its backward pass) and simulations (Game of
Life, Ising Metropolis, particle collisions), written before any ran under dynamo.

Example::

    >>> programs(small=True)[0][0]
    'adaptive RK45 (Dormand-Prince) on Van der Pol'
"""

from __future__ import annotations

import numpy as np

# ---------------------------------------------------------------- numerical methods

_DP_C = np.array([0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1, 1])
_DP_A = [[], [1 / 5], [3 / 40, 9 / 40], [44 / 45, -56 / 15, 32 / 9],
         [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729],
         [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656],
         [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84]]
_DP_B = np.array([35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0])
_DP_E = _DP_B - np.array([5179 / 57600, 0, 7571 / 16695, 393 / 640, -92097 / 339200,
                          187 / 2100, 1 / 40])


def van_der_pol(t, y, mu=2.0):
    return np.array([y[1], mu * (1 - y[0] ** 2) * y[1] - y[0]])


def rk45_adaptive(y0, t_end, rtol=1e-6, atol=1e-9, max_steps=2000):
    t, y, h = 0.0, y0.copy(), 0.01
    steps = rejected = 0
    while t < t_end and steps < max_steps:
        h = min(h, t_end - t)
        k = []
        for i in range(7):
            yi = y + h * sum(a * kj for a, kj in zip(_DP_A[i], k)) if i else y
            k.append(van_der_pol(t + _DP_C[i] * h, yi))
        K = np.array(k)
        y_new = y + h * (_DP_B @ K)
        err_vec = h * (_DP_E @ K)
        scale = atol + rtol * np.maximum(np.abs(y), np.abs(y_new))
        err = np.sqrt(np.mean((err_vec / scale) ** 2))
        if err <= 1.0:
            t += h
            y = y_new
            steps += 1
        else:
            rejected += 1
        h *= min(5.0, max(0.2, 0.9 * err ** -0.2)) if err > 0 else 5.0
    return t, y, steps, rejected


def newton_line_search(x0, tol=1e-10, max_iter=50):
    def F(x):
        return np.array([x[0] ** 2 + x[1] ** 2 - 4.0, np.exp(x[0]) + x[1] - 1.0])

    def J(x):
        return np.array([[2 * x[0], 2 * x[1]], [np.exp(x[0]), 1.0]])

    x = x0.astype(float)
    for it in range(max_iter):
        f = F(x)
        norm = np.linalg.norm(f)
        if norm < tol:
            return x, it
        dx = np.linalg.solve(J(x), -f)
        alpha = 1.0
        while np.linalg.norm(F(x + alpha * dx)) > (1 - 1e-4 * alpha) * norm and alpha > 1e-4:
            alpha *= 0.5
        x = x + alpha * dx
    return x, max_iter


def cg_relative_residual(A, b, tol=1e-8, max_iter=None):
    max_iter = max_iter or len(b)
    x = np.zeros_like(b)
    r = b - A @ x
    p = r.copy()
    rs = r @ r
    b_norm = np.linalg.norm(b)
    for i in range(max_iter):
        Ap = A @ p
        alpha = rs / (p @ Ap)
        x += alpha * p
        r -= alpha * Ap
        rs_new = r @ r
        if np.sqrt(rs_new) < tol * b_norm:
            return x, i + 1
        p = r + (rs_new / rs) * p
        rs = rs_new
    return x, max_iter


def lorenz_rk4(state, dt, steps, params):
    sigma, rho, beta = params["sigma"], params["rho"], params["beta"]

    def f(s):
        x, y, z = s
        return np.array([sigma * (y - x), x * (rho - z) - y, x * y - beta * z])

    traj = np.empty((steps + 1, 3))
    traj[0] = state
    for n in range(steps):
        k1 = f(state)
        k2 = f(state + 0.5 * dt * k1)
        k3 = f(state + 0.5 * dt * k2)
        k4 = f(state + dt * k3)
        state = state + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        traj[n + 1] = state
    return traj


def thomas_solve(a, b, c, d):
    n = len(d)
    cp = np.empty(n - 1)
    dp = np.empty(n)
    cp[0] = c[0] / b[0]
    dp[0] = d[0] / b[0]
    for i in range(1, n):
        m = b[i] - a[i - 1] * cp[i - 1]
        if i < n - 1:
            cp[i] = c[i] / m
        dp[i] = (d[i] - a[i - 1] * dp[i - 1]) / m
    x = np.empty(n)
    x[-1] = dp[-1]
    for i in range(n - 2, -1, -1):
        x[i] = dp[i] - cp[i] * x[i + 1]
    return x


def implicit_heat_steps(u, alpha, steps):
    n = len(u)
    a = np.full(n - 1, -alpha)
    b = np.full(n, 1 + 2 * alpha)
    for _ in range(steps):
        u = thomas_solve(a, b, a, u)
    return u


def jacobi_poisson(f, h, tol=1e-4, max_iter=500):
    u = np.zeros_like(f)
    for it in range(max_iter):  # noqa: B007  (returned: the iterations taken)
        new = u.copy()
        new[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
                                  + h * h * f[1:-1, 1:-1])
        diff = np.abs(new - u).max()
        u = new
        if diff < tol:
            break
    return u, it


def power_iteration_rayleigh(A, tol=1e-9, max_iter=500):
    v = np.ones(A.shape[0]) / np.sqrt(A.shape[0])
    lam = 0.0
    for it in range(max_iter):
        w = A @ v
        lam_new = v @ w
        v = w / np.linalg.norm(w)
        if abs(lam_new - lam) < tol * abs(lam_new):
            return lam_new, v, it
        lam = lam_new
    return lam, v, max_iter


# ---------------------------------------------------------------- ML


def minibatch_sgd(X, y, epochs=5, batch=32, lr=0.05, seed=0):
    rng = np.random.default_rng(seed)
    n, d = X.shape
    w, b = np.zeros(d), 0.0
    losses = []
    for _ in range(epochs):
        order = rng.permutation(n)
        for start in range(0, n, batch):
            idx = order[start:start + batch]
            err = X[idx] @ w + b - y[idx]
            w -= lr * X[idx].T @ err / len(idx)
            b -= lr * err.mean()
        losses.append(float(np.mean((X @ w + b - y) ** 2)))
    return w, b, losses


def kmeans_empty_clusters(X, k, iters=10, seed=0):
    rng = np.random.default_rng(seed)
    centers = X[rng.choice(len(X), k, replace=False)].copy()
    for _ in range(iters):
        d2 = ((X[:, None, :] - centers[None, :, :]) ** 2).sum(-1)
        labels = d2.argmin(1)
        for j in range(k):
            members = X[labels == j]
            if len(members) == 0:
                centers[j] = X[d2.min(1).argmax()]
            else:
                centers[j] = members.mean(0)
    return centers, labels


def logistic_early_stopping(X, y, Xv, yv, lr=0.5, max_epochs=200, patience=5):
    w = np.zeros(X.shape[1])
    best, best_w, bad = np.inf, w.copy(), 0
    for epoch in range(max_epochs):  # noqa: B007  (returned: where it stopped)
        p = 1 / (1 + np.exp(-(X @ w)))
        w -= lr * X.T @ (p - y) / len(y)
        pv = np.clip(1 / (1 + np.exp(-(Xv @ w))), 1e-12, 1 - 1e-12)
        loss = -np.mean(yv * np.log(pv) + (1 - yv) * np.log(1 - pv))
        if loss < best - 1e-6:
            best, best_w, bad = loss, w.copy(), 0
        else:
            bad += 1
            if bad >= patience:
                break
    return best_w, best, epoch


def mlp_train_step(params, X, Y, lr=0.1):
    W1, b1, W2, b2 = params["W1"], params["b1"], params["W2"], params["b2"]
    h = X @ W1 + b1
    a = np.maximum(h, 0)
    logits = a @ W2 + b2
    logits -= logits.max(1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(1, keepdims=True)
    loss = -np.log(p[np.arange(len(Y)), Y] + 1e-12).mean()
    g = p.copy()
    g[np.arange(len(Y)), Y] -= 1
    g /= len(Y)
    gW2, gb2 = a.T @ g, g.sum(0)
    ga = g @ W2.T
    ga[h <= 0] = 0
    gW1, gb1 = X.T @ ga, ga.sum(0)
    new = {"W1": W1 - lr * gW1, "b1": b1 - lr * gb1, "W2": W2 - lr * gW2, "b2": b2 - lr * gb2}
    return new, loss


def mlp_train(params, X, Y, steps):
    losses = []
    for _ in range(steps):
        params, loss = mlp_train_step(params, X, Y)
        losses.append(loss)
    return params, np.array(losses)


def softmax_regression_epochs(X, Y, k, epochs=20, lr=0.5, reg=1e-3):
    W = np.zeros((X.shape[1], k))
    onehot = np.eye(k)[Y]
    for _ in range(epochs):
        z = X @ W
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        p = e / e.sum(axis=1, keepdims=True)
        W -= lr * (X.T @ (p - onehot) / len(X) + reg * W)
    return W, (p.argmax(1) == Y).mean()


def knn_classify(Xtr, ytr, Xte, k=5):
    d = (Xte ** 2).sum(1)[:, None] - 2 * Xte @ Xtr.T + (Xtr ** 2).sum(1)[None, :]
    nn = np.argpartition(d, k, axis=1)[:, :k]
    votes = ytr[nn]
    n_classes = ytr.max() + 1
    counts = np.zeros((len(Xte), n_classes), dtype=int)
    for c in range(n_classes):
        counts[:, c] = (votes == c).sum(1)
    return counts.argmax(1)


# ---------------------------------------------------------------- simulations


def game_of_life(board, generations):
    for _ in range(generations):
        n = sum(np.roll(np.roll(board, i, 0), j, 1)
                for i in (-1, 0, 1) for j in (-1, 0, 1) if (i, j) != (0, 0))
        board = ((n == 3) | (board & (n == 2))).astype(board.dtype)
    return board


def ising_checkerboard_masks(spins, beta, sweeps, seed=0):
    rng = np.random.default_rng(seed)
    L = spins.shape[0]
    ii, jj = np.indices((L, L))
    masks = [(ii + jj) % 2 == 0, (ii + jj) % 2 == 1]
    for _ in range(sweeps):
        for m in masks:
            nb = (np.roll(spins, 1, 0) + np.roll(spins, -1, 0)
                  + np.roll(spins, 1, 1) + np.roll(spins, -1, 1))
            dE = 2 * spins * nb
            flip = m & (rng.random((L, L)) < np.exp(-beta * dE))
            spins = np.where(flip, -spins, spins)
    return spins, spins.mean()


def ising_metropolis_single(spins, beta, n_steps, seed=0):
    rng = np.random.default_rng(seed)
    L = spins.shape[0]
    spins = spins.copy()
    accepted = 0
    for _ in range(n_steps):
        i, j = rng.integers(0, L, 2)
        s = spins[i, j]
        nb = (spins[(i + 1) % L, j] + spins[i - 1, j]
              + spins[i, (j + 1) % L] + spins[i, j - 1])
        dE = 2 * s * nb
        if dE <= 0 or rng.random() < np.exp(-beta * dE):
            spins[i, j] = -s
            accepted += 1
    return spins, accepted


def particles_in_box(pos, vel, radius, dt, steps):
    pos, vel = pos.copy(), vel.copy()
    n = len(pos)
    iu = np.triu_indices(n, 1)
    for _ in range(steps):
        pos += vel * dt
        low, high = pos < radius, pos > 1 - radius
        vel[low | high] *= -1
        pos = np.clip(pos, radius, 1 - radius)
        diff = pos[:, None, :] - pos[None, :, :]
        dist = np.sqrt((diff ** 2).sum(-1))
        close = dist[iu] < 2 * radius
        for a, b in zip(iu[0][close], iu[1][close]):
            d = pos[a] - pos[b]
            dv = vel[a] - vel[b]
            proj = (dv @ d) / (d @ d)
            if proj < 0:
                vel[a] -= proj * d
                vel[b] += proj * d
    return pos, vel


def lotka_volterra_grid(prey, pred, dt, steps, p):
    for _ in range(steps):
        lap_prey = (np.roll(prey, 1, 0) + np.roll(prey, -1, 0) + np.roll(prey, 1, 1)
                    + np.roll(prey, -1, 1) - 4 * prey)
        growth = p["a"] * prey - p["b"] * prey * pred
        decline = p["c"] * prey * pred - p["d"] * pred
        prey = prey + dt * (growth + p["D"] * lap_prey)
        pred = pred + dt * decline
        np.maximum(prey, 0, out=prey)
        np.maximum(pred, 0, out=pred)
    return prey, pred


def forest_fire_automaton(grid, p_grow, p_fire, steps, seed=0):
    EMPTY, TREE, FIRE = 0, 1, 2
    rng = np.random.default_rng(seed)
    burned = []
    for _ in range(steps):
        fire = grid == FIRE
        near = np.zeros_like(fire)
        near[1:, :] |= fire[:-1, :]
        near[:-1, :] |= fire[1:, :]
        near[:, 1:] |= fire[:, :-1]
        near[:, :-1] |= fire[:, 1:]
        r = rng.random(grid.shape)
        new = grid.copy()
        new[fire] = EMPTY
        trees = grid == TREE
        new[trees & (near | (r < p_fire))] = FIRE
        new[(grid == EMPTY) & (r < p_grow)] = TREE
        burned.append(int(fire.sum()))
        grid = new
    return grid, burned


def programs(small: bool = False):
    """(name, fn, args, kwargs) of this half."""
    rng = np.random.default_rng(1010)
    s = lambda big, little: little if small else big
    n = s(400, 20)
    off = np.full(n - 1, -1.0)
    A = np.diag(np.full(n, 4.0)) + np.diag(off, 1) + np.diag(off, -1)
    X = rng.standard_normal((s(2000, 48), 10))
    y = X @ rng.standard_normal(10) + 0.1 * rng.standard_normal(len(X))
    yb = (y > 0).astype(float)
    Xc = np.concatenate([rng.normal(c, 0.5, (s(500, 15), 2)) for c in (-3, 0, 3)])
    labels = (X[:, 0] > 0).astype(int) + (X[:, 1] > 0)
    W = {"W1": rng.standard_normal((10, 32)) * 0.1, "b1": np.zeros(32),
         "W2": rng.standard_normal((32, 3)) * 0.1, "b2": np.zeros(3)}
    L = s(128, 12)
    spins = rng.choice(np.array([-1, 1]), (L, L))
    m = s(60, 8)
    return [
        ("adaptive RK45 (Dormand-Prince) on Van der Pol", rk45_adaptive,
         (np.array([2.0, 0.0]), s(10.0, 0.3)), {}),
        ("Newton with backtracking line search", newton_line_search, (np.array([1.0, -1.0]),), {}),
        ("conjugate gradients with a stopping test", cg_relative_residual, (A, np.ones(n)), {}),
        ("RK4 on the Lorenz system", lorenz_rk4,
         (np.array([1.0, 1.0, 1.0]), 0.01, s(1000, 10), {"sigma": 10.0, "rho": 28.0,
                                                          "beta": 8 / 3}), {}),
        ("implicit heat steps by Thomas solves", implicit_heat_steps,
         (np.sin(np.linspace(0, np.pi, s(300, 12))), 0.4, s(5, 2)), {}),
        ("Jacobi Poisson to a tolerance", jacobi_poisson,
         (np.ones((s(64, 10), s(64, 10))), 1.0 / s(64, 10)), {"max_iter": s(200, 6)}),
        ("power iteration to a tolerance", power_iteration_rayleigh, (A @ A.T + np.eye(n),),
         {"max_iter": s(500, 6)}),
        ("mini-batch SGD epochs with shuffling", minibatch_sgd, (X, y), {"epochs": s(5, 2)}),
        ("k-means with empty-cluster reseeding", kmeans_empty_clusters, (Xc, 4),
         {"iters": s(10, 3)}),
        ("logistic regression with early stopping", logistic_early_stopping,
         (X[: len(X) // 2], yb[: len(X) // 2], X[len(X) // 2:], yb[len(X) // 2:]),
         {"max_epochs": s(200, 8)}),
        ("tiny MLP training steps with backward", mlp_train, (W, X, labels, s(30, 3)), {}),
        ("softmax regression epochs", softmax_regression_epochs, (X, labels, 3),
         {"epochs": s(20, 3)}),
        ("k-nearest-neighbour vote", knn_classify,
         (X[: len(X) // 2], labels[: len(X) // 2], X[len(X) // 2:]), {}),
        ("Game of Life by np.roll", game_of_life,
         ((rng.random((s(128, 12), s(128, 12))) < 0.3).astype(np.uint8), s(20, 3)), {}),
        ("Ising checkerboard Metropolis", ising_checkerboard_masks, (spins, 0.44, s(10, 2)), {}),
        ("Ising single-spin Metropolis", ising_metropolis_single, (spins, 0.44, s(2000, 20)), {}),
        ("particle collisions in a box", particles_in_box,
         (rng.random((m, 2)) * 0.8 + 0.1, rng.normal(0, 0.5, (m, 2)), 0.02, 0.01, s(30, 3)), {}),
        ("Lotka-Volterra on a grid", lotka_volterra_grid,
         (rng.random((s(128, 12), s(128, 12))), rng.random((s(128, 12), s(128, 12))), 0.01,
          s(50, 3), {"a": 1.0, "b": 1.0, "c": 0.5, "d": 0.5, "D": 0.1}), {}),
        ("forest fire automaton", forest_fire_automaton,
         (rng.choice(np.array([0, 1, 2]), (s(128, 12), s(128, 12)), p=[0.5, 0.49, 0.01]),
          0.01, 0.0005, s(20, 3)), {}),
    ]
