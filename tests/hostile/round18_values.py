"""Arguments and helpers both round-18 files use (prog_round18_buffers.py,
prog_round18_dtypes.py). A case's tuple of arguments is deep-copied for every call
(``hostile_check``), so the two files may share these arrays."""

import numpy as np

X = np.array([1.0, -2.0, 0.5, 4.0])
G = np.arange(12.0).reshape(3, 4)
I8 = np.array([100, -100, 127, -128], dtype=np.int8)
U8 = np.array([0, 1, 200, 255], dtype=np.uint8)
B = np.array([True, False, True, True])
Z = np.array([1 + 2j, -3 + 0j, 0 - 1j, 2 + 2j])


def _brk():
    print("break")


def _readonly(a):
    """A read-only copy of ``a``."""
    a = a.copy()
    a.flags.writeable = False
    return a
