"""Loops inside loops (nested loop nodes, dynamo/translator/nested_loops.py): DP tables,
edit distance and LCS, Gauss-Seidel sweeps, Floyd-Warshall, hand-written matmul and
Cholesky, Pascal's triangle, triangular solves; written the way such code is written
in plain NumPy, before any of it ran under dynamo.

``PROGRAMS``: (name, fn, make_args, nested) with ``nested`` True where the first call's
graph must hold a loop node inside another loop node's body, False where the inner
loop must stay unrolled (a trip count that follows the outer index, a ``break``, a list
append, a counter, at most ``config.loop_unroll_limit`` trips, no trip at all).

Example::

    >>> name, fn, make_args, nested = PROGRAMS[0]
    >>> fn(*make_args()).shape
    (12, 11)
"""

from __future__ import annotations

import numpy as np


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


# ----------------------------------------------------------------- stays unrolled
def triangular_lower(L, x):
    # the inner trip count follows the outer index (range(i)): not nested
    n = L.shape[0]
    out = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        out[i] = s
    return out


def cholesky_by_hand(A):
    n = A.shape[0]
    L = np.zeros_like(A)
    for j in range(n):
        s = A[j, j]
        for k in range(j):
            s = s - L[j, k] * L[j, k]
        L[j, j] = np.sqrt(s)
        for i in range(j + 1, n):
            t = A[i, j]
            for k in range(j):
                t = t - L[i, k] * L[j, k]
            L[i, j] = t / L[j, j]
    return L


def forward_sub_loops(L, b):
    n = b.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = b[i]
        for j in range(i):
            s = s - L[i, j] * x[j]
        x[i] = s / L[i, i]
    return x


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
    ("triangular_lower", triangular_lower, lambda: (_r(12, 12), _r(12, seed=1)), False),
    ("cholesky_by_hand", cholesky_by_hand,
     lambda: ((lambda m: m @ m.T + 12 * np.eye(12))(_r(12, 12)),), False),
    ("forward_sub_loops", forward_sub_loops,
     lambda: (np.tril(_r(12, 12)) + 12 * np.eye(12), _r(12, seed=1)), False),
    ("inner_break", inner_break, lambda: (_r(10, 12),), False),
    ("inner_list_append", inner_list_append, lambda: (_r(10, 12),), False),
    ("inner_eight_trips", inner_eight_trips, lambda: (_r(10, 8),), False),
    ("inner_no_trips", inner_no_trips, lambda: (_r(10, 1),), False),
    ("inner_one_trip", inner_one_trip, lambda: (_r(10, 2),), False),
    ("inner_pinned_index", inner_pinned_index, lambda: (_r(10, 12),), False),
    ("inner_counter", inner_counter, lambda: (_r(10, 10),), False),
]
