"""A thirteenth corpus: everyday NumPy of kinds the earlier corpora lack, written as
notebooks and small repositories write it, before any of it was run under dynamo (issue
#19, standing in for the held-out suites), for break counts (``scripts/break_counts.py``,
docs/realworld.md) and differential tests (``test_heldout_corpus13.py``): NaN cleaning
with masks and ``np.nan*``, scaling, one-hot encoding, confusion matrices, moving
averages, ``np.interp``/``searchsorted``, image slicing and ``np.pad``, percentiles,
histograms, ``bincount``, optimizers over lists of arrays, texts around arrays, dicts
as configs, dataclasses, conditional comprehensions, ``zip``/``enumerate`` over rows,
``int()`` of elements in loops. For example ``PROGRAMS[0]`` is ``("nan_row_filter",
nan_row_filter, (_NANX,))``: the rows of a matrix with no NaN in them.

``PROGRAMS`` lists ``(name, fn, args)`` (small, seeded); ``EDGE_ARGS`` maps a name to two
more argument sets of the same shapes, values redrawn. The module imports only NumPy
and the standard library: the scripts load it from its file, the tests by name.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_rng = np.random.default_rng(13013)

# ================================================================ cleaning

def nan_row_filter(X):
    keep = ~np.isnan(X).any(axis=1)
    return X[keep]


def fill_nan_column_means(X):
    X = X.copy()
    col_mean = np.nanmean(X, axis=0)
    rows, cols = np.where(np.isnan(X))
    X[rows, cols] = col_mean[cols]
    return X


def nan_summary(x):
    return {
        "mean": np.nanmean(x),
        "std": np.nanstd(x),
        "min": np.nanmin(x),
        "max": np.nanmax(x),
        "missing": int(np.isnan(x).sum()),
    }


def clip_outliers_iqr(x, k=1.5):
    q1, q3 = np.percentile(x, [25, 75])
    iqr = q3 - q1
    return np.clip(x, q1 - k * iqr, q3 + k * iqr)


def replace_sentinel(x, sentinel=-999.0):
    out = x.astype(float)
    out[out == sentinel] = np.nan
    return out


def interpolate_gaps(y):
    y = y.copy()
    bad = np.isnan(y)
    idx = np.arange(len(y))
    y[bad] = np.interp(idx[bad], idx[~bad], y[~bad])
    return y


# ================================================================ scaling, encoding

def minmax_scale(X, feature_range=(0.0, 1.0)):
    lo, hi = feature_range
    mn = X.min(axis=0)
    mx = X.max(axis=0)
    scale = (hi - lo) / np.where(mx - mn == 0, 1, mx - mn)
    return lo + (X - mn) * scale


def robust_scale(X):
    med = np.median(X, axis=0)
    q75, q25 = np.percentile(X, [75, 25], axis=0)
    return (X - med) / (q75 - q25)


def standard_scale_params(X):
    params = {"mean": X.mean(axis=0), "std": X.std(axis=0)}
    params["std"][params["std"] == 0] = 1.0
    return (X - params["mean"]) / params["std"], params


def one_hot(labels, n_classes):
    out = np.zeros((len(labels), n_classes))
    out[np.arange(len(labels)), labels] = 1
    return out


def one_hot_eye(labels, n_classes):
    return np.eye(n_classes)[labels]


def label_encode(words):
    vocab = sorted(set(words))
    index = {w: i for i, w in enumerate(vocab)}
    return np.array([index[w] for w in words]), vocab


# ================================================================ metrics

def confusion_matrix(y_true, y_pred, n_classes):
    cm = np.zeros((n_classes, n_classes), dtype=int)
    for t, p in zip(y_true, y_pred):
        cm[t, p] += 1
    return cm


def confusion_matrix_bincount(y_true, y_pred, n_classes):
    idx = y_true * n_classes + y_pred
    return np.bincount(idx, minlength=n_classes * n_classes).reshape(n_classes, n_classes)


def precision_recall(y_true, y_pred):
    tp = np.sum((y_true == 1) & (y_pred == 1))
    fp = np.sum((y_true == 0) & (y_pred == 1))
    fn = np.sum((y_true == 1) & (y_pred == 0))
    precision = tp / (tp + fp) if tp + fp > 0 else 0.0
    recall = tp / (tp + fn) if tp + fn > 0 else 0.0
    return precision, recall


def per_class_accuracy(y_true, y_pred, n_classes):
    accs = []
    for c in range(n_classes):
        mask = y_true == c
        accs.append((y_pred[mask] == c).mean())
    return np.array(accs)


def report_metrics(y_true, y_pred):
    acc = np.mean(y_true == y_pred)
    err = 1 - acc
    return f"accuracy={acc:.3f} error={err:.3f} n={len(y_true)}"


# ================================================================ smoothing, interpolation

def moving_average_convolve(x, w=5):
    return np.convolve(x, np.ones(w) / w, mode="valid")


def moving_average_cumsum(x, w=5):
    c = np.cumsum(np.insert(x, 0, 0.0))
    return (c[w:] - c[:-w]) / w


def exponential_smoothing(x, alpha=0.3):
    out = np.empty_like(x)
    out[0] = x[0]
    for i in range(1, len(x)):
        out[i] = alpha * x[i] + (1 - alpha) * out[i - 1]
    return out


def resample_linear(t, y, n_points=20):
    t_new = np.linspace(t[0], t[-1], n_points)
    return t_new, np.interp(t_new, t, y)


def step_lookup(edges, values, queries):
    idx = np.searchsorted(edges, queries, side="right") - 1
    idx = np.clip(idx, 0, len(values) - 1)
    return values[idx]


def piecewise_linear_table(x, table):
    xs = np.array([p[0] for p in table])
    ys = np.array([p[1] for p in table])
    return np.interp(x, xs, ys)


# ================================================================ images

def crop_center(img, size):
    h, w = img.shape[:2]
    top = (h - size) // 2
    left = (w - size) // 2
    return img[top:top + size, left:left + size]


def box_blur_pad(img):
    p = np.pad(img, 1, mode="edge")
    out = np.zeros_like(img, dtype=float)
    for dy in range(3):
        for dx in range(3):
            out += p[dy:dy + img.shape[0], dx:dx + img.shape[1]]
    return out / 9.0


def flip_and_rotate(img):
    return img[::-1, :], img[:, ::-1], np.rot90(img)


def to_grayscale(rgb):
    weights = np.array([0.299, 0.587, 0.114])
    return rgb[..., :3] @ weights


def threshold_binary(img, t=None):
    if t is None:
        t = img.mean()
    return (img > t).astype(np.uint8) * 255


def downsample2(img):
    h, w = img.shape
    return img[: h // 2 * 2, : w // 2 * 2].reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))


# ================================================================ statistics

def describe_percentiles(x):
    pct = np.percentile(x, [5, 25, 50, 75, 95])
    return dict(zip(["p5", "p25", "p50", "p75", "p95"], pct))


def histogram_density(x, bins=8):
    counts, edges = np.histogram(x, bins=bins)
    widths = np.diff(edges)
    return counts / (counts.sum() * widths), edges


def most_common_label(labels):
    counts = np.bincount(labels)
    return int(np.argmax(counts)), counts


def weighted_stats(x, w):
    mean = np.average(x, weights=w)
    var = np.average((x - mean) ** 2, weights=w)
    return mean, np.sqrt(var)


def zscore_outliers(x, thresh=2.0):
    z = (x - x.mean()) / x.std()
    return np.flatnonzero(np.abs(z) > thresh)


# ================================================================ optimizers

def sgd_list_params(params, grads, lr=0.1, steps=5):
    params = [p.copy() for p in params]
    for _ in range(steps):
        for i in range(len(params)):
            params[i] -= lr * grads[i] * params[i]
    return params


def momentum_list_state(params, grads, lr=0.05, beta=0.9, steps=4):
    velocity = [np.zeros_like(p) for p in params]
    params = [p.copy() for p in params]
    for _ in range(steps):
        for p, g, v in zip(params, grads, velocity):
            v *= beta
            v += g
            p -= lr * v
    return params


def adagrad_dict(params, grads, lr=0.1, eps=1e-8):
    cache = {k: np.zeros_like(v) for k, v in params.items()}
    new = {}
    for k in params:
        cache[k] += grads[k] ** 2
        new[k] = params[k] - lr * grads[k] / (np.sqrt(cache[k]) + eps)
    return new


@dataclass
class TrainConfig:
    lr: float = 0.1
    epochs: int = 10
    l2: float = 0.0


def linreg_dataclass(X, y, cfg):
    w = np.zeros(X.shape[1])
    for _ in range(cfg.epochs):
        grad = X.T @ (X @ w - y) / len(y) + cfg.l2 * w
        w -= cfg.lr * grad
    return w


def train_with_history(X, y, lr=0.1, epochs=6):
    w = np.zeros(X.shape[1])
    history = []
    for epoch in range(epochs):
        pred = X @ w
        loss = np.mean((pred - y) ** 2)
        history.append(f"epoch {epoch}: loss {loss:.4f}")
        w -= lr * 2 * X.T @ (pred - y) / len(y)
    return w, history


# ================================================================ configs, strings

def apply_config(x, config):
    y = x * config["scale"] + config["shift"]
    if config.get("clip") is not None:
        y = np.clip(y, *config["clip"])
    return y


def format_row_summary(X):
    lines = []
    for i, row in enumerate(X):
        lines.append("row {}: mean={:.2f} max={:.2f}".format(i, row.mean(), row.max()))  # noqa: UP032
    return "\n".join(lines)


def shape_message(x):
    return f"array of shape {x.shape} and dtype {x.dtype}, mean {x.mean():.3f}"


# ================================================================ comprehensions, rows

def positives_squared(x):
    return [v ** 2 for v in x if v > 0]


def row_norms_enumerate(X):
    norms = np.zeros(len(X))
    for i, row in enumerate(X):
        norms[i] = np.sqrt(np.sum(row ** 2))
    return norms


def pairwise_row_dots(A, B):
    return np.array([a @ b for a, b in zip(A, B)])


def count_large_int(x, limit):
    total = 0
    for v in x:
        if int(v) > limit:
            total += 1
    return total


def bucket_counts_int(values, n_buckets):
    counts = [0] * n_buckets
    for v in values:
        counts[int(v) % n_buckets] += 1
    return counts


def nonzero_columns(X):
    return [j for j in range(X.shape[1]) if np.any(X[:, j] != 0)]


def safe_divide_ratio(num, den):
    total = den.sum()
    ratio = num.sum() / total if total != 0 else 0.0
    return ratio, num / np.where(den == 0, 1, den)


def f1_from_counts(y_true, y_pred):
    tp = np.sum((y_true == 1) & (y_pred == 1))
    fp = np.sum((y_true == 0) & (y_pred == 1))
    fn = np.sum((y_true == 1) & (y_pred == 0))
    denom = 2 * tp + fp + fn
    return 2 * tp / denom if denom else 0.0


def top_k_report(scores, names, k=3):
    order = np.argsort(scores)[::-1][:k]
    return [f"{names[i]}: {scores[i]:.2f}" for i in order]


def argmax_per_row_labels(P, class_names):
    idx = P.argmax(axis=1)
    return [class_names[i] for i in idx]


def digitize_ages(ages):
    bins = np.array([0, 18, 35, 50, 65, 120])
    groups = np.digitize(ages, bins) - 1
    return np.bincount(groups, minlength=len(bins) - 1)


def nan_percentile_fill(x, q=50):
    fill = np.nanpercentile(x, q)
    return np.where(np.isnan(x), fill, x)


def rows_to_dicts(X, columns):
    return [dict(zip(columns, row)) for row in X]


def column_stats_dict(X, columns):
    stats = {}
    for j, name in enumerate(columns):
        col = X[:, j]
        stats[name] = {"mean": col.mean(), "std": col.std()}
    return stats


def sample_weighted_index(weights, u):
    cdf = np.cumsum(weights) / np.sum(weights)
    return np.searchsorted(cdf, u)


def clamp_ints_loop(x, lo, hi):
    out = []
    for v in x:
        v = int(v)
        out.append(min(max(v, lo), hi))
    return out


def pad_batch(seqs, pad_value=0.0):
    max_len = max(len(s) for s in seqs)
    return np.stack([np.pad(s, (0, max_len - len(s)), constant_values=pad_value)
                     for s in seqs])


def image_tiles(img, tile=4):
    h, w = img.shape
    tiles = []
    for i in range(0, h - tile + 1, tile):
        for j in range(0, w - tile + 1, tile):
            tiles.append(img[i:i + tile, j:j + tile].mean())
    return np.array(tiles)


@dataclass
class Scaler:
    center: np.ndarray
    scale: np.ndarray

    def transform(self, X):
        return (X - self.center) / self.scale

    def inverse(self, Z):
        return Z * self.scale + self.center


def scaler_roundtrip(X):
    s = Scaler(X.mean(axis=0), X.std(axis=0))
    Z = s.transform(X)
    return Z, s.inverse(Z)


def early_stop_index(losses, patience=3):
    best = np.inf
    wait = 0
    for i, loss in enumerate(losses):
        if loss < best:
            best = loss
            wait = 0
        else:
            wait += 1
            if wait >= patience:
                return i
    return len(losses) - 1


def round_and_format(x, decimals=2):
    r = np.round(x, decimals)
    return ", ".join(str(v) for v in r)


def cosine_similarity_matrix(X):
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    Xn = X / np.maximum(norms, 1e-12)
    return Xn @ Xn.T


# ================================================================ arguments

_NANX = np.where(_rng.random((12, 4)) > 0.85, np.nan, _rng.standard_normal((12, 4)))
_SER = _rng.standard_normal(30)
_SENT = np.where(_rng.random(20) > 0.7, -999.0, _rng.standard_normal(20))
_GAPPY = np.where(_rng.random(25) > 0.75, np.nan, np.sin(np.arange(25.0)))
_GAPPY[[0, -1]] = [0.0, 1.0]
_X = _rng.standard_normal((20, 3)) * [1.0, 5.0, 0.1] + [0.0, 2.0, -1.0]
_LABELS = _rng.integers(0, 4, 25)
_PRED = np.where(_rng.random(25) > 0.3, _LABELS, _rng.integers(0, 4, 25))
_BIN_T = _rng.integers(0, 2, 30)
_BIN_P = np.where(_rng.random(30) > 0.2, _BIN_T, 1 - _BIN_T)
_T = np.sort(_rng.random(15)) * 10
_EDGES = np.array([0.0, 1.0, 2.5, 4.0, 7.0])
_VALUES = np.array([10.0, 20.0, 30.0, 40.0, 50.0])
_IMG = _rng.random((9, 11))
_RGB = _rng.random((6, 5, 4))
_PARAMS = [_rng.standard_normal((3, 2)), _rng.standard_normal(2)]
_GRADS = [_rng.standard_normal((3, 2)), _rng.standard_normal(2)]
_PDICT = {"w": _rng.standard_normal((3, 2)), "b": _rng.standard_normal(2)}
_GDICT = {"w": _rng.standard_normal((3, 2)), "b": _rng.standard_normal(2)}
_Y = _X @ np.array([1.0, -0.5, 2.0]) + 0.1 * _rng.standard_normal(20)
_INTS = _rng.integers(0, 50, 20)
_SPARSE = np.where(_rng.random((5, 6)) > 0.5, _rng.standard_normal((5, 6)), 0.0)
_SPARSE[:, 2] = 0.0
_WORDS = ["cat", "dog", "cat", "bird", "dog", "cat"]
_TABLE = [(0.0, 0.0), (1.0, 2.0), (3.0, 2.5), (5.0, 0.0)]

PROGRAMS = [
    ("nan_row_filter", nan_row_filter, (_NANX,)),
    ("fill_nan_column_means", fill_nan_column_means, (_NANX,)),
    ("nan_summary", nan_summary, (_NANX[:, 0],)),
    ("clip_outliers_iqr", clip_outliers_iqr, (_SER,)),
    ("replace_sentinel", replace_sentinel, (_SENT,)),
    ("interpolate_gaps", interpolate_gaps, (_GAPPY,)),
    ("minmax_scale", minmax_scale, (_X,)),
    ("robust_scale", robust_scale, (_X,)),
    ("standard_scale_params", standard_scale_params, (_X,)),
    ("one_hot", one_hot, (_LABELS, 4)),
    ("one_hot_eye", one_hot_eye, (_LABELS, 4)),
    ("label_encode", label_encode, (_WORDS,)),
    ("confusion_matrix", confusion_matrix, (_LABELS, _PRED, 4)),
    ("confusion_matrix_bincount", confusion_matrix_bincount, (_LABELS, _PRED, 4)),
    ("precision_recall", precision_recall, (_BIN_T, _BIN_P)),
    ("per_class_accuracy", per_class_accuracy, (_LABELS, _PRED, 4)),
    ("report_metrics", report_metrics, (_LABELS, _PRED)),
    ("moving_average_convolve", moving_average_convolve, (_SER,)),
    ("moving_average_cumsum", moving_average_cumsum, (_SER,)),
    ("exponential_smoothing", exponential_smoothing, (_SER[:12],)),
    ("resample_linear", resample_linear, (_T, np.sin(_T))),
    ("step_lookup", step_lookup, (_EDGES, _VALUES, _rng.random(10) * 8 - 0.5)),
    ("piecewise_linear_table", piecewise_linear_table, (_SER * 3, _TABLE)),
    ("crop_center", crop_center, (_IMG, 5)),
    ("box_blur_pad", box_blur_pad, (_IMG,)),
    ("flip_and_rotate", flip_and_rotate, (_IMG,)),
    ("to_grayscale", to_grayscale, (_RGB,)),
    ("threshold_binary", threshold_binary, (_IMG,)),
    ("downsample2", downsample2, (_IMG,)),
    ("describe_percentiles", describe_percentiles, (_SER,)),
    ("histogram_density", histogram_density, (_SER,)),
    ("most_common_label", most_common_label, (_LABELS,)),
    ("weighted_stats", weighted_stats, (_SER, np.abs(_SER[::-1]))),
    ("zscore_outliers", zscore_outliers, (_SER,)),
    ("sgd_list_params", sgd_list_params, (_PARAMS, _GRADS)),
    ("momentum_list_state", momentum_list_state, (_PARAMS, _GRADS)),
    ("adagrad_dict", adagrad_dict, (_PDICT, _GDICT)),
    ("linreg_dataclass", linreg_dataclass, (_X, _Y, TrainConfig(lr=0.05, epochs=8))),
    ("train_with_history", train_with_history, (_X, _Y)),
    ("apply_config", apply_config, (_SER, {"scale": 2.0, "shift": -1.0, "clip": (-1.5, 1.5)})),
    ("format_row_summary", format_row_summary, (_X[:4],)),
    ("shape_message", shape_message, (_X,)),
    ("positives_squared", positives_squared, (_SER[:10],)),
    ("row_norms_enumerate", row_norms_enumerate, (_X,)),
    ("pairwise_row_dots", pairwise_row_dots, (_X, _X[::-1])),
    ("count_large_int", count_large_int, (_INTS, 25)),
    ("bucket_counts_int", bucket_counts_int, (_INTS, 5)),
    ("nonzero_columns", nonzero_columns, (_SPARSE,)),
    ("safe_divide_ratio", safe_divide_ratio, (_SER, np.abs(_SER[::-1]))),
    ("f1_from_counts", f1_from_counts, (_BIN_T, _BIN_P)),
    ("top_k_report", top_k_report, (_SER[:6], ["a", "b", "c", "d", "e", "f"])),
    ("argmax_per_row_labels", argmax_per_row_labels, (_RGB[:, :, :3].reshape(-1, 3),
                                                      ["red", "green", "blue"])),
    ("digitize_ages", digitize_ages, (_INTS * 2,)),
    ("nan_percentile_fill", nan_percentile_fill, (_NANX[:, 1],)),
    ("rows_to_dicts", rows_to_dicts, (_X[:3], ["a", "b", "c"])),
    ("column_stats_dict", column_stats_dict, (_X, ["a", "b", "c"])),
    ("sample_weighted_index", sample_weighted_index, (np.abs(_SER[:8]), _rng.random(5))),
    ("clamp_ints_loop", clamp_ints_loop, (_INTS, 10, 40)),
    ("pad_batch", pad_batch, ([_SER[:3], _SER[3:8], _SER[8:12]],)),
    ("image_tiles", image_tiles, (_IMG,)),
    ("scaler_roundtrip", scaler_roundtrip, (_X,)),
    ("early_stop_index", early_stop_index, (np.array([1.0, 0.8, 0.7, 0.75, 0.72, 0.71, 0.9]),)),
    ("round_and_format", round_and_format, (_SER[:5],)),
    ("cosine_similarity_matrix", cosine_similarity_matrix, (_X,)),
]


def _again(args, seed):
    """``args`` with every float array's values redrawn (its NaN and -999 places kept) and
    every int array permuted: the same shapes and dtypes, other values."""
    g = np.random.default_rng(seed)
    def redraw(a):
        if isinstance(a, np.ndarray) and a.dtype.kind == "f":
            new = np.where(a == -999.0, -999.0, g.standard_normal(a.shape))
            return np.where(np.isnan(a), np.nan, new)
        if isinstance(a, np.ndarray) and a.dtype.kind == "i":
            return g.permutation(a)
        if isinstance(a, list) and all(isinstance(v, np.ndarray) for v in a):
            return [redraw(v) for v in a]
        if isinstance(a, dict) and all(isinstance(v, np.ndarray) for v in a.values()):
            return {k: redraw(v) for k, v in a.items()}
        return a
    return tuple(redraw(a) for a in args)


# sorted values keep their order (a time axis, bin edges, gaps with known ends)
_KEEP = {"resample_linear", "step_lookup", "interpolate_gaps", "label_encode",
         "piecewise_linear_table", "weighted_stats"}
EDGE_ARGS: dict[str, list[tuple]] = {name: [_again(args, 1), _again(args, 2)]
                                     for name, _, args in PROGRAMS if name not in _KEEP}
EDGE_ARGS["weighted_stats"] = [(_SER[::-1], np.abs(_SER)), (-_SER, np.ones(30))]
EDGE_ARGS["interpolate_gaps"] = [(np.where(np.isnan(_GAPPY), np.nan, _GAPPY * 3),)]
