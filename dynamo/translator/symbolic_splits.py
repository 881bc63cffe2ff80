"""Split loops over a range whose count is a size symbol (issue #23,
``index_splits.py``): a loop of the frame itself (no loop node around it) over
``range(n)`` with ``n`` symbolic, compiled once for every ``n`` the entry serves.

At the corners of such a loop's trips (the first, ``0``, and the last, ``count - 1``)
a comparison's ``diff`` is an affine expression of the sizes, not an int; its sign is
decided for every size the entry serves (``symbolic.bounds.always_nonnegative``: each
size at least 2, and what ``known`` adds). Comparisons in the body run only where the
body runs, so there ``count - 1 >= 0`` is known without a guard; the bounds of a
split hold for every call because the node's count is guarded above
``config.loop_unroll_limit`` (``LoopNodes.may_become_loop_node`` records it), and
what that does not prove but this call's sizes satisfy is guarded (``holds``)::

    for i in range(n):                # i = 1 + trip, trip in [0, n - 2]
        if i == n - 1: ...            # trip - n + 2 == 0 at trip 0: 2 - n (<= 0 for
                                      # n >= 2, not < 0): a split at trip n - 2, the
                                      # segments [0, n - 2) (may run none) and one trip

Anything not proved for every size returns None (the caller records a decision or
unrolls, as before).
"""

from __future__ import annotations

from ..symbolic import Sym, SymInt
from ..symbolic.bounds import always_nonnegative
from ..symbolic.sizes import as_sym, is_unbacked, record


def frame_loop(scope) -> bool:
    """A loop node of the frame itself (no loop around it) whose last trip is an int
    or a SymInt of sizes (a range whose count is a size symbol; a segment of one)."""
    last = getattr(scope, "last", None)
    return scope is not None and getattr(scope, "parent", None) is None and \
        (type(last) is int or isinstance(last, SymInt) and
         not any(is_unbacked(n) for n in last.sym.symbols))


def _at(diff: Sym, name: str, value: Sym) -> Sym:
    """``diff`` with the symbol ``name`` put in as ``value``."""
    c = dict(diff.terms).get(name, 0)
    return diff - Sym(((name, c),), 0) + value.scale(c) if c else diff


def _sign(v: Sym, known: list) -> str | None:
    """"zero", "pos", "neg", "nonneg", "nonpos" for every size served, or None."""
    if v.is_constant():
        return "zero" if v.const == 0 else "pos" if v.const > 0 else "neg"
    if always_nonnegative(v - Sym((), 1), known):
        return "pos"
    if always_nonnegative(v.scale(-1) - Sym((), 1), known):
        return "neg"
    if always_nonnegative(v, known):
        return "nonneg"
    if always_nonnegative(v.scale(-1), known):
        return "nonpos"
    return None


# the signs on which ``v op 0`` is true / false
_TRUE = {"==": {"zero"}, "!=": {"pos", "neg"}, "<": {"neg"}, "<=": {"neg", "zero", "nonpos"},
         ">": {"pos"}, ">=": {"pos", "zero", "nonneg"}}
_FALSE = {"==": {"pos", "neg"}, "!=": {"zero"}, "<": {"pos", "zero", "nonneg"},
          "<=": {"pos"}, ">": {"neg", "zero", "nonpos"}, ">=": {"neg"}}


def facts(output) -> list:
    """The facts of sizes this trace's guards keep (a node's count above the unroll
    limit, what ``holds`` guarded), as ``Sym``s known to be ``>= 0``."""
    return output.__dict__.setdefault("split_facts", [])


def decide_symbolic(scope, diff: Sym, op: str, known: list) -> bool | None:
    """``diff op 0`` on every trip of ``scope`` (``frame_loop``) for every size
    the entry serves (``known``: ``facts``), or None. ``diff`` reads the trip and
    sizes only."""
    last = as_sym(scope.last)
    known = [last, *known] if last.symbols else known   # (the body runs: a trip)
    signs = [_sign(_at(diff, scope.symbol, v), known) for v in (Sym(), last)]
    if None in signs:
        return None
    for result, allowed in ((True, _TRUE[op]), (False, _FALSE[op])):
        if all(s in allowed for s in signs):
            if op in ("==", "!=") and result == (op == "!=") and len(set(signs)) != 1:
                return None   # (a strict sign on both sides of 0: maybe 0 between)
            return result
    return None


def count_fact(scope_count, done: int, limit: int) -> Sym:
    """``count + done - limit - 1 >= 0``: the guard ``may_become_loop_node`` records."""
    return as_sym(scope_count) + Sym((), done - limit - 1)


def holds(v: Sym, known: list, hints: dict) -> bool:
    """``v >= 0`` for every size the entry serves: proved, or (where it holds at this
    call's sizes) made so by a guard (``n - 10 >= 0``: the entry serves ``n >= 10``,
    another size compiles another entry)."""
    if always_nonnegative(v, known):
        return True
    if v.evaluate({n: hints[n] for n in v.symbols}) < 0:
        return False
    record(f"{v.runtime()} >= 0", True, v.symbols)
    known.append(v)   # (the trace's facts: ``facts``)
    return True


def clamped_symbolic(bound: Sym, count: Sym, known: list, hints: dict) -> Sym | None:
    """``min(max(bound, 0), count)`` for every size served, or None."""
    at = bound.evaluate({n: hints[n] for n in bound.symbols})
    if at <= 0:
        return Sym((), 0) if holds(bound.scale(-1), known, hints) else None
    if at >= count.evaluate({n: hints[n] for n in count.symbols}):
        return count if holds(bound - count, known, hints) else None
    return bound if holds(bound, known, hints) and holds(count - bound, known, hints) \
        else None


def ordered_symbolic(bounds: list[Sym], hints: dict, known: list) -> list[Sym] | None:
    """``bounds`` without repeats, sorted, where one order holds for every size."""
    unique = list(dict.fromkeys(bounds))
    unique.sort(key=lambda b: b.evaluate({n: hints[n] for n in b.symbols}))
    for lo, hi in zip(unique, unique[1:]):
        if not holds(hi - lo, known, hints):
            return None
    return unique
