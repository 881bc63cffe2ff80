"""Reductions and scans: ``sum``, ``mean``, ``var``, ``argmax``, ``median``, ``nan*``,
``cumsum``, ``diff``...

One rule serves every reduction: the reduced axes (``axis=None``, an int, a tuple,
negatives) are dropped, or kept as 1 with ``keepdims``; the dtype and scalar-ness
come from running the real function on probes of the same ndim whose dimensions are
``min(d, 1)``, with the real ``axis``, ``dtype``, ``ddof``, ``initial`` and ``where``.
Because a probe is empty exactly when the array is, NumPy's own errors for empty
reductions ("zero-size array to reduction operation maximum which has no identity")
and for bad arguments (a tuple axis for ``argmax``) happen on the probe too.

Example::

    >>> op = get("sum")
    >>> op.meta(op, (ArrayMeta((2, 3, 4), np.dtype("i4")),), {"axis": (0, -1)})
    ArrayMeta(shape=(3,), dtype=dtype('int64'), kind='numpy', scalar=False)
"""

from __future__ import annotations

import numpy as np

from . import rules
from .meta import NUMPY, ArrayMeta, probe
from .registry import OPAQUE, REDUCTION, OpDef, get, register
from .rules import MetaError


def reduction(op, args, kwargs) -> ArrayMeta:
    """Drop (or keep as 1) the reduced axes; dtype and errors from probes."""
    kind = rules.array_kind((args, kwargs))
    params = rules.bind(op, args, kwargs)
    a = array_operand(params[next(iter(params))])
    if params.get("overwrite_input"):
        raise MetaError(f"{op.name}(overwrite_input=True) leaves its input in an "
                        "unspecified order")
    axis, keepdims = params.get("axis"), bool(params.get("keepdims") or False)
    if a.ndim == 0:  # NumPy accepts axis=0 and -1 here; the probe checks the rest
        axes = ()
    else:
        axes = tuple(range(a.ndim)) if axis is None else rules.axis_tuple(axis, a.ndim)
    where = params.get("where")
    if isinstance(where, ArrayMeta) and np.broadcast_shapes(where.shape, a.shape) != a.shape:
        raise ValueError(f"where= of shape {where.shape} does not broadcast to {a.shape}")
    if keepdims:
        shape = tuple(1 if i in axes else d for i, d in enumerate(a.shape))
    else:
        shape = tuple(d for i, d in enumerate(a.shape) if i not in axes)
    if params.get("out") is not None:
        return rules.out_result(op, args, kwargs, shape, kind)
    value = rules.probe_result(op, args, kwargs, keep_ndim=True)
    if not isinstance(value, (np.ndarray, np.generic)):
        raise MetaError(f"{op.name} returns a Python {type(value).__name__} here")
    return rules.result_meta(value, shape, kind)


def array_operand(a) -> ArrayMeta:
    """A reduction's array: an array, or a list or tuple of arrays and numbers, which
    NumPy reduces as ``np.asarray`` of it (``np.sum([x, y], axis=0)``,
    ``np.logaddexp.reduce([a, b, c])``): ``ArrayMeta((2, 3, 4), ...)`` for ``[x, y]``
    of two (3, 4) arrays."""
    if isinstance(a, (list, tuple)):
        asarray = get("asarray")
        return asarray.meta(asarray, (a,), {})
    return rules.first_array({"a": a}, "a")


def scan(op, args, kwargs) -> ArrayMeta:
    """cumsum/cumprod: same shape, or flattened when axis is None."""
    kind = rules.array_kind((args, kwargs))
    params = rules.bind(op, args, kwargs)
    a = rules.first_array(params, next(iter(params)))
    axis = params.get("axis")
    if axis is None:
        shape = (a.size,)
    else:
        rules.static(axis, "axis")
        shape = a.shape  # the probe checks the axis (0-d arrays accept axis 0 and -1)
    if params.get("out") is not None:
        return rules.out_result(op, args, kwargs, shape, kind)
    value = rules.probe_result(op, args, kwargs, keep_ndim=True)
    if a.ndim == 0:
        shape = np.shape(value)  # a 0-d array scans as a 1-element one: (1,)
    return ArrayMeta(shape, value.dtype, kind, False)


def _edge_length(edge, a: ArrayMeta, axis: int, what: str) -> int:
    """How many entries ``prepend=``/``append=`` add along ``axis``: a 0-d value is
    broadcast to one slice (NumPy's own rule); any other must have ``a``'s dimensions
    off the axis, as ``np.concatenate`` needs. Anything else breaks (eager NumPy then
    raises its own error)."""
    if edge is None:
        return 0
    shape = rules.shape_of(edge)
    if not shape:
        return 1
    if len(shape) != a.ndim or any(d != e for i, (d, e) in enumerate(zip(shape, a.shape))
                                   if i != axis):
        raise MetaError(f"np.diff: {what}= of shape {tuple(shape)} does not fit an "
                        f"array of shape {a.shape} along axis {axis}")
    return int(shape[axis])


def _edge_probe(edge):
    """A 0-d value of the dtype NumPy gives ``edge`` (``np.asanyarray``)."""
    if isinstance(edge, ArrayMeta):
        return np.zeros((), edge.dtype)
    return np.zeros((), np.asanyarray(edge).dtype)


def diff_rule(op, args, kwargs) -> ArrayMeta:
    """``np.diff(a, n, axis, prepend, append)``: the axis grows by what ``prepend=``
    and ``append=`` add, then shrinks by n (never below 0).

    Example: ``np.diff(x, prepend=0.0)`` of a (4, 5) ``x`` is (4, 5); with
    ``axis=0, append=x[-1:]`` it is (4, 5) as well."""
    kind = rules.array_kind((args, kwargs))
    params = rules.bind(op, args, kwargs)
    a = rules.first_array(params, "a")
    n = rules.static(params.get("n", 1), "n")
    if not isinstance(n, int) or n < 1:
        raise MetaError("np.diff with n < 1 returns its input itself")
    if a.ndim == 0:
        raise MetaError("np.diff of a 0-d array")   # NumPy raises ValueError
    axis = rules.axis_index(params.get("axis", -1), a.ndim)
    added = sum(_edge_length(params.get(k), a, axis, k) for k in ("prepend", "append"))
    # The dtype from a run on probes, each edge as a 0-d value of its dtype (NumPy
    # broadcasts it to one slice): a constant edge's own shape need not fit a's probe.
    edges = {k: _edge_probe(params[k]) for k in ("prepend", "append")
             if params.get(k) is not None}
    if edges and kind != NUMPY:   # CuPy's and Dask's diff with edges: not checked
        raise MetaError(f"np.diff with prepend=/append= on {kind} arrays")
    value = rules.run_quietly(op.impl, probe(a, keep_ndim=True), n=n, axis=axis, **edges)
    shape = list(a.shape)
    shape[axis] = max(shape[axis] + added - n, 0)
    return ArrayMeta(tuple(shape), value.dtype, kind, False)


_REDUCTIONS = [
    ("sum", np.sum, True), ("prod", np.prod, True), ("mean", np.mean, True),
    ("var", np.var, True), ("std", np.std, True), ("max", np.max, True),
    ("min", np.min, True), ("any", np.any, True), ("all", np.all, True),
    ("argmax", np.argmax, True), ("argmin", np.argmin, True), ("ptp", np.ptp, False),
    ("median", np.median, False), ("count_nonzero", np.count_nonzero, False),
]
_NAN_REDUCTIONS = ["nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmax", "nanmin",
                   "nanargmax", "nanargmin", "nanmedian"]

# Reductions whose ndarray method takes the function's parameters after ``a``, in the
# same order and with the same defaults (var and std take ``correction`` only as
# functions). Not mean: see _WARN_AT_CALLER.
_SAME_AS_METHOD = {"sum", "prod", "max", "min", "any", "all", "argmax", "argmin"}

# Reductions whose NumPy code warns from Python with ``stacklevel=2`` ("Mean of empty
# slice", "Degrees of freedom <= 0 for slice", in ``numpy/_core/_methods.py``): the
# warning names the frame that called NumPy's Python code. For ``x.mean()`` (a C
# method) that is the program's line; for ``np.mean(x)``, NumPy's ``fromnumeric.py``.
# So the generated code must make the very call the program made, with no frame of
# ours in between: the function itself for a function call (no ``numpy_call``
# shortcut), and the method for a method call (the node's ``meta["method"]``, set by
# the translator for ops with ``extras["warns_at_caller"]``; the printers call
# ``x.mean(...)`` for it).
_WARN_AT_CALLER = {"mean", "var", "std"}


def method_first(fn, name: str):
    """``np.sum(x, ...)`` run as ``x.sum(...)`` when ``x`` is an ndarray.

    Both reach the same C reduction; the function first passes NumPy's Python-level
    dispatch, about 2 us a call, which at small sizes is most of a softmax. Generated
    graph code on NumPy arrays calls this (``OpDef.extras["numpy_call"]``)::

        >>> fast = method_first(np.sum, "sum")
        >>> fast(np.ones((2, 3)), axis=-1, keepdims=True)      # np.ndarray.sum(...)
        array([[3.],
               [3.]])
    """
    method = getattr(np.ndarray, name)

    def call(a, *args, **kwargs):
        if type(a) is np.ndarray:
            return method(a, *args, **kwargs)
        return fn(a, *args, **kwargs)    # lists, scalars, subclasses: the function decides
    call.__name__ = call.__qualname__ = name
    return call


for _name, _fn, _method in _REDUCTIONS:
    _extra = {"max": [np.amax], "min": [np.amin]}.get(_name, [])
    _fast = {"numpy_call": method_first(_fn, _name)} if _name in _SAME_AS_METHOD else {}
    if _name in _WARN_AT_CALLER:
        _fast["warns_at_caller"] = True
    register(OpDef(_name, _fn, reduction, REDUCTION, extras=_fast),
             functions=[_fn, *_extra], methods=[_name] if _method else [])
for _name in _NAN_REDUCTIONS:
    register(OpDef(_name, getattr(np, _name), reduction, REDUCTION),
             functions=[getattr(np, _name)])
register(OpDef("norm", np.linalg.norm, reduction, REDUCTION, cupy="linalg.norm",
               doc="np.linalg.norm: a reduction over axis (None, an int, or two axes)"),
         functions=[np.linalg.norm])

for _name in ("cumsum", "cumprod", "nancumsum", "nancumprod"):
    register(OpDef(_name, getattr(np, _name), scan, OPAQUE), functions=[getattr(np, _name)],
             methods=[_name] if not _name.startswith("nan") else [])
register(OpDef("diff", np.diff, diff_rule, OPAQUE), functions=[np.diff])
