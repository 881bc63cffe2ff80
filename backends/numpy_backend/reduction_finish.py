"""How the numpy backend's generated code finishes reductions it ran in pieces.

Blocked reductions leave one partial result per block; these helpers combine them
the way NumPy itself ends the same reduction (its dtype rules for ``mean``, its
pairwise order for long sums), so the compiled result has eager's bits. Moved out of
``runtime.py``, which re-exports them (generated code reads ``runtime.<name>``).

    >>> parts = np.array([1.0, 2.0, 3.0])
    >>> float(finish_partial("sum", parts, (), True))
    6.0
"""

from __future__ import annotations

import math

import numpy as np


def finish_partial(target: str, partials: np.ndarray, shape: tuple, scalar: bool):
    """Combine per-block results of a full reduction (not ``mean``) into eager's value."""
    combine = {"sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum,
               "any": np.logical_or, "all": np.logical_and}[target]
    total = combine.reduce(partials, dtype=partials.dtype)
    if scalar:
        return total
    return np.asarray(total, dtype=partials.dtype).reshape(shape)


def mean_dtype(src: np.dtype, dtype) -> np.dtype | None:
    """The dtype ``np.mean`` sums in (NumPy's ``_mean``): float64 for integers, float32
    for float16, else the given or the input's own."""
    if dtype is not None:
        return np.dtype(dtype)
    if src.kind in "biu":
        return np.dtype("f8")
    if src == np.float16:
        return np.dtype("f4")
    return None


def finish_mean(partials: np.ndarray, count: int, src: np.dtype, dtype, shape: tuple,
                scalar: bool):
    """``np.mean`` over every axis from per-block sums, the way NumPy's ``_mean`` ends."""
    total = np.add.reduce(partials, dtype=partials.dtype)
    rcount = np.intp(count)
    half = dtype is None and src == np.float16
    if not scalar:
        ret = np.asarray(total, dtype=partials.dtype).reshape(shape)
        ret = np.true_divide(ret, rcount, out=ret, casting="unsafe", subok=False)
        return src.type(ret) if half else ret
    return src.type(total / rcount) if half else total.dtype.type(total / rcount)


def row_major(x: np.ndarray) -> bool:
    """``x``'s elements lie in C order with its rows apart: a C-contiguous array or a
    basic slice of one (``A[1:-1, :-2]``, ``x[::-1]``, ``x[:, ::2]``).

    NumPy allocates an elementwise result in its operands' memory order (``K``),
    which for such operands is C order: so fused code may write a C-contiguous
    result, as eager would, and run its blocks over row slices of the operands.

        >>> A = np.zeros((5, 6))
        >>> row_major(A[1:-1, :-2]), row_major(A.T), row_major(A[:, ::-2])
        (True, False, True)
    """
    if x.flags.c_contiguous:
        return True
    span = x.itemsize   # bytes the axes to the right span, first to past the last element
    for n, stride in zip(reversed(x.shape), reversed(x.strides)):
        if n == 1:
            continue
        stride = abs(stride)
        if stride < span and span > x.itemsize:
            return False
        span += stride * (n - 1)
    return True


# A sum over an axis this long is a C loop too short to pay for itself (NumPy runs one
# per output element): whole-array adds of the axis' slices are up to 20x faster.
SHORT_AXIS = range(2, 8)     # from 8 on NumPy sums pairwise, not left to right
# NumPy's reduction runs one inner loop per result along the summed axis when it is
# the last one (about 15 ns each); the adds cost about 5 us in all (the errstate, the
# calls, the finiteness check). Measured (float64, (rows, n) summed over n, best of 7
# x 300 calls): 256 rows 0.70-0.94x, 512 rows 0.78-1.04x (n=7) to 1.17-1.53x (n=2, 3),
# 1024 rows 1.29-2.71x, 2048 rows 2.4-4.6x. So from 512 rows, 128 per summed term.
SHORT_SUM_MIN = 512
# With ``inner`` elements after the summed axis, NumPy's loops run along them instead:
# (rows, n, inner) for inner 2-32 and 256 rows or more, the adds 1.04-5x faster; for
# inner 48-100, or fewer rows ((64, 5, 64), (3, 5000) over axis 0), 0.2-0.97x.
SHORT_INNER_MAX = 32
SHORT_INNER_ROWS = 256


def short_sum_pays(a: np.ndarray, axis: int, dtype) -> bool:
    """``short_sum`` adds ``a``'s slices along ``axis`` (rather than calling
    ``np.add.reduce``): a C-contiguous float32/float64 ``a`` summed in its own dtype
    over a 2-7 long axis, where NumPy would run many short loops: the axis last (or
    followed by one extent of 1) and at least ``SHORT_SUM_MIN`` (and 128 per summed
    term) results, or followed by at most ``SHORT_INNER_MAX`` elements and at least
    ``SHORT_INNER_ROWS`` rows before it.

        >>> short_sum_pays(np.ones((1000, 3)), -1, None)
        True
        >>> short_sum_pays(np.ones((100, 3)), -1, None)   # 100 results: NumPy's loop
        False
        >>> short_sum_pays(np.ones((3, 5000)), 0, None)    # NumPy's loop runs along rows
        False
    """
    if a.dtype.kind != "f" or a.dtype.itemsize < 4 or \
            (dtype is not None and dtype != a.dtype) or not a.flags.c_contiguous:
        return False
    return short_sum_sizes(a.shape, axis)


def short_sum_sizes(shape: tuple, axis: int) -> bool:
    """``short_sum_pays``'s test of the sizes alone: a 2-7 long axis with enough rows.
    Generated code for a static shape that fails it calls ``np.add.reduce`` itself
    (the test costs about as much as the sum of a (4, 2) array: a k-means
    assignment's trip, scripts/bench_small_loop_nodes.py).

        >>> short_sum_sizes((1000, 3), 1), short_sum_sizes((4, 2), 1)
        (True, False)
    """
    n = shape[axis]
    if n not in SHORT_AXIS:
        return False
    inner = math.prod(shape[axis % len(shape) + 1:])
    rows = math.prod(shape) // (n * inner) if inner else 0
    if inner == 1:
        return rows >= max(SHORT_SUM_MIN, 128 * n)
    return inner <= SHORT_INNER_MAX and rows >= SHORT_INNER_ROWS


def short_sum(a: np.ndarray, axis: int, dtype, keepdims: bool):
    """``np.add.reduce(a, axis, dtype, None, keepdims)``, the same bits, faster when
    ``a.shape[axis]`` is 2 to 7 (``((Z[:, None] - Z[None]) ** 2).sum(-1)`` over 3
    coordinates).

    NumPy adds fewer than 8 numbers left to right, starting from ``+0.0``, so
    ``a[..., 0] + a[..., 1] + a[..., 2] + 0.0`` is the same sum (the ``+ 0.0`` turns
    the ``-0.0`` of all-``-0.0`` terms into NumPy's ``+0.0`` and changes nothing
    else). A float add signals only overflow and invalid, and after either the
    running sum stays inf or NaN: so the adds run with conditions ignored, and a
    result that is not all finite is computed again by ``np.add.reduce`` itself,
    which reports exactly what eager reports (and gives NaN payloads as eager does).
    Other cases (another dtype, float16, which NumPy sums in float32, non-C layouts,
    whose result layout follows the input's) go to ``np.add.reduce`` directly.

        >>> v = np.random.random((1000, 1000, 3))
        >>> np.array_equal(short_sum(v, -1, None, False), v.sum(-1))
        True
    """
    if not short_sum_pays(a, axis, dtype):
        return np.add.reduce(a, axis, dtype, None, keepdims)
    n = a.shape[axis]
    axis = axis % a.ndim
    lead = (slice(None),) * axis
    shape = a.shape[:axis] + ((1,) if keepdims else ()) + a.shape[axis + 1:]
    result = np.empty(shape, a.dtype)
    out = result[lead + (0,)] if keepdims else result
    with np.errstate(all="ignore"):
        np.add(a[lead + (0,)], a[lead + (1,)], out=out)
        for j in range(2, n):
            np.add(out, a[lead + (j,)], out=out)
        np.add(out, 0.0, out=out)   # NumPy's sum starts from +0.0: all -0.0 sum to +0.0
    if not np.isfinite(out).all():
        return np.add.reduce(a, axis, dtype, None, keepdims)
    return result


def mean_exact(a: np.ndarray, axis, dtype, keepdims: bool, rcount, half: np.dtype | None):
    """``np.mean(a, axis, keepdims=keepdims)`` of an ndarray, as NumPy's ``_mean`` computes it.

    The same sum (``np.add.reduce`` with the same dtype) and the same division by the
    same ``np.intp`` count, without the Python wrapper layers (several microseconds a
    call). ``dtype`` is the summing dtype (``mean_dtype``); ``half`` is float16 when
    the result goes back to float16; ``rcount`` must be ``np.intp`` and non-zero.
    """
    if axis is not None and len(axis) == 1:
        ret = short_sum(a, axis[0], dtype, keepdims)
    else:
        ret = np.add.reduce(a, axis, dtype, None, keepdims)
    if isinstance(ret, np.ndarray):
        ret = np.true_divide(ret, rcount, out=ret, casting="unsafe", subok=False)
        return half.type(ret) if half is not None else ret
    if half is not None:
        return half.type(ret / rcount)
    return ret.dtype.type(ret / rcount)
