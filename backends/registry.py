"""Backends by name.

A backend is ``backend(graph, example_inputs) -> callable(*arrays) -> tuple of arrays``.
It may accept ``options`` (a dict, from ``dynamo.compile(..., options=...)``) as a
keyword; one that sets ``backend.check_options = fn`` has ``fn(options)`` called by
``dynamo.compile`` itself, so a bad option is a ``ValueError`` there, not an error at the
first call. A backend that sets ``backend.layout_guards = True`` gets its inputs' strides
pinned by guards (fused kernels that assume a layout need that); ``"contiguity"`` pins
only the C/F contiguity flags, and ``"dynamic-contiguity"`` pins strides except for a
contiguous input with a symbolic size, which gets the flags; a dict gives one of these
per array library (``{"cupy": "dynamic-contiguity"}``). A backend that sets
``backend.dynamic_shapes = True`` may receive graphs with symbolic sizes (see
``docs/dynamic_shapes.md``); the others always get static shapes.

The built-in backends are listed in ``BUILTIN`` as ``"module:function"`` paths and
imported the first time they are looked up: this module imports no backend, and no
backend imports this module (nothing registers itself on import). User backends
register with ``register_backend``; a user backend may take a built-in's name.

Example::

    >>> @register_backend(name="mine")
    ... def mine(graph, example_inputs):
    ...     return eager(graph, example_inputs)
    >>> "mine" in list_backends()
    True
"""

from __future__ import annotations

import functools
import importlib
import inspect
from collections.abc import Callable

# name -> "module:function", the module relative to this package
BUILTIN: dict[str, str] = {
    "eager": ".eager:eager",
    # the numpy backend, which hands graphs with dask array inputs to the dask backend
    "numpy": ".dask_backend.select:numpy_or_dask",
    "dask": ".dask_backend.backend:dask_backend",
    "cupy": ".cupy_backend.backend:cupy_backend",
    "cudagraphs": ".cudagraphs.backend:cudagraphs",
    "native": ".native.backend:native_backend",   # needs Numba (docs/native.md)
    # per graph: native (or numpy without Numba) for NumPy arrays, eager for CuPy's
    "auto": ".auto:auto",
}

# What ``dynamo.compile``, ``dynamo.explain``, ``dynamo.annotate`` and ``python -m dynamo
# annotate`` use when no backend is named (issue #15): per graph the fastest built-in
# backend this machine runs for the graph's arrays (the numpy backend, or the native
# tier above it where Numba is installed; see ``auto``). ``backend="eager"`` names the
# plain one (the graph's printout), ``backend="numpy"`` the numpy backend alone.
DEFAULT_BACKEND = "auto"

# user backends, and the built-ins already imported
_REGISTRY: dict[str, Callable] = {}


def register_backend(fn: Callable | None = None, name: str | None = None):
    """Register ``fn`` under ``name`` (default: its ``__name__``). Works as a decorator."""
    if fn is None:
        return functools.partial(register_backend, name=name)
    if not callable(fn):
        raise TypeError(f"a backend must be callable, got {type(fn).__name__}")
    _REGISTRY[name or fn.__name__] = fn
    return fn


def list_backends() -> list[str]:
    """The names ``lookup_backend`` accepts (importing no backend)."""
    return sorted(_REGISTRY.keys() | BUILTIN.keys())


def lookup_backend(spec) -> Callable:
    """The backend for a name or a callable; ValueError names the registered backends."""
    if callable(spec):
        return spec
    if isinstance(spec, str):
        if spec not in _REGISTRY and spec in BUILTIN:
            _REGISTRY[spec] = load(BUILTIN[spec])
        if spec in _REGISTRY:
            return _REGISTRY[spec]
        raise ValueError(f"unknown backend {spec!r}; registered backends: "
                         f"{', '.join(list_backends())} (or pass a callable)")
    raise TypeError(f"backend must be a name or a callable, got {type(spec).__name__}")


def load(path: str) -> Callable:
    """The function a ``"module:function"`` path names; a leading dot in the module
    means this package (``".eager:eager"`` is ``backends.eager.eager``)."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module, __package__), name)


def builtin_backend(name: str) -> Callable:
    """The built-in backend ``name``, even where a user's backend took that name (the
    frontend runs a graph on the built-in ``eager`` when a built-in backend fails)."""
    return load(BUILTIN[name])


def bind_options(backend: Callable, options: dict | None) -> Callable:
    """``backend`` with ``options`` passed along when it accepts them."""
    if not options:
        return backend
    try:
        params = inspect.signature(backend).parameters
    except (TypeError, ValueError):
        params = {}
    if "options" in params or any(p.kind == p.VAR_KEYWORD for p in params.values()):
        check = getattr(backend, "check_options", None)
        if check is not None:
            check(options)
        bound = functools.partial(backend, options=dict(options))
        bound.layout_guards = getattr(backend, "layout_guards", False)
        bound.dynamic_shapes = getattr(backend, "dynamic_shapes", False)
        return bound
    raise ValueError(f"backend {getattr(backend, '__name__', backend)!r} takes no options, "
                     f"got {sorted(options)}")


def is_builtin(backend: Callable) -> bool:
    """Whether ``backend`` (possibly with options bound) is one of this package's own,
    whose results the frontend trusts without checking them on every call."""
    fn = getattr(backend, "func", backend)   # functools.partial from bind_options
    return getattr(fn, "__module__", "").startswith(f"{__package__}.")

