"""Round 5, arrays: data-dependent sizes (``x[m]``, ``nonzero``, ``unique``, set ops)
with empty and all-true masks and 0-size inputs, then reshapes and broadcasts against
them; the numpy backend's size-generic code past its first sizes (0, 1, large,
negative strides, non-contiguous views, Fortran order, slices that clamp); views and
writes through them."""

import numpy as np
from hostile_check import Programs

reg = Programs("round5_arrays")
case, scenario = reg.case, reg.scenario


def _v(*values):
    return np.array(values, dtype=np.float64)


V = _v(-1.5, 0.25, 2.0, -0.5, 3.0, 0.0)
NEG = _v(-1.0, -2.0, -3.0)
POS = _v(1.0, 2.0, 3.0)
EMPTY = np.zeros(0)
ONE = _v(7.0)
M = np.arange(12.0).reshape(3, 4)
F = np.asfortranarray(np.arange(12.0).reshape(3, 4))
BIG = np.linspace(-1.0, 1.0, 3001)

SIZES = ((V,), (NEG,), (POS,), (EMPTY,), (ONE,), (V[::-1],), (V[::2],), (BIG,),
         (np.arange(5.0),), (np.arange(9.0)[::-3],))


def _fresh(make):
    return lambda: (make(),)


# ============================================================================ masks, sizes

def _mask_then_reshape(x):
    y = x[x > 0]
    return y.reshape(-1, 1) * np.ones(2)


case(_mask_then_reshape, *SIZES)


def _mask_broadcast_against_full(x):
    y = x[x > 0]
    try:
        return y + x
    except ValueError as e:
        return "broadcast", str(e)


case(_mask_broadcast_against_full, (V,), (POS,), (NEG,), (EMPTY,), (ONE,))


def _mask_outer(x):
    y = x[x > 0]
    return np.outer(y, y), y[:, None] - y[None, :]


case(_mask_outer, *SIZES)


def _nonzero_then_take(x):
    (idx,) = np.nonzero(x > 0)
    return np.take(x, idx), idx.dtype, x[idx[::-1]]


case(_nonzero_then_take, *SIZES)


def _unique_counts_then_scale(x):
    u, c = np.unique(np.round(x), return_counts=True)
    return u * c, u.size


case(_unique_counts_then_scale, *SIZES)


def _setops(x):
    a = np.round(x)
    b = np.array([0.0, 2.0, 3.0])
    return np.intersect1d(a, b), np.union1d(a, b), np.setdiff1d(a, b), np.isin(a, b)


case(_setops, *SIZES)


def _mask_stack(x):
    y = x[x > 0]
    z = x[x <= 0]
    return np.concatenate([y, z]), np.hstack([z, y]).shape


case(_mask_stack, *SIZES)


def _mask_sum_per_size(x):
    y = x[x > 0]
    return y.sum(), y.prod(), y.cumsum(), np.diff(y)


case(_mask_sum_per_size, *SIZES)


def _mask_min_empty(x):
    y = x[x > 0]
    try:
        return y.min()
    except ValueError as e:
        return "empty", str(e)


case(_mask_min_empty, *SIZES)


def _mask_argmax(x):
    y = x[x > 0]
    try:
        return y.argmax(), np.argsort(y)
    except ValueError as e:
        return "empty", str(e)


case(_mask_argmax, *SIZES)


def _mask_assign_scalar_then_read(x):
    x[x < 0] = np.nan
    return np.nanmean(x) if x.size else None, x


case(_mask_assign_scalar_then_read, _fresh(lambda: V.copy()), _fresh(lambda: EMPTY.copy()),
     _fresh(lambda: NEG.copy()))


def _mask_assign_array(x):
    m = x > 0
    x[m] = np.arange(m.sum(), dtype=float)
    return x


case(_mask_assign_array, _fresh(lambda: V.copy()), _fresh(lambda: POS.copy()),
     _fresh(lambda: NEG.copy()), _fresh(lambda: EMPTY.copy()))


def _mask_assign_wrong_size(x):
    try:
        x[x > 0] = np.array([1.0, 2.0])
    except ValueError as e:
        return "size", str(e)
    return x


case(_mask_assign_wrong_size, _fresh(lambda: V.copy()), _fresh(lambda: _v(1.0, -1.0, 2.0)),
     _fresh(lambda: NEG.copy()))


def _argwhere_2d(m):
    w = np.argwhere(m > 4)
    return w, w.shape, m[tuple(w.T)]


case(_argwhere_2d, (M,), (F,), (M[:, ::-1],), (M[:0],), (np.zeros((0, 3)),))


def _where_three_arg_empty(x):
    return np.where(x > 0, x, -x), np.where(x > 0)[0]


case(_where_three_arg_empty, *SIZES)


def _bincount_minlength(x):
    idx = (np.abs(x) * 2).astype(np.int64)
    return np.bincount(idx, minlength=3), np.bincount(idx, weights=x)


case(_bincount_minlength, *SIZES)


def _searchsorted_sorted(x):
    s = np.sort(x)
    return np.searchsorted(s, 0.0), np.searchsorted(s, [0.0, 1.0], side="right")


case(_searchsorted_sorted, *SIZES)


def _compress_extract(x):
    return np.compress(x > 0, x), np.extract(x < 0, x)


case(_compress_extract, *SIZES)


# ============================================================================ layouts

def _transpose_fortran(a):
    return a.T @ a, a.ravel(), a.ravel(order="F"), a.flags.f_contiguous


case(_transpose_fortran, (M,), (F,), (M[:, ::2],), (F[::-1],), (M[:0],))


def _copy_order(a):
    return np.copy(a), a.copy(order="K"), np.array(a, order="F"), a.astype(np.float32)


case(_copy_order, (M,), (F,), (M[::-1, 1:],), (F[:, ::-2],))


def _empty_like_order(a):
    e = np.empty_like(a)
    e[...] = 1.0
    z = np.zeros_like(a, order="C")
    return e, z, e.flags.f_contiguous


case(_empty_like_order, (M,), (F,), (F[:, 1:],))


def _reshape_fortran_order(a):
    return a.reshape(4, 3, order="F"), a.reshape(-1, order="A")


case(_reshape_fortran_order, (M,), (F,), (M.T,))


def _view_writes_through(a):
    v = a[:, 1]
    v += 100
    w = a.T
    w[0, 0] = -1
    return a, v, w


case(_view_writes_through, _fresh(lambda: M.copy()), _fresh(lambda: np.asfortranarray(M)))


def _reversed_view_write(x):
    r = x[::-1]
    r[:2] = 0.0
    return x, r


case(_reversed_view_write, _fresh(lambda: V.copy()), _fresh(lambda: ONE.copy()),
     _fresh(lambda: EMPTY.copy()))


def _clamp_slices(x, k):
    return x[k:], x[:k], x[-k:], x[k:-k], x[::k] if k else None


case(_clamp_slices, (V, 2), (V, 10), (V, 0), (ONE, 2), (EMPTY, 1), (BIG, 1000))


def _negative_step_clamp(x, k):
    return x[k::-1], x[:k:-1], x[-k::-2]


case(_negative_step_clamp, (V, 2), (V, 10), (V, -10), (ONE, 0), (EMPTY, 3))


def _strided_reduce(x):
    return x[::3].sum(), x[1::2].max() if x[1::2].size else None, x[::-1].cumsum()


case(_strided_reduce, *SIZES)


def _broadcast_to_readonly(x):
    b = np.broadcast_to(x, (2,) + x.shape)
    try:
        b[0, 0] = 1
    except ValueError as e:
        return b, str(e)
    return b


case(_broadcast_to_readonly, (V,), (ONE,), (EMPTY,))


def _readonly_input_write(x):
    try:
        x[0] = 5.0
    except ValueError as e:
        return "readonly", str(e)
    return x


def _readonly(a):
    a = a.copy()
    a.flags.writeable = False
    return a


case(_readonly_input_write, _fresh(lambda: _readonly(V)), _fresh(lambda: V.copy()))


def _inplace_on_readonly(x):
    try:
        x += 1
    except ValueError as e:
        return "readonly", str(e)
    return x


case(_inplace_on_readonly, _fresh(lambda: _readonly(V)), _fresh(lambda: V.copy()))


def _out_argument(x, out):
    r = np.add(x, 1.0, out=out)
    return r is out, out


case(_out_argument, lambda: (V.copy(), np.empty(6)), lambda: (V.copy(), np.empty(6)[::1]))


def _out_alias_input(x):
    np.multiply(x, 2.0, out=x)
    np.add(x[::-1], x, out=x)
    return x


case(_out_alias_input, _fresh(lambda: V.copy()), _fresh(lambda: ONE.copy()))


def _overlapping_copy(x):
    x[1:] = x[:-1]
    return x


case(_overlapping_copy, _fresh(lambda: V.copy()), _fresh(lambda: np.arange(5.0)))


def _overlapping_add(x):
    x[1:] += x[:-1]
    return x


case(_overlapping_add, _fresh(lambda: V.copy()), _fresh(lambda: np.arange(5.0)))


def _fancy_index_repeat_add(x, idx):
    x[idx] += 1
    np.add.at(x, idx, 1)
    return x


case(_fancy_index_repeat_add, lambda: (V.copy(), [0, 0, 1]), lambda: (V.copy(), [5, 5, 5]),
     lambda: (V.copy(), []))


def _fancy_index_list_types(x, idx):
    try:
        return x[idx]
    except IndexError as e:
        return "index", str(e)


case(_fancy_index_list_types, (V, [0, -1]), (V, [True, False] * 3), (V, [1.0]),
     (V, [[0, 1], [2, 3]]), (V, []), (V, [10]))


def _zero_d_ops(a):
    return a + 1, a[()], a.item(), a.reshape(1), np.atleast_1d(a), a.ndim


case(_zero_d_ops, (np.array(3.0),), (np.array(-0.0),), (np.array(np.nan),))


def _size_one_broadcast(x, y):
    return x + y, x * y, (x + y).shape


case(_size_one_broadcast, (ONE, V), (V, ONE), (ONE[:, None], V), (EMPTY, ONE),
     (M, np.ones((1, 4))), (M, np.ones((3, 1))))


def _huge_size_reduction(x):
    return x.sum(), x.mean(), np.sort(x)[-3:], (x * x).std()


case(_huge_size_reduction, (np.linspace(0, 1, 200001),), (np.linspace(0, 1, 7),),
     (np.linspace(0, 1, 200001)[::-7],))


def _int_array_index_dtypes(x, idx):
    return x[idx], idx.dtype


case(_int_array_index_dtypes, (V, np.array([0, 1], dtype=np.uint8)),
     (V, np.array([0, -1], dtype=np.int8)), (V, np.array([], dtype=np.int64)),
     (V, np.array([5], dtype=np.uint64)))


def _diag_and_triu(a):
    return np.diag(a), np.triu(a), np.tril(a, -1), np.trace(a)


case(_diag_and_triu, (M,), (F,), (M[:, :0],), (np.eye(3),))


def _einsum_paths(a):
    return np.einsum("ij,ij->i", a, a), np.einsum("ij->j", a), np.einsum("ii", a[:3, :3])


case(_einsum_paths, (M,), (F,), (M[::-1],))


def _sort_stable_nan(x):
    return np.sort(x), np.argsort(x, kind="stable"), np.partition(x, 0) if x.size else x


case(_sort_stable_nan, (_v(np.nan, 1.0, -0.0, 0.0, np.nan, -1.0),), (EMPTY,), (ONE,))


def _integer_mean_and_division(a):
    return a.mean(), a / 2, a // 2, np.true_divide(a, 3).dtype


case(_integer_mean_and_division, (np.arange(7),), (np.arange(7, dtype=np.int8),),
     (np.array([], dtype=np.int32),))


def _astype_wrap(x):
    with np.errstate(invalid="ignore"):
        return x.astype(np.int8), x.astype(np.uint8), (x * 1e20).astype(np.int64)


case(_astype_wrap, (_v(300.0, -1.0, 2.5, -2.5),), (EMPTY,))


def _concat_dtype_promotion(a, b):
    return np.concatenate([a, b]), np.stack([a, b]).dtype


case(_concat_dtype_promotion, (np.arange(3), POS), (np.arange(3, dtype=np.int8),
                                                    np.arange(3, dtype=np.uint8)),
     (POS.astype(np.float32), np.arange(3)))


def _repeat_tile_empty(x, n):
    return np.repeat(x, n), np.tile(x, n), np.resize(x, n) if x.size else None


case(_repeat_tile_empty, (V, 2), (V, 0), (EMPTY, 3), (ONE, 5))


# ============================================================================ sizes that change

def _sized(*shapes, make=lambda s: np.arange(float(np.prod(s))).reshape(s)):
    return [(make(s),) for s in shapes]


def _pairs(*shapes):
    return [(np.arange(float(np.prod(a))).reshape(a) + 1, np.arange(float(np.prod(b))).reshape(b))
            for a, b in shapes]


def _add_pair(a, b):
    return a + b, (a * b).sum(axis=0), np.maximum(a, b).shape


case(_add_pair, *_pairs(((5, 5), (5, 5)), ((6, 6), (6, 6)), ((7, 7), (7, 7)), ((8, 8), (8, 8)),
                        ((9, 9), (9, 9)), ((9, 9), (9, 1)), ((9, 9), (1, 9)), ((1, 9), (9, 1)),
                        ((0, 9), (1, 9)), ((3, 3), (3, 4))), calls=1, name="broadcast_after_sizes")


def _inplace_broadcast(a, b):
    try:
        a += b
    except ValueError as e:
        return "shape", str(e)
    return a


case(_inplace_broadcast, *[lambda a=a, b=b: (a.copy(), b) for a, b in _pairs(
    ((5, 5), (5, 5)), ((6, 6), (6, 6)), ((7, 7), (7, 7)), ((8, 8), (8, 8)), ((9, 9), (9, 1)),
    ((9, 1), (9, 9)), ((0, 3), (3,)), ((4, 4), (1, 1)))], calls=1)


def _slice_symbolic(x, n):
    return x[:n], x[n:], x[n - 1::-1] if n else None, x[-n:]


case(_slice_symbolic, *[(np.arange(float(s)), n) for s, n in
                        ((5, 2), (6, 3), (7, 4), (8, 5), (9, 6), (4, 10), (10, 0), (1, 1),
                         (0, 3), (3, 3))], calls=1)


def _reshape_symbolic(x):
    n = x.shape[0]
    return x.reshape(2, -1) if n % 2 == 0 else x.reshape(-1, 1), x.reshape(n, 1).T


case(_reshape_symbolic, *_sized(4, 6, 8, 10, 12, 14, 7, 0, 1, 2), calls=1)


def _reduce_keepdims_sizes(a):
    try:
        return a.sum(axis=1, keepdims=True), a.max(axis=0), a.mean(axis=1)
    except ValueError as e:
        return "empty", str(e)


case(_reduce_keepdims_sizes, *_sized((2, 3), (3, 4), (4, 5), (5, 6), (6, 7), (1, 1), (0, 3),
                                     (3, 0), (7, 1)), calls=1)


def _layout_changes(a):
    b = a * 2
    return b, b.flags.c_contiguous, b.flags.f_contiguous, (a.T + 1).strides == (a.T * 1).strides


case(_layout_changes, *[(m,) for m in (M, M.copy(), F, M.T, F.T, M[:, ::2], M[::-1],
                                       np.ones((5, 1)), np.ones((1, 5)), np.ones((0, 4)))],
     calls=1)


def _concat_sizes(a, b):
    return np.concatenate([a, b]), np.stack([a[:1], b[:1]]) if a.size and b.size else None


case(_concat_sizes, *[(np.arange(float(i)), np.arange(float(j))) for i, j in
                      ((3, 3), (4, 2), (5, 1), (6, 0), (0, 0), (1, 7), (2, 2), (9, 9))],
     calls=1)


def _matmul_sizes(a, b):
    try:
        return a @ b, (a @ b).shape
    except ValueError as e:
        return "shape", str(e)


case(_matmul_sizes, *[(np.ones((i, j)), np.ones((j, k)) * 2) for i, j, k in
                      ((2, 3, 4), (3, 4, 5), (4, 5, 6), (5, 6, 7), (1, 1, 1), (0, 3, 2),
                       (3, 0, 2), (3, 2, 0))] + [(np.ones((2, 3)), np.ones((2, 3)))],
     calls=1)


def _argmax_sizes(x):
    try:
        return x.argmax(), x.argmin(), np.argmax(x[::-1])
    except ValueError as e:
        return "empty", str(e)


case(_argmax_sizes, *_sized(3, 4, 5, 6, 7, 1, 0, 2), calls=1)


def _cumulative_sizes(x):
    return np.cumsum(x), np.cumprod(x + 1), np.diff(x, n=2)


case(_cumulative_sizes, *_sized(3, 4, 5, 6, 7, 1, 0, 2), calls=1)
