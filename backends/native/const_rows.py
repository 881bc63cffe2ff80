"""A constant sequence stored by a basic index (``pop[0] = prey0, pred0`` of constants,
``out[t] = S, I, R`` with the loop unrolled, ``x[2, :] = [1, 2]``): each element a
scalar constant of the target's dtype, picked by the store nest's indices.

NumPy casts the sequence to the target's dtype when it stores it (``float -> int``
truncates, ``300`` into ``int8`` raises ``OverflowError``, ``nan`` into ``int64``
raises ``ValueError``...), and broadcasts it to the store's shape. The lowering does
not copy those rules: it asks NumPy itself, storing the value into a new array of the
store's shape and dtype (``tmp[...] = value``) with every warning an error. What
NumPy stores there is what eager stores; a value NumPy raises or warns about is
Unsupported (the graph stays in tier 1, which raises or warns as eager).

The elements become module globals (``_Emitter.const``: NumPy scalars, which the disk
cache's file writes; an array constant it cannot write), and the nest's store reads
the one its indices pick: only axes along which the value changes are tested, so a
row broadcast down 1,000 rows tests only the column.

    >>> constant_element((10.0, 5.0), (2,), np.dtype("float64"), em, ["i5"])
    '(_k0 if i5 == 0 else _k1)'             # _k0 = np.float64(10.0), _k1 = 5.0
    >>> constant_element((1.9, -1.9), (3, 2), np.dtype("int64"), em, ["i5", "i6"])
    '(_k0 if i6 == 0 else _k1)'             # 1 and -1: NumPy's truncation
"""

from __future__ import annotations

import numpy as np

from dynamo.ops.quiet import warnings_as

from .ops import Unsupported

# At most this many different elements (a chain of conditional expressions per store)
MAX_ELEMENTS = 16


def is_sequence(value) -> bool:
    """Whether a store's constant value is a sequence (this module's) or a scalar."""
    return isinstance(value, (tuple, list))


def constant_element(value, shape: tuple, dtype: np.dtype, em, idx: list) -> str:
    """The expression of the element of ``value`` (a tuple or list of numbers, as
    stored into a view of ``shape`` and ``dtype``) at the nest's indices ``idx``;
    Unsupported where NumPy's store would raise or warn, for anything but numbers
    (an array, an object: its contents could change after the lowering), or for more
    than ``MAX_ELEMENTS`` different elements."""
    if not _numbers(value):
        raise Unsupported(f"a constant sequence {value!r} (not only numbers)"[:200])
    stored = np.empty(shape, dtype)
    with warnings_as("error"):
        try:
            stored[...] = value
        except Exception as e:  # noqa: BLE001  (what NumPy raises or warns: tier 1's)
            raise Unsupported(f"a constant sequence {value!r} stored as {dtype}: "
                              f"{type(e).__name__}: {e}"[:200]) from None
    if stored.size == 0:   # a store of no element: the nest never runs its body
        return em.const(np.zeros((), dtype)[()], dtype)
    elements = _squeeze(stored)
    if elements.size > MAX_ELEMENTS:
        raise Unsupported(f"a constant sequence of {elements.size} elements to pick "
                          f"from (at most {MAX_ELEMENTS})")
    return _pick(elements, idx, em, dtype)


def _numbers(value) -> bool:
    if isinstance(value, (tuple, list)):
        return all(_numbers(v) for v in value)
    return isinstance(value, (bool, int, float, complex, np.bool_, np.number))


def _bytes(a: np.ndarray) -> np.ndarray:
    """``a`` as its bytes, one more axis: equal elements are equal bits (``-0.0`` is not
    ``0.0``, a NaN equals the same NaN)."""
    return np.ascontiguousarray(a).view(np.uint8).reshape(a.shape + (a.dtype.itemsize,))


def _squeeze(a: np.ndarray) -> np.ndarray:
    """``a`` with each axis along which nothing changes cut to its first slice (kept,
    size 1)."""
    for axis in range(a.ndim):
        first = a.take([0], axis=axis)
        if (_bytes(a) == _bytes(first)).all():
            a = first
    return a


def _pick(a: np.ndarray, idx: list, em, dtype: np.dtype) -> str:
    """Conditional expressions over the axes of ``a`` longer than 1."""
    if a.ndim == 0:
        return em.const(a[()], dtype)
    if a.shape[0] == 1:
        return _pick(a[0, ...], idx[1:], em, dtype)
    parts = [_pick(a[j, ...], idx[1:], em, dtype) for j in range(a.shape[0])]
    expr = parts[-1]
    for j in range(len(parts) - 2, -1, -1):
        expr = f"({parts[j]} if {idx[0]} == {j} else {expr})"
    return expr
