"""Round 36, nested loop nodes (``dynamo/translator/nested_loops.py``): an inner
``range`` loop in the body of a loop node, with 0 or 1 inner trips, trip counts read off
shapes that change between calls, inner loops writing the rows the next outer trip
reads, an inner loop that breaks, returns, raises or appends to a Python list, views
of one array written by one loop and read by the other, int8/int32 arithmetic that
wraps in the inner body, NaN and inf reaching ``min``/``max``, the inner index read
after the loop (0 trips: still the previous outer trip's), ``else:`` on the inner loop,
stepped and reversed inner ranges, and a third level.

    >>> def _dp(C):
    ...     n, m = C.shape
    ...     D = np.zeros_like(C)
    ...     for i in range(1, n):
    ...         D[i, 0] = D[i - 1, 0] + C[i, 0]
    ...         for j in range(1, m):
    ...             D[i, j] = C[i, j] + min(D[i - 1, j], D[i, j - 1], D[i - 1, j - 1])
    ...     return D
"""

import math

import numpy as np
from hostile_check import Programs

reg = Programs("round36_nested")
NAN, INF = math.nan, math.inf


# ---------------------------------------------------------------- the traced functions
def _dp(C):
    n, m = C.shape
    D = np.zeros_like(C)
    for i in range(1, n):
        D[i, 0] = D[i - 1, 0] + C[i, 0]
        for j in range(1, m):
            D[i, j] = C[i, j] + min(D[i - 1, j], D[i, j - 1], D[i - 1, j - 1])
    return D


def _few_trips(C):                 # range(m - 3): 0 or 1 inner trips for small m
    n, m = C.shape
    out = C.copy()
    for i in range(n):
        for j in range(m - 3):
            out[i, j] = out[i, j + 1] * 2.0 - C[i, j]
    return out


def _rows_next_reads(C):           # the next outer trip reads the row the inner wrote
    n, m = C.shape
    A = C.copy()
    for i in range(1, n):
        for j in range(m):
            A[i, j] = A[i - 1, j] * 0.5 + A[i - 1, j - 1]     # j - 1 = -1 wraps
    return A


def _inner_break(C):
    n, m = C.shape
    A = C.copy()
    for i in range(n):
        for j in range(m):
            if A[i, j] > 2.0:
                break
            A[i, j] += 1.0
    return A


def _inner_return(C):
    n, m = C.shape
    A = C.copy()
    for i in range(n):
        for j in range(m):
            if A[i, j] < -1.0:
                return A, i, j
            A[i, j] = A[i, j] * 2.0
    return A, -1, -1


def _inner_raise(C):
    n, m = C.shape
    A = C.copy()
    try:
        for i in range(n):
            for j in range(m):
                if A[i, j] != A[i, j]:
                    raise ValueError(f"nan at {i},{j}")
                A[i, j] -= 0.25
    except ValueError as e:
        return A, str(e)
    return A, ""


def _inner_appends(C):
    n, m = C.shape
    log = []
    acc = np.zeros(n)
    for i in range(n):
        for j in range(m):
            acc[i] += C[i, j]
            log.append(j)
    return acc, log


def _inner_appends_value(C):
    n, m = C.shape
    log = []
    for i in range(n):
        for j in range(1, m):
            log.append(float(C[i, j] - C[i, j - 1]))
    return log


def _row_view(C):                  # the outer takes a view; the inner writes through it
    n, m = C.shape
    A = C.copy()
    for i in range(1, n):
        row = A[i]
        for j in range(1, m):
            row[j] = A[i, j - 1] + A[i - 1, j]
    return A


def _shifted_view(C):              # B is A shifted by a row: writes to B are A's rows
    n, m = C.shape
    A = C.copy()
    B = A[1:]
    for i in range(n - 1):
        for j in range(m):
            B[i, j] = A[i, j] + 1.0
    return A, B


def _column_view(C):               # a column view read by the inner, written by outer
    n, m = C.shape
    A = C.copy()
    col = A[:, 0]
    for i in range(1, n):
        col[i] = col[i - 1] * 0.5
        for j in range(1, m):
            A[i, j] = A[i, j] + col[i]
    return A, col


def _int_wrap(C):                  # int8 arithmetic wraps in the inner body
    n, m = C.shape
    acc = np.zeros(n, dtype=C.dtype)
    for i in range(n):
        for j in range(m):
            acc[i] = acc[i] * 3 + C[i, j]
    return acc


def _int_table(C):
    n, m = C.shape
    T = np.zeros((n, m), dtype=C.dtype)
    for i in range(1, n):
        for j in range(1, m):
            T[i, j] = T[i - 1, j] + T[i, j - 1] + C[i, j] * 7
    return T


def _nan_max(C):                   # Python max with NaN depends on the order
    n, m = C.shape
    D = np.zeros_like(C)
    for i in range(1, n):
        for j in range(m):
            D[i, j] = max(D[i - 1, j], C[i, j])
    return D


def _nan_np_max(C):
    n, m = C.shape
    D = np.zeros_like(C)
    for i in range(1, n):
        for j in range(1, m):
            D[i, j] = np.maximum(D[i - 1, j - 1], C[i, j]) + np.fmin(D[i, j - 1], C[i, j])
    return D


def _index_after(C):               # the inner index after the loop (0 trips: stale)
    n, m = C.shape
    j = -1
    out = []
    for i in range(n):
        for j in range(m - 2):
            C[i, j] += 1.0
        out.append(j)
    return out, C


def _inner_else(C):
    n, m = C.shape
    flags = np.zeros(n)
    for i in range(n):
        for j in range(m):
            if C[i, j] > 3.0:
                break
        else:
            flags[i] = -1.0
    return flags


def _stepped_inner(C):
    n, m = C.shape
    A = C.copy()
    for i in range(1, n):
        for j in range(1, m, 2):
            A[i, j] = A[i - 1, j - 1] - A[i, j]
    return A


def _reversed_inner(C):
    n, m = C.shape
    A = C.copy()
    for i in range(n):
        for j in range(m - 1, 0, -1):
            A[i, j] = A[i, j - 1] + A[i, j]
    return A


def _uses_outer_index(C):
    n, m = C.shape
    A = np.zeros_like(C)
    for i in range(n):
        for j in range(m):
            A[i, j] = C[i, j] + i * j - i
    return A


def _python_accumulator(C):        # a Python float carried by both loops
    n, m = C.shape
    s = 0.0
    for i in range(n):
        for j in range(m):
            s = s * 0.5 + C[i, j]
    return s


def _three_levels(C):
    n, m = C.shape
    A = np.zeros((2, n, m))
    for k in range(2):
        for i in range(n):
            for j in range(m):
                A[k, i, j] = C[i, j] * (k + 1) + A[k - 1, i, j]
    return A


def _writes_input(C):              # the inner writes the caller's array
    n, m = C.shape
    for i in range(1, n):
        for j in range(1, m):
            C[i, j] = C[i - 1, j] + C[i, j - 1]
    return C.sum()


def _outer_ones(C):                # range(1) outer, inner over the row
    n, m = C.shape
    A = C.copy()
    for i in range(1):
        for j in range(1, m):
            A[i, j] += A[i, j - 1]
    return A


FLOAT_FNS = (_dp, _few_trips, _rows_next_reads, _inner_break, _inner_return, _inner_appends, _inner_appends_value, _row_view, _shifted_view, _column_view,
             _nan_max, _nan_np_max, _index_after, _inner_else, _stepped_inner,
             _reversed_inner, _uses_outer_index, _python_accumulator, _three_levels,
             _writes_input, _outer_ones)
INT_FNS = (_int_wrap, _int_table, _dp, _rows_next_reads, _writes_input, _uses_outer_index)


def _grid(n, m, seed, special=()):
    rng = np.random.default_rng(seed)
    a = rng.choice([-2.0, -0.5, 0.5, 1.0, 2.5, 4.0], size=(n, m))
    for (i, j), v in special:
        if i < n and j < m:
            a[i, j] = v
    return a


# shapes change between calls (a loop of at most config.loop_unroll_limit = 8 trips is
# unrolled, so the first shapes make nodes): then 0 or 1 inner trips, no outer trip,
# fewer trips than a node takes, and nodes again
SHAPES = [(10, 12), (11, 9), (12, 1), (9, 2), (1, 12), (10, 4), (12, 10)]
FLOAT_SETS = {
    "shapes": [(_grid(n, m, k),) for k, (n, m) in enumerate(SHAPES)],
    "nan_inf": [(_grid(10, 11, 1, [((1, 2), NAN)]),), (_grid(11, 10, 2, [((2, 0), INF)]),),
                (_grid(10, 12, 3, [((0, 1), -INF), ((9, 3), NAN)]),),
                (_grid(12, 9, 4, [((1, 0), NAN)]),)],
    "fortran": [(np.asfortranarray(_grid(10, 11, 5)),), (_grid(12, 10, 6)[:, ::-1],),
                (np.asfortranarray(_grid(9, 12, 7)),)],
}


def _int_grid(n, m, dtype, seed):
    rng = np.random.default_rng(seed)
    return rng.integers(-100, 120, size=(n, m)).astype(dtype)


INT_SETS = {
    "int8": [(_int_grid(10, 11 + k, np.int8, k),) for k in range(3)]
    + [(np.full((10, 10), 127, np.int8),), (_int_grid(12, 1, np.int8, 9),)],
    "int32": [(_int_grid(10, 10, np.int32, 1) * 10**7,),
              (np.full((11, 9), 2**30, np.int32),), (_int_grid(9, 12, np.int32, 2),)],
}

for _i, _fn in enumerate(FLOAT_FNS):
    for _j, (_sname, _sets) in enumerate(FLOAT_SETS.items()):
        if _j == 2 and _i % 2:
            continue                 # F-ordered inputs for half of them (CI time)
        reg.case(_fn, *_sets, calls=1, name=f"{_fn.__name__[1:]}_{_sname}")

for _fn in INT_FNS:
    for _sname, _sets in INT_SETS.items():
        reg.case(_fn, *_sets, calls=1, name=f"{_fn.__name__[1:]}_{_sname}")

# a try around the loops: no loop node, every trip unrolled over symbolic sizes, which
# takes seconds at the shapes above (a compile-time cost, not a wrong result): small ones
reg.case(_inner_raise, (_grid(3, 4, 0),), (_grid(2, 5, 1, [((1, 2), NAN)]),), (_grid(4, 1, 2),),
         (_grid(1, 3, 3, [((0, 0), NAN)]),), calls=1, name="inner_raise_small")


# ---------------------------------------------------------------- scenarios
def _s_trip_counts_of_an_argument(r):
    """Inner trip counts from an int argument that changes: 10, 0, 1, 12, then 0 again."""
    def f(A, k):
        out = A.copy()
        for i in range(A.shape[0]):
            for j in range(k):
                out[i, j] = out[i, j] + out[i - 1, j]
        return out
    g = r.compile(f)
    for k in (10, 0, 1, 12, 0, 9):
        r.call(g, _grid(10, 12, k), k)


def _s_list_of_rows(r):
    """The inner loop appends rows (views) of an array the next outer trip writes."""
    def f(A):
        rows = []
        for i in range(1, A.shape[0]):
            for j in range(A.shape[1]):
                A[i, j] += A[i - 1, j]
            rows.append(A[i])
        return rows
    g = r.compile(f)
    for k, (n, m) in enumerate([(10, 9), (11, 2), (9, 12), (10, 9)]):
        r.call(g, _grid(n, m, k))


reg._add("trip_counts_of_an_argument", _s_trip_counts_of_an_argument, "")
reg._add("list_of_rows", _s_list_of_rows, "")


# ---------------------------------------------------------------- native tier and auto
# (tier 2 lowers an inner loop node as a real loop of the kernel)
def _make(*arrays):
    return lambda: tuple(a.copy() for a in arrays)


for _fn, _base, _hostile in (
        (_dp, _grid(10, 12, 20), (_grid(11, 1, 21), _grid(12, 10, 22, [((3, 4), NAN)]),
                                  np.asfortranarray(_grid(10, 11, 23)))),
        (_int_wrap, _int_grid(10, 11, np.int8, 28), (np.full((10, 12), 127, np.int8),
                                                     _int_grid(10, 11, np.int32, 29))),
        (_nan_max, _grid(10, 11, 32), (_grid(10, 11, 33, [((4, 4), NAN), ((6, 2), -INF)]),
                                       _grid(12, 2, 34))),
        (_three_levels, _grid(10, 10, 38), (_grid(11, 9, 39), _grid(10, 10, 40))),
        (_writes_input, _grid(10, 12, 41), (_grid(12, 10, 42, [((1, 1), NAN)]),
                                            _grid(10, 12, 43)[:, ::-1]))):
    reg.tiers(_fn.__name__[1:], _fn, _make(_base), *[_make(h) for h in _hostile])


# ---------------------------------------------------------------- past the ends
def _next_row(C):                  # the last outer trip writes past the end: IndexError
    n, m = C.shape                 # after every earlier write landed in the caller's C
    for i in range(n):
        for j in range(m):
            C[i + 1, j] = C[i, j] * 0.5 + 1.0
    return C


def _next_row_caught(C):
    n, m = C.shape
    try:
        for i in range(n):
            for j in range(m):
                C[i + 1, j] = C[i, j] * 0.5 + 1.0
    except IndexError as e:
        return str(e), C
    return "", C


def _column_past_end(C):
    n, m = C.shape
    acc = 0.0
    for i in range(n):
        for j in range(m):
            acc += C[i, j + 1]
    return acc


def _both_indices_negative(C):     # i - j and j - i wrap around
    n, m = C.shape
    out = np.zeros_like(C)
    for i in range(n):
        for j in range(m):
            out[i, j] = C[i - j, j - i]
    return out


def _growing_inner_slice(C):
    n, m = C.shape
    out = np.zeros(n)
    for i in range(n):
        for j in range(m):
            out[i] += C[i, : j + 1].sum()
    return out


def _modulo_write(C):
    n, m = C.shape
    A = C.copy()
    for i in range(n):
        for j in range(m):
            A[j % n, i % m] = A[i, j] + 1.0
    return A


def _count_of_other(C, D):         # the inner count is another argument's length
    n, m = C.shape
    for i in range(n):
        for j in range(D.shape[0]):
            C[i, j % m] += D[j]
    return C


for _fn in (_next_row, _next_row_caught, _column_past_end, _both_indices_negative,
            _growing_inner_slice, _modulo_write):
    reg.case(_fn, (_grid(10, 12, 60),), (_grid(11, 11, 61),), (_grid(12, 10, 62),),
             calls=1, name=f"{_fn.__name__[1:]}_shapes")
reg.case(_count_of_other, (_grid(10, 12, 63), np.arange(9.0)), (_grid(10, 12, 64), np.arange(12.0)),
         (_grid(11, 3, 65), np.arange(1.0)), (_grid(10, 12, 66), np.zeros(0)), calls=1,
         name="count_of_other")


# ---------------------------------------------------------------- slices of both indices
def _band_sum(C):                  # the slice's length follows the outer index
    n, m = C.shape
    out = np.zeros((n, m))
    for i in range(n):
        for j in range(m):
            out[i, j] = C[i, j: j + i + 1].sum()
    return out


def _wrapping_window(C):           # i - j is negative for j > i: the slice wraps
    n, m = C.shape
    out = np.zeros((n, m))
    for i in range(n):
        for j in range(m):
            out[i, j] = C[i - j: i - j + 2, j].sum()
    return out


for _fn in (_band_sum, _wrapping_window):
    reg.case(_fn, (_grid(10, 12, 70),), (_grid(12, 10, 71),), calls=1,
             name=f"{_fn.__name__[1:]}_shapes")
    reg.tiers(_fn.__name__[1:], _fn, _make(_grid(10, 12, 72)), _make(_grid(12, 10, 73)))
