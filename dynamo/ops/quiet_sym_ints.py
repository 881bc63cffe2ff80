"""Which ``sym_int`` nodes cannot raise, so that dead-code elimination may drop them
(``signals.may_signal``).

A ``sym_int`` node computes a Python int from symbols with Python's operators
(``variables/size_values.py``: ``i // 2`` over a loop's trip, ``max(n, 1)``). Python's
ints never overflow, so the expression raises only by dividing by zero (``k // n``,
``k % n``) or through an operator this module does not know; it is quiet when every
operator is ``+ - *``, unary ``- + abs``, ``max``/``min``, or ``//``/``%`` by a
nonzero int constant, over int symbols and int constants.

Why it matters: a split loop (translator/split_quotients.py) computes ``i // 2`` in
the outer body, where it splits the inner loop, and the inner body's own ``i // 2``
(the test ``j <= i // 2`` that the split removed) was left without readers but kept,
as an opaque op that may raise: the numpy backend ran it on every inner trip, and
``half_lower`` took 1.2x plain NumPy's time (docs/benchmarks.md, issue #23).

Example::

    >>> quiet_int_expr(Expr.apply(operator.floordiv, Expr.of(i), Expr.of(2)))
    True
    >>> quiet_int_expr(Expr.apply(operator.floordiv, Expr.of(k), Expr.of(n)))  # n = 0?
    False
"""

from __future__ import annotations

import operator

from dynamo.symbolic.sizes import Sym

_QUIET_OPS = frozenset({operator.add, operator.sub, operator.mul, operator.neg,
                        operator.pos, abs, max, min})
_BY_CONSTANT = frozenset({operator.floordiv, operator.mod})


def quiet_int_expr(expr) -> bool:
    """Whether computing ``expr`` (a ``symbolic.scalars.Expr`` or an affine ``Sym``)
    never raises, whatever its symbols' int values."""
    if isinstance(expr, Sym):
        return True   # (an affine int: sums of int multiples of int symbols)
    op, args = getattr(expr, "op", None), getattr(expr, "args", None)
    if op == "int":
        return isinstance(args[0], Sym)
    if op == "const":
        return type(args[0]) is int
    if op in _QUIET_OPS:
        return all(quiet_int_expr(a) for a in args)
    if op in _BY_CONSTANT and len(args) == 2:
        d = args[1]
        return quiet_int_expr(args[0]) and getattr(d, "op", None) == "const" and \
            type(d.args[0]) is int and d.args[0] != 0
    return False


def quiet_sym_int(node) -> bool:
    """A ``sym_int`` node whose expression never raises (``quiet_int_expr``)."""
    if node.target != "sym_int" or len(node.args) != 1 or node.kwargs:
        return False
    return quiet_int_expr(getattr(node.args[0], "sym", None))
