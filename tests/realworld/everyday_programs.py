"""Everyday NumPy functions of the kind real repositories hold, for break counts
(``scripts/break_counts.py``, docs/realworld.md) and differential tests
(``test_everyday_programs.py``).

Fifty-three small functions, none a copy of the other corpora: data cleaning with
masks, feature scaling, histograms, top-k with ``argpartition``, rolling windows,
polynomial fits, simple machine-learning steps, image operations with slicing,
finance (returns, drawdowns), and set operations on ids. Each is written as a NumPy
user writes it, not for the compiler. ``PROGRAMS`` lists ``(name, fn, args)``: the
arguments are small and seeded.

The module imports only NumPy, so the scripts load it from its file
(``realworld_programs.load_module``) and the tests import it by name.
"""

from __future__ import annotations

import numpy as np

_rng = np.random.default_rng(1234)


def _normal(*shape):
    return _rng.normal(size=shape)


# ---------------------------------------------------------------- data cleaning


def drop_nan_rows(X):
    """Keep the rows without a NaN."""
    keep = ~np.isnan(X).any(axis=1)
    return X[keep]


def fill_nan_with_column_mean(X):
    X = X.copy()
    means = np.nanmean(X, axis=0)
    rows, cols = np.where(np.isnan(X))
    X[rows, cols] = means[cols]
    return X


def clip_outliers_iqr(x):
    q1, q3 = np.percentile(x, [25, 75])
    iqr = q3 - q1
    lo, hi = q1 - 1.5 * iqr, q3 + 1.5 * iqr
    return np.clip(x, lo, hi), int(((x < lo) | (x > hi)).sum())


def remove_outliers_zscore(x, k=2.0):
    z = (x - x.mean()) / x.std()
    return x[np.abs(z) < k]


def replace_sentinels(x):
    x = x.astype(float)
    x[x == -999] = np.nan
    return x, np.isnan(x).sum()


def dedupe_ids(ids, values):
    """Keep the first value for every id."""
    uniq, first = np.unique(ids, return_index=True)
    return uniq, values[first]


def valid_range_filter(t, v):
    ok = (t >= 0) & (t <= 10) & np.isfinite(v)
    return t[ok], v[ok]


# ---------------------------------------------------------------- feature scaling


def min_max_scale(X):
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    return (X - lo) / span


def robust_scale(X):
    med = np.median(X, axis=0)
    q75, q25 = np.percentile(X, [75, 25], axis=0)
    return (X - med) / (q75 - q25)


def l2_normalize_rows(X, eps=1e-12):
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    return X / np.maximum(norms, eps)


def one_hot(labels, n_classes):
    out = np.zeros((labels.shape[0], n_classes))
    out[np.arange(labels.shape[0]), labels] = 1.0
    return out


def log_transform_positive(x):
    y = np.zeros_like(x)
    pos = x > 0
    y[pos] = np.log1p(x[pos])
    return y


# ---------------------------------------------------------------- histograms, counts


def histogram_density(x):
    counts, edges = np.histogram(x, bins=10, range=(-3, 3))
    widths = np.diff(edges)
    return counts / (counts.sum() * widths), edges


def label_frequencies(labels):
    values, counts = np.unique(labels, return_counts=True)
    return values, counts / counts.sum()


def most_common_label(labels):
    counts = np.bincount(labels)
    return np.argmax(counts), counts.max()


def digitize_ages(ages):
    bins = np.array([0, 18, 35, 50, 65, 120])
    idx = np.digitize(ages, bins) - 1
    return np.bincount(idx, minlength=len(bins) - 1)


def cumulative_distribution(x):
    xs = np.sort(x)
    cdf = np.arange(1, len(xs) + 1) / len(xs)
    return xs, cdf


# ---------------------------------------------------------------- top-k, ranking


def top_k_scores(scores, k):
    idx = np.argpartition(scores, -k)[-k:]
    idx = idx[np.argsort(scores[idx])[::-1]]
    return idx, scores[idx]


def top_k_per_row(S, k):
    idx = np.argpartition(-S, k, axis=1)[:, :k]
    vals = np.take_along_axis(S, idx, axis=1)
    order = np.argsort(-vals, axis=1)
    return np.take_along_axis(idx, order, axis=1)


def rank_data(x):
    order = np.argsort(x)
    ranks = np.empty_like(order)
    ranks[order] = np.arange(len(x))
    return ranks


def argmax_location(grid):
    """Where the largest value of a 2-d grid is, as (row, column)."""
    i, j = np.unravel_index(np.argmax(grid), grid.shape)
    return i, j, grid[i, j]


def sort_by_two_keys(last, first, scores):
    """Order records by last name, then first name (``np.lexsort``: last key first)."""
    order = np.lexsort((first, last))
    return order, scores[order]


def heatmap_counts(x, y):
    counts, xe, ye = np.histogram2d(x, y, bins=(4, 3), range=[[-2, 2], [-2, 2]])
    return counts / counts.sum(), xe, ye


def nearest_neighbor(points, queries):
    d2 = ((queries[:, None, :] - points[None, :, :]) ** 2).sum(-1)
    return d2.argmin(axis=1), np.sqrt(d2.min(axis=1))


# ---------------------------------------------------------------- rolling windows


def rolling_mean(x, w):
    c = np.cumsum(np.insert(x, 0, 0.0))
    return (c[w:] - c[:-w]) / w


def rolling_max_strided(x, w):
    windows = np.lib.stride_tricks.sliding_window_view(x, w)
    return windows.max(axis=1)


def ewma(x, alpha):
    out = np.empty_like(x)
    out[0] = x[0]
    for i in range(1, len(x)):
        out[i] = alpha * x[i] + (1 - alpha) * out[i - 1]
    return out


def moving_average_convolve(x, w):
    return np.convolve(x, np.ones(w) / w, mode="valid")


# ---------------------------------------------------------------- polynomial fits


def fit_trend(t, y):
    coeffs = np.polyfit(t, y, 2)
    return coeffs, y - np.polyval(coeffs, t)


def linear_regression_lstsq(X, y):
    Xb = np.column_stack([np.ones(len(X)), X])
    w = np.linalg.solve(Xb.T @ Xb, Xb.T @ y)
    return w, Xb @ w


def interpolate_gaps(t, y):
    good = ~np.isnan(y)
    return np.interp(t, t[good], y[good])


# ---------------------------------------------------------------- simple ML steps


def softmax_rows(Z):
    Z = Z - Z.max(axis=1, keepdims=True)
    E = np.exp(Z)
    return E / E.sum(axis=1, keepdims=True)


def cross_entropy(probs, labels):
    n = labels.shape[0]
    return -np.log(probs[np.arange(n), labels] + 1e-12).mean()


def accuracy(logits, labels):
    return (logits.argmax(axis=1) == labels).mean()


def confusion_matrix(y_true, y_pred, k):
    cm = np.zeros((k, k), dtype=np.int64)
    np.add.at(cm, (y_true, y_pred), 1)
    return cm


def kmeans_assign_update(X, centers):
    d = ((X[:, None, :] - centers[None]) ** 2).sum(-1)
    assign = d.argmin(axis=1)
    new = np.array([X[assign == j].mean(axis=0) for j in range(centers.shape[0])])
    return assign, new


def train_test_split_mask(X, y, frac):
    n_train = int(len(X) * frac)
    idx = np.arange(len(X))
    train = idx < n_train
    return X[train], X[~train], y[train], y[~train]


def relu_dropout_forward(X, W, keep):
    h = np.maximum(X @ W, 0.0)
    return h * keep / keep.mean()


# ---------------------------------------------------------------- images


def crop_center(img, h, w):
    H, W = img.shape[:2]
    top, left = (H - h) // 2, (W - w) // 2
    return img[top:top + h, left:left + w]


def rgb_to_gray(img):
    return img[..., 0] * 0.299 + img[..., 1] * 0.587 + img[..., 2] * 0.114


def threshold_and_count(img, t):
    mask = img > t
    ys, xs = np.nonzero(mask)
    return mask.sum(), (ys.mean(), xs.mean())


def bounding_box(mask):
    rows = np.any(mask, axis=1)
    cols = np.any(mask, axis=0)
    r = np.where(rows)[0]
    c = np.where(cols)[0]
    return r[0], r[-1], c[0], c[-1]


def box_blur3(img):
    p = np.pad(img, 1, mode="edge")
    return (p[:-2, :-2] + p[:-2, 1:-1] + p[:-2, 2:] + p[1:-1, :-2] + p[1:-1, 1:-1]
            + p[1:-1, 2:] + p[2:, :-2] + p[2:, 1:-1] + p[2:, 2:]) / 9.0


def flip_and_rotate(img):
    return np.flipud(img), np.rot90(img), img[:, ::-1]


# ---------------------------------------------------------------- finance


def simple_and_log_returns(prices):
    r = prices[1:] / prices[:-1] - 1
    return r, np.diff(np.log(prices))


def max_drawdown(prices):
    peak = np.maximum.accumulate(prices)
    dd = prices / peak - 1.0
    return dd.min(), dd.argmin()


def sharpe_ratio(returns, rf=0.0, periods=252):
    excess = returns - rf / periods
    return np.sqrt(periods) * excess.mean() / excess.std(ddof=1)


def losing_days(returns):
    losses = returns[returns < 0]
    return len(losses), losses.mean(), np.flatnonzero(returns < 0)


# ---------------------------------------------------------------- ids and sets


def new_and_removed_ids(old, new):
    return np.setdiff1d(new, old), np.setdiff1d(old, new), np.intersect1d(old, new)


def join_on_ids(ids_a, vals_a, ids_b, vals_b):
    common, ia, ib = np.intersect1d(ids_a, ids_b, return_indices=True)
    return common, vals_a[ia] + vals_b[ib]


def filter_known_ids(ids, known):
    return ids[np.isin(ids, known)]


def all_ids(a, b, c):
    return np.union1d(np.union1d(a, b), c)


def group_sum_by_id(ids, values):
    uniq, inverse = np.unique(ids, return_inverse=True)
    return uniq, np.bincount(inverse, weights=values)


def _prices(n):
    return 100.0 * np.exp(np.cumsum(_rng.normal(0, 0.01, n)))


_X_NAN = _normal(12, 3)
_X_NAN[[1, 5, 7], [0, 2, 1]] = np.nan
_Y_GAPS = np.sin(np.linspace(0, 3, 20))
_Y_GAPS[[3, 4, 11]] = np.nan
_IMG = _rng.uniform(0, 1, (16, 12))
_MASK = np.zeros((10, 8), bool)
_MASK[3:6, 2:7] = True
_CENTERS = _normal(3, 2)
_LABELS = _rng.integers(0, 4, 30)

PROGRAMS = [
    ("drop_nan_rows", drop_nan_rows, (_X_NAN,)),
    ("fill_nan_with_column_mean", fill_nan_with_column_mean, (_X_NAN,)),
    ("clip_outliers_iqr", clip_outliers_iqr, (_normal(40),)),
    ("remove_outliers_zscore", remove_outliers_zscore, (_normal(40),)),
    ("replace_sentinels", replace_sentinels,
     (np.array([1, -999, 3, 4, -999, 6]),)),
    ("dedupe_ids", dedupe_ids, (_rng.integers(0, 8, 20), _normal(20))),
    ("valid_range_filter", valid_range_filter,
     (_rng.uniform(-2, 12, 25), np.where(_rng.uniform(size=25) < 0.2, np.inf, 1.0))),
    ("min_max_scale", min_max_scale, (_normal(20, 4),)),
    ("robust_scale", robust_scale, (_normal(20, 4),)),
    ("l2_normalize_rows", l2_normalize_rows, (_normal(10, 5),)),
    ("one_hot", one_hot, (_LABELS, 4)),
    ("log_transform_positive", log_transform_positive, (_normal(30),)),
    ("histogram_density", histogram_density, (_normal(200),)),
    ("label_frequencies", label_frequencies, (_LABELS,)),
    ("most_common_label", most_common_label, (_LABELS,)),
    ("digitize_ages", digitize_ages, (_rng.integers(1, 100, 50),)),
    ("cumulative_distribution", cumulative_distribution, (_normal(25),)),
    ("top_k_scores", top_k_scores, (_normal(50), 5)),
    ("top_k_per_row", top_k_per_row, (_normal(6, 10), 3)),
    ("rank_data", rank_data, (_normal(15),)),
    ("nearest_neighbor", nearest_neighbor, (_normal(20, 2), _normal(5, 2))),
    ("argmax_location", argmax_location, (_normal(5, 7),)),
    ("sort_by_two_keys", sort_by_two_keys,
     (_rng.integers(0, 4, 12), _rng.integers(0, 6, 12), _normal(12))),
    ("heatmap_counts", heatmap_counts, (_normal(40), _normal(40))),
    ("rolling_mean", rolling_mean, (_normal(30), 5)),
    ("rolling_max_strided", rolling_max_strided, (_normal(30), 4)),
    ("ewma", ewma, (_normal(20), 0.3)),
    ("moving_average_convolve", moving_average_convolve, (_normal(30), 3)),
    ("fit_trend", fit_trend, (np.linspace(0, 1, 20), _normal(20))),
    ("linear_regression_lstsq", linear_regression_lstsq, (_normal(30, 2), _normal(30))),
    ("interpolate_gaps", interpolate_gaps, (np.linspace(0, 3, 20), _Y_GAPS)),
    ("softmax_rows", softmax_rows, (_normal(8, 5),)),
    ("cross_entropy", cross_entropy, (softmax_rows(_normal(30, 4)), _LABELS)),
    ("accuracy", accuracy, (_normal(30, 4), _LABELS)),
    ("confusion_matrix", confusion_matrix, (_LABELS, _LABELS[::-1].copy(), 4)),
    ("kmeans_assign_update", kmeans_assign_update, (_normal(40, 2), _CENTERS)),
    ("train_test_split_mask", train_test_split_mask, (_normal(20, 3), _normal(20), 0.75)),
    ("relu_dropout_forward", relu_dropout_forward,
     (_normal(6, 4), _normal(4, 5), (_rng.uniform(size=(6, 5)) < 0.8).astype(float))),
    ("crop_center", crop_center, (_IMG, 8, 6)),
    ("rgb_to_gray", rgb_to_gray, (_rng.uniform(0, 1, (8, 6, 3)),)),
    ("threshold_and_count", threshold_and_count, (_IMG, 0.7)),
    ("bounding_box", bounding_box, (_MASK,)),
    ("box_blur3", box_blur3, (_IMG,)),
    ("flip_and_rotate", flip_and_rotate, (_IMG,)),
    ("simple_and_log_returns", simple_and_log_returns, (_prices(40),)),
    ("max_drawdown", max_drawdown, (_prices(60),)),
    ("sharpe_ratio", sharpe_ratio, (_rng.normal(0.0005, 0.01, 100),)),
    ("losing_days", losing_days, (_rng.normal(0.0, 0.01, 30),)),
    ("new_and_removed_ids", new_and_removed_ids,
     (_rng.choice(100, 20, replace=False), _rng.choice(100, 25, replace=False))),
    ("join_on_ids", join_on_ids,
     (np.arange(0, 30, 2), _normal(15), np.arange(0, 30, 3), _normal(10))),
    ("filter_known_ids", filter_known_ids, (_rng.integers(0, 50, 30), np.arange(0, 50, 5))),
    ("all_ids", all_ids, (np.array([5, 1, 9]), np.array([2, 5]), np.array([9, 7, 0]))),
    ("group_sum_by_id", group_sum_by_id, (_rng.integers(0, 6, 25), _normal(25))),
]
