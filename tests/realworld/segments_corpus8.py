"""An eighth corpus: segments, machine limits and polynomial objects as everyday NumPy
code has them (issue #19), for break counts (``scripts/break_counts.py``,
docs/realworld.md) and differential tests (``test_segments_corpus8.py``).

Kinds: slices whose bounds are read from arrays (CSR rows and their sums, norms and
argmaxes, ragged lists of segments, ``x[:n]`` with ``n = int(counts[0])``, windows
``x[start[i]:stop[i]]``, the rows of a sorted group), ``np.finfo``/``np.iinfo``
objects passed in or held in a config object or a global (safe logs, relative
tolerances, clipping to an integer range), and objects that cannot be hashed (a
configuration class with ``__eq__``, a dataclass, ``np.poly1d`` and ``np.polyval``).

For example ``PROGRAMS[0]`` is ``("csr_row_sums", csr_row_sums, (data, indptr))``: the
sum of each CSR row.

``PROGRAMS`` lists ``(name, fn, args)``; the arguments are small and seeded. The module
imports only NumPy, so the scripts load it from its file and the tests import it by name.
"""

from __future__ import annotations

import dataclasses

import numpy as np

_rng = np.random.default_rng(8008)


# ================================================================ CSR rows and segments


def csr_row_sums(data, indptr):
    out = np.zeros(len(indptr) - 1)
    for i in range(len(indptr) - 1):
        out[i] = data[indptr[i]:indptr[i + 1]].sum()
    return out


def csr_row_norms(data, indptr):
    norms = []
    for i in range(len(indptr) - 1):
        row = data[indptr[i]:indptr[i + 1]]
        norms.append(np.sqrt(np.dot(row, row)))
    return np.array(norms)


def csr_matvec(data, indices, indptr, v):
    y = np.zeros(len(indptr) - 1)
    for i in range(len(indptr) - 1):
        lo, hi = indptr[i], indptr[i + 1]
        y[i] = np.dot(data[lo:hi], v[indices[lo:hi]])
    return y


def csr_row_max(data, indptr):
    out = np.full(len(indptr) - 1, -np.inf)
    for i in range(len(indptr) - 1):
        out[i] = data[indptr[i]:indptr[i + 1]].max(initial=-np.inf)
    return out


def segment_means(values, offsets):
    means = np.zeros(len(offsets) - 1)
    for k in range(len(offsets) - 1):
        seg = values[offsets[k]:offsets[k + 1]]
        means[k] = seg.sum() / max(seg.size, 1)
    return means


def ragged_to_list(flat, lengths):
    ends = np.cumsum(lengths)
    starts = ends - lengths
    return [flat[starts[i]:ends[i]] * 1.0 for i in range(len(lengths))]


def head_by_count(x, counts):
    n = int(counts[0])
    return x[:n] * 2.0


def keep_valid_prefix(samples, n_valid):
    kept = samples[:n_valid[0]]
    return kept - kept.mean() if kept.size else kept


def window_between(signal, start, stop):
    w = signal[start[0]:stop[0]]
    return np.abs(w).sum(), w.max(initial=0.0)


def last_k_rows(X, k):
    return X[-k[0]:].mean(axis=0)


def sorted_group_sums(keys, values):
    order = np.argsort(keys, kind="stable")
    k, v = keys[order], values[order]
    bounds = np.searchsorted(k, np.array([0, 1, 2, 3]))
    return [v[bounds[i]:bounds[i + 1]].sum() for i in range(3)]


def cumulative_segments(x, cuts):
    c = np.cumsum(x)
    return c[cuts[0]:cuts[1]] - c[cuts[0]]


# ================================================================ machine limits


# (np.finfo objects cannot be deep-copied, as the harness copies arguments: they come
# as default values, from a global and from a config object, as library code has them)
FLOAT64, INT8 = np.finfo(np.float64), np.iinfo(np.int8)


def safe_log(p, fi=FLOAT64):
    return np.log(np.clip(p, fi.tiny, None))


def relative_close(a, b, fi=FLOAT64):
    tol = 8 * fi.eps
    return np.abs(a - b) <= tol * np.maximum(np.abs(a), np.abs(b))


def clip_to_integer_range(x, ii=INT8):
    return np.clip(np.round(x), ii.min, ii.max).astype(ii.dtype)


@dataclasses.dataclass
class NumericConfig:           # eq=True: instances cannot be hashed
    fi: np.finfo
    ii: np.iinfo
    scale: float = 1.0


CONFIG = NumericConfig(np.finfo(np.float64), np.iinfo(np.int16), 2.0)


def normalize_with_config(x, cfg=CONFIG):
    d = np.linalg.norm(x)
    return x * cfg.scale / max(d, cfg.fi.eps), cfg.ii.max


FLOAT32 = np.finfo(np.float32)


def stable_softmax32(z):
    z = z.astype(np.float32)
    e = np.exp(z - z.max())
    return e / np.maximum(e.sum(), FLOAT32.tiny)


# ================================================================ objects that are not hashed


class Params:
    __hash__ = None        # a value class: __eq__ without __hash__

    def __init__(self, w, b):
        self.w, self.b = w, b

    def __eq__(self, other):
        return isinstance(other, Params) and self.b == other.b

    def __call__(self, x):
        return x @ self.w + self.b


def apply_params(p, X):
    return np.tanh(p(X))


def polyval_of_fit(x, y, t):
    coef = np.polyfit(x, y, 3)
    return np.polyval(coef, t)


def poly1d_evaluate(coeffs, t):
    p = np.poly1d(coeffs)
    return p(t)


def _csr(rows: int, cols: int, density: float = 0.4):
    dense = _rng.uniform(-1.0, 1.0, (rows, cols)) * (_rng.random((rows, cols)) < density)
    dense[1] = 0.0    # an empty row
    indptr = np.concatenate([[0], np.cumsum((dense != 0).sum(axis=1))])
    indices = np.nonzero(dense)[1]
    return dense[dense != 0], indices, indptr


_DATA, _INDICES, _INDPTR = _csr(5, 7)
_V = _rng.uniform(-1.0, 1.0, 7)
_X = _rng.normal(size=20)
_KEYS = _rng.integers(0, 3, 15)

PROGRAMS = [
    ("csr_row_sums", csr_row_sums, (_DATA, _INDPTR)),
    ("csr_row_norms", csr_row_norms, (_DATA, _INDPTR)),
    ("csr_matvec", csr_matvec, (_DATA, _INDICES, _INDPTR, _V)),
    ("csr_row_max", csr_row_max, (_DATA, _INDPTR)),
    ("segment_means", segment_means, (_X, np.array([0, 4, 4, 11, 20]))),
    ("ragged_to_list", ragged_to_list, (_X[:10], np.array([3, 0, 5, 2]))),
    ("head_by_count", head_by_count, (_X, np.array([6, 2]))),
    ("keep_valid_prefix", keep_valid_prefix, (_X, np.array([7]))),
    ("window_between", window_between, (_X, np.array([3]), np.array([15]))),
    ("last_k_rows", last_k_rows, (_X.reshape(10, 2), np.array([4]))),
    ("sorted_group_sums", sorted_group_sums, (_KEYS, _X[:15])),
    ("cumulative_segments", cumulative_segments, (_X, np.array([2, 12]))),
    ("safe_log", safe_log, (np.array([0.0, 1e-320, 0.5]),)),
    ("relative_close", relative_close, (_X, _X + 1e-15)),
    ("clip_to_integer_range", clip_to_integer_range, (_X * 300.0,)),
    ("normalize_with_config", normalize_with_config, (_X,)),
    ("stable_softmax32", stable_softmax32, (_X,)),
    ("apply_params", apply_params, (Params(_rng.normal(size=(4, 2)), 0.5),
                                    _rng.normal(size=(3, 4)))),
    ("polyval_of_fit", polyval_of_fit, (np.linspace(0.0, 1.0, 12),
                                        np.linspace(0.0, 1.0, 12) ** 3, _X[:5])),
    ("poly1d_evaluate", poly1d_evaluate, (np.array([1.0, -2.0, 0.5]), _X[:6])),
]
