"""Guards in words, with the values they expect: what the ``guards`` log and
``dynamo.explain`` print for each cache entry, in the program's names.

The generated check (``guards.check``) reads ``x.shape == ___c3`` and names the frame's
values as its own parameters (``______stack0`` for a value a graph break hands over);
a person wants the fact and the value::

    >>> print("\\n".join(guard_lines(check.guards, f.__code__)))
    helper (global) is <function helper at 0x7f...>
    n == 3
    type(x) is numpy.ndarray
    x.shape == (3,)
    x.dtype == float64

A value carried over a break is named by the break, as ``code_name`` names the resume
function: ``the value carried over the break at line 6``. The names of generated code
(``___G['w']``, ``___closure[0].cell_contents``, ``______stack1``) never show: a
relation between sizes, kept as generated code's text, is put back in these words too
(``readable_expr``).
"""

from __future__ import annotations

import re
import types

from dynamo.guards import (
    ARRAY,
    CONSTANT,
    DICT_KEYS,
    EXPR,
    ID,
    LENGTH,
    NOT_PRESENT,
    TYPE,
    AsArraySource,
    AttrSource,
    BuiltinSource,
    CellSource,
    ClosureSource,
    FormSource,
    GlobalSource,
    Guard,
    ItemSource,
    LocalSource,
    ModuleAttrSource,
    PassedCellSource,
    ShapeSource,
    Source,
)
from dynamo.guards.shown import class_name as _class_name
from dynamo.guards.shown import shown as _shown

from .bytecode.instructions import code_name
from .bytecode.signature import Params

_STACK = "___stack"     # a resume function's parameters (guards.sources.STACK_PARAM)


def guard_lines(guards: list[Guard], code: types.CodeType | None = None) -> list[str]:
    """One line per fact, the expected value inline (see the module's docstring).
    ``code``: the entry's code, which names the values a break carried over and the
    free variables."""
    names = _Names(code)
    out: list[str] = []
    for g in guards:
        for line in _lines(g, names):
            if line not in out:   # (two guards of one fact: said once)
                out.append(line)
    return out


def entry_text(code: types.CodeType, guards: list[Guard]) -> str:
    """The ``guards`` log's record of one cache entry: its guards in words::

        guards of f (x, n):
          type(x) is numpy.ndarray
          x.shape == (3,)
          n == 3
    """
    names = _Names(code)
    params = [names.local(p) for p in Params.of(code).frame_order if not is_carried(p)]
    head = f"guards of {code_name(code)}" + (f" ({', '.join(params)})" if params else "")
    lines = guard_lines(guards, code) or ["(none: every call fits)"]
    return f"{head}:\n" + "\n".join(f"  {line}" for line in lines)


def readable(source: Source, code: types.CodeType | None = None) -> str:
    """``source`` as the program names it: ``x``, ``self.w.shape[0]``, ``helper
    (global)``, ``the value carried over the break at line 6``."""
    return _Names(code).of(source)


class _Names:
    """The program's names of sources and of generated code's names, for one entry."""

    def __init__(self, code: types.CodeType | None):
        self.code = code
        params = code.co_varnames[:code.co_argcount] if code is not None else ()
        self.carried = sum(1 for p in params if _stack_index(p) is not None)
        name = code_name(code) if code is not None else ""
        self.at = name.rsplit(", after ", 1)[1] if ", after " in name else "the graph break"

    def of(self, source: Source) -> str:
        path, tag = self._path(source)
        return f"{path} ({tag})" if tag else path

    def carried_value(self, index: int) -> str:
        if self.carried <= 1:
            return f"the value carried over {self.at}"
        return f"value {index + 1} of the {self.carried} carried over {self.at}"

    def local(self, local: str) -> str:
        index = _stack_index(local)
        if index is not None:
            return self.carried_value(index)
        if local.startswith(".") and local[1:].isdigit():
            return "the comprehension's iterable"
        return local

    def _path(self, s: Source) -> tuple[str, str]:
        """(the path, a tag saying where its root lives: global, free variable)."""
        if isinstance(s, LocalSource):
            return self.local(s.local), ""
        if isinstance(s, PassedCellSource):
            return self.local(s.local), ""
        if isinstance(s, GlobalSource):
            return (s.global_name, "global") if s.module is None else \
                (f"{s.module}.{s.global_name}", "")
        if isinstance(s, BuiltinSource):
            return f"builtins.{s.builtin}", ""
        if isinstance(s, ClosureSource):
            return s.var, "free variable"
        if isinstance(s, ModuleAttrSource):
            return s.name(), ""
        base = getattr(s, "base", None)
        if base is None:
            return s.name(), ""
        words, tag = self._path(base)
        # (the value carried over ...).w; type(the value carried over ...) needs none
        path = f"({words})" if words.startswith(("the ", "value ")) else words
        if isinstance(s, AttrSource):
            return f"{path}.{s.attr}", tag
        if isinstance(s, ItemSource):      # (and StoredItemSource)
            return f"{path}[{s.key!r}]", tag
        if isinstance(s, CellSource):
            return f"{path}.__closure__[{s.index}].cell_contents", tag
        if isinstance(s, ShapeSource):
            return f"{path}.shape[{s.dim}]", tag
        if isinstance(s, FormSource):
            return s.form.format(path), tag
        if isinstance(s, AsArraySource):
            return f"np.asarray({path})", tag
        # a source of another package (``type(base)``, say): its own text around the
        # base's words in place of the base's name
        return s.name().replace(base.name(), words, 1), tag


def is_carried(local: str) -> bool:
    """Whether ``local`` is a resume function's parameter for a value a break carried
    over (not a name of the program's)."""
    return _stack_index(local) is not None


_CARRIED = re.compile(r"<value (\d+) carried over the graph break>")
# ``Source.name``'s roots: L['x'] (a local), G['w'] (a global), closure['k'] (not after
# a ``.``, a name or a bracket: ``o.L['x']`` is an attribute's item)
_ROOT = re.compile(r"(?<![\w.\])])(?:L|G|closure)\[('(?:[^'\\]|\\.)*')\]")


def carried_in_words(text: str, code: types.CodeType | None) -> str:
    """``text`` (a guard's failure, in ``Source.name`` terms) with each value a break
    carried over named by the break, as ``guard_lines`` names it, and the frame's own
    locals, globals and free variables by their names::

        >>> carried_in_words("<value 0 carried over the graph break>: expected True, "
        ...                  "got False", resume_code_of_line_6)
        'the value carried over the break at line 6: expected True, got False'
        >>> carried_in_words("L['x'] dtype: expected float64, got float32", None)
        'x dtype: expected float64, got float32'
    """
    names = _Names(code)
    text = _CARRIED.sub(lambda m: names.carried_value(int(m.group(1))), text)
    return _ROOT.sub(lambda m: eval(m.group(1)), text)  # noqa: S307 (a str literal)


def _stack_index(local: str) -> int | None:
    rest = local[len(_STACK):] if local.startswith(_STACK) else ""
    return int(rest) if rest.isdigit() else None


def _lines(g: Guard, names: _Names) -> list[str]:
    if g.kind == EXPR:
        return [_readable_expr(g.expected, _sources_of(g), names) +
                (f"  ({g.note})" if g.note else "")]
    if g.kind == NOT_PRESENT:
        return [g.describe()]
    if g.kind == ID and isinstance(g.source, BuiltinSource | ModuleAttrSource):
        return [" ".join(g.describe().split())]   # ``print is the builtin print``
    path, tag = names._path(g.source)
    if tag and g.kind in (ID, CONSTANT) and getattr(g.source, "base", None) is None:
        path, tag = f"{path} ({tag})", ""      # ``helper (global) is <function ...>``
    # a name in words is read through in parentheses: ``(the value carried ...).shape``
    who = f"({path})" if " " in path else path
    if g.kind == ARRAY:
        lines = _array_lines(path, who, g.expected)
    elif g.kind == TYPE:
        lines = [f"type({path}) is {_class_name(g.expected)}"]
    elif g.kind == ID:
        lines = [f"{path} is {_shown(g.expected)}"]
    elif g.kind == LENGTH:
        lines = [f"len({path}) == {g.expected}"]
    elif g.kind == DICT_KEYS:
        lines = [f"list({path}) == {list(g.expected)!r}"]
    elif g.kind == CONSTANT:
        lines = [f"{path} == {_shown(g.expected)}"]
    else:
        lines = [g.describe()]
    if tag:   # where the root lives, once per line: ``type(w) is ...  (w: a global)``
        root = names._path(g.source.root())[0]
        lines = [f"{line}  ({root}: a {tag})" for line in lines]
    return lines


def _array_lines(path: str, who: str, spec) -> list[str]:
    out = [f"type({path}) is {_class_name(spec.cls)}"]
    if None in spec.shape:
        out.append(f"{who}.ndim == {len(spec.shape)}")
        out += [f"{who}.shape[{i}] == {d}" for i, d in enumerate(spec.shape) if d is not None]
    else:
        out.append(f"{who}.shape == {tuple(spec.shape)!r}")
    out.append(f"{who}.dtype == {spec.dtype}")
    if spec.strides is not None:
        out.append(f"{who}.strides == {tuple(spec.strides)!r}")
    if spec.contiguity is not None:
        c, f = spec.contiguity
        out.append(f"{who}.flags.c_contiguous is {bool(c)}, f_contiguous is {bool(f)}")
    if spec.writeable is not None:
        out.append(f"{who}.flags.writeable is {bool(spec.writeable)}")
    if spec.device is not None:
        out.append(f"{who}.device.id == {spec.device}")
    return out


def _sources_of(g: Guard) -> list[Source]:
    out, s = [], g.source
    while s is not None:
        out.append(s)
        s = getattr(s, "base", None)
    return out


# how generated code spells what ``_Names`` names (sources' ``expr``, ``param_name``)
_GLOBAL = re.compile(r"___G\[('(?:[^'\\]|\\.)*')\]")
_MODULE_ATTR = re.compile(r"___modules\['([\w.]+)'\]\.__dict__\['(\w+)'\]")
_ASARRAY = re.compile(r"___modules\['numpy'\]\.asarray\(")
_CLOSURE = re.compile(r"___closure\[(\d+)\]\.cell_contents")
_BUILTIN = re.compile(r"___builtins\.(\w+)")
_PARAM = re.compile(r"\b___(\w+)")


def readable_expr(text: str, code: types.CodeType | None = None,
                  sources: list[Source] = ()) -> str:
    """Generated code's ``text`` (a guard's expression, over the parameters of
    ``code``'s check) in the program's names: each of ``sources`` by its name, then
    what is left of generated code's spelling::

        >>> readable_expr("______stack0.shape[0] == ___G['n']", resume_code_of_line_9)
        '(the value carried over the break at line 9).shape[0] == n'
    """
    return _readable_expr(text, list(sources), _Names(code))


def _readable_expr(text: str, sources: list[Source], names: _Names) -> str:
    for s in sorted(sources, key=lambda s: -len(s.expr())):
        expr = s.expr()
        if "___" in expr and expr in text:
            text = text.replace(expr, names._path(s)[0])   # (a read: no tag)
    text = _MODULE_ATTR.sub(r"\1.\2", text)
    text = _ASARRAY.sub("np.asarray(", text)
    text = _GLOBAL.sub(lambda m: eval(m.group(1)), text)  # noqa: S307 (a str literal)
    text = _CLOSURE.sub(lambda m: _free_var(names.code, int(m.group(1))), text)
    text = _BUILTIN.sub(r"\1", text)
    return _PARAM.sub(lambda m: _param_local(m.group(1), names), text)


def _free_var(code: types.CodeType | None, index: int) -> str:
    if code is not None and index < len(code.co_freevars):
        return code.co_freevars[index]
    return "a free variable"


def _param_local(rest: str, names: _Names) -> str:
    """The local a generated parameter ``___<rest>`` stands for (``param_name``)."""
    if rest.startswith(_STACK) and rest[len(_STACK):].isdigit():
        return f"({names.carried_value(int(rest[len(_STACK):]))})"
    if rest.startswith("dot") and rest[3:].isdigit():
        return "(the comprehension's iterable)"
    return rest.lstrip("_") or rest
