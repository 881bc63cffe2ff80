"""The generated dispatcher of a code object's cache entries (see :mod:`dynamo.hook`).

A cached call runs two generated functions and the compiled graph: the wrapper (it
binds the arguments) and the dispatcher, made here, with every entry's guard check
inlined and, for an entry whose whole frame was captured, the entry's glue inlined
too (the statements of :meth:`dynamo.codegen.GlueCodegen.finish`, pasted with their
global names prefixed per entry)::

    def ___dispatch(___fn, self, x, ):
        ___closure = None
        try:
            ___ok = (type(self) is ___e0_c1() and type(x) is ___e0_c2 and
                     x.shape == ___e0_c3 and (x.dtype,) == ___e0_expected)
        except Exception:
            ___ok = False
        if ___ok:
            try:                                    # entry 0's glue, inlined
                ___o0, = ___e0_glue_graph(x)
                self.X.append(x)
                return ___o0
            except ___RerunEagerly:
                pass   # (outside the except: not chained to the program's exception)
            return ___original(___fn, (self, x, ), ___closure, ___cache, ___ctx)
        return ___fallback(___fn, (self, x, ), ___closure, ___cache, ___ctx)

(``___o0 = ___e0_glue_graph(x)``, with no 1-tuple built and unpacked, where the
backend handed over a function returning the graph's one output itself:
``backends.common.tuple_of_one``.) A hit is then one Python frame besides the wrapper
and the graph's own. The glue function stays the entry's ``run`` (a miss runs it,
and so does code that calls an entry itself); the dispatcher only copies its
statements. A compiled graph that is an object choosing among functions (the numpy
backend's ``PerSize``: one variant per input sizes) writes its own call into the glue
(``__dynamo_call_source__``, through ``direct_graph_call``;
``codegen.GlueCodegen.finish``), so that the glue, pasted here or called (a resume
function's), runs the chosen function with no frame of the object's::

    ___o0, = (___e0_glue_graph.variants.get((x.shape, )) or ___e0_glue_graph.miss)(x)

An entry whose frame breaks runs the frame's new code through its runner
(``break_entry.FrameRunner``); the runner writes its own call into the dispatcher too
(``dispatch_lines``: the reentry mark, the call of the new code and the loop over the
resume functions it returns, ``resume.run_break_code``'s), so a breaking hit runs the
frame entry's frame, the dispatcher and the frame's new code, not the runner's
``__call__`` and ``run_break_code`` as well (``boxed_dispatcher`` pastes a resume
function's runner, ``boxed_dispatch_lines``, in the same way)::

    if ___ok:
        try:
            ___e0_codes = ___e0_state.codes
            if ___e0_key in ___e0_codes:
                raise ___RerunEagerly()
            ___e0_codes.add(___e0_key)
            ...
            try:
                ___e0_result = ___e0_plain(x, n, )
                while ___e0_type(___e0_result) is ___e0_Resume:
                    ___e0_result = ___e0_result.run()
                return ___e0_result
            finally:
                ___e0_codes.discard(___e0_key)
                ...

This module imports nothing of the hook: the hook passes in the functions a miss
falls back to.
"""

from __future__ import annotations

import ast
import functools
import io
import itertools
import tokenize
from collections.abc import Callable
from typing import Any

from dynamo.guards.hoisted_reads import held_names
from dynamo.guards.render import builtin_names

from . import pyversion
from .checked_reads import handed_checked_reads, release
from .exc import RerunEagerly
from .source import compile_source

_counter = itertools.count()


class _Warming:
    """The ``___fn`` of the calls that warm a new dispatcher (``warmed``): no call of a
    program passes it, so the dispatcher's first test sends only these calls back."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<dynamo: warming a dispatcher>"


WARMING = _Warming()
# the dispatcher's first lines where CPython quickens code only after some calls: the
# warm-up calls return there, before any guard reads an argument
_WARM_LINES = ["    if ___fn is ___warming:", "        return None"] \
    if pyversion.WARMUP_CALLS else []


def warmed(fn: Callable, n_args: int) -> Callable:
    """``fn``, a new dispatcher, called ``pyversion.WARMUP_CALLS`` times with the
    ``___fn`` that returns at once (its first lines, ``_WARM_LINES``), so that CPython
    3.11 has quickened its code before the program's first call through it: a new
    dispatcher otherwise runs its first 8 calls unspecialized (each attribute, global
    and operator generic) and specializes on the 8th, which made calls 3-10 of a
    small stateful program 1-2 us slower each than later ones (issue #15; the
    warm-up touches no argument and no guard: ``None`` for each). On 3.12+ nothing
    (code is quickened when made).

        >>> fn = warmed(dispatcher(cache, miss, original), len(cache.params))
    """
    for _ in range(pyversion.WARMUP_CALLS):
        fn(WARMING, *(None,) * n_args)
    return fn


def dispatcher(cache, fallback: Callable, original: Callable) -> Callable:
    """``___dispatch(___fn, *flat_args)`` over ``cache.entries`` (see the module doc).

    ``fallback(fn, args, closure, cache, ctx)`` runs when no entry's guards hold (a
    miss, a full cache, a frame that runs eagerly); ``original`` (same arguments) when
    an entry's graph raised and the frame's original code must run instead."""
    flat = "".join(f"{p}, " for p in cache.params)
    exc = builtin_names(cache.params)["Exception"]
    scope: dict[str, Any] = {"___cache": cache, "___ctx": cache.ctx,
                             "___RerunEagerly": RerunEagerly, "___original": original,
                             "___fallback": fallback, "___warming": WARMING}
    lines = [f"def ___dispatch(___fn, {flat}):", *_WARM_LINES,
             "    ___closure = ___fn.__closure__" if cache.has_closure else
             "    ___closure = None"]
    for i, entry in enumerate(cache.entries):
        prefix = f"___e{i}_"
        inline = getattr(entry.check, "inline", None)
        if inline is not None:
            expr, names = inline(prefix, cache.params + ["___closure"], " " * 16)
            scope.update(names)
        else:  # a plain callable check
            scope[f"{prefix}check"] = entry.check
            expr = f"{prefix}check({flat}___closure)"
        handed = handed_reads(entry, expr, prefix) if inline is not None else {}
        pasted = getattr(entry.run, "dispatch_lines", None)   # (break_entry.FrameRunner)
        if getattr(entry.run, "runs_original", False):   # (break_entry.runs_original)
            body = [f"return ___original(___fn, ({flat}), ___closure, ___cache, ___ctx)"]
        elif pasted is not None and not handed:
            body, names = pasted(prefix, flat, cache.has_closure)
            scope.update(names)
        else:
            body = inlined_glue(entry.run, prefix, handed, scope)
        kept: list[str] = []
        if body is not None and pasted is None:
            body, kept = handed_checked_reads(body, expr, prefix)
        if body is None:   # call the entry's run
            scope[f"{prefix}run"] = entry.run
            keywords = "".join(f", {kw}={value}" for kw, value in handed.items())
            body = [f"return {prefix}run({flat}___closure{keywords})"]
        lines += ["    try:",
                  f"        ___ok = ({expr})",
                  f"    except {exc}:",
                  "        ___ok = False",
                  *_dropped(expr, prefix, kept),
                  "    if ___ok:"]
        lines += ["        try:"]
        lines += [f"            {line}" for line in body]
        lines += ["        except ___RerunEagerly:",
                  "            pass   # (outside the except: the program's exception must "
                  "not be chained to it)",
                  *([f"        {release(kept)}"] if kept else []),
                  f"        return ___original(___fn, ({flat}), ___closure, ___cache, ___ctx)"]
        if kept:   # a miss: let go of them before the next entry's check or the fallback
            lines.append(f"    {release(kept)}")
    lines.append(f"    return ___fallback(___fn, ({flat}), ___closure, ___cache, ___ctx)")
    src = "\n".join(lines) + "\n"
    compile_source(src, f"<dynamo dispatch {cache.where} #{next(_counter)}>", scope)
    fn = scope.pop("___dispatch")
    fn.__dynamo_source__ = src
    return warmed(fn, len(cache.params))


def _dropped(expr: str, prefix: str, kept=()) -> list[str]:
    """The line that lets go of what the entry's check read once into names of its own
    (``guards.hoisted_reads``: ``(___e0_s1 := self.cache)``), right after the check,
    hit or miss: the dispatcher's frame would otherwise hold an attribute's old value
    while the entry's glue replaces it (or the original code runs), past the moment a
    plain call drops it (a ``__del__`` or weakref callback would run late). Not
    ``kept``: the glue reads those for the graph's inputs and lets go of them after
    its call (``checked_reads``)."""
    held = [name for name in held_names(expr, prefix) if name not in kept]
    return [f"    {release(held)}"] if held else []


def handed_reads(entry, expr: str, prefix: str) -> dict[str, str]:
    """``{"___a0": "___e0_a0"}``: the values the entry's inlined check ``expr`` computed
    and bound while it passed (``np.asarray(ids)``: ``CheckFunction.bound_reads``) that
    its glue reads too (its ``__dynamo_reads__``), by the glue's name for each, so the
    glue does not compute them again."""
    wanted = getattr(entry.run, "__dynamo_reads__", None) or {}
    bound_reads = getattr(entry.check, "bound_reads", None)
    if not wanted or bound_reads is None:
        return {}
    bound = bound_reads(expr, prefix)
    return {kw: bound[src] for src, kw in wanted.items() if src in bound}


def inlined_glue(run, prefix: str, handed: dict[str, str], scope: dict) -> list[str] | None:
    """The statements of the glue function ``run`` to paste into the dispatcher (at
    the indentation of its body), its globals added to ``scope`` as ``{prefix}glue_*``;
    None when ``run`` is not such a glue (``codegen.GlueCodegen.finish`` marks those
    it makes, ``__dynamo_inline__``) and must be called.

    The glue's parameters are the frame's flat arguments and ``___closure``, which the
    dispatcher has under the same names. Its keyword parameters (``___cells=None``, the
    shared reads ``___a0=None``) become the values the check handed over (the glue's
    name is replaced by the check's), or None."""
    src = getattr(run, "__dynamo_source__", None)
    if src is None or not getattr(run, "__dynamo_inline__", False):
        return None
    renames = {name: f"{prefix}glue_{name.lstrip('_')}" for name in run.__globals__
               if name != "__builtins__"}
    code = run.__code__
    keywords = code.co_varnames[code.co_argcount - len(run.__defaults__ or ()):
                                code.co_argcount]
    renames.update((kw, handed[kw]) for kw in keywords if kw in handed)
    renamed = _renamed(src, renames)
    if renamed is None:
        return None
    body, names = renamed
    scope.update((renames[name], value) for name, value in run.__globals__.items()
                 if name in renames)
    return [f"{kw} = None" for kw in keywords if kw not in handed and kw in names] + body


def direct_graph_call(body: list[str], graph, callee: str, prefix: str,
                      taken: set[str], outs: str = "___out") -> list[str]:
    """``body`` (glue statements) with its call of the compiled graph, ``outs =
    callee(inputs)`` (``outs``: ``___o0, ___o1,`` where the glue unpacks the graph's
    outputs), written as the graph asks (its ``__dynamo_call_source__(callee, args)``:
    the numpy backend's ``PerSize`` picks the variant of the call's sizes
    there, so that no frame of its own runs; ``codegen.GlueCodegen.finish``). Each
    input that is not a plain name is bound to a local first, in order, so the
    expression reads each input once, after all of them were read, as the call did;
    the locals are deleted after the call (a call frame would have dropped them: an
    input the glue then writes over dies there).
    ``taken``: names the locals must avoid (and the one local the expression may
    bind, its third argument: ``PerSize`` reads its one variant into it)."""
    head = f"{outs} = {callee}("
    for row, line in enumerate(body):
        stripped = line.lstrip()
        if not stripped.startswith(head):
            continue
        try:
            call = ast.parse(stripped).body[0].value
        except SyntaxError:   # (the statement goes on past this line)
            return body
        if call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
            return body
        indent = line[:len(line) - len(stripped)]
        binds, args, locals_ = [], [], []
        for i, arg in enumerate(call.args):
            text = ast.get_source_segment(stripped, arg)
            if isinstance(arg, ast.Name):
                args.append(text)
                continue
            local = _free_local(f"{prefix}in{i}", taken)
            binds.append(f"{indent}{local} = {text}")
            args.append(local)
            locals_.append(local)
        expr = graph.__dynamo_call_source__(callee, args,
                                            _free_local(f"{prefix}only", taken | set(locals_)))
        unbind = [f"{indent}del {', '.join(locals_)}"] if locals_ else []
        return body[:row] + binds + [f"{indent}{outs} = {expr}"] + unbind + body[row + 1:]
    return body


def _free_local(name: str, taken: set[str]) -> str:
    """``name``, or ``name_``, ``name__``...: the first not in ``taken``."""
    while name in taken:
        name += "_"
    return name


def _renamed(src: str, renames: dict[str, str]) -> tuple[list[str], set[str]] | None:
    """The body of the function whose source is ``src`` (one ``def`` line, then its
    statements), dedented by one level, with every name in ``renames`` replaced (names
    only, as the tokenizer sees them: never inside a string), and the names the body
    reads or binds. None if a string spans lines (its text would change with the
    indentation)."""
    names = _names(src)
    if names is None:
        return None
    lines = src.splitlines()
    edits: dict[int, list] = {}
    for row, start, end, name in names:
        if name in renames:
            edits.setdefault(row, []).append((start, end, name))
    for row, spans in edits.items():
        line = lines[row]
        for start, end, name in sorted(spans, reverse=True):
            line = line[:start] + renames[name] + line[end:]
        lines[row] = line
    if not lines[0].startswith("def ") or any(line and not line.startswith("    ")
                                              for line in lines[1:]):
        return None
    return [line[4:] for line in lines[1:] if line.strip()], {n[3] for n in names}


@functools.lru_cache(maxsize=256)
def _names(src: str) -> tuple | None:
    """``(row, start, end, name)`` of every name in the body of ``src`` (rows from 0,
    the ``def`` line left out), or None if a string spans lines. Kept for the sources
    seen last: a dispatcher is generated again, over the same glue, at each new entry."""
    names = []
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type == tokenize.STRING and tok.start[0] != tok.end[0]:
            return None
        if tok.type == tokenize.NAME and tok.start[0] > 1:
            names.append((tok.start[0] - 1, tok.start[1], tok.end[1], tok.string))
    return tuple(names)


def boxed_dispatcher(cache, fallback: Callable, original: Callable) -> Callable:
    """``___dispatch(___fn, ___box)`` over the cache's entries, for calls that hand
    their arguments over in a list (``hook.run_boxed``). Like ``dispatcher``, but it binds
    the arguments from ``___box`` to check the guards and unbinds them before it
    passes the list on (an entry, ``miss_boxed``): it holds none of them while the
    code it calls runs::

        def ___dispatch(___fn, ___box):
            ___closure = ___fn.__closure__
            x, y, = ___box
            try:
                ___ok = (type(x) is ___e0_c1 and ...)
            except Exception:
                ___ok = False
            if ___ok:
                del x, y
                try:
                    return ___e0_run(___box, ___closure)
                except ___RerunEagerly as ___r:
                    ___box[:] = ___r.values
                return ___original(___fn, ___box, ___closure, ___cache, ___ctx)
            del x, y
            return ___fallback(___fn, ___box, ___closure, ___cache, ___ctx)
    """
    params = cache.params
    flat = "".join(f"{p}, " for p in params)
    unbind = [f"del {flat[:-2]}"] if params else []
    exc = builtin_names(params)["Exception"]
    scope: dict[str, Any] = {"___cache": cache, "___ctx": cache.ctx,
                             "___RerunEagerly": RerunEagerly,
                             "___original": original, "___fallback": fallback,
                             "___warming": WARMING}
    lines = ["def ___dispatch(___fn, ___box):", *_WARM_LINES,
             "    ___closure = ___fn.__closure__" if cache.has_closure else
             "    ___closure = None",
             f"    {flat or '()'} = ___box"]
    for i, entry in enumerate(cache.entries):
        inline = getattr(entry.check, "inline", None)
        if inline is not None:
            expr, names = inline(f"___e{i}_", params + ["___closure"], " " * 16)
            scope.update(names)
        else:  # a plain callable check
            scope[f"___e{i}_check"] = entry.check
            expr = f"___e{i}_check({flat}___closure)"
        pasted = getattr(entry.run, "boxed_dispatch_lines", None)  # (BoxedFrameRunner)
        if pasted is not None:
            body, names = pasted(f"___e{i}_", cache.has_closure)
            scope.update(names)
        else:
            scope[f"___e{i}_run"] = entry.run
            body = [f"return ___e{i}_run(___box, ___closure)"]
        lines += ["    try:",
                  f"        ___ok = ({expr})",
                  f"    except {exc}:",
                  "        ___ok = False",
                  *_dropped(expr, f"___e{i}_"),
                  "    if ___ok:"]
        lines += [f"        {line}" for line in unbind]
        lines += ["        try:",
                  *(f"            {line}" for line in body),
                  "        except ___RerunEagerly as ___r:",
                  "            ___box[:] = ___r.values   # (the entry emptied it)",
                  "        return ___original(___fn, ___box, ___closure, ___cache, ___ctx)"]
    lines += [f"    {line}" for line in unbind]
    lines.append("    return ___fallback(___fn, ___box, ___closure, ___cache, ___ctx)")
    src = "\n".join(lines) + "\n"
    compile_source(src, f"<dynamo dispatch {cache.where} #{next(_counter)}>", scope)
    fn = scope.pop("___dispatch")
    fn.__dynamo_source__ = src
    return warmed(fn, 1)
