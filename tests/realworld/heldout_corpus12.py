"""A twelfth corpus: everyday NumPy whose lengths the data decides, in pairs that are
equal in fact, written the way public code is written, before any of it was run under
dynamo (issue #19, standing in for the held-out suites), for break counts
(``scripts/break_counts.py``, docs/realworld.md) and differential tests
(``test_heldout_corpus12.py``).

Run-length encoding by the starts and ends of runs (two ``np.flatnonzero`` of one
diffed mask), segment sums and means, peak finding and plateau widths, interval
merging, sparse COO builds and duplicate sums, histogram equalization, group-by by
sort and diff, counts summed with ``np.bincount(k, minlength=n)``, padding and
stacking with ``np.r_`` / ``np.c_``, conditional comprehensions over arrays.

For example ``PROGRAMS[0]`` is ``("rle_starts_ends", rle_starts_ends, (_MASK,))``:
the starts and lengths of the True runs of a mask.

``PROGRAMS`` lists ``(name, fn, args)`` (the arguments small and seeded);
``EDGE_ARGS`` maps a name to more argument sets of the same shapes whose data make the
sizes extreme: an empty mask, an all-true mask, one class. The module imports only
NumPy, so the scripts load it from its file and the tests import it by name.
"""

from __future__ import annotations

import numpy as np

_rng = np.random.default_rng(12012)

# ================================================================ runs


def rle_starts_ends(mask):
    d = np.diff(np.r_[0, mask.astype(np.int8), 0])
    starts = np.flatnonzero(d == 1)
    ends = np.flatnonzero(d == -1)
    return starts, ends - starts


def rle_mean_run(mask):
    padded = np.concatenate(([False], mask, [False]))
    d = np.diff(padded.astype(np.int64))
    starts, = np.nonzero(d == 1)
    ends, = np.nonzero(d == -1)
    lengths = ends - starts
    return lengths.sum() / max(len(lengths), 1)


def rle_values(x):
    change = np.flatnonzero(np.diff(x)) + 1
    starts = np.r_[0, change]
    ends = np.r_[change, len(x)]
    return x[starts], ends - starts


def run_intervals(mask):
    d = np.diff(np.r_[0, mask.astype(np.int8), 0])
    starts = np.flatnonzero(d > 0)
    ends = np.flatnonzero(d < 0)
    return np.c_[starts, ends]


def run_sums(x, mask):
    d = np.diff(np.r_[0, mask.astype(np.int8), 0])
    starts = np.flatnonzero(d == 1)
    ends = np.flatnonzero(d == -1)
    cs = np.r_[0.0, np.cumsum(x)]
    return cs[ends] - cs[starts]


def longest_run_start(mask):
    d = np.diff(np.r_[0, mask.astype(np.int8), 0])
    starts = np.flatnonzero(d == 1)
    ends = np.flatnonzero(d == -1)
    lengths = ends - starts
    return np.max(lengths, initial=0), lengths.argmax() if lengths.size else -1


def masked_difference(a, b, thresh):
    m = a > thresh
    return a[m] - b[m]


def weighted_selection(x, w):
    m = np.isfinite(x)
    return (x[m] * w[m]).sum() / w[m].sum()


def recomputed_mask_product(x, w):
    return x[x > 0] * w[x > 0]


# ================================================================ segments


def segment_sums(values, seg_ids):
    n = int(seg_ids.max()) + 1
    out = np.zeros(n)
    return out + np.bincount(seg_ids, weights=values, minlength=n)


def segment_counts_plus(seg_ids):
    n = int(seg_ids.max()) + 1
    base = np.ones(n)
    return base + np.bincount(seg_ids, minlength=n)


def segment_sums_by_starts(x, mask):
    starts = np.flatnonzero(mask)
    if starts.size == 0:
        return np.zeros(0)
    return np.add.reduceat(x, starts)


def groupby_sort_diff(keys, vals):
    order = np.argsort(keys, kind="stable")
    k, v = keys[order], vals[order]
    flag = np.r_[True, k[1:] != k[:-1]]
    starts = np.flatnonzero(flag)
    return k[starts], np.add.reduceat(v, starts)


def groupby_first_last(keys):
    k = np.sort(keys)
    first = np.flatnonzero(np.r_[True, k[1:] != k[:-1]])
    last = np.flatnonzero(np.r_[k[1:] != k[:-1], True])
    return k[first], last - first + 1


def group_sizes_unique(keys):
    _, counts = np.unique(keys, return_counts=True)
    return counts


# ================================================================ peaks


def local_maxima(x):
    mid = x[1:-1]
    peaks = np.flatnonzero((mid > x[:-2]) & (mid > x[2:])) + 1
    return peaks, x[peaks]


def peak_prominence_simple(x):
    mid = x[1:-1]
    peaks = np.flatnonzero((mid > x[:-2]) & (mid >= x[2:])) + 1
    left = x[peaks - 1]
    right = x[peaks + 1]
    return x[peaks] - np.maximum(left, right)


def plateau_widths(x, level):
    above = x > level
    d = np.diff(np.r_[0, above.astype(np.int8), 0])
    rises = np.flatnonzero(d == 1)
    falls = np.flatnonzero(d == -1)
    return [int(f - r) for r, f in zip(rises, falls)]


def threshold_crossings(x, level):
    s = np.sign(x - level)
    up = np.flatnonzero((s[:-1] < 0) & (s[1:] >= 0))
    return up + 1


# ================================================================ intervals


def merge_intervals(starts, ends):
    order = np.argsort(starts, kind="stable")
    s, e = starts[order], ends[order]
    run_end = np.maximum.accumulate(e)
    new = np.r_[True, s[1:] > run_end[:-1]]
    first = np.flatnonzero(new)
    last = np.r_[first[1:] - 1, len(s) - 1]
    return np.c_[s[first], run_end[last]]


def interval_coverage(starts, ends, n):
    cover = np.zeros(n + 1, dtype=np.int64)
    np.add.at(cover, starts, 1)
    np.add.at(cover, ends, -1)
    return np.cumsum(cover[:-1]) > 0


def gaps_between_intervals(starts, ends):
    order = np.argsort(starts)
    s, e = starts[order], ends[order]
    gap = s[1:] - e[:-1]
    return gap[gap > 0]


# ================================================================ sparse


def coo_sum_duplicates(rows, cols, vals, ncols):
    keys = rows * ncols + cols
    uniq, inv = np.unique(keys, return_inverse=True)
    summed = np.zeros(len(uniq))
    np.add.at(summed, inv, vals)
    return uniq // ncols, uniq % ncols, summed


def coo_from_dense(A):
    r, c = np.nonzero(A)
    return r, c, A[r, c]


def coo_matvec(rows, cols, vals, x, n):
    y = np.zeros(n)
    np.add.at(y, rows, vals * x[cols])
    return y


def csr_indptr(rows, n):
    counts = np.bincount(rows, minlength=n)
    return np.r_[0, np.cumsum(counts)]


def coo_drop_small(rows, cols, vals, tol):
    keep = np.abs(vals) > tol
    return rows[keep], cols[keep], vals[keep] * 2.0


# ================================================================ histograms


def hist_equalize(img):
    hist = np.bincount(img.ravel(), minlength=256)
    cdf = np.cumsum(hist)
    cdf_min = cdf[cdf > 0][0] if np.any(cdf > 0) else 0
    lut = np.round((cdf - cdf_min) / max(cdf[-1] - cdf_min, 1) * 255)
    return lut[img]


def hist_counts_merge(a, b):
    n = int(max(a.max(), b.max())) + 1
    return np.zeros(n) + np.bincount(a, minlength=n) + np.bincount(b, minlength=n)


def normalized_hist(labels):
    k = int(labels.max()) + 1
    total = np.zeros(k)
    total += np.bincount(labels, minlength=k)
    return total / total.sum()


# ================================================================ padding, r_ and c_


def pad_with_r(x):
    return np.r_[0.0, x, 0.0]


def pad_edges_r(x):
    return np.r_[x[0], x, x[-1]]


def join_r(a, b):
    return np.r_[a, b]


def columns_c(a, b):
    return np.c_[a, b]


def moving_average_r(x, k):
    c = np.cumsum(np.r_[0.0, x])
    return (c[k:] - c[:-k]) / k


# ================================================================ comprehensions


def log_of_positives(xs):
    return [np.log(v) for v in xs if v > 0]


def sqrt_of_valid(xs):
    return np.array([np.sqrt(v) for v in xs if v >= 0])


def means_of_nonempty(X, labels, k):
    return [X[labels == c].mean(axis=0) for c in range(k) if np.any(labels == c)]


# ================================================================ data

_MASK = _rng.random(40) > 0.45
_NONE = np.zeros(40, dtype=bool)
_ALL = np.ones(40, dtype=bool)
_SER = _rng.standard_normal(40)
_RUNS = np.repeat(_rng.integers(0, 4, 12), _rng.integers(1, 5, 12))
_KEYS = _rng.integers(0, 6, 40)
_VALS = _rng.standard_normal(40)
_LABELS = _rng.integers(0, 5, 40)
_ONE_CLASS = np.zeros(40, dtype=np.int64)
_SIGNAL = np.sin(np.linspace(0, 12, 60)) + 0.1 * _rng.standard_normal(60)
_IV_STARTS = _rng.integers(0, 50, 12)
_IV_ENDS = _IV_STARTS + _rng.integers(1, 8, 12)
_ROWS = _rng.integers(0, 6, 30)
_COLS = _rng.integers(0, 5, 30)
_COO_VALS = _rng.standard_normal(30)
_DENSE = np.where(_rng.random((6, 5)) > 0.6, _rng.standard_normal((6, 5)), 0.0)
_IMG = _rng.integers(0, 256, (8, 8))
_X2 = _rng.standard_normal((40, 3))
_NAN_SER = np.where(_rng.random(40) > 0.8, np.nan, _SER)

PROGRAMS = [
    ("rle_starts_ends", rle_starts_ends, (_MASK,)),
    ("rle_mean_run", rle_mean_run, (_MASK,)),
    ("rle_values", rle_values, (_RUNS,)),
    ("run_intervals", run_intervals, (_MASK,)),
    ("run_sums", run_sums, (_SER, _MASK)),
    ("longest_run_start", longest_run_start, (_MASK,)),
    ("masked_difference", masked_difference, (_SER, _VALS, 0.1)),
    ("weighted_selection", weighted_selection, (_NAN_SER, np.abs(_VALS))),
    ("recomputed_mask_product", recomputed_mask_product, (_SER, _VALS)),
    ("segment_sums", segment_sums, (_VALS, _LABELS)),
    ("segment_counts_plus", segment_counts_plus, (_LABELS,)),
    ("segment_sums_by_starts", segment_sums_by_starts, (_SER, _MASK)),
    ("groupby_sort_diff", groupby_sort_diff, (_KEYS, _VALS)),
    ("groupby_first_last", groupby_first_last, (_KEYS,)),
    ("group_sizes_unique", group_sizes_unique, (_KEYS,)),
    ("local_maxima", local_maxima, (_SIGNAL,)),
    ("peak_prominence_simple", peak_prominence_simple, (_SIGNAL,)),
    ("plateau_widths", plateau_widths, (_SIGNAL, 0.3)),
    ("threshold_crossings", threshold_crossings, (_SIGNAL, 0.0)),
    ("merge_intervals", merge_intervals, (_IV_STARTS, _IV_ENDS)),
    ("interval_coverage", interval_coverage, (_IV_STARTS, _IV_ENDS, 60)),
    ("gaps_between_intervals", gaps_between_intervals, (_IV_STARTS, _IV_ENDS)),
    ("coo_sum_duplicates", coo_sum_duplicates, (_ROWS, _COLS, _COO_VALS, 5)),
    ("coo_from_dense", coo_from_dense, (_DENSE,)),
    ("coo_matvec", coo_matvec, (_ROWS, _COLS, _COO_VALS, _rng.standard_normal(5), 6)),
    ("csr_indptr", csr_indptr, (_ROWS, 6)),
    ("coo_drop_small", coo_drop_small, (_ROWS, _COLS, _COO_VALS, 0.5)),
    ("hist_equalize", hist_equalize, (_IMG,)),
    ("hist_counts_merge", hist_counts_merge, (_LABELS, _KEYS)),
    ("normalized_hist", normalized_hist, (_LABELS,)),
    ("pad_with_r", pad_with_r, (_SER,)),
    ("pad_edges_r", pad_edges_r, (_SER,)),
    ("join_r", join_r, (_SER, _VALS[:7])),
    ("columns_c", columns_c, (_SER, _VALS)),
    ("moving_average_r", moving_average_r, (_SER, 4)),
    ("log_of_positives", log_of_positives, (_SER[:12],)),
    ("sqrt_of_valid", sqrt_of_valid, (_SER[:12],)),
    ("means_of_nonempty", means_of_nonempty, (_X2, _LABELS, 6)),
]

EDGE_ARGS: dict[str, list[tuple]] = {
    "rle_starts_ends": [(_NONE,), (_ALL,)],
    "rle_mean_run": [(_NONE,), (_ALL,)],
    "rle_values": [(np.zeros(30, dtype=np.int64),), (np.arange(30),)],
    "run_intervals": [(_NONE,), (_ALL,)],
    "run_sums": [(_SER, _NONE), (_SER, _ALL)],
    "longest_run_start": [(_NONE,), (_ALL,)],
    "masked_difference": [(_SER, _VALS, 99.0), (_SER, _VALS, -99.0)],
    "recomputed_mask_product": [(-np.abs(_SER), _VALS)],
    "segment_sums": [(_VALS, _ONE_CLASS)],
    "segment_counts_plus": [(_ONE_CLASS,)],
    "segment_sums_by_starts": [(_SER, _NONE), (_SER, _ALL)],
    "groupby_sort_diff": [(np.zeros(40, dtype=np.int64), _VALS)],
    "groupby_first_last": [(np.zeros(40, dtype=np.int64),), (np.arange(40),)],
    "plateau_widths": [(_SIGNAL, 9.0), (_SIGNAL, -9.0)],
    "hist_counts_merge": [(_ONE_CLASS, _ONE_CLASS)],
    "normalized_hist": [(_ONE_CLASS,)],
    "coo_drop_small": [(_ROWS, _COLS, _COO_VALS, 99.0)],
    "log_of_positives": [(-np.abs(_SER[:12]),)],
}
