"""Comparisons of a Python number the graph computes (a drawn ``rng.random()``, a
``float(loss)``, ``x.item()``: a ``DeferredNumberVariable``) with a Python number,
kept in the graph (issue #16).

``if rng.random() < self.eps:`` needs the draw's value to branch, so it breaks; but
it used to break at the comparison, which ran eagerly and carried the resulting bool
over the break: the resumed code was guarded on that bool (one entry per outcome) and
read ``self.eps`` by value. Here the comparison is a graph op on the number's 0-d
array (``np.less(draw, eps)``, with ``eps`` a graph input where it changes between
calls), its result a bool the glue makes with ``bool()`` (``ComparedNumberVariable``):
stored or returned it needs no break, and ``if`` on it breaks at the jump, whose two
ways are two resume functions, with nothing carried.

Only where NumPy compares exactly as Python: a float from a float64 array with a
Python float, a changing float or an int that a float64 holds exactly (|i| <= 2**53);
an int from an int64 array with an int constant in int64's range; two such numbers of
one kind. Anything else (an int draw against a float: Python compares exactly, NumPy
rounds the int to a float) breaks at the comparison as before.

Example::

    >>> number_compare(tx, "less", DrawnNumberVariable(float, draw, why),
    ...                ConstantVariable(SymFloat(0.7, ...)))
    ComparedNumberVariable(bool of np.less(python_draw, s0))
"""

from __future__ import annotations

import numpy as np

from .. import ops
from ..symbolic import Symbolic, SymFloat
from ..variables import ConstantVariable, Variable
from ..variables.arrays import DeferredNumberVariable, DrawnNumberVariable, ItemVariable
from ..variables.conversions import ArrayToPythonVariable

# the deferred numbers whose value is exactly ``fn(snapshot)``, read back by the glue
_EXACT = (DrawnNumberVariable, ArrayToPythonVariable, ItemVariable)
# fn -> the snapshot dtype the comparison may run on
_DTYPES = {float: np.dtype(np.float64), int: np.dtype(np.int64)}
_OPS = ("less", "less_equal", "equal", "not_equal", "greater", "greater_equal")


class ComparedNumberVariable(DeferredNumberVariable):
    """The bool of comparing a deferred number in the graph: ``bool()`` of the graph's
    0-d bool array, made by the glue. A use that needs it while tracing (``if``) breaks
    there with the compared number's own reason (the draw's)."""

    def __init__(self, snapshot, number: DeferredNumberVariable):
        super().__init__(bool, snapshot)
        self.number = number

    def describe(self) -> str:
        return f"a comparison of {self.number.describe()}"

    def needed(self):
        return self.number.needed()


def is_deferred_bool(var: Variable) -> bool:
    """A bool the glue makes after the graph (a ``ComparedNumberVariable``, an
    ``np.allclose``): 3.13's ``COMPARE_OP`` that converts its result with ``bool()``
    leaves it as it is, so that ``if`` on it breaks at the jump."""
    return isinstance(var, DeferredNumberVariable) and var.fn is bool


def _kind(var: Variable):
    """``float`` or ``int`` for a deferred number this module compares, else None."""
    if not isinstance(var, _EXACT) or var.fn not in _DTYPES:
        return None
    meta = var.snapshot.meta
    if meta.kind != ops.NUMPY or meta.shape != () or meta.dtype != _DTYPES[var.fn]:
        return None
    return var.fn


def _fits(kind, var: Variable) -> bool:
    """May ``var`` be the other operand of a ``kind`` number's comparison?"""
    if _kind(var) is not None:
        return _kind(var) is kind
    if not isinstance(var, ConstantVariable):
        return False
    value = var.value
    if kind is float:
        if isinstance(value, SymFloat) or type(value) is float:
            return True
        return type(value) is int and abs(value) <= 2 ** 53
    return type(value) is int and not isinstance(value, Symbolic) and \
        -2 ** 63 <= value < 2 ** 63


def number_compare(tx, op: str, a: Variable, b: Variable) -> Variable | None:
    """``a <op> b`` as a graph comparison (see the module docstring), or None where it
    does not apply (the caller compares as before)."""
    if op not in _OPS:
        return None
    number = a if _kind(a) is not None else b if _kind(b) is not None else None
    if number is None:
        return None
    kind = _kind(number)
    if not (_fits(kind, a) and _fits(kind, b)):
        return None
    sides = [v.snapshot if isinstance(v, DeferredNumberVariable) else v for v in (a, b)]
    result = tx.output.call_op(ops.get(op), sides, {})
    return ComparedNumberVariable(result, number)


__all__ = ["ComparedNumberVariable", "is_deferred_bool", "number_compare"]
