"""Round 47, loops (1 of 2): aliased writes inside loop nodes (``ops.fori_loop``: a
``range`` of more than ``config.loop_unroll_limit`` trips over arrays, traced once;
docs/loops.md). Round 46's loops that wrote through an alias were unrolled (two carried
arrays that share memory refuse the node), so the passes that run on a loop body
(``cse``: ``X[i]`` read twice is one read while nothing writes; ``scalar_reads``) never
saw a write through a view. Here the view is made *in the trip* (a window, a row, a
column, ``X[i:i + 2]``, a 0-d ``reshape(())``), so the loop stays a node, and each trip
reads ``X[i]``, writes it through the view (or through ``out=``, an augmented
assignment on a slice, ``np.copyto``, a transposed view), then reads it again; also
``a[i] = ...`` read back as ``a[i - 1]`` the next trip, the same array passed as two
arguments (and later two different arrays), ``out=`` into an input, and overlapping
windows.

    >>> def _window_write(X, Y):
    ...     for i in range(1, 16):
    ...         w = X[i - 1:i + 1]       # a view made in the trip
    ...         a = X[i]
    ...         w[1] = a * 2.0           # X[i] changes through w
    ...         Y[i] = a + X[i]          # the second read sees it
    ...     return X, Y
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round47_loops")
case = reg.case
NAN = float("nan")


def _v(n=18, k=0.0):
    return np.arange(n, dtype=np.float64) * 0.5 - 2.0 + k


def _m(r=12, c=5, k=0.0):
    return (np.arange(r * c, dtype=np.float64).reshape(r, c) - 7.5) * 0.25 + k


# ----------------------------------------------------------------------------- windows

def _window_write(X, Y):
    for i in range(1, 16):
        w = X[i - 1:i + 1]
        a = X[i]
        w[1] = a * 2.0
        Y[i] = a + X[i]
    return X, Y


case(_window_write, (_v(), _v(k=1.0)), (_v(20, 0.5), _v(20)))


def _window_aug(X, Y):
    for i in range(12):
        a = X[i + 1]
        X[i:i + 3] *= 1.5
        Y[i] = X[i + 1] - a
    return X, Y


case(_window_aug, (_v(), np.zeros(18)), (_v(16, -3.0), np.ones(16)))


def _window_copyto(X, Y):
    for i in range(14):
        a = X[i]
        np.copyto(X[i:i + 2], Y[i:i + 2] * 3.0)
        Y[i] = X[i] + a
    return X, Y


case(_window_copyto, (_v(), _v(k=2.0)), (_v(17), _v(17, 0.25)))


def _window_out(X):
    for i in range(13):
        a = X[i + 2]
        np.multiply(X[i:i + 3], 1.25, out=X[i + 1:i + 4])   # overlapping out=
        X[i] = a - X[i + 2]
    return X


case(_window_out, (_v(),), (_v(19, 1.0),))


def _window_add_out(X, Y):
    for i in range(12):
        a = X[i + 1]
        np.add(X[i:i + 2], Y[i:i + 2], out=X[i:i + 2])
        Y[i] = a * X[i + 1]
    return X, Y


case(_window_add_out, (_v(), _v(k=0.5)), (_v(15, 2.0), _v(15)))


def _zero_d_view(X, Y):
    for i in range(14):
        z = X[i:i + 1].reshape(())
        a = X[i]
        z[...] = a + 10.0
        Y[i] = X[i] - a + z
    return X, Y


case(_zero_d_view, (_v(), np.zeros(18)), (_v(15, 3.0), np.ones(15)))


def _zero_d_iadd(X, Y):
    for i in range(12):
        z = X[i:i + 1].reshape(())
        a = X[i]
        z += 1.5
        Y[i] = a * X[i]
    return X, Y


case(_zero_d_iadd, (_v(), np.zeros(18)), (_v(14, -1.0), np.ones(14)))


def _ellipsis_view(X, Y):
    for i in range(15):
        w = X[i:i + 2][...]
        b = X[i + 1] * 1.0
        w[-1] = -b
        Y[i] = b + X[i + 1]
    return X, Y


case(_ellipsis_view, (_v(), np.zeros(18)), (_v(17), np.ones(17)))


# ----------------------------------------------------------------------------- rows, columns

def _row_then_element(M, out):
    for i in range(11):
        r = M[i]
        a = M[i, 1]
        r[1] = a * 3.0 + 1.0
        out[i] = a + M[i, 1] + r[1]
    return M, out


case(_row_then_element, (_m(), np.zeros(12)), (_m(14, 3), np.ones(14)))


def _column_written_by_row(M, out):
    for i in range(10):
        c = M[:, 0]
        a = M[i, 0]
        M[i] = M[i] * 2.0
        out[i] = c[i] - a
    return M, out


case(_column_written_by_row, (_m(), np.zeros(12)), (_m(11, 4), np.zeros(11)))


def _diag_through_transpose(M, out):
    for i in range(10):
        a = M[i, 2]
        M.T[2, i] = a - 5.0
        out[i] = M[i, 2] * a
    return M, out


case(_diag_through_transpose, (_m(), np.zeros(12)), (_m(13, 4), np.zeros(13)))


def _row_add_out(M):
    for i in range(1, 11):
        a = M[i, 0]
        np.add(M[i - 1], M[i], out=M[i])
        M[i - 1, 0] = a - M[i, 0]
    return M


case(_row_add_out, (_m(),), (_m(12, 2, 1.0),))


def _row_swap_views(M, out):
    for i in range(1, 11):
        p = M[i - 1]
        q = M[i]
        a = q[0]
        p[...], q[...] = q * 1.0, p * 1.0
        out[i] = a + M[i, 0] - q[0]
    return M, out


case(_row_swap_views, (_m(), np.zeros(12)), (_m(12, 3), np.zeros(12)))


def _reversed_window(X, Y):
    for i in range(12):
        w = X[i:i + 3][::-1]
        a = X[i + 2]
        w[0] = a * -2.0
        Y[i] = X[i + 2] + a
    return X, Y


case(_reversed_window, (_v(), np.zeros(18)), (_v(15), np.ones(15)))


# ----------------------------------------------------------------------------- recurrences

def _read_back_previous(a, b):
    for i in range(1, 17):
        a[i] = a[i - 1] * 0.5 + b[i]
        b[i - 1] = a[i] - a[i - 1]
    return a, b


case(_read_back_previous, (_v(), _v(k=1.0)), (_v(20, NAN), _v(20)))


def _read_back_two(a):
    for i in range(2, 16):
        a[i] = a[i - 1] - a[i - 2]
        a[i - 2] = a[i] * a[i - 1]
    return a


case(_read_back_two, (_v(),), (_v(16, 0.25),))


def _read_ahead_then_write(a):
    for i in range(15):
        t = a[i + 1]
        a[i + 1] = a[i] + 1.0
        a[i] = t - a[i + 1]
    return a


case(_read_ahead_then_write, (_v(),), (_v(18, -0.0),))


def _backward_sweep(a):
    for i in range(14, 0, -1):
        a[i - 1] = a[i - 1] - a[i] * 0.5
        a[i] = a[i - 1] + a[i]
    return a


case(_backward_sweep, (_v(),), (_v(15, 1.0),))


def _strided_pair(a):
    for i in range(0, 20, 2):
        a[i + 1] = a[i] * 3.0
        a[i] = a[i + 1] - a[i]
    return a


case(_strided_pair, (_v(20),), (_v(22, 2.0),))


# ----------------------------------------------------------------------------- two names

def _same_array_twice(A, B):
    for i in range(1, 15):
        A[i] = B[i - 1] + 1.0
        B[i] = A[i] * 2.0 - B[i]
    return A, B


def _twice():
    x = _v()
    return (x, x)


case(_same_array_twice, _twice, (_v(), _v(k=3.0)), calls=2)


def _distinct_then_same(A, B):
    for i in range(12):
        a = A[i]
        B[i] = a * 2.0
        A[i + 1] = A[i] + B[i]
    return A, B


case(_distinct_then_same, (_v(), _v(k=1.0)), _twice)


def _rebound_alias(X):
    Y = X
    for i in range(1, 14):
        Y[i] = X[i - 1] * 2.0 + Y[i]
    return X is Y, X


case(_rebound_alias, (_v(),), (_v(14),))


def _row_of_same(M, N):
    for i in range(1, 10):
        a = M[i - 1, 0]
        N[i] = M[i - 1] + 1.0
        M[i, 0] = a * N[i, 0]
    return M, N


def _twice_m():
    m = _m()
    return (m, m)


case(_row_of_same, _twice_m, (_m(), _m(k=1.0)))


def _out_into_input(X, Y):
    for i in range(14):
        np.add(X, Y[i], out=X)
        Y[i] = X[0] + X[-1]
    return X, Y


case(_out_into_input, (_v(6), _v()), (_v(3, 1.0), _v(15)))


def _out_into_other_input(X, Y, Z):
    for i in range(12):
        np.multiply(X, 0.5, out=Y)
        X[0] = Y[0] + Z[i]
    return X, Y


case(_out_into_other_input, (_v(4), np.zeros(4), _v()), (_v(4, 1.0), np.zeros(4), _v(13)))


def _input_is_output(X, Z):
    for i in range(12):
        np.subtract(X, Z[i], out=X)
        np.abs(X, out=X)
    return X


def _shared_xz():
    z = _v()
    return (z[:4], z)


case(_input_is_output, (_v(4), _v()), _shared_xz)


def _aug_through_both_names(X, Y):
    for i in range(12):
        X[i] += 1.0
        Y[i] *= 2.0
        X[i + 1] = X[i] - Y[i]
    return X, Y


case(_aug_through_both_names, _twice, (_v(), _v(k=0.5)))


# ----------------------------------------------------------------------------- NaN, signed zero

def _nan_read_twice(X, Y):
    for i in range(13):
        w = X[i:i + 1]
        a = X[i]
        w[0] = -0.0 if a != a else a * -1.0
        Y[i] = X[i] + a
    return X, Y


case(_nan_read_twice, (np.array([NAN, 0.0, -0.0, 1.0] * 4 + [2.0, NAN]), np.zeros(18)),
     (_v(), np.zeros(18)))


def _min_then_write(X, out):
    for i in range(12):
        m = X[i:i + 4].min()
        X[i:i + 4] -= m
        out[i] = X[i:i + 4].min() + m
    return X, out


case(_min_then_write, (_v(), np.zeros(12)), (np.array([3.0, NAN, 1.0, -0.0] * 4), np.zeros(12)))
