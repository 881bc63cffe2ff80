"""A fourteenth corpus: everyday NumPy as public repositories write it, written before any
of it was run under dynamo (issue #19, standing in for the held-out suites), for break
counts (``scripts/break_counts.py``, docs/realworld.md) and differential tests
(``test_heldout_corpus14.py``): data cleaning (dedup, winsorizing, forward fill, type
coercion), metrics (accuracy, MAE/RMSE/R2, log loss, AUC by ranks, top-k accuracy,
MAPE), feature engineering (polynomial features, lags, rolling stats, binning, target
encoding, interactions), small simulations (random walks, SIR, logistic map, diffusion,
bouncing particles, queues), text-ish processing of arrays (character codes, token
counts, n-gram hashes, run-length encoding, Caesar shifts) and utility helpers
(batching, train/test split, pairwise distances, softmax, normalisation, safe log).
For example ``PROGRAMS[0]`` is ``("drop_duplicate_rows", drop_duplicate_rows, (_DUP,))``:
the rows of a matrix, each once, in order of first appearance.

``PROGRAMS`` lists ``(name, fn, args)`` (small, seeded); ``EDGE_ARGS`` maps a name to
more argument sets of the same shapes, values redrawn. The module imports only NumPy and
the standard library: the scripts load it from its file, the tests by name.
"""

from __future__ import annotations

import math

import numpy as np

_rng = np.random.default_rng(14014)

# ================================================================ cleaning

def drop_duplicate_rows(X):
    _, idx = np.unique(X, axis=0, return_index=True)
    return X[np.sort(idx)]


def winsorize(x, lower=5, upper=95):
    lo, hi = np.percentile(x, [lower, upper])
    return np.clip(x, lo, hi)


def forward_fill(x):
    x = x.copy()
    for i in range(1, len(x)):
        if np.isnan(x[i]):
            x[i] = x[i - 1]
    return x


def coerce_and_fill(values, fill=0.0):
    arr = np.asarray(values, dtype=float)
    arr[~np.isfinite(arr)] = fill
    return arr


def drop_constant_columns(X, tol=1e-12):
    std = X.std(axis=0)
    return X[:, std > tol]


def count_missing_per_column(X):
    counts = {}
    for j in range(X.shape[1]):
        counts[j] = int(np.isnan(X[:, j]).sum())
    return counts


def positive_values(xs):
    return [v for v in xs if v > 0]


def clean_negative_to_zero(x):
    out = x.copy()
    out[out < 0] = 0
    return out


# ================================================================ metrics

def accuracy(y_true, y_pred):
    return np.mean(y_true == y_pred)


def regression_report(y, yhat):
    err = y - yhat
    mae = np.mean(np.abs(err))
    rmse = np.sqrt(np.mean(err ** 2))
    r2 = 1 - np.sum(err ** 2) / np.sum((y - y.mean()) ** 2)
    return {"mae": mae, "rmse": rmse, "r2": r2}


def log_loss(y, p, eps=1e-15):
    p = np.clip(p, eps, 1 - eps)
    return -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))


def auc_by_ranks(y, score):
    order = np.argsort(score)
    ranks = np.empty(len(score))
    ranks[order] = np.arange(1, len(score) + 1)
    n_pos = np.sum(y == 1)
    n_neg = len(y) - n_pos
    return (ranks[y == 1].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def top_k_accuracy(probs, labels, k=2):
    topk = np.argsort(probs, axis=1)[:, -k:]
    hits = [labels[i] in topk[i] for i in range(len(labels))]
    return sum(hits) / len(hits)


def mape(y, yhat):
    mask = y != 0
    return np.mean(np.abs((y[mask] - yhat[mask]) / y[mask])) * 100


def f1_score_binary(y, p):
    tp = np.sum((y == 1) & (p == 1))
    fp = np.sum((y == 0) & (p == 1))
    fn = np.sum((y == 1) & (p == 0))
    precision = tp / (tp + fp) if (tp + fp) > 0 else 0.0
    recall = tp / (tp + fn) if (tp + fn) > 0 else 0.0
    if precision + recall == 0:
        return 0.0
    return 2 * precision * recall / (precision + recall)


def count_correct_loop(y, p):
    correct = 0
    for a, b in zip(y, p):
        if a == b:
            correct += 1
    return correct / len(y)


# ================================================================ feature engineering

def polynomial_features(x, degree=3):
    return np.stack([x ** d for d in range(degree + 1)], axis=1)


def lag_features(x, lags=(1, 2, 3)):
    cols = []
    for lag in lags:
        col = np.full_like(x, np.nan)
        col[lag:] = x[:-lag]
        cols.append(col)
    return np.column_stack(cols)


def rolling_mean_std(x, window=4):
    n = len(x) - window + 1
    means = np.empty(n)
    stds = np.empty(n)
    for i in range(n):
        w = x[i:i + window]
        means[i] = w.mean()
        stds[i] = w.std()
    return means, stds


def equal_width_bins(x, n_bins=4):
    edges = np.linspace(x.min(), x.max(), n_bins + 1)
    return np.clip(np.digitize(x, edges[1:-1]), 0, n_bins - 1)


def target_encode(cats, y, n_cats):
    sums = np.bincount(cats, weights=y, minlength=n_cats)
    counts = np.bincount(cats, minlength=n_cats)
    means = sums / np.maximum(counts, 1)
    return means[cats]


def pairwise_interactions(X):
    n = X.shape[1]
    feats = []
    for i in range(n):
        for j in range(i + 1, n):
            feats.append(X[:, i] * X[:, j])
    return np.column_stack(feats)


def log_transform_skewed(X, threshold=1.0):
    out = X.copy()
    for j in range(X.shape[1]):
        col = X[:, j]
        skew = np.mean((col - col.mean()) ** 3) / col.std() ** 3
        if abs(skew) > threshold:
            out[:, j] = np.log1p(col - col.min())
    return out


def cyclical_encode(hours, period=24):
    angle = 2 * np.pi * hours / period
    return np.sin(angle), np.cos(angle)


# ================================================================ simulations

def random_walk(steps, seed=0):
    rng = np.random.default_rng(seed)
    moves = rng.choice([-1, 1], size=steps)
    return np.cumsum(moves)


def sir_model(beta, gamma, days, n=1000.0):
    s, i, r = n - 1.0, 1.0, 0.0
    history = []
    for _ in range(days):
        new_inf = beta * s * i / n
        new_rec = gamma * i
        s -= new_inf
        i += new_inf - new_rec
        r += new_rec
        history.append((s, i, r))
    return np.array(history)


def logistic_map(r, x0, n):
    xs = np.empty(n)
    x = x0
    for k in range(n):
        x = r * x * (1 - x)
        xs[k] = x
    return xs


def diffusion_1d(u, alpha=0.1, steps=10):
    u = u.copy()
    for _ in range(steps):
        u[1:-1] = u[1:-1] + alpha * (u[2:] - 2 * u[1:-1] + u[:-2])
    return u


def bouncing_particles(pos, vel, dt=0.1, steps=5, box=1.0):
    pos = pos.copy()
    vel = vel.copy()
    for _ in range(steps):
        pos += vel * dt
        hit = (pos < 0) | (pos > box)
        vel[hit] *= -1
        pos = np.clip(pos, 0, box)
    return pos, vel


def queue_wait_times(arrivals, service):
    waits = np.zeros(len(arrivals))
    finish = 0.0
    for i in range(len(arrivals)):
        start = max(arrivals[i], finish)
        waits[i] = start - arrivals[i]
        finish = start + service[i]
    return waits


def converge_mean(x, tol=1e-6, max_iter=50):
    m = x.mean()
    for _ in range(max_iter):
        new = 0.5 * (m + np.median(x))
        if abs(new - m) < tol:
            return new
        m = new
    return m


# ================================================================ text-ish arrays

def char_codes(word):
    return np.array([ord(c) for c in word])


def caesar_shift(codes, k=3):
    lower = (codes >= 97) & (codes <= 122)
    out = codes.copy()
    out[lower] = (codes[lower] - 97 + k) % 26 + 97
    return out


def token_counts(tokens, vocab):
    counts = np.zeros(len(vocab), dtype=int)
    index = {w: i for i, w in enumerate(vocab)}
    for t in tokens:
        if t in index:
            counts[index[t]] += 1
    return counts


def bigram_hash(ids, n_buckets=16):
    return (ids[:-1] * 31 + ids[1:]) % n_buckets


def run_length_encode(x):
    change = np.flatnonzero(np.diff(x)) + 1
    starts = np.concatenate(([0], change))
    lengths = np.diff(np.concatenate((starts, [len(x)])))
    return x[starts], lengths


def histogram_to_text(counts, width=10):
    top = counts.max()
    lines = []
    for i, c in enumerate(counts):
        bar = "#" * int(width * c / top)
        lines.append(f"{i:2d} {bar}")
    return "\n".join(lines)


def word_lengths_stats(words):
    lengths = np.array([len(w) for w in words])
    return lengths.mean(), lengths.max(), int(np.argmax(lengths))


def bucket_by_value(x, n):
    buckets = [0] * n
    for v in x:
        buckets[int(v) % n] += 1
    return buckets


# ================================================================ utilities

def batches(X, batch_size=4):
    return [X[i:i + batch_size] for i in range(0, len(X), batch_size)]


def train_test_split(X, y, test_frac=0.25, seed=0):
    rng = np.random.default_rng(seed)
    idx = rng.permutation(len(X))
    n_test = int(len(X) * test_frac)
    test, train = idx[:n_test], idx[n_test:]
    return X[train], X[test], y[train], y[test]


def pairwise_distances(A, B):
    sq = (A ** 2).sum(1)[:, None] + (B ** 2).sum(1)[None, :] - 2 * A @ B.T
    return np.sqrt(np.maximum(sq, 0))


def stable_softmax(z, axis=-1):
    z = z - z.max(axis=axis, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)


def normalize_rows(X):
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    norms[norms == 0] = 1
    return X / norms


def safe_log(x, eps=1e-12):
    return np.log(np.maximum(x, eps))


def nearest_index(arr, value):
    return int(np.abs(arr - value).argmin())


def chunked_sum(x, chunk=5):
    total = 0.0
    for start in range(0, len(x), chunk):
        total += float(x[start:start + chunk].sum())
    return total


def first_above(x, threshold):
    for i, v in enumerate(x):
        if v > threshold:
            return i
    return -1


def large_groups(groups, min_total):
    return {k: v for k, v in groups.items() if v.sum() > min_total}


def count_rows_with_positive_max(rows):
    return sum(1 for r in rows if r.max() > 0)


def describe(x):
    return (f"n={x.size} mean={x.mean():.3f} std={x.std():.3f} "
            f"min={x.min():.3f} max={x.max():.3f}")


def clamp_per_element(x, limit):
    total = 0
    for v in x:
        if float(v) > limit:
            total += 1
    return total


def gradient_descent_until(x0, lr=0.1, tol=1e-4, max_iter=100):
    x = x0.copy()
    for _ in range(max_iter):
        grad = 2 * x
        if np.linalg.norm(grad) < tol:
            break
        x = x - lr * grad
    return x


def exp_decay_weights(n, half_life=3.0):
    w = 0.5 ** (np.arange(n)[::-1] / half_life)
    return w / w.sum()


def mean_of_ratio(a, b):
    ratio = a.sum() / b.sum()
    return 1.0 - ratio if ratio < 1 else ratio - 1.0


def distance_to_centroid(X):
    c = X.mean(axis=0)
    d = np.sqrt(((X - c) ** 2).sum(axis=1))
    return d, math.sqrt(float(d.var()))


# ================================================================ arguments

_DUP = _rng.integers(0, 3, (10, 2)).astype(float)
_SER = _rng.standard_normal(24)
_GAPPY = np.where(_rng.random(15) > 0.7, np.nan, _rng.standard_normal(15))
_GAPPY[0] = 0.0
_NANX = np.where(_rng.random((8, 3)) > 0.8, np.nan, _rng.standard_normal((8, 3)))
_X = _rng.standard_normal((12, 3)) * [1.0, 3.0, 0.5]
_X[:, 1] = np.abs(_X[:, 1]) ** 2
_CONSTX = np.column_stack([_X[:, 0], np.full(12, 2.0), _X[:, 2]])
_Y = _X @ np.array([0.5, -1.0, 2.0]) + 0.1 * _rng.standard_normal(12)
_YHAT = _Y + 0.2 * _rng.standard_normal(12)
_BIN = _rng.integers(0, 2, 20)
_BINP = np.where(_rng.random(20) > 0.25, _BIN, 1 - _BIN)
_SCORE = np.clip(_BIN * 0.4 + _rng.random(20) * 0.6, 0.01, 0.99)
_PROBS = _rng.random((10, 4))
_LAB = _rng.integers(0, 4, 10)
_CATS = _rng.integers(0, 3, 12)
_HOURS = np.arange(0, 24, 3.0)
_U0 = np.exp(-np.linspace(-2, 2, 16) ** 2)
_POS = _rng.random(6)
_VEL = _rng.standard_normal(6)
_ARR = np.cumsum(_rng.exponential(1.0, 8))
_SERV = _rng.exponential(0.8, 8)
_CODES = np.array([ord(c) for c in "hello, world!"])
_IDS = _rng.integers(0, 50, 12)
_RUNS = np.array([1, 1, 2, 2, 2, 3, 1, 1, 4])
_COUNTS = _rng.integers(1, 20, 6)
_INTS = _rng.integers(0, 40, 15)
_A = _rng.standard_normal((5, 3))
_B = _rng.standard_normal((4, 3))
_ROWS = [_rng.standard_normal(3) for _ in range(4)]
_GROUPS = {"a": _rng.random(4), "b": _rng.random(4) * 0.1, "c": _rng.random(4) * 2}

PROGRAMS = [
    ("drop_duplicate_rows", drop_duplicate_rows, (_DUP,)),
    ("winsorize", winsorize, (_SER,)),
    ("forward_fill", forward_fill, (_GAPPY,)),
    ("coerce_and_fill", coerce_and_fill, ([1.0, np.inf, 2.5, np.nan, -1.0],)),
    ("drop_constant_columns", drop_constant_columns, (_CONSTX,)),
    ("count_missing_per_column", count_missing_per_column, (_NANX,)),
    ("positive_values", positive_values, (_SER[:8],)),
    ("clean_negative_to_zero", clean_negative_to_zero, (_SER,)),
    ("accuracy", accuracy, (_BIN, _BINP)),
    ("regression_report", regression_report, (_Y, _YHAT)),
    ("log_loss", log_loss, (_BIN, _SCORE)),
    ("auc_by_ranks", auc_by_ranks, (_BIN, _SCORE)),
    ("top_k_accuracy", top_k_accuracy, (_PROBS, _LAB)),
    ("mape", mape, (_Y, _YHAT)),
    ("f1_score_binary", f1_score_binary, (_BIN, _BINP)),
    ("count_correct_loop", count_correct_loop, (_BIN[:8], _BINP[:8])),
    ("polynomial_features", polynomial_features, (_SER[:6],)),
    ("lag_features", lag_features, (_SER[:10],)),
    ("rolling_mean_std", rolling_mean_std, (_SER[:10],)),
    ("equal_width_bins", equal_width_bins, (_SER,)),
    ("target_encode", target_encode, (_CATS, _Y, 3)),
    ("pairwise_interactions", pairwise_interactions, (_X,)),
    ("log_transform_skewed", log_transform_skewed, (_X,)),
    ("cyclical_encode", cyclical_encode, (_HOURS,)),
    ("random_walk", random_walk, (20,)),
    ("sir_model", sir_model, (0.3, 0.1, 10)),
    ("logistic_map", logistic_map, (3.7, 0.2, 12)),
    ("diffusion_1d", diffusion_1d, (_U0,)),
    ("bouncing_particles", bouncing_particles, (_POS, _VEL)),
    ("queue_wait_times", queue_wait_times, (_ARR, _SERV)),
    ("converge_mean", converge_mean, (_SER,)),
    ("char_codes", char_codes, ("numpy",)),
    ("caesar_shift", caesar_shift, (_CODES,)),
    ("token_counts", token_counts, (["a", "b", "a", "z", "c"], ["a", "b", "c"])),
    ("bigram_hash", bigram_hash, (_IDS,)),
    ("run_length_encode", run_length_encode, (_RUNS,)),
    ("histogram_to_text", histogram_to_text, (_COUNTS,)),
    ("word_lengths_stats", word_lengths_stats, (["alpha", "be", "gamma", "pi"],)),
    ("bucket_by_value", bucket_by_value, (_INTS, 4)),
    ("batches", batches, (_X,)),
    ("train_test_split", train_test_split, (_X, _Y)),
    ("pairwise_distances", pairwise_distances, (_A, _B)),
    ("stable_softmax", stable_softmax, (_PROBS,)),
    ("normalize_rows", normalize_rows, (np.vstack([_A, np.zeros(3)]),)),
    ("safe_log", safe_log, (np.abs(_SER) - 0.5,)),
    ("nearest_index", nearest_index, (_SER, 0.3)),
    ("chunked_sum", chunked_sum, (_SER,)),
    ("first_above", first_above, (_SER, 1.0)),
    ("large_groups", large_groups, (_GROUPS, 1.0)),
    ("count_rows_with_positive_max", count_rows_with_positive_max, (_ROWS,)),
    ("describe", describe, (_SER,)),
    ("clamp_per_element", clamp_per_element, (_SER[:10], 0.5)),
    ("gradient_descent_until", gradient_descent_until, (_A[0],)),
    ("exp_decay_weights", exp_decay_weights, (8,)),
    ("mean_of_ratio", mean_of_ratio, (np.abs(_SER[:6]), np.abs(_SER[6:12]))),
    ("distance_to_centroid", distance_to_centroid, (_X,)),
]


def _again(args, seed):
    """``args`` with every float array's values redrawn (NaN places kept) and every int
    array permuted: the same shapes and dtypes, other values."""
    g = np.random.default_rng(seed)
    def redraw(a):
        if isinstance(a, np.ndarray) and a.dtype.kind == "f":
            return np.where(np.isnan(a), np.nan, g.standard_normal(a.shape))
        if isinstance(a, np.ndarray) and a.dtype.kind == "i":
            return g.permutation(a)
        if isinstance(a, list) and a and all(isinstance(v, np.ndarray) for v in a):
            return [redraw(v) for v in a]
        if isinstance(a, dict) and all(isinstance(v, np.ndarray) for v in a.values()):
            return {k: redraw(v) for k, v in a.items()}
        return a
    return tuple(redraw(a) for a in args)


# values that must keep an order or a range (times, probabilities, codes, positions)
_KEEP = {"queue_wait_times", "log_loss", "auc_by_ranks", "caesar_shift", "bouncing_particles",
         "safe_log", "mean_of_ratio", "diffusion_1d", "stable_softmax", "normalize_rows"}
EDGE_ARGS: dict[str, list[tuple]] = {name: [_again(args, 1), _again(args, 2)]
                                     for name, _, args in PROGRAMS if name not in _KEEP}
EDGE_ARGS["mean_of_ratio"] = [(np.abs(_SER[6:12]), np.abs(_SER[:6])),
                              (np.ones(6), np.ones(6) * 2)]
EDGE_ARGS["log_loss"] = [(_BIN[::-1].copy(), _SCORE)]
