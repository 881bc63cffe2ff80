"""The ops the registry knows, grouped as NumPy's documentation groups them.

Each ``register`` call names the canonical op, its NumPy implementation, its rule
(see :mod:`dynamo.ops.rules`), its kind, and which user-facing functions and array
methods map to it. Python operators map to ops in :mod:`dynamo.translator`
(``a + b`` -> ``add``); ``**`` maps to ``pow`` (``operator.pow``), which keeps
NumPy's fast paths for ``x**2`` and ``x**0.5`` so compiled results stay bit-equal.
"""

from __future__ import annotations

import operator

import numpy as np

from . import rules
from .registry import (
    CREATION,
    ELEMENTWISE,
    MATMUL,
    MUTATION,
    OPAQUE,
    REDUCTION,
    VIEW,
    OpDef,
    register,
)

# --------------------------------------------------------------------------- ufuncs

_UFUNC_ALIASES = {"abs": "absolute", "divide": "true_divide", "mod": "remainder",
                  "conjugate": "conj", "bitwise_not": "invert", "bitwise_invert": "invert",
                  "acos": "arccos", "asin": "arcsin", "atan": "arctan", "acosh": "arccosh",
                  "asinh": "arcsinh", "atanh": "arctanh", "atan2": "arctan2",
                  "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift",
                  "pow": "power"}


def _register_ufuncs() -> None:
    """Every ufunc in the numpy namespace is an elementwise op under its own name."""
    seen: dict[int, OpDef] = {}
    for name in sorted(dir(np)):
        uf = getattr(np, name)
        if not isinstance(uf, np.ufunc) or uf.signature is not None:
            continue  # gufuncs (matmul, vecdot) have core dimensions: not elementwise
        canonical = uf.__name__
        if id(uf) in seen:
            continue
        op = OpDef(canonical, uf, rules.elementwise, ELEMENTWISE, nout=uf.nout)
        seen[id(uf)] = register(op, functions=[uf])


_register_ufuncs()


def _elementwise_function(name: str, fn, methods=()) -> OpDef:
    return register(OpDef(name, fn, rules.elementwise, ELEMENTWISE), functions=[fn],
                    methods=methods)


_elementwise_function("clip", np.clip, methods=["clip"])
_elementwise_function("round", np.round, methods=["round"])
register(OpDef("around", np.around, rules.elementwise, ELEMENTWISE), functions=[np.around])
_elementwise_function("nan_to_num", np.nan_to_num)

# Python operators whose NumPy behaviour differs from the plain ufunc.
register(OpDef("pow", operator.pow, rules.elementwise, ELEMENTWISE,
               doc="the ** operator: NumPy turns x**2 into square, x**0.5 into sqrt"))
register(OpDef("ipow", operator.ipow, rules.elementwise, MUTATION,
               doc="the **= operator (in place, with the same fast paths)"))
register(OpDef("where", np.where, rules.where, ELEMENTWISE), functions=[np.where])

# --------------------------------------------------------------------------- reductions

for _name, _fn in [("sum", np.sum), ("prod", np.prod), ("mean", np.mean), ("var", np.var),
                   ("std", np.std), ("max", np.max), ("min", np.min), ("any", np.any),
                   ("all", np.all), ("argmax", np.argmax), ("argmin", np.argmin),
                   ("ptp", np.ptp)]:
    _extra = {"max": [np.amax], "min": [np.amin]}.get(_name, [])
    register(OpDef(_name, _fn, rules.reduction, REDUCTION),
             functions=[_fn, *_extra], methods=[] if _name == "ptp" else [_name])

for _name, _fn in [("cumsum", np.cumsum), ("cumprod", np.cumprod)]:
    register(OpDef(_name, _fn, rules.scan, OPAQUE), functions=[_fn], methods=[_name])

# --------------------------------------------------------------------------- shapes and views


def _reshape_method(args, kwargs):
    x, *shape = args
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


register(OpDef("reshape", np.reshape, rules.on_ghosts, VIEW), functions=[np.reshape],
         methods=["reshape"], method_adapter=_reshape_method)
register(OpDef("transpose", np.transpose, rules.on_ghosts, VIEW), functions=[np.transpose],
         methods=["transpose"], properties=["T"], method_adapter=_transpose_method)
register(OpDef("swapaxes", np.swapaxes, rules.on_ghosts, VIEW), functions=[np.swapaxes],
         methods=["swapaxes"])
register(OpDef("expand_dims", np.expand_dims, rules.on_ghosts, VIEW),
         functions=[np.expand_dims])
register(OpDef("squeeze", np.squeeze, rules.on_ghosts, VIEW), functions=[np.squeeze],
         methods=["squeeze"])
register(OpDef("moveaxis", np.moveaxis, rules.on_ghosts, VIEW), functions=[np.moveaxis])
register(OpDef("broadcast_to", np.broadcast_to, rules.on_ghosts, VIEW),
         functions=[np.broadcast_to])


def getitem(x, index):
    return x[index]


def setitem(x, index, value):
    x[index] = value
    return x


register(OpDef("getitem", getitem, rules.getitem, VIEW, doc="x[index]"))
register(OpDef("setitem", setitem, rules.setitem, MUTATION, doc="x[index] = value"))


def astype(x, dtype, *args, **kwargs):
    return x.astype(dtype, *args, **kwargs)


register(OpDef("astype", astype, rules.astype, ELEMENTWISE), methods=["astype"])


def _copy_method(args, kwargs):
    return args, {"order": "C", **kwargs}


register(OpDef("copy", np.copy, rules.like, ELEMENTWISE), functions=[np.copy],
         methods=["copy"], method_adapter=_copy_method)

# --------------------------------------------------------------------------- linear algebra

register(OpDef("matmul", np.matmul, rules.matmul, MATMUL), functions=[np.matmul])
register(OpDef("dot", np.dot, rules.dot, MATMUL), functions=[np.dot], methods=["dot"])

# --------------------------------------------------------------------------- creation

for _name, _fn in [("zeros", np.zeros), ("ones", np.ones), ("empty", np.empty),
                   ("full", np.full)]:
    register(OpDef(_name, _fn, rules.creation, CREATION), functions=[_fn])
for _name, _fn in [("zeros_like", np.zeros_like), ("ones_like", np.ones_like),
                   ("empty_like", np.empty_like), ("full_like", np.full_like)]:
    register(OpDef(_name, _fn, rules.like, CREATION), functions=[_fn])
register(OpDef("arange", np.arange, rules.arange, CREATION), functions=[np.arange])
