"""NumPy routines built from several steps, each one graph node: statistics (``cov``,
``corrcoef``, ``average``), editing (``append``, ``insert``, ``delete``, ``block``),
``isin``, ``partition``/``argpartition``, products (``kron``, ``cross``,
``linalg.multi_dot``), calculus (``gradient``, ``trapezoid``), ``unwrap`` and index grids
(``indices``, ``triu_indices``/``tril_indices`` and their ``*_from``).

Shapes are NumPy's formulas, computed from the real shapes first (so a shape NumPy
rejects is rejected here, before any probe runs); dtypes, scalar-ness and NumPy's
checks of dtypes and options come from running the function itself on small probes:
every dimension shrunk to ``min(d, c)``, with ``c`` chosen per function so that the
probe takes the same path as the real call (``cov`` keeps "0, 1 or several
variables", ``gradient`` keeps "enough points for the edge order"). Probes of weights
and coordinates hold ones, so that no probe divides by a zero weight sum.

What breaks (MetaError, a graph break that lets NumPy run the call):

- ``insert`` with a traced boolean mask; a traced index of a non-integer dtype
  (``delete`` with a traced index array or 1-d mask is captured: the result's length
  is an unbacked size, docs/unbacked.md);
- ``isin(kind='table')`` (its memory use depends on the values' range);
- ``partition`` with a traced ``kth`` or ``order=``; ``multi_dot(out=)``;
- shape-deciding arguments (axes, ``n``, ``k``, ``dimensions``) that are traced.

Errors NumPy raises from values (an index out of bounds in ``insert``/``delete``,
negative ``cov`` weights) happen when the graph runs, as eagerly; inside a ``try``
these calls break (``extras["raises"]``).

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
from .indexing import setitem_rule
from .joining import _members, _probe, concat_shape
from .meta import ArrayMeta, DataSize, probe
from .registry import CREATION, OPAQUE, OpDef, get, register
from .rules import MetaError

# --------------------------------------------------------------------------- helpers


def as_meta(value, name: str) -> ArrayMeta:
    """An operand as a meta: a constant becomes the meta of ``np.asarray(value)`` (every
    routine here converts its operands so, Python scalars included)."""
    if isinstance(value, ArrayMeta):
        return value
    value = np.asarray(rules.static(value, name))
    if value.dtype.hasobject:
        raise MetaError(f"{name} of Python objects")
    return ArrayMeta(value.shape, value.dtype)


def small(m: ArrayMeta, cap: int = 1, fill=np.zeros, keep: dict | None = None):
    """A probe of ``m``'s dtype with every dimension ``min(d, cap)`` (``keep``: axis ->
    size to use instead); a NumPy scalar stays a NumPy scalar."""
    if m.scalar:
        return probe(m)
    shape = [min(int(d), cap) for d in m.shape]
    for axis, size in (keep or {}).items():
        shape[axis] = size
    return fill(tuple(shape), m.dtype)


def _kind(*values) -> str:
    return rules.array_kind(values)


def _reduced(shape: tuple, axes: tuple, keepdims: bool) -> tuple:
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


# --------------------------------------------------------------------------- statistics

def _as_rows(shape: tuple, rowvar: bool, transpose_if) -> tuple:
    """The (variables, observations) shape ``cov`` makes of an operand (``ndmin=2``,
    transposed when ``rowvar`` is false and ``transpose_if(shape)``)."""
    if len(shape) > 2:
        raise ValueError("m has more than 2 dimensions")
    rows = (1,) * (2 - len(shape)) + tuple(shape)
    return rows[::-1] if not rowvar and transpose_if(shape, rows) else rows


def cov_shape(params: dict, x: str) -> tuple:
    """``(N, N)`` for N variables, squeezed (``()`` for one variable)."""
    m = as_meta(params[x], x)
    rowvar = bool(rules.static(params.get("rowvar", True), "rowvar"))
    X = _as_rows(m.shape, rowvar, lambda s, r: len(s) != 1)
    if X[0] == 0:
        return (0, 0)
    y = params.get("y")
    if y is not None:
        Y = _as_rows(as_meta(y, "y").shape, rowvar, lambda s, r: r[0] != 1)
        if Y[1] != X[1]:
            raise ValueError("all the input array dimensions except for the concatenation "
                             "axis must match exactly")
        X = (X[0] + Y[0], X[1])
    for key in ("fweights", "aweights"):
        w = params.get(key)
        if w is not None:
            ws = rules.shape_of(w)
            if len(ws) > 1:
                raise RuntimeError(f"cannot handle multidimensional {key}")
            if (ws[0] if ws else None) != X[1]:
                raise RuntimeError(f"incompatible numbers of samples and {key}")
    return (X[0], X[0]) if X[0] != 1 else ()


def cov_rule(op, args, kwargs) -> ArrayMeta:
    """cov/corrcoef: the probe keeps "0, 1 or several" variables and observations
    (dimensions ``min(d, 2)``), which decides NumPy's path (and corrcoef's scalar)."""
    rules.require_cupy(op, args, kwargs)
    params = rules.bind(op, args, kwargs)
    x = "m" if op.name == "cov" else "x"
    rules.static({k: params.get(k) for k in ("rowvar", "bias", "ddof", "dtype")},
                 f"{op.name}'s options")
    shape = cov_shape(params, x)
    call = {}
    for key, value in params.items():
        if key in (x, "y") and value is not None:
            value = small(as_meta(value, key), 2, np.ones)
        elif key in ("fweights", "aweights") and value is not None:
            value = small(as_meta(value, key), 2, np.ones)
        call[key] = value
    value = rules.run_quietly(op.impl, **call)
    return rules.result_meta(value, shape, _kind(args, kwargs))


def average_rule(op, args, kwargs):
    """``a.mean(axis)`` or the weighted sum over the weights' sum; ``returned=True``
    adds the sum of weights (broadcast to the average's shape)."""
    rules.require_cupy(op, args, kwargs)
    params = rules.bind(op, args, kwargs)
    a = as_meta(params["a"], "a")
    axis, keepdims = rules.static(params.get("axis"), "axis"), params.get("keepdims")
    rules.static((params.get("returned"), keepdims), "returned and keepdims")
    axes = tuple(range(a.ndim)) if axis is None else rules.axis_tuple(axis, a.ndim)
    weights = params.get("weights")
    if weights is not None:
        ws = tuple(rules.shape_of(weights))
        if ws != a.shape:    # NumPy's _weights_are_valid
            if axis is None:
                raise TypeError("Axis must be specified when shapes of a and weights "
                                "differ.")
            if len(ws) != len(axes):
                raise TypeError("Shape of weights must be consistent with shape of a "
                                "along specified axis.")
            if ws != tuple(a.shape[ax] for ax in axes):
                raise ValueError("Shape of weights must be consistent with shape of a "
                                 "along specified axis.")
    shape = _reduced(a.shape, axes, bool(keepdims))
    call = dict(params)
    call["a"] = small(a)
    if weights is not None:
        call["weights"] = small(as_meta(weights, "weights"), 1, np.ones)
    if keepdims is None:
        del call["keepdims"]
    value = rules.run_quietly(op.impl, **call)
    kind = _kind(args, kwargs)
    if params.get("returned"):
        return tuple(rules.result_meta(v, shape, kind) for v in value)
    return rules.result_meta(value, shape, kind)


# --------------------------------------------------------------------------- editing

def _flat_axis(a: ArrayMeta, axis) -> tuple[tuple, int]:
    """``axis=None`` flattens (a 1-d array stays itself): the shape worked on, and the
    axis."""
    if axis is None:
        return (a.shape if a.ndim == 1 else (a.size,)), 0
    return a.shape, rules.axis_index(axis, a.ndim)


def append_rule(op, args, kwargs) -> ArrayMeta:
    """``concatenate((arr, values), axis)``, both flattened when ``axis=None``."""
    rules.require_cupy(op, args, kwargs)
    params = rules.bind(op, args, kwargs)
    axis = rules.static(params.get("axis"), "axis")
    arr, values = _members([params["arr"], params["values"]])
    if axis is None:
        shape = (arr.size + values.size,)
    else:
        shape = concat_shape([arr.shape, values.shape], axis)
    value = rules.run_quietly(op.impl, _probe(arr), _probe(values), axis=axis)
    kinds = {m.kind for m in (arr, values)} - {"const"}
    return ArrayMeta(shape, value.dtype, kinds.pop() if kinds else "numpy", False)


def _index_count(obj, n: int, name: str) -> tuple[int, int]:
    """``(number of indices, their ndim)`` of ``insert``'s ``obj``; a constant ``obj``
    is checked by NumPy itself on a 1-d array of the axis' length."""
    if isinstance(obj, ArrayMeta):
        if obj.dtype == bool:
            raise MetaError(f"np.{name} with a traced boolean mask: the number of "
                            "positions is the number of True values")
        if obj.dtype.kind not in "iu":
            raise MetaError(f"np.{name} with a traced index of dtype {obj.dtype}")
        if obj.ndim > 1:
            raise ValueError(f"index array argument obj to {name} must be one dimensional "
                             "or scalar")
        return obj.size, obj.ndim
    rules.static(obj, "obj")
    rules.run_quietly(np.insert, np.zeros(n, np.int8), obj, 0)   # NumPy's own checks
    if isinstance(obj, slice):
        return len(range(*obj.indices(n))), 1
    indices = np.array(obj)
    if indices.dtype == bool:
        return int(np.count_nonzero(indices)), 1
    return indices.size, indices.ndim


def insert_rule(op, args, kwargs) -> ArrayMeta:
    """One index: ``values`` (``ndmin=arr.ndim``, its first axis moved to ``axis`` for a
    scalar index) fills ``values.shape[axis]`` new slots; several: one slot each, and
    ``values`` broadcasts to them."""
    rules.require_cupy(op, args, kwargs)
    params = rules.bind(op, args, kwargs)
    arr = as_meta(params["arr"], "arr")
    shape, axis = _flat_axis(arr, rules.static(params.get("axis"), "axis"))
    count, index_ndim = _index_count(params["obj"], shape[axis], "insert")
    values = params["values"]
    kind = _kind(args, kwargs)
    where = [slice(None)] * len(shape)
    if count == 1:   # NumPy converts values to arr's dtype, with ndmin=arr.ndim
        if not isinstance(values, ArrayMeta):
            rules.run_quietly(np.array, rules.static(values, "values"), dtype=arr.dtype)
        vshape = tuple(rules.shape_of(values))
        vshape = (1,) * (len(shape) - len(vshape)) + vshape
        if index_ndim == 0:
            ghost = np.broadcast_to(np.zeros((), np.bool_), vshape)
            vshape = np.moveaxis(ghost, 0, axis).shape
        count = vshape[axis]
        values = ArrayMeta(vshape, arr.dtype, kind)
        where[axis] = slice(0, count)
    else:            # new[..., indices, ...] = values: NumPy's fancy assignment
        where[axis] = ArrayMeta((count,), np.dtype(np.intp), kind)
    new = list(shape)
    new[axis] += count
    result = ArrayMeta(tuple(new), arr.dtype, kind, False)
    setitem_rule(get("setitem"), (result, tuple(where), values), {})
    return result


def delete_rule(op, args, kwargs) -> ArrayMeta:
    """A constant ``obj`` (int, slice, indices, mask): NumPy deletes it from a 1-d array
    of the axis' length, which gives the new length and NumPy's errors; a traced
    ``obj``: one integer (one element goes), or an index array or mask (``_delete_traced``)."""
    rules.require_cupy(op, args, kwargs)
    params = rules.bind(op, args, kwargs)
    arr = as_meta(params["arr"], "arr")
    shape, axis = _flat_axis(arr, rules.static(params.get("axis"), "axis"))
    n, obj = shape[axis], params["obj"]
    if isinstance(obj, ArrayMeta) and (obj.ndim > 0 or obj.dtype == np.bool_):
        return _delete_traced(arr, shape, axis, obj, _kind(args, kwargs))
    if isinstance(obj, ArrayMeta):
        if obj.dtype.kind not in "iu":
            raise MetaError("np.delete with a traced index of another type than integer "
                            "or boolean")
        if n == 0:
            raise IndexError(f"index is out of bounds for axis {axis} with size 0")
        left = n - 1
    else:
        left = rules.run_quietly(np.delete, np.zeros(n, np.int8), rules.static(obj, "obj"))
        left = left.shape[0]
    new = list(shape)
    new[axis] = left
    return ArrayMeta(tuple(new), arr.dtype, _kind(args, kwargs), False)


def _delete_traced(arr: ArrayMeta, shape: tuple, axis: int, obj: ArrayMeta,
                   kind: str) -> ArrayMeta:
    """``np.delete`` with a traced mask or index array: how many slices go is data (the
    True elements, the distinct indices), an unbacked size (docs/unbacked.md). NumPy's
    errors from shapes come from a call on zeros of ``obj``'s shape; an index out of
    bounds raises when the graph runs (the op is marked ``raises``)."""
    if kind == "dask":
        raise MetaError("np.delete of a dask array with a traced index array or mask")
    if obj.dtype.kind not in "iub" or obj.dtype == np.bool_ and obj.ndim == 0:
        raise MetaError("np.delete with a traced index that is neither an integer array "
                        "nor a 1-d mask")
    rules.run_quietly(np.delete, np.zeros(shape[axis], np.int8),
                      np.zeros(tuple(obj.shape), obj.dtype))
    new = list(shape)
    new[axis] = DataSize()   # even for an empty obj: its length may be an unbacked size
    return ArrayMeta(tuple(new), arr.dtype, kind, False)


def _block_depth(node, path: str) -> tuple[int, int]:
    """``(list depth, largest array ndim)`` of a nested list, checked like NumPy."""
    if type(node) is tuple:
        raise TypeError(f"{path} is a tuple. Only lists can be used to arrange blocks, "
                        "and np.block does not allow implicit conversion from tuple to "
                        "ndarray.")
    if type(node) is list:
        if not node:
            raise ValueError(f"List at {path} cannot be empty")
        depths = [_block_depth(item, f"{path}[{i}]") for i, item in enumerate(node)]
        if len({d for d, _ in depths}) != 1:
            raise ValueError(f"List depths are mismatched ({path})")
        return depths[0][0] + 1, max(nd for _, nd in depths)
    return 0, as_meta(node, "a block").ndim


def block_rule(op, args, kwargs) -> ArrayMeta:
    """Each block is padded to the result's ndim, then the innermost lists are joined
    along the last axis, the next ones along the one before, and so on."""
    rules.require_cupy(op, args, kwargs)
    params = rules.bind(op, args, kwargs)
    tree = params["arrays"]
    depth, max_nd = _block_depth(tree, "arrays")
    nd = max(depth, max_nd)

    def shape_of(node, level):
        if level == depth:
            s = as_meta(node, "a block").shape
            return (1,) * (nd - len(s)) + tuple(s)
        return concat_shape([shape_of(item, level + 1) for item in node], -(depth - level))

    def dtype_of(node, level):
        """Each level joins its members' results (``np.array``'s dtype for a leaf)."""
        if level == depth:
            return np.asarray(_probe(_members([node])[0])).dtype
        return np.concatenate([np.zeros(1, dtype_of(item, level + 1)) for item in node]).dtype

    def leaves(node, level):
        return [node] if level == depth else [x for item in node
                                              for x in leaves(item, level + 1)]

    shape = shape_of(tree, 0)
    dtype = dtype_of(tree, 0)
    # large results are assembled by slicing into one array of the leaves' result_type:
    # the same dtype except for orders of promotion that do not commute; then NumPy decides
    flat = np.result_type(*[dtype_of(x, depth) for x in leaves(tree, 0)])
    if flat != dtype:
        raise MetaError(f"np.block: the dtype is {dtype} or {flat} depending on the size")
    return ArrayMeta(shape, dtype, _kind(tree), False)


# --------------------------------------------------------------------------- isin, partition

def isin_rule(op, args, kwargs) -> ArrayMeta:
    """``element``'s shape, bool (an array even for a scalar ``element``)."""
    rules.require_cupy(op, args, kwargs)
    params = rules.bind(op, args, kwargs)
    if params.get("kind") == "table":
        raise MetaError("np.isin(kind='table') allocates a table as large as the range "
                        "of the values")
    rules.static({k: params.get(k) for k in ("assume_unique", "invert", "kind")},
                 "isin's options")
    element = params["element"]
    shape = tuple(rules.shape_of(element))
    call = dict(params)
    call["element"] = small(element) if isinstance(element, ArrayMeta) else element
    test = params["test_elements"]
    call["test_elements"] = small(test) if isinstance(test, ArrayMeta) else test
    value = rules.run_quietly(op.impl, **call)
    return rules.result_meta(value, shape, _kind(args, kwargs))


def partition_rule(op, args, kwargs) -> ArrayMeta:
    """partition/argpartition: the input's shape (flattened with ``axis=None``). NumPy
    checks ``kth``, ``axis`` and ``kind`` on a probe that keeps the partitioned axis'
    length (one element across the others, none when the array is empty: NumPy does
    not check ``kth`` then)."""
    rules.require_cupy(op, args, kwargs)
    params = rules.bind(op, args, kwargs)
    a = rules.first_array(params, "a")
    if params.get("order") is not None:
        raise MetaError(f"{op.name}(order=) of structured arrays")
    if isinstance(params["kth"], ArrayMeta):
        raise MetaError(f"{op.name} with a traced kth (NumPy checks its values)")
    rules.static({k: v for k, v in params.items() if k != "a"},
                 f"{op.name}'s kth, axis and kind")
    axis = params["axis"]
    if axis is None:
        shape, tiny = (a.size,), np.zeros(a.size, np.int8)
    elif a.ndim == 0:   # NumPy decides (argpartition takes a 0-d array as 1-element)
        shape, tiny = None, np.zeros((), np.int8)
    else:
        ax = rules.axis_index(axis, a.ndim)
        shape = a.shape
        tiny = small(a.with_(dtype=np.dtype(np.int8)), 1, np.zeros, {ax: a.shape[ax]})
    value = rules.run_quietly(op.impl, tiny, params["kth"], axis=axis, kind=params["kind"])
    dtype = a.dtype if op.name == "partition" else np.dtype(np.intp)
    return ArrayMeta(np.shape(value) if shape is None else shape, dtype, a.kind, False)


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
    return rules.result_meta(value, shape, _kind(args, kwargs))


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
    return rules.result_meta(value, shape, _kind(args, kwargs))


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
    return rules.result_meta(value, shape, _kind(arrays))


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
    kind = _kind(args, kwargs)
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
    return rules.result_meta(value, shape, _kind(args, kwargs))


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
    meta = ArrayMeta((count,), np.dtype(np.intp), _kind(args, kwargs), False)
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
    return rules.result_meta(value, p.shape, _kind(args, kwargs))


# --------------------------------------------------------------------------- registration

_RAISES_INDEX = {"raises": "raises IndexError for an index out of bounds"}

for _fn, _rule, _extras in (
        (np.cov, cov_rule, {"raises": "raises ValueError for negative or non-integer "
                                      "weights"}),
        (np.corrcoef, cov_rule, {}),
        (np.average, average_rule, {"raises": "raises ZeroDivisionError when the weights "
                                              "sum to zero"}),
        (np.append, append_rule, {}),
        (np.insert, insert_rule, _RAISES_INDEX),
        (np.delete, delete_rule, _RAISES_INDEX),
        (np.block, block_rule, {}),
        (np.isin, isin_rule, {}),
        (np.kron, kron_rule, {}),
        (np.cross, cross_rule, {}),
        (np.gradient, gradient_rule, {}),
        (np.trapezoid, trapezoid_rule, {}),
        (np.unwrap, unwrap_rule, {})):
    register(OpDef(_fn.__name__, _fn, _rule, OPAQUE, extras=_extras), functions=[_fn])

if hasattr(np, "trapz"):   # removed in NumPy 2.4; the same function before
    register(OpDef("trapz", np.trapz, trapezoid_rule, OPAQUE), functions=[np.trapz])
register(OpDef("partition", np.partition, partition_rule, OPAQUE), functions=[np.partition])
register(OpDef("argpartition", np.argpartition, partition_rule, OPAQUE),
         functions=[np.argpartition], methods=["argpartition"])
register(OpDef("multi_dot", np.linalg.multi_dot, multi_dot_rule, OPAQUE, cupy="linalg.multi_dot"),
         functions=[np.linalg.multi_dot])
register(OpDef("indices", np.indices, indices_rule, CREATION), functions=[np.indices])
for _fn in (np.triu_indices, np.tril_indices):
    register(OpDef(_fn.__name__, _fn, tri_indices_rule, CREATION), functions=[_fn])
for _fn in (np.triu_indices_from, np.tril_indices_from):
    register(OpDef(_fn.__name__, _fn, tri_indices_rule, OPAQUE), functions=[_fn])
