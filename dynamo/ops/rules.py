"""Shape and dtype rules: ``rule(op, args, kwargs) -> ArrayMeta``, and their tools.

In ``args`` and ``kwargs`` every array is an ``ArrayMeta``; everything else is the
Python value the program passed. A rule raises (any exception) when NumPy would
raise or when it cannot be sure; the translator then graph-breaks and lets the real
library run the call, so the user sees NumPy's own error. A rule never guesses.

Dtypes are never computed by hand: each rule asks NumPy by running the op on tiny
probe values (0-d, or ``min(d, 1)``-shaped arrays of the same ndim), which gives NEP
50 promotion with Python scalars exactly as the installed NumPy does it. Shapes come
from formulas (checked against NumPy by the property tests in ``tests/ops``), or from
running a view op on zero-strided ghosts (O(1): views allocate nothing), or from
running the op on *shrunk* inputs (``shrunk_run``) when every output dimension is
one of the input dimensions (einsum, tensordot).

This module holds the rules shared by every family (``elementwise``, ``on_ghosts``)
and the tools the family modules build their own rules from.

Example::

    >>> f32 = np.dtype("float32")
    >>> elementwise(get("add"), (ArrayMeta((3, 1), f32), ArrayMeta((4,), f32)), {})
    ArrayMeta(shape=(3, 4), dtype=dtype('float32'), kind='numpy', scalar=False)
"""

from __future__ import annotations

import inspect
import operator
from functools import cache
from typing import Any

import numpy as np

from ..tree import tree_leaves, tree_map
from .meta import ArrayMeta, ghost, joined_kind, probe
from .quiet import warnings_as


class MetaError(Exception):
    """The rule cannot describe this call (data-dependent or unsupported)."""


def error_text(e: Exception) -> str:
    """What a user reads of an error of an op's rule: a ``MetaError``'s message says
    itself why the rule cannot describe the call (its class is internal); any other
    error is what NumPy would raise, named by its class (``ValueError: ...``)."""
    return str(e) if isinstance(e, MetaError) else f"{type(e).__name__}: {e}"


# --------------------------------------------------------------------------- walking values

def array_kind(values) -> str:
    return joined_kind(m.kind for m in metas_in(values))


def metas_in(values) -> list[ArrayMeta]:
    """Every ArrayMeta inside nested tuples, lists, dicts and slices."""
    return [v for v in tree_leaves(values) if isinstance(v, ArrayMeta)]



def substitute(value: Any, fn) -> Any:
    """Replace every ArrayMeta inside ``value`` (nested tuples, lists, dicts and slices)
    by ``fn(meta)``."""
    return tree_map(lambda v: fn(v) if isinstance(v, ArrayMeta) else v, value)


def static(value: Any, what: str) -> Any:
    """``value`` must be known while tracing (no array inside): it decides a shape."""
    if metas_in(value):
        raise MetaError(f"{what} is an array: the result's shape depends on its data")
    return value


def fits(value_shape: tuple, target: tuple) -> bool:
    """Can a value of ``value_shape`` be written into ``target`` (``x[...] = v``,
    ``np.copyto``)? Leading 1s beyond the target's ndim are dropped, then it broadcasts."""
    value_shape = tuple(value_shape)
    while len(value_shape) > len(target) and value_shape[0] == 1:
        value_shape = value_shape[1:]
    try:
        return np.broadcast_shapes(value_shape, tuple(target)) == tuple(target)
    except ValueError:
        return False


def shape_of(value) -> tuple:
    """The shape of an array argument, or of a Python value NumPy would convert."""
    if isinstance(value, ArrayMeta):
        return value.shape
    if metas_in(value):
        raise MetaError("a nested sequence holding arrays")
    return np.shape(value)


# --------------------------------------------------------------------------- running NumPy

def run_quietly(fn, *args, **kwargs):
    """Call ``fn`` with NumPy's floating-point warnings silenced (probes hold zeros)."""
    with np.errstate(all="ignore"), warnings_as("ignore"):
        return fn(*args, **kwargs)


def probe_result(op, args, kwargs, keep_ndim: bool = False):
    """Run the op's NumPy implementation on probes; the result carries dtype and kind."""
    conv = lambda m: probe(m, keep_ndim)  # noqa: E731
    return run_quietly(op.impl, *substitute(args, conv), **substitute(kwargs, conv))


def result_meta(value, shape: tuple, kind: str) -> ArrayMeta:
    scalar = isinstance(value, np.generic) and kind == "numpy" and len(shape) == 0
    return ArrayMeta(tuple(int(d) for d in shape), np.asarray(value).dtype, kind, scalar)


def shrunk_run(op, args, kwargs) -> tuple:
    """Run the op on ghosts whose dimensions are renamed to tiny sizes; map back.

    Every distinct dimension size becomes a distinct small size (0 and 1 stay
    themselves), so every equality and broadcasting test NumPy makes comes out the
    same, errors included, and the work is tiny. Only valid for ops whose output
    dimensions are input dimensions (einsum, tensordot, trace): an output size that
    is not an image of an input size means the op computed it, and the rule refuses.
    Returns ``(value, real_shape)``.
    """
    sizes = sorted({int(d) for m in metas_in((args, kwargs)) for d in m.shape} - {0, 1})
    small = {d: i + 2 for i, d in enumerate(sizes)}
    small.update({0: 0, 1: 1})
    back = {v: k for k, v in small.items()}

    def shrink(m: ArrayMeta):
        return ghost(m.with_(shape=tuple(small[int(d)] for d in m.shape)))

    value = run_quietly(op.impl, *substitute(args, shrink), **substitute(kwargs, shrink))
    shape = np.shape(value)
    if any(d not in back for d in shape):
        raise MetaError(f"{op.name}: an output size is not an input size")
    return value, tuple(back[d] for d in shape)


_ASKED_KINDS = ("elementwise", "reduction", "view", "matmul", "opaque", "mutation")
_ASK_LIMIT = 1 << 20   # elements in all: NumPy's own call stays cheap


def numpy_error(op, args, kwargs, error: Exception) -> tuple[Exception, bool] | None:
    """The exception NumPy itself raises for ``op`` on arrays of these metas, when it
    is of ``error``'s class, and whether its words hold for every value: (error,
    exact). None where NumPy does not raise, raises otherwise, or is not asked:
    creation and random ops (they would allocate or draw), non-NumPy arrays, more than
    ``_ASK_LIMIT`` elements. Inside a ``try`` the program's ``except`` may then catch
    it (translator/exceptions.py).

    The rule's ``error`` came from shapes and dtypes, yet NumPy's words may name a
    value: ``x[idx]`` with ``x`` empty raises for any ``idx``, "index 0 is out of
    bounds" for zeros, "index -1 ..." for the program's ``[-1]``. So NumPy is asked on
    zeros and on ones: the class must come out of both (else the values decide
    whether it raises: None), and the words are exact only where both say the same.

        >>> numpy_error(getitem, (meta((0,)), meta((1,), int64)), {}, IndexError())
        (IndexError('index 0 is out of bounds for axis 0 with size 0'), False)
    """
    metas = metas_in((args, kwargs))
    if op.kind not in _ASKED_KINDS or op.random or \
            any(m.kind != "numpy" for m in metas) or \
            sum(int(np.prod(m.shape)) for m in metas) > _ASK_LIMIT:
        return None
    zeros = lambda m: probe(m) if m.scalar else np.zeros(m.shape, m.dtype)  # noqa: E731
    ones = lambda m: np.ones((), m.dtype)[()] if m.scalar else np.ones(m.shape, m.dtype)  # noqa: E731
    raised = [_raised(op, args, kwargs, stand_in) for stand_in in (zeros, ones)]
    if any(type(e) is not type(error) for e in raised):
        return None
    return raised[0], str(raised[0]) == str(raised[1])


def _raised(op, args, kwargs, stand_in) -> Exception | None:
    """What NumPy's ``op`` raises on the metas replaced by ``stand_in``'s arrays."""
    try:
        run_quietly(op.impl, *substitute(args, stand_in), **substitute(kwargs, stand_in))
    except Exception as e:  # noqa: BLE001 (NumPy's own error is the answer)
        # (none of the trace's frames kept alive through it: its traceback and the
        # rule's error it was raised under are not the program's)
        e.__traceback__, e.__context__ = None, None
        return e
    return None


# --------------------------------------------------------------------------- arguments

def signature_of(fn) -> inspect.Signature | None:
    """``inspect.signature(fn)``, cached per function; an op's implementation that
    cannot be hashed (a callable object whose class sets ``__hash__ = None``, given to
    ``dynamo.register_op``) is read each time, not reported as a TypeError."""
    if getattr(type(fn), "__hash__", None) is None:
        return _signature(fn)
    return _cached_signature(fn)


def _signature(fn) -> inspect.Signature | None:
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):
        return None


_cached_signature = cache(_signature)


def bind(op, args, kwargs) -> dict[str, Any]:
    """The call's arguments by parameter name (defaults filled in, ``np._NoValue`` as
    None); a bad call raises TypeError as NumPy would."""
    return bound(op.impl, args, kwargs)


def bound(fn, args, kwargs) -> dict[str, Any]:
    """``bind`` against the signature of any function (``**kwargs`` flattened)."""
    sig = signature_of(fn)
    if sig is None:
        raise MetaError(f"cannot bind the arguments of {getattr(fn, '__name__', fn)}")
    ba = sig.bind(*args, **kwargs)
    ba.apply_defaults()
    params = dict(ba.arguments)
    for name, p in sig.parameters.items():
        if p.kind is p.VAR_KEYWORD:
            params.update(params.pop(name, {}))
    return {k: (None if v is np._NoValue else v) for k, v in params.items()}


def first_array(params: dict, name: str) -> ArrayMeta:
    a = params[name]
    if not isinstance(a, ArrayMeta):
        raise MetaError(f"{name} is not an array")
    return a


def axis_index(axis, ndim: int) -> int:
    """NumPy's ``normalize_axis_index`` (raises AxisError), for Python ints only."""
    from numpy.lib.array_utils import normalize_axis_index
    static(axis, "axis")
    return normalize_axis_index(operator.index(axis), ndim)


def axis_tuple(axis, ndim: int) -> tuple[int, ...]:
    from numpy.lib.array_utils import normalize_axis_tuple
    static(axis, "axis")
    return normalize_axis_tuple(axis, ndim)


def shape_arg(shape) -> tuple:
    """A shape argument (int or sequence of ints), checked like NumPy checks it."""
    static(shape, "the shape")
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    shape = tuple(operator.index(d) for d in shape)
    if any(d < 0 for d in shape):
        raise ValueError("negative dimensions are not allowed")
    return shape


def out_result(op, args, kwargs, shape: tuple, kind: str) -> ArrayMeta:
    """With ``out=``: NumPy returns ``out``; it must have exactly the result's shape, and
    running the op on probes with an ``out`` probe checks the casting rule."""
    out = kwargs["out"]
    if isinstance(out, tuple) and len(out) == 1:
        out = out[0]
    if not isinstance(out, ArrayMeta) or out.scalar:
        raise MetaError("out= must be an array")
    if tuple(out.shape) != tuple(shape):
        raise ValueError(f"{op.name}: out has shape {out.shape}, the result has {shape}")
    plain = {k: v for k, v in kwargs.items() if k != "out"}
    value = probe_result(op, args, plain, keep_ndim=True)
    holder = np.zeros(np.shape(value), out.dtype)
    run_quietly(op.impl, *substitute(args, lambda m: probe(m, True)),
                **substitute(plain, lambda m: probe(m, True)), out=holder)
    return out


# --------------------------------------------------------------------------- shared rules

def elementwise(op, args, kwargs) -> ArrayMeta:
    """Ufunc-style: broadcast every array argument; ``out=`` gives the result."""
    kind = array_kind((args, kwargs))
    if kind == "cupy":
        from .registry import _resolve_cupy
        if _resolve_cupy(op) is None:
            raise MetaError(f"CuPy has no {op.name}")
    arrays = [a for a in args if isinstance(a, ArrayMeta)]
    arrays += [v for k, v in kwargs.items() if k != "out" and isinstance(v, ArrayMeta)]
    if any(metas_in(a) for a in args if isinstance(a, (list, tuple))):
        raise MetaError("a sequence of arrays as an elementwise operand")
    shapes = [m.shape for m in arrays] + [np.shape(a) for a in args
                                          if isinstance(a, (list, tuple))]
    shape = np.broadcast_shapes(*shapes) if shapes else ()
    out = kwargs.get("out")
    if isinstance(out, tuple) and len(out) == 1:
        out = out[0]
    if isinstance(out, ArrayMeta):
        if out.scalar:
            raise TypeError("return arrays must be of ArrayType")
        if np.broadcast_shapes(shape, out.shape) != out.shape:
            raise ValueError("non-broadcastable output operand")
        plain = dict(kwargs)
        plain["out"] = np.zeros(np.shape(probe_result(
            op, args, {k: v for k, v in kwargs.items() if k != "out"})), out.dtype)
        probe_result(op, args, plain)  # raises on casting errors, like NumPy
        return out
    if out is not None:
        raise MetaError("out= must be one array")
    if kwargs.get("where") is not None and kwargs.get("where") is not True:
        raise MetaError("where= without out= leaves uninitialised memory in the result")
    value = probe_result(op, args, kwargs, keep_ndim=_text_operands(arrays))
    if op.nout > 1:
        return tuple(result_meta(v, shape, kind) for v in value)
    if not shape and np.asarray(value).dtype.kind in "SU":
        raise MetaError("a 0-d str or bytes result of an elementwise op is a scalar as "
                        "wide as its value")
    return result_meta(value, shape, kind)


def _text_operands(arrays: list[ArrayMeta]) -> bool:
    """Whether a str, bytes or void array is among the operands. Then the op runs on
    probes of the operands' own dimensions: a 0-d result is a NumPy scalar whose width
    is its value's, so probes of zeros would say ``'U3' + 'U3'`` is ``'<U0'`` where the
    arrays' sum is ``'<U6'``::

        np.zeros((), "U3") + np.zeros((), "U3")   ->  np.str_(''), dtype '<U0'
        np.zeros(1, "U3") + np.zeros(1, "U3")     ->  dtype '<U6'
    """
    return any(m.dtype.kind in "SUV" for m in arrays)


_ALL_ARRAYS = {"atleast_1d", "atleast_2d", "atleast_3d", "broadcast_arrays"}


def on_ghosts(op, args, kwargs) -> ArrayMeta:
    """Run the op on zero-strided ghosts: exact and O(1) for ops that return views.

    Only the array operands may be traced arrays (the first argument; every positional
    one for ``atleast_*d`` and ``broadcast_arrays``): an axis, a shape or an offset that
    is an array decides the result's shape by its value, which a ghost does not have.
    """
    kind = array_kind((args, kwargs))
    params = args[len(args) if op.name in _ALL_ARRAYS else 1:]
    static((params, kwargs), f"{op.name}'s axis, shape or offset")
    value = run_quietly(op.impl, *substitute(args, ghost), **substitute(kwargs, ghost))
    if isinstance(value, (tuple, list)):
        return type(value)(result_meta(v, np.shape(v), kind) for v in value)
    return result_meta(value, np.shape(value), kind)


def require_cupy(op, args, kwargs) -> None:
    """For a call on CuPy arrays: CuPy must have the function and accept the arguments
    (``cupy.linalg.pinv`` has no ``hermitian=``); otherwise the call runs eagerly."""
    if array_kind((args, kwargs)) != "cupy":
        return
    from .registry import _resolve_cupy
    fn = _resolve_cupy(op)
    if fn is None:
        raise MetaError(f"CuPy has no {op.name}")
    sig = signature_of(fn)
    if sig is not None:
        try:
            sig.bind(*args, **kwargs)
        except TypeError as e:
            raise MetaError(f"CuPy's {op.name} does not take these arguments: {e}") from e
