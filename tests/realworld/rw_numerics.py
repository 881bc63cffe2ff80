"""Scientific computing: ODE integrators, an n-body leapfrog, stencils with slice
assignment in a loop, image filters with padding, Monte Carlo with a seeded Generator,
polynomials, cumulative and rolling statistics, cellular automata.
"""

import dataclasses

import numpy as np
from rw_check import (
    Program,
    rng_arrays,
)

# ---------------------------------------------------------------- ODE integrators


def euler_decay(y0, k, dt=0.1, n_steps=8):
    y = y0.copy()
    trajectory = [y]
    for _ in range(n_steps):
        y = y + dt * (-k * y)
        trajectory.append(y)
    return np.stack(trajectory), y


def rk4(f, y0, t0, t1, n_steps):
    """Classic RK4 with the right-hand side passed as a function."""
    h = (t1 - t0) / n_steps
    t, y = t0, y0
    for _ in range(n_steps):
        k1 = f(t, y)
        k2 = f(t + h / 2, y + h / 2 * k1)
        k3 = f(t + h / 2, y + h / 2 * k2)
        k4 = f(t + h, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        t += h
    return y


def harmonic(t, state, omega=2.0):
    x, v = state[..., 0], state[..., 1]
    return np.stack([v, -omega ** 2 * x], axis=-1)


def rk4_oscillators(states, n_steps=10):
    return rk4(harmonic, states, 0.0, 1.0, n_steps)


def nbody_leapfrog(pos, vel, mass, dt=0.01, steps=3, softening=0.1):
    """Kick-drift-kick; ``pos`` and ``vel`` are updated in place, energy returned."""
    def accelerations(p):
        diff = p[None, :, :] - p[:, None, :]              # r_j - r_i
        r2 = (diff ** 2).sum(-1) + softening ** 2
        inv_r3 = r2 ** -1.5
        np.fill_diagonal(inv_r3, 0.0)
        return (diff * (inv_r3 * mass[None, :])[:, :, None]).sum(axis=1)

    acc = accelerations(pos)
    for _ in range(steps):
        vel += 0.5 * dt * acc
        pos += dt * vel
        acc = accelerations(pos)
        vel += 0.5 * dt * acc
    kinetic = 0.5 * np.sum(mass[:, None] * vel ** 2)
    return kinetic


def nbody_leapfrog_eye(pos, vel, mass, dt=0.01, steps=3, softening=0.1):
    """The same integrator with the self-interaction masked by np.eye: no fill_diagonal."""
    n = pos.shape[0]
    not_self = 1.0 - np.eye(n, dtype=pos.dtype)

    def accelerations(p):
        diff = p[None, :, :] - p[:, None, :]
        inv_r3 = ((diff ** 2).sum(-1) + softening ** 2) ** -1.5 * not_self
        return np.einsum("ijk,ij,j->ik", diff, inv_r3, mass)

    acc = accelerations(pos)
    for _ in range(steps):
        vel += 0.5 * dt * acc
        pos += dt * vel
        acc = accelerations(pos)
        vel += 0.5 * dt * acc
    return 0.5 * np.sum(mass[:, None] * vel ** 2)


def _nbody_args(seed, n):
    pos, vel, m = rng_arrays(seed, (n, 3), (n, 3), (n,))
    return pos, vel, np.abs(m) + 0.5


# ---------------------------------------------------------------- stencils


def heat_equation(u, alpha=0.2, steps=10):
    u = u.copy()
    for _ in range(steps):
        lap = u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4 * u[1:-1, 1:-1]
        u[1:-1, 1:-1] += alpha * lap
        u[0, :] = u[1, :]                   # insulated boundaries
        u[-1, :] = u[-2, :]
        u[:, 0] = u[:, 1]
        u[:, -1] = u[:, -2]
    return u


def jacobi_roll(f, iters=15, h=1.0):
    """Poisson solve on a periodic grid by Jacobi sweeps with np.roll."""
    u = np.zeros_like(f)
    for _ in range(iters):
        u = 0.25 * (np.roll(u, 1, 0) + np.roll(u, -1, 0) + np.roll(u, 1, 1) +
                    np.roll(u, -1, 1) - h * h * f)
    residual = (np.roll(u, 1, 0) + np.roll(u, -1, 0) + np.roll(u, 1, 1) +
                np.roll(u, -1, 1) - 4 * u) / (h * h) - f
    return u, np.abs(residual).max()


def wave_1d(u0, c=0.5, steps=12):
    """Leapfrog in time for u_tt = c^2 u_xx with fixed ends, three time levels."""
    prev = u0.copy()
    cur = u0.copy()
    for _ in range(steps):
        nxt = np.empty_like(cur)
        nxt[1:-1] = 2 * cur[1:-1] - prev[1:-1] + c ** 2 * (cur[2:] - 2 * cur[1:-1] + cur[:-2])
        nxt[0] = nxt[-1] = 0.0
        prev, cur = cur, nxt
    return cur


@dataclasses.dataclass(frozen=True)
class GrayScott:
    du: float = 0.16
    dv: float = 0.08
    feed: float = 0.035
    kill: float = 0.065
    dt: float = 1.0
    steps: int = 8


def laplacian(z):
    return (np.roll(z, 1, 0) + np.roll(z, -1, 0) + np.roll(z, 1, 1) + np.roll(z, -1, 1)
            - 4 * z)


def gray_scott(u, v, p: GrayScott = GrayScott()):
    """Reaction-diffusion with the parameters in a frozen dataclass."""
    for _ in range(p.steps):
        uvv = u * v * v
        u, v = (u + p.dt * (p.du * laplacian(u) - uvv + p.feed * (1 - u)),
                v + p.dt * (p.dv * laplacian(v) + uvv - (p.feed + p.kill) * v))
    return u, v


def _gs_args(seed, n, params=None):
    u = np.ones((n, n))
    v = np.zeros((n, n))
    c = slice(n // 2 - 1, n // 2 + 1)
    v[c, c] = 0.5 + 0.1 * np.random.default_rng(seed).random((2, 2))
    return (u, v) if params is None else (u, v, params)


# ---------------------------------------------------------------- images


def convolve2d(img, kernel, mode="reflect"):
    kh, kw = kernel.shape
    ph, pw = kh // 2, kw // 2
    padded = np.pad(img, ((ph, ph), (pw, pw)), mode=mode)
    h, w = img.shape
    out = np.zeros((h, w), dtype=np.result_type(img, kernel))
    for i in range(kh):
        for j in range(kw):
            out += kernel[i, j] * padded[i:i + h, j:j + w]
    return out


def gaussian_kernel(sigma, radius=None):
    if radius is None:
        radius = int(3 * sigma)
    x = np.arange(-radius, radius + 1, dtype=np.float32)
    k = np.exp(-x ** 2 / (2 * sigma ** 2))
    return k / k.sum()


def blur_and_edges(img, sigma=1.0):
    k = gaussian_kernel(sigma)
    blurred = convolve2d(img, np.outer(k, k))
    sobel_x = np.array([[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]], dtype=np.float32)
    gx = convolve2d(blurred, sobel_x, mode="edge")
    gy = convolve2d(blurred, sobel_x.T, mode="edge")
    magnitude = np.hypot(gx, gy)
    return blurred, magnitude / (magnitude.max() + 1e-12)


def normalize_image_batch(images, mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225)):
    """uint8 NHWC -> float32 NCHW, normalized per channel (every vision pipeline)."""
    x = images.astype(np.float32) / 255.0
    x = (x - np.array(mean, dtype=np.float32)) / np.array(std, dtype=np.float32)
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2))


def _img(seed, *shape):
    return np.random.default_rng(seed).integers(0, 256, size=shape, dtype=np.uint8)


# ---------------------------------------------------------------- Monte Carlo


def monte_carlo_pi(n, seed=0):
    rng = np.random.default_rng(seed)
    pts = rng.random((n, 2))
    inside = (pts ** 2).sum(axis=1) <= 1.0
    estimate = 4.0 * inside.mean()
    stderr = 4.0 * inside.std() / np.sqrt(n)
    return estimate, stderr


def option_price_mc(rng, s0, strikes, r=0.01, sigma=0.2, T=1.0, n_paths=500, n_steps=8):
    """European calls by simulating geometric Brownian motion with a Generator argument."""
    dt = T / n_steps
    z = rng.standard_normal((n_paths, n_steps))
    log_paths = np.cumsum((r - 0.5 * sigma ** 2) * dt + sigma * np.sqrt(dt) * z, axis=1)
    s_T = s0 * np.exp(log_paths[:, -1])
    payoff = np.maximum(s_T[:, None] - strikes[None, :], 0.0)
    return np.exp(-r * T) * payoff.mean(axis=0)


def random_walk_legacy(n_walkers, n_steps, seed):
    """The legacy global-state API, still everywhere in old code."""
    np.random.seed(seed)
    steps = np.random.choice([-1, 1], size=(n_walkers, n_steps))
    paths = np.cumsum(steps, axis=1)
    return paths[:, -1], np.abs(paths).max(axis=1)


# ---------------------------------------------------------------- polynomials


def horner(coeffs, x):
    """coeffs from the highest degree down, a Python list of floats."""
    result = np.zeros_like(x)
    for c in coeffs:
        result = result * x + c
    return result


def poly_fit_eval(x, y, degree=3):
    coeffs = np.polyfit(x, y, degree)
    return coeffs, np.polyval(coeffs, x)


def chebyshev_features(x, n_terms=5):
    """T_0..T_{n-1} by the recurrence, stacked as columns."""
    terms = [np.ones_like(x), x]
    for _ in range(2, n_terms):
        terms.append(2 * x * terms[-1] - terms[-2])
    return np.stack(terms[:n_terms], axis=-1)


# ---------------------------------------------------------------- statistics


def running_stats(x, window=3):
    n = x.shape[0]
    csum = np.cumsum(x, axis=0)
    running_mean = csum / np.arange(1, n + 1)[:, None]
    padded = np.concatenate([np.zeros((1,) + x.shape[1:], x.dtype), csum], axis=0)
    rolling = (padded[window:] - padded[:-window]) / window
    running_max = np.maximum.accumulate(x, axis=0)
    return {"mean": running_mean, "rolling": rolling, "max": running_max,
            "total": csum[-1]}


def ewma(x, alpha=0.3):
    out = np.empty_like(x)
    out[0] = x[0]
    for t in range(1, len(x)):
        out[t] = alpha * x[t] + (1 - alpha) * out[t - 1]
    return out


def covariance_and_correlation(X):
    """Sample covariance with the Bessel factor written as a Python float."""
    n = X.shape[0]
    xc = X - X.mean(axis=0)
    cov = xc.T @ xc * (1.0 / (n - 1))
    sd = np.sqrt(np.diag(cov))
    return cov, cov / np.outer(sd, sd)


def zscore_outliers(x, threshold=2.0):
    mu = x.mean(axis=0)
    sigma = x.std(axis=0, ddof=1)
    z = (x - mu) / sigma
    clipped = np.clip(x, mu - threshold * sigma, mu + threshold * sigma)
    return z, clipped, (np.abs(z) > threshold).sum(axis=0)


# ---------------------------------------------------------------- automata


def game_of_life(board, generations=4):
    b = board.astype(np.int8)
    for _ in range(generations):
        neighbours = sum(np.roll(np.roll(b, dy, 0), dx, 1)
                         for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0))
        b = ((neighbours == 3) | ((b == 1) & (neighbours == 2))).astype(np.int8)
    return b.astype(bool)


def mandelbrot_counts(re, im, max_iter=12):
    c = re[None, :] + 1j * im[:, None]
    z = np.zeros_like(c)
    counts = np.zeros(c.shape, dtype=np.int32)
    for _ in range(max_iter):
        z = np.where(np.abs(z) <= 2, z * z + c, z)
        counts += np.abs(z) <= 2
    return counts


PROGRAMS = [
    Program("euler_trajectory", euler_decay,
            [(rng_arrays(0, (3,)), np.float32(0.5)), (rng_arrays(1, (2, 4)), np.float32(2.0)),
             (rng_arrays(2, (5,)), np.float32(0.5))]),
    Program("rk4_function_argument", rk4_oscillators,
            [(rng_arrays(0, (4, 2), dtype=np.float64),),
             (rng_arrays(1, (3, 5, 2), dtype=np.float64), 6),
             (rng_arrays(2, (7, 2), dtype=np.float64),)]),
    Program("nbody_leapfrog_fill_diagonal", nbody_leapfrog,
            [_nbody_args(0, 5), _nbody_args(1, 4), _nbody_args(2, 6)],
            why="np.fill_diagonal writes in place in the graph"),
    Program("nbody_leapfrog_eye_einsum", nbody_leapfrog_eye,
            [_nbody_args(0, 5), _nbody_args(1, 4), _nbody_args(2, 6)]),
    Program("heat_slice_assign", heat_equation,
            [(rng_arrays(0, (8, 10)),), (rng_arrays(1, (6, 5), dtype=np.float64), 0.1, 6),
             (rng_arrays(2, (5, 9), dtype=np.float64), 0.1, 6)]),
    Program("jacobi_roll", jacobi_roll,
            [(rng_arrays(0, (8, 8)),), (rng_arrays(1, (5, 7)), 10), (rng_arrays(2, (6, 4)), 10),
             (rng_arrays(3, (300, 300)), 3)]),                # block-wise sizes
    Program("wave_three_levels", wave_1d,
            [(rng_arrays(0, (16,)),), (rng_arrays(1, (9,)), 0.9), (rng_arrays(2, (12,)), 0.9)]),
    Program("gray_scott_frozen_dataclass", gray_scott,
            [_gs_args(0, 8), _gs_args(1, 6, GrayScott(feed=0.04, steps=5)),
             _gs_args(2, 10, GrayScott(feed=0.04, steps=5))]),
    Program("blur_sobel_pad", blur_and_edges,
            [(rng_arrays(0, (12, 10)),), (rng_arrays(1, (9, 14)), 0.7),
             (rng_arrays(2, (7, 8)), 0.7)],
            why="`np.result_type(img, kernel)` folds to a dtype from the metas"),
    Program("normalize_uint8_images", normalize_image_batch,
            [(_img(0, 2, 4, 5, 3),), (_img(1, 1, 3, 3, 3),), (_img(2, 3, 2, 6, 3),)],
            why="np.ascontiguousarray is a view op (it may return its argument)"),
    Program("monte_carlo_pi_generator", monte_carlo_pi, [(1000, 0), (300, 7), (500, 7)],
            why="`np.random.default_rng(seed)` is an op: the graph makes the Generator, "
                "and `rng.random(...)` draws from it in order"),
    Program("option_price_generator_arg", option_price_mc,
            [(np.random.default_rng(0), 100.0, np.array([90.0, 100.0, 110.0])),
             (np.random.default_rng(1), 50.0, np.array([40.0, 60.0])),
             (np.random.default_rng(2), 50.0, np.array([40.0, 50.0, 60.0, 70.0]))],
            why="`rng.standard_normal(...)` on a Generator argument is a random op"),
    Program("random_walk_legacy_seed", random_walk_legacy, [(4, 10, 0), (3, 6, 1), (5, 3, 1)],
            why="`np.random.seed(seed)` is an op in order; `np.random.choice` of a list is "
                "captured"),
    Program("horner_coeff_list", horner,
            [([2.0, -1.0, 0.5, 3.0], rng_arrays(0, (6,))), ([1.0, 0.0, -2.0], rng_arrays(1, (2, 3))),
             ([1.0, 0.0, -2.0], rng_arrays(2, (4, 3)))]),
    Program("polyfit_polyval", poly_fit_eval,
            [(*rng_arrays(0, (10,), (10,), dtype=np.float64),),
             (*rng_arrays(1, (7,), (7,), dtype=np.float64), 2),
             (*rng_arrays(2, (12,), (12,), dtype=np.float64), 2)],
            why="np.polyfit (deg + 1 coefficients) and np.polyval are ops"),
    Program("chebyshev_recurrence", chebyshev_features,
            [(rng_arrays(0, (6,)),), (rng_arrays(1, (2, 3)), 3), (rng_arrays(2, (4, 5)), 3)]),
    Program("running_stats_dict", running_stats,
            [(rng_arrays(0, (8, 2)),), (rng_arrays(1, (5, 3)), 2), (rng_arrays(2, (9, 3)), 2)],
            why="`np.maximum.accumulate` is the op ufunc_accumulate"),
    Program("ewma_elementwise_loop", ewma,
            [(rng_arrays(0, (10,)),), (rng_arrays(1, (6, 2)), 0.5), (rng_arrays(2, (6, 5)), 0.5)]),
    Program("covariance_float_factor", covariance_and_correlation,
            [(rng_arrays(0, (10, 3)),), (rng_arrays(1, (6, 3)),), (rng_arrays(2, (15, 3)),),
             (rng_arrays(3, (4, 3)),)]),
    Program("zscore_clip_count", zscore_outliers,
            [(rng_arrays(0, (12, 3)),), (rng_arrays(1, (7, 2), dtype=np.float64), 1.0),
             (rng_arrays(2, (10, 2), dtype=np.float64), 1.0),
             (rng_arrays(3, (4000, 40)),)]),                  # block-wise sizes
    Program("game_of_life_roll", game_of_life,
            [(rng_arrays(0, (8, 8)) > 0,), (rng_arrays(1, (6, 5)) > 0.3, 3),
             (rng_arrays(2, (7, 9)) > 0.3, 3)]),
    Program("mandelbrot_complex", mandelbrot_counts,
            [(np.linspace(-2, 1, 9), np.linspace(-1, 1, 7)),
             (np.linspace(-1.5, 0.5, 5), np.linspace(-1, 1, 4), 8),
             (np.linspace(-1.5, 0.5, 8), np.linspace(-1, 1, 3), 8)]),
]

