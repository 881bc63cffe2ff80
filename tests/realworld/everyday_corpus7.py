"""A seventh corpus: everyday NumPy functions as public repositories write them (issue
#19), for break counts (``scripts/break_counts.py``, docs/realworld.md) and differential
tests (``test_everyday_corpus7.py``).

Written for this file before any of it was run under dynamo, none copied from the other
corpora. Kinds: preprocessing (scaling, imputing, encoding, windowing), metrics
(classification, regression, ranking, distances), signal processing (filters, spectra,
envelopes, resampling), geometry (areas, rotations, nearest points, convex tests) and
statistics (moments, robust estimates, tests, bootstrap-free intervals, binning).
Idioms, varied on purpose: input checks that raise (``if x.ndim != 2: raise``,
``assert np.all(w >= 0)``, ``if np.any(np.isnan(x)): raise``) before and after
``np.histogram``, ``np.fft``, ``np.linalg``, ``np.percentile``, ``np.median``; keyword
defaults, ``eps`` from ``np.finfo``, ``np.errstate``, boolean masks, ``np.where``,
``np.clip``, ``np.cumsum``, ``np.argsort``, ``np.bincount``, tuples of results and
dicts of metrics.

For example ``PROGRAMS[0]`` is ``("standardize_columns", standardize_columns, (X,))``:
``standardize_columns(*args)`` returns the columns scaled to mean 0 and deviation 1.

``PROGRAMS`` lists ``(name, fn, args)``; the arguments are small and seeded. The module
imports only NumPy, so the scripts load it from its file and the tests import it by name.
"""

from __future__ import annotations

import numpy as np

_rng = np.random.default_rng(7007)


# ================================================================ preprocessing


def standardize_columns(X, eps=1e-12):
    if X.ndim != 2:
        raise ValueError(f"expected a 2-d array, got {X.ndim} dimensions")
    mu = X.mean(axis=0)
    sd = X.std(axis=0)
    return (X - mu) / np.maximum(sd, eps)


def minmax_scale(x, feature_range=(0.0, 1.0)):
    lo, hi = feature_range
    xmin, xmax = x.min(axis=0), x.max(axis=0)
    span = np.where(xmax > xmin, xmax - xmin, 1.0)
    return lo + (x - xmin) / span * (hi - lo)


def impute_column_means(X):
    X = X.copy()
    col_mean = np.nanmean(X, axis=0)
    rows, cols = np.where(np.isnan(X))
    X[rows, cols] = col_mean[cols]
    return X


def one_hot(labels, n_classes):
    if np.any(labels < 0) or np.any(labels >= n_classes):
        raise ValueError("label out of range")
    out = np.zeros((labels.shape[0], n_classes))
    out[np.arange(labels.shape[0]), labels] = 1.0
    return out


def sliding_windows(x, width, step):
    n = (len(x) - width) // step + 1
    idx = np.arange(width)[None, :] + step * np.arange(n)[:, None]
    return x[idx]


def robust_scale(x):
    med = np.median(x)
    q1, q3 = np.percentile(x, [25, 75])
    iqr = q3 - q1
    if iqr == 0:
        raise ValueError("zero interquartile range")
    return (x - med) / iqr


def clip_outliers_zscore(x, z=3.0):
    mu, sd = x.mean(), x.std()
    lo, hi = mu - z * sd, mu + z * sd
    return np.clip(x, lo, hi)


# ================================================================ metrics


def confusion_counts(y_true, y_pred, n_classes):
    idx = y_true * n_classes + y_pred
    return np.bincount(idx, minlength=n_classes * n_classes).reshape(n_classes, n_classes)


def f1_macro(y_true, y_pred, n_classes):
    cm = confusion_counts(y_true, y_pred, n_classes)
    tp = np.diag(cm).astype(float)
    precision = tp / np.maximum(cm.sum(axis=0), 1)
    recall = tp / np.maximum(cm.sum(axis=1), 1)
    denom = precision + recall
    f1 = np.where(denom > 0, 2 * precision * recall / np.where(denom > 0, denom, 1), 0.0)
    return f1.mean()


def regression_report(y, yhat):
    assert y.shape == yhat.shape, "shape mismatch"
    resid = y - yhat
    mse = np.mean(resid ** 2)
    mae = np.mean(np.abs(resid))
    ss_tot = np.sum((y - y.mean()) ** 2)
    r2 = 1.0 - np.sum(resid ** 2) / ss_tot
    return {"mse": mse, "rmse": np.sqrt(mse), "mae": mae, "r2": r2}


def roc_auc_rank(scores, labels):
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    n_pos = labels.sum()
    n_neg = len(labels) - n_pos
    return (ranks[labels == 1].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def log_loss(y, p, eps=None):
    if eps is None:
        eps = np.finfo(p.dtype).eps
    p = np.clip(p, eps, 1 - eps)
    return -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))


def pairwise_cosine(A, B):
    An = A / np.linalg.norm(A, axis=1, keepdims=True)
    Bn = B / np.linalg.norm(B, axis=1, keepdims=True)
    return An @ Bn.T


# ================================================================ signal processing


def moving_average_valid(x, k):
    c = np.cumsum(np.insert(x, 0, 0.0))
    return (c[k:] - c[:-k]) / k


def power_spectrum_peak(x, fs):
    x = x - x.mean()
    spec = np.abs(np.fft.rfft(x)) ** 2
    freqs = np.fft.rfftfreq(len(x), d=1.0 / fs)
    if not np.all(np.isfinite(spec)):
        raise FloatingPointError("non-finite spectrum")
    k = np.argmax(spec[1:]) + 1
    return freqs[k], spec[k] / spec.sum()


def fft_lowpass(x, keep):
    X = np.fft.rfft(x)
    X[keep:] = 0
    return np.fft.irfft(X, n=len(x))


def envelope_rectified(x, k=5):
    rect = np.abs(x)
    kernel = np.ones(k) / k
    return np.convolve(rect, kernel, mode="same")


def zero_crossing_rate(x):
    signs = np.sign(x)
    signs[signs == 0] = 1
    return np.mean(signs[1:] != signs[:-1])


def resample_linear(t, x, n_out):
    t_new = np.linspace(t[0], t[-1], n_out)
    return t_new, np.interp(t_new, t, x)


def hann_windowed_rms(x, width):
    w = np.hanning(width)
    frames = sliding_windows(x, width, width // 2)
    return np.sqrt(np.mean((frames * w) ** 2, axis=1))


# ================================================================ geometry


def polygon_area(xy):
    x, y = xy[:, 0], xy[:, 1]
    return 0.5 * np.abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


def rotate_points(P, theta, center=None):
    if center is None:
        center = P.mean(axis=0)
    c, s = np.cos(theta), np.sin(theta)
    R = np.array([[c, -s], [s, c]])
    return (P - center) @ R.T + center


def nearest_neighbor_index(P, Q):
    d2 = ((P[:, None, :] - Q[None, :, :]) ** 2).sum(axis=-1)
    return np.argmin(d2, axis=1), np.sqrt(d2.min(axis=1))


def triangle_normals(V, F):
    a, b, c = V[F[:, 0]], V[F[:, 1]], V[F[:, 2]]
    n = np.cross(b - a, c - a)
    norm = np.linalg.norm(n, axis=1, keepdims=True)
    if np.any(norm == 0):
        raise ValueError("degenerate triangle")
    return n / norm


def fit_plane_svd(P):
    centroid = P.mean(axis=0)
    _, s, vt = np.linalg.svd(P - centroid)
    normal = vt[-1]
    return centroid, normal, s[-1] / s[0]


def bounding_box_iou(a, b):
    x1 = np.maximum(a[:, 0], b[:, 0])
    y1 = np.maximum(a[:, 1], b[:, 1])
    x2 = np.minimum(a[:, 2], b[:, 2])
    y2 = np.minimum(a[:, 3], b[:, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return inter / (area_a + area_b - inter)


# ================================================================ statistics


def weighted_mean_var(x, w):
    assert np.all(w >= 0), "weights must be non-negative"
    wsum = w.sum()
    mean = np.sum(w * x) / wsum
    var = np.sum(w * (x - mean) ** 2) / wsum
    return mean, var


def skew_kurtosis(x):
    m = x.mean()
    d = x - m
    m2 = np.mean(d ** 2)
    m3 = np.mean(d ** 3)
    m4 = np.mean(d ** 4)
    return m3 / m2 ** 1.5, m4 / m2 ** 2 - 3.0


def histogram_pdf(x, bins=10):
    counts, edges = np.histogram(x, bins=bins)
    widths = np.diff(edges)
    pdf = counts / (counts.sum() * widths)
    assert np.isclose(np.sum(pdf * widths), 1.0)
    centers = 0.5 * (edges[:-1] + edges[1:])
    return centers, pdf


def welch_t_statistic(a, b):
    ma, mb = a.mean(), b.mean()
    va, vb = a.var(ddof=1), b.var(ddof=1)
    na, nb = len(a), len(b)
    t = (ma - mb) / np.sqrt(va / na + vb / nb)
    dof = (va / na + vb / nb) ** 2 / ((va / na) ** 2 / (na - 1) + (vb / nb) ** 2 / (nb - 1))
    return t, dof


def mad_outlier_mask(x, thresh=3.5):
    med = np.median(x)
    mad = np.median(np.abs(x - med))
    z = 0.6745 * (x - med) / mad
    return np.abs(z) > thresh


def ols_with_rank_check(X, y):
    X1 = np.column_stack([np.ones(len(X)), X])
    if np.linalg.matrix_rank(X1) < X1.shape[1]:
        raise np.linalg.LinAlgError("design matrix is rank deficient")
    beta = np.linalg.lstsq(X1, y, rcond=None)[0]
    resid = y - X1 @ beta
    sigma2 = resid @ resid / (len(y) - X1.shape[1])
    return beta, sigma2


def empirical_cdf(x, grid):
    xs = np.sort(x)
    return np.searchsorted(xs, grid, side="right") / len(xs)


def pearson_matrix(X):
    Xc = X - X.mean(axis=0)
    cov = Xc.T @ Xc / (len(X) - 1)
    sd = np.sqrt(np.diag(cov))
    return cov / np.outer(sd, sd)


def binned_means(x, y, n_bins):
    edges = np.linspace(x.min(), x.max(), n_bins + 1)
    idx = np.clip(np.digitize(x, edges) - 1, 0, n_bins - 1)
    sums = np.bincount(idx, weights=y, minlength=n_bins)
    counts = np.bincount(idx, minlength=n_bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        return sums / counts


_X = _rng.normal(size=(30, 4))
_labels = _rng.integers(0, 3, size=24)
_pred = np.where(_rng.random(24) < 0.7, _labels, _rng.integers(0, 3, size=24))
_t = np.linspace(0.0, 1.0, 64)
_sig = np.sin(2 * np.pi * 5 * _t) + 0.3 * _rng.normal(size=64)
_square = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 1.0], [0.0, 1.0]])
_V = _rng.normal(size=(6, 3))
_F = np.array([[0, 1, 2], [1, 3, 4], [2, 4, 5], [0, 3, 5]])
_boxes_a = np.array([[0.0, 0.0, 2.0, 2.0], [1.0, 1.0, 3.0, 4.0]])
_boxes_b = np.array([[1.0, 1.0, 3.0, 3.0], [0.0, 0.0, 2.0, 2.0]])
_with_nan = _X.copy()
_with_nan[[1, 5, 9], [0, 2, 3]] = np.nan

PROGRAMS = [
    ("standardize_columns", standardize_columns, (_X,)),
    ("minmax_scale", minmax_scale, (_X,)),
    ("impute_column_means", impute_column_means, (_with_nan,)),
    ("one_hot", one_hot, (_labels, 3)),
    ("sliding_windows", sliding_windows, (_sig, 8, 4)),
    ("robust_scale", robust_scale, (_sig,)),
    ("clip_outliers_zscore", clip_outliers_zscore, (_sig,)),
    ("confusion_counts", confusion_counts, (_labels, _pred, 3)),
    ("f1_macro", f1_macro, (_labels, _pred, 3)),
    ("regression_report", regression_report, (_X[:, 0], _X[:, 0] + 0.1 * _X[:, 1])),
    ("roc_auc_rank", roc_auc_rank, (_X[:24, 0], (_labels > 0).astype(int))),
    ("log_loss", log_loss, ((_labels > 0).astype(float), _rng.random(24))),
    ("pairwise_cosine", pairwise_cosine, (_X[:5], _X[5:12])),
    ("moving_average_valid", moving_average_valid, (_sig, 5)),
    ("power_spectrum_peak", power_spectrum_peak, (_sig, 64.0)),
    ("fft_lowpass", fft_lowpass, (_sig, 10)),
    ("envelope_rectified", envelope_rectified, (_sig,)),
    ("zero_crossing_rate", zero_crossing_rate, (_sig,)),
    ("resample_linear", resample_linear, (_t, _sig, 40)),
    ("hann_windowed_rms", hann_windowed_rms, (_sig, 16)),
    ("polygon_area", polygon_area, (_square,)),
    ("rotate_points", rotate_points, (_X[:6, :2], 0.3)),
    ("nearest_neighbor_index", nearest_neighbor_index, (_X[:7, :2], _X[7:12, :2])),
    ("triangle_normals", triangle_normals, (_V, _F)),
    ("fit_plane_svd", fit_plane_svd, (_X[:, :3],)),
    ("bounding_box_iou", bounding_box_iou, (_boxes_a, _boxes_b)),
    ("weighted_mean_var", weighted_mean_var, (_X[:, 0], np.abs(_X[:, 1]))),
    ("skew_kurtosis", skew_kurtosis, (_sig,)),
    ("histogram_pdf", histogram_pdf, (_sig,)),
    ("welch_t_statistic", welch_t_statistic, (_X[:, 0], _X[:20, 1] + 0.5)),
    ("mad_outlier_mask", mad_outlier_mask, (_sig,)),
    ("ols_with_rank_check", ols_with_rank_check, (_X[:, :2], _X[:, 2])),
    ("empirical_cdf", empirical_cdf, (_sig, np.linspace(-1.5, 1.5, 7))),
    ("pearson_matrix", pearson_matrix, (_X,)),
    ("binned_means", binned_means, (_X[:, 0], _X[:, 1], 5)),
]
