"""A fourth program corpus of scripts/bench_realworld.py (issue #15): forty programs
written, before any of them ran under dynamo, the way NumPy users write them.

None repeats a function of ``realworld_programs.py``, ``realworld_programs2.py`` or
``realworld_programs3.py``; the kinds are the ones held-out suites measure and the
earlier corpora have least of: finite volumes with limiters chosen by ``np.where``
(MUSCL/minmod, a superbee flux limiter, Rusanov fluxes for the Euler equations),
lattice Boltzmann, particle-in-cell deposits by ``np.bincount``, RK4 and adaptive
Dormand-Prince integrators of ODE systems, image processing (Harris corners, a
separable Gaussian by ``np.convolve`` per row, a bilateral filter, nearest-neighbour
rotation, tone mapping), Monte Carlo with a ``Generator`` (an Asian option, Metropolis
chains, a bootstrap, particle transport through a slab), training loops (minibatch
softmax SGD with a permutation per epoch, Adam, Huber IRLS, kernel ridge), k-nearest
neighbours by ``argpartition`` and ``argsort``, Markov chains (matrix powers, an
absorbing chain, the scaled HMM forward pass, sampled chains), statistics pipelines
(median/MAD, quantile normalization, binned statistics by ``np.digitize``, the KS
statistic, mutual information from histograms, winsorizing by percentiles), data
cleaning with masks (NaN fills, forward fill, IQR clipping) and polynomial fitting
(``np.vander`` + ``lstsq``, ``np.polyfit``/``np.polyval``, Savitzky-Golay).

``programs(small=False)`` lists them as (name, fn, args, kwargs) at sizes where plain
NumPy takes about a millisecond or more per call; ``small=True`` gives the same programs
on small inputs, for the differential test (tests/realworld/test_realworld_programs4.py).

Example::

    >>> name, fn, args, kwargs = programs(small=True)[0]
    >>> name
    'MUSCL minmod advection (np.where limiter)'
"""

from __future__ import annotations

import numpy as np

# ---------------------------------------------------------------- finite volumes


def muscl_minmod(u, c=1.0, dx=0.01, dt=0.004, steps=40):
    """Periodic linear advection, MUSCL reconstruction with the minmod limiter."""
    nu = c * dt / dx
    for _ in range(steps):
        du_l = u - np.roll(u, 1)
        du_r = np.roll(u, -1) - u
        slope = np.where(du_l * du_r > 0,
                         np.where(np.abs(du_l) < np.abs(du_r), du_l, du_r), 0.0)
        u_face = u + 0.5 * (1.0 - nu) * slope
        flux = c * u_face
        u = u - dt / dx * (flux - np.roll(flux, 1))
    return u


def superbee_flux_limiter(u, a=1.0, dx=0.005, dt=0.002, steps=60):
    """Flux-limited Lax-Wendroff with superbee, fixed inflow at the left end."""
    C = a * dt / dx
    for _ in range(steps):
        du = np.diff(u)
        num = du[:-1]
        den = du[1:]
        r = np.where(np.abs(den) > 1e-12, num / np.where(den == 0, 1.0, den), 0.0)
        phi = np.maximum(0.0, np.maximum(np.minimum(2 * r, 1.0), np.minimum(r, 2.0)))
        F = a * u[1:-1] + 0.5 * a * (1 - C) * phi * du[1:]
        unew = u.copy()
        unew[2:-1] = u[2:-1] - C / a * (F[1:] - F[:-1])
        u = unew
    return u


def euler_rusanov_sod(n=2000, steps=60, gamma=1.4, cfl=0.4):
    """1-D Euler equations, Sod's shock tube, Rusanov (local Lax-Friedrichs) fluxes."""
    x = np.linspace(0.0, 1.0, n)
    rho = np.where(x < 0.5, 1.0, 0.125)
    p = np.where(x < 0.5, 1.0, 0.1)
    u = np.zeros(n)
    U = np.stack([rho, rho * u, p / (gamma - 1) + 0.5 * rho * u ** 2])
    dx = x[1] - x[0]
    t = 0.0
    for _ in range(steps):
        rho, mom, E = U
        vel = mom / rho
        pres = (gamma - 1) * (E - 0.5 * rho * vel ** 2)
        cs = np.sqrt(gamma * pres / rho)
        F = np.stack([mom, mom * vel + pres, (E + pres) * vel])
        smax = np.maximum(np.abs(vel[:-1]) + cs[:-1], np.abs(vel[1:]) + cs[1:])
        flux = 0.5 * (F[:, :-1] + F[:, 1:]) - 0.5 * smax * (U[:, 1:] - U[:, :-1])
        dt = cfl * dx / np.max(np.abs(vel) + cs)
        U[:, 1:-1] -= dt / dx * (flux[:, 1:] - flux[:, :-1])
        t += dt
    return U, t


def lattice_boltzmann_d2q9(f, omega=1.0, steps=10):
    """D2Q9 BGK on a periodic box: streaming by np.roll, equilibrium by tensordot."""
    c = np.array([[0, 0], [1, 0], [0, 1], [-1, 0], [0, -1],
                  [1, 1], [-1, 1], [-1, -1], [1, -1]])
    w = np.array([4 / 9] + [1 / 9] * 4 + [1 / 36] * 4)
    for _ in range(steps):
        for i in range(9):
            f[i] = np.roll(np.roll(f[i], c[i, 0], axis=0), c[i, 1], axis=1)
        rho = f.sum(axis=0)
        ux = np.tensordot(c[:, 0], f, axes=1) / rho
        uy = np.tensordot(c[:, 1], f, axes=1) / rho
        usq = ux ** 2 + uy ** 2
        for i in range(9):
            cu = 3 * (c[i, 0] * ux + c[i, 1] * uy)
            feq = rho * w[i] * (1 + cu + 0.5 * cu ** 2 - 1.5 * usq)
            f[i] += omega * (feq - f[i])
    return f, rho


def pic_cic_2d(pos, vel, ng=64, L=1.0, dt=0.01, steps=5):
    """2-D particle-in-cell: cloud-in-cell deposit by np.bincount, FFT Poisson solve,
    field gathered with the same weights, leapfrog push, periodic wrap."""
    dx = L / ng
    k = 2 * np.pi * np.fft.fftfreq(ng, d=dx)
    kx, ky = np.meshgrid(k, k, indexing="ij")
    k2 = kx ** 2 + ky ** 2
    k2[0, 0] = 1.0
    for _ in range(steps):
        g = pos / dx
        i0 = np.floor(g).astype(np.int64)
        fx, fy = (g - i0).T
        ix0, iy0 = i0[:, 0] % ng, i0[:, 1] % ng
        ix1, iy1 = (ix0 + 1) % ng, (iy0 + 1) % ng
        rho = np.zeros(ng * ng)
        for ix, iy, wgt in ((ix0, iy0, (1 - fx) * (1 - fy)), (ix1, iy0, fx * (1 - fy)),
                            (ix0, iy1, (1 - fx) * fy), (ix1, iy1, fx * fy)):
            rho += np.bincount(ix * ng + iy, weights=wgt, minlength=ng * ng)
        rho = rho.reshape(ng, ng) / dx ** 2
        rho -= rho.mean()
        phi_k = np.fft.fft2(rho) / k2
        phi_k[0, 0] = 0.0
        Ex = np.real(np.fft.ifft2(-1j * kx * phi_k))
        Ey = np.real(np.fft.ifft2(-1j * ky * phi_k))
        ex = ((1 - fx) * (1 - fy) * Ex[ix0, iy0] + fx * (1 - fy) * Ex[ix1, iy0]
              + (1 - fx) * fy * Ex[ix0, iy1] + fx * fy * Ex[ix1, iy1])
        ey = ((1 - fx) * (1 - fy) * Ey[ix0, iy0] + fx * (1 - fy) * Ey[ix1, iy0]
              + (1 - fx) * fy * Ey[ix0, iy1] + fx * fy * Ey[ix1, iy1])
        vel = vel - dt * np.stack([ex, ey], axis=1)
        pos = (pos + dt * vel) % L
    return pos, vel


# ---------------------------------------------------------------- ODE integrators


def _hh_rates(V):
    am = 0.1 * (V + 40.0) / (1.0 - np.exp(-(V + 40.0) / 10.0))
    bm = 4.0 * np.exp(-(V + 65.0) / 18.0)
    ah = 0.07 * np.exp(-(V + 65.0) / 20.0)
    bh = 1.0 / (1.0 + np.exp(-(V + 35.0) / 10.0))
    an = 0.01 * (V + 55.0) / (1.0 - np.exp(-(V + 55.0) / 10.0))
    bn = 0.125 * np.exp(-(V + 65.0) / 80.0)
    return am, bm, ah, bh, an, bn


def _hh_rhs(y, i_ext):
    V, m, h, n = y
    am, bm, ah, bh, an, bn = _hh_rates(V)
    INa = 120.0 * m ** 3 * h * (V - 50.0)
    IK = 36.0 * n ** 4 * (V + 77.0)
    IL = 0.3 * (V + 54.387)
    return np.array([i_ext - INa - IK - IL, am * (1 - m) - bm * m,
                     ah * (1 - h) - bh * h, an * (1 - n) - bn * n])


def rk4_hodgkin_huxley(y, i_ext, dt=0.01, steps=50):
    """An ensemble of Hodgkin-Huxley neurons (state rows V, m, h, n), classic RK4;
    spike counts from upward crossings of 0 mV."""
    spikes = np.zeros(y.shape[1], dtype=np.int64)
    for _ in range(steps):
        k1 = _hh_rhs(y, i_ext)
        k2 = _hh_rhs(y + 0.5 * dt * k1, i_ext)
        k3 = _hh_rhs(y + 0.5 * dt * k2, i_ext)
        k4 = _hh_rhs(y + dt * k3, i_ext)
        y_new = y + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
        spikes += (y[0] < 0.0) & (y_new[0] >= 0.0)
        y = y_new
    return y, spikes


def _coupled_rhs(y, k, c):
    x, v = y[0], y[1]
    lap = np.zeros_like(x)
    lap[1:-1] = x[:-2] - 2 * x[1:-1] + x[2:]
    return np.stack([v, -k * x - c * v + lap - x ** 3])


def dopri_adaptive_chain(y, t_end=1.0, h=0.05, rtol=1e-6, atol=1e-9, k=1.0, c=0.1):
    """Dormand-Prince 5(4) with step-size control on a Duffing oscillator chain; the
    step is accepted or rejected from the error norm (a Python float)."""
    a21 = 1 / 5
    a31, a32 = 3 / 40, 9 / 40
    a41, a42, a43 = 44 / 45, -56 / 15, 32 / 9
    a51, a52, a53, a54 = 19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729
    a61, a62, a63, a64, a65 = 9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656
    b1, b3, b4, b5, b6 = 35 / 384, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84
    e1, e3, e4, e5, e6, e7 = (71 / 57600, -71 / 16695, 71 / 1920, -17253 / 339200,
                              22 / 525, -1 / 40)
    t = 0.0
    accepted = rejected = 0
    k1 = _coupled_rhs(y, k, c)
    while t < t_end:
        h = min(h, t_end - t)
        k2 = _coupled_rhs(y + h * a21 * k1, k, c)
        k3 = _coupled_rhs(y + h * (a31 * k1 + a32 * k2), k, c)
        k4 = _coupled_rhs(y + h * (a41 * k1 + a42 * k2 + a43 * k3), k, c)
        k5 = _coupled_rhs(y + h * (a51 * k1 + a52 * k2 + a53 * k3 + a54 * k4), k, c)
        k6 = _coupled_rhs(y + h * (a61 * k1 + a62 * k2 + a63 * k3 + a64 * k4 + a65 * k5),
                          k, c)
        y5 = y + h * (b1 * k1 + b3 * k3 + b4 * k4 + b5 * k5 + b6 * k6)
        k7 = _coupled_rhs(y5, k, c)
        err = h * (e1 * k1 + e3 * k3 + e4 * k4 + e5 * k5 + e6 * k6 + e7 * k7)
        scale = atol + rtol * np.maximum(np.abs(y), np.abs(y5))
        err_norm = float(np.sqrt(np.mean((err / scale) ** 2)))
        if err_norm <= 1.0:
            t += h
            y = y5
            k1 = k7
            accepted += 1
        else:
            rejected += 1
        h = h * min(5.0, max(0.2, 0.9 * err_norm ** -0.2)) if err_norm > 0 else h * 5.0
    return y, accepted, rejected


def rk4_predator_prey_grid(u, v, D=0.05, a=1.0, b=0.5, c=0.5, d=0.2, dt=0.02, steps=20):
    """Diffusive predator-prey (Rosenzweig-MacArthur) on a periodic grid; the RHS
    uses np.roll Laplacians, RK4 in time."""
    def rhs(u, v):
        lap_u = (np.roll(u, 1, 0) + np.roll(u, -1, 0) + np.roll(u, 1, 1)
                 + np.roll(u, -1, 1) - 4 * u)
        lap_v = (np.roll(v, 1, 0) + np.roll(v, -1, 0) + np.roll(v, 1, 1)
                 + np.roll(v, -1, 1) - 4 * v)
        graze = a * u * v / (1 + u)
        return u * (1 - u) - graze + D * lap_u, b * graze - c * v + d * D * lap_v
    for _ in range(steps):
        k1u, k1v = rhs(u, v)
        k2u, k2v = rhs(u + 0.5 * dt * k1u, v + 0.5 * dt * k1v)
        k3u, k3v = rhs(u + 0.5 * dt * k2u, v + 0.5 * dt * k2v)
        k4u, k4v = rhs(u + dt * k3u, v + dt * k3v)
        u = u + dt / 6 * (k1u + 2 * k2u + 2 * k3u + k4u)
        v = v + dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
    return u, v


# ---------------------------------------------------------------- images


def harris_corners(img, k=0.05, thresh=0.01):
    """Harris response: central-difference gradients, a 3x3 box-smoothed structure
    tensor by slices, thresholded local maxima counted."""
    Ix = np.zeros_like(img)
    Iy = np.zeros_like(img)
    Ix[:, 1:-1] = 0.5 * (img[:, 2:] - img[:, :-2])
    Iy[1:-1, :] = 0.5 * (img[2:, :] - img[:-2, :])

    def box3(a):
        out = np.zeros_like(a)
        out[1:-1, 1:-1] = (a[:-2, :-2] + a[:-2, 1:-1] + a[:-2, 2:] + a[1:-1, :-2]
                           + a[1:-1, 1:-1] + a[1:-1, 2:] + a[2:, :-2] + a[2:, 1:-1]
                           + a[2:, 2:]) / 9.0
        return out
    Sxx, Syy, Sxy = box3(Ix * Ix), box3(Iy * Iy), box3(Ix * Iy)
    R = Sxx * Syy - Sxy ** 2 - k * (Sxx + Syy) ** 2
    c = R[1:-1, 1:-1]
    peak = ((c > thresh * R.max()) & (c >= R[:-2, 1:-1]) & (c >= R[2:, 1:-1])
            & (c >= R[1:-1, :-2]) & (c >= R[1:-1, 2:]))
    return R, int(peak.sum())


def separable_gaussian_rows(img, sigma=2.0):
    """A Gaussian blur as two 1-D passes, np.convolve on every row and column."""
    radius = int(3 * sigma)
    t = np.arange(-radius, radius + 1)
    g = np.exp(-t ** 2 / (2 * sigma ** 2))
    g /= g.sum()
    tmp = np.empty_like(img)
    for i in range(img.shape[0]):
        tmp[i] = np.convolve(img[i], g, mode="same")
    out = np.empty_like(img)
    for j in range(img.shape[1]):
        out[:, j] = np.convolve(tmp[:, j], g, mode="same")
    return out


def bilateral_3x3(img, sigma_s=1.0, sigma_r=0.1, iters=2):
    """A 3x3 bilateral filter by shifted slices of an edge-padded image."""
    for _ in range(iters):
        P = np.pad(img, 1, mode="edge")
        num = np.zeros_like(img)
        den = np.zeros_like(img)
        H, W = img.shape
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                nb = P[1 + di:1 + di + H, 1 + dj:1 + dj + W]
                w = np.exp(-(di * di + dj * dj) / (2 * sigma_s ** 2)
                           - (nb - img) ** 2 / (2 * sigma_r ** 2))
                num += w * nb
                den += w
        img = num / den
    return img


def rotate_nearest(img, angle=0.3):
    """Rotate about the centre by inverse mapping, nearest neighbour, zero outside."""
    H, W = img.shape
    yy, xx = np.mgrid[0:H, 0:W]
    cy, cx = (H - 1) / 2, (W - 1) / 2
    ca, sa = np.cos(angle), np.sin(angle)
    xs = ca * (xx - cx) + sa * (yy - cy) + cx
    ys = -sa * (xx - cx) + ca * (yy - cy) + cy
    xi = np.rint(xs).astype(np.int64)
    yi = np.rint(ys).astype(np.int64)
    inside = (xi >= 0) & (xi < W) & (yi >= 0) & (yi < H)
    out = np.zeros_like(img)
    out[inside] = img[yi[inside], xi[inside]]
    return out


def reinhard_tonemap(rgb, key=0.18, gamma=2.2):
    """HDR tone mapping of a float32 image: luminance, log-average, Reinhard, gamma."""
    L = 0.2126 * rgb[..., 0] + 0.7152 * rgb[..., 1] + 0.0722 * rgb[..., 2]
    Lavg = np.exp(np.mean(np.log(L + 1e-6)))
    Ls = key / Lavg * L
    Lwhite = Ls.max()
    Ld = Ls * (1 + Ls / Lwhite ** 2) / (1 + Ls)
    out = rgb * (Ld / (L + 1e-6))[..., None]
    out = np.clip(out, 0.0, 1.0) ** (1.0 / gamma)
    return (out * 255).astype(np.uint8)


# ---------------------------------------------------------------- Monte Carlo


def asian_option_mc(rng, S0=100.0, K=100.0, r=0.03, sigma=0.25, T=1.0, steps=64,
                    paths=4000):
    """Arithmetic-average Asian call by Monte Carlo with antithetic variates."""
    dt = T / steps
    z = rng.standard_normal((paths, steps))
    drift = (r - 0.5 * sigma ** 2) * dt
    vol = sigma * np.sqrt(dt)
    up = S0 * np.exp(np.cumsum(drift + vol * z, axis=1))
    dn = S0 * np.exp(np.cumsum(drift - vol * z, axis=1))
    pay = 0.5 * (np.maximum(up.mean(axis=1) - K, 0) + np.maximum(dn.mean(axis=1) - K, 0))
    disc = np.exp(-r * T)
    return disc * pay.mean(), disc * pay.std(ddof=1) / np.sqrt(paths)


def metropolis_banana(rng, x, steps=200, step=0.5, b=0.1):
    """Many random-walk Metropolis chains on a banana-shaped 2-D density."""
    def logp(x):
        return -0.5 * (x[:, 0] ** 2 / 4 + (x[:, 1] + b * x[:, 0] ** 2 - 4 * b) ** 2)
    lp = logp(x)
    accepted = np.zeros(x.shape[0])
    mean = np.zeros(2)
    for _ in range(steps):
        prop = x + step * rng.standard_normal(x.shape)
        lq = logp(prop)
        acc = np.log(rng.random(x.shape[0])) < lq - lp
        x = np.where(acc[:, None], prop, x)
        lp = np.where(acc, lq, lp)
        accepted += acc
        mean += x.mean(axis=0)
    return x, accepted.mean() / steps, mean / steps


def bootstrap_percentile_ci(rng, x, B=2000, alpha=0.05):
    """Bootstrap of the mean and the median; percentile confidence intervals."""
    n = x.shape[0]
    idx = rng.integers(0, n, size=(B, n))
    samples = x[idx]
    means = samples.mean(axis=1)
    medians = np.median(samples, axis=1)
    lo, hi = 100 * alpha / 2, 100 * (1 - alpha / 2)
    return (np.percentile(means, [lo, hi]), np.percentile(medians, [lo, hi]),
            means.std(ddof=1))


def slab_transport(rng, n=20000, thickness=2.0, sigma_t=1.0, absorb=0.3, steps=30):
    """Neutrons through a slab: exponential free flights, isotropic scattering,
    absorption by a draw; fixed number of collision rounds, masks for who is alive."""
    x = np.zeros(n)
    mu = np.ones(n)
    alive = np.ones(n, dtype=bool)
    transmitted = reflected = absorbed = 0
    for _ in range(steps):
        d = -np.log(rng.random(n)) / sigma_t
        x = np.where(alive, x + mu * d, x)
        out_r = alive & (x > thickness)
        out_l = alive & (x < 0)
        transmitted += int(out_r.sum())
        reflected += int(out_l.sum())
        alive &= ~(out_r | out_l)
        hit = alive & (rng.random(n) < absorb)
        absorbed += int(hit.sum())
        alive &= ~hit
        mu = np.where(alive, 2 * rng.random(n) - 1, mu)
    return transmitted / n, reflected / n, absorbed / n


# ---------------------------------------------------------------- training loops


def softmax_minibatch_sgd(rng, X, y, n_classes=10, lr=0.1, epochs=2, batch=128):
    """Softmax regression, a fresh permutation every epoch, minibatches by slicing."""
    n, d = X.shape
    W = np.zeros((d, n_classes))
    b = np.zeros(n_classes)
    Y = np.eye(n_classes)[y]
    losses = []
    for _ in range(epochs):
        perm = rng.permutation(n)
        for start in range(0, n, batch):
            idx = perm[start:start + batch]
            xb, yb = X[idx], Y[idx]
            z = xb @ W + b
            z -= z.max(axis=1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(axis=1, keepdims=True)
            g = (p - yb) / xb.shape[0]
            W -= lr * (xb.T @ g)
            b -= lr * g.sum(axis=0)
        losses.append(-np.mean(np.log(p[np.arange(len(idx)), y[idx]] + 1e-12)))
    return W, b, losses


def adam_linear_regression(X, y, lr=0.05, steps=100, b1=0.9, b2=0.999, eps=1e-8):
    """Full-batch Adam on mean squared error, bias-corrected moments."""
    w = np.zeros(X.shape[1])
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for t in range(1, steps + 1):
        grad = 2.0 / X.shape[0] * (X.T @ (X @ w - y))
        m = b1 * m + (1 - b1) * grad
        v = b2 * v + (1 - b2) * grad ** 2
        mhat = m / (1 - b1 ** t)
        vhat = v / (1 - b2 ** t)
        w -= lr * mhat / (np.sqrt(vhat) + eps)
    return w, np.mean((X @ w - y) ** 2)


def huber_irls(X, y, delta=1.0, iters=10):
    """Huber regression by iteratively reweighted least squares, weights by np.where."""
    beta = np.linalg.lstsq(X, y, rcond=None)[0]
    for _ in range(iters):
        r = y - X @ beta
        a = np.abs(r)
        w = np.where(a <= delta, 1.0, delta / np.maximum(a, 1e-12))
        Xw = X * w[:, None]
        beta = np.linalg.solve(X.T @ Xw, Xw.T @ y)
    return beta


def kernel_ridge_rbf(X, y, Xt, gamma=0.5, lam=1e-2):
    """RBF kernel ridge regression: squared distances by the expansion, a solve."""
    sq = np.sum(X ** 2, axis=1)
    D = sq[:, None] + sq[None, :] - 2 * X @ X.T
    K = np.exp(-gamma * np.maximum(D, 0))
    alpha = np.linalg.solve(K + lam * np.eye(X.shape[0]), y)
    sqt = np.sum(Xt ** 2, axis=1)
    Dt = sqt[:, None] + sq[None, :] - 2 * Xt @ X.T
    return np.exp(-gamma * np.maximum(Dt, 0)) @ alpha


# ---------------------------------------------------------------- nearest neighbours


def knn_argpartition_vote(Xtr, ytr, Xte, k=7, n_classes=5):
    """k-NN classification: argpartition of the distance rows, a one-hot vote."""
    d2 = (np.sum(Xte ** 2, axis=1)[:, None] - 2 * Xte @ Xtr.T
          + np.sum(Xtr ** 2, axis=1)[None, :])
    nn = np.argpartition(d2, k, axis=1)[:, :k]
    votes = np.eye(n_classes)[ytr[nn]].sum(axis=1)
    return votes.argmax(axis=1)


def knn_regression_argsort(Xtr, ytr, Xte, k=10):
    """Distance-weighted k-NN regression by a full argsort of every distance row."""
    diff = Xte[:, None, :] - Xtr[None, :, :]
    d = np.sqrt(np.sum(diff ** 2, axis=-1))
    order = np.argsort(d, axis=1)[:, :k]
    dk = np.take_along_axis(d, order, axis=1)
    w = 1.0 / (dk + 1e-9)
    return np.sum(w * ytr[order], axis=1) / np.sum(w, axis=1)


def kth_neighbor_density(X, k=5):
    """k-th neighbour distance by sorting distance rows; a density and its outliers."""
    D = np.sqrt(np.maximum(np.sum(X ** 2, 1)[:, None] + np.sum(X ** 2, 1)[None, :]
                           - 2 * X @ X.T, 0.0))
    Ds = np.sort(D, axis=1)
    rk = Ds[:, k]
    dens = k / (X.shape[0] * np.pi * rk ** 2)
    cut = np.percentile(dens, 5)
    return dens, np.flatnonzero(dens < cut)


# ---------------------------------------------------------------- Markov chains


def markov_matrix_power(P, n_pow=64):
    """Stationary distribution by a matrix power, checked against the eigenvector, and
    the mixing distance after a number of steps."""
    Pn = np.linalg.matrix_power(P, n_pow)
    pi_pow = Pn[0]
    vals, vecs = np.linalg.eig(P.T)
    i = np.argmin(np.abs(vals - 1.0))
    pi_eig = np.real(vecs[:, i])
    pi_eig = pi_eig / pi_eig.sum()
    tv = 0.5 * np.abs(np.linalg.matrix_power(P, 8) - pi_eig).sum(axis=1).max()
    return pi_pow, pi_eig, tv


def absorbing_chain(Q, R):
    """Absorbing Markov chain: fundamental matrix, expected steps, absorption
    probabilities, and the variance of the number of steps."""
    n = Q.shape[0]
    N = np.linalg.inv(np.eye(n) - Q)
    t = N @ np.ones(n)
    B = N @ R
    var = (2 * N - np.eye(n)) @ t - t * t
    return t, B, var


def hmm_forward_scaled(A, B, pi, obs):
    """The HMM forward pass with per-step scaling; log-likelihood of the sequence."""
    alpha = pi * B[:, obs[0]]
    c = alpha.sum()
    alpha = alpha / c
    loglik = np.log(c)
    for t in range(1, len(obs)):
        alpha = (alpha @ A) * B[:, obs[t]]
        c = alpha.sum()
        alpha /= c
        loglik += np.log(c)
    return loglik, alpha


def sample_markov_chains(rng, P, n_chains=2000, steps=50):
    """Many chains sampled at once: each row's CDF compared with a uniform draw."""
    cdf = np.cumsum(P, axis=1)
    state = np.zeros(n_chains, dtype=np.int64)
    visits = np.zeros(P.shape[0])
    for _ in range(steps):
        u = rng.random(n_chains)
        state = (u[:, None] > cdf[state]).sum(axis=1)
        state = np.minimum(state, P.shape[0] - 1)
        visits += np.bincount(state, minlength=P.shape[0])
    return visits / visits.sum(), state


# ---------------------------------------------------------------- statistics pipelines


def robust_zscore_mad(X, thresh=3.5):
    """Median/MAD z-scores per column, flagged cells, a cleaned column mean."""
    med = np.median(X, axis=0)
    mad = np.median(np.abs(X - med), axis=0)
    z = 0.6745 * (X - med) / np.where(mad == 0, 1.0, mad)
    flags = np.abs(z) > thresh
    cleaned = np.where(flags, med, X)
    return z, flags.sum(axis=0), cleaned.mean(axis=0)


def quantile_normalize(X):
    """Quantile normalization: every column gets the mean sorted column, by rank."""
    order = np.argsort(X, axis=0)
    ranks = np.empty_like(order)
    cols = np.arange(X.shape[1])
    ranks[order, cols] = np.arange(X.shape[0])[:, None]
    mean_sorted = np.sort(X, axis=0).mean(axis=1)
    return mean_sorted[ranks]


def binned_statistics(x, y, nbins=50):
    """Binned mean and standard deviation of y against x by np.digitize + bincount."""
    edges = np.linspace(x.min(), x.max(), nbins + 1)
    idx = np.clip(np.digitize(x, edges) - 1, 0, nbins - 1)
    count = np.bincount(idx, minlength=nbins)
    s1 = np.bincount(idx, weights=y, minlength=nbins)
    s2 = np.bincount(idx, weights=y * y, minlength=nbins)
    mean = s1 / np.maximum(count, 1)
    std = np.sqrt(np.maximum(s2 / np.maximum(count, 1) - mean ** 2, 0.0))
    return edges, count, mean, std


def ks_two_sample(a, b):
    """The two-sample Kolmogorov-Smirnov statistic from the two ECDFs by searchsorted."""
    a = np.sort(a)
    b = np.sort(b)
    allv = np.concatenate([a, b])
    cdf_a = np.searchsorted(a, allv, side="right") / a.shape[0]
    cdf_b = np.searchsorted(b, allv, side="right") / b.shape[0]
    D = np.max(np.abs(cdf_a - cdf_b))
    en = np.sqrt(a.shape[0] * b.shape[0] / (a.shape[0] + b.shape[0]))
    return D, np.exp(-2 * (en * D) ** 2)


def mutual_information_hist(x, y, bins=32):
    """Mutual information of two samples from a 2-D histogram and its marginals."""
    joint, _, _ = np.histogram2d(x, y, bins=bins)
    pxy = joint / joint.sum()
    px = pxy.sum(axis=1)
    py = pxy.sum(axis=0)
    hx, _ = np.histogram(x, bins=bins)
    nz = pxy > 0
    mi = np.sum(pxy[nz] * np.log(pxy[nz] / (px[:, None] * py[None, :])[nz]))
    return mi, hx


def winsorize_describe(X, lo=5, hi=95):
    """Winsorize columns at percentiles, then mean, std, skewness per column."""
    p_lo = np.percentile(X, lo, axis=0)
    p_hi = np.percentile(X, hi, axis=0)
    W = np.clip(X, p_lo, p_hi)
    mu = W.mean(axis=0)
    sd = W.std(axis=0)
    skew = np.mean(((W - mu) / sd) ** 3, axis=0)
    return mu, sd, skew


# ---------------------------------------------------------------- data cleaning


def fill_missing_sensor(X, max_missing=0.5):
    """Drop rows with too many NaNs, fill the rest: forward fill down each column, the
    column mean where nothing came before."""
    frac = np.isnan(X).mean(axis=1)
    X = X[frac <= max_missing]
    mask = np.isnan(X)
    idx = np.where(~mask, np.arange(X.shape[0])[:, None], 0)
    np.maximum.accumulate(idx, axis=0, out=idx)
    filled = X[idx, np.arange(X.shape[1])]
    col_mean = np.nanmean(X, axis=0)
    filled = np.where(np.isnan(filled), col_mean, filled)
    return filled, mask.sum(axis=0)


def iqr_clip_scale(X, k=1.5):
    """Clip each column to its IQR fences, then robust-scale by median and IQR."""
    q1, med, q3 = np.percentile(X, [25, 50, 75], axis=0)
    iqr = q3 - q1
    lo, hi = q1 - k * iqr, q3 + k * iqr
    n_out = ((X < lo) | (X > hi)).sum(axis=0)
    Xc = np.clip(X, lo, hi)
    return (Xc - med) / np.where(iqr > 0, iqr, 1.0), n_out


def dedupe_sorted_events(t, v, gap=1e-3):
    """Sort events by time, merge those closer than a gap (keep the max value), then
    resample onto a regular grid by np.interp."""
    order = np.argsort(t, kind="stable")
    t, v = t[order], v[order]
    new = np.concatenate([[True], np.diff(t) > gap])
    group = np.cumsum(new) - 1
    n = group[-1] + 1
    vmax = np.full(n, -np.inf)
    np.maximum.at(vmax, group, v)
    tg = t[new]
    grid = np.linspace(tg[0], tg[-1], 1000)
    return np.interp(grid, tg, vmax), n


# ---------------------------------------------------------------- polynomial fitting


def vander_lstsq_degree_select(x, y, max_deg=8):
    """Least squares on Vandermonde matrices of rising degree; pick by BIC."""
    n = x.shape[0]
    best = None
    for deg in range(1, max_deg + 1):
        V = np.vander(x, deg + 1)
        coef, _, _, _ = np.linalg.lstsq(V, y, rcond=None)
        rss = np.sum((y - V @ coef) ** 2)
        bic = n * np.log(rss / n) + (deg + 1) * np.log(n)
        if best is None or bic < best[0]:
            best = (bic, deg, coef)
    return best[1], best[2]


def polyfit_sliding_trend(y, window=200, deg=3):
    """Detrend a long signal window by window with np.polyfit/np.polyval."""
    out = np.empty_like(y)
    x = np.arange(window, dtype=float)
    for start in range(0, y.shape[0], window):
        seg = y[start:start + window]
        xs = x[:seg.shape[0]]
        coef = np.polyfit(xs, seg, deg)
        out[start:start + window] = seg - np.polyval(coef, xs)
    return out


def savitzky_golay(y, window=21, order=3, deriv=0):
    """Savitzky-Golay smoothing: the pseudo-inverse of a Vandermonde of offsets, its
    row convolved with the edge-padded signal."""
    half = window // 2
    k = np.arange(-half, half + 1, dtype=float)
    A = k[:, None] ** np.arange(order + 1)
    coeffs = np.linalg.pinv(A)[deriv]
    ypad = np.concatenate([np.full(half, y[0]), y, np.full(half, y[-1])])
    return np.convolve(ypad, coeffs[::-1], mode="valid")


# ---------------------------------------------------------------- the list


def programs(small: bool = False):
    """(name, fn, args, kwargs): args are copied before every call. ``small``: the same
    programs on small inputs and few steps (a differential test's sizes)."""
    rng = np.random.default_rng(44)

    def s(big, little):
        return little if small else big

    def r(*shape):
        return rng.random(shape)

    def normal(*shape):
        return rng.standard_normal(shape)

    def gen(seed):
        return np.random.default_rng(seed)

    n_mu = s(20000, 64)
    mu_x = np.linspace(0, 1, n_mu, endpoint=False)
    n_sb = s(20000, 64)
    sb_x = np.linspace(0, 1, n_sb)
    n_lb = s(96, 8)
    lb_w = np.array([4 / 9] + [1 / 9] * 4 + [1 / 36] * 4)
    lb_f = lb_w[:, None, None] * (1 + 0.01 * normal(9, n_lb, n_lb))
    n_pic = s(5000, 40)
    n_hh = s(2000, 10)
    hh_y = np.array([np.full(n_hh, -65.0), np.full(n_hh, 0.05), np.full(n_hh, 0.6),
                     np.full(n_hh, 0.32)]) + 0.01 * normal(4, n_hh)
    n_dp = s(2000, 12)
    n_pp = s(128, 10)
    n_img = s(256, 16)
    img = r(n_img, n_img)
    n_tm = s(600, 12)
    n_kr = s(400, 20)
    kr_X = normal(n_kr, 3)
    n_kn = s(1000, 30)
    kn_X = normal(n_kn, 8)
    kn_y = rng.integers(0, 5, n_kn)
    kn_T = normal(s(300, 10), 8)
    n_kd = s(600, 25)
    n_mk = s(120, 6)
    mk_P = r(n_mk, n_mk) + 0.1
    mk_P /= mk_P.sum(axis=1, keepdims=True)
    n_ab = s(200, 8)
    ab_QR = r(n_ab, n_ab + 3)
    ab_QR /= 1.2 * ab_QR.sum(axis=1, keepdims=True)
    ab_QR[:, n_ab:] += (1 - ab_QR.sum(axis=1, keepdims=True)) / 3
    n_hm, T_hm, n_sym = s(32, 4), s(400, 12), 6
    hm_A = r(n_hm, n_hm) + 0.5
    hm_A /= hm_A.sum(axis=1, keepdims=True)
    hm_B = r(n_hm, n_sym)
    hm_B /= hm_B.sum(axis=1, keepdims=True)
    hm_pi = np.full(n_hm, 1.0 / n_hm)
    hm_obs = rng.integers(0, n_sym, T_hm)
    n_st = s(20000, 60)
    sm_n, sm_d = s(4000, 64), s(32, 6)
    sm_X = normal(sm_n, sm_d)
    sm_y = np.argmax(sm_X[:, :10 if not small else 6] + 0.3 * normal(sm_n, 10 if not small else 6),
                     axis=1)
    n_lr = s(5000, 40)
    lr_X = normal(n_lr, 20)
    lr_y = lr_X @ np.linspace(-1, 1, 20) + 0.1 * normal(n_lr)
    n_hu = s(5000, 40)
    hu_X = np.column_stack([np.ones(n_hu), normal(n_hu, 5)])
    hu_y = hu_X @ np.array([1.0, 2.0, -1.0, 0.5, 0.0, 3.0]) + rng.standard_t(2, n_hu)
    sensor = normal(s(20000, 60), 12)
    sensor[r(*sensor.shape) < 0.1] = np.nan
    sensor[0, 3] = np.nan
    n_ev = s(50000, 200)
    n_poly = s(4000, 60)
    poly_x = np.linspace(-1, 1, n_poly)
    poly_y = 1 - 2 * poly_x + 0.5 * poly_x ** 3 + 0.05 * normal(n_poly)
    return [
        # finite volumes, lattice Boltzmann, PIC
        ("MUSCL minmod advection (np.where limiter)", muscl_minmod,
         (np.exp(-100 * (mu_x - 0.3) ** 2) + (np.abs(mu_x - 0.7) < 0.1),),
         {"dx": 1.0 / n_mu, "dt": 0.4 / n_mu, "steps": s(40, 4)}),
        ("superbee flux limiter, inflow", superbee_flux_limiter,
         ((sb_x < 0.2).astype(float),), {"dx": 1.0 / n_sb, "dt": 0.5 / n_sb,
                                         "steps": s(60, 4)}),
        ("Euler equations Sod tube, Rusanov", euler_rusanov_sod, (),
         {"n": s(2000, 40), "steps": s(60, 4)}),
        ("lattice Boltzmann D2Q9 periodic", lattice_boltzmann_d2q9, (lb_f,),
         {"steps": s(10, 2)}),
        ("particle-in-cell 2-D CIC bincount + FFT", pic_cic_2d,
         (r(n_pic, 2), 0.1 * normal(n_pic, 2)), {"ng": s(64, 8), "steps": s(5, 2)}),
        # ODE integrators
        ("RK4 Hodgkin-Huxley ensemble", rk4_hodgkin_huxley,
         (hh_y, np.linspace(0.0, 15.0, n_hh)), {"steps": s(30, 4)}),
        ("Dormand-Prince adaptive, Duffing chain", dopri_adaptive_chain,
         (np.stack([0.1 * normal(n_dp), np.zeros(n_dp)]),), {"t_end": s(1.0, 0.2)}),
        ("RK4 diffusive predator-prey grid", rk4_predator_prey_grid,
         (0.5 + 0.1 * r(n_pp, n_pp), 0.3 + 0.1 * r(n_pp, n_pp)), {"steps": s(20, 2)}),
        # images
        ("Harris corners by slices", harris_corners, (img,), {}),
        ("separable Gaussian np.convolve per row/column", separable_gaussian_rows,
         (r(s(200, 12), s(200, 12)),), {}),
        ("bilateral filter 3x3", bilateral_3x3, (r(s(200, 12), s(200, 12)),), {}),
        ("rotate image nearest neighbour", rotate_nearest, (r(s(400, 16), s(400, 16)),), {}),
        ("Reinhard tone map float32 RGB", reinhard_tonemap,
         ((4 * r(n_tm, n_tm, 3) ** 3).astype(np.float32),), {}),
        # Monte Carlo
        ("Asian option MC antithetic (Generator)", asian_option_mc, (gen(1),),
         {"paths": s(4000, 50), "steps": s(64, 8)}),
        ("Metropolis chains, banana density", metropolis_banana,
         (gen(2), normal(s(5000, 40), 2)), {"steps": s(100, 5)}),
        ("bootstrap CI mean + median (percentile)", bootstrap_percentile_ci,
         (gen(3), rng.exponential(size=s(500, 30))), {"B": s(1000, 20)}),
        ("neutron slab transport masks", slab_transport, (gen(4),),
         {"n": s(20000, 100), "steps": s(30, 4)}),
        # training loops
        ("softmax minibatch SGD, permutation", softmax_minibatch_sgd, (gen(5), sm_X, sm_y),
         {"n_classes": s(10, 6), "epochs": s(2, 2), "batch": s(128, 16)}),
        ("Adam linear regression", adam_linear_regression, (lr_X, lr_y),
         {"steps": s(100, 5)}),
        ("Huber regression IRLS", huber_irls, (hu_X, hu_y), {"iters": s(10, 3)}),
        ("kernel ridge RBF", kernel_ridge_rbf, (kr_X, np.sin(kr_X[:, 0]), normal(s(200, 10), 3)),
         {}),
        # nearest neighbours
        ("k-NN argpartition vote", knn_argpartition_vote, (kn_X, kn_y, kn_T), {}),
        ("k-NN regression argsort", knn_regression_argsort,
         (kn_X[:s(500, 30)], kn_X[:s(500, 30), 0] ** 2, kn_T[:s(100, 10)]), {}),
        ("k-th neighbour density (sort rows)", kth_neighbor_density, (normal(n_kd, 2),), {}),
        # Markov chains
        ("Markov matrix power + eig", markov_matrix_power, (mk_P,), {}),
        ("absorbing Markov chain", absorbing_chain, (ab_QR[:, :n_ab], ab_QR[:, n_ab:]), {}),
        ("HMM forward pass, scaled", hmm_forward_scaled, (hm_A, hm_B, hm_pi, hm_obs), {}),
        ("sampled Markov chains (cdf compare)", sample_markov_chains, (gen(6), mk_P),
         {"n_chains": s(2000, 30), "steps": s(50, 4)}),
        # statistics pipelines
        ("robust z-scores median/MAD", robust_zscore_mad, (normal(s(20000, 60), 8),), {}),
        ("quantile normalization", quantile_normalize, (normal(s(10000, 40), 8),), {}),
        ("binned statistics digitize + bincount", binned_statistics,
         (r(n_st), normal(n_st)), {}),
        ("two-sample KS statistic", ks_two_sample, (normal(n_st), 0.1 + normal(n_st)), {}),
        ("mutual information histogram2d", mutual_information_hist,
         (normal(n_st), normal(n_st)), {}),
        ("winsorize + describe (percentile)", winsorize_describe, (normal(s(20000, 60), 8),),
         {}),
        # data cleaning
        ("fill missing: drop rows, forward fill, means", fill_missing_sensor, (sensor,), {}),
        ("IQR clip + robust scale", iqr_clip_scale, (normal(s(20000, 60), 8),), {}),
        ("dedupe events maximum.at + interp", dedupe_sorted_events,
         (np.round(r(n_ev), 3), normal(n_ev)), {}),
        # polynomial fitting
        ("Vandermonde lstsq degree by BIC", vander_lstsq_degree_select, (poly_x, poly_y), {}),
        ("np.polyfit sliding detrend", polyfit_sliding_trend, (normal(s(20000, 400)),),
         {"window": s(200, 100)}),
        ("Savitzky-Golay by pinv + convolve", savitzky_golay, (normal(s(200000, 100)),), {}),
    ]
