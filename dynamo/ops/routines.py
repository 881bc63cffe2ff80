"""NumPy routines built from several steps, each one graph node: statistics (``cov``,
``corrcoef``, ``average``), editing (``append``, ``insert``, ``delete``, ``block``),
``isin`` and ``partition``/``argpartition``; products, calculus and index grids are in
:mod:`dynamo.ops.routines_math`, which shares the helpers here.

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

    >>> op = get("append")
    >>> f8 = np.dtype("f8")
    >>> op.meta(op, (ArrayMeta((2, 3), f8), ArrayMeta((4, 3), f8)), {"axis": 0}).shape
    (6, 3)
"""

from __future__ import annotations

import numpy as np

from . import rules
from .indexing import setitem_rule
from .joining import _members, _probe, concat_shape
from .meta import ArrayMeta, DataSize, probe
from .registry import OPAQUE, OpDef, get, register
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


def operands_kind(*values) -> str:
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
    return rules.result_meta(value, shape, operands_kind(args, kwargs))


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
    kind = operands_kind(args, kwargs)
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
    kind = operands_kind(args, kwargs)
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
        return _delete_traced(arr, shape, axis, obj, operands_kind(args, kwargs))
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
    return ArrayMeta(tuple(new), arr.dtype, operands_kind(args, kwargs), False)


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
    return ArrayMeta(shape, dtype, operands_kind(tree), False)


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
    return rules.result_meta(value, shape, operands_kind(args, kwargs))


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
        (np.isin, isin_rule, {})):
    register(OpDef(_fn.__name__, _fn, _rule, OPAQUE, extras=_extras), functions=[_fn])

register(OpDef("partition", np.partition, partition_rule, OPAQUE), functions=[np.partition])
register(OpDef("argpartition", np.argpartition, partition_rule, OPAQUE),
         functions=[np.argpartition], methods=["argpartition"])
