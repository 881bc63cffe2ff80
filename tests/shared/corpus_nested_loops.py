"""Loops inside loops (nested loop nodes, dynamo/translator/nested_loops.py): DP tables,
edit distance and LCS, Gauss-Seidel sweeps, Floyd-Warshall, hand-written matmul and
Cholesky, Pascal's triangle, triangular solves; written the way such code is written
in plain NumPy, before any of it ran under dynamo.

``PROGRAMS``: (name, fn, make_args, nested) with ``nested`` True where the first call's
graph must hold a loop node inside another loop node's body, False where the inner
loop must stay unrolled (a ``break``, a list append, a counter, at most
``config.loop_unroll_limit`` trips, no trip at all). Triangular loops (``range(i)``,
``range(i + 1, n)``, ``range(1, i)``, a step of -1; Cholesky, LU, forward and back
substitution by hand; a Python float accumulator, stored or read as ``b[i] - s``:
forward and back substitution, Cholesky-Banachiewicz, LU without pivoting, Gauss-Seidel
sweeps) nest, their inner node running 0 trips where the range is empty.

Example::

    >>> name, fn, make_args, nested = PROGRAMS[0]
    >>> fn(*make_args()).shape
    (12, 11)
"""

from __future__ import annotations

import numpy as np
from script_modules import load_script

_bench_triangular = load_script("bench_triangular")


def _r(*shape, seed=0):
    return np.random.default_rng(seed).random(shape)


def _ints(n, k=4, seed=0):
    return np.random.default_rng(seed).integers(0, k, n)


def _pascal(n=12):
    P = np.zeros((n, n))
    P[:, 0] = 1.0
    return P


# ----------------------------------------------------------------- nested nodes
def dp_min3(C):
    n, m = C.shape
    D = np.zeros((n, m))
    D[0] = np.cumsum(C[0])
    for i in range(1, n):
        D[i, 0] = D[i - 1, 0] + C[i, 0]
        for j in range(1, m):
            D[i, j] = C[i, j] + min(D[i - 1, j], D[i, j - 1], D[i - 1, j - 1])
    return D


def edit_distance(a, b):
    n, m = len(a), len(b)
    D = np.zeros((n + 1, m + 1))
    D[:, 0] = np.arange(n + 1)
    D[0, :] = np.arange(m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            sub = D[i - 1, j - 1] + (a[i - 1] != b[j - 1])
            D[i, j] = min(D[i - 1, j] + 1, D[i, j - 1] + 1, sub)
    return D


def lcs_table(a, b):
    n, m = len(a), len(b)
    L = np.zeros((n + 1, m + 1), dtype=np.int64)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            L[i, j] = np.where(a[i - 1] == b[j - 1], L[i - 1, j - 1] + 1,
                               np.maximum(L[i - 1, j], L[i, j - 1]))
    return L


def wavefront(A):
    for i in range(1, A.shape[0]):
        for j in range(1, A.shape[1]):
            A[i, j] = 0.5 * (A[i - 1, j] + A[i, j - 1])
    return A


def pascal_rows(P):
    # each inner loop writes a row that the next outer trip reads
    for i in range(1, P.shape[0]):
        for j in range(1, P.shape[1]):
            P[i, j] = P[i - 1, j - 1] + P[i - 1, j]
    return P


def row_prefix_sums(X):
    for i in range(X.shape[0]):
        for j in range(1, X.shape[1]):
            X[i, j] += X[i, j - 1]
    return X


def column_prefix_sums(X):
    for j in range(X.shape[1]):
        for i in range(1, X.shape[0]):
            X[i, j] = X[i, j] + X[i - 1, j]
    return X


def gauss_seidel(u, f, h2):
    n = u.shape[0]
    for sweep in range(10):
        for i in range(1, n - 1):
            for j in range(1, n - 1):
                u[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1]
                                  - h2 * f[i, j])
    return u


def floyd_warshall(d):
    n = d.shape[0]
    for k in range(n):
        for i in range(n):
            for j in range(n):
                d[i, j] = min(d[i, j], d[i, k] + d[k, j])
    return d


def floyd_rows(d):
    n = d.shape[0]
    for k in range(n):
        for i in range(n):
            d[i] = np.minimum(d[i], d[i, k] + d[k])
    return d


def matmul_by_hand(A, B):
    n, m = A.shape[0], B.shape[1]
    C = np.zeros((n, m))
    for i in range(n):
        for j in range(m):
            for k in range(A.shape[1]):
                C[i, j] += A[i, k] * B[k, j]
    return C


def outer_scaled(x, s):
    out = np.empty((len(s), len(x)))
    for i in range(len(s)):
        for j in range(len(x)):
            out[i, j] = x[j] * s[i] + i
    return out


def backward_rows(A):
    m = A.shape[1]
    for i in range(A.shape[0]):
        for j in range(m - 2, -1, -1):
            A[i, j] = A[i, j] + 0.5 * A[i, j + 1]
    return A


def strided_inner(A):
    for i in range(1, A.shape[0]):
        for j in range(0, A.shape[1], 2):
            A[i, j] = A[i - 1, j] * 0.9 + A[i, j]
    return A


def inner_temporary(A, B):
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            t = A[i, j] * 2.0
            B[i, j] = t + 1.0
    return B


def inner_vector_rows(X, w):
    acc = np.zeros(X.shape[2])
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            acc = acc + w[i] * X[i, j]
    return acc


def inner_nine_trips(A):
    for i in range(1, A.shape[0]):
        for j in range(9):
            A[i, j] = A[i - 1, j] + A[i, j + 1]
    return A


def inner_float_count(x, out):
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = np.sin(0.1 * j) * x[i] + 0.5 * i
    return out


# ----------------------------------------------------------------- triangular nodes
# the inner range follows the outer index (issue #23): a node of its own whose trip
# count is an expression of the outer trip, 0 or below where it runs no trip

# forward substitution and Cholesky by hand are the programs scripts/bench_triangular.py
# times (``forward_sub``, ``cholesky``): one copy, so what is timed is what is checked
cholesky_by_hand = _bench_triangular.cholesky
forward_sub_loops = _bench_triangular.forward_sub


def back_sub_loops(U, b):
    n = b.shape[0]
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        s = b[i]
        for j in range(i + 1, n):
            s = s - U[i, j] * x[j]
        x[i] = s / U[i, i]
    return x


def lu_by_hand(A):
    # Doolittle, in place: L below the diagonal, U on and above
    n = A.shape[0]
    for k in range(n):
        for i in range(k + 1, n):
            A[i, k] = A[i, k] / A[k, k]
            for j in range(k + 1, n):
                A[i, j] = A[i, j] - A[i, k] * A[k, j]
    return A


def gauss_seidel_lower(u):
    n = u.shape[0]
    for sweep in range(3):
        for i in range(1, n - 1):
            for j in range(1, i):          # no trip at i = 1
                u[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])
    return u


def insertion_passes(a):
    for i in range(1, a.shape[0]):
        for j in range(i, 0, -1):          # a step of -1, i trips
            lo = min(a[j - 1], a[j])
            hi = max(a[j - 1], a[j])
            a[j - 1] = lo
            a[j] = hi
    return a


def pairwise_upper(X):
    n = X.shape[0]
    D = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):          # no trip at the last i
            D[i, j] = np.sqrt(((X[i] - X[j]) ** 2).sum())
            D[j, i] = D[i, j]
    return D


def lower_products(x):
    n = x.shape[0]
    acc = np.zeros(n)
    for i in range(n):
        for j in range(i):
            acc[i] += x[i] * x[j]
    return acc


def from_one_to_i(A):
    for i in range(A.shape[0]):
        for j in range(1, i):              # range(1, 0) is empty: a count of -1
            A[i, j] = A[i, j - 1] * 0.5 + A[i, j]
    return A


def shrinking_to_empty(x, out):
    for i in range(out.shape[0]):
        for j in range(i, 3):              # 3 - i trips: none from i = 3 on
            out[i] = out[i] + x[j]
    return out


def stepped_outer(A, x):
    for i in range(0, A.shape[0], 2):      # i = 2 * trip, 2 * trip inner trips
        for j in range(i):
            A[i, j] = A[i, j] * 2.0 + x[j]
    return A


def upper_matvec(U, x):
    n = x.shape[0]
    out = np.zeros(n)
    for i in range(n):
        s = U[i, i] * x[i]
        for j in range(i + 1, n):
            s = s + U[i, j] * x[j]
        out[i] = s
    return out


def pascal_in_place(row):
    for i in range(2, row.shape[0]):
        for j in range(i - 1, 0, -1):       # counting down, i - 1 trips
            row[j] = row[j] + row[j - 1]
    return row


def down_to_zero(y):
    for i in range(y.shape[0]):
        for j in range(i, -1, -1):          # i + 1 trips, down to 0
            y[j] = y[j] * 0.5 + y[i] * 0.25
    return y


def lower_rows_scaled(A, w):
    for i in range(1, A.shape[0]):
        for j in range(i):
            A[i] = A[i] + w[j] * A[j]      # a row update from each row above
    return A


def triangular_lower(L, x):
    # a Python float accumulator (s = 0.0, an np.float64 after one trip, a float after
    # none at i = 0): carried as np.float64, stored into a float64 array, then dead
    n = L.shape[0]
    out = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        out[i] = s
    return out


# Python float accumulators read after the loop as users write it (promoted_exits.py):
# ``b[i] - s`` is an np.float64 whether s is 0.0 (no trip) or an np.float64; forward
# substitution and Cholesky-Banachiewicz so are timed by scripts/bench_triangular.py
forward_sub_floats = _bench_triangular.forward_sub_floats
cholesky_banachiewicz = _bench_triangular.cholesky_banachiewicz


def back_sub_floats(U, b):
    n = b.shape[0]
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        s = 0.0
        for j in range(i + 1, n):          # no trip at the last row
            s += U[i, j] * x[j]
        x[i] = (b[i] - s) / U[i, i]
    return x


def lu_doolittle_floats(A):
    # LU without pivoting, L with a unit diagonal: row i of U, then column i of L
    n = A.shape[0]
    L = np.eye(n)
    U = np.zeros((n, n))
    for i in range(n):
        for k in range(i, n):
            s = 0.0
            for j in range(i):
                s += L[i, j] * U[j, k]
            U[i, k] = A[i, k] - s
        for k in range(i + 1, n):
            s = 0.0
            for j in range(i):
                s += L[k, j] * U[j, i]
            L[k, i] = (A[k, i] - s) / U[i, i]
    return L, U


def gauss_seidel_sweeps(A, b, x):
    # one s over both sides of the diagonal: after the first inner loop it is carried
    # into the second, which reads it first as s + A[i, j] * x[j]
    n = b.shape[0]
    for sweep in range(2):
        for i in range(n):
            s = 0.0
            for j in range(i):
                s += A[i, j] * x[j]
            for j in range(i + 1, n):
                s += A[i, j] * x[j]
            x[i] = (b[i] - s) / A[i, i]
    return x


# ----------------------------------------------------------------- stays unrolled
def inner_break(A):
    for i in range(1, A.shape[0]):
        for j in range(A.shape[1]):
            if j == 5:
                break
            A[i, j] = A[i - 1, j] + 1.0
    return A


def inner_list_append(A):
    seen = []
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            A[i, j] = A[i, j] * 2.0
            seen.append(j)
    return A, len(seen)


def inner_eight_trips(A):
    for i in range(1, A.shape[0]):
        for j in range(8):
            A[i, j] = A[i - 1, j] + 1.0
    return A


def inner_no_trips(A):
    for i in range(1, A.shape[0]):
        for j in range(1, A.shape[1]):
            A[i, j] = A[i - 1, j] + 1.0
    return A


def inner_one_trip(A):
    for i in range(1, A.shape[0]):
        for j in range(1, A.shape[1]):
            A[i, j] = A[i - 1, j - 1] + 1.0
    return A


def inner_pinned_index(A):
    # the inner body uses its index as a plain int (a list index)
    coefs = [0.5, 1.0, 2.0]
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            A[i, j] = A[i, j] * coefs[j % 3]
    return A


def inner_counter(A):
    # a counter the inner loop steps from where the outer trip left it: no inner node
    # (the outer node counts it, with the inner loop unrolled in its body)
    k = 0
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            A[i, j] = A[i, j] + k
            k += 1
    return A, k


PROGRAMS = [
    ("dp_min3", dp_min3, lambda: (_r(12, 11),), True),
    ("edit_distance", edit_distance, lambda: (_ints(11), _ints(12, seed=1)), True),
    ("lcs_table", lcs_table, lambda: (_ints(10), _ints(13, seed=2)), True),
    ("wavefront", wavefront, lambda: (_r(11, 12),), True),
    ("pascal_rows", pascal_rows, lambda: (_pascal(),), True),
    ("row_prefix_sums", row_prefix_sums, lambda: (_r(10, 13),), True),
    ("column_prefix_sums", column_prefix_sums, lambda: (_r(12, 10),), True),
    ("gauss_seidel", gauss_seidel, lambda: (_r(12, 12), _r(12, 12, seed=1), 0.01), True),
    ("floyd_warshall", floyd_warshall, lambda: (_r(10, 10) * 10,), True),
    ("floyd_rows", floyd_rows, lambda: (_r(10, 10) * 10,), True),
    ("matmul_by_hand", matmul_by_hand, lambda: (_r(10, 11), _r(11, 10, seed=1)), True),
    ("outer_scaled", outer_scaled, lambda: (_r(12), _r(10, seed=1)), True),
    ("backward_rows", backward_rows, lambda: (_r(10, 12),), True),
    ("strided_inner", strided_inner, lambda: (_r(10, 21),), True),
    ("inner_temporary", inner_temporary, lambda: (_r(10, 11), np.zeros((10, 11))), True),
    ("inner_vector_rows", inner_vector_rows, lambda: (_r(10, 12, 4), _r(10, seed=3)), True),
    ("inner_nine_trips", inner_nine_trips, lambda: (_r(10, 10),), True),
    ("inner_float_count", inner_float_count, lambda: (_r(10), np.zeros((10, 12))), True),
    ("cholesky_by_hand", cholesky_by_hand,
     lambda: ((lambda m: m @ m.T + 12 * np.eye(12))(_r(12, 12)),), True),
    ("forward_sub_loops", forward_sub_loops,
     lambda: (np.tril(_r(12, 12)) + 12 * np.eye(12), _r(12, seed=1)), True),
    ("back_sub_loops", back_sub_loops,
     lambda: (np.triu(_r(12, 12)) + 12 * np.eye(12), _r(12, seed=1)), True),
    ("lu_by_hand", lu_by_hand, lambda: (_r(11, 11) + 11 * np.eye(11),), True),
    ("gauss_seidel_lower", gauss_seidel_lower, lambda: (_r(12, 12),), True),
    ("insertion_passes", insertion_passes, lambda: (_r(12),), True),
    ("pairwise_upper", pairwise_upper, lambda: (_r(11, 3),), True),
    ("lower_products", lower_products, lambda: (_r(12),), True),
    ("from_one_to_i", from_one_to_i, lambda: (_r(12, 12),), True),
    ("shrinking_to_empty", shrinking_to_empty, lambda: (_r(12), np.zeros(12)), True),
    ("stepped_outer", stepped_outer, lambda: (_r(21, 21), _r(21, seed=1)), True),
    ("upper_matvec", upper_matvec, lambda: (_r(12, 12), _r(12, seed=1)), True),
    ("pascal_in_place", pascal_in_place, lambda: (np.eye(1, 13)[0],), True),
    ("down_to_zero", down_to_zero, lambda: (_r(12),), True),
    ("lower_rows_scaled", lower_rows_scaled, lambda: (_r(10, 4), _r(10, seed=1)), True),
    ("triangular_lower", triangular_lower, lambda: (_r(12, 12), _r(12, seed=1)), True),
    ("forward_sub_floats", forward_sub_floats,
     lambda: (np.tril(_r(12, 12)) + 12 * np.eye(12), _r(12, seed=1)), True),
    ("back_sub_floats", back_sub_floats,
     lambda: (np.triu(_r(12, 12)) + 12 * np.eye(12), _r(12, seed=1)), True),
    ("cholesky_banachiewicz", cholesky_banachiewicz,
     lambda: ((lambda m: m @ m.T + 10 * np.eye(10))(_r(10, 10)),), True),
    ("lu_doolittle_floats", lu_doolittle_floats, lambda: (_r(10, 10) + 10 * np.eye(10),), True),
    ("gauss_seidel_sweeps", gauss_seidel_sweeps,
     lambda: (_r(10, 10) + 10 * np.eye(10), _r(10, seed=1), np.zeros(10)), True),
    ("inner_break", inner_break, lambda: (_r(10, 12),), False),
    ("inner_list_append", inner_list_append, lambda: (_r(10, 12),), False),
    ("inner_eight_trips", inner_eight_trips, lambda: (_r(10, 8),), False),
    ("inner_no_trips", inner_no_trips, lambda: (_r(10, 1),), False),
    ("inner_one_trip", inner_one_trip, lambda: (_r(10, 2),), False),
    ("inner_pinned_index", inner_pinned_index, lambda: (_r(10, 12),), False),
    ("inner_counter", inner_counter, lambda: (_r(10, 10),), False),
]
