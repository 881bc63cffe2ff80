"""Everyday NumPy functions of the kinds that used to break (issue #19), written fresh:
each must compile to one graph with no break and give eager's results on the eager and
numpy backends (``test_no_breaks.py``).

The kinds: static facts computed by calls (``np.finfo``, ``np.iinfo``, ``np.shape``,
``np.ndim``, ``np.ogrid``/``np.mgrid``, ``max`` of 0-d arrays), comprehensions over run-time
lengths, ``zip``/``enumerate``/``map`` of known things, ``raise`` inside ``try``, ops that
were missing (``np.cov``, ``np.average``, ``np.kron``, ``np.gradient``, ``np.isin``,
``np.delete``, ``np.add.reduceat``, ``np.linalg.multi_dot``, ``np.partition``, ...),
data-dependent sizes (masks, ``np.unique``, ``np.nonzero``), ``int()`` of a computed
index used to index an array, and random draws that return a Python number
(``np.random.randint(n)``, ``rng.choice(n, p=p)``) used as an index.

    >>> name, fn, args = PROGRAMS[0]
    >>> fn(*args)        # plain Python; the test compares it with the compiled call
"""

from __future__ import annotations

import numpy as np


def safe_log_ratio(p, q):
    """KL divergence with an epsilon from the dtype's own machine precision."""
    eps = np.finfo(p.dtype).eps
    p = np.clip(p, eps, None)
    q = np.clip(q, eps, None)
    return np.sum(p * np.log(p / q)), eps


def quantize_to_int16(x):
    info = np.iinfo(np.int16)
    scale = np.max(np.abs(x)) / info.max
    q = np.clip(np.round(x / scale), info.min, info.max).astype(np.int16)
    return q, scale


def batch_flatten(x):
    """Shape facts read through the functions, not the attributes."""
    n = np.shape(x)[0]
    rest = np.size(x) // n
    return np.reshape(x, (n, rest)), np.ndim(x)


def radial_weights(img):
    yy, xx = np.ogrid[:img.shape[0], :img.shape[1]]
    cy, cx = (img.shape[0] - 1) / 2, (img.shape[1] - 1) / 2
    w = np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / 8.0)
    return (img * w).sum() / w.sum()


def grid_eval(coef):
    gx, gy = np.mgrid[0:4, 0:5]
    return coef[0] + coef[1] * gx + coef[2] * gy ** 2


def larger_norm(a, b):
    return max(np.linalg.norm(a), np.linalg.norm(b)), min(a.sum(), b.sum())


def pairwise_rows(x):
    """A comprehension over a length known only from the argument's shape."""
    return np.array([np.dot(x[i], x[i + 1]) for i in range(len(x) - 1)])


def weighted_layers(x, weights=(0.5, 1.5, 2.0)):
    out = np.zeros_like(x)
    for i, (w, f) in enumerate(zip(weights, (np.sin, np.cos, np.tanh))):
        out += w * f(x + i)
    return out, sum(map(float, weights))


def checked_normalize(x):
    """A ``raise`` inside ``try`` the function catches itself."""
    try:
        if x.ndim != 2:
            raise ValueError("expected a matrix")
        norms = np.linalg.norm(x, axis=1, keepdims=True)
    except ValueError:
        norms = np.ones((1, 1))
    return x / np.maximum(norms, 1e-12)


def feature_stats(X):
    c = np.cov(X, rowvar=False)
    r = np.corrcoef(X, rowvar=False)
    return c, r, np.average(X, axis=0, weights=np.arange(1, X.shape[0] + 1))


def block_matrix(A, B):
    z = np.zeros((A.shape[0], B.shape[1]))
    return np.block([[A, z], [z.T, B]]), np.kron(A, np.eye(2))


def edit_series(x):
    y = np.append(x, x[-1] * 2)
    y = np.insert(y, 1, -1.0)
    return np.delete(y, [0, 2])


def slope_and_area(y, dx=0.25):
    return np.gradient(y, dx), np.trapezoid(y, dx=dx)


def members_mask(labels, keep=(1, 3)):
    m = np.isin(labels, keep)
    return np.where(m, labels, -1), m.sum()


def k_smallest(x, k=3):
    part = np.partition(x, k)[:k]
    return np.sort(part)


def chain_product(a, b, c):
    return np.linalg.multi_dot([a, b, c]), np.cross(a[:, :3], a[::-1, 1:])


def segment_sums(x, starts=(0, 3, 7)):
    return np.add.reduceat(x, list(starts)), np.maximum.reduceat(x, list(starts))


def upper_pairs(D):
    r, c = np.triu_indices(D.shape[0], k=1)
    return D[r, c], np.tril_indices(3)


def positive_part_stats(x):
    """Boolean-mask reads and writes: sizes known only when the graph runs."""
    pos = x[x > 0]
    y = x.copy()
    y[y < 0] = 0.0
    return pos.mean(), pos.size, y, np.flatnonzero(x > 0.5)


def label_counts(labels):
    vals, counts = np.unique(labels, return_counts=True)
    return vals, counts, counts / counts.sum()


def argmax_row(scores, table):
    """``int()`` of a computed index, used only to index arrays."""
    k = int(np.argmax(scores))
    best = table[k]
    table[k, 0] = -1.0
    return best, scores[k], k


def nearest_center(x, centers):
    d = np.linalg.norm(centers - x, axis=1)
    i = int(np.argmin(d))
    return centers[i], d[i]


def shape_report(x):
    """A name made of static values (str, f-string) used as a dict key."""
    key = f"{x.ndim}d_{'x'.join(str(s) for s in x.shape)}"
    return {key: x.mean(), str(x.dtype): x.dtype.itemsize}



def sgd_random_samples(X, y, w, steps=6, lr=0.1):
    """Stochastic gradient steps on one sample picked by ``np.random.randint`` each."""
    np.random.seed(7)
    for _ in range(steps):
        i = np.random.randint(len(X))
        w = w - lr * (X[i] @ w - y[i]) * X[i]
    return w


def weighted_pick(X, rng):
    """A row drawn with probabilities (``rng.choice(n, p=p)``: a Python int)."""
    d = np.linalg.norm(X - X.mean(axis=0), axis=1)
    first = X[rng.choice(len(X))]
    second = X[rng.choice(len(X), p=d / d.sum())]
    return first, second, rng.random()


PROGRAMS = [
    ("safe_log_ratio", safe_log_ratio,
     (np.array([0.2, 0.3, 0.5, 0.0]), np.array([0.25, 0.25, 0.25, 0.25]))),
    ("quantize_to_int16", quantize_to_int16, (np.linspace(-3, 2, 11),)),
    ("batch_flatten", batch_flatten, (np.arange(24.0).reshape(2, 3, 4),)),
    ("radial_weights", radial_weights, (np.arange(30.0).reshape(5, 6),)),
    ("grid_eval", grid_eval, (np.array([1.0, 0.5, -0.25]),)),
    ("larger_norm", larger_norm, (np.arange(4.0), np.ones(4))),
    ("pairwise_rows", pairwise_rows, (np.arange(15.0).reshape(5, 3),)),
    ("weighted_layers", weighted_layers, (np.linspace(0, 1, 6),)),
    ("checked_normalize", checked_normalize, (np.arange(12.0).reshape(4, 3),)),
    ("feature_stats", feature_stats, (np.sin(np.arange(20.0)).reshape(5, 4),)),
    ("block_matrix", block_matrix, (np.eye(2) * 3, np.arange(9.0).reshape(3, 3))),
    ("edit_series", edit_series, (np.arange(6.0),)),
    ("slope_and_area", slope_and_area, (np.linspace(0, 2, 9) ** 2,)),
    ("members_mask", members_mask, (np.array([0, 1, 2, 3, 1, 3, 4]),)),
    ("k_smallest", k_smallest, (np.array([5.0, 1.0, 4.0, 2.0, 8.0, 0.5]),)),
    ("chain_product", chain_product,
     (np.arange(12.0).reshape(3, 4), np.ones((4, 2)), np.arange(6.0).reshape(2, 3))),
    ("segment_sums", segment_sums, (np.arange(10.0),)),
    ("upper_pairs", upper_pairs, (np.arange(16.0).reshape(4, 4),)),
    ("positive_part_stats", positive_part_stats, (np.linspace(-1, 2, 13),)),
    ("label_counts", label_counts, (np.array([2, 0, 2, 1, 2, 0]),)),
    ("argmax_row", argmax_row,
     (np.array([0.1, 0.9, 0.3]), np.arange(12.0).reshape(3, 4))),
    ("nearest_center", nearest_center,
     (np.array([1.0, 1.0]), np.array([[0.0, 0.0], [1.2, 0.9], [3.0, 3.0]]))),
    ("shape_report", shape_report, (np.ones((2, 3), dtype=np.float32),)),
    ("sgd_random_samples", sgd_random_samples,
     (np.arange(12.0).reshape(4, 3) / 10, np.arange(4.0), np.zeros(3))),
    ("weighted_pick", weighted_pick,
     (np.arange(10.0).reshape(5, 2) ** 1.5, np.random.default_rng(3))),
]
