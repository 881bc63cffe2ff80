"""A twelfth program corpus of scripts/bench_realworld.py (issues #15/#19, task t8): 48
programs in the style of public NumPy repositories (DSP course notebooks, image
processing from scratch, statistics and quant-finance snippets, ML-from-scratch
repositories, numerical-methods homework), written before any ran under dynamo. This
file: signal processing (FIR/IIR filters as loops, STFT, autocorrelation, Goertzel,
peak picking), image processing (convolution by slicing, morphology, histogram
equalization from a list histogram, connected components by BFS, resizing), statistics
(bootstrap, Welford, list histograms, kernel density, jackknife) and finance (EWMA,
drawdown, Monte Carlo paths). ``realworld_programs12_ml.py`` (ML pieces, numerical
methods, graph algorithms on adjacency matrices) is the rest, joined here.
``programs(small=False)``: (name, fn, args, kwargs); ``small``: the differential test's
sizes (tests/realworld/test_realworld_programs12.py).

Example::

    >>> programs(small=True)[0][0]
    'FIR filter by shifted accumulation'
"""

from __future__ import annotations

import importlib.util
import sys
from collections import deque
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


# ---------------------------------------------------------------- signal processing


def fir_shift_accumulate(x, taps):
    """y[n] = sum_k h[k] x[n-k], one shifted multiply-add per tap (zero initial state)."""
    y = np.zeros_like(x)
    n = len(x)
    for k in range(len(taps)):
        y[k:] += taps[k] * x[:n - k]
    return y


def windowed_sinc_lowpass(x, cutoff, n_taps=31):
    """Design a Hamming-windowed sinc low-pass, normalise to unit DC gain, filter."""
    m = np.arange(n_taps) - (n_taps - 1) / 2
    h = 2 * cutoff * np.sinc(2 * cutoff * m) * np.hamming(n_taps)
    h = h / h.sum()
    return np.convolve(x, h, mode="same"), h


def iir_df2_transposed(b, a, x):
    """scipy.signal.lfilter's Direct Form II transposed, one sample at a time."""
    b = np.asarray(b, dtype=float) / a[0]
    a = np.asarray(a, dtype=float) / a[0]
    order = max(len(a), len(b)) - 1
    z = np.zeros(order)
    y = np.empty(len(x))
    for n in range(len(x)):
        xn = x[n]
        yn = b[0] * xn + z[0]
        for i in range(order - 1):
            z[i] = b[i + 1] * xn + z[i + 1] - a[i + 1] * yn
        z[order - 1] = b[order] * xn - a[order] * yn
        y[n] = yn
    return y


def stft_frames_loop(x, n_fft=256, hop=64):
    """|STFT| with a periodic Hann window; frames gathered by a Python loop."""
    window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n_fft) / n_fft)
    n_frames = 1 + (len(x) - n_fft) // hop
    frames = np.empty((n_frames, n_fft))
    for t in range(n_frames):
        frames[t] = x[t * hop:t * hop + n_fft] * window
    spec = np.abs(np.fft.rfft(frames, axis=1))
    return spec, 20 * np.log10(spec + 1e-10)


def autocorr_by_lags(x, max_lag):
    """Biased autocorrelation r[k] = sum x[n] x[n+k] / N, normalised by r[0]."""
    x = x - x.mean()
    n = len(x)
    r = np.empty(max_lag + 1)
    for k in range(max_lag + 1):
        r[k] = np.dot(x[:n - k], x[k:]) / n
    return r / r[0]


def goertzel_powers(x, freqs, fs):
    """Power of a few tones by the Goertzel recursion (DTMF detectors)."""
    n = len(x)
    out = []
    for f in freqs:
        k = int(0.5 + n * f / fs)
        coeff = 2.0 * np.cos(2.0 * np.pi * k / n)
        s_prev, s_prev2 = 0.0, 0.0
        for sample in x:
            s = sample + coeff * s_prev - s_prev2
            s_prev2, s_prev = s_prev, s
        out.append(s_prev2 ** 2 + s_prev ** 2 - coeff * s_prev * s_prev2)
    return np.array(out)


def pick_peaks(x, threshold, min_distance=3):
    """Local maxima above a threshold, at least ``min_distance`` apart (greedy)."""
    peaks = []
    last = -min_distance
    for i in range(1, len(x) - 1):
        if x[i] > threshold and x[i] > x[i - 1] and x[i] >= x[i + 1]:
            if i - last >= min_distance:
                peaks.append(i)
                last = i
    return np.array(peaks, dtype=np.int64)


def zero_phase_smoother(x, alpha=0.2):
    """Exponential smoothing forwards then backwards (filtfilt for a one-pole filter)."""
    y = np.empty_like(x)
    acc = x[0]
    for i in range(len(x)):
        acc = alpha * x[i] + (1 - alpha) * acc
        y[i] = acc
    acc = y[-1]
    for i in range(len(x) - 1, -1, -1):
        acc = alpha * y[i] + (1 - alpha) * acc
        y[i] = acc
    return y


# ---------------------------------------------------------------- image processing


def conv2d_by_slices(img, kernel):
    """'valid' 2-D correlation as a sum of shifted slices (one per kernel tap)."""
    kh, kw = kernel.shape
    H, W = img.shape[0] - kh + 1, img.shape[1] - kw + 1
    out = np.zeros((H, W), dtype=np.result_type(img, kernel))
    for i in range(kh):
        for j in range(kw):
            out += kernel[i, j] * img[i:i + H, j:j + W]
    return out


def binary_closing_3x3(mask):
    """Dilation then erosion with a 3x3 square, by padded shifted slices."""
    def dilate(m):
        p = np.pad(m, 1, constant_values=False)
        out = np.zeros_like(m)
        for di in range(3):
            for dj in range(3):
                out |= p[di:di + m.shape[0], dj:dj + m.shape[1]]
        return out

    def erode(m):
        p = np.pad(m, 1, constant_values=True)
        out = np.ones_like(m)
        for di in range(3):
            for dj in range(3):
                out &= p[di:di + m.shape[0], dj:dj + m.shape[1]]
        return out
    return erode(dilate(mask))


def equalize_by_list_histogram(img):
    """Histogram equalization of a uint8 image, histogram counted in a Python list."""
    counts = [0] * 256
    for v in img.ravel().tolist():
        counts[v] += 1
    cdf = np.cumsum(np.array(counts))
    cdf_min = cdf[np.nonzero(cdf)[0][0]]
    lut = np.round((cdf - cdf_min) / (img.size - cdf_min) * 255)
    lut = np.clip(lut, 0, 255).astype(np.uint8)
    return lut[img]


def label_components_bfs(mask):
    """4-connected component labels by breadth-first search from every unlabeled pixel."""
    H, W = mask.shape
    labels = np.zeros((H, W), dtype=np.int32)
    current = 0
    for i in range(H):
        for j in range(W):
            if mask[i, j] and labels[i, j] == 0:
                current += 1
                labels[i, j] = current
                queue = deque([(i, j)])
                while queue:
                    y, x = queue.popleft()
                    for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                        ny, nx = y + dy, x + dx
                        if 0 <= ny < H and 0 <= nx < W and mask[ny, nx] and labels[ny, nx] == 0:
                            labels[ny, nx] = current
                            queue.append((ny, nx))
    return labels, current


def bilinear_resize(img, out_h, out_w):
    """Bilinear resampling with align_corners=True index arithmetic."""
    H, W = img.shape
    ys = np.linspace(0, H - 1, out_h)
    xs = np.linspace(0, W - 1, out_w)
    y0 = np.floor(ys).astype(int)
    x0 = np.floor(xs).astype(int)
    y1 = np.minimum(y0 + 1, H - 1)
    x1 = np.minimum(x0 + 1, W - 1)
    wy = (ys - y0)[:, None]
    wx = (xs - x0)[None, :]
    top = img[y0][:, x0] * (1 - wx) + img[y0][:, x1] * wx
    bottom = img[y1][:, x0] * (1 - wx) + img[y1][:, x1] * wx
    return top * (1 - wy) + bottom * wy


def box_mean_by_integral_image(img, r):
    """Mean over a (2r+1)^2 window from a zero-padded summed-area table (edge windows
    shrink: divided by their own pixel count)."""
    H, W = img.shape
    S = np.zeros((H + 1, W + 1))
    S[1:, 1:] = img.cumsum(0).cumsum(1)
    i = np.arange(H)
    j = np.arange(W)
    i0, i1 = np.clip(i - r, 0, H), np.clip(i + r + 1, 0, H)
    j0, j1 = np.clip(j - r, 0, W), np.clip(j + r + 1, 0, W)
    total = (S[i1][:, j1] - S[i0][:, j1] - S[i1][:, j0] + S[i0][:, j0])
    area = (i1 - i0)[:, None] * (j1 - j0)[None, :]
    return total / area


def median3x3_stacked(img):
    """3x3 median filter: the nine shifted views of an edge-padded image, stacked."""
    p = np.pad(img, 1, mode="edge")
    H, W = img.shape
    shifts = [p[i:i + H, j:j + W] for i in range(3) for j in range(3)]
    return np.median(np.stack(shifts), axis=0)


def harris_corner_map(img, k=0.05):
    """Harris corner response from central-difference gradients and a 3x3 box window."""
    Ix = np.zeros_like(img)
    Iy = np.zeros_like(img)
    Ix[:, 1:-1] = (img[:, 2:] - img[:, :-2]) * 0.5
    Iy[1:-1, :] = (img[2:, :] - img[:-2, :]) * 0.5

    def box(a):
        out = np.zeros_like(a)
        out[1:-1, 1:-1] = sum(a[1 + di:a.shape[0] - 1 + di, 1 + dj:a.shape[1] - 1 + dj]
                              for di in (-1, 0, 1) for dj in (-1, 0, 1))
        return out
    Sxx, Syy, Sxy = box(Ix * Ix), box(Iy * Iy), box(Ix * Iy)
    det = Sxx * Syy - Sxy ** 2
    trace = Sxx + Syy
    R = det - k * trace ** 2
    return R, int((R > 0.01 * R.max()).sum())


# ---------------------------------------------------------------- statistics


def bootstrap_median_se(x, n_boot=200, seed=0):
    """Bootstrap standard error and percentile interval of the median."""
    rng = np.random.default_rng(seed)
    n = len(x)
    meds = np.empty(n_boot)
    for b in range(n_boot):
        idx = rng.integers(0, n, n)
        meds[b] = np.median(x[idx])
    lo, hi = np.percentile(meds, [2.5, 97.5])
    return meds.std(ddof=1), lo, hi


def welford_rows(X):
    """Online column means and variances, one row at a time (Welford's update)."""
    mean = np.zeros(X.shape[1])
    m2 = np.zeros(X.shape[1])
    count = 0
    for row in X:
        count += 1
        delta = row - mean
        mean += delta / count
        m2 += delta * (row - mean)
    return mean, m2 / (count - 1), count


def list_histogram_floats(values, n_bins, lo, hi):
    """Fixed-width bins counted in a Python list (out-of-range values clipped to the
    edge bins), then densities."""
    width = (hi - lo) / n_bins
    counts = [0] * n_bins
    for v in values:
        b = int((v - lo) / width)
        if b < 0:
            b = 0
        elif b >= n_bins:
            b = n_bins - 1
        counts[b] += 1
    counts = np.array(counts, dtype=float)
    return counts, counts / (counts.sum() * width)


def kde_silverman(x, grid):
    """Gaussian KDE with Silverman's rule-of-thumb bandwidth."""
    n = len(x)
    iqr = np.subtract(*np.percentile(x, [75, 25]))
    sigma = min(x.std(ddof=1), iqr / 1.349)
    h = 0.9 * sigma * n ** (-0.2)
    u = (grid[:, None] - x[None, :]) / h
    dens = np.exp(-0.5 * u * u).sum(axis=1) / (n * h * np.sqrt(2 * np.pi))
    return dens, h


def ks_statistic_pooled(a, b):
    """Two-sample Kolmogorov-Smirnov statistic from the two ECDFs on the pooled points."""
    a = np.sort(a)
    b = np.sort(b)
    pooled = np.concatenate([a, b])
    cdf_a = np.searchsorted(a, pooled, side="right") / len(a)
    cdf_b = np.searchsorted(b, pooled, side="right") / len(b)
    d = np.max(np.abs(cdf_a - cdf_b))
    en = np.sqrt(len(a) * len(b) / (len(a) + len(b)))
    return d, np.exp(-2 * (en * d) ** 2) * 2


def jackknife_ratio_se(x, y):
    """Jackknife standard error of a ratio of means, leaving one pair out at a time."""
    n = len(x)
    sx, sy = x.sum(), y.sum()
    theta = np.empty(n)
    for i in range(n):
        theta[i] = (sx - x[i]) / (sy - y[i])
    full = sx / sy
    se = np.sqrt((n - 1) / n * ((theta - theta.mean()) ** 2).sum())
    return full, se, n * full - (n - 1) * theta.mean()


# ---------------------------------------------------------------- finance


def ewma_vol_loop(returns, lam=0.94):
    """RiskMetrics EWMA variance per asset, updated one day at a time."""
    var = returns[:20].var(axis=0)
    out = np.empty_like(returns)
    for t in range(len(returns)):
        var = lam * var + (1 - lam) * returns[t] ** 2
        out[t] = np.sqrt(var)
    return out * np.sqrt(252)


def max_drawdown_scalar(prices):
    """Maximum drawdown and its peak/trough days, a running-peak loop over a list."""
    peak = prices[0]
    peak_i = 0
    best = 0.0
    span = (0, 0)
    for i, p in enumerate(prices):
        if p > peak:
            peak, peak_i = p, i
        dd = (peak - p) / peak
        if dd > best:
            best, span = dd, (peak_i, i)
    return best, span


def gbm_paths_stepwise(s0, mu, sigma, T, n_steps, n_paths, seed=42):
    """Geometric Brownian motion paths, one Euler-log step at a time."""
    rng = np.random.default_rng(seed)
    dt = T / n_steps
    paths = np.empty((n_steps + 1, n_paths))
    paths[0] = s0
    drift = (mu - 0.5 * sigma ** 2) * dt
    for t in range(1, n_steps + 1):
        z = rng.standard_normal(n_paths)
        paths[t] = paths[t - 1] * np.exp(drift + sigma * np.sqrt(dt) * z)
    return paths[-1].mean(), paths.std(axis=1)


def historical_var_cvar(returns, weights, alpha=0.05):
    """Portfolio historical VaR and expected shortfall at ``alpha``."""
    pnl = returns @ weights
    losses = -np.sort(pnl)[::-1]
    k = int(np.ceil(alpha * len(pnl)))
    var = np.sort(-pnl)[-k]
    cvar = np.sort(-pnl)[-k:].mean()
    return var, cvar, losses[:5]


def asian_call_mc(s0, strike, r, sigma, T, n_steps, n_paths, seed=3):
    """Arithmetic-average Asian call by Monte Carlo, running sum over time steps."""
    rng = np.random.default_rng(seed)
    dt = T / n_steps
    s = np.full(n_paths, float(s0))
    running = np.zeros(n_paths)
    for _ in range(n_steps):
        s = s * np.exp((r - 0.5 * sigma * sigma) * dt
                       + sigma * np.sqrt(dt) * rng.standard_normal(n_paths))
        running += s
    payoff = np.maximum(running / n_steps - strike, 0.0)
    disc = np.exp(-r * T)
    return disc * payoff.mean(), disc * payoff.std(ddof=1) / np.sqrt(n_paths)


def rolling_beta(asset, market, window=60):
    """Rolling OLS beta of an asset on the market by windowed sums in a loop."""
    n = len(asset)
    betas = np.full(n, np.nan)
    for t in range(window, n + 1):
        a = asset[t - window:t]
        m = market[t - window:t]
        cov = ((a - a.mean()) * (m - m.mean())).sum()
        betas[t - 1] = cov / ((m - m.mean()) ** 2).sum()
    return betas


def programs(small: bool = False):
    """(name, fn, args, kwargs) of the whole twelfth corpus, this file's and the sibling's."""
    rng = np.random.default_rng(12)
    s = lambda big, little: little if small else big
    t = np.arange(s(20000, 300)) / 8000.0
    sig = (np.sin(2 * np.pi * 440 * t) + 0.5 * np.sin(2 * np.pi * 1200 * t)
           + 0.3 * rng.standard_normal(len(t)))
    taps = np.hamming(s(64, 7)) / np.hamming(s(64, 7)).sum()
    img = rng.random((s(256, 12), s(256, 14)))
    img8 = (rng.random((s(128, 10), s(128, 9))) ** 2 * 255).astype(np.uint8)
    blobs = np.zeros((s(64, 10), s(64, 11)), dtype=bool)
    blobs[rng.random(blobs.shape) < 0.45] = True
    yv = rng.lognormal(0.0, 0.8, s(2000, 40))
    rets = rng.standard_normal((s(1500, 60), s(20, 3))) * 0.01
    prices = np.cumprod(1 + rng.standard_normal(s(5000, 50)) * 0.01) * 100
    ours = [
        ("FIR filter by shifted accumulation", fir_shift_accumulate, (sig, taps), {}),
        ("windowed-sinc low-pass design and filter", windowed_sinc_lowpass, (sig, 0.1),
         {"n_taps": s(63, 9)}),
        ("IIR Direct Form II transposed, sample loop", iir_df2_transposed,
         ([0.0675, 0.1349, 0.0675], np.array([1.0, -1.143, 0.4128]), sig[:s(2000, 30)]), {}),
        ("STFT magnitude, frames by a loop", stft_frames_loop, (sig,),
         {"n_fft": s(256, 32), "hop": s(64, 16)}),
        ("autocorrelation by lag dot products", autocorr_by_lags, (sig, s(200, 10)), {}),
        ("Goertzel tone powers", goertzel_powers,
         (sig[:s(800, 40)], [440.0, 1200.0, 697.0], 8000.0), {}),
        ("peak picking with minimum distance", pick_peaks,
         (np.abs(sig[:s(3000, 80)]), 1.0), {}),
        ("zero-phase exponential smoother", zero_phase_smoother, (sig[:s(3000, 50)],), {}),
        ("2-D correlation by shifted slices", conv2d_by_slices,
         (img, rng.standard_normal((5, 5)) if not small else rng.standard_normal((3, 3))), {}),
        ("binary closing 3x3 by slices", binary_closing_3x3, (img > 0.6,), {}),
        ("histogram equalization, list histogram", equalize_by_list_histogram, (img8,), {}),
        ("connected components by BFS", label_components_bfs, (blobs,), {}),
        ("bilinear resize", bilinear_resize, (img, s(400, 17), s(300, 10)), {}),
        ("box mean by integral image", box_mean_by_integral_image, (img, s(4, 2)), {}),
        ("3x3 median by stacked shifts", median3x3_stacked, (img,), {}),
        ("Harris corner response", harris_corner_map, (img,), {}),
        ("bootstrap SE of the median", bootstrap_median_se, (yv,), {"n_boot": s(200, 5)}),
        ("Welford online column statistics", welford_rows, (rets,), {}),
        ("list histogram of floats", list_histogram_floats,
         (yv.tolist(), s(40, 8), 0.0, 5.0), {}),
        ("KDE with Silverman bandwidth", kde_silverman,
         (yv, np.linspace(0, 6, s(400, 15))), {}),
        ("two-sample Kolmogorov-Smirnov", ks_statistic_pooled,
         (rng.lognormal(0.0, 0.8, s(40000, 40)), rng.lognormal(0.05, 0.8, s(30000, 30))), {}),
        ("jackknife SE of a ratio", jackknife_ratio_se, (yv, yv[::-1] + 1.0), {}),
        ("EWMA volatility, day by day", ewma_vol_loop, (rets,), {}),
        ("maximum drawdown by a running peak", max_drawdown_scalar, (prices.tolist(),), {}),
        ("GBM Monte Carlo paths", gbm_paths_stepwise, (100.0, 0.05, 0.2, 1.0),
         {"n_steps": s(100, 4), "n_paths": s(2000, 16)}),
        ("historical VaR and CVaR", historical_var_cvar,
         (np.tile(rets, (s(10, 1), 1)), np.full(rets.shape[1], 1.0 / rets.shape[1])), {}),
        ("Asian call by Monte Carlo", asian_call_mc, (100.0, 100.0, 0.03, 0.25, 1.0),
         {"n_steps": s(50, 4), "n_paths": s(4000, 20)}),
        ("rolling beta by windowed sums", rolling_beta,
         (rets[:, 0], rets.mean(axis=1)), {"window": s(60, 10)}),
    ]
    return ours + _sibling("realworld_programs12_ml").programs(small)
