"""Shape functions: views (``reshape``, ``transpose``, ``flip``...), ``ravel``, ``tile``,
``repeat``, ``roll``, ``pad``, ``tril``/``triu``, ``sort``/``argsort``.

Ops that return views run on zero-strided ghosts (exact, errors included, and O(1):
a view allocates nothing). Ops that allocate (``tile``, ``pad``...) have a shape
formula, and run on ``min(d, 1)`` probes with the real arguments so NumPy validates
them and names the dtype. Joining and splitting live in :mod:`dynamo.ops.joining`.

Example::

    >>> op = get("tile")
    >>> op.meta(op, (ArrayMeta((2, 3), np.dtype("f4")), (2, 1, 2)), {}).shape
    (2, 2, 6)
"""

from __future__ import annotations

import operator

import numpy as np

from . import identity, rules
from .meta import DASK, ArrayMeta, DataSize
from .registry import MUTATION, OPAQUE, VIEW, OpDef, register
from .rules import MetaError

# --------------------------------------------------------------------------- views


def _reshape_method(args, kwargs):
    x, *shape = args
    if not shape:
        return (x,), kwargs  # x.reshape() is a TypeError, as np.reshape(x) is
    if len(shape) == 1:
        shape = shape[0]
    return (x, tuple(shape) if isinstance(shape, list) else shape), kwargs


def _transpose_method(args, kwargs):
    x, *axes = args
    if not axes:
        return (x,), kwargs
    if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
        return (x, axes[0]), kwargs
    return (x, tuple(axes)), kwargs


def _view(name, fn, methods=(), adapter=None, properties=(), same_object=None):
    register(OpDef(name, fn, rules.on_ghosts, VIEW, same_object=same_object), functions=[fn],
             methods=methods, method_adapter=adapter, properties=properties)


_view("reshape", np.reshape, ["reshape"], _reshape_method)
_view("transpose", np.transpose, ["transpose"], _transpose_method, properties=["T"])
_view("swapaxes", np.swapaxes, ["swapaxes"])
# these return their argument itself when there is nothing to do (a 1-d x, no
# length-1 axis): the views' ghosts tell (identity.on_ghosts)
_view("squeeze", np.squeeze, ["squeeze"], same_object=identity.on_ghosts)
for _fn in (np.atleast_1d, np.atleast_2d, np.atleast_3d):
    _view(_fn.__name__, _fn, same_object=identity.on_ghosts)
for _fn in (np.expand_dims, np.moveaxis, np.broadcast_to, np.flip, np.fliplr, np.flipud,
            np.rot90, np.broadcast_arrays):
    _view(_fn.__name__, _fn)


def sliding_window_view_rule(op, args, kwargs) -> ArrayMeta:
    """``np.lib.stride_tricks.sliding_window_view``: a read-only view of overlapping
    windows (on ghosts, as the other views). ``writeable=True`` breaks: writes through
    overlapping windows reach one element several times; ``subok=True`` breaks."""
    params = rules.bind(op, args, kwargs)
    if rules.static(params.get("writeable", False), "writeable") or \
            rules.static(params.get("subok", False), "subok"):
        raise MetaError("sliding_window_view with writeable=True or subok=True")
    return rules.on_ghosts(op, args, kwargs)


register(OpDef("sliding_window_view", np.lib.stride_tricks.sliding_window_view,
               sliding_window_view_rule, VIEW, cupy="lib.stride_tricks.sliding_window_view",
               doc="a read-only view of the overlapping windows of an array"),
         functions=[np.lib.stride_tricks.sliding_window_view])


def ravel_rule(op, args, kwargs) -> ArrayMeta:
    """``ravel``/``flatten``: one dimension of ``size`` elements (ghosts would copy)."""
    a = args[0]
    if not isinstance(a, ArrayMeta):
        raise MetaError(f"{op.name} of a Python value")
    rules.static((args[1:], kwargs), "order")
    value = rules.probe_result(op, args, kwargs, keep_ndim=True)
    return ArrayMeta((a.size,), value.dtype, a.kind, False)


def flatten(x, order="C"):
    return x.flatten(order)


register(OpDef("ravel", np.ravel, ravel_rule, VIEW, doc="a view when the layout allows"),
         functions=[np.ravel], methods=["ravel"])
register(OpDef("flatten", flatten, ravel_rule, OPAQUE, doc="x.flatten(): always a copy"),
         methods=["flatten"])

# --------------------------------------------------------------------------- new arrays


def _reps(value, what: str) -> tuple[int, ...]:
    rules.static(value, what)
    try:
        reps = (operator.index(value),)
    except TypeError:
        reps = tuple(operator.index(r) for r in value)
    if any(r < 0 for r in reps):
        raise MetaError(f"negative {what}")
    return reps


def tile_rule(op, args, kwargs) -> ArrayMeta:
    params = rules.bind(op, args, kwargs)
    a = rules.first_array(params, "A")
    reps = _reps(params["reps"], "reps")
    reps = (1,) * (a.ndim - len(reps)) + reps
    shape = (1,) * (len(reps) - a.ndim) + a.shape
    return ArrayMeta(tuple(s * r for s, r in zip(shape, reps)), a.dtype, a.kind, False)


def repeat_rule(op, args, kwargs) -> ArrayMeta:
    params = rules.bind(op, args, kwargs)
    a = rules.first_array(params, "a")
    counted = _repeats_array(a, params, (args, kwargs))
    if counted is not None:
        return counted
    repeats = rules.static(params["repeats"], "repeats")
    axis = params.get("axis")
    if axis is None:
        shape, ax = [a.size], 0
    elif a.ndim == 0:  # NumPy repeats a 0-d array as a 1-element one (axis 0 or -1)
        shape, ax = [1], rules.axis_index(axis, 1)
    else:
        ax = rules.axis_index(axis, a.ndim)
        shape = list(a.shape)
    reps = _reps(repeats, "repeats")
    if isinstance(repeats, (int, np.integer)) or len(reps) == 1:
        shape[ax] *= reps[0]
    elif len(reps) != shape[ax]:
        raise ValueError(f"operands could not be broadcast together with shape "
                         f"({shape[ax]},) ({len(reps)},)")
    else:
        shape[ax] = sum(reps)
    return ArrayMeta(tuple(shape), a.dtype, a.kind, False)


def _repeats_array(a: ArrayMeta, params: dict, call) -> ArrayMeta | None:
    """``np.repeat(values, lengths)`` with ``lengths`` a 1-d array of the graph, one
    count per element along the axis (run-length decoding, ``np.repeat(np.arange(n),
    counts)``): the axis becomes ``lengths.sum()`` long, a size the data decides
    (``DataSize``, one per ``lengths`` array: ``measure=("repeat",)``); NumPy raises
    its ValueError for a negative count when the graph runs (the node may raise:
    ``data_sizes.raises_for_data``). A
    0-d or one-element ``lengths`` (``n * r``), one NumPy does not cast safely to intp
    (its TypeError), or a dask array: None (the rule goes on, and breaks there)."""
    reps = params["repeats"]
    if not isinstance(reps, ArrayMeta) or reps.ndim != 1 or DASK in (reps.kind, a.kind) \
            or not np.can_cast(reps.dtype, np.intp, "safe") or reps.shape[0] == 1:
        return None
    axis = params.get("axis")
    if axis is None:
        shape, ax = [a.size], 0
    elif a.ndim == 0:
        shape, ax = [1], rules.axis_index(axis, 1)
    else:
        ax = rules.axis_index(axis, a.ndim)
        shape = list(a.shape)
    if reps.shape[0] != shape[ax]:
        raise ValueError(f"operands could not be broadcast together with shape "
                         f"({shape[ax]},) ({reps.shape[0]},)")
    at = next(i for i, m in enumerate(rules.metas_in(call)) if m is reps)
    shape[ax] = DataSize(nonzero_of=at, measure=REPEAT_MEASURE)
    return ArrayMeta(tuple(shape), a.dtype, a.kind, False)


# np.repeat's length from an array of counts: their sum (NumPy raises for a negative one)
REPEAT_MEASURE = ("repeat",)


def _checked_on_probe(op, args, kwargs) -> tuple[dict, ArrayMeta, object]:
    params = rules.bind(op, args, kwargs)
    first = next(iter(params))
    a = rules.first_array(params, first)
    rules.static({k: v for k, v in params.items() if k != first}, f"{op.name}'s arguments")
    if params.get("order") is not None:
        raise MetaError(f"{op.name}(order=) of structured arrays")
    return params, a, rules.probe_result(op, args, kwargs, keep_ndim=True)


def roll_rule(op, args, kwargs) -> ArrayMeta:
    """roll: the input's shape; NumPy validates shift and axis on a probe.

    The shift may be an integer array or scalar of the graph (a lattice Boltzmann step's
    ``np.roll(f[i], c[i, 0], axis=0)`` with ``c`` a table of velocities): it moves the
    data, never the shape, and ``int()`` of an integer cannot fail, so the call is
    captured; the probe gets a zero shift of the shift's real shape, so NumPy's
    broadcasting of ``shift`` against ``axis`` (and its errors) are checked as the call
    will run. A float shift stays a break: ``int()`` of a NaN raises on the data.

        >>> roll_rule(op, (ArrayMeta((9, 9), f8), ArrayMeta((), i8, scalar=True)), {"axis": 0})
        ArrayMeta(shape=(9, 9), dtype=float64, ...)
    """
    params = rules.bind(op, args, kwargs)
    shift = params.get("shift")
    if not (isinstance(shift, ArrayMeta) and shift.dtype.kind in "biu"
            and all(type(d) is int for d in shift.shape) and shift.size <= 64):
        params, a, value = _checked_on_probe(op, args, kwargs)
        return rules.result_meta(value, np.shape(value) if a.ndim == 0 else a.shape, a.kind)
    a = rules.first_array(params, "a")
    rules.static(params.get("axis"), "roll's axis")
    zero = np.zeros((), shift.dtype)[()] if shift.scalar else np.zeros(shift.shape, shift.dtype)
    value = rules.probe_result(op, (params["a"], zero), {"axis": params.get("axis")},
                               keep_ndim=True)
    return rules.result_meta(value, np.shape(value) if a.ndim == 0 else a.shape, a.kind)


def sort_rule(op, args, kwargs) -> ArrayMeta:
    """sort/argsort: the input's shape, or flattened with ``axis=None``."""
    params, a, value = _checked_on_probe(op, args, kwargs)
    flat = "axis" in params and params["axis"] is None
    if a.ndim == 0:  # NumPy sorts a 0-d array as a 1-element one
        return rules.result_meta(value, np.shape(value), a.kind)
    return rules.result_meta(value, (a.size,) if flat else a.shape, a.kind)


def pad_rule(op, args, kwargs) -> ArrayMeta:
    from numpy.lib._arraypad_impl import _as_pairs

    params = rules.bind(op, args, kwargs)
    a = rules.first_array(params, "array")
    if callable(params.get("mode")):
        raise MetaError("np.pad with a function as mode runs Python code per vector")
    rules.static({k: v for k, v in params.items() if k != "array"}, "pad's arguments")
    pairs = _as_pairs(params["pad_width"], a.ndim, as_index=True)
    shape = tuple(d + int(b) + int(e) for d, (b, e) in zip(a.shape, pairs))
    small = np.array([(min(int(b), 1), min(int(e), 1)) for b, e in pairs],
                     dtype=np.intp).reshape(a.ndim, 2) if a.ndim else params["pad_width"]
    value = rules.probe_result(op, (params["array"], small),
                               {k: v for k, v in params.items()
                                if k not in ("array", "pad_width")}, keep_ndim=True)
    return ArrayMeta(shape, value.dtype, a.kind, False)


def tri_rule(op, args, kwargs) -> ArrayMeta:
    """tril/triu: same shape; a 1-d input becomes the square matrix it broadcasts to."""
    params = rules.bind(op, args, kwargs)
    m = rules.first_array(params, "m")
    rules.static(params.get("k"), "k")
    if m.ndim == 0:
        raise MetaError(f"{op.name} of a 0-d array")
    value = rules.probe_result(op, args, kwargs, keep_ndim=True)
    shape = (m.shape[0], m.shape[0]) if m.ndim == 1 else m.shape
    return ArrayMeta(shape, value.dtype, m.kind, False)


def sort_inplace(x, *args, **kwargs):
    x.sort(*args, **kwargs)
    return x


register(OpDef("tile", np.tile, tile_rule, OPAQUE), functions=[np.tile])
register(OpDef("repeat", np.repeat, repeat_rule, OPAQUE), functions=[np.repeat],
         methods=["repeat"])
register(OpDef("roll", np.roll, roll_rule, OPAQUE), functions=[np.roll])
register(OpDef("pad", np.pad, pad_rule, OPAQUE), functions=[np.pad])
register(OpDef("tril", np.tril, tri_rule, OPAQUE), functions=[np.tril])
register(OpDef("triu", np.triu, tri_rule, OPAQUE), functions=[np.triu])
register(OpDef("sort", np.sort, sort_rule, OPAQUE), functions=[np.sort])
register(OpDef("argsort", np.argsort, sort_rule, OPAQUE), functions=[np.argsort],
         methods=["argsort"])
register(OpDef("sort_inplace", sort_inplace, sort_rule, MUTATION,
               extras={"returns_none": True}, doc="x.sort(): sorts in place, returns None"),
         methods=["sort"])
