"""``dynamo.compile`` and what it returns.

Example::

    >>> fast = dynamo.compile(f)                      # a function
    >>> model = dynamo.compile(MLP(), backend="eager") # a callable object
    >>> model._orig_mod                                # the original object
    >>> @dynamo.compile(fullgraph=True)
    ... def g(x): ...
"""

from __future__ import annotations

import functools
import inspect
import operator
import types
from collections.abc import Callable
from typing import Any

from backends import bind_options, lookup_backend

from . import hook


def _backend_name(backend) -> str:
    return backend if isinstance(backend, str) else getattr(backend, "__name__", repr(backend))


def compile(fn: Callable | None = None, *, backend: str | Callable = "eager",
            fullgraph: bool = False, dynamic: bool | None = None,
            options: dict | None = None) -> Any:
    """Compile ``fn`` (a function, bound method or callable object) with ``backend``.

    Works as a call, and as a decorator with or without arguments. Raises
    ``TypeError`` for a non-callable and ``ValueError`` for an unknown backend name.
    """
    if fn is None:
        return functools.partial(compile, backend=backend, fullgraph=fullgraph,
                                 dynamic=dynamic, options=options)
    if not callable(fn):
        raise TypeError(f"dynamo.compile expects a function or a callable object, "
                        f"got {type(fn).__name__!s} {fn!r:.60}")
    if dynamic not in (None, True, False):
        raise TypeError(f"dynamic must be None, True or False, got {dynamic!r}")
    compiler = bind_options(lookup_backend(backend), options)
    ctx = hook.CompileContext(compiler, _backend_name(backend), fullgraph, dynamic, options)
    if isinstance(fn, types.FunctionType):
        return OptimizedFunction(fn, ctx)
    if isinstance(fn, types.MethodType) and isinstance(fn.__func__, types.FunctionType):
        return types.MethodType(OptimizedFunction(fn.__func__, ctx), fn.__self__)
    if isinstance(fn, (OptimizedFunction, OptimizedModule)):
        raise TypeError("this object is already compiled; compile the original "
                        "(._orig_mod) instead")
    return OptimizedModule(fn, ctx)


class OptimizedFunction:
    """A compiled function: call it like the original."""

    def __init__(self, fn: types.FunctionType, ctx: hook.CompileContext):
        self._orig_fn = fn
        self._ctx = ctx
        self._call = hook.intercept(fn, ctx)
        functools.update_wrapper(self, fn)

    # Calling the object calls the wrapper itself: a property that C code reads
    # (attrgetter), rather than a __call__(*args, **kwargs) that repacks the arguments
    # and adds a Python frame (0.1-0.2 us of a call's overhead).
    __call__ = property(operator.attrgetter("_call"))

    def __get__(self, obj, objtype=None):  # decorating a method
        if obj is None:
            return self
        return types.MethodType(self._call, obj)

    def __repr__(self) -> str:
        return f"<dynamo compiled {self._orig_fn.__qualname__} backend={self._ctx.backend_name}>"


def entry_function(obj: Any) -> types.FunctionType:
    """The Python function that runs when ``obj`` is called: its class's ``__call__``.

    ``model(x)`` runs ``__call__`` even where the class also has a ``forward`` (which
    ``__call__`` may wrap with more work), so that is what a compiled object runs too;
    a ``forward`` that ``__call__`` calls is inlined into the same graph.
    """
    cls = type(obj)
    method = inspect.getattr_static(cls, "__call__", None)
    if isinstance(method, types.FunctionType):
        return method
    raise TypeError(f"cannot compile {cls.__qualname__} objects: their __call__ is not a "
                    "Python function")


class OptimizedModule:
    """A compiled callable object. Attribute access goes to the original object;
    ``forward``, where the class has one, is compiled too."""

    def __init__(self, mod: Any, ctx: hook.CompileContext):
        method = entry_function(mod)
        object.__setattr__(self, "_orig_mod", mod)
        object.__setattr__(self, "_ctx", ctx)
        object.__setattr__(self, "_call", hook.intercept(method, ctx))
        object.__setattr__(self, "_bound_call", types.MethodType(self._call, mod))
        forward = inspect.getattr_static(type(mod), "forward", None)
        if isinstance(forward, types.FunctionType):
            object.__setattr__(self, "forward",
                               types.MethodType(hook.intercept(forward, ctx), mod))
        object.__setattr__(self, "__wrapped__", mod)
        object.__setattr__(self, "__doc__", type(mod).__doc__)

    __call__ = property(operator.attrgetter("_bound_call"))   # see OptimizedFunction

    def __getattr__(self, name: str):
        return getattr(self._orig_mod, name)

    def __setattr__(self, name: str, value) -> None:
        setattr(self._orig_mod, name, value)

    def __repr__(self) -> str:
        return f"<dynamo compiled {type(self._orig_mod).__qualname__} " \
               f"backend={self._ctx.backend_name}>"
