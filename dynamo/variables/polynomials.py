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
  coefficient array (``rebuild``: no second trim, so ``p.coeffs`` is that very array).

Anything else of the object (arithmetic on polynomials, ``p.roots``, ``p.deriv()``,
``p[k]``, composition ``p(q)``, ``np.poly1d(c, r=True)``) breaks, with the hint to use
``np.polyval`` on the coefficients. A ``poly1d`` from outside the frame (an argument, a
global, one alive at a graph break) is the same variable around its coefficient array,
an input read as ``p.coeffs``; it is guarded by its type and its variable's name, not by
identity, so a new polynomial on every call reuses the entry
(``builder``).

Example::

    def smooth(c, t):
        p = np.poly1d(c)            # coeffs = poly1d_coeffs(c): length u0
        return p(t), p.order        # polyval(coeffs, t), u0 - 1: one graph
"""

from __future__ import annotations

import numpy as np

from .. import ops
from ..exc import Unsupported
from ..symbolic import Symbolic
from .arrays import ArrayVariable, call_library
from .base import Variable
from .constant import ConstantVariable
from .sequences import SequenceVariable

_COEFFS = frozenset(("coeffs", "c", "coef", "coefficients"))
_HINT = ("use the coefficient array itself: np.polyval(c, x) for p(x), and np.polyder, "
         "np.polyadd, np.polymul of arrays (they return arrays for array inputs)")


def rebuild(coeffs: np.ndarray, variable: str) -> np.poly1d:
    """The ``poly1d`` the trace made, around the graph's coefficient array: what
    ``np.poly1d.__init__`` leaves (its two attributes), without trimming again.

        >>> rebuild(np.array([1.0, 2.0]), "x")
        poly1d([1., 2.])
    """
    p = object.__new__(np.poly1d)
    p._coeffs, p._variable = coeffs, variable
    return p


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
            return ConstantVariable(self.coeffs.meta.shape[0] - 1)
        if name == "variable":
            return ConstantVariable(self.variable)
        raise Unsupported(f"attribute {name!r} of an np.poly1d object", hint=_HINT,
                          cause="unregistered_function")

    def reconstruct(self, cg) -> str:
        if self.source is not None:   # the program's own object (it may not be rebuilt)
            return self.source.expr()
        return f"{cg.const(rebuild)}({self.coeffs.reconstruct(cg)}, {self.variable!r})"


def polyval(tx, coeffs: ArrayVariable, x: Variable) -> Variable:
    """``np.polyval(coeffs, x)`` (``p(x)`` is exactly this), as the op ``poly1d_value``:
    ``polyval`` whose rule knows there is at least one coefficient (``[0]`` where all
    were zeros), so a length the data decides gives one answer."""
    if isinstance(x, Poly1dVariable):
        raise Unsupported("np.polyval at an np.poly1d object (a polynomial)", hint=_HINT,
                          cause="unregistered_function")
    return call_library(tx, ops.get("poly1d_value"), ops.registry.same, [coeffs, x], {})


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


__all__ = ["Poly1dVariable", "make_poly1d", "polyval", "rebuild"]
