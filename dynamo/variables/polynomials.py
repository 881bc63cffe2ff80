"""``np.poly1d`` objects made in the trace: ``Poly1dVariable`` (issue #19).

A ``poly1d`` is a Python object around one array, its coefficients: NumPy makes them
with ``atleast_1d``, then ``trim_zeros(c, 'f')`` (a view of ``c`` without its leading
zeros; ``[0]`` of ``c``'s dtype where nothing is left). Here that array is a graph
value, and the object is the translator's:

- ``np.poly1d(c)`` of a traced array: the coefficients are the op ``poly1d_coeffs(c)``
  (``ops/numerics.py``), NumPy's own construction when the graph runs, a view of ``c``
  of a length the data decides (an unbacked size: how many zeros lead; 1 for a 0-d
  ``c``). Of constants (``np.poly1d([1.0, 2.0])``): NumPy makes the object while
  tracing and the graph makes the coefficients from their values, a fresh array on
  every call, as eagerly;
- ``p(x)`` and ``np.polyval(p, x)`` are ``np.polyval(p.coeffs, x)``, NumPy's own
  definitions of both (the op ``poly1d_value``: ``polyval`` of at least one
  coefficient, so its shape and dtype are one answer for every length);
- ``p.coeffs`` (``.c``, ``.coef``, ``.coefficients``) is that array itself, the same
  object on every read, as NumPy's property is; ``p.order`` (``.o``) is its length
  less 1, ``p.variable`` the name;
- returned, or alive at a break, the glue builds the object around the graph's
  coefficient array (``ops.numerics.rebuild_poly1d``: no second trim, so ``p.coeffs``
  is that very array).

- arithmetic (``p + q``, ``p - 1.0``, ``2.0 * p``, ``p * q``, ``p * x``, ``p / 2.0``,
  ``p ** 2``, ``-p``), ``p.deriv(m)``, ``p.integ(m, k)`` and ``np.polyder``,
  ``np.polyint``, ``np.polyadd``, ``np.polysub``, ``np.polymul`` of a polynomial are
  NumPy's own calls on polynomials rebuilt around the coefficient arrays, in the graph
  (the op ``poly1d_result``): a new polynomial whose coefficients NumPy trims (an
  unbacked length) and whose variable is ``x``, as NumPy makes it; ``+p`` is ``p``;
- ``len(p)`` is ``p.order``; ``p[k]`` (an int constant) the op ``poly1d_item``, NumPy's
  ``__getitem__`` (0 of the dtype past either end).

Anything else of the object (``p.roots``, whose dtype the values decide; ``p / q``, a
pair; composition ``p(q)``; an array or NumPy scalar on the left of an operator, which
takes NumPy's array path; ``p.deriv(0)``, a view; ``np.poly1d(c, r=True)``) breaks, with
the hint to use the coefficient arrays. A ``poly1d`` from outside the frame (an argument, a
global, one alive at a graph break) is the same variable around its coefficient array,
an input read as ``p.coeffs``; it is guarded by its type and its variable's name, not by
identity, so a new polynomial on every call reuses the entry
(``builder``).

Example::

    def smooth(c, t):
        p = np.poly1d(c)            # coeffs = poly1d_coeffs(c): length u0
        d = p.deriv() * 2.0         # poly1d_result("mul", ...): length u1
        return p(t), p.order, d(t)  # polyval(coeffs, t), u0 - 1: one graph
"""

from __future__ import annotations

import numpy as np

from .. import ops
from ..exc import Unsupported
from ..ops.numerics import rebuild_poly1d
from ..symbolic import Symbolic
from .arrays import ArrayVariable, call_library
from .base import BoundBuiltinMethod, Variable
from .constant import ConstantVariable
from .sequences import SequenceVariable

_COEFFS = frozenset(("coeffs", "c", "coef", "coefficients"))
_HINT = ("use the coefficient array itself: np.polyval(c, x) for p(x), and np.polyder, "
         "np.polyadd, np.polymul of arrays (they return arrays for array inputs)")


class Poly1dVariable(Variable):
    """An ``np.poly1d`` made in the trace: its coefficients (an ArrayVariable) and the
    name of its variable."""

    def __init__(self, coeffs: ArrayVariable, variable: str, source=None):
        self.coeffs, self.variable, self.source = coeffs, variable, source

    def describe(self) -> str:
        return "np.poly1d object"

    def python_type(self) -> type:
        return np.poly1d

    def call(self, tx, args, kwargs) -> Variable:
        if len(args) != 1 or kwargs or isinstance(args[0], Poly1dVariable):
            raise Unsupported("calling an np.poly1d object with other than one array or "
                              "number (a polynomial: composition)", hint=_HINT,
                              cause="unregistered_function")
        return polyval(tx, self.coeffs, args[0])

    def getattr(self, tx, name: str) -> Variable:
        if name in _COEFFS:
            return self.coeffs
        if name in ("order", "o"):
            return ConstantVariable(self.order())
        if name == "variable":
            return ConstantVariable(self.variable)
        if name in ("deriv", "integ"):
            return BoundBuiltinMethod(self, name)
        raise Unsupported(f"attribute {name!r} of an np.poly1d object", hint=_HINT,
                          cause="unregistered_function")

    def order(self):
        """``p.order`` and ``len(p)``: one less than the coefficients' length."""
        return self.coeffs.meta.shape[0] - 1

    def call_method(self, tx, name: str, args: list, kwargs: dict) -> Variable:
        """``p.deriv(m=1)``, ``p.integ(m=1, k=0)``: NumPy's own, on the coefficients."""
        if name not in ("deriv", "integ"):
            return super().call_method(tx, name, args, kwargs)
        names = ("m",) if name == "deriv" else ("m", "k")
        bound = _bind(names, args, kwargs, {"m": 1, "k": 0})
        if bound is None:
            raise _refused(f"p.{name}() with these arguments")
        return _result(tx, name, [self, *(bound[n] for n in names)])

    def getitem(self, tx, index: Variable) -> Variable:
        """``p[k]``: the coefficient of ``x**k`` (a NumPy scalar; 0 past either end)."""
        k = index.as_python_constant() if index.is_constant() else None
        if type(k) is not int:
            raise _refused("p[k] with other than an int constant k")
        return call_library(tx, ops.get("poly1d_item"), ops.registry.same,
                            [self.coeffs, index], {})

    def reconstruct(self, cg) -> str:
        if self.source is not None:   # the program's own object (it may not be rebuilt)
            return self.source.expr()
        return f"{cg.const(rebuild_poly1d)}({self.coeffs.reconstruct(cg)}, {self.variable!r})"


def polyval(tx, coeffs: ArrayVariable, x: Variable) -> Variable:
    """``np.polyval(coeffs, x)`` (``p(x)`` is exactly this), as the op ``poly1d_value``:
    ``polyval`` whose rule knows there is at least one coefficient (``[0]`` where all
    were zeros), so a length the data decides gives one answer."""
    if isinstance(x, Poly1dVariable):
        raise Unsupported("np.polyval at an np.poly1d object (a polynomial)", hint=_HINT,
                          cause="unregistered_function")
    return call_library(tx, ops.get("poly1d_value"), ops.registry.same, [coeffs, x], {})


def _refused(what: str) -> Unsupported:
    return Unsupported(f"{what} of an np.poly1d object (not modelled)", hint=_HINT,
                       cause="unregistered_function")


def _bind(names: tuple, args: list, kwargs: dict, defaults: dict) -> dict | None:
    """Arguments by name, each a Python constant (an order ``m``: an int >= 1, as
    ``m == 0`` returns a view of the coefficients, not a new array); None otherwise."""
    if len(args) > len(names) or set(kwargs) - set(names) or \
            set(kwargs) & set(names[:len(args)]):
        return None
    bound = {**defaults, **dict(zip(names, args)), **kwargs}
    values = {}
    for n in names:
        v = bound[n]
        v = v.as_python_constant() if isinstance(v, Variable) and v.is_constant() and \
            not isinstance(v, Poly1dVariable) else v
        if isinstance(v, (Variable, Symbolic)) or n == "m" and (type(v) is not int or v < 1):
            return None
        values[n] = ConstantVariable(v)
    return values


def _operand(v: Variable) -> tuple[str, Variable] | None:
    """An operand of NumPy's poly1d arithmetic this module passes to the graph: a
    polynomial (``"p"``: its coefficients), a NumPy array of at most one dimension
    (``"a"``), a Python number (``"c"``); None for anything else."""
    if isinstance(v, Poly1dVariable):
        return "p", v.coeffs
    if isinstance(v, ArrayVariable):
        return ("a", v) if v.meta.kind == ops.NUMPY and v.meta.ndim <= 1 else None
    if isinstance(v, ConstantVariable) and (type(v.value) in (int, float) or
                                            v.value is None):
        return "c", v   # (None: polyint's k)
    return None


def _result(tx, how: str, operands: list) -> Poly1dVariable:
    """The poly1d NumPy makes by ``POLY1D_CALLS[how]``: its coefficients computed by
    the graph (``poly1d_result``), its variable ``x`` (NumPy makes a new one)."""
    parts = [_operand(v) for v in operands]
    what = f"NumPy's poly1d {how} with {', '.join(v.describe() for v in operands[1:])}" \
        if len(operands) > 1 else f"NumPy's poly1d {how}"
    if any(p is None for p in parts):
        raise _refused(what)
    kinds = "".join(k for k, _ in parts)
    try:
        coeffs = tx.output.call_op(ops.get("poly1d_result"),
                                   [ConstantVariable(how), ConstantVariable(kinds),
                                    *(v for _, v in parts)], {})
    except Unsupported as e:   # (the op's rule refuses: a dtype, NumPy's own error)
        raise _refused(f"{what}: {e.reason.split(': ', 1)[-1]}") from None
    return Poly1dVariable(coeffs, "x")


# Python operator name (``translator/operators.BINARY_OPS``) -> NumPy's poly1d method
_BINARY = {"add": "add", "subtract": "sub", "multiply": "mul", "divide": "truediv",
           "pow": "pow"}
_REFLECTED = {"add": "radd", "subtract": "rsub", "multiply": "rmul"}


def poly1d_operator(tx, name: str, a: Variable, b: Variable) -> Variable | None:
    """``p + q``, ``p - 1.0``, ``2.0 * p``, ``p * x``, ``p / 2.0``, ``p ** 2`` where a
    polynomial is on the left, or a Python number is on the left of one: NumPy's own
    (``poly1d_result``). None where neither is a polynomial; a break with the hint
    for what is not modelled (an array or a NumPy scalar on the left takes NumPy's
    array path; ``p / q`` is a (quotient, remainder) pair; ``p ** -1`` raises)."""
    if not (isinstance(a, Poly1dVariable) or isinstance(b, Poly1dVariable)):
        return None
    if isinstance(a, Poly1dVariable):
        how, operands = _BINARY.get(name), [a, b]
        if how == "truediv" and _operand(b) is not None and _operand(b)[0] != "c":
            how = None
        if how == "pow" and not (isinstance(b, ConstantVariable) and type(b.value) is int
                                 and 0 <= b.value <= 64):
            how = None
    else:
        how, operands = _REFLECTED.get(name), [b, a]
        if _operand(a) is None or _operand(a)[0] != "c":
            how = None
    if how is None:
        raise _refused(f"operator {name} of {a.describe()} and {b.describe()}")
    return _result(tx, how, operands)


def poly1d_unary(tx, name: str, value: Variable) -> Variable | None:
    """``-p`` (a new polynomial of the negated coefficients) and ``+p`` (``p`` itself,
    as NumPy returns it); None for anything but a polynomial."""
    if not isinstance(value, Poly1dVariable):
        return None
    if name == "positive":
        return value
    if name == "negative":
        return _result(tx, "neg", [value])
    raise _refused(f"unary {name}")


# np.polyder(p, m=1), np.polyint(p, m=1, k=None), np.polyadd/polysub/polymul(a1, a2)
_FUNCTIONS = {np.polyder: ("polyder", ("p", "m"), {"m": 1}),
              np.polyint: ("polyint", ("p", "m", "k"), {"m": 1, "k": None}),
              np.polyadd: ("polyadd", ("a1", "a2"), {}),
              np.polysub: ("polysub", ("a1", "a2"), {}),
              np.polymul: ("polymul", ("a1", "a2"), {})}


def poly1d_function(tx, fn, args: list, kwargs: dict) -> Variable | None:
    """``np.polyder(p)``, ``np.polyint(p, 2)``, ``np.polymul(p, q)``... where an
    argument is a polynomial: NumPy's own, a polynomial (``poly1d_result``); None
    where none is (the array function's own path)."""
    if fn not in _FUNCTIONS or not any(isinstance(v, Poly1dVariable)
                                       for v in (*args, *kwargs.values())):
        return None
    how, names, defaults = _FUNCTIONS[fn]
    polys = [n for n in names if n in ("p", "a1", "a2")]
    bound = {**dict(zip(names, args)), **kwargs}
    if len(args) > len(names) or set(kwargs) - set(names) or \
            any(n not in bound for n in polys):
        raise _refused(f"np.{fn.__name__}() with these arguments")
    rest = _bind(tuple(n for n in names if n not in polys),
                 [], {n: bound[n] for n in names if n not in polys and n in bound},
                 defaults)
    if rest is None:
        raise _refused(f"np.{fn.__name__}() with these arguments")
    return _result(tx, how, [*(bound[n] for n in polys),
                             *(rest[n] for n in names if n not in polys)])


def make_poly1d(tx, args: list, kwargs: dict) -> Variable | None:
    """``np.poly1d(c)`` / ``np.poly1d(c, variable="t")`` / ``np.poly1d(p)``, as the
    module docstring says; None where it does not apply (``r=True``, an array that is
    not NumPy's, a constant NumPy refuses: the caller's break)."""
    names = ("c_or_r", "r", "variable")
    if len(args) > 3 or set(kwargs) - set(names):
        return None
    bound = {**dict(zip(names, args)), **kwargs}
    c, r, variable = bound.get("c_or_r"), bound.get("r"), bound.get("variable")
    if c is None or r is not None and not (r.is_constant() and
                                           r.as_python_constant() is False):
        return None
    if variable is not None and not (variable.is_constant() and
                                     isinstance(variable.as_python_constant(), str)):
        return None
    name = variable.as_python_constant() if variable is not None else None
    if isinstance(c, Poly1dVariable):   # a copy: the same array (no extra attributes)
        return Poly1dVariable(c.coeffs, name or c.variable)
    if isinstance(c, ArrayVariable):
        if c.meta.kind != ops.NUMPY:
            return None
        coeffs = tx.output.call_op(ops.get("poly1d_coeffs"), [c], {})
        return Poly1dVariable(coeffs, name or "x")
    items = c.items if isinstance(c, SequenceVariable) else [c]
    if not all(v.is_constant() and not isinstance(v.as_python_constant(), Symbolic)
               for v in items):
        return None   # (a list holding arrays or changing numbers: the caller's break)
    try:
        made = np.poly1d(c.as_python_constant())
    except Exception:  # noqa: BLE001 (NumPy refuses it: the eager call raises it)
        return None
    values = made.coeffs
    if values.dtype.kind not in "biufc":
        return None
    op, adapter = ops.lookup_function(np.array)
    coeffs = call_library(tx, op, adapter, [ConstantVariable(values.tolist())],
                          {"dtype": ConstantVariable(values.dtype)})
    return Poly1dVariable(coeffs, name or "x")


__all__ = ["Poly1dVariable", "make_poly1d", "poly1d_function", "poly1d_operator",
           "poly1d_unary", "polyval"]
