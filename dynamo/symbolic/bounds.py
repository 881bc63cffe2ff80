"""Deciding an affine inequality over symbolic sizes for every size an entry serves.

An entry with symbolic sizes serves every value of its symbols that its guards allow.
Every symbol is guarded ``>= 2`` (``ranges.LOWEST``: 0 and 1 are specialized; a few
``>= 1``, ``sizes.least_sizes``), and a
caller may know more (a loop node's trip count is above ``config.loop_unroll_limit``:
the entry guards that). ``always_nonnegative`` says whether ``e >= 0`` holds for all
those values: then the trace needs no guard for it. Where it does not, the caller
either guards it (when it holds for the example values) or refuses to go on.

Example::

    >>> n = Sym.symbol("s0", "x.shape[0]")
    >>> always_nonnegative(n - Sym((), 2))          # n >= 2 for every entry
    True
    >>> always_nonnegative(n - Sym((), 5))          # not for n = 2, 3, 4
    False
    >>> always_nonnegative(n - Sym((), 5), [n - Sym((), 9)])   # known: n >= 9
    True
"""

from __future__ import annotations

from .ranges import LOWEST
from .sizes import Sym, as_size, least_sizes, small_numbers


def symbol_bounds(names, known=()) -> tuple[dict[str, int], dict[str, int]]:
    """Per symbol in ``names``: its least value (``LOWEST``, or more where a known
    fact of that symbol alone says so) and, where a known fact bounds it above, its
    greatest. ``known`` are affine forms known to be ``>= 0`` (facts of several
    symbols bound none of them here)."""
    # a changing int used only as a value so far becomes a size here (guarded >= 2),
    # or, at 0, 1 or below, is pinned: then its one value bounds it both ways
    as_size(names, "a bound of a loop")
    small, least = small_numbers(), least_sizes()   # (least: a stacked list's rows, >= 1)
    lower = {n: small.get(n, least.get(n, LOWEST)) for n in names}
    upper: dict[str, int] = {n: small[n] for n in names if n in small}
    for fact in known:
        if len(fact.terms) != 1:
            continue
        (name, a), = fact.terms
        if name not in lower:
            continue
        if a > 0:      # a*s + b >= 0: s >= ceil(-b / a)
            lower[name] = max(lower[name], -(fact.const // a))
        else:          # s <= floor(b / -a)
            bound = fact.const // -a
            upper[name] = min(upper.get(name, bound), bound)
    return lower, upper


def always_nonnegative(expr: Sym, known=()) -> bool:
    """Does ``expr >= 0`` hold for every value of its symbols (each ``>= LOWEST``, and
    within the bounds ``known`` implies, see ``symbol_bounds``)? An affine form is
    least at a corner of that box, so the corner decides."""
    lower, upper = symbol_bounds(expr.symbols, known)
    least = expr.const
    for name, c in expr.terms:
        bound = lower[name] if c > 0 else upper.get(name)
        if bound is None:    # it decreases without bound as the symbol grows
            return False
        least += c * bound
    return least >= 0
