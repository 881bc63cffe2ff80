"""Shape and dtype rules: ``rule(op, args, kwargs) -> ArrayMeta``.

In ``args`` and ``kwargs`` every array is an ``ArrayMeta``; everything else is the
Python value the program passed. A rule raises (any exception) when NumPy would
raise or when it cannot be sure; the translator then graph-breaks and lets the real
library run the call, so the user sees NumPy's own error.

Dtypes are never computed by hand: each rule asks NumPy by running the op on tiny
probe values (0-d, or all-ones shapes of the same ndim), which gives NEP 50
promotion with Python scalars exactly as the installed NumPy does it. Shapes come
from the rules below, or from running a view op on zero-strided ghost arrays.

Example::

    >>> f32 = np.dtype("float32")
    >>> elementwise(get("add"), (ArrayMeta((3, 1), f32), 2.0), {}).shape
    (3,)  ... broadcast with the Python scalar: (3, 1), dtype float32
"""

from __future__ import annotations

import inspect
import operator
import warnings
from functools import cache
from typing import Any

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

from .meta import ArrayMeta, ghost, probe


class MetaError(Exception):
    """The rule cannot describe this call (data-dependent or unsupported)."""


def array_kind(values) -> str:
    kinds = {m.kind for m in _metas(values)}
    if len(kinds) > 1:
        raise TypeError(f"mixed array libraries in one call: {sorted(kinds)}")
    return kinds.pop() if kinds else "numpy"


def _metas(values) -> list[ArrayMeta]:
    out = []

    def walk(v):
        if isinstance(v, ArrayMeta):
            out.append(v)
        elif isinstance(v, (tuple, list)):
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, slice):
            walk((v.start, v.stop, v.step))
    walk(values)
    return out


def substitute(value: Any, fn) -> Any:
    """Replace every ArrayMeta inside ``value`` by ``fn(meta)``."""
    if isinstance(value, ArrayMeta):
        return fn(value)
    if isinstance(value, tuple):
        return tuple(substitute(v, fn) for v in value)
    if isinstance(value, list):
        return [substitute(v, fn) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, fn) for k, v in value.items()}
    if isinstance(value, slice):
        return slice(*(substitute(v, fn) for v in (value.start, value.stop, value.step)))
    return value


def run_quietly(fn, *args, **kwargs):
    """Call ``fn`` with NumPy's floating-point warnings silenced (probes hold zeros)."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def probe_result(op, args, kwargs, keep_ndim: bool = False):
    """Run the op's NumPy implementation on probes; the result carries dtype and kind."""
    conv = lambda m: probe(m, keep_ndim)
    return run_quietly(op.impl, *substitute(args, conv), **substitute(kwargs, conv))


def result_meta(value, shape: tuple, kind: str) -> ArrayMeta:
    scalar = isinstance(value, np.generic) and kind == "numpy" and len(shape) == 0
    return ArrayMeta(tuple(shape), np.asarray(value).dtype, kind, scalar)


@cache
def signature_of(fn) -> inspect.Signature | None:
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):
        return None


def bind(op, args, kwargs) -> dict[str, Any]:
    """The call's arguments by parameter name (defaults filled in)."""
    sig = signature_of(op.impl)
    if sig is None:
        raise MetaError(f"cannot bind the arguments of {op.name}")
    bound = sig.bind(*args, **kwargs)
    bound.apply_defaults()
    return dict(bound.arguments)


# --------------------------------------------------------------------------- elementwise

def elementwise(op, args, kwargs) -> ArrayMeta:
    """Ufunc-style: broadcast every array argument; ``out=`` gives the result."""
    kind = array_kind((args, kwargs))
    arrays = [a for a in args if isinstance(a, ArrayMeta)]
    where = kwargs.get("where")
    if isinstance(where, ArrayMeta):
        arrays.append(where)
    shape = np.broadcast_shapes(*(m.shape for m in arrays)) if arrays else ()
    out = kwargs.get("out")
    if isinstance(out, tuple) and len(out) == 1:
        out = out[0]
    if isinstance(out, ArrayMeta):
        if np.broadcast_shapes(shape, out.shape) != out.shape:
            raise ValueError("non-broadcastable output operand")
        probe_result(op, args, kwargs)  # raises on casting errors, like NumPy
        return out
    if out is not None:
        raise MetaError("out= must be an array")
    if where is not None:
        raise MetaError("where= without out= leaves uninitialised memory")
    value = probe_result(op, args, kwargs)
    if op.nout > 1:
        return tuple(result_meta(v, shape, kind) for v in value)
    return result_meta(value, shape, kind)


# --------------------------------------------------------------------------- reductions

_NO_IDENTITY = {"max", "min", "argmax", "argmin", "ptp"}


def reduction(op, args, kwargs) -> ArrayMeta:
    """sum/mean/max/var/argmax...: drop (or keep as 1) the reduced axes."""
    kind = array_kind((args, kwargs))
    params = bind(op, args, kwargs)
    a = next(iter(params.values()))
    if not isinstance(a, ArrayMeta):
        raise MetaError(f"{op.name} of a non-array")
    if params.get("out") is not None:
        raise MetaError("out= on a reduction")
    axis, keepdims = params.get("axis"), params.get("keepdims", False)
    if keepdims is np._NoValue:
        keepdims = False
    axes = tuple(range(a.ndim)) if axis is None else normalize_axis_tuple(axis, a.ndim)
    if op.name in _NO_IDENTITY and any(a.shape[i] == 0 for i in axes) and \
            params.get("initial", np._NoValue) is np._NoValue:
        raise ValueError(f"zero-size array to reduction operation {op.name} "
                         "which has no identity")
    if keepdims:
        shape = tuple(1 if i in axes else d for i, d in enumerate(a.shape))
    elif axis is None and op.name in ("argmax", "argmin"):
        shape = ()
    else:
        shape = tuple(d for i, d in enumerate(a.shape) if i not in axes)
    value = probe_result(op, args, kwargs, keep_ndim=True)
    return result_meta(value, shape, kind)


def scan(op, args, kwargs) -> ArrayMeta:
    """cumsum/cumprod: same shape, or flattened when axis is None."""
    kind = array_kind((args, kwargs))
    params = bind(op, args, kwargs)
    a = next(iter(params.values()))
    if params.get("out") is not None:
        raise MetaError("out= on a scan")
    axis = params.get("axis")
    if axis is None:
        shape = (a.size,)
    else:
        normalize_axis_tuple(axis, a.ndim)
        shape = a.shape
    value = probe_result(op, args, kwargs, keep_ndim=True)
    return ArrayMeta(shape, value.dtype, kind, False)


# --------------------------------------------------------------------------- views

def on_ghosts(op, args, kwargs) -> ArrayMeta:
    """Run the op on zero-strided ghosts: exact for ops that return views."""
    kind = array_kind((args, kwargs))
    value = run_quietly(op.impl, *substitute(args, ghost), **substitute(kwargs, ghost))
    if isinstance(value, tuple):
        return tuple(result_meta(v, np.shape(v), kind) for v in value)
    return result_meta(value, np.shape(value), kind)


def getitem(op, args, kwargs) -> ArrayMeta:
    """``x[index]``: ghosts for the array and for integer index arrays."""
    x, index = args
    for m in _metas(index):
        if m.dtype == np.bool_:
            raise MetaError("boolean mask index: the result's shape depends on the data")
        if m.dtype.kind not in "iu":
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
    return on_ghosts(op, (x, index), {})


def setitem(op, args, kwargs) -> ArrayMeta:
    """``x[index] = value``: the value must broadcast to the selected shape."""
    x, index, value = args
    if x.scalar:
        raise TypeError(f"'{x.dtype.type.__name__}' object does not support item assignment")
    from .registry import get
    target = getitem(get("getitem"), (x, index), {})
    vshape = np.shape(value) if not isinstance(value, ArrayMeta) else value.shape
    while len(vshape) > len(target.shape) and vshape[0] == 1:
        vshape = vshape[1:]
    if np.broadcast_shapes(vshape, target.shape) != target.shape:
        raise ValueError(f"could not broadcast input array from shape {vshape} into "
                         f"shape {target.shape}")
    if isinstance(value, ArrayMeta) and value.dtype.kind == "c" and x.dtype.kind != "c":
        raise MetaError("complex to real assignment warns in NumPy")
    return x


# --------------------------------------------------------------------------- linear algebra

def matmul(op, args, kwargs) -> ArrayMeta:
    """``a @ b`` with NumPy's 1-d promotion and batch broadcasting."""
    kind = array_kind((args, kwargs))
    if kwargs:
        raise MetaError("matmul keywords")
    a, b = args
    if not (isinstance(a, ArrayMeta) and isinstance(b, ArrayMeta)):
        raise MetaError("matmul with a Python scalar")
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: Input operand does not have enough dimensions")
    ashape = (1,) + a.shape if a.ndim == 1 else a.shape
    bshape = b.shape + (1,) if b.ndim == 1 else b.shape
    if ashape[-1] != bshape[-2]:
        raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0, "
                         f"with gufunc signature (n?,k),(k,m?)->(n?,m?) "
                         f"(size {bshape[-2]} is different from {ashape[-1]})")
    batch = np.broadcast_shapes(ashape[:-2], bshape[:-2])
    shape = batch + (ashape[-2], bshape[-1])
    if a.ndim == 1:
        shape = shape[:-2] + shape[-1:]
    if b.ndim == 1:
        shape = shape[:-1]
    value = probe_result(op, args, {}, keep_ndim=True)
    return result_meta(value, shape, kind)


def dot(op, args, kwargs) -> ArrayMeta:
    """``np.dot``: matmul for ndim <= 2, scalar multiply for 0-d, sum-product otherwise."""
    a, b = args
    if kwargs or not (isinstance(a, ArrayMeta) and isinstance(b, ArrayMeta)):
        raise MetaError("dot with keywords or Python scalars")
    if a.ndim == 0 or b.ndim == 0:
        return elementwise(op, args, {})
    if a.ndim <= 2 and b.ndim <= 2:
        return matmul(op, args, {})
    kind = array_kind(args)
    k = b.shape[-2] if b.ndim >= 2 else b.shape[0]
    if a.shape[-1] != k:
        raise ValueError(f"shapes {a.shape} and {b.shape} not aligned")
    shape = a.shape[:-1] + b.shape[:-2] + b.shape[-1:]
    value = probe_result(op, args, {}, keep_ndim=True)
    return result_meta(value, shape, kind)


# --------------------------------------------------------------------------- creation

def _shape_arg(shape) -> tuple:
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    shape = tuple(operator.index(d) for d in shape)
    if any(d < 0 for d in shape):
        raise ValueError("negative dimensions are not allowed")
    return shape


def creation(op, args, kwargs) -> ArrayMeta:
    """zeros/ones/empty/full(shape, ...): run on a zero-size shape for the dtype."""
    params = bind(op, args, kwargs)
    if params.get("like") is not None:
        raise MetaError("like= is not supported")
    shape = _shape_arg(params["shape"])
    zero_args = list(args)
    if args:
        zero_args[0] = (0,) * len(shape)
        zkwargs = dict(kwargs)
    else:
        zkwargs = dict(kwargs, shape=(0,) * len(shape))
    value = run_quietly(op.impl, *zero_args, **zkwargs)
    return ArrayMeta(shape, value.dtype, "numpy", False)


def like(op, args, kwargs) -> ArrayMeta:
    """zeros_like/ones_like/full_like/empty_like: shape of the prototype unless given."""
    kind = array_kind((args, kwargs))
    params = bind(op, args, kwargs)
    proto = params.get("a", params.get("prototype"))
    shape = params.get("shape")
    shape = proto.shape if shape is None else _shape_arg(shape)
    value = probe_result(op, args, dict(kwargs, shape=None) if "shape" in kwargs else kwargs,
                         keep_ndim=True)
    return ArrayMeta(tuple(shape), value.dtype, kind, False)


_EXACT_ARANGE = 1 << 12


def arange(op, args, kwargs) -> ArrayMeta:
    """``np.arange``: the length formula NumPy uses, checked exactly for short ranges."""
    if kwargs.get("like") is not None:
        raise MetaError("like= is not supported")
    if any(isinstance(a, ArrayMeta) for a in (*args, *kwargs.values())):
        raise MetaError("arange with array arguments")
    params = dict(kwargs)
    names = ("start", "stop", "step", "dtype")
    if len(args) == 1 and "stop" not in params:
        params["stop"] = args[0]
    else:
        params.update(zip(names, args))
    start, stop, step = params.get("start", 0), params.get("stop"), params.get("step", 1)
    if stop is None:
        start, stop = 0, start
    if step in (None, 0):
        if step == 0:
            raise ZeroDivisionError("division by zero")
        step = 1
    n = int(np.ceil((stop - start) / step)) if isinstance(stop - start, (int, float)) else None
    if n is None or n <= _EXACT_ARANGE:
        value = run_quietly(op.impl, *args, **kwargs)
        return ArrayMeta(value.shape, value.dtype, "numpy", False)
    value = run_quietly(op.impl, start, start + step, step, params.get("dtype"))
    return ArrayMeta((max(n, 0),), value.dtype, "numpy", False)


def astype(op, args, kwargs) -> ArrayMeta:
    x = args[0]
    value = run_quietly(op.impl, probe(x), *args[1:], **kwargs)
    return ArrayMeta(x.shape, value.dtype, x.kind, False)


def where(op, args, kwargs) -> ArrayMeta:
    if len(args) != 3 or kwargs:
        raise MetaError("np.where with one argument returns data-dependent indices")
    return elementwise(op, args, {})
