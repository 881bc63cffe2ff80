"""NumPy dtypes as CUDA C types, and Python constants as exact CUDA C literals.

Only the dtypes a fused kernel may touch are here; any other dtype (float16, complex,
strings, datetimes) keeps its op a plain CuPy call.

Example::

    >>> ctype(np.dtype("float32"))
    'float'
    >>> literal(0.5, np.dtype("float32"))
    '((float)0.5)'
    >>> literal(float("inf"), np.dtype("float64"))
    '__longlong_as_double((long long)0x7ff0000000000000ULL)'
"""

from __future__ import annotations

import math
import struct

import numpy as np

_CTYPES = {
    "bool": "bool",
    "int8": "signed char", "uint8": "unsigned char",
    "int16": "short", "uint16": "unsigned short",
    "int32": "int", "uint32": "unsigned int",
    "int64": "long long", "uint64": "unsigned long long",
    "float32": "float", "float64": "double",
}

FUSIBLE_DTYPES = frozenset(np.dtype(name) for name in _CTYPES)


def fusible(dtype) -> bool:
    return np.dtype(dtype) in FUSIBLE_DTYPES


def ctype(dtype) -> str:
    """The C type of ``dtype``; KeyError for dtypes kernels do not handle."""
    return _CTYPES[np.dtype(dtype).name]


def is_float(dtype) -> bool:
    return np.dtype(dtype).kind == "f"


def is_signed(dtype) -> bool:
    return np.dtype(dtype).kind == "i"


def literal(value, dtype) -> str:
    """``value`` (a Python or NumPy scalar) as a C expression of type ``dtype``.

    The value is first converted the way NumPy converts a Python scalar for an
    operation in ``dtype`` (``np.asarray(value, dtype)``): floats are rounded once to
    the target type, so ``(float)0.1`` in C equals ``np.float32(0.1)``. NaN and
    infinities are written as bit patterns, which need no header.
    """
    dtype = np.dtype(dtype)
    with np.errstate(all="ignore"):  # 1e300 as float32 is inf, as in NumPy
        v = np.asarray(value).astype(dtype)[()]
    c = ctype(dtype)
    if dtype.kind == "b":
        return "true" if v else "false"
    if dtype.kind == "f":
        x = float(v)
        if math.isfinite(x):
            return f"(({c}){x!r})"
        bits = struct.unpack("<Q", struct.pack("<d", x))[0]
        expr = f"__longlong_as_double((long long){bits:#018x}ULL)"
        return expr if dtype.itemsize == 8 else f"((float){expr})"
    i = int(v)
    if dtype.kind == "u":
        return f"(({c}){i}ULL)"
    if i == -(1 << 63):
        return "(-9223372036854775807LL - 1)"
    return f"(({c}){i}LL)"


def max_itemsize(dtypes) -> int:
    return max((np.dtype(d).itemsize for d in dtypes), default=1)
