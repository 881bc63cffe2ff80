"""Integer ``//``, ``%`` and shifts with NumPy's results: the expression per loop dtype
and the condition under which NumPy warns, which flags the call (tier 1 reruns it and
warns as eager does).

NumPy's integer loops (``numpy/_core/src/umath/loops*``), for a loop dtype of ``bits``
bits:

- ``a // b``: Python's floor division; ``b == 0`` gives 0 and warns "divide by zero";
  the signed minimum ``// -1`` gives the minimum and warns "overflow";
- ``a % b``: the sign of ``b`` (Python's rule); ``b == 0`` gives 0 and warns;
- ``a << b``: 0 when ``b`` is negative or ``bits`` or more (the count compared as an
  unsigned number), never a warning; ``a >> b`` likewise, but -1 for a negative ``a``.

The expressions never run an operation whose result LLVM leaves undefined (a division
by 0 or of the minimum by -1, a shift by the width or more): those cases take the other
branch. (Numba computes with small integers as 64-bit ones; the caller casts the result
back to the loop dtype, so ``int8(-128) // -1`` wraps to -128 as NumPy's.)

Example: ``floor_divide`` on int8 is ``(a // b if (b > 0 or b < -1) else (-a if b == -1
else a - a))``, flagged when ``(b == 0) | ((b == -1) & (a == -128))``.
"""

from __future__ import annotations

import numpy as np

INTEGER_OPS = frozenset({"floor_divide", "remainder", "left_shift", "right_shift"})


def integer_op(name: str, dtype: np.dtype) -> tuple[str, str | None]:
    """(template over ``{a}``, ``{b}``, the condition NumPy warns under or None) for
    ufunc ``name`` on integer operands of the loop dtype ``dtype``."""
    bits = 8 * dtype.itemsize
    signed = dtype.kind == "i"
    zero = "({a} - {a})"   # a 0 of the operand's own type (a literal would be int64)
    if name == "floor_divide":
        if signed:
            low = int(np.iinfo(dtype).min)
            return (f"({{a}} // {{b}} if ({{b}} > 0 or {{b}} < -1) else "
                    f"(-{{a}} if {{b}} == -1 else {zero}))",
                    f"(({{b}} == 0) | (({{b}} == -1) & ({{a}} == {low})))")
        return f"({{a}} // {{b}} if {{b}} != 0 else {zero})", "({b} == 0)"
    if name == "remainder":
        if signed:
            return f"({{a}} % {{b}} if ({{b}} > 0 or {{b}} < -1) else {zero})", "({b} == 0)"
        return f"({{a}} % {{b}} if {{b}} != 0 else {zero})", "({b} == 0)"
    inside = f"0 <= {{b}} < {bits}" if signed else f"{{b}} < {bits}"
    if name == "left_shift":
        return f"({{a}} << {{b}} if {inside} else {zero})", None
    if name == "right_shift":
        outside = f"({zero} - 1 if {{a}} < 0 else {zero})" if signed else zero
        return f"({{a}} >> {{b}} if {inside} else {outside})", None
    raise KeyError(name)
