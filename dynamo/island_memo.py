"""What an island decided for a function it calls, kept for its next call of it.

The code at a graph break (an island: a loop that runs as Python) asks
``break_calls`` before each call it makes whether the callee runs through the frame
hook. For a plain user function that answer costs a few microseconds a call (the
file's skip rule, whether it is the frame's own code, whether it reads its caller's
frame, the code's cache and the wrapper factory), as much as the call of a small
helper itself: a loop calling ``y * 2.0`` ran at 0.44x plain. ``IslandMemo`` keeps,
per function object (by identity, held weakly), the wrapper factory that answer
found, and the objects it rests on:

- ``fn.__code__``, by identity (a replaced ``__code__`` decides again);
- the frame-reading scan of that code (``caller_frames.scan_token``: a later
  ``found_reading`` replaces it), and where the code loads global or closure names,
  ``reads_caller_frame_of(fn)`` itself (a rebound name can make it a reader);
- the count of ``fn.__defaults__`` (the factory's shape; a function with keyword-only
  defaults is not kept), and the cache the factory belongs to (held weakly).

What is kept holds the function weakly, and its code, so a dropped function is
collected and its entry goes with it; nothing in it reaches the compile context (the
memo sits in constants of generated code, which the garbage collector cannot see:
``break_calls._weak_hooks``). A wrapper made per call holds its function, so none is
kept; instead the entry refers (weakly) to the wrappers the cache keeps for every
function of the code (``hook.bound_wrapper``), which hold no function: the island calls
``MethodType(wrapper, fn)`` (or ``MethodType(wrapper, m)`` for a bound method ``m``),
an object that holds the function for as long as the call needs it, as plain Python's
stack does. The island's ``intercept(st.step)`` went from 12,650 instructions (a new
wrapper with its names set: 4,950 of them) to 7,600 (a bound method object: about 250).

Example::

    >>> memo = IslandMemo()
    >>> memo.get(helper) is None            # not decided yet
    True
    >>> memo.record(helper, ctx, bound=False)   # break_calls decided: through the hook
    >>> types.MethodType(memo.get(helper)[7](), helper)(y)   # next call: no look-up
"""

from __future__ import annotations

import inspect
import types
import weakref

from .bytecode.caller_frames import (
    calls_by_name,
    names_unchanged,
    reads_caller_frame_of,
    scan_token,
    token_by_id,
)
from .callee_trial import CalleeTrial
from .config import config
from .hook import bound_wrapper

# A generator's or coroutine's call only makes it: nothing to time (always compiled).
_SUSPENDS = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR


class IslandMemo:
    """id(function) -> (a weak reference to it, its code, the code's scan token, whether
    the code loads names, the count of its defaults, a weak reference to the wrapper
    factory, one to the shared wrapper of its bound methods, one to the shared wrapper
    of the function (each None until it is called so, ``_none`` where it has none), the
    code's qualified name (the shared wrappers' name), whether the code has keyword-only
    parameters, the ``callee_trial.CalleeTrial`` that picks the compiled or the plain
    call of it)."""

    __slots__ = ("_data", "plain", "last")

    def __init__(self) -> None:
        self._data: dict[int, tuple] = {}
        # id(function) -> (its entry's weak reference to it, its ``CalleeTrial``), for
        # a function whose trial chose the plain call: the island reads it before
        # ``get`` (no check of the hook's is needed to call the function itself)
        self.plain: dict[int, tuple] = {}
        # the entry of ``plain`` made last, read before it: one weak reference's call
        # instead of ``id`` and a look-up (RK45's island calls one helper, 7 a trip)
        self.last: tuple | None = None

    def runs_plain(self, hit: tuple) -> None:
        """Mark the function of the entry ``hit`` (``get``'s) as called plain, for as
        long as its trial says so (``break_calls._intercept`` reads ``plain``)."""
        fn = hit[0]()
        if fn is not None:
            self.plain[id(fn)] = self.last = (hit[0], hit[10])

    def get(self, fn: types.FunctionType) -> tuple | None:
        """The entry recorded for ``fn``: ``entry[5]()`` is the wrapper factory
        (``hook.wrap(make, fn)``), ``entry[6]`` and ``entry[7]`` None or weak references
        to the shared wrappers of its bound methods and of ``fn`` itself
        (``hook.bound_wrapper``), named ``entry[8]``; None where nothing is recorded
        or what it rests on changed. One call, all of it checked here: it runs before
        every call an island makes of a user function."""
        hit = self._data.get(id(fn))
        if hit is None or hit[0]() is not fn:
            return None
        code = hit[1]
        # (``__kwdefaults__`` matters only to code with keyword-only parameters: a
        # getter audited on every read, as ``__code__`` and ``__defaults__`` are)
        if fn.__code__ is not code or token_by_id(id(code)) is not hit[2] or \
                hit[9] and fn.__kwdefaults__ is not None:
            return None
        defaults = fn.__defaults__
        if (len(defaults) if defaults else 0) != hit[4] or hit[3] and \
                not names_unchanged(fn) and reads_caller_frame_of(fn) is not None:
            return None
        return hit

    def maker(self, fn: types.FunctionType):
        """The wrapper factory recorded for ``fn`` (``hook.wrap(make, fn)``), or None
        where nothing is recorded or what it rests on changed."""
        hit = self.get(fn)
        return None if hit is None else hit[5]()

    def record(self, fn: types.FunctionType, ctx, bound: bool | None = None) -> None:
        """Keep the answer ``break_calls`` just gave for ``fn`` (a plain function it
        wrapped for ``ctx``'s hook), with the shared wrapper of its bound methods
        (``bound``) or of the function itself (``bound`` False; ``hook.bound_wrapper``),
        and the other one if an entry of the same code kept it. Functions with
        keyword-only defaults, and those whose globals are not their code's cache's,
        are not kept."""
        code = fn.__code__
        cache = ctx.caches.get(code)
        if fn.__kwdefaults__ is not None or cache is None or \
                cache.fn_globals is not fn.__globals__:
            return
        ndefaults = len(fn.__defaults__ or ())
        make = cache.wrapper_makers.get((ndefaults, ()))
        if make is None:
            return
        key, data = id(fn), self._data
        old = data.get(key)
        shared = [None, None] if old is None or old[0]() is not fn or old[1] is not code \
            or old[4] != ndefaults else list(old[6:8])
        if bound is not None:
            w = bound_wrapper(fn, ctx, plain=not bound)
            shared[not bound] = _none if w is None else weakref.ref(w)

        plain = self.plain

        def gone(ref, key=key):   # (the function died: its entry goes)
            if data.get(key, (None,))[0] is ref:
                del data[key]
            if plain.get(key, (None,))[0] is ref:
                del plain[key]
        # (the way its calls run, timed per function: kept while the entry is)
        trial = old[10] if old is not None and old[0]() is fn and old[1] is code else \
            CalleeTrial(code.co_qualname, 0 if code.co_flags & _SUSPENDS else
                        config.callee_trial_calls)
        data[key] = (weakref.ref(fn, gone), code, scan_token(code), calls_by_name(code),
                     ndefaults, weakref.ref(make), *shared, code.co_qualname,
                     bool(code.co_kwonlyargcount), trial)


def _none() -> None:
    """An entry's shared wrapper where there is none (asked for, and the function's
    parameters do not allow one: ``hook.bound_wrapper``), as a dead weak reference."""
    return None
