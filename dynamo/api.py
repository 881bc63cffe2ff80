"""``dynamo.compile`` and what it returns.

Example::

    >>> fast = dynamo.compile(f)                      # a function, backend="auto"
    >>> model = dynamo.compile(MLP(), backend="eager") # a callable object, plain calls
    >>> model._orig_mod                                # the original object
    >>> @dynamo.compile(fullgraph=True)
    ... def g(x): ...

What ``compile`` returns pickles (``pickle``, ``cloudpickle``) as what it wraps plus its
settings, never its cache, so it can be sent to worker processes (multiprocessing, dask):
see ``docs/distributed.md``.

Its parts: ``compile_settings.py`` (the settings, and the contexts made from them),
``compiled_calls.py`` (what a compiled function's call runs), ``compiled_methods.py``
(a compiled bound method), ``pickled_by_name.py`` (whether a pickler sends an object by
name); the compiled function and callable object are here.
"""

from __future__ import annotations

import copyreg
import difflib
import functools
import inspect
import types
import weakref
from collections.abc import Callable
from multiprocessing.reduction import ForkingPickler
from typing import Any

from dynamo.backends import DEFAULT_BACKEND
from dynamo.guards.type_slots import (
    dict_of,
    is_builtin_class,
    module_of,
    mro_of,
    name_of,
    qualname_of,
)

from . import hook, logs, wrappers
from .bytecode.caller_frames import when_found
from .compile_settings import CompileSettings, received_context
from .compiled_calls import hooked_call
from .compiled_methods import OptimizedMethod
from .config import config
from .entry_trial import entry_for
from .pickled_by_name import pickled_by_name

log_breaks = logs.get("graph_breaks")


def compile(fn: Callable | None = None, *, backend: str | Callable = DEFAULT_BACKEND,
            fullgraph: bool = False, dynamic: bool | None = None,
            options: dict | None = None, **unknown: Any) -> Any:
    """Compile ``fn`` (a function, bound method or callable object) with ``backend``.

    A ``functools.partial`` gets its function compiled, with its arguments; a callable
    with no Python code to trace (a ufunc, a builtin, a class) is returned as it is,
    to run uncompiled (logged on the ``graph_breaks`` channel). Works as a call, and as
    a decorator with or without arguments. Raises ``TypeError`` for a non-callable and
    ``ValueError`` for an unknown backend name, and ``TypeError`` naming the valid
    keywords for any other (``fulgraph=True``: "did you mean 'fullgraph'?").

    ``backend`` defaults to ``"auto"``: per graph, the fastest built-in backend this
    machine runs for the graph's arrays (the numpy backend for NumPy arrays, with the
    native tier above it where Numba is installed; for CuPy arrays the cupy backend, or
    eager before it had passed its GPU checks: ``backends/auto.py``), taking the numpy
    backend's and the native tier's ``options``. Name one to choose it yourself:
    ``backend="eager"`` (the graph's plain NumPy calls), ``"numpy"``, ``"native"``,
    ``"cupy"`` ... (``dynamo.list_backends()``), or pass a callable.
    """
    if unknown:
        raise TypeError(_unknown_keyword(next(iter(unknown))))
    if fn is None:
        return functools.partial(compile, backend=backend, fullgraph=fullgraph,
                                 dynamic=dynamic, options=options)
    if not callable(fn):
        raise TypeError(f"dynamo.compile expects a function or a callable object, "
                        f"got {type(fn).__name__!s} {fn!r:.60}")
    if dynamic not in (None, True, False):
        raise TypeError(f"dynamic must be None, True or False, got {dynamic!r}")
    if not isinstance(fullgraph, bool):
        raise TypeError(f"fullgraph must be True or False, got {fullgraph!r}")
    settings = CompileSettings(backend, fullgraph, dynamic,
                               None if options is None else dict(options))
    try:
        ctx, error = settings.context(), None
    except ValueError as e:   # an unknown backend, options the backend does not take
        if config.verbose:
            raise
        error = e.with_traceback(None)
    if error is not None:     # the program's mistake: shown raised from compile() alone
        raise error
    if isinstance(fn, (OptimizedFunction, OptimizedModule, OptimizedMethod)):
        raise TypeError("this object is already compiled; compile the original "
                        "(._orig_mod) instead")
    return _compile_callable(fn, settings, ctx)


_COMPILE_KEYWORDS = ("backend", "fullgraph", "dynamic", "options")


def _unknown_keyword(name: str) -> str:
    """The message for ``dynamo.compile(f, name=...)``, ``name`` none of its keywords."""
    close = difflib.get_close_matches(name, _COMPILE_KEYWORDS, n=1)
    maybe = f"did you mean {close[0]!r}? " if close else ""
    return (f"dynamo.compile() got an unexpected keyword argument {name!r}; {maybe}its "
            f"keywords are {', '.join(_COMPILE_KEYWORDS)} (a backend's own settings go in "
            "options={...})")


def _compile_callable(fn: Callable, settings: CompileSettings,
                      ctx: hook.CompileContext) -> Callable:
    """What ``dynamo.compile`` returns for ``fn``: compiled where it has Python code to
    trace, otherwise a wrapper that calls it plainly. Never refuses a callable."""
    if isinstance(fn, types.FunctionType):
        return OptimizedFunction(fn, settings, ctx)
    if isinstance(fn, types.MethodType) and isinstance(fn.__func__, types.FunctionType):
        return OptimizedMethod(OptimizedFunction(fn.__func__, settings, ctx), fn.__self__)
    if type(fn) is functools.partial:   # its function compiled, with its arguments
        return functools.partial(_compile_callable(fn.func, settings, ctx), *fn.args,
                                 **fn.keywords)
    if isinstance(fn, type):
        return _plain_call(fn, "a class: creating an instance is not traced")
    if not _defines_call(type(fn)):
        return _plain_call(fn, f"a {type(fn).__name__} has no Python code to trace")
    return compiled_object_class(type(fn))(fn, settings, ctx)


def _defines_call(cls: type) -> bool:
    """Whether instances of ``cls`` are called through a ``__call__`` a Python class
    defines (not one of a builtin or extension type: ufuncs, builtins, C objects)."""
    return any("__call__" in dict_of(k) for k in mro_of(cls) if not is_builtin_class(k)
               and not isinstance(dict_of(k).get("__call__"), _C_CALLS))


_C_CALLS = (types.WrapperDescriptorType, types.MethodDescriptorType)


def _plain_call(fn: Callable, why: str) -> Callable:
    """``fn`` itself (nothing to trace: it runs as it is). Not a wrapper function,
    which would not be ``fn``: ``dynamo.compile(np.add).reduce``, ``isinstance(p,
    dynamo.compile(Point))`` and ``dynamo.compile(log.append).__self__`` work as on
    ``fn`` (hostile round 28, ``compiled_ufunc_methods``)."""
    log_breaks.debug("dynamo.compile(%r): %s; it runs uncompiled", fn, why)
    return fn


class _OfTheFunction(str):
    """A class attribute of ``OptimizedFunction`` (``__doc__``, ``__module__``) that an
    instance reads from its original function: a class attribute is found before
    ``__getattr__`` is asked. On the class it is the class's own, a str (``type``
    reads ``__module__`` from the class's namespace as it is there), which pickles as
    a plain str (a pickler writes the class's module name when it sends the class)."""

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, obj, objtype=None):
        return self if obj is None else getattr(obj._dynamo_fn, self.name)

    def __reduce__(self):
        return str, (str(self),)


class _Internal:
    """``f._orig_fn``, ``f._settings``, ``f._ctx`` of a compiled function: dynamo's own
    values (its ``_dynamo_*`` slots, which dynamo itself reads) until the program
    writes or deletes that name, which is then the function's attribute, as on a plain
    function (issue #17 ``compiled-object-own-slots``)::

        >>> f = dynamo.compile(g); f._ctx          # dynamo's CompileContext
        >>> f._ctx = "mine"; f._ctx, g._ctx        # ('mine', 'mine'); calls unchanged
    """

    def __init__(self, slot: str):
        self.slot = slot

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        if self.name in obj._dynamo_written:
            return getattr(obj._dynamo_fn, self.name)
        return getattr(obj, self.slot)


class OptimizedFunction:
    """A compiled function: call it like the original."""

    # Calling the object calls what its ``__call__`` slot holds (the frame entry, or
    # the function itself: see ``compiled_calls.hooked_call``). A slot is a member
    # descriptor, which CPython's ``slot_tp_call`` reads straight from the object: about 260
    # instructions a call less than a property reading an attribute (callgrind,
    # CPython 3.11; docs/benchmarks.md), and no ``__call__(*args, **kwargs)`` frame
    # repacking the arguments.
    # The object's own attributes are these slots; every other one is the original
    # function's, read (``__getattr__``), written and deleted there, and ``__dict__`` is
    # the function's: an attribute set on either after compiling (a registry's mark)
    # is seen on both, as on one function, and ``__name__``, ``__code__`` or
    # ``__defaults__`` are the function's as they are now (``inspect.signature`` reads
    # the object as a function).
    # dynamo's own state is in ``_dynamo_*`` slots; ``_orig_fn``, ``_settings`` and
    # ``_ctx`` read them until a program sets (or deletes) that name (``_Internal``).
    # ``f.__call__`` reads the value a program set (``__getattribute__``), the slot
    # otherwise; dynamo reads the slot itself through ``_call_slot``.
    __slots__ = ("__call__", "_dynamo_fn", "_dynamo_settings", "_dynamo_ctx",
                 "_dynamo_written", "__wrapped__", "__weakref__")
    __doc__ = _OfTheFunction(__doc__)
    __module__ = _OfTheFunction(__module__)
    _orig_fn = _Internal("_dynamo_fn")
    _settings = _Internal("_dynamo_settings")
    _ctx = _Internal("_dynamo_ctx")

    # How the translator recognises one (and inlines ``_orig_fn``) without importing
    # this module: see ``dynamo.variables.value_kinds.compiled_function``.
    __dynamo_compiled__ = True

    def __init__(self, fn: types.FunctionType, settings: CompileSettings,
                 ctx: hook.CompileContext | None = None):
        ctx = ctx if ctx is not None else settings.context()
        own = functools.partial(object.__setattr__, self)   # (see __setattr__)
        own("_dynamo_fn", fn)
        own("_dynamo_settings", settings)
        own("_dynamo_ctx", ctx)
        own("_dynamo_written", set())   # the _Internal names a program has written
        # (a function that reads its caller's frame is called as it is: see compiled_calls)
        call = hooked_call(fn, ctx, settings)
        own("__call__", call)
        own("__wrapped__", fn)
        # A method's lookups reach the function its bound method wraps, here ``_call``:
        # it carries the function's attributes too (unittest reads
        # ``__unittest_expecting_failure__`` from the bound test method).
        call.__dict__.update(fn.__dict__)
        # small calls may run faster plain: a trial times both ways (entry_trial.py)
        own("__call__", entry_for(self, fn, call, settings, config.entry_trial_calls))
        if call is not fn:   # the trace may find it reads through an argument
            when_found(fn.__code__, self)
            wrappers.watch_code(fn, self)   # fn.__code__ replaced: see code_replaced

    def frame_reader_found(self, why: str) -> None:
        """The trace found that the function reads frames above its own through a
        function it was given (``f(x, reader)``; ``caller_frames.found_reading``): from
        the next call on it is called as it is, as ``hooked_call`` does for a reader."""
        log_breaks.debug("dynamo.compile(%s): it reads its caller's frame (%s); it runs "
                         "uncompiled from now on", self._dynamo_fn.__qualname__, why)
        object.__setattr__(self, "__call__", self._dynamo_fn)

    def code_replaced(self) -> None:
        """The function's ``__code__`` was replaced (its frame entry's prologue saw it,
        or it was set through this object): a new entry, made for the new code, takes
        the next calls, so that they bind by its parameters (issue #17
        ``code-replaced-signature``)."""
        fn = self._dynamo_fn
        if _call_slot(self) is fn:   # called as it is already (a frame reader)
            return
        call = hooked_call(fn, self._dynamo_ctx, self._dynamo_settings)
        call.__dict__.update(fn.__dict__)
        if call is not fn:
            when_found(fn.__code__, self)
        object.__setattr__(self, "__call__", call)

    # what a call runs (the slot's value), under the name the rest of dynamo reads
    _call = property(lambda self: _call_slot(self))

    def __getattribute__(self, name: str):
        # ``f.__call__ = h`` went to the function's ``__dict__`` (``__setattr__``), where
        # a plain function's ``fn.__call__`` then reads ``h`` (its type's ``__call__`` is
        # not a data descriptor), while calling either still runs the function (issue
        # #17 ``compiled-object-call-slot``). A call never comes here: CPython's
        # ``slot_tp_call`` reads the ``__call__`` slot through the type, not through
        # ``__getattribute__``, so calls cost what they did (callgrind, docs/benchmarks.md).
        if name == "__call__":
            fn = _fn_slot(self)
            value = dict.get(fn.__dict__, "__call__", _ABSENT)
            if value is not _ABSENT:
                return value
        return _object_getattribute(self, name)

    def __getattr__(self, name: str):
        if name in _OWN:   # not set yet (unpickling): no function to ask
            raise AttributeError(name)
        return getattr(_fn_slot(self), name)

    def __setattr__(self, name: str, value) -> None:
        # A program's ``f.__call__ = g`` (or ``f._ctx = ...``) sets the function's
        # attribute, as on a plain function, where it changes nothing about calling
        # ``f``: only dynamo's own writes (``object.__setattr__``) reach those slots.
        if name in _OWN and name not in _RUNS:
            object.__setattr__(self, name, value)
        else:
            setattr(self._dynamo_fn, name, value)
            if name in _INTERNAL:
                self._dynamo_written.add(name)
            if name == "__code__":
                self.code_replaced()

    def __delattr__(self, name: str) -> None:
        if name in _OWN and name not in _RUNS:
            object.__delattr__(self, name)
        else:
            delattr(self._dynamo_fn, name)
            if name in _INTERNAL:
                self._dynamo_written.add(name)

    __dict__ = property(lambda self: self._dynamo_fn.__dict__)

    def __get__(self, obj, objtype=None):  # decorating a method
        if obj is None:
            return self
        return types.MethodType(_call_slot(self), obj)

    def __repr__(self) -> str:
        return (f"<dynamo compiled {self._dynamo_fn.__qualname__} "
                f"backend={self._dynamo_ctx.backend_name}>")

    def __reduce__(self):
        """Pickled like the function it wraps: by name where its module holds this wrapper
        (``@dynamo.compile`` on a module-level function) and the pickler would send a
        function there by name; otherwise as the function and the settings, the
        function pickled as the pickler pickles any function (cloudpickle: by value in
        ``__main__`` or a closure; pickle: by name, or pickle's own error)."""
        name = pickled_by_name(self, main=False)
        if name is not None:
            return name
        # The function goes as state, after the empty wrapper is memoized: a function
        # sent by value that calls itself by its global name (decorated in __main__)
        # then finds this same wrapper, not a second one.
        return copyreg.__newobj__, (OptimizedFunction,), (self._dynamo_fn, self._dynamo_settings)

    def __setstate__(self, state: tuple) -> None:
        fn, settings = state
        self.__init__(fn, settings, received_context(settings))


_OWN = frozenset(OptimizedFunction.__slots__)
# the slots' own readers (member descriptors' ``__get__``): no ``__getattribute__`` call
_call_slot = vars(OptimizedFunction)["__call__"].__get__
_fn_slot = vars(OptimizedFunction)["_dynamo_fn"].__get__
_object_getattribute = object.__getattribute__
_ABSENT = object()
# The slots that decide what a call runs: a program's writes go to the function.
_RUNS = frozenset({"__call__", "_dynamo_fn", "_dynamo_settings", "_dynamo_ctx",
                   "_dynamo_written"})
_INTERNAL = frozenset({"_orig_fn", "_settings", "_ctx"})


def _reduce_for_child_process(fn: OptimizedFunction):
    """How multiprocessing (``Pool``, ``ProcessPoolExecutor``) sends a compiled function:
    by name also where ``__main__`` holds it, as it sends a plain function, since its
    child processes run the parent's main module (as ``__mp_main__``, which they also
    call ``__main__``). A decorated function there is not found by its own name, so
    pickle could not send it as its function and settings."""
    name = pickled_by_name(fn, main=True)
    return name if name is not None else fn.__reduce__()


ForkingPickler.register(OptimizedFunction, _reduce_for_child_process)


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

    def __init__(self, mod: Any, settings: CompileSettings,
                 ctx: hook.CompileContext | None = None):
        ctx = ctx if ctx is not None else settings.context()
        object.__setattr__(self, "_orig_mod", mod)
        object.__setattr__(self, "_settings", settings)
        object.__setattr__(self, "_ctx", ctx)
        self._bind(_class_call(type(mod)))
        forward = inspect.getattr_static(type(mod), "forward", None)
        if isinstance(forward, types.FunctionType):
            object.__setattr__(self, "forward",
                               types.MethodType(hooked_call(forward, ctx, settings), mod))
        object.__setattr__(self, "__wrapped__", mod)
        object.__setattr__(self, "__doc__", type(mod).__doc__)

    def _bind(self, method: Any) -> Callable:
        """Compile the class's ``__call__`` ``method`` for the object (a function as
        a compiled bound method, with its entry trial; a staticmethod's function is
        intercepted; any other descriptor is bound as Python would, then compiled or
        called plainly); what calling the object runs now."""
        mod, ctx = self._orig_mod, self._ctx
        if isinstance(method, types.FunctionType):
            # a compiled bound method, as ``dynamo.compile(obj.method)`` makes: the
            # entry trial of its function (entry_trial.py) installs its way in it
            call = OptimizedMethod(OptimizedFunction(method, self._settings, ctx), mod)
        elif isinstance(method, staticmethod) and \
                isinstance(method.__func__, types.FunctionType):
            call = hooked_call(method.__func__, ctx, self._settings)
        else:
            get = getattr(type(method), "__get__", None)
            call = _compile_callable(get(method, mod, type(mod)) if get else method,
                                     self._settings, ctx)
        object.__setattr__(self, "_method", method)
        object.__setattr__(self, "_bound_call", call)
        return call.__call__ if type(call) is OptimizedMethod else call

    @property
    def __call__(self) -> Callable:
        # ``Model.__call__`` may be replaced (or ``m.__class__``) after compiling: the
        # class's current one runs, compiled. One lookup and one identity test a call.
        method = _class_call(type(self._orig_mod))
        if method is self._method:
            call = self._bound_call   # (a compiled bound method: the way in its slot)
            return call.__call__ if type(call) is OptimizedMethod else call
        return self._bind(method)

    def __getattr__(self, name: str):
        return getattr(self._orig_mod, name)

    @property
    def __class__(self) -> type:
        # What ``isinstance(compiled, Model)`` and ``compiled.__class__`` see: the
        # object's class (``type(compiled)`` is still the wrapper's class, named so).
        return type(self._orig_mod)

    def __setattr__(self, name: str, value) -> None:
        setattr(self._orig_mod, name, value)

    def __repr__(self) -> str:
        return f"<dynamo compiled {type(self._orig_mod).__qualname__} " \
               f"backend={self._ctx.backend_name}>"

    def __reduce__(self):
        """Pickled as the object (pickled as the pickler pickles it) and the settings."""
        return _unpickle_module, (self._orig_mod, self._settings)


def compiled_object_class(cls: type) -> type:
    """The class of compiled ``cls`` objects: an ``OptimizedModule`` subclass with the
    name, qualified name and module of ``cls`` (``type(compiled).__name__`` is what it
    is for the object; ``type(compiled) is cls`` cannot be true: the wrapper is not a
    ``cls``). One per class, dropped with the class."""
    made = _COMPILED_CLASSES.get(cls)
    if made is None:
        made = type(name_of(cls), (OptimizedModule,),
                    {"__qualname__": qualname_of(cls), "__module__": module_of(cls),
                     "__doc__": OptimizedModule.__doc__})
        _COMPILED_CLASSES[cls] = made
    return made


_COMPILED_CLASSES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _unpickle_module(mod: Any, settings: CompileSettings) -> OptimizedModule:
    return compiled_object_class(type(mod))(mod, settings, received_context(settings))


def _class_call(cls: type) -> Any:
    """The ``__call__`` attribute ``cls`` defines (as stored: a function, staticmethod,
    partialmethod...), found along the MRO without binding it."""
    for klass in mro_of(cls):
        method = dict_of(klass).get("__call__")
        if method is not None:
            return method
    return None
