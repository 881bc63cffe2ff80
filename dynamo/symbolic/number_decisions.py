"""Comparisons of changing Python numbers (``SymFloat``, ``SymInt``) while tracing: a
branch decision guarded by its outcome (``decide``), or a read of the plain values
that pins their symbols (``plain``); and the small facts about operands that
``scalars.py`` and ``math_calls.py`` share (``hint``, ``symbols_of``, ``is_number``,
``data_decided``).

A float clock compared with a threshold (``if self.t >= 0.35:``) keeps one entry for
each side of it, not one per tick: the entry's guard is the comparison itself, over
the frame's values, and its note names it for what it is, with the line that made it::

    not ((self.t + 0.1) >= 0.35)  (a comparison of a changing number, at sim.py:12:
        if self.t >= 0.35:)

Example::

    >>> t = SymFloat(0.3, Expr.symbol("sf0", "L['t']"))   # a changing float
    >>> with recording() as trace:
    ...     decide(operator.ge, t, 0.35, Expr.of)
    False
    >>> trace.decisions
    ["not (L['t'] >= 0.35)"]
"""

from __future__ import annotations

import operator

from .sizes import Symbolic, is_unbacked, pin, record

# How a decision's guard is described (``ShapeEnv.add_guards``): not "a branch on a
# dynamic size", which is what a comparison of sizes is
COMPARED = "a comparison of a changing number"

ORDER = {operator.lt: "<", operator.le: "<=", operator.gt: ">", operator.ge: ">="}


def hint(value):
    """The plain value of an operand seen in this call."""
    if isinstance(value, Symbolic):
        return float.__float__(value) if isinstance(value, float) else int(value)
    return value


def symbols_of(*values) -> frozenset:
    """The symbols the operands' expressions read."""
    return frozenset().union(*(v.sym.symbols for v in values if isinstance(v, Symbolic)))


def plain(fn, *values):
    """``fn`` on the plain values: it reads them, so their symbols are pinned."""
    pin(symbols_of(*values), f"{getattr(fn, '__name__', fn)} of a changing number")
    return fn(*(hint(v) for v in values))


def is_number(value) -> bool:
    """A Python number an expression may hold: an exact int, float or bool, or symbolic.
    (NumPy scalars are not: ``float + np.float64`` is NumPy's, a ``np.float64``.)"""
    return type(value) in (int, float, bool) or isinstance(value, Symbolic)


def data_decided(*values) -> bool:
    """Does an operand hold a value only the data decides: an unbacked number
    (``uf0``), an unbacked size (``u0``, ``len(x[x > 0])``, which may be 0) or an int
    computed from one (``ui0``)? No value of it is known while tracing, so an operation
    that raises for some values is not kept as an expression."""
    return any(is_unbacked(s) for s in symbols_of(*values))


def decide(fn, a, b, expr_of) -> bool:
    """``a < b`` (``<=``, ``>``, ``>=``) of a changing float and a number: a branch
    decision, guarded as its outcome, not a pin (a float clock ``if self.t >= 0.35:``
    keeps one entry for each side of the threshold, not one per tick; the guard is
    the two expressions over the frame's values, Python's comparison of the same
    floats, ``expr_of(v).runtime()``). A value only the data decides, or another
    operand, reads the value."""
    if not (is_number(a) and is_number(b)) or data_decided(a, b):
        return plain(fn, a, b)
    result = fn(hint(a), hint(b))
    record(f"{expr_of(a).runtime()} {ORDER[fn]} {expr_of(b).runtime()}", result,
           symbols_of(a, b), what=COMPARED)
    return result
