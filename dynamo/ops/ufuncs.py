"""Ufunc methods: ``np.maximum.accumulate``, ``np.add.reduce``, ``np.add.reduceat``,
``np.multiply.outer``, ``np.add.at``.

``np.add`` is one op (:mod:`dynamo.ops.elementwise`); its methods are four more ops
that take the ufunc as their first, constant, argument, so one op serves every ufunc:
``np.maximum.accumulate(x, axis=0)`` becomes ``ufunc_accumulate(np.maximum, x, axis=0)``.
``at`` writes in place (``np.add.at(a, idx, 1)`` is ``ufunc_at(a, np.add, idx, 1)``,
the written array first like every in-place op) and returns None.

Shapes are formulas (``reduce`` drops its axes, default ``axis=0``; ``accumulate``
keeps the shape; ``reduceat`` has ``len(indices)`` along its axis; ``outer`` joins the
two shapes; ``at`` checks its index like ``a[idx]`` and that the values broadcast to
the selection); dtypes, scalar-ness and
NumPy's argument errors (``reduce`` of a unary ufunc, an empty reduction without
identity) come from running the same method on ``min(d, 1)`` probes.

``reduceat``'s index values are checked when the graph runs (an index out of bounds
raises there, as eagerly; inside ``try`` the call breaks).

Example::

    >>> op, _ = lookup_ufunc_method(np.maximum, "accumulate")
    >>> op.meta(op, (np.maximum, ArrayMeta((5, 3), np.dtype("f4"))), {"axis": 0}).shape
    (5, 3)
"""

from __future__ import annotations

import numpy as np

from dynamo.guards.type_slots import name_of, type_module

from . import rules
from .indexing import index_meta
from .meta import ArrayMeta, probe
from .reductions import array_operand
from .registry import MUTATION, OPAQUE, OpDef, register, same
from .rules import MetaError

METHODS = ("reduce", "accumulate", "reduceat", "outer", "at")


def is_ufunc(fn) -> bool:
    """A NumPy or CuPy ufunc (CuPy's are their own class)."""
    return isinstance(fn, np.ufunc) or (name_of(type(fn)) == "ufunc" and
                                        type_module(fn).startswith("cupy"))


def numpy_ufunc(fn) -> np.ufunc:
    """The NumPy ufunc of the same name: the one the rules run on probes (CuPy 14 names
    its ufuncs ``cupy_add``: ``cupy.add`` gives ``np.add``)."""
    if isinstance(fn, np.ufunc):
        return fn
    uf = getattr(np, fn.__name__.removeprefix("cupy_"), None)
    if not isinstance(uf, np.ufunc):
        raise MetaError(f"no NumPy ufunc named {fn.__name__}")
    return uf


def cupy_ufunc(fn):
    """CuPy's ufunc for ``fn``: ``cupy.add`` for ``np.add``; a CuPy ufunc (named
    ``cupy_add`` in CuPy 14) is its own."""
    if not isinstance(fn, np.ufunc):
        return fn
    import cupy
    return getattr(cupy, fn.__name__)


def lookup_ufunc_method(fn, name: str):
    """``(op, adapter)`` for ``fn.<name>(...)`` when ``fn`` is a ufunc and the method is
    captured; the op is called as ``op(fn, *args, **kwargs)`` after the adapter."""
    if not is_ufunc(fn) or name not in METHODS:
        return None
    return _OPS[name]


def _method(name: str):
    def impl(ufunc, *args, **kwargs):
        return getattr(ufunc, name)(*args, **kwargs)

    def cupy_impl(ufunc, *args, **kwargs):
        return getattr(cupy_ufunc(ufunc), name)(*args, **kwargs)

    impl.__name__ = cupy_impl.__name__ = f"ufunc_{name}"
    return impl, cupy_impl


def _array(params: dict, key: str, *, sequences: bool = False) -> ArrayMeta:
    """The array a method works on; with ``sequences``, a list or tuple of arrays and
    numbers too, which NumPy's reduce and accumulate take as ``np.asarray`` of it."""
    a = params.get(key)
    if sequences and isinstance(a, (list, tuple)):
        return array_operand(a)
    if not isinstance(a, ArrayMeta):
        raise MetaError(f"ufunc method of a Python value ({key})")
    return a


def _run(uf, method: str, args, kwargs):
    tiny = lambda m: probe(m, keep_ndim=True)  # noqa: E731
    return rules.run_quietly(getattr(uf, method), *rules.substitute(args, tiny),
                             **rules.substitute(kwargs, tiny))


def reduce_rule(op, args, kwargs) -> ArrayMeta:
    """``ufunc.reduce(a, axis=0, dtype, out, keepdims, initial, where)``."""
    fn, *rest = args
    uf = numpy_ufunc(fn)
    params = rules.bound(_signature_of_reduce, rest, kwargs)
    a = _array(params, "array", sequences=True)
    kind = rules.array_kind((rest, kwargs))
    axis, keepdims = rules.static(params["axis"], "axis"), bool(params["keepdims"])
    rules.static({k: params[k] for k in ("dtype", "initial")}, "dtype and initial")
    where = params.get("where")
    if isinstance(where, ArrayMeta) and np.broadcast_shapes(where.shape, a.shape) != a.shape:
        raise ValueError(f"where= of shape {where.shape} does not broadcast to {a.shape}")
    if a.ndim == 0:
        axes = ()
    else:
        axes = tuple(range(a.ndim)) if axis is None else rules.axis_tuple(axis, a.ndim)
    if keepdims:
        shape = tuple(1 if i in axes else d for i, d in enumerate(a.shape))
    else:
        shape = tuple(d for i, d in enumerate(a.shape) if i not in axes)
    out = kwargs.get("out")
    plain = {k: v for k, v in kwargs.items() if k != "out"}
    value = _run(uf, "reduce", rest, plain)
    if out is not None:
        return _out(uf, "reduce", rest, plain, out, shape, value)
    return rules.result_meta(value, shape, kind)


def _signature_of_reduce(array, axis=0, dtype=None, out=None, keepdims=False, initial=None,
                         where=True):
    """``np.ufunc.reduce``'s parameters (the C method has no inspectable signature)."""


def _signature_of_accumulate(array, axis=0, dtype=None, out=None):
    """``np.ufunc.accumulate``'s parameters."""


def _out(uf, method, args, kwargs, out, shape, value) -> ArrayMeta:
    """``out=``: NumPy returns it; it needs the result's shape and a dtype the result
    casts to (checked by the same call into a one-element holder)."""
    if isinstance(out, tuple) and len(out) == 1:
        out = out[0]
    if not isinstance(out, ArrayMeta) or out.scalar or tuple(out.shape) != tuple(shape):
        raise MetaError(f"ufunc.{method}(out=) of another shape, or not one array")
    holder = np.zeros(np.shape(value), out.dtype)
    _run(uf, method, args, dict(kwargs, out=holder))
    return out


def accumulate_rule(op, args, kwargs) -> ArrayMeta:
    """``ufunc.accumulate(a, axis=0, dtype, out)``: the input's shape."""
    fn, *rest = args
    uf = numpy_ufunc(fn)
    params = rules.bound(_signature_of_accumulate, rest, kwargs)
    a = _array(params, "array", sequences=True)
    rules.static({k: params[k] for k in ("axis", "dtype")}, "axis and dtype")
    out = kwargs.get("out")
    plain = {k: v for k, v in kwargs.items() if k != "out"}
    value = _run(uf, "accumulate", rest, plain)
    if out is not None:
        return _out(uf, "accumulate", rest, plain, out, a.shape, value)
    return rules.result_meta(value, a.shape, rules.array_kind((rest, kwargs)))


def _signature_of_reduceat(array, indices, axis=0, dtype=None, out=None):
    """``np.ufunc.reduceat``'s parameters."""


def reduceat_rule(op, args, kwargs) -> ArrayMeta:
    """``ufunc.reduceat(a, indices, axis=0, dtype, out)``: ``a``'s shape with
    ``len(indices)`` along ``axis``. The probe has one element per dimension and
    ``min(len(indices), 1)`` zero indices of the indices' dtype: NumPy's checks of
    dtypes, of a 1-d ``indices`` and of the axis run on it."""
    fn, *rest = args
    uf = numpy_ufunc(fn)
    params = rules.bound(_signature_of_reduceat, rest, kwargs)
    a = _array(params, "array")
    rules.static({k: params[k] for k in ("axis", "dtype")}, "axis and dtype")
    if params.get("out") is not None:
        raise MetaError("ufunc.reduceat(out=)")
    indices = params["indices"]
    ishape = tuple(rules.shape_of(indices))
    idtype = indices.dtype if isinstance(indices, ArrayMeta) else \
        np.asarray(rules.static(indices, "indices")).dtype
    if len(ishape) != 1 or a.ndim == 0:
        shape = None     # NumPy raises (indices not 1-d, a 0-d array): on the probe
    else:
        axis = rules.axis_index(params["axis"], a.ndim)
        shape = a.shape[:axis] + (ishape[0],) + a.shape[axis + 1:]
    tiny_indices = np.zeros(tuple(min(d, 1) for d in ishape), idtype)
    call = {k: v for k, v in params.items() if k not in ("array", "indices", "out")}
    value = _run(uf, "reduceat", (a, tiny_indices), call)
    if shape is None:
        raise MetaError("ufunc.reduceat: NumPy accepted what it should refuse")
    return rules.result_meta(value, shape, rules.array_kind((rest, kwargs)))


def outer_rule(op, args, kwargs):
    """``ufunc.outer(A, B)``: ``A.shape + B.shape`` (a tuple of results for divmod)."""
    fn, *rest = args
    uf = numpy_ufunc(fn)
    if len(rest) != 2:
        raise TypeError(f"outer() takes exactly two arguments ({len(rest)} given)")
    if kwargs.get("out") is not None or kwargs.get("where") is not None:
        raise MetaError("ufunc.outer with out= or where=")
    rules.static(kwargs, "ufunc.outer's keywords")
    shape = tuple(rules.shape_of(rest[0])) + tuple(rules.shape_of(rest[1]))
    value = _run(uf, "outer", rest, kwargs)
    kind = rules.array_kind(rest)
    if isinstance(value, tuple):
        return tuple(rules.result_meta(v, shape, kind) for v in value)
    return rules.result_meta(value, shape, kind)


def at_rule(op, args, kwargs) -> ArrayMeta:
    """``ufunc.at(a, indices, b)``: in place; ``b`` broadcasts to ``a[indices]``."""
    a, fn, *rest = args
    uf = numpy_ufunc(fn)
    if kwargs or not 1 <= len(rest) <= 2:
        raise TypeError("at() takes the array, the indices and (binary ufuncs) the values")
    if not isinstance(a, ArrayMeta) or a.scalar:
        raise MetaError("ufunc.at into a non-array")
    indices, b = rest[0], (rest[1] if len(rest) == 2 else None)
    if (b is None) != (uf.nin == 1):
        raise ValueError(f"{uf.__name__}.at needs {'no' if uf.nin == 1 else 'a'} second "
                         "operand")
    selected = index_meta(a, indices).shape
    if b is not None:
        bshape = tuple(rules.shape_of(b))
        if np.broadcast_shapes(bshape, selected) != tuple(selected):
            raise ValueError(f"array of shape {bshape} does not broadcast to the "
                             f"selection's shape {tuple(selected)}")
    holder = np.zeros((1,), a.dtype)   # the casting rule NumPy applies to the result
    operand = () if b is None else (rules.substitute(b, lambda m: probe(m)),)
    rules.run_quietly(uf.at, holder, [0], *operand)
    return a


def _at_first(args, kwargs):
    """``np.add.at(a, idx, b)`` arrives as ``(np.add, a, idx, b)``: the written array
    goes first, so the translator sees the write."""
    if len(args) < 2:
        raise TypeError("at() missing required argument 'a'")
    fn, a, *rest = args
    return (a, fn, *rest), kwargs


def _at_impl(a, ufunc, *args):
    ufunc.at(a, *args)
    return a


def _cupy_at_impl(a, ufunc, *args):
    cupy_ufunc(ufunc).at(a, *args)
    return a


def _keywords(signature):
    """Arguments after the array become keywords (``np.add.reduce(a, 0, None, out)``):
    an ``out`` is then seen as the array the op writes into."""
    names = list(rules.signature_of(signature).parameters)[1:]

    def adapter(args, kwargs):
        fn, *rest = args
        if len(rest) <= 1:
            return args, kwargs
        if len(rest) - 1 > len(names):
            raise TypeError(f"too many arguments ({len(rest)})")
        extra = dict(zip(names, rest[1:]))
        if set(extra) & set(kwargs):
            raise TypeError(f"argument given by position and by keyword: "
                            f"{sorted(set(extra) & set(kwargs))}")
        return (fn, rest[0]), {**extra, **kwargs}
    return adapter


_OPS = {}
_RAISES = {"reduceat": {"raises": "raises IndexError for an index out of bounds"}}
for _name, _rule, _adapter in (
        ("reduce", reduce_rule, _keywords(_signature_of_reduce)),
        ("accumulate", accumulate_rule, _keywords(_signature_of_accumulate)),
        ("reduceat", reduceat_rule, _keywords(_signature_of_reduceat)),
        ("outer", outer_rule, same)):
    _impl, _cupy = _method(_name)
    _OPS[_name] = (register(OpDef(f"ufunc_{_name}", _impl, _rule, OPAQUE, cupy=_cupy,
                                  extras={"method": _name, **_RAISES.get(_name, {})},
                                  doc=f"ufunc.{_name}: the ufunc is the first argument")),
                   _adapter)
_OPS["at"] = (register(OpDef("ufunc_at", _at_impl, at_rule, MUTATION, cupy=_cupy_at_impl,
                             extras={"method": "at", "returns_none": True,
                                     "raises": "raises IndexError for an index out of "
                                               "bounds"},
                             doc="ufunc.at(a, indices, b): writes into a, returns None")),
              _at_first)
