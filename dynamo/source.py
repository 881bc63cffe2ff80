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
import re
import sys
import threading
import types
import weakref

from . import pyversion

# reentrant: a garbage collection inside compile_source may run a finalizer of ours
_lock = threading.RLock()
_counter = itertools.count(1)
# filename -> the linecache entry registered for it (to drop only our own entry)
_registered: dict[str, tuple] = {}


def compile_source(src: str, filename: str, scope: dict, user_lines: bool = False) -> str:
    """Compile ``src`` and run it in ``scope`` (its globals); return the filename used.

    The text is registered with ``linecache`` under ``filename`` (with ``#n`` added if
    that name is already taken) until every code object it defines is gone. The caller
    takes what the text defined out of ``scope`` (``scope.pop(name)``: a function left in
    its own globals is a reference cycle, freed only by the garbage collector).

    ``user_lines``: the text is a graph's printout, whose ``# file:line`` comments say
    where the program wrote the statements below them (``Graph.python_code``); its code
    gets the program's file and lines (see ``_at_user_lines``).
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
        module = _at_user_lines(src, name) if user_lines else None
        if module is not None:
            _warn_as_module(module.co_filename, scope)
        else:
            module = compile(src, name, "exec")
    except BaseException:
        _release(name, entry)
        raise
    _release_when_dead(module, name, entry)
    exec(module, scope)
    return name


# a location comment of a graph's printout: "# /path/to/app.py:12"
_LOCATION = re.compile(r"^\s*# (.+):(\d+)$")


def _at_user_lines(src: str, name: str) -> types.CodeType | None:
    """``src`` compiled as if it were the program's own lines: its code's filename is
    the program's file and each statement has the line of the program it came from.

    So what CPython reports for the frame of generated code is the user's place, as
    eager reports it: a NumPy ``RuntimeWarning`` (``np.log(0)``), a
    ``DeprecationWarning`` or any other warning issued by an op with stack level 1,
    and tracebacks through the graph (which then show the program's source line).
    ``None`` (compile it as it is) when the comments name no file, or several: one
    code object has one filename, and a line of the wrong file would mislead more
    than the generated name does.
    """
    where: dict[int, int] = {}   # source line -> the program's line
    files = set()
    current, depth = None, 0     # a comment covers the lines after it, down to its indent
    for i, text in enumerate(src.splitlines(), 1):
        indent = len(text) - len(text.lstrip())
        m = _LOCATION.match(text)
        if m:
            current, depth = (m.group(1), int(m.group(2))), indent
        elif current is not None and text.strip() and indent >= depth:
            files.add(current[0])
            where[i] = current[1]
        elif text.strip():
            current = None
    if len(files) != 1:
        return None
    # a line no comment covers (a def, an except clause): the first located line
    first = next(iter(where.values()))
    return _relocated(compile(src, name, "exec"), files.pop(),
                      lambda line: where.get(line, first))


def _relocated(code: types.CodeType, filename: str, line_of) -> types.CodeType:
    """``code`` and the code objects in it with ``filename`` and each instruction's
    line ``line_of(its line)``. The new line table has no columns (the program's
    columns are not the generated text's)."""
    consts = tuple(_relocated(c, filename, line_of) if isinstance(c, types.CodeType) else c
                   for c in code.co_consts)
    first = line_of(code.co_firstlineno)
    units = [(end - start) // 2 for start, end, _ in code.co_lines()]
    lines = [None if line is None else line_of(line) for _, _, line in code.co_lines()]
    new = code.replace(co_filename=filename, co_firstlineno=first, co_consts=consts,
                       co_linetable=_line_table(units, lines, first))
    _at_program_lines.add(new)
    return new


# code compiled by dynamo that carries the program's filename (see is_generated)
_at_program_lines: weakref.WeakSet = weakref.WeakSet()


def is_generated(code: types.CodeType) -> bool:
    """Whether ``code`` is generated code that carries the program's file and lines
    (a graph's): tools that look for the program's own frames by filename (the
    annotate report's line recorder) tell it apart with this."""
    return code in _at_program_lines


def _line_table(units: list[int], lines: list, first: int) -> bytes:
    """A line table (CPython 3.11+, ``Objects/locations.md``) giving ``lines[k]`` to the
    next ``units[k]`` code units; entries of "no columns" (code 13) or "no location"
    (code 15) kind, each for at most 8 code units."""
    out, previous = bytearray(), first
    for n, line in zip(units, lines):
        while n > 0:
            k = min(n, 8)
            n -= k
            if line is None:
                out.append(0x80 | (pyversion.LOCATION_NONE << 3) | (k - 1))
                continue
            out.append(0x80 | (pyversion.LOCATION_NO_COLUMNS << 3) | (k - 1))
            delta = line - previous
            previous = line
            value = ((-delta) << 1) | 1 if delta < 0 else delta << 1   # signed varint
            while value >= 64:
                out.append(0x40 | (value & 63))
                value >>= 6
            out.append(value)
    return bytes(out)


# program file -> the name of the module loaded from it
_module_of_file: dict[str, str | None] = {}
# program file -> the warning registry of generated code when no module has that file
_file_registries: dict[str, dict] = {}


def _warn_as_module(filename: str, scope: dict) -> None:
    """Generated code at the program's lines warns as the program's module does.

    CPython takes a warning's module (for ``filterwarnings(module=...)``) from the
    frame's ``__name__`` and remembers what it has shown (the ``default``, ``module``
    and ``once`` actions show a warning once per place) in the frame's
    ``__warningregistry__``: so the generated code gets the program module's name and
    shares its registry, and a warning shown by the program's own code, by one graph
    or by another graph of the same lines (a loop's first trip and its loop node) is
    shown once, as in plain Python.
    """
    module = sys.modules.get(_module_of_file.get(filename) or "")
    if module is None or getattr(module, "__file__", None) != filename:
        # (a compile-time scan; a file no module has yet is looked for again next time)
        module = next((mod for mod in list(sys.modules.values())
                       if getattr(mod, "__file__", None) == filename), None)
        _module_of_file[filename] = getattr(module, "__name__", None)
    if module is not None:
        scope.setdefault("__name__", module.__name__)
        scope["__warningregistry__"] = vars(module).setdefault("__warningregistry__", {})
    else:
        scope["__warningregistry__"] = _file_registries.setdefault(filename, {})


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
