"""Which code objects read the frame that called them (issue #17).

A call that dynamo intercepts runs its frame through Python code of dynamo's (the
wrapper, the dispatcher, the frame runner), so that frame's ``f_back`` is one of
dynamo's frames, not the caller's. Pure Python cannot run code in another frame, so a
function that reads its caller's frame is called directly instead, uncompiled: its
``f_back`` is then its real caller (the program's own frame, or the frame of a compiled
function at a graph break, which keeps the original's file, lines and globals). See
docs/python_semantics.md, "Frames and warning locations".

What counts, read statically from the function's own bytecode (not the functions it
calls):

- ``sys._getframe(n)`` with any argument but a literal ``0``, ``sys._getframemodulename``;
- the attribute ``f_back`` (``inspect.currentframe().f_back``, ``frame.f_back``);
- ``inspect.stack``, ``inspect.getouterframes``, ``traceback.extract_stack``,
  ``print_stack``, ``format_stack``, ``walk_stack``;
- a call with a ``stacklevel`` keyword whose value is not a literal ``1``
  (``warnings.warn(..., stacklevel=2)``, ``logger.info(..., stacklevel=2)``), and
  ``warn(message, category, stacklevel)`` with the level passed by position.

Reads two or more frames up (``sys._getframe(2)``, ``stacklevel=3``,
``f_back.f_back``, ``inspect.stack()[2]``) reach past the caller, into the caller's
caller: when the caller is a compiled function, that frame is one of dynamo's. So a
function that calls (by a global or closure name) a function whose reads go ``n >= 2``
frames up reads ``n - 1`` frames up itself, through it (``reads_caller_frame_of``), and
is called as it is too: every frame such a read sees is then the program's own (the
first compiled frame above is the resume function at a break, which keeps the
original's file, lines and globals). ``frames_read`` says how far a code's own reads
go (``READS_ALL`` where the level is computed or the whole stack is walked).

Example::

    >>> def caller_name():
    ...     return sys._getframe(1).f_code.co_name
    >>> reads_caller_frame(caller_name.__code__)
    'sys._getframe(1) at line 2'
"""

from __future__ import annotations

import functools
import types
import weakref

from dynamo.guards.type_slots import dict_of, instance_dict, is_builtin_class, mro_of, qualname_of

from .frame_read_scan import READS_ALL, scan

# The cause of the break at a call of a function that reads frames above the compiled
# one, found while tracing: the whole frame runs uncompiled (dynamo/convert.py).
FRAME_READER = "frame_reader"

# Callees looked through for reads two or more frames up: a function calling a function
# calling a reader... (each level needs its reads one frame further up).
_CALLEE_LEVELS = 3

# id(code) -> (a weak reference to the code, (reason or "", frames read, names called)).
# By identity: code objects compare equal by value. An entry goes with its code object.
_found: dict[int, tuple[weakref.ref, tuple[str, int, tuple]]] = {}


def reads_caller_frame(code: types.CodeType) -> str | None:
    """Why ``code`` reads the frame that called it (what and at which line), or None.

    Cached per code object: it is asked before every call that code running
    uncompiled makes (``break_calls.intercept_callable``)."""
    return _scanned(code)[0] or None


def frames_read(code: types.CodeType) -> int:
    """How many frames above its own ``code``'s reads go: 0 (none), 1 (its caller),
    2 (``sys._getframe(2)``, ``stacklevel=3``, ``f_back.f_back``)... ``READS_ALL``."""
    return _scanned(code)[1]


def scan_token(code: types.CodeType):
    """An object that stays the same (by identity) while ``reads_caller_frame(code)``
    and ``frames_read(code)`` do: ``found_reading`` replaces it. Lets a caller that
    decided once for ``code`` tell, with one look-up, that the decision still holds.

    Example::

        >>> token = scan_token(f.__code__)
        >>> found_reading(f.__code__, 1, "it calls reader(), which reads 2 frames up")
        >>> scan_token(f.__code__) is token
        False
    """
    _scanned(code)
    return _found[id(code)]


# ``token_by_id(id(code))``: ``scan_token(code)`` once ``code`` was scanned, without
# the calls (a per-call check: ``island_memo``); None if it never was, or is gone
token_by_id = _found.get


def calls_by_name(code: types.CodeType) -> bool:
    """``code`` loads a global or closure name (what ``reads_caller_frame_of`` looks
    up, whose answer can change when such a name is rebound); False: that answer is
    ``reads_caller_frame(code)``'s, fixed while ``scan_token(code)`` is."""
    return bool(_scanned(code)[2])


def reads_caller_frame_of(fn) -> str | None:
    """Why calling the function ``fn`` reads its caller's frame, or None: its own code
    does (``reads_caller_frame``), or it calls, by a global or closure name, a
    function whose reads go two or more frames up (``def f(y): return helper(y)``
    where ``helper`` reads ``sys._getframe(2)``). The names are looked up now, in
    ``fn``'s globals and cells (rebinding one changes the answer)."""
    code = getattr(fn, "__code__", None)
    if not isinstance(code, types.CodeType):
        return None
    own = reads_caller_frame(code)
    if own is not None:
        return own
    key = id(fn)
    hit = _verdicts.get(key)
    if hit is not None and hit[0]() is fn and all(
            _still(owner, name, token) for owner, name, token in hit[1]):
        return hit[2]
    looked_up: dict = {}
    depth, why = _through_callees(fn, _CALLEE_LEVELS, looked_up)
    verdict = why if depth >= 1 else None

    def gone(ref, key=key, verdicts=_verdicts):   # bound now: works at interpreter exit
        if verdicts.get(key, (None,))[0] is ref:
            del verdicts[key]
    _verdicts[key] = (weakref.ref(fn, gone), tuple(looked_up.values()), verdict)
    return verdict


def names_unchanged(fn) -> bool:
    """``reads_caller_frame_of(fn)`` found no reader, and every name it looked up
    (``fn``'s and its callees') still means the value it meant; False where not known.
    One call (``island_memo`` asks it before each call of a function calling names).

    Example::

        >>> reads_caller_frame_of(f) is None and names_unchanged(f)
        True
    """
    hit = _verdicts.get(id(fn))
    if hit is None or hit[2] is not None or hit[0]() is not fn:
        return False
    for owner_ref, name, token in hit[1]:   # (``_still``, its calls inlined)
        owner, weak = owner_ref(), type(token) is weakref.ref
        held = token() if weak else token[0]
        if owner is None or _lookup(owner, name) is not held or held is None and weak:
            return False
    return True


def calls_caller_reader(fn, values=()) -> str | None:
    """Why ``fn`` calls a function that reads the frame that calls it
    (``reads_caller_frame_of``: ``sys._getframe(1).f_locals``, a ``stacklevel=2``
    warning...), or None: one it calls by a global or closure name, or one within
    ``values`` (the objects its arguments and locals hold now), looked at one level in
    as ``reader_within`` looks (``p.peek(...)``, ``readers[0](...)``, ``h.reader(...)``).

    Such a callee, called at or after a graph break, sees ``fn``'s frame as the
    resume function or island that runs the rest of it: every local bound there must
    then be the program's, also one no bytecode reads again (``break_entry._compile_break``
    passes them all on, as it does for ``locals()``).

    Example::

        >>> def peek(name): return sys._getframe(1).f_locals[name]
        >>> def f(x): d = x - 1; print(); return peek("d")
        >>> calls_caller_reader(f)
        'it calls peek(), which reads the frame that calls it (sys._getframe(1) at line 1)'
    """
    code = getattr(fn, "__code__", None)
    if not isinstance(code, types.CodeType):
        return None
    for name in _scanned(code)[2]:
        callee = _resolve(fn, name, {})
        if callee is None or callee.__code__ is code:
            continue
        why = reads_caller_frame_of(callee)
        if why is not None:
            return f"it calls {name}(), which reads the frame that calls it ({why})"
    names = frozenset(code.co_names) | {"__call__"}
    for value in values:
        for name, callee in _within(value, names, "getattr" in names):
            why = reads_caller_frame_of(callee)
            if why is not None:
                return f"it calls {name}, which reads the frame that calls it ({why})"
    return None


def reader_within(fn, values, skip=None) -> tuple[int, str]:
    """(how many frames above its own the farthest-reading function within reach of
    ``fn``'s code goes, why): the functions among ``values`` (the objects ``fn``'s
    frame holds: its arguments, its locals) and the globals its code names, looked
    one level into each (a list's or dict's items, a partial's function, a bound
    method's, an object's class functions and own attributes under a name the code
    loads, or under any name where it calls ``getattr``, and its ``__call__``).
    ``skip(code)`` leaves library code out.

    Asked at a graph break, before the first graph runs: such a function, called after
    the break, would be called by a resume function or an island, frames that dynamo's
    call, and a read two or more frames up would see those (``convert._trace_and_build``
    runs the whole frame uncompiled instead). Finds what the code could reach, not what
    it does reach: a reader held but never called costs the compile of the frame.

    Example::

        >>> def f(x, o): y = x - 1; here = sys._getframe(); return o.read(y)
        >>> reader_within(f, [np.ones(3), MethodReader()])   # read: sys._getframe(2)
        (2, 'MethodReader.read() (sys._getframe(2) at line 3)')
    """
    code = fn.__code__
    names = frozenset(code.co_names) | {"__call__"}
    every = "getattr" in names
    globals_ = getattr(fn, "__globals__", None)
    pool = list(values)
    if isinstance(globals_, dict):
        pool += [globals_[n] for n in code.co_names if n in globals_]
    best, why, seen = 0, "", 0
    for value in pool:
        for name, callee in _within(value, names, every):
            seen += 1
            if seen > _MAX_LOOKED_AT:
                return best, why
            if skip is not None and skip(callee.__code__):
                continue
            depth, reason = reach(callee.__code__, callee)
            if depth > best:
                best, why = depth, f"{name} ({reason})"
    return best, why


# How many functions ``reader_within`` looks at, at most, for one break.
_MAX_LOOKED_AT = 256

_CONTAINERS = (list, tuple, set, frozenset)



def _within(value, names, every: bool):
    """(how, function) for the functions ``reader_within`` finds in ``value``. Only
    types are asked (``issubclass(type(v), ...)``, the classes' own namespaces, the
    instance dict read as ``object.__getattribute__`` reads it): no ``__class__``,
    ``__getattr__`` or other code of the program's runs."""
    kind = type(value)
    if issubclass(kind, types.ModuleType):
        return
    # (by identity: a metaclass's __eq__ may raise; not a subclass: its __iter__ or
    # __len__ may be the program's)
    if any(kind is c for c in _CONTAINERS):
        items = list(value)[:_MAX_LOOKED_AT]
    elif kind is dict:
        items = list(value.values())[:_MAX_LOOKED_AT]
    else:
        items = [value]
    for item in items:
        yield from _functions_of(item, names, every)


def _functions_of(value, names, every: bool):
    kind = type(value)
    if kind is functools.partial:   # (a subclass's ``func`` may be a property)
        value = value.func
        kind = type(value)
    if issubclass(kind, types.MethodType):
        value = value.__func__
        kind = type(value)
    if issubclass(kind, types.FunctionType):
        yield f"{value.__qualname__}()", value
        return
    if issubclass(kind, type):
        kind, own = value, None       # a class: its own functions (static methods)
    elif is_builtin_class(kind):   # (no metaclass property runs)
        return
    else:
        own = instance_dict(value)   # (by the slot: no __dict__ property of the program's runs)
    if type(own) is dict:
        for name, item in list(own.items()):
            if (every or name in names) and type(item) is types.FunctionType:
                yield f"{qualname_of(kind)}.{name}", item
    for name in names:
        for klass in mro_of(kind):   # (no metaclass property runs)
            found = dict_of(klass).get(name)
            if found is not None:
                if type(found) is staticmethod or type(found) is classmethod:
                    found = found.__func__
                if type(found) is types.FunctionType:
                    yield f"{qualname_of(kind)}.{name}()", found
                break


def reach(code: types.CodeType, fn=None) -> tuple[int, str]:
    """(how many frames above its own a call of ``code`` reads, why): its own reads
    (``frames_read``), or, with the function ``fn`` of that code, those of the
    functions it calls by a global or closure name (``_through_callees``).

    The translator asks it of every function it is about to inline, however it got
    it (an argument, an attribute, ``getattr``, a bound method, a partial): those are
    known only while tracing (see ``found_reading``)."""
    reason, depth, _ = _scanned(code)
    if isinstance(fn, types.FunctionType) and fn.__code__ is code and depth < READS_ALL \
            and reads_caller_frame_of(fn) is not None:   # (its verdict is cached)
        via, why = _through_callees(fn, _CALLEE_LEVELS, {})
        if via > depth:
            depth, reason = via, why
    return depth, reason


def found_reading(code: types.CodeType, levels: int, why: str) -> None:
    """The trace of ``code`` found that it reads ``levels >= 1`` frames above its own
    through a function it gets otherwise than by name (``def f(x, reader): reader(x)``
    with ``reader`` reading ``sys._getframe(2)``). From now on ``code`` counts as a
    reader of its caller's frame (``reads_caller_frame`` says ``why``): compiled again,
    or called at a graph break, it is called as it is; and a compiled function that
    was made before (an ``OptimizedFunction`` that asked ``when_found``) is told, so
    that its next call is the plain function's. The first call already ran through
    dynamo's frames: what it read two frames up was one of them.

    Example::

        >>> found_reading(f.__code__, 1, "it calls reader(), which reads 2 frames up")
        >>> reads_caller_frame(f.__code__)
        'it calls reader(), which reads 2 frames up'
    """
    reason, depth, called = _scanned(code)
    ref = _found[id(code)][0]
    if depth < levels or not reason:
        _found[id(code)] = (ref, (reason or why, max(depth, levels), called))
    entry = _watchers.pop(id(code), None)
    if entry is not None and entry[0]() is code:
        for obj in list(entry[1]):
            obj.frame_reader_found(reason or why)


def when_found(code: types.CodeType, obj) -> None:
    """Call ``obj.frame_reader_found(why)`` when ``found_reading(code, ...)`` is called
    (once). Only weak references are held: to ``code`` and to ``obj``."""
    key = id(code)
    entry = _watchers.get(key)
    if entry is None or entry[0]() is not code:
        def gone(ref, key=key, watchers=_watchers):
            if watchers.get(key, (None,))[0] is ref:
                del watchers[key]
        entry = _watchers[key] = (weakref.ref(code, gone), weakref.WeakSet())
    entry[1].add(obj)


# id(code) -> (a weak reference to the code, the objects to tell: ``when_found``).
_watchers: dict[int, tuple[weakref.ref, weakref.WeakSet]] = {}


# id(function) -> (a weak reference to it, ((weak reference to the function whose
# namespace was searched, name, token of the value found) for every name looked up),
# the verdict): asked before every call at a break, the verdict stands while every
# name means what it did (a lookup each, not a scan of the callees). Only weak
# references and tokens are held, so a function defined at run time (and its
# globals) dies with its last user.
_verdicts: dict[int, tuple] = {}


def _through_callees(fn, levels: int, looked_up: dict) -> tuple[int, str]:
    """(how many frames above ``fn``'s own its calls' reads go, why); every name
    looked up is added to ``looked_up``."""
    best, why = 0, ""
    code = fn.__code__
    for name in _scanned(code)[2]:
        callee = _resolve(fn, name, looked_up)
        if callee is None or callee.__code__ is code:
            continue
        depth = frames_read(callee.__code__)
        reason = reads_caller_frame(callee.__code__) or ""
        if levels > 1 and depth < READS_ALL:
            deeper, via = _through_callees(callee, levels - 1, looked_up)
            if deeper > depth:
                depth, reason = deeper, via
        if depth - 1 > best:
            best = depth - 1
            called = name if callee.__name__ == name else f"{name} ({callee.__qualname__})"
            why = f"it calls {called}(), which reads {_levels(depth)} up ({reason})"
    return best, why


def called_names(code: types.CodeType) -> tuple:
    """The global and closure names ``code`` calls: those ``reach`` looks up to find
    the functions it calls (``_through_callees``), so the verdict on a closure rests
    on its code and on what these cells hold (``reach_guards``)."""
    return _scanned(code)[2]


def _levels(depth: int) -> str:
    return "every frame" if depth >= READS_ALL else f"{depth} frames"


def _resolve(fn, name: str, looked_up: dict):
    """The plain function ``name`` means in ``fn`` (a closure cell, else a global), or
    None; a compiled function (``dynamo.compile``) stands for its original."""
    if _namespace(fn, name) is None:
        return None
    value = _lookup(fn, name)
    looked_up[id(fn), name] = (weakref.ref(fn), name, _token(value))
    if getattr(type(value), "__dynamo_compiled__", False):
        value = getattr(value, "_dynamo_fn", None)
    if isinstance(value, types.MethodType):
        value = value.__func__
    return value if isinstance(value, types.FunctionType) else None


def _namespace(fn, name: str):
    """Where ``fn`` finds ``name``: its closure cell, else its globals dict (or None)."""
    code = fn.__code__
    if name in code.co_freevars and fn.__closure__:
        return fn.__closure__[code.co_freevars.index(name)]
    globals_ = getattr(fn, "__globals__", None)
    return globals_ if isinstance(globals_, dict) else None


def _lookup(fn, name: str):
    """What ``name`` means in ``fn`` now (None if unbound or an empty cell)."""
    where = _namespace(fn, name)
    if isinstance(where, dict):
        return where.get(name)
    try:
        return where.cell_contents if where is not None else None
    except ValueError:   # an empty cell
        return None


def _token(value):
    """Stands for ``value`` without keeping it alive where it can be weakly referenced
    (functions, modules...); other values (numbers, None) are held: they cannot be
    functions, and a value that is not a function contributes no reads."""
    try:
        return weakref.ref(value)
    except TypeError:
        return (value,)


def _still(owner_ref, name: str, token) -> bool:
    """The name still means the value the token stands for, in a function still alive."""
    owner = owner_ref()
    if owner is None:
        return False
    value = _lookup(owner, name)
    held = token() if isinstance(token, weakref.ref) else token[0]
    return held is value and (held is not None or not isinstance(token, weakref.ref))


def _scanned(code: types.CodeType) -> tuple[str, int, tuple]:
    hit = _found.get(id(code))
    if hit is not None and hit[0]() is code:
        return hit[1]
    result = scan(code)
    key = id(code)

    def gone(ref, key=key):
        if _found.get(key, (None,))[0] is ref:
            del _found[key]
    _found[key] = (weakref.ref(code, gone), result)
    return result
