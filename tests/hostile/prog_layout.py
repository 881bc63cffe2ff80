"""Layout and identity: ``np.asarray(x) is x``, ``astype(copy=False)``,
``ascontiguousarray``, ``atleast_1d``, ``np.real`` returning their argument; views vs
copies (a write through the result must reach the argument exactly when it does in
NumPy); Fortran order, negative strides, broadcast and read-only views, 0-size arrays,
non-native byte order. Every result's contiguity flags and writeability, and which
arrays share memory, are compared too (see ``hostile_check``)."""

import numpy as np
from hostile_check import Programs

reg = Programs("layout")
case, scenario = reg.case, reg.scenario

V = np.arange(6, dtype=np.float64)
M = np.arange(12, dtype=np.float32).reshape(3, 4)


def _c():
    return (M.copy(),)


def _f():
    return (np.asfortranarray(M),)


def _t():
    return (M.copy().T,)


def _rev():
    return (V.copy()[::-1],)


def _strided():
    return (M.copy()[:, ::2],)


def _ro():
    x = V.copy()
    x.setflags(write=False)
    return (x,)


LAYOUTS = (_c, _f, _t, _strided)


# -- identity -----------------------------------------------------------------------------

def _asarray_is(x):
    return np.asarray(x) is x, np.asanyarray(x) is x, np.asarray(x, dtype=x.dtype) is x


case(_asarray_is, *LAYOUTS)


def _asarray_returned(x):
    return np.asarray(x)


case(_asarray_returned, *LAYOUTS)


def _asarray_other_dtype(x):
    y = np.asarray(x, dtype=np.float64)
    return y is x, y


case(_asarray_other_dtype, (V,), (M,))


def _astype_same_no_copy(x):
    y = x.astype(x.dtype, copy=False)
    return y is x, y


case(_astype_same_no_copy, *LAYOUTS)


def _astype_same_copy(x):
    y = x.astype(x.dtype)
    return y is x, y


case(_astype_same_copy, *LAYOUTS)


def _astype_no_copy_written(x):
    y = x.astype(np.float32, copy=False)
    y[0] = -1.0
    return x


case(_astype_no_copy_written, _c, lambda: (V.copy(),))


def _ascontiguous(x):
    y = np.ascontiguousarray(x)
    return y is x, y


case(_ascontiguous, *LAYOUTS, _rev)


def _asfortran(x):
    y = np.asfortranarray(x)
    return y is x, y


case(_asfortran, *LAYOUTS)


def _atleast(x):
    return np.atleast_1d(x) is x, np.atleast_2d(x) is x, np.atleast_1d(x)


case(_atleast, (V,), (M,), (np.float64(2.0),), (np.array(2.0),))


def _real_identity(x):
    return np.real(x) is x, x.real is x, np.real(x)


case(_real_identity, (V,), (V.astype(complex),))


def _imag_of_real(x):
    y = np.imag(x)
    return y, y.flags.writeable


case(_imag_of_real, (V,))


def _real_write(x):
    np.real(x)[0] = 42.0
    return x


case(_real_write, (V.copy(),), (V.astype(complex),))


def _array_copy_none(x):
    return np.array(x, copy=None) is x, np.array(x) is x, np.array(x, copy=False) is x


case(_array_copy_none, (V,), (M.T,))


def _require(x):
    y = np.require(x, requirements="C")
    return y is x, y


case(_require, *LAYOUTS)


def _view_identity(x):
    y = x.view()
    return y is x, y.base is x, y


case(_view_identity, (V,))


def _ellipsis_view(x):
    y = x[...]
    y[0] = 99.0
    return y is x, x


case(_ellipsis_view, (V,))


def _reshape_same_shape(x):
    return x.reshape(x.shape) is x, x.reshape(x.shape)


case(_reshape_same_shape, (V,), (M,))


def _squeeze_noop(x):
    return np.squeeze(x) is x, x.squeeze()


case(_squeeze_noop, (V,), (M[None],))


def _return_argument(x):
    return x


case(_return_argument, *LAYOUTS)


def _return_arg_after_noop(x):
    y = x + 0
    return x, y


case(_return_arg_after_noop, *LAYOUTS)


# -- views vs copies ------------------------------------------------------------------------

def _slice_view_written(x):
    y = x[1:]
    y[0] = -5.0
    return x


case(_slice_view_written, (V,), _rev)


def _returned_view(x):
    return x[1:], x[::2], x.T, x.reshape(-1)


case(_returned_view, *LAYOUTS)


def _returned_view_then_written(x):
    return x[1:]


@scenario
def s_caller_writes_returned_view(r):
    f = r.compile(_returned_view_then_written)
    x = V.copy()
    y = r.call(f, x)
    if y is not None:
        y[0] = 1000.0
    r.see("x after writing the result", x)


def _reshape_view_or_copy(x):
    y = x.reshape(-1)
    y[0] = -3.0
    return x, y


case(_reshape_view_or_copy, *LAYOUTS)


def _ravel_orders(x):
    return x.ravel(), x.ravel(order="K"), x.ravel(order="F"), x.flatten()


case(_ravel_orders, *LAYOUTS)


def _transpose_copy_layouts(x):
    return x.T.copy(), np.copy(x.T), x.T.copy(order="K"), x.copy(order="F")


case(_transpose_copy_layouts, *LAYOUTS)


def _fancy_vs_basic(x):
    a = x[[0, 1]]
    b = x[0:2]
    a[0] = -1
    b[1] = -2
    return x, a, b


case(_fancy_vs_basic, (V,))


def _squeeze_expand_views(x):
    y = np.expand_dims(x, 0)
    y[0, 0] = 7.0
    z = y.squeeze()
    z[1] = 8.0
    return x


case(_squeeze_expand_views, (V,))


def _swapaxes_view(x):
    y = x.swapaxes(0, 1)
    y[0, 0] = 100
    return x, y


case(_swapaxes_view, *LAYOUTS)


def _diagonal_readonly(x):
    d = np.diagonal(x)
    return d, d.flags.writeable


case(_diagonal_readonly, (M,))


def _diagonal_write(x):
    d = np.diagonal(x)
    d[0] = 1.0


case(_diagonal_write, (M,))


def _broadcast_to_readonly(x):
    b = np.broadcast_to(x, (2, 6))
    return b, b.flags.writeable, b.strides


case(_broadcast_to_readonly, (V,))


def _broadcast_to_write(x):
    b = np.broadcast_to(x, (2, 6))
    b[0, 0] = 1.0
    return b


case(_broadcast_to_write, (V,))


def _readonly_input_passthrough(x):
    return x[1:], x + 1, np.asarray(x)


case(_readonly_input_passthrough, _ro)


def _readonly_write(x):
    x[0] = 1.0
    return x


case(_readonly_write, _ro)


def _view_dtype(x):
    y = x.view(np.int64)
    y[0] = 0
    return x, y


case(_view_dtype, (V,))


def _split_views(x):
    a, b = np.split(x, 2)
    a[0] = -9.0
    return x, b


case(_split_views, (V,))


def _hsplit_of_transposed(x):
    return np.hsplit(x, 2)


case(_hsplit_of_transposed, *LAYOUTS)


def _concat_copy(x):
    y = np.concatenate([x])
    y[0] = -1
    return x, y


case(_concat_copy, (V,))


def _stack_results_layout(x):
    return np.stack([x, x]), np.vstack([x, x]), np.column_stack([x, x])


case(_stack_results_layout, (V,), *LAYOUTS)


def _where_layout(x):
    return np.where(x > 3, x, 0)


case(_where_layout, *LAYOUTS)


def _shares_memory_reported(x):
    y = x[::2]
    z = x * 1
    return np.shares_memory(x, y), np.shares_memory(x, z), np.may_share_memory(x, x.T)


case(_shares_memory_reported, (V,), (M,))


def _base_chain(x):
    y = x[1:]
    z = y[1:]
    return y.base is x, z.base is x, (x + 1).base is None


case(_base_chain, (V,))


def _owndata_flags(x):
    return x.flags.owndata, x[1:].flags.owndata, (x * 2).flags.owndata, x.copy().flags.owndata


case(_owndata_flags, (V,))


# -- Fortran order and strides -----------------------------------------------------------

def _ufunc_result_layout(x):
    return np.exp(x), x + 1, x * x, -x


case(_ufunc_result_layout, *LAYOUTS, _rev)


def _ufunc_chain_layout(x):
    y = np.tanh(x * 2 + 1)
    return y, y.strides, y.flags.f_contiguous


case(_ufunc_chain_layout, *LAYOUTS)


def _mixed_layout_binary(a, b):
    return a + b, a * b + 1


case(_mixed_layout_binary, lambda: (M.copy(), np.asfortranarray(M)),
     lambda: (np.asfortranarray(M), np.asfortranarray(M)),
     lambda: (M.copy().T, M.copy().T))


def _reduction_layout(x):
    return x.sum(axis=0), x.sum(axis=1, keepdims=True), x.mean(axis=0), x.cumsum(axis=1)


case(_reduction_layout, *LAYOUTS)


def _matmul_layout(x):
    return x @ x.T, x.T @ x


case(_matmul_layout, *LAYOUTS)


def _strides_returned(x):
    y = x * 2
    return y.strides, y.flags.c_contiguous, y.flags.f_contiguous


case(_strides_returned, *LAYOUTS, _rev)


def _empty_like_layout(x):
    a = np.empty_like(x)
    a[...] = 1
    return a, np.zeros_like(x), np.ones_like(x, order="C"), np.full_like(x, 2)


case(_empty_like_layout, *LAYOUTS)


def _astype_layout(x):
    return x.astype(np.float64), x.astype(np.int32, order="C"), x.astype(np.float32, order="F")


case(_astype_layout, *LAYOUTS)


def _inplace_on_fortran(x):
    x *= 2
    x += x.T.T
    return x


case(_inplace_on_fortran, *LAYOUTS)


def _negative_stride_writes(x):
    x[::-1][0] = 9.0
    x[::-2] += 1
    return x


case(_negative_stride_writes, (V,), _rev)


def _negative_stride_ops(x):
    return np.cumsum(x), np.sort(x), x[::-1] * 2, np.flip(x), np.flip(x).base is x


case(_negative_stride_ops, _rev, (V,))


def _flip_view_write(x):
    y = np.flip(x)
    y[0] = -1
    return x


case(_flip_view_write, (V,))


def _byteswapped_input(x):
    return x + 1, x.sum(), x * x, x.dtype.str, (x + 1).dtype.str


case(_byteswapped_input, (V.astype(">f8"),), (M.astype(">f4"),))


def _unaligned_view(x):
    y = x.view(np.uint8)[1:9].view(np.float64)
    return y * 0 + 1, y.flags.aligned


case(_unaligned_view, (V,))


# -- 0-size and 0-d -------------------------------------------------------------------------

def _zero_size_ops(x):
    return x + 1, x.sum(), x.prod(), x.sum(axis=0), np.exp(x), x.reshape(0, 3) @ np.ones((3, 2))


case(_zero_size_ops, (np.zeros(0),), (np.zeros(0, np.float32),))


def _zero_size_reductions_2d(x):
    return x.sum(axis=0), x.max(axis=1), x.mean(axis=1), x.T @ x


case(_zero_size_reductions_2d, (np.zeros((0, 3)),))


def _zero_size_mean(x):
    return x.mean(), np.mean(x, axis=0)


case(_zero_size_mean, (np.zeros((0, 3)),))


def _zero_size_max(x):
    return x.max()


case(_zero_size_max, (np.zeros((0, 3)),))


def _zero_size_concat(x, y):
    return np.concatenate([x, y]), np.stack([x[:0], y[:0]]).shape


case(_zero_size_concat, (np.zeros(0), V), (V, np.zeros(0)))


def _zero_size_dot(x):
    return np.dot(x, x), x @ x, np.empty((2, 0)) @ np.empty((0, 3))


case(_zero_size_dot, (np.zeros(0),))


def _zero_size_identity(x):
    return np.asarray(x) is x, x[:] is x, x.reshape(0) is x, x.copy()


case(_zero_size_identity, (np.zeros(0),), (np.zeros((0, 2)),))


def _zero_d_ops(x):
    return x + 1, x * x, x[()], x[...], np.asarray(x) is x, x.sum()


case(_zero_d_ops, (np.array(3.0),), (np.array(3, np.int8),))


def _zero_d_inplace(x):
    x += 1
    x[...] = x * 2
    return x


case(_zero_d_inplace, (np.array(3.0),))


def _scalar_vs_0d_result(x):
    return x.sum(), np.sum(x, keepdims=True), x[0], x[0:1], np.float64(x[0]) * x[0]


case(_scalar_vs_0d_result, (V,))


def _type_of_results(x):
    return type(x[0]).__name__, type(x.sum()).__name__, type(x[0] + 1).__name__, \
        type(x[0] * 1.0).__name__, type(np.exp(x[0])).__name__, type(x.item(0)).__name__


case(_type_of_results, (V,), (M,), (V.astype(np.int16),))
