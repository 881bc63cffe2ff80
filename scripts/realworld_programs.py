"""The program corpus of scripts/bench_realworld.py, and how the scripts load modules
of tests/ (``load_module``: from their files, ``tests/`` never on ``sys.path``).

Programs of the shapes NumPy users write (time-stepping stencils, ODE integrators,
iterative solvers, small-matrix linear algebra in loops, training steps, simulations,
statistics, image filters, scalar recursions) plus programs of tests/realworld scaled
up (``realworld_modules``), each at a size where plain NumPy takes about a
millisecond or more per call. ``programs()`` lists them as (name, fn, args, kwargs);
bench_realworld.py times them, break_counts.py counts their graph breaks.

A sibling of the scripts that use it: ``import realworld_programs`` finds it because
a script's own folder is first on ``sys.path``.

Example::

    >>> name, fn, args, kwargs = programs()[0]
    >>> name
    'heat 1-D n=5000, 100 steps'
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------- modules of tests/

def load_module(name: str, path: Path):
    """The module at ``path`` (a file under tests/), imported without putting tests/ on
    ``sys.path`` and registered as ``name``: loaded once, and the corpora's own imports
    of each other by name (``from harness import check``, ``rw_check``) find it."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def realworld_modules():
    """The program modules of tests/realworld: (rw_numerics, rw_models, rw_training,
    rw_idioms); each has ``PROGRAMS``."""
    rw = ROOT / "tests" / "realworld"
    load_module("harness", ROOT / "tests" / "harness.py")
    # rw_check imports script_modules by name, as the tests do with tests/ on the path.
    load_module("script_modules", ROOT / "tests" / "script_modules.py")
    load_module("rw_check", rw / "rw_check.py")
    return (load_module("rw_numerics", rw / "rw_numerics.py"),
            load_module("rw_models", rw / "rw_models.py"),
            load_module("rw_training", rw / "rw_training.py"),
            load_module("rw_idioms", rw / "rw_idioms.py"))


# ---------------------------------------------------------------- stencils, time stepping

def heat_1d(u, r=0.25, steps=200):
    u = u.copy()
    for _ in range(steps):
        u[1:-1] = u[1:-1] + r * (u[2:] - 2 * u[1:-1] + u[:-2])
    return u


def heat_2d(u, alpha=0.2, steps=20):
    for _ in range(steps):
        un = u.copy()
        u[1:-1, 1:-1] = un[1:-1, 1:-1] + alpha * (
            un[2:, 1:-1] - 2 * un[1:-1, 1:-1] + un[:-2, 1:-1]
            + un[1:-1, 2:] - 2 * un[1:-1, 1:-1] + un[1:-1, :-2])
    return u


def heat_2d_short(u, alpha=0.2):
    for _ in range(4):
        un = u.copy()
        u[1:-1, 1:-1] = un[1:-1, 1:-1] + alpha * (
            un[2:, 1:-1] + un[:-2, 1:-1] + un[1:-1, 2:] + un[1:-1, :-2] - 4 * un[1:-1, 1:-1])
    return u


def wave_2d(u, c=0.3, steps=20):
    prev = u.copy()
    cur = u.copy()
    for _ in range(steps):
        nxt = np.zeros_like(cur)
        nxt[1:-1, 1:-1] = (2 * cur[1:-1, 1:-1] - prev[1:-1, 1:-1] + c ** 2 * (
            cur[2:, 1:-1] + cur[:-2, 1:-1] + cur[1:-1, 2:] + cur[1:-1, :-2]
            - 4 * cur[1:-1, 1:-1]))
        prev, cur = cur, nxt
    return cur


def upwind_1d(u, c=1.0, dt=0.001, dx=0.002, nt=100):
    for _ in range(nt):
        un = u.copy()
        u[1:] = un[1:] - c * dt / dx * (un[1:] - un[:-1])
    return u


def burgers_1d(u, nu=0.07, dt=1e-4, dx=0.01, nt=100):
    for _ in range(nt):
        un = u.copy()
        u[1:-1] = (un[1:-1] - un[1:-1] * dt / dx * (un[1:-1] - un[:-2])
                   + nu * dt / dx ** 2 * (un[2:] - 2 * un[1:-1] + un[:-2]))
        u[0] = un[0] - un[0] * dt / dx * (un[0] - un[-2]) + nu * dt / dx ** 2 * (
            un[1] - 2 * un[0] + un[-2])
        u[-1] = u[0]
    return u


def cavity_flow(u, v, p, nt=10, nit=20, dt=0.001, dx=0.05, dy=0.05, rho=1.0, nu=0.1):
    """CFD Python's step 11: lid-driven cavity (pressure Poisson inner iterations)."""
    b = np.zeros_like(p)
    for _ in range(nt):
        un = u.copy()
        vn = v.copy()
        b[1:-1, 1:-1] = (rho * (1 / dt * ((u[1:-1, 2:] - u[1:-1, 0:-2]) / (2 * dx)
                                          + (v[2:, 1:-1] - v[0:-2, 1:-1]) / (2 * dy))
                                - ((u[1:-1, 2:] - u[1:-1, 0:-2]) / (2 * dx)) ** 2
                                - 2 * ((u[2:, 1:-1] - u[0:-2, 1:-1]) / (2 * dy)
                                       * (v[1:-1, 2:] - v[1:-1, 0:-2]) / (2 * dx))
                                - ((v[2:, 1:-1] - v[0:-2, 1:-1]) / (2 * dy)) ** 2))
        for _ in range(nit):
            pn = p.copy()
            p[1:-1, 1:-1] = (((pn[1:-1, 2:] + pn[1:-1, 0:-2]) * dy ** 2
                              + (pn[2:, 1:-1] + pn[0:-2, 1:-1]) * dx ** 2)
                             / (2 * (dx ** 2 + dy ** 2))
                             - dx ** 2 * dy ** 2 / (2 * (dx ** 2 + dy ** 2)) * b[1:-1, 1:-1])
            p[:, -1] = p[:, -2]
            p[0, :] = p[1, :]
            p[:, 0] = p[:, 1]
            p[-1, :] = 0
        u[1:-1, 1:-1] = (un[1:-1, 1:-1]
                         - un[1:-1, 1:-1] * dt / dx * (un[1:-1, 1:-1] - un[1:-1, 0:-2])
                         - vn[1:-1, 1:-1] * dt / dy * (un[1:-1, 1:-1] - un[0:-2, 1:-1])
                         - dt / (2 * rho * dx) * (p[1:-1, 2:] - p[1:-1, 0:-2])
                         + nu * (dt / dx ** 2 * (un[1:-1, 2:] - 2 * un[1:-1, 1:-1]
                                                 + un[1:-1, 0:-2])
                                 + dt / dy ** 2 * (un[2:, 1:-1] - 2 * un[1:-1, 1:-1]
                                                   + un[0:-2, 1:-1])))
        v[1:-1, 1:-1] = (vn[1:-1, 1:-1]
                         - un[1:-1, 1:-1] * dt / dx * (vn[1:-1, 1:-1] - vn[1:-1, 0:-2])
                         - vn[1:-1, 1:-1] * dt / dy * (vn[1:-1, 1:-1] - vn[0:-2, 1:-1])
                         - dt / (2 * rho * dy) * (p[2:, 1:-1] - p[0:-2, 1:-1])
                         + nu * (dt / dx ** 2 * (vn[1:-1, 2:] - 2 * vn[1:-1, 1:-1]
                                                 + vn[1:-1, 0:-2])
                                 + dt / dy ** 2 * (vn[2:, 1:-1] - 2 * vn[1:-1, 1:-1]
                                                   + vn[0:-2, 1:-1])))
        u[0, :] = 0
        u[:, 0] = 0
        u[:, -1] = 0
        u[-1, :] = 1
        v[0, :] = 0
        v[-1, :] = 0
        v[:, 0] = 0
        v[:, -1] = 0
    return u, v, p


def jacobi_2d(A, B, steps=10):
    """The issue's 2-D Jacobi: two arrays, alternating."""
    for _ in range(steps):
        B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:]
                               + A[2:, 1:-1] + A[:-2, 1:-1])
        A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:]
                               + B[2:, 1:-1] + B[:-2, 1:-1])
    return A


def red_black_sor(u, f, h=0.01, omega=1.5, sweeps=10):
    """Red-black Gauss-Seidel with over-relaxation: stride-2 slices."""
    for _ in range(sweeps):
        for i0, j0 in ((1, 1), (2, 2), (1, 2), (2, 1)):
            c = u[i0:-1:2, j0:-1:2]
            new = 0.25 * (u[i0 - 1:-2:2, j0:-1:2] + u[i0 + 1::2, j0:-1:2][:c.shape[0]]
                          + u[i0:-1:2, j0 - 1:-2:2] + u[i0:-1:2, j0 + 1::2][:, :c.shape[1]]
                          - h * h * f[i0:-1:2, j0:-1:2])
            u[i0:-1:2, j0:-1:2] = c + omega * (new - c)
    return u


def laplace_converge(p, l1norm_target=1e-4, max_iter=200):
    """CFD Python's step 9: iterate until the relative change is small."""
    l1norm = 1.0
    it = 0
    while l1norm > l1norm_target and it < max_iter:
        pn = p.copy()
        p[1:-1, 1:-1] = 0.25 * (pn[1:-1, 2:] + pn[1:-1, :-2] + pn[2:, 1:-1] + pn[:-2, 1:-1])
        p[:, 0] = 0
        p[:, -1] = np.linspace(0, 1, p.shape[0])
        p[0, :] = p[1, :]
        p[-1, :] = p[-2, :]
        l1norm = np.sum(np.abs(p) - np.abs(pn)) / np.sum(np.abs(pn))
        it += 1
    return p, it


def advection_diffusion_roll(c, vx=0.5, vy=0.3, D=0.1, dt=0.1, steps=20):
    for _ in range(steps):
        lap = (np.roll(c, 1, 0) + np.roll(c, -1, 0) + np.roll(c, 1, 1)
               + np.roll(c, -1, 1) - 4 * c)
        adv = vx * (c - np.roll(c, 1, 1)) + vy * (c - np.roll(c, 1, 0))
        c = c + dt * (D * lap - adv)
    return c


# ---------------------------------------------------------------- ODE integrators

def logistic_euler(y, r=1.5, K=10.0, dt=0.01, steps=50):
    for _ in range(steps):
        y = y + dt * r * y * (1 - y / K)
    return y


def lorenz(state, sigma=10.0, rho=28.0, beta=8 / 3):
    x, y, z = state
    return np.array([sigma * (y - x), x * (rho - z) - y, x * y - beta * z])


def rk4_lorenz(state, dt=0.005, steps=20):
    for _ in range(steps):
        k1 = lorenz(state)
        k2 = lorenz(state + dt / 2 * k1)
        k3 = lorenz(state + dt / 2 * k2)
        k4 = lorenz(state + dt * k3)
        state = state + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return state


def oscillator_chain(x, v, k=1.0, dt=0.01, steps=50):
    """Velocity Verlet for a chain of coupled oscillators, forces from neighbours."""
    def force(x):
        f = np.zeros_like(x)
        f[1:-1] = k * (x[2:] - 2 * x[1:-1] + x[:-2])
        return f
    a = force(x)
    for _ in range(steps):
        x = x + v * dt + 0.5 * a * dt * dt
        a_new = force(x)
        v = v + 0.5 * (a + a_new) * dt
        a = a_new
    return x, v


def sir_model(beta=0.3, gamma=0.1, days=160.0, dt=0.1):
    """Euler on three Python floats; the history kept in an array."""
    n = int(days / dt)
    s, i, r = 0.99, 0.01, 0.0
    hist = np.empty((n, 3))
    for t in range(n):
        ds = -beta * s * i
        di = beta * s * i - gamma * i
        s, i, r = s + dt * ds, i + dt * di, r + dt * gamma * i
        hist[t] = s, i, r
    return hist


# ---------------------------------------------------------------- iterative solvers

def conjugate_gradient(A, b, iters=25):
    x = np.zeros_like(b)
    r = b - A @ x
    p = r.copy()
    rs = r @ r
    for _ in range(iters):
        Ap = A @ p
        alpha = rs / (p @ Ap)
        x = x + alpha * p
        r = r - alpha * Ap
        rs_new = r @ r
        p = r + (rs_new / rs) * p
        rs = rs_new
    return x


def cg_stencil(b, iters=30):
    """Matrix-free CG for the 2-D Laplacian (Dirichlet), the operator as slices."""
    def apply(u):
        out = 4 * u
        out[1:, :] -= u[:-1, :]
        out[:-1, :] -= u[1:, :]
        out[:, 1:] -= u[:, :-1]
        out[:, :-1] -= u[:, 1:]
        return out
    x = np.zeros_like(b)
    r = b.copy()
    p = r.copy()
    rs = np.sum(r * r)
    for _ in range(iters):
        Ap = apply(p)
        alpha = rs / np.sum(p * Ap)
        x += alpha * p
        r -= alpha * Ap
        rs_new = np.sum(r * r)
        p = r + rs_new / rs * p
        rs = rs_new
    return x


def power_iteration(A, iters=30):
    v = np.ones(A.shape[0]) / np.sqrt(A.shape[0])
    lam = 0.0
    for _ in range(iters):
        w = A @ v
        lam = v @ w
        v = w / np.linalg.norm(w)
    return lam, v


def kepler_newton(M, e=0.3, iters=8):
    """Solve Kepler's equation E - e sin E = M for many mean anomalies."""
    E = M.copy()
    for _ in range(iters):
        E = E - (E - e * np.sin(E) - M) / (1 - e * np.cos(E))
    return E


def newton_system(x0, iters=12):
    """Newton on a 3-equation system: a small Jacobian solved each step."""
    x = x0.copy()
    for _ in range(iters):
        F = np.array([x[0] ** 2 + x[1] ** 2 + x[2] ** 2 - 3.0,
                      x[0] * x[1] - x[2] - 0.5,
                      np.exp(x[0]) - x[1] - 1.0])
        J = np.array([[2 * x[0], 2 * x[1], 2 * x[2]],
                      [x[1], x[0], -1.0],
                      [np.exp(x[0]), -1.0, 0.0]])
        x = x - np.linalg.solve(J, F)
    return x


# ---------------------------------------------------------------- small-matrix linear algebra

def rotate_points(points, angle=0.01, steps=100):
    c, s = np.cos(angle), np.sin(angle)
    R = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    for _ in range(steps):
        points = R @ points
        points[2] += 0.001
    return points


def kalman_filter(zs, dt=0.1, q=1e-3, r=0.05):
    F = np.array([[1.0, dt], [0.0, 1.0]])
    H = np.array([[1.0, 0.0]])
    Q = q * np.eye(2)
    R = np.array([[r]])
    x = np.zeros(2)
    P = np.eye(2)
    out = np.empty(len(zs))
    for t in range(len(zs)):
        x = F @ x
        P = F @ P @ F.T + Q
        S = H @ P @ H.T + R
        K = P @ H.T @ np.linalg.inv(S)
        x = x + K @ (zs[t] - H @ x)
        P = (np.eye(2) - K @ H) @ P
        out[t] = x[0]
    return out


def gram_schmidt(A):
    n, m = A.shape
    Q = np.zeros((n, m))
    R = np.zeros((m, m))
    for j in range(m):
        v = A[:, j].copy()
        for i in range(j):
            R[i, j] = Q[:, i] @ A[:, j]
            v -= R[i, j] * Q[:, i]
        R[j, j] = np.linalg.norm(v)
        Q[:, j] = v / R[j, j]
    return Q, R


def cholesky_by_hand(A):
    n = A.shape[0]
    L = np.zeros_like(A)
    for j in range(n):
        L[j, j] = np.sqrt(A[j, j] - L[j, :j] @ L[j, :j])
        L[j + 1:, j] = (A[j + 1:, j] - L[j + 1:, :j] @ L[j, :j]) / L[j, j]
    return L


# ---------------------------------------------------------------- training steps

def logistic_regression_gd(X, y, lr=0.1, steps=30):
    w = np.zeros(X.shape[1])
    b = 0.0
    for _ in range(steps):
        z = X @ w + b
        p = 1 / (1 + np.exp(-z))
        grad_w = X.T @ (p - y) / len(y)
        grad_b = np.mean(p - y)
        w -= lr * grad_w
        b -= lr * grad_b
    return w, b


def _mlp_grads(X, Y, W1, b1, W2, b2):
    h = np.maximum(X @ W1 + b1, 0)
    logits = h @ W2 + b2
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    loss = -np.mean(np.log(p[np.arange(len(Y)), Y] + 1e-12))
    d = p.copy()
    d[np.arange(len(Y)), Y] -= 1
    d /= len(Y)
    dW2 = h.T @ d
    db2 = d.sum(axis=0)
    dh = d @ W2.T
    dh[h <= 0] = 0
    dW1 = X.T @ dh
    db1 = dh.sum(axis=0)
    return loss, dW1, db1, dW2, db2


def mlp_sgd(X, Y, W1, b1, W2, b2, lr=0.1, steps=10):
    losses = []
    for _ in range(steps):
        loss, dW1, db1, dW2, db2 = _mlp_grads(X, Y, W1, b1, W2, b2)
        W1 -= lr * dW1
        b1 -= lr * db1
        W2 -= lr * dW2
        b2 -= lr * db2
        losses.append(loss)
    return losses


def mlp_adam(X, Y, W1, b1, W2, b2, lr=1e-3, steps=5, beta1=0.9, beta2=0.999, eps=1e-8):
    params = [W1, b1, W2, b2]
    m = [np.zeros_like(q) for q in params]
    v = [np.zeros_like(q) for q in params]
    loss = 0.0
    for t in range(1, steps + 1):
        loss, *grads = _mlp_grads(X, Y, *params)
        for q, g, mq, vq in zip(params, grads, m, v):
            mq *= beta1
            mq += (1 - beta1) * g
            vq *= beta2
            vq += (1 - beta2) * g * g
            m_hat = mq / (1 - beta1 ** t)
            v_hat = vq / (1 - beta2 ** t)
            q -= lr * m_hat / (np.sqrt(v_hat) + eps)
    return loss


def softmax_xent(logits, labels):
    z = logits - logits.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    n = logits.shape[0]
    loss = -logp[np.arange(n), labels].mean()
    grad = np.exp(logp)
    grad[np.arange(n), labels] -= 1
    return loss, grad / n


def ridge_path(X, y, alphas=(0.01, 0.1, 1.0, 10.0, 100.0)):
    XtX = X.T @ X
    Xty = X.T @ y
    errs = []
    for a in alphas:
        w = np.linalg.solve(XtX + a * np.eye(X.shape[1]), Xty)
        errs.append(np.mean((X @ w - y) ** 2))
    return np.array(errs)


# ---------------------------------------------------------------- simulations

def nbody(pos, vel, mass, dt=0.01, steps=10, soft=0.1):
    for _ in range(steps):
        dx = pos[None, :, 0] - pos[:, None, 0]
        dy = pos[None, :, 1] - pos[:, None, 1]
        dz = pos[None, :, 2] - pos[:, None, 2]
        inv_r3 = (dx ** 2 + dy ** 2 + dz ** 2 + soft ** 2) ** -1.5
        ax = (dx * inv_r3) @ mass
        ay = (dy * inv_r3) @ mass
        az = (dz * inv_r3) @ mass
        vel += dt * np.stack([ax, ay, az], axis=1)
        pos += dt * vel
    return pos, vel


def ising_checkerboard(spins, beta=0.44, sweeps=10, seed=0):
    rng = np.random.default_rng(seed)
    n = spins.shape[0]
    ii, jj = np.indices((n, n))
    for _ in range(sweeps):
        for color in (0, 1):
            mask = (ii + jj) % 2 == color
            nb = (np.roll(spins, 1, 0) + np.roll(spins, -1, 0)
                  + np.roll(spins, 1, 1) + np.roll(spins, -1, 1))
            dE = 2 * spins * nb
            flip = (rng.random((n, n)) < np.exp(-beta * dE)) & mask
            spins = np.where(flip, -spins, spins)
    return spins, spins.mean()


def random_walks(n_walkers=2000, n_steps=200, seed=1):
    rng = np.random.default_rng(seed)
    steps = rng.standard_normal((n_walkers, n_steps))
    paths = np.cumsum(steps, axis=1)
    msd = (paths ** 2).mean(axis=0)
    max_dist = np.abs(paths).max(axis=1)
    return msd, max_dist.mean(), (paths[:, -1] > 0).mean()


def forest_fire(grid, p_grow=0.05, p_fire=1e-4, steps=20, seed=3):
    """A cellular automaton: 0 empty, 1 tree, 2 burning; neighbours by np.roll."""
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        burning = grid == 2
        near = (np.roll(burning, 1, 0) | np.roll(burning, -1, 0)
                | np.roll(burning, 1, 1) | np.roll(burning, -1, 1))
        r = rng.random(grid.shape)
        new = grid.copy()
        new[burning] = 0
        new[(grid == 1) & (near | (r < p_fire))] = 2
        new[(grid == 0) & (r < p_grow)] = 1
        grid = new
    return grid


# ---------------------------------------------------------------- statistics

def rolling_mean_std(x, window=50):
    c = np.cumsum(np.insert(x, 0, 0.0))
    c2 = np.cumsum(np.insert(x * x, 0, 0.0))
    mean = (c[window:] - c[:-window]) / window
    var = (c2[window:] - c2[:-window]) / window - mean ** 2
    return mean, np.sqrt(np.maximum(var, 0))


def standardize(X):
    mu = X.mean(axis=0)
    sd = X.std(axis=0)
    Z = (X - mu) / sd
    return Z, np.corrcoef(Z, rowvar=False)


def histogram_stats(x, bins=64):
    counts, edges = np.histogram(x, bins=bins)
    centers = 0.5 * (edges[1:] + edges[:-1])
    density = counts / counts.sum() / np.diff(edges)
    mean = np.sum(centers * density * np.diff(edges))
    return density, mean, np.percentile(x, [5, 50, 95])


def kmeans(X, C, iters=10):
    k = C.shape[0]
    for _ in range(iters):
        d2 = ((X[:, None, :] - C[None, :, :]) ** 2).sum(axis=2)
        labels = d2.argmin(axis=1)
        C = np.array([X[labels == j].mean(axis=0) for j in range(k)])
    return C, labels


def pca_svd(X, k=5):
    Xc = X - X.mean(axis=0)
    U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    explained = S ** 2 / np.sum(S ** 2)
    return Xc @ Vt[:k].T, explained[:k]


def ewma_rows(x, alpha=0.1):
    out = np.empty_like(x)
    out[0] = x[0]
    for t in range(1, len(x)):
        out[t] = alpha * x[t] + (1 - alpha) * out[t - 1]
    return out


# ---------------------------------------------------------------- images

def conv3x3(img, k):
    out = np.zeros_like(img[1:-1, 1:-1])
    h, w = img.shape
    for i in range(3):
        for j in range(3):
            out += k[i, j] * img[i:h - 2 + i, j:w - 2 + j]
    return out


def sobel_magnitude(img):
    gx = (img[:-2, 2:] + 2 * img[1:-1, 2:] + img[2:, 2:]
          - img[:-2, :-2] - 2 * img[1:-1, :-2] - img[2:, :-2])
    gy = (img[2:, :-2] + 2 * img[2:, 1:-1] + img[2:, 2:]
          - img[:-2, :-2] - 2 * img[:-2, 1:-1] - img[:-2, 2:])
    mag = np.sqrt(gx ** 2 + gy ** 2)
    return mag / mag.max(), np.arctan2(gy, gx)


def normalize_contrast(img):
    lo, hi = np.percentile(img, [2, 98])
    out = np.clip((img - lo) / (hi - lo), 0, 1)
    gy, gx = np.gradient(out)
    return out, np.hypot(gx, gy).mean()


def box_blur_iterated(img, passes=5):
    for _ in range(passes):
        p = np.pad(img, 1, mode="edge")
        img = (p[:-2, :-2] + p[:-2, 1:-1] + p[:-2, 2:] + p[1:-1, :-2] + p[1:-1, 1:-1]
               + p[1:-1, 2:] + p[2:, :-2] + p[2:, 1:-1] + p[2:, 2:]) / 9.0
    return img


# ---------------------------------------------------------------- scalar recursions

def levinson_durbin(r, order):
    a = np.zeros(order + 1)
    a[0] = 1.0
    e = r[0]
    for k in range(1, order + 1):
        acc = r[k] + np.dot(a[1:k], r[k - 1:0:-1])
        lam = -acc / e
        a[1:k + 1] = a[1:k + 1] + lam * a[k - 1::-1][:k]
        e *= 1.0 - lam * lam
    return a, e


def scalar_recursion(r):
    alpha, beta = -r[0], 1.0
    for k in range(1, r.shape[0]):
        beta *= 1.0 - alpha * alpha
        alpha = -(r[k] + alpha) / beta
    return alpha


def horner_poly(coeffs, x):
    y = np.zeros_like(x)
    for c in coeffs:
        y = y * x + c
    return y


def bisection_roots(lo, hi, iters=30):
    """Vectorized bisection for x^3 - x - c = 0 over many c."""
    c = np.linspace(0.5, 5.0, lo.shape[0])
    for _ in range(iters):
        mid = 0.5 * (lo + hi)
        f = mid ** 3 - mid - c
        left = f > 0
        hi = np.where(left, mid, hi)
        lo = np.where(left, lo, mid)
    return 0.5 * (lo + hi)


# ---------------------------------------------------------------- more kinds (2026-12-02)

def heat_neumann(u, alpha=0.2, steps=40):
    """2-D heat equation with zero-flux (Neumann) borders: ghost edges copied each step."""
    for _ in range(steps):
        u[0, :] = u[1, :]
        u[-1, :] = u[-2, :]
        u[:, 0] = u[:, 1]
        u[:, -1] = u[:, -2]
        u[1:-1, 1:-1] = u[1:-1, 1:-1] + alpha * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:]
                                                 + u[1:-1, :-2] - 4 * u[1:-1, 1:-1])
    return u


def backtracking_line_search(x, A, b, iters=20, alpha0=1.0, rho=0.5, c=1e-4):
    """Gradient descent on a quadratic with an Armijo backtracking line search."""
    def f(z):
        return 0.5 * z @ (A @ z) - b @ z
    for _ in range(iters):
        g = A @ x - b
        t = alpha0
        fx = f(x)
        gg = g @ g
        while f(x - t * g) > fx - c * t * gg:
            t = rho * t
        x = x - t * g
    return x


def sinkhorn(a, b, C, eps=0.05, iters=50):
    """Entropic optimal transport: alternate scalings of the Gibbs kernel."""
    K = np.exp(-C / eps)
    u = np.ones_like(a)
    v = np.ones_like(b)
    for _ in range(iters):
        u = a / (K @ v)
        v = b / (K.T @ u)
    P = u[:, None] * K * v[None, :]
    return P, np.sum(P * C)


def lennard_jones(pos, box=10.0, rc=2.5, steps=5, dt=1e-4):
    """Pairwise Lennard-Jones forces with a cutoff mask and minimum-image distances."""
    n = pos.shape[0]
    vel = np.zeros_like(pos)
    for _ in range(steps):
        d = pos[:, None, :] - pos[None, :, :]
        d = d - box * np.round(d / box)
        r2 = np.sum(d * d, axis=-1) + np.eye(n)
        inside = (r2 < rc * rc) & ~np.eye(n, dtype=bool)
        inv6 = np.where(inside, 1.0 / r2 ** 3, 0.0)
        fmag = np.where(inside, 24.0 * (2.0 * inv6 * inv6 - inv6) / r2, 0.0)
        forces = np.sum(fmag[:, :, None] * d, axis=1)
        vel = vel + dt * forces
        pos = pos + dt * vel
    return pos, vel


def softmax_xent_training(X, y, W, b, lr=0.5, steps=20):
    """Multinomial logistic regression: softmax cross-entropy loss, gradient, update."""
    n = X.shape[0]
    onehot = np.eye(W.shape[1])[y]
    losses = []
    for _ in range(steps):
        z = X @ W + b
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        p = e / e.sum(axis=1, keepdims=True)
        losses.append(-np.mean(np.log(p[np.arange(n), y] + 1e-12)))
        g = (p - onehot) / n
        W = W - lr * (X.T @ g)
        b = b - lr * g.sum(axis=0)
    return W, b, losses


def viterbi(log_A, log_B, log_pi, obs):
    """HMM decoding in log space: a max-plus recursion, then the path traced back."""
    T, S = len(obs), log_A.shape[0]
    delta = log_pi + log_B[:, obs[0]]
    back = np.zeros((T, S), dtype=np.int64)
    for t in range(1, T):
        scores = delta[:, None] + log_A
        back[t] = np.argmax(scores, axis=0)
        delta = np.max(scores, axis=0) + log_B[:, obs[t]]
    path = np.zeros(T, dtype=np.int64)
    path[-1] = np.argmax(delta)
    for t in range(T - 1, 0, -1):
        path[t - 1] = back[t, path[t]]
    return path, np.max(delta)


def gbm_paths(z, s0=100.0, mu=0.05, sigma=0.2, dt=1 / 252, strike=105.0):
    """Monte Carlo option price over geometric Brownian motion paths (normals given)."""
    s = np.full(z.shape[1], s0)
    running_max = s.copy()
    drift = (mu - 0.5 * sigma ** 2) * dt
    vol = sigma * np.sqrt(dt)
    for k in range(z.shape[0]):
        s = s * np.exp(drift + vol * z[k])
        running_max = np.maximum(running_max, s)
    payoff = np.maximum(s - strike, 0.0)
    lookback = running_max - s
    return np.exp(-mu * z.shape[0] * dt) * payoff.mean(), lookback.mean()


def tv_denoise(img, lam=0.1, tau=0.125, iters=20):
    """Total-variation denoising (Chambolle's projection) with forward differences."""
    px = np.zeros_like(img)
    py = np.zeros_like(img)
    for _ in range(iters):
        div = px - np.roll(px, 1, axis=1) + py - np.roll(py, 1, axis=0)
        u = img + lam * div
        gx = np.roll(u, -1, axis=1) - u
        gy = np.roll(u, -1, axis=0) - u
        norm = 1.0 + tau / lam * np.sqrt(gx * gx + gy * gy)
        px = (px - tau / lam * gx) / norm
        py = (py - tau / lam * gy) / norm
    return img + lam * (px - np.roll(px, 1, axis=1) + py - np.roll(py, 1, axis=0))


def lif_neurons(current, v_th=1.0, v_reset=0.0, tau=20.0, dt=0.5, steps=100):
    """Leaky integrate-and-fire neurons: leak, input, spikes where the threshold is hit."""
    v = np.zeros_like(current)
    count = np.zeros(current.shape, dtype=np.int64)
    for _ in range(steps):
        v = v + dt / tau * (current - v)
        spiked = v >= v_th
        count = count + spiked
        v = np.where(spiked, v_reset, v)
    return v, count


def shallow_water_1d(h, hu, g=9.81, dx=0.1, dt=0.005, steps=50):
    """1-D shallow water equations, Lax-Friedrichs fluxes, reflecting ends."""
    for _ in range(steps):
        u = hu / h
        f1 = hu
        f2 = hu * u + 0.5 * g * h * h
        h_new = h.copy()
        hu_new = hu.copy()
        h_new[1:-1] = 0.5 * (h[2:] + h[:-2]) - dt / (2 * dx) * (f1[2:] - f1[:-2])
        hu_new[1:-1] = 0.5 * (hu[2:] + hu[:-2]) - dt / (2 * dx) * (f2[2:] - f2[:-2])
        h_new[0], h_new[-1] = h_new[1], h_new[-2]
        hu_new[0], hu_new[-1] = -hu_new[1], -hu_new[-2]
        h, hu = h_new, hu_new
    return h, hu


def pagerank(adj, d=0.85, iters=40):
    """PageRank by power iteration: column-stochastic links, dangling pages spread."""
    n = adj.shape[0]
    out_deg = adj.sum(axis=0)
    dangling = out_deg == 0
    M = adj / np.where(dangling, 1.0, out_deg)
    r = np.full(n, 1.0 / n)
    for _ in range(iters):
        r = d * (M @ r + r[dangling].sum() / n) + (1 - d) / n
    return r / r.sum()


# ---------------------------------------------------------------- the programs

def programs():
    """(name, fn, args, kwargs): args are copied before every call."""
    rng = np.random.default_rng(0)
    num, mod, trn, idi = realworld_modules()

    def r(*shape):
        return rng.random(shape)

    def normal(*shape):
        return rng.standard_normal(shape)

    spd = normal(300, 300)
    spd = spd @ spd.T + 300 * np.eye(300)
    sym = normal(400, 400)
    sym = sym + sym.T
    chol = normal(120, 120)
    chol = chol @ chol.T + 120 * np.eye(120)
    Xlr = normal(4000, 20)
    ylr = (Xlr @ normal(20) > 0).astype(float)
    Xm, Ym = normal(128, 64), rng.integers(0, 10, 128)
    mlp_w = (0.1 * normal(64, 128), np.zeros(128), 0.1 * normal(128, 10), np.zeros(10))
    pts = np.concatenate([normal(250, 2) + 5 * i for i in range(8)])
    ac = np.exp(-0.05 * np.arange(128)) + 0.01
    cavity = (np.zeros((41, 41)), np.zeros((41, 41)), np.zeros((41, 41)))
    laplace0 = np.zeros((64, 64))
    laplace0[:, -1] = np.linspace(0, 1, 64)
    fire0 = (rng.random((100, 100)) < 0.5).astype(np.int64)
    fire0[50, 50] = 2
    km_x, km_c = trn._km_args(0, 1000, 4, 8)
    x32 = r(5000, 64).astype(np.float32)
    ls_A = normal(200, 200)
    ls_A = ls_A @ ls_A.T / 200 + np.eye(200)
    ot_x = np.sort(r(200))
    ot_C = (ot_x[:, None] - ot_x[None, :]) ** 2
    ot_a = np.full(200, 1 / 200)
    ot_b = r(200) + 0.5
    ot_b /= ot_b.sum()
    lj_pos = np.stack(np.meshgrid(*[np.arange(5.0) * 2.0] * 3), -1).reshape(-1, 3)[:120]
    lj_pos = lj_pos + 0.05 * normal(120, 3)
    xe_X, xe_y = normal(1000, 20), rng.integers(0, 10, 1000)
    hmm_A = r(16, 16) + 0.1
    hmm_A /= hmm_A.sum(axis=1, keepdims=True)
    hmm_B = r(16, 8) + 0.1
    hmm_B /= hmm_B.sum(axis=1, keepdims=True)
    hmm = (np.log(hmm_A), np.log(hmm_B), np.log(np.full(16, 1 / 16)), rng.integers(0, 8, 300))
    sw_x = np.linspace(0, 1, 5000)
    sw_h = 1.0 + 0.1 * np.exp(-((sw_x - 0.5) / 0.05) ** 2)
    links = (r(300, 300) < 0.03).astype(float)
    links[:, :5] = 0.0      # pages without links out
    km_x64, km_c64 = km_x.astype(np.float64), km_c.astype(np.float64)
    return [
        # stencils and time steppers
        ("heat 1-D n=5000, 100 steps", heat_1d, (r(5000),), {"steps": 100}),
        ("heat 2-D 128x128, 20 steps (un = u.copy())", heat_2d, (r(128, 128),), {}),
        ("heat 2-D 200x200, 4 steps (short loop)", heat_2d_short, (r(200, 200),), {}),
        ("wave 2-D 128x128, 20 steps", wave_2d, (r(128, 128),), {}),
        ("upwind 1-D n=10000, 100 steps", upwind_1d, (r(10000),), {}),
        ("Burgers 1-D n=5000, 100 steps", burgers_1d, (r(5000) + 1,), {}),
        ("cavity flow 41x41, nt=5, nit=20", cavity_flow, cavity, {"nt": 5}),
        ("Jacobi 2-D 200x200, 10 steps", jacobi_2d, (r(200, 200), r(200, 200)), {}),
        ("red-black SOR 200x200, 10 sweeps", red_black_sor, (r(200, 200), r(200, 200)), {}),
        ("Laplace while-loop to tolerance 64x64", laplace_converge, (laplace0,), {"max_iter": 60}),
        ("advection-diffusion np.roll 128x128", advection_diffusion_roll, (r(128, 128),), {}),
        # ODE integrators
        ("logistic Euler n=20000, 50 steps", logistic_euler, (r(20_000),), {}),
        ("RK4 Lorenz 3x5000, 20 steps", rk4_lorenz, (normal(3, 5000),), {}),
        ("Verlet oscillator chain n=5000, 50 steps", oscillator_chain, (normal(5000), r(5000)), {}),
        ("SIR Euler on floats, 1600 steps", sir_model, (), {}),
        # iterative solvers
        ("CG dense 300x300, 25 iters", conjugate_gradient, (spd, normal(300)), {}),
        ("CG matrix-free stencil 100x100, 30 iters", cg_stencil, (normal(100, 100),), {}),
        ("power iteration 400x400", power_iteration, (sym,), {}),
        ("Newton Kepler n=10000, 8 iters", kepler_newton, (6 * r(10_000),), {}),
        ("Newton 3x3 system, 60 iters", newton_system, (np.array([1.0, 1.0, 1.0]),), {"iters": 60}),
        ("bisection n=5000, 30 iters", bisection_roots, (np.zeros(5000), 3 * np.ones(5000)),
         {}),
        # small-matrix linear algebra in loops
        ("rotate 3x5000 points, 100 steps", rotate_points, (normal(3, 5000),), {}),
        ("Kalman filter 2x2, 100 steps", kalman_filter, (np.cumsum(normal(100)),), {}),
        ("Gram-Schmidt 200x30", gram_schmidt, (normal(200, 30),), {}),
        ("Cholesky by hand 120x120", cholesky_by_hand, (chol,), {}),
        # training steps
        ("logistic regression GD 4000x20, 30 steps", logistic_regression_gd, (Xlr, ylr), {}),
        ("MLP 64-128-10 SGD, 10 steps, batch 128", mlp_sgd, (Xm, Ym, *mlp_w), {}),
        ("MLP 64-128-10 Adam, 5 steps, batch 128", mlp_adam, (Xm, Ym, *mlp_w), {}),
        ("softmax cross-entropy 1000x100", softmax_xent,
         (normal(1000, 100), rng.integers(0, 100, 1000)), {}),
        ("ridge path 2000x50, 5 alphas", ridge_path, (normal(2000, 50), normal(2000)), {}),
        # simulations
        ("n-body N=100, 10 steps", nbody, (normal(100, 3), np.zeros((100, 3)), r(100)), {}),
        ("Ising checkerboard 64x64, 10 sweeps", ising_checkerboard,
         (np.where(r(64, 64) < 0.5, -1, 1),), {}),
        ("random walks 500x200 (Generator)", random_walks, (), {"n_walkers": 500}),
        ("forest fire 100x100, 20 steps", forest_fire, (fire0,), {}),
        # statistics
        ("rolling mean/std n=50000", rolling_mean_std, (normal(50_000),), {}),
        ("standardize + corrcoef 5000x30", standardize, (normal(5000, 30),), {}),
        ("histogram + percentiles n=50000", histogram_stats, (normal(50_000),), {}),
        ("k-means 2000x2, k=8, 10 iters", kmeans, (pts, pts[::250].copy()), {}),
        ("PCA via SVD 2000x50", pca_svd, (normal(2000, 50),), {}),
        ("EWMA over rows 2000x16", ewma_rows, (normal(2000, 16),), {}),
        # images
        ("3x3 convolution via slices 256x256", conv3x3,
         (r(256, 256), np.array([[1, 2, 1], [2, 4, 2], [1, 2, 1]]) / 16.0), {}),
        ("Sobel magnitude + angle 256x256", sobel_magnitude, (r(256, 256),), {}),
        ("contrast normalize + np.gradient 256x256", normalize_contrast, (r(256, 256),), {}),
        ("box blur 5 passes np.pad 256x256", box_blur_iterated, (r(256, 256),), {}),
        # scalar recursions
        ("Levinson-Durbin order 120", levinson_durbin, (ac, 120), {}),
        ("scalar recursion n=1500", scalar_recursion, (0.01 * r(1500),), {}),
        ("Horner degree 20, n=1e5", horner_poly, (list(normal(21)), r(100_000)), {}),
        # more kinds (2026-12-02)
        ("heat 2-D Neumann borders 128x128, 40 steps", heat_neumann, (r(128, 128),), {}),
        ("backtracking line search 200x200, 20 iters", backtracking_line_search,
         (np.zeros(200), ls_A, normal(200)), {}),
        ("Sinkhorn 200x200, 50 iters", sinkhorn, (ot_a, ot_b, ot_C), {}),
        ("Lennard-Jones masks N=120, 5 steps", lennard_jones, (lj_pos,), {}),
        ("softmax cross-entropy training 1000x20, 20 steps", softmax_xent_training,
         (xe_X, xe_y, np.zeros((20, 10)), np.zeros(10)), {}),
        ("Viterbi 16 states, T=300", viterbi, hmm, {}),
        ("GBM Monte Carlo 100 steps x 2000 paths", gbm_paths, (normal(100, 2000),), {}),
        ("TV denoise (Chambolle) 128x128, 20 iters", tv_denoise, (r(128, 128),), {}),
        ("LIF neurons n=5000, 100 steps", lif_neurons, (2 * r(5000),), {}),
        ("shallow water 1-D n=5000, 50 steps", shallow_water_1d, (sw_h, np.zeros(5000)), {}),
        ("PageRank 300 pages, 40 iters", pagerank, (links,), {}),
        # tests/realworld programs, scaled up
        ("rw heat_equation 200x200, 20 steps", num.heat_equation, (r(200, 200),),
         {"steps": 20}),
        ("rw jacobi_roll 150x150, 20 iters", num.jacobi_roll, (r(150, 150),), {"iters": 20}),
        ("rw wave_1d n=20000, 50 steps", num.wave_1d, (r(20000),), {"steps": 50}),
        ("rw gray_scott 128x128, 8 steps", num.gray_scott, num._gs_args(0, 128), {}),
        ("rw rk4_oscillators 5000x2", num.rk4_oscillators, (normal(5000, 2),), {}),
        ("rw nbody_leapfrog N=80, 5 steps", num.nbody_leapfrog, (*num._nbody_args(0, 80),),
         {"steps": 5}),
        ("rw blur_and_edges 256x256", num.blur_and_edges, (r(256, 256),), {}),
        ("rw game_of_life 128x128, 10 gens", num.game_of_life, (r(128, 128) < 0.3,),
         {"generations": 10}),
        ("rw mandelbrot 150x150, 20 iters", num.mandelbrot_counts,
         (np.linspace(-2, 1, 150), np.linspace(-1.5, 1.5, 150)), {"max_iter": 20}),
        ("rw ewma n=1000 x 8", num.ewma, (normal(1000, 8),), {}),
        ("rw zscore_outliers 5000x20", num.zscore_outliers, (normal(5000, 20),), {}),
        ("rw logistic_regression 2000x20", trn.logistic_regression, trn._logreg_args(0, 2000, 20),
         {}),
        ("rw kmeans_onehot 1000x4, k=8", trn.kmeans_onehot, (km_x64, km_c64), {}),
        ("rw kmeans_masks 1000x4, k=8", trn.kmeans_masks, (km_x, km_c), {}),
        ("rw lstm_forward T=20, batch 32", mod.lstm_forward, mod.lstm_args(0, 20, 32, 32, 64),
         {}),
        ("rw softmax_regression 2000x32", trn.softmax_regression_epochs,
         (normal(2000, 32), rng.integers(0, 10, 2000), 10), {}),
        ("rw standardize_columns float32 5000x64", idi.standardize_columns, (x32,), {}),
    ]
