"""Whether a call can be inlined into the trace: library code runs eagerly, a callee that
reads frames above its own runs uncompiled, and a call too deep (``inline_depth_limit``,
or near ``sys.getrecursionlimit()``) is a break, not a RecursionError in the translator.

Example::

    >>> check_inline(tx, fn_var, fn_var.get_code())   # np.linalg code: Unsupported
    Traceback (most recent call last):
    dynamo.exc.Unsupported: call to norm() from numpy/linalg/...
"""

from __future__ import annotations

import inspect
import sys

from ..bytecode.caller_frames import FRAME_READER, READS_ALL, found_reading, reach
from ..bytecode.resume import original_code
from ..exc import Unsupported
from ..skipfiles import is_skipped, where
from ..variables import BaseFunctionVariable
from ..variables.builtins import FRAME_CAPTURE


def check_inline(tx, fn: BaseFunctionVariable, code) -> None:
    """Raise Unsupported where the call of ``fn`` (its ``code``) from the frame ``tx``
    traces cannot be inlined."""
    if is_skipped(code):
        # inspect.currentframe() returns the running frame, like sys._getframe()
        capture = code is inspect.currentframe.__code__
        raise Unsupported(f"call to {code.co_qualname}() from {where(code)}",
                          "Library code is not traced; it runs eagerly.",
                          hint="move the call out of hot code to keep one graph",
                          cause=FRAME_CAPTURE if capture else "library_call")
    check_frame_reader(tx, fn, code)
    if tx.depth() >= tx.config.inline_depth_limit:
        raise Unsupported(f"inlining deeper than config.inline_depth_limit "
                          f"({tx.config.inline_depth_limit}): recursion?",
                          cause="recursion")
    if stack_room() < _INLINE_STACK_ROOM:
        raise Unsupported(f"inlining {code.co_qualname}() would come near "
                          f"sys.getrecursionlimit() ({sys.getrecursionlimit()})",
                          "The translator's own frames would hit the recursion "
                          "limit; the call runs eagerly.", cause="recursion")


def check_frame_reader(tx, fn: BaseFunctionVariable, code) -> None:
    """A callee that reads two or more frames above its own (``sys._getframe(2)``,
    ``f_back.f_back``, ``stacklevel=3``, ``inspect.stack()[2]``), however the trace
    got it (an argument, an attribute, ``getattr``): at a break it would be called
    by code that dynamo's frames call, and see them where plain Python shows the
    program's. The whole frame runs uncompiled (``FRAME_READER``, see
    dynamo/convert.py); when the reads reach above the compiled frame, its code is
    marked a reader too (``caller_frames.found_reading``), so that later calls
    call it as it is. (A callee found by name is seen before the call instead:
    ``reads_caller_frame_of``.)

    Example: ``def f(x, reader): return reader(np.sin(x))`` called with ``reader``
    reading ``sys._getframe(2)``: ``f`` runs as Python from then on."""
    levels, why = reach(code, getattr(fn, "fn", None))
    if levels < 2:
        return
    depth = 0
    while tx.parent is not None:
        tx, depth = tx.parent, depth + 1
    above = levels - 1 - depth   # frames above the compiled one the reads reach
    up = "every frame" if levels >= READS_ALL else f"{levels} frames"
    if above >= 1:   # (a resume function continues the program's function)
        found_reading(original_code(tx.code), above,
                      f"it calls {code.co_qualname}(), which reads {up} up ({why})")
    raise Unsupported(f"a call of {code.co_qualname}(), which reads {up} up ({why})",
                      "Called at a graph break, it would see dynamo's frames above the "
                      "compiled function where Python shows the program's; the "
                      "function runs uncompiled.", cause=FRAME_READER)


_INLINE_STACK_ROOM = 120
"""Python frames an inlined call must have left below ``sys.getrecursionlimit()``: one
level of inlining takes about a dozen of the translator's frames, and an instruction's
handler (wrapping, guards, ops) a few dozen more. A program that lowered the limit
(``sys.setrecursionlimit``) gets a break at the call, not a RecursionError inside the
translator (which would make the whole frame fall back as an internal error)."""


def stack_room() -> int:
    """How many more Python frames this thread may push before RecursionError."""
    depth, frame = 0, sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    return sys.getrecursionlimit() - depth
