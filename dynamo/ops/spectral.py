"""``np.fft`` and the window functions: ``fft``/``ifft``/``rfft``/``irfft``/``hfft``/
``ihfft``, their 2-d and n-d forms, ``fftfreq``/``rfftfreq``, ``fftshift``/``ifftshift``,
and ``hanning``/``hamming``/``blackman``/``bartlett``/``kaiser``.

A transform's result has its input's shape with each transformed axis resized, by
NumPy's documented formulas: ``n`` (or the axis's length) for the complex transforms,
``n // 2 + 1`` for ``rfft``/``ihfft`` (the half spectrum), and ``n`` (by default
``2 * (m - 1)``, the full signal of a half spectrum of ``m``) for ``irfft``/``hfft``.
A length below 1 is NumPy's ``ValueError``. The dtype (``complex64`` for a float32
input, ``complex128`` for ints), the checks of ``norm`` and of the axes, and the
``TypeError`` of ``rfft`` of complex data come from running the function itself on a
probe of two elements per axis (a half spectrum of two gives a signal of two), so they
are NumPy's own.

What breaks (MetaError, a graph break that lets NumPy run the call):

- ``out=`` (NumPy needs an ``out`` of the exact shape and dtype, which the trace does
  not hand it), dask arrays (not modelled);
- ``s`` given without ``axes`` in the n-d transforms (NumPy 2 deprecates it: the
  warning must come from the call), ``s`` with ``None`` entries, and repeated axes;
- ``fftshift`` of a constant (it is a copy: nothing to trace).

Example::

    >>> op = get("rfft")
    >>> op.meta(op, (ArrayMeta((4, 10), np.dtype("f4")),), {}).shape
    (4, 6)
"""

from __future__ import annotations

import operator

import numpy as np

from . import rules
from .meta import DASK, ArrayMeta, probe
from .registry import CREATION, OPAQUE, OpDef, register
from .rules import MetaError

_PROBE = 2   # elements per axis of the dtype probe: a half spectrum of 2 gives 2 points


def _signal(value, name: str = "a") -> ArrayMeta:
    """The transformed operand as a meta; constants become the array NumPy makes."""
    if isinstance(value, ArrayMeta):
        if value.kind == DASK:
            raise MetaError("np.fft of a dask array")
        return value
    value = np.asarray(rules.static(value, name))
    return ArrayMeta(value.shape, value.dtype)


def _points(n: int) -> int:
    """NumPy's check of a transform length."""
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    return n


def _resized(family: str, m: int, n) -> int:
    """The output length of an axis of length ``m`` transformed with ``n`` points."""
    if family == "inverse_real":       # irfft, hfft: a half spectrum in, n points out
        return _points(2 * (m - 1) if n is None else n)
    n = _points(m if n is None else n)
    return n // 2 + 1 if family == "half" else n


def _probe_dtype(op, a: ArrayMeta, call: dict) -> np.dtype:
    """Run the transform on a small probe (every axis of ``_PROBE`` elements, the
    options as given): NumPy's dtype and its checks of dtypes, axes and ``norm``."""
    small = np.zeros((_PROBE,) * a.ndim, a.dtype)
    return np.asarray(rules.run_quietly(op.impl, small, **call)).dtype


def _out_none(params: dict) -> None:
    if params.pop("out", None) is not None:
        raise MetaError("np.fft(out=): NumPy needs an out of the exact shape and dtype")


def one_axis_rule(op, args, kwargs) -> ArrayMeta:
    """``fft(a, n=None, axis=-1, norm=None)`` and its relatives."""
    params = rules.bind(op, args, kwargs)
    _out_none(params)
    a = _signal(params.pop("a"))
    n = rules.static(params.pop("n", None), "n")
    axis = operator.index(rules.static(params.pop("axis", -1), "axis"))
    norm = rules.static(params.pop("norm", None), "norm")
    dtype = _probe_dtype(op, a, {"axis": axis, "norm": norm})   # NumPy's checks first
    ax = rules.axis_index(axis, a.ndim)
    shape = list(a.shape)
    shape[ax] = _resized(op.extras["family"], a.shape[ax],
                         None if n is None else operator.index(n))
    return ArrayMeta(tuple(shape), dtype, a.kind, False)


def many_axes_rule(op, args, kwargs) -> ArrayMeta:
    """``fftn(a, s=None, axes=None, norm=None)``, ``fft2`` (axes ``(-2, -1)``) and their
    relatives: the real forms resize only the last transformed axis."""
    params = rules.bind(op, args, kwargs)
    _out_none(params)
    a = _signal(params.pop("a"))
    s = rules.static(params.pop("s", None), "s")
    axes = rules.static(params.pop("axes", None), "axes")
    norm = rules.static(params.pop("norm", None), "norm")
    if s is not None and axes is None:
        raise MetaError("np.fft with s= but no axes=: NumPy 2 warns (deprecated)")
    if s is not None and any(v is None for v in s):
        raise MetaError("np.fft with None in s=: NumPy 2 warns (deprecated)")
    dtype = _probe_dtype(op, a, {"axes": axes, "norm": norm})
    axes = tuple(range(a.ndim)) if axes is None else tuple(axes)
    norm_axes = [rules.axis_index(ax, a.ndim) for ax in axes]
    if len(set(norm_axes)) != len(norm_axes):
        raise MetaError("np.fft over a repeated axis")
    if s is not None and len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    sizes = [None] * len(axes) if s is None else [operator.index(v) for v in s]
    shape = list(a.shape)
    family = op.extras["family"]
    for i, (ax, n) in enumerate(zip(norm_axes, sizes)):
        last = i == len(norm_axes) - 1
        shape[ax] = _resized(family if last else "complex", a.shape[ax], n)
    return ArrayMeta(tuple(shape), dtype, a.kind, False)


def frequencies_rule(op, args, kwargs) -> ArrayMeta:
    """``fftfreq(n, d=1.0)`` (``n`` points) and ``rfftfreq`` (``n // 2 + 1``)."""
    params = rules.bind(op, args, kwargs)
    n = operator.index(rules.static(params["n"], "n"))
    d = params.get("d", 1.0)
    kind = d.kind if isinstance(d, ArrayMeta) else "numpy"
    d = probe(d) if isinstance(d, ArrayMeta) else d
    extra = {k: rules.static(v, k) for k, v in params.items() if k not in ("n", "d")}
    value = rules.run_quietly(op.impl, min(n, _PROBE), d, **extra)  # dtype, n's checks
    length = n // 2 + 1 if op.name == "rfftfreq" else n
    return ArrayMeta((max(length, 0),), value.dtype, kind, False)


def shift_rule(op, args, kwargs) -> ArrayMeta:
    """``fftshift(x, axes=None)``: a rolled copy of ``x``, its shape and dtype."""
    params = rules.bind(op, args, kwargs)
    x = params["x"]
    if not isinstance(x, ArrayMeta):
        raise MetaError(f"np.{op.name} of a constant")
    axes = rules.static(params.get("axes"), "axes")
    if axes is not None:
        rules.axis_tuple(axes, x.ndim)    # NumPy's AxisError for a bad axis
    return x.with_(scalar=False)


def window_rule(op, args, kwargs) -> ArrayMeta:
    """``hanning(M)`` and the other windows: float64, of NumPy's length for ``M`` (none
    for ``M < 1``); ``kaiser``'s ``beta`` may be traced. The function runs on the
    static ``M`` (a window is as small as the signal it tapers)."""
    params = rules.bind(op, args, kwargs)
    M = rules.static(params.pop("M"), "M")
    kind = rules.array_kind(params)
    value = rules.run_quietly(op.impl, M, **rules.substitute(params, probe))
    return ArrayMeta(value.shape, value.dtype, kind, False)


_ONE_AXIS = {"fft": "complex", "ifft": "complex", "rfft": "half", "ihfft": "half",
             "irfft": "inverse_real", "hfft": "inverse_real"}
_MANY_AXES = {"fft2": "complex", "ifft2": "complex", "fftn": "complex", "ifftn": "complex",
              "rfft2": "half", "rfftn": "half", "irfft2": "inverse_real",
              "irfftn": "inverse_real"}

for _name, _family in _ONE_AXIS.items():
    _fn = getattr(np.fft, _name)
    register(OpDef(_name, _fn, one_axis_rule, OPAQUE,
                   extras={"family": _family}), functions=[_fn])
for _name, _family in _MANY_AXES.items():
    _fn = getattr(np.fft, _name)
    register(OpDef(_name, _fn, many_axes_rule, OPAQUE,
                   extras={"family": _family}), functions=[_fn])
for _fn in (np.fft.fftfreq, np.fft.rfftfreq):
    register(OpDef(_fn.__name__, _fn, frequencies_rule, CREATION), functions=[_fn])
for _fn in (np.fft.fftshift, np.fft.ifftshift):
    register(OpDef(_fn.__name__, _fn, shift_rule, OPAQUE), functions=[_fn])
for _fn in (np.hanning, np.hamming, np.blackman, np.bartlett, np.kaiser):
    register(OpDef(_fn.__name__, _fn, window_rule, CREATION), functions=[_fn])
