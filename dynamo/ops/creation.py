"""Creation: ``zeros``/``ones``/``empty``/``full`` and their ``_like``, ``arange``,
``linspace``, ``logspace``, ``eye``, ``identity``, ``tri``, ``array``/``asarray`` (of
constants, of traced arrays, or of lists mixing both), ``copy``.

Shapes come from the Python arguments (which must be known while tracing), except
that a size of ``zeros``/``ones``/``empty``/``full`` may be a 0-d integer array of the
graph (``np.zeros((n, labels.max() + 1))``): an unbacked size, its value
(``data_sizes.valued_shape``, docs/unbacked.md); any other shape that is an array is a
graph break. Dtypes come from running the function on an empty or tiny version of the
call. ``ascontiguousarray``/``asfortranarray`` may return their
argument itself (kind ``view``); ``meshgrid`` makes a tuple of new grids. A creation
op called through CuPy (``cp.zeros``) makes a CuPy array: the translator sets the kind
(see ``OutputGraph.call_op``).

Example::

    >>> op = get("linspace")
    >>> op.meta(op, (0.0, ArrayMeta((3,), np.dtype("f4")), 5), {"axis": -1})
    ArrayMeta(shape=(3, 5), dtype=dtype('float32'), kind='numpy', scalar=False)
"""

from __future__ import annotations

import operator

import numpy as np

from . import identity, rules
from .data_sizes import valued_shape
from .meta import DASK, NUMPY, ArrayMeta, DataSize, ghost, probe
from .registry import CREATION, ELEMENTWISE, OPAQUE, VIEW, OpDef, register
from .rules import MetaError


def _no_like(params: dict) -> None:
    if params.get("like") is not None:
        raise MetaError("like= is not supported")


def creation(op, args, kwargs) -> ArrayMeta:
    """zeros/ones/empty(shape, dtype): the dtype from the same call with an empty shape."""
    params = rules.bind(op, args, kwargs)
    _no_like(params)
    shape = valued_shape(params["shape"], (args, kwargs))   # a size may be a 0-d array
    rules.static({k: v for k, v in params.items() if k != "shape"},
                 f"{op.name}'s arguments")
    value = rules.run_quietly(op.impl, **dict(params, shape=(0,) * len(shape)))
    return ArrayMeta(shape, value.dtype, "numpy", False)


def ndarray_rule(op, args, kwargs) -> ArrayMeta:
    """``np.ndarray(shape, dtype, order=order)``: a new uninitialized array, as
    ``np.empty``. With ``buffer`` or ``strides`` it views existing memory: not an op."""
    params = rules.bind(op, args, kwargs)
    if params.get("buffer") is not None or params.get("strides") is not None or \
            params.get("offset"):
        raise MetaError("np.ndarray(buffer=..., strides=...) views existing memory")
    shape = rules.shape_arg(params["shape"])
    rules.static(params, "np.ndarray's arguments")
    value = rules.run_quietly(op.impl, **dict(params, shape=(0,) * len(shape)))
    return ArrayMeta(shape, value.dtype, "numpy", False)


def full_rule(op, args, kwargs) -> ArrayMeta:
    """full(shape, fill_value): the fill broadcasts to the shape; dtype from the fill."""
    params = rules.bind(op, args, kwargs)
    _no_like(params)
    shape = valued_shape(params["shape"], (args, kwargs))
    fill = params["fill_value"]
    if any(isinstance(d, DataSize) for d in shape) and \
            any(d != 1 for d in rules.shape_of(fill)):
        raise MetaError("np.full: a fill of several values into a size read from the data "
                        "fits it for some sizes only")
    if not rules.fits(rules.shape_of(fill), shape):
        raise ValueError(f"could not broadcast fill_value of shape {rules.shape_of(fill)} "
                         f"into shape {shape}")
    small = tuple(min(d, 1) for d in shape)
    value = rules.run_quietly(op.impl, **dict(params, shape=small,
                                              fill_value=rules.substitute(fill, _tiny)))
    return ArrayMeta(shape, value.dtype, rules.array_kind(fill), False)


def _tiny(m: ArrayMeta):
    return probe(m, keep_ndim=True)


def like(op, args, kwargs) -> ArrayMeta:
    """zeros_like/ones_like/full_like/empty_like: the prototype's shape unless given."""
    params = rules.bind(op, args, kwargs)
    name = next(iter(params))
    proto = params[name]
    shape = params.get("shape")
    shape = rules.shape_of(proto) if shape is None else rules.shape_arg(shape)
    fill = params.get("fill_value")
    if fill is not None and not rules.fits(rules.shape_of(fill), shape):
        raise ValueError(f"could not broadcast fill_value into shape {shape}")
    if not isinstance(proto, ArrayMeta):
        # A constant prototype (``np.zeros_like(0.0)`` for a bias kept in a dict, a
        # list of numbers): NumPy converts it, so its dtype is the converted one. Run
        # on the value itself; a prototype holding arrays broke in ``shape_of`` above.
        value = rules.probe_result(op, args, dict(kwargs, shape=shape) if "shape" in kwargs
                                   else kwargs, keep_ndim=True)
        return ArrayMeta(tuple(shape), value.dtype, rules.array_kind((args, kwargs)), False)
    value = rules.probe_result(op, args, dict(kwargs, shape=None) if "shape" in kwargs
                               else kwargs, keep_ndim=True)
    return ArrayMeta(tuple(shape), value.dtype, rules.array_kind((args, kwargs)), False)


_EXACT_ARANGE = 1 << 12


def arange(op, args, kwargs) -> ArrayMeta:
    """``np.arange``: run for short ranges; NumPy's length formula for long ones. A lone
    stop that is a 0-d integer array of the graph (``np.arange(int(x.sum()))``: see
    ``computed_shapes``) gives ``max(stop, 0)`` elements, a size the data decides."""
    _no_like(kwargs)
    if len(args) == 1 and not kwargs and _graph_int(args[0]):
        value = rules.run_quietly(op.impl, np.zeros((), args[0].dtype))
        return ArrayMeta((DataSize(nonzero_of=0, measure="arange"),), value.dtype, "numpy",
                         False)
    rules.static((args, kwargs), "arange's arguments")
    params = dict(kwargs)
    names = ("start", "stop", "step", "dtype")
    if len(args) == 1 and "stop" not in params:
        params["stop"] = args[0]
    else:
        params.update(zip(names, args))
    start, stop, step = params.get("start", 0), params.get("stop"), params.get("step", 1)
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    if step == 0:
        raise ZeroDivisionError("division by zero")
    exact = all(type(v) in (int, float) for v in (start, stop, step))
    n = int(np.ceil((stop - start) / step)) if exact else None
    if n is None or n <= _EXACT_ARANGE:
        value = rules.run_quietly(op.impl, *args, **kwargs)
        return ArrayMeta(value.shape, value.dtype, "numpy", False)
    value = rules.run_quietly(op.impl, start, start + step, step, dtype=params.get("dtype"))
    return ArrayMeta((max(n, 0),), value.dtype, "numpy", False)


def linspace(op, args, kwargs) -> ArrayMeta:
    """linspace/logspace: ``num`` samples along ``axis`` of the broadcast endpoints."""
    params = rules.bind(op, args, kwargs)
    if params.get("retstep"):
        raise MetaError(f"{op.name}(retstep=True) returns the step as well")
    rules.static({k: v for k, v in params.items() if k not in ("start", "stop")},
                 f"{op.name}'s num, axis, dtype and base")
    num = operator.index(params["num"])
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    base = np.broadcast_shapes(rules.shape_of(params["start"]), rules.shape_of(params["stop"]))
    if "base" in params and np.ndim(params["base"]):
        raise MetaError("logspace with an array base")
    axis = rules.axis_index(params.get("axis", 0), len(base) + 1)
    value = rules.run_quietly(op.impl, **dict(rules.substitute(params, _tiny), num=2))
    shape = base[:axis] + (num,) + base[axis:]
    return ArrayMeta(shape, value.dtype, rules.array_kind(params), False)


def _graph_int(value) -> bool:
    """Is ``value`` a 0-d integer array of the graph (not dask: its counts are not
    modelled), which NumPy takes as a size?"""
    return isinstance(value, ArrayMeta) and value.ndim == 0 and \
        value.dtype.kind in "iu" and value.kind != DASK


def square(op, args, kwargs) -> ArrayMeta:
    """eye/identity/tri: (N, M) with M defaulting to N."""
    params = rules.bind(op, args, kwargs)
    _no_like(params)
    size = params.get("N", params.get("n"))
    if op.name != "tri" and _graph_int(size) and params.get("M") is None:
        # np.eye(int(y.max()) + 1): (k, k), one size the data decides (its value)
        rest = {k: v for k, v in params.items() if k not in ("N", "n")}
        rules.static(rest, f"{op.name}'s arguments")
        value = rules.run_quietly(op.impl, 0, **{k: v for k, v in rest.items() if k != "k"})
        d = DataSize(nonzero_of=0, measure="value")
        return ArrayMeta((d, d), value.dtype, "numpy", False)
    rules.static(params, f"{op.name}'s arguments")
    n = operator.index(params.get("N", params.get("n")))
    m = params.get("M")
    m = n if m is None else operator.index(m)
    if op.name == "tri":  # tri builds its mask from aranges: negative sizes are empty
        n, m = max(n, 0), max(m, 0)
    if n < 0 or m < 0:
        raise ValueError("negative dimensions are not allowed")
    small = {k: v for k, v in params.items() if k not in ("N", "n", "M", "k")}
    value = rules.run_quietly(op.impl, 0, **small)
    return ArrayMeta((n, m), value.dtype, "numpy", False)


# --------------------------------------------------------------------------- grids

def mgrid_getitem(key):
    """``np.mgrid[key]``: a dense grid, one array of indices per slice of ``key``."""
    return np.mgrid[key]


def ogrid_getitem(key):
    """``np.ogrid[key]``: an open grid (a tuple of broadcastable arrays)."""
    return np.ogrid[key]


def _cupy_grid(name: str):
    def getitem(key):
        import cupy
        return getattr(cupy, name)[key]
    return getitem


_GRID_PROBE_LIMIT = 1 << 20


def _grid_length(k: slice) -> int:
    """About how long one slice's axis is (NumPy's formula), to bound the probe; a slice
    NumPy rejects counts 0 (the probe raises NumPy's error)."""
    start, step = 0 if k.start is None else k.start, 1 if k.step is None else k.step
    try:
        if isinstance(step, (complex, np.complexfloating)):
            return int(abs(step))
        return max(0, int(np.ceil((k.stop - start) / step)))
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        return 0


def grid_rule(op, args, kwargs):
    """np.mgrid[key] / np.ogrid[key] with constant slices (``0:3``, ``-1:1:5j``).

    The open grid is run here (its size is the sum of the slices' lengths, not their
    product): it gives every length and the dtype. The dense grid of a tuple key is the
    open grid's arrays stacked and broadcast, ``(len(key), *lengths)``, in the same
    dtype (NumPy computes both from the same start/stop/step types); of one slice it
    is the open grid itself."""
    (key,) = args
    rules.static(key, "the grid's slices")
    slices = key if isinstance(key, tuple) else (key,)
    if not all(isinstance(k, slice) for k in slices):
        raise MetaError("a grid index that is not a slice")
    if sum(_grid_length(k) for k in slices) > _GRID_PROBE_LIMIT:
        raise MetaError("a grid too big to probe while tracing")
    value = rules.run_quietly(np.ogrid.__getitem__, key)
    if op.name == "ogrid" or not isinstance(key, tuple):
        if isinstance(value, np.ndarray):
            return ArrayMeta(value.shape, value.dtype, "numpy", False)
        return type(value)(ArrayMeta(v.shape, v.dtype, "numpy", False) for v in value)
    lengths = tuple(v.shape[i] for i, v in enumerate(value))
    dtype = np.result_type(*value) if value else np.dtype(int)
    return ArrayMeta((len(value), *lengths), dtype, "numpy", False)


# --------------------------------------------------------------------------- r_, c_

def r_getitem(key):
    """``np.r_[key]``: its items (arrays, scalars, slices, a directive string)
    concatenated along the first axis."""
    return np.r_[key]


def c_getitem(key):
    """``np.c_[key]``: its items stacked as columns (along the last axis, at least 2-d)."""
    return np.c_[key]


_CONCAT_PROBE_LIMIT = 1 << 22


def index_concat_rule(op, args, kwargs):
    """``np.r_[...]`` / ``np.c_[...]``: run on zero-strided ghosts of the arrays.

    The result's shape and dtype come from the items' shapes and dtypes, the constant
    slices and the directive string, never from array values, so NumPy's own run on
    ghosts gives them (and raises NumPy's error for items that do not fit). Arrays of
    symbolic size break: how they fit depends on the size."""
    (key,) = args
    metas = rules.metas_in(key)
    if any(type(d) is not int for m in metas for d in m.shape):
        raise MetaError(f"np.{op.name}[...] of an array of symbolic size")
    if sum(int(np.prod(m.shape)) for m in metas) > _CONCAT_PROBE_LIMIT:
        raise MetaError(f"np.{op.name}[...] too big to probe while tracing")
    value = rules.run_quietly(op.impl, rules.substitute(key, ghost))
    return rules.result_meta(value, value.shape, rules.array_kind(key))


# --------------------------------------------------------------------------- array()

def nested_shape(value) -> tuple:
    """The shape NumPy gives a nested list whose leaves are arrays or scalars."""
    if isinstance(value, ArrayMeta):
        return value.shape
    if isinstance(value, (list, tuple)):
        shapes = {nested_shape(v) for v in value}
        if len(shapes) > 1:
            raise ValueError("setting an array element with a sequence: the requested "
                             "array has an inhomogeneous shape")
        return (len(value),) + (shapes.pop() if shapes else ())
    return np.shape(value)


def nested_leaves(value) -> list:
    if isinstance(value, (list, tuple)):
        return [leaf for v in value for leaf in nested_leaves(v)]
    if isinstance(value, ArrayMeta):
        return [probe(value)]
    return list(np.asarray(value, dtype=object).ravel()) if np.ndim(value) else [value]


def array_rule(op, args, kwargs) -> ArrayMeta:
    """array/asarray: of a traced array, of constants, or of lists mixing both."""
    params = rules.bind(op, args, kwargs)
    _no_like(params)
    name = next(iter(params))
    obj = params.pop(name)
    rules.static(params, f"{op.name}'s keywords")
    if params.get("ndmax"):
        raise MetaError("array(ndmax=)")
    kind = converted(rules.array_kind(obj))
    rest, kw = args[1:], {k: v for k, v in kwargs.items() if k != name}

    def run(value):  # the user's own call, with ``obj`` replaced
        return rules.run_quietly(op.impl, value, *rest, **kw)

    if not rules.metas_in(obj):  # constants: the program holds the data already
        value = run(obj)
        return ArrayMeta(value.shape, value.dtype, kind, False)
    if isinstance(obj, ArrayMeta):
        shape, value = obj.shape, run(probe(obj, keep_ndim=True))
    else:
        shape, value = nested_shape(obj), run(nested_leaves(obj))
    ndmin = params.get("ndmin") or 0
    shape = (1,) * (ndmin - len(shape)) + tuple(shape)
    return ArrayMeta(shape, value.dtype, kind, False)


def contiguous_rule(op, args, kwargs) -> ArrayMeta:
    """ascontiguousarray/asfortranarray: the input (at least 1-d), maybe converted."""
    params = rules.bind(op, args, kwargs)
    _no_like(params)
    a = rules.first_array(params, "a")
    rules.static(params.get("dtype"), "dtype")
    value = rules.probe_result(op, args, kwargs, keep_ndim=True)
    return ArrayMeta(a.shape or (1,), value.dtype, converted(a.kind), False)


def converted(kind: str) -> str:
    """The kind of what np.array and its kin return for an array of ``kind``: a dask
    array becomes a NumPy array (they compute it, through ``__array__``)."""
    return NUMPY if kind == DASK else kind


def meshgrid_rule(op, args, kwargs):
    """meshgrid(x1, ..., xn): every input raveled; with 'xy' the first two axes swap;
    ``sparse`` keeps 1s where the full grid broadcasts. ``copy=False`` (views of the
    inputs, read-only) breaks."""
    if not args:
        raise MetaError("meshgrid of no arrays")
    if set(kwargs) - {"copy", "sparse", "indexing"}:
        raise TypeError(f"meshgrid got unexpected keywords {sorted(kwargs)}")
    rules.static(kwargs, "meshgrid's keywords")
    if kwargs.get("copy", True) is not True:
        raise MetaError("meshgrid(copy=False) returns views of the inputs")
    sizes = [int(np.prod(rules.shape_of(a))) for a in args]
    value = rules.run_quietly(op.impl, *(np.zeros(min(n, 1), _dtype(a))
                                         for a, n in zip(args, sizes)), **kwargs)
    ndim, xy = len(args), kwargs.get("indexing", "xy") == "xy"
    order = list(range(ndim))
    if xy and ndim > 1:
        order[0], order[1] = 1, 0
    full = tuple(sizes[i] for i in order)
    shapes = []
    for i in range(ndim):
        axis = order.index(i)
        shapes.append(tuple(n if j == axis else 1 for j, n in enumerate(full))
                      if kwargs.get("sparse") else full)
    kind = rules.array_kind(args)
    return type(value)(ArrayMeta(shp, v.dtype, kind, False) for shp, v in zip(shapes, value))


def _dtype(value) -> np.dtype:
    return value.dtype if isinstance(value, ArrayMeta) else np.asarray(value).dtype


def copy_method(x, order="C"):
    return x.copy(order)


def copy_method_rule(op, args, kwargs) -> ArrayMeta:
    x = args[0]
    rules.static((args[1:], kwargs), "order")
    value = rules.run_quietly(op.impl, probe(x, keep_ndim=True), *args[1:], **kwargs)
    return rules.result_meta(value, x.shape, x.kind)


for _fn in (np.zeros, np.ones, np.empty):
    register(OpDef(_fn.__name__, _fn, creation, CREATION), functions=[_fn])
register(OpDef("ndarray", np.ndarray, ndarray_rule, CREATION,
               doc="np.ndarray(shape, dtype) without a buffer: uninitialized, as np.empty"),
         functions=[np.ndarray])
register(OpDef("full", np.full, full_rule, CREATION), functions=[np.full])
for _fn in (np.zeros_like, np.ones_like, np.empty_like, np.full_like):
    register(OpDef(_fn.__name__, _fn, like, CREATION), functions=[_fn])
register(OpDef("arange", np.arange, arange, CREATION), functions=[np.arange])
register(OpDef("linspace", np.linspace, linspace, CREATION), functions=[np.linspace])
register(OpDef("logspace", np.logspace, linspace, CREATION), functions=[np.logspace])
for _fn in (np.eye, np.identity, np.tri):
    register(OpDef(_fn.__name__, _fn, square, CREATION), functions=[_fn])
register(OpDef("array", np.array, array_rule, CREATION, same_object=identity.no_copy,
               doc="a copy unless copy=None or False"), functions=[np.array])
register(OpDef("asarray", np.asarray, array_rule, CREATION, same_object=identity.no_copy,
               doc="returns its argument itself when no conversion is needed"),
         functions=[np.asarray, np.asanyarray])
register(OpDef("copy", np.copy, like, ELEMENTWISE), functions=[np.copy])
for _fn in (np.ascontiguousarray, np.asfortranarray):
    register(OpDef(_fn.__name__, _fn, contiguous_rule, VIEW, same_object=identity.no_copy,
                   doc="returns its argument itself when it already has the layout"),
             functions=[_fn])
register(OpDef("meshgrid", np.meshgrid, meshgrid_rule, OPAQUE, doc="a tuple of new arrays"),
         functions=[np.meshgrid])
register(OpDef("mgrid", mgrid_getitem, grid_rule, CREATION, cupy=_cupy_grid("mgrid"),
               doc="np.mgrid[key] of constant slices"), functions=[np.mgrid])
register(OpDef("ogrid", ogrid_getitem, grid_rule, CREATION, cupy=_cupy_grid("ogrid"),
               doc="np.ogrid[key] of constant slices: a tuple of arrays"), functions=[np.ogrid])
register(OpDef("r_", r_getitem, index_concat_rule, CREATION, cupy=_cupy_grid("r_"),
               doc="np.r_[items]: concatenated along the first axis"), functions=[np.r_])
register(OpDef("c_", c_getitem, index_concat_rule, CREATION, cupy=_cupy_grid("c_"),
               doc="np.c_[items]: stacked as columns"), functions=[np.c_])
register(OpDef("copy_method", copy_method, copy_method_rule, ELEMENTWISE,
               doc="x.copy(order): a copy (a NumPy scalar stays a scalar)"), methods=["copy"])
