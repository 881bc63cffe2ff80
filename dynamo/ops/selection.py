"""Selection and in-place writes: ``take``, ``take_along_axis``, ``choose``, ``select``,
``searchsorted``; ``copyto``, ``putmask``, ``place``, ``put``, ``put_along_axis``,
``fill_diagonal``, ``x.fill``.

Index values inside arrays are data: their bounds are checked when the graph runs,
by NumPy, with NumPy's error. Constant indices are checked while tracing. The write
functions return None, as NumPy's do; in the graph their node is the written array,
so every alias of it sees the write (see ``OutputGraph.call_op``). (Three-argument
``where`` is elementwise: :mod:`dynamo.ops.elementwise`.)

Example::

    >>> op = get("take")
    >>> op.meta(op, (ArrayMeta((4, 5), np.dtype("f4")), [[0, 1, 2]]), {"axis": 1}).shape
    (4, 1, 3)
"""

from __future__ import annotations

import math

import numpy as np

from . import rules
from .meta import NUMPY, ArrayMeta, probe
from .registry import MUTATION, OPAQUE, OpDef, register
from .rules import MetaError


def _int_index(indices, n: int | None, mode: str = "raise"):
    """Indices as a probe NumPy can take (zeros) and their shape. Constant indices are
    bounds-checked here when ``n`` is given (None: the result is empty, NumPy skips it)."""
    if isinstance(indices, ArrayMeta):
        return probe(indices, keep_ndim=True), indices.shape
    rules.static(indices, "indices")
    value = np.asarray(indices)
    if value.size == 0 and value.dtype.kind == "f":
        value = value.astype(np.intp)  # an empty list
    if value.dtype.kind not in "iub":
        raise MetaError(f"indices of dtype {value.dtype}")
    if mode == "raise" and n is not None and value.size and \
            (value.min() < -n or value.max() >= n):
        raise IndexError(f"index out of bounds for an axis of size {n}")
    return np.zeros(tuple(min(d, 1) for d in value.shape), value.dtype), value.shape


def take_rule(op, args, kwargs) -> ArrayMeta:
    params = rules.bind(op, args, kwargs)
    a = rules.first_array(params, "a")
    if params.get("out") is not None:
        raise MetaError("take(out=)")
    axis, mode = rules.static(params.get("axis"), "axis"), params.get("mode", "raise")
    if a.ndim == 0 and axis is not None:  # NumPy takes from a 0-d array as from (1,)
        rules.axis_index(axis, 1)
        a_shape, axis_eff = (1,), 0
    else:
        a_shape, axis_eff = a.shape, axis
    ishape = tuple(rules.shape_of(params["indices"]))
    if axis is None:
        n, shape, outer = a.size, ishape, 1
    else:
        ax = rules.axis_index(axis_eff, len(a_shape))
        n, shape = a_shape[ax], a_shape[:ax] + ishape + a_shape[ax + 1:]
        outer = math.prod(a_shape[:ax])
    # NumPy checks each index once per outer position: not at all when there are none
    checked = outer * math.prod(ishape) > 0
    if mode == "wrap" and n == 0 and checked:
        raise MetaError("np.take(mode='wrap') along an empty axis: NumPy loops forever "
                        "here (or raises), never on a probe")
    small, _ = _int_index(params["indices"], n if checked else None, mode)
    pa = probe(a, keep_ndim=True)
    value = rules.run_quietly(op.impl, pa, small, axis=axis, mode=mode)
    return rules.result_meta(value, shape, a.kind)


def take_along_axis_rule(op, args, kwargs) -> ArrayMeta:
    params = rules.bind(op, args, kwargs)
    arr = rules.first_array(params, "arr")
    ind = params["indices"]
    if not isinstance(ind, ArrayMeta):
        raise MetaError("take_along_axis with constant indices")
    if ind.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    axis = rules.static(params.get("axis"), "axis")
    if axis is None:
        if ind.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        if arr.size == 0 and ind.size:
            raise IndexError("index out of bounds for an empty array")
        return ArrayMeta(ind.shape, arr.dtype, arr.kind, False)
    ax = rules.axis_index(axis, arr.ndim)
    if ind.ndim != arr.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    shape = tuple(ind.shape[i] if i == ax else np.broadcast_shapes((arr.shape[i],),
                                                                   (ind.shape[i],))[0]
                  for i in range(arr.ndim))
    if arr.shape[ax] == 0 and math.prod(shape):  # fancy indexing checks what it copies
        raise IndexError(f"index out of bounds for axis {ax} with size 0")
    return ArrayMeta(shape, arr.dtype, arr.kind, False)


def _choices(value) -> list:
    if isinstance(value, ArrayMeta):
        raise MetaError("choices given as one array")
    if not isinstance(value, (list, tuple)) or not value:
        raise MetaError("choices must be a non-empty list")
    return list(value)


def choose_rule(op, args, kwargs) -> ArrayMeta:
    params = rules.bind(op, args, kwargs)
    if params.get("out") is not None:
        raise MetaError("choose(out=)")
    a, choices = params["a"], _choices(params["choices"])
    small, ishape = _int_index(a, len(choices), params.get("mode", "raise"))
    shape = np.broadcast_shapes(ishape, *(rules.shape_of(c) for c in choices))
    zero = lambda m: probe(m)  # noqa: E731 (0-d: the shapes are checked above)
    value = rules.run_quietly(op.impl, small.reshape(()) if small.size else small,
                              rules.substitute(choices, zero), mode=params.get("mode"))
    return rules.result_meta(value, shape, rules.array_kind((a, choices)))


def select_rule(op, args, kwargs) -> ArrayMeta:
    params = rules.bind(op, args, kwargs)
    conds, choices = params["condlist"], params["choicelist"]
    if not isinstance(conds, (list, tuple)) or not isinstance(choices, (list, tuple)):
        raise MetaError("select of arrays that are not lists")
    default = params.get("default", 0)
    shapes = [rules.shape_of(v) for v in [*conds, *choices, default]]
    if len(conds) != len(choices):
        raise ValueError("list of cases must be same length as list of conditions")
    shape = np.broadcast_shapes(*shapes)
    zero = lambda m: probe(m)  # noqa: E731
    value = rules.run_quietly(op.impl, rules.substitute(list(conds), zero),
                              rules.substitute(list(choices), zero),
                              rules.substitute(default, zero))
    return ArrayMeta(shape, value.dtype, rules.array_kind(params), False)


def searchsorted_rule(op, args, kwargs) -> ArrayMeta:
    params = rules.bind(op, args, kwargs)
    a = rules.first_array(params, "a")
    if a.ndim != 1:
        raise ValueError("object too deep for desired array")
    v = params["v"]
    value = rules.run_quietly(op.impl, probe(a, keep_ndim=True),
                              rules.substitute(v, lambda m: probe(m, keep_ndim=True)),
                              side=params.get("side", "left"),
                              sorter=rules.substitute(params.get("sorter"),
                                                      lambda m: probe(m, keep_ndim=True)))
    return rules.result_meta(value, rules.shape_of(v), a.kind)


def digitize_rule(op, args, kwargs) -> ArrayMeta:
    """``np.digitize(x, bins, right)``: one bin index per element of ``x`` (a NumPy
    scalar for a 0-d ``x``). Dtype and NumPy's errors (complex ``x``, ``bins`` not 1-d,
    constant bins not monotonic) from a call on probes; traced bins that are not
    monotonic raise when the graph runs (``extras["raises"]``)."""
    params = rules.bind(op, args, kwargs)
    keep = lambda m: probe(m, keep_ndim=True)  # noqa: E731
    value = rules.run_quietly(op.impl, rules.substitute(params["x"], keep),
                              rules.substitute(params["bins"], keep),
                              rules.static(params.get("right", False), "right"))
    return rules.result_meta(value, rules.shape_of(params["x"]), rules.array_kind(params))


def unravel_index_rule(op, args, kwargs):
    """``np.unravel_index(indices, shape, order)``: one index array per dimension of
    ``shape``, each of ``indices``' shape (NumPy scalars for a 0-d ``indices``). Dtype
    and NumPy's errors from a call on a probe of ``indices``; an index out of bounds
    raises when the graph runs (``extras["raises"]``)."""
    params = rules.bind(op, args, kwargs)
    indices = rules.first_array(params, "indices")
    shape = rules.static(params["shape"], "shape")
    order = rules.static(params.get("order", "C"), "order")
    value = rules.run_quietly(op.impl, probe(indices, keep_ndim=True), shape, order=order)
    return tuple(rules.result_meta(v, indices.shape, indices.kind) for v in value)


def lexsort_rule(op, args, kwargs) -> ArrayMeta:
    """``np.lexsort(keys, axis)``: the indices that sort by the last key, then the one
    before...; of the keys' common shape. NumPy's own shape checks and dtype from a run
    on small ghosts (``rules.shrunk_run``)."""
    params = rules.bind(op, args, kwargs)
    rules.static(params.get("axis", -1), "axis")
    if not rules.metas_in(params["keys"]):
        raise MetaError("np.lexsort of constant keys")
    value, shape = rules.shrunk_run(op, args, kwargs)
    return ArrayMeta(shape, value.dtype, rules.array_kind(params), False)


_OUT_OF_BOUNDS = {"raises": "raises IndexError for an index out of bounds"}
register(OpDef("take", np.take, take_rule, OPAQUE, extras=_OUT_OF_BOUNDS),
         functions=[np.take], methods=["take"])
register(OpDef("take_along_axis", np.take_along_axis, take_along_axis_rule, OPAQUE,
               extras=_OUT_OF_BOUNDS), functions=[np.take_along_axis])
register(OpDef("choose", np.choose, choose_rule, OPAQUE, extras=_OUT_OF_BOUNDS),
         functions=[np.choose], methods=["choose"])
register(OpDef("select", np.select, select_rule, OPAQUE), functions=[np.select])
register(OpDef("searchsorted", np.searchsorted, searchsorted_rule, OPAQUE),
         functions=[np.searchsorted], methods=["searchsorted"])
register(OpDef("unravel_index", np.unravel_index, unravel_index_rule, OPAQUE,
               extras={"raises": "raises ValueError for an index out of bounds"}),
         functions=[np.unravel_index])
register(OpDef("lexsort", np.lexsort, lexsort_rule, OPAQUE), functions=[np.lexsort])
register(OpDef("digitize", np.digitize, digitize_rule, OPAQUE,
               extras={"raises": "raises ValueError for bins that are not monotonic"}),
         functions=[np.digitize])

# --------------------------------------------------------------------------- writes


def _writer(name: str):
    """NumPy and CuPy implementations of ``name(target, ...)`` that return ``target``."""
    def numpy_impl(target, *args, **kwargs):
        getattr(np, name)(target, *args, **kwargs)
        return target

    def cupy_impl(target, *args, **kwargs):
        import cupy
        getattr(cupy, name)(target, *args, **kwargs)
        return target

    numpy_impl.__name__ = cupy_impl.__name__ = name
    return numpy_impl, cupy_impl


def write_rule(op, args, kwargs) -> ArrayMeta:
    """copyto/putmask/place/put: the target keeps its shape. Shapes are checked here;
    the casting rule NumPy applies to the values is checked on one-element probes."""
    fn = getattr(np, op.name)
    params = rules.bound(fn, args, kwargs)
    target = params[next(iter(params))]
    if not isinstance(target, ArrayMeta) or target.scalar:
        raise MetaError(f"{op.name} into a non-array")
    holder = np.zeros((1,), target.dtype)
    tiny = lambda v: rules.substitute(v, probe)  # noqa: E731 (0-d probes, real constants)
    if op.name == "copyto":
        for key in ("src", "where"):
            if not rules.fits(rules.shape_of(params[key]), target.shape):
                raise ValueError(f"could not broadcast {key} into shape {target.shape}")
        rules.run_quietly(fn, holder, tiny(params["src"]), casting=params["casting"],
                          where=tiny(params["where"]))
    elif op.name in ("putmask", "place"):
        if math.prod(rules.shape_of(params["mask"])) != target.size:
            raise ValueError(f"{op.name}: mask and data must be the same size")
        values = params["values" if op.name == "putmask" else "vals"]
        rules.run_quietly(fn, holder, np.zeros((1,), bool), tiny(values))
    else:  # put
        if target.size == 0 and math.prod(rules.shape_of(params["ind"])):
            raise IndexError("cannot replace elements of an empty array")
        rules.run_quietly(fn, holder, [0], tiny(params["v"]), mode=params["mode"])
    return target


def fill(x, value):
    x.fill(value)
    return x


def fill_rule(op, args, kwargs) -> ArrayMeta:
    x, value = args
    if x.scalar:
        raise MetaError("fill of a NumPy scalar")
    holder = np.zeros((1,), x.dtype)
    rules.run_quietly(holder.fill, rules.substitute(value, probe))
    return x


def fill_diagonal_rule(op, args, kwargs) -> ArrayMeta:
    """fill_diagonal(a, val, wrap): ``a`` is at least 2-d, every dimension equal beyond
    2-d; ``val`` of any shape is repeated along the diagonal (``a.flat[::n+1] = val``),
    so only its conversion to ``a``'s dtype is checked (on a one-element holder)."""
    params = rules.bound(np.fill_diagonal, args, kwargs)
    a = params["a"]
    if not isinstance(a, ArrayMeta) or a.scalar:
        raise MetaError("fill_diagonal into a non-array")
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim > 2 and len(set(a.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    rules.static(params.get("wrap"), "wrap")
    holder = np.zeros((1,) * a.ndim, a.dtype)
    rules.run_quietly(np.fill_diagonal, holder, rules.substitute(params["val"], probe))
    return a


def put_along_axis_rule(op, args, kwargs) -> ArrayMeta:
    """``np.put_along_axis(arr, indices, values, axis)``: writes ``arr`` in place.

    ``indices`` must be an integer array of ``arr``'s dimensions; ``values`` an array or
    a Python scalar (a constant sequence breaks: its sizes could not be checked on the
    small ghosts). NumPy's own shape and casting checks run on arrays whose distinct
    sizes are renamed to small ones (as ``rules.shrunk_run``), every index 0; index
    values are data, checked by NumPy when the graph runs.

    Example: ``np.put_along_axis(a, np.argmax(a, 1)[:, None], 0.0, axis=1)`` zeroes
    each row's largest entry of a (4, 5) ``a``, which stays (4, 5)."""
    params = rules.bound(np.put_along_axis, args, kwargs)
    arr, ind, values = params["arr"], params["indices"], params["values"]
    if not isinstance(arr, ArrayMeta) or arr.scalar:
        raise MetaError("put_along_axis into a non-array")
    if not isinstance(ind, ArrayMeta) or ind.dtype.kind not in "iu":
        raise MetaError("put_along_axis with constant or non-integer indices")
    if not isinstance(values, ArrayMeta) and np.ndim(values) != 0:
        raise MetaError("put_along_axis with constant sequence values")
    axis = rules.static(params.get("axis"), "axis")
    if axis is None or ind.ndim != arr.ndim:
        raise MetaError("put_along_axis with axis=None or indices of other dimensions")
    ax = rules.axis_index(axis, arr.ndim)
    metas = [m for m in (arr, ind, values) if isinstance(m, ArrayMeta)]
    if any(m.kind != NUMPY for m in metas):
        raise MetaError("put_along_axis of arrays other than NumPy's")
    sizes = sorted({int(d) for m in metas for d in m.shape} - {0, 1})
    small = {d: i + 2 for i, d in enumerate(sizes)} | {0: 0, 1: 1}
    shrink = lambda m: np.zeros(tuple(small[int(d)] for d in m.shape), m.dtype)  # noqa: E731
    if arr.shape[ax] == 0 and ind.size:
        raise MetaError("put_along_axis along an empty axis")   # NumPy raises IndexError
    value = values if not isinstance(values, ArrayMeta) else \
        (probe(values) if values.scalar else shrink(values))
    rules.run_quietly(np.put_along_axis, shrink(arr), shrink(ind), value, ax)
    return arr


for _name in ("copyto", "putmask", "place", "put"):
    _np_impl, _cp_impl = _writer(_name)
    register(OpDef(_name, _np_impl, write_rule, MUTATION, cupy=_cp_impl,
                   extras={"returns_none": True, **(_OUT_OF_BOUNDS if _name == "put" else {})}),
             functions=[getattr(np, _name)])
_np_impl, _cp_impl = _writer("fill_diagonal")
register(OpDef("fill_diagonal", _np_impl, fill_diagonal_rule, MUTATION, cupy=_cp_impl,
               extras={"returns_none": True}, doc="writes the diagonal, returns None"),
         functions=[np.fill_diagonal])
_np_impl, _ = _writer("put_along_axis")
register(OpDef("put_along_axis", _np_impl, put_along_axis_rule, MUTATION,
               extras={"returns_none": True, **_OUT_OF_BOUNDS}),
         functions=[np.put_along_axis])
register(OpDef("fill", fill, fill_rule, MUTATION, extras={"returns_none": True}),
         methods=["fill"])
