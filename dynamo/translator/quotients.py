"""``n % k`` and ``n // k`` of a changing int, by a constant, where the next instruction
alone uses the result: guarded by what that use observes, not by the result.

``symbolic.sizes._quotient`` guards the result (``L['step'] % 3 == 1``): one entry per
remainder. Two uses need less, and the bytecode says which use comes next:

- **a comparison with an int constant** (``if step % k == 0``, ``0 != epoch // 5``):
  ``BINARY_OP`` then ``LOAD_CONST c`` (3.14: ``LOAD_SMALL_INT``) and ``COMPARE_OP``, or
  the constant already below the operands and ``COMPARE_OP`` next. The comparison is
  the result's only reader, so the guard is its outcome (``L['step'] % 3 == 0`` or
  ``not (...)``): two entries at most, whatever ``k``.
- **float arithmetic** (``gamma ** (epoch // step_size)``, ``(t // 10) * 0.5``): a float
  (a constant or a changing one) below the operands and a ``BINARY_OP`` next, or a
  float ``LOAD_CONST`` and then a ``BINARY_OP``. Python converts the int to a float
  there (exactly ``float(i)``, OverflowError past 1e308 included), so the result is
  pushed as that float already, a ``SymFloat`` the graph computes from the symbol
  (``float(s0 // 3)``): no guard at all.

- **any other use of a changing int's quotient** (an index, a stored or returned
  int: ``self.ptr = (self.ptr + 1) % self.max_size``, ``buf[t % 16]``): the result is
  a changing int of its own (``ShapeEnv.new_quotient``), read from the expression
  ``((self.ptr + 1) % 16)`` when the call runs, so one entry serves every remainder;
  it is guarded only where the trace reads it, as any changing int.

Anything else (``divmod``, a divisor that is not a nonzero int constant, a size's
quotient, a number made from a loop node's index) takes the general path, which guards
the result. The operand is a symbol of the trace's inputs and the divisor a constant,
so the result cannot raise.

Example::

    def unscale(self, grads):        # good_steps: 1, 2, 3, ... (a symbol from 2 up)
        self.good_steps += 1
        if self.good_steps % 3 == 0:     # guard: (L['self'].good_steps + 1) % 3 == 0,
            self.scale *= 2.0            # or not; not one entry per remainder
"""

from __future__ import annotations

import operator

from .. import pyversion
from ..symbolic import SymFloat, SymInt
from ..symbolic.sizes import quotient_compared
from ..variables import ConstantVariable

_DIVIDE = {"floor_divide": operator.floordiv, "remainder": operator.mod}
_COMPARE = {"LT": operator.lt, "LE": operator.le, "EQ": operator.eq, "NE": operator.ne,
            "GT": operator.gt, "GE": operator.ge}
# the operators of a following BINARY_OP through which an int becomes a float operand
_FLOAT_ARITHMETIC = frozenset(("ADD", "SUBTRACT", "MULTIPLY", "TRUE_DIVIDE",
                               "FLOOR_DIVIDE", "REMAINDER", "POWER"))
_INT_CONSTANTS = ("LOAD_CONST", "LOAD_SMALL_INT")


def quotient_use(tx, op: str, a, b) -> ConstantVariable | None:
    """The value to push for ``a % b`` / ``a // b`` (``op``) where the next instruction
    alone reads it (see the module docstring); None for the general path."""
    fn = _DIVIDE.get(op)
    if fn is None or not (isinstance(a, ConstantVariable) and isinstance(b, ConstantVariable)):
        return None
    size, k = a.value, b.value
    if not isinstance(size, SymInt) or type(k) is not int or k == 0 or \
            not size.sym.symbols <= tx.output.shape_env.symbols.keys():
        return None   # (a loop node's index, an unbacked size: the general path)
    insts, ip = tx.info.insts, tx.ip
    nxt = insts[ip] if ip < len(insts) else None
    after = insts[ip + 1] if ip + 1 < len(insts) else None
    below = tx.stack[-1] if tx.stack else None
    if nxt is None:
        return None
    if nxt.name == "COMPARE_OP" and _int_constant(below):        # 0 == step % 3
        compare = _COMPARE[pyversion.compare_op(nxt.arg)[0]]
        return ConstantVariable(quotient_compared(fn, size, k, compare, below.value,
                                                  reflected=True))
    if nxt.name in _INT_CONSTANTS and type(nxt.arg) is int and after is not None and \
            after.name == "COMPARE_OP":                           # step % 3 == 0
        compare = _COMPARE[pyversion.compare_op(after.arg)[0]]
        return ConstantVariable(quotient_compared(fn, size, k, compare, nxt.arg))
    float_next = nxt.name == "BINARY_OP" and _float_arithmetic(nxt) and _float(below)
    float_after = nxt.name == "LOAD_CONST" and type(nxt.arg) is float and \
        after is not None and after.name == "BINARY_OP" and _float_arithmetic(after)
    if float_next or float_after:                 # gamma ** (epoch // 3), (t // 10) * 0.5
        try:
            return ConstantVariable(SymFloat.of_quotient(fn, size, k))
        except OverflowError:    # past 1e308: the float operator raises it, as eagerly
            return None
    # any other use (an index, a stored or returned int, a size): a changing int of its
    # own, computed by the call (``self.ptr = (self.ptr + 1) % self.max_size``)
    derived = tx.output.shape_env.new_quotient(fn, size, k)
    return None if derived is None else ConstantVariable(derived)


def _int_constant(var) -> bool:
    return isinstance(var, ConstantVariable) and type(var.value) is int


def _float(var) -> bool:
    """A Python float operand (a constant, or a changing float): not a float subclass,
    whose operators could be the program's own."""
    return isinstance(var, ConstantVariable) and \
        (type(var.value) is float or isinstance(var.value, SymFloat))


def _float_arithmetic(inst) -> bool:
    return inst.arg.name.removeprefix("INPLACE_") in _FLOAT_ARITHMETIC
