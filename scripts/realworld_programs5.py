"""A fifth program corpus of scripts/bench_realworld.py (issue #15): twenty-four programs
of the shapes where a fusing backend should win over plain NumPy by the most, written
before any of them ran under dynamo, the way NumPy users write them.

None repeats a function of the earlier corpora; the kinds are: stencils over strided
views (a 5-point Laplacian written into the interior of a new array, a 9-point
smoother, a 3-D 7-point heat step, a convection-diffusion step with upwinded
differences, an anisotropic diffusion with edge-stopping weights, a checkerboard
relaxation by strided slices ``u[1:-1:2, 1:-1:2]``), elementwise chains with named
intermediates (a SiLU/Swish MLP layer's activations, the Black-Scholes price and Greeks,
a Planck spectrum, the Haversine distance, an RGB to HSV-style conversion, a smooth
step easing), time steppers with several arrays (a leapfrog spring lattice, a
semi-implicit Euler of a damped Duffing oscillator ensemble, a Hindmarsh-Rose neuron
population, a two-species reaction-diffusion on a 1-D grid, the Lorenz-96 system by
``np.roll``), normalizations (batch normalization forward, RMS normalization of rows,
a min-max rescale per column, an L2 row normalization with a cosine-similarity
matrix) and pairwise distances (Euclidean by the expansion ``|x|^2 + |y|^2 - 2xy``, an
RBF kernel, a Mahalanobis distance by a Cholesky solve, the Coulomb energy of charges).

``programs(small=False)`` lists them as (name, fn, args, kwargs) at sizes where plain
NumPy takes about a millisecond or more per call; ``small=True`` gives the same programs
on small inputs, for the differential test (tests/realworld/test_realworld_programs5.py).

Example::

    >>> name, fn, args, kwargs = programs(small=True)[0]
    >>> name
    '5-point Laplacian into a new interior'
"""

from __future__ import annotations

import numpy as np

# ---------------------------------------------------------------- stencils over views


def laplacian_interior(u, h=1.0):
    """The 5-point Laplacian of ``u``, written into the interior of a zero array."""
    lap = np.zeros_like(u)
    lap[1:-1, 1:-1] = (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
                       - 4.0 * u[1:-1, 1:-1]) / (h * h)
    return lap


def smoother_9point(u, sweeps=5):
    """Weighted 9-point smoothing (corners 1/16, edges 1/8, centre 1/4), borders fixed."""
    for _ in range(sweeps):
        corners = u[:-2, :-2] + u[:-2, 2:] + u[2:, :-2] + u[2:, 2:]
        edges = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
        centre = u[1:-1, 1:-1]
        v = u.copy()
        v[1:-1, 1:-1] = 0.0625 * corners + 0.125 * edges + 0.25 * centre
        u = v
    return u


def heat_3d_step7(u, alpha=0.1, steps=4):
    """Explicit 3-D heat equation, 7-point stencil, Dirichlet borders."""
    for _ in range(steps):
        c = u[1:-1, 1:-1, 1:-1]
        lap = (u[2:, 1:-1, 1:-1] + u[:-2, 1:-1, 1:-1] + u[1:-1, 2:, 1:-1]
               + u[1:-1, :-2, 1:-1] + u[1:-1, 1:-1, 2:] + u[1:-1, 1:-1, :-2] - 6.0 * c)
        new = u.copy()
        new[1:-1, 1:-1, 1:-1] = c + alpha * lap
        u = new
    return u


def convection_diffusion_upwind(u, vx=1.0, vy=0.5, nu=0.05, dt=0.01, dx=0.1, steps=10):
    """2-D convection-diffusion, first-order upwind advection (positive velocities)."""
    for _ in range(steps):
        un = u.copy()
        adv_x = vx * (un[1:-1, 1:-1] - un[1:-1, :-2]) / dx
        adv_y = vy * (un[1:-1, 1:-1] - un[:-2, 1:-1]) / dx
        diff = nu * (un[1:-1, 2:] + un[1:-1, :-2] + un[2:, 1:-1] + un[:-2, 1:-1]
                     - 4 * un[1:-1, 1:-1]) / dx ** 2
        u[1:-1, 1:-1] = un[1:-1, 1:-1] + dt * (diff - adv_x - adv_y)
    return u


def anisotropic_diffusion(img, kappa=0.1, lam=0.2, iters=5):
    """Perona-Malik style diffusion with exponential edge-stopping, by shifted slices."""
    u = img.astype(np.float64)
    for _ in range(iters):
        c = u[1:-1, 1:-1]
        dn = u[:-2, 1:-1] - c
        ds = u[2:, 1:-1] - c
        de = u[1:-1, 2:] - c
        dw = u[1:-1, :-2] - c
        flux = (np.exp(-(dn / kappa) ** 2) * dn + np.exp(-(ds / kappa) ** 2) * ds
                + np.exp(-(de / kappa) ** 2) * de + np.exp(-(dw / kappa) ** 2) * dw)
        u[1:-1, 1:-1] = c + lam * flux
    return u


def checkerboard_relax(u, f, h2=1.0, omega=1.5, sweeps=4):
    """Red-black SOR for the Poisson equation by strided slices (even-sized interior)."""
    for _ in range(sweeps):
        for i0, j0 in ((1, 1), (2, 2), (1, 2), (2, 1)):
            c = u[i0:-1:2, j0:-1:2]
            nb = (u[i0 - 1:-2:2, j0:-1:2] + u[i0 + 1::2, j0:-1:2]
                  + u[i0:-1:2, j0 - 1:-2:2] + u[i0:-1:2, j0 + 1::2])
            gs = 0.25 * (nb - h2 * f[i0:-1:2, j0:-1:2])
            u[i0:-1:2, j0:-1:2] = (1 - omega) * c + omega * gs
    return u


# ---------------------------------------------------------------- elementwise chains


def silu_mlp_layer(x, w1, b1, w2, b2):
    """Two dense layers with SiLU and a GELU (tanh form) between, named intermediates."""
    h = x @ w1 + b1
    gate = 1.0 / (1.0 + np.exp(-h))
    act = h * gate
    z = act @ w2 + b2
    inner = 0.7978845608028654 * (z + 0.044715 * z ** 3)
    out = 0.5 * z * (1.0 + np.tanh(inner))
    return out


def _norm_cdf(x):
    return 0.5 * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def black_scholes_greeks(S, K, T, r=0.02, sigma=0.3):
    """Call price, delta, gamma and vega (logistic-free tanh approximation of N)."""
    sqrt_t = np.sqrt(T)
    vol = sigma * sqrt_t
    d1 = (np.log(S / K) + (r + 0.5 * sigma * sigma) * T) / vol
    d2 = d1 - vol
    pdf = np.exp(-0.5 * d1 * d1) / np.sqrt(2 * np.pi)
    disc = np.exp(-r * T)
    price = S * _norm_cdf(d1) - K * disc * _norm_cdf(d2)
    delta = _norm_cdf(d1)
    gamma = pdf / (S * vol)
    vega = S * pdf * sqrt_t
    return price, delta, gamma, vega


def planck_spectrum(wavelength, temps):
    """Black-body spectral radiance for a grid of wavelengths (rows) and temperatures."""
    h, c, k = 6.62607015e-34, 2.99792458e8, 1.380649e-23
    lam = wavelength[:, None]
    a = 2.0 * h * c * c / lam ** 5
    x = h * c / (lam * k * temps[None, :])
    radiance = a / np.expm1(x)
    peak = radiance / radiance.max(axis=0)
    return peak


def haversine_km(lat1, lon1, lat2, lon2):
    """Great-circle distances between paired points in degrees."""
    p1, p2 = np.radians(lat1), np.radians(lat2)
    dphi = p2 - p1
    dlmb = np.radians(lon2 - lon1)
    a = np.sin(dphi / 2) ** 2 + np.cos(p1) * np.cos(p2) * np.sin(dlmb / 2) ** 2
    c = 2 * np.arctan2(np.sqrt(a), np.sqrt(1 - a))
    return 6371.0 * c


def rgb_to_hsv_value_sat(img):
    """Value, saturation and a luminance-weighted gamma from an RGB float image."""
    r, g, b = img[..., 0], img[..., 1], img[..., 2]
    mx = np.maximum(np.maximum(r, g), b)
    mn = np.minimum(np.minimum(r, g), b)
    delta = mx - mn
    sat = np.where(mx > 0, delta / np.where(mx > 0, mx, 1.0), 0.0)
    lum = 0.2126 * r + 0.7152 * g + 0.0722 * b
    gamma = np.where(lum <= 0.0031308, 12.92 * lum, 1.055 * lum ** (1 / 2.4) - 0.055)
    return mx, sat, gamma


def smoothstep_blend(a, b, t):
    """Blend two fields by a quintic smoothstep of a clipped parameter field."""
    x = np.clip(t, 0.0, 1.0)
    s = x * x * x * (x * (x * 6 - 15) + 10)
    blended = a + (b - a) * s
    return blended


# ---------------------------------------------------------------- time steppers


def spring_lattice_leapfrog(x, v, k=1.0, m=1.0, dt=0.05, steps=20):
    """A 1-D chain of masses and springs, periodic, velocity Verlet on x and v."""
    a = k / m * (np.roll(x, 1) + np.roll(x, -1) - 2 * x)
    for _ in range(steps):
        v_half = v + 0.5 * dt * a
        x = x + dt * v_half
        a = k / m * (np.roll(x, 1) + np.roll(x, -1) - 2 * x)
        v = v_half + 0.5 * dt * a
    energy = 0.5 * m * (v * v).sum() + 0.5 * k * ((np.roll(x, -1) - x) ** 2).sum()
    return x, v, energy


def duffing_ensemble(x, v, delta=0.2, alpha=-1.0, beta=1.0, gamma=0.3, omega=1.2,
                     dt=0.01, steps=50):
    """Semi-implicit Euler for an ensemble of forced damped Duffing oscillators."""
    t = 0.0
    for _ in range(steps):
        force = gamma * np.cos(omega * t) - delta * v - alpha * x - beta * x ** 3
        v = v + dt * force
        x = x + dt * v
        t += dt
    return x, v


def hindmarsh_rose(x, y, z, current=3.0, r=0.006, s=4.0, xr=-1.6, dt=0.02, steps=40):
    """A population of Hindmarsh-Rose neurons, forward Euler on three arrays."""
    for _ in range(steps):
        dx = y - x ** 3 + 3.0 * x ** 2 - z + current
        dy = 1.0 - 5.0 * x ** 2 - y
        dz = r * (s * (x - xr) - z)
        x = x + dt * dx
        y = y + dt * dy
        z = z + dt * dz
    return x, y, z


def schnakenberg_1d(u, v, Du=1.0, Dv=40.0, a=0.1, b=0.9, dx=1.0, dt=0.002, steps=30):
    """Schnakenberg reaction-diffusion on a periodic 1-D grid, two species."""
    for _ in range(steps):
        lap_u = (np.roll(u, 1) + np.roll(u, -1) - 2 * u) / (dx * dx)
        lap_v = (np.roll(v, 1) + np.roll(v, -1) - 2 * v) / (dx * dx)
        uuv = u * u * v
        u = u + dt * (Du * lap_u + a - u + uuv)
        v = v + dt * (Dv * lap_v + b - uuv)
    return u, v


def lorenz96_rk2(x, F=8.0, dt=0.01, steps=20):
    """Lorenz-96 with cyclic indices by np.roll, Heun's method, rows of ensembles."""
    def rhs(x):
        return (np.roll(x, -1, axis=1) - np.roll(x, 2, axis=1)) * np.roll(x, 1, axis=1) - x + F
    for _ in range(steps):
        k1 = rhs(x)
        k2 = rhs(x + dt * k1)
        x = x + 0.5 * dt * (k1 + k2)
    return x


# ---------------------------------------------------------------- normalizations


def batchnorm_forward(x, gamma, beta, eps=1e-5):
    """Batch normalization forward pass over rows; returns the output and the cache."""
    mu = x.mean(axis=0)
    xc = x - mu
    var = (xc * xc).mean(axis=0)
    inv_std = 1.0 / np.sqrt(var + eps)
    xhat = xc * inv_std
    out = gamma * xhat + beta
    return out, mu, var


def rms_norm_rows(x, weight, eps=1e-6):
    """RMS normalization of each row, scaled by a weight vector."""
    ms = (x * x).mean(axis=-1, keepdims=True)
    inv = 1.0 / np.sqrt(ms + eps)
    return x * inv * weight


def minmax_columns(x):
    """Rescale each column to [0, 1], constant columns to 0."""
    lo = x.min(axis=0)
    hi = x.max(axis=0)
    span = hi - lo
    span = np.where(span > 0, span, 1.0)
    return (x - lo) / span


def cosine_similarity(x, eps=1e-12):
    """L2-normalized rows and their cosine-similarity matrix, clipped to [-1, 1]."""
    norms = np.sqrt((x * x).sum(axis=1, keepdims=True))
    xn = x / np.maximum(norms, eps)
    sim = xn @ xn.T
    return np.clip(sim, -1.0, 1.0)


# ---------------------------------------------------------------- pairwise distances


def euclidean_expansion(X, Y):
    """Pairwise Euclidean distances by |x|^2 + |y|^2 - 2 x.y, clipped at zero."""
    xx = (X * X).sum(axis=1)[:, None]
    yy = (Y * Y).sum(axis=1)[None, :]
    d2 = xx + yy - 2.0 * (X @ Y.T)
    d2 = np.maximum(d2, 0.0)
    return np.sqrt(d2)


def rbf_kernel_matrix(X, gamma=0.5):
    """The Gaussian kernel matrix of the rows of X, by broadcasting differences."""
    diff = X[:, None, :] - X[None, :, :]
    sq = (diff * diff).sum(axis=-1)
    return np.exp(-gamma * sq)


def mahalanobis_cholesky(X, mean, cov):
    """Mahalanobis distances of rows to a mean, by a Cholesky factor and a solve."""
    L = np.linalg.cholesky(cov)
    d = (X - mean).T
    z = np.linalg.solve(L, d)
    return np.sqrt((z * z).sum(axis=0))


def coulomb_energy(pos, q, soft=1e-3):
    """Softened pairwise Coulomb energy and forces of point charges."""
    dx = pos[:, None, 0] - pos[None, :, 0]
    dy = pos[:, None, 1] - pos[None, :, 1]
    r2 = dx * dx + dy * dy + soft
    inv_r = 1.0 / np.sqrt(r2)
    qq = q[:, None] * q[None, :]
    energy = 0.5 * (qq * inv_r).sum()
    inv_r3 = inv_r * inv_r * inv_r
    fx = (qq * dx * inv_r3).sum(axis=1)
    fy = (qq * dy * inv_r3).sum(axis=1)
    return energy, fx, fy


# ---------------------------------------------------------------- the list


def programs(small: bool = False) -> list:
    """(name, fn, args, kwargs) for every program; ``small`` for the differential test."""
    rng = np.random.default_rng(5)

    def s(big, little):
        return little if small else big

    def r(*shape):
        return rng.random(shape)

    def normal(*shape):
        return rng.standard_normal(shape)

    n2 = s(400, 12)
    n3 = s(64, 8)
    n_ch = s(200000, 64)
    n_mlp, d_in, d_hid = s(2000, 8), s(64, 5), s(128, 7)
    n_bs = s(200000, 50)
    n_pl, n_t = s(2000, 20), s(200, 6)
    n_pop = s(100000, 40)
    n_pd = s(600, 10)
    cov = np.cov(normal(s(200, 20), 4), rowvar=False) + 0.1 * np.eye(4)
    return [
        # stencils over strided views
        ("5-point Laplacian into a new interior", laplacian_interior, (r(n2, n2),),
         {"h": 0.5}),
        ("9-point smoother, copy per sweep", smoother_9point, (r(n2, n2),),
         {"sweeps": s(5, 2)}),
        ("3-D 7-point heat step", heat_3d_step7, (r(n3, n3, n3),), {"steps": s(4, 2)}),
        ("convection-diffusion upwind in place", convection_diffusion_upwind, (r(n2, n2),),
         {"steps": s(10, 2)}),
        ("anisotropic diffusion by shifted slices", anisotropic_diffusion, (r(n2, n2),),
         {"iters": s(5, 2)}),
        ("red-black relaxation by strided slices", checkerboard_relax,
         (np.zeros((s(402, 14), s(402, 14))), r(s(402, 14), s(402, 14))),
         {"sweeps": s(4, 2)}),
        # elementwise chains with named intermediates
        ("SiLU + GELU MLP layer", silu_mlp_layer,
         (normal(n_mlp, d_in), 0.1 * normal(d_in, d_hid), 0.1 * normal(d_hid),
          0.1 * normal(d_hid, d_in), 0.1 * normal(d_in)), {}),
        ("Black-Scholes price and Greeks", black_scholes_greeks,
         (50 + 100 * r(n_bs), 50 + 100 * r(n_bs), 0.1 + 2 * r(n_bs)), {}),
        ("Planck spectrum, normalized per temperature", planck_spectrum,
         (np.linspace(1e-7, 3e-6, n_pl), np.linspace(2000.0, 12000.0, n_t)), {}),
        ("Haversine distances", haversine_km,
         (180 * r(n_ch) - 90, 360 * r(n_ch) - 180, 180 * r(n_ch) - 90, 360 * r(n_ch) - 180),
         {}),
        ("RGB value/saturation/gamma", rgb_to_hsv_value_sat, (r(s(512, 10), s(512, 10), 3),),
         {}),
        ("quintic smoothstep blend", smoothstep_blend,
         (r(s(1000, 10), s(400, 10)), r(s(1000, 10), s(400, 10)),
          1.4 * r(s(1000, 10), s(400, 10)) - 0.2), {}),
        # time steppers with several arrays
        ("spring lattice velocity Verlet", spring_lattice_leapfrog,
         (normal(n_ch // 2), np.zeros(n_ch // 2)), {"steps": s(20, 3)}),
        ("Duffing ensemble semi-implicit Euler", duffing_ensemble,
         (normal(n_pop), np.zeros(n_pop)), {"steps": s(50, 4)}),
        ("Hindmarsh-Rose population", hindmarsh_rose,
         (normal(n_pop), normal(n_pop), normal(n_pop)), {"steps": s(40, 4)}),
        ("Schnakenberg reaction-diffusion 1-D", schnakenberg_1d,
         (1.0 + 0.01 * normal(n_pop), 0.9 + 0.01 * normal(n_pop)), {"steps": s(30, 3)}),
        ("Lorenz-96 ensemble, Heun", lorenz96_rk2, (8.0 + normal(s(500, 6), s(40, 8)),),
         {"steps": s(20, 3)}),
        # normalizations
        ("batch normalization forward", batchnorm_forward,
         (normal(s(20000, 30), 64), 1 + 0.1 * normal(64), 0.1 * normal(64)), {}),
        ("RMS normalization of rows", rms_norm_rows,
         (normal(s(20000, 30), 128), 1 + 0.1 * normal(128)), {}),
        ("min-max rescale per column", minmax_columns, (normal(s(50000, 40), 32),), {}),
        ("cosine-similarity matrix", cosine_similarity, (normal(s(800, 12), 64),), {}),
        # pairwise distances
        ("Euclidean distances by expansion", euclidean_expansion,
         (normal(s(1500, 12), 16), normal(s(1000, 9), 16)), {}),
        ("RBF kernel by broadcast differences", rbf_kernel_matrix, (normal(s(300, 10), 8),),
         {}),
        ("Mahalanobis by Cholesky solve", mahalanobis_cholesky,
         (normal(s(100000, 50), 4), np.zeros(4), cov), {}),
        ("Coulomb energy and forces", coulomb_energy, (r(n_pd, 2), normal(n_pd)), {}),
    ]
