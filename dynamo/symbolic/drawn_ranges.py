"""Where a Python float the graph draws lies (``rng.random()``, ``np.random.rand()``:
in ``[0, 1)``), so arithmetic on it that raises for *some* floats but not for any in
its range stays in the graph (issue #19).

A drawn float is an unbacked number (``uf0``, ``variables/graph_numbers.py``): its value
is only known when the graph runs, so an operation that may raise on it (``**``:
``OverflowError`` past 1e308; ``/``: ``ZeroDivisionError``) reads it, and that read is
a graph break (``scalars.binary``). For a uniform draw the range is known while
tracing, and a bound on each expression over it follows from the bounds of its
operands (interval arithmetic, ``bounds``)::

    dx = (rng.random() - 0.5) ** 2        # uf0 in [0, 1): uf0 - 0.5 in [-0.5, 1),
                                          # its square in [0, 1): cannot overflow

Each bound is computed with the operation Python will run, on the endpoints: rounding
is monotone, so the float Python computes at run time lies between the floats
computed here (``fl(a - c)`` grows with ``a``). An operation is kept only where the
result is at most ``_LARGEST`` in magnitude for every operand in range (far from
1.8e308: rounding never carries it over), and ``**`` only with a constant integral
exponent >= 0 (a float for any base, and no division by zero), or a constant base
> 0 (a float for any exponent). Anything else gives no bound (None), and the caller
reads the number as before (a break).

Example::

    >>> note_draw("uf0", "generator_random", (rng,), {})   # uf0 = rng.random()
    >>> never_raises(operator.pow, uf0 - 0.5, 2)
    True
"""

from __future__ import annotations

import math
import operator

from .exprs import Expr
from .sizes import _QUIET, _local

# draws of one float in [0, 1) (no argument but the generator or state they are
# methods of): ``rng.random()``, ``np.random.rand()``, ``np.random.random_sample()``...
_UNIT = frozenset({
    "generator_random", "random_rand", "random_random", "random_random_sample",
    "random_ranf", "random_sample", "randomstate_random_sample", "randomstate_rand",
    "randomstate_random", "randomstate_ranf", "randomstate_sample"})
# the largest magnitude a kept result may have (1.8e308 overflows)
_LARGEST = 1e300


def note_draw(name: str, op_name: str, args: tuple, kwargs: dict) -> None:
    """Remember that the unbacked number ``name`` is the draw ``op_name(*args)``, where
    it is a unit draw with no arguments (a generator's method: the generator only)."""
    plain = len(args) == (1 if op_name.startswith(("generator_", "randomstate_")) else 0)
    if op_name in _UNIT and plain and not kwargs:
        _ranges()[name] = (0.0, 1.0)


def never_raises(fn, a, b) -> bool:
    """Is ``fn(a, b)`` (``**``, ``/``; an operand a drawn number's expression) free of
    exceptions for every value of the draws in it, with a result of at most
    ``_LARGEST``? (``+``, ``-`` and ``*`` never raise: ``scalars`` keeps them anyway.)"""
    if fn not in (operator.pow, operator.truediv):
        return False
    return bounds(Expr.apply(fn, Expr.of(a), Expr.of(b))) is not None


def bounds(expr: Expr) -> tuple[float, float] | None:
    """The least and largest value ``expr`` takes for the draws in it, both finite; None
    where unknown, or where it may raise or exceed ``_LARGEST``."""
    if expr.op == "const":
        v = expr.args[0]
        return (v, v) if type(v) in (int, float, bool) and math.isfinite(v) else None
    if expr.op == "symbol":
        return _ranges().get(expr.args[0])
    parts = [bounds(a) if isinstance(a, Expr) else None for a in expr.args]
    if not parts or any(p is None for p in parts):
        return None
    try:
        found = _apply(expr, parts)
    except (ArithmeticError, ValueError):
        return None
    if found is None or not all(math.isfinite(v) and abs(v) <= _LARGEST for v in found):
        return None
    return found


def _apply(expr: Expr, parts: list):
    """``expr``'s operator on the bounds ``parts`` of its operands."""
    fn = expr.op
    if fn in (operator.neg, operator.pos):
        lo, hi = parts[0]
        return (-hi, -lo) if fn is operator.neg else (lo, hi)
    if fn is abs:
        lo, hi = parts[0]
        return (0.0 if lo <= 0 <= hi else min(abs(lo), abs(hi)), max(abs(lo), abs(hi)))
    if len(parts) != 2:
        return None
    (alo, ahi), (blo, bhi) = parts
    if fn in (operator.add, operator.sub, operator.mul):
        ends = [fn(x, y) for x in (alo, ahi) for y in (blo, bhi)]
        return min(ends), max(ends)
    if fn is operator.truediv and (blo > 0 or bhi < 0):
        ends = [x / y for x in (alo, ahi) for y in (blo, bhi)]
        return min(ends), max(ends)
    if fn is operator.pow:
        return _power(expr, (alo, ahi), (blo, bhi))
    return None


def _power(expr: Expr, base: tuple, exp: tuple):
    """``base ** exp``: a constant integral exponent >= 0 (any base: a float, no
    division by zero; monotone on each side of 0), or a constant base > 0 (any
    exponent: monotone)."""
    lo, hi = base
    if expr.args[1].op == "const" and exp[0] >= 0 and float(exp[0]).is_integer():
        k = expr.args[1].args[0]
        ends = [lo ** k, hi ** k] + ([0.0 ** k] if lo <= 0 <= hi else [])
        return min(ends), max(ends)
    if expr.args[0].op == "const" and lo > 0:
        ends = [lo ** exp[0], lo ** exp[1]]
        return min(ends), max(ends)
    return None


def _ranges() -> dict:
    """The running trace's drawn numbers -> their range (none outside a trace)."""
    trace = getattr(_local, "trace", None)
    if trace is None or trace is _QUIET:
        return {}
    if not hasattr(trace, "drawn_ranges"):
        trace.drawn_ranges = {}
    return trace.drawn_ranges


__all__ = ["bounds", "never_raises", "note_draw"]
