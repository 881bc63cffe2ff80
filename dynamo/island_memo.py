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
``break_calls._weak_hooks``). Each call still gets a new wrapper (``hook.wrap``: a
wrapper holds its function, so it cannot be kept without keeping the function).

Example::

    >>> memo = IslandMemo()
    >>> memo.maker(helper) is None          # not decided yet
    True
    >>> memo.record(helper, ctx)            # after break_calls decided: through the hook
    >>> hook.wrap(memo.maker(helper), helper)(y)   # next call: no look-up
"""

from __future__ import annotations

import types
import weakref

from .bytecode.caller_frames import calls_by_name, reads_caller_frame_of, scan_token, token_by_id


class IslandMemo:
    """id(function) -> (a weak reference to it, its code, the code's scan token, whether
    the code loads names, the count of its defaults, a weak reference to the wrapper
    factory)."""

    __slots__ = ("_data",)

    def __init__(self) -> None:
        self._data: dict[int, tuple] = {}

    def maker(self, fn: types.FunctionType):
        """The wrapper factory recorded for ``fn`` (``hook.wrap(make, fn)``), or None
        where nothing is recorded or what it rests on changed."""
        hit = self._data.get(id(fn))
        if hit is None:
            return None
        ref, code, token, by_name, ndefaults, make = hit
        if ref() is not fn or fn.__code__ is not code or token_by_id(id(code)) is not token \
                or fn.__kwdefaults__ is not None:
            return None
        defaults = fn.__defaults__
        if (len(defaults) if defaults else 0) != ndefaults or \
                by_name and reads_caller_frame_of(fn) is not None:
            return None
        return make()

    def record(self, fn: types.FunctionType, ctx) -> None:
        """Keep the answer ``break_calls`` just gave for ``fn`` (a plain function it
        wrapped for ``ctx``'s hook). Functions with keyword-only defaults, and those
        whose globals are not their code's cache's, are not kept."""
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

        def gone(ref, key=key):   # (the function died: its entry goes)
            if data.get(key, (None,))[0] is ref:
                del data[key]
        data[key] = (weakref.ref(fn, gone), code, scan_token(code), calls_by_name(code),
                     ndefaults, weakref.ref(make))
