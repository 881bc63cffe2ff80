"""The kernels' ``_bdot`` (dots.py): NumPy's ``DOUBLE_dot`` of two 1-D float64 arrays,
in nopython mode, calling the ``ddot`` NumPy itself calls. Imported by a kernel's
module only (it imports Numba); the lowering decides with ``dots.ddot_address``.

The BLAS function is declared to Numba by a symbol name of our own
(``llvmlite.binding.add_symbol``) rather than as a ctypes pointer: a ctypes pointer
is a "dynamic global" that keeps Numba from caching the kernel on disk, a named
symbol is resolved again when a cached kernel is loaded (this module runs first,
imported by the kernel's module).

Example::

    >>> dot(np.arange(3.0), np.ones(3))        # ddot: strides 1, 1
    3.0
    >>> dot(np.arange(3.0)[::-1], np.ones(3))  # NumPy's plain loop: stride -8
    3.0
"""

from __future__ import annotations

from llvmlite import binding
from numba import njit, types

from .dots import ddot_address

_NAME = "dynamo_native_numpy_ddot"
_ADDRESS = ddot_address()
if _ADDRESS is not None:
    binding.add_symbol(_NAME, _ADDRESS)
# (ILP64: n and the increments are 64-bit; the pointers go as integers, the same
# registers on the C calling convention)
_ddot = types.ExternalFunction(_NAME, types.float64(
    types.int64, types.uintp, types.int64, types.uintp, types.int64))


@njit
def dot(a, b):
    """``a @ b`` as NumPy's ``DOUBLE_dot`` computes it (dots.py), bit for bit."""
    n = min(a.shape[0], b.shape[0])   # (other lengths: the kernel flags the call)
    sa, sb = a.strides[0], b.strides[0]
    if n > 0 and sa > 0 and sb > 0 and sa % 8 == 0 and sb % 8 == 0:
        return 0.0 + _ddot(n, a.ctypes.data, sa // 8, b.ctypes.data, sb // 8)
    total = 0.0
    for i in range(n):     # (NumPy's loop for other strides: in order, no FMA)
        total += a[i] * b[i]
    return total


@njit
def np_dot(a, b):
    """``np.dot(a, b)`` of 1-D float64 arrays, bit for bit: NumPy's
    ``cblas_matrixproduct`` takes a vector of length 1 as a scalar (one product: -0.0
    stays -0.0, where ``dot`` adds it to 0.0) and copies an operand whose stride is not
    a positive multiple of 8 (a reversed slice: ``_bad_strides``) before ``DOUBLE_dot``.

    Example: ``np_dot(x[4::-1], y[:5])`` is ``dot(x[4::-1].copy(), y[:5])``."""
    n = min(a.shape[0], b.shape[0])   # (other lengths: the kernel flags the call)
    if n == 1:
        return a[0] * b[0]
    good_a = a.strides[0] > 0 and a.strides[0] % 8 == 0
    good_b = b.strides[0] > 0 and b.strides[0] % 8 == 0
    if good_a and good_b:
        return dot(a, b)
    if good_a:
        return dot(a, b.copy())
    if good_b:
        return dot(a.copy(), b)
    return dot(a.copy(), b.copy())
