"""A tenth program corpus of scripts/bench_realworld.py (issue #15/#19, task t6): 45
programs of kinds corpora 1-9 have little of, written before any ran under dynamo.
Signal processing (windowed FFTs, Welch PSD, IIR filters sample by sample, resampling),
image processing (morphology by shifted slices, smoothing, histogram equalization, Sobel
and Canny steps), statistics (bootstrap, kernel density, IRLS, quantiles), finance
(binomial trees, Monte Carlo, moving averages, drawdown); numerical methods, ML training
and simulations are in ``realworld_programs10_sim.py`` (the same corpus, joined here).
``programs(small=False)``: (name, fn, args, kwargs); ``small``: the differential test's
sizes (tests/realworld/test_realworld_programs10.py).

Example::

    >>> programs(small=True)[0][0]
    'Hann-windowed spectrogram'
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np


def _sibling(name):
    """``realworld_programs10_sim.py`` beside this file (scripts/ need not be on sys.path)."""
    key = f"scripts.{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, Path(__file__).with_name(f"{name}.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


# ---------------------------------------------------------------- signal processing


def hann_spectrogram_db(x, nfft=256, hop=128):
    win = np.hanning(nfft)
    n_frames = 1 + (len(x) - nfft) // hop
    frames = np.stack([x[i * hop:i * hop + nfft] * win for i in range(n_frames)])
    spec = np.abs(np.fft.rfft(frames, axis=1)) ** 2
    return 10 * np.log10(spec + 1e-12)


def welch_psd_averaged(x, fs=1000.0, nperseg=128):
    step = nperseg // 2
    win = np.hanning(nperseg)
    scale = 1.0 / (fs * (win * win).sum())
    acc = np.zeros(nperseg // 2 + 1)
    count = 0
    for start in range(0, len(x) - nperseg + 1, step):
        seg = x[start:start + nperseg]
        seg = (seg - seg.mean()) * win
        acc += np.abs(np.fft.rfft(seg)) ** 2
        count += 1
    psd = acc * scale / count
    psd[1:-1] *= 2
    return np.fft.rfftfreq(nperseg, 1.0 / fs), psd


def biquad_lowpass(x, b0, b1, b2, a1, a2):
    y = np.empty_like(x)
    x1 = x2 = y1 = y2 = 0.0
    for n in range(len(x)):
        xn = x[n]
        yn = b0 * xn + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2, x1 = x1, xn
        y2, y1 = y1, yn
        y[n] = yn
    return y


def dc_blocker(x, r=0.995):
    out = np.zeros(len(x))
    prev_x, prev_y = 0.0, 0.0
    for i in range(len(x)):
        prev_y = x[i] - prev_x + r * prev_y
        prev_x = x[i]
        out[i] = prev_y
    return out


def resample_linear(x, factor):
    n_out = int(len(x) * factor)
    t_out = np.arange(n_out) / factor
    i0 = np.floor(t_out).astype(int)
    i0 = np.minimum(i0, len(x) - 2)
    frac = t_out - i0
    return x[i0] * (1 - frac) + x[i0 + 1] * frac


def autocorr_by_fft_padded(x, max_lag):
    n = len(x)
    x = x - x.mean()
    size = 1 << (2 * n - 1).bit_length()
    f = np.fft.rfft(x, size)
    ac = np.fft.irfft(f * np.conj(f), size)[:max_lag + 1]
    return ac / ac[0]


def envelope_and_zero_crossings(x, frame=64):
    n = len(x) // frame
    frames = x[:n * frame].reshape(n, frame)
    rms = np.sqrt(np.mean(frames ** 2, axis=1))
    signs = np.signbit(frames)
    zcr = np.count_nonzero(signs[:, 1:] != signs[:, :-1], axis=1) / frame
    return rms, zcr


# ---------------------------------------------------------------- image processing


def dilate(img):
    out = img.copy()
    out[1:, :] |= img[:-1, :]
    out[:-1, :] |= img[1:, :]
    out[:, 1:] |= img[:, :-1]
    out[:, :-1] |= img[:, 1:]
    return out


def erode(img):
    out = img.copy()
    out[1:, :] &= img[:-1, :]
    out[:-1, :] &= img[1:, :]
    out[:, 1:] &= img[:, :-1]
    out[:, :-1] &= img[:, 1:]
    return out


def morphological_opening(img, threshold=0.5, iterations=2):
    mask = img > threshold
    for _ in range(iterations):
        mask = erode(mask)
    for _ in range(iterations):
        mask = dilate(mask)
    return mask


def box_smooth(img, passes=3):
    out = img.astype(np.float64)
    for _ in range(passes):
        p = np.pad(out, 1, mode="edge")
        out = (p[:-2, :-2] + p[:-2, 1:-1] + p[:-2, 2:] + p[1:-1, :-2] + p[1:-1, 1:-1]
               + p[1:-1, 2:] + p[2:, :-2] + p[2:, 1:-1] + p[2:, 2:]) / 9.0
    return out


def equalize_by_lut(img):
    hist = np.bincount(img.ravel(), minlength=256)
    cdf = hist.cumsum()
    cdf_min = cdf[cdf > 0][0]
    lut = np.round((cdf - cdf_min) / (img.size - cdf_min) * 255)
    lut = np.clip(lut, 0, 255).astype(np.uint8)
    return lut[img]


def sobel(img):
    gx = (img[:-2, 2:] + 2 * img[1:-1, 2:] + img[2:, 2:]
          - img[:-2, :-2] - 2 * img[1:-1, :-2] - img[2:, :-2])
    gy = (img[2:, :-2] + 2 * img[2:, 1:-1] + img[2:, 2:]
          - img[:-2, :-2] - 2 * img[:-2, 1:-1] - img[:-2, 2:])
    return gx, gy


def canny_nonmax(img, low=0.1, high=0.3):
    gx, gy = sobel(img)
    mag = np.hypot(gx, gy)
    mag /= mag.max()
    angle = np.rad2deg(np.arctan2(gy, gx)) % 180
    q = np.round(angle / 45).astype(int) % 4
    m = np.pad(mag, 1)
    c = m[1:-1, 1:-1]
    keep = np.zeros(c.shape, dtype=bool)
    keep |= (q == 0) & (c >= m[1:-1, :-2]) & (c >= m[1:-1, 2:])
    keep |= (q == 1) & (c >= m[:-2, 2:]) & (c >= m[2:, :-2])
    keep |= (q == 2) & (c >= m[:-2, 1:-1]) & (c >= m[2:, 1:-1])
    keep |= (q == 3) & (c >= m[:-2, :-2]) & (c >= m[2:, 2:])
    thin = np.where(keep, c, 0.0)
    strong = thin >= high
    weak = (thin >= low) & ~strong
    return strong, weak


def gaussian_blur_separable(img, sigma=1.5):
    radius = int(3 * sigma)
    t = np.arange(-radius, radius + 1)
    k = np.exp(-0.5 * (t / sigma) ** 2)
    k /= k.sum()
    p = np.pad(img, radius, mode="reflect")
    rows = np.zeros((p.shape[0], img.shape[1]))
    for j, w in enumerate(k):
        rows += w * p[:, j:j + img.shape[1]]
    out = np.zeros(img.shape)
    for i, w in enumerate(k):
        out += w * rows[i:i + img.shape[0], :]
    return out


def otsu_by_cumsums(img):
    hist, edges = np.histogram(img, bins=64, range=(0.0, 1.0))
    centers = 0.5 * (edges[:-1] + edges[1:])
    w0 = np.cumsum(hist)
    w1 = w0[-1] - w0
    m0 = np.cumsum(hist * centers)
    mu0 = m0 / np.maximum(w0, 1)
    mu1 = (m0[-1] - m0) / np.maximum(w1, 1)
    between = w0 * w1 * (mu0 - mu1) ** 2
    t = centers[np.argmax(between)]
    return t, img > t


# ---------------------------------------------------------------- statistics


def bootstrap_ci(x, n_boot=200, alpha=0.05, seed=0):
    rng = np.random.default_rng(seed)
    n = len(x)
    means = np.empty(n_boot)
    for b in range(n_boot):
        idx = rng.integers(0, n, n)
        means[b] = x[idx].mean()
    lo, hi = np.quantile(means, [alpha / 2, 1 - alpha / 2])
    return x.mean(), lo, hi


def kde_gaussian(samples, grid):
    n = len(samples)
    bw = 1.06 * samples.std() * n ** (-1 / 5)
    z = (grid[:, None] - samples[None, :]) / bw
    return np.exp(-0.5 * z * z).sum(axis=1) / (n * bw * np.sqrt(2 * np.pi))


def huber_irls_mad(X, y, delta=1.345, iters=20, tol=1e-8):
    beta = np.linalg.lstsq(X, y, rcond=None)[0]
    for _ in range(iters):
        r = y - X @ beta
        s = np.median(np.abs(r - np.median(r))) / 0.6745 + 1e-12
        u = np.abs(r / s)
        w = np.where(u <= delta, 1.0, delta / u)
        Xw = X * w[:, None]
        new = np.linalg.solve(X.T @ Xw, Xw.T @ y)
        if np.max(np.abs(new - beta)) < tol:
            beta = new
            break
        beta = new
    return beta


def iqr_outliers(X):
    q1, med, q3 = np.percentile(X, [25, 50, 75], axis=0)
    iqr = q3 - q1
    lo, hi = q1 - 1.5 * iqr, q3 + 1.5 * iqr
    flags = (X < lo) | (X > hi)
    cleaned = np.where(flags, med, X)
    return flags.sum(axis=0), cleaned


def welford(x):
    mean, m2 = 0.0, 0.0
    for k in range(len(x)):
        delta = x[k] - mean
        mean += delta / (k + 1)
        m2 += delta * (x[k] - mean)
    return mean, m2 / (len(x) - 1)


def permutation_test_means(a, b, n_perm=200, seed=1):
    rng = np.random.default_rng(seed)
    observed = abs(a.mean() - b.mean())
    pooled = np.concatenate([a, b])
    count = 0
    for _ in range(n_perm):
        perm = rng.permutation(pooled)
        diff = abs(perm[:len(a)].mean() - perm[len(a):].mean())
        if diff >= observed:
            count += 1
    return (count + 1) / (n_perm + 1)


def spearman_matrix(X):
    ranks = np.argsort(np.argsort(X, axis=0), axis=0).astype(float)
    ranks -= ranks.mean(axis=0)
    cov = ranks.T @ ranks
    d = np.sqrt(np.diag(cov))
    return cov / np.outer(d, d)


# ---------------------------------------------------------------- finance


def binomial_american_put(S0, K, r, sigma, T, steps):
    dt = T / steps
    u = np.exp(sigma * np.sqrt(dt))
    d = 1 / u
    p = (np.exp(r * dt) - d) / (u - d)
    disc = np.exp(-r * dt)
    prices = S0 * u ** np.arange(steps, -1, -1) * d ** np.arange(0, steps + 1)
    values = np.maximum(K - prices, 0.0)
    for _ in range(steps - 1, -1, -1):
        prices = prices[:-1] * d
        values = disc * (p * values[:-1] + (1 - p) * values[1:])
        values = np.maximum(values, K - prices)
    return values[0]


def mc_european_call(params, n_paths, seed=3):
    rng = np.random.default_rng(seed)
    S0, K, r, sigma, T = (params[k] for k in ("S0", "K", "r", "sigma", "T"))
    z = rng.standard_normal(n_paths // 2)
    z = np.concatenate([z, -z])
    ST = S0 * np.exp((r - 0.5 * sigma ** 2) * T + sigma * np.sqrt(T) * z)
    payoff = np.maximum(ST - K, 0.0) * np.exp(-r * T)
    return payoff.mean(), payoff.std(ddof=1) / np.sqrt(n_paths)


def ema_crossover(prices, fast=12, slow=26):
    af, aslow = 2.0 / (fast + 1), 2.0 / (slow + 1)
    ef = es = prices[0]
    signal = np.zeros(len(prices), dtype=np.int8)
    for t in range(1, len(prices)):
        ef = af * prices[t] + (1 - af) * ef
        es = aslow * prices[t] + (1 - aslow) * es
        signal[t] = 1 if ef > es else -1
    return signal


def sma_bands(prices, window=20, k=2.0):
    c = np.cumsum(np.insert(prices, 0, 0.0))
    c2 = np.cumsum(np.insert(prices ** 2, 0, 0.0))
    mean = (c[window:] - c[:-window]) / window
    var = (c2[window:] - c2[:-window]) / window - mean ** 2
    sd = np.sqrt(np.maximum(var, 0.0))
    return mean, mean + k * sd, mean - k * sd


def drawdown_stats(returns):
    wealth = np.cumprod(1.0 + returns, axis=0)
    peak = np.maximum.accumulate(wealth, axis=0)
    dd = wealth / peak - 1.0
    worst = dd.min(axis=0)
    end = dd.argmin(axis=0)
    ann = wealth[-1] ** (252.0 / len(returns)) - 1
    sharpe = returns.mean(axis=0) / returns.std(axis=0) * np.sqrt(252)
    return {"max_drawdown": worst, "trough": end, "cagr": ann, "sharpe": sharpe}


def bs_price_greeks_tanh(S, K, r, sigma, T):
    from math import erf  # noqa: F401  (as such code imports it; np.vectorize is slower)
    sqrtT = np.sqrt(T)
    d1 = (np.log(S / K) + (r + 0.5 * sigma ** 2) * T) / (sigma * sqrtT)
    d2 = d1 - sigma * sqrtT
    cdf = lambda v: 0.5 * (1.0 + np.tanh(0.7978845608 * (v + 0.044715 * v ** 3)))
    pdf = np.exp(-0.5 * d1 ** 2) / np.sqrt(2 * np.pi)
    call = S * cdf(d1) - K * np.exp(-r * T) * cdf(d2)
    delta = cdf(d1)
    gamma = pdf / (S * sigma * sqrtT)
    vega = S * pdf * sqrtT
    return call, delta, gamma, vega


def programs(small: bool = False):
    """(name, fn, args, kwargs) of the whole tenth corpus, this file's and the sibling's."""
    rng = np.random.default_rng(10)
    s = lambda big, little: little if small else big
    t = np.arange(s(20000, 300)) / 1000.0
    sig = np.sin(2 * np.pi * 50 * t) + 0.5 * rng.standard_normal(t.shape)
    img = rng.random((s(256, 24), s(256, 20)))
    img8 = (rng.beta(2, 5, (s(256, 24), s(256, 20))) * 255).astype(np.uint8)
    Xr = np.column_stack([np.ones(s(2000, 40)), rng.standard_normal((s(2000, 40), 3))])
    yr = Xr @ np.array([1.0, 2.0, -1.0, 0.5]) + rng.standard_t(2, s(2000, 40))
    rets = rng.normal(0.0004, 0.01, (s(2520, 60), s(20, 3)))
    prices = 100 * np.cumprod(1 + rng.normal(0, 0.01, s(3000, 30)))
    ours = [
        ("Hann-windowed spectrogram", hann_spectrogram_db, (sig,), {} if not small else
         {"nfft": 64, "hop": 32}),
        ("Welch PSD, averaged segments", welch_psd_averaged, (sig,), {}),
        ("biquad low-pass sample by sample", biquad_lowpass,
         (sig[:s(3000, 40)], 0.02, 0.04, 0.02, -1.56, 0.64), {}),
        ("DC blocker sample by sample", dc_blocker, (sig[:s(3000, 40)],), {}),
        ("linear-interpolation resampling", resample_linear, (sig, 1.5), {}),
        ("autocorrelation by FFT", autocorr_by_fft_padded, (sig, s(200, 20)), {}),
        ("RMS envelope + zero-crossing rate", envelope_and_zero_crossings, (sig,), {}),
        ("morphological opening by shifted slices", morphological_opening, (img,), {}),
        ("3x3 box smoothing, edge padding", box_smooth, (img,), {}),
        ("histogram equalization by a LUT", equalize_by_lut, (img8,), {}),
        ("Sobel + Canny non-maximum suppression", canny_nonmax, (img,), {}),
        ("separable Gaussian blur", gaussian_blur_separable, (img,), {}),
        ("Otsu threshold", otsu_by_cumsums, (img,), {}),
        ("bootstrap CI of the mean", bootstrap_ci, (yr,), {"n_boot": s(200, 10)}),
        ("Gaussian KDE on a grid", kde_gaussian,
         (yr[:s(1000, 30)], np.linspace(-5, 5, s(400, 20))), {}),
        ("Huber regression by IRLS", huber_irls_mad, (Xr, yr), {}),
        ("IQR outlier flags per column", iqr_outliers, (rets,), {}),
        ("Welford running variance", welford, (yr[:s(1500, 30)],), {}),
        ("permutation test of means", permutation_test_means,
         (yr[:s(300, 20)], yr[s(300, 20):s(600, 40)]), {"n_perm": s(200, 8)}),
        ("Spearman rank correlation matrix", spearman_matrix, (rets,), {}),
        ("American put on a binomial tree", binomial_american_put,
         (100.0, 100.0, 0.05, 0.2, 1.0, s(500, 12)), {}),
        ("Monte Carlo European call, antithetic", mc_european_call,
         ({"S0": 100.0, "K": 105.0, "r": 0.03, "sigma": 0.25, "T": 0.5}, s(200000, 100)), {}),
        ("EMA crossover signal", ema_crossover, (prices,), {}),
        ("SMA Bollinger bands by cumsum", sma_bands, (prices,), {}),
        ("drawdown, CAGR and Sharpe per asset", drawdown_stats, (rets,), {}),
        ("Black-Scholes price and Greeks", bs_price_greeks_tanh,
         (np.linspace(50, 150, s(100000, 50)), 100.0, 0.02, 0.3, 0.75), {}),
    ]
    return ours + _sibling("realworld_programs10_sim").programs(small)
