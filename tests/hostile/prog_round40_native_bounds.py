"""Round 40 (native half), indices and layouts in tier 2 (Numba does not check bounds):
indices out of bounds at some trip of a loop node (IndexError as eager, what was
written before it kept), negative indices that wrap and that leave the array, gathers
and scatters by index arrays holding a bad index, negative and zero steps, 0-size and
1-element inputs, reversed and strided inputs, Fortran-ordered inputs (NumPy keeps F
order through elementwise ops), views written in place, input and output aliasing
(``x[1:] += x[:-1]`` in a loop, ``f(a, a)``). Each body on "native" and "auto" with
tier 2 forced, every input set called twice (round40_native_runs.twice).

    >>> def _offset_read(x, off):
    ...     s = 0.0
    ...     for k in range(x.shape[0]):
    ...         s = s + x[k + off]
    ...     return s
"""

import numpy as np
from hostile_check import Programs
from round40_native_runs import twice

reg = Programs("round40_native")

X = np.arange(1.0, 11.0)
M = np.arange(20.0).reshape(4, 5)
S = np.arange(16.0).reshape(4, 4) - 5.0


def _offset_read(x, off):
    s = 0.0
    for k in range(x.shape[0]):
        s = s + x[k + off]
    return s


def _offset_write(x, y, off):
    for k in range(x.shape[0]):
        y[k + off] = x[k] * 2.0
    return y


def _negative_offset(x, off):
    out = np.zeros_like(x)
    for k in range(x.shape[0]):
        out[k] = x[k - off]
    return out


def _diag_next(a):
    s = 0.0
    for k in range(a.shape[0]):
        s = s + a[k, k + 1]
    return s


def _gather_in_loop(x, idx):
    acc = np.zeros(len(idx))
    for k in range(3):
        acc = acc + x[idx] * k
    return acc


def _scatter_in_loop(x, idx):
    for k in range(3):
        x[idx] = x[idx] + 1.0
    return x


def _index_array_read(x, idx):
    s = 0.0
    for k in range(idx.shape[0]):
        s = s + x[idx[k]]
    return s


def _write_then_raise(x, idx):
    for k in range(idx.shape[0]):
        x[k] = -x[k]
        x[idx[k]] = 7.0
    return x


def _reverse_loop(x):
    out = np.zeros_like(x)
    for k in range(x.shape[0] - 1, -1, -1):
        out[k] = x[k] + out[(k + 1) % x.shape[0]]
    return out


def _stepped_views(x):
    return x[::-1] * 2.0, x[::-2] + x[-1::-2], x[5:1:-1] - 1.0


def _range_step(x, step):
    s = 0.0
    for k in range(0, x.shape[0], step):
        s = s + x[k]
    return s


def _sizes_loop(x):
    acc = 0.0
    for k in range(x.shape[0]):
        acc = acc + x[k] * x[k]
    return acc, x * 2.0, x.sum(), np.cumsum(x)


def _first_elem(x):
    return x[0] + x[-1], x.max()


def _fortran_elementwise(a):
    return a * 2.0 + 1.0, np.sqrt(np.abs(a)) - a


def _fortran_rows(a):
    out = np.zeros_like(a)
    for i in range(a.shape[0]):
        out[i] = a[i] * (i + 1.0)
    return out, a.sum(axis=0), a.sum()


def _transposed_mix(a):
    return a.T * 2.0, a + a.T[:a.shape[0], :a.shape[1]] if a.shape[0] == a.shape[1] else a


def _view_written_in_place(x):
    v = x[::2]
    for k in range(3):
        v *= 2.0
        x[1::2] += v[:x[1::2].shape[0]]
    return x


def _column_in_place(a):
    for k in range(a.shape[1] - 1):
        a[:, k + 1] += a[:, k]
    return a


def _shift_add_loop(x):
    for k in range(3):
        x[1:] += x[:-1]
    return x


def _shift_add_back(x):
    for k in range(3):
        x[:-1] += x[1:]
    return x


def _shift_out(x):
    for k in range(2):
        np.add(x[:-1], x[1:], out=x[1:])
    return x


def _store_shifted(x):
    for k in range(3):
        x[:-1] = x[1:] * 2.0
    return x


def _same_array_twice(a, b):
    a += 1.0
    return a + b, b


def _reversed_in_place(x):
    y = x[::-1]
    for k in range(2):
        y += x
    return x, y


twice(reg, "offset_read", _offset_read, lambda: (X.copy(), 0),
      lambda: (X.copy(), 1), lambda: (X.copy(), -10), lambda: (X.copy(), -11))
twice(reg, "offset_write", _offset_write, lambda: (X[:5].copy(), np.zeros(10), 5),
      lambda: (X[:5].copy(), np.zeros(10), 6), lambda: (X[:5].copy(), np.zeros(10), -11))
twice(reg, "negative_offset", _negative_offset, lambda: (X.copy(), 3),
      lambda: (X.copy(), 10), lambda: (X.copy(), 11))
twice(reg, "diag_next", _diag_next, lambda: (M[:, :5].copy(),), lambda: (M[:, :4].copy(),))
twice(reg, "gather_in_loop", _gather_in_loop, lambda: (X.copy(), np.array([0, -1, 9, 4])),
      lambda: (X.copy(), np.array([0, 10, 2, 1])), lambda: (X.copy(), np.array([-11, 0, 1, 2])),
      lambda: (X.copy(), np.array([0, 1, 2, 2**40])))
twice(reg, "scatter_in_loop", _scatter_in_loop, lambda: (X.copy(), np.array([0, 2, 2, -1])),
      lambda: (X.copy(), np.array([1, 3, 10, 0])), lambda: (X.copy(), np.array([1, -11, 0, 0])))
twice(reg, "index_array_read", _index_array_read, lambda: (X.copy(), np.array([0, 9, -10])),
      lambda: (X.copy(), np.array([0, 10, 2])), lambda: (X.copy(), np.array([0, 1, -11])))
twice(reg, "write_then_raise", _write_then_raise, lambda: (X.copy(), np.array([9, 8, 7])),
      lambda: (X.copy(), np.array([9, 12, 1])), lambda: (X.copy(), np.array([-11, 0, 0])))
twice(reg, "reverse_loop", _reverse_loop, lambda: (X.copy(),), lambda: (X[:1].copy(),),
      lambda: (X.copy()[::-1],))
twice(reg, "stepped_views", _stepped_views, lambda: (X.copy(),), lambda: (X.copy()[::-1],),
      lambda: (np.arange(20.0)[::2],))
twice(reg, "range_step", _range_step, lambda: (X.copy(), 2), lambda: (X.copy(), 3),
      lambda: (X.copy(), 0), lambda: (X.copy(), -1))
twice(reg, "sizes_loop", _sizes_loop, lambda: (X.copy(),), lambda: (np.zeros(0),),
      lambda: (np.ones(1),), lambda: (X.copy()[::-2],))
twice(reg, "first_elem", _first_elem, lambda: (X.copy(),), lambda: (np.ones(1),),
      lambda: (np.zeros(0),))
twice(reg, "fortran_elementwise", _fortran_elementwise, lambda: (S.copy(),),
      lambda: (np.asfortranarray(S),), lambda: (S.copy().T,), lambda: (S.copy()[:, ::-1],))
twice(reg, "fortran_rows", _fortran_rows, lambda: (S.copy(),), lambda: (np.asfortranarray(S),),
      lambda: (S.copy()[::-1],), lambda: (S.copy().T,))
twice(reg, "transposed_mix", _transposed_mix, lambda: (M[:, :4].copy(),),
      lambda: (np.asfortranarray(M.copy()[:, :4]),))
twice(reg, "view_written_in_place", _view_written_in_place, lambda: (X.copy(),),
      lambda: (X[::-1].copy(),), lambda: (X[:3].copy(),))
twice(reg, "column_in_place", _column_in_place, lambda: (S.copy(),),
      lambda: (np.asfortranarray(S),), lambda: (S.copy().T,), lambda: (S.copy()[::-1, ::-1],))
twice(reg, "shift_add_loop", _shift_add_loop, lambda: (X.copy(),), lambda: (X[::-1].copy(),),
      lambda: (np.ones(1),))
twice(reg, "shift_add_back", _shift_add_back, lambda: (X.copy(),),
      lambda: (np.array([1.0, np.nan, 2.0, 3, 4, 5, 6, 7, 8, 9]),), lambda: (X.copy()[::-1],))
twice(reg, "shift_out", _shift_out, lambda: (X.copy(),), lambda: (X.astype(np.float32),))
twice(reg, "store_shifted", _store_shifted, lambda: (X.copy(),), lambda: (X.copy()[::-1],),
      lambda: (np.arange(20.0)[::2],))
twice(reg, "same_array_twice", _same_array_twice, lambda: (X[:9].copy(), X[:9].copy()),
      lambda: (lambda a: (a, a))(X.copy()), lambda: (lambda a: (a[1:], a[:-1]))(X.copy()))
twice(reg, "reversed_in_place", _reversed_in_place, lambda: (X.copy(),),
      lambda: (X[::-1].copy(),), lambda: (X.copy()[::-1],))
