"""Ops whose result size only the data decides: ``nonzero``, ``flatnonzero``,
``argwhere``, one-argument ``where``, ``unique``, ``bincount`` (``x[mask]`` is in
:mod:`dynamo.ops.indexing`), and ``sym_size``, which reads such a size when the graph
runs.

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
from .meta import DASK, ArrayMeta, DataSize
from .registry import OPAQUE, OpDef, register
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
        raise MetaError("np.unique(axis=...): rows are not modelled")
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
    """``max(x) + 1`` (at least ``minlength``) counts: data-dependent. ``x`` is 1-d of
    an integer type NumPy casts safely to intp; ``weights`` of ``x``'s shape make the
    counts float64."""
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
    return ArrayMeta((DataSize(),), value.dtype, x.kind, False)


def sym_size(x, dim: int) -> int:
    """``x.shape[dim]``, as the graph reads an unbacked size when it runs."""
    return x.shape[dim]


def _no_rule(op, args, kwargs):
    raise MetaError("sym_size is made by the translator only")


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
register(OpDef("sym_size", sym_size, _no_rule, OPAQUE,
               doc="x.shape[dim] of an array whose size the data decided"))
