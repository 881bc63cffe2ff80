"""Running generated Python source: one place that compiles it and keeps its lines.

Every piece of generated code (glue, dispatchers, wrappers, backend graph functions)
goes through :func:`compile_source`, which compiles the text, runs it in a scope, and
registers it with :mod:`linecache` so that tracebacks through generated code show
its lines. The registration lives exactly as long as the code: when the last code
object compiled from the text is gone (no function, frame or traceback holds it),
its ``linecache`` entry is dropped. So ``linecache`` holds one entry per generated
source that is still alive (the bound: what the caches hold, ``cache_size_limit``
entries per code object and context), however many functions are compiled and
dropped; ``dynamo.reset()`` drops the entries, and their sources go with them.

Generated code must not be part of a reference cycle through a code object (a
function in the scope of code that its own constants reach): code objects are not
seen by the garbage collector, so such a cycle is never freed. Pop the function out
of its scope, and reach long-lived owners weakly (``convert._weak_hooks``).

Example::

    >>> scope = {"k": 2}
    >>> compile_source("def f(x):\\n    return x * k\\n", "<dynamo example>", scope)
    '<dynamo example>'
    >>> f = scope.pop("f")
    >>> linecache.getline("<dynamo example>", 2)
    '    return x * k\\n'
    >>> del f                                          # the code is gone...
    >>> "<dynamo example>" in linecache.cache          # ...and so are its lines
    False
"""

from __future__ import annotations

import itertools
import linecache
import threading
import types
import weakref

# reentrant: a garbage collection inside compile_source may run a finalizer of ours
_lock = threading.RLock()
_counter = itertools.count(1)
# filename -> the linecache entry registered for it (to drop only our own entry)
_registered: dict[str, tuple] = {}


def compile_source(src: str, filename: str, scope: dict) -> str:
    """Compile ``src`` and run it in ``scope`` (its globals); return the filename used.

    The text is registered with ``linecache`` under ``filename`` (with ``#n`` added if
    that name is already taken) until every code object it defines is gone. The caller
    takes what the text defined out of ``scope`` (``scope.pop(name)``: a function left in
    its own globals is a reference cycle, freed only by the garbage collector).
    """
    lines = src.splitlines(True)
    with _lock:
        name = filename
        while name in linecache.cache:
            name = f"{filename} #{next(_counter)}"
        entry = (len(src), None, lines, name)
        linecache.cache[name] = entry
        _registered[name] = entry
    try:
        module = compile(src, name, "exec")
    except BaseException:
        _release(name, entry)
        raise
    _release_when_dead(module, name, entry)
    exec(module, scope)
    return name


def registered_count() -> int:
    """How many generated sources are registered with ``linecache`` now."""
    return len(_registered)


def _release(name: str, entry: tuple) -> None:
    """Drop ``name``'s lines if they are still the ones registered for ``entry``."""
    with _lock:
        if _registered.get(name) is entry:
            del _registered[name]
        if linecache.cache.get(name) is entry:
            del linecache.cache[name]


def _release_when_dead(module: types.CodeType, name: str, entry: tuple) -> None:
    """Release ``entry`` when the last code object defined by ``module`` dies.

    The module's own code runs once (``exec``) and is dropped; what stays alive is the
    code of the functions it defines, held by those functions and by any frame or
    traceback running them.
    """
    codes = list(_nested_codes(module))
    if not codes:       # nothing outlives the exec: the lines are not needed after it
        weakref.finalize(module, _release, name, entry)
        return
    alive = [len(codes)]

    def one_gone() -> None:
        with _lock:
            alive[0] -= 1
            last = alive[0] == 0
        if last:
            _release(name, entry)

    for code in codes:
        weakref.finalize(code, one_gone)


def _nested_codes(code: types.CodeType):
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield const
            yield from _nested_codes(const)
