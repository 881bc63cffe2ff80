"""The frame hook: PEP 523's contract, kept in Python.

CPython lets a C extension replace frame evaluation (PEP 523). This module keeps the
same contract without C: ``intercept(fn, ctx)`` returns a function with ``fn``'s own
signature that, on every call,

1. binds the arguments as the frame would (it *has* the frame's signature),
2. runs the first cached entry whose guards hold, most recent first,
3. on a miss, asks the context's ``convert_frame`` (:mod:`dynamo.convert`, passed in
   by :mod:`dynamo.compile_settings`: this module imports nothing above it) for a new entry, or runs
   the original code
   when the frame cannot be compiled, when the cache is full, or while the
   translator itself is running.

A hit must cost about a microsecond, so the path is two generated functions and
the compiled graph: the *wrapper* (one per intercepted function object; it binds the
arguments) and the *dispatcher* (one per code object and context; regenerated
whenever its entries change, by :mod:`dynamo.dispatch`) with every entry's guard
expression inlined, and the glue of an entry that captured the whole frame inlined
too (see there)::

    def forward(self, x):                     # the wrapper
        return ___dispatch(___fn, self, x, )

    def ___dispatch(___fn, self, x, ):        # entry 0's check, inlined
        ___closure = None
        try:
            ___ok = (type(self) is ___e0_c1() and type(x) is ___e0_c2 and
                     x.shape == ___e0_c3 and
                     (x.dtype, self.w.shape, self.w.dtype,) == ___e0_expected)
        except Exception:
            ___ok = False
        if ___ok:
            return ___e0_run(self, x, ___closure)    # (or its glue's statements)
        return ___fallback(___fn, (self, x, ), ___closure, ___cache, ___ctx)

Entries take the frame's arguments flattened into positional parameters (``*args``
as a tuple, ``**kwargs`` as a dict) plus the function's closure. Replacing the
dispatcher is one dict store, so threads calling while another compiles see the old
entries or the new ones, never half of them. Nothing else in the project knows how
frames are intercepted (this module and its parts: :mod:`dynamo.wrappers`, the
wrapper's generated source; :mod:`dynamo.code_keyed`, the caches by code object;
:mod:`dynamo.frame_entries`, above this module, the frame entries).

``dynamo.compile`` itself calls a *frame entry* instead (``frame_entries.frame_entry``): the
function's own code behind a prologue that calls the dispatcher; where the dispatcher
would run the original code, it hands back ``CONTINUE`` and the function's code runs
in that same frame, the one the program's call made (its ``f_back`` is the program's
caller, as a frame reader must see it).

Example::

    >>> run = intercept(f, ctx)
    >>> run(x)           # miss: trace, compile, cache, run
    >>> run(x)           # hit: guards + compiled code, no tracing
"""

from __future__ import annotations

import functools
import itertools
import logging
import threading
import types
import weakref
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from . import logs, reentry
from .bytecode.instructions import code_name, frame_params
from .bytecode.signature import STAR_FLAGS, Params
from .cache_full import advice, why_missed
from .code_keyed import CodeKeyed
from .config import config
from .dispatch import boxed_dispatcher, dispatcher
from .exc import BackendError, RerunEagerly, SkipFrame
from .interrupt_locks import new_lock, under_lock
from .tracebacks import for_program
from .wrappers import (
    DEFAULT,
    _bound_wrapper,
    _code_owners,
    _free_name,
    _refuse_moved_parameters,
    _wrapper_factory,
)

log_recompiles = logs.get("recompiles")
log_internal = logging.getLogger("dynamo.internal")

_local = threading.local()
_contexts: weakref.WeakSet = weakref.WeakSet()
_counter = itertools.count()
# One compile at a time in the process: a second thread that misses on the same code
# waits for the first one's entry instead of tracing the same frame again, and the
# translator's probes touch process-wide state (warnings filters). Re-entrant, so a
# compile that runs a compiled function's original code cannot deadlock. Held through
# ``under_lock``, never ``with``: on 3.14 an interrupt right after ``with``'s
# ``__enter__`` left it held, and every later compile in the process waited forever
# (issue #17; interrupt_locks.py).
_compile_lock = new_lock()


@dataclass
class CacheEntry:
    check: Callable               # guards.CheckFunction (or any callable of the flat args)
    run: Callable
    record: Any = None            # frame_records.FrameRecord: graphs, guards, breaks


class CodeCache:
    """The entries of one code object under one compile context, and its dispatcher.

    Holds nothing that keeps the code object alive (the context's cache is keyed by
    the code weakly), only what the dispatcher and the fallback need.
    """

    def __init__(self, code: types.CodeType, fn_globals: dict, ctx: CompileContext):
        self.entries: tuple = ()
        self.skip_reason: str | None = None   # the frame cannot be compiled: run it eagerly
        self.limit_logged = False
        self.fn_globals = fn_globals
        self.ctx = ctx
        self.params = frame_params(code)
        self.has_closure = bool(code.co_freevars)
        self.where = f"{code_name(code)} ({code.co_filename}:{code.co_firstlineno})"
        self.flat_code: types.CodeType | None = None  # the original, flat signature
        # calls hand their arguments over in a list (``run_boxed``): code -> the code
        # taking its flat arguments so, to run it uncompiled; None for plain calls
        self.boxed: Callable | None = None
        # globals of the generated wrappers; __name__ is their __module__
        self.scope: dict = {"__name__": fn_globals.get("__name__")}
        self.code_names = frozenset(code.co_varnames)   # what generated names must avoid
        self.scope[_free_name("___recall", self.code_names)] = \
            functools.partial(_recall, ctx)
        self.scope[_free_name("___S", self.code_names)] = DEFAULT
        self.scope[_free_name("___clean", self.code_names)] = for_program
        self.scope[_free_name("___intercept", self.code_names)] = \
            functools.partial(_intercept_now, ctx)
        # wrapper factories by the defaults they take (count, kw-only names): one,
        # unless a function of this code had its __defaults__ replaced by others; and
        # under ("bound", count) and ("plain", count), the wrapper of its bound methods
        # and the one of its plain functions (``bound_wrapper``)
        self.wrapper_makers: dict[tuple, Callable] = {}
        # code of the frame entries (``frame_entry``): None until made, False when
        # ``bytecode`` could not rebuild the code
        self.entry_template: types.CodeType | bool | None = None
        # ``dispatch(fn, *flat_args)`` (or ``dispatch(fn, box)``): run ``fn`` through
        # this cache; set by ``rebuild``
        self.dispatch: Callable
        self.rebuild()

    # ------------------------------------------------------------------ changes
    # Called with _compile_lock held (or while the cache is not shared yet).
    def rebuild(self, boxed: bool | None = None) -> None:
        """Generate the dispatcher for the current entries and swap it in (one that
        takes a list when ``boxed``, by default when ``self.boxed`` is set)."""
        if boxed is None:
            boxed = self.boxed is not None
        # (also an attribute: the calls of an outlined loop's body and of resume
        # functions take it once per trip, without a lookup)
        self.dispatch = self.scope[_free_name("___dispatch", self.code_names)] = \
            _generate_dispatcher(self, boxed)

    def take_boxes(self, eager: Callable) -> None:
        """Calls hand their arguments over in a list from now on (``run_boxed``);
        ``eager(code)`` takes them so, to run uncompiled. ``boxed`` is set last: a thread
        that sees it set (without the lock) calls ``dispatch(fn, box)`` at once."""
        self.rebuild(boxed=True)
        self.boxed = eager

    def add(self, entry: CacheEntry) -> None:
        self.entries = (entry,) + self.entries
        self.rebuild()

    def skip(self, reason: str) -> None:
        self.skip_reason = reason
        self.rebuild()

    def swap_run(self, old: Callable, new: Callable) -> bool:
        """The entry that runs ``old`` runs ``new`` from the next call (an outlined
        loop's trial keeps the way that won: outline_trial.py); False where no entry
        runs ``old`` (the cache was cleared). Takes ``_compile_lock``."""
        return under_lock(_compile_lock, self._swap_run, old, new)

    def _swap_run(self, old: Callable, new: Callable) -> bool:
        entries = tuple(replace(e, run=new) if e.run is old else e
                        for e in self.entries)
        if all(a is b for a, b in zip(entries, self.entries)):
            return False
        self.entries = entries
        self.rebuild()
        return True

    def clear(self) -> None:
        self.limit_logged = False
        if not self.entries and self.skip_reason is None:
            # the dispatcher already is the one of no entries: ``dynamo.reset()`` clears
            # every cache of every live context, most of them empty already, and
            # generating a dispatcher compiles source (a fifth of a millisecond)
            return
        self.entries, self.skip_reason = (), None
        self.rebuild()

    # ------------------------------------------------------------------ lookups
    def lookup(self, args: tuple, closure) -> CacheEntry | None:
        for entry in self.entries:
            if entry.check(*args, closure):
                return entry
        return None


class CompileContext:
    """One ``dynamo.compile`` call: its backend, options and caches.

    ``convert_frame(fn, args, closure, ctx, previous=[records])`` makes the cache entry
    of a frame that missed (``dynamo.convert.convert_frame``) or raises ``SkipFrame``."""

    def __init__(self, backend: Callable, backend_name: str, fullgraph: bool = False,
                 dynamic: bool | None = None, options: dict | None = None, *,
                 convert_frame: Callable):
        self.backend, self.backend_name = backend, backend_name
        self.convert_frame = convert_frame
        self.fullgraph, self.dynamic, self.options = fullgraph, dynamic, dict(options or {})
        self.caches = CodeKeyed()          # code object -> CodeCache
        self.records: list | None = None   # set by dynamo.explain to collect FrameRecords
        self.id = next(_counter)
        _contexts.add(self)

    def cache_for(self, code: types.CodeType, fn_globals: dict | None = None) -> CodeCache:
        """The cache of ``code``; one per code object, shared by every function object
        made from it (closures, functions made at a graph break)."""
        cache = self.caches.get(code)
        if cache is None:
            if fn_globals is None:
                raise ValueError(f"no cache for {code.co_qualname} yet: pass fn_globals")
            cache = under_lock(_compile_lock, self._new_cache, code, fn_globals)
        elif fn_globals is not None and fn_globals is not cache.fn_globals:
            # The same code under other globals (types.FunctionType(code, other)): its
            # guards read other globals, so it gets a cache of its own, not shared.
            return CodeCache(code, fn_globals, self)
        return cache

    def _new_cache(self, code: types.CodeType, fn_globals: dict) -> CodeCache:
        # (under _compile_lock: another thread may have made it meanwhile)
        cache = self.caches.get(code)
        if cache is None:
            cache = self.caches[code] = CodeCache(code, fn_globals, self)
        return cache

    def reset(self) -> None:
        """Drop every entry; wrappers made before keep working and compile again."""
        under_lock(_compile_lock, self._clear)

    def _clear(self) -> None:
        for cache in list(self.caches.values()):
            cache.clear()


def reset_all() -> None:
    for ctx in list(_contexts):
        ctx.reset()


def tracing() -> bool:
    return getattr(_local, "depth", 0) > 0


# --------------------------------------------------------------------------- dispatch

def run(fn: types.FunctionType, args: tuple, ctx: CompileContext):
    """Run ``fn`` (called with flattened ``args``) through the cache of ``ctx``."""
    return ctx.cache_for(fn.__code__, fn.__globals__).dispatch(fn, *args)


def run_boxed(fn: types.FunctionType, box: list, ctx: CompileContext, eager: Callable):
    """``run`` for a call that hands ``fn`` its flat arguments in the list ``box``,
    which the code that runs (an entry, or ``eager(code)`` when it runs uncompiled)
    empties once it has bound them (``dynamo.bytecode.emit.unbox``).

    How resume functions are called: an argument tuple would be held by every frame of
    the call (this one, the dispatcher, the entry's) until it returns, so a value the
    resume function deletes or rebinds would outlive it (``__del__``, weakrefs)."""
    cache = ctx.cache_for(fn.__code__, fn.__globals__)
    if cache.boxed is None:
        under_lock(_compile_lock, _set_boxed, cache, eager)
    return cache.dispatch(fn, box)


def _set_boxed(cache: CodeCache, eager: Callable) -> None:
    if cache.boxed is None:   # (under _compile_lock: another thread may have set it)
        cache.take_boxes(eager)


def miss(fn, args: tuple | None, closure, cache: CodeCache, ctx: CompileContext,
         box: list | None = None):
    """No entry's guards hold: compile a new entry, or run the original code.

    With ``box`` (``miss_boxed``; ``args`` is None), the call hands its arguments over
    in that list: they are read from it to compile, and what runs gets the list."""
    if box is not None:
        args = tuple(box)
    entry, at_limit = None, False
    # (a call nested in its own code after a break runs as it is: reentry.py)
    if cache.skip_reason is None and not tracing() and not reentry.running(fn.__code__):
        # (user code never runs while the lock is held: see _compile_entry)
        entry, at_limit = under_lock(_compile_lock, _compile_entry, fn, args, closure,
                                     cache, ctx)
    if box is not None:
        del args   # only the list holds them now (the code that runs empties it)
        if at_limit:
            return full_boxed(fn, box, closure, cache, ctx)
        return _run_boxed(entry, fn, box, closure, cache)
    if at_limit:
        return full(fn, args, closure, cache, ctx)
    if entry is None:
        return _run_original(fn, args, closure, cache)
    try:
        return entry.run(*args, closure)
    except RerunEagerly:   # the graph raised: let the program raise it (see exc.py) ...
        pass
    return _run_original(fn, args, closure, cache)   # ... outside the except: not chained


def _compile_entry(fn, args: tuple, closure, cache: CodeCache, ctx: CompileContext):
    """``miss``'s part under ``_compile_lock``: the entry another thread compiled
    meanwhile, or a new one (None if the frame is skipped); and whether the cache is
    full. Only the translator runs here, never the program's own code."""
    at_limit = False
    entry = cache.lookup(args, closure)   # another thread may have compiled it
    if entry is None and cache.skip_reason is not None:
        # ... or skipped the frame while this one waited for the lock: translating it
        # again would log its internal error again and call listeners once more
        return None, False
    if entry is None and len(cache.entries) >= config.cache_size_limit:
        at_limit = True
    elif entry is None:
        if cache.entries and log_recompiles.isEnabledFor(logging.DEBUG):
            log_recompiles.debug("recompiling %s: no cached entry's guards hold\n%s",
                                 cache.where, why_missed(cache.entries, args + (closure,), ctx))
        _local.depth = getattr(_local, "depth", 0) + 1
        try:
            entry = ctx.convert_frame(fn, args, closure, ctx,
                                      previous=[e.record for e in cache.entries])
        except SkipFrame as skip:
            cache.skip(str(skip))
        except BackendError:
            raise   # the chosen backend failed: say so (the next call tries again)
        except Exception as e:  # noqa: BLE001 (never fatal: fall back, say why)
            if ctx.fullgraph:
                raise
            cache.skip(f"internal error: {type(e).__name__}: {e}")
            log_internal.warning("dynamo: %s fell back to eager after an internal "
                                 "error: %s: %s", fn.__code__.co_qualname,
                                 type(e).__name__, e, exc_info=config.verbose)
        finally:
            _local.depth -= 1
        if entry is not None:
            cache.add(entry)
    return entry, at_limit


def miss_boxed(fn, box: list, closure, cache: CodeCache, ctx: CompileContext):
    """``miss`` of a call that hands its arguments over in ``box`` (``run_boxed``)."""
    return miss(fn, None, closure, cache, ctx, box)


def _run_boxed(entry: CacheEntry | None, fn, box: list, closure, cache: CodeCache):
    """Run ``entry`` (or, if None, the original code) with the arguments in ``box``."""
    if entry is None:
        return _run_original_boxed(fn, box, closure, cache)
    try:
        return entry.run(box, closure)
    except RerunEagerly as rerun:   # the entry emptied the box: the glue hands them back
        box[:] = rerun.values
    return _run_original_boxed(fn, box, closure, cache)


def full(fn, args: tuple, closure, cache: CodeCache, ctx: CompileContext):
    """A miss when ``config.cache_size_limit`` entries exist: log once, run eagerly.

    The dispatcher of a full cache falls back here directly: its entries are all
    there will be, so there is nothing to look up again.
    """
    if len(cache.entries) < config.cache_size_limit:   # the limit was raised, or reset
        return miss(fn, args, closure, cache, ctx)
    if not cache.limit_logged:
        _log_full(cache, args + (closure,), ctx)
    return _run_original(fn, args, closure, cache)


def _log_full(cache: CodeCache, call: tuple, ctx) -> None:
    """Say once that the cache is full, and why the last call (args, closure) missed."""
    under_lock(_compile_lock, _log_full_once, cache, call, ctx)


def _log_full_once(cache: CodeCache, call: tuple, ctx) -> None:
    if not cache.limit_logged:
        cache.limit_logged = True
        log_recompiles.warning(
            "%s reached config.cache_size_limit (%d entries): calls that no entry "
            "fits now run the original code, uncompiled (the cached entries are "
            "still used). The last call missed because\n%s\n%s",
            cache.where, config.cache_size_limit, why_missed(cache.entries, call, ctx),
            advice(cache.entries, call))


def full_boxed(fn, box: list, closure, cache: CodeCache, ctx: CompileContext):
    """``full`` of a call that hands its arguments over in ``box`` (``run_boxed``)."""
    if len(cache.entries) < config.cache_size_limit:
        return miss_boxed(fn, box, closure, cache, ctx)
    if not cache.limit_logged:
        _log_full(cache, (*box, closure), ctx)
    return _run_original_boxed(fn, box, closure, cache)


def original(fn, args: tuple, closure, cache: CodeCache, ctx: CompileContext):
    """The fallback of a frame that cannot be compiled (``cache.skip_reason``)."""
    return _run_original(fn, args, closure, cache)


def original_boxed(fn, box: list, closure, cache: CodeCache, ctx: CompileContext):
    """``original`` of a call that hands its arguments over in ``box``."""
    return _run_original_boxed(fn, box, closure, cache)


def _run_original(fn, args: tuple, closure, cache: CodeCache):
    if fn in _own_frame:   # called by a frame entry: the original runs in that frame
        return CONTINUE
    flat = cache.flat_code
    if flat is None:
        flat = cache.flat_code = flat_code(fn.__code__)
    return types.FunctionType(flat, fn.__globals__, fn.__name__, None, closure)(*args)


def _run_original_boxed(fn, box: list, closure, cache: CodeCache):
    flat = cache.flat_code
    if flat is None:
        flat = cache.flat_code = cache.boxed(fn.__code__)   # (resume knows it by identity)
    return types.FunctionType(flat, fn.__globals__, fn.__name__, None, closure)(box)


def flat_code(code: types.CodeType) -> types.CodeType:
    """``code`` taking every argument positionally (``*args``/``**kwargs`` as values)."""
    n = len(frame_params(code))
    return code.replace(co_argcount=n, co_posonlyargcount=0, co_kwonlyargcount=0,
                        co_flags=code.co_flags & ~STAR_FLAGS)


# --------------------------------------------------------------------------- generated code

def _generate_dispatcher(cache: CodeCache, boxed: bool) -> Callable:
    """The cache's dispatcher (:mod:`dynamo.dispatch`), with what a miss falls back to:
    compiling (``miss``), the original code when the cache is full (``full``) or the
    frame cannot be compiled (``original``); ``boxed``: calls hand their arguments over
    in a list (``run_boxed``)."""
    if boxed:
        fallback = original_boxed if cache.skip_reason is not None else \
            full_boxed if len(cache.entries) >= config.cache_size_limit else miss_boxed
        return boxed_dispatcher(cache, fallback, original_boxed)
    fallback = original if cache.skip_reason is not None else \
        full if len(cache.entries) >= config.cache_size_limit else miss
    return dispatcher(cache, fallback, original)


def intercept(fn: types.FunctionType, ctx: CompileContext) -> types.FunctionType:
    """A function with ``fn``'s signature whose calls go through the cache of ``ctx``.

    The wrapper's source is generated once per code object; each call of
    ``intercept`` only makes a new closure over ``fn`` (cheap), so wrapping the
    callee at every graph break costs little and keeps nothing alive.
    """
    return wrap(wrapper_maker(fn, ctx), fn)


def wrapper_maker(fn: types.FunctionType, ctx: CompileContext) -> Callable:
    """What makes ``fn``'s wrappers (``wrap``): one per code object, cache and shape of
    defaults (their count, the keyword-only names), held by the cache. An island keeps
    it per function (``island_memo``), so that its next call of ``fn`` looks nothing up.

    Example::

        >>> make = wrapper_maker(f, ctx)
        >>> wrap(make, f)(x) == intercept(f, ctx)(x)
        True
    """
    cache = ctx.cache_for(fn.__code__, fn.__globals__)
    kwdefaults = fn.__kwdefaults__
    shape = (len(fn.__defaults__ or ()), tuple(kwdefaults or ()))
    make = cache.wrapper_makers.get(shape)
    if make is None:
        make = cache.wrapper_makers[shape] = _wrapper_factory(fn.__code__, cache.scope,
                                                              *shape)
    return make


def wrap(make: Callable, fn: types.FunctionType) -> types.FunctionType:
    """The wrapper of ``fn`` that ``make`` (``wrapper_maker``'s, for ``fn``'s code and
    shape of defaults) makes, named as ``fn``."""
    defaults, kwdefaults = fn.__defaults__, fn.__kwdefaults__
    wrapper = make(fn, fn.__code__, defaults, kwdefaults)
    # Its defaults are markers (the positional ones declared so by ``make``), replaced
    # by fn's own when the call runs: fn's __defaults__ or __kwdefaults__ may be
    # replaced (or its __code__) after this
    if kwdefaults:
        wrapper.__kwdefaults__ = dict.fromkeys(kwdefaults, DEFAULT)
    # The caller's arguments bind to the wrapper, so Python's TypeErrors name it:
    # ``f() missing 1 required positional argument: 'x'``, ``mod.f() argument after *
    # must be an iterable``. It must have fn's names, not ``___make.<locals>.f``.
    wrapper.__qualname__ = fn.__qualname__
    if wrapper.__name__ != fn.__name__:       # a lambda, a renamed function
        wrapper.__name__ = fn.__name__
    if wrapper.__module__ != fn.__module__:   # usually the scope's __name__ already
        wrapper.__module__ = fn.__module__
    return wrapper


def _intercept_now(ctx: CompileContext, fn: types.FunctionType) -> types.FunctionType:
    """``intercept(fn, ctx)``: what a shared wrapper (``bound_wrapper``) hands a call
    to whose arguments it cannot take, so that binding them raises ``fn``'s error."""
    return intercept(fn, ctx)


def bound_wrapper(fn: types.FunctionType, ctx: CompileContext,
                  plain: bool = False) -> Callable | None:
    """The wrapper that runs every bound method of ``fn`` through the cache of ``ctx``,
    called as ``MethodType(wrapper, m)`` with the program's bound method ``m``
    (``wrappers._bound_wrapper``): one per code object, cache and count of defaults,
    held by the cache. None where ``fn`` has no positional parameter to take ``m``, or
    keyword-only defaults (an island then wraps it per call: ``wrap``).

    With ``plain``, the wrapper of every plain function of that code, called as
    ``MethodType(wrapper, fn)`` (the function takes a parameter of its own); None
    where the code has keyword-only parameters.

    Example::

        >>> w = bound_wrapper(Stepper.step, ctx)
        >>> types.MethodType(w, stepper.step)(y) == intercept(Stepper.step, ctx)(stepper, y)
        True
        >>> types.MethodType(bound_wrapper(helper, ctx, plain=True), helper)(y)   # helper(y)
    """
    code = fn.__code__
    if fn.__kwdefaults__ or (code.co_kwonlyargcount if plain else not code.co_argcount):
        return None
    cache = ctx.cache_for(code, fn.__globals__)
    shape = ("plain" if plain else "bound", len(fn.__defaults__ or ()))
    w = cache.wrapper_makers.get(shape)
    if w is None:
        w = cache.wrapper_makers[shape] = _bound_wrapper(code, cache.scope, shape[1], plain)
    return w


# --------------------------------------------------------------------------- frame entries

class _Continue:
    """What the fallbacks hand back to a frame entry instead of running the original
    code: the entry's own frame, the one the program's call made, runs it."""

    def __repr__(self) -> str:
        return "<run in the frame's own code>"


CONTINUE = _Continue()


# The stand-ins frame entries pass to the dispatcher as ``___fn`` (``frame_entry``):
# where the dispatcher or a miss would run the original code for one of them,
# ``_run_original`` returns ``CONTINUE``. Copies of the program's function (its code,
# globals and closure), so that compiling reads the same as from the function.
_own_frame: weakref.WeakSet = weakref.WeakSet()


def _recall(ctx: CompileContext, fn, code, values: tuple):
    """Call ``fn`` again as its caller did, through a wrapper of ``fn`` as it is now:
    its ``__code__`` or defaults were replaced since the wrapper that took the call
    (of ``code``, ``values`` in its frame order) was made. Where the code was, the
    compiled objects that ``watch_code`` registered make an entry of the new code
    (issue #17 ``code-replaced-signature``): their next calls bind by its parameters."""
    p = Params.of(code)
    names, n, nkw = code.co_varnames, len(p.positional), len(p.kwonly)
    positional = list(values[:n])
    if fn.__code__ is not code:
        for owner in list(_code_owners.get(fn, ())):
            owner.code_replaced()
        _refuse_moved_parameters(fn, p, positional)
    cut = next((i for i, v in enumerate(positional) if v is DEFAULT), n)
    args = positional[:cut]
    # after the first parameter left to its default, the caller named the others
    kwargs = {names[i]: v for i, v in enumerate(positional) if i >= cut and v is not DEFAULT}
    kwargs.update((names[i], values[i]) for i in range(n, n + nkw)
                  if values[i] is not DEFAULT)
    i = n + nkw
    if p.varargs is not None:
        args += values[i]
        i += 1
    if p.varkw is not None:
        kwargs.update(values[i])
    return intercept(fn, ctx)(*args, **kwargs)
