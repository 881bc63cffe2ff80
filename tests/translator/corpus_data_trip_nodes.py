"""Loops whose trip count is a run-time value, the second round of issue #19: a count
the data decides that reaches ``range`` (``for i in range(len(np.unique(y)))``,
``for k in range(int(a.sum()))``), rows of a selection (``for row in x[mask]``),
loops over data nested in a loop over features (a decision tree's ``best_split``),
``enumerate(classes, start=1)``, and the loop variable, carried values, warnings and
exceptions such loops leave. Written before any of them ran under dynamo, as such
code is written in NumPy programs (per-class statistics, per-cluster means in
k-means, histogram loops, tree splits, per-group normalization).

``PROGRAMS``: (name, fn, make_args); ``make_args(rng, n, k)`` gives arguments for
``n`` samples and at most ``k`` classes (``n`` may be 0 or 1), so the tests draw
them with hypothesis.

Example::

    >>> name, fn, make_args = PROGRAMS[0]
    >>> fn(*make_args(np.random.default_rng(0), 12, 3)).shape
    (3, 2)
"""

from __future__ import annotations

import numpy as np


# ------------------------------------------------------------ (a) a run-time count
def class_counts_range_len(X, y):
    """Per-class counts and sums into preallocated rows, over ``range(len(classes))``."""
    classes = np.unique(y)
    sums = np.zeros((len(classes), X.shape[1]))
    for i in range(len(classes)):
        sums[i] = X[y == classes[i]].sum(axis=0)
    return sums


def selected_rows_norm(X, thresh):
    """A running sum over the rows a mask selects: ``for row in X[mask]``."""
    total = np.zeros(X.shape[1])
    for row in X[X[:, 0] > thresh]:
        total = total + row * row
    return total


def selected_rows_running_max(X):
    """The elementwise maximum of the rows with a positive first column."""
    best = np.full(X.shape[1], -np.inf)
    for r in X[X[:, 0] > 0]:
        best = np.maximum(best, r)
    return best


def relax_int_sum(u, steps):
    """A smoothing step repeated ``int(steps.sum())`` times (a count read off data)."""
    for _ in range(int(steps.sum())):
        u[1:-1] = 0.5 * u[1:-1] + 0.25 * (u[:-2] + u[2:])
    return u


def kmeans_step_labels_max(X, labels):
    """One k-means update: ``k`` is ``labels.max() + 1``, a value of the data."""
    k = int(labels.max()) + 1 if len(labels) else 0
    cents = np.zeros((k, X.shape[1]))
    for j in range(k):
        cents[j] = X[labels == j].mean(axis=0)
    return cents


def histogram_loop_over_selection(x, edges):
    """A histogram built one value at a time over the finite values."""
    counts = np.zeros(len(edges) - 1, dtype=np.int64)
    for v in x[np.isfinite(x)]:
        counts += (edges[:-1] <= v) & (v < edges[1:])
    return counts


def per_group_normalize(x, groups):
    """Per-group z-scores, written through a mask per group."""
    out = np.empty_like(x)
    for g in np.unique(groups):
        m = groups == g
        out[m] = (x[m] - x[m].mean()) / (x[m].std() + 1e-9)
    return out


def class_weighted_loss(pred, y):
    """A loss weighted by the inverse frequency of each class, summed over classes."""
    loss = 0.0
    for c in np.unique(y):
        m = y == c
        loss = loss + np.sum((pred[m] - 1.0) ** 2) / np.mean(m)
    return loss


def last_class_after_loop(X, y):
    """The loop variable read after the loop: the last class (unbound with no class)."""
    total = np.zeros(X.shape[1])
    for c in np.unique(y):
        total = total + X[y == c].max(axis=0)
    return total, c


# ------------------------------------------------------------ (c) enumerate(..., start=1)
def label_codes_start_one(y):
    """Codes 1..k for the classes, 0 stays for none."""
    codes = np.zeros(len(y), dtype=np.int64)
    for i, c in enumerate(np.unique(y), start=1):
        codes[y == c] = i
    return codes


def ranked_rows_start_one(X):
    """Rows with a positive first column, weighted by their rank (1, 2, ...)."""
    acc = np.zeros(X.shape[1])
    for rank, row in enumerate(X[X[:, 0] > 0], start=1):
        acc = acc + rank * row
    return acc


# ------------------------------------------------------------ (b) nested loops over data
def best_split_where(X, y):
    """A decision tree's split search, the best kept with ``np.where`` (no branch):
    ``for j in range(d): for t in np.unique(X[:, j]): ...``."""
    n, d = X.shape
    best = np.inf
    best_j = -1
    best_t = 0.0
    for j in range(d):
        for t in np.unique(X[:, j]):
            left = X[:, j] <= t
            nl = left.sum()
            score = nl * np.var(y[left]) + (n - nl) * np.var(y[~left]) \
                if 0 < nl < n else np.inf
            if score < best:
                best, best_j, best_t = score, j, t
    return best, best_j, best_t


def best_split_gini(X, y):
    """Gini split search over every feature and threshold, the scores kept in a list."""
    scores = []
    for j in range(X.shape[1]):
        col = X[:, j]
        for t in np.unique(col)[:-1]:
            left = col <= t
            pl = np.bincount(y[left], minlength=2) / left.sum()
            pr = np.bincount(y[~left], minlength=2) / (~left).sum()
            g = left.mean() * (1 - (pl ** 2).sum()) + (~left).mean() * (1 - (pr ** 2).sum())
            scores.append(g)
    return np.array(scores)


def per_class_feature_stats(X, y):
    """Mean and spread of every feature of every class, filled cell by cell."""
    classes = np.unique(y)
    stats = np.zeros((len(classes), X.shape[1], 2))
    for i, c in enumerate(classes):
        rows = X[y == c]
        for j in range(X.shape[1]):
            stats[i, j, 0] = rows[:, j].mean()
            stats[i, j, 1] = rows[:, j].max() - rows[:, j].min()
    return stats


def kmeans_iterations(X, labels, n_iter):
    """A few k-means iterations; the number of clusters comes from the labels."""
    k = len(np.unique(labels))
    cents = X[:k].copy()
    for _ in range(n_iter):
        for j in range(k):
            m = labels == j
            cents[j] = X[m].mean(axis=0) if m.any() else cents[j]
        d = ((X[:, None, :] - cents[None]) ** 2).sum(-1)
        labels = d.argmin(axis=1)
    return cents, labels


def pairwise_class_counts(y_true, y_pred):
    """A confusion matrix by two loops over the labels seen."""
    labels = np.unique(np.concatenate([y_true, y_pred]))
    cm = np.zeros((len(labels), len(labels)), dtype=np.int64)
    for i, a in enumerate(labels):
        for j, b in enumerate(labels):
            cm[i, j] = np.count_nonzero((y_true == a) & (y_pred == b))
    return cm


# ------------------------------------------------------------ warnings and exceptions
def class_means_warn_empty(X, labels, k):
    """``k`` clusters asked for, some empty: ``mean`` of no rows warns per empty one."""
    cents = np.zeros((k, X.shape[1]))
    for j in np.unique(np.concatenate([labels, np.arange(k)])):
        cents[j] = X[labels == j].mean(axis=0)
    return cents


def class_index_out_of_bounds(y):
    """Counts indexed by the class value: a class >= len(counts) raises IndexError
    at its trip, after the earlier trips wrote."""
    counts = np.zeros(3, dtype=np.int64)
    for c in np.unique(y):
        counts[c] = np.sum(y == c)
    return counts


def _xy(rng, n, k, d=2):
    X = np.round(rng.standard_normal((n, d)), 1)
    y = rng.integers(0, max(k, 1), n)
    return X, y


PROGRAMS = [
    ("class_counts_range_len", class_counts_range_len, lambda rng, n, k: _xy(rng, n, k)),
    ("selected_rows_norm", selected_rows_norm,
     lambda rng, n, k: (_xy(rng, n, k)[0], 0.2)),
    ("selected_rows_running_max", selected_rows_running_max,
     lambda rng, n, k: (_xy(rng, n, k, 3)[0],)),
    ("relax_int_sum", relax_int_sum,
     lambda rng, n, k: (rng.standard_normal(8), rng.integers(0, 3, n))),
    ("kmeans_step_labels_max", kmeans_step_labels_max, lambda rng, n, k: _xy(rng, n, k)),
    ("histogram_loop_over_selection", histogram_loop_over_selection,
     lambda rng, n, k: (np.where(rng.random(n) < 0.2, np.nan, rng.standard_normal(n)),
                        np.linspace(-2.0, 2.0, 6))),
    ("per_group_normalize", per_group_normalize,
     lambda rng, n, k: (rng.standard_normal(n), rng.integers(0, max(k, 1), n))),
    ("class_weighted_loss", class_weighted_loss,
     lambda rng, n, k: (rng.standard_normal(n), rng.integers(0, max(k, 1), n))),
    ("last_class_after_loop", last_class_after_loop, lambda rng, n, k: _xy(rng, n, k)),
    ("label_codes_start_one", label_codes_start_one,
     lambda rng, n, k: (rng.integers(0, max(k, 1), n) * 3,)),
    ("ranked_rows_start_one", ranked_rows_start_one,
     lambda rng, n, k: (_xy(rng, n, k)[0],)),
    ("best_split_where", best_split_where,
     lambda rng, n, k: (_xy(rng, n, k)[0], rng.standard_normal(n))),
    ("best_split_gini", best_split_gini,
     lambda rng, n, k: (_xy(rng, n, k)[0], rng.integers(0, 2, n))),
    ("per_class_feature_stats", per_class_feature_stats, lambda rng, n, k: _xy(rng, n, k)),
    ("kmeans_iterations", kmeans_iterations,
     lambda rng, n, k: (*_xy(rng, max(n, k), k), 3)),
    ("pairwise_class_counts", pairwise_class_counts,
     lambda rng, n, k: (rng.integers(0, max(k, 1), n), rng.integers(0, max(k, 1), n))),
    ("class_means_warn_empty", class_means_warn_empty,
     lambda rng, n, k: (*_xy(rng, n, k), k + 1)),
    ("class_index_out_of_bounds", class_index_out_of_bounds,
     lambda rng, n, k: (rng.integers(0, max(k, 1) + 1, n),)),
]
