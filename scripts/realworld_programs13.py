"""A thirteenth program corpus of scripts/bench_realworld.py (issue #15, session p62 task
t3): programs written the way NumPy users write them, before any ran under dynamo, of
shapes the twelve corpora have little of. This file: image processing (Sobel, separable
Gaussian blur from a built kernel, grayscale morphology by offset loops, histogram
equalization with ``np.bincount``, non-maximum suppression, RGB to HSV, Otsu's
threshold by a scan), signal processing (biquad cascades as sample loops, Welch's PSD,
FFT autocorrelation, Burg's method, an envelope follower, polyphase decimation),
optimisation (gradient descent with Armijo backtracking, Nelder-Mead over a small
simplex, Newton on a 2x2 system, coordinate-descent lasso, Adam on Rosenbrock),
Monte Carlo (random walks and Metropolis with ``np.random.default_rng``, a checkerboard
Ising sweep) and geometry (Rodrigues rotations, point in polygon, a monotone-chain hull,
quaternions, Kabsch alignment). ``realworld_programs13_sci.py`` (graph algorithms,
finance, physics, ML) is the rest, joined here. ``programs(small=False)``: (name, fn,
args, kwargs); ``small``: the differential test's sizes
(tests/realworld/test_realworld_programs13.py).

Example::

    >>> programs(small=True)[0][0]
    'Sobel gradient magnitude'
"""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import numpy as np


def _sibling(name):
    """A sibling script module (scripts/ need not be on sys.path)."""
    key = f"scripts.{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, Path(__file__).with_name(f"{name}.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


# ---------------------------------------------------------------- image processing


def sobel_edges_normalised(img):
    """Sobel gradient magnitude of the interior, scaled to [0, 1]."""
    gx = (img[:-2, 2:] + 2 * img[1:-1, 2:] + img[2:, 2:]
          - img[:-2, :-2] - 2 * img[1:-1, :-2] - img[2:, :-2])
    gy = (img[2:, :-2] + 2 * img[2:, 1:-1] + img[2:, 2:]
          - img[:-2, :-2] - 2 * img[:-2, 1:-1] - img[:-2, 2:])
    mag = np.sqrt(gx ** 2 + gy ** 2)
    return mag / mag.max()


def blur_gaussian_reflect(img, sigma):
    """Blur with a sampled Gaussian, rows then columns, reflect-padded."""
    radius = int(3 * sigma + 0.5)
    xs = np.arange(-radius, radius + 1)
    kernel = np.exp(-xs ** 2 / (2 * sigma ** 2))
    kernel /= kernel.sum()
    h, w = img.shape
    padded = np.pad(img, radius, mode="reflect")
    tmp = np.zeros((h + 2 * radius, w))
    for i, k in enumerate(kernel):
        tmp += k * padded[:, i:i + w]
    out = np.zeros((h, w))
    for i, k in enumerate(kernel):
        out += k * tmp[i:i + h, :]
    return out


def morphological_gradient(img, size=3):
    """Grayscale dilation minus erosion with a square window, by offset loops."""
    r = size // 2
    p = np.pad(img, r, mode="edge")
    h, w = img.shape
    dil = np.full_like(img, -np.inf)
    ero = np.full_like(img, np.inf)
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            win = p[r + dy:r + dy + h, r + dx:r + dx + w]
            dil = np.maximum(dil, win)
            ero = np.minimum(ero, win)
    return dil - ero


def equalize_bincount(img8):
    """Histogram equalization of a uint8 image through a lookup table."""
    hist = np.bincount(img8.ravel(), minlength=256)
    cdf = hist.cumsum()
    cdf_min = cdf[cdf > 0].min()
    lut = np.round((cdf - cdf_min) / (cdf[-1] - cdf_min) * 255).clip(0, 255)
    return lut.astype(np.uint8)[img8]


def canny_thin_edges(img):
    """Canny's non-maximum suppression: keep gradient maxima along the quantised
    gradient direction."""
    gy, gx = np.gradient(img)
    mag = np.hypot(gx, gy)
    angle = np.rad2deg(np.arctan2(gy, gx)) % 180
    c = mag[1:-1, 1:-1]
    e, w = mag[1:-1, 2:], mag[1:-1, :-2]
    n, s = mag[:-2, 1:-1], mag[2:, 1:-1]
    ne, sw = mag[:-2, 2:], mag[2:, :-2]
    nw, se = mag[:-2, :-2], mag[2:, 2:]
    a = angle[1:-1, 1:-1]
    horiz = (a < 22.5) | (a >= 157.5)
    diag1 = (a >= 22.5) & (a < 67.5)
    vert = (a >= 67.5) & (a < 112.5)
    keep = np.where(horiz, (c >= e) & (c >= w),
                    np.where(diag1, (c >= ne) & (c >= sw),
                             np.where(vert, (c >= n) & (c >= s), (c >= nw) & (c >= se))))
    out = np.zeros_like(mag)
    out[1:-1, 1:-1] = np.where(keep, c, 0.0)
    return out


def rgb_to_hsv_image(rgb):
    """RGB in [0, 1] (H, W, 3) to HSV, the colorsys formulas vectorised."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    maxc = rgb.max(axis=-1)
    minc = rgb.min(axis=-1)
    v = maxc
    delta = maxc - minc
    s = np.where(maxc > 0, delta / np.where(maxc > 0, maxc, 1), 0.0)
    safe = np.where(delta > 0, delta, 1)
    rc, gc, bc = (maxc - r) / safe, (maxc - g) / safe, (maxc - b) / safe
    h = np.where(r == maxc, bc - gc, np.where(g == maxc, 2.0 + rc - bc, 4.0 + gc - rc))
    h = np.where(delta > 0, (h / 6.0) % 1.0, 0.0)
    return np.stack([h, s, v], axis=-1)


def otsu_scan(img8):
    """Otsu's threshold by scanning every level, then the mask."""
    hist = np.bincount(img8.ravel(), minlength=256).astype(float)
    prob = hist / hist.sum()
    levels = np.arange(256)
    best_t, best_var = 0, -1.0
    for t in range(1, 256):
        w0 = prob[:t].sum()
        w1 = 1.0 - w0
        if w0 == 0 or w1 == 0:
            continue
        mu0 = (levels[:t] * prob[:t]).sum() / w0
        mu1 = (levels[t:] * prob[t:]).sum() / w1
        var = w0 * w1 * (mu0 - mu1) ** 2
        if var > best_var:
            best_t, best_var = t, var
    return best_t, img8 >= best_t


# ---------------------------------------------------------------- signal processing


def biquad_cascade(x, sos):
    """Second-order sections (b0 b1 b2 a0 a1 a2 rows) one after another, Direct Form I,
    sample by sample."""
    y = np.asarray(x, dtype=float).copy()
    for sec in sos:
        b0, b1, b2, a0, a1, a2 = sec / sec[3]
        x1 = x2 = y1 = y2 = 0.0
        out = np.empty_like(y)
        for n in range(len(y)):
            xn = y[n]
            yn = b0 * xn + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
            x2, x1 = x1, xn
            y2, y1 = y1, yn
            out[n] = yn
        y = out
    return y


def welch_averaged_periodogram(x, fs, nperseg=256):
    """Welch's averaged periodogram: Hann window, 50 % overlap, mean detrend."""
    step = nperseg // 2
    window = np.hanning(nperseg)
    scale = 1.0 / (fs * (window ** 2).sum())
    n_seg = (len(x) - nperseg) // step + 1
    psd = np.zeros(nperseg // 2 + 1)
    for i in range(n_seg):
        seg = x[i * step:i * step + nperseg]
        seg = (seg - seg.mean()) * window
        spec = np.fft.rfft(seg)
        psd += (spec.real ** 2 + spec.imag ** 2) * scale
    psd /= n_seg
    psd[1:-1] *= 2
    return np.fft.rfftfreq(nperseg, 1 / fs), psd


def autocorr_via_fft(x):
    """Normalised autocorrelation through a zero-padded FFT (Wiener-Khinchin)."""
    n = len(x)
    x = x - np.mean(x)
    nfft = 1 << (2 * n - 1).bit_length()
    f = np.fft.rfft(x, n=nfft)
    acf = np.fft.irfft(f * np.conjugate(f), n=nfft)[:n]
    return acf / acf[0]


def burg_ar(x, order):
    """AR coefficients by Burg's method (forward/backward prediction errors)."""
    f = np.array(x, dtype=float)
    b = f.copy()
    a = np.array([1.0])
    err = np.dot(f, f) / len(f)
    for _ in range(order):
        ff, bb = f[1:], b[:-1]
        k = -2.0 * np.dot(ff, bb) / (np.dot(ff, ff) + np.dot(bb, bb))
        a = np.concatenate([a, [0.0]])
        a = a + k * a[::-1]
        f, b = ff + k * bb, bb + k * ff
        err *= 1.0 - k * k
    return a, err


def envelope_follower(x, attack=0.01, release=0.001):
    """Peak envelope with separate attack and release coefficients (audio compressors)."""
    env = 0.0
    out = np.zeros(len(x))
    for i in range(len(x)):
        level = abs(x[i])
        if level > env:
            env += attack * (level - env)
        else:
            env += release * (level - env)
        out[i] = env
    return out


def polyphase_decimate(x, taps, q):
    """Low-pass and keep every q-th sample, computing only the kept outputs."""
    n_out = (len(x) - len(taps)) // q + 1
    y = np.zeros(n_out)
    for k in range(len(taps)):
        y += taps[k] * x[len(taps) - 1 - k:len(taps) - 1 - k + q * (n_out - 1) + 1:q]
    return y


# ---------------------------------------------------------------- optimisation


def gd_armijo_least_squares(A, b, n_iter=50):
    """Gradient descent on 0.5 ||Ax - b||^2 with a backtracking (Armijo) line search."""
    x = np.zeros(A.shape[1])
    r = A @ x - b
    fx = 0.5 * r @ r
    history = [fx]
    for _ in range(n_iter):
        g = A.T @ r
        gg = g @ g
        t = 1.0
        while True:
            x_new = x - t * g
            r_new = A @ x_new - b
            f_new = 0.5 * r_new @ r_new
            if f_new <= fx - 0.5 * t * gg or t < 1e-10:
                break
            t *= 0.5
        x, r, fx = x_new, r_new, f_new
        history.append(fx)
    return x, np.array(history)


def nelder_mead_min(f, x0, n_iter=200, step=0.5):
    """The Nelder-Mead simplex method (reflect, expand, contract, shrink)."""
    n = len(x0)
    simplex = [np.array(x0, dtype=float)]
    for i in range(n):
        p = np.array(x0, dtype=float)
        p[i] += step
        simplex.append(p)
    values = [f(p) for p in simplex]
    for _ in range(n_iter):
        order = np.argsort(values)
        simplex = [simplex[i] for i in order]
        values = [values[i] for i in order]
        centroid = np.mean(simplex[:-1], axis=0)
        xr = centroid + (centroid - simplex[-1])
        fr = f(xr)
        if values[0] <= fr < values[-2]:
            simplex[-1], values[-1] = xr, fr
        elif fr < values[0]:
            xe = centroid + 2.0 * (xr - centroid)
            fe = f(xe)
            if fe < fr:
                simplex[-1], values[-1] = xe, fe
            else:
                simplex[-1], values[-1] = xr, fr
        else:
            xc = centroid + 0.5 * (simplex[-1] - centroid)
            fc = f(xc)
            if fc < values[-1]:
                simplex[-1], values[-1] = xc, fc
            else:
                for i in range(1, n + 1):
                    simplex[i] = simplex[0] + 0.5 * (simplex[i] - simplex[0])
                    values[i] = f(simplex[i])
    best = int(np.argmin(values))
    return simplex[best], values[best]


def rosenbrock(p):
    """The Rosenbrock function of a point of any dimension."""
    return float(np.sum(100.0 * (p[1:] - p[:-1] ** 2) ** 2 + (1 - p[:-1]) ** 2))


def nelder_mead_rosenbrock(x0, n_iter=200):
    """Nelder-Mead on Rosenbrock, as a script calls a generic minimiser."""
    return nelder_mead_min(rosenbrock, x0, n_iter)


def newton_system_2d(x0, n_iter=20):
    """Newton's method for x^2 + y^2 = 4, e^x + y = 1 with a 2x2 Jacobian solve."""
    x = np.array(x0, dtype=float)
    for _ in range(n_iter):
        F = np.array([x[0] ** 2 + x[1] ** 2 - 4.0, np.exp(x[0]) + x[1] - 1.0])
        J = np.array([[2 * x[0], 2 * x[1]], [np.exp(x[0]), 1.0]])
        x = x - np.linalg.solve(J, F)
    return x


def lasso_coordinate_descent(X, y, lam, n_sweeps=20):
    """Lasso by cyclic coordinate descent with soft thresholding, residual kept."""
    n, d = X.shape
    w = np.zeros(d)
    z = (X ** 2).sum(axis=0)
    r = y.copy()
    for _ in range(n_sweeps):
        for j in range(d):
            xj = X[:, j]
            rho = xj @ r + z[j] * w[j]
            w_new = np.sign(rho) * max(abs(rho) - lam, 0.0) / z[j]
            r += xj * (w[j] - w_new)
            w[j] = w_new
    return w


def adam_rosenbrock(x0, steps=500, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8):
    """Adam on the n-dimensional Rosenbrock function with its analytic gradient."""
    x = x0.copy()
    m = np.zeros_like(x)
    v = np.zeros_like(x)
    for t in range(1, steps + 1):
        g = np.zeros_like(x)
        g[:-1] = -400 * x[:-1] * (x[1:] - x[:-1] ** 2) - 2 * (1 - x[:-1])
        g[1:] += 200 * (x[1:] - x[:-1] ** 2)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        mhat = m / (1 - b1 ** t)
        vhat = v / (1 - b2 ** t)
        x -= lr * mhat / (np.sqrt(vhat) + eps)
    return x


# ---------------------------------------------------------------- Monte Carlo


def random_walk_msd(seed, n_walkers, n_steps):
    """Lattice random walks in 2-D; mean squared displacement after every step."""
    rng = np.random.default_rng(seed)
    moves = np.array([[1, 0], [-1, 0], [0, 1], [0, -1]])
    pos = np.zeros((n_walkers, 2), dtype=np.int64)
    msd = np.empty(n_steps)
    for t in range(n_steps):
        pos += moves[rng.integers(0, 4, n_walkers)]
        msd[t] = (pos ** 2).sum(axis=1).mean()
    return msd


def metropolis_bimodal(seed, n_samples, step=1.0):
    """Random-walk Metropolis on a two-Gaussian mixture, one proposal at a time."""
    rng = np.random.default_rng(seed)

    def log_p(x):
        return np.logaddexp(-0.5 * (x - 2.0) ** 2, -0.5 * (x + 2.0) ** 2)

    x = 0.0
    lp = log_p(x)
    samples = np.empty(n_samples)
    accepted = 0
    for i in range(n_samples):
        prop = x + step * rng.standard_normal()
        lp_prop = log_p(prop)
        if np.log(rng.random()) < lp_prop - lp:
            x, lp = prop, lp_prop
            accepted += 1
        samples[i] = x
    return samples, accepted / n_samples


def ising_two_colour_sweeps(spins, beta, sweeps, seed):
    """2-D Ising model, Metropolis updates of the two checkerboard colours in turn."""
    rng = np.random.default_rng(seed)
    s = spins.copy()
    ii, jj = np.indices(s.shape)
    colours = [(ii + jj) % 2 == 0, (ii + jj) % 2 == 1]
    mags = []
    for _ in range(sweeps):
        for mask in colours:
            nb = (np.roll(s, 1, 0) + np.roll(s, -1, 0) + np.roll(s, 1, 1) + np.roll(s, -1, 1))
            dE = 2.0 * s * nb
            flip = mask & (rng.random(s.shape) < np.exp(-beta * dE))
            s[flip] *= -1
        mags.append(s.mean())
    return s, np.array(mags)


def pi_running_estimates(seed, n_batches, batch):
    """Estimate pi from batches of points in the unit square; running estimates."""
    rng = np.random.default_rng(seed)
    inside = 0
    estimates = []
    for i in range(n_batches):
        pts = rng.random((batch, 2))
        inside += int(np.count_nonzero((pts ** 2).sum(axis=1) <= 1.0))
        estimates.append(4.0 * inside / ((i + 1) * batch))
    return np.array(estimates)


# ---------------------------------------------------------------- geometry


def rodrigues_matrix(axis, theta):
    """Rotation matrix about ``axis`` by ``theta`` (Rodrigues' formula)."""
    k = axis / np.linalg.norm(axis)
    K = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    return np.eye(3) + np.sin(theta) * K + (1 - np.cos(theta)) * (K @ K)


def rotate_cloud_by_angles(points, axis, angles):
    """Rotate a point cloud by each angle in turn; centroid and spread of every pose."""
    out = []
    for theta in angles:
        R = rodrigues_matrix(axis, theta)
        p = points @ R.T
        out.append(np.concatenate([p.mean(axis=0), p.std(axis=0)]))
    return np.array(out)


def rodrigues_vectors(v, k, theta):
    """Rotate vectors by the vector form of Rodrigues' formula (a unit axis)."""
    k = k / np.linalg.norm(k)
    c, s = np.cos(theta), np.sin(theta)
    return v * c + np.cross(k, v) * s + np.outer(v @ k, k) * (1 - c)


def points_in_polygon(px, py, poly):
    """Even-odd ray casting, one polygon edge at a time over every point."""
    inside = np.zeros(len(px), dtype=bool)
    n = len(poly)
    j = n - 1
    for i in range(n):
        xi, yi = poly[i]
        xj, yj = poly[j]
        crosses = (yi > py) != (yj > py)
        x_at = (xj - xi) * (py - yi) / (yj - yi + 1e-300) + xi
        inside ^= crosses & (px < x_at)
        j = i
    return inside


def monotone_chain_hull(points):
    """Andrew's monotone chain convex hull with Python lists of tuples."""
    pts = sorted(map(tuple, points.tolist()))

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower, upper = [], []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    hull = np.array(lower[:-1] + upper[:-1])
    x, y = hull[:, 0], hull[:, 1]
    area = 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
    return hull, area


def quat_rotate_batch(q, v):
    """Rotate vectors (N, 3) by unit quaternions (N, 4, w first): v' = q v q*."""
    w, u = q[:, :1], q[:, 1:]
    uv = np.cross(u, v)
    uuv = np.cross(u, uv)
    return v + 2.0 * (w * uv + uuv)


def kabsch_rmsd(P, Q):
    """Optimal rotation of P onto Q (Kabsch, SVD with a reflection fix) and the RMSD."""
    Pc = P - P.mean(axis=0)
    Qc = Q - Q.mean(axis=0)
    H = Pc.T @ Qc
    U, S, Vt = np.linalg.svd(H)
    d = np.sign(np.linalg.det(Vt.T @ U.T))
    D = np.diag([1.0, 1.0, d])
    R = Vt.T @ D @ U.T
    diff = Pc @ R.T - Qc
    return R, math.sqrt((diff * diff).sum() / len(P))


def programs(small: bool = False):
    """(name, fn, args, kwargs) of the whole thirteenth corpus, this file's and the
    sibling's."""
    rng = np.random.default_rng(13)
    s = lambda big, little: little if small else big
    img = rng.random((s(1000, 12), s(1000, 13)))
    img_m = rng.random((s(400, 10), s(300, 9)))
    img8 = (rng.random((s(512, 10), s(512, 11))) ** 1.7 * 255).astype(np.uint8)
    rgb = rng.random((s(512, 6), s(512, 5), 3))
    t = np.arange(s(200000, 400)) / 8000.0
    sig = np.sin(2 * np.pi * 300 * t) + 0.4 * rng.standard_normal(len(t))
    sos = np.array([[0.0201, 0.0402, 0.0201, 1.0, -1.561, 0.6414],
                    [1.0, 2.0, 1.0, 1.0, -1.7, 0.78]])
    A = rng.standard_normal((s(500, 12), s(50, 4)))
    b = rng.standard_normal(A.shape[0])
    Xl = rng.standard_normal((s(1000, 20), s(30, 5)))
    yl = Xl[:, :3] @ np.array([2.0, -1.0, 0.5]) + 0.1 * rng.standard_normal(Xl.shape[0])
    spins = np.where(rng.random((s(128, 8), s(128, 8))) < 0.5, -1.0, 1.0)
    cloud = rng.standard_normal((s(20000, 20), 3))
    axis = np.array([1.0, 2.0, 0.5])
    poly_t = np.linspace(0, 2 * np.pi, s(40, 7), endpoint=False)
    poly = np.stack([np.cos(poly_t) * (1 + 0.3 * np.cos(5 * poly_t)),
                     np.sin(poly_t) * (1 + 0.3 * np.cos(5 * poly_t))], axis=1)
    qp = rng.uniform(-1.5, 1.5, (s(200000, 50), 2))
    hull_pts = rng.standard_normal((s(3000, 30), 2))
    quats = rng.standard_normal((s(200000, 20), 4))
    quats /= np.linalg.norm(quats, axis=1, keepdims=True)
    vecs = rng.standard_normal((quats.shape[0], 3))
    P = rng.standard_normal((s(50000, 10), 3))
    Q = P @ rodrigues_matrix(axis, 0.7).T + 0.01 * rng.standard_normal(P.shape)
    ours = [
        ("Sobel gradient magnitude", sobel_edges_normalised, (img,), {}),
        ("separable Gaussian blur, reflect padding", blur_gaussian_reflect,
         (img_m, s(2.0, 1.0)), {}),
        ("grayscale morphological gradient by offset loops", morphological_gradient,
         (img_m,), {"size": s(5, 3)}),
        ("histogram equalization by bincount", equalize_bincount, (img8,), {}),
        ("Canny non-maximum suppression", canny_thin_edges, (img_m,), {}),
        ("RGB to HSV image", rgb_to_hsv_image, (rgb,), {}),
        ("Otsu threshold by a level scan", otsu_scan, (img8,), {}),
        ("biquad cascade, sample loop", biquad_cascade, (sig[:s(3000, 50)], sos), {}),
        ("Welch power spectral density", welch_averaged_periodogram, (sig, 8000.0),
         {"nperseg": s(256, 32)}),
        ("autocorrelation by zero-padded FFT", autocorr_via_fft, (sig,), {}),
        ("Burg AR estimation", burg_ar, (sig[:s(50000, 200)], s(32, 4)), {}),
        ("envelope follower, attack and release", envelope_follower,
         (sig[:s(3000, 60)],), {}),
        ("polyphase decimation by strided slices", polyphase_decimate,
         (sig, np.hamming(s(48, 8)) / np.hamming(s(48, 8)).sum(), 4), {}),
        ("gradient descent with Armijo backtracking", gd_armijo_least_squares, (A, b),
         {"n_iter": s(50, 4)}),
        ("Nelder-Mead on Rosenbrock", nelder_mead_rosenbrock, (np.array([-1.2, 1.0, 0.5]),),
         {"n_iter": s(200, 10)}),
        ("Newton on a 2x2 nonlinear system", newton_system_2d, ([1.0, -1.5],),
         {"n_iter": s(20, 4)}),
        ("lasso by coordinate descent", lasso_coordinate_descent, (Xl, yl, 5.0),
         {"n_sweeps": s(20, 2)}),
        ("Adam on n-d Rosenbrock", adam_rosenbrock, (np.full(s(1000, 6), -0.5),),
         {"steps": s(500, 5)}),
        ("2-D lattice random walks, MSD", random_walk_msd, (7, s(2000, 10), s(200, 5)), {}),
        ("Metropolis on a bimodal density", metropolis_bimodal, (11, s(3000, 40)), {}),
        ("Ising checkerboard Metropolis", ising_two_colour_sweeps, (spins, 0.44, s(20, 2), 5), {}),
        ("Monte Carlo pi in batches", pi_running_estimates, (3, s(50, 3), s(20000, 100)), {}),
        ("point cloud rotated by Rodrigues matrices", rotate_cloud_by_angles,
         (cloud, axis, np.linspace(0, np.pi, s(30, 3))), {}),
        ("vector Rodrigues rotation", rodrigues_vectors, (vecs, axis, 0.9), {}),
        ("point in polygon by ray casting", points_in_polygon, (qp[:, 0], qp[:, 1], poly), {}),
        ("monotone chain convex hull", monotone_chain_hull, (hull_pts,), {}),
        ("quaternion rotation of vectors", quat_rotate_batch, (quats, vecs), {}),
        ("Kabsch alignment and RMSD", kabsch_rmsd, (P, Q), {}),
    ]
    return ours + _sibling("realworld_programs13_sci").programs(small)
