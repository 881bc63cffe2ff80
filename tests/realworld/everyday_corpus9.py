"""A ninth corpus: everyday NumPy as users write it in notebooks and small scripts
(issue #19), for break counts (``scripts/break_counts.py``, docs/realworld.md) and
differential tests (``test_everyday_corpus9.py``).

Kinds the other corpora have little of: cleaning by percentiles, forward fill and
codes from ``np.unique(return_inverse=True)``; scaling by quantiles, buckets from
``np.searchsorted`` and pairwise products from ``np.triu_indices``; statistics by
weighted medians, modes from ``np.bincount``, trimmed means, bootstrap intervals and
``np.cov``/``np.corrcoef``; images by Sobel slices, equalization with ``np.interp``,
2x2 pooling by ``reshape``, gamma to ``uint8`` and ``np.pad``; signals by
``np.correlate``, local maxima, Hamming-windowed FIR filters, framed ``rfft``
spectrograms, next-power-of-two padding and polynomial detrending with ``np.poly1d``;
small models by logistic-regression steps, k-nearest votes, PCA by ``eigh``, ridge by
``solve`` and Gaussian naive Bayes per class.

For example ``PROGRAMS[0]`` is ``("winsorize", winsorize, (x,))``: values clipped to
their 5th and 95th percentiles.

``PROGRAMS`` lists ``(name, fn, args)``; the arguments are small and seeded. The module
imports only NumPy, so the scripts load it from its file and the tests import it by name.
"""

from __future__ import annotations

import numpy as np

_rng = np.random.default_rng(9009)

# ================================================================ cleaning


def winsorize(x, lo=5.0, hi=95.0):
    a, b = np.percentile(x, [lo, hi])
    return np.clip(x, a, b)


def forward_fill(x):
    valid = ~np.isnan(x)
    idx = np.where(valid, np.arange(len(x)), 0)
    np.maximum.accumulate(idx, out=idx)
    out = x[idx]
    if not valid[0]:
        out[:np.argmax(valid)] = np.nan
    return out


def category_codes(labels):
    uniques, codes = np.unique(labels, return_inverse=True)
    counts = np.bincount(codes, minlength=len(uniques))
    return codes, counts / counts.sum()


def drop_duplicate_rows(X):
    rows, first = np.unique(X, axis=0, return_index=True)
    return X[np.sort(first)]


def fill_missing_with_median(X):
    med = np.nanmedian(X, axis=0)
    rows, cols = np.where(np.isnan(X))
    out = X.copy()
    out[rows, cols] = med[cols]
    return out


# ================================================================ scaling and features


def quantile_transform(x, n_quantiles=10):
    qs = np.linspace(0, 100, n_quantiles)
    edges = np.percentile(x, qs)
    return np.interp(x, edges, qs / 100.0)


def bucketize(x, edges):
    ids = np.searchsorted(edges, x, side="right")
    return np.eye(len(edges) + 1)[ids]


def pairwise_products(X):
    i, j = np.triu_indices(X.shape[1])
    return np.hstack([X, X[:, i] * X[:, j]])


def signed_log(x):
    return np.sign(x) * np.log1p(np.abs(x))


def standardize_safe(X):
    mu = X.mean(axis=0)
    sd = X.std(axis=0, ddof=1)
    sd = np.where(sd == 0, 1.0, sd)
    return (X - mu) / sd, mu, sd


# ================================================================ small statistics


def weighted_median(x, w):
    order = np.argsort(x)
    cw = np.cumsum(w[order])
    k = np.searchsorted(cw, 0.5 * cw[-1])
    return x[order][k]


def mode_of_counts(labels):
    counts = np.bincount(labels)
    return int(np.argmax(counts)), counts.max()


def trimmed_mean(x, cut=0.1):
    s = np.sort(x)
    k = int(cut * len(s))
    return s[k:len(s) - k].mean()


def bootstrap_ci(x, n_boot=200, seed=0):
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(x), size=(n_boot, len(x)))
    means = x[idx].mean(axis=1)
    return np.percentile(means, [2.5, 97.5])


def correlation_summary(X):
    C = np.corrcoef(X, rowvar=False)
    off = C[~np.eye(C.shape[0], dtype=bool)]
    return np.cov(X, rowvar=False), np.abs(off).max()


def rolling_zscore_flags(x, w=5, thresh=2.0):
    kernel = np.ones(w) / w
    mean = np.convolve(x, kernel, mode="same")
    sq = np.convolve(x * x, kernel, mode="same")
    sd = np.sqrt(np.maximum(sq - mean ** 2, 1e-12))
    z = (x - mean) / sd
    flags = np.abs(z) > thresh
    return flags, not flags.any()


# ================================================================ images


def sobel_magnitude(img):
    gx = (img[1:-1, 2:] - img[1:-1, :-2]) * 2 + img[:-2, 2:] - img[:-2, :-2] + \
        img[2:, 2:] - img[2:, :-2]
    gy = (img[2:, 1:-1] - img[:-2, 1:-1]) * 2 + img[2:, :-2] - img[:-2, :-2] + \
        img[2:, 2:] - img[:-2, 2:]
    return np.hypot(gx, gy)


def equalize_histogram(img, bins=16):
    hist, edges = np.histogram(img.ravel(), bins=bins, range=(0.0, 1.0))
    cdf = hist.cumsum() / hist.sum()
    return np.interp(img.ravel(), edges[:-1], cdf).reshape(img.shape)


def average_pool2(img):
    h, w = img.shape[0] // 2 * 2, img.shape[1] // 2 * 2
    return img[:h, :w].reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))


def gamma_to_uint8(img, gamma=2.2):
    out = np.clip(img, 0.0, 1.0) ** (1.0 / gamma)
    return (out * 255 + 0.5).astype(np.uint8)


def blur3_padded(img):
    p = np.pad(img, 1, mode="edge")
    acc = np.zeros_like(img)
    for dy in range(3):
        for dx in range(3):
            acc += p[dy:dy + img.shape[0], dx:dx + img.shape[1]]
    return acc / 9.0


# ================================================================ signals


def autocorrelation(x, max_lag=10):
    x = x - x.mean()
    full = np.correlate(x, x, mode="full")
    mid = len(x) - 1
    return full[mid:mid + max_lag + 1] / full[mid]


def local_maxima(x, min_height=0.0):
    inner = (x[1:-1] > x[:-2]) & (x[1:-1] > x[2:]) & (x[1:-1] > min_height)
    peaks = np.flatnonzero(inner) + 1
    return peaks, x[peaks]


def fir_lowpass(x, taps=9, cutoff=0.2):
    n = np.arange(taps) - (taps - 1) / 2
    h = np.sinc(2 * cutoff * n) * np.hamming(taps)
    h /= h.sum()
    return np.convolve(x, h, mode="same")


def spectrogram(x, frame=16, hop=8):
    n = 1 + (len(x) - frame) // hop
    frames = np.stack([x[i * hop:i * hop + frame] for i in range(n)])
    spec = np.abs(np.fft.rfft(frames * np.hanning(frame), axis=1)) ** 2
    return 10 * np.log10(spec + 1e-12)


def pad_to_power_of_two(x):
    n = int(2 ** np.ceil(np.log2(len(x))))
    out = np.zeros(n, dtype=x.dtype)
    out[:len(x)] = x
    return out


def detrend_poly(t, y, deg=2):
    p = np.poly1d(np.polyfit(t, y, deg))
    slope = p.deriv()
    return y - p(t), slope(t), p.order


# ================================================================ simple models


def logistic_steps(X, y, lr=0.1, steps=20):
    w = np.zeros(X.shape[1])
    b = 0.0
    for _ in range(steps):
        z = X @ w + b
        p = 1.0 / (1.0 + np.exp(-z))
        g = p - y
        w -= lr * X.T @ g / len(y)
        b -= lr * g.mean()
    return w, b


def knn_vote(train, labels, queries, k=3):
    d = ((queries[:, None, :] - train[None, :, :]) ** 2).sum(-1)
    nearest = np.argsort(d, axis=1)[:, :k]
    votes = labels[nearest]
    return np.array([np.bincount(v).argmax() for v in votes])


def pca_eigh(X, k=2):
    Xc = X - X.mean(axis=0)
    vals, vecs = np.linalg.eigh(np.cov(Xc, rowvar=False))
    order = np.argsort(vals)[::-1][:k]
    return Xc @ vecs[:, order], vals[order] / vals.sum()


def ridge_fit(X, y, alpha=1.0):
    A = X.T @ X + alpha * np.eye(X.shape[1])
    return np.linalg.solve(A, X.T @ y)


def gaussian_nb_fit(X, y, n_classes):
    means = np.zeros((n_classes, X.shape[1]))
    variances = np.zeros_like(means)
    priors = np.zeros(n_classes)
    for c in range(n_classes):
        Xc = X[y == c]
        means[c] = Xc.mean(axis=0)
        variances[c] = Xc.var(axis=0) + 1e-9
        priors[c] = len(Xc) / len(X)
    return means, variances, priors


def shuffle_split(X, y, frac=0.25, seed=1):
    rng = np.random.default_rng(seed)
    perm = rng.permutation(len(X))
    n_val = int(len(X) * frac)
    val, tr = perm[:n_val], perm[n_val:]
    return X[tr], y[tr], X[val], y[val]


# ================================================================ reports and checks


def column_report(X, names):
    report = {}
    for name, col in zip(names, X.T):
        report[name] = {"mean": round(float(col.mean()), 3), "missing": int(np.isnan(col).sum())}
    return report


def value_counts(labels):
    values, counts = np.unique(labels, return_counts=True)
    order = np.argsort(-counts, kind="stable")
    return dict(zip(values[order].tolist(), counts[order].tolist()))


def describe(x):
    if x.size == 0:
        raise ValueError("empty input")
    q1, med, q3 = np.percentile(x, [25, 50, 75])
    return f"n={x.size} mean={x.mean():.3f} median={med:.3f} iqr={q3 - q1:.3f}"


def checked_scale(x, lo, hi):
    assert hi > lo, "empty range"
    x = np.asarray(x, dtype=float)
    if np.any(np.isnan(x)):
        x = np.nan_to_num(x, nan=lo)
    return (x - lo) / (hi - lo)


def best_threshold(scores, labels):
    best_t, best_acc = None, -1.0
    for t in np.linspace(scores.min(), scores.max(), 11):
        acc = ((scores >= t) == labels).mean()
        if acc > best_acc:
            best_t, best_acc = t, acc
    return best_t, best_acc


def split_by_sign(x):
    pos, neg = x[x > 0], x[x < 0]
    has_both = len(pos) > 0 and len(neg) > 0
    return pos.sum(), neg.sum(), has_both, not (len(pos) > 0)


def outlier_fraction(x, k=1.5):
    q1, q3 = np.quantile(x, [0.25, 0.75])
    iqr = q3 - q1
    mask = (x < q1 - k * iqr) | (x > q3 + k * iqr)
    n_out = np.count_nonzero(mask)
    return n_out / len(x), ~(n_out > 0)


def running_stats(values):
    total, count, best = 0.0, 0, -np.inf
    for v in values:
        if np.isnan(v):
            continue
        total += v
        count += 1
        best = max(best, v)
    return total / max(count, 1), best


# ================================================================ arguments

_X = _rng.normal(size=40)
_XN = _X.copy()
_XN[[0, 1, 7, 20]] = np.nan
_M = _rng.normal(size=(30, 4))
_MN = _M.copy()
_MN[[2, 9], [1, 3]] = np.nan
_IMG = _rng.random((12, 10))
_T = np.linspace(0.0, 2.0, 40)
_LABELS = _rng.integers(0, 4, size=30)
_Y = (_M[:, 0] + 0.5 * _M[:, 1] > 0).astype(float)

PROGRAMS = [
    ("winsorize", winsorize, (_X,)),
    ("forward_fill", forward_fill, (_XN,)),
    ("category_codes", category_codes, (_LABELS,)),
    ("drop_duplicate_rows", drop_duplicate_rows, (np.vstack([_M[:5], _M[:3]]),)),
    ("fill_missing_with_median", fill_missing_with_median, (_MN,)),
    ("quantile_transform", quantile_transform, (_X,)),
    ("bucketize", bucketize, (_X, np.array([-1.0, 0.0, 1.0]))),
    ("pairwise_products", pairwise_products, (_M,)),
    ("signed_log", signed_log, (_X * 10,)),
    ("standardize_safe", standardize_safe, (np.hstack([_M, np.ones((30, 1))]),)),
    ("weighted_median", weighted_median, (_X, np.abs(_X) + 0.1)),
    ("mode_of_counts", mode_of_counts, (_LABELS,)),
    ("trimmed_mean", trimmed_mean, (_X,)),
    ("bootstrap_ci", bootstrap_ci, (_X,)),
    ("correlation_summary", correlation_summary, (_M,)),
    ("rolling_zscore_flags", rolling_zscore_flags, (_X,)),
    ("sobel_magnitude", sobel_magnitude, (_IMG,)),
    ("equalize_histogram", equalize_histogram, (_IMG,)),
    ("average_pool2", average_pool2, (_IMG[:, :9],)),
    ("gamma_to_uint8", gamma_to_uint8, (_IMG,)),
    ("blur3_padded", blur3_padded, (_IMG,)),
    ("autocorrelation", autocorrelation, (_X,)),
    ("local_maxima", local_maxima, (np.sin(_T * 9) + 0.1 * _X,)),
    ("fir_lowpass", fir_lowpass, (_X,)),
    ("spectrogram", spectrogram, (_X,)),
    ("pad_to_power_of_two", pad_to_power_of_two, (_X[:37],)),
    ("detrend_poly", detrend_poly, (_T, 0.5 * _T ** 2 + 0.1 * _X)),
    ("logistic_steps", logistic_steps, (_M, _Y)),
    ("knn_vote", knn_vote, (_M[:20], _LABELS[:20], _M[20:])),
    ("pca_eigh", pca_eigh, (_M,)),
    ("ridge_fit", ridge_fit, (_M, _Y)),
    ("gaussian_nb_fit", gaussian_nb_fit, (_M, _LABELS, 4)),
    ("shuffle_split", shuffle_split, (_M, _Y)),
    ("column_report", column_report, (_MN, ["a", "b", "c", "d"])),
    ("value_counts", value_counts, (_LABELS,)),
    ("describe", describe, (_X,)),
    ("checked_scale", checked_scale, (_XN, -3.0, 3.0)),
    ("best_threshold", best_threshold, (_X, _X + 0.3 * _rng.normal(size=40) > 0)),
    ("split_by_sign", split_by_sign, (_X,)),
    ("outlier_fraction", outlier_fraction, (_X,)),
    ("running_stats", running_stats, (_XN[:12],)),
]
