"""``np.remainder`` (``%``) of floats as NumPy computes it, for the kernels (tier 2).

NumPy's float loop is ``npy_remainder`` (``numpy/_core/src/npymath``): ``fmod`` (exact:
no rounding), then Python's sign rule: a nonzero ``fmod`` whose sign is not the
divisor's gets the divisor added; a zero takes the divisor's sign (``-0.0`` for a
negative divisor); a zero divisor keeps ``fmod``'s NaN. So ``-1.0 % 3.0 == 2.0``,
``1.0 % -3.0 == -2.0``, ``3.0 % -3.0 == -0.0``, ``-1.0 % inf == inf``, ``1.0 % inf ==
1.0``, ``inf % 3.0`` and ``x % 0.0`` are NaN. All of it in the operands' own dtype
(float32 stays float32: the one rounding is the add, as in NumPy's loop).

Warnings: NumPy 2.4 and 2.5 warn ("invalid value") exactly where the result is a NaN
and neither operand is one (``inf % x``, ``x % 0``; checked over every pair of special
values and 20000 random pairs per dtype): the kernel's check of a new NaN flags those
calls, and tier 1 reruns them. A quotient that overflows inside NumPy's divmod
(``1e308 % 0.5``) does not warn there, so nothing more is flagged.

``np.fmod`` needs no helper: Numba's ``np.fmod`` of two floats is LLVM's ``frem``,
libm's exact ``fmod``. Example::

    >>> float(remainder(np.float64(-1.0), np.float64(3.0)))
    2.0
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(inline="always")
def remainder(a, b):
    """``np.remainder(a, b)`` of two floats of one dtype (the module docstring)."""
    m = np.fmod(a, b)
    if b == 0:
        return m                        # NaN (a zero divisor: fmod's own result)
    if m != 0:
        if (b < 0) != (m < 0):
            m += b                      # Python's rule: the divisor's sign
    else:
        m = np.copysign(m - m, b)       # a zero of the operands' dtype, b's sign
    return m
