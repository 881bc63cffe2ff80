"""``math.cos(x)``, ``math.exp(-k * t)`` of a changing number, as a ``SymFloat`` whose
expression calls the same function of ``math`` when the graph runs (see
``math_call``; the expressions themselves: ``scalars.py``).

Example: ``math.cos(math.pi * t / 8)`` with a symbolic int ``t`` is
``SymFloat(0.707..., __import__('math').cos(((3.14159... * float(s0)) / 8)))``. And
``round(x, n)`` of such a float, the same way (``round_call``).
"""

from __future__ import annotations

import math

from .scalars import (
    _MATH,
    Expr,
    SymFloat,
    _data_decided,
    _hint,
    _int_sym,
    _number,
    guard_computes,
    too_deep,
)
from .sizes import SymInt, record


def math_call(fn, values):
    """``fn(*values)`` for a function of ``math`` that always returns a float (``math.cos``,
    ``math.exp``, ``math.sqrt``) where an argument is a changing number: a SymFloat whose
    expression calls the same function on the same Python numbers when the graph runs,
    so the value is libm's bit for bit and a domain error raises there with its own text
    (``ValueError: math domain error``). None where it does not apply (another function,
    an argument that is not a Python number, nothing symbolic) or where the call raises
    for the values seen (the caller reads them: pinned, and the error is raised).

    Example: ``math.cos(math.pi * t / 8)`` with a symbolic int ``t`` is
    ``SymFloat(0.707..., __import__('math').cos(((3.14159... * float(s0)) / 8)))``."""
    if len(values) not in _MATH.get(fn, ()) or not all(_number(v) for v in values) or \
            not any(isinstance(v, (SymInt, SymFloat)) for v in values) or \
            _data_decided(*values) or too_deep(*values):
        return None   # (math.log(float(x)), math.log(len(kept)) raise for some data)
    try:
        hint = fn(*(_hint(v) for v in values))
    except Exception:  # noqa: BLE001 (the caller's plain call raises it again, pinned)
        return None
    if type(hint) is not float:   # (cannot happen for these functions; never guess)
        return None
    expr = Expr.apply(fn, *(Expr.of(v) for v in values))
    # (``math.exp(1e9)``, ``math.sqrt(-1.0)``, ``math.cos(inf)`` raise: issue #17)
    if not _never_raises(fn, values):
        expr.raises = True
        guard_computes(expr, *values)   # (``math.sqrt(k - 5)`` unread raises too)
    return SymFloat(hint, expr)


# the functions of ``_MATH`` that return a float for every float (inf and NaN included)
_TOTAL = frozenset(getattr(math, name) for name in (
    "fabs", "copysign", "atan", "atan2", "tanh", "erf", "erfc") if hasattr(math, name))
# ... for every int (finite, within int64 as a changing int is guarded): they raise
# only for inf or NaN
_FINITE = frozenset((math.sin, math.cos, math.tan))
# ... for every int at least this (``math.log(t)`` of a step counter ``t >= 1``)
_INT_FLOOR = {math.log: 1, math.log2: 1, math.log10: 1, math.log1p: 0, math.sqrt: 0,
              math.acosh: 1}


def _never_raises(fn, values) -> bool:
    """Is ``fn(*values)`` free of exceptions for every value the entry serves? So for
    the total functions (``math.atan``), ``math.cos`` of an int, and ``math.log`` (or
    ``sqrt``...) of an int seen at least 1 (0), which is then guarded so: a later call
    below misses, and its trace raises as eagerly (issue #17: a graph that cannot run
    again and computes a value that may raise after Python effects runs eagerly).

        >>> _never_raises(math.log, [t])     # t a changing int, 3 here: ``t >= 1``
        True
    """
    if fn in _TOTAL:
        return True
    if len(values) != 1:
        return False
    sym = _int_sym(values[0])
    if sym is None or getattr(Expr.of(values[0]), "raises", False):
        return False
    if fn in _FINITE:
        return True
    floor = _INT_FLOOR.get(fn)
    if floor is None or not _hint(values[0]) >= floor:
        return False
    record(f"{Expr.of(values[0]).runtime()} >= {floor}", True, sym.symbols)
    return True


class _Round:
    """``round`` with a number of digits, in an ``Expr``: it prints itself."""

    __name__ = "round"

    def __call__(self, x, ndigits):
        return round(x, ndigits)

    def render_call(self, x: str, ndigits: str) -> str:
        return f"round({x}, {ndigits})"


_ROUND = _Round()
# CPython's float.__round__ rounds to ``ndigits`` from here up to -1 by dtoa, and the
# result may round past the largest float (OverflowError); below it is ``0.0 * x``
_NDIGITS_MIN = -308


def round_call(value, ndigits):
    """``round(x, 3)`` of a changing float (``float(col.mean())``, an argument): a
    SymFloat whose expression rounds the same float with the builtin when the graph
    runs. A float rounded to ``ndigits >= 0`` (or below -308: ``0.0 * x``) is a float
    and never raises (inf and NaN stay), so a float only the data decides is kept too.
    None where it does not apply (no digits: an int, which raises for inf; anything but
    a SymFloat) or may raise: ``round(1.7976931348623157e308, -307)`` rounds up past the
    largest float, OverflowError, which a graph would raise past the program's own
    ``try`` (the caller reads the value instead).

    Example: ``round(uf0 * 2, 3)`` is ``SymFloat(..., round((uf0 * 2), 3))``."""
    if not isinstance(value, SymFloat) or type(ndigits) is not int or \
            _NDIGITS_MIN <= ndigits < 0:
        return None
    return SymFloat(round(_hint(value), ndigits),
                    Expr.apply(_ROUND, Expr.of(value), Expr.of(ndigits)))


__all__ = ["math_call", "round_call"]
