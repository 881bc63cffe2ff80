"""Elementwise ops: every NumPy ufunc, the ufunc-like functions, and dtype changes.

Every ufunc in the ``numpy`` namespace (``add``, ``exp``, ``isnan``, ``divmod``...)
is an op under its canonical ``__name__`` (``np.abs`` and ``np.absolute`` are both
``absolute``), with NumPy's ``out=``, ``where=`` (together with ``out=``: without it
the result holds uninitialised memory, so that is a graph break), ``dtype=`` and
``casting=``. Functions that behave like ufuncs (``clip``, ``round``, ``isclose``,
``nan_to_num``...) share the rule. Python's ``**`` is the op ``pow``
(``operator.pow``), which keeps NumPy's fast paths (``x**2`` is ``square``).

Example::

    >>> op, _ = lookup_function(np.maximum)
    >>> op.meta(op, (ArrayMeta((2, 3), np.dtype("f4")), 0.5), {})
    ArrayMeta(shape=(2, 3), dtype=dtype('float32'), kind='numpy', scalar=False)
"""

from __future__ import annotations

import operator

import numpy as np

from . import identity, rules
from .meta import NUMPY, ArrayMeta, probe
from .registry import ELEMENTWISE, MUTATION, VIEW, OpDef, get, register
from .rules import MetaError

# NumPy 2.4 deprecates a third positional argument of np.maximum and np.minimum: the
# program's own ``np.maximum(a, b, c)`` warns DeprecationWarning on every call, which
# a graph that wrote ``out=c`` would not (backends/numpy_backend/positional_out.py has
# the same list for generated code)
_POSITIONAL_OUT_WARNS = ("maximum", "minimum")


def _positional_out(uf: np.ufunc):
    """``np.add(a, b, c)`` writes into ``c``: make it ``out=c`` so the translator sees
    the write (every alias of ``c`` then reads the result). Where NumPy warns for the
    positional form, the call is not modelled (a MetaError: it runs eagerly, and warns)::

        np.maximum(a, b, c)   ->  MetaError on NumPy 2.4 and later
    """
    nin = uf.nin

    def adapter(args, kwargs):
        if len(args) <= nin:
            return args, kwargs
        if uf.__name__ in _POSITIONAL_OUT_WARNS:
            raise MetaError(f"np.{uf.__name__} with more than {nin} positional arguments "
                            f"warns DeprecationWarning on NumPy {np.__version__}")
        if "out" in kwargs:
            raise TypeError("cannot specify 'out' as both a positional and keyword argument")
        outs = tuple(args[nin:])
        return tuple(args[:nin]), dict(kwargs, out=outs[0] if len(outs) == 1 else outs)
    return adapter


def _register_ufuncs() -> None:
    """Every ufunc in the numpy namespace is an elementwise op under its own name."""
    seen: set[int] = set()
    for name in sorted(dir(np)):
        uf = getattr(np, name)
        if not isinstance(uf, np.ufunc) or uf.signature is not None or id(uf) in seen:
            continue  # gufuncs (matmul, vecdot) have core dimensions: see linalg.py
        seen.add(id(uf))
        register(OpDef(uf.__name__, uf, rules.elementwise, ELEMENTWISE, nout=uf.nout),
                 functions=[uf], adapter=_positional_out(uf))


_register_ufuncs()


def conj_method(x):
    return x.conj()


# x.conj() of a real array is x itself (np.conjugate(x), a ufunc, is always a new array)
register(OpDef("conj_method", conj_method, rules.elementwise, ELEMENTWISE,
               same_object=identity.no_copy, doc="x.conj(): x itself for a real x"),
         methods=["conj", "conjugate"])


def _ufunc_like(name: str, fn, methods=(), rule=rules.elementwise) -> OpDef:
    return register(OpDef(name, fn, rule, ELEMENTWISE), functions=[fn], methods=methods)


_ufunc_like("clip", np.clip, methods=["clip"])
_ufunc_like("round", np.round, methods=["round"])
register(OpDef("around", np.around, rules.elementwise, ELEMENTWISE), functions=[np.around])
for _fn in (np.fix, np.isposinf, np.isneginf, np.isclose, np.angle, np.sinc, np.isreal,
            np.iscomplex, np.i0):
    _ufunc_like(_fn.__name__, _fn)


def nan_to_num_rule(op, args, kwargs):
    params = rules.bind(op, args, kwargs)
    if params.get("copy") is False:
        raise MetaError("nan_to_num(copy=False) writes into its argument")
    rules.static({k: params.get(k) for k in ("nan", "posinf", "neginf")}, "a replacement")
    return rules.elementwise(op, args, kwargs)


_ufunc_like("nan_to_num", np.nan_to_num, rule=nan_to_num_rule)

# Python operators whose NumPy behaviour differs from the plain ufunc.
register(OpDef("pow", operator.pow, rules.elementwise, ELEMENTWISE,
               doc="the ** operator: NumPy turns x**2 into square, x**0.5 into sqrt"))
register(OpDef("ipow", operator.ipow, rules.elementwise, MUTATION,
               doc="the **= operator (in place, with the same fast paths)"))

# Python's operators on NumPy scalars (no operand is an array) take NumPy's scalar path,
# which is not the ufunc's: np.float64(1) / 0 warns "divide by zero encountered in
# scalar divide" (np.divide: "... in divide"), -np.int8(-128) warns of an overflow
# (np.negative does not). There the operator is its own op, calling the operator itself.
_SCALAR_OPERATORS = {
    "add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
    "divide": operator.truediv, "floor_divide": operator.floordiv,
    "remainder": operator.mod, "bitwise_and": operator.and_, "bitwise_or": operator.or_,
    "bitwise_xor": operator.xor, "left_shift": operator.lshift,
    "right_shift": operator.rshift, "negative": operator.neg, "positive": operator.pos,
    "invert": operator.invert, "absolute": operator.abs, "less": operator.lt,
    "less_equal": operator.le, "equal": operator.eq, "not_equal": operator.ne,
    "greater": operator.gt, "greater_equal": operator.ge,
}
for _name, _fn in _SCALAR_OPERATORS.items():
    register(OpDef(f"scalar_{_name}", _fn, rules.elementwise, ELEMENTWISE,
                   doc=f"Python's operator.{_fn.__name__} on NumPy scalars"))


def operator_op(name: str, scalars_only: bool) -> OpDef:
    """The op of Python's operator ``name`` (``add``, ``divide``, ``negative``...): the
    ufunc for array operands, the operator itself when every operand is a NumPy scalar
    or a Python number (``scalars_only``). ``**`` is always the op ``pow``."""
    if scalars_only and name in _SCALAR_OPERATORS:
        return get(f"scalar_{name}")
    return get(name)


def where_rule(op, args, kwargs) -> ArrayMeta:
    if len(args) != 3 or kwargs:
        raise MetaError("np.where with one argument returns indices whose number depends "
                        "on the data; use the three-argument form np.where(c, x, y)")
    return rules.elementwise(op, args, {})


register(OpDef("where", np.where, where_rule, ELEMENTWISE), functions=[np.where])

# --------------------------------------------------------------------------- dtypes


def astype(x, dtype, *args, **kwargs):
    return x.astype(dtype, *args, **kwargs)


def astype_rule(op, args, kwargs) -> ArrayMeta:
    x = args[0]
    if not isinstance(x, ArrayMeta):
        raise MetaError("astype of a non-array")
    rules.static((args[1:], kwargs), "astype's arguments")
    value = rules.run_quietly(op.impl, probe(x), *args[1:], **kwargs)
    return rules.result_meta(value, x.shape, x.kind)


# extras["warns_at_caller"]: the generated code calls x.astype(...) itself, so a cast's
# warning ("invalid value encountered in cast", ComplexWarning) names the program's
# line, not this module's wrapper (as reductions.py's _WARN_AT_CALLER)
register(OpDef("astype", astype, astype_rule, ELEMENTWISE, same_object=identity.no_copy,
               doc="x.astype(dtype); copy=False may return x itself",
               extras={"warns_at_caller": True}), methods=["astype"])


def view(x, *args, **kwargs):
    return x.view(*args, **kwargs)


def view_rule(op, args, kwargs) -> ArrayMeta:
    """``x.view(dtype)``: same itemsize only (otherwise the shape depends on layout)."""
    x, rest = args[0], args[1:]
    params = dict(zip(("dtype", "type"), rest), **kwargs)
    if params.get("type") is not None:
        raise MetaError("x.view(type=...) makes an ndarray subclass")
    dtype = params.get("dtype")
    if isinstance(dtype, type) and issubclass(dtype, np.ndarray):
        raise MetaError("x.view(ndarray subclass)")
    new = x.dtype if dtype is None else np.dtype(dtype)
    if new.itemsize != x.dtype.itemsize:
        raise MetaError("view with a different itemsize changes the shape according to "
                        "the memory layout")
    value = rules.run_quietly(op.impl, probe(x), *rest, **kwargs)
    return rules.result_meta(value, x.shape, x.kind)


register(OpDef("view", view, view_rule, VIEW, doc="x.view(dtype) of the same itemsize"),
         methods=["view"])


def scalar_cast(x, scalar_type):
    """``np.float32(x)`` of an array: NumPy casts (a scalar for 0-d, else an array)."""
    return scalar_type(x)


def scalar_cast_rule(op, args, kwargs) -> ArrayMeta:
    x, scalar_type = args
    dtype = np.dtype(scalar_type)
    if not kwargs and (type(x) is int and dtype.kind in "fciu" or
                       type(x) is float and dtype.kind in "fc"):
        # np.float64(len(kept)), np.int64(len(kept)), np.float32(self.n), np.int32(k):
        # a Python number the graph computes or takes. The type alone makes the meta
        # (the value only says whether NumPy raises): the callers make an int type
        # only of an int it holds (variables/size_values.count_cast: a count;
        # variables/number_casts: a changing int whose range the entry guards), and
        # the rule runs at perturbed values too, where the program's value would fit.
        return rules.result_meta(rules.run_quietly(scalar_type, 0), (), NUMPY)
    if kwargs or not isinstance(x, ArrayMeta):
        raise MetaError("scalar type call")
    value = rules.run_quietly(scalar_type, probe(x, keep_ndim=True))
    return rules.result_meta(value, x.shape, x.kind)


register(OpDef("scalar_cast", scalar_cast, scalar_cast_rule, ELEMENTWISE,
               doc="np.float32(x) and friends applied to an array"))

# ``x.real`` / ``x.imag`` (properties) and ``np.real`` / ``np.imag`` (functions): views.
register(OpDef("real", np.real, rules.on_ghosts, VIEW, same_object=identity.on_ghosts,
               doc="x itself for a real x"), functions=[np.real], properties=["real"])
register(OpDef("imag", np.imag, rules.on_ghosts, VIEW), functions=[np.imag],
         properties=["imag"])
