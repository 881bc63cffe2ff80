"""``math.sqrt(x.sum())``, ``math.exp(arr.mean())``, ``math.log(v)``: a function of
``math`` of a 0-d float the graph computes, kept in the graph (issue #19).

Eagerly, ``math.sqrt(s)`` of a NumPy scalar (or 0-d array, or ``float(s)``) converts
``s`` with ``float`` and returns a Python float; it raises ``ValueError: math domain
error`` for a negative ``s`` (``math.log``: for ``s <= 0``; ``math.exp``:
``OverflowError`` past about 709.78). So the value is ``float(s)`` as an unbacked number
(``uf0``, ``variables/graph_numbers.py``), and the result the same function of it, a
``SymFloat`` whose expression the glue (or an op of the graph) computes with
``math.sqrt`` itself: eager's float, bit for bit. Whether it raises depends on the data,
so the graph first checks that it does not (a ``data_check``, as ``int()`` of a float
array is checked finite: ``raising_checks.value_check``)::

    r = math.sqrt(d.sum())      # graph: check(d_sum < 0 is False); glue or op:
                                # math.sqrt(float(d_sum))

Where the check fails (a negative sum), the graph raises before any effect is replayed
and the frame's original code runs: ``math.sqrt`` raises eager's error at eager's line.
The checks are one comparison each, a little stricter than the functions (``math.exp``
is checked ``> 709``): a value past the check but not past the function only runs the
frame in Python. ``math.sqrt`` of a value that is never negative (``(x * x).sum()``,
``d.var()``, ``np.abs(d).mean()``: ``_never_negative``) needs no check at all. Where
no check can be made (in a loop node's body, after a draw or an input written, which a
rerun could not undo), or for another function, it is a break, as before, with a hint.

Example::

    >>> dynamo.explain(lambda x: math.sqrt((x * x).sum()))(x).graph_break_count
    0
"""

from __future__ import annotations

import math

from .. import ops
from ..exc import Unsupported
from ..symbolic import SymFloat
from ..symbolic.exprs import Expr
from ..variables import ArrayVariable, ConstantVariable
from ..variables.arrays import DeferredNumberVariable
from ..variables.conversions import ArrayToPythonVariable
from ..variables.graph_numbers import graph_number_of
from ..variables.snapshots import snapshot
from .raising_checks import value_check

# function -> the comparison (NumPy's ufunc) and bound that is True where it may raise,
# one op (False for NaN, for which each returns NaN; ``math.exp(inf)`` is inf, checked
# out anyway)
_DOMAIN = {
    math.sqrt: ("less", 0.0),
    math.log: ("less_equal", 0.0),
    math.log2: ("less_equal", 0.0),
    math.log10: ("less_equal", 0.0),
    math.exp: ("greater", 709.0),
}
# functions that return a float for every float (inf and NaN included) and never raise:
# no check (``0.5 * (1 + math.erf(v / math.sqrt(2)))``, the normal CDF of an unrolled
# loop's element in Tauchen's method; in a loop node's body there are no graph numbers)
_TOTAL = tuple(getattr(math, name) for name in ("erf", "erfc", "atan", "tanh", "fabs"))
# ops whose result is >= 0 or NaN for every input (``_never_negative``), and those that
# are where their array operands are
_NONNEGATIVE = frozenset({"square", "absolute", "abs", "fabs", "sqrt", "exp", "exp2",
                          "var", "std", "hypot"})
_KEEPS_SIGN = frozenset({"sum", "mean", "max", "min", "add", "maximum", "minimum",
                         "copy", "nansum", "nanmean", "average", "multiply", "scalar_add",
                         "scalar_multiply", "scalar_divide"})
# keywords that leave a reduction's sign as its operand's
_PLAIN_KEYWORDS = frozenset({"axis", "keepdims", "dtype"})


def math_of_array(tx, fn, args: list, kwargs: dict):
    """``fn(x)`` for ``fn`` of ``_DOMAIN`` and ``x`` a 0-d float of NumPy's the graph
    computes (a NumPy scalar, a 0-d array, or ``float()``/``.item()`` of one): a
    ``ConstantVariable`` of the result's ``SymFloat`` (module docstring). None where
    this does not apply (the caller goes on as before); the break where it applies but
    no check can be made."""
    # (by identity: a builtin method of an unhashable object is no dict key)
    total = any(fn is f for f in _TOTAL)
    if not (total or any(fn is f for f in _DOMAIN)) or kwargs or len(args) != 1 or \
            tx.output.loop_scope is not None:
        return None
    arg = args[0]
    if isinstance(arg, DeferredNumberVariable) and getattr(arg, "graph_number", False) \
            and arg.fn is float:
        array = arg.snapshot      # (``float(s)``, ``s.item()``: already a snapshot)
    elif isinstance(arg, ArrayVariable):
        array = arg
    else:
        return None
    meta = array.meta
    if not isinstance(meta, ops.ArrayMeta) or meta.kind != ops.NUMPY or meta.shape != () \
            or meta.dtype.kind != "f":
        return None
    name = fn.__name__
    error = Unsupported(
        f"math.{name}() of array data",
        f"math.{name} returns a Python float of a value only the data decides, and raises "
        "for some values; here the graph cannot check the value first and run the "
        "frame in Python where it would raise.",
        f"use np.{name}(x) (a NumPy scalar, the same value; float(np.{name}(x)) for a "
        "Python float), or accept the graph break", cause="array_to_python")
    if isinstance(array, ArrayVariable) and array is arg:
        array = snapshot(tx, array)
    out = tx.output
    ufunc, bound = _DOMAIN.get(fn, (None, None))

    def flag():
        return out.call_op(ops.get(ufunc), [array, ConstantVariable(bound)], {})
    number = graph_number_of(out, ArrayToPythonVariable(float, array))
    if not (isinstance(number, ConstantVariable) and isinstance(number.value, SymFloat)):
        raise error
    if not (total or fn is math.sqrt and _never_negative(array.node)):  # (a norm: none)
        value_check(tx, flag, error, passes=False)
    x = number.value
    return ConstantVariable(SymFloat(fn(float.__float__(x)), Expr.apply(fn, Expr.of(x))))


def _never_negative(node, depth: int = 0) -> bool:
    """Is the graph value ``node`` >= 0 or NaN for every input (``(x * x).sum()``,
    ``np.abs(d).mean() / 3``, ``d.var()``)? Then ``math.sqrt`` of it cannot raise and
    needs no check. An op of ``_NONNEGATIVE``; ``x * x`` of one node; a sum, mean, max,
    product or quotient by a constant whose array operands are and whose constants are
    > 0; anything else: no (checked)."""
    target = getattr(node, "target", None)
    if depth > 8 or getattr(node, "op", None) != "call":
        return False
    if target in _NONNEGATIVE:
        return True
    if target == "multiply" and len(node.args) == 2 and node.args[0] is node.args[1]:
        return True
    if target == "pow" and len(node.args) == 2 and type(node.args[1]) is int and \
            node.args[1] % 2 == 0:
        return True
    if target not in _KEEPS_SIGN or set(node.kwargs) - _PLAIN_KEYWORDS:
        return False
    # (only by a constant: a value that is never negative may be -0.0, ``np.sqrt(-0.0)``,
    # and ``1 / -0.0`` is -inf)
    if target == "scalar_divide" and hasattr(node.args[-1], "target"):
        return False
    for a in node.args:
        if hasattr(a, "target"):
            if not _never_negative(a, depth + 1):
                return False
        elif not (type(a) in (int, float) and a > 0):
            return False
    return True


__all__ = ["math_of_array"]
