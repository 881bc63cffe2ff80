"""An eleventh corpus: everyday NumPy whose sizes the data decides, written the way
public code is written, before any of it was run under dynamo (issue #19, standing in
for the held-out suites), for break counts (``scripts/break_counts.py``,
docs/realworld.md) and differential tests (``test_heldout_corpus11.py``).

Run-length encoding and decoding, connected runs of a mask, group-by sums and means by
``np.unique(..., return_inverse=True)`` and ``np.bincount``, k-means and Lloyd steps
(comprehensions over classes, with and without a condition), a hand-written CSR from
COO, CSR mat-vec and duplicate summing, histogram equalization, peak finding, top-k by
``np.argpartition``, segment means, cumulative counts, one-hot and confusion matrices
sized by the data (``int(labels.max()) + 1``), offsets from counts.

For example ``PROGRAMS[0]`` is ``("rle_encode", rle_encode, (_RUNS,))``: the values and
lengths of the runs of an integer series.

``PROGRAMS`` lists ``(name, fn, args)`` (the arguments small and seeded);
``EDGE_ARGS`` maps a name to more argument sets of the same shapes whose data make the
sizes extreme: an empty mask, an all-true mask, one class. The module imports only
NumPy, so the scripts load it from its file and the tests import it by name.
"""

from __future__ import annotations

import numpy as np

_rng = np.random.default_rng(11011)

# ================================================================ runs


def rle_encode(x):
    n = len(x)
    change = np.flatnonzero(x[1:] != x[:-1]) + 1
    starts = np.r_[0, change]
    lengths = np.diff(np.r_[starts, n])
    return x[starts], lengths


def rle_decode(values, lengths):
    return np.repeat(values, lengths)


def true_runs(mask):
    d = np.diff(np.r_[0, mask.astype(np.int8), 0])
    starts = np.flatnonzero(d == 1)
    ends = np.flatnonzero(d == -1)
    return starts, ends - starts


def longest_true_run(mask):
    d = np.diff(np.concatenate([[0], mask.astype(np.int64), [0]]))
    starts = np.flatnonzero(d > 0)
    ends = np.flatnonzero(d < 0)
    return np.max(ends - starts, initial=0)


def run_pairs(mask):
    d = np.diff(np.r_[0, mask.astype(np.int8), 0])
    starts = np.flatnonzero(d == 1)
    ends = np.flatnonzero(d == -1)
    return [(int(s), int(e)) for s, e in zip(starts, ends)]


def run_lengths_edges(mask):
    edges = np.flatnonzero(np.diff(np.r_[0, mask.astype(np.int8), 0]))
    return edges[1::2] - edges[::2]


def segment_sums_from_starts(x, mask):
    starts = np.flatnonzero(mask)
    bounds = np.r_[starts, len(x)]
    return [x[a:b].sum() for a, b in zip(bounds[:-1], bounds[1:])]


def gaps_between_events(t, mask):
    times = t[mask]
    return np.diff(times)


def event_spacing(mask):
    idx = np.flatnonzero(mask)
    gaps = np.diff(idx)
    return gaps.sum(), gaps.size


def dedupe_sorted(x):
    x = np.sort(x)
    keep = np.r_[True, x[1:] != x[:-1]]
    return x[keep]


# ================================================================ group-by


def groupby_sum(keys, vals):
    uniq, inv = np.unique(keys, return_inverse=True)
    sums = np.zeros(len(uniq))
    np.add.at(sums, inv, vals)
    return uniq, sums


def groupby_mean(keys, vals):
    uniq, inv = np.unique(keys, return_inverse=True)
    return uniq, np.bincount(inv, weights=vals) / np.bincount(inv)


def demean_by_group(x, groups):
    _, inv = np.unique(groups, return_inverse=True)
    means = np.bincount(inv, x) / np.bincount(inv)
    return x - means[inv]


def counts_by_label(labels):
    k = int(labels.max()) + 1
    return np.bincount(labels, minlength=k)


def segment_means(values, seg_ids):
    n = int(seg_ids.max()) + 1
    sums = np.zeros(n)
    np.add.at(sums, seg_ids, values)
    counts = np.bincount(seg_ids, minlength=n)
    return sums / np.maximum(counts, 1)


def segment_means_reduceat(values, mask):
    starts = np.flatnonzero(mask)
    sums = np.add.reduceat(values, starts)
    return sums / np.diff(np.r_[starts, len(values)])


def value_counts(x):
    u, c = np.unique(x, return_counts=True)
    order = np.argsort(-c, kind="stable")
    return u[order], c[order]


def cumulative_counts(labels):
    n = len(labels)
    k = int(labels.max()) + 1
    oh = np.zeros((n, k))
    oh[np.arange(n), labels] = 1
    return oh.cumsum(0)[np.arange(n), labels]


def cumulative_unique_counts(x):
    _, counts = np.unique(x, return_counts=True)
    return np.cumsum(counts)


def first_occurrences(x):
    _, first = np.unique(x, return_index=True)
    return np.sort(first)


def label_encode_ints(x):
    uniq, inv = np.unique(x, return_inverse=True)
    return inv, len(uniq)


# ================================================================ clustering


def kmeans_step(X, centers):
    d2 = ((X[:, None, :] - centers[None, :, :]) ** 2).sum(-1)
    labels = d2.argmin(1)
    K = len(centers)
    new = np.array([X[labels == k].mean(0) if np.any(labels == k) else centers[k]
                     for k in range(K)])
    return new, labels


def lloyd_bincount(X, centers, iters=3):
    K, d = centers.shape
    for _ in range(iters):
        d2 = ((X[:, None, :] - centers[None]) ** 2).sum(-1)
        labels = d2.argmin(1)
        counts = np.bincount(labels, minlength=K)
        sums = np.zeros((K, d))
        np.add.at(sums, labels, X)
        centers = np.where(counts[:, None] > 0, sums / np.maximum(counts, 1)[:, None],
                           centers)
    return centers, labels


def class_sums(X, labels, K):
    return np.array([X[labels == k].sum(0) for k in range(K)])


def class_sizes(labels, K):
    return np.array([np.sum(labels == k) for k in range(K)])


def lloyd_max_quantizer(x, levels, iters=4):
    c = np.asarray(levels, dtype=float)
    for _ in range(iters):
        thresholds = (c[1:] + c[:-1]) / 2
        idx = np.searchsorted(thresholds, x)
        c = np.array([x[idx == k].mean() if np.any(idx == k) else c[k]
                      for k in range(len(c))])
    return c


def center_gram(centers):
    return [[float(np.dot(a, b)) for b in centers] for a in centers]


def inertia_per_cluster(X, centers):
    labels = ((X[:, None] - centers[None]) ** 2).sum(-1).argmin(1)
    return [float(((X[labels == k] - centers[k]) ** 2).sum()) for k in range(len(centers))]


# ================================================================ sparse by hand


def csr_from_coo(rows, cols, vals, n_rows):
    order = np.argsort(rows, kind="stable")
    counts = np.bincount(rows, minlength=n_rows)
    indptr = np.zeros(n_rows + 1, dtype=np.int64)
    indptr[1:] = np.cumsum(counts)
    return indptr, cols[order], vals[order]


def csr_matvec(indptr, indices, data, x):
    out = np.zeros(len(indptr) - 1)
    for i in range(len(indptr) - 1):
        lo, hi = indptr[i], indptr[i + 1]
        out[i] = np.dot(data[lo:hi], x[indices[lo:hi]])
    return out


def csr_from_dense(A):
    mask = A != 0
    data = A[mask]
    indices = np.nonzero(mask)[1]
    indptr = np.r_[0, np.cumsum(mask.sum(1))]
    return data, indices, indptr


def coo_sum_duplicates(rows, cols, vals, n_cols):
    keys = rows * n_cols + cols
    uniq, inv = np.unique(keys, return_inverse=True)
    summed = np.bincount(inv, weights=vals)
    return uniq // n_cols, uniq % n_cols, summed


def offsets_from_counts(counts):
    return np.concatenate([[0], np.cumsum(counts)])


def arange_total(counts):
    return np.arange(int(counts.sum()))


def zeros_of_total(counts):
    n_total = counts.sum()
    return np.zeros(int(n_total))


def repeat_owner(counts):
    return np.repeat(np.arange(len(counts)), counts)


# ================================================================ images, signals


def histogram_equalize(img):
    hist = np.bincount(img.ravel(), minlength=256)
    cdf = hist.cumsum()
    cdf_min = cdf[cdf > 0].min()
    lut = np.round((cdf - cdf_min) / max(cdf[-1] - cdf_min, 1) * 255)
    return lut[img].astype(np.uint8)


def histogram_equalize_levels(img):
    levels = int(img.max()) + 1
    hist = np.bincount(img.ravel(), minlength=levels)
    cdf = hist.cumsum() / img.size
    return cdf[img]


def find_peaks(x):
    idx = np.flatnonzero((x[1:-1] > x[:-2]) & (x[1:-1] > x[2:])) + 1
    return idx, x[idx]


def peaks_above(x, height):
    idx = np.flatnonzero((x[1:-1] > x[:-2]) & (x[1:-1] > x[2:])) + 1
    return idx[x[idx] > height]


def peak_distances(x):
    idx = np.flatnonzero((x[1:-1] > x[:-2]) & (x[1:-1] > x[2:])) + 1
    return np.diff(idx)


def threshold_crossings(x, level):
    above = x > level
    return np.flatnonzero(above[1:] & ~above[:-1]) + 1


def topk_argpartition(x, k):
    idx = np.argpartition(-x, k)[:k]
    return idx[np.argsort(-x[idx])]


def topk_per_row(X, k):
    idx = np.argpartition(X, -k, axis=1)[:, -k:]
    return np.take_along_axis(X, idx, 1).sum(1)


def bucket_counts(x, n_bins):
    edges = np.linspace(x.min(), x.max(), n_bins + 1)
    idx = np.clip(np.digitize(x, edges) - 1, 0, n_bins - 1)
    return np.bincount(idx, minlength=n_bins)


# ================================================================ labels as sizes


def one_hot_data(labels):
    k = int(labels.max()) + 1
    out = np.zeros((len(labels), k))
    out[np.arange(len(labels)), labels] = 1.0
    return out


def one_hot_eye(labels):
    return np.eye(int(labels.max()) + 1)[labels]


def confusion_from_data(y_true, y_pred):
    k = int(max(y_true.max(), y_pred.max())) + 1
    cm = np.zeros((k, k), dtype=np.int64)
    np.add.at(cm, (y_true, y_pred), 1)
    return cm


def class_feature_means(X, labels):
    k = int(labels.max()) + 1
    d = X.shape[1]
    sums = np.zeros((k, d))
    np.add.at(sums, labels, X)
    return sums / np.maximum(np.bincount(labels, minlength=k), 1)[:, None]


def masked_fill_rows(X, mask):
    out = X.copy()
    out[mask] = X[mask].mean(0) if mask.any() else 0.0
    return out


# ================================================================ the programs

_RUNS = _rng.integers(0, 3, 30)
_MASK = _rng.random(40) > 0.6
_NONE = np.zeros(40, dtype=bool)
_ALL = np.ones(40, dtype=bool)
_SER = _rng.normal(size=40)
_T = np.cumsum(_rng.random(40))
_KEYS = _rng.integers(0, 6, 40)
_VALS = _rng.normal(size=40)
_LABELS = _rng.integers(0, 4, 40)
_ONE_CLASS = np.zeros(40, dtype=np.int64)
_X = _rng.normal(size=(40, 3))
_CENT = _X[:4].copy()
_FAR = _CENT + np.array([100.0, 0.0, 0.0]) * (np.arange(4) > 0)[:, None]
_ROWS = _rng.integers(0, 6, 25)
_COLS = _rng.integers(0, 5, 25)
_CVALS = _rng.normal(size=25)
_A = np.where(_rng.random((6, 5)) > 0.6, _rng.normal(size=(6, 5)), 0.0)
_CSR = csr_from_dense(_A)
_COUNTS = _rng.integers(0, 4, 8)
_IMG = _rng.integers(0, 200, (8, 8))
_WAVE = np.sin(np.linspace(0, 6 * np.pi, 50)) + 0.2 * _rng.normal(size=50)

PROGRAMS = [
    ("rle_encode", rle_encode, (_RUNS,)),
    ("rle_decode", rle_decode, (np.array([3, 1, 2]), np.array([2, 0, 3]))),
    ("true_runs", true_runs, (_MASK,)),
    ("longest_true_run", longest_true_run, (_MASK,)),
    ("run_pairs", run_pairs, (_MASK,)),
    ("run_lengths_edges", run_lengths_edges, (_MASK,)),
    ("segment_sums_from_starts", segment_sums_from_starts, (_SER, _MASK)),
    ("gaps_between_events", gaps_between_events, (_T, _MASK)),
    ("event_spacing", event_spacing, (_MASK,)),
    ("dedupe_sorted", dedupe_sorted, (_KEYS,)),
    ("groupby_sum", groupby_sum, (_KEYS, _VALS)),
    ("groupby_mean", groupby_mean, (_KEYS, _VALS)),
    ("demean_by_group", demean_by_group, (_VALS, _KEYS)),
    ("counts_by_label", counts_by_label, (_LABELS,)),
    ("segment_means", segment_means, (_VALS, _LABELS)),
    ("segment_means_reduceat", segment_means_reduceat, (_SER, _MASK | (np.arange(40) == 0))),
    ("value_counts", value_counts, (_KEYS,)),
    ("cumulative_counts", cumulative_counts, (_LABELS,)),
    ("cumulative_unique_counts", cumulative_unique_counts, (_KEYS,)),
    ("first_occurrences", first_occurrences, (_KEYS,)),
    ("label_encode_ints", label_encode_ints, (_KEYS,)),
    ("kmeans_step", kmeans_step, (_X, _CENT)),
    ("lloyd_bincount", lloyd_bincount, (_X, _CENT)),
    ("class_sums", class_sums, (_X, _LABELS, 4)),
    ("class_sizes", class_sizes, (_LABELS, 4)),
    ("lloyd_max_quantizer", lloyd_max_quantizer, (_SER, [-1.0, 0.0, 1.0])),
    ("center_gram", center_gram, (_CENT,)),
    ("inertia_per_cluster", inertia_per_cluster, (_X, _CENT)),
    ("csr_from_coo", csr_from_coo, (_ROWS, _COLS, _CVALS, 6)),
    ("csr_matvec", csr_matvec, (_CSR[2], _CSR[1], _CSR[0], _rng.normal(size=5))),
    ("csr_from_dense", csr_from_dense, (_A,)),
    ("coo_sum_duplicates", coo_sum_duplicates, (_ROWS, _COLS, _CVALS, 5)),
    ("offsets_from_counts", offsets_from_counts, (_COUNTS,)),
    ("arange_total", arange_total, (_COUNTS,)),
    ("zeros_of_total", zeros_of_total, (_COUNTS,)),
    ("repeat_owner", repeat_owner, (_COUNTS,)),
    ("histogram_equalize", histogram_equalize, (_IMG,)),
    ("histogram_equalize_levels", histogram_equalize_levels, (_IMG,)),
    ("find_peaks", find_peaks, (_WAVE,)),
    ("peaks_above", peaks_above, (_WAVE, 0.5)),
    ("peak_distances", peak_distances, (_WAVE,)),
    ("threshold_crossings", threshold_crossings, (_WAVE, 0.0)),
    ("topk_argpartition", topk_argpartition, (_SER, 5)),
    ("topk_per_row", topk_per_row, (_X, 2)),
    ("bucket_counts", bucket_counts, (_SER, 6)),
    ("one_hot_data", one_hot_data, (_LABELS,)),
    ("one_hot_eye", one_hot_eye, (_LABELS,)),
    ("confusion_from_data", confusion_from_data, (_LABELS, _KEYS % 4)),
    ("class_feature_means", class_feature_means, (_X, _LABELS)),
    ("masked_fill_rows", masked_fill_rows, (_X, _MASK)),
]

# Same shapes, extreme data: the sizes become 0 or everything (empty and all-true masks,
# one class, one run).
EDGE_ARGS: dict[str, list[tuple]] = {
    "rle_encode": [(np.zeros(30, dtype=np.int64),), (np.arange(30),)],
    "true_runs": [(_NONE,), (_ALL,)],
    "longest_true_run": [(_NONE,), (_ALL,)],
    "run_pairs": [(_NONE,), (_ALL,)],
    "run_lengths_edges": [(_NONE,), (_ALL,)],
    "segment_sums_from_starts": [(_SER, _NONE), (_SER, _ALL)],
    "gaps_between_events": [(_T, _NONE), (_T, _ALL)],
    "event_spacing": [(_NONE,), (_ALL,)],
    "groupby_sum": [(np.zeros(40, dtype=np.int64), _VALS)],
    "counts_by_label": [(_ONE_CLASS,)],
    "segment_means": [(_VALS, _ONE_CLASS)],
    "segment_means_reduceat": [(_SER, _ALL)],
    "cumulative_counts": [(_ONE_CLASS,)],
    "kmeans_step": [(_X, _FAR)],
    "lloyd_bincount": [(_X, _FAR)],
    "class_sums": [(_X, _ONE_CLASS, 4)],
    "class_sizes": [(_ONE_CLASS, 4)],
    "arange_total": [(np.zeros(8, dtype=np.int64),)],
    "zeros_of_total": [(np.zeros(8, dtype=np.int64),)],
    "repeat_owner": [(np.zeros(8, dtype=np.int64),)],
    "find_peaks": [(np.arange(50.0),)],
    "peak_distances": [(np.arange(50.0),)],
    "threshold_crossings": [(np.full(50, -1.0), 0.0)],
    "one_hot_data": [(_ONE_CLASS,)],
    "one_hot_eye": [(_ONE_CLASS,)],
    "confusion_from_data": [(_ONE_CLASS, _ONE_CLASS)],
    "class_feature_means": [(_X, _ONE_CLASS)],
    "masked_fill_rows": [(_X, _NONE), (_X, _ALL)],
}
