"""``np.float32(self.n)``, ``np.int32(k)``: a NumPy scalar type called on a changing
Python int (issue #16), cast when the graph runs instead of pinning the int.

A changing int used only as a value is a symbol (``sizes.Trace.numbers``); a scalar
constructor used to read its value while tracing, so every new value recompiled. Here
the call is the ``scalar_cast`` op on the int itself, so NumPy converts eager's very
int each call: the same type, rounding (``np.float32(2**25 + 1)``) and warnings. An
int type takes only the values it holds (``np.int8(300)`` raises ``OverflowError`` on
NumPy 2): the entry guards the range (``-128 <= self.n <= 127``) and a value outside it
fails the guard, so the call runs with that very value as eager does. A changing float
(``np.float32(self.t)``) casts the same way; a float type never raises for a float.

Example::

    class Counter:
        def __init__(self):
            self.n = 0

        def scale(self, x):
            self.n += 1
            return np.float32(self.n) * x     # one compile for every n
"""

from __future__ import annotations

import numpy as np

from ..symbolic import SymFloat, SymInt
from ..symbolic.sizes import free_numbers, is_unbacked, pinned
from .base import Variable
from .constant import ConstantVariable


def number_cast(scalar_type: type, var: Variable) -> bool:
    """May ``scalar_type(var)`` be a ``scalar_cast`` node? Yes for a changing float
    (``SymFloat``, unpinned) cast to a float or complex type, and for an int over
    changing ints used only as values (no sizes, no unbacked counts:
    ``size_values.count_cast`` has those) cast to a float or complex type (within
    +-2**1000) or an int type (within its range), the range guarded by the entry."""
    if not isinstance(var, ConstantVariable) or type(var.value) not in (SymInt, SymFloat):
        return False
    symbols = var.value.sym.symbols
    if not symbols or any(is_unbacked(n) for n in symbols) or symbols & pinned():
        return False       # a constant, a graph number (``uf0``) or a pinned value
    if type(var.value) is SymInt and not symbols <= free_numbers():
        return False       # an int that is also a size: the size's own rules
    try:
        dtype, value = np.dtype(scalar_type), var.value
    except TypeError:       # np.floating(n): abstract, eager's TypeError (general path)
        return False
    if type(value) is SymFloat:    # a float type of a float: inf past its range, with
        return dtype.kind in "fc"  # a floating-point warning, never an exception
    if dtype.kind in "fc":
        # an int past 2**1023 raises OverflowError ("int too large to convert to
        # float"): the entry holds ints far inside that
        return _guarded_within(value, -2 ** 1000, 2 ** 1000)
    if dtype.kind not in "iu":
        return False
    info = np.iinfo(dtype)
    return _guarded_within(value, int(info.min), int(info.max))


def _guarded_within(value: SymInt, low: int, high: int) -> bool:
    """Is ``low <= value <= high`` now? If so the entry guards it (each comparison of
    the symbols is recorded); if not, eager's OverflowError comes from the general
    path, at this value."""
    if not low <= int.__int__(value) <= high:
        return False
    return bool(value >= low) and bool(value <= high)
