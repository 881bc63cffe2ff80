"""Round 47, loops (3 of 3): loop nodes over arguments that are distinct array objects
sharing memory (``f(x[1:], x[:-1])``, ``f(x, x[::-1])``, ``f(m, m.T)``), first call
overlapping or not: the trace sees two placeholders, which no guard says are distinct
in memory, so whatever a pass does with "this array is not written in the loop" (run
``X.T[0]``, ``X > 0``, ``X.sum()`` once before the loop: ``backends/passes/hoist.py``)
must hold when a write to ``Y`` changes ``X``.

    >>> def _hoisted_scalar(X, Y):
    ...     for i in range(12):
    ...         t = X.T
    ...         Y[i] = t[i] * 2.0 + t[0]     # t[0] is x[1]: Y[1] writes it
    ...     return Y
    >>> x = np.arange(14.0); _hoisted_scalar(x[1:], x[:-1])
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round47_loops")
case = reg.case


def _x(n=14, k=0.0):
    return np.arange(n, dtype=np.float64) - 3.0 + k


def _shift(n=14, k=0.0):
    x = _x(n, k)
    return (x[1:], x[:-1])


def _back(n=14, k=0.0):
    x = _x(n, k)
    return (x[:-1], x[1:])


def _same(n=14, k=0.0):
    x = _x(n, k)
    return (x, x[:])


def _apart(n=14, k=0.0):
    return (_x(n - 1, k), _x(n - 1, k + 0.5))


def _hoisted_scalar(X, Y):
    for i in range(12):
        t = X.T
        Y[i] = t[i] * 2.0 + t[0]
    return Y


case(_hoisted_scalar, _shift, _apart, _same)
case(_hoisted_scalar, _apart, _shift, _back, name="hoisted_scalar_apart_first")


def _hoisted_mask_count(X, Y):
    for i in range(12):
        m = X > 0.0
        Y[i] = -np.count_nonzero(m) - 1.0
    return Y


case(_hoisted_mask_count, _shift, _apart, _back)


def _hoisted_int_sum(X, Y):
    for i in range(12):
        Y[i] = X.sum() - Y[i]
    return Y


def _ints(n=14):
    x = np.arange(n, dtype=np.int64) - 3
    return (x[1:], x[:-1])


case(_hoisted_int_sum, _ints, lambda: (np.arange(13, dtype=np.int64), np.ones(13, np.int64)))


def _hoisted_first(X, Y):
    for i in range(1, 12):
        Y[i] = X[0] + Y[i - 1]
    return Y


case(_hoisted_first, _shift, _apart, _same)


def _hoisted_max_row(M, N):
    for i in range(10):
        N[i] = M[0].max() + i
    return N


def _rows():
    m = np.arange(66.0).reshape(11, 6) - 20.0
    return (m[1:], m[:-1])


case(_hoisted_max_row, _rows, lambda: (np.ones((10, 6)), np.zeros((10, 6))))


def _transposed_twice(M, N):
    for i in range(10):
        N[i, 0] = M.T[0, 0] + M[0, i % 1]
    return N


def _square():
    m = np.arange(100.0).reshape(10, 10) - 20.0
    return (m, m.T)


case(_transposed_twice, _square, lambda: (np.ones((10, 10)), np.zeros((10, 10))))


def _view_then_read(X, Y):
    for i in range(12):
        w = X[2:5]
        Y[i] = w[0] + w[2] + Y[i]
    return Y


case(_view_then_read, _shift, _back, _apart)


def _free_view_of_written(X):
    V = X[:4]
    for i in range(12):
        X[i] = V[0] + V[3] + X[i + 1]
    return X


case(_free_view_of_written, (_x(),), (_x(16),))


def _carried_and_free_view(X, Y):
    V = Y[::2]
    for i in range(12):
        X[i] = V[1] * 0.5 + X[i]
    return X


case(_carried_and_free_view, lambda: (lambda y: (y[2:], y))(_x(20)), lambda: (_x(), _x(20)))


def _reversed_input(X, Y):
    for i in range(12):
        Y[i] = X[-1] - X[0] + i
    return X, Y


case(_reversed_input, lambda: (lambda x: (x, x[::-1]))(_x()), lambda: (_x(), _x(k=1.0)))


def _view_of_fresh_written(x):
    Z = x * 1.0
    V = Z[:3]
    for i in range(12):
        Z[i + 1] = V[0] + V[2] + x[i]
    return Z


case(_view_of_fresh_written, (_x(),), (_x(15, 2.0),))


def _fresh_and_input(X):
    Z = np.zeros(13)
    for i in range(12):
        Z[i] = X[0] + X.sum() + Z[i - 1] * 0.5
        X[i + 1] = Z[i]
    return Z, X


case(_fresh_and_input, (_x(),), (_x(15),))


def _inner_loop_alias(X, Y):
    for k in range(10):
        for i in range(10):
            Y[i] = X[0] + X[i] * 0.5 + k
    return Y


case(_inner_loop_alias, _shift, _apart)


def _fused_into_overlap(X, Y):
    for k in range(10):
        t = X * 0.5
        Y[...] = t + np.tanh(X) * 0.25 + k
    return Y


def _big_shift(k=0.0):
    x = np.linspace(-1.0, 1.0, 70001) + k
    return (x[1:], x[:-1])


def _big_back(k=0.0):
    x = np.linspace(-1.0, 1.0, 70001) + k
    return (x[:-1], x[1:])


case(_fused_into_overlap, _big_back, _big_shift, lambda: (_big_shift()[0].copy(), np.zeros(70000)))


def _out_overlap_loop(X, Y):
    for k in range(10):
        np.add(X, 1.0, out=Y)
        X[0] = Y[-1]
    return Y


case(_out_overlap_loop, _big_back, _big_shift)


def _while_through_alias(X, Y):
    n = 0
    while X[0] < 5.0 and n < 50:
        Y[0] = Y[0] + 1.0
        n += 1
    return X, Y, n


case(_while_through_alias, lambda: (lambda x: (x, x[:]))(_x()), _apart,
     lambda: (lambda x: (x[2:], x))(_x()))


def _while_sum_alias(X, Y):
    while X.sum() < 40.0:
        Y[...] = Y + 1.0
    return Y


case(_while_sum_alias, lambda: (lambda x: (x[1:], x[:-1]))(_x(6)),
     lambda: (lambda x: (x, x[::-1]))(_x(6)))


def _tuple_store_read_first(X, Y, Z):
    for i in range(12):
        Y[i], Z[i] = 5.0 + i, X[i] * 2.0     # X[i] read before Y[i] is stored
    return Z


def _three(flip=False):
    x = _x()
    return (x[::-1] if flip else x, x[:], np.zeros(14))


case(_tuple_store_read_first, _three, lambda: _three(True), lambda: (_x(), _x(), np.zeros(14)))


def _swap_elements(X, Y):
    for i in range(12):
        X[i], Y[i] = Y[i], X[i]
    return X, Y


case(_swap_elements, lambda: (lambda x: (x, x[::-1]))(_x()), _shift, _apart)
