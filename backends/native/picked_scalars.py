"""The scalars of a loop node that picks Python numbers per trip (issue #23; the graphs of
``translator/picked_numbers.py`` and ``branch_selects.py``): a running argmin's index, a
counter, a running minimum, a conditional sum, lowered as int64/float64 variables of the
kernel instead of a NumPy call per trip from object mode.

::

    for i in range(1, len(d)):          # the loop node's body:
        if d[i] < best:                 #   scalar_less = d[trip + 1] < best
            best = d[i]                 #   branch_select(scalar_less, getitem, best)
            arg = i                     #   branch_select(scalar_less, scalar_cast(
                                        #       trip + 1, np.int64), arg)

lowers to ``r5 = (s3 if t4 else c1)`` and ``r7 = (np.int64((trip2 + 1)) if t4 else c2)``.

- ``branch_select`` of two NumPy scalars of the result's dtype (``branch_select``): the
  chosen scalar. Arrays stay NumPy's call (the op returns one of two objects itself).
  Its operands are values the kernel computed already and checked for NaN/infinity
  (a scalar's check is at once, ``nests.materialize``): the untaken way's op flags as
  it did before, and tier 1 reruns such a call (conservative, never a wrong value).
- ``np.int64(i)`` of the trip index or of an int constant (``int_cast``): exact, every
  trip index fits int64 (``loops._fits_int64``).
- ``asarray(v, dtype=int64)`` of a 0-d int (``int_asarray``): a picked int before the
  node and its two bounds ``v0 +- T * S`` (``leave_picked``): ``v`` a constant in
  int64, or an affine int of ``sym_number`` ints (``int(np.int64)``, exact) whose
  coefficients are +-1, computed in int64 with each addition's overflow flagged: where
  Python's int is past int64 NumPy raises ``OverflowError``, so the call reruns in tier 1,
  which raises it (and the frame's own code runs, as before).
- ``sym_number(x, 'int')`` of an int64 scalar: the scalar itself.

Integer scalar ``+``/``-`` (``count += 1``, ``counts[0] += 1``) are lowered by
``elementwise.py`` with ``scalar_overflow``'s flag: NumPy's scalar ops wrap and warn
("overflow encountered in scalar add"); the kernel wraps and flags, and tier 1 reruns
the call and warns as eager.
"""

from __future__ import annotations

import numpy as np

from dynamo.graph import CALL, Node
from dynamo.symbolic import SymArg

from .emitter import SEQ_FLAG
from .ops import Unsupported, _meta
from .values import Const, Scal

_INT64 = np.dtype(np.int64)
_LIMITS = (-(1 << 63), (1 << 63) - 1)


def scalar_overflow(name: str, dtype: np.dtype) -> str | None:
    """The condition (over ``{a}``, ``{b}``, the result ``{r}``, all of the loop dtype)
    under which NumPy's integer scalar op ``name`` overflows (and warns), or None where
    the op is not lowered on integer scalars. int64 wraps in the kernel as in NumPy
    (Numba's ``add`` has no ``nsw``), so the signs tell: ``a + b`` overflowed when the
    result's sign differs from both operands'. Smaller signed ints compute in int64
    (Numba widens them) and are cast back: it overflowed when the cast changed it.
    Numba negates a small int in its own width (``-int8(-128)`` is -128, then widened),
    so the negation compared with is of the operand widened first.

        >>> scalar_overflow("add", np.dtype("int64"))
        '((({a} ^ {r}) & ({b} ^ {r})) < 0)'
    """
    if dtype.kind != "i":
        return None
    if dtype.itemsize < 8:
        wide = {"add": "({a} + {b})", "subtract": "({a} - {b})", "negative": "(-np.int64({a}))"}
        return f"({{r}} != {wide[name]})" if name in wide else None
    return {"add": "((({a} ^ {r}) & ({b} ^ {r})) < 0)",
            "subtract": "((({a} ^ {b}) & ({a} ^ {r})) < 0)",
            "negative": f"({{a}} == {_LIMITS[0]})"}.get(name)


def int64_index_cast(node: Node) -> bool:
    """``node`` is ``np.int64(v)`` of the trip index (an int expression of the loop's
    trips) or of an int constant in int64: lowered as a variable (``int_cast``)."""
    meta = node.meta.get("array")
    if node.target != "scalar_cast" or node.kwargs or len(node.args) != 2 or \
            node.args[1] is not np.int64 or getattr(meta, "dtype", None) != _INT64 or \
            not getattr(meta, "scalar", False):
        return False
    v = node.args[0]
    return isinstance(v, SymArg) or type(v) is int and _LIMITS[0] <= v <= _LIMITS[1]


class PickedScalars:
    """Methods of ``_Block`` (block.py): the scalars a loop node picks per trip."""

    def branch_select(self, node: Node) -> Scal:
        flag, a, b = node.args
        meta = _meta(node)
        if not meta.scalar or node.kwargs:
            raise Unsupported("branch_select of arrays (it returns one of them itself)")
        c = self.val(flag) if isinstance(flag, Node) else None
        if not isinstance(c, Scal) or c.dtype != np.bool_:
            raise Unsupported("branch_select on a flag that is no bool scalar")
        ways = [self._picked(x, meta.dtype) for x in (a, b)]
        name = self.em.new("r")
        self.em.line(f"{name} = ({ways[0]} if {c.name} else {ways[1]})")
        return Scal(name, meta.dtype)

    def _picked(self, arg, dtype: np.dtype) -> str:
        """One way of a select: a scalar of ``dtype`` (NumPy's, or a constant of it)."""
        v = self.val(arg) if isinstance(arg, Node) else Const(arg)
        if isinstance(v, Scal) and v.dtype == dtype:
            stmts: list[str] = []
            self.settle(v.name, stmts, SEQ_FLAG)
            for s in stmts:
                self.em.line(s)
            return v.name
        if isinstance(v, Const) and isinstance(v.value, np.generic) and \
                v.value.dtype == dtype:
            return self.em.const(v.value, dtype)
        raise Unsupported(f"branch_select of a {type(v).__name__} that is no {dtype} scalar")

    def int_cast(self, node: Node) -> Scal:
        """``np.int64(trip + 2)``, ``np.int64(0)`` (``int64_index_cast``)."""
        v = node.args[0]
        expr = self.trip_expression(v) if isinstance(v, SymArg) else repr(v)
        name = self.em.new("s")
        self.em.line(f"{name} = np.int64({expr})")
        return Scal(name, _INT64)

    def int_asarray(self, node: Node) -> Scal:
        """``asarray(v, dtype=int64)`` of a 0-d int (module docstring); Unsupported for
        any other ``asarray`` (NumPy's call then, as before)."""
        meta = node.meta.get("array")
        if len(node.args) != 1 or set(node.kwargs) != {"dtype"} or \
                node.kwargs["dtype"] not in (np.int64, _INT64) or \
                getattr(meta, "dtype", None) != _INT64 or getattr(meta, "shape", None) != ():
            raise Unsupported("asarray other than a 0-d int64 of an int")
        v = node.args[0]
        if type(v) is int:
            if not _LIMITS[0] <= v <= _LIMITS[1]:
                raise Unsupported(f"asarray of {v}, past int64 (NumPy raises)")
            name = self.em.new("s")
            self.em.line(f"{name} = np.int64({v})")
            return Scal(name, _INT64)
        if not isinstance(v, SymArg):
            raise Unsupported("asarray of a value that is no int")
        return self._checked_affine(v)

    def _checked_affine(self, arg: SymArg) -> Scal:
        """An affine int of int64 scalars (coefficients +-1) in int64, each addition's
        overflow flagged: ``s = v + 99`` with ``_nf |= (v > 9223372036854775708)``."""
        sym = arg.sym
        if not sym.terms or not _LIMITS[0] <= sym.const <= _LIMITS[1]:
            raise Unsupported("asarray of an int expression with no symbol")
        em, acc = self.em, None
        for sym_name, coeff in sym.terms:
            n = arg.nodes.get(sym_name)
            v = self.env.get(n) if isinstance(n, Node) else None
            if not isinstance(v, Scal) or v.dtype != _INT64 or coeff not in (1, -1):
                raise Unsupported("asarray of an int expression other than +-v + c of "
                                  "int64 scalars")
            term = v.name
            if coeff == -1:
                em.line(f"{SEQ_FLAG} |= ({v.name} == {_LIMITS[0]})")
                term = f"(-{v.name})"
            if acc is None:
                acc = em.new("s")
                em.line(f"{acc} = {term}")
                continue
            name = em.new("s")
            em.line(f"{name} = {acc} + {term}")
            em.line(f"{SEQ_FLAG} |= ((({acc} ^ {name}) & ({term} ^ {name})) < 0)")
            acc = name
        if sym.const:
            c = sym.const
            bound = f"({acc} > {_LIMITS[1] - c})" if c > 0 else f"({acc} < {_LIMITS[0] - c})"
            name = em.new("s")
            em.line(f"{SEQ_FLAG} |= {bound}")
            em.line(f"{name} = {acc} + np.int64({c})")
            acc = name
        return Scal(acc, _INT64)

    def sym_number(self, node: Node) -> Scal:
        """``int(x)`` of an int64 scalar the graph reads as a Python int: the scalar
        (exact). Read only by other nodes' int expressions (asarray's), never returned."""
        x = self.val(node.args[0]) if isinstance(node.args[0], Node) else None
        if node.args[1:] != ("int",) or node.kwargs or not isinstance(x, Scal) or \
                x.dtype.kind != "i":
            raise Unsupported("sym_number other than int() of an int scalar")
        if any(u.op != CALL for u in node.users):
            raise Unsupported("sym_number returned by the graph")
        return Scal(x.name, x.dtype)
