"""Round 46, values (2 of 2): reads of ``X[i]`` shared within a trip
(``backends/passes/cse.py``: two reads at one computed index are one while nothing
writes; ``scalar_reads.py``). Each program reads, writes in some way the pass might not
count as a write, and reads again: through an alias (``Y = X[:]``, ``X.T``,
``np.asarray(X)``, ``X.reshape``, ``X.ravel()``, ``X.real``, ``X.view()``, a view made
in a helper, an attribute, a global, a list item, the same array passed twice), by a
call that writes its argument (``np.copyto``, ``np.put``, ``np.place``, ``np.putmask``,
``X.sort()``, ``X.fill``, ``np.add.at``, ``np.fill_diagonal``, ``out=``), through
``X.flat`` or fancy and boolean indices, at two indices that turn out equal, and with
argmin ties and NaN elements.

    >>> def _through_slice_alias(X, i):
    ...     Y = X[:]
    ...     a = X[i]
    ...     Y[i] = 5.0          # X[i] is 5 now
    ...     return a, X[i]
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round46_values")
case = reg.case
NAN = float("nan")


def _v(n=6, k=0.0):
    return np.arange(n) * 0.5 - 1.0 + k


def _m(r=3, c=4):
    return np.arange(r * c, dtype=np.float64).reshape(r, c) - 2.5


# ----------------------------------------------------------------------------- aliases

def _through_slice_alias(X, i):
    Y = X[:]
    a = X[i]
    Y[i] = 5.0
    return a, X[i], X[i] + a


case(_through_slice_alias, (_v(), 2), (_v(), -1), (_v(9), 4))


def _through_transpose(X, i, j):
    a = X[i, j]
    X.T[j, i] = 7.0
    return a, X[i, j], X[i, j] * 2


case(_through_transpose, (_m(), 1, 2), (_m(4, 2), 3, 0))


def _through_asarray(X, i):
    a = X[i]
    Z = np.asarray(X)
    Z[i] += 10.0
    return a, X[i], X[i] - a


case(_through_asarray, (_v(), 1), (_v(4), 3))


def _half(v):
    return v[::2]


def _through_helper_view(X, i):
    a = X[2 * i]
    H = _half(X)
    H[i] = -4.0
    return a, X[2 * i], X


case(_through_helper_view, (_v(), 1), (_v(8), 3))


def _through_reshape(X, i):
    a = X[i]
    X.reshape(2, -1)[i % 2, 0] = 99.0
    return a, X[i], X[0], X[X.shape[0] // 2]


case(_through_reshape, (_v(), 0), (_v(), 3), (_v(8), 4))


def _through_ravel(X, i, j):
    a = X[i, j]
    X.ravel()[i * X.shape[1] + j] = 11.0
    return a, X[i, j]


case(_through_ravel, (_m(), 1, 1), (_m(2, 5), 0, 4))


def _through_real(X, i):
    a = X[i]
    X.real[i] = 3.5
    return a, X[i]


case(_through_real, (_v(), 1), (_v(5) + 0j, 2))


def _through_view(X, i):
    a = X[i]
    Y = X.view()
    Y[...] = 1.0
    return a, X[i], X[i] + a


case(_through_view, (_v(), 2), (_v(7), 6))


def _through_reversed(X, i):
    a = X[i]
    X[::-1][X.shape[0] - 1 - i] = -8.0
    return a, X[i]


case(_through_reversed, (_v(), 1), (_v(9), 5))


def _same_array_twice(X, Y, i):
    a = X[i]
    Y[i] = 42.0
    return a, X[i], X[i] + Y[i]


case(_same_array_twice, lambda: (lambda x: (x, x, 2))(_v()),
     lambda: (lambda x: (x, x, 0))(_v(5)), lambda: (_v(), _v(), 2))


class Holder:
    def __init__(self, v):
        self.v = v


def _through_attribute(X, o, i):
    a = X[i]
    o.v[i] = -1.0
    return a, X[i]


case(_through_attribute, lambda: (lambda x: (x, Holder(x), 1))(_v()),
     lambda: (lambda x: (x, Holder(x[1:]), 1))(_v(7)),
     lambda: (_v(), Holder(_v()), 1))


G = {"arr": _v()}


def _through_global(X, i):
    a = X[i]
    G["arr"][i] = 123.0
    return a, X[i]


def _global_args():
    G["arr"] = _v()
    return (G["arr"], 3)


case(_through_global, _global_args, lambda: (_v(), 3))


def _through_list_item(X, L, i):
    a = X[i]
    L[0][i] *= -2
    return a, X[i]


case(_through_list_item, lambda: (lambda x: (x, [x], 4))(_v()),
     lambda: (lambda x: (x, [x[:]], 0))(_v(5)))


def _through_strided(X, i):
    a = X[i]
    S = np.lib.stride_tricks.as_strided(X, shape=(X.shape[0] // 2,),
                                        strides=(X.strides[0] * 2,))
    S[i // 2] = 0.25
    return a, X[i]


case(_through_strided, (_v(), 2), (_v(10), 4))


# ----------------------------------------------------------------------------- writing calls

def _copyto_between(X, i):
    a = X[i]
    np.copyto(X, 0.0)
    return a, X[i]


case(_copyto_between, (_v(), 1), (_v(3), 2))


def _put_between(X, i):
    a = X[i]
    np.put(X, [i], [9.0])
    return a, X[i]


case(_put_between, (_v(), 1), (_v(8), 7))


def _place_between(X, i):
    a = X[i]
    np.place(X, X > -10, [4.0])
    return a, X[i]


case(_place_between, (_v(), 0), (_v(4), 3))


def _putmask_between(X, i):
    a = X[i]
    np.putmask(X, X == a, -3.0)
    return a, X[i], X


case(_putmask_between, (_v(), 2), (np.array([1.0, 1.0, 2.0]), 0))


def _sort_between(X, i):
    a = X[i]
    X.sort()
    return a, X[i]


case(_sort_between, (np.array([3.0, 1.0, 2.0, 0.0]), 0), (np.array([NAN, 1.0, -0.0, 0.0]), 1))


def _fill_between(X, i):
    a = X[i]
    X.fill(6.5)
    return a, X[i], X[i] == a


case(_fill_between, (_v(), 3), (_v(5), 4))


def _add_at_between(X, i):
    a = X[i]
    np.add.at(X, [i, i], 1.0)
    return a, X[i]


case(_add_at_between, (_v(), 1), (_v(7), 6))


def _fill_diagonal_between(M, i):
    a = M[i, i]
    np.fill_diagonal(M, 0.5)
    return a, M[i, i]


case(_fill_diagonal_between, (_m(3, 3), 1), (_m(4, 4), 3))


def _out_between(X, i):
    a = X[i]
    np.negative(X, out=X)
    b = X[i]
    np.multiply(X, 2.0, out=X)
    return a, b, X[i]


case(_out_between, (_v(), 2), (_v(5), 0))


def _cumsum_out_between(X, i):
    a = X[i]
    np.cumsum(X, out=X)
    return a, X[i]


case(_cumsum_out_between, (_v(), 3), (_v(8), 7))


def _flat_between(X, i):
    a = X[i]
    X.flat[i] = -6.0
    return a, X[i]


case(_flat_between, (_v(), 2), (_v(4), 0))


def _fancy_read_write(X, i):
    a = X[[i]]
    X[[i, i]] += 1.0
    b = X[[i]]
    return a, b, X[i]


case(_fancy_read_write, (_v(), 1), (_v(6), 5))


def _mask_write_between(X, i):
    a = X[i]
    X[X > 0] = 0.0
    return a, X[i]


case(_mask_write_between, (_v(), 5), (_v(), 0))


def _inplace_then_read(X, i):
    a = X[i]
    X += 1
    b = X[i]
    X *= X
    return a, b, X[i]


case(_inplace_then_read, (_v(), 1), (_v(4), 3))


def _equal_indices(X, i, j):
    a = X[i]
    X[j] = 100.0
    return a, X[i], X[j]


case(_equal_indices, (_v(), 2, 2), (_v(), 2, 3), (_v(), -1, 5))


# ----------------------------------------------------------------------------- in loop trips

def _trip_read_write_read(X):
    out = np.zeros(X.shape[0])
    for t in range(X.shape[0]):
        a = X[t]
        X[t] = 0.0
        out[t] = a - X[t]
    return out, X


case(_trip_read_write_read, (_v(12),), (_v(19, 0.5),))


def _trip_prefix(X):
    for t in range(1, X.shape[0]):
        X[t] = X[t - 1] + X[t]
    return X


case(_trip_prefix, (_v(12),), (_v(11),))


def _trip_alias_write(X):
    Y = X[:]
    out = np.zeros(X.shape[0])
    for t in range(X.shape[0]):
        a = X[t]
        Y[t] = a * 3.0
        out[t] = X[t] + a
    return out, X


case(_trip_alias_write, (_v(12),), (_v(17),))


def _trip_next_alias(X):
    Y = X[1:]
    for t in range(X.shape[0] - 1):
        a = X[t + 1]
        Y[t] = X[t]
        X[t] = a + X[t + 1]
    return X


case(_trip_next_alias, (_v(12),), (_v(18),))


def _trip_reverse_alias(X):
    R = X[::-1]
    n = X.shape[0]
    out = np.zeros(n)
    for t in range(n):
        a = X[t]
        R[t] = -a
        out[t] = X[t] + a
    return out, X


case(_trip_reverse_alias, (_v(12),), (_v(15),))


def _trip_argmin_ties(d, w):
    sums = np.zeros(d.shape[0])
    for t in range(w.shape[0]):
        u = int(np.argmin(d))
        sums[u] += w[t]
        d[u] += w[t]
        sums[u] += d[u]
    return sums, d


case(_trip_argmin_ties, (np.zeros(3), np.ones(17)), (np.array([1.0, NAN, 0.0]), _v(15)))


def _trip_nan_reads(X):
    c = 0
    for t in range(X.shape[0]):
        if X[t] != X[t]:
            c += 1
            X[t] = 0.0
        if X[t] == X[t]:
            c += 10
    return c, X


case(_trip_nan_reads, (np.tile([1.0, NAN, 2.0, NAN], 3),), (np.array([NAN] * 11),))


def _trip_index_from_data(X, idx):
    out = np.zeros(X.shape[0])
    for t in range(idx.shape[0]):
        u = idx[t]
        a = X[u]
        X[idx[(t + 1) % idx.shape[0]]] += 1.0
        out[t % X.shape[0]] += X[u] - a
    return out, X


case(_trip_index_from_data, (_v(12), np.array([0, 0, 1, 2])),
     (_v(14), np.array([3, 3, 3, 1, 1])))


def _trip_inplace_whole(X):
    s = 0.0
    for t in range(X.shape[0]):
        a = X[t]
        X *= 0.5
        s += a - X[t]
    return s, X


case(_trip_inplace_whole, (_v(12),), (_v(14),))


def _trip_2d_row_then_elem(M):
    out = np.zeros(M.shape[0])
    for i in range(M.shape[0]):
        r = M[i]
        a = M[i, 0]
        r[0] = 9.0
        out[i] = M[i][0] - a
    return out, M


case(_trip_2d_row_then_elem, (_m(10, 3),), (_m(11, 2),))


def _trip_sort_between(X):
    out = []
    for t in range(X.shape[0]):
        a = X[t]
        X.sort()
        out.append(float(a - X[t]))
    return out, X


case(_trip_sort_between, (np.tile([3.0, 1.0, 2.0], 4),), (np.tile([2.0, 2.0, 1.0, 0.5], 3),))


def _trip_copyto_between(X, Z):
    acc = 0.0
    for t in range(X.shape[0]):
        a = X[t]
        np.copyto(X, Z)
        acc += a * 10.0 + X[t]
    return acc, X


case(_trip_copyto_between, (_v(12), _v(12, 2.0)), (_v(13), np.zeros(13)))


def _trip_two_args(X, Y):
    out = np.zeros(X.shape[0])
    for t in range(X.shape[0]):
        a = X[t]
        Y[t] = a + 1.0
        out[t] = X[t] * a
    return out, X, Y


case(_trip_two_args, lambda: (lambda x: (x, x))(_v(12)), lambda: (_v(12), _v(12)),
     lambda: (lambda x: (x[1:], x[:-1]))(_v(17)))


def _trip_nested_write(X, m):
    out = np.zeros(X.shape[0])
    for t in range(X.shape[0]):
        a = X[t]
        for j in range(m):
            X[j] += 1.0
        out[t] = X[t] - a
    return out, X


case(_trip_nested_write, (_v(12), 3), (_v(15), 5))


def _trip_add_at(X, idx):
    out = np.zeros(X.shape[0])
    for t in range(X.shape[0]):
        a = X[t]
        np.add.at(X, idx, 0.5)
        out[t] = X[t] - a
    return out, X


case(_trip_add_at, (_v(12), np.array([0, 0, 2])), (_v(14), np.array([3])))


def _trip_row_inplace(M):
    s = np.zeros(M.shape[1])
    for t in range(M.shape[0]):
        r = M[t]
        M[t] += 1.0
        s += M[t] + r
    return s, M


case(_trip_row_inplace, (_m(10, 3),), (_m(12, 5),))


def _trip_rebind(X):
    out = np.zeros(X.shape[0])
    for t in range(X.shape[0]):
        a = X[t]
        X = X * 2.0
        out[t] = X[t] - a
    return out, X


case(_trip_rebind, (_v(12),), (_v(14),))


def _trip_equal_index_write(X, k):
    out = np.zeros(X.shape[0])
    for t in range(X.shape[0]):
        a = X[t]
        X[k] = t * 1.0
        out[t] = X[t] + a
    return out, X


case(_trip_equal_index_write, (_v(12), 2), (_v(15), 0), (_v(16), -1))


def _trip_argmin_nan_ties(d):
    picks = []
    for _ in range(d.shape[0]):
        u = np.argmin(d)
        v = np.argmin(d)
        d[u] = 10.0
        picks.append((int(u), int(v), int(np.argmin(d))))
    return picks, d


case(_trip_argmin_nan_ties, (np.tile([1.0, NAN, 0.0, 0.0], 3),), (np.full(10, 2.0),))


def _trip_helper_view_write(X):
    out = np.zeros(X.shape[0])
    for t in range(X.shape[0] // 2):
        a = X[2 * t]
        _half(X)[t] = -a
        out[t] = X[2 * t] + a
    return out, X


case(_trip_helper_view_write, (_v(12),), (_v(19),))


def _trip_scalar_arg_index(X, u, sums):
    k = int(u)
    for t in range(X.shape[0]):
        sums[k] += X[t]
        sums[u] -= 0.5
        X[t] = sums[k]
    return sums, X, k


case(_trip_scalar_arg_index, (_v(12), np.int64(1), np.zeros(3)),
     (_v(14), np.intp(-1), np.zeros(2)), (_v(12), np.uint8(0), np.zeros(1)))
