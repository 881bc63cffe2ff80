"""A data-dependent size read as a Python int, kept in the graph as a value (issue #19).

``len(kept)``, ``seg.size`` and ``s.shape[0]`` of an array whose length the data
decides (``x[x > 0]``, ``v[p[0]:p[1]]``) are an *unbacked* size ``u0``
(docs/unbacked.md): an affine expression over it (``n + 1``, ``2 * n``) stays a
symbolic int, and ``s / n`` a symbolic float. What is not affine used to read the
value, and broke the graph: ``max(seg.size, 1)``, ``n // 2``, ``n % k``, ``n ** 2``,
``len(kept) > 0`` returned as data. Here such an operation is a value the graph
computes when it runs, with Python's own operators on the very ints eager has:

- an int result (``max``/``min`` of ints, ``//`` and ``%`` by a nonzero int constant,
  ``**`` by a constant int >= 0, ``abs``) is a fresh unbacked int ``ui0``
  (``ShapeEnv.new_unbacked_int``), computed by a ``sym_int`` node over the sizes'
  expression. It is a ``SymInt``, so it flows on as any unbacked size does: affine
  arithmetic, an array op's scalar argument, ``s / max(n, 1)`` (a float), returned or
  stored (the glue reads ``int(...)`` of the node: a Python int, as eagerly);
- a comparison (``len(kept) > 2``, ``seg.size == 0``) is a ``SizeTruthVariable``: a
  Python bool the glue makes from a ``sym_truth`` node (a 0-d bool array), so
  ``return len(kept) > 0`` and ``flags.append(n == 0)`` need no break.

A decision on either (``if seg.size:``, ``while n > 1``, ``range(max(n, 1))``, a shape
``np.zeros(n // 2)``) still needs the value while tracing, and breaks there, with the
reason that the size is known only when the graph runs (``sizes._refuse_unbacked``).
Only where every operand is an int (or a SymInt) and nothing can raise: a divisor that
could be 0 or a negative exponent is left to the general path (which breaks).

Example::

    def segment_mean(v, p):
        seg = v[p[0]:p[1]]                        # length u0
        return seg.sum() / max(seg.size, 1)       # max: ui0 = max(u0, 1), in the graph
"""

from __future__ import annotations

import operator

import numpy as np

from .. import ops
from ..exc import Unsupported
from ..symbolic import Expr, SymArg, SymInt
from ..symbolic.sizes import Specialize, is_unbacked, is_unbacked_number, record
from .arrays import ArrayVariable, DeferredNumberVariable
from .base import Variable
from .constant import ConstantVariable

# operator names (``constant.BINARY``'s keys) whose int result the graph computes
_INT_OPS = {"floor_divide": operator.floordiv, "remainder": operator.mod,
            "pow": operator.pow}


class _Compare:
    """A comparison operator an ``Expr`` can hold: it prints itself (``(u0 > 2)``)."""

    def __init__(self, fn, text: str):
        self.fn, self.text = fn, text
        self.__name__ = fn.__name__

    def __call__(self, a, b):
        return self.fn(a, b)

    def render_call(self, a: str, b: str) -> str:
        return f"({a} {self.text} {b})"


_COMPARES = {name: _Compare(fn, text) for name, fn, text in (
    ("greater", operator.gt, ">"), ("greater_equal", operator.ge, ">="),
    ("less", operator.lt, "<"), ("less_equal", operator.le, "<="),
    ("equal", operator.eq, "=="), ("not_equal", operator.ne, "!="))}


def _reads_unbacked(value) -> bool:
    """A SymInt over an unbacked size (or an int the graph computes from one)."""
    return isinstance(value, SymInt) and any(
        is_unbacked(s) and not is_unbacked_number(s)
        for s in value.sym.symbols)


def holds_size(tx, variable: Variable) -> bool:
    """Is ``variable`` an int over a data-dependent size, that this module keeps?"""
    return _ints(tx, [variable]) is not None


def _ints(tx, variables) -> list | None:
    """The int values of ``variables`` where this module applies: all ints or SymInts
    (no bools: ``True + n`` and friends stay as they were), one over an unbacked size,
    in the frame's own graph (a loop body's values are its node's) and for a backend
    that takes unbacked sizes; None otherwise."""
    out = tx.output
    if out.loop_scope is not None or not out.shape_env.dynamic.unbacked:
        return None
    if not all(isinstance(v, ConstantVariable) for v in variables):
        return None
    values = [v.value for v in variables]
    if not all(type(v) is int or isinstance(v, SymInt) for v in values):
        return None
    return values if any(_reads_unbacked(v) for v in values) else None


def _node(tx, target: str, expr: Expr, meta: dict):
    out = tx.output
    arg = SymArg(expr, {n: out.symbol_placeholder(n) for n in expr.symbols})
    return out.graph.call(target, (arg,), meta={**out.current_loc, "kind": ops.OPAQUE,
                                                **meta})


def graph_int(tx, fn, values: list, what: str) -> ConstantVariable:
    """``fn(*values)`` (ints, one over an unbacked size) as an unbacked int the graph
    computes: a ``sym_int`` node, whose value is also the new symbol's."""
    out = tx.output
    expr = Expr.apply(fn, *(Expr.of(v) for v in values))
    hint = fn(*(int(v) for v in values))
    where = out.current_loc.get("loc", "").rsplit("/", 1)[-1] or "this line"
    # (``max(n, 1)`` is never below 1: ``7 / max(n, 1)`` cannot raise, symbolic/scalars.py)
    floor = max((v for v in values if type(v) is int), default=None) if fn is max else None
    number = out.shape_env.new_unbacked_int(f"{what}, at {where}", hint, floor)
    name = next(iter(number.sym.symbols))
    node = _node(tx, "sym_int", expr, {"symbol": name})
    out.unbacked_numbers[name] = (int, node)
    out.number_symbols[name] = number
    out.symbol_nodes[name] = node
    return ConstantVariable(number)


def size_operator(tx, name: str, a: Variable, b: Variable) -> Variable | None:
    """``a <name> b`` (``floor_divide``, ``remainder``, ``power``, a comparison) where
    an operand is a data-dependent size: a value of the graph (see the module
    docstring); None where this does not apply (the general path)."""
    values = _ints(tx, [a, b])
    if values is None:
        return None
    x, y = values
    if name in _COMPARES:
        return size_truth(tx, _COMPARES[name], x, y)
    fn = _INT_OPS.get(name)
    if fn is None or type(y) is not int:
        return None   # (a symbolic divisor or exponent could be 0 or negative: raises)
    if fn is operator.pow and y < 0 or fn is not operator.pow and y == 0:
        return None
    return graph_int(tx, fn, [x, y], f"{name} of a data-dependent size")


def size_choice(tx, fn, variables: list) -> Variable | None:
    """``max(n, 1)`` / ``min(n, k)`` (``fn``) of ints, one a data-dependent size: the
    graph picks, with the builtin itself (the first of equal ints: the same int)."""
    if len(variables) < 2:
        return None
    values = _ints(tx, variables)
    if values is None:
        return None
    return graph_int(tx, fn, values, f"{fn.__name__}() of a data-dependent size")


def size_abs(tx, variable: Variable) -> Variable | None:
    """``abs(n - k)`` of a data-dependent size: computed by the graph."""
    values = _ints(tx, [variable])
    return None if values is None else \
        graph_int(tx, abs, values, "abs() of a data-dependent size")


def size_truth(tx, compare: _Compare, x, y) -> Variable:
    """``x <op> y`` of ints, one a data-dependent size: a bool the glue makes from a
    ``sym_truth`` node, for the program to keep as data."""
    expr = Expr.apply(compare, Expr.of(x), Expr.of(y))
    meta = ops.ArrayMeta((), np.dtype(bool), ops.NUMPY, False)
    node = _node(tx, "sym_truth", expr, {"array": meta})
    text = f"{_plain(x)} {compare.text} {_plain(y)}"
    return SizeTruthVariable(bool, ArrayVariable(node, meta), expr, text)


def _plain(value) -> str:
    return value.sym.render() if isinstance(value, SymInt) else repr(value)


class SizeTruthVariable(DeferredNumberVariable):
    """A comparison of data-dependent sizes (``len(kept) > 0``): a Python bool the glue
    makes after the graph has run (``bool`` of the ``sym_truth`` node). Returned,
    stored or appended it needs no break; a branch on it, or any use that needs the
    bool while tracing, breaks there (``needed``)."""

    def __init__(self, fn: type, snapshot: ArrayVariable, expr: Expr, text: str):
        super().__init__(fn, snapshot)
        self.expr, self.text = expr, text   # text: ``u0 > 2``

    def describe(self) -> str:
        return f"the comparison {self.text} of data-dependent sizes"

    def needed(self) -> Unsupported:
        """The break a decision on an unbacked size is (``sizes.record`` refuses it,
        naming the size, the line and what would stay in the graph)."""
        try:
            record(self.text, True, self.expr.symbols)
        except Unsupported as e:
            return e
        except Specialize:   # (no trace: nothing to name)
            pass
        return Unsupported(f"a data-dependent size used as a Python value: a comparison "
                           f"({self.text})", cause="data_dependent_shape")


def truth_operands(a: Variable, b: Variable) -> tuple[Variable, Variable]:
    """``x * (len(kept) > 0)``: a comparison of sizes beside an array is its 0-d bool
    array. Bool is below every dtype in NumPy's promotion, so a Python bool and a 0-d
    bool array give an array operand the same dtype, values, warnings and errors
    (``x - True`` of a bool ``x`` raises for both); beside anything else it stays the
    Python bool (``(n > 0) + 1`` is the Python int 2, not ``np.int64``), and beside a
    CuPy array too (the 0-d array is NumPy's, which CuPy's operators refuse)."""
    def numpy_array(v):
        return isinstance(v, ArrayVariable) and v.meta.kind == ops.NUMPY
    if isinstance(a, SizeTruthVariable) and numpy_array(b):
        a = a.snapshot
    if isinstance(b, SizeTruthVariable) and numpy_array(a):
        b = b.snapshot
    return a, b


__all__ = ["SizeTruthVariable", "graph_int", "holds_size", "size_abs", "size_choice",
           "size_operator", "size_truth", "truth_operands"]
