"""A check's repeated attribute and item reads, each read once and then by a name.

A rendered check (``render.render``) is a chain of parts joined by ``and``; the same
read often recurs in several parts (a stateful method's ``self.cache`` is typed,
tested against the globals, asked for a key, and read through for an item)::

    type(self.cache) is ___c5 and
    (not (self.cache is ___G)) and
    (5 in self.cache) and
    type(self.cache[5]) is ___c7 and
    (x.dtype, self.cache[5].shape, self.cache[5].dtype,) == ___expected

Each ``self.cache`` is a LOAD_ATTR, each ``self.cache[5]`` one more subscript: on
CPython 3.11 10-40 ns apiece, and an object whose ``__dict__`` a guard has read reads
every attribute by the slower dict hint. ``hoisted`` binds each read that recurs to a
local (``<prefix>s<i>``) where the chain first reads it *unconditionally* and reads the
local from the next part on::

    type((___s1 := self.cache)) is ___c5 and
    (not (___s1 is ___G)) and
    (5 in ___s1) and
    type((___s2 := ___s1[5])) is ___c7 and
    (x.dtype, ___s2.shape, ___s2.dtype,) == ___expected

(issue #15: about 180 ns of CountingCache.normalize's 600 ns check.) The chain reads
the same objects in the same order as before, and no earlier: the binding is the
very read the chain made there, at that point of evaluation (never hoisted above a
type test that guards it), so a read that raises still raises there, and a later
part reading the name runs only after the binding part was true. Reads before the
binding one (a conditional read in an earlier part, ``a is None or a.n > 0``) stay
as they were.

The names hold the objects until the function that evaluates the chain drops them:
the dispatcher rebinds them to None right after the check (``held_names``), so a value
the program then replaces dies when it would have.
"""

from __future__ import annotations

import ast
import functools
import re

__all__ = ["held_names", "hoisted"]


def hoisted(parts: list[str], prefix: str, kept=()) -> list[str]:
    """See ``_hoisted``; the same parts give the same answer, kept for the checks seen
    last (a dispatcher is generated again, over the same checks, at each new entry)."""
    return list(_hoisted(tuple(parts), prefix, frozenset(kept)))


@functools.lru_cache(maxsize=512)
def _hoisted(parts: tuple, prefix: str, kept: frozenset) -> tuple:
    """``parts`` (each one expression, ``and``-chained in order) with each attribute or
    item read that occurs again after its first unconditional occurrence bound to
    ``<prefix>s<i>`` there and read by that name from there on (module doc). A part
    that does not parse, and the parts at the indices ``kept``, are left as they are
    (and read nothing by a name).

    Only parts that share a read with another part, or hold one twice, by a quick
    textual scan (``_CHAIN``) are parsed (together, ``_reads_of``): a model's check
    has hundreds of parts."""
    seen: dict[str, int] = {}
    texts = []
    for i, part in enumerate(parts):
        found = frozenset() if i in kept else _chains(part)
        texts.append(found)
        for text in found:
            seen[text] = seen.get(text, 0) + 1
    wanted = [i for i, part in enumerate(parts)
              if any(seen[t] > 1 or part.count(t) > 1 for t in texts[i])]
    analysed = {i: reads for i, reads in zip(wanted, _reads_of([parts[i] for i in wanted],
                                                               prefix))
                if reads is not None}
    occurrences: dict[str, list[tuple]] = {}   # text -> [(part, position, unconditional)]
    for i, reads in analysed.items():
        part = parts[i]
        for start, end, unconditional in reads:
            occurrences.setdefault(part[start:end], []).append((i, start, unconditional))
    bound: dict[str, tuple] = {}   # text -> (part, position) of its binding
    for text, where in occurrences.items():
        first = min(((i, at) for i, at, uncond in where if uncond), default=None)
        if first is not None and any((i, at) > first for i, at, _ in where):
            bound[text] = first
    if not bound:
        return parts
    # names in order of binding, so the source reads as ``s1``, ``s2``... down the chain
    names = {text: f"{prefix}s{k}"
             for k, text in enumerate(sorted(bound, key=bound.__getitem__), 1)}
    out = list(parts)
    for i, reads in analysed.items():
        out[i] = _rewritten(parts[i], i, reads, bound, names)
    return tuple(out)


def held_names(expr: str, prefix: str) -> list[str]:
    """The names ``hoisted(..., prefix)`` bound in ``expr``: what a function that
    evaluated ``expr`` and goes on should rebind to None (it holds the objects read)::

        >>> held_names("type((___e0_s1 := self.w)) is ___e0_c2 and ___e0_s1.n", "___e0_")
        ['___e0_s1']
    """
    return re.findall(rf"\(({re.escape(prefix)}s\d+) := ", expr)


# a name followed by attributes and subscripts: every read ``_reads`` can find is such a
# text or a prefix of one (a superset: the scan only chooses which parts to parse)
_CHAIN = re.compile(r"(?<![\w.'\"])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[[^\[\]]*\])+")
_STEP = re.compile(r"\.[A-Za-z_]\w*|\[[^\[\]]*\]")


@functools.lru_cache(maxsize=4096)
def _chains(part: str) -> frozenset[str]:
    """The texts of ``part`` that may be reads, with every prefix of each (``a.b[1]``,
    ``a.b``)."""
    out = set()
    for m in _CHAIN.finditer(part):
        text = m.group()
        head = re.match(r"[A-Za-z_]\w*", text).end()
        for step in _STEP.finditer(text, head):
            out.add(text[:step.end()])
    return frozenset(out)


def _reads_of(parts: list[str], prefix: str = "") -> list:
    """``_reads`` of each part, parsed together as the items of one list display where
    they all parse (one parse instead of one a part: about half the time).

    Kept by the part's text with ``prefix`` spelt alike for every entry (``___e0_c4``
    and ``___e1_c4`` are one key): a dispatcher made again at a new entry renders the
    older entries' checks under new prefixes, and entries of one function share most
    parts. (The reads' texts are taken from each part itself.)"""
    keys = [part.replace(prefix, "Q" * len(prefix)) if prefix else part for part in parts]
    new = {key: part for key, part in zip(keys, parts) if key not in _READS}
    if len(_READS) + len(new) > 4096:
        _READS.clear()
        new = dict(zip(keys, parts))
    if len(new) > 1:
        source, starts = "[\n", []
        for part in new.values():
            starts.append(len(source) + 2)
            source += f"(\n{part}\n),\n"
        try:
            items = ast.parse(source + "]", mode="eval").body.elts
        except SyntaxError:   # (one of them does not: each alone, below)
            items = None
        if items is not None:
            at = _offsets(source)
            _READS.update((key, _found(part, item, at, start))
                          for (key, part), item, start in zip(new.items(), items, starts))
    for key, part in new.items():
        if key not in _READS:
            _READS[key] = _reads(part)
    return [_READS[key] for key in keys]


# the reads of each part seen (``_reads``), by the part's text with the entry's prefix
# spelt alike (``_reads_of``), emptied when it grows large
_READS: dict[str, tuple | None] = {}


def _reads(part: str) -> tuple | None:
    """``((start, end, unconditional), ...)``: the reads in ``part`` (character
    offsets into it, in source order, outermost first where they nest), or None if it
    does not parse. Reads inside lambdas and comprehensions are left out (``_visited``)."""
    source = f"(\n{part}\n)"   # (a part may span lines, and start with a comment line)
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError:
        return None
    return _found(part, tree.body, _offsets(source), 2)


def _offsets(source: str):
    """``at(line, col)``: the character offset in ``source`` of an ast position."""
    lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    def at(line, col):   # (ast columns count UTF-8 bytes; a comment may not be ASCII)
        text = lines[line - 1]
        return offsets[line - 1] + (col if text.isascii() else len(text.encode()[:col].decode()))
    return at


def _found(part: str, root: ast.AST, at, start: int) -> tuple:
    """The reads under ``root``, ``part``'s expression, whose text begins at offset
    ``start`` of the parsed source (see ``_reads``)."""
    found = []
    for node, unconditional in _visited(root):
        a = at(node.lineno, node.col_offset) - start
        b = at(node.end_lineno, node.end_col_offset) - start
        found.append((a, b, unconditional))
    return tuple(sorted(found, key=lambda r: (r[0], -r[1])))


def _visited(root: ast.AST) -> list[tuple[ast.AST, bool]]:
    """``(read, unconditional)`` for each read in ``root`` outside lambdas and
    comprehensions. A read: an attribute or item read through names and constants
    only (``self.w``, ``___G['np']``, ``d[3].shape``; no call, no computed key).
    Unconditional: every evaluation of ``root`` evaluates it (unless an exception stops
    it), not so for the later operands of ``and``/``or``, the branches of ``x if c
    else y`` and the later comparisons of a chain (``a < b < c`` compares ``c`` only
    where ``a < b``). One walk, the common node kinds by their fields
    (``ast.iter_child_nodes`` on each node cost three times the parse)."""
    out = []
    todo = [(root, True)]
    while todo:
        node, sure = todo.pop()
        kind = type(node)
        if kind is ast.Attribute or kind is ast.Subscript:
            # the whole chain at once (``a.b[1].c``): a link is a read where every
            # subscript from it down is a constant and the chain starts at a name
            chain = []
            while type(node) is ast.Attribute or type(node) is ast.Subscript:
                chain.append(node)
                if type(node) is ast.Subscript:
                    todo.append((node.slice, sure))
                node = node.value
            todo.append((node, sure))
            ok = type(node) is ast.Name
            for link in reversed(chain):
                ok = ok and (type(link) is ast.Attribute or type(link.slice) is ast.Constant) \
                    and type(link.ctx) is ast.Load
                if ok:
                    out.append((link, sure))
        elif kind is ast.Name or kind is ast.Constant:
            continue
        elif kind is ast.BoolOp:
            todo.append((node.values[0], sure))
            todo += [(v, False) for v in node.values[1:]]
        elif kind is ast.Compare:
            todo += [(node.left, sure), (node.comparators[0], sure)]
            todo += [(c, False) for c in node.comparators[1:]]
        elif kind is ast.IfExp:
            todo += [(node.test, sure), (node.body, False), (node.orelse, False)]
        elif kind is ast.Call:
            todo.append((node.func, sure))
            todo += [(a, sure) for a in node.args]
            todo += [(k.value, sure) for k in node.keywords]
        elif isinstance(node, _DEFERRED):
            continue
        else:
            todo += [(c, sure) for c in ast.iter_child_nodes(node)]
    return out


def _rewritten(part: str, index: int, reads: tuple, bound: dict, names: dict) -> str:
    """``part`` (the ``index``-th) with each occurrence of a bound read replaced: by
    ``(name := read)`` at its binding, by ``name`` after it, by the read's own text
    before it (reads inside rewritten in the same way)."""

    def emit(lo: int, hi: int, inner: list) -> str:
        out, at, k = [], lo, 0
        while k < len(inner):
            start, end, _ = inner[k]
            text = part[start:end]
            # the reads nested in this one follow it (sorted outermost first)
            j = k + 1
            while j < len(inner) and inner[j][0] < end:
                j += 1
            out.append(part[at:start])
            where = bound.get(text)
            if where is not None and (index, start) > where:
                out.append(names[text])
            else:
                text_now = emit(start, end, inner[k + 1:j])
                out.append(f"({names[text]} := {text_now})" if where == (index, start)
                           else text_now)
            at, k = end, j
        out.append(part[at:hi])
        return "".join(out)

    return emit(0, len(part), list(reads))


# Scopes of their own: a name read there would be a free variable of the lambda or
# comprehension (a cell of the function holding the chain), and their bodies run later
# or many times. Reads inside them are left as they are.
#
# Within one part, a read that starts later in the text is evaluated later: operands,
# items, arguments and subscripts go left to right; the one exception, ``body if test
# else orelse`` (``test`` first), never puts a binding after a read it names, since a
# binding is an unconditional read (the test's, not a branch's) and the body, the only
# text before the test, is never rewritten to the name.
_DEFERRED = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
