"""Byte layouts of strided arrays, as pure functions of (shape, strides, itemsize).

A captured CUDA graph reads its inputs at fixed addresses with fixed strides, so the
runner keeps one *static buffer* per input with exactly the caller's layout and
copies the caller's bytes into it before each replay. One ``memcpy`` of the
array's *span* (the bytes from its lowest to its highest element) does that for
any layout, transposed, sliced or negatively strided: both arrays have the same
strides, so byte ``lo + i`` of one is byte ``lo + i`` of the other. Bytes inside
the span that are not elements (the gaps of ``x[:, ::2]``) are copied too and
never read.

Example::

    >>> span((3, 4), (16, 4), 4)            # C-contiguous float32
    (0, 48)
    >>> span((3, 2), (16, 8), 4)            # x[:, ::2] of a (3, 4) array
    (0, 44)
    >>> span((4,), (-4,), 4)                # x[::-1]: the span starts 12 bytes lower
    (-12, 16)
"""

from __future__ import annotations


def span(shape: tuple, strides: tuple, itemsize: int) -> tuple[int, int]:
    """``(lo, nbytes)``: every element lies in ``[ptr + lo, ptr + lo + nbytes)``.

    ``ptr`` is the address of element ``(0, ..., 0)``; ``lo <= 0``. An array with
    no elements has an empty span ``(0, 0)``.
    """
    lo = hi = 0
    for dim, stride in zip(shape, strides):
        if dim == 0:
            return 0, 0
        extent = (dim - 1) * stride
        if extent < 0:
            lo += extent
        else:
            hi += extent
    return lo, hi - lo + itemsize


def is_c_contiguous(shape: tuple, strides: tuple, itemsize: int) -> bool:
    """NumPy's C_CONTIGUOUS flag: dense row-major, ignoring axes of length 1."""
    if any(d == 0 for d in shape):
        return True
    expected = itemsize
    for dim, stride in zip(reversed(shape), reversed(strides)):
        if dim != 1 and stride != expected:
            return False
        expected *= dim
    return True


def is_f_contiguous(shape: tuple, strides: tuple, itemsize: int) -> bool:
    """NumPy's F_CONTIGUOUS flag: dense column-major, ignoring axes of length 1."""
    return is_c_contiguous(tuple(reversed(shape)), tuple(reversed(strides)), itemsize)


def contains(outer_lo: int, outer_nbytes: int, inner_lo: int, inner_nbytes: int) -> bool:
    """Whether the byte range ``[inner_lo, inner_lo + inner_nbytes)`` lies inside the
    outer one (both as absolute addresses)."""
    return outer_lo <= inner_lo and inner_lo + inner_nbytes <= outer_lo + outer_nbytes
