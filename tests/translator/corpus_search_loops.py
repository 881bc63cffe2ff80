"""Loops over data that still graph-break, the third round of issue #19 (helper-105):
written before any of them ran under dynamo, as such loops are written in NumPy
programs.

(a) searches whose ``break`` branch assigns plain locals first (``for i in range(n):
    if a[i] > thr: found = i; break``): first crossings, first bad rows, budgets,
    early stopping, pivots, ``for ... else``, the index unbound after no trip, a
    ``print`` on the way out;
(b) loops whose trip count only the data decides (an unbacked size):
    ``range(len(np.nonzero(m)[0]))``, rows of ``x[x > 0]``, ``np.flatnonzero``,
    ``np.argwhere`` rows unpacked, ``np.where(c)[0]``, a step of 2 over a selection;
(c) nested loops over data: regression and classification tree split searches (for
    each feature, each threshold from ``np.unique``), per-feature per-class tables,
    a nested pair search with an inner ``break``, nearest-neighbour votes.

``PROGRAMS``: (name, fn, make_args); ``make_args(rng, n, k)`` gives arguments for
``n`` samples (0 and 1 included) and at most ``k`` classes, drawn by hypothesis in
``test_search_loops.py``.

Example::

    >>> name, fn, make_args = PROGRAMS[0]
    >>> fn(*make_args(np.random.default_rng(0), 12, 3))
    2
"""

from __future__ import annotations

import numpy as np


# ------------------------------------------------------------ (a) searches with a break
def first_above_threshold(a, thr):
    """The index of the first value above ``thr``, -1 where there is none."""
    found = -1
    for i in range(len(a)):
        if a[i] > thr:
            found = i
            break
    return found


def first_level_crossing(x, level):
    """The first time step where the series crosses ``level`` upwards, and the value
    there; None where it never does."""
    t_cross, v_cross = None, None
    for t in range(1, x.shape[0]):
        if x[t - 1] < level and x[t] >= level:
            t_cross = t
            v_cross = x[t]
            break
    return t_cross, v_cross


def first_nonfinite_row(X):
    """The first row with a NaN or an infinity (data cleaning), and how many rows were
    looked at."""
    bad = -1
    seen = 0
    for i in range(X.shape[0]):
        seen += 1
        if not np.all(np.isfinite(X[i])):
            bad = i
            break
    return bad, seen


def spend_until_budget(cost, budget):
    """Accumulate costs until the budget is exceeded: the last item bought and the
    total at that point."""
    total = 0.0
    last = -1
    over = 0.0
    for i in range(cost.shape[0]):
        total = total + cost[i]
        if total > budget:
            last = i
            over = total
            break
    return last, over, total


def early_stopping(losses, patience):
    """Early stopping on a validation curve: the best epoch and where training stopped."""
    best = np.inf
    best_epoch = -1
    stopped = len(losses)
    for epoch in range(len(losses)):
        if losses[epoch] < best:
            best = losses[epoch]
            best_epoch = epoch
        elif epoch - best_epoch >= patience:
            stopped = epoch
            break
    return best, best_epoch, stopped


def first_pivot_column(M):
    """Gaussian elimination's pivot search: the first column with a nonzero entry, and
    its largest entry by magnitude."""
    pivot = -1
    pivot_val = 0.0
    for j in range(M.shape[1]):
        col = M[:, j]
        if np.any(col != 0):
            pivot = j
            pivot_val = col[np.argmax(np.abs(col))]
            break
    return pivot, pivot_val


def quantile_by_scan(x, q):
    """The ``q`` quantile of positive weights by a scan of the cumulative sum."""
    s = np.sort(x)
    c = np.cumsum(s)
    val = np.nan
    for i in range(len(c)):
        if c[i] >= q * c[-1]:
            val = s[i]
            break
    return val


def bin_of_value_for_else(edges, v):
    """The bin of ``v`` by a linear scan, ``for ... else`` for the value past the end."""
    for i in range(1, len(edges)):
        if v < edges[i]:
            pos = i - 1
            break
    else:
        pos = len(edges) - 1
    return pos


def converged_flag(a, tol, maxit):
    """Newton's square root with a flag set on the way out of the loop."""
    x = np.ones_like(a)
    converged = False
    for _ in range(maxit):
        x = 0.5 * (x + a / x)
        if np.abs(x * x - a).max() < tol:
            converged = True
            break
    return x, converged


def search_index_after_no_trip(a, thr):
    """The loop variable read after the loop: unbound where ``a`` is empty
    (UnboundLocalError), the last index where nothing is above ``thr``."""
    for i in range(a.shape[0]):
        if a[i] > thr:
            break
    return i


def first_match_printed(a, thr):
    """A search that reports what it found before it leaves the loop."""
    where = -1
    for i in range(len(a)):
        if a[i] > thr:
            print("first value above", thr, "at", i)
            where = i
            break
    return where


# ------------------------------------------------------------ (b) counts the data decides
def sum_over_nonzero_count(m, x):
    """``for i in range(len(np.nonzero(m)[0]))``, reading through the index array."""
    idx = np.nonzero(m)[0]
    acc = 0.0
    for i in range(len(idx)):
        acc = acc + x[idx[i]] * (i + 1)
    return acc


def positive_rows_weighted(X, w):
    """The rows with a positive first column, each scaled by ``w``, summed by index."""
    P = X[X[:, 0] > 0]
    out = np.zeros(X.shape[1])
    for i in range(P.shape[0]):
        out += P[i] * w
    return out


def clamp_negatives_where(x):
    """``for i in np.where(x < 0)[0]``: every negative value set to its left
    neighbour's (a forward fill, in order)."""
    x = x.copy()
    for i in np.where(x < 0)[0]:
        x[i] = x[i - 1] if i > 0 else 0.0
    return x


def flatnonzero_cumulative(mask, y):
    """A running total written at the positions a mask selects."""
    out = np.zeros_like(y)
    run = 0.0
    for j in np.flatnonzero(mask):
        run = run + y[j]
        out[j] = run
    return out, run


def argwhere_cells_total(M, t):
    """``for r, c in np.argwhere(M > t)``: the selected cells summed, weighted by
    their row."""
    total = 0.0
    for r, c in np.argwhere(M > t):
        total = total + M[r, c] * (r + 1)
    return total


def unique_counts_by_size(labels):
    """Counts per label over ``range(u.size)`` of ``np.unique``."""
    u = np.unique(labels)
    counts = np.zeros(u.size, dtype=np.int64)
    for k in range(u.size):
        counts[k] = np.sum(labels == u[k])
    return u, counts


def every_other_selected(x):
    """Every other positive value, by a step of 2 over the selection's indices."""
    sel = x[x > 0]
    s = 0.0
    for i in range(0, len(sel), 2):
        s = s + sel[i]
    return s


def peak_widths_loop(x):
    """Local maxima (by the sign of the differences), then each one's width at half
    its height by a loop over the peaks."""
    d = np.diff(x)
    peaks = np.nonzero((d[:-1] > 0) & (d[1:] <= 0))[0] + 1
    widths = np.zeros(len(peaks))
    for p in range(len(peaks)):
        h = x[peaks[p]] / 2.0
        widths[p] = np.sum(x > h)
    return peaks, widths


# ------------------------------------------------------------ (c) nested loops over data
def best_split_regression(X, y):
    """A regression tree's split search: for each feature, each threshold from
    ``np.unique``, the weighted variance of the two sides; the best kept by an ``if``."""
    best_score = np.inf
    best_feature = -1
    best_threshold = np.nan
    for f in range(X.shape[1]):
        for t in np.unique(X[:, f]):
            left = y[X[:, f] <= t]
            right = y[X[:, f] > t]
            if left.size == 0 or right.size == 0:
                continue
            score = left.size * left.var() + right.size * right.var()
            if score < best_score:
                best_score = score
                best_feature = f
                best_threshold = t
    return best_feature, best_threshold, best_score


def best_split_midpoints(X, y):
    """Gini split search over midpoints between consecutive unique values."""
    n = len(y)
    best = (1.0, -1, 0.0)
    for f in range(X.shape[1]):
        vals = np.unique(X[:, f])
        mids = (vals[:-1] + vals[1:]) / 2.0
        for t in mids:
            m = X[:, f] <= t
            p_left = np.mean(y[m])
            p_right = np.mean(y[~m])
            g = (m.sum() * 2 * p_left * (1 - p_left) +
                 (~m).sum() * 2 * p_right * (1 - p_right)) / n
            if g < best[0]:
                best = (g, f, t)
    return best


def per_feature_class_means(X, y):
    """A naive Bayes fit: the mean of every feature within every class."""
    classes = np.unique(y)
    means = np.zeros((len(classes), X.shape[1]))
    for ci in range(len(classes)):
        Xc = X[y == classes[ci]]
        for f in range(X.shape[1]):
            means[ci, f] = Xc[:, f].mean()
    return classes, means


def first_close_pair(P, eps):
    """The first pair of points closer than ``eps``: an inner search with a break in
    a loop over the points."""
    pair = (-1, -1)
    for i in range(P.shape[0]):
        for j in range(i + 1, P.shape[0]):
            if np.sum((P[i] - P[j]) ** 2) < eps * eps:
                pair = (i, j)
                break
        if pair[0] >= 0:
            break
    return pair


def knn_votes(Xtr, ytr, Xte, k):
    """k-nearest-neighbour classification: votes counted neighbour by neighbour."""
    n_classes = int(ytr.max()) + 1 if len(ytr) else 1
    votes = np.zeros((Xte.shape[0], n_classes), dtype=np.int64)
    for q in range(Xte.shape[0]):
        d = np.sum((Xtr - Xte[q]) ** 2, axis=1)
        for nb in np.argsort(d)[:k]:
            votes[q, ytr[nb]] += 1
    return votes


def class_threshold_table(X, y):
    """For each class, for each feature, the share of the class's rows above the
    feature's median (an empty class warns: the mean of nothing)."""
    med = np.median(X, axis=0) if len(X) else np.zeros(X.shape[1])
    table = np.zeros((3, X.shape[1]))
    for c in range(3):
        rows = X[y == c]
        for f in range(X.shape[1]):
            table[c, f] = np.mean(rows[:, f] > med[f])
    return table


def _xy(rng, n, k, d=2):
    X = np.round(rng.standard_normal((n, d)), 1)
    y = rng.integers(0, max(k, 1), n)
    return X, y


def _series(rng, n):
    return np.round(np.cumsum(rng.standard_normal(n)), 2)


PROGRAMS = [
    ("first_above_threshold", first_above_threshold,
     lambda rng, n, k: (rng.standard_normal(n), 0.5 * k - 1.0)),
    ("first_level_crossing", first_level_crossing,
     lambda rng, n, k: (_series(rng, n), 0.5 * k)),
    ("first_nonfinite_row", first_nonfinite_row,
     lambda rng, n, k: (np.where(rng.random((n, 2)) < 0.05 * k, np.nan,
                                 rng.standard_normal((n, 2))),)),
    ("spend_until_budget", spend_until_budget,
     lambda rng, n, k: (rng.uniform(0.0, 3.0, n), 2.0 * k)),
    ("early_stopping", early_stopping,
     lambda rng, n, k: (np.round(1.0 / (1 + np.arange(n)) + 0.2 * rng.random(n), 2), k)),
    ("first_pivot_column", first_pivot_column,
     lambda rng, n, k: (np.where(np.arange(4) < rng.integers(0, 5), 0.0,
                                 rng.standard_normal((max(n, 1) % 5 + 1, 4))),)),
    ("quantile_by_scan", quantile_by_scan,
     lambda rng, n, k: (rng.uniform(0.1, 2.0, n), k / 7.0)),
    ("bin_of_value_for_else", bin_of_value_for_else,
     lambda rng, n, k: (np.sort(rng.uniform(-2, 2, n)), 0.5 * k - 1.5)),
    ("converged_flag", converged_flag,
     lambda rng, n, k: (rng.uniform(0.5, 4.0, max(n, 1)), 10.0 ** -k, n % 9)),
    ("search_index_after_no_trip", search_index_after_no_trip,
     lambda rng, n, k: (rng.standard_normal(n), 0.4 * k - 0.5)),
    ("first_match_printed", first_match_printed,
     lambda rng, n, k: (rng.standard_normal(n), 0.4 * k - 0.5)),
    ("sum_over_nonzero_count", sum_over_nonzero_count,
     lambda rng, n, k: (rng.random(n) < 0.15 * k, rng.standard_normal(n))),
    ("positive_rows_weighted", positive_rows_weighted,
     lambda rng, n, k: (_xy(rng, n, k, 3)[0], np.arange(1.0, 4.0))),
    ("clamp_negatives_where", clamp_negatives_where,
     lambda rng, n, k: (rng.standard_normal(n),)),
    ("flatnonzero_cumulative", flatnonzero_cumulative,
     lambda rng, n, k: (rng.random(n) < 0.15 * k, rng.standard_normal(n))),
    ("argwhere_cells_total", argwhere_cells_total,
     lambda rng, n, k: (rng.standard_normal((n, 3)), 1.5 - 0.3 * k)),
    ("unique_counts_by_size", unique_counts_by_size,
     lambda rng, n, k: (rng.integers(0, max(k, 1), n) * 2,)),
    ("every_other_selected", every_other_selected,
     lambda rng, n, k: (rng.standard_normal(n),)),
    ("peak_widths_loop", peak_widths_loop, lambda rng, n, k: (_series(rng, n),)),
    ("best_split_regression", best_split_regression,
     lambda rng, n, k: (_xy(rng, n, k)[0], rng.standard_normal(n))),
    ("best_split_midpoints", best_split_midpoints,
     lambda rng, n, k: (_xy(rng, n, k)[0], rng.integers(0, 2, n))),
    ("per_feature_class_means", per_feature_class_means, lambda rng, n, k: _xy(rng, n, k)),
    ("first_close_pair", first_close_pair,
     lambda rng, n, k: (np.round(rng.standard_normal((min(n, 12), 2)), 1), 0.1 * k)),
    ("knn_votes", knn_votes,
     lambda rng, n, k: (_xy(rng, n, k)[0], _xy(rng, n, k)[1],
                        rng.standard_normal((3, 2)), 3)),
    ("class_threshold_table", class_threshold_table,
     lambda rng, n, k: _xy(rng, n, k, 3)),
]
