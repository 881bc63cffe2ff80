"""Values written straight into a window of a fresh array, on the plain path.

Stencil code builds an array and fills a window of it in the next statement::

    def laplacian(u, k):
        f = np.zeros_like(u)
        f[1:-1] = k * (u[2:] - 2 * u[1:-1] + u[:-2])
        return f

Eager NumPy computes the right-hand side into a temporary and copies it into
``f[1:-1]``: one more pass over the window's memory. When ``f`` is an array this code
allocated (``np.zeros_like``, ``np.empty``, ``x.copy()``, a fresh ufunc result ...)
that only this ``setitem`` reads, the last op may write into the window itself::

    zeros_like = _zeros_like(u)
    multiply_1 = _multiply(k, add, out=zeros_like[1:-1])   # the copy's pass is gone
    zeros_like[1:-1] = multiply_1                           # the same memory: a no-op

(NumPy skips a copy whose source and destination are the same memory: 0.2 us against
1.3 us for 5,000 float64, 2026-12-03.) The statement stays as the program wrote it,
so eager's code (a rerun after a floating-point condition) is unchanged.

Nobody can tell: ``f`` is fresh and read by nothing but the ``setitem``, so no other
name sees its window before the ``setitem`` would have written it; the value has the
window's shape and ``f``'s dtype exactly (no broadcast, no cast: the ufunc's loop is
picked from its inputs, and it writes the same bits into ``out=`` of the same dtype);
nothing runs between the op and the ``setitem`` (the op is the step right before it);
the op does not read ``f`` (its only reader is the ``setitem``). If the op raises or
reports a condition half-way, the window holds part of the value, but the array is
fresh: eager's rerun makes its own, and an exception leaves ``f`` unreachable.
Unlike ``flat.Target`` (a window of an input, checked per call: shared memory,
layout, the caller's error settings) this needs no check at run time, so it pays at
every size.
"""

from __future__ import annotations

import numpy as np

from dynamo import ops
from dynamo.graph import Node
from dynamo.ops.node_facts import array_meta, returns_fresh

from .plan import plain_row_buffer, static_shape, uses_out

# Calls that always return a new array of their own (no ``out=`` parameter).
_CREATION = frozenset({"zeros", "ones", "empty", "full", "zeros_like", "ones_like",
                       "empty_like", "full_like", "copy_method"})
# Those of them that are C-contiguous whatever their arguments' layout (unless given an
# ``order``): the number of positional arguments up to the dtype.
_C_ORDER = {"zeros": 2, "ones": 2, "empty": 2, "full": 3, "copy_method": 1}
# A ufunc writing into a window that is not contiguous (``f[1:-1, 1:-1]``) runs a loop
# per row without NumPy's contiguous fast paths: slower than into a fresh temporary
# plus the copy for small windows, faster for large ones (add of two 2-D operands,
# window then temporary + copy: 62x62 5.7 against 3.9 us, 126x126 10.5 against 10.8,
# 198x198 27 against 36; 2026-12-03, CPU time, best of 7).
MIN_STRIDED_WINDOW = 1 << 15


def fresh_targets(steps: list) -> dict[Node, Node]:
    """``value node -> setitem node`` for each ufunc whose value may be written
    straight into the window of the fresh array the next step assigns it to.

    ``steps`` is ``order.schedule``'s list of ``(group index, node)`` (``node`` None
    for a block-wise group).

        >>> fresh_targets([])
        {}
    """
    position = {node: i for i, (_, node) in enumerate(steps) if node is not None}
    chosen: dict[Node, Node] = {}
    for i, (_, s) in enumerate(steps):
        if i == 0 or s is None or s.target != "setitem" or len(s.args) != 3 or s.kwargs:
            continue
        array, index, value = s.args
        if steps[i - 1][1] is not value or not isinstance(array, Node) or \
                position.get(array, i) >= i - 1 or list(array.users) != [s]:
            continue
        if _fresh(array) and _fits(value, s, array, index):
            chosen[value] = s
    return chosen


def _fresh(array: Node) -> bool:
    """A new array nobody else holds: a creation call, or a fresh result."""
    if "out" in array.kwargs:
        return False
    return array.target in _CREATION or returns_fresh(array)


def _fits(value: Node, setitem: Node, array: Node, index) -> bool:
    """The value is one ufunc output of exactly the window's shape and the array's
    dtype, read by nothing but the ``setitem``, on the plain path."""
    if list(value.users) != [setitem] or not (uses_out(value) and returns_fresh(value)) \
            or "out" in value.kwargs or ops.get(value.target).impl.nout != 1 \
            or array in value.inputs() or plain_row_buffer(value) or plain_row_buffer(setitem):
        return False
    mv, ma = array_meta(value), array_meta(array)
    if mv is None or ma is None or mv.scalar or ma.scalar or mv.ndim < 1 or \
            mv.kind != "numpy" or ma.kind != "numpy" or mv.dtype != ma.dtype or \
            not static_shape(mv.shape) or not static_shape(ma.shape):
        return False
    if window_shape(tuple(ma.shape), index) != tuple(mv.shape):
        return False
    return _contiguous_window(array, index) or np.prod(mv.shape) >= MIN_STRIDED_WINDOW


def _contiguous_window(array: Node, index) -> bool:
    """``array[index]`` is contiguous: a one-dimensional array (new ones always are)
    or one laid out in C order whatever its inputs (``np.zeros(shape)``,
    ``x.copy()``), indexed by integers, then at most one slice of unit step, then
    whole axes (``f[1:-1]``, ``f[i, 2:]``; not ``f[1:-1, 1:-1]`` or ``f[::2]``)."""
    parts = list(index) if isinstance(index, tuple) else [index]
    while parts and parts[-1] in (slice(None), Ellipsis):
        parts.pop()
    while parts and type(parts[0]) is int:
        parts.pop(0)
    if len(parts) > 1 or (parts and not (isinstance(parts[0], slice)
                                         and parts[0].step in (None, 1))):
        return False
    if array_meta(array).ndim == 1:
        return True
    n = _C_ORDER.get(array.target)
    return n is not None and "order" not in array.kwargs and len(array.args) <= n


def window_shape(shape: tuple, index) -> tuple | None:
    """The shape of ``x[index]`` for an ``x`` of ``shape``, when ``index`` is basic
    indexing with constant bounds (integers, slices, ``...``, ``None``); else None.

        >>> window_shape((5, 6), (slice(1, -1), slice(None, -2)))
        (3, 4)
        >>> window_shape((5,), [0, 1]) is None
        True
    """
    parts = index if isinstance(index, tuple) else (index,)
    for p in parts:
        if isinstance(p, slice):
            if not all(b is None or type(b) is int for b in (p.start, p.stop, p.step)):
                return None
        elif not (type(p) is int or p is Ellipsis or p is None):
            return None
    try:   # a zero-strided view: indexes like an array of ``shape``, allocates nothing
        return np.broadcast_to(np.empty((), np.int8), shape)[index].shape
    except (IndexError, ValueError, TypeError):
        return None
