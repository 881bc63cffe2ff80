"""Frame entries: what ``dynamo.compile(fn)`` calls, ``fn``'s own code behind a
prologue that asks the hook's cache first, in ``fn``'s own frame (PEP 523's "evaluate
this frame", in Python).

A hit returns the compiled result from the prologue; where the cache would run the
original code it hands back ``hook.CONTINUE`` and the frame goes on with ``fn``'s own
instructions, in the frame the program's call made (``frame_entry``; the prologue is
built by ``_entry_template``). A function the prologue cannot serve (defaults,
``**kwargs``, a generator) gets ``hook.intercept``'s wrapper instead.

Example::

    >>> def f(x): ...
    >>> run = frame_entry(f, ctx)
    >>> run.__code__.co_kwonlyargcount, run.__wrapped__ is f   # f's code + the hidden
    (1, True)                                                  # parameter
    >>> def g(x, k=1): ...
    >>> frame_entry(g, ctx).__code__ is g.__code__     # defaults: a wrapper instead
    False
"""

from __future__ import annotations

import inspect
import logging
import threading
import types

from bytecode import Bytecode, Instr, Label, TryBegin, TryEnd
from bytecode.instr import InstrLocation

from . import pyversion
from .bytecode import emit
from .bytecode.instructions import frame_params
from .dispatch import WARMING
from .hook import CONTINUE, CodeCache, CompileContext, _own_frame, _recall, intercept
from .tracebacks import for_program
from .wrappers import _free_name

log_internal = logging.getLogger("dynamo.internal")

# Code that frame entries leave to ``intercept``: its frame runs only when iterated
# (generators, coroutines), so a prologue would not run at the call.
_LAZY_FRAMES = (inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ITERABLE_COROUTINE |
                inspect.CO_ASYNC_GENERATOR)
# ... and code with ``**kwargs``: no hidden keyword-only parameter is safe from the
# caller there (``f(x, ___entry=1)`` belongs in ``kwargs``)
_INTERCEPTED = _LAZY_FRAMES | inspect.CO_VARKEYWORDS


class _Entry:
    """What a frame entry's prologue reads (``frame_entry``): the program's function
    and its code (to see it replaced), the cache, the stand-in it passes as
    ``___fn``, and the call again as made (``_recall``). It is the default of the
    entry's hidden keyword-only parameter: a function's defaults take part in the
    cyclic GC, where a constant of its code would not (code objects are not tracked),
    so an entry of a function whose globals hold the compiled function still dies."""

    __slots__ = ("fn", "code", "cache", "stand_in", "ctx")

    def __init__(self, fn, cache: CodeCache, stand_in, ctx: CompileContext) -> None:
        self.fn, self.code, self.cache, self.stand_in, self.ctx = \
            fn, fn.__code__, cache, stand_in, ctx

    def recall(self, values: tuple):
        return _recall(self.ctx, self.fn, self.code, values)


def frame_entry(fn: types.FunctionType, ctx: CompileContext) -> types.FunctionType:
    """What ``dynamo.compile(fn)`` calls: ``fn``'s own code with a prologue that asks
    the cache first, in ``fn``'s own frame (PEP 523's "evaluate this frame", in Python).

    A hit returns the compiled result from the prologue. Where the cache would run
    the original code (the frame cannot be compiled, the trace gave up on it, the
    graph raised, the cache is full), the prologue gets ``CONTINUE`` back and the
    frame goes on with ``fn``'s code: a frame the program's call made, whose
    ``f_back`` is the program's caller, with nothing of dynamo's in between. So a
    function that the *first* trace finds reading frames above its own (a reader
    passed in as an argument, issue #17 ``frame-reader-first-call``) shows that
    reader the program's frames already on that first call.

    ``intercept``'s wrapper (a frame of dynamo's, then the original in another) is
    used instead for a function with defaults (the frame would bind them from the
    entry's own copy, which a later ``fn.__defaults__ = ...`` would not change), one
    with ``**kwargs`` (which takes every keyword, the hidden parameter's name too), a
    generator or coroutine (its code runs when iterated, not called), and code
    ``bytecode`` cannot rebuild.

    The entry binds the arguments by the parameters ``fn``'s code had when the entry
    was made; where its prologue finds ``fn.__code__`` replaced, ``_recall`` tells the
    objects that ``watch_code`` registered for ``fn``.

    Example::

        >>> run = frame_entry(f, ctx)
        >>> run(x)    # f's frame: prologue -> dispatcher -> miss -> CONTINUE,
        ...           # then f's own instructions, in the same frame
    """
    code = fn.__code__
    if fn.__defaults__ or fn.__kwdefaults__ or code.co_flags & _INTERCEPTED:
        return intercept(fn, ctx)
    cache = ctx.cache_for(code, fn.__globals__)
    template = cache.entry_template
    if template is None:
        try:
            template = _entry_template(code)
        except Exception as e:  # noqa: BLE001 (the wrapper works for every function)
            log_internal.debug("dynamo: no frame entry for %s (%s: %s); a wrapper calls it",
                               code.co_qualname, type(e).__name__, e)
            template = False
        cache.entry_template = template
        if template is not False:
            _warm(template, fn)
    if template is False:
        return intercept(fn, ctx)
    stand_in = types.FunctionType(code, fn.__globals__, fn.__name__, None, fn.__closure__)
    _own_frame.add(stand_in)
    entry = types.FunctionType(template, fn.__globals__, fn.__name__, None, fn.__closure__)
    entry.__kwdefaults__ = {_entry_name(code): _Entry(fn, cache, stand_in, ctx)}
    entry.__qualname__ = fn.__qualname__
    entry.__module__ = fn.__module__
    entry.__doc__ = fn.__doc__
    entry.__wrapped__ = fn   # inspect.signature shows fn's, without the hidden parameter
    return entry


def _for_program_entry(entry: _Entry, exc: BaseException) -> None:
    """A frame entry's handler: the traceback without dynamo's frames, nor the entry's
    own at the ``def`` line where the function's code shows the raising line (its code
    as compiled, or the code it has now: ``_recall``)."""
    for_program(exc, entry=entry.fn.__code__)


def _unexpected(passed, message: str):
    """A frame entry's hidden parameter was passed by the caller: the TypeError a
    function without it raises (one with ``**kwargs`` would have taken it there).
    Only ``_warm``'s calls pass ``WARMING`` while it warms (``_WARMING_NOW``): they
    return None here. A program that passes the sentinel itself (``f(x,
    ___entry=dispatch.WARMING)``) gets plain Python's TypeError, not None."""
    if passed is WARMING and getattr(_WARMING_NOW, "on", False):
        return None
    raise TypeError(message)


# Set while ``_warm`` calls a new template in this thread: its calls run the prologue
# only (they return at ``_unexpected``), so no program code runs meanwhile
_WARMING_NOW = threading.local()


def _warm(template: types.CodeType, fn: types.FunctionType) -> None:
    """Call a function of the new ``template`` ``pyversion.WARMUP_CALLS`` times with the
    hidden parameter ``WARMING`` (``_unexpected`` returns None for it, before any
    argument is read), so that CPython 3.11 has quickened the template before the
    program's calls: a frame entry otherwise runs its prologue unspecialized on the
    function's first 8 calls and quickens all of ``fn``'s code on the 8th (about 2 us
    on calls 2-8 of a small method; issue #15). Nothing on 3.12+ (code is quickened
    when made). The arguments are None: the prologue reads none of them first."""
    if not pyversion.WARMUP_CALLS:
        return
    code = fn.__code__
    run = types.FunctionType(template, fn.__globals__, fn.__name__, None, fn.__closure__)
    kwonly = code.co_varnames[code.co_argcount:code.co_argcount + code.co_kwonlyargcount]
    keywords = {**dict.fromkeys(kwonly), _entry_name(code): WARMING}
    args = (None,) * code.co_argcount
    _WARMING_NOW.on = True
    try:
        for _ in range(pyversion.WARMUP_CALLS):
            run(*args, **keywords)
    finally:
        _WARMING_NOW.on = False


def _entry_name(code: types.CodeType) -> str:
    """The entry's hidden keyword-only parameter: a name ``code`` does not use."""
    return _free_name("___entry", frozenset(code.co_varnames))


def _entry_template(code: types.CodeType) -> types.CodeType:
    """``code`` with one more keyword-only parameter (``_entry_name``, an ``_Entry``
    by default) and a prologue after its own MAKE_CELL/COPY_FREE_VARS/RESUME::

        e = ___entry; del ___entry          # (unbound: locals() does not show it)
        if e.__class__ is not _Entry:       # the caller passed ___entry=...
            return _unexpected(e, "... got an unexpected keyword argument ...")
        if e.fn.__code__ is not e.code:     # replaced since: call it as it is now
            return e.recall((a, b, ))       # (*)
        result = e.cache.dispatch(e.stand_in, a, b, )     # (*)
        if result is not CONTINUE:
            return result
        ...                                 # code's own instructions

    (``e`` stays on the stack.) The prologue sits outside the code's own ``try``
    ranges and leaves the stack empty, as the original begins, so the exception table
    keeps its depths; its instructions carry the ``def`` line. An exception out of the
    two calls marked (*) (raised by the resume function of a break, say) goes to a
    handler of the prologue's own, which drops dynamo's frames from its traceback and
    this frame's entry at the ``def`` line (``tracebacks.for_program``), then raises it
    on. Its constants are None, ``CONTINUE`` and functions of this module only: one
    template serves every function of ``code``."""
    bc = Bytecode.from_code(code, conserve_exception_block_stackdepth=True)
    hidden = _entry_name(code)
    bc.argnames.insert(bc.argcount + bc.kwonlyargcount, hidden)
    bc.kwonlyargcount += 1
    head = emit.prologue(bc)
    body = list(bc[len(head):])
    loc = InstrLocation(code.co_firstlineno, None, None, None)
    names = code.co_varnames[:len(frame_params(code))]

    def ins(name, arg=None):
        return Instr(name, location=loc) if arg is None else Instr(name, arg, location=loc)

    def attr(name):
        return ins("LOAD_ATTR", (False, name) if pyversion.PY312 else name)

    def args():
        out = []
        for name in names:
            load = emit.load_var(name, code)
            load.location = loc
            out.append(load)
        return out

    def branch(label):   # pop a bool; jump to ``label`` when it is False
        out = [ins(pyversion.POP_JUMP_FORWARD_IF_FALSE, label)]
        return out + ([ins("NOT_TAKEN")] if pyversion.NOT_TAKEN_AFTER_BRANCH else [])

    recall, own, passed, handler = Label(), Label(), Label(), Label()
    null = pyversion.push_null_for_call(loc)
    # the calls into dynamo raise to ``handler`` (the stack cut to [e]), which gives the
    # exception plain Python's traceback (``tracebacks.for_program``) and raises it on
    # (RERAISE adds no entry of this frame). Each range starts before the loads of the
    # call's arguments: on 3.13 and 3.14 a range of the CALL alone misses an exception
    # that comes out of the callee (found by test_tracebacks.py).
    to_dispatch, to_recall = TryBegin(handler, False, 1), TryBegin(handler, False, 1)
    out = [ins("LOAD_FAST", hidden), ins("DELETE_FAST", hidden),                # [e]
           ins("COPY", 1), attr("__class__"), ins("LOAD_CONST", _Entry), ins("IS_OP", 0),
           *branch(passed),
           ins("COPY", 1), attr("fn"), attr("__code__"), ins("COPY", 2), attr("code"),
           ins("IS_OP", 0), *branch(recall),                                    # [e]
           ins("COPY", 1), attr("cache"), attr("dispatch"), *null,      # [e, d/NULL x2]
           to_dispatch, ins("COPY", 3), attr("stand_in"), *args(),
           *pyversion.call_instrs(len(names) + 1, location=loc),                # [e, r]
           TryEnd(to_dispatch),
           ins("SWAP", 2), ins("POP_TOP"),                                      # [r]
           ins("COPY", 1), ins("LOAD_CONST", CONTINUE), ins("IS_OP", 1), *branch(own),
           ins("RETURN_VALUE")]
    out += [recall, ins("COPY", 1), attr("recall"), *pyversion.push_null_for_call(loc),
            to_recall, *args(), ins("BUILD_TUPLE", len(names)),
            *pyversion.call_instrs(1, location=loc), TryEnd(to_recall),         # [e, r]
            ins("SWAP", 2), ins("POP_TOP"), ins("RETURN_VALUE")]
    out += [handler,                                                       # [e, exc]
            *pyversion.load_callable_const(_for_program_entry, loc),
            ins("COPY", 4), ins("COPY", 4), *pyversion.call_instrs(2, location=loc),
            ins("POP_TOP"), ins("SWAP", 2), ins("POP_TOP"), ins("RERAISE", 0)]
    out += [passed,   # the caller passed the hidden name: as plain Python (or _warm)
            *pyversion.load_callable_const(_unexpected, loc), ins("COPY", 3),  # [e, f2, e]
            ins("LOAD_CONST", f"{code.co_qualname}() got an unexpected keyword argument "
                              f"{hidden!r}"),
            *pyversion.call_instrs(2, location=loc),                           # [e, r]
            ins("SWAP", 2), ins("POP_TOP"), ins("RETURN_VALUE")]
    out += [own, ins("POP_TOP")]
    bc[:] = head + out + body
    return bc.to_code(stacksize=max(code.co_stacksize, len(names) + 6),
                      compute_exception_stack_depths=False)
