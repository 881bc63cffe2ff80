"""The reads an entry's check made once (``guards.hoisted_reads``), handed to the glue the
dispatcher pastes after it, up to the graph's call.

The check binds a read that recurs to a name (``(___e0_s3 := self.shadow['w'])``); the
glue then reads the same sources again for the graph's inputs::

    ___in1 = self.shadow['w']        ->    ___in1 = ___e0_s3
    ___in2 = self.n                  ->    ___in2 = ___e0_s1
    ___o0 = (___only := ___e0_glue_graph.only)(___in0, ___in1, ___in2)
    ___e0_s1 = ___e0_s3 = None       # (let go of right after the call)

Between the check and the graph's call nothing of the program runs (the glue saves and
sets the ufunc settings, binds the inputs): the read gives the object the check saw.
After the call no read is replaced (the graph ran; the glue's later reads and writes
stay as written). A name the glue used is let go of right after the call, and on the
way to the original code when the graph raised (``release``); the others right after
the check (``dispatch._dropped``).

Example::

    >>> body, kept = handed_checked_reads(body, expr, "___e0_")
    >>> kept
    ['___e0_s1', '___e0_s3']
"""

from __future__ import annotations

import re

from dynamo.guards.hoisted_reads import held_names


def handed_checked_reads(body: list[str], expr: str, prefix: str) -> tuple[list[str], list[str]]:
    """``body`` (the glue's statements, as pasted) with the graph's inputs read from the
    names the check ``expr`` bound, and those names (kept until the call: the lines
    that let go of them are in ``body``). ``body`` as it is, and no names, where there
    is no graph call to hand them to or the call is not one line."""
    if f"({prefix}s" not in expr:
        return body, []
    texts = _bound_texts(expr, prefix)
    graph = f"{prefix}glue_graph"
    call = next((i for i, line in enumerate(body) if _find(line, graph) >= 0), None)
    if not texts or call is None or body[call].rstrip().endswith(("(", ",", "\\")):
        return body, []
    end = call + 1
    if end < len(body) and body[end].lstrip().startswith("del ___"):
        end += 1   # (direct_graph_call's ``del`` of the inputs it bound)
    if not all(_binds_own_names_only(line) for line in body[:end]):
        return body, []   # (the glue stores to a source before the call: read as written)
    head = "\n".join(body[:end])
    kept, out = [], list(body)
    for text, name in sorted(texts.items(), key=lambda t: -len(t[0])):
        if _find(head, text) < 0:
            continue
        for i in range(end):
            out[i] = _replaced(out[i], text, name)
        head = "\n".join(out[:end])
        kept.append(name)
    if not kept:
        return body, []
    indent = body[call][:len(body[call]) - len(body[call].lstrip())]
    out.insert(end, f"{indent}{release(kept)}")
    return out, sorted(kept)


def _find(line: str, text: str, start: int = 0) -> int:
    """Where ``text`` occurs in ``line`` as a whole read from ``start`` on (not inside a
    longer name or attribute chain: ``self.n`` is not in ``self.nn`` nor ``o.self.n``),
    or -1. (String scans, not a pattern made per text: compiling one costs more than a
    dispatcher's worth of these.)"""
    at = line.find(text, start)
    while at >= 0:
        before = line[at - 1] if at else " "
        after = line[at + len(text)] if at + len(text) < len(line) else " "
        if not (before.isalnum() or before in "_.'\"") and \
                not (after.isalnum() or after == "_"):
            return at
        at = line.find(text, at + 1)
    return -1


def _replaced(line: str, text: str, name: str) -> str:
    """``line`` with each whole read ``text`` (``_find``) replaced by ``name``."""
    out, at = [], 0
    while (hit := _find(line, text, at)) >= 0:
        out += [line[at:hit], name]
        at = hit + len(text)
    return "".join(out) + line[at:]


def release(names: list[str]) -> str:
    """The statement that lets go of ``names``."""
    return f"{' = '.join(sorted(names))} = None"


def _bound_texts(expr: str, prefix: str) -> dict[str, str]:
    """``{source text: name}`` of the reads ``expr`` binds, each spelt in full
    (``self.shadow['w']``, not ``___e0_s2['w']``)."""
    names = held_names(expr, prefix)
    found: dict[str, str] = {}
    for name in names:
        start = expr.index(f"({name} := ") + len(name) + 5
        depth, i = 0, start
        while i < len(expr):   # the read runs to the ``)`` that closes the binding
            if expr[i] in "([":
                depth += 1
            elif expr[i] in ")]":
                if depth == 0:
                    break
                depth -= 1
            i += 1
        found[name] = expr[start:i]
    full: dict[str, str] = {}
    for name in names:   # (bound in order: an inner name is spelt out already)
        text = found[name]
        for inner, spelt in full.items():
            text = _replaced(text, inner, spelt)
        full[name] = text
    return {text: name for name, text in full.items()}


_OWN = re.compile(r"___\w+(?:\s*,\s*___\w+)*\s*,?")
_OWN_STORE = re.compile(r"\s*___\w+(?:\s*,\s*___\w+)*\s*,?\s*=(?!=)")


def _binds_own_names_only(line: str) -> bool:
    """Does the statement ``line`` store to (or delete) generated names only (``___in1 =
    ...``, ``___o0, ___o1, = ...``, ``del ___in0``), or to nothing (a call, ``try:``)?
    A store to anything else (``self.n += 1``, ``d[k] = v``, ``f(key=v)`` taken for
    one) hands no read over: a source read after it may not be what the check saw."""
    stripped = line.strip()
    if stripped.startswith("del "):
        return _OWN.fullmatch(stripped[4:].strip()) is not None
    if _OWN_STORE.match(line):
        return True
    for i, c in enumerate(stripped):   # any other ``=`` that is no comparison: a store
        if c != "=":
            continue
        before, after = stripped[i - 1:i], stripped[i + 1:i + 2]
        if after == "=" or before in ("=", "!", ":") or \
                before in ("<", ">") and stripped[i - 2:i] not in ("<<", ">>"):
            continue
        return False
    return True
