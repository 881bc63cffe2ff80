"""Loops whose trip count only the data decides (issue #19): ``for c in np.unique(y)``,
``for k in range(len(classes))``, ``for count in np.bincount(y)``: per-class
statistics, per-cluster means, per-label losses, per-group aggregation, tree split
search, histograms per category. Written before any of them ran under dynamo, the way
such code is written in NumPy programs (results built per trip: a list appended per
class, a stacked array, a running sum, a preallocated array of ``len(classes)`` rows).

``PROGRAMS``: (name, fn, make_args). ``make_args`` gives fresh arguments each call;
``ARG_VARIANTS`` gives other data for the same program (another number of classes,
int32 labels, float32 data, a class with one member, labels that make NumPy raise).

Example::

    >>> name, fn, make_args = PROGRAMS[0]
    >>> fn(*make_args()).shape
    (4, 3)
"""

from __future__ import annotations

import numpy as np


def _data(n=60, d=3, k=4, seed=0, dtype=np.float64, label_dtype=np.int64):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)).astype(dtype)
    y = (np.arange(n) % k).astype(label_dtype)
    rng.shuffle(y)
    return X, y


# ------------------------------------------------------------ per-class statistics
def class_means_list(X, y):
    means = []
    for c in np.unique(y):
        means.append(X[y == c].mean(axis=0))
    return np.array(means)


def class_means_prealloc(X, y):
    classes = np.unique(y)
    out = np.zeros((len(classes), X.shape[1]))
    for i in range(len(classes)):
        out[i] = X[y == classes[i]].mean(axis=0)
    return out


def class_var_enumerate(X, y):
    classes = np.unique(y)
    var = np.empty((len(classes), X.shape[1]), dtype=X.dtype)
    for i, c in enumerate(classes):
        var[i] = X[y == c].var(axis=0)
    return classes, var


def class_priors_comprehension(y):
    classes = np.unique(y)
    return np.array([np.mean(y == c) for c in classes])


def naive_bayes_fit_predict(X, y, Xt):
    classes = np.unique(y)
    mu = np.stack([X[y == c].mean(0) for c in classes])
    sd = np.stack([X[y == c].std(0) for c in classes]) + 1e-6
    ll = -(((Xt[:, None, :] - mu[None]) / sd[None]) ** 2).sum(-1) - np.log(sd).sum(-1)
    return classes[np.argmax(ll, axis=1)]


# ------------------------------------------------------------ per-cluster means
def cluster_centroids(X, labels):
    k = labels.max() + 1
    cents = []
    for j in range(k):
        cents.append(X[labels == j].mean(axis=0))
    return np.vstack(cents)


def cluster_sse_running_sum(X, labels):
    total = 0.0
    for j in np.unique(labels):
        pts = X[labels == j]
        total = total + ((pts - pts.mean(0)) ** 2).sum()
    return total


# ------------------------------------------------------------ per-label loss
def per_label_mse(pred, target, labels):
    losses = []
    for lab in np.unique(labels):
        m = labels == lab
        losses.append(np.mean((pred[m] - target[m]) ** 2))
    return np.array(losses)


def per_label_accuracy(y_true, y_pred):
    accs = [np.mean(y_pred[y_true == c] == c) for c in np.unique(y_true)]
    return np.array(accs), float(np.mean(accs))


# ------------------------------------------------------------ per-group aggregation
def group_sums_bincount_loop(values, groups):
    counts = np.bincount(groups)
    sums = np.zeros(len(counts))
    for g in range(len(counts)):
        sums[g] = values[groups == g].sum()
    return sums, counts


def group_max(values, groups):
    keys = np.unique(groups)
    out = np.full(len(keys), -np.inf)
    for i, key in enumerate(keys):
        out[i] = values[groups == key].max()
    return keys, out


def nonempty_group_means(values, groups):
    means = []
    for g, count in enumerate(np.bincount(groups)):
        means.append(values[groups == g].sum() / count)
    return np.array(means)


# ------------------------------------------------------------ tree split search
def gini_of(y):
    _, counts = np.unique(y, return_counts=True)
    p = counts / counts.sum()
    return 1.0 - np.sum(p ** 2)


def best_threshold_one_feature(x, y):
    best, best_t = np.inf, None
    for t in np.unique(x)[:-1]:
        left = x <= t
        score = left.sum() * gini_of(y[left]) + (~left).sum() * gini_of(y[~left])
        if score < best:
            best, best_t = score, t
    return best_t, best


def entropy_of_counts(y):
    hist = np.bincount(y)
    ps = hist / hist.sum()
    h = 0.0
    for p in ps:
        if p > 0:
            h -= p * np.log2(p)
    return h


# ------------------------------------------------------------ histograms per category
def histogram_per_category(x, cat, bins):
    rows = []
    for c in np.unique(cat):
        h, _ = np.histogram(x[cat == c], bins=bins, range=(-3.0, 3.0))
        rows.append(h)
    return np.stack(rows)


def category_quantiles(x, cat):
    qs = []
    for c in np.unique(cat):
        qs.append(np.quantile(x[cat == c], [0.25, 0.5, 0.75]))
    return np.asarray(qs)


def one_vs_rest_scores(X, y, w):
    scores = np.zeros((X.shape[0], len(np.unique(y))))
    for k, c in enumerate(np.unique(y)):
        target = np.where(y == c, 1.0, -1.0)
        scores[:, k] = X @ w * target
    return scores


def confusion_by_loop(y_true, y_pred):
    labels = np.unique(np.concatenate([y_true, y_pred]))
    n = len(labels)
    cm = np.zeros((n, n), dtype=np.int64)
    for i in range(n):
        for j in range(n):
            cm[i, j] = np.sum((y_true == labels[i]) & (y_pred == labels[j]))
    return cm


def _nb_args():
    X, y = _data(80, 3, 3, seed=1)
    return X, y, _data(10, 3, 3, seed=2)[0]


def _cluster_args():
    X, y = _data(50, 2, 5, seed=3)
    return X, y


def _loss_args():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 4, 40)
    return rng.standard_normal(40), rng.standard_normal(40), y


def _acc_args():
    rng = np.random.default_rng(5)
    return rng.integers(0, 3, 30), rng.integers(0, 3, 30)


def _group_args():
    rng = np.random.default_rng(6)
    return rng.standard_normal(50), rng.integers(0, 6, 50)


def _split_args():
    rng = np.random.default_rng(7)
    x = np.round(rng.standard_normal(30), 1)
    return x, (x + 0.3 * rng.standard_normal(30) > 0).astype(np.int64)


def _hist_args():
    rng = np.random.default_rng(8)
    return rng.standard_normal(60), rng.integers(0, 3, 60), 5


PROGRAMS = [
    ("class_means_list", class_means_list, lambda: _data()),
    ("class_means_prealloc", class_means_prealloc, lambda: _data(k=3)),
    ("class_var_enumerate", class_var_enumerate, lambda: _data(k=5)),
    ("class_priors_comprehension", class_priors_comprehension, lambda: (_data(k=4)[1],)),
    ("naive_bayes_fit_predict", naive_bayes_fit_predict, _nb_args),
    ("cluster_centroids", cluster_centroids, _cluster_args),
    ("cluster_sse_running_sum", cluster_sse_running_sum, _cluster_args),
    ("per_label_mse", per_label_mse, _loss_args),
    ("per_label_accuracy", per_label_accuracy, _acc_args),
    ("group_sums_bincount_loop", group_sums_bincount_loop, _group_args),
    ("group_max", group_max, _group_args),
    ("nonempty_group_means", nonempty_group_means, _group_args),
    ("best_threshold_one_feature", best_threshold_one_feature, _split_args),
    ("entropy_of_counts", entropy_of_counts, lambda: (_split_args()[1],)),
    ("histogram_per_category", histogram_per_category, _hist_args),
    ("category_quantiles", category_quantiles, lambda: _hist_args()[:2]),
    ("one_vs_rest_scores", one_vs_rest_scores,
     lambda: (*_data(20, 3, 3, seed=9), np.ones(3))),
    ("confusion_by_loop", confusion_by_loop, _acc_args),
]

# other data for some programs: another count of classes, int32 labels, float32 data,
# a class with one member, an empty group (0 / 0: NumPy's RuntimeWarning and nan)
ARG_VARIANTS = [
    ("class_means_list", lambda: _data(30, 2, 7, dtype=np.float32, label_dtype=np.int32)),
    ("class_means_prealloc", lambda: (np.arange(6.0).reshape(3, 2),
                                      np.array([0, 5, 5]))),
    ("class_var_enumerate", lambda: _data(12, 4, 2, dtype=np.float32)),
    ("cluster_centroids", lambda: (np.ones((4, 2)), np.array([0, 0, 3, 3]))),
    ("nonempty_group_means", lambda: (np.arange(5.0), np.array([0, 2, 2, 4, 4]))),
    ("group_max", lambda: (np.arange(4, dtype=np.int32), np.array([1, 1, 1, 1]))),
    ("entropy_of_counts", lambda: (np.array([3, 3, 3]),)),
    ("histogram_per_category", lambda: (np.zeros(5), np.array([2, 2, 2, 2, 2]), 3)),
]
