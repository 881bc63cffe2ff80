"""Ops whose result size only the data decides: ``nonzero``, ``flatnonzero``,
``argwhere``, one-argument ``where``, ``unique`` (``axis=`` too) and NumPy 2's
``unique_values``/``unique_counts``/``unique_inverse``/``unique_all``, ``bincount``,
``extract``, ``compress``, the set operations ``intersect1d``, ``union1d``,
``setdiff1d``, ``setxor1d``, and ``trim_zeros`` (``x[mask]`` and ``np.delete`` with a
mask are in :mod:`dynamo.ops.indexing` and :mod:`dynamo.ops.routines`), and
``sym_size``, which reads such a size when the graph runs.

A rule marks the data-dependent dimension ``DataSize()``; ``OutputGraph.call_op``
makes it a fresh *unbacked* symbolic size (``ShapeEnv.new_unbacked``), which later ops
use like any symbolic size and nothing may read as a number (see docs/unbacked.md).
Dtypes and NumPy's errors come from running the function on a one-element probe.

Example::

    >>> op = get("nonzero")
    >>> op.meta(op, (ArrayMeta((4, 5), np.dtype("f4")),), {})
    (ArrayMeta(shape=(DataSize(0, nonzero_of=0),), dtype=dtype('int64'), ...), ...)
"""

from __future__ import annotations

import numpy as np

from . import rules
from .meta import DASK, ArrayMeta, DataSize, probe
from .registry import OPAQUE, VIEW, OpDef, register
from .rules import MetaError

_INTP = np.dtype(np.intp)


def _source(op, params: dict, name: str) -> ArrayMeta:
    """The array argument ``name``; a dask array's counts are not modelled (break)."""
    a = rules.first_array(params, name)
    if a.kind == DASK:
        raise MetaError(f"np.{op.name} of a dask array: its size depends on the data")
    return a


def nonzero_rule(op, args, kwargs) -> tuple:
    """One index array per dimension, all of one data-dependent length."""
    a = _source(op, rules.bind(op, args, kwargs), "a")
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use "
                         "np.atleast_1d(scalar).nonzero() instead.")
    return tuple(ArrayMeta((DataSize(nonzero_of=0),), _INTP, a.kind, False)
                 for _ in range(a.ndim))


def flatnonzero_rule(op, args, kwargs) -> ArrayMeta:
    a = _source(op, rules.bind(op, args, kwargs), "a")
    return ArrayMeta((DataSize(nonzero_of=0),), _INTP, a.kind, False)


def argwhere_rule(op, args, kwargs) -> ArrayMeta:
    """``(count, a.ndim)``; a 0-d ``a`` counts as one element: ``(0 or 1, 0)``."""
    a = _source(op, rules.bind(op, args, kwargs), "a")
    return ArrayMeta((DataSize(nonzero_of=0), a.ndim), _INTP, a.kind, False)


def one_argument_where(fn, args: tuple, kwargs: dict):
    """``np.where(condition)`` is ``np.nonzero(condition)`` (NumPy's documentation says
    so): the op and arguments to call instead, or None for any other call."""
    if fn is np.where and len(args) == 1 and not kwargs:
        return _NONZERO, args, {}
    return None


_UNIQUE_FLAGS = ("return_index", "return_inverse", "return_counts")


def unique_rule(op, args, kwargs):
    """The sorted distinct values (``axis=None``: of the flattened array), then the
    arrays the flags ask for: first indices and counts of the values' length, the
    inverse of the input's (NumPy 2: its shape; a flat length before)."""
    params = rules.bind(op, args, kwargs)
    ar = _source(op, params, "ar")
    flags = [rules.static(params.get(k, False), k) for k in _UNIQUE_FLAGS]
    if params.get("axis") is not None:
        return unique_axis_rule(op, args, kwargs)
    extra = {k: rules.static(params[k], k) for k in ("equal_nan", "sorted") if k in params}
    small = np.zeros((1,) * ar.ndim, ar.dtype)   # dtypes and the inverse's rank
    result = rules.run_quietly(np.unique, small, *flags, **extra)
    out = [ArrayMeta((DataSize(),), ar.dtype, ar.kind, False)]
    extras = [f for f, on in zip(_UNIQUE_FLAGS, flags) if on]
    for name, value in zip(extras, result[1:] if extras else ()):
        if name == "return_inverse":
            shape = ar.shape if value.shape == small.shape else (ar.size,)
            out.append(ArrayMeta(tuple(shape), value.dtype, ar.kind, False))
        else:
            out.append(ArrayMeta((DataSize(),), value.dtype, ar.kind, False))
    return tuple(out) if extras else out[0]


def bincount_rule(op, args, kwargs) -> ArrayMeta:
    """``max(x) + 1`` (at least ``minlength``) counts: data-dependent, and a function
    of ``x`` and ``minlength`` only (``DataSize.measure``), so the counts and the sums
    of weights over one ``x`` have one length. ``x`` is 1-d of an integer type NumPy
    casts safely to intp; ``weights`` of ``x``'s shape make the counts float64."""
    params = rules.bind(op, args, kwargs)
    x = _source(op, params, "x")
    if x.ndim != 1:
        raise ValueError("object too deep for desired array" if x.ndim > 1 else
                         "object of too small depth for desired array")
    weights = params.get("weights")
    if weights is not None and tuple(rules.shape_of(weights)) != tuple(x.shape):
        raise ValueError("The weights and list don't have the same length.")
    minlength = rules.static(params.get("minlength", 0), "minlength")
    tiny = rules.substitute(weights, lambda m: np.zeros((1,), m.dtype))
    value = rules.run_quietly(np.bincount, np.zeros((1,), x.dtype), tiny, minlength)
    length = DataSize(nonzero_of=_position((args, kwargs), x),
                      measure=("bincount", minlength))
    return ArrayMeta((length,), value.dtype, x.kind, False)


def _position(params_call, target: ArrayMeta) -> int | None:
    """Where ``target`` is among the ArrayMetas of a call (``(args, kwargs)``, in
    ``rules.metas_in`` order): a ``DataSize.nonzero_of``."""
    for i, m in enumerate(rules.metas_in(params_call)):
        if m is target:
            return i
    return None


# What an op reports when a size it reads off the data may be negative (NumPy raises
# then, when the graph runs, as eagerly): ``OutputGraph.call_op`` marks the node
# ``may_raise`` (see ``raising.raising_nodes``).
NEGATIVE_SIZE = "raises ValueError for a negative size"


def raises_for_data(mark: DataSize) -> bool:
    """Does the op that made this size raise for some values of its data (a size read
    from a 0-d array's value: negative; np.repeat's counts: a negative one)? Then
    ``OutputGraph.call_op`` marks its node ``may_raise``."""
    return mark.measure in ("value", ("repeat",))


def valued_shape(shape, call) -> tuple:
    """A creation op's shape (``np.zeros((n, labels.max() + 1))``): ints as
    ``rules.shape_arg`` checks them, and each 0-d integer array (a value of the graph)
    a ``DataSize`` of its own, the array's value (``measure="value"``: two shapes that
    read one array have one size). ``call`` is the op's ``(args, kwargs)``, to find the
    array's position. Anything else that holds an array (a 1-d shape array, a float or
    bool 0-d array: NumPy's TypeError) decides nothing here: the op breaks as before.

    Example::

        >>> k = ArrayMeta((), np.dtype("i8"), "numpy", True)
        >>> valued_shape((5, k), (((5, k),), {}))
        (5, DataSize(1, nonzero_of=0, measure='value'))
    """
    items = shape if isinstance(shape, (tuple, list)) else (shape,)
    if not any(isinstance(d, ArrayMeta) for d in items):
        return rules.shape_arg(shape)
    out = []
    for d in items:
        if not isinstance(d, ArrayMeta):
            out.append(rules.shape_arg((d,))[0])
        elif d.ndim == 0 and d.dtype.kind in "iu" and d.kind != DASK:
            # one array twice (np.zeros((k, k))) is one size: the key of its first place
            first = next(j for j, e in enumerate(items) if e is d)
            out.append(DataSize(key=first, nonzero_of=_position(call, d), measure="value"))
        else:
            rules.static(d, "the shape")   # breaks: the result's shape depends on its data
    return tuple(out)


def _counted(condition, args, kwargs) -> DataSize:
    """The length of a selection by ``condition``'s nonzero elements: the same size as
    ``x[condition]`` and ``np.flatnonzero(condition)`` when it is a traced array."""
    of = _position((args, kwargs), condition) if isinstance(condition, ArrayMeta) else None
    return DataSize(nonzero_of=of)


def extract_rule(op, args, kwargs) -> ArrayMeta:
    """``np.extract(condition, arr)``: the elements of ``arr.ravel()`` where
    ``condition.ravel()`` is nonzero. A condition longer than ``arr`` raises or not by
    where its nonzero elements are (NumPy takes them as indices): not modelled."""
    params = rules.bind(op, args, kwargs)
    cond, arr = params["condition"], _source(op, params, "arr")
    if not isinstance(cond, ArrayMeta):   # a constant condition: NumPy's own answer
        n = rules.run_quietly(np.extract, rules.static(cond, "condition"),
                              np.zeros(arr.size, np.int8)).shape[0]
        return ArrayMeta((n,), arr.dtype, arr.kind, False)
    if cond.kind == DASK:
        raise MetaError("np.extract with a dask condition: its size depends on the data")
    if cond.size > arr.size:
        raise MetaError("np.extract with a condition longer than the array: NumPy raises "
                        "IndexError or not by where its nonzero elements are")
    return ArrayMeta((_counted(cond, args, kwargs),), arr.dtype, arr.kind, False)


def compress_rule(op, args, kwargs) -> ArrayMeta:
    """``np.compress(condition, a, axis)``: the slices of ``a`` along ``axis`` (of the
    flattened ``a`` for None) where the 1-d ``condition`` is nonzero. A condition
    longer than the axis raises or not by its values (not modelled); ``out=`` breaks."""
    params = rules.bind(op, args, kwargs)
    cond, a = params["condition"], _source(op, params, "a")
    if params.get("out") is not None:
        raise MetaError("np.compress(out=...): the result's size depends on the data")
    axis = rules.static(params.get("axis"), "axis")
    shape = (a.size,) if axis is None else a.shape
    at = 0 if axis is None else rules.axis_index(axis, a.ndim)
    if not isinstance(cond, ArrayMeta):   # a constant condition: NumPy's own answer
        n = rules.run_quietly(np.compress, rules.static(cond, "condition"),
                              np.zeros(shape[at], np.int8)).shape[0]
        return ArrayMeta(tuple(shape[:at]) + (n,) + tuple(shape[at + 1:]), a.dtype,
                         a.kind, False)
    if cond.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    if cond.kind == DASK:
        raise MetaError("np.compress with a dask condition: its size depends on the data")
    if cond.shape[0] > shape[at]:
        raise MetaError("np.compress with a condition longer than the axis: NumPy raises "
                        "IndexError or not by where its nonzero elements are")
    size = _counted(cond, args, kwargs)
    return ArrayMeta(tuple(shape[:at]) + (size,) + tuple(shape[at + 1:]), a.dtype, a.kind,
                     False)


def compress_method(args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """``x.compress(condition, axis)`` is ``np.compress(condition, x, axis)``."""
    if len(args) < 2:
        return args, kwargs
    return (args[1], args[0], *args[2:]), kwargs


_INVERSE = ("inverse_indices",)


def unique_all_rule(op, args, kwargs):
    """NumPy 2's ``unique_values``, ``unique_counts``, ``unique_inverse``, ``unique_all``:
    the named tuple NumPy returns (``UniqueCountsResult``...), the values, first indices
    and counts of one data-dependent length, the inverse of the input's shape."""
    x = _source(op, rules.bind(op, args, kwargs), "x")
    value = rules.run_quietly(op.impl, probe(x, keep_ndim=True))
    if not isinstance(value, tuple):
        return ArrayMeta((DataSize(),), value.dtype, x.kind, False)
    metas = [ArrayMeta(tuple(x.shape) if field in _INVERSE else (DataSize(),), v.dtype,
                       x.kind, False) for field, v in zip(value._fields, value)]
    return type(value)(*metas)


def unique_axis_rule(op, args, kwargs):
    """``np.unique(ar, axis=k)``: the distinct slices along ``k`` (their number is
    data), and the flags' arrays: first indices and counts of that length, the inverse
    of ``ar.shape[k]``. Dtype errors (object arrays) come from a probe of ``ar``'s
    rank."""
    params = rules.bind(op, args, kwargs)
    ar = _source(op, params, "ar")
    axis = rules.axis_index(params["axis"], ar.ndim)
    flags = [rules.static(params.get(k, False), k) for k in _UNIQUE_FLAGS]
    extra = {k: rules.static(params[k], k) for k in ("equal_nan", "sorted") if k in params}
    small = probe(ar, keep_ndim=True)
    result = rules.run_quietly(np.unique, small, *flags, axis=axis, **extra)
    values = result[0] if any(flags) else result
    shape = list(ar.shape)
    shape[axis] = DataSize()
    out = [ArrayMeta(tuple(shape), values.dtype, ar.kind, False)]
    extras = [f for f, on in zip(_UNIQUE_FLAGS, flags) if on]
    for name, value in zip(extras, result[1:] if extras else ()):
        if name == "return_inverse":
            inverse = (ar.shape[axis],) if value.ndim == 1 else tuple(ar.shape)
            out.append(ArrayMeta(inverse, value.dtype, ar.kind, False))
        else:
            out.append(ArrayMeta((DataSize(),), value.dtype, ar.kind, False))
    return tuple(out) if extras else out[0]


def set_op_rule(op, args, kwargs):
    """``intersect1d``, ``union1d``, ``setdiff1d``, ``setxor1d``: sorted (or, with
    ``assume_unique``, filtered) 1-d values of a data-dependent length; with
    ``return_indices`` (``intersect1d``) two index arrays of the same length. Dtypes
    from a call on one-element probes of the arguments' dtypes."""
    params = rules.bind(op, args, kwargs)
    arrays = [params[k] for k in ("ar1", "ar2")]
    if any(isinstance(a, ArrayMeta) and a.kind == DASK for a in arrays):
        raise MetaError(f"np.{op.name} of a dask array: its size depends on the data")
    options = {k: rules.static(v, k) for k, v in params.items() if k not in ("ar1", "ar2")}
    tiny = [np.zeros((1,), a.dtype) if isinstance(a, ArrayMeta) else a for a in arrays]
    value = rules.run_quietly(op.impl, *tiny, **options)
    kind = rules.array_kind((args, kwargs))
    if isinstance(value, tuple):
        return tuple(ArrayMeta((DataSize(),), v.dtype, kind, False) for v in value)
    return ArrayMeta((DataSize(),), value.dtype, kind, False)


def trim_zeros_rule(op, args, kwargs) -> ArrayMeta:
    """``np.trim_zeros(filt, trim, axis)``: a view of ``filt`` without its leading and/or
    trailing zeros, along ``axis`` (every axis for None): each trimmed length is data."""
    params = rules.bind(op, args, kwargs)
    filt = _source(op, params, "filt")
    options = {k: rules.static(v, k) for k, v in params.items() if k != "filt"}
    rules.run_quietly(op.impl, probe(filt, keep_ndim=True), **options)  # NumPy's errors
    if filt.ndim == 0:
        raise MetaError("np.trim_zeros of a 0-d array")
    axis = options.get("axis")
    trimmed = range(filt.ndim) if axis is None else rules.axis_tuple(axis, filt.ndim)
    shape = tuple(DataSize(key=d) if d in trimmed else n for d, n in enumerate(filt.shape))
    return ArrayMeta(shape, filt.dtype, filt.kind, False)


def sym_size(x, dim: int) -> int:
    """``x.shape[dim]``, as the graph reads an unbacked size when it runs."""
    return x.shape[dim]


_PYTHON_NUMBERS = {"float": float, "int": int}


def sym_number(x, fn: str) -> float:
    """``float(x)`` of a 0-d array, as the graph reads an unbacked number (``float(loss)``
    used in arithmetic, ``ShapeEnv.new_unbacked_number``) when it runs."""
    return _PYTHON_NUMBERS[fn](x)


def sym_int(value) -> int:
    """An int the graph computes from unbacked sizes (``max(u0, 1)``, ``u0 // 2``:
    ``variables/size_values.py``): ``value`` is the expression, evaluated with Python's
    own operators on the sizes as the graph runs, so it is eager's int."""
    return value


def sym_truth(value) -> np.ndarray:
    """A comparison of unbacked sizes (``len(kept) > 2``) as the graph computes it: the
    Python bool, held as a 0-d bool array the glue turns back into ``bool``."""
    return np.asarray(bool(value))


def sym_truth_scalar(value, dtype: str) -> np.generic:
    """``sym_truth`` beside a NumPy scalar of ``dtype`` (``(len(kept) > 0) +
    np.int8(127)``): the bool as a scalar of that dtype, which is what NEP 50 makes of
    eager's Python bool there; Python's operator on two scalars of one type then takes
    NumPy's scalar path, with its overflow checks and warnings (``overflow encountered
    in scalar add``). A 0-d array's ufunc, or a bool scalar beside an int8 one, has none.

        >>> sym_truth_scalar(3 > 2, "|i1") + np.int8(1)
        np.int8(2)
    """
    return np.dtype(dtype).type(bool(value))


def _no_rule(op, args, kwargs):
    raise MetaError(f"{op.name} is made by the translator only")


_NONZERO = register(OpDef("nonzero", np.nonzero, nonzero_rule, OPAQUE,
                          doc="indices of the nonzero elements, one array per dimension "
                              "(their length is an unbacked size)"),
                    functions=[np.nonzero], methods=["nonzero"])
register(OpDef("flatnonzero", np.flatnonzero, flatnonzero_rule, OPAQUE),
         functions=[np.flatnonzero])
register(OpDef("argwhere", np.argwhere, argwhere_rule, OPAQUE), functions=[np.argwhere])
register(OpDef("unique", np.unique, unique_rule, OPAQUE,
               doc="sorted distinct values (axis=None), with return_index/inverse/counts"),
         functions=[np.unique])
register(OpDef("bincount", np.bincount, bincount_rule, OPAQUE,
               extras={"raises": "raises ValueError for a negative value"}),
         functions=[np.bincount])
register(OpDef("extract", np.extract, extract_rule, OPAQUE,
               doc="the elements where the condition is nonzero (an unbacked length)"),
         functions=[np.extract])
register(OpDef("compress", np.compress, compress_rule, OPAQUE,
               doc="the slices along an axis where the condition is nonzero"),
         functions=[np.compress], methods=["compress"], method_adapter=compress_method)
for _fn in (np.unique_values, np.unique_counts, np.unique_inverse, np.unique_all):
    register(OpDef(_fn.__name__, _fn, unique_all_rule, OPAQUE), functions=[_fn])
for _fn in (np.intersect1d, np.union1d, np.setdiff1d, np.setxor1d):
    register(OpDef(_fn.__name__, _fn, set_op_rule, OPAQUE), functions=[_fn])
register(OpDef("trim_zeros", np.trim_zeros, trim_zeros_rule, VIEW,
               doc="a view without the leading/trailing zeros (unbacked lengths)"),
         functions=[np.trim_zeros])
register(OpDef("sym_size", sym_size, _no_rule, OPAQUE,
               doc="x.shape[dim] of an array whose size the data decided"))
register(OpDef("sym_number", sym_number, _no_rule, OPAQUE,
               doc="float(x) of a 0-d array: a Python number the data decided"))
register(OpDef("sym_int", sym_int, _no_rule, OPAQUE,
               doc="an int computed from data-dependent sizes (max(u0, 1), u0 // 2)"))
register(OpDef("sym_truth", sym_truth, _no_rule, OPAQUE,
               doc="a comparison of data-dependent sizes, as a 0-d bool array"))
register(OpDef("sym_truth_scalar", sym_truth_scalar, _no_rule, OPAQUE,
               doc="a comparison of data-dependent sizes, as a NumPy scalar of the "
                   "dtype of the scalar beside it"))
