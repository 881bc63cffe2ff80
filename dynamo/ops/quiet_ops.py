"""Ops whose NumPy code warns of nothing the *values* decide (NumPy 2).

``signals.warns_beyond_fp`` asks whether running a node may emit a Python warning that
is not a floating-point condition; an op it does not know counts as one that may. A
graph holding such an op cannot run again when it raises (the rerun would warn twice),
so a check on array data next to it (``if np.any(d == 0): raise ...``) is a graph
break, and the numpy backend runs the op by itself, outside fused code. The ops below
were read in NumPy 2.4's sources (every ``warnings.warn`` of lib/, linalg/, fft/ and
what the functions call) and run on NaN, infinities, zeros and subnormals with
floating-point reports off (tests/breaks/test_quiet_ops.py). Their only Python-level
warnings depend on arguments the trace fixes (shapes, dtypes, keywords), which
``quiet_in_numpy2`` checks:

- np.histogram of a bool array ("Converting input from bool"), or with a bin rule
  (``bins="stone"``: "may be suboptimal");
- np.fft.fft2 with ``s`` ("`axes` should not be `None`");
- np.cross of 2-element vectors ("Arrays of 2-dimensional vectors are deprecated");
- np.percentile's ``interpolation=`` (deprecated);
- np.median of an empty array, np.average without weights over an empty axis ("Mean
  of empty slice"), np.cov with fewer observations than ``ddof + 1`` ("Degrees of
  freedom <= 0"), or weighted (the count is the weights' sum), np.corrcoef's
  ``bias``/``ddof`` (deprecated).

Example::

    >>> quiet_in_numpy2(node_of("np.histogram(x, bins=8)"))        # x: float64[100]
    True
    >>> quiet_in_numpy2(node_of("np.histogram(m, bins=2)"))        # m: bool[100]
    False
"""

from __future__ import annotations

import inspect

import numpy as np

from dynamo.graph import Node
from dynamo.tree import tree_leaves

from .node_facts import array_meta

QUIET_IN_NUMPY2 = frozenset({
    "diagflat", "histogram", "histogram_bin_edges", "histogram2d", "matrix_rank", "lstsq",
    "bincount", "unique", "nonzero", "flatnonzero", "argwhere", "digitize", "argpartition",
    "partition", "fft", "ifft", "rfft", "irfft", "fft2", "ifft2", "rfft2", "irfft2",
    "fftshift", "ifftshift", "gradient", "vander", "insert", "delete", "append",
    "setdiff1d", "intersect1d", "union1d", "isin", "trapezoid", "unravel_index",
    "lexsort", "polyder", "triu_indices_from", "tril_indices_from", "unwrap", "kron",
    "percentile", "quantile", "cross", "median", "average", "cov", "corrcoef",
})
_HISTOGRAMS = frozenset({"histogram", "histogram_bin_edges", "histogram2d"})
_ND_FFTS = frozenset({"fft2", "ifft2", "rfft2", "irfft2"})


def quiet_in_numpy2(node: Node) -> bool:
    """``node`` (an op of ``QUIET_IN_NUMPY2``) warns of nothing at Python level with
    these arguments, whatever the values."""
    target = node.target
    if target in _HISTOGRAMS:
        arrays = [array_meta(a) for a in node.args[:2 if target == "histogram2d" else 1]]
        return all(m is not None and m.dtype.kind != "b" for m in arrays) and \
            not any(isinstance(v, str) for v in tree_leaves((node.args, node.kwargs)))
    if target in _ND_FFTS:
        return len(node.args) < 2 and node.kwargs.get("s") is None
    if target == "cross":     # 3-element vectors along the last axes only
        metas = [array_meta(a) for a in node.args[:2]]
        return len(node.args) == 2 and not node.kwargs and \
            all(m is not None and m.shape and _known(m.shape[-1]) and m.shape[-1] == 3
                for m in metas)
    if target in ("percentile", "quantile"):
        return "interpolation" not in node.kwargs
    if target in ("median", "average", "cov", "corrcoef"):
        params = _bind(target, node)
        return params is not None and _COUNTED[target](params)
    return True


def _known(d) -> bool:
    return type(d) is int


def _bind(target: str, node: Node) -> dict | None:
    """The call's arguments by parameter name (defaults left out); None for a call
    NumPy's signature does not take."""
    try:
        return dict(inspect.signature(getattr(np, target)).bind(
            *node.args, **node.kwargs).arguments)
    except TypeError:
        return None


def _static(*values) -> bool:
    return not any(isinstance(v, Node) for v in tree_leaves(values))


def _median(p: dict) -> bool:
    """np.median takes the mean of the middle values: "Mean of empty slice" for an
    empty array only (on NumPy 2 a NaN makes no warning)."""
    src = array_meta(p["a"])
    rest = {k: v for k, v in p.items() if k != "a"}
    return src is not None and not src.scalar and src.dtype.kind in "biuf" and \
        all(_known(d) and d > 0 for d in src.shape) and _static(rest)


def _average(p: dict) -> bool:
    """np.average with weights warns of nothing (zero weights raise); without them it
    is ``a.mean(axis)``: quiet where every reduced axis is not empty."""
    if p.get("weights") is not None:
        return True
    src, axis = array_meta(p["a"]), p.get("axis")
    if src is None or not _static(axis) or not all(_known(d) for d in src.shape):
        return False
    try:
        axes = range(src.ndim) if axis is None else np.atleast_1d(axis) % max(src.ndim, 1)
        return all(src.shape[a] > 0 for a in axes) and src.size > 0
    except (TypeError, IndexError):
        return False


def _cov(p: dict) -> bool:
    """np.cov without weights and ``dtype``: quiet where the observations outnumber
    ``ddof`` (or there are no variables: it returns early)."""
    if any(p.get(k) is not None for k in ("fweights", "aweights", "dtype")):
        return False
    m, y = array_meta(p["m"]), p.get("y")
    rowvar, bias, ddof = p.get("rowvar", True), p.get("bias", False), p.get("ddof")
    if m is None or not _static(rowvar, bias, ddof) or m.ndim > 2 or \
            not all(_known(d) for d in m.shape) or m.dtype.kind not in "biuf":
        return False
    if y is not None and (array_meta(y) is None or array_meta(y).dtype.kind not in "biuf"):
        return False
    shape = (1, *m.shape) if m.ndim < 2 else m.shape if rowvar else m.shape[::-1]
    if m.ndim == 0:
        shape = (1, 1)
    if shape[0] == 0 and y is None:
        return True
    if ddof is None:
        ddof = 0 if bias else 1
    return isinstance(ddof, int) and shape[1] - ddof > 0


def _corrcoef(p: dict) -> bool:
    """np.corrcoef is np.cov (ddof 1), then divisions: ``bias``/``ddof`` are
    deprecated (they warn)."""
    if "bias" in p or "ddof" in p:
        return False
    return _cov({"m": p["x"], "y": p.get("y"), "rowvar": p.get("rowvar", True),
                 "dtype": p.get("dtype")})


_COUNTED = {"median": _median, "average": _average, "cov": _cov, "corrcoef": _corrcoef}
