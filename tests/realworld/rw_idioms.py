"""Everyday Python around NumPy: asserts on shapes, try/except around risky steps,
``np.errstate``, dicts and namedtuples of results, inputs mutated in place (``+=``,
masks, ``out=``), shape arithmetic, f-string logging, helpers with default arguments,
pipelines of callables, module-level configuration, argument validation that raises.
"""

import collections
import functools
import logging

import numpy as np
from rw_check import (
    Program,
    rng_arrays,
)

log = logging.getLogger("realworld.idioms")

# ---------------------------------------------------------------- asserts and raises


def pairwise_sq_dists(a, b):
    assert a.ndim == 2 and b.ndim == 2, "expected 2-D inputs"
    assert a.shape[1] == b.shape[1], f"feature mismatch: {a.shape} vs {b.shape}"
    aa = (a * a).sum(axis=1)[:, None]
    bb = (b * b).sum(axis=1)[None, :]
    return np.maximum(aa + bb - 2 * a @ b.T, 0.0)


def standardize_columns(X, ddof=0):
    if X.ndim != 2:
        raise ValueError(f"standardize_columns expects a 2-D array, got shape {X.shape}")
    n_samples, n_features = X.shape
    if n_samples <= ddof:
        raise ValueError(f"need more than {ddof} samples, got {n_samples}")
    mu = X.mean(axis=0)
    sd = X.std(axis=0, ddof=ddof)
    return (X - mu) / np.where(sd == 0, 1.0, sd)


# ---------------------------------------------------------------- exceptions


def inverse_or_pinv(A, b):
    try:
        x = np.linalg.inv(A) @ b
        method = "inv"
    except np.linalg.LinAlgError:
        x = np.linalg.pinv(A) @ b
        method = "pinv"
    return x, method


def safe_log_ratio(num, den):
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = num / den
        out = np.log(ratio)
    out = np.nan_to_num(out, nan=0.0, posinf=50.0, neginf=-50.0)
    return out


# ---------------------------------------------------------------- results as dicts


Summary = collections.namedtuple("Summary", ["mean", "std", "lo", "hi"])


def describe(x, percentiles=(5, 50, 95)):
    qs = np.percentile(x, percentiles, axis=0)
    return {
        "count": x.shape[0],
        "mean": x.mean(axis=0),
        "std": x.std(axis=0),
        "min": x.min(axis=0),
        "max": x.max(axis=0),
        **{f"p{p}": q for p, q in zip(percentiles, qs)},
    }


def summarize(x, k=2.0):
    m, s = x.mean(axis=-1), x.std(axis=-1)
    return Summary(m, s, m - k * s, m + k * s)


# ---------------------------------------------------------------- in-place mutation


def clean_inplace(x, lo=-1.0, hi=1.0):
    """The caller's array is cleaned in place; the count of zeroed entries returned."""
    bad = ~np.isfinite(x)
    x[bad] = 0.0
    np.clip(x, lo, hi, out=x)
    x *= 2.0
    x[:, 0] = x[:, 0] - x[:, 0].mean()
    return int(bad.sum())


def scale_rows_out(x, scales, out):
    np.multiply(x, scales[:, None], out=out)
    out += 1.0
    return out


def accumulate_grads(grad_buffers, grads, count):
    for buf, g in zip(grad_buffers, grads):
        buf += g / count


def standardize_inplace_then_squash(x, eps=1e-6):
    """Standardize the caller's columns in place, then return a squashed copy."""
    x -= x.mean(axis=0)
    x /= x.std(axis=0) + eps
    return np.tanh(2 * x)


def relu_inplace_features(x, w):
    np.maximum(x, 0, out=x)
    return (x + 1) @ w


def _with_nans(seed, *shape):
    x = rng_arrays(seed, shape, scale=2.0)
    x[0, 1] = np.nan
    x[-1, -1] = np.inf
    return x


# ---------------------------------------------------------------- shape arithmetic


def image_to_patches(img, patch=2):
    """(H, W, C) -> (num_patches, patch*patch*C), as in a vision transformer."""
    h, w, c = img.shape
    assert h % patch == 0 and w % patch == 0, "image size must be a multiple of the patch"
    x = img.reshape(h // patch, patch, w // patch, patch, c)
    x = x.transpose(0, 2, 1, 3, 4)
    return x.reshape(-1, patch * patch * c)


def flatten_batch_time(x):
    b, t = x.shape[:2]
    flat = x.reshape(b * t, *x.shape[2:])
    return flat, flat.reshape(x.shape).shape == x.shape, x.size // (b * t)


# ---------------------------------------------------------------- logging


def sinkhorn(cost, reg=0.5, iters=10):
    """Entropic optimal transport; logs with f-strings (the log level is WARNING)."""
    n, m = cost.shape
    K = np.exp(-cost / reg)
    a, b = np.full(n, 1.0 / n), np.full(m, 1.0 / m)
    u = np.ones(n)
    log.debug(f"sinkhorn: {n}x{m} cost, reg={reg}")
    for it in range(iters):
        v = b / (K.T @ u)
        u = a / (K @ v)
    plan = u[:, None] * K * v[None, :]
    log.info("sinkhorn done after %d iterations", iters)
    return plan, np.sum(plan * cost)


def train_with_header(X, y, lr=0.1, steps=6):
    """Prints a header, then progress inside the loop: the most common debug pattern."""
    print(f"training on {X.shape[0]} samples with {X.shape[1]} features")
    w = np.zeros(X.shape[1], X.dtype)
    for step in range(steps):
        grad = X.T @ (X @ w - y) / len(y)
        w -= lr * grad
        if step % 2 == 0:
            print(f"  step {step}: |grad| = {np.linalg.norm(grad):.5f}")
    return w


# ---------------------------------------------------------------- helpers, defaults


def l2_normalize(x, axis=-1, eps=1e-8):
    return x / (np.linalg.norm(x, axis=axis, keepdims=True) + eps)


def minmax_scale(x, feature_range=(0.0, 1.0), axis=0):
    lo, hi = feature_range
    xmin = x.min(axis=axis, keepdims=True)
    xmax = x.max(axis=axis, keepdims=True)
    return lo + (x - xmin) * (hi - lo) / (xmax - xmin + 1e-12)


def normalize(x, kind="l2", **kwargs):
    if kind == "l2":
        return l2_normalize(x, **kwargs)
    elif kind == "minmax":
        return minmax_scale(x, **kwargs)
    raise ValueError(f"unknown normalization {kind!r}")


def normalization_report(x):
    return {
        "l2_rows": normalize(x),
        "l2_cols": normalize(x, axis=0),
        "minmax": normalize(x, kind="minmax", feature_range=(-1.0, 1.0)),
        "minmax_rows": normalize(x, "minmax", axis=1),
    }


ACTIVATIONS = {
    "relu": lambda x: np.maximum(x, 0),
    "leaky": functools.partial(lambda x, slope: np.where(x > 0, x, slope * x), slope=0.1),
    "swish": lambda x: x / (1 + np.exp(-x)),
}
CONFIG = {"hidden": ["relu", "swish", "leaky"], "scale": 0.5}


def apply_activations(x):
    feats = [ACTIVATIONS[name](x * CONFIG["scale"]) for name in CONFIG["hidden"]]
    return np.concatenate(feats, axis=-1), sum(f.mean() for f in feats)


class Pipeline:
    """A list of steps, each an object with __call__ or a plain function."""

    class Center:
        def __call__(self, x):
            return x - x.mean(axis=0)

    class Whiten:
        def __init__(self, eps=1e-5):
            self.eps = eps

        def __call__(self, x):
            cov = x.T @ x / (x.shape[0] - 1)
            return x / np.sqrt(np.diag(cov) + self.eps)

    def __init__(self):
        self.steps = [self.Center(), self.Whiten(), np.tanh]

    @property
    def n_steps(self):
        return len(self.steps)

    def __call__(self, x):
        for i, step in enumerate(self.steps):
            x = step(x)
        return x, self.n_steps


def polynomial_features(x, degree=3):
    cols = [x ** d for d in range(degree + 1)]
    names = [f"x^{d}" for d in range(degree + 1)]
    return dict(zip(names, cols)), np.column_stack(cols)


PROGRAMS = [
    Program("assert_shapes_fstring", pairwise_sq_dists,
            [tuple(rng_arrays(0, (4, 3), (5, 3))), tuple(rng_arrays(1, (3, 2), (2, 3))),
             tuple(rng_arrays(2, (2, 3), (6, 3))), tuple(rng_arrays(3, (5, 3), (3, 3)))]),
    Program("raise_valueerror_on_bad_input", standardize_columns,
            [(rng_arrays(0, (6, 3)),), (rng_arrays(1, (5,)),), (rng_arrays(2, (1, 4)), 1),
             (rng_arrays(3, (4, 4)),), (rng_arrays(4, (9, 2)),)]),
    Program("try_inv_except_linalgerror", inverse_or_pinv,
            [tuple(rng_arrays(0, (3, 3), (3,), dtype=np.float64)),
             (np.ones((4, 4)), np.arange(4.0))],
            why="np.linalg.inv inside `try`: a singular matrix makes the graph raise, and "
                "the frame's original code runs instead, whose except clause sees the "
                "LinAlgError (dynamo/raising.py)"),
    Program("errstate_log_ratio", safe_log_ratio,
            [(np.array([1.0, 0.0, 2.0, 0.0]), np.array([2.0, 0.0, 0.0, 1.0])),
             (rng_arrays(0, (3, 3), dtype=np.float64), rng_arrays(1, (3, 3), dtype=np.float64))],
            why="`with np.errstate(...)`: two ops around the block's ops"),
    Program("describe_percentile_dict", describe,
            [(rng_arrays(0, (20, 2)),), (rng_arrays(1, (9,), dtype=np.float64), (25, 75)),
             (rng_arrays(2, (12,), dtype=np.float64), (25, 75))],
            why="np.percentile is one node (q's shape in front)"),
    Program("namedtuple_summary", summarize,
            [(rng_arrays(0, (3, 5)),), (rng_arrays(1, (7,)), 1.0), (rng_arrays(2, (4,)), 1.0)],
            why="`Summary(m, s, ...)` (a namedtuple) is built after the graph from its "
                "outputs"),
    Program("clean_inplace_mask_clip_out", clean_inplace,
            [(_with_nans(0, 4, 3),), (_with_nans(1, 3, 5), -0.5, 0.5),
             (_with_nans(2, 6, 2), -0.5, 0.5)],
            why="`x[bad] = 0.0` and `int(bad.sum())` are fine in eager code; the int() "
                "of a count is only returned, so the glue converts it after the graph"),
    Program("standardize_inplace_then_squash", standardize_inplace_then_squash,
            [(rng_arrays(0, (6, 3)),), (rng_arrays(1, (4, 5), dtype=np.float64),),
             (rng_arrays(2, (7, 2), dtype=np.float64),), (rng_arrays(3, (1000, 100)),)]),
    Program("relu_out_inplace_then_matmul", relu_inplace_features,
            [tuple(rng_arrays(0, (4, 3), (3, 2))), tuple(rng_arrays(1, (2, 5), (5, 5))),
             tuple(rng_arrays(2, (3, 5), (5, 1)))]),
    Program("multiply_out_then_iadd", scale_rows_out,
            [(*rng_arrays(0, (3, 4), (3,)), np.zeros((3, 4), np.float32)),
             (*rng_arrays(1, (2, 2), (2,)), np.empty((2, 2), np.float32)),
             (*rng_arrays(2, (5, 3), (5,)), np.ones((5, 3), np.float32))]),
    Program("accumulate_grads_list_inplace", accumulate_grads,
            [(rng_arrays(0, (2, 2), (3,)), rng_arrays(1, (2, 2), (3,)), 4),
             (rng_arrays(2, (5,)), rng_arrays(3, (5,)), 2),
             (rng_arrays(4, (3, 3), (2,)), rng_arrays(5, (3, 3), (2,)), 2)]),
    Program("image_to_patches_shape_math", image_to_patches,
            [(rng_arrays(0, (4, 6, 3)),), (rng_arrays(1, (6, 6, 1)), 3), (rng_arrays(2, (5, 4, 2)),),
             (rng_arrays(3, (9, 3, 1)), 3), (rng_arrays(4, (8, 2, 3)),)]),
    Program("flatten_batch_time_star_shape", flatten_batch_time,
            [(rng_arrays(0, (2, 3, 4)),), (rng_arrays(1, (3, 2, 2, 5)),), (rng_arrays(2, (4, 3, 4)),),
             (rng_arrays(3, (1, 5, 2, 5)),)]),
    Program("sinkhorn_fstring_logging", sinkhorn,
            [(np.abs(rng_arrays(0, (4, 3), dtype=np.float64)),),
             (np.abs(rng_arrays(1, (5, 6), dtype=np.float64)), 1.0, 6),
             (np.abs(rng_arrays(2, (3, 7), dtype=np.float64)), 1.0, 6)],
            why="`log.debug(f\"...\")` and `log.info(...)` are below the level: dropped, "
                "behind a guard on the level"),
    Program("print_header_then_progress_loop", train_with_header,
            [tuple(rng_arrays(0, (8, 3), (8,))), tuple(rng_arrays(1, (5, 2), (5,))),
             tuple(rng_arrays(2, (6, 2), (6,)))],
            graphs=1, breaks=2,
            why="two prints (expected breaks); the loop with a print runs eagerly; today "
                "the resumed loop crashes inside dynamo"),
    Program("normalize_helpers_default_kwargs", normalization_report,
            [(rng_arrays(0, (4, 3)),), (rng_arrays(1, (2, 6), dtype=np.float64),),
             (rng_arrays(2, (5, 4), dtype=np.float64),), (rng_arrays(3, (1000, 200)),)]),
    Program("activation_table_partial_lambda", apply_activations,
            [(rng_arrays(0, (3, 4)),), (rng_arrays(1, (5,)),), (rng_arrays(2, (7,)),)],
            why="`functools.partial` call inside a list comprehension"),
    Program("pipeline_nested_classes_property", Pipeline(),
            [(rng_arrays(0, (6, 3)),), (rng_arrays(1, (4, 5)),), (rng_arrays(2, (9, 5)),)]),
    Program("polynomial_features_fstring_keys", polynomial_features,
            [(rng_arrays(0, (5,)),), (rng_arrays(1, (3,), dtype=np.float64), 2),
             (rng_arrays(2, (6,), dtype=np.float64), 2)]),
]

