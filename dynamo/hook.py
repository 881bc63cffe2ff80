"""The frame hook: PEP 523's contract, kept in Python.

CPython lets a C extension replace frame evaluation (PEP 523). This module keeps the
same contract without C: ``intercept(fn, ctx)`` returns a function with ``fn``'s own
signature that, on every call,

1. binds the arguments as the frame would (it *has* the frame's signature),
2. runs the first cached entry whose guard check passes, most recent first,
3. on a miss, asks :mod:`dynamo.convert` for a new entry, or runs the original code
   when the frame cannot be compiled, when the cache is full, or while the
   translator itself is running.

Entries take the frame's arguments flattened into positional parameters (``*args``
as a tuple, ``**kwargs`` as a dict) plus the function's closure. Nothing else in
the project knows how frames are intercepted.

Example::

    >>> run = intercept(f, ctx)
    >>> run(x)           # miss: trace, compile, cache, run
    >>> run(x)           # hit: check + compiled code, no tracing
"""

from __future__ import annotations

import itertools
import logging
import threading
import types
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from guards import param_name

from . import logs
from .config import config
from .translator.instructions import frame_params

log_recompiles = logs.get("recompiles")
log_internal = logging.getLogger("dynamo.internal")

_local = threading.local()
_contexts: weakref.WeakSet = weakref.WeakSet()
_counter = itertools.count()


@dataclass
class CacheEntry:
    check: Callable
    run: Callable
    record: Any = None            # convert.FrameRecord: graphs, guards, breaks


@dataclass
class CodeCache:
    """The entries of one code object under one compile context."""

    entries: tuple = ()
    skip_reason: str | None = None         # the frame cannot be compiled: run it eagerly
    limit_logged: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)
    flat_fn: Callable | None = None        # the original code, flattened signature


class CompileContext:
    """One ``dynamo.compile`` call: its backend, options and caches."""

    def __init__(self, backend: Callable, backend_name: str, fullgraph: bool = False,
                 dynamic: bool | None = None, options: dict | None = None):
        self.backend, self.backend_name = backend, backend_name
        self.fullgraph, self.dynamic, self.options = fullgraph, dynamic, dict(options or {})
        self.caches: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self.factories: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self.records: list | None = None   # set by dynamo.explain to collect FrameRecords
        self.id = next(_counter)
        _contexts.add(self)

    def cache_for(self, code) -> CodeCache:
        cache = self.caches.get(code)
        if cache is None:
            cache = self.caches.setdefault(code, CodeCache())
        return cache

    def reset(self) -> None:
        self.caches = weakref.WeakKeyDictionary()
        self.factories = weakref.WeakKeyDictionary()


def reset_all() -> None:
    for ctx in list(_contexts):
        ctx.reset()


def tracing() -> bool:
    return getattr(_local, "depth", 0) > 0


# --------------------------------------------------------------------------- dispatch

def run(fn: types.FunctionType, args: tuple, ctx: CompileContext):
    """Run ``fn`` (called with flattened ``args``) through the cache of ``ctx``."""
    cache = ctx.cache_for(fn.__code__)
    closure = fn.__closure__
    for entry in cache.entries:
        if entry.check(*args, closure):
            return entry.run(*args, closure)
    return miss(fn, args, closure, cache, ctx)


def miss(fn, args: tuple, closure, cache: CodeCache, ctx: CompileContext):
    from .convert import SkipFrame, convert_frame

    if cache.skip_reason is not None or tracing():
        return _run_original(fn, args, closure, cache)
    with cache.lock:
        for entry in cache.entries:      # another thread may have compiled it meanwhile
            if entry.check(*args, closure):
                break
        else:
            entry = None
            if len(cache.entries) >= config.cache_size_limit:
                if not cache.limit_logged:
                    cache.limit_logged = True
                    log_recompiles.warning(
                        "%s: cache_size_limit (%d) reached; new guard combinations run "
                        "eagerly. Last miss: %s", fn.__code__.co_qualname,
                        config.cache_size_limit, _why_missed(cache, args, closure))
                return _run_original(fn, args, closure, cache)
            if cache.entries:
                log_recompiles.debug("recompiling %s (%s:%d): %s", fn.__code__.co_qualname,
                                     fn.__code__.co_filename, fn.__code__.co_firstlineno,
                                     _why_missed(cache, args, closure))
            _local.depth = getattr(_local, "depth", 0) + 1
            try:
                entry = convert_frame(fn, args, closure, ctx,
                                      previous=[e.record for e in cache.entries])
            except SkipFrame as skip:
                cache.skip_reason = str(skip)
            except Exception as e:  # noqa: BLE001 (never fatal: fall back, say why)
                if ctx.fullgraph:
                    raise
                cache.skip_reason = f"internal error: {type(e).__name__}: {e}"
                log_internal.warning("dynamo: %s fell back to eager after an internal error: "
                                     "%s: %s", fn.__code__.co_qualname, type(e).__name__, e,
                                     exc_info=config.verbose)
            finally:
                _local.depth -= 1
            if entry is not None:
                cache.entries = (entry,) + cache.entries
    if entry is None:
        return _run_original(fn, args, closure, cache)
    return entry.run(*args, closure)


def _why_missed(cache: CodeCache, args, closure) -> str:
    reasons = []
    for i, entry in enumerate(cache.entries):
        failed = entry.check.failures(args + (closure,)) if hasattr(entry.check, "failures") \
            else []
        reasons.append(f"entry {i}: {failed[0] if failed else 'guard failed'}")
    return "; ".join(reasons)


def _run_original(fn, args: tuple, closure, cache: CodeCache):
    flat = cache.flat_fn
    if flat is None:
        flat = cache.flat_fn = flat_code(fn.__code__)
    return types.FunctionType(flat, fn.__globals__, fn.__name__, None, closure)(*args)


def flat_code(code: types.CodeType) -> types.CodeType:
    """``code`` taking every argument positionally (``*args``/``**kwargs`` as values)."""
    n = len(frame_params(code))
    return code.replace(co_argcount=n, co_posonlyargcount=0, co_kwonlyargcount=0,
                        co_flags=code.co_flags & ~(0x04 | 0x08))


# --------------------------------------------------------------------------- wrappers

def intercept(fn: types.FunctionType, ctx: CompileContext) -> types.FunctionType:
    """A function with ``fn``'s signature whose calls go through the cache of ``ctx``.

    The wrapper's source is generated once per code object; each call of
    ``intercept`` only makes a new closure over ``fn`` (cheap), so wrapping the
    callee at every graph break costs little and keeps nothing alive.
    """
    code = fn.__code__
    factory = ctx.factories.get(code)
    if factory is None:
        factory = ctx.factories.setdefault(code, _wrapper_factory(code, ctx))
    wrapper = factory(fn, ctx.cache_for(code))
    wrapper.__defaults__ = fn.__defaults__
    wrapper.__kwdefaults__ = fn.__kwdefaults__
    return wrapper


def _wrapper_factory(code, ctx: CompileContext):
    params, flat = _signature_source(code)
    name = code.co_name if code.co_name.isidentifier() else "wrapper"
    src = (f"def ___make(___fn, ___cache):\n"
           f"    def {name}({params}):\n"
           f"        ___cl = ___fn.__closure__\n"
           f"        for ___e in ___cache.entries:\n"
           f"            if ___e.check({flat}___cl):\n"
           f"                return ___e.run({flat}___cl)\n"
           f"        return ___miss(___fn, ({flat}), ___cl, ___cache, ___ctx)\n"
           f"    return {name}\n")
    scope = {"___miss": miss, "___ctx": ctx}
    exec(compile(src, f"<dynamo wrapper of {code.co_qualname}>", "exec"), scope)
    return scope["___make"]


def _signature_source(code) -> tuple[str, str]:
    """("a, b, *args, c, **kw", "a, b, c, args, kw, "): the parameters as declared, and
    as the frame orders them (positional, keyword-only, *args, **kwargs)."""
    names = code.co_varnames
    nargs, nkw, nposonly = code.co_argcount, code.co_kwonlyargcount, code.co_posonlyargcount
    params = [param_name(n) for n in names[:nargs]]
    if nposonly:
        params.insert(nposonly, "/")
    i = nargs + nkw
    kwonly = [param_name(n) for n in names[nargs:i]]
    if code.co_flags & 0x04:
        params.append("*" + param_name(names[i]))
        i += 1
    elif kwonly:
        params.append("*")
    params += kwonly
    if code.co_flags & 0x08:
        params.append("**" + param_name(names[i]))
    return ", ".join(params), "".join(f"{a}, " for a in frame_params(code))

