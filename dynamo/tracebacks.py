"""What a program sees of an exception that passed through dynamo's frames.

A compiled function's code runs in frames that dynamo calls: after a graph break the
rest of the function is a resume function (or the frame's new code), called by the
frame runner, which the dispatcher calls, which the frame entry's prologue (or
``intercept``'s wrapper) calls. An exception raised there gets a traceback entry for
each of those frames on its way out, and the frame entry's own at its ``def`` line (the
prologue's call). Plain Python shows the function once, at the raising line::

    plain     <module>  f(x)        compiled  <module>  f(x)
              f         raise ...             f         def f(x):          (the entry)
                                              ___dispatch, miss, FrameRunner.__call__,
                                              run_break_code                (dynamo's)
                                              f         raise ...   (the resume function)

``for_program(exc)``, run by the frame entry's handler (``frame_entries.frame_entry``)
and by the wrapper's (``hook.intercept``) before the exception reaches the program's
frames, rebuilds ``exc.__traceback__`` as plain Python's: without dynamo's frames (its
packages' files and the ``<dynamo ...>`` code it generates), and without the entry's
own entry where the function's code follows it. The program's ``except``,
``sys.exc_info()``, ``traceback.print_exc()`` and ``logging.exception`` then show what
plain Python shows. New traceback objects are made for the part in front of the last
frame dropped (``types.TracebackType`` objects that were handed out, to a log record
say, never change).

An error dynamo raises to the program on purpose (``dynamo.exc``: ``Unsupported`` under
``fullgraph=True``, ``BackendError``) loses dynamo's frames too, its own raise included
(``_for_user``): the message says what and where, and the traceback shows the program's
calls and, in place of the compiled function's ``def`` line, its line that could not be
captured (the call of the helper that holds it)::

    before    <module>  c(x)           now   <module>  c(x)
              g         def g(x):            g         print("between")
              ___dispatch, miss, convert_frame, _convert, _trace_and_build

A backend's error that a ``BackendError`` chains to loses dynamo's frames in the same
way. With ``dynamo.config.verbose`` (``DYNAMO_VERBOSE=1``) they keep every frame, for
debugging dynamo. An exception raised in a frame of dynamo's that is not one of these
(an internal error) is left as it is, so its traceback shows where dynamo failed.
"""

from __future__ import annotations

import importlib.util
import os
import types

from .config import config
from .exc import DynamoError

_GENERATED = "<dynamo "   # how the files of code that dynamo generates begin
_dirs: tuple[str, ...] | None = None


def _own_dirs() -> tuple[str, ...]:
    """The folders of dynamo's packages (``dynamo``, ``dynamo.guards``,
    ``dynamo.backends``: three folders in the repository), each ending in a separator.
    Found without importing the backends (``dynamo`` must not import them at once)."""
    global _dirs
    if _dirs is None:
        found = set()
        for name in ("dynamo", "dynamo.guards", "dynamo.backends"):
            spec = importlib.util.find_spec(name)
            for folder in (spec.submodule_search_locations or []) if spec else []:
                found.add(os.path.join(os.path.abspath(folder), ""))
        _dirs = tuple(sorted(found))
    return _dirs


def is_dynamos(code: types.CodeType) -> bool:
    """Whether ``code`` is dynamo's own: a function of its packages, or code it
    generated (dispatchers, wrappers, glue). Graph code compiled at the program's
    lines carries the program's file (``source.compile_source(user_lines=True)``): it
    stands for the program's lines, as eager shows them, and is not dynamo's here."""
    filename = code.co_filename
    return filename.startswith(_GENERATED) or filename.startswith(_own_dirs())


def for_program(exc: BaseException, entry: types.CodeType | None = None) -> None:
    """Drop dynamo's frames from ``exc.__traceback__`` (see the module's docstring).

    ``entry``: the traceback's first entry is a frame entry's prologue, at the
    function's ``def`` line, and ``entry`` is the function's ``__code__`` now; that
    first entry is dropped too where the first frame after dynamo's is the function's
    own code going on, which shows the raising line: code of the same name in the
    same file as the entry's or as ``entry`` (the frame's new code at a break, a
    resume function, the original run uncompiled, code that replaced it). Example,
    for an exception raised in a resume function of ``f``::

        >>> [t.tb_frame.f_code.co_name for t in walk(exc.__traceback__)]
        ['f', '___dispatch', 'miss', '__call__', 'run_break_code', 'f']
        >>> for_program(exc, entry=f.__code__)
        >>> [t.tb_frame.f_code.co_name for t in walk(exc.__traceback__)]
        ['f']
    """
    if isinstance(exc, DynamoError):
        _for_user(exc, entry)
        return
    # (the whole traceback each time: an exception unwinding through N levels of
    # recursion of compiled functions walks N traceback entries at each, 0.03 s at the
    # ~200 levels the default recursion limit allows. An exception cannot be weakly
    # referenced, so what an inner level rebuilt already is not remembered.)
    tbs = list(walk(exc.__traceback__))
    if not tbs or is_dynamos(tbs[-1].tb_frame.f_code):
        return   # raised by dynamo itself: where it failed is what helps
    keep = [not is_dynamos(tb.tb_frame.f_code) for tb in tbs]
    if entry is not None and keep[0] and len(tbs) > 1 and not keep[1]:
        after = tbs[keep.index(True, 1)].tb_frame.f_code
        if _named(after) in (_named(tbs[0].tb_frame.f_code), _named(entry)):
            keep[0] = False
    if all(keep):
        return
    last_dropped = max(i for i, k in enumerate(keep) if not k)
    rebuilt = tbs[last_dropped + 1] if last_dropped + 1 < len(tbs) else None
    for tb, kept in zip(reversed(tbs[:last_dropped]), reversed(keep[:last_dropped])):
        if kept:
            rebuilt = _copy(tb, rebuilt)
    exc.__traceback__ = rebuilt


def _for_user(exc: DynamoError, entry: types.CodeType | None) -> None:
    """``exc``'s traceback without dynamo's frames, raise included, unless
    ``config.verbose``; the compiled function's entry, when dynamo's frames were all
    that followed it, at the program's line that could not be captured (see the
    module's docstring). A chained backend error loses dynamo's frames too."""
    if config.verbose:
        return
    cause = exc.__cause__
    if cause is not None and not isinstance(cause, DynamoError):
        for_program(cause)
    tbs = list(walk(exc.__traceback__))
    kept = [tb for tb in tbs if not is_dynamos(tb.tb_frame.f_code)]
    if len(kept) == len(tbs):
        return
    line = _user_line(exc, entry) if kept and kept[-1] is tbs[0] else None
    rebuilt = None
    for tb in reversed(kept):
        rebuilt = _copy(tb, rebuilt) if line is None or tb is not tbs[0] else \
            types.TracebackType(rebuilt, tb.tb_frame, _widest_at(tb.tb_frame.f_code, line),
                                line)
    exc.__traceback__ = rebuilt


def _widest_at(code: types.CodeType, line: int) -> int:
    """The offset of the instruction of ``line`` that spans the most columns (the call
    or expression there, so a traceback underlines it as for a raise at that line), or
    -1 when the code has none (the traceback then shows the line alone)."""
    best, offset = -1, -1
    for i, (start, end, col, end_col) in enumerate(code.co_positions()):
        if start == line == end and col is not None and end_col is not None and \
                end_col - col > best:
            best, offset = end_col - col, 2 * i
    return offset


def _user_line(exc: DynamoError, entry: types.CodeType | None) -> int | None:
    """The line of the compiled function where ``exc`` (an ``Unsupported``) stopped
    the capture: its own line, or its call of the helper where the line is."""
    function, location = getattr(exc, "function", None), getattr(exc, "location", None)
    if entry is None or function is None or location is None:
        return None
    callers = getattr(exc, "callers", [])
    if callers:   # (the helper may be another file's; the outermost call is the entry's)
        name, line = callers[-1]
    elif location[0] == entry.co_filename:
        name, line = function, location[1]
    else:
        return None
    return line if name == entry.co_qualname else None


def _named(code: types.CodeType) -> tuple[str, str]:
    return code.co_name, code.co_filename


def walk(tb: types.TracebackType | None):
    """The entries of a traceback, outermost first."""
    while tb is not None:
        yield tb
        tb = tb.tb_next


def _copy(tb: types.TracebackType, tb_next) -> types.TracebackType:
    """An entry like ``tb`` (its frame, instruction and line) followed by ``tb_next``."""
    line = tb.tb_lineno   # (None on 3.12+ for an instruction without a line)
    return types.TracebackType(tb_next, tb.tb_frame, tb.tb_lasti, -1 if line is None else line)
