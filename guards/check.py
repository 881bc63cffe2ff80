"""Generate one flat check function from a list of guards.

The check has the frame's own parameters (so callers pass arguments as they are
bound in the frame) and returns True when every guard holds. It is written as one
expression, because that is what keeps dispatch within a couple of microseconds in
pure Python: identity tests chained with ``is``, then a single tuple of current
values compared with a single stored tuple::

    def ___check_forward_0(self, x):
        try:
            return (type(self) is ___c0() and type(x) is ___c1 and
                    (self.w.shape, self.w.dtype, x.shape, x.dtype) == ___expected)
        except Exception:
            return False

On a miss, ``CheckFunction.failures`` evaluates the guards one by one and says in
words which failed, for the recompile log.
"""

from __future__ import annotations

import builtins
import itertools
import linecache
import math
import re
import sys
from typing import Any

from . import guards as G
from .guards import ARRAY, CONSTANT, DICT_KEYS, EXPR, ID, LENGTH, NOT_PRESENT, TYPE, Guard

_counter = itertools.count()


class GuardSet:
    """Guards collected while tracing: deduplicated, in the order they were added."""

    def __init__(self) -> None:
        self._guards: dict[tuple, Guard] = {}

    def add(self, guard: Guard) -> None:
        self._guards.setdefault(guard.key(), guard)

    def __iter__(self):
        return iter(self._guards.values())

    def __len__(self) -> int:
        return len(self._guards)

    def ordered(self) -> list[Guard]:
        """Cheapest and most selective first: identities, types, then values."""
        return sorted(self._guards.values(), key=lambda g: G.ORDER[g.kind])


class CheckFunction:
    """A generated guard check plus the data to explain its failures."""

    def __init__(self, guards: list[Guard], params: list[str], name: str,
                 fn_globals: dict, has_closure: bool):
        self.guards = guards
        self.params = list(params) + (["___closure"] if has_closure else [])
        self.name = f"___check_{_identifier(name)}_{next(_counter)}"
        self.fn_globals = fn_globals
        self.source, self.fn = self._build()

    def __call__(self, *args) -> bool:
        return self.fn(*args)

    def _build(self):
        names: dict[str, Any] = {"___G": self.fn_globals, "___builtins": builtins,
                                 "___modules": sys.modules}
        identity: list[str] = []
        lhs: list[str] = []
        rhs: list[Any] = []

        def bind(value: Any) -> str:
            suffix, ref = G.reference(value)
            key = f"___c{len(names)}"
            names[key] = ref
            return key + suffix

        for g in self.guards:
            e = g.source.expr()
            if g.kind == ID:
                identity.append(f"{e} is {bind(g.expected)}")
            elif g.kind == TYPE:
                identity.append(f"type({e}) is {bind(g.expected)}")
            elif g.kind == NOT_PRESENT:
                identity.append(f"{g.source.builtin!r} not in ___G")
            elif g.kind == CONSTANT:
                identity.append(f"type({e}) is {bind(type(g.expected))}")
                value = g.expected
                if isinstance(value, float) and math.isnan(value):
                    identity.append(f"{e} != {e}")
                elif isinstance(value, tuple):
                    lhs += [e, f"tuple(map(type, {e}))"]
                    rhs += [value, tuple(type(v) for v in value)]
                else:
                    lhs.append(e)
                    rhs.append(value)
            elif g.kind == LENGTH:
                lhs.append(f"len({e})")
                rhs.append(g.expected)
            elif g.kind == DICT_KEYS:
                lhs.append(f"tuple({e})")
                rhs.append(tuple(g.expected))
            elif g.kind == ARRAY:
                spec: G.ArraySpec = g.expected
                identity.append(f"type({e}) is {bind(spec.cls)}")
                if None in spec.shape:
                    lhs.append(f"{e}.ndim")
                    rhs.append(len(spec.shape))
                    for i, d in enumerate(spec.shape):
                        if d is not None:
                            lhs.append(f"{e}.shape[{i}]")
                            rhs.append(d)
                else:
                    lhs.append(f"{e}.shape")
                    rhs.append(tuple(spec.shape))
                lhs.append(f"{e}.dtype")
                rhs.append(spec.dtype)
                if spec.strides is not None:
                    lhs.append(f"{e}.strides")
                    rhs.append(spec.strides)
                if spec.writeable is not None:
                    lhs.append(f"{e}.flags.writeable")
                    rhs.append(spec.writeable)
                if spec.device is not None:
                    lhs.append(f"{e}.device.id")
                    rhs.append(spec.device)
            elif g.kind == EXPR:
                identity.append(f"({g.expected})")
        parts = list(identity)
        if lhs:
            names["___expected"] = tuple(rhs)
            parts.append(f"({', '.join(lhs)},) == ___expected")
        body = " and\n                ".join(parts) if parts else "True"
        src = (f"def {self.name}({', '.join(self.params)}):\n"
               f"    try:\n"
               f"        return ({body})\n"
               f"    except Exception:\n"
               f"        return False\n")
        filename = f"<dynamo guards {self.name}>"
        linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
        scope = dict(names)
        exec(compile(src, filename, "exec"), scope)
        return src, scope[self.name]

    # ------------------------------------------------------------------ explaining
    def failures(self, args: tuple, limit: int = 1) -> list[str]:
        """In words, the first ``limit`` guards that ``args`` break."""
        scope = {"___G": self.fn_globals, "___builtins": builtins, "___modules": sys.modules}
        scope.update(zip(self.params, args))
        out = []
        for g in self.guards:
            reason = _failure(g, scope)
            if reason:
                out.append(reason)
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
        value = eval(g.source.expr(), scope)  # noqa: S307
    except Exception as e:  # noqa: BLE001
        return f"{g.source.name()}: could not be read ({type(e).__name__}: {e})"
    try:
        return g.failure(value)
    except Exception as e:  # noqa: BLE001
        return f"{g.source.name()}: {type(e).__name__}: {e}"


def _identifier(name: str) -> str:
    return re.sub(r"\W", "_", name)
