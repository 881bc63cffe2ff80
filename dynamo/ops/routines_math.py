"""NumPy routines of products, calculus and index grids, each one graph node: ``kron``,
``cross``, ``linalg.multi_dot``, ``gradient``, ``trapezoid``, ``unwrap``, ``indices``
and ``triu_indices``/``tril_indices`` (and their ``*_from``). Shapes, probes and what
breaks follow :mod:`dynamo.ops.routines` (its docstring says how).

Example::

    >>> op = get("kron")
    >>> f8 = np.dtype("f8")
    >>> op.meta(op, (ArrayMeta((2, 3), f8), ArrayMeta((4, 1), f8)), {}).shape
    (8, 3)
"""

from __future__ import annotations

import operator

import numpy as np

from . import rules
from .listed import takes_lists
from .meta import ArrayMeta, probe
from .registry import CREATION, OPAQUE, OpDef, get, register
from .routines import as_meta, operands_kind, small
from .rules import MetaError

# --------------------------------------------------------------------------- products

def kron_rule(op, args, kwargs) -> ArrayMeta:
    """Both shapes padded with leading 1s to one ndim, multiplied elementwise."""
    rules.require_cupy(op, args, kwargs)
    params = rules.bind(op, args, kwargs)
    a, b = as_meta(params["a"], "a"), as_meta(params["b"], "b")
    nd = max(a.ndim, b.ndim)
    if a.ndim == 0 and b.ndim == 0:
        shape = ()
    elif b.ndim == 0:
        shape = a.shape       # np.multiply(a, b)
    else:
        pa, pb = (1,) * (nd - a.ndim) + a.shape, (1,) * (nd - b.ndim) + b.shape
        shape = tuple(x * y for x, y in zip(pa, pb))
    call = [small(m) if isinstance(v, ArrayMeta) else v
            for m, v in ((a, params["a"]), (b, params["b"]))]
    value = rules.run_quietly(op.impl, *call)
    return rules.result_meta(value, shape, operands_kind(args, kwargs))


def cross_rule(op, args, kwargs) -> ArrayMeta:
    """Vectors of 2 or 3 along ``axisa``/``axisb``; the rest broadcasts; the result has
    3 components at ``axisc`` (none when both are 2-vectors)."""
    rules.require_cupy(op, args, kwargs)
    params = rules.bind(op, args, kwargs)
    axes = rules.static({k: params[k] for k in ("axisa", "axisb", "axisc", "axis")},
                        "cross's axes")
    if axes["axis"] is not None:
        axes["axisa"] = axes["axisb"] = axes["axisc"] = axes["axis"]
    a, b = as_meta(params["a"], "a"), as_meta(params["b"], "b")
    if a.ndim < 1 or b.ndim < 1:
        raise ValueError("At least one array has zero dimension")
    ax_a, ax_b = rules.axis_index(axes["axisa"], a.ndim), rules.axis_index(axes["axisb"],
                                                                            b.ndim)
    la, lb = a.shape[ax_a], b.shape[ax_b]
    if la not in (2, 3) or lb not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n"
                         "(dimension must be 2 or 3)")
    rest = np.broadcast_shapes(a.shape[:ax_a] + a.shape[ax_a + 1:],
                               b.shape[:ax_b] + b.shape[ax_b + 1:])
    shape = rest
    if 3 in (la, lb):
        ax_c = rules.axis_index(axes["axisc"], len(rest) + 1)
        shape = rest[:ax_c] + (3,) + rest[ax_c:]
    call = dict(params)
    for key, m, ax, n in (("a", a, ax_a, la), ("b", b, ax_b, lb)):
        call[key] = small(m, 1, np.zeros, {ax: n})
    value = rules.run_quietly(op.impl, **call)
    return rules.result_meta(value, shape, operands_kind(args, kwargs))


def multi_dot_rule(op, args, kwargs) -> ArrayMeta:
    """A chain of 2-d products; a 1-d first (last) operand is a row (column) whose axis
    the result drops again."""

    rules.require_cupy(op, args, kwargs)
    params = rules.bind(op, args, kwargs)
    if params.get("out") is not None:
        raise MetaError("multi_dot(out=)")
    arrays = params["arrays"]
    if not isinstance(arrays, (list, tuple)):
        raise MetaError("multi_dot of an array's rows (pass a list or tuple of arrays)")
    metas = [as_meta(v, "an operand") for v in arrays]
    if len(metas) < 2:
        raise ValueError("Expecting at least two arrays.")
    if len(metas) == 2:
        dot = get("dot")
        return dot.meta(dot, tuple(metas), {})
    shapes = [m.shape for m in metas]
    first, last = len(shapes[0]), len(shapes[-1])
    if first == 1:
        shapes[0] = (1,) + shapes[0]
    if last == 1:
        shapes[-1] = shapes[-1] + (1,)
    if any(len(s) != 2 for s in shapes):
        raise np.linalg.LinAlgError("multi_dot: every operand but the first and last "
                                    "must be two-dimensional")
    for left, right in zip(shapes, shapes[1:]):
        if left[1] != right[0]:
            raise ValueError(f"shapes {left} and {right} not aligned")
    shape = (shapes[0][0], shapes[-1][1])
    shape = shape[1:] if first == 1 else shape
    shape = shape[:-1] if last == 1 else shape
    value = rules.run_quietly(op.impl, [small(m) for m in metas])
    return rules.result_meta(value, shape, operands_kind(arrays))


# --------------------------------------------------------------------------- calculus

def gradient_rule(op, args, kwargs):
    """One array of ``f``'s shape per axis (a tuple for several, the array for one).
    Probes keep at least ``edge_order + 1`` points per axis (``min(d, 3)``)."""
    rules.require_cupy(op, args, kwargs)
    if not args:
        raise MetaError("gradient without f by position")
    f, *spacing = args
    f = as_meta(f, "f")
    if f.dtype == bool:
        raise MetaError("np.gradient of a boolean array fails or not depending on whether "
                        "the coordinates are evenly spaced")
    extra = rules.static({k: v for k, v in kwargs.items()}, "gradient's axis and edge_order")
    if set(extra) - {"axis", "edge_order"}:
        raise TypeError(f"gradient() got unexpected keywords {sorted(extra)}")
    axis = extra.get("axis")
    axes = tuple(range(f.ndim)) if axis is None else rules.axis_tuple(axis, f.ndim)
    call = []
    for i, d in enumerate(spacing):
        m = as_meta(d, "a spacing")
        if m.ndim == 0:
            call.append(probe(d) if isinstance(d, ArrayMeta) else d)
            continue
        d = m
        if d.ndim != 1:
            raise ValueError("distances must be either scalars or 1d")
        if i < len(axes) and d.shape[0] != f.shape[axes[i]]:
            raise ValueError("when 1d, distances must match the length of the "
                             "corresponding dimension")
        call.append(np.arange(min(d.shape[0], 3)).astype(d.dtype))
    value = rules.run_quietly(op.impl, small(f, 3, np.ones), *call, **extra)
    kind = operands_kind(args, kwargs)
    if isinstance(value, tuple):
        return tuple(rules.result_meta(v, f.shape, kind) for v in value)
    return rules.result_meta(value, f.shape, kind)


def trapezoid_rule(op, args, kwargs) -> ArrayMeta:
    """``(d * (y[1:] + y[:-1]) / 2).sum(axis)`` with ``d`` the spacing (``dx``, or the
    differences of ``x``), broadcast like NumPy does it."""
    rules.require_cupy(op, args, kwargs)
    params = rules.bind(op, args, kwargs)
    y = as_meta(params["y"], "y")
    axis = operator.index(rules.static(params.get("axis", -1), "axis"))
    if not -y.ndim <= axis < y.ndim:
        raise IndexError("list assignment index out of range")
    ys = list(y.shape)
    ys[axis] = max(ys[axis] - 1, 0)
    x = params.get("x")
    # probes of at most one element per dimension: whatever the real shapes, NumPy
    # broadcasts them as it broadcasts the real ones (checked first, by the formula)
    call = dict(params, y=small(y))
    if x is None:
        ds = tuple(rules.shape_of(params.get("dx", 1.0)))
        if ds or isinstance(params.get("dx"), ArrayMeta):
            call["dx"] = small(as_meta(params["dx"], "dx"), 1, np.ones)
    else:
        xm = as_meta(x, "x")
        if xm.ndim == 1:
            ds = [1] * y.ndim
            ds[axis] = max(xm.shape[0] - 1, 0)
        elif xm.ndim == 0:
            raise ValueError("diff requires input that is at least one dimensional")
        else:
            ds = list(xm.shape)
            xa = rules.axis_index(axis, xm.ndim)
            ds[xa] = max(ds[xa] - 1, 0)
        call["x"] = small(xm)
    full = np.broadcast_shapes(tuple(ds), tuple(ys))
    shape = full[:rules.axis_index(axis, len(full))] + full[rules.axis_index(
        axis, len(full)) + 1:]
    value = rules.run_quietly(op.impl, **call)
    return rules.result_meta(value, shape, operands_kind(args, kwargs))


# --------------------------------------------------------------------------- index grids

def _count(value, name: str) -> int:
    rules.static(value, name)
    return operator.index(value)


def indices_rule(op, args, kwargs):
    """``(len(dimensions),) + dimensions``, or (``sparse``) one array per axis, of
    shape 1 everywhere but its own axis."""
    params = rules.bind(op, args, kwargs)
    rules.static(params, "indices' dimensions, dtype and sparse")
    dims = tuple(operator.index(d) for d in params["dimensions"])
    value = rules.run_quietly(op.impl, tuple(min(d, 1) for d in dims),
                              dtype=params["dtype"], sparse=params["sparse"])
    if params["sparse"]:
        return tuple(ArrayMeta(tuple(d if j == i else 1 for j in range(len(dims))),
                               v.dtype, "numpy", False) for i, (d, v) in
                     enumerate(zip(dims, value)))
    return ArrayMeta((len(dims),) + dims, value.dtype, "numpy", False)


def _tril_count(n: int, m: int, k: int) -> int:
    """How many (i, j), 0 <= i < n, 0 <= j < m, have j <= i + k (``np.tri(n, m, k)``)."""
    return int(np.clip(np.arange(n) + k + 1, 0, m).sum()) if n > 0 and m > 0 else 0


def tri_indices_rule(op, args, kwargs):
    """Two index arrays, one entry per element of the triangle."""
    rules.require_cupy(op, args, kwargs)
    params = rules.bind(op, args, kwargs)
    if op.name.endswith("_from"):
        arr = as_meta(params["arr"], "arr")
        if arr.ndim != 2:
            raise ValueError("input array must be 2-d")
        n, m = arr.shape
        k = _count(params.get("k", 0), "k")
    else:
        n, k = _count(params["n"], "n"), _count(params.get("k", 0), "k")
        m = n if params.get("m") is None else _count(params["m"], "m")
    n, m = max(n, 0), max(m, 0)     # np.tri(-1) is empty, like np.arange(-1)
    if op.name.startswith("tril"):
        count = _tril_count(n, m, k)
    else:
        count = n * m - _tril_count(n, m, k - 1)
    meta = ArrayMeta((count,), np.dtype(np.intp), operands_kind(args, kwargs), False)
    return (meta, meta)


def unwrap_rule(op, args, kwargs) -> ArrayMeta:
    """``np.unwrap(p, discont, axis, period)``: ``p``'s shape. The dtype (float for
    integer phases with a float period) from a run on a probe of up to 2 points per
    axis, so that NumPy takes the path with differences; ``discont``, ``axis`` and
    ``period`` must be known while tracing (an array there breaks).

    Example: ``np.unwrap(phase, axis=0)`` of a (64, 3) float32 ``phase`` is (64, 3)
    float32."""
    rules.require_cupy(op, args, kwargs)
    params = rules.bind(op, args, kwargs)
    p = as_meta(params["p"], "p")
    opts = rules.static({k: params[k] for k in ("discont", "axis", "period") if k in params},
                        "unwrap's discont, axis and period")
    if p.ndim == 0:
        raise MetaError("np.unwrap of a 0-d array")   # NumPy raises ValueError
    rules.axis_index(opts.get("axis", -1), p.ndim)
    value = rules.run_quietly(op.impl, small(p, 2), **opts)
    return rules.result_meta(value, p.shape, operands_kind(args, kwargs))


# --------------------------------------------------------------------------- registration

# (np.cross([a, b, c], w): a list of graph values, listed.takes_lists)
for _fn, _rule in ((np.kron, takes_lists(kron_rule)), (np.cross, takes_lists(cross_rule)),
                   (np.gradient, gradient_rule), (np.trapezoid, trapezoid_rule),
                   (np.unwrap, unwrap_rule)):
    register(OpDef(_fn.__name__, _fn, _rule, OPAQUE), functions=[_fn])
if hasattr(np, "trapz"):   # removed in NumPy 2.4; the same function before
    register(OpDef("trapz", np.trapz, trapezoid_rule, OPAQUE), functions=[np.trapz])
register(OpDef("multi_dot", np.linalg.multi_dot, multi_dot_rule, OPAQUE, cupy="linalg.multi_dot"),
         functions=[np.linalg.multi_dot])
register(OpDef("indices", np.indices, indices_rule, CREATION), functions=[np.indices])
for _fn in (np.triu_indices, np.tril_indices):
    register(OpDef(_fn.__name__, _fn, tri_indices_rule, CREATION), functions=[_fn])
for _fn in (np.triu_indices_from, np.tril_indices_from):
    register(OpDef(_fn.__name__, _fn, tri_indices_rule, OPAQUE), functions=[_fn])
