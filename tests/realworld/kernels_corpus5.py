"""A fifth corpus: scientific kernels as a NumPy user writes them (issue #19), for break
counts (``scripts/break_counts.py``, docs/realworld.md) and differential tests
(``test_kernels_corpus5.py``).

Written for this file before any of it was run, none copied from the other corpora.
Kinds: stencils and PDE steppers, ODE steppers without SciPy, iterative and direct
solvers, linear algebra, FFT, n-body, fractals, histograms and binning, Monte Carlo,
image filters, particle and grid codes. Idioms, varied on purpose: one-argument
``np.where``, boolean masks read and written, ``np.unique``, ``np.histogram``,
``np.digitize``, ``np.searchsorted``, ``np.add.at``, fancy indexing with computed
indices, ``np.einsum``, ``np.linalg.*``, f-strings of results, ``enumerate``/``zip``
loops, early returns, ``try``/``except`` around solves, ``assert``, ``np.issubdtype``,
``x.flags``, ``np.errstate``, ``np.iinfo``/``np.finfo``.

For example ``PROGRAMS[0]`` is ``("heat_ftcs_1d", heat_ftcs_1d, (u0, 0.2, 10))``:
``heat_ftcs_1d(*args)`` returns the field after ten explicit steps.

``PROGRAMS`` lists ``(name, fn, args)``; the arguments are small and seeded. The module
imports only NumPy, so the scripts load it from its file and the tests import it by name.
"""

from __future__ import annotations

import numpy as np

_rng = np.random.default_rng(5151)


def _normal(*shape):
    return _rng.normal(size=shape)


def _uniform(*shape):
    return _rng.uniform(size=shape)


# ================================================================ stencils and PDEs


def heat_ftcs_1d(u, alpha, steps):
    u = u.copy()
    for _ in range(steps):
        u[1:-1] = u[1:-1] + alpha * (u[2:] - 2 * u[1:-1] + u[:-2])
    return u


def laplace_2d_masked_boundary(grid, fixed, iters=8):
    g = grid.copy()
    free = ~fixed
    for _ in range(iters):
        avg = 0.25 * (np.roll(g, 1, 0) + np.roll(g, -1, 0) + np.roll(g, 1, 1) + np.roll(g, -1, 1))
        g[free] = avg[free]
    return g


def upwind_advection(q, c, dx, dt, steps):
    q = np.asarray(q, dtype=np.float64).copy()
    nu = c * dt / dx
    assert abs(nu) <= 1.0, "CFL violated"
    for n in range(steps):
        if c > 0:
            q[1:] -= nu * (q[1:] - q[:-1])
        else:
            q[:-1] -= nu * (q[1:] - q[:-1])
    return q


def wave_leapfrog_2d(u, v, c2, steps):
    prev = u - v
    cur = u.copy()
    for _ in range(steps):
        lap = np.zeros_like(cur)
        lap[1:-1, 1:-1] = (cur[2:, 1:-1] + cur[:-2, 1:-1] + cur[1:-1, 2:] + cur[1:-1, :-2]
                           - 4 * cur[1:-1, 1:-1])
        nxt = 2 * cur - prev + c2 * lap
        prev, cur = cur, nxt
    return cur, float(np.abs(cur).max())


def allen_cahn_step(phi, eps, dt, steps=5):
    for k in range(steps):
        lap = (np.roll(phi, 1) + np.roll(phi, -1) - 2 * phi)
        phi = phi + dt * (eps ** 2 * lap - phi ** 3 + phi)
    np.clip(phi, -1.0, 1.0, out=phi)
    return phi


def poisson_sor(f, h, omega=1.5, sweeps=6):
    n = f.shape[0]
    u = np.zeros_like(f)
    for s in range(sweeps):
        for i in range(1, n - 1):
            u[i] = (1 - omega) * u[i] + omega * 0.5 * (u[i - 1] + u[i + 1] + h * h * f[i])
    res = np.zeros_like(u)
    res[1:-1] = f[1:-1] + (u[:-2] - 2 * u[1:-1] + u[2:]) / h ** 2
    return u, np.linalg.norm(res)


def game_of_life_counts(board, steps=3):
    b = board.astype(bool)
    for _ in range(steps):
        n = sum(np.roll(np.roll(b, i, 0), j, 1)
                for i in (-1, 0, 1) for j in (-1, 0, 1) if (i, j) != (0, 0))
        b = (n == 3) | (b & (n == 2))
    alive = np.where(b)
    return b, len(alive[0])


# ================================================================ ODE steppers


def rk4_lorenz(state, dt, steps, sigma=10.0, rho=28.0, beta=8 / 3):
    def f(s):
        x, y, z = s
        return np.array([sigma * (y - x), x * (rho - z) - y, x * y - beta * z])

    traj = np.empty((steps + 1, 3))
    traj[0] = state
    s = state.astype(np.float64)
    for i in range(steps):
        k1 = f(s)
        k2 = f(s + 0.5 * dt * k1)
        k3 = f(s + 0.5 * dt * k2)
        k4 = f(s + dt * k3)
        s = s + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        traj[i + 1] = s
    return traj


def heun_damped_oscillator(y0, t):
    y = np.zeros((len(t), 2))
    y[0] = y0
    for i, (t0, t1) in enumerate(zip(t[:-1], t[1:])):
        h = t1 - t0
        f0 = np.array([y[i, 1], -y[i, 0] - 0.1 * y[i, 1]])
        yp = y[i] + h * f0
        f1 = np.array([yp[1], -yp[0] - 0.1 * yp[1]])
        y[i + 1] = y[i] + 0.5 * h * (f0 + f1)
    return y


def implicit_euler_linear(A, y0, dt, steps):
    n = A.shape[0]
    M = np.eye(n) - dt * A
    ys = [y0]
    y = y0
    for _ in range(steps):
        y = np.linalg.solve(M, y)
        ys.append(y)
    return np.stack(ys)


def velocity_verlet_springs(x, v, k, m, dt, steps):
    x = x.copy()
    v = v.copy()
    a = -k / m * (x - np.roll(x, 1)) - k / m * (x - np.roll(x, -1))
    energies = []
    for _ in range(steps):
        x += v * dt + 0.5 * a * dt ** 2
        a_new = -k / m * (2 * x - np.roll(x, 1) - np.roll(x, -1))
        v += 0.5 * (a + a_new) * dt
        a = a_new
        energies.append(0.5 * m * np.sum(v ** 2) + 0.5 * k * np.sum((x - np.roll(x, 1)) ** 2))
    return x, v, np.array(energies)


def adaptive_euler_decay(y0, lam, t_end, tol=1e-3):
    t, y, h = 0.0, y0, 0.1
    history = [(t, y)]
    while t < t_end:
        y_full = y + h * (-lam * y)
        y_half = y + 0.5 * h * (-lam * y)
        y_half = y_half + 0.5 * h * (-lam * y_half)
        err = abs(y_full - y_half)
        if err < tol:
            t += h
            y = y_half
            history.append((t, y))
        h = 0.9 * h * min(2.0, max(0.2, (tol / max(err, 1e-12)) ** 0.5))
    return np.array(history)


def sir_model_euler(beta, gamma, N, I0, days, dt=0.5):
    S, Inf, R = N - I0, float(I0), 0.0
    out = np.zeros((int(days / dt), 3))
    for i in range(out.shape[0]):
        dS = -beta * S * Inf / N
        dR = gamma * Inf
        S, Inf, R = S + dt * dS, Inf + dt * (-dS - dR), R + dt * dR
        out[i] = S, Inf, R
    return out


# ================================================================ solvers and linear algebra


def jacobi_solve_checked(A, b, iters=25):
    d = np.diag(A)
    if np.any(d == 0):
        raise ValueError("zero on the diagonal")
    R = A - np.diagflat(d)
    x = np.zeros_like(b)
    for _ in range(iters):
        x = (b - R @ x) / d
    return x


def safe_solve(A, b):
    try:
        x = np.linalg.solve(A, b)
    except np.linalg.LinAlgError:
        x = np.linalg.lstsq(A, b, rcond=None)[0]
    return x


def cholesky_solve_spd(A, b):
    L = np.linalg.cholesky(A)
    y = np.linalg.solve(L, b)
    return np.linalg.solve(L.T, y)


def power_iteration_fixed(A, iters=30):
    v = A.sum(axis=1)
    v /= np.abs(v).max()
    for k in range(iters):
        w = A @ v
        v = w / np.abs(w).max()
    lam = (v @ A @ v) / (v @ v)
    return lam, v / np.linalg.norm(v)


def gram_schmidt_modified(V):
    V = V.astype(float)
    n, k = V.shape
    Q = np.zeros((n, k))
    for j in range(k):
        v = V[:, j]
        for i in range(j):
            v = v - (Q[:, i] @ v) * Q[:, i]
        Q[:, j] = v / np.linalg.norm(v)
    return Q


def condition_report(A):
    s = np.linalg.svd(A, compute_uv=False)
    cond = s[0] / s[-1]
    eps = np.finfo(A.dtype).eps
    rank = int(np.sum(s > s[0] * max(A.shape) * eps))
    return {"cond": cond, "rank": rank, "eps": eps}


def eigen_decompose_sym(A):
    assert np.allclose(A, A.T)
    w, V = np.linalg.eigh(A)
    order = np.argsort(w)[::-1]
    return w[order], V[:, order]


def tridiagonal_thomas(a, b, c, d):
    n = d.size
    c2 = np.empty(n - 1)
    d2 = np.empty(n)
    beta = b[0]
    c2[0] = c[0] / beta
    d2[0] = d[0] / beta
    for i in range(1, n):
        beta = b[i] - a[i] * c2[i - 1]
        if i < n - 1:
            c2[i] = c[i] / beta
        d2[i] = (d[i] - a[i] * d2[i - 1]) / beta
    x = d2.copy()
    for i in reversed(range(n - 1)):
        x[i] -= c2[i] * x[i + 1]
    return x


def batched_einsum_transform(R, P):
    rotated = np.einsum("nij,nj->ni", R, P)
    norms = np.einsum("ni,ni->n", rotated, rotated)
    return rotated, np.sqrt(norms)


def least_squares_poly(x, y, deg=3):
    V = np.vander(x, deg + 1)
    coef, res, rank, sv = np.linalg.lstsq(V, y, rcond=None)
    fit = V @ coef
    return coef, fit, rank


def determinant_sign_log(A):
    sign, logdet = np.linalg.slogdet(A)
    if sign <= 0:
        return -np.inf
    return logdet


# ================================================================ FFT


def fft_lowpass(signal, keep):
    F = np.fft.rfft(signal)
    freqs = np.fft.rfftfreq(signal.size)
    F[freqs > keep] = 0
    return np.fft.irfft(F, n=signal.size)


def spectral_derivative(u, L):
    n = u.shape[0]
    k = 2 * np.pi * np.fft.fftfreq(n, d=L / n)
    return np.real(np.fft.ifft(1j * k * np.fft.fft(u)))


def dominant_frequency(x, fs):
    spec = np.abs(np.fft.rfft(x - x.mean())) ** 2
    freqs = np.fft.rfftfreq(len(x), 1 / fs)
    peak = np.argmax(spec)
    return freqs[peak], f"peak at {freqs[peak]:.2f} Hz"


def fft_convolve_same(a, k):
    n = a.size + k.size - 1
    full = np.fft.irfft(np.fft.rfft(a, n) * np.fft.rfft(k, n), n)
    start = (k.size - 1) // 2
    return full[start:start + a.size]


# ================================================================ n-body and particles


def nbody_accelerations(pos, mass, soft=1e-2):
    d = pos[None, :, :] - pos[:, None, :]
    r2 = np.einsum("ijk,ijk->ij", d, d) + soft ** 2
    inv = r2 ** -1.5
    np.fill_diagonal(inv, 0.0)
    return np.einsum("ij,ijk,j->ik", inv, d, mass)


def nbody_leapfrog_energy(pos, vel, mass, dt, steps):
    pos, vel = pos.copy(), vel.copy()
    acc = nbody_accelerations(pos, mass)
    for _ in range(steps):
        vel += 0.5 * dt * acc
        pos += dt * vel
        acc = nbody_accelerations(pos, mass)
        vel += 0.5 * dt * acc
    ke = 0.5 * np.sum(mass[:, None] * vel ** 2)
    return pos, vel, ke


def particles_reflect_box(pos, vel, box, dt, steps):
    pos, vel = pos.copy(), vel.copy()
    for _ in range(steps):
        pos += vel * dt
        low = pos < 0
        high = pos > box
        pos[low] = -pos[low]
        pos[high] = 2 * box - pos[high]
        vel[low | high] *= -1
    return pos, vel


def cell_list_counts(pos, box, ncell):
    idx = np.floor(pos / box * ncell).astype(int)
    idx = np.clip(idx, 0, ncell - 1)
    flat = idx[:, 0] * ncell + idx[:, 1]
    counts = np.zeros(ncell * ncell, dtype=int)
    np.add.at(counts, flat, 1)
    return counts.reshape(ncell, ncell)


def pair_distances_cutoff(pos, rc):
    d = pos[:, None, :] - pos[None, :, :]
    r = np.sqrt((d ** 2).sum(-1))
    i, j = np.where(np.triu(r < rc, k=1))
    return i, j, r[i, j]


def radial_distribution(pos, box, nbins=10):
    d = pos[:, None, :] - pos[None, :, :]
    d -= box * np.round(d / box)
    r = np.sqrt((d ** 2).sum(-1))[np.triu_indices(len(pos), k=1)]
    hist, edges = np.histogram(r, bins=nbins, range=(0, box / 2))
    centers = 0.5 * (edges[1:] + edges[:-1])
    shell = 4 * np.pi * centers ** 2 * (edges[1] - edges[0])
    return hist / shell, centers


# ================================================================ fractals


def mandelbrot_escape(c, maxit=20):
    z = np.zeros_like(c)
    it = np.full(c.shape, maxit, dtype=np.int32)
    alive = np.ones(c.shape, dtype=bool)
    for k in range(maxit):
        z[alive] = z[alive] ** 2 + c[alive]
        escaped = alive & (np.abs(z) > 2)
        it[escaped] = k
        alive &= ~escaped
    return it


def julia_smooth(z, c, maxit=15):
    out = np.zeros(z.shape)
    z = z.copy()
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(maxit):
            z = z * z + c
            out += np.abs(z) < 2
    return out


def burning_ship_counts(c, maxit=12):
    z = np.zeros_like(c)
    n = np.zeros(c.shape, dtype=int)
    for _ in range(maxit):
        inside = np.abs(z) <= 2
        zi = z[inside]
        z[inside] = (np.abs(zi.real) + 1j * np.abs(zi.imag)) ** 2 + c[inside]
        n[inside] += 1
    return n


# ================================================================ histograms and binning


def histogram_density_check(x, bins=8):
    counts, edges = np.histogram(x, bins=bins)
    widths = np.diff(edges)
    density = counts / (counts.sum() * widths)
    assert np.isclose((density * widths).sum(), 1.0)
    return density, edges


def digitize_bin_means(x, y, edges):
    idx = np.digitize(x, edges)
    sums = np.zeros(len(edges) + 1)
    cnts = np.zeros(len(edges) + 1)
    np.add.at(sums, idx, y)
    np.add.at(cnts, idx, 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = sums / cnts
    return means


def searchsorted_cdf_lookup(samples, queries):
    s = np.sort(samples)
    pos = np.searchsorted(s, queries, side="right")
    return pos / len(s)


def unique_value_counts(labels):
    vals, counts = np.unique(labels, return_counts=True)
    frac = counts / counts.sum()
    top = vals[np.argmax(counts)]
    return vals, frac, top


def weighted_histogram_2d(x, y, w, n=6):
    H, xe, ye = np.histogram2d(x, y, bins=n, weights=w)
    return H / H.sum(), xe, ye


def percentile_clip_stats(x, lo=5, hi=95):
    a, b = np.percentile(x, [lo, hi])
    inside = x[(x >= a) & (x <= b)]
    return inside.mean(), inside.std(), inside.size


def quantize_to_int8(x):
    info = np.iinfo(np.int8)
    scale = np.abs(x).max() / info.max
    q = np.clip(np.round(x / scale), info.min, info.max).astype(np.int8)
    return q, scale


# ================================================================ Monte Carlo


def mc_pi_generator(n, seed):
    rng = np.random.default_rng(seed)
    pts = rng.random((n, 2))
    hits = np.count_nonzero((pts ** 2).sum(axis=1) <= 1.0)
    return 4.0 * hits / n


def mc_integrate_importance(n, seed):
    rng = np.random.default_rng(seed)
    x = rng.exponential(1.0, n)
    w = np.exp(-x ** 2) / np.exp(-x)
    est = w.mean()
    err = w.std(ddof=1) / np.sqrt(n)
    return est, err


def random_walk_first_passage(steps, walkers, seed, barrier=5):
    rng = np.random.default_rng(seed)
    moves = rng.choice([-1, 1], size=(walkers, steps))
    paths = np.cumsum(moves, axis=1)
    crossed = np.abs(paths) >= barrier
    first = np.where(crossed.any(axis=1), crossed.argmax(axis=1), -1)
    return first


def bootstrap_mean_ci(x, n_boot, seed):
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(x), size=(n_boot, len(x)))
    means = x[idx].mean(axis=1)
    lo, hi = np.quantile(means, [0.025, 0.975])
    return lo, hi


def ising_checkerboard(spins, beta, seed, sweeps=3):
    rng = np.random.default_rng(seed)
    s = spins.copy()
    ii, jj = np.indices(s.shape)
    for _ in range(sweeps):
        for parity in (0, 1):
            mask = (ii + jj) % 2 == parity
            nb = np.roll(s, 1, 0) + np.roll(s, -1, 0) + np.roll(s, 1, 1) + np.roll(s, -1, 1)
            dE = 2 * s * nb
            flip = mask & (rng.random(s.shape) < np.exp(-beta * dE))
            s[flip] *= -1
    return s, s.mean()


# ================================================================ image filters


def gaussian_blur_separable(img, sigma=1.0):
    r = int(3 * sigma)
    x = np.arange(-r, r + 1)
    k = np.exp(-x ** 2 / (2 * sigma ** 2))
    k /= k.sum()
    pad = np.pad(img, r, mode="reflect")
    tmp = sum(k[i] * pad[:, i:i + img.shape[1]] for i in range(2 * r + 1))
    out = sum(k[i] * tmp[i:i + img.shape[0], :] for i in range(2 * r + 1))
    return out


def sobel_magnitude(img):
    assert img.ndim == 2
    p = np.pad(img, 1, mode="edge")
    gx = (p[:-2, 2:] + 2 * p[1:-1, 2:] + p[2:, 2:]) - (p[:-2, :-2] + 2 * p[1:-1, :-2] + p[2:, :-2])
    gy = (p[2:, :-2] + 2 * p[2:, 1:-1] + p[2:, 2:]) - (p[:-2, :-2] + 2 * p[:-2, 1:-1] + p[:-2, 2:])
    return np.hypot(gx, gy)


def threshold_and_label_fraction(img):
    if not np.issubdtype(img.dtype, np.floating):
        img = img.astype(np.float64) / 255.0
    t = img.mean()
    mask = img > t
    return mask, mask.mean()


def to_uint8_image(img):
    lo, hi = img.min(), img.max()
    scaled = (img - lo) / (hi - lo + np.finfo(np.float64).eps)
    out = (scaled * np.iinfo(np.uint8).max).astype(np.uint8)
    return out


def histogram_equalize(img, nbins=16):
    hist, edges = np.histogram(img.ravel(), bins=nbins, range=(0.0, 1.0))
    cdf = np.cumsum(hist).astype(float)
    cdf /= cdf[-1]
    idx = np.clip(np.searchsorted(edges, img, side="right") - 1, 0, nbins - 1)
    return cdf[idx]


def bilinear_resize(img, out_h, out_w):
    h, w = img.shape
    ys = np.linspace(0, h - 1, out_h)
    xs = np.linspace(0, w - 1, out_w)
    y0 = np.floor(ys).astype(int)
    x0 = np.floor(xs).astype(int)
    y1 = np.minimum(y0 + 1, h - 1)
    x1 = np.minimum(x0 + 1, w - 1)
    wy = (ys - y0)[:, None]
    wx = (xs - x0)[None, :]
    a = img[y0][:, x0]
    b = img[y0][:, x1]
    c = img[y1][:, x0]
    d = img[y1][:, x1]
    return (a * (1 - wx) + b * wx) * (1 - wy) + (c * (1 - wx) + d * wx) * wy


def replace_hot_pixels(img, k=3.0):
    med = np.median(img)
    mad = np.median(np.abs(img - med))
    hot = np.abs(img - med) > k * mad
    fixed = img.copy()
    fixed[hot] = med
    rows, cols = np.nonzero(hot)
    return fixed, rows, cols


def flags_contiguous_copy(img):
    if not img.flags["C_CONTIGUOUS"]:
        img = np.ascontiguousarray(img)
    out = img * 2.0
    return out, img.flags.c_contiguous


# ================================================================ grids, interpolation, misc


def cic_deposit_1d(x, q, n, L):
    h = L / n
    s = x / h
    i = np.floor(s).astype(np.int64)
    f = s - i
    rho = np.zeros(n)
    np.add.at(rho, i % n, q * (1 - f))
    np.add.at(rho, (i + 1) % n, q * f)
    return rho / h


def trapezoid_cumulative(y, x):
    dx = np.diff(x)
    areas = 0.5 * dx * (y[1:] + y[:-1])
    return np.concatenate(([0.0], np.cumsum(areas)))


def newton_sqrt_vectorized(a, iters=6):
    x = np.where(a > 1, a / 2, 1.0)
    for _ in range(iters):
        x = 0.5 * (x + a / x)
    return x


def interp_missing(t, y):
    bad = np.isnan(y)
    good = ~bad
    out = y.copy()
    out[bad] = np.interp(t[bad], t[good], y[good])
    return out


def report_stats(name, x):
    mean = x.mean()
    std = x.std()
    line = f"{name}: n={x.size} mean={mean:.3f} std={std:.3f}"
    return line, mean


def running_extrema_indices(x):
    peaks = np.where((x[1:-1] > x[:-2]) & (x[1:-1] > x[2:]))[0] + 1
    if peaks.size == 0:
        return peaks, None
    return peaks, x[peaks].max()


def rebin_sum_2d(a, f):
    h, w = a.shape
    assert h % f == 0 and w % f == 0
    return a.reshape(h // f, f, w // f, f).sum(axis=(1, 3))


def weighted_centroid_per_label(pos, labels, k):
    sums = np.zeros((k, pos.shape[1]))
    np.add.at(sums, labels, pos)
    counts = np.bincount(labels, minlength=k)
    return sums / np.maximum(counts, 1)[:, None]


def polar_grid_field(n, m):
    r = np.linspace(0.1, 1.0, n)
    th = np.linspace(0, 2 * np.pi, m, endpoint=False)
    R, T = np.meshgrid(r, th, indexing="ij")
    X, Y = R * np.cos(T), R * np.sin(T)
    return np.exp(-(X ** 2 + Y ** 2)) * np.cos(3 * T)


def dtype_dispatch_norm(x):
    if np.issubdtype(x.dtype, np.integer):
        x = x.astype(np.float64)
    elif x.dtype == np.float32:
        x = x.astype(np.float64)
    n = np.sqrt(np.einsum("i,i->", x, x))
    return x / n if n > 0 else x


# ================================================================ more everyday idioms


def mgrid_gaussian_2d(n, sigma):
    y, x = np.mgrid[-n:n + 1, -n:n + 1]
    g = np.exp(-(x ** 2 + y ** 2) / (2.0 * sigma ** 2))
    return g / g.sum()


def ogrid_distance_field(h, w):
    yy, xx = np.ogrid[:h, :w]
    cy, cx = (h - 1) / 2, (w - 1) / 2
    return np.hypot(yy - cy, xx - cx)


def qr_least_squares(A, b):
    Q, R = np.linalg.qr(A)
    x = np.linalg.solve(R, Q.T @ b)
    resid = "%.3e" % np.linalg.norm(A @ x - b)   # noqa: UP031 (as users write it)
    return x, resid


def moving_average_convolve(x, w=5):
    kernel = np.ones(w) / w
    smooth = np.convolve(x, kernel, mode="same")
    return smooth, np.correlate(x, kernel, mode="valid")


def ndindex_neighbour_sum(a):
    out = np.zeros_like(a)
    for i, j in np.ndindex(*a.shape):
        out[i, j] = a[max(i - 1, 0):i + 2, max(j - 1, 0):j + 2].sum()
    return out


def take_along_sorted_rows(X):
    order = np.argsort(X, axis=1)
    ranked = np.take_along_axis(X, order, axis=1)
    return ranked[:, ::-1], order


def nan_safe_normalize(x):
    with np.errstate(divide="ignore", invalid="ignore"):
        y = x / x.sum(axis=1, keepdims=True)
    return np.nan_to_num(y, nan=0.0, posinf=0.0)


def linspace_step_integral(f_vals, a, b):
    xs, dx = np.linspace(a, b, len(f_vals), retstep=True)
    return dx * (f_vals.sum() - 0.5 * (f_vals[0] + f_vals[-1])), xs


def eig_stability(A):
    w = np.linalg.eigvals(A)
    stable = np.all(w.real < 0)
    return w, stable, "stable" if stable else "unstable"


def format_table_rows(names, values):
    rows = []
    for name, v in zip(names, values):
        rows.append("{:<6s} {:8.3f}".format(name, v))   # noqa: UP032
    return "\n".join(rows)


def float_bits_exponent(x):
    mant, expo = np.frexp(x)
    bits = x.view(np.int64)
    sign = (bits >> 63) & 1
    return mant, expo, sign


def polynomial_roots_real(coeffs):
    r = np.roots(coeffs)
    real = r[np.abs(r.imag) < 1e-9].real
    return np.sort(real)


def cumulative_returns_drawdown(prices):
    rets = np.diff(prices) / prices[:-1]
    wealth = np.cumprod(1 + rets)
    peak = np.maximum.accumulate(wealth)
    dd = (wealth - peak) / peak
    return wealth, dd.min(), int(np.argmin(dd))


def pad_and_stencil_periodic(u):
    p = np.pad(u, 1, mode="wrap")
    return p[:-2] - 2 * p[1:-1] + p[2:]


# ================================================================ argument sets

_c = (np.linspace(-2, 0.6, 14)[None, :] + 1j * np.linspace(-1.2, 1.2, 10)[:, None])
_fixed = np.zeros((8, 8), dtype=bool)
_fixed[0, :] = _fixed[-1, :] = _fixed[:, 0] = _fixed[:, -1] = True
_grid = np.zeros((8, 8))
_grid[0, :] = 1.0
_spd = _normal(5, 5)
_spd = _spd @ _spd.T + 5 * np.eye(5)
_nan_y = np.sin(np.linspace(0, 3, 20))
_nan_y[[3, 7, 8, 15]] = np.nan
_sig = np.sin(2 * np.pi * 5 * np.linspace(0, 1, 64, endpoint=False)) + 0.3 * _normal(64)

PROGRAMS = [
    ("heat_ftcs_1d", heat_ftcs_1d, (np.exp(-np.linspace(-2, 2, 21) ** 2), 0.2, 10)),
    ("laplace_2d_masked_boundary", laplace_2d_masked_boundary, (_grid, _fixed)),
    ("upwind_advection", upwind_advection, (np.exp(-np.linspace(-3, 3, 30) ** 2), 1.0, 0.1, 0.05, 6)),
    ("wave_leapfrog_2d", wave_leapfrog_2d, (_normal(9, 9) * 0.1, np.zeros((9, 9)), 0.2, 5)),
    ("allen_cahn_step", allen_cahn_step, (_uniform(24) * 2 - 1, 0.5, 0.05)),
    ("poisson_sor", poisson_sor, (np.ones(12), 0.1)),
    ("game_of_life_counts", game_of_life_counts, ((_uniform(10, 10) > 0.6).astype(int),)),
    ("rk4_lorenz", rk4_lorenz, (np.array([1.0, 1.0, 1.0]), 0.01, 8)),
    ("heun_damped_oscillator", heun_damped_oscillator, (np.array([1.0, 0.0]), np.linspace(0, 1, 8))),
    ("implicit_euler_linear", implicit_euler_linear,
     (np.array([[-1.0, 0.5], [0.0, -2.0]]), np.array([1.0, 1.0]), 0.1, 5)),
    ("velocity_verlet_springs", velocity_verlet_springs,
     (_normal(6) * 0.1, np.zeros(6), 1.0, 1.0, 0.05, 5)),
    ("adaptive_euler_decay", adaptive_euler_decay, (1.0, 2.0, 0.5)),
    ("sir_model_euler", sir_model_euler, (0.3, 0.1, 1000.0, 5, 10)),
    ("jacobi_solve_checked", jacobi_solve_checked, (_spd, _normal(5))),
    ("safe_solve", safe_solve, (_spd, _normal(5))),
    ("cholesky_solve_spd", cholesky_solve_spd, (_spd, _normal(5))),
    ("power_iteration_fixed", power_iteration_fixed, (_spd,)),
    ("gram_schmidt_modified", gram_schmidt_modified, (_normal(6, 4),)),
    ("condition_report", condition_report, (_normal(6, 4),)),
    ("eigen_decompose_sym", eigen_decompose_sym, (_spd,)),
    ("tridiagonal_thomas", tridiagonal_thomas,
     (np.full(8, -1.0), np.full(8, 4.0), np.full(8, -1.0), _normal(8))),
    ("batched_einsum_transform", batched_einsum_transform, (_normal(4, 3, 3), _normal(4, 3))),
    ("least_squares_poly", least_squares_poly, (np.linspace(0, 1, 15), _normal(15))),
    ("determinant_sign_log", determinant_sign_log, (_spd,)),
    ("fft_lowpass", fft_lowpass, (_sig, 0.1)),
    ("spectral_derivative", spectral_derivative, (np.sin(np.linspace(0, 2 * np.pi, 32, endpoint=False)), 2 * np.pi)),
    ("dominant_frequency", dominant_frequency, (_sig, 64.0)),
    ("fft_convolve_same", fft_convolve_same, (_normal(20), np.array([0.25, 0.5, 0.25]))),
    ("nbody_accelerations", nbody_accelerations, (_normal(6, 3), _uniform(6) + 0.5)),
    ("nbody_leapfrog_energy", nbody_leapfrog_energy,
     (_normal(5, 3), _normal(5, 3) * 0.1, _uniform(5) + 0.5, 0.01, 4)),
    ("particles_reflect_box", particles_reflect_box,
     (_uniform(10, 2), _normal(10, 2), 1.0, 0.1, 5)),
    ("cell_list_counts", cell_list_counts, (_uniform(30, 2) * 3.0, 3.0, 4)),
    ("pair_distances_cutoff", pair_distances_cutoff, (_uniform(12, 2), 0.4)),
    ("radial_distribution", radial_distribution, (_uniform(20, 3) * 4.0, 4.0)),
    ("mandelbrot_escape", mandelbrot_escape, (_c,)),
    ("julia_smooth", julia_smooth, (_c, -0.8 + 0.156j)),
    ("burning_ship_counts", burning_ship_counts, (_c,)),
    ("histogram_density_check", histogram_density_check, (_normal(50),)),
    ("digitize_bin_means", digitize_bin_means, (_uniform(40), _normal(40), np.array([0.25, 0.5, 0.75]))),
    ("searchsorted_cdf_lookup", searchsorted_cdf_lookup, (_normal(30), np.array([-1.0, 0.0, 0.5, 2.0]))),
    ("unique_value_counts", unique_value_counts, (np.array([4, 1, 4, 2, 4, 1, 9]),)),
    ("weighted_histogram_2d", weighted_histogram_2d, (_normal(40), _normal(40), _uniform(40))),
    ("percentile_clip_stats", percentile_clip_stats, (_normal(60),)),
    ("quantize_to_int8", quantize_to_int8, (_normal(16),)),
    ("mc_pi_generator", mc_pi_generator, (500, 3)),
    ("mc_integrate_importance", mc_integrate_importance, (400, 11)),
    ("random_walk_first_passage", random_walk_first_passage, (30, 8, 5)),
    ("bootstrap_mean_ci", bootstrap_mean_ci, (_normal(15), 50, 2)),
    ("ising_checkerboard", ising_checkerboard, (np.where(_uniform(6, 6) > 0.5, 1, -1), 0.4, 9)),
    ("gaussian_blur_separable", gaussian_blur_separable, (_uniform(8, 9),)),
    ("sobel_magnitude", sobel_magnitude, (_uniform(7, 8),)),
    ("threshold_and_label_fraction", threshold_and_label_fraction,
     ((_uniform(6, 6) * 255).astype(np.uint8),)),
    ("to_uint8_image", to_uint8_image, (_normal(5, 5),)),
    ("histogram_equalize", histogram_equalize, (_uniform(6, 7) ** 2,)),
    ("bilinear_resize", bilinear_resize, (_uniform(4, 5), 7, 9)),
    ("replace_hot_pixels", replace_hot_pixels, (_normal(6, 6) + 10 * (_uniform(6, 6) > 0.9),)),
    ("flags_contiguous_copy", flags_contiguous_copy, (_normal(5, 6).T,)),
    ("cic_deposit_1d", cic_deposit_1d, (_uniform(20) * 4.0, _uniform(20), 8, 4.0)),
    ("trapezoid_cumulative", trapezoid_cumulative, (np.sin(np.linspace(0, 3, 12)), np.linspace(0, 3, 12))),
    ("newton_sqrt_vectorized", newton_sqrt_vectorized, (_uniform(10) * 9 + 0.1,)),
    ("interp_missing", interp_missing, (np.linspace(0, 1, 20), _nan_y)),
    ("report_stats", report_stats, ("signal", _normal(25))),
    ("running_extrema_indices", running_extrema_indices, (_normal(20),)),
    ("rebin_sum_2d", rebin_sum_2d, (_normal(6, 8), 2)),
    ("weighted_centroid_per_label", weighted_centroid_per_label,
     (_normal(20, 2), _rng.integers(0, 3, 20), 3)),
    ("polar_grid_field", polar_grid_field, (5, 8)),
    ("dtype_dispatch_norm", dtype_dispatch_norm, (np.arange(1, 7),)),
    ("mgrid_gaussian_2d", mgrid_gaussian_2d, (3, 1.5)),
    ("ogrid_distance_field", ogrid_distance_field, (5, 7)),
    ("qr_least_squares", qr_least_squares, (_normal(10, 3), _normal(10))),
    ("moving_average_convolve", moving_average_convolve, (_normal(20),)),
    ("ndindex_neighbour_sum", ndindex_neighbour_sum, (_normal(3, 4),)),
    ("take_along_sorted_rows", take_along_sorted_rows, (_normal(4, 5),)),
    ("nan_safe_normalize", nan_safe_normalize, (np.array([[1.0, 3.0], [0.0, 0.0], [2.0, -2.0]]),)),
    ("linspace_step_integral", linspace_step_integral, (np.sin(np.linspace(0, 1, 11)), 0.0, 1.0)),
    ("eig_stability", eig_stability, (np.array([[-1.0, 2.0], [0.0, -0.5]]),)),
    ("format_table_rows", format_table_rows, (["a", "bb", "ccc"], _normal(3))),
    ("float_bits_exponent", float_bits_exponent, (_normal(6),)),
    ("polynomial_roots_real", polynomial_roots_real, (np.array([1.0, -6.0, 11.0, -6.0]),)),
    ("cumulative_returns_drawdown", cumulative_returns_drawdown, (100 + np.cumsum(_normal(15)),)),
    ("pad_and_stencil_periodic", pad_and_stencil_periodic, (_normal(9),)),
]
