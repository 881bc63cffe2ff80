"""A third program corpus of scripts/bench_realworld.py (issue #15): thirty-four programs
written, before any of them ran under dynamo, the way NumPy users write them.

None repeats a function of ``realworld_programs.py`` or ``realworld_programs2.py``; the
kinds are the ones the issue measures on held-out code: time steppers (Brusselator and
Gray-Scott reaction-diffusion, MacCormack for Burgers, a damped 2-D wave with three
rotating buffers, semi-implicit spectral Cahn-Hilliard, Euler-Maruyama
Ornstein-Uhlenbeck, Rossler by the midpoint rule), stencils (a 9-point Jacobi written
in place, 3-D 7-point Jacobi with swapped buffers, Perona-Malik diffusion, neighbour
counts from a padded board), iterative solvers (dense Jacobi to a tolerance,
Jacobi-preconditioned CG on a matrix-free Poisson operator, steepest descent, a 1-D
two-grid cycle, Chebyshev iteration), small-matrix linear algebra in loops (cyclic
Jacobi eigenvalues, recursive least squares, an extended Kalman filter, Rodrigues
rotations of many bodies), training loops of small models (softmax regression, a
tied-weight linear autoencoder, a per-sample perceptron, Poisson regression by IRLS,
NMF multiplicative updates), particle simulations (SPH density and pressure, Morse
molecular dynamics with minimum image, boids, Brownian particles in a trap with
reflecting walls) and signal processing (a biquad over many channels, overlap-add
convolution, Goertzel, an LMS adaptive filter, Welch's PSD).

``programs(small=False)`` lists them as (name, fn, args, kwargs) at sizes where plain
NumPy takes about a millisecond or more per call; ``small=True`` gives the same programs
on small inputs, for the differential test (tests/realworld/test_realworld_programs3.py).

Example::

    >>> name, fn, args, kwargs = programs(small=True)[0]
    >>> name
    'Brusselator 2-D reaction-diffusion'
"""

from __future__ import annotations

import numpy as np

# ---------------------------------------------------------------- time steppers


def brusselator_2d(u, v, a=1.0, b=3.0, Du=0.2, Dv=0.02, dt=0.01, steps=50):
    """Brusselator on a grid with fixed borders; 5-point Laplacians by slices."""
    for _ in range(steps):
        lap_u = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1]
        lap_v = v[:-2, 1:-1] + v[2:, 1:-1] + v[1:-1, :-2] + v[1:-1, 2:] - 4 * v[1:-1, 1:-1]
        uc = u[1:-1, 1:-1]
        vc = v[1:-1, 1:-1]
        uuv = uc * uc * vc
        u_new = u.copy()
        v_new = v.copy()
        u_new[1:-1, 1:-1] = uc + dt * (a - (b + 1) * uc + uuv + Du * lap_u)
        v_new[1:-1, 1:-1] = vc + dt * (b * uc - uuv + Dv * lap_v)
        u, v = u_new, v_new
    return u, v


def gray_scott_inplace(U, V, Du=0.16, Dv=0.08, F=0.035, k=0.065, steps=40):
    """Gray-Scott with in-place interior updates (u += ...), periodic edges copied."""
    for _ in range(steps):
        u = U[1:-1, 1:-1]
        v = V[1:-1, 1:-1]
        Lu = U[:-2, 1:-1] + U[2:, 1:-1] + U[1:-1, :-2] + U[1:-1, 2:] - 4 * u
        Lv = V[:-2, 1:-1] + V[2:, 1:-1] + V[1:-1, :-2] + V[1:-1, 2:] - 4 * v
        uvv = u * v * v
        u += Du * Lu - uvv + F * (1 - u)
        v += Dv * Lv + uvv - (F + k) * v
        for Z in (U, V):
            Z[0, :] = Z[-2, :]
            Z[-1, :] = Z[1, :]
            Z[:, 0] = Z[:, -2]
            Z[:, -1] = Z[:, 1]
    return U, V


def maccormack_burgers(u, dx=0.01, dt=0.002, nu=0.01, steps=150):
    """Viscous Burgers by MacCormack: forward-difference predictor, backward corrector."""
    r = dt / dx
    s = nu * dt / dx ** 2
    for _ in range(steps):
        f = 0.5 * u * u
        up = u.copy()
        up[1:-1] = u[1:-1] - r * (f[2:] - f[1:-1]) + s * (u[2:] - 2 * u[1:-1] + u[:-2])
        fp = 0.5 * up * up
        un = u.copy()
        un[1:-1] = 0.5 * (u[1:-1] + up[1:-1] - r * (fp[1:-1] - fp[:-2])
                          + s * (up[2:] - 2 * up[1:-1] + up[:-2]))
        u = un
    return u, float(np.abs(u).max())


def damped_wave_2d(n=120, c=0.5, gamma=0.02, steps=60):
    """Damped wave, three buffers rotated each step; a Gaussian bump to start."""
    x = np.linspace(-1.0, 1.0, n)
    prev = np.exp(-40.0 * (x[:, None] ** 2 + x[None, :] ** 2))
    cur = prev.copy()
    nxt = np.zeros_like(cur)
    c2 = c * c
    energy = []
    for _ in range(steps):
        lap = (cur[2:, 1:-1] + cur[:-2, 1:-1] + cur[1:-1, 2:] + cur[1:-1, :-2]
               - 4.0 * cur[1:-1, 1:-1])
        nxt[1:-1, 1:-1] = ((2.0 - gamma) * cur[1:-1, 1:-1] - (1.0 - gamma) * prev[1:-1, 1:-1]
                           + c2 * lap)
        prev, cur, nxt = cur, nxt, prev
        energy.append(float(np.sum(cur ** 2)))
    return cur, np.array(energy)


def cahn_hilliard_spectral(c, dt=0.01, kappa=0.5, steps=20):
    """Semi-implicit Fourier Cahn-Hilliard: the chemical potential's bulk part in real
    space, the stiff fourth-order term divided out in Fourier space."""
    n = c.shape[0]
    k = 2 * np.pi * np.fft.fftfreq(n)
    k2 = k[:, None] ** 2 + k[None, :] ** 2
    denom = 1.0 + dt * kappa * k2 * k2
    for _ in range(steps):
        mu_hat = np.fft.fft2(c ** 3 - c)
        c_hat = (np.fft.fft2(c) - dt * k2 * mu_hat) / denom
        c = np.real(np.fft.ifft2(c_hat))
    return c, c.mean()


def ou_euler_maruyama(x0, theta=0.7, mu=1.0, sigma=0.3, dt=0.01, steps=200, seed=3):
    """Ornstein-Uhlenbeck paths; noise drawn per step; running mean and max kept."""
    rng = np.random.default_rng(seed)
    x = x0.copy()
    mean = np.zeros_like(x)
    peak = x.copy()
    sq = np.sqrt(dt)
    for _ in range(steps):
        x = x + theta * (mu - x) * dt + sigma * sq * rng.standard_normal(x.shape)
        mean += x / steps
        peak = np.maximum(peak, x)
    return mean, peak


def rossler_midpoint(x, y, z, a=0.2, b=0.2, c=5.7, dt=0.01, steps=300):
    """Rossler attractor ensemble by the explicit midpoint rule, three state arrays."""
    for _ in range(steps):
        dx = -y - z
        dy = x + a * y
        dz = b + z * (x - c)
        xm = x + 0.5 * dt * dx
        ym = y + 0.5 * dt * dy
        zm = z + 0.5 * dt * dz
        x = x + dt * (-ym - zm)
        y = y + dt * (xm + a * ym)
        z = z + dt * (b + zm * (xm - c))
    return x, y, z

# ---------------------------------------------------------------- stencils


def jacobi9_inplace(u, f, h=0.01, iters=50):
    """Mehrstellen 9-point Jacobi for Poisson, written into the interior in place from
    a copy of the old iterate."""
    h2 = h * h
    for _ in range(iters):
        old = u.copy()
        u[1:-1, 1:-1] = (4.0 * (old[:-2, 1:-1] + old[2:, 1:-1] + old[1:-1, :-2] + old[1:-1, 2:])
                         + old[:-2, :-2] + old[:-2, 2:] + old[2:, :-2] + old[2:, 2:]
                         - 6.0 * h2 * f[1:-1, 1:-1]) / 20.0
    return u


def jacobi_3d_swap(u, iters=10):
    """3-D 7-point Jacobi with two buffers swapped each sweep; the change reported."""
    v = u.copy()
    change = 0.0
    for _ in range(iters):
        v[1:-1, 1:-1, 1:-1] = (u[:-2, 1:-1, 1:-1] + u[2:, 1:-1, 1:-1]
                               + u[1:-1, :-2, 1:-1] + u[1:-1, 2:, 1:-1]
                               + u[1:-1, 1:-1, :-2] + u[1:-1, 1:-1, 2:]) / 6.0
        change = np.abs(v - u).max()
        u, v = v, u
    return u, change


def perona_malik(img, kappa=0.1, lam=0.2, iters=15):
    """Anisotropic diffusion: four one-sided differences, exponential conductance."""
    u = img.astype(np.float64)
    for _ in range(iters):
        dn = np.zeros_like(u)
        ds = np.zeros_like(u)
        de = np.zeros_like(u)
        dw = np.zeros_like(u)
        dn[1:, :] = u[:-1, :] - u[1:, :]
        ds[:-1, :] = u[1:, :] - u[:-1, :]
        de[:, :-1] = u[:, 1:] - u[:, :-1]
        dw[:, 1:] = u[:, :-1] - u[:, 1:]
        u = u + lam * (np.exp(-(dn / kappa) ** 2) * dn + np.exp(-(ds / kappa) ** 2) * ds
                       + np.exp(-(de / kappa) ** 2) * de + np.exp(-(dw / kappa) ** 2) * dw)
    return u


def life_padded_counts(board, gens=20):
    """Game of Life on a dead border: neighbour counts from eight slices of a padded
    board; the population per generation in a list."""
    pop = []
    for _ in range(gens):
        p = np.pad(board, 1)
        n = (p[:-2, :-2] + p[:-2, 1:-1] + p[:-2, 2:] + p[1:-1, :-2] + p[1:-1, 2:]
             + p[2:, :-2] + p[2:, 1:-1] + p[2:, 2:])
        board = ((n == 3) | ((board == 1) & (n == 2))).astype(board.dtype)
        pop.append(int(board.sum()))
    return board, pop

# ---------------------------------------------------------------- iterative solvers


def jacobi_dense_tol(A, b, tol=1e-10, maxit=200):
    """Dense Jacobi iteration to a relative residual tolerance (while loop)."""
    D = np.diag(A)
    R = A - np.diag(D)
    x = np.zeros_like(b)
    nb = np.linalg.norm(b)
    it = 0
    res = np.linalg.norm(b - A @ x) / nb
    while res > tol and it < maxit:
        x = (b - R @ x) / D
        res = np.linalg.norm(b - A @ x) / nb
        it += 1
    return x, it, res


def _poisson_apply(u):
    out = 4.0 * u
    out[1:, :] -= u[:-1, :]
    out[:-1, :] -= u[1:, :]
    out[:, 1:] -= u[:, :-1]
    out[:, :-1] -= u[:, 1:]
    return out


def pcg_poisson_matfree(b, iters=40):
    """Jacobi-preconditioned CG on a matrix-free 2-D Dirichlet Laplacian."""
    x = np.zeros_like(b)
    r = b - _poisson_apply(x)
    z = r / 4.0
    p = z.copy()
    rz = np.sum(r * z)
    for _ in range(iters):
        Ap = _poisson_apply(p)
        alpha = rz / np.sum(p * Ap)
        x += alpha * p
        r -= alpha * Ap
        z = r / 4.0
        rz_new = np.sum(r * z)
        p = z + (rz_new / rz) * p
        rz = rz_new
    return x, np.sqrt(np.sum(r * r))


def steepest_descent(A, b, iters=60):
    """Steepest descent with the exact line search for an SPD system."""
    x = np.zeros_like(b)
    history = []
    for _ in range(iters):
        r = b - A @ x
        Ar = A @ r
        alpha = (r @ r) / (r @ Ar)
        x = x + alpha * r
        history.append(np.linalg.norm(r))
    return x, history


def two_grid_poisson_1d(f, cycles=8, nu=3, omega=2.0 / 3.0):
    """Two-grid cycles for -u'' = f on a uniform grid: weighted-Jacobi smoothing,
    full-weighting restriction, a dense coarse solve, linear interpolation back."""
    n = f.shape[0]
    h = 1.0 / (n - 1)
    u = np.zeros(n)
    nc = (n + 1) // 2
    hc = 2 * h
    Ac = (np.diag(np.full(nc - 2, 2.0)) - np.diag(np.ones(nc - 3), 1)
          - np.diag(np.ones(nc - 3), -1)) / hc ** 2
    xf = np.linspace(0.0, 1.0, n)
    xc = np.linspace(0.0, 1.0, nc)
    for _ in range(cycles):
        for _ in range(nu):
            u[1:-1] = (1 - omega) * u[1:-1] + omega * 0.5 * (u[:-2] + u[2:] + h * h * f[1:-1])
        r = np.zeros(n)
        r[1:-1] = f[1:-1] - (2 * u[1:-1] - u[:-2] - u[2:]) / (h * h)
        rc = np.zeros(nc)
        rc[1:-1] = 0.25 * r[1:-2:2] + 0.5 * r[2:-1:2] + 0.25 * r[3::2]
        ec = np.zeros(nc)
        ec[1:-1] = np.linalg.solve(Ac, rc[1:-1])
        u += np.interp(xf, xc, ec)
        for _ in range(nu):
            u[1:-1] = (1 - omega) * u[1:-1] + omega * 0.5 * (u[:-2] + u[2:] + h * h * f[1:-1])
    return u


def chebyshev_iteration(A, b, lmin, lmax, iters=40):
    """Chebyshev semi-iteration with known eigenvalue bounds (scalar recurrences for
    the coefficients, matrix-vector products for the iterate)."""
    d = (lmax + lmin) / 2.0
    c = (lmax - lmin) / 2.0
    x = np.zeros_like(b)
    r = b - A @ x
    p = np.zeros_like(b)
    alpha = 0.0
    for i in range(iters):
        if i == 0:
            p = r.copy()
            alpha = 1.0 / d
        else:
            beta = (c * alpha / 2.0) ** 2
            if i == 1:
                beta = 0.5 * (c / d) ** 2
            alpha = 1.0 / (d - beta / alpha)
            p = r + beta * p
        x = x + alpha * p
        r = b - A @ x
    return x, np.linalg.norm(r)

# ---------------------------------------------------------------- small-matrix linear algebra


def jacobi_eigenvalues(S, sweeps=5):
    """Cyclic Jacobi rotations on a small symmetric matrix; eigenvalues sorted."""
    A = S.copy()
    n = A.shape[0]
    V = np.eye(n)
    for _ in range(sweeps):
        for p in range(n - 1):
            for q in range(p + 1, n):
                if abs(A[p, q]) < 1e-14:
                    continue
                theta = 0.5 * np.arctan2(2 * A[p, q], A[q, q] - A[p, p])
                c, s = np.cos(theta), np.sin(theta)
                J = np.eye(n)
                J[p, p] = c
                J[q, q] = c
                J[p, q] = s
                J[q, p] = -s
                A = J.T @ A @ J
                V = V @ J
    return np.sort(np.diag(A)), V


def recursive_least_squares(X, y, lam=0.99, delta=100.0):
    """RLS over the rows of X: gain, a-priori error, covariance rank-one downdate."""
    n = X.shape[1]
    w = np.zeros(n)
    P = delta * np.eye(n)
    errs = np.empty(len(y))
    for t in range(len(y)):
        x = X[t]
        Px = P @ x
        k = Px / (lam + x @ Px)
        e = y[t] - w @ x
        w = w + k * e
        P = (P - np.outer(k, Px)) / lam
        errs[t] = e
    return w, errs


def ekf_pendulum(zs, dt=0.05, g=9.81, q=1e-3, r=0.05):
    """Extended Kalman filter for a pendulum (angle, rate), angle measured via sin."""
    x = np.array([0.5, 0.0])
    P = np.eye(2)
    Q = q * np.eye(2)
    est = []
    for z in zs:
        x = np.array([x[0] + dt * x[1], x[1] - dt * g * np.sin(x[0])])
        F = np.array([[1.0, dt], [-dt * g * np.cos(x[0]), 1.0]])
        P = F @ P @ F.T + Q
        H = np.array([[np.cos(x[0]), 0.0]])
        S = H @ P @ H.T + r
        K = P @ H.T / S
        x = x + (K * (z - np.sin(x[0]))).ravel()
        P = (np.eye(2) - K @ H) @ P
        est.append(x[0])
    return np.array(est), P


def rodrigues_bodies(R, omega, dt=0.01, steps=20):
    """Integrate many rigid-body orientations (N, 3, 3): a Rodrigues rotation per body
    per step, composed with einsum; orthogonality error at the end."""
    angle = np.linalg.norm(omega, axis=1) * dt
    axis = omega / np.linalg.norm(omega, axis=1, keepdims=True)
    K = np.zeros((len(omega), 3, 3))
    K[:, 0, 1] = -axis[:, 2]
    K[:, 0, 2] = axis[:, 1]
    K[:, 1, 0] = axis[:, 2]
    K[:, 1, 2] = -axis[:, 0]
    K[:, 2, 0] = -axis[:, 1]
    K[:, 2, 1] = axis[:, 0]
    s = np.sin(angle)[:, None, None]
    c = (1 - np.cos(angle))[:, None, None]
    step = np.eye(3)[None] + s * K + c * np.einsum("nij,njk->nik", K, K)
    for _ in range(steps):
        R = np.einsum("nij,njk->nik", step, R)
    err = np.abs(np.einsum("nji,njk->nik", R, R) - np.eye(3)).max()
    return R, err

# ---------------------------------------------------------------- training loops


def softmax_regression(X, labels, n_classes=5, lr=0.5, steps=40, l2=1e-3):
    """Multinomial logistic regression, full-batch gradient descent, one-hot targets."""
    n, d = X.shape
    Y = np.eye(n_classes)[labels]
    W = np.zeros((d, n_classes))
    b = np.zeros(n_classes)
    losses = []
    for _ in range(steps):
        z = X @ W + b
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        losses.append(-np.mean(np.sum(Y * np.log(p + 1e-12), axis=1)))
        g = (p - Y) / n
        W -= lr * (X.T @ g + l2 * W)
        b -= lr * g.sum(axis=0)
    return W, b, losses


def tied_autoencoder(X, W, lr=0.01, steps=30):
    """Linear autoencoder with tied weights (code = X W, recon = code W^T), SGD."""
    n = X.shape[0]
    for _ in range(steps):
        code = X @ W
        err = code @ W.T - X
        grad = (X.T @ (err @ W) + err.T @ code) / n
        W = W - lr * grad
    return W, float(np.mean(err ** 2))


def perceptron_online(X, y, epochs=3, lr=1.0):
    """Per-sample perceptron with an averaged weight vector."""
    w = np.zeros(X.shape[1])
    avg = np.zeros(X.shape[1])
    mistakes = 0
    for _ in range(epochs):
        for i in range(X.shape[0]):
            if y[i] * (X[i] @ w) <= 0:
                w = w + lr * y[i] * X[i]
                mistakes += 1
            avg += w
    return avg / (epochs * X.shape[0]), mistakes


def poisson_irls(X, counts, iters=8):
    """Poisson regression by Newton / IRLS: weights exp(eta), normal equations solved."""
    beta = np.zeros(X.shape[1])
    for _ in range(iters):
        eta = X @ beta
        mu = np.exp(eta)
        z = eta + (counts - mu) / mu
        XtW = X.T * mu
        beta = np.linalg.solve(XtW @ X, XtW @ z)
    deviance = 2 * np.sum(np.where(counts > 0, counts * np.log(np.maximum(counts, 1) / mu), 0.0)
                          - (counts - mu))
    return beta, deviance


def nmf_multiplicative(V, W, H, iters=30, eps=1e-9):
    """Lee-Seung NMF with multiplicative updates (Frobenius loss)."""
    for _ in range(iters):
        H *= (W.T @ V) / (W.T @ W @ H + eps)
        W *= (V @ H.T) / (W @ (H @ H.T) + eps)
    return W, H, np.linalg.norm(V - W @ H)

# ---------------------------------------------------------------- particle simulations


def sph_density_pressure(pos, vel, h=0.1, k=1.0, rho0=1.0, dt=1e-3, steps=5):
    """Smoothed-particle hydrodynamics, all pairs: poly6 density, spiky pressure force."""
    n = pos.shape[0]
    m = 1.0 / n
    poly6 = 315.0 / (64.0 * np.pi * h ** 9)
    spiky = -45.0 / (np.pi * h ** 6)
    for _ in range(steps):
        d = pos[:, None, :] - pos[None, :, :]
        r2 = np.sum(d * d, axis=-1)
        w = np.where(r2 < h * h, (h * h - r2) ** 3, 0.0)
        rho = m * poly6 * w.sum(axis=1)
        p = k * (rho - rho0)
        r = np.sqrt(r2) + 1e-12
        grad = np.where(r < h, spiky * (h - r) ** 2 / r, 0.0)
        coef = m * (p[:, None] + p[None, :]) / (2 * rho[None, :]) * grad
        np.fill_diagonal(coef, 0.0)
        force = -np.einsum("ij,ijk->ik", coef, d)
        vel = vel + dt * force / rho[:, None]
        pos = pos + dt * vel
    return pos, rho


def morse_md_box(pos, vel, L=6.0, D=1.0, a=1.5, r0=1.0, dt=0.002, steps=6):
    """Velocity Verlet with a Morse pair potential in a periodic box (minimum image)."""
    def forces(x):
        d = x[:, None, :] - x[None, :, :]
        d -= L * np.round(d / L)
        r = np.sqrt(np.sum(d ** 2, axis=-1))
        np.fill_diagonal(r, np.inf)
        e = np.exp(-a * (r - r0))
        fmag = 2 * a * D * (e * e - e)
        pot = 0.5 * np.sum(D * (1 - e) ** 2 - D)
        return np.sum((fmag / r)[:, :, None] * d, axis=1), pot

    f, pot = forces(pos)
    for _ in range(steps):
        vel += 0.5 * dt * f
        pos = (pos + dt * vel) % L
        f, pot = forces(pos)
        vel += 0.5 * dt * f
    return pos, vel, pot + 0.5 * np.sum(vel ** 2)


def boids(pos, vel, r_sep=0.5, r_vis=2.0, vmax=1.0, dt=0.1, steps=8):
    """Boids: separation, alignment and cohesion from all-pair masks; speed clipped."""
    for _ in range(steps):
        d = pos[None, :, :] - pos[:, None, :]
        dist = np.sqrt((d ** 2).sum(-1))
        near = (dist < r_vis) & (dist > 0)
        close = (dist < r_sep) & (dist > 0)
        cnt = np.maximum(near.sum(1), 1)[:, None]
        align = (near[:, :, None] * vel[None]).sum(1) / cnt - vel
        cohes = (near[:, :, None] * d).sum(1) / cnt
        separ = -(close[:, :, None] * d).sum(1)
        vel = vel + 0.05 * align + 0.01 * cohes + 0.1 * separ
        speed = np.linalg.norm(vel, axis=1, keepdims=True)
        vel = np.where(speed > vmax, vel / speed * vmax, vel)
        pos = pos + dt * vel
    return pos, vel


def brownian_trap_walls(x, k=1.0, D=0.5, dt=0.01, steps=200, wall=1.5, seed=11):
    """Overdamped particles in a harmonic trap between reflecting walls; a histogram."""
    rng = np.random.default_rng(seed)
    s = np.sqrt(2 * D * dt)
    for _ in range(steps):
        x = x - k * x * dt + s * rng.standard_normal(x.shape)
        x = np.where(x > wall, 2 * wall - x, x)
        x = np.where(x < -wall, -2 * wall - x, x)
    hist, _ = np.histogram(x, bins=30, range=(-wall, wall))
    return x, hist

# ---------------------------------------------------------------- signal processing


def biquad_channels(x, b0, b1, b2, a1, a2):
    """One biquad (direct form II transposed) over many channels: x is (T, C), the loop
    runs over time with the two state rows as arrays."""
    T = x.shape[0]
    y = np.empty_like(x)
    z1 = np.zeros(x.shape[1])
    z2 = np.zeros(x.shape[1])
    for t in range(T):
        xt = x[t]
        yt = b0 * xt + z1
        z1 = b1 * xt - a1 * yt + z2
        z2 = b2 * xt - a2 * yt
        y[t] = yt
    return y


def overlap_add(x, h, block=256):
    """FFT convolution block by block, overlaps added into the output."""
    m = h.shape[0]
    nfft = 1
    while nfft < block + m - 1:
        nfft *= 2
    H = np.fft.rfft(h, nfft)
    y = np.zeros(x.shape[0] + m - 1)
    for start in range(0, x.shape[0], block):
        seg = x[start:start + block]
        conv = np.fft.irfft(np.fft.rfft(seg, nfft) * H, nfft)[:seg.shape[0] + m - 1]
        y[start:start + conv.shape[0]] += conv
    return y


def goertzel_bank(x, freqs, fs=8000.0):
    """Goertzel power at several frequencies: one scalar-recurrence per sample,
    vectorized over the frequencies."""
    w = 2 * np.pi * freqs / fs
    coeff = 2 * np.cos(w)
    s1 = np.zeros_like(freqs)
    s2 = np.zeros_like(freqs)
    for sample in x:
        s0 = sample + coeff * s1 - s2
        s2 = s1
        s1 = s0
    return s1 * s1 + s2 * s2 - coeff * s1 * s2


def lms_filter(x, d, taps=16, mu=0.01):
    """LMS adaptive FIR: a sliding window of the input, the weights updated per sample."""
    w = np.zeros(taps)
    e = np.zeros(len(x))
    for n in range(taps, len(x)):
        u = x[n - taps:n][::-1]
        e[n] = d[n] - w @ u
        w = w + 2 * mu * e[n] * u
    return w, e


def welch_psd(x, nperseg=256, fs=1.0):
    """Welch's method by hand: Hann-windowed half-overlapping segments, |rfft|^2 summed
    in a loop, scaled to a density."""
    win = np.hanning(nperseg)
    scale = 1.0 / (fs * np.sum(win ** 2))
    step = nperseg // 2
    acc = np.zeros(nperseg // 2 + 1)
    count = 0
    for start in range(0, x.shape[0] - nperseg + 1, step):
        seg = x[start:start + nperseg]
        seg = (seg - seg.mean()) * win
        acc += np.abs(np.fft.rfft(seg)) ** 2
        count += 1
    psd = acc * scale / count
    psd[1:-1] *= 2
    return np.fft.rfftfreq(nperseg, 1.0 / fs), psd

# ---------------------------------------------------------------- the list


def programs(small: bool = False):
    """(name, fn, args, kwargs): args are copied before every call. ``small``: the same
    programs on small inputs and few steps (a differential test's sizes)."""
    rng = np.random.default_rng(35)

    def s(big, little):
        return little if small else big

    def r(*shape):
        return rng.random(shape)

    def normal(*shape):
        return rng.standard_normal(shape)

    n_br = s(128, 12)
    n_gs = s(130, 12)
    gs_U = np.ones((n_gs, n_gs))
    gs_V = np.zeros((n_gs, n_gs))
    gs_U[n_gs // 3:n_gs // 2, n_gs // 3:n_gs // 2] = 0.5
    gs_V[n_gs // 3:n_gs // 2, n_gs // 3:n_gs // 2] = 0.25
    n_bu = s(4000, 60)
    bu_x = np.linspace(0, 1, n_bu)
    n_j9 = s(128, 12)
    n_j3 = s(40, 8)
    j3 = np.zeros((n_j3, n_j3, n_j3))
    j3[0] = 1.0
    n_jd = s(300, 16)
    jd_A = r(n_jd, n_jd) + n_jd * np.eye(n_jd)
    n_sd = s(300, 16)
    sd_M = normal(n_sd, n_sd) / np.sqrt(n_sd)
    sd_A = sd_M @ sd_M.T + np.eye(n_sd)
    n_ch = s(300, 16)
    ch_eigs = np.linspace(1.0, 10.0, n_ch)
    ch_Q = np.linalg.qr(normal(n_ch, n_ch))[0]
    ch_A = (ch_Q * ch_eigs) @ ch_Q.T
    n_je = s(10, 4)
    je_M = normal(n_je, n_je)
    n_rls = s(400, 20)
    rls_X = normal(n_rls, 6)
    rls_y = rls_X @ np.arange(1.0, 7.0) + 0.1 * normal(n_rls)
    n_ekf = s(300, 10)
    ekf_z = np.sin(0.5 * np.cos(np.linspace(0, 10, n_ekf))) + 0.05 * normal(n_ekf)
    n_rod = s(4000, 20)
    n_sm = s(2000, 40)
    sm_X = normal(n_sm, 20)
    sm_lab = np.argmax(sm_X[:, :5] + 0.5 * normal(n_sm, 5), axis=1)
    ae_X = normal(s(1000, 30), 40)
    n_pc = s(300, 20)
    pc_X = normal(n_pc, 10)
    pc_y = np.where(pc_X @ normal(10) > 0, 1.0, -1.0)
    n_po = s(10000, 40)
    po_X = np.column_stack([np.ones(n_po), 0.3 * normal(n_po, 4)])
    po_c = rng.poisson(np.exp(po_X @ np.array([0.5, 0.2, -0.1, 0.3, 0.05]))).astype(float)
    m_nmf, n_nmf = s(200, 12), s(150, 10)
    n_sph = s(250, 16)
    n_md = s(150, 12)
    md_side = int(np.ceil(n_md ** (1 / 3)))
    md_grid = np.stack(np.meshgrid(*[np.arange(md_side)] * 3, indexing="ij"), -1).reshape(-1, 3)
    md_pos = (md_grid[:n_md] * (6.0 / md_side) + 0.05 * normal(n_md, 3)).astype(float)
    n_bo = s(200, 16)
    T_bq, C_bq = s(2000, 30), s(64, 4)
    fs = 8000.0
    tone = np.sin(2 * np.pi * 697 * np.arange(s(2000, 60)) / fs) + 0.1 * normal(s(2000, 60))
    n_lms = s(2000, 60)
    lms_x = normal(n_lms)
    lms_d = np.convolve(lms_x, np.array([0.5, -0.3, 0.2, 0.1]), mode="full")[:n_lms]
    return [
        # time steppers
        ("Brusselator 2-D reaction-diffusion", brusselator_2d,
         (1 + 0.1 * r(n_br, n_br), 3 + 0.1 * r(n_br, n_br)), {"steps": s(50, 3)}),
        ("Gray-Scott in place, periodic copies", gray_scott_inplace, (gs_U, gs_V),
         {"steps": s(40, 3)}),
        ("MacCormack viscous Burgers", maccormack_burgers,
         (np.sin(2 * np.pi * bu_x) + 0.5,), {"dx": 1.0 / n_bu, "dt": 0.2 / n_bu,
                                              "nu": 0.1 / n_bu, "steps": s(150, 5)}),
        ("damped wave 2-D, three buffers", damped_wave_2d, (),
         {"n": s(120, 12), "steps": s(60, 4)}),
        ("Cahn-Hilliard semi-implicit FFT", cahn_hilliard_spectral,
         (0.1 * normal(s(64, 8), s(64, 8)),), {"steps": s(20, 3)}),
        ("Ornstein-Uhlenbeck Euler-Maruyama", ou_euler_maruyama, (normal(s(5000, 30)),),
         {"steps": s(200, 5)}),
        ("Rossler midpoint ensemble", rossler_midpoint,
         (normal(s(3000, 20)), normal(s(3000, 20)), r(s(3000, 20))), {"steps": s(300, 5)}),
        # stencils
        ("9-point Jacobi in place", jacobi9_inplace,
         (np.zeros((n_j9, n_j9)), r(n_j9, n_j9)), {"iters": s(50, 3)}),
        ("3-D 7-point Jacobi, swapped buffers", jacobi_3d_swap, (j3,), {"iters": s(10, 2)}),
        ("Perona-Malik diffusion", perona_malik, (r(s(160, 12), s(160, 12)),),
         {"iters": s(15, 2)}),
        ("Life by padded neighbour slices", life_padded_counts,
         ((r(s(200, 12), s(200, 12)) < 0.3).astype(np.int64),), {"gens": s(20, 3)}),
        # iterative solvers
        ("dense Jacobi to tolerance (while)", jacobi_dense_tol, (jd_A, r(n_jd)), {}),
        ("PCG matrix-free Poisson 2-D", pcg_poisson_matfree, (r(s(128, 10), s(128, 10)),),
         {"iters": s(40, 4)}),
        ("steepest descent SPD", steepest_descent, (sd_A, normal(n_sd)), {"iters": s(60, 4)}),
        ("two-grid Poisson 1-D", two_grid_poisson_1d,
         (np.sin(np.pi * np.linspace(0, 1, s(401, 17))),), {"cycles": s(8, 2)}),
        ("Chebyshev iteration", chebyshev_iteration, (ch_A, normal(n_ch), 1.0, 10.0),
         {"iters": s(100, 4)}),
        # small-matrix linear algebra
        ("cyclic Jacobi eigenvalues", jacobi_eigenvalues, (je_M + je_M.T,),
         {"sweeps": s(5, 2)}),
        ("recursive least squares", recursive_least_squares, (rls_X, rls_y), {}),
        ("EKF pendulum", ekf_pendulum, (ekf_z,), {}),
        ("Rodrigues rotations of many bodies", rodrigues_bodies,
         (np.tile(np.eye(3), (n_rod, 1, 1)), normal(n_rod, 3)), {"steps": s(20, 3)}),
        # training loops
        ("softmax regression full batch", softmax_regression, (sm_X, sm_lab),
         {"steps": s(40, 3)}),
        ("tied-weight linear autoencoder", tied_autoencoder, (ae_X, 0.1 * normal(40, 8)),
         {"steps": s(30, 3)}),
        ("averaged perceptron per sample", perceptron_online, (pc_X, pc_y),
         {"epochs": s(3, 2)}),
        ("Poisson regression IRLS", poisson_irls, (po_X, po_c), {"iters": s(8, 3)}),
        ("NMF multiplicative updates", nmf_multiplicative,
         (r(m_nmf, n_nmf), r(m_nmf, 10), r(10, n_nmf)), {"iters": s(30, 3)}),
        # particle simulations
        ("SPH density + pressure all pairs", sph_density_pressure,
         (r(n_sph, 2), np.zeros((n_sph, 2))), {"h": s(0.1, 0.4), "steps": s(5, 2)}),
        ("Morse MD periodic box", morse_md_box, (md_pos, 0.1 * normal(n_md, 3)),
         {"steps": s(6, 2)}),
        ("boids all-pair masks", boids, (10 * r(n_bo, 2), normal(n_bo, 2)),
         {"steps": s(8, 2)}),
        ("Brownian particles, trap and walls", brownian_trap_walls, (normal(s(20000, 50)),),
         {"steps": s(200, 5)}),
        # signal processing
        ("biquad over channels", biquad_channels,
         (normal(T_bq, C_bq), 0.2, 0.4, 0.2, -0.5, 0.3), {}),
        ("overlap-add FFT convolution", overlap_add,
         (normal(s(100_000, 600)), np.hanning(65)), {"block": s(1024, 128)}),
        ("Goertzel bank", goertzel_bank, (tone, np.array([697.0, 770.0, 852.0, 941.0])),
         {}),
        ("LMS adaptive filter", lms_filter, (lms_x, lms_d), {}),
        ("Welch PSD by segments", welch_psd, (normal(s(200_000, 2048)),),
         {"nperseg": s(256, 128)}),
    ]
