"""Round 9, data-dependent sizes and the native tier's promises. Sizes: masks that select
nothing, one element or everything, in one call after another; ``.shape`` and ``len``
of a masked result read as Python ints and used in a slice, a ``range``, ``np.zeros``,
a reshape, a division, a comparison and a printed line; ``nonzero``/``unique``/
``argwhere``/``flatnonzero`` results of size 0 and 1 used as indices; reductions of empty
selections (``max`` raises, ``mean`` warns, ``sum`` is 0); ``np.resize``, ``np.repeat``
with counts from data. Native (``backend="native"`` with tier 2 forced from the second
call where Numba is installed): int8 and uint8 wrap-around in the kernel, NaN in
``max``/``min``/``maximum``/``fmax``, ``-0.0`` through ``abs``/``minimum``/``copysign``/
``sign``, empty and size-1 inputs, integer division by zero."""

import copy

import numpy as np
from hostile_check import Programs

import dynamo

reg = Programs("round9_sizes")
case = reg.case
NATIVE = {"after_calls": 1, "background": False, "prefer": "native"}

X = np.array([1.0, -2.0, 3.0, -4.0, 5.0])
XN = np.array([1.0, np.nan, 3.0, -4.0, np.nan])
XZ = np.array([-0.0, 0.0, -0.0])
E = np.zeros(0)
ONE = np.array([7.0])
I8 = np.array([-128, -1, 0, 1, 127, 100], dtype=np.int8)
U8 = np.array([0, 1, 255, 128], dtype=np.uint8)

# one threshold that selects everything, one that selects one element, one nothing
THRESH = [(X, -10.0), (X, 4.0), (X, 10.0), (E, 0.0), (ONE, 0.0)]


# ============================================================ masked results and their sizes

def _masked_len_in_slice(x, t):
    m = x[x > t]
    n = len(m)
    return x[:n], x[n:], n


case(_masked_len_in_slice, *THRESH)


def _masked_shape_in_zeros(x, t):
    m = x[x > t]
    return np.zeros(m.shape[0] + 1), np.ones((m.shape[0], 2))


case(_masked_shape_in_zeros, *THRESH)


def _masked_shape_in_range(x, t):
    m = x[x > t]
    acc = 0.0
    for i in range(m.shape[0]):
        acc += m[i]
    return acc, m.size


case(_masked_shape_in_range, *THRESH)


def _masked_size_divides(x, t):
    m = x[x > t]
    try:
        return m.sum() / len(m)
    except ZeroDivisionError as e:
        return str(e)


case(_masked_size_divides, *THRESH)


def _masked_size_compared(x, t):
    m = x[x > t]
    if len(m) == 1:
        return "one", m[0]
    if m.size:
        return "many", m[-1]
    return "none", None


case(_masked_size_compared, *THRESH)


def _masked_size_printed(x, t):
    m = x[x > t]
    print("kept", m.shape, len(m), m)
    return m


case(_masked_size_printed, *THRESH)


def _masked_reshape(x, t):
    m = x[x > t]
    return m.reshape(-1, 1), m.reshape(1, len(m))


case(_masked_reshape, *THRESH)


def _masked_max_raises(x, t):
    m = x[x > t]
    try:
        return m.max()
    except ValueError as e:
        return str(e)


case(_masked_max_raises, *THRESH)


def _masked_mean_warns(x, t):
    return x[x > t].mean(), x[x > t].sum(), x[x > t].prod()


case(_masked_mean_warns, *THRESH)


def _masked_argmax(x, t):
    m = x[x > t]
    try:
        return int(np.argmax(m))
    except ValueError as e:
        return str(e)


case(_masked_argmax, *THRESH)


def _masked_then_index_other(x, t):
    idx = np.flatnonzero(x > t)
    other = np.arange(len(x)) * 10
    return other[idx], idx.dtype, other[idx[:1]]


case(_masked_then_index_other, *THRESH)


def _masked_item(x, t):
    m = x[x > t]
    try:
        return m.item()
    except ValueError as e:
        return str(e)


case(_masked_item, *THRESH)


def _masked_negative_slice(x, t):
    m = x[x > t]
    return m[-2:], m[:-1], m[::-1], m[len(m) // 2:]


case(_masked_negative_slice, *THRESH)


def _masked_truthiness(x, t):
    m = x[x > t]
    try:
        return bool(m)
    except ValueError as e:
        return str(e)


case(_masked_truthiness, *THRESH)


def _masked_written_back(x, t):
    m = x > t
    x[m] = np.arange(m.sum())
    return x


case(_masked_written_back, *THRESH)


def _unique_sizes(x, t):
    u, c = np.unique(np.round(x[x > t]), return_counts=True)
    return u, c, len(u)


case(_unique_sizes, *THRESH)


def _nonzero_tuple_sizes(a, t):
    rows, cols = np.nonzero(a > t)
    return rows, cols, a[rows, cols], np.zeros((len(rows), 2))


case(_nonzero_tuple_sizes, (np.arange(6.0).reshape(2, 3), 2.0),
     (np.arange(6.0).reshape(2, 3), 4.5), (np.arange(6.0).reshape(2, 3), 9.0))


def _repeat_counts_from_data(x, t):
    counts = (x > t).astype(np.int64)
    r = np.repeat(x, counts)
    return r, r.shape


case(_repeat_counts_from_data, *THRESH)


def _resize_to_masked_len(x, t):
    n = int((x > t).sum())
    return np.resize(x, n + 1), np.resize(x, (n, 2))


case(_resize_to_masked_len, *THRESH)


def _masked_concat_empty(x, t):
    m = x[x > t]
    return np.concatenate([m, m[:0], m]), np.stack([m, m]).shape


case(_masked_concat_empty, *THRESH)


def _masked_matmul(x, t):
    m = x[x > t]
    return m @ m, np.outer(m, m).shape


case(_masked_matmul, *THRESH)


def _masked_cumsum_last(x, t):
    c = np.cumsum(x[x > t])
    try:
        return c[-1]
    except IndexError as e:
        return str(e)


case(_masked_cumsum_last, *THRESH)


def _masked_into_list_len(x, t, out):
    m = x[x > t]
    out.extend(m.tolist())
    return len(out)


case(_masked_into_list_len, lambda: (X.copy(), 4.0, []), lambda: (X.copy(), 10.0, [1]))


# ============================================================ the native tier

def native(fn, *inputs, calls: int = 3):
    """``fn`` compiled for the native tier (plain in the reference run), called
    ``calls`` times with each input set (deep-copied per call)."""
    def s(r):
        f = dynamo.compile(fn, backend="native", options=NATIVE) if r.compiled else fn
        for spec in inputs:
            for _ in range(calls):
                r.call(f, *copy.deepcopy(spec))
    s.__name__ = "native_" + fn.__name__.removeprefix("_")
    reg.scenario(s)


def _int8_wraps(a):
    return a + a, a * np.int8(3), -a


native(_int8_wraps, (I8,), (I8[::2],))


def _uint8_wraps(a):
    return a - np.uint8(1), a + a


native(_uint8_wraps, (U8,), (U8[:0],))


def _int8_abs_min(a):
    return np.abs(a), a // np.int8(-1)


native(_int8_abs_min, (I8,))


def _nan_max_min(x):
    return x.max(), x.min(), np.nanmax(x), (x * 2).max()


native(_nan_max_min, (X,), (XN,), (ONE,))


def _nan_maximum_fmax(x, y):
    return np.maximum(x, y), np.fmax(x, y), np.minimum(x, y), np.fmin(x, y)


native(_nan_maximum_fmax, (X, XN), (XN, X), (E, E))


def _neg_zero_ops(x):
    return np.abs(x), np.minimum(x, 0.0), np.maximum(x, -0.0), np.copysign(1.0, x), \
        np.sign(x), x * -1.0


native(_neg_zero_ops, (XZ,), (np.array([-0.0]),))


def _neg_zero_sum(x):
    return x.sum(), (x * 1.0).sum(), x.min(), x.max()


native(_neg_zero_sum, (XZ,), (np.array([-0.0, -0.0]),), (E,))


def _empty_reductions(x):
    return x.sum(), x.prod(), (x + 1).sum(), np.sqrt(x)


native(_empty_reductions, (E,), (ONE,), (X,))


def _empty_max_raises(x):
    try:
        return (x * 2).max()
    except ValueError as e:
        return str(e)


native(_empty_max_raises, (X,), (E,))


def _int_divide_by_zero(a, b):
    return a // b, a % b


native(_int_divide_by_zero, (np.array([7, -7, 3]), np.array([2, 0, -1])),
       (np.array([7, -7, 3]), np.array([2, 3, -1])))


def _float_divide_by_zero(x):
    return 1.0 / x, x / x


native(_float_divide_by_zero, (XZ,), (X,))


def _size_one_broadcast(x, y):
    return x + y, (x * y).sum()


native(_size_one_broadcast, (ONE, X), (X, ONE), (ONE, E))


def _nan_where(x):
    return np.where(x > 0, x, -x), np.where(np.isnan(x), 0.0, x).sum()


native(_nan_where, (XN,), (X,))


def _int8_sum_dtype(a):
    return a.sum(), (a + a).sum(), a.sum(dtype=np.int8)


native(_int8_sum_dtype, (I8,), (I8[:0],))


def _float32_accumulate(x):
    return (x * np.float32(3)).sum(), (x + 1).mean()


native(_float32_accumulate, (X.astype(np.float32),), (np.full(300, 0.1, np.float32),))


def _clip_nan(x):
    return np.clip(x, -1.0, 1.0) * 2


native(_clip_nan, (XN,), (XZ,))


def _argmax_nan(x):
    return np.argmax(x * 1.0), np.argmin(x + 0.0)


native(_argmax_nan, (XN,), (X,), (ONE,))
