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
of its scope, and reach long-lived owners weakly (``break_calls._weak_hooks``).

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

import ast
import itertools
import linecache
import re
import sys
import types
import weakref
from dataclasses import dataclass

from . import pyversion
from .code_keyed import CodeSet
from .interrupt_locks import new_lock, under_lock

# reentrant: a garbage collection inside compile_source may run a finalizer of ours;
# held through ``under_lock``, never ``with``: on 3.14 an interrupt right after
# ``with``'s ``__enter__`` left it held and every later compile hung (issue #17)
_lock = new_lock()
_counter = itertools.count(1)
# filename -> the linecache entry registered for it (to drop only our own entry)
_registered: dict[str, tuple] = {}


def compile_source(src: str, filename: str, scope: dict, user_lines: bool = False,
                   defined: dict | None = None) -> str:
    """Compile ``src`` and run it in ``scope`` (its globals); return the filename used.

    The text is registered with ``linecache`` under ``filename`` (with ``#n`` added if
    that name is already taken) until every code object it defines is gone. The caller
    takes what the text defined out of ``scope`` (``scope.pop(name)``: a function left in
    its own globals is a reference cycle, freed only by the garbage collector). With
    ``defined``, the text's top-level names go there instead and ``scope`` is only
    read: for a scope that code running in other threads uses at that moment (two
    threads defining the same name in it would each pop the other's).

    ``user_lines``: the text is a graph's printout, whose ``# file:line`` comments say
    where the program wrote the statements below them (``Graph.python_code``); its code
    gets the program's file and lines (see ``_at_user_lines``).
    """
    name, entry = under_lock(_lock, _register, filename, src)
    try:
        module = _at_user_lines(src, name, scope) if user_lines else None
        if module is not None:
            _warn_as_module(module.co_filename, scope)
        else:
            module = compile(src, name, "exec")
    except BaseException:
        _release(name, entry)
        raise
    _release_when_dead(module, name, entry)
    exec(module, scope, defined)
    return name


# a location comment of a graph's printout: "# /path/to/app.py:12", or for an op of a
# function inlined from another file "# /path/helpers.py:5 (called at /path/app.py:12)"
_LOCATION = re.compile(r"^\s*# (.+?):(\d+)(?: \(called at (.+):(\d+)\))?$")

# the simple statements a run of another file's lines may be made of (see _split_off)
_SIMPLE = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr)


@dataclass
class _Located:
    """Where the program wrote one line of a graph's printout."""

    file: str
    line: int
    site: tuple[str, int] | None   # the compiled function's call into ``file``


def _at_user_lines(src: str, name: str, scope: dict) -> types.CodeType | None:
    """``src`` compiled as if it were the program's own lines: its code's filename is
    the program's file and each statement has the line of the program it came from.

    So what CPython reports for the frame of generated code is the user's place, as
    eager reports it: a NumPy ``RuntimeWarning`` (``np.log(0)``), a
    ``DeprecationWarning`` or any other warning issued by an op with stack level 1,
    and tracebacks through the graph (which then show the program's source line).

    One code object has one filename. When the graph holds ops of functions inlined
    from other files, the code gets the compiled function's file, and the ops of
    another file are at their call site in it (``called at`` in the comments); each
    run of such ops that are plain statements of the function's body is also split off
    into a function of its own compiled with that file and its lines (``_split_off``),
    so a warning or a traceback there names the helper's file and line, under the
    call site's line, as in eager. ``None`` (compile it as it is) when the comments
    name no file.
    """
    where: dict[int, _Located] = {}   # source line -> where the program wrote it
    current, depth = None, 0     # a comment covers the lines after it, down to its indent
    for i, text in enumerate(src.splitlines(), 1):
        indent = len(text) - len(text.lstrip())
        m = _LOCATION.match(text)
        if m:
            site = (m.group(3), int(m.group(4))) if m.group(3) else None
            current, depth = _Located(m.group(1), int(m.group(2)), site), indent
        elif current is not None and text.strip() and indent >= depth:
            where[i] = current
        elif text.strip():
            current = None
    if not where:
        return None
    sites = [loc.site[0] for loc in where.values() if loc.site is not None]
    files = {loc.file for loc in where.values()}
    primary = sites[0] if sites else next(iter(where.values())).file
    if files - {primary}:
        src, where = _split_off(src, name, where, primary, scope)

    if any(loc.file != primary and (loc.site is None or loc.site[0] != primary)
           for loc in where.values()):
        return None   # a line of another file with no call site: no line is right

    def line_of(line):
        loc = where.get(line)
        if loc is None:
            return None
        return loc.line if loc.file == primary else loc.site[1]
    # a line no comment covers (a def, an except clause): the first located line
    first = line_of(min(where))
    return _relocated(compile(src, name, "exec"), primary,
                      lambda line: line_of(line) or first)


def _split_off(src: str, name: str, where: dict, primary: str, scope: dict):
    """Move each run of consecutive plain statements (assignments, expressions) of a
    top-level function's body that all come from one other file into a function of
    its own, compiled with that file and its lines and put in ``scope``: the run
    becomes ``outs, = ___in_<file>_<n>(ins)``. Returns the new source and the
    locations of its lines (the call's line is the run's call site)."""
    lines = src.splitlines()
    tree = ast.parse(src)
    runs = []
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        local = {a.arg for a in fn.args.args} | {
            n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and
            isinstance(n.ctx, ast.Store)}
        run, file = [], None
        for stmt in [*fn.body, None]:
            at = None if stmt is None else _one_file(stmt, where)
            if run and (at is None or at != file or not isinstance(stmt, _SIMPLE)):
                runs.append((run, local))
                run = []
            if stmt is not None and at is not None and at != primary and \
                    isinstance(stmt, _SIMPLE):
                run.append(stmt)
                file = at
    if not runs:
        return src, where
    new_lines, new_where, skip_to = [], {}, 0
    by_start = {run[0].lineno: (run, local) for run, local in runs}
    for i, text in enumerate(lines, 1):
        if i <= skip_to:
            continue
        if i in by_start:
            run, local = by_start[i]
            call = _compile_run(run, local, lines, where, name, scope)
            indent = text[:len(text) - len(text.lstrip())]
            new_lines.append(indent + call)
            loc = where[run[0].lineno]
            new_where[len(new_lines)] = _Located(loc.site[0], loc.site[1], None) \
                if loc.site is not None else loc
            skip_to = run[-1].end_lineno
            continue
        new_lines.append(text)
        if i in where:
            new_where[len(new_lines)] = where[i]
    return "\n".join(new_lines) + "\n", new_where


def _one_file(stmt: ast.stmt, where: dict) -> str | None:
    """The file all located lines of ``stmt`` come from, or None (several, or none)."""
    files = {where[i].file for i in range(stmt.lineno, stmt.end_lineno + 1) if i in where}
    return files.pop() if len(files) == 1 else None


def _compile_run(run: list, local: set, lines: list, where: dict, name: str,
                 scope: dict) -> str:
    """Compile the statements ``run`` (of one other file) as a function of their own
    that takes the locals they read and returns the locals they write; put it in
    ``scope`` and return the statement that calls it."""
    ins, outs = [], []
    for stmt in run:
        loads = [n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and
                 (isinstance(n.ctx, ast.Load) or isinstance(stmt, ast.AugAssign))]
        # (dict.fromkeys: a name may be read several times in one statement)
        ins += [n for n in dict.fromkeys(loads) if n in local and n not in outs and n not in ins]
        outs += [n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and
                 isinstance(n.ctx, ast.Store) and n.id not in outs]
    file = where[run[0].lineno].file
    helper = f"___in_{_identifier(file)}_{next(_counter)}"
    body, origin = [f"def {helper}({', '.join(ins)}):"], {}
    for stmt in run:
        text = lines[stmt.lineno - 1:stmt.end_lineno]
        cut = len(text[0]) - len(text[0].lstrip())
        for k, piece in enumerate(text):
            body.append("    " + piece[cut:])
            origin[len(body)] = where[stmt.lineno + k].line if stmt.lineno + k in where \
                else where[stmt.lineno].line
    body.append(f"    return ({''.join(f'{n}, ' for n in outs)})")
    first = origin[2]
    code = _relocated(compile("\n".join(body) + "\n", name, "exec"), file,
                      lambda line: origin.get(line, first))
    helper_scope = dict(scope)   # the graph's names; warnings as the helper's module
    _warn_as_module(file, helper_scope)
    exec(code, helper_scope)
    scope[helper] = helper_scope.pop(helper)
    targets = "".join(f"{n}, " for n in outs)
    return f"{targets}= {helper}({', '.join(ins)})" if outs else f"{helper}({', '.join(ins)})"


def _identifier(path: str) -> str:
    stem = re.sub(r"\W", "_", path.rsplit("/", 1)[-1].rsplit(".", 1)[0])
    return stem if stem.isidentifier() else "file"


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


# code compiled by dynamo that carries the program's filename (see is_generated); by
# identity (a WeakSet loses an equal code's membership when the first one dies)
_at_program_lines = CodeSet()


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


def _register(filename: str, src: str) -> tuple[str, tuple]:
    """(name, entry): ``src`` registered with ``linecache`` under ``filename``, or
    ``filename #n`` if that is taken (under ``_lock``)."""
    name = filename
    while name in linecache.cache:
        name = f"{filename} #{next(_counter)}"
    entry = (len(src), None, src.splitlines(True), name)
    linecache.cache[name] = entry
    _registered[name] = entry
    return name, entry


def _release(name: str, entry: tuple) -> None:
    """Drop ``name``'s lines if they are still the ones registered for ``entry``."""
    under_lock(_lock, _drop, name, entry)


def _drop(name: str, entry: tuple) -> None:
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
        if under_lock(_lock, _count_down, alive):
            _release(name, entry)

    for code in codes:
        weakref.finalize(code, one_gone)


def _count_down(alive: list) -> bool:
    """One code fewer alive (under ``_lock``); whether it was the last."""
    alive[0] -= 1
    return alive[0] == 0


def _nested_codes(code: types.CodeType):
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield const
            yield from _nested_codes(const)
