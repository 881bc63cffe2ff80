"""Round 48, stencils (issue #17): the stencil trap, a write into one slice of an array
while reading a shifted slice of the same array. Vectorized (``x[1:] = x[:-1] + ...``:
NumPy copies an overlapping operand first, so every element reads the old value) and in
Python loops (``x[i] = x[i - 1] + ...``: each trip reads the value the last trip
wrote), loops of more than ``config.loop_unroll_limit`` trips (loop nodes) and short
ones (unrolled), Gauss-Seidel sweeps in place, red-black updates, two arguments that are
shifted views of one buffer, ``out=`` windows, and reductions of the array read in the
same statement as the write.

    >>> def _shift_add(x):
    ...     x[1:] += x[:-1]          # reads the old x[:-1] (NumPy copies it first)
    ...     return x
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round48_stencils")
case = reg.case


def _v(n=16, k=0.0):
    return np.sin(np.arange(n, dtype=np.float64) * 0.7 + k) * 4.0


def _m(r=6, c=7, k=0.0):
    return np.cos(np.arange(r * c, dtype=np.float64).reshape(r, c) * 0.3 + k) * 2.0


def _shared(mk, base=_v):
    def make():
        x = base()
        return mk(x)
    return make


# ----------------------------------------------------------------------------- vectorized

def _shift_add(x):
    x[1:] += x[:-1]
    return x


case(_shift_add, (_v(),), lambda: (_v()[::-1],))


def _shift_assign(x):
    x[1:] = x[:-1] * 0.5 + 1.0
    return x


case(_shift_assign, (_v(),), lambda: (_v(20)[::2],))


def _shift_back_assign(x):
    x[:-1] = x[1:] - x[:-1]
    return x


case(_shift_back_assign, (_v(),))


def _three_point(x):
    x[1:-1] = (x[:-2] + x[1:-1] + x[2:]) / 3.0
    return x


case(_three_point, (_v(),), lambda: (_v(24)[4:20],))


def _five_point_2d(u):
    u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    return u


case(_five_point_2d, (_m(),), lambda: (_m().T.copy(order="F"),))


def _laplacian_iadd(u):
    lap = u[:-2] - 2.0 * u[1:-1] + u[2:]
    u[1:-1] += 0.1 * lap
    return u, lap


case(_laplacian_iadd, (_v(),))


def _out_window_shift(x):
    np.add(x[:-2], x[2:], out=x[1:-1])
    return x


case(_out_window_shift, (_v(),))


def _out_window_reversed(x):
    np.multiply(x[::-1], 0.5, out=x)
    return x


case(_out_window_reversed, (_v(),))


def _write_while_summing(x):
    x[2:] = x[:-2] + x.sum()
    return x


case(_write_while_summing, (_v(),))


def _cumsum_in_place_shift(x):
    np.cumsum(x[:-1], out=x[1:])
    return x


case(_cumsum_in_place_shift, (_v(),))


def _roll_assign(x):
    x[:] = np.roll(x, 1)
    return x


case(_roll_assign, (_v(),))


def _transpose_assign(m):
    m[...] = m.T
    return m


case(_transpose_assign, (_m(5, 5),))


def _transpose_iadd(m):
    m += m.T
    return m


case(_transpose_iadd, (_m(5, 5),), lambda: (_m(5, 5).T,))


def _rows_shift_2d(m):
    m[1:] -= m[:-1] * 0.5
    return m.sum(axis=1)


case(_rows_shift_2d, (_m(),))


def _cols_shift_2d(m):
    m[:, 1:] = m[:, :-1] + m[:, 1:]
    return m


case(_cols_shift_2d, (_m(),), lambda: (_m().T.copy().T,))


# ----------------------------------------------------------------------------- loops

def _prefix_loop(x):
    for i in range(1, x.shape[0]):
        x[i] = x[i - 1] + x[i]
    return x


case(_prefix_loop, (_v(),), (_v(20),))


def _prefix_loop_short(x):
    for i in range(1, 5):
        x[i] = x[i - 1] * 0.5 + x[i]
    return x


case(_prefix_loop_short, (_v(),))


def _backward_loop(x):
    for i in range(14, 0, -1):
        x[i - 1] = x[i] - x[i - 1] * 0.25
    return x


case(_backward_loop, (_v(),))


def _gauss_seidel(u, f):
    for _ in range(2):
        for i in range(1, 15):
            u[i] = 0.5 * (u[i - 1] + u[i + 1] - f[i])
    return u


case(_gauss_seidel, (np.zeros(16), _v()))


def _gauss_seidel_alias(u, f):
    for i in range(1, 13):
        u[i] = 0.5 * (u[i - 1] + u[i + 1]) - f[i] * 0.1
    return u, f


case(_gauss_seidel_alias, (np.zeros(16), _v()), _shared(lambda x: (x, x)),
     name="gauss_seidel_same")
case(_gauss_seidel_alias, _shared(lambda x: (x[:-1], x[1:])), (_v(15), _v(15, 1.0)),
     name="gauss_seidel_shifted_args")


def _row_sweep(m):
    for i in range(1, m.shape[0]):
        m[i] = m[i - 1] * 0.5 + m[i]
    return m


case(_row_sweep, (_m(12, 3),), (_m(),))


def _col_sweep(m):
    for j in range(1, 7):
        m[:, j] += m[:, j - 1]
    return m


case(_col_sweep, (_m(),))


def _window_sum_loop(x, y):
    for i in range(12):
        y[i] = x[i:i + 4].sum()
        x[i + 1] = y[i] * 0.1
    return x, y


case(_window_sum_loop, (_v(), np.zeros(16)))
case(_window_sum_loop, _shared(lambda x: (x, x[::-1])), (_v(), _v(k=1.0)),
     name="window_sum_loop_reversed")


def _red_black(u):
    for _ in range(3):
        u[1:-1:2] = 0.5 * (u[:-2:2] + u[2::2])
        u[2:-1:2] = 0.5 * (u[1:-2:2] + u[3::2])
    return u


case(_red_black, (_v(17),))


def _two_args_loop(a, b):
    for i in range(10):
        a[i] = b[i] + b[i + 1]
    return a, b


case(_two_args_loop, (np.zeros(12), _v(12)), _shared(lambda x: (x[1:], x[:-1]), lambda: _v(13)))
case(_two_args_loop, _shared(lambda x: (x[1:], x[:-1]), lambda: _v(13)), (np.zeros(12), _v(12)),
     name="two_args_loop_first")


def _carried_view_loop(x):
    w = x[1:]
    for i in range(10):
        w[i] = x[i] * 2.0 - w[i]
    return x, w.sum()


case(_carried_view_loop, (_v(),))


def _swap_neighbours_loop(x):
    for i in range(0, 14, 2):
        x[i], x[i + 1] = x[i + 1], x[i]
    return x


case(_swap_neighbours_loop, (_v(),))


def _tuple_swap_slices(x):
    x[:4], x[4:8] = x[4:8], x[:4]
    return x


case(_tuple_swap_slices, (_v(),))


def _tuple_swap_slices_copy(x):
    x[:4], x[4:8] = x[4:8].copy(), x[:4].copy()
    return x


case(_tuple_swap_slices_copy, (_v(),))


def _while_shift(x):
    i = 1
    while i < 12:
        x[i] = max(x[i - 1], x[i])
        i += 1
    return x


case(_while_shift, (_v(),))


def _nested_stencil(m):
    for i in range(1, 5):
        for j in range(1, 6):
            m[i, j] = (m[i - 1, j] + m[i, j - 1]) * 0.5
    return m


case(_nested_stencil, (_m(),))


def _loop_out_window(x):
    for i in range(10):
        np.add(x[i:i + 3], 1.0, out=x[i + 1:i + 4])
    return x


case(_loop_out_window, (_v(),))


def _loop_reads_total(x):
    for i in range(10):
        x[i] = x.sum() * 0.01
    return x


case(_loop_reads_total, (_v(),))


def _loop_reads_mean_of_shift(x, y):
    for i in range(10):
        y[i] = x[i + 1:].mean()
        x[i + 2] = y[i]
    return y


case(_loop_reads_mean_of_shift, (_v(), np.zeros(16)), _shared(lambda x: (x, x[3:]), lambda: _v(29)))


def _int_stencil_wrap(x):
    for i in range(1, 12):
        x[i] = x[i - 1] * 3 + x[i]
    return x


case(_int_stencil_wrap, (np.arange(16, dtype=np.int8),))


def _float32_stencil(x):
    for i in range(1, 12):
        x[i] += x[i - 1] * np.float32(0.3)
    return x


case(_float32_stencil, (_v().astype(np.float32),))


def _stencil_nan_reads(x):
    x[1:] = np.fmax(x[1:], x[:-1])
    return x


case(_stencil_nan_reads, (np.array([np.nan, 1.0, np.nan, -2.0, 3.0, np.nan]),))
