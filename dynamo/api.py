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

from dynamo.backends import bind_options, lookup_backend

from . import convert, hook, logs

log_breaks = logs.get("graph_breaks")


def _backend_name(backend) -> str:
    return backend if isinstance(backend, str) else getattr(backend, "__name__", repr(backend))


def compile(fn: Callable | None = None, *, backend: str | Callable = "eager",
            fullgraph: bool = False, dynamic: bool | None = None,
            options: dict | None = None) -> Any:
    """Compile ``fn`` (a function, bound method or callable object) with ``backend``.

    A ``functools.partial`` gets its function compiled, with its arguments; a callable
    with no Python code to trace (a ufunc, a builtin, a class) gets a wrapper that
    calls it as it is (logged on the ``graph_breaks`` channel). Works as a call, and as
    a decorator with or without arguments. Raises ``TypeError`` for a non-callable and
    ``ValueError`` for an unknown backend name.
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
    ctx = hook.CompileContext(compiler, _backend_name(backend), fullgraph, dynamic, options,
                              convert_frame=convert.convert_frame)
    if isinstance(fn, (OptimizedFunction, OptimizedModule)):
        raise TypeError("this object is already compiled; compile the original "
                        "(._orig_mod) instead")
    return _compile_callable(fn, ctx)


def _compile_callable(fn: Callable, ctx: hook.CompileContext) -> Callable:
    """What ``dynamo.compile`` returns for ``fn``: compiled where it has Python code to
    trace, otherwise a wrapper that calls it plainly. Never refuses a callable."""
    if isinstance(fn, types.FunctionType):
        return OptimizedFunction(fn, ctx)
    if isinstance(fn, types.MethodType) and isinstance(fn.__func__, types.FunctionType):
        return types.MethodType(OptimizedFunction(fn.__func__, ctx), fn.__self__)
    if type(fn) is functools.partial:   # its function compiled, with its arguments
        return functools.partial(_compile_callable(fn.func, ctx), *fn.args, **fn.keywords)
    if isinstance(fn, type):
        return _plain_call(fn, "a class: creating an instance is not traced")
    if not _defines_call(type(fn)):
        return _plain_call(fn, f"a {type(fn).__name__} has no Python code to trace")
    return OptimizedModule(fn, ctx)


def _defines_call(cls: type) -> bool:
    """Whether instances of ``cls`` are called through a ``__call__`` a Python class
    defines (not one of a builtin or extension type: ufuncs, builtins, C objects)."""
    return any("__call__" in vars(k) for k in cls.__mro__ if k.__module__ != "builtins"
               and not isinstance(vars(k).get("__call__"), _C_CALLS))


_C_CALLS = (types.WrapperDescriptorType, types.MethodDescriptorType)


def _plain_call(fn: Callable, why: str) -> Callable:
    """A function that calls ``fn`` as it is (nothing to trace), named like it."""
    log_breaks.debug("dynamo.compile(%r): %s; it runs uncompiled", fn, why)

    def call(*args, **kwargs):
        return fn(*args, **kwargs)
    functools.update_wrapper(call, fn, updated=())
    return call


class OptimizedFunction:
    """A compiled function: call it like the original."""

    # How the translator recognises one (and inlines ``_orig_fn``) without importing
    # this module: see ``dynamo.variables.builder._compiled_function``.
    __dynamo_compiled__ = True

    def __init__(self, fn: types.FunctionType, ctx: hook.CompileContext):
        self._orig_fn = fn
        self._ctx = ctx
        self._call = hook.intercept(fn, ctx)
        functools.update_wrapper(self, fn)
        # A method's lookups reach the function its bound method wraps, here ``_call``:
        # it carries the function's attributes too (unittest reads
        # ``__unittest_expecting_failure__`` from the bound test method).
        self._call.__dict__.update(fn.__dict__)

    # Calling the object calls the wrapper itself: a property that C code reads
    # (attrgetter), rather than a __call__(*args, **kwargs) that repacks the arguments
    # and adds a Python frame (0.1-0.2 us of a call's overhead).
    __call__ = property(operator.attrgetter("_call"))

    # a function's defaults, as the original has them (update_wrapper copies neither)
    __defaults__ = property(lambda self: self._orig_fn.__defaults__,
                            lambda self, value: setattr(self._orig_fn, "__defaults__", value))
    __kwdefaults__ = property(lambda self: self._orig_fn.__kwdefaults__,
                              lambda self, value: setattr(self._orig_fn, "__kwdefaults__",
                                                          value))
    # read through too: on 3.14 update_wrapper copies __annotate__, not __annotations__
    __annotations__ = property(lambda self: self._orig_fn.__annotations__,
                               lambda self, value: setattr(self._orig_fn, "__annotations__",
                                                           value))

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
        object.__setattr__(self, "_orig_mod", mod)
        object.__setattr__(self, "_ctx", ctx)
        self._bind(_class_call(type(mod)))
        forward = inspect.getattr_static(type(mod), "forward", None)
        if isinstance(forward, types.FunctionType):
            object.__setattr__(self, "forward",
                               types.MethodType(hook.intercept(forward, ctx), mod))
        object.__setattr__(self, "__wrapped__", mod)
        object.__setattr__(self, "__doc__", type(mod).__doc__)

    def _bind(self, method: Any) -> Callable:
        """Compile the class's ``__call__`` ``method`` for the object (a function is
        intercepted and bound; a staticmethod's function is intercepted; any other
        descriptor is bound as Python would, then compiled or called plainly)."""
        mod, ctx = self._orig_mod, self._ctx
        if isinstance(method, types.FunctionType):
            call = types.MethodType(hook.intercept(method, ctx), mod)
        elif isinstance(method, staticmethod) and \
                isinstance(method.__func__, types.FunctionType):
            call = hook.intercept(method.__func__, ctx)
        else:
            get = getattr(type(method), "__get__", None)
            call = _compile_callable(get(method, mod, type(mod)) if get else method, ctx)
        object.__setattr__(self, "_method", method)
        object.__setattr__(self, "_bound_call", call)
        return call

    @property
    def __call__(self) -> Callable:
        # ``Model.__call__`` may be replaced (or ``m.__class__``) after compiling: the
        # class's current one runs, compiled. One lookup and one identity test a call.
        method = _class_call(type(self._orig_mod))
        if method is self._method:
            return self._bound_call
        return self._bind(method)

    def __getattr__(self, name: str):
        return getattr(self._orig_mod, name)

    def __setattr__(self, name: str, value) -> None:
        setattr(self._orig_mod, name, value)

    def __repr__(self) -> str:
        return f"<dynamo compiled {type(self._orig_mod).__qualname__} " \
               f"backend={self._ctx.backend_name}>"


def _class_call(cls: type) -> Any:
    """The ``__call__`` attribute ``cls`` defines (as stored: a function, staticmethod,
    partialmethod...), found along the MRO without binding it."""
    for klass in cls.__mro__:
        method = vars(klass).get("__call__")
        if method is not None:
            return method
    return None
