"""Round 41, loops whose body branches on the loop indices (index_splits.py, docs/
loops.md "Branches on the loop indices"): ``if i == j``, ``if j < i``, ``if k != p``,
``if i == 0`` / ``elif i == n - 1``, split points at 0, at the end, past the end and
negative (an argument ``w``), ranges of 0, 1 and 2 trips, steps, nested loops, one way
writing the array the other way reads, and sizes that go 0..5, then past the unroll
limit (loop nodes), then back down (one entry, symbolic sizes).

    >>> def _boundary(x):
    ...     y = np.empty_like(x)
    ...     n = x.shape[0]
    ...     for i in range(n):
    ...         if i == 0:
    ...             y[i] = x[i]
    ...         elif i == n - 1:
    ...             y[i] = -x[i]
    ...         else:
    ...             y[i] = (x[i - 1] + x[i + 1]) * 0.5
    ...     return y
"""

import numpy as np
from hostile_check import Programs

import dynamo

reg = Programs("round41_loops")
SIZES = (0, 2, 12, 16, 1)    # (then 0 again: ``Programs.case`` repeats the first)
SQUARES = (3, 2, 4, 0, 1, 3)     # (with loop_unroll_limit 2: ``s_cholesky``)
# (static sizes only; Cholesky's nested split traced with symbolic sizes: ``s_cholesky``)
STATIC = (10, 2, 0)


def _v(n, seed=3):
    return np.random.default_rng(seed + n).random(n) * 4 - 1


def _m(n, seed=7):
    a = np.random.default_rng(seed + n).random((n, n)) - 0.5
    return a @ a.T + n * np.eye(n)


def _sized(fn, sizes=SIZES, make=None, name=None):
    make = make or (lambda n: (_v(n),))
    reg.case(fn, *[(lambda n=n: make(n)) for n in sizes], calls=1,
             name=name or fn.__name__.removeprefix("_"))


# ---- one loop, one comparison --------------------------------------------------------

def _boundary(x):
    y = np.empty_like(x)
    n = x.shape[0]
    for i in range(n):
        if i == 0:
            y[i] = x[i]
        elif i == n - 1:
            y[i] = -x[i]
        else:
            y[i] = (x[i - 1] + x[i + 1]) * 0.5
    return y


def _first_only(x):
    y = np.zeros_like(x)
    for i in range(x.shape[0]):
        if i == 0:
            y[i] = 100.0
        else:
            y[i] = y[i - 1] + x[i]
    return y


def _last_only(x):
    y = np.zeros_like(x)
    n = len(x)
    for i in range(n):
        if i == n - 1:
            y[i] = y[i - 1] * 2.0 if n > 1 else 7.0
        else:
            y[i] = x[i] + 1.0
    return y


def _warm(x):
    out = np.zeros_like(x)
    acc = 0.0
    for t in range(len(x)):
        if t < 7:
            acc = acc + x[t]
            out[t] = acc / (t + 1)
        else:
            out[t] = 0.5 * out[t - 1] + 0.5 * x[t]
    return out


def _warm_ge(x):
    out = np.zeros_like(x)
    for t in range(len(x)):
        if t >= 9:
            out[t] = out[t - 9] + x[t]
        else:
            out[t] = x[t] * 3.0
    return out


def _not_equal_mid(x):
    y = x.copy()
    p = 5
    for i in range(len(x)):
        if i != p:
            y[i] = y[i] - x[p % max(len(x), 1)] if len(x) > p else y[i] + 1.0
    return y


def _split_reads_written(x):
    """The ``if`` way writes ``x[i + 1]``, which the other way reads next trip."""
    x = x.copy()
    n = len(x)
    for i in range(n - 1):
        if i < 6:
            x[i + 1] = x[i + 1] + x[i]
        else:
            x[i + 1] = x[i] * 0.5
    return x


def _split_writes_behind(x):
    x = x.copy()
    for i in range(1, len(x)):
        if i > 8:
            x[i - 1] = x[i] - x[i - 1]
        else:
            x[i] = x[i] + x[i - 1]
    return x


def _range_start_step(x):
    y = np.zeros_like(x)
    for i in range(1, len(x), 2):
        if i == 5:
            y[i] = -1.0
        else:
            y[i] = x[i] + y[i - 1]
    return y


def _range_negative_step(x):
    y = np.zeros_like(x)
    n = len(x)
    for i in range(n - 1, -1, -1):
        if i == n - 1:
            y[i] = x[i]
        else:
            y[i] = y[i + 1] * 0.5 + x[i]
    return y


def _index_after(x):
    y = np.zeros_like(x)
    i = -1
    for i in range(len(x)):
        if i < 3:
            y[i] = 1.0
        else:
            y[i] = x[i]
    return y, i


def _compare_le_gt(x):
    y = np.zeros_like(x)
    n = len(x)
    for i in range(n):
        if i <= n // 2:
            y[i] = x[i]
        elif i > n - 3:
            y[i] = -x[i]
        else:
            y[i] = 0.5
    return y


def _two_ifs(x):
    y = np.zeros_like(x)
    for i in range(len(x)):
        v = x[i]
        if i < 4:
            v = v * 2.0
        if i >= 10:
            v = v - 1.0
        y[i] = v
    return y


def _count_in_branch(x):
    c = 0
    s = x[:0].sum()
    for i in range(len(x)):
        if i == 3:
            c += 1
            s = s + x[i] * 10
        else:
            s = s + x[i]
    return s, c


def _reversed_compare(x):
    y = np.zeros_like(x)
    n = len(x)
    for i in range(n):
        if 4 > i:
            y[i] = x[i]
        elif n - 2 <= i:
            y[i] = y[i - 1] + 1.0
        else:
            y[i] = y[i - 1] * x[i]
    return y


def _int_array(x):
    a = (x * 10).astype(np.int64)
    out = np.zeros_like(a)
    for i in range(len(a)):
        if i == 2:
            out[i] = a[i] // 3
        else:
            out[i] = a[i] * 7 - i
    return out


def _float32_rows(x):
    x = x.astype(np.float32)
    y = np.empty_like(x)
    n = len(x)
    for i in range(n):
        if i == 0 or i == n - 1:
            y[i] = x[i]
        else:
            y[i] = x[i - 1] - np.float32(2.0) * x[i] + x[i + 1]
    return y


def _sqrt_untaken(x):
    """The way not taken would warn (sqrt of a negative): plainly it never runs."""
    y = np.zeros_like(x)
    for i in range(len(x)):
        if i < 6:
            y[i] = x[i] - 10.0
        else:
            y[i] = np.sqrt(y[i - 6])
    return y


def _divide_untaken(x):
    y = np.zeros_like(x)
    for i in range(len(x)):
        if i == 0:
            y[i] = 1.0
        else:
            y[i] = x[i] / y[i - 1]
    return y


for _f in (_boundary, _first_only, _last_only, _warm, _warm_ge, _not_equal_mid,
           _split_reads_written, _split_writes_behind, _range_start_step,
           _range_negative_step, _index_after, _compare_le_gt, _two_ifs, _count_in_branch,
           _reversed_compare, _int_array, _float32_rows, _sqrt_untaken, _divide_untaken):
    _sized(_f)


# ---- the split point an argument -----------------------------------------------------

def _at_w(x, w):
    y = x.copy()
    for i in range(len(x)):
        if i == w:
            y[i] = 0.0
        else:
            y[i] = y[i] * 2.0
    return y


def _below_w(x, w):
    y = np.zeros_like(x)
    for i in range(len(x)):
        if i < w:
            y[i] = x[i]
        else:
            y[i] = y[i - 1] - x[i]
    return y


def _not_w(x, w):
    s = x[:0].sum()
    for i in range(len(x)):
        if i != w:
            s = s + x[i]
    return s


def _w_minus_i(x, w):
    y = np.zeros_like(x)
    for i in range(len(x)):
        if w - i > 2:
            y[i] = 1.0
        else:
            y[i] = x[i] + i
    return y


for _f in (_at_w, _below_w, _not_w, _w_minus_i):
    for _tag, _ws in (("w_moves", (0, 11, 12, -1, 5, 30, -5, 3)),
                      ("w_edges", (12, 0, 12, 13))):
        reg.case(_f, *[(lambda w=w: (_v(12), w)) for w in _ws], calls=1,
                 name=f"{_f.__name__.removeprefix('_')}_{_tag}")
    reg.case(_f, *[(lambda n=n, w=w: (_v(n), w)) for n, w in
                   ((12, 3), (10, 3), (0, 0), (1, 0), (2, 1), (16, 15), (11, 11), (12, -1))],
             calls=1, name=f"{_f.__name__.removeprefix('_')}_sizes_and_w")


# ---- nested loops --------------------------------------------------------------------

def _cholesky(A):
    n = A.shape[0]
    L = np.zeros_like(A)
    for i in range(n):
        for j in range(i + 1):
            s = 0.0
            for k in range(j):
                s += L[i, k] * L[j, k]
            if i == j:
                L[i, j] = np.sqrt(A[i, i] - s)
            else:
                L[i, j] = (A[i, j] - s) / L[j, j]
    return L


def _gauss_jordan(A):
    A = A.copy()
    n = A.shape[0]
    for p in range(n):
        A[p] = A[p] / A[p, p]
        for k in range(n):
            if k != p:
                A[k] = A[k] - A[k, p] * A[p]
    return A


def _lower_upper(A):
    B = np.zeros_like(A)
    n = A.shape[0]
    for i in range(n):
        for j in range(n):
            if j < i:
                B[i, j] = A[i, j]
            elif j == i:
                B[i, j] = 1.0
            else:
                B[i, j] = -A[j, i]
    return B


def _diag_reads_lower(A):
    """The diagonal way reads what the ``j < i`` way wrote on this row."""
    B = A.copy()
    n = A.shape[0]
    for i in range(n):
        for j in range(i + 1):
            if j == i:
                B[i, j] = B[i, :i].sum() if i else 1.0
            else:
                B[i, j] = B[i, j] * 0.5
    return B


def _upper_tri_ge(A):
    s = 0.0
    n = A.shape[0]
    for i in range(n):
        for j in range(n):
            if j >= i + 2:
                s = s + A[i, j]
    return s


def _inner_index_vs_outer_end(A):
    B = np.zeros_like(A)
    n = A.shape[0]
    for i in range(n):
        for j in range(i, n):
            if j == n - 1:
                B[i, j] = A[i, j] * 10
            else:
                B[i, j] = A[i, j] + B[i, j - 1] if j > i else A[i, j]
    return B


def _stepped_inner(A):
    B = np.zeros_like(A)
    n = A.shape[0]
    for i in range(n):
        for j in range(0, n, 2):
            if j == i:
                B[i, j] = -1.0
            else:
                B[i, j] = A[i, j]
    return B


def _three_deep(A):
    n = A.shape[0]
    C = np.zeros_like(A)
    for i in range(n):
        for j in range(n):
            for k in range(3):
                if k == 0 and j == i:
                    C[i, j] = C[i, j] + A[i, j] * 2
                else:
                    C[i, j] = C[i, j] + A[i, k % n] if n else C[i, j]
    return C


@reg.scenario
def s_cholesky(r):
    """The nested split of Cholesky at sizes past the unroll limit, static (3), then 2,
    then symbolic (4: the loop nodes refused, "reads a triangular loop's index and a
    size that is a symbol", and the loops unrolled), then 0, 1 and 3 again. The unroll
    limit is 2 here, its least: at the default 8 the same path took sizes 10 and 12,
    and the symbolic trace of 12 unrolled 1,327 ops (1.2-1.5 s of CPU a backend, CI
    time); at 4 it unrolls 87."""
    r.patch(dynamo.config, "loop_unroll_limit", 2)
    f = r.compile(_cholesky)
    for n in SQUARES:
        r.call(f, _m(n))


for _f in (_gauss_jordan, _lower_upper, _diag_reads_lower, _upper_tri_ge,
           _inner_index_vs_outer_end, _stepped_inner, _three_deep):
    _sized(_f, STATIC, make=lambda n: (_m(n),))


def _singular_pivot(A):
    """Gauss-Jordan on a matrix with a zero pivot at row 3 (divide by zero warnings)."""
    return _gauss_jordan(A)


def _zero_pivot(n):
    A = _m(n)
    if n > 3:
        A[3] = 0.0
    return (A,)


_sized(_singular_pivot, STATIC, make=_zero_pivot)


def _cholesky_not_spd(n):
    A = _m(n)
    if n > 2:
        A[2, 2] = -5.0
    return (A,)


reg.case(_cholesky, *[(lambda n=n: _cholesky_not_spd(n)) for n in STATIC], calls=1,
         name="cholesky_not_spd")
