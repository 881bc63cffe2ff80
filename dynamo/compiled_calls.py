"""What runs when a compiled function is called: its frame entry (through dynamo's
hook), or the function itself where its code reads the frame that called it.

Example::

    >>> hooked_call(f, ctx, settings)          # f's frame entry (frame_entries.py)
    >>> def g(): return sys._getframe(1)
    >>> hooked_call(g, ctx, settings) is g     # reads its caller's frame: uncompiled
    True
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import TYPE_CHECKING

from . import frame_entries, hook, logs
from .bytecode.caller_frames import reads_caller_frame_of

if TYPE_CHECKING:
    from .compile_settings import CompileSettings

log_breaks = logs.get("graph_breaks")


def hooked_call(fn: types.FunctionType, ctx: hook.CompileContext,
                settings: CompileSettings) -> Callable:
    """What runs when the compiled ``fn`` is called: ``fn`` through the frame hook, or
    ``fn`` itself (uncompiled) when its code reads the frame that called it.

    Through the hook, ``fn``'s frame is called by dynamo's dispatcher, so
    ``sys._getframe(1)``, ``inspect.currentframe().f_back`` or
    ``warnings.warn(..., stacklevel=2)`` in it would see dynamo's frame, not the
    caller's; called as it is (the compiled object's ``__call__`` gives it to the
    interpreter, which adds no frame), its ``f_back`` is its caller, as in plain
    Python. With ``fullgraph=True`` it is compiled (and the read fails the compile).
    (``bytecode/caller_frames.py``; docs/python_semantics.md)"""
    reason = None if settings.fullgraph else reads_caller_frame_of(fn)
    if reason is None:
        return frame_entries.frame_entry(fn, ctx)
    log_breaks.debug("dynamo.compile(%s): it reads its caller's frame (%s), which a "
                     "compiled call would hide behind dynamo's; it runs uncompiled",
                     fn.__qualname__, reason)
    return fn
