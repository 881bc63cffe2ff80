"""Round 38, flow continued (the category of ``prog_round38_flow.py``): triangular
solves as users write them, whose promoted float accumulator is read right after the
inner loop (``dynamo/translator/promoted_exits.py``, ``promoted_floats.py``): forward
and back substitution ``x[i] = (b[i] - s) / L[i, i]``, Cholesky and LDL by hand,
Gauss-Seidel sweeps; attacked with float32/int/complex/bool operands, zero and
negative pivots (warnings, ``errstate`` raising, caught), the accumulator read inside
the loop, after the outer loop, started as ``0``, ``np.float32(0)`` or ``-0.0``,
rebound in a branch, sizes 0 and 1, transposed, strided and Fortran-ordered ``L``,
``b`` a view of ``L`` solved in place.

    >>> def _forward(L, b):
    ...     n = L.shape[0]
    ...     x = np.zeros(n)
    ...     for i in range(n):
    ...         s = 0.0
    ...         for j in range(i):
    ...             s += L[i, j] * x[j]
    ...         x[i] = (b[i] - s) / L[i, i]
    ...     return x
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round38_flow")


def _system(n, seed, dtype=np.float64, zero_pivot=None, negative=None):
    rng = np.random.default_rng(seed)
    L = np.tril(rng.choice([-1.0, -0.5, 0.5, 1.0, 2.0], size=(n, n)))
    L[np.arange(n), np.arange(n)] = rng.choice([1.0, 2.0, 4.0], size=n)
    if zero_pivot is not None and n:
        L[zero_pivot, zero_pivot] = 0.0
    if negative is not None and n:
        L[negative, negative] = -4.0
    b = rng.choice([-2.0, 1.0, 3.0, 0.5], size=n)
    return L.astype(dtype), b.astype(dtype)


def _spd(n, seed, bad=False):
    rng = np.random.default_rng(seed)
    m = rng.choice([-1.0, 0.5, 1.0, 2.0], size=(n, n))
    A = m @ m.T + n * np.eye(n)
    if bad and n > 2:
        A[2, 2] = -50.0
    return A, rng.choice([1.0, -1.0, 2.0], size=n)


# ---------------------------------------------------------------- the traced functions
def _forward(L, b):
    n = L.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s += L[i, j] * x[j]
        x[i] = (b[i] - s) / L[i, i]
    return x


def _backward(U, b):
    n = U.shape[0]
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        s = 0.0
        for j in range(i + 1, n):
            s = s + U[i, j] * x[j]
        x[i] = (b[i] - s) / U[i, i]
    return x


def _forward_int_start(L, b):          # s = 0: an int on row 0
    n = L.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = 0
        for j in range(i):
            s = s + L[i, j] * x[j]
        x[i] = (b[i] - s) / L[i, i]
    return x


def _forward_f32_start(L, b):          # s = np.float32(0): float32 sums
    n = L.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = np.float32(0.0)
        for j in range(i):
            s = s + L[i, j] * x[j]
        x[i] = (b[i] - s) / L[i, i]
    return x


def _forward_neg_zero(L, b):           # -0.0 - -0.0 and b[i] = 0
    n = L.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = -0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        x[i] = (b[i] - s) / L[i, i]
    return x


def _forward_into_f32(L, b):           # x float32: the store rounds
    n = L.shape[0]
    x = np.zeros(n, dtype=np.float32)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        x[i] = (b[i] - s) / L[i, i]
    return x


def _forward_into_int(L, b):
    n = L.shape[0]
    x = np.zeros(n, dtype=np.int64)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        x[i] = b[i] - s
    return x


def _forward_reversed_operands(L, b):  # s - b[i]: float.__sub__ of an np.float64
    n = L.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        x[i] = -(s - b[i]) / L[i, i]
    return x


def _forward_pivot_first(L, b):        # the pivot read into a local before the loop
    n = L.shape[0]
    x = np.zeros(n)
    for i in range(n):
        d = L[i, i]
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        x[i] = (b[i] - s) / d
    return x


def _forward_python_pivot(L, b):       # the pivot as a Python float
    n = L.shape[0]
    x = np.zeros(n)
    for i in range(n):
        d = float(L[i, i])
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        x[i] = (b[i] - s) / d
    return x


def _forward_read_inside(L, b):        # the running sum stored on every trip
    n = L.shape[0]
    x = np.zeros(n)
    partial = np.zeros((n, n))
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
            partial[i, j] = s
        x[i] = (b[i] - s) / L[i, i]
    return x, partial


def _forward_kept(L, b):               # s read after the outer loop (the last row's)
    n = L.shape[0]
    x = np.zeros(n)
    s = 0.0
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        x[i] = (b[i] - s) / L[i, i]
    return x, s, type(s).__name__


def _backward_kept(U, b):              # the last row (i = 0) has trips; row n-1 none
    n = U.shape[0]
    x = np.zeros(n)
    s = 0.0
    for i in range(n - 1, -1, -1):
        s = 0.0
        for j in range(i + 1, n):
            s = s + U[i, j] * x[j]
        x[i] = (b[i] - s) / U[i, i]
    return x, repr(s)


def _forward_rebound(L, b):            # s rebound in a branch on the row index
    n = L.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        if i == 3:
            s = 0.5
        x[i] = (b[i] - s) / L[i, i]
    return x


def _forward_data_branch(L, b):        # a branch on the data after the loop
    n = L.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        if L[i, i] != 0:
            x[i] = (b[i] - s) / L[i, i]
        else:
            x[i] = b[i] - s
    return x


def _forward_unit(L, b, unit):         # a branch on an argument, each path reads s once
    n = L.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        if unit:
            x[i] = b[i] - s
        else:
            x[i] = (b[i] - s) / L[i, i]
    return x


def _forward_inplace(L, b):            # b overwritten by x (b may be a view of L)
    n = L.shape[0]
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * b[j]
        b[i] = (b[i] - s) / L[i, i]
    return b


def _forward_errstate(L, b):
    n = L.shape[0]
    x = np.zeros(n)
    try:
        with np.errstate(divide="raise", invalid="raise"):
            for i in range(n):
                s = 0.0
                for j in range(i):
                    s = s + L[i, j] * x[j]
                x[i] = (b[i] - s) / L[i, i]
    except FloatingPointError as e:
        return x, str(e)
    return x, ""


def _forward_errstate_ignore(L, b):
    n = L.shape[0]
    x = np.zeros(n)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(n):
            s = 0.0
            for j in range(i):
                s = s + L[i, j] * x[j]
            x[i] = (b[i] - s) / L[i, i]
    return x


def _cholesky(A, b):
    n = A.shape[0]
    L = np.zeros_like(A)
    for j in range(n):
        s = 0.0
        for k in range(j):
            s = s + L[j, k] * L[j, k]
        L[j, j] = np.sqrt(A[j, j] - s)
        for i in range(j + 1, n):
            t = 0.0
            for k in range(j):
                t = t + L[i, k] * L[j, k]
            L[i, j] = (A[i, j] - t) / L[j, j]
    return L


def _cholesky_inplace(A, b):           # A overwritten by its factor
    n = A.shape[0]
    for j in range(n):
        s = 0.0
        for k in range(j):
            s = s + A[j, k] * A[j, k]
        A[j, j] = np.sqrt(A[j, j] - s)
        for i in range(j + 1, n):
            t = 0.0
            for k in range(j):
                t = t + A[i, k] * A[j, k]
            A[i, j] = (A[i, j] - t) / A[j, j]
    return np.tril(A)


def _ldl_diag(A, b):
    n = A.shape[0]
    L = np.eye(n)
    d = np.zeros(n)
    for j in range(n):
        s = 0.0
        for k in range(j):
            s = s + L[j, k] * L[j, k] * d[k]
        d[j] = A[j, j] - s
        for i in range(j + 1, n):
            t = 0.0
            for k in range(j):
                t = t + L[i, k] * L[j, k] * d[k]
            L[i, j] = (A[i, j] - t) / d[j]
    return L, d


def _gauss_seidel(A, b):
    n = A.shape[0]
    x = np.zeros(n)
    for _ in range(3):
        for i in range(n):
            s = 0.0
            for j in range(i):
                s = s + A[i, j] * x[j]
            for j in range(i + 1, n):
                s += A[i, j] * x[j]
            x[i] = (b[i] - s) / A[i, i]
    return x


def _gauss_seidel_residual(A, b):      # the accumulator also read after both loops
    n = A.shape[0]
    x = np.zeros(n)
    res = []
    for _ in range(2):
        for i in range(n):
            s = 0.0
            for j in range(i):
                s = s + A[i, j] * x[j]
            for j in range(i + 1, n):
                s = s + A[i, j] * x[j]
            x[i] = (b[i] - s) / A[i, i]
            res.append(s)
    return x, res


def _two_rhs(L, b):                    # two accumulators, both read at the exit
    n = L.shape[0]
    x = np.zeros((n, 2))
    for i in range(n):
        s = 0.0
        t = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j, 0]
            t = t + L[i, j] * x[j, 1]
        x[i, 0] = (b[i] - s) / L[i, i]
        x[i, 1] = (-b[i] - t) / L[i, i]
    return x


def _forward_scaled_exit(L, b):        # s * 2.0 at the exit: a float times a float
    n = L.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        x[i] = (b[i] - s * 2.0) / L[i, i]
    return x


def _forward_exit_divides_python(L, b):   # s / 0.0 on a no-trip row raises in Python
    n = L.shape[0]
    x = np.zeros(n)
    try:
        for i in range(n):
            s = 0.0
            for j in range(i):
                s = s + L[i, j] * x[j]
            x[i] = b[i] - s / 0.0
    except ZeroDivisionError as e:
        return x, str(e)
    return x, ""


# ---------------------------------------------------------------- the input sets
def _sets(dtype=np.float64):
    return (_system(9, 1, dtype), _system(9, 2, dtype, zero_pivot=4),
            _system(9, 3, dtype, negative=0))


for _fn in (_forward, _backward, _forward_int_start, _forward_f32_start,
            _forward_neg_zero, _forward_into_f32, _forward_into_int,
            _forward_reversed_operands, _forward_pivot_first, _forward_python_pivot,
            _forward_read_inside, _forward_kept, _backward_kept, _forward_rebound,
            _forward_data_branch, _forward_inplace, _forward_errstate,
            _forward_errstate_ignore, _two_rhs, _forward_scaled_exit,
            _forward_exit_divides_python):
    reg.case(_fn, *_sets(), calls=1, name=f"solve{_fn.__name__}")

for _fn in (_forward, _forward_kept):
    reg.case(_fn, *_sets(np.float32), calls=1, name=f"solve{_fn.__name__}_f32")
    reg.case(_fn, *_sets(np.int64), calls=1, name=f"solve{_fn.__name__}_int")
    reg.case(_fn, *_sets(np.complex128), calls=1, name=f"solve{_fn.__name__}_complex")
reg.case(_forward, (_system(9, 4)[0], _system(9, 4)[1].astype(np.float32)),
         (_system(9, 5)[0].astype(np.float32), _system(9, 5)[1]), calls=1,
         name="solve_forward_mixed32")
reg.case(_forward, (_system(9, 6)[0] != 0, _system(9, 6)[1]), calls=2,
         name="solve_forward_bool_matrix")
reg.case(_forward, _system(0, 7), _system(1, 8), _system(2, 9), _system(9, 10),
         calls=1, name="solve_forward_sizes")
reg.case(_backward, _system(1, 8), _system(0, 7), _system(9, 10), calls=1,
         name="solve_backward_sizes")
reg.case(_backward, lambda: (np.ascontiguousarray(_system(9, 11)[0].T),
                             _system(9, 11)[1]),
         lambda: (_system(9, 12)[0].T, _system(9, 12)[1]), calls=1,
         name="solve_backward_transposed")
reg.case(_forward, lambda: (np.asfortranarray(_system(9, 13)[0]), _system(9, 13)[1]),
         lambda: (_system(18, 14)[0][::2, ::2], _system(18, 14)[1][::2]), calls=1,
         name="solve_forward_strided")
reg.case(_forward_unit, (*_system(9, 15), True), (*_system(9, 15), False), calls=1,
         name="solve_forward_unit")


def _aliased():
    L, _ = _system(9, 16)
    L[:, 0] = np.arange(9.0) + 1.0
    return (L, L[:, 0])             # b is L's first column, written by the solve


reg.case(_forward_inplace, _aliased, lambda: _system(9, 17), calls=1,
         name="solve_forward_inplace_aliased")
reg.case(_forward, _aliased, calls=2, name="solve_forward_aliased_column")
for _fn in (_cholesky, _cholesky_inplace, _ldl_diag, _gauss_seidel,
            _gauss_seidel_residual):
    reg.case(_fn, _spd(9, 20), _spd(9, 21, bad=True), calls=1, name=f"solve{_fn.__name__}")
reg.case(_cholesky, _spd(1, 22), _spd(0, 23), _spd(2, 24), calls=1,
         name="solve_cholesky_sizes")


# ---------------------------------------------------------------- more: exits through an
# in-place operator on a pivot local, a global error state, warnings as errors, x and b
# one array
def _forward_inplace_exit(L, b):       # t = b[i]; t -= s: an np.float64 local
    n = L.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        t = b[i]
        t -= s
        x[i] = t / L[i, i]
    return x


def _forward_warnings_error(L, b):
    import warnings
    n = L.shape[0]
    x = np.zeros(n)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        try:
            for i in range(n):
                s = 0.0
                for j in range(i):
                    s = s + L[i, j] * x[j]
                x[i] = (b[i] - s) / L[i, i]
        except RuntimeWarning as e:
            return x, str(e)
    return x, ""


def _gauss_seidel_into(A, b, x):       # x may be b itself
    n = A.shape[0]
    for _ in range(2):
        for i in range(n):
            s = 0.0
            for j in range(i):
                s = s + A[i, j] * x[j]
            for j in range(i + 1, n):
                s = s + A[i, j] * x[j]
            x[i] = (b[i] - s) / A[i, i]
    return x


def _upper_exit_python_zero(U, b):     # s / 0.0: the last row runs no trip, and raises
    n = U.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i + 1, n):
            s = s + U[i, j] * b[j]
        x[i] = b[i] - s / 0.0
    return x


def _upper_exit_python_zero_caught(U, b):
    n = U.shape[0]
    x = np.zeros(n)
    try:
        for i in range(n):
            s = 0.0
            for j in range(i + 1, n):
                s = s + U[i, j] * b[j]
            x[i] = b[i] - s / 0.0
    except ZeroDivisionError as e:
        return x, str(e)
    return x, ""


def _upper_exit_python_power(U, b):    # s ** -1: a float raises, an np.float64 warns
    n = U.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i + 1, n):
            s = s + U[i, j] * b[j]
        x[i] = b[i] + s ** -1
    return x


def _s_global_seterr(r):
    """``np.seterr(divide="raise")`` set by the caller between calls (a zero pivot then
    raises at row 4, after rows 0-3 were solved), then ``all="ignore"``."""
    g = r.compile(_forward)
    old = np.seterr()
    try:
        r.call(g, *_system(9, 30, zero_pivot=4))
        np.seterr(divide="raise", invalid="raise")
        r.call(g, *_system(9, 30, zero_pivot=4))
        r.call(g, *_system(9, 31))
        np.seterr(all="ignore")
        r.call(g, *_system(9, 30, zero_pivot=4))
    finally:
        np.seterr(**old)


def _one_array():
    A, b = _spd(9, 32)
    return (A, b, b)


reg.case(_forward_inplace_exit, *_sets(), calls=1, name="solve_forward_inplace_exit")
reg.case(_forward_warnings_error, *_sets(), calls=1, name="solve_forward_warnings_error")
reg.case(_gauss_seidel_into, _one_array, lambda: (*_spd(9, 33), np.zeros(9)), calls=1,
         name="solve_gauss_seidel_into_b")
reg._add("solve_global_seterr", _s_global_seterr, "")
for _fn in (_upper_exit_python_zero, _upper_exit_python_zero_caught,
            _upper_exit_python_power):
    reg.case(_fn, lambda: (np.ascontiguousarray(_system(9, 34)[0].T), _system(9, 34)[1]),
             calls=2, name=f"solve{_fn.__name__}")
