"""``math.cos(x)``, ``math.exp(-k * t)`` of a changing number, as a ``SymFloat`` whose
expression calls the same function of ``math`` when the graph runs (see
``math_call``; the expressions themselves: ``scalars.py``).

Example: ``math.cos(math.pi * t / 8)`` with a symbolic int ``t`` is
``SymFloat(0.707..., __import__('math').cos(((3.14159... * float(s0)) / 8)))``.
"""

from __future__ import annotations

from .scalars import _MATH, Expr, SymFloat, _data_decided, _hint, _number
from .sizes import SymInt


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
            _data_decided(*values):
        return None   # (math.log(float(x)), math.log(len(kept)) raise for some data)
    try:
        hint = fn(*(_hint(v) for v in values))
    except Exception:  # noqa: BLE001 (the caller's plain call raises it again, pinned)
        return None
    if type(hint) is not float:   # (cannot happen for these functions; never guess)
        return None
    return SymFloat(hint, Expr.apply(fn, *(Expr.of(v) for v in values)))


__all__ = ["math_call"]
