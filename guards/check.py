"""Generate one flat check function from a list of guards.

The check has the frame's own parameters (so callers pass arguments as they are
bound in the frame) and returns True when every guard holds. Its body is one
expression (see :mod:`guards.render`): identity tests chained with ``is``, then a
single tuple of current values compared with a single stored tuple::

    def ___check_forward_0(self, x, ___closure):
        try:
            return (type(self) is ___c1() and
                    type(x) is ___c2 and
                    x.shape == ___c3 and
                    type(self.w) is ___c4 and
                    (x.dtype, self.w.shape, self.w.dtype,) == ___expected)
        except Exception:
            return False

``___c1()`` is a weak reference to the user's class: a cached entry never keeps
user objects alive. The hook inlines the same expression into its dispatcher
(``CheckFunction.inline``), so a cache hit costs no extra call.

On a miss, ``CheckFunction.failures`` evaluates the guards one by one and says in
words which failed, for the recompile log.
"""

from __future__ import annotations

import builtins
import itertools
import linecache
import re
import sys
import weakref

from .guards import ARRAY, CONSTANT, EXPR, ID, LENGTH, NOT_PRESENT, TYPE, Guard
from .render import bound_reads, builtin_names, ordered, render
from .shown import shown as _shown
from .sources import ModuleAttrSource

_counter = itertools.count()


class GuardSet:
    """Guards collected while tracing: deduplicated, in the order they were added.

    Facts about one array merge into one ARRAY guard (a write into an input adds
    ``writeable`` to the shape and dtype guard already there).
    """

    def __init__(self) -> None:
        self._guards: dict[tuple, Guard] = {}

    def add(self, guard: Guard) -> None:
        key = guard.key()
        known = self._guards.get(key)
        if known is None:
            self._guards[key] = guard
        elif guard.kind == ARRAY and known.expected != guard.expected:
            self._guards[key] = Guard(guard.source, ARRAY, known.expected.merge(guard.expected),
                                      known.note)

    def get(self, source, kind: str) -> Guard | None:
        """The guard of ``kind`` on ``source`` (ARRAY, TYPE... keyed without a value)."""
        for g in self._guards.values():
            if g.source == source and g.kind == kind:
                return g
        return None

    def __iter__(self):
        return iter(self._guards.values())

    def __len__(self) -> int:
        return len(self._guards)

    def ordered(self) -> list[Guard]:
        """Bases before what is read through them, then cheapest and most selective
        first: identities, types, lengths, constants, arrays, relations."""
        return ordered(self._guards.values())


class CheckFunction:
    """A generated guard check plus the data to explain its failures."""

    def __init__(self, guards: list[Guard], params: list[str], name: str,
                 fn_globals: dict, has_closure: bool):
        self.guards = list(guards)
        self.params = list(params) + (["___closure"] if has_closure else [])
        self.name = f"___check_{_identifier(name)}_{next(_counter)}"
        self.fn_globals = fn_globals
        self.source, self.fn = self._build()

    def __call__(self, *args) -> bool:
        return self.fn(*args)

    def inline(self, prefix: str, params=None, indent: str = "") -> tuple[str, dict]:
        """(expression, names) of this check for a function with ``params``, its bound
        names starting with ``prefix`` so several checks can share one scope."""
        return render(self.guards, self.fn_globals, params or self.params, prefix, indent)

    def bound_reads(self, expr: str, prefix: str) -> dict:
        """``{source: name}``: what ``expr`` (``inline(prefix)``'s) computes once and
        binds while it passes (``np.asarray(ids)``; see ``render.bound_reads``)."""
        return bound_reads(self.guards, expr, prefix)

    def _build(self):
        indent = " " * 16
        expr, names = render(self.guards, self.fn_globals, self.params, "___", indent,
                             hoist=False)
        exc = builtin_names(self.params)["Exception"]
        src = (f"def {self.name}({', '.join(self.params)}):\n"
               f"    try:\n"
               f"        return ({expr})\n"
               f"    except {exc}:\n"
               f"        return False\n")
        filename = f"<dynamo guards {self.name}>"
        linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
        self.names = names
        scope = dict(names)
        exec(compile(src, filename, "exec"), scope)
        fn = scope[self.name]
        # the source stays readable in tracebacks while the check lives, not longer
        weakref.finalize(fn, linecache.cache.pop, filename, None)
        return src, fn

    # ------------------------------------------------------------------ explaining
    def explained(self) -> str:
        """The check's source, then what each of its stored values is (``DYNAMO_LOGS=
        +guards`` shows this on ``dynamo.guards.code``: ``___c3`` alone says nothing)::

            x.shape == ___c3 and ...
            # where ___c3 = (2,)
        """
        lines = [self.source.rstrip()]
        for name, value in self.names.items():
            if name.startswith("___c") or name == "___expected":
                lines.append(f"# where {name} = {_shown(value)}")
        return "\n".join(lines)

    def failures(self, args: tuple, limit: int = 1) -> list[str]:
        """In words, the first ``limit`` guards that ``args`` break."""
        return [reason for _, reason in self.failed_guards(args, limit)]

    def failed_guards(self, args: tuple, limit: int = 1) -> list[tuple[Guard, str]]:
        """The first ``limit`` guards that ``args`` break, each with why in words."""
        scope = {"___G": self.fn_globals, "___builtins": builtins, "___modules": sys.modules}
        scope.update(zip(self.params, args))
        out = []
        for g in self.guards:
            reason = _failure(g, scope)
            if reason:
                out.append((g, reason))
                if len(out) >= limit:
                    break
        return out


def _failure(g: Guard, scope: dict) -> str | None:
    if g.kind == NOT_PRESENT:
        if g.source.builtin in scope["___G"]:
            return f"G[{g.source.builtin!r}] now shadows the builtin"
        return None
    if g.kind == EXPR:
        try:
            ok = eval(g.expected, scope)  # noqa: S307 (our own generated expression)
        except Exception as e:  # noqa: BLE001
            return f"{g.expected}: could not evaluate ({type(e).__name__}: {e})"
        return None if ok else f"{g.expected} no longer holds" + (
            f" ({g.note})" if g.note else "")
    try:
        if isinstance(g.source, ModuleAttrSource):   # checks read the bound module
            value = g.source.read()
        else:
            value = eval(g.source.expr(), scope)  # noqa: S307
    except Exception as e:  # noqa: BLE001
        return f"{g.source.name()}: could not be read ({type(e).__name__}: {e})"
    try:
        reason = g.failure(value)
    except Exception as e:  # noqa: BLE001
        return f"{g.source.name()}: {type(e).__name__}: {e}"
    return reason + f" ({g.note})" if reason and g.note else reason


def keeps_failing(failed: list[tuple[Guard, str]]) -> str:
    """What to say when a function's cache is full: ``failed`` holds, per entry, the
    first guard the last call broke and why. The guard (by source) that most entries
    fail is the one that keeps failing; the advice fits its kind."""
    if not failed:
        return ""
    by_source: dict = {}
    for g, reason in failed:
        by_source.setdefault((g.source, g.kind), []).append((g, reason))
    (source, kind), hits = max(by_source.items(), key=lambda item: len(item[1]))
    guard, reason = hits[-1]
    return (f"The guard that keeps failing ({len(hits)} of {len(failed)} entries): "
            f"{reason}\n{_advice(guard)}")


def _advice(g: Guard) -> str:
    """Advice that fits why a guard fails call after call."""
    name = g.source.name()
    if g.kind == CONSTANT and type(g.expected) in (int, float):
        return (f"{name} is a number that changes between calls, and the trace used it as a "
                f"plain Python value (a comparison, a dict key, a format, a C function...) "
                f"where the note says. Keep it in arithmetic and array ops there, or pass "
                f"it as a 0-d array (np.asarray({g.source.expr()})); raising "
                f"cache_size_limit only delays this.")
    if g.kind == CONSTANT and type(g.expected) in (str, bytes):
        # (a string is never array data: "pass the data as an array" would not fit;
        # words and names looked up in a dict are the usual cause, an entry per value)
        return (f"{name} is a string that takes a new value each call, and the trace "
                f"read its value (a dict key, a comparison, iteration over its "
                f"characters) where the note says: each value is its own entry. If the "
                f"strings are few, raise dynamo.config.cache_size_limit; if not (words, "
                f"names), map them to int ids outside the compiled function and pass "
                f"the ids (a list of ints or an int array is taken as data).")
    if g.kind == CONSTANT:
        return (f"{name} takes a new value each call and selects what the program does: "
                f"each value is its own entry. If the values are few, raise "
                f"dynamo.config.cache_size_limit; if not, pass the data as an array.")
    if g.kind == LENGTH:
        return (f"The length of {name} changes between calls and the trace read its items "
                f"as Python values where the note says. A list the function only appends "
                f"to, or uses as array data (x[ids], np.array(ids)), needs no such guard; "
                f"or pass an array instead of a list.")
    if g.kind == EXPR and "pinned" in g.note:
        return ("a changing size or number was needed as a plain Python value at the "
                "line the note names; rewrite that line to keep it in array or int "
                "arithmetic, or accept one entry per value.")
    if g.kind == EXPR:
        return ("a branch on a size goes another way for these sizes; each way is its own "
                "entry.")
    if g.kind == ARRAY:
        return (f"{name}'s dtype, shape or layout changes between calls; for sizes, "
                f"dynamo.mark_dynamic({g.source.expr()}, dim) or dynamic=True makes one "
                f"entry serve them (a dtype is its own entry). If the shapes or dtypes "
                f"really are this many, raise dynamo.config.cache_size_limit.")
    if g.kind in (ID, TYPE):
        return (f"{name} is a new object (or type) each call, and the trace relied on its "
                f"identity; pass the same object, or data as arrays.")
    return "If the shapes or values really vary this much, raise dynamo.config.cache_size_limit."


def _identifier(name: str) -> str:
    return re.sub(r"\W", "_", name)
