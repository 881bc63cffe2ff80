"""Round 18, array memory at its edges: ``out=`` arguments that alias an input (the
same array, a shifted or reversed view, a tuple ``out``, a wrong dtype or shape,
read-only), ``where=``, ``np.copyto``/``put``/``place``/``putmask``/``add.at`` and
fancy-index stores over their own source, row swaps through views, views returned and
written by the caller afterwards or kept across calls, a mutable default array,
read-only arrays (``broadcast_to``, ``diagonal``, ``setflags``), negative strides,
``as_strided`` and sliding windows, F order, byte views, non-native byte order, 0-size
and 0-d arrays. (Dtypes, objects, subclasses, error states, state between calls and
the large arrays of the numpy backend's paths: ``prog_round18_dtypes.py``.)

    >>> def _out_reversed(x):
    ...     return np.multiply(x, 2, out=x[::-1])   # overlaps its input: NumPy copies
"""

import numpy as np
from hostile_check import Programs
from round18_values import I8, G, X, _readonly

reg = Programs("round18_buffers")
case = reg.case
scenario = reg.scenario



# ------------------------------------------------------------------------- out= and aliasing

def _out_is_input(x):
    np.add(x, 1, out=x)
    return x


def _out_shifted_overlap(x):
    np.add(x[:-1], x[1:], out=x[1:])
    return x


def _out_reversed(x):
    return np.multiply(x, 2, out=x[::-1])


def _out_keeps_old(x):
    y = x * 1
    np.negative(x, out=x)
    return y, x


def _out_tuple(x):
    r = np.add(x, x, out=(x,))
    return r is x, x


def _out_wrong_dtype(x):
    try:
        np.add(x, 0.5, out=x)
    except TypeError as e:
        return type(e).__name__, str(e), x
    return x


def _out_wrong_shape(x):
    try:
        return np.add(x, 1, out=np.zeros(3))
    except ValueError as e:
        return str(e)


def _out_readonly(x):
    try:
        np.add(x, 1, out=x)
    except ValueError as e:
        return str(e), x
    return x


def _out_where(x):
    y = np.full_like(x, -7.0)
    np.add(x, 1, out=y, where=x > 0)
    return y


def _out_where_self(x):
    np.sqrt(x, out=x, where=x >= 0)
    return x


def _divmod_out_alias(x):
    q, r = np.divmod(x, 3.0, out=(x, np.empty_like(x)))
    return q is x, x, r


def _matmul_out_alias(a):
    return np.matmul(a, a, out=a), a


def _cumsum_out_self(x):
    np.cumsum(x, out=x)
    return x


def _clip_out_self(x):
    np.clip(x, -1, 1, out=x)
    return x


def _sum_out_0d(x):
    s = np.zeros(())
    r = np.sum(x, out=s)
    return r is s, s


def _copyto_reversed(x):
    np.copyto(x, x[::-1])
    return x


def _put_from_self(x):
    np.put(x, [0, 1], x[2:4])
    return x


def _place_putmask(x):
    y = x.copy()
    np.place(x, x > 0, [9.0, 8.0])
    np.putmask(y, y < 0, y * 10)
    return x, y


def _add_at_dup(x):
    np.add.at(x, [0, 0, 1], 1.0)
    return x


def _fancy_iadd_dup(x):
    x[[0, 0, 1]] += 1.0
    return x


def _fancy_swap(x):
    x[[0, 1]] = x[[1, 0]]
    return x


def _row_swap_views(a):
    a[0], a[1] = a[1], a[0]          # both rows end equal: a[1] is a view
    return a


def _row_swap_copies(a):
    a[0], a[1] = a[1].copy(), a[0].copy()
    return a


def _self_assign_overlap(x):
    x[1:] = x[:-1]
    return x


def _inplace_through_reshape(x):
    x.reshape(2, -1)[0] += 10
    return x


def _reshape_copy_no_write(a):
    flat = a.T.reshape(-1)
    flat[0] = 99.0
    return a, flat


def _ravel_write(a):
    r = a.ravel()
    r[0] = -5.0
    return a, r


def _flat_write(x):
    x.flat[::2] = 0.0
    return x


case(_out_is_input, (X,), (G,))
case(_out_shifted_overlap, (X,), (np.arange(6.0),))
case(_out_reversed, (X,), (np.arange(5.0),))
case(_out_keeps_old, (X,))
case(_out_tuple, (X,))
case(_out_wrong_dtype, (I8.astype(np.int64),), (X,))
case(_out_wrong_shape, (X,))
case(_out_readonly, lambda: (_readonly(X),))
case(_out_where, (X,), (-X,))
case(_out_where_self, (X,), (np.array([-0.0, 4.0, -1.0]),))
case(_divmod_out_alias, (X,), (np.array([7.0, -7.0, np.inf]),))
case(_matmul_out_alias, (np.arange(4.0).reshape(2, 2),))
case(_cumsum_out_self, (X,), (I8.astype(np.int64),))
case(_clip_out_self, (X,))
case(_sum_out_0d, (X,), (np.zeros(0),))
case(_copyto_reversed, (X,), (np.arange(5.0),))
case(_put_from_self, (X,))
case(_place_putmask, (X,), (-X,))
case(_add_at_dup, (X,))
case(_fancy_iadd_dup, (X,))
case(_fancy_swap, (X,))
case(_row_swap_views, (G,))
case(_row_swap_copies, (G,))
case(_self_assign_overlap, (X,), (np.arange(6.0),))
case(_inplace_through_reshape, (X,), (np.arange(6.0),))
case(_reshape_copy_no_write, (G,))
case(_ravel_write, (G,), (lambda: (G.T.copy(order="C").T,)))
case(_flat_write, (X,), (G,))


@scenario
def s_returned_view_written_later(r):
    """A view the compiled function returns is written by the caller afterwards."""
    def f(x):
        return x[1:3], x * 2

    g = r.compile(f)
    x = X.copy()
    v, _ = r.call(g, x)
    v[0] = 100.0
    r.see("x after writing the view", x)
    v2, _ = r.call(g, x)
    r.see("second view", v2)


@scenario
def s_view_kept_in_global(r):
    """A view stored in a global; the caller writes the base between calls."""
    box = {}

    def f(x, box):
        if "v" not in box:
            box["v"] = x[:2]
        return box["v"].sum() + x[3]

    g = r.compile(f)
    x = X.copy()
    r.call(g, x, box)
    x[0] = 50.0
    r.call(g, x, box)
    x[:] = -1.0
    r.call(g, x, box)


@scenario
def s_mutable_default_array(r):
    """A default argument that is an array, accumulated into across calls."""
    def f(x, acc=np.zeros(4)):   # noqa: B008 (the shared default is the point)
        acc += x
        return acc

    g = r.compile(f)
    for _ in range(3):
        r.call(g, X)
    r.see("default", f.__defaults__[0])


# ------------------------------------------------------------------------- read-only and strides

def _broadcast_write(x):
    b = np.broadcast_to(x, (2, x.size))
    try:
        b[0, 0] = 1.0
    except ValueError as e:
        return str(e), b.sum()
    return b


def _diagonal_write(a):
    d = np.diagonal(a)
    try:
        d[0] = 1.0
    except ValueError as e:
        return str(e), d.sum()
    return d


def _readonly_iadd(x):
    try:
        x *= 2
    except ValueError as e:
        return str(e), x + 1
    return x


def _readonly_result_writeable(x):
    y = x + 1
    y[0] = 0.0
    return y, x.flags.writeable


def _readonly_view_sees_base(x):
    v = x.view()
    v.flags.writeable = False
    x[0] = 42.0
    return v, v.flags.writeable


def _setflags_roundtrip(x):
    x.setflags(write=False)
    try:
        x[0] = 1.0
    except ValueError:
        pass
    x.setflags(write=True)
    x[0] = 2.0
    return x


def _readonly_base_view_cannot_unlock(x):
    v = x[1:]
    try:
        v.setflags(write=True)
    except ValueError as e:
        return str(e)
    return v


def _negative_stride_cumsum(x):
    return x[::-1].cumsum(), x[::-2] * 2


def _negative_stride_inplace(x):
    x[::-1] += np.arange(x.size)
    return x


def _as_strided_overlap(x):
    w = np.lib.stride_tricks.as_strided(x, shape=(x.size - 1, 2),
                                        strides=(x.strides[0], x.strides[0]),
                                        writeable=False)
    return w.sum(axis=1), w.flags.writeable


def _sliding_window(x):
    w = np.lib.stride_tricks.sliding_window_view(x, 2)
    return w.sum(axis=1), w.max(axis=1)


def _noncontig_2d(a):
    return (a[:, ::2] * 2).flags.c_contiguous, a[::-1, 1:] + 1, a.T @ a


def _fortran_kept(a):
    f = np.asfortranarray(a)
    return f + 1, np.zeros_like(f), f.T.copy()


def _astype_no_copy_shares(x):
    y = x.astype(x.dtype, copy=False)
    y[0] = 7.0
    return x, y is x


def _asarray_cast_copies(x):
    y = np.asarray(x, dtype=np.float32)
    y[0] = 1.0
    return x, y


def _view_reinterpret(x):
    return x.view(np.int64) & 0xFF, x.view(np.uint8)[:4]


def _big_endian(x):
    y = x + 1
    return y, y.dtype.str, x.sum(), (x * 2).dtype.str


case(_broadcast_write, (X,))
case(_diagonal_write, (G[:, :3].copy(),))
case(_readonly_iadd, lambda: (_readonly(X),))
case(_readonly_result_writeable, lambda: (_readonly(X),))
case(_readonly_view_sees_base, (X,))
case(_setflags_roundtrip, (X,))
case(_readonly_base_view_cannot_unlock, lambda: (_readonly(X),))
case(_negative_stride_cumsum, (X,), (lambda: (G[::-1, 0].copy()[::-1],)))
case(_negative_stride_inplace, (X,), (lambda: (np.arange(10.0)[::-2],)))
case(_as_strided_overlap, (X,), (np.arange(6.0),))
case(_sliding_window, (X,), (np.arange(7.0),))
case(_noncontig_2d, (G,), (lambda: (np.asfortranarray(G),)))
case(_fortran_kept, (G,))
case(_astype_no_copy_shares, (X,))
case(_asarray_cast_copies, (X,))
case(_view_reinterpret, (X,))
case(_big_endian, lambda: (X.astype(">f8"),), lambda: (G.astype(">f4"),))


# ------------------------------------------------------------------------- 0-size and 0-d

def _empty_reductions(x):
    return x.sum(), x.prod(), x.any(), x.all(), x.size


def _empty_max(x):
    try:
        return x.max()
    except ValueError as e:
        return str(e)


def _empty_mean(x):
    return np.mean(x), np.std(x)


def _empty_matmul(x):
    return np.ones((0, 3)) @ np.ones((3, 2)) + x.sum(), np.ones((2, 0)) @ np.ones((0, 2))


def _empty_argmax(x):
    try:
        return np.argmax(x)
    except ValueError as e:
        return str(e)


def _empty_concat(x):
    return np.concatenate([x, x[:0], np.zeros(0)]), np.stack([x[:0], x[:0]]).shape


def _zero_d_inplace(a):
    a += 1
    a[()] = a * 3
    return a, a.ndim, a.shape


def _zero_d_index(a):
    return a[()], a[...], a.item(), float(a)


case(_empty_reductions, (np.zeros(0),), (np.zeros((0, 3)),), (X,))
case(_empty_max, (np.zeros(0),), (X,))
case(_empty_mean, (np.zeros(0),), (X,))
case(_empty_matmul, (X,))
case(_empty_argmax, (np.zeros(0),), (X,))
case(_empty_concat, (X,), (np.zeros(0),))
case(_zero_d_inplace, (np.array(2.0),), (np.array(5, dtype=np.int8),))
case(_zero_d_index, (np.array(2.5),))
