"""Order statistics and histograms: ``percentile``, ``quantile``, ``nanpercentile``,
``nanquantile``, ``histogram``, ``histogram_bin_edges``.

``np.percentile(x, q, axis)`` is a reduction with ``q``'s shape in front: the reduced
axes go (or stay as 1 with ``keepdims``) and ``np.shape(q)`` comes first (the nan*
functions of an empty array return its ``nanmean``, without ``q``'s axes). The dtype,
scalar-ness and NumPy's checks of constant ``q`` ("Percentiles must be in the range
[0, 100]") and of ``method`` come from running the function on ``min(d, 1)`` probes
with the real ``q`` (a traced ``q`` becomes zeros: its values are checked when the
graph runs).

``np.histogram(x, bins)`` is captured when ``bins`` is an integer or a sequence of
edges: the counts have ``bins`` (or ``len(edges) - 1``) elements and the edges one
more, whatever the data; only the values depend on it (and errors from values, such as
a NaN in ``x`` without ``range=``, happen when the graph runs, as eagerly). A string
``bins`` (``'auto'``, ``'fd'``, ``'sturges'``...) computes the number of bins from the
data: the counts have an unbacked size ``u`` and the edges ``u + 1`` (docs/unbacked.md),
as ``np.bincount``'s length is the largest value plus 1.

Example::

    >>> op = get("percentile")
    >>> op.meta(op, (ArrayMeta((20, 3), np.dtype("f8")), (5, 50, 95)), {"axis": 0}).shape
    (3, 3)
"""

from __future__ import annotations

import numpy as np

from . import rules
from .meta import ArrayMeta, DataSize, probe
from .registry import OPAQUE, OpDef, register
from .rules import MetaError


def _tiny(value):
    return rules.substitute(value, lambda m: probe(m, keep_ndim=True))


def quantile_rule(op, args, kwargs) -> ArrayMeta:
    """percentile/quantile/nan*: ``q.shape + reduced(a.shape)``."""
    rules.require_cupy(op, args, kwargs)
    params = rules.bind(op, args, kwargs)
    a = rules.first_array(params, "a")
    if params.get("overwrite_input"):
        raise MetaError(f"{op.name}(overwrite_input=True) leaves its input in an "
                        "unspecified order")
    for key in ("out", "weights", "interpolation"):
        if params.get(key) is not None:
            raise MetaError(f"{op.name}({key}=)")
    q = params["q"]
    rules.static({k: params.get(k) for k in ("axis", "method", "keepdims")},
                 f"{op.name}'s axis, method and keepdims")
    axis, keepdims = params.get("axis"), bool(params.get("keepdims"))
    axes = tuple(range(a.ndim)) if axis is None else rules.axis_tuple(axis, a.ndim)
    if op.name.startswith("nan") and len(rules.shape_of(q)) >= 2 and \
            1 < len(set(axes)) < a.ndim:
        # NumPy puts q's axes elsewhere here (nanquantile(a (2,3,4), q (2,3), axis=(0,1))
        # is (3,4,2) in 2.4, not (2,3,4); 2.5 may refuse a q of more dimensions): NumPy
        # decides, eagerly
        raise MetaError(f"{op.name} with a q of 2+ dimensions and several axes")
    if keepdims:
        reduced = tuple(1 if i in axes else d for i, d in enumerate(a.shape))
    else:
        reduced = tuple(d for i, d in enumerate(a.shape) if i not in axes)
    shape = tuple(rules.shape_of(q)) + reduced
    if op.name.startswith("nan") and a.size == 0:  # NumPy returns nanmean(a) (NaN), no q
        shape = reduced
    call = {k: v for k, v in kwargs.items()}
    value = rules.run_quietly(op.impl, *_tiny(args), **_tiny(call))
    return rules.result_meta(value, shape, rules.array_kind((args, kwargs)))


def _bins(bins, what: str) -> tuple[int, object]:
    """The number of edges, and what the probe call passes as ``bins``. A string
    (``'auto'``, ``'fd'``, ``'sturges'``...) names NumPy's estimator, which computes
    the number of bins from the data: the counts are an unbacked size ``u`` and the
    edges ``u + 1`` (``DataSize``; the probe checks the name and gives the dtypes)."""
    if isinstance(bins, str):
        return DataSize(offset=1), bins
    if isinstance(bins, ArrayMeta):
        if bins.ndim != 1:
            raise ValueError("`bins` must be 1d, when an array")
        return bins.shape[0], np.arange(min(bins.shape[0], 2), dtype=bins.dtype)
    rules.static(bins, "bins")
    if np.ndim(bins) == 0:
        return int(bins) + 1, bins   # NumPy checks it is a positive integer on the probe
    return len(bins), bins           # and that the edges increase


def histogram_rule(op, args, kwargs):
    """histogram: (counts (n,), edges (n + 1,)); histogram_bin_edges: the edges."""
    rules.require_cupy(op, args, kwargs)
    params = rules.bind(op, args, kwargs)
    a = rules.first_array(params, "a")
    edges, probe_bins = _bins(params.get("bins", 10), f"np.{op.name}")
    rules.static({k: params.get(k) for k in ("range", "density")}, "range and density")
    weights = params.get("weights")
    if weights is not None and tuple(rules.shape_of(weights)) != tuple(a.shape):
        raise ValueError("weights should have the same shape as a.")
    call = {k: v for k, v in params.items() if v is not None}
    call["a"] = np.zeros(min(a.size, 1), a.dtype)
    if weights is not None:
        call["weights"] = np.zeros(call["a"].shape, np.asarray(_tiny(weights)).dtype)
    call["bins"] = probe_bins
    value = rules.run_quietly(op.impl, **call)
    kind = rules.array_kind((args, kwargs))
    if op.name == "histogram_bin_edges":
        if isinstance(edges, DataSize):   # the edges alone: a size of their own
            edges = DataSize()
        return ArrayMeta((edges,), value.dtype, kind, False)
    counts, edge_values = value
    n_counts = DataSize() if isinstance(edges, DataSize) else max(edges - 1, 0)
    return (ArrayMeta((n_counts,), counts.dtype, kind, False),
            ArrayMeta((edges,), edge_values.dtype, kind, False))


def histogram2d_rule(op, args, kwargs):
    """``np.histogram2d(x, y, bins, range, density, weights)``: ``(H, xedges, yedges)``,
    whose shapes only ``bins`` decides (constant bins: counts or edges). Dtypes and
    NumPy's checks of the bins from a call on probes of the data's length clipped to 1;
    ``x`` and ``y`` of different lengths raise NumPy's ValueError."""
    params = rules.bind(op, args, kwargs)
    x, y = rules.first_array(params, "x"), rules.first_array(params, "y")
    rules.static({k: params.get(k) for k in ("bins", "range", "density")},
                 "bins, range and density")
    if x.ndim != 1 or y.ndim != 1:
        raise MetaError("np.histogram2d of arrays that are not 1-d")
    if x.shape != y.shape:
        raise ValueError("x and y must have the same length.")
    weights = params.get("weights")
    if weights is not None and tuple(rules.shape_of(weights)) != tuple(x.shape):
        raise MetaError("np.histogram2d with weights of another shape than x")
    n = min(x.shape[0], 1)
    call = {k: v for k, v in params.items() if v is not None}
    call.update(x=np.zeros(n, x.dtype), y=np.zeros(n, y.dtype))
    if weights is not None:
        call["weights"] = np.zeros(n, np.asarray(_tiny(weights)).dtype)
    value = rules.run_quietly(op.impl, **call)
    kind = rules.array_kind((args, kwargs))
    return tuple(ArrayMeta(v.shape, v.dtype, kind, False) for v in value)


register(OpDef("histogram2d", np.histogram2d, histogram2d_rule, OPAQUE,
               extras={"raises": "raises ValueError for NaN or inf in the data when "
                                 "range= is not given"},
               doc="constant bins: shapes are static"), functions=[np.histogram2d])
for _fn in (np.percentile, np.quantile, np.nanpercentile, np.nanquantile):
    register(OpDef(_fn.__name__, _fn, quantile_rule, OPAQUE), functions=[_fn])
for _fn in (np.histogram, np.histogram_bin_edges):
    register(OpDef(_fn.__name__, _fn, histogram_rule, OPAQUE,
                   extras={"raises": "raises ValueError for NaN or inf in the data when "
                                     "range= is not given"},
                   doc="integer or explicit bins: shapes are static"), functions=[_fn])
