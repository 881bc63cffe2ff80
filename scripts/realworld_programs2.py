"""A second program corpus of scripts/bench_realworld.py (issue #15): fifty programs
written, before any of them ran under dynamo, the way NumPy users write them.

None repeats a program of ``realworld_programs.py``; the kinds are the same ones the
issue measures on held-out code: time steppers (RK4 on ODE ensembles, leapfrog
n-body, 3-D heat, absorbing waves, 2-D shallow water, Allen-Cahn, reaction-diffusion),
solvers (dense Gauss-Seidel, GMRES, BiCGSTAB, Doolittle LU, Thomas, Crank-Nicolson,
Newton on a vectorized 2x2 system, Richardson to a tolerance, scalar SOR loops),
small-matrix linear algebra in loops (Householder QR, batched 3x3 rotations, a 4-state
Kalman tracker, quaternions, Kabsch alignment, FEM assembly with ``np.add.at``),
training steps (minibatch logistic regression with momentum, an MLP with dropout, a
linear SVM, EM for a Gaussian mixture, ISTA lasso, ALS, skip-gram with ``np.add.at``,
PCA by power iteration), simulations (single-spin Ising Metropolis, lattice random
walks, Game of Life with ``np.roll``, particle-in-cell, Gillespie, Vicsek) and
signal/image code (Gaussian blur by slicing, histogram equalization, moving-average
crossover with ``cumsum``, median filter, Laplacian pyramid, spectrogram, Otsu,
non-maximum suppression, a direct-form FIR filter).

``programs(small=False)`` lists them as (name, fn, args, kwargs) at sizes where plain
NumPy takes a millisecond or more per call; ``small=True`` gives the same programs on
small inputs, for the differential test (tests/realworld/test_realworld_programs2.py).

Example::

    >>> name, fn, args, kwargs = programs(small=True)[0]
    >>> name
    'Lotka-Volterra RK4 ensemble'
"""

from __future__ import annotations

import numpy as np

# ---------------------------------------------------------------- time steppers


def _lv_rhs(x, y, a, b, c, d):
    return a * x - b * x * y, d * x * y - c * y


def lotka_volterra_rk4(x, y, a, b, c, d, dt=0.01, steps=200):
    """Predator-prey RK4 over an ensemble of parameter sets (one per element)."""
    for _ in range(steps):
        k1x, k1y = _lv_rhs(x, y, a, b, c, d)
        k2x, k2y = _lv_rhs(x + 0.5 * dt * k1x, y + 0.5 * dt * k1y, a, b, c, d)
        k3x, k3y = _lv_rhs(x + 0.5 * dt * k2x, y + 0.5 * dt * k2y, a, b, c, d)
        k4x, k4y = _lv_rhs(x + dt * k3x, y + dt * k3y, a, b, c, d)
        x = x + dt / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
        y = y + dt / 6 * (k1y + 2 * k2y + 2 * k3y + k4y)
    return x, y


def seir_ensemble(beta, sigma=0.2, gamma=0.1, dt=0.1, steps=300):
    """SEIR Euler for many transmission rates; the infected curve kept in a preallocated
    history array, peak height and day returned."""
    n = beta.shape[0]
    S = np.full(n, 0.99)
    E = np.zeros(n)
    Inf = np.full(n, 0.01)
    R = np.zeros(n)
    hist = np.empty((steps, n))
    for t in range(steps):
        new_e = beta * S * Inf
        new_i = sigma * E
        new_r = gamma * Inf
        S = S - dt * new_e
        E = E + dt * (new_e - new_i)
        Inf = Inf + dt * (new_i - new_r)
        R = R + dt * new_r
        hist[t] = Inf
    return hist.max(axis=0), hist.argmax(axis=0) * dt, S + E + Inf + R


def _vdp(y, mu):
    return np.stack([y[1], mu * (1 - y[0] ** 2) * y[1] - y[0]])


def van_der_pol_rk4(y, mu, dt=0.01, steps=100):
    """Van der Pol oscillators, state (2, N), derivative built with np.stack."""
    for _ in range(steps):
        k1 = _vdp(y, mu)
        k2 = _vdp(y + dt / 2 * k1, mu)
        k3 = _vdp(y + dt / 2 * k2, mu)
        k4 = _vdp(y + dt * k3, mu)
        y = y + dt * (k1 + 2 * k2 + 2 * k3 + k4) / 6
    return y


def _pendulum(s, g=9.81):
    t1, t2, w1, w2 = s
    d = t1 - t2
    den = 3 - np.cos(2 * d)
    a1 = (-3 * g * np.sin(t1) - g * np.sin(t1 - 2 * t2)
          - 2 * np.sin(d) * (w2 ** 2 + w1 ** 2 * np.cos(d))) / den
    a2 = 2 * np.sin(d) * (2 * w1 ** 2 + 2 * g * np.cos(t1) + w2 ** 2 * np.cos(d)) / den
    return np.array([w1, w2, a1, a2])


def double_pendulum_rk4(state, dt=0.005, steps=50):
    """Unit double pendulums, state (4, N) unpacked row by row; np.array of rows."""
    for _ in range(steps):
        k1 = _pendulum(state)
        k2 = _pendulum(state + 0.5 * dt * k1)
        k3 = _pendulum(state + 0.5 * dt * k2)
        k4 = _pendulum(state + dt * k3)
        state = state + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
    return state


def kuramoto(theta, omega, K=1.5, dt=0.05, steps=40):
    """Mean-field Kuramoto by all pairs; the order parameter recorded in a list."""
    order = []
    for _ in range(steps):
        coupling = np.sin(theta[None, :] - theta[:, None]).mean(axis=1)
        theta = theta + dt * (omega + K * coupling)
        order.append(np.abs(np.exp(1j * theta).mean()))
    return theta % (2 * np.pi), np.array(order)


def _accel(pos, mass, eps2):
    diff = pos[None, :, :] - pos[:, None, :]
    inv_r3 = (np.sum(diff ** 2, axis=-1) + eps2) ** -1.5
    return np.einsum("ij,ijk->ik", mass[None, :] * inv_r3, diff)


def leapfrog_einsum(pos, vel, mass, dt=0.01, steps=8, eps=0.05):
    """Kick-drift-kick n-body with the force sum as an einsum; energy at the end."""
    acc = _accel(pos, mass, eps * eps)
    for _ in range(steps):
        vel += 0.5 * dt * acc
        pos += dt * vel
        acc = _accel(pos, mass, eps * eps)
        vel += 0.5 * dt * acc
    kinetic = 0.5 * np.sum(mass * np.sum(vel ** 2, axis=1))
    dist = np.sqrt(np.sum((pos[None] - pos[:, None]) ** 2, axis=-1) + eps * eps)
    potential = -0.5 * np.sum(np.outer(mass, mass) / dist)
    return pos, vel, kinetic + potential


def heat_3d(u, alpha=0.1, steps=10):
    """FTCS on a cube: six shifted slices, fixed faces."""
    for _ in range(steps):
        un = u.copy()
        u[1:-1, 1:-1, 1:-1] = un[1:-1, 1:-1, 1:-1] + alpha * (
            un[2:, 1:-1, 1:-1] + un[:-2, 1:-1, 1:-1]
            + un[1:-1, 2:, 1:-1] + un[1:-1, :-2, 1:-1]
            + un[1:-1, 1:-1, 2:] + un[1:-1, 1:-1, :-2]
            - 6 * un[1:-1, 1:-1, 1:-1])
    return u


def wave_1d_absorbing(n=20000, c=1.0, dx=0.01, dt=0.005, steps=200, src=5000, f0=2.0):
    """Leapfrog wave equation, a sine source, first-order Mur absorbing ends."""
    u_prev = np.zeros(n)
    u = np.zeros(n)
    C = c * dt / dx
    mur = (C - 1) / (C + 1)
    for t in range(steps):
        u_next = np.empty_like(u)
        u_next[1:-1] = 2 * u[1:-1] - u_prev[1:-1] + C ** 2 * (u[2:] - 2 * u[1:-1] + u[:-2])
        u_next[src] += dt ** 2 * np.sin(2 * np.pi * f0 * t * dt)
        u_next[0] = u[1] + mur * (u_next[1] - u[0])
        u_next[-1] = u[-2] + mur * (u_next[-2] - u[-1])
        u_prev, u = u, u_next
    return u


def advection_diffusion_ghost(u, vel=1.0, D=0.01, dx=0.01, dt=0.002, steps=100):
    """Periodic 1-D advection-diffusion with ghost cells from np.concatenate."""
    for _ in range(steps):
        g = np.concatenate(([u[-1]], u, [u[0]]))
        adv = -vel * (g[2:] - g[:-2]) / (2 * dx)
        dif = D * (g[2:] - 2 * g[1:-1] + g[:-2]) / dx ** 2
        u = u + dt * (adv + dif)
    return u


def shallow_water_2d(h, hu, hv, g=9.81, dx=1.0, dt=0.02, steps=20):
    """Lax-Friedrichs for the 2-D shallow-water equations, reflective walls."""
    for _ in range(steps):
        u = hu / h
        v = hv / h
        F = (hu, hu * u + 0.5 * g * h * h, hu * v)
        G = (hv, hv * u, hv * v + 0.5 * g * h * h)
        new = []
        for q, f, gq in zip((h, hu, hv), F, G):
            qn = q.copy()
            qn[1:-1, 1:-1] = (0.25 * (q[2:, 1:-1] + q[:-2, 1:-1] + q[1:-1, 2:] + q[1:-1, :-2])
                              - dt / (2 * dx) * (f[2:, 1:-1] - f[:-2, 1:-1])
                              - dt / (2 * dx) * (gq[1:-1, 2:] - gq[1:-1, :-2]))
            new.append(qn)
        h, hu, hv = new
        hu[0, :] = -hu[1, :]
        hu[-1, :] = -hu[-2, :]
        hv[:, 0] = -hv[:, 1]
        hv[:, -1] = -hv[:, -2]
    return h, hu, hv


def allen_cahn_roll(u, eps2=1.0, dt=0.05, steps=40):
    """Allen-Cahn phase separation, periodic Laplacian from np.roll; free energy."""
    for _ in range(steps):
        lap = (np.roll(u, 1, axis=0) + np.roll(u, -1, axis=0)
               + np.roll(u, 1, axis=1) + np.roll(u, -1, axis=1) - 4 * u)
        u = u + dt * (eps2 * lap + u - u ** 3)
    gx = np.roll(u, -1, axis=1) - u
    gy = np.roll(u, -1, axis=0) - u
    energy = np.sum(0.25 * (u ** 2 - 1) ** 2 + 0.5 * eps2 * (gx ** 2 + gy ** 2))
    return u, energy


def fitzhugh_nagumo_1d(v, w, D=1.0, a=0.7, b=0.8, eps=0.08, dx=0.5, dt=0.05, steps=200):
    """FitzHugh-Nagumo cable, zero-flux ends set by copying the neighbour."""
    for _ in range(steps):
        lap = np.zeros_like(v)
        lap[1:-1] = (v[2:] - 2 * v[1:-1] + v[:-2]) / dx ** 2
        v_new = v + dt * (D * lap + v - v ** 3 / 3 - w)
        w = w + dt * eps * (v + a - b * w)
        v = v_new
        v[0] = v[1]
        v[-1] = v[-2]
    return v, w


# ---------------------------------------------------------------- solvers


def gauss_seidel_dense(A, b, sweeps=5):
    """Gauss-Seidel row by row on a dense diagonally dominant system."""
    n = len(b)
    x = np.zeros(n)
    for _ in range(sweeps):
        for i in range(n):
            s = A[i, :i] @ x[:i] + A[i, i + 1:] @ x[i + 1:]
            x[i] = (b[i] - s) / A[i, i]
    return x, np.linalg.norm(A @ x - b)


def gmres_lite(A, b, m=30):
    """One cycle of GMRES(m): Arnoldi with modified Gram-Schmidt, then lstsq."""
    n = len(b)
    Q = np.zeros((n, m + 1))
    H = np.zeros((m + 1, m))
    beta = np.linalg.norm(b)
    Q[:, 0] = b / beta
    for k in range(m):
        w = A @ Q[:, k]
        for j in range(k + 1):
            H[j, k] = Q[:, j] @ w
            w = w - H[j, k] * Q[:, j]
        H[k + 1, k] = np.linalg.norm(w)
        Q[:, k + 1] = w / H[k + 1, k]
    e1 = np.zeros(m + 1)
    e1[0] = beta
    y = np.linalg.lstsq(H, e1, rcond=None)[0]
    x = Q[:, :m] @ y
    return x, np.linalg.norm(b - A @ x) / beta


def bicgstab(A, b, iters=30):
    """BiCGSTAB for a nonsymmetric system, fixed number of iterations."""
    x = np.zeros_like(b)
    r = b - A @ x
    r_hat = r.copy()
    rho = alpha = omega = 1.0
    v = np.zeros_like(b)
    p = np.zeros_like(b)
    for _ in range(iters):
        rho_new = r_hat @ r
        beta = (rho_new / rho) * (alpha / omega)
        rho = rho_new
        p = r + beta * (p - omega * v)
        v = A @ p
        alpha = rho / (r_hat @ v)
        s = r - alpha * v
        t = A @ s
        omega = (t @ s) / (t @ t)
        x = x + alpha * p + omega * s
        r = s - omega * t
    return x, np.linalg.norm(r)


def lu_doolittle_solve(A, b):
    """LU without pivoting by outer-product updates, then two triangular solves."""
    A = A.copy()
    n = A.shape[0]
    for k in range(n - 1):
        A[k + 1:, k] /= A[k, k]
        A[k + 1:, k + 1:] -= np.outer(A[k + 1:, k], A[k, k + 1:])
    y = np.zeros(n)
    for i in range(n):
        y[i] = b[i] - A[i, :i] @ y[:i]
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        x[i] = (y[i] - A[i, i + 1:] @ x[i + 1:]) / A[i, i]
    return x


def thomas(a, b, c, d):
    """Tridiagonal solve element by element (sub-, main, super-diagonal, rhs)."""
    n = len(d)
    cp = np.zeros(n)
    dp = np.zeros(n)
    cp[0] = c[0] / b[0]
    dp[0] = d[0] / b[0]
    for i in range(1, n):
        m = b[i] - a[i] * cp[i - 1]
        cp[i] = c[i] / m
        dp[i] = (d[i] - a[i] * dp[i - 1]) / m
    x = np.zeros(n)
    x[-1] = dp[-1]
    for i in range(n - 2, -1, -1):
        x[i] = dp[i] - cp[i] * x[i + 1]
    return x


def crank_nicolson(u, r=0.5, steps=30):
    """Crank-Nicolson for the heat equation with dense matrices and np.linalg.solve."""
    n = len(u)
    off = np.ones(n - 1)
    lap = np.diag(-2 * np.ones(n)) + np.diag(off, 1) + np.diag(off, -1)
    A = np.eye(n) - 0.5 * r * lap
    B = np.eye(n) + 0.5 * r * lap
    for _ in range(steps):
        u = np.linalg.solve(A, B @ u)
    return u


def newton_2d_vectorized(x, y, iters=10):
    """Newton on {x^2 + y^2 = 4, e^x + y = 1} from many starts, Cramer's rule."""
    for _ in range(iters):
        f = x ** 2 + y ** 2 - 4
        g = np.exp(x) + y - 1
        j11, j12 = 2 * x, 2 * y
        j21, j22 = np.exp(x), np.ones_like(y)
        det = j11 * j22 - j12 * j21
        det = np.where(np.abs(det) < 1e-12, 1e-12, det)
        # clipped: a start far from both roots must not overflow np.exp
        x = np.clip(x - (f * j22 - g * j12) / det, -5.0, 5.0)
        y = np.clip(y - (j11 * g - j21 * f) / det, -5.0, 5.0)
    return x, y, np.hypot(x ** 2 + y ** 2 - 4, np.exp(x) + y - 1)


def richardson_tol(A, b, omega=0.15, tol=1e-8, maxit=500):
    """Richardson iteration until the relative residual is below a tolerance."""
    x = np.zeros_like(b)
    nb = np.linalg.norm(b)
    it = 0
    r = b - A @ x
    while np.linalg.norm(r) / nb > tol and it < maxit:
        x = x + omega * r
        r = b - A @ x
        it += 1
    return x, it


def sor_loops(u, f, h=0.05, omega=1.6, sweeps=2):
    """SOR for the Poisson equation with two Python loops over the grid."""
    n, m = u.shape
    for _ in range(sweeps):
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                gs = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1]
                             - h * h * f[i, j])
                u[i, j] = (1 - omega) * u[i, j] + omega * gs
    return u


# ---------------------------------------------------------------- small-matrix linear algebra


def householder_qr(A):
    """Householder QR with the reflections applied to R and accumulated into Q."""
    m, n = A.shape
    R = A.copy()
    Q = np.eye(m)
    for k in range(n):
        x = R[k:, k]
        v = x.copy()
        v[0] += np.copysign(np.linalg.norm(x), x[0])
        v /= np.linalg.norm(v)
        R[k:, k:] -= 2.0 * np.outer(v, v @ R[k:, k:])
        Q[:, k:] -= 2.0 * np.outer(Q[:, k:] @ v, v)
    return Q, np.triu(R)


def batched_rotations(points, yaw, pitch, roll, steps=5, dt=0.1):
    """Per-body 3x3 rotation matrices from Euler angles, applied with matmul."""
    n = len(yaw)
    for _ in range(steps):
        cy, sy = np.cos(yaw), np.sin(yaw)
        cp, sp = np.cos(pitch), np.sin(pitch)
        cr, sr = np.cos(roll), np.sin(roll)
        R = np.empty((n, 3, 3))
        R[:, 0, 0] = cy * cp
        R[:, 0, 1] = cy * sp * sr - sy * cr
        R[:, 0, 2] = cy * sp * cr + sy * sr
        R[:, 1, 0] = sy * cp
        R[:, 1, 1] = sy * sp * sr + cy * cr
        R[:, 1, 2] = sy * sp * cr - cy * sr
        R[:, 2, 0] = -sp
        R[:, 2, 1] = cp * sr
        R[:, 2, 2] = cp * cr
        points = (R @ points[:, :, None])[:, :, 0]
        yaw = yaw + dt
        pitch = pitch + 0.5 * dt
    return points, np.linalg.det(R[:4])


def kalman_cv(zs, dt=1.0, q=0.01, r=0.5):
    """Constant-velocity 2-D tracker: 4 states, position measured; np.linalg.inv of S."""
    F = np.eye(4)
    F[0, 2] = F[1, 3] = dt
    H = np.zeros((2, 4))
    H[0, 0] = H[1, 1] = 1.0
    Q = q * np.eye(4)
    R = r * np.eye(2)
    x = np.zeros(4)
    P = np.eye(4)
    out = np.zeros((len(zs), 4))
    for k in range(len(zs)):
        x = F @ x
        P = F @ P @ F.T + Q
        S = H @ P @ H.T + R
        K = P @ H.T @ np.linalg.inv(S)
        x = x + K @ (zs[k] - H @ x)
        P = (np.eye(4) - K @ H) @ P
        out[k] = x
    return out, P


def quaternion_integrate(q, omega, dt=0.01, steps=50):
    """Integrate N body rotations: q <- q * exp(omega dt / 2), Hamilton product by hand."""
    theta = np.linalg.norm(omega, axis=1) * dt / 2
    axis = omega / np.linalg.norm(omega, axis=1, keepdims=True)
    dq = np.concatenate([np.cos(theta)[:, None], axis * np.sin(theta)[:, None]], axis=1)
    for _ in range(steps):
        w1, x1, y1, z1 = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
        w2, x2, y2, z2 = dq[:, 0], dq[:, 1], dq[:, 2], dq[:, 3]
        q = np.stack([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
                      w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                      w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
                      w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2], axis=1)
        q /= np.linalg.norm(q, axis=1, keepdims=True)
    return q


def kabsch_trajectory(frames, ref):
    """Align every frame of a trajectory onto a reference (Kabsch), RMSD per frame."""
    ref_c = ref - ref.mean(axis=0)
    rmsd = np.empty(len(frames))
    aligned = np.empty_like(frames)
    for t in range(len(frames)):
        P = frames[t] - frames[t].mean(axis=0)
        Hm = P.T @ ref_c
        U, S, Vt = np.linalg.svd(Hm)
        d = np.sign(np.linalg.det(Vt.T @ U.T))
        D = np.diag([1.0, 1.0, d])
        Rm = Vt.T @ D @ U.T
        aligned[t] = P @ Rm.T
        rmsd[t] = np.sqrt(np.mean(np.sum((aligned[t] - ref_c) ** 2, axis=1)))
    return rmsd, aligned


def fem_1d_poisson(nodes, f):
    """Linear finite elements for -u'' = f: local 2x2 matrices scattered with np.add.at."""
    n = len(nodes)
    h = np.diff(nodes)
    K = np.zeros((n, n))
    F = np.zeros(n)
    elems = np.stack([np.arange(n - 1), np.arange(1, n)], axis=1)
    ke = np.array([[1.0, -1.0], [-1.0, 1.0]])[None] / h[:, None, None]
    fe = 0.5 * h[:, None] * f[elems]
    rows = np.repeat(elems, 2, axis=1)
    cols = np.tile(elems, (1, 2))
    np.add.at(K, (rows.ravel(), cols.ravel()), ke.reshape(len(h), 4).ravel())
    np.add.at(F, elems.ravel(), fe.ravel())
    K[0, :] = 0.0
    K[0, 0] = 1.0
    F[0] = 0.0
    K[-1, :] = 0.0
    K[-1, -1] = 1.0
    F[-1] = 0.0
    return np.linalg.solve(K, F)


# ---------------------------------------------------------------- training steps


def logreg_minibatch_momentum(X, y, lr=0.1, mu=0.9, epochs=3, batch=256, l2=1e-4):
    """Minibatch logistic regression with momentum and L2, batches by slicing."""
    n, d = X.shape
    w = np.zeros(d)
    b = 0.0
    vw = np.zeros(d)
    losses = []
    for _ in range(epochs):
        for s in range(0, n, batch):
            xb, yb = X[s:s + batch], y[s:s + batch]
            p = 1.0 / (1.0 + np.exp(-(xb @ w + b)))
            g = xb.T @ (p - yb) / len(yb) + l2 * w
            vw = mu * vw - lr * g
            w = w + vw
            b -= lr * np.mean(p - yb)
        p = 1.0 / (1.0 + np.exp(-(X @ w + b)))
        losses.append(-np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12)))
    return w, b, losses


def mlp_dropout_sgd(X, Y, W1, b1, W2, b2, lr=0.05, steps=10, keep=0.8, seed=0):
    """Regression MLP (tanh, inverted dropout from a seeded Generator), MSE, plain SGD."""
    rng = np.random.default_rng(seed)
    n = len(X)
    for _ in range(steps):
        h = np.tanh(X @ W1 + b1)
        mask = (rng.random(h.shape) < keep) / keep
        hd = h * mask
        out = hd @ W2 + b2
        err = out - Y
        dout = 2 * err / n
        dW2 = hd.T @ dout
        db2 = dout.sum(axis=0)
        dh = (dout @ W2.T) * mask * (1 - h ** 2)
        dW1 = X.T @ dh
        db1 = dh.sum(axis=0)
        W1 = W1 - lr * dW1
        b1 = b1 - lr * db1
        W2 = W2 - lr * dW2
        b2 = b2 - lr * db2
    return W1, b1, W2, b2, float(np.mean(err ** 2))


def linear_svm_subgradient(X, y, lam=1e-3, steps=50):
    """Pegasos-style full-batch subgradient descent on the hinge loss, labels +-1."""
    w = np.zeros(X.shape[1])
    for t in range(1, steps + 1):
        margins = y * (X @ w)
        active = margins < 1
        grad = lam * w - (X[active] * y[active, None]).sum(axis=0) / len(y)
        w -= grad / (lam * t)
    return w, np.mean(np.maximum(0, 1 - y * (X @ w)))


def gmm_em_diag(X, means, variances, weights, iters=10):
    """EM for a diagonal Gaussian mixture; responsibilities by a hand-written logsumexp."""
    for _ in range(iters):
        diff = X[:, None, :] - means[None, :, :]
        log_p = (-0.5 * np.sum(diff ** 2 / variances[None], axis=2)
                 - 0.5 * np.sum(np.log(2 * np.pi * variances), axis=1)[None]
                 + np.log(weights)[None])
        m = log_p.max(axis=1, keepdims=True)
        log_norm = m + np.log(np.exp(log_p - m).sum(axis=1, keepdims=True))
        resp = np.exp(log_p - log_norm)
        nk = resp.sum(axis=0) + 1e-10
        weights = nk / len(X)
        means = (resp.T @ X) / nk[:, None]
        variances = (resp.T @ X ** 2) / nk[:, None] - means ** 2 + 1e-6
    return means, variances, weights, log_norm.sum()


def lasso_ista(X, y, lam=0.1, steps=100):
    """ISTA for the lasso; the step from the largest singular value."""
    L = np.linalg.norm(X, 2) ** 2
    w = np.zeros(X.shape[1])
    for _ in range(steps):
        grad = X.T @ (X @ w - y)
        z = w - grad / L
        w = np.sign(z) * np.maximum(np.abs(z) - lam / L, 0.0)
    return w, 0.5 * np.sum((X @ w - y) ** 2) + lam * np.abs(w).sum()


def als_factorize(R, mask, U, V, lam=0.1, iters=2):
    """Alternating least squares on the observed entries, one small solve per row."""
    k = U.shape[1]
    reg = lam * np.eye(k)
    for _ in range(iters):
        for i in range(R.shape[0]):
            Vi = V[mask[i]]
            U[i] = np.linalg.solve(Vi.T @ Vi + reg, Vi.T @ R[i, mask[i]])
        for j in range(R.shape[1]):
            Uj = U[mask[:, j]]
            V[j] = np.linalg.solve(Uj.T @ Uj + reg, Uj.T @ R[mask[:, j], j])
    err = (R - U @ V.T)[mask]
    return U, V, np.sqrt(np.mean(err ** 2))


def skipgram_negative(E, C, centers, contexts, negatives, lr=0.05):
    """One skip-gram epoch with negative sampling; gradients scattered with np.add.at."""
    e = E[centers]
    c = C[contexts]
    n = C[negatives]
    pos = 1 / (1 + np.exp(-np.sum(e * c, axis=1)))
    neg = 1 / (1 + np.exp(np.einsum("bd,bkd->bk", e, n)))
    loss = -np.mean(np.log(pos + 1e-10) + np.log(neg + 1e-10).sum(axis=1))
    g_pos = (pos - 1)[:, None]
    g_neg = (1 - neg)[:, :, None]
    grad_e = g_pos * c + np.sum(g_neg * n, axis=1)
    np.add.at(C, contexts, -lr * g_pos * e)
    np.add.at(C, negatives, -lr * g_neg * e[:, None, :])
    np.add.at(E, centers, -lr * grad_e)
    return E, C, loss


def pca_power_deflation(X, k=3, iters=50):
    """Top-k principal components by power iteration on the covariance, with deflation."""
    Xc = X - X.mean(axis=0)
    C = Xc.T @ Xc / (len(X) - 1)
    comps = []
    vals = []
    v = np.ones(C.shape[0]) / np.sqrt(C.shape[0])
    for _ in range(k):
        for _ in range(iters):
            w = C @ v
            v = w / np.linalg.norm(w)
        lam = v @ C @ v
        comps.append(v)
        vals.append(lam)
        C = C - lam * np.outer(v, v)
    W = np.array(comps)
    return W, np.array(vals), Xc @ W.T


# ---------------------------------------------------------------- simulations


def ising_single_flip(spins, beta=0.4, nsteps=3000, seed=0):
    """Single-spin Metropolis with periodic neighbours, all draws made up front."""
    rng = np.random.default_rng(seed)
    L = spins.shape[0]
    ii = rng.integers(0, L, nsteps)
    jj = rng.integers(0, L, nsteps)
    us = rng.random(nsteps)
    energy_changes = 0.0
    for t in range(nsteps):
        i, j = ii[t], jj[t]
        nb = (spins[(i + 1) % L, j] + spins[i - 1, j]
              + spins[i, (j + 1) % L] + spins[i, j - 1])
        dE = 2 * spins[i, j] * nb
        if dE <= 0 or us[t] < np.exp(-beta * dE):
            spins[i, j] = -spins[i, j]
            energy_changes += dE
    return spins, energy_changes, spins.mean()


def lattice_walk_msd(n_walkers=2000, n_steps=300, seed=5):
    """2-D lattice random walks from a step table; mean squared displacement over time."""
    rng = np.random.default_rng(seed)
    moves = np.array([[1, 0], [-1, 0], [0, 1], [0, -1]])
    steps = moves[rng.integers(0, 4, size=(n_walkers, n_steps))]
    paths = np.cumsum(steps, axis=1)
    msd = np.mean(np.sum(paths.astype(float) ** 2, axis=2), axis=0)
    slope = np.polyfit(np.arange(1, n_steps + 1), msd, 1)[0]
    return msd, slope, np.abs(paths[:, -1]).max()


def life_roll_history(board, gens=20):
    """Game of Life on a torus: eight np.roll calls written out; population history."""
    b = board.copy()
    pop = np.zeros(gens, dtype=np.int64)
    for g in range(gens):
        n = (np.roll(b, 1, 0) + np.roll(b, -1, 0) + np.roll(b, 1, 1) + np.roll(b, -1, 1)
             + np.roll(b, (1, 1), (0, 1)) + np.roll(b, (1, -1), (0, 1))
             + np.roll(b, (-1, 1), (0, 1)) + np.roll(b, (-1, -1), (0, 1)))
        b = ((n == 3) | ((b == 1) & (n == 2))).astype(np.uint8)
        pop[g] = b.sum()
    return b, pop


def pic_1d(x, v, ng=64, L=2 * np.pi, dt=0.1, steps=10):
    """Electrostatic particle-in-cell: CIC deposit with np.add.at, FFT Poisson, gather."""
    dx = L / ng
    k = 2 * np.pi * np.fft.rfftfreq(ng, d=dx)
    k[0] = 1.0
    n = len(x)
    energy = []
    for _ in range(steps):
        xi = x / dx
        j = np.floor(xi).astype(np.int64)
        w = xi - j
        j %= ng
        jp = (j + 1) % ng
        rho = np.zeros(ng)
        np.add.at(rho, j, 1 - w)
        np.add.at(rho, jp, w)
        rho = rho * ng / n - 1.0
        phi_k = np.fft.rfft(rho) / k ** 2
        phi_k[0] = 0.0
        E_k = -1j * k * phi_k
        E = np.fft.irfft(E_k, n=ng)
        Ep = (1 - w) * E[j] + w * E[jp]
        v = v - dt * Ep
        x = (x + dt * v) % L
        energy.append(0.5 * np.sum(E ** 2) * dx)
    return x, v, np.array(energy)


def gillespie_sir(S=300, Inf=5, R=0, beta=0.3, gamma=0.1, max_events=600, seed=4):
    """Gillespie's direct method for a stochastic SIR; stops when the epidemic dies."""
    rng = np.random.default_rng(seed)
    N = S + Inf + R
    t = 0.0
    times = [0.0]
    infected = [Inf]
    for _ in range(max_events):
        r_inf = beta * S * Inf / N
        r_rec = gamma * Inf
        total = r_inf + r_rec
        if total == 0:
            break
        t += rng.exponential(1.0 / total)
        if rng.random() < r_inf / total:
            S -= 1
            Inf += 1
        else:
            Inf -= 1
            R += 1
        times.append(t)
        infected.append(Inf)
    return np.array(times), np.array(infected), (S, Inf, R)


def vicsek(pos, theta, L=10.0, r=1.0, eta=0.3, v0=0.05, steps=10, seed=7):
    """Vicsek flocking: neighbours within r on a periodic box, mean heading plus noise."""
    rng = np.random.default_rng(seed)
    n = len(theta)
    for _ in range(steps):
        d = pos[:, None, :] - pos[None, :, :]
        d -= L * np.round(d / L)
        near = (d ** 2).sum(axis=-1) < r * r
        s = (near * np.sin(theta)[None, :]).sum(axis=1)
        c = (near * np.cos(theta)[None, :]).sum(axis=1)
        theta = np.arctan2(s, c) + eta * (rng.random(n) - 0.5)
        pos = (pos + v0 * np.stack([np.cos(theta), np.sin(theta)], axis=1)) % L
    order = np.hypot(np.cos(theta).mean(), np.sin(theta).mean())
    return pos, theta, order


# ---------------------------------------------------------------- signal and image


def gaussian_blur_slices(img, sigma=1.2, radius=2):
    """5x5 Gaussian blur: kernel from np.exp, reflect padding, one slice per tap."""
    ax = np.arange(-radius, radius + 1)
    k = np.exp(-(ax[:, None] ** 2 + ax[None, :] ** 2) / (2 * sigma ** 2))
    k /= k.sum()
    p = np.pad(img, radius, mode="reflect")
    H, W = img.shape
    out = np.zeros_like(img, dtype=float)
    for i in range(2 * radius + 1):
        for j in range(2 * radius + 1):
            out += k[i, j] * p[i:i + H, j:j + W]
    return out


def histogram_equalize(img):
    """8-bit histogram equalization through a lookup table built from the CDF."""
    hist = np.bincount(img.ravel(), minlength=256)
    cdf = hist.cumsum()
    cdf_min = cdf[cdf > 0].min()
    lut = np.round((cdf - cdf_min) / (cdf[-1] - cdf_min) * 255)
    lut = np.clip(lut, 0, 255).astype(np.uint8)
    return lut[img]


def ma_crossover(prices, short=20, long=100):
    """Moving averages by cumsum, crossover signals, strategy returns and drawdown."""
    c = np.cumsum(np.insert(prices, 0, 0.0))
    ma_s = (c[short:] - c[:-short]) / short
    ma_l = (c[long:] - c[:-long]) / long
    ma_s = ma_s[long - short:]
    pos = np.where(ma_s > ma_l, 1.0, -1.0)
    rets = np.diff(np.log(prices[long - 1:]))
    strat = pos[:-1] * rets
    equity = np.exp(np.cumsum(strat))
    drawdown = 1 - equity / np.maximum.accumulate(equity)
    trades = np.count_nonzero(np.diff(pos))
    return equity[-1], drawdown.max(), trades


def median_filter3(img):
    """3x3 median filter: nine shifted slices of an edge-padded image, np.median."""
    p = np.pad(img, 1, mode="edge")
    H, W = img.shape
    stack = np.stack([p[i:i + H, j:j + W] for i in range(3) for j in range(3)])
    return np.median(stack, axis=0)


def laplacian_pyramid(img, levels=4):
    """Pyramid by 2x2 block means (reshape) and np.repeat upsampling; reconstruction."""
    bands = []
    cur = img
    for _ in range(levels):
        h, w = cur.shape
        small = cur.reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))
        up = np.repeat(np.repeat(small, 2, axis=0), 2, axis=1)
        bands.append(cur - up)
        cur = small
    rec = cur
    for band in reversed(bands):
        rec = np.repeat(np.repeat(rec, 2, axis=0), 2, axis=1) + band
    return [b.std() for b in bands], np.abs(rec - img).max()


def spectrogram(x, nfft=256, hop=64):
    """Hann-windowed frames from sliding_window_view, rfft, power in dB."""
    frames = np.lib.stride_tricks.sliding_window_view(x, nfft)[::hop]
    win = np.hanning(nfft)
    spec = np.abs(np.fft.rfft(frames * win, axis=1)) ** 2
    db = 10 * np.log10(spec + 1e-12)
    return db, db.argmax(axis=1)


def otsu_threshold(img):
    """Otsu's threshold from the histogram: class weights and means by cumsum."""
    hist = np.bincount(img.ravel(), minlength=256).astype(float)
    p = hist / hist.sum()
    omega = np.cumsum(p)
    mu = np.cumsum(p * np.arange(256))
    mu_t = mu[-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        sigma_b = (mu_t * omega - mu) ** 2 / (omega * (1 - omega))
    sigma_b = np.nan_to_num(sigma_b)
    t = np.argmax(sigma_b)
    return t, (img > t).mean()


def nonmax_suppression(img):
    """Canny's middle step: gradients by slicing, angle bins, neighbour comparisons."""
    gx = np.zeros_like(img)
    gy = np.zeros_like(img)
    gx[:, 1:-1] = img[:, 2:] - img[:, :-2]
    gy[1:-1, :] = img[2:, :] - img[:-2, :]
    mag = np.hypot(gx, gy)
    ang = (np.rad2deg(np.arctan2(gy, gx)) + 180) % 180
    c = mag[1:-1, 1:-1]
    a = ang[1:-1, 1:-1]
    horiz = (a < 22.5) | (a >= 157.5)
    diag1 = (a >= 22.5) & (a < 67.5)
    vert = (a >= 67.5) & (a < 112.5)
    n1 = np.where(horiz, mag[1:-1, 2:], np.where(diag1, mag[:-2, 2:],
                  np.where(vert, mag[2:, 1:-1], mag[:-2, :-2])))
    n2 = np.where(horiz, mag[1:-1, :-2], np.where(diag1, mag[2:, :-2],
                  np.where(vert, mag[:-2, 1:-1], mag[2:, 2:])))
    keep = (c >= n1) & (c >= n2)
    out = np.zeros_like(mag)
    out[1:-1, 1:-1] = np.where(keep, c, 0.0)
    return out


def fir_direct(x, taps):
    """Direct-form FIR filter ('valid' part): one shifted slice per tap."""
    K = len(taps)
    n = len(x) - K + 1
    y = np.zeros(n)
    for k in range(K):
        y += taps[K - 1 - k] * x[k:k + n]
    return y


# ---------------------------------------------------------------- the list


def programs(small: bool = False):
    """(name, fn, args, kwargs): args are copied before every call. ``small``: the same
    programs on small inputs and few steps (a differential test's sizes)."""
    rng = np.random.default_rng(15)

    def s(big, little):
        return little if small else big

    def r(*shape):
        return rng.random(shape)

    def normal(*shape):
        return rng.standard_normal(shape)

    n_lv = s(4000, 50)
    lv = (1 + r(n_lv), 0.5 + r(n_lv), 0.5 + 0.5 * r(n_lv), 0.2 + 0.3 * r(n_lv),
          0.6 + 0.4 * r(n_lv), 0.05 + 0.1 * r(n_lv))
    n_body = s(150, 12)
    nb = (normal(n_body, 3), 0.1 * normal(n_body, 3), r(n_body) + 0.5)
    sw = s(100, 12)
    sw_x = np.linspace(-1, 1, sw)
    sw_h = 1.0 + 0.2 * np.exp(-(sw_x[:, None] ** 2 + sw_x[None, :] ** 2) / 0.05)
    n_gs = s(150, 12)
    gs_A = r(n_gs, n_gs) + n_gs * np.eye(n_gs)
    n_gm = s(400, 40)
    gm_A = np.eye(n_gm) * 4 + normal(n_gm, n_gm) / np.sqrt(n_gm)
    n_lu = s(150, 12)
    lu_A = r(n_lu, n_lu) + n_lu * np.eye(n_lu)
    n_th = s(3000, 40)
    n_ri = s(500, 20)
    ri_A = 0.01 * r(n_ri, n_ri) / n_ri
    ri_A = ri_A + ri_A.T + np.diag(np.linspace(1.0, 10.0, n_ri))
    n_sor = s(30, 8)
    n_rot = s(20000, 30)
    n_q = s(5000, 30)
    q0 = normal(n_q, 4)
    q0 /= np.linalg.norm(q0, axis=1, keepdims=True)
    ref = normal(s(60, 8), 3)
    n_fr = s(100, 5)
    frames = ref[None] @ np.linalg.qr(normal(n_fr, 3, 3))[0] + 0.05 * normal(n_fr, len(ref), 3)
    n_fem = s(300, 20)
    fem_x = np.sort(np.concatenate([[0.0, 1.0], r(n_fem - 2)]))
    Xl = normal(s(4096, 64), 32)
    yl = (Xl @ normal(32) + 0.5 * normal(len(Xl)) > 0).astype(float)
    n_mlp = s(512, 16)
    Xmlp = normal(n_mlp, 32)
    Ymlp = np.sin(Xmlp[:, :4])
    mlp_w = (0.2 * normal(32, 64), np.zeros(64), 0.2 * normal(64, 4), np.zeros(4))
    Xs = normal(s(2000, 40), 50)
    ys = np.where(Xs @ normal(50) > 0, 1.0, -1.0)
    gmm_X = np.concatenate([normal(s(750, 10), 2) + 4 * np.array([i % 2, i // 2])
                            for i in range(4)])
    gmm_init = (gmm_X[:: len(gmm_X) // 4][:4].copy(), np.ones((4, 2)), np.full(4, 0.25))
    Xla = normal(s(500, 30), s(100, 10))
    yla = Xla[:, :5] @ np.arange(1.0, 6.0) + 0.1 * normal(len(Xla))
    m_als, n_als, k_als = s(100, 10), s(80, 8), 8
    R_true = normal(m_als, k_als) @ normal(n_als, k_als).T
    als_mask = r(m_als, n_als) < 0.3
    als_mask[:, 0] = True
    als_mask[0, :] = True
    n_voc, n_pairs = s(1000, 30), s(4000, 40)
    sg = (0.1 * normal(n_voc, 32), 0.1 * normal(n_voc, 32), rng.integers(0, n_voc, n_pairs),
          rng.integers(0, n_voc, n_pairs), rng.integers(0, n_voc, (n_pairs, 5)))
    L_is = s(32, 8)
    spins = np.where(r(L_is, L_is) < 0.5, -1, 1)
    n_pic = s(20000, 200)
    pic_x = np.linspace(0, 2 * np.pi, n_pic, endpoint=False)
    pic_v = np.where(np.arange(n_pic) % 2 == 0, 1.0, -1.0) + 0.01 * np.sin(pic_x)
    n_vi = s(300, 20)
    img = r(s(256, 16), s(256, 16))
    img8 = (255 * r(s(1024, 16), s(1024, 16)) ** 2).astype(np.uint8)
    prices = 100 * np.exp(np.cumsum(0.01 * normal(s(100_000, 400))))
    taps = np.hanning(31) / np.hanning(31).sum()
    return [
        # time steppers
        ("Lotka-Volterra RK4 ensemble", lotka_volterra_rk4, lv, {"steps": s(200, 5)}),
        ("SEIR Euler ensemble, history array", seir_ensemble, (0.2 + r(s(2000, 20)),),
         {"steps": s(300, 10)}),
        ("Van der Pol RK4 (np.stack rhs)", van_der_pol_rk4, (normal(2, s(5000, 20)),
                                                            0.5 + r(s(5000, 20))),
         {"steps": s(100, 4)}),
        ("double pendulum RK4 (np.array rhs)", double_pendulum_rk4, (normal(4, s(4000, 20)),),
         {"steps": s(50, 3)}),
        ("Kuramoto all pairs, order list", kuramoto, (2 * np.pi * r(s(300, 16)),
                                                     normal(s(300, 16))),
         {"steps": s(40, 3)}),
        ("leapfrog n-body einsum + energy", leapfrog_einsum, nb, {"steps": s(8, 2)}),
        ("heat 3-D FTCS", heat_3d, (r(s(48, 8), s(48, 8), s(48, 8)),), {"steps": s(10, 2)}),
        ("wave 1-D Mur absorbing + source", wave_1d_absorbing, (),
         {"n": s(20000, 200), "src": s(5000, 50), "steps": s(200, 5)}),
        ("advection-diffusion ghost cells", advection_diffusion_ghost, (r(s(20000, 100)),),
         {"steps": s(100, 5)}),
        ("shallow water 2-D Lax-Friedrichs", shallow_water_2d,
         (sw_h, np.zeros((sw, sw)), np.zeros((sw, sw))), {"steps": s(20, 3)}),
        ("Allen-Cahn np.roll + energy", allen_cahn_roll, (2 * r(s(128, 16), s(128, 16)) - 1,),
         {"steps": s(40, 3)}),
        ("FitzHugh-Nagumo cable", fitzhugh_nagumo_1d, (normal(s(5000, 50)), np.zeros(s(5000, 50))),
         {"steps": s(200, 5)}),
        # solvers
        ("Gauss-Seidel dense row loop", gauss_seidel_dense, (gs_A, r(n_gs)),
         {"sweeps": s(5, 2)}),
        ("GMRES(m) Arnoldi + lstsq", gmres_lite, (gm_A, normal(n_gm)), {"m": s(30, 6)}),
        ("BiCGSTAB dense", bicgstab, (gm_A, normal(n_gm)), {"iters": s(30, 4)}),
        ("LU Doolittle + triangular solves", lu_doolittle_solve, (lu_A, r(n_lu)), {}),
        ("Thomas tridiagonal scalar loop", thomas,
         (r(n_th), 4 + r(n_th), r(n_th), normal(n_th)), {}),
        ("Crank-Nicolson dense solve", crank_nicolson, (r(s(200, 16)),), {"steps": s(30, 3)}),
        ("Newton 2x2 vectorized (Cramer)", newton_2d_vectorized,
         (normal(s(50000, 50)), normal(s(50000, 50))), {}),
        ("Richardson to tolerance (while)", richardson_tol, (ri_A, normal(n_ri)), {}),
        ("SOR Python double loop", sor_loops, (np.zeros((n_sor, n_sor)), r(n_sor, n_sor)), {}),
        # small-matrix linear algebra
        ("Householder QR + Q", householder_qr, (normal(s(200, 12), s(60, 5)),), {}),
        ("batched 3x3 rotations (Euler angles)", batched_rotations,
         (normal(n_rot, 3), r(n_rot), r(n_rot), r(n_rot)), {"steps": s(5, 2)}),
        ("Kalman 4-state tracker, inv(S)", kalman_cv,
         (np.cumsum(normal(s(200, 10), 2), axis=0),), {}),
        ("quaternion integration", quaternion_integrate, (q0, normal(n_q, 3)),
         {"steps": s(50, 3)}),
        ("Kabsch alignment per frame", kabsch_trajectory, (frames, ref), {}),
        ("FEM 1-D assembly np.add.at + solve", fem_1d_poisson, (fem_x, np.ones(n_fem)), {}),
        # training steps
        ("logistic regression minibatch momentum", logreg_minibatch_momentum, (Xl, yl),
         {"batch": s(256, 16), "epochs": s(3, 2)}),
        ("MLP tanh dropout SGD (Generator)", mlp_dropout_sgd, (Xmlp, Ymlp, *mlp_w),
         {"steps": s(10, 2)}),
        ("linear SVM subgradient", linear_svm_subgradient, (Xs, ys), {"steps": s(50, 4)}),
        ("GMM EM diagonal, 4 components", gmm_em_diag, (gmm_X, *gmm_init),
         {"iters": s(10, 2)}),
        ("lasso ISTA", lasso_ista, (Xla, yla), {"steps": s(100, 5)}),
        ("ALS matrix factorization", als_factorize,
         (R_true, als_mask, 0.1 * normal(m_als, k_als), 0.1 * normal(n_als, k_als)),
         {"iters": s(2, 1)}),
        ("skip-gram negative sampling np.add.at", skipgram_negative, sg, {}),
        ("PCA by power iteration + deflation", pca_power_deflation, (normal(s(2000, 40), 40),),
         {"iters": s(50, 5)}),
        # simulations
        ("Ising single-spin Metropolis", ising_single_flip, (spins,),
         {"nsteps": s(3000, 30)}),
        ("lattice random walks MSD", lattice_walk_msd, (),
         {"n_walkers": s(2000, 20), "n_steps": s(300, 10)}),
        ("Game of Life 8x np.roll, history", life_roll_history,
         ((r(s(200, 16), s(200, 16)) < 0.3).astype(np.uint8),), {"gens": s(20, 3)}),
        ("particle-in-cell 1-D np.add.at + FFT", pic_1d, (pic_x, pic_v),
         {"steps": s(10, 2)}),
        ("Gillespie SIR", gillespie_sir, (), {"max_events": s(600, 20)}),
        ("Vicsek flocking", vicsek, (10 * r(n_vi, 2), 2 * np.pi * r(n_vi)),
         {"steps": s(10, 2)}),
        # signal and image
        ("Gaussian blur 5x5 by slices", gaussian_blur_slices, (img,), {}),
        ("histogram equalization uint8", histogram_equalize, (img8,), {}),
        ("moving-average crossover (cumsum)", ma_crossover, (prices,),
         {"short": s(20, 5), "long": s(100, 30)}),
        ("median filter 3x3", median_filter3, (img,), {}),
        ("Laplacian pyramid", laplacian_pyramid, (img,), {"levels": s(4, 2)}),
        ("spectrogram sliding_window_view", spectrogram, (normal(s(65536, 1024)),),
         {"nfft": s(256, 64), "hop": s(64, 32)}),
        ("Otsu threshold", otsu_threshold, (img8,), {}),
        ("non-maximum suppression", nonmax_suppression, (img,), {}),
        ("FIR direct form by slices", fir_direct, (normal(s(200_000, 300)), taps), {}),
    ]
