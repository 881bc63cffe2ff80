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
could be 0 breaks with the rewrite that stays (``divisor_may_be_zero``: ``max(n, 1)``),
and a negative exponent is left to the general path (which breaks). A comparison in
Python arithmetic (``(n > 0) + 1``) is the int the graph computes from it
(``truth_numbers``). In a loop node's body each is a node of the body, computed on
every trip (``LoopScope`` localizes the sizes from before the loop).

Example::

    def segment_mean(v, p):
        seg = v[p[0]:p[1]]                        # length u0
        return seg.sum() / max(seg.size, 1)       # max: ui0 = max(u0, 1), in the graph
"""

from __future__ import annotations

import operator
import sys

import numpy as np

from .. import ops
from ..exc import Unsupported
from ..symbolic import Expr, SymArg, Symbolic, SymInt
from ..symbolic.deciders import answer
from ..symbolic.scalars import least_value
from ..symbolic.sizes import Specialize, as_sym, is_unbacked, is_unbacked_number, record
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


def is_count(value) -> bool:
    """Is ``value`` a data-dependent size itself, with no arithmetic on it (``len(kept)``,
    ``np.bincount(y).shape[0]``: the symbol ``u0``)? Such a size is an array's length,
    ``0 <= n < 2**63`` at every count, so a 64-bit NumPy int holds it: ``np.int64(n)``
    can never overflow, where ``np.int64(n ** 200)`` or ``np.int8(n)`` could.

        >>> is_count(len(x[x > 0]))           # u0
        True
        >>> is_count(len(x[x > 0]) + 1)       # u0 + 1: past 2**63 - 1 for the largest n
        False
    """
    if not isinstance(value, SymInt) or value.sym.const or len(value.sym.terms) != 1:
        return False
    (name, coeff), = value.sym.terms
    return coeff == 1 and is_unbacked(name) and not name.startswith(("ui", "uf"))


def count_cast(scalar_type: type, value) -> bool:
    """May ``scalar_type(value)`` of an int over a data-dependent size be a node
    (``scalar_cast``)? A float or complex type takes every int (a large one rounds, or
    is inf with NumPy's own OverflowError: the same call when the graph runs); a 64-bit
    int type takes a count itself (``is_count``), which it always holds. Other ints
    (``np.int8(n)``, ``np.int64(n ** 200)``) overflow for some values, which the trace,
    at its made-up counts, cannot tell from the program's: they break, as before."""
    dtype = np.dtype(scalar_type)
    if dtype.kind in "fc":
        return True
    return dtype.kind in "iu" and dtype.itemsize == 8 and is_count(value)


def _ints(tx, variables) -> list | None:
    """The int values of ``variables`` where this module applies: all ints or SymInts
    (no bools: ``True + n`` and friends stay as they were), one over an unbacked size,
    for a backend that takes unbacked sizes; None otherwise. (In a loop node's body
    the node is the body's: ``_node`` makes the sizes from before the loop its inputs.)"""
    out = tx.output
    if not out.shape_env.dynamic.unbacked:
        return None
    if not all(isinstance(v, ConstantVariable) for v in variables):
        return None
    values = [v.value for v in variables]
    if not all(type(v) is int or isinstance(v, SymInt) for v in values):
        return None
    return values if any(_reads_unbacked(v) for v in values) else None


def _node(tx, target: str, expr: Expr, meta: dict, more: tuple = ()):
    out = tx.output
    arg = SymArg(expr, {n: out.symbol_placeholder(n) for n in expr.symbols})
    if out.loop_scope is not None:   # (a size from before the loop: a body input)
        arg = out.loop_scope.localize(arg)
    return out.graph.call(target, (arg, *more), meta={**out.current_loc, "kind": ops.OPAQUE,
                                                **meta})


def graph_int(tx, fn, values: list, what: str) -> ConstantVariable:
    """``fn(*values)`` (ints, one over an unbacked size) as an unbacked int the graph
    computes: a ``sym_int`` node, whose value is also the new symbol's."""
    expr = Expr.apply(fn, *(Expr.of(v) for v in values))
    hint = fn(*(int(v) for v in values))
    # (``max(n, 1)`` is never below 1: ``7 / max(n, 1)`` cannot raise, symbolic/scalars.py)
    floor = max((v for v in values if type(v) is int), default=None) if fn is max else None
    return _graph_int(tx, expr, hint, what, floor)


def _graph_int(tx, expr: Expr, hint: int, what: str, floor: int | None) -> ConstantVariable:
    out = tx.output
    where = out.current_loc.get("loc", "").rsplit("/", 1)[-1] or "this line"
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
    both = truth_logic(tx, name, a, b)   # (len(a) > 0) & (len(b) > 0): a bool
    divisor_may_be_zero(tx, name, a, b)  # 1.0 / len(kept): breaks, with the rewrite
    if both is not None:
        return both
    values = _ints(tx, [a, b])
    if values is None:
        return None
    x, y = values
    if name in _COMPARES:
        # (a loop node's comparison of its indices and a split point's quotient may be
        # one value on every trip: ``translator/index_splits.decide`` answers it)
        known = answer(as_sym(x) - as_sym(y), _COMPARES[name].text)
        if known is not None:
            return ConstantVariable(known)
        return size_truth(tx, _COMPARES[name], x, y)
    fn = _INT_OPS.get(name)
    if fn is None:
        return None
    if fn is operator.pow:
        # (a constant exponent >= 0 only: ``2 ** n`` has n bits, an int no float holds
        # for some counts, and a float of it raises: ``divisor_may_be_zero`` has broken)
        if type(y) is not int or y < 0:
            return None
    else:
        # (``n // max(m, 1)``: a divisor known to be at least 1 never raises, and the
        # result is no larger than its operands; one that may be 0 has broken)
        least = y if type(y) is int else least_value(y.sym)
        if least is None or least <= 0:
            return None
    return graph_int(tx, fn, [x, y], f"{name} of a data-dependent size")


_DIVISIONS = {"divide": "/", "floor_divide": "//", "remainder": "%"}


def divisor_may_be_zero(tx, name: str, a: Variable, b: Variable) -> None:
    """``1.0 / n``, ``k // n``, ``s % len(kept)`` where the divisor is a Python int only
    the data decides and may be 0 (a count: ``scalars.least_value`` is not above 0),
    and ``2.0 ** n`` (``OverflowError`` past 1023): Python raises at this line for some
    counts, which the graph, run later, cannot raise here, inside the program's own
    ``try`` (issue #17, round 24). So it breaks, as it did, with the rewrite that keeps
    it in the graph: ``max(n, 1)`` (or ``n + 1``) is never 0. ``2 ** n`` breaks too: an
    int of n bits, which no float holds for some counts (a later ``* 0.5`` raises
    OverflowError, and the trace's made-up counts, 4099..., would say it always does)."""
    if name not in _DIVISIONS and name != "pow" or \
            not all(_python_number(v) for v in (a, b)) or \
            isinstance(b, SizeTruthVariable) or not isinstance(b.value, SymInt):
        return
    sym = b.value.sym
    if not any(is_unbacked(s) for s in sym.symbols) or \
            any(is_unbacked_number(s) for s in sym.symbols):
        return
    trace = tx.output.shape_env.trace
    what = ", ".join(sorted(trace.unbacked.get(s, s) if trace else s for s in sym.symbols))
    loc = tx.output.current_loc
    line = f"this line ({loc.get('loc', '')}: {(loc.get('source_line') or '').strip()})"
    if name == "pow":
        floats = isinstance(a, ConstantVariable) and isinstance(a.value, float)
        raise Unsupported(
            f"a {'float' if floats else 'number'} raised to a data-dependent size ({what})",
            "Python raises OverflowError here for a large count; the graph runs later, "
            "where it could not raise it at this line." if floats else "The result has "
            "as many digits as the count says: for some counts no float holds it, so a "
            "use of it as a float raises OverflowError there, which the graph could not.",
            hint=f"{line}: np.power(base, n) with a float base keeps it in the graph "
                 "where inf (with NumPy's overflow warning) may stand in for a number no "
                 "float holds; or accept this break (the code stays correct)",
            cause="data_dependent_shape")
    least = least_value(sym)
    if least is not None and least > 0:
        return
    raise Unsupported(
        f"a division ({_DIVISIONS[name]}) by a data-dependent size that may be 0 ({what})",
        "Python raises ZeroDivisionError here when the count is 0; the graph runs later, "
        "where it could not raise it at this line (nor inside the program's own try).",
        hint=f"{line}: divide by max(count, 1) (or count + 1), which is never 0, to keep "
             "the division in the graph; or test the count first (a break there), or "
             "accept this break (the code stays correct)",
        cause="data_dependent_shape")


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
    return _truth_node(tx, expr, f"{_plain(x)} {compare.text} {_plain(y)}")


def size_flag(tx, value: Variable) -> SizeTruthVariable | None:
    """Python's truth of an int is ``n != 0``: for a data-dependent size (``if
    len(kept):``, ``x * 2 if seg.size else x + 1``) that comparison as the graph's bool,
    for a jump to keep as a check or a select (``translator/branch_selects``) as it
    keeps ``len(kept) != 0``; None for any other value, and where no jump can keep it
    (in a loop node's body, a ``try``, a CuPy or dask graph: no node is added there,
    the truth test breaks as before).

        >>> size_flag(tx, len_kept)        # ConstantVariable(u0)
        SizeTruthVariable(u0 != 0)
    """
    out = tx.output
    if out.loop_scope is not None or tx.in_try() or out.kind not in (None, ops.NUMPY):
        return None
    values = _ints(tx, [value])
    if values is None or len(values) != 1:
        return None
    return size_truth(tx, _COMPARES["not_equal"], values[0], 0)


def _truth_node(tx, expr: Expr, text: str) -> SizeTruthVariable:
    meta = ops.ArrayMeta((), np.dtype(bool), ops.NUMPY, False)
    node = _node(tx, "sym_truth", expr, {"array": meta})
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
            # (``if n > 0:`` jumps on the bool; ``and``/``or`` whose right operand
            # may show something, ``n > 0 and 6 // n > 2``, too: translator/size_and_or)
            e.hint = f"{e.hint}; `&`, `|` of two such comparisons, `and`/`or` of two " \
                "that compute nothing else, a chain of two (lo <= len(idx) <= hi) whose " \
                "right side computes nothing else, and `not` of one stay in the graph as bools"
            return e
        except Specialize:   # (no trace: nothing to name)
            pass
        return Unsupported(f"a data-dependent size used as a Python value: a comparison "
                           f"({self.text})", cause="data_dependent_shape")




# Python's arithmetic on a bool is the int's (``True + 1 == 1 + 1``, ``True / 2``,
# ``2 ** True``, ``True * 3.5``): ``bitwise_*`` of two bools is a bool, and left out
_ARITHMETIC = frozenset(("add", "subtract", "multiply", "divide", "floor_divide",
                         "remainder", "pow"))
_LOGIC = {"bitwise_and": (operator.and_, "&"), "bitwise_or": (operator.or_, "|"),
          "bitwise_xor": (operator.xor, "^")}


def _python_number(v: Variable) -> bool:
    return isinstance(v, SizeTruthVariable) or isinstance(v, ConstantVariable) and (
        type(v.value) in (int, float, bool) or isinstance(v.value, Symbolic))


def truth_numbers(tx, name: str, a: Variable, b: Variable) -> tuple[Variable, Variable]:
    """``(n > 0) + 1``, ``True * (n > 1)``, ``count += len(seg) > 0``: a comparison of
    data-dependent sizes in Python arithmetic with another Python number. Python
    computes a bool's arithmetic as its int's, so each such comparison is replaced by
    the int the graph computes from it, ``(u0 > 0) + 0`` (an unbacked int ``ui0``, 0
    or 1: ``_graph_int``); the operator then takes its usual path with that int, and
    the result has eager's type (``(n > 0) + 1`` is the int 2, ``(n > 0) * 3.5`` the
    float 3.5). A divisor of such an int may be 0, so ``x / (n > 0)`` still breaks
    (``scalars.least_value``: its floor is 0). Beside an array, ``truth_operands``."""
    if name not in _ARITHMETIC or \
            not (_python_number(a) and _python_number(b)) or \
            not (isinstance(a, SizeTruthVariable) or isinstance(b, SizeTruthVariable)):
        return a, b
    return tuple(_truth_int(tx, v) if isinstance(v, SizeTruthVariable) else v
                 for v in (a, b))


def truth_number(tx, name: str, value: Variable) -> Variable:
    """``-(n > 0)``, ``+(n > 0)``, ``~(n > 0)``: Python negates and inverts a bool as
    its int (``-True`` is -1, ``~True`` is -2, ints), so the comparison becomes the int
    the graph computes from it and the operator then takes the int's path (``~`` of a
    symbolic int is ``-i - 1``: affine). From 3.12 ``~`` of a bool warns
    (DeprecationWarning, at every call): that breaks, as ``~True`` of a constant does
    (``constant.fold``), so Python runs it and warns."""
    if not isinstance(value, SizeTruthVariable):
        return value
    if name == "invert" and sys.version_info >= (3, 12):
        raise Unsupported(f"~ of a bool ({value.text}) warns on Python 3.12+ "
                          "(DeprecationWarning: bitwise inversion '~' on bool)")
    if name in ("negative", "positive", "invert"):
        return _truth_int(tx, value)
    return value


class _Not:
    """``not`` in an ``Expr``: it prints itself (``(not (u0 > 2))``)."""

    __name__ = "not_"

    def __call__(self, a):
        return not a

    def render_call(self, a: str) -> str:
        return f"(not {a})"


_NOT = _Not()


def truth_not(tx, value: Variable) -> Variable | None:
    """``not (len(kept) > 0)``: the negated comparison, again a bool the graph computes
    (``sym_truth``), so it is returned, stored or used in arithmetic as the comparison
    is (``-(not (n > 0))``); None for any other value (the truth test's own path)."""
    if not isinstance(value, SizeTruthVariable):
        return None
    return _truth_node(tx, Expr.apply(_NOT, value.expr), f"not ({value.text})")


def _truth_int(tx, truth: SizeTruthVariable) -> ConstantVariable:
    expr = Expr.apply(operator.add, truth.expr, Expr.of(0))
    hint = expr.evaluate(tx.output.shape_env.hints)
    return _graph_int(tx, expr, hint, f"the int of {truth.text}", 0)


def truth_logic(tx, name: str, a: Variable, b: Variable) -> Variable | None:
    """``(len(a) > 0) & (len(b) > 0)`` (``|``, ``^``; or with a Python bool): a bool, as
    Python's ``&`` of two bools is, the graph computes (``sym_truth``); None where
    this does not apply (an int operand: an int, ``truth_numbers``)."""
    if name not in _LOGIC or not any(isinstance(v, SizeTruthVariable) for v in (a, b)):
        return None
    if not all(isinstance(v, SizeTruthVariable) or isinstance(v, ConstantVariable) and
               type(v.value) is bool for v in (a, b)):
        return None
    fn, text = _LOGIC[name]
    x, y = (v.expr if isinstance(v, SizeTruthVariable) else Expr.of(v.value)
            for v in (a, b))
    words = " ".join((_words(a), text, _words(b)))
    return _truth_node(tx, Expr.apply(_Compare(fn, text), x, y), words)


def _words(v: Variable) -> str:
    return f"({v.text})" if isinstance(v, SizeTruthVariable) else repr(v.value)


def truth_operands(tx, name: str, a: Variable, b: Variable) -> tuple[Variable, Variable]:
    """``x * (len(kept) > 0)``: a comparison of sizes beside an array is its 0-d bool
    array. Bool is below every dtype in NumPy's promotion, so a Python bool and a 0-d
    bool array give an array operand the same dtype, values, warnings and errors
    (``x - True`` of a bool ``x`` raises for both). Beside a NumPy scalar (a constant,
    or the graph's: ``x.sum()``) it is 0 or 1 as a scalar of that scalar's dtype
    (``sym_truth_scalar``): NEP 50 takes the Python bool as weak and converts it to the
    scalar's type, so Python's operator then runs NumPy's scalar path for two scalars
    of one type, with its overflow checks and warnings (``(n > 0) + np.int8(127)``
    warns ``overflow encountered in scalar add``, ``(n > 0) / s`` of a zero ``s``
    ``divide by zero encountered in scalar divide``). A 0-d array, or NumPy's bool
    scalar, beside it takes the ufunc's path instead, with none of those or other
    words (hostile round 26). Beside anything else it stays the Python bool (``(n > 0) + 1`` is the
    Python int 2, not ``np.int64``), and beside a CuPy array too (the 0-d array is
    NumPy's, which CuPy's operators refuse); beside another Python number, its int
    (``truth_numbers``)."""
    def numpy_array(v):
        return isinstance(v, ArrayVariable) and v.meta.kind == ops.NUMPY and \
            not v.meta.scalar

    def numpy_scalar(v):
        return isinstance(v, ArrayVariable) and v.meta.kind == ops.NUMPY and \
            v.meta.scalar or isinstance(v, ConstantVariable) and \
            isinstance(v.value, (np.bool_, np.number))

    def operand(v, other):
        if not isinstance(v, SizeTruthVariable):
            return v
        if numpy_array(other):
            return v.snapshot
        if numpy_scalar(other):
            dtype = other.meta.dtype if isinstance(other, ArrayVariable) else \
                other.value.dtype
            meta = ops.ArrayMeta((), dtype, ops.NUMPY, True)
            return ArrayVariable(_node(tx, "sym_truth_scalar", v.expr, {"array": meta},
                                       (dtype.str,)), meta)
        return v
    return truth_numbers(tx, name, operand(a, b), operand(b, a))


__all__ = ["SizeTruthVariable", "graph_int", "holds_size", "size_abs", "size_choice",
           "size_flag", "size_operator", "size_truth", "truth_logic", "truth_not", "truth_number",
           "truth_numbers", "truth_operands"]
