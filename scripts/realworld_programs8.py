"""An eighth program corpus of scripts/bench_realworld.py (issue #15): thirty-one programs
of the kinds the first seven have least of, written as NumPy users write them, before any
ran under dynamo: time steppers (RK4, leapfrog, semi-implicit Euler, Heun), iterative
solvers (preconditioned CG, line Gauss-Seidel, inverse iteration, vector Newton, BiCGSTAB,
Jacobi to a tolerance), small matrices in loops (Kalman filters, 3x3 rotations, batched
``@``, Gram-Schmidt), training steps (IRLS, manual backprop, Adam, Nesterov), signal
processing (per-sample IIR filters, FFT convolutions, STFT, Welch) and simulations (Life,
SIR, random walkers, forest fire, Ising). ``programs(small=False)``: (name, fn, args,
kwargs) at sizes where plain NumPy takes about 1 ms or more; ``small=True``: the same on
small inputs (tests/realworld/test_realworld_programs8.py).

Example::

    >>> programs(small=True)[0][0]
    'RK4 charged particles in a magnetic field'
"""

from __future__ import annotations

import numpy as np

# ---------------------------------------------------------------- explicit time steppers

def rk4_lorentz_particles(x, v, B, q_m=1.0, dt=0.01, steps=40):
    """Charged particles in a uniform magnetic field B (and a weak radial E field), RK4."""
    def accel(pos, vel):
        E = -0.1 * pos
        return q_m * (E + np.cross(vel, B))
    for _ in range(steps):
        k1x, k1v = v, accel(x, v)
        k2x, k2v = v + 0.5 * dt * k1v, accel(x + 0.5 * dt * k1x, v + 0.5 * dt * k1v)
        k3x, k3v = v + 0.5 * dt * k2v, accel(x + 0.5 * dt * k2x, v + 0.5 * dt * k2v)
        k4x, k4v = v + dt * k3v, accel(x + dt * k3x, v + dt * k3v)
        x = x + dt / 6.0 * (k1x + 2 * k2x + 2 * k3x + k4x)
        v = v + dt / 6.0 * (k1v + 2 * k2v + 2 * k3v + k4v)
    return x, v


def kick_drift_kick_nbody(pos, vel, mass, dt=0.01, steps=10, eps=0.05):
    """A softened gravitational n-body by kick-drift-kick leapfrog; total energy at the end."""
    def forces(p):
        d = p[None, :, :] - p[:, None, :]
        r2 = (d ** 2).sum(axis=-1) + eps ** 2
        inv3 = r2 ** -1.5
        np.fill_diagonal(inv3, 0.0)
        return (d * (inv3 * mass[None, :])[:, :, None]).sum(axis=1)
    a = forces(pos)
    for _ in range(steps):
        vel = vel + 0.5 * dt * a
        pos = pos + dt * vel
        a = forces(pos)
        vel = vel + 0.5 * dt * a
    ke = 0.5 * np.sum(mass * np.sum(vel ** 2, axis=1))
    return pos, vel, ke


def semi_implicit_bouncing(y, vy, x, vx, g=9.81, drag=0.1, e=0.8, dt=0.002, steps=100):
    """Particles under gravity and drag; semi-implicit Euler; floor bounces lose energy."""
    for _ in range(steps):
        vy, vx = vy - dt * (g + drag * vy), vx - dt * drag * vx
        y, x = y + dt * vy, x + dt * vx
        hit = y < 0.0
        y[hit] = -y[hit]
        vy[hit] = -e * vy[hit]
    return x, y, vx, vy


def wave2d_leapfrog(u, c=1.0, dx=0.01, dt=0.005, steps=30):
    """The 2-D wave equation with fixed edges by a three-level leapfrog scheme."""
    r2 = (c * dt / dx) ** 2
    prev, cur = u.copy(), u.copy()
    for _ in range(steps):
        nxt = np.zeros_like(cur)
        nxt[1:-1, 1:-1] = (2 * cur[1:-1, 1:-1] - prev[1:-1, 1:-1]
                           + r2 * (cur[2:, 1:-1] + cur[:-2, 1:-1] + cur[1:-1, 2:]
                                   + cur[1:-1, :-2] - 4 * cur[1:-1, 1:-1]))
        prev, cur = cur, nxt
    return cur


def brusselator_heun(u, v, a=1.0, b=3.0, Du=0.02, Dv=0.01, dt=0.01, steps=20):
    """A periodic Brusselator reaction-diffusion system by Heun's (RK2) method."""
    def lap(z):
        return (np.roll(z, 1, 0) + np.roll(z, -1, 0) + np.roll(z, 1, 1) + np.roll(z, -1, 1)
                - 4 * z)
    def rhs(p, q):
        p2q = p * p * q
        return a - (b + 1) * p + p2q + Du * lap(p), b * p - p2q + Dv * lap(q)
    for _ in range(steps):
        fu, fv = rhs(u, v)
        gu, gv = rhs(u + dt * fu, v + dt * fv)
        u = u + 0.5 * dt * (fu + gu)
        v = v + 0.5 * dt * (fv + gv)
    return u, v


# ---------------------------------------------------------------- iterative solvers

def pcg_laplacian_matrix_free(b, iters=30):
    """CG on the 5-point Laplacian applied by slices, Jacobi preconditioner (diagonal 4)."""
    def A(p):
        q = 4.0 * p
        q[1:, :] -= p[:-1, :]
        q[:-1, :] -= p[1:, :]
        q[:, 1:] -= p[:, :-1]
        q[:, :-1] -= p[:, 1:]
        return q
    x = np.zeros_like(b)
    r = b - A(x)
    z = r / 4.0
    p = z.copy()
    rz = np.sum(r * z)
    for _ in range(iters):
        Ap = A(p)
        alpha = rz / np.sum(p * Ap)
        x += alpha * p
        r -= alpha * Ap
        z = r / 4.0
        rz_new = np.sum(r * z)
        p = z + (rz_new / rz) * p
        rz = rz_new
    return x, np.sqrt(np.sum(r * r))


def line_gauss_seidel_rows(u, f, h, omega=1.2, sweeps=4):
    """SOR row by row: the updated row above, the row's own old values (line Gauss-Seidel)."""
    u = u.copy()
    n = u.shape[0]
    for _ in range(sweeps):
        for i in range(1, n - 1):
            gs = 0.25 * (u[i - 1, 1:-1] + u[i + 1, 1:-1] + u[i, :-2] + u[i, 2:]
                         - h * h * f[i, 1:-1])
            u[i, 1:-1] = (1 - omega) * u[i, 1:-1] + omega * gs
    return u


def shifted_inverse_iteration(A, mu, iters=15):
    """The eigenpair of A nearest mu by inverse iteration with a fixed shift."""
    n = A.shape[0]
    M = A - mu * np.eye(n)
    v = np.ones(n) / np.sqrt(n)
    lam = mu
    for _ in range(iters):
        w = np.linalg.solve(M, v)
        v = w / np.linalg.norm(w)
        lam = v @ A @ v
    return lam, v


def newton_cubic_roots(a, b, tol=1e-12, max_iter=50):
    """The real roots of x^3 + a x - b = 0 (a > 0): Newton until the largest step < tol."""
    x = np.cbrt(b)
    it = 0
    for it in range(max_iter):  # noqa: B007  (returned: the count)
        fx = x ** 3 + a * x - b
        step = fx / (3 * x ** 2 + a)
        x = x - step
        if np.max(np.abs(step)) < tol:
            break
    return x, it


def bicgstab_dense(A, b, iters=25):
    """BiCGSTAB on a dense nonsymmetric system, a fixed number of iterations."""
    x = np.zeros_like(b)
    r = b - A @ x
    r0 = r.copy()
    rho = alpha = omega = 1.0
    v, p = np.zeros_like(b), np.zeros_like(b)
    for _ in range(iters):
        rho_new = r0 @ r
        beta = (rho_new / rho) * (alpha / omega)
        p = r + beta * (p - omega * v)
        v = A @ p
        alpha = rho_new / (r0 @ v)
        s = r - alpha * v
        t = A @ s
        omega = (t @ s) / (t @ t)
        x = x + alpha * p + omega * s
        r = s - omega * t
        rho = rho_new
    return x, np.linalg.norm(r)


def jacobi_until_tol(u, f, h, tol=1e-4, max_iter=200):
    """Jacobi sweeps on the Poisson equation until the largest update is below tol."""
    u = u.copy()
    k = 0
    for k in range(max_iter):  # noqa: B007  (returned: the count)
        new = u.copy()
        new[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
                                  - h * h * f[1:-1, 1:-1])
        diff = np.abs(new - u).max()
        u = new
        if diff < tol:
            break
    return u, k


# ---------------------------------------------------------------- small matrices in loops

def kalman_ca_3state(zs, dt=0.05, q=0.1, r=0.5):
    """A constant-acceleration Kalman filter of positions: estimates and innovations."""
    F = np.array([[1.0, dt, 0.5 * dt * dt], [0.0, 1.0, dt], [0.0, 0.0, 1.0]])
    H = np.array([[1.0, 0.0, 0.0]])
    Q = q * np.diag([dt ** 4 / 4, dt ** 2, 1.0])
    R = np.array([[r]])
    x = np.zeros(3)
    P = np.eye(3) * 10.0
    est, innov = np.zeros((len(zs), 3)), np.zeros(len(zs))
    for k, z in enumerate(zs):
        x = F @ x
        P = F @ P @ F.T + Q
        y = z - H @ x
        S = H @ P @ H.T + R
        K = P @ H.T @ np.linalg.inv(S)
        x = x + K @ y
        P = (np.eye(3) - K @ H) @ P
        est[k] = x
        innov[k] = y[0]
    return est, innov


def euler_angle_rotations(pts, angles):
    """Points rotated by a yaw-pitch-roll matrix built per frame; each frame's centroid."""
    out = []
    for yaw, pitch, roll in angles:
        cy, sy = np.cos(yaw), np.sin(yaw)
        cp, sp = np.cos(pitch), np.sin(pitch)
        cr, sr = np.cos(roll), np.sin(roll)
        Rz = np.array([[cy, -sy, 0.0], [sy, cy, 0.0], [0.0, 0.0, 1.0]])
        Ry = np.array([[cp, 0.0, sp], [0.0, 1.0, 0.0], [-sp, 0.0, cp]])
        Rx = np.array([[1.0, 0.0, 0.0], [0.0, cr, -sr], [0.0, sr, cr]])
        R = Rz @ Ry @ Rx
        rotated = pts @ R.T
        out.append(rotated.mean(axis=0))
    return np.array(out), rotated


def batched_homogeneous_transforms(T, pts, steps=5):
    """Each body's 4x4 transform applied to its points, by batched ``@``, several times."""
    n_bodies, n_pts, _ = pts.shape
    h = np.concatenate([pts, np.ones((n_bodies, n_pts, 1))], axis=2)
    for _ in range(steps):
        h = h @ np.transpose(T, (0, 2, 1))
        h = h / h[:, :, 3:4]
    return h[:, :, :3]


def ekf_range_bearing(zs, landmark, dt=0.1, q=0.01, r_range=0.1, r_bear=0.01):
    """An EKF of a 2-D target seen as range and bearing; the Jacobian rebuilt each step."""
    F = np.eye(4)
    F[0, 2] = F[1, 3] = dt
    Q = q * np.eye(4)
    R = np.diag([r_range, r_bear])
    x = np.array([1.0, 1.0, 0.0, 0.0])
    P = np.eye(4)
    track = np.zeros((len(zs), 4))
    for k in range(len(zs)):
        x = F @ x
        P = F @ P @ F.T + Q
        dx, dy = x[0] - landmark[0], x[1] - landmark[1]
        rng2 = dx * dx + dy * dy
        rng = np.sqrt(rng2)
        h = np.array([rng, np.arctan2(dy, dx)])
        Hj = np.array([[dx / rng, dy / rng, 0.0, 0.0], [-dy / rng2, dx / rng2, 0.0, 0.0]])
        y = zs[k] - h
        y[1] = (y[1] + np.pi) % (2 * np.pi) - np.pi
        S = Hj @ P @ Hj.T + R
        K = P @ Hj.T @ np.linalg.inv(S)
        x = x + K @ y
        P = (np.eye(4) - K @ Hj) @ P
        track[k] = x
    return track


def batched_gram_schmidt(M):
    """Orthonormal columns of a batch of small matrices by classical Gram-Schmidt."""
    Q = np.zeros_like(M)
    n = M.shape[-1]
    for j in range(n):
        v = M[:, :, j].copy()
        for i in range(j):
            coef = np.einsum("bk,bk->b", Q[:, :, i], M[:, :, j])
            v -= coef[:, None] * Q[:, :, i]
        Q[:, :, j] = v / np.linalg.norm(v, axis=1, keepdims=True)
    return Q


# ---------------------------------------------------------------- training steps

def logreg_irls(X, y, iters=6, lam=1e-6):
    """Logistic regression by iteratively reweighted least squares (Newton steps)."""
    n, d = X.shape
    w = np.zeros(d)
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-(X @ w)))
        W = p * (1 - p)
        Hs = X.T @ (X * W[:, None]) + lam * np.eye(d)
        g = X.T @ (p - y)
        w = w - np.linalg.solve(Hs, g)
    return w


def relu_mlp_full_batch(X, y, W1, b1, W2, b2, lr=0.05, epochs=20):
    """A 2-layer ReLU regression net, full-batch GD with manual backprop; the losses."""
    n = X.shape[0]
    losses = np.zeros(epochs)
    for ep in range(epochs):
        z1 = X @ W1 + b1
        a1 = np.maximum(z1, 0)
        pred = a1 @ W2 + b2
        err = pred - y
        losses[ep] = np.mean(err ** 2)
        d2 = 2 * err / n
        gW2, gb2 = a1.T @ d2, d2.sum(axis=0)
        d1 = (d2 @ W2.T) * (z1 > 0)
        gW1, gb1 = X.T @ d1, d1.sum(axis=0)
        W1 -= lr * gW1
        b1 -= lr * gb1
        W2 -= lr * gW2
        b2 -= lr * gb2
    return losses


def softmax_regression_adam(X, Y, W, lr=0.01, b1=0.9, b2=0.999, eps=1e-8, steps=30):
    """Multinomial logistic regression by Adam on the full batch."""
    m, v = np.zeros_like(W), np.zeros_like(W)
    for t in range(1, steps + 1):
        logits = X @ W
        logits -= logits.max(axis=1, keepdims=True)
        P = np.exp(logits)
        P /= P.sum(axis=1, keepdims=True)
        G = X.T @ (P - Y) / X.shape[0]
        m = b1 * m + (1 - b1) * G
        v = b2 * v + (1 - b2) * G * G
        mhat = m / (1 - b1 ** t)
        vhat = v / (1 - b2 ** t)
        W = W - lr * mhat / (np.sqrt(vhat) + eps)
    return W


def ridge_nesterov(X, y, lam=0.1, lr=0.01, mu=0.9, steps=50):
    """Ridge regression by Nesterov accelerated gradient; the objective at the end."""
    n, d = X.shape
    w, vel = np.zeros(d), np.zeros(d)
    for _ in range(steps):
        look = w + mu * vel
        grad = X.T @ (X @ look - y) / n + lam * look
        vel = mu * vel - lr * grad
        w = w + vel
    res = X @ w - y
    return w, 0.5 * np.mean(res ** 2) + 0.5 * lam * w @ w


# ---------------------------------------------------------------- signal processing

def biquad_per_sample(x, b, a):
    """A biquad IIR filter (direct form I) over many channels, one time sample a step."""
    y = np.zeros_like(x)
    x1 = x2 = y1 = y2 = np.zeros(x.shape[1])
    for n in range(x.shape[0]):
        xn = x[n]
        yn = b[0] * xn + b[1] * x1 + b[2] * x2 - a[1] * y1 - a[2] * y2
        y[n] = yn
        x2, x1 = x1, xn
        y2, y1 = y1, yn
    return y


def one_pole_lowpass(sig, alpha=0.05):
    """A one-pole low-pass filter of a 1-D signal, sample by sample."""
    out = np.empty_like(sig)
    acc = sig[0]
    for i in range(len(sig)):
        acc = acc + alpha * (sig[i] - acc)
        out[i] = acc
    return out


def fft_convolve_rows(X, k):
    """Full linear convolution of every row with one kernel by zero-padded rFFTs."""
    n = X.shape[1] + k.shape[0] - 1
    nfft = 1 << (n - 1).bit_length()
    Y = np.fft.irfft(np.fft.rfft(X, nfft, axis=1) * np.fft.rfft(k, nfft), nfft, axis=1)
    return Y[:, :n]


def overlap_add_fir(x, h, block=256):
    """A long signal filtered by an FIR in blocks, by FFT and overlap-add."""
    m = h.shape[0]
    nfft = 1 << (block + m - 2).bit_length()
    H = np.fft.rfft(h, nfft)
    y = np.zeros(x.shape[0] + m - 1)
    for start in range(0, x.shape[0], block):
        seg = x[start:start + block]
        yb = np.fft.irfft(np.fft.rfft(seg, nfft) * H, nfft)
        end = min(start + nfft, y.shape[0])
        y[start:end] += yb[:end - start]
    return y


def stft_magnitude(x, nper=256, hop=64):
    """The magnitude of a Hann-windowed short-time Fourier transform, in decibels."""
    win = np.hanning(nper)
    n_frames = 1 + (x.shape[0] - nper) // hop
    idx = np.arange(nper)[None, :] + hop * np.arange(n_frames)[:, None]
    frames = x[idx] * win
    S = np.abs(np.fft.rfft(frames, axis=1))
    return 20 * np.log10(S + 1e-10)


def welch_averaged_periodograms(x, fs=1000.0, nper=512):
    """Welch's PSD: half-overlapping Hann segments less their mean, periodograms averaged."""
    step = nper // 2
    win = np.hanning(nper)
    scale = 1.0 / (fs * (win * win).sum())
    acc = np.zeros(nper // 2 + 1)
    count = 0
    for start in range(0, x.shape[0] - nper + 1, step):
        seg = x[start:start + nper]
        seg = (seg - seg.mean()) * win
        acc += np.abs(np.fft.rfft(seg)) ** 2
        count += 1
    psd = acc * scale / count
    psd[1:-1] *= 2
    return np.fft.rfftfreq(nper, 1 / fs), psd


# ---------------------------------------------------------------- simulations

def life_by_slices(board, steps=10):
    """Conway's Game of Life with dead borders, neighbours summed from eight slices."""
    b = board.copy()
    for _ in range(steps):
        n = np.zeros(b.shape, dtype=np.int64)
        n[1:-1, 1:-1] = (b[:-2, :-2] + b[:-2, 1:-1] + b[:-2, 2:] + b[1:-1, :-2] + b[1:-1, 2:]
                         + b[2:, :-2] + b[2:, 1:-1] + b[2:, 2:])
        born = (n == 3) & (b == 0)
        survive = ((n == 2) | (n == 3)) & (b == 1)
        b = np.zeros_like(b)
        b[born | survive] = 1
    return b


def sir_metapopulation(S, I, R, mobility, beta=0.3, gamma=0.1, dt=0.1,  # noqa: E741
                       steps=100):
    """SIR in patches coupled by a mobility matrix, forward Euler; the total I curve."""
    N = S + I + R
    curve = []
    for _ in range(steps):
        force = beta * (mobility @ (I / N))
        new_inf = force * S * dt
        new_rec = gamma * I * dt
        S, I, R = S - new_inf, I + new_inf - new_rec, R + new_rec  # noqa: E741
        curve.append(I.sum())
    return S, I, R, np.array(curve)


def reflecting_walkers(rng, n=5000, steps=100, box=10.0, sigma=0.3):
    """2-D Gaussian walkers in a box with reflecting walls; mean squared displacement."""
    pos = np.full((n, 2), box / 2)
    start = pos.copy()
    msd = np.empty(steps)
    for t in range(steps):
        pos = pos + sigma * rng.standard_normal((n, 2))
        pos = np.where(pos < 0, -pos, pos)
        pos = np.where(pos > box, 2 * box - pos, pos)
        msd[t] = np.mean(np.sum((pos - start) ** 2, axis=1))
    return pos, msd


def drossel_schwabl_fire(rng, grid, p_grow=0.05, p_light=1e-4, steps=20):
    """The Drossel-Schwabl forest fire: 0 empty, 1 tree, 2 burning, on a periodic grid."""
    g = grid.copy()
    for _ in range(steps):
        burning = g == 2
        nb = (np.roll(burning, 1, 0) | np.roll(burning, -1, 0) | np.roll(burning, 1, 1)
              | np.roll(burning, -1, 1))
        u = rng.random(g.shape)
        new = g.copy()
        new[burning] = 0
        tree = g == 1
        new[tree & (nb | (u < p_light))] = 2
        new[(g == 0) & (u < p_grow)] = 1
        g = new
    return g, np.bincount(g.ravel(), minlength=3)


def metropolis_ising_colours(rng, spins, beta=0.44, sweeps=10):
    """A 2-D Ising model, Metropolis on two checkerboard colours; magnetisation per sweep."""
    s = spins.copy()
    n, m = s.shape
    parity = (np.arange(n)[:, None] + np.arange(m)[None, :]) % 2
    mags = []
    for _ in range(sweeps):
        for colour in (0, 1):
            nb = np.roll(s, 1, 0) + np.roll(s, -1, 0) + np.roll(s, 1, 1) + np.roll(s, -1, 1)
            dE = 2.0 * s * nb
            accept = (rng.random((n, m)) < np.exp(-beta * dE)) & (parity == colour)
            s[accept] *= -1
        mags.append(s.mean())
    return s, np.array(mags)


# ---------------------------------------------------------------- the list

def programs(small: bool = False):
    """(name, fn, args, kwargs); ``small``: small inputs and few steps (for the tests)."""
    rng = np.random.default_rng(88)

    s = lambda big, little: little if small else big
    r = lambda *shape: rng.random(shape)
    normal = lambda *shape: rng.standard_normal(shape)
    gen = np.random.default_rng

    n_p, n_nb, n_br, n_gs = s(20000, 12), s(200, 8), s(200, 10), s(128, 10)
    n_grid = s(256, 12)
    h = 1.0 / (n_grid - 1)
    g1 = np.linspace(-1, 1, n_grid)
    n_lin = s(200, 10)
    n_ns = s(600, 10)
    A_ns = normal(n_ns, n_ns) / np.sqrt(n_ns) + 4 * np.eye(n_ns)
    sym = normal(n_lin, n_lin) + normal(n_lin, n_lin).T
    n_tr, d = s(5000, 40), s(20, 4)
    X = normal(n_tr, d)
    y_bin = (X @ normal(d) + 0.5 * normal(n_tr) > 0).astype(np.float64)
    n_cls = 5
    Y = np.eye(n_cls)[rng.integers(0, n_cls, n_tr)]
    hid = s(64, 6)
    n_series = s(2000, 30)
    t = np.arange(n_series) * 0.05
    track = np.stack([np.hypot(5 + t, 3 + 0.5 * t), np.arctan2(3 + 0.5 * t, 5 + t)], 1)
    n_sig = s(50000, 600)
    sig = np.sin(np.arange(n_sig) * 0.01) + 0.3 * normal(n_sig)
    T4 = np.tile(np.eye(4), (s(2000, 4), 1, 1))
    T4[:, :3, :3] += 0.01 * normal(s(2000, 4), 3, 3)
    T4[:, :3, 3] = normal(s(2000, 4), 3)
    n_patch = s(300, 6)
    mob = r(n_patch, n_patch)
    mob /= mob.sum(axis=1, keepdims=True)
    I0 = np.where(np.arange(n_patch) == 0, 50.0, 1.0)
    return [
        ("RK4 charged particles in a magnetic field", rk4_lorentz_particles,
         (normal(n_p, 3), normal(n_p, 3), np.array([0.0, 0.0, 1.0])), {"steps": s(8, 3)}),
        ("kick-drift-kick softened n-body", kick_drift_kick_nbody,
         (normal(n_nb, 3), 0.1 * normal(n_nb, 3), r(n_nb) + 0.5), {"steps": s(5, 2)}),
        ("semi-implicit Euler bouncing particles", semi_implicit_bouncing,
         (r(n_p) * 2, np.zeros(n_p), r(n_p), normal(n_p)), {"steps": s(50, 4)}),
        ("2-D wave equation by leapfrog", wave2d_leapfrog,
         (np.exp(-(g1[:, None] ** 2 + g1[None, :] ** 2) / 0.01),), {"steps": s(30, 3)}),
        ("Brusselator by Heun's method", brusselator_heun,
         (1.0 + 0.1 * r(n_br, n_br), 3.0 + 0.1 * r(n_br, n_br)), {"steps": s(10, 3)}),
        ("preconditioned CG on a matrix-free Laplacian", pcg_laplacian_matrix_free,
         (normal(n_grid, n_grid),), {"iters": s(30, 4)}),
        ("line Gauss-Seidel SOR row by row", line_gauss_seidel_rows,
         (np.zeros((n_gs, n_gs)), normal(n_gs, n_gs), h), {"sweeps": s(3, 2)}),
        ("shifted inverse iteration", shifted_inverse_iteration, (sym, 0.5), {"iters": s(15, 3)}),
        ("Newton on a vector of cubics", newton_cubic_roots,
         (0.5 + r(s(40000, 50)), 10 * normal(s(40000, 50))), {}),
        ("BiCGSTAB on a dense system", bicgstab_dense, (A_ns, normal(n_ns)), {"iters": s(25, 4)}),
        ("Jacobi until a tolerance", jacobi_until_tol,
         (np.zeros((n_gs, n_gs)), normal(n_gs, n_gs), h), {"tol": 1e-9, "max_iter": s(100, 20)}),
        ("constant-acceleration Kalman filter", kalman_ca_3state,
         (np.cumsum(np.cumsum(0.01 * normal(s(500, 10)))) + 0.5 * normal(s(500, 10)),), {}),
        ("Euler-angle rotations of many points", euler_angle_rotations,
         (normal(s(20000, 10), 3), 0.1 * normal(s(20, 3), 3)), {}),
        ("batched 4x4 transforms by @", batched_homogeneous_transforms,
         (T4, normal(s(2000, 4), s(50, 3), 3)), {"steps": s(5, 2)}),
        ("extended Kalman filter, range and bearing", ekf_range_bearing,
         (track[:s(300, 8)] + 0.01 * normal(s(300, 8), 2), np.array([0.0, 0.0])), {}),
        ("batched Gram-Schmidt", batched_gram_schmidt, (normal(s(20000, 10), 4, 4),), {}),
        ("logistic regression by IRLS", logreg_irls, (X, y_bin), {"iters": s(6, 3)}),
        ("ReLU MLP by manual backprop", relu_mlp_full_batch,
         (X, (X[:, :1] * X[:, 1:2] + 0.1 * normal(n_tr, 1)), 0.3 * normal(d, hid),
          np.zeros(hid), 0.3 * normal(hid, 1), np.zeros(1)), {"epochs": s(5, 3)}),
        ("softmax regression by Adam", softmax_regression_adam,
         (X, Y, np.zeros((d, n_cls))), {"steps": s(30, 3)}),
        ("ridge regression by Nesterov momentum", ridge_nesterov, (X, X @ normal(d)),
         {"steps": s(50, 4)}),
        ("biquad IIR per sample over channels", biquad_per_sample,
         (normal(s(400, 12), s(64, 3)), np.array([0.2, 0.4, 0.2]), np.array([1.0, -0.6, 0.2])), {}),
        ("one-pole low-pass sample by sample", one_pole_lowpass, (sig[:s(5000, 40)],), {}),
        ("FFT convolution of rows", fft_convolve_rows,
         (normal(s(200, 4), s(1000, 30)), np.hanning(s(101, 7))), {}),
        ("overlap-add FIR filtering", overlap_add_fir, (sig, np.hanning(s(129, 9))),
         {"block": s(1024, 64)}),
        ("STFT magnitude in dB", stft_magnitude, (sig,), {"nper": s(256, 64), "hop": s(64, 32)}),
        ("Welch power spectrum", welch_averaged_periodograms, (sig,), {"nper": s(512, 128)}),
        ("Game of Life by slices", life_by_slices,
         ((r(s(256, 12), s(256, 12)) < 0.3).astype(np.int64),), {"steps": s(10, 3)}),
        ("metapopulation SIR", sir_metapopulation,
         (np.full(n_patch, 1000.0) - I0, I0, np.zeros(n_patch), mob), {"steps": s(100, 5)}),
        ("reflecting random walkers", reflecting_walkers, (gen(1),),
         {"n": s(5000, 20), "steps": s(50, 4)}),
        ("forest-fire automaton", drossel_schwabl_fire,
         (gen(2), rng.integers(0, 3, (s(200, 10), s(200, 10)))), {"steps": s(10, 3)}),
        ("checkerboard Ising model", metropolis_ising_colours,
         (gen(3), np.where(r(s(128, 8), s(128, 8)) < 0.5, -1, 1)), {"sweeps": s(5, 2)}),
    ]
