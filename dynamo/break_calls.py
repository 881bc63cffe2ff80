"""The calls that code after a graph break makes: which callables go through the
frame hook (to be compiled as their own frames) and which run as called.

The code at a break, its islands and resume functions run uncompiled; each call
they make asks ``intercept`` first (``island_intercept``'s; the glue's call at the
break asks ``_weak_hooks``'). What is not user code
passes straight through (a builtin, a ufunc, a C method, library Python code such as
``np.eye``); a function that reads its caller's frame runs as called too, and one
found reading two frames up marks the frame's code a reader (``_reads_above_caller``).
``_c_code_now`` lets the island's builder call C code directly, without ``intercept``.

Example::

    >>> run, intercept = _weak_hooks(ctx)
    >>> intercept(np.add) is np.add            # C code: as it is
    True
    >>> intercept(user_fn) is user_fn          # user Python code: through the hook
    False
    >>> intercept_callable(json.dumps, ctx) is json.dumps   # library code
    True
"""

from __future__ import annotations

import builtins
import inspect
import sys
import types
import weakref
from functools import cache

import numpy as np

from dynamo.guards.type_slots import dict_offset_of, flags_of

from . import hook
from .bytecode.caller_frames import READS_ALL, found_reading, reach, reads_caller_frame_of
from .bytecode.receiver_types import receiver_type
from .bytecode.resume import boxed_code, original_code
from .callee_trial import COMPILED, PLAIN
from .code_keyed import CodeKeyed
from .island_memo import IslandMemo
from .skipfiles import is_skipped


def _cache_of(ctx_ref, code, fn_globals):
    """The hook's cache of ``code`` in the context ``ctx_ref`` refers to (weakly, see
    ``_weak_hooks``), None once it is gone: how resume functions and outlined loop
    bodies are called (``resume.BoxedCaller``)."""
    ctx = ctx_ref()
    return None if ctx is None else ctx.cache_for(code, fn_globals)


def _weak_hooks(ctx):
    """``run(f, box)`` (a resume function, its arguments in a list) and ``intercept(f)``
    bound to ``ctx`` by a weak reference.

    They end up in the constants of generated code (the glue's scope, the frame's new
    bytecode), which ``ctx``'s own cache holds. Code objects are invisible to the
    garbage collector, so a strong reference back to ``ctx`` would make a cycle that is
    never freed (every compiled and dropped function would leak its entries). While
    such code runs, ``ctx`` is alive (its dispatcher is on the stack); if not, the
    function runs eagerly.

    This ``intercept`` is the glue's (the callee of a call that breaks): it is called
    from generated code (the glue, or the dispatcher it is pasted into), so whether
    ``f`` is the frame's own function is found on the stack (``_calls_itself``). The
    calls of the code at a break take ``island_intercept``'s."""
    ref = weakref.ref(ctx)

    def run(f, box):   # (a resume function: its arguments come in a list)
        live = ref()
        if live is None:
            return types.FunctionType(boxed_code(f.__code__), f.__globals__,
                                      f.__name__, None, f.__closure__)(box)
        return hook.run_boxed(f, box, live, boxed_code)

    def on_stack(code, up: int) -> bool:   # (the caller: ``up`` frames above ours + 1)
        return _calls_itself(code, sys._getframe(up + 1))
    return run, _intercept(ref, on_stack)


def island_intercept(ctx, code: types.CodeType):
    """``intercept(f)`` for the calls of the code at a break of ``code``'s frame (an
    island, the code after a break: ``emit.intercept_calls``), bound to ``ctx`` weakly
    as ``_weak_hooks``' is.

    Such calls run in ``code``'s break code, called by a dispatcher (itself called by
    a frame entry of ``code``, a wrapper, a resume caller): every frame that
    ``_calls_itself`` would look at is one of those, or dynamo's. So ``f`` calls itself
    exactly when its code is a copy of ``code``'s (the same name, first line and file:
    what break code, resume functions and loop bodies keep), decided from the code
    alone, without reading a frame (a frame walk cost about a microsecond a call: a
    loop that runs as Python and calls a compiled helper ran at 0.38x plain).

    Example::

        >>> intercept = island_intercept(ctx, fact.__code__)
        >>> intercept(fact) is fact      # fact's island calls fact: as called
        True
    """
    name, line, filename = code.co_name, code.co_firstlineno, code.co_filename

    def copy_of_frame(callee, up: int) -> bool:
        return callee.co_firstlineno == line and callee.co_name == name and \
            callee.co_filename == filename
    return _intercept(weakref.ref(ctx), copy_of_frame, IslandMemo())


def _intercept(ref, calls_itself, memo: IslandMemo | None = None):
    """``intercept(f)``: ``f`` as a call from code that runs uncompiled makes it, under
    the context ``ref`` refers to: unchanged where it is not user code, runs as called
    (library code, a reader of its caller's frame, a function that ``calls_itself(code,
    up)`` says is the frame's own: the caller is ``up`` frames above the frame that
    asks), or through the frame hook.

    A plain function and a method of one (the calls a loop that runs as Python makes
    every trip) are decided here, each test once: no frame is read unless ``f`` reads
    its caller's (``_reads_above_caller``). With ``memo`` (where ``calls_itself``
    reads the callee's code only, not the stack: ``island_intercept``'s), a function
    decided to go through the hook is decided so again from ``memo`` without the
    tests, while what they rest on holds (``island_memo``); and its calls run compiled
    or plain, whichever its ``callee_trial.CalleeTrial`` timed faster (a function
    whose trial chose the plain call is found first, in ``memo.plain``: the plain call
    is the program's own, so none of the hook's checks is needed for it)."""

    def hooked(func, bound: bool):
        """The hook's wrapper of the plain function ``func``, or None where it runs
        as called (frames: 0 this one, 1 ``intercept``'s, 2 the caller); decided by
        the tests, and kept in ``memo`` (``bound``: ``func`` is called as a method)."""
        code = func.__code__
        if is_skipped(code):
            return None
        live = ref()
        if live is None or calls_itself(code, 2):
            return None
        if reads_caller_frame_of(func) is None:
            wrapper = hook.intercept(func, live)
            if memo is not None:
                memo.record(func, live, bound)
            return wrapper
        _reads_above_caller(func, sys._getframe(2))   # a reader: as called
        return None

    plain_calls = memo.plain if memo is not None else None

    def intercept(f):
        if memo is not None:
            last = memo.last   # (the function last found to run plain: as below)
            if last is not None and last[0]() is f:
                trial = last[1]
                if trial.way is PLAIN and trial.left > 0:
                    trial.left -= 1
                    return f
        kind = type(f)
        if kind in _C_CALLABLES:
            return f   # ``x.sum`` of an expression, a ufunc: no call to decide it
        if kind is types.FunctionType:
            # library code (``np.eye``, ``np.linspace``: NumPy's Python functions)
            # runs as called and reads no frame of ours (``_runs_as_called``,
            # ``_reads_above_caller``): decided here with one cached look-up, not five
            # calls and a frame walk (about 1 us: a Kalman filter that runs as Python
            # calls ``np.eye`` every trip, and ran at 0.86x plain Python for it)
            if memo is not None:
                quick = plain_calls.get(id(f))   # (its trial chose the plain call)
                if quick is not None and quick[0]() is f:
                    trial = quick[1]
                    if trial.way is PLAIN and trial.left > 0:
                        trial.left -= 1
                        return f   # the program's own call: no check of the hook's
                hit = memo.get(f)
                if hit is not None and hit[7] is not None:   # decided before: hooked
                    w = hit[7]()   # (the shared wrapper: it takes ``f`` first)
                    if w is not None and f.__qualname__ is hit[8]:
                        if ref() is None:
                            return f
                        # compiled or plain, whichever the timed calls found faster
                        # (``callee_trial``: read here, no call, once decided)
                        trial = hit[10]
                        if trial.left > 0:
                            if trial.way is PLAIN:
                                trial.left -= 1
                                memo.runs_plain(hit)   # (read first from now on)
                                return f
                            if trial.way is COMPILED:
                                trial.left -= 1
                                return types.MethodType(w, f)
                        return trial.pick(types.MethodType(w, f), f)
                    make = hit[5]()   # (none: a wrapper made for this call)
                    if make is not None:
                        return f if ref() is None else hook.wrap(make, f)
            wrapper = hooked(f, False)
            return f if wrapper is None else wrapper
        if kind is types.MethodType:
            func = f.__func__
            if type(func) is types.FunctionType:
                if memo is not None:
                    quick = plain_calls.get(id(func))   # (as a function's, above)
                    if quick is not None and quick[0]() is func:
                        trial = quick[1]
                        if trial.way is PLAIN and trial.left > 0:
                            trial.left -= 1
                            return f
                    hit = memo.get(func)
                    if hit is not None and hit[6] is not None:   # decided before
                        # the cache's one wrapper of its bound methods takes ``f``
                        # itself: no wrapper made per call, and none kept that holds
                        # ``func`` (``f`` holds it for as long as the call needs it)
                        w = hit[6]()
                        if w is not None and func.__qualname__ is hit[8]:
                            if ref() is None:
                                return f
                            trial = hit[10]   # (compiled or plain: as a function's)
                            if trial.left > 0:
                                if trial.way is PLAIN:
                                    trial.left -= 1
                                    memo.runs_plain(hit)
                                    return f
                                if trial.way is COMPILED:
                                    trial.left -= 1
                                    return types.MethodType(w, f)
                            return trial.pick(types.MethodType(w, f), f)
                        make = hit[5]()   # (no such wrapper: one made for this call)
                        if make is not None:
                            return f if ref() is None else \
                                types.MethodType(hook.wrap(make, func), f.__self__)
                wrapper = hooked(func, True)
                return f if wrapper is None else types.MethodType(wrapper, f.__self__)
            if _c_code(func):
                return f   # a C function bound as a method (Cython's: ``rng.random``)
        elif _c_code(f):
            return f   # a builtin, a ufunc, a C method: the common case, kept to one call
        live = ref()
        fn = f.__func__ if kind is types.MethodType else f
        if live is None or type(fn) is types.FunctionType and calls_itself(fn.__code__, 1):
            return f
        out = intercept_callable(f, live)
        if out is f or type(out) is types.MethodType and \
                out.__func__ is getattr(f, "__func__", None):   # called as it is:
            _reads_above_caller(f, sys._getframe(1))   # a reader (or library code)
        return out
    return intercept


# the code of a frame that breaks -> the code it was made from (the function's, or a
# resume function's), which lives as long as its function anyway: an entry goes with
# the break code, that is with its cache entry (``_reads_above_caller`` looks it up)
# (by identity: equal codes of two ``exec`` of one source would share a weak dict's entry)
_BREAK_ORIGIN = CodeKeyed()


def _reads_above_caller(f, frame) -> None:
    """``f``, called from ``frame`` (code at a break, an island), is user code that
    reads two or more frames up: what it reads above ``frame`` is dynamo's (the
    frame is called by ``run_break_code``), where plain Python shows the program's.
    The trace did not see the call (it was made from code that runs uncompiled, or
    ``f`` could not be inlined): the function ``frame`` runs the code of is marked a
    reader now (``caller_frames.found_reading``), so that its next calls are plain.

    Example: ``o.read(y)`` in the loop after a ``sys._getframe()`` call (an island),
    where ``read`` reads ``sys._getframe(2)``. (A callable an island loads from a
    local is not routed through ``intercept``: it is never seen.)"""
    fn = f.__func__ if type(f) is types.MethodType else f
    if type(fn) is not types.FunctionType:
        fn = inspect.getattr_static(type(f), "__call__", None)
        if type(fn) is not types.FunctionType:
            return
    code = fn.__code__
    if is_skipped(code):
        return
    levels, why = reach(code, fn)
    if levels >= 2:
        up = "every frame" if levels >= READS_ALL else f"{levels} frames"
        code_of = _BREAK_ORIGIN.get(frame.f_code, frame.f_code)
        found_reading(original_code(code_of), levels - 1,
                      f"it calls {code.co_qualname}(), which reads {up} up ({why})")


def _calls_itself(code: types.CodeType, frame) -> bool:
    """The code of a function, ``code``, is what the caller is running: the code at a
    break or a resume function (a copy of the function's code) calls it again, itself
    or through the glue (``frame`` and the two frames below it are looked at). A
    recursive call runs as called, uncompiled, and so does the rest of the recursion:
    through the hook each level would take five Python frames instead of one, and a
    recursion that plain Python finishes would hit ``sys.getrecursionlimit()`` a fifth
    of the way down (RecursionError)."""
    for _ in range(3):
        if frame is None:
            return False
        caller = frame.f_code
        if caller.co_firstlineno == code.co_firstlineno and \
                caller.co_name == code.co_name and caller.co_filename == code.co_filename:
            return True
        frame = frame.f_back
    return False


def _c_code_now(fn_globals: dict, local_types: dict, chain: tuple,
                local: bool = False, receiver: list | None = None) -> bool:
    """The global ``chain[0]`` (then its module attributes ``chain[1:]``) is, as the
    island is built, a callable that ``intercept_callable`` passes through unchanged:
    a builtin, a ufunc, a C method, or a library's Python function (``np.eye``,
    ``is_skipped``: it runs as called). Only modules' own ``__dict__`` are read (no
    ``__getattr__``, no import side effects). With ``local``, ``chain`` is a local
    and a method name: the local's type (``local_types``, which the island never
    rebinds) is a C type whose method of that name is C code (``_c_method``). With
    ``receiver`` (the island's instructions up to the method load), the method is of
    the value they push (``prob[:t].sum()``), of the type ``receiver_type`` reads off
    them (``chain[0]`` is None)."""
    if local:
        kind = local_types.get(chain[0]) if receiver is None else \
            receiver_type(receiver, local_types)
        return kind is not None and _c_method(kind, chain[1])
    value = fn_globals.get(chain[0], _NOT_FOUND)
    if value is _NOT_FOUND:
        value = vars(builtins).get(chain[0], _NOT_FOUND)
    for name in chain[1:]:
        if type(value) is not types.ModuleType:
            return False
        value = vars(value).get(name, _NOT_FOUND)
    if type(value) is types.FunctionType:
        return is_skipped(value.__code__)
    return value is not _NOT_FOUND and callable(value) and _c_code(value)


_NOT_FOUND = object()


def _c_method(kind: type, name: str) -> bool:
    """``obj.name(...)`` of any ``obj`` of the type ``kind`` calls C code: ``kind`` is
    fixed (no class statement made it: its attributes cannot be reassigned), its
    instances have no ``__dict__`` that could shadow the method, and the method found
    on the class (read statically, running no code) is a C callable, not a property or
    a Python function. ``list.append``, ``Generator.random``, ``ndarray.copy``."""
    if not flags_of(kind) & _IMMUTABLE_TYPE or dict_offset_of(kind) or \
            inspect.getattr_static(kind, "__getattr__", None) is not None:
        return False
    attr = inspect.getattr_static(kind, name, None)
    return attr is not None and callable(attr) and _c_code(attr) and \
        not isinstance(attr, (property, staticmethod, classmethod))


def _c_code(f) -> bool:
    """``f`` is no function or method, and its type is defined in C: calling it runs no
    user Python code (``intercept_callable`` would return it unchanged)."""
    kind = type(f)
    if kind is types.FunctionType or kind is types.MethodType:
        return False
    flags = flags_of(kind)
    return not flags & _HEAP_TYPE or bool(flags & _IMMUTABLE_TYPE) and _fixed_c_callable(kind)


@cache
def _fixed_c_callable(kind: type) -> bool:
    """An immutable heap type (made by an extension, such as Cython's
    ``cython_function_or_method``: ``Generator.random``) whose ``__call__`` is C code.
    Cached: such a type's attributes cannot be reassigned."""
    return not isinstance(inspect.getattr_static(kind, "__call__", None), types.FunctionType)


def intercept_callable(f, ctx):
    """``f`` made to run through the frame hook when it is user Python code.

    This runs before every call made from code that runs uncompiled (an eager island,
    the code after a break), so what is not user code passes straight through: a
    builtin, a ufunc, a C method, any object of a type defined in C.
    """
    kind = type(f)
    if kind is types.FunctionType:
        return f if _runs_as_called(f) else hook.intercept(f, ctx)
    if kind is types.MethodType:
        if isinstance(f.__func__, types.FunctionType):
            return types.MethodType(intercept_callable(f.__func__, ctx), f.__self__)
        return f
    if not flags_of(kind) & _HEAP_TYPE:   # a C type: its __call__ is C code, and fixed
        return f
    if isinstance(f, types.FunctionType):   # a subclass of function
        return f if _runs_as_called(f) else hook.intercept(f, ctx)
    call = inspect.getattr_static(kind, "__call__", None)
    if isinstance(call, types.FunctionType) and not _runs_as_called(call):
        return types.MethodType(hook.intercept(call, ctx), f)
    return f


def _runs_as_called(fn) -> bool:
    """The function ``fn`` is called as the program calls it, not through the hook:
    library code, and code that reads its caller's frame (``sys._getframe(1)``,
    ``warnings.warn(..., stacklevel=2)``, or a call of a function that reads two
    frames up): called directly from the code at a break or in an island, its
    ``f_back`` is the program's frame there (which has the original's file, lines and
    globals), where through the hook it would be one of dynamo's
    (``bytecode/caller_frames.py``). It runs uncompiled."""
    return is_skipped(fn.__code__) or reads_caller_frame_of(fn) is not None


# the C callables an island's calls load most (a bound C method such as ``x.sum`` of an
# expression, a ufunc, NumPy's C dispatchers such as ``np.argmin``): ``_c_code`` is
# True for them; the hook's ``intercept`` tests these first, without a call
# (minus the Python function types, should a NumPy ever make its dispatchers Python
# functions again: those must take the checks below)
_C_CALLABLES = frozenset({types.BuiltinFunctionType, np.ufunc, type(np.argmin)}) - \
    {types.FunctionType, types.MethodType}
_HEAP_TYPE = 1 << 9   # Py_TPFLAGS_HEAPTYPE: a class made by a class statement or type()
_IMMUTABLE_TYPE = 1 << 8   # Py_TPFLAGS_IMMUTABLETYPE: C and extension types (3.10+)
