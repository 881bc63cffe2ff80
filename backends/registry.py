"""Backends by name.

A backend is ``backend(graph, example_inputs) -> callable(*arrays) -> tuple of arrays``.
It may accept ``options`` (a dict, from ``dynamo.compile(..., options=...)``) as a
keyword; one that sets ``backend.check_options = fn`` has ``fn(options)`` called by
``dynamo.compile`` itself, so a bad option is a ``ValueError`` there, not an error at the
first call. A backend that sets ``backend.layout_guards = True`` gets its inputs' strides
pinned by guards (fused kernels that assume a layout need that); ``"contiguity"`` pins
only the C/F contiguity flags, and ``"dynamic-contiguity"`` pins strides except for a
contiguous input with a symbolic size, which gets the flags. A backend that sets
``backend.dynamic_shapes = True`` may receive graphs with symbolic sizes (see
``docs/dynamic_shapes.md``); the others always get static shapes.

Example::

    >>> @register_backend(name="mine")
    ... def mine(graph, example_inputs):
    ...     return eager(graph, example_inputs)
    >>> "mine" in list_backends()
    True
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable

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
    _load_builtin()
    return sorted(_REGISTRY)


def lookup_backend(spec) -> Callable:
    """The backend for a name or a callable; ValueError names the registered backends."""
    _load_builtin()
    if callable(spec):
        return spec
    if isinstance(spec, str):
        if spec in _REGISTRY:
            return _REGISTRY[spec]
        raise ValueError(f"unknown backend {spec!r}; registered backends: "
                         f"{', '.join(sorted(_REGISTRY))} (or pass a callable)")
    raise TypeError(f"backend must be a name or a callable, got {type(spec).__name__}")


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


_loaded = False


def _load_builtin() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    from . import eager  # noqa: F401  (registers "eager")
    try:
        from . import cupy_backend  # noqa: F401  (registers "cupy", "cudagraphs")
    except ImportError:
        pass
    try:
        from . import cudagraphs  # noqa: F401  (registers "cudagraphs")
    except ImportError:
        pass
    try:
        from . import numpy_backend  # noqa: F401  (registers "numpy")
    except ImportError:
        pass
