"""Round 37, triangular inner loops (``dynamo/translator/triangular_loops.py``) and the
Python float accumulator they carry as ``np.float64`` (``promoted_floats.py``): rows of
no inner trip (``range(i)`` at ``i = 0``, ``range(i + 1, n)`` at the last row), the
accumulator's type observed after the loop (``type(s)``, ``repr``, appended, returned,
``s is z``), overflow, division by zero, NaN and inf, int, bool, float32 (NEP 50: a
Python float added to an ``np.float32`` stays float32) and complex arrays, and the inner
index read after the loop. Sizes change between calls (9 rows and more: the outer loop
is a node).

    >>> def _dot_rows(L, x):
    ...     n = L.shape[0]
    ...     out = np.zeros(n)
    ...     for i in range(n):
    ...         s = 0.0
    ...         for j in range(i):          # no trip at i = 0: s stays a Python float
    ...             s = s + L[i, j] * x[j]
    ...         out[i] = s
    ...     return out
"""

import math

import numpy as np
from hostile_check import Programs

reg = Programs("round37_triangles")
NAN, INF = math.nan, math.inf
ZERO = 0.0


# ---------------------------------------------------------------- the traced functions
def _dot_rows(L, x):
    n = L.shape[0]
    out = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        out[i] = s
    return out


def _sub_rows(L, x):
    n = L.shape[0]
    out = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i + 1, n):          # no trip at the last row
            s = s - L[i, j] * x[j]
        out[i] = s
    return out


def _neg_zero_start(L, x):             # -0.0 kept where no trip runs
    n = L.shape[0]
    out = np.ones(n)
    for i in range(n):
        s = -0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        out[i] = s
    return out


def _product_rows(L, x):               # 0 * inf = nan, 1.0 kept on row 0
    n = L.shape[0]
    out = np.zeros(n)
    for i in range(n):
        s = 1.0
        for j in range(i):
            s = s * L[i, j]
        out[i] = s
    return out


def _square_rows(L, x):                # overflow to inf (a warning per trip in eager)
    n = L.shape[0]
    out = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * L[i, j]
        out[i] = s
    return out


def _quotient_rows(L, x):              # division by zero (inf, nan, warnings)
    n = L.shape[0]
    out = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] / x[j]
        out[i] = s
    return out


def _divided_acc(L, x):                # the accumulator itself divided
    n = L.shape[0]
    out = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s / x[j] + L[i, j]
        out[i] = s
    return out


def _type_seen(L, x):
    n = L.shape[0]
    out = np.zeros(n)
    kinds = []
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        out[i] = s
        kinds.append(type(s).__name__)
    return out, kinds


def _repr_seen(L, x):
    n = L.shape[0]
    texts = []
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        texts.append(repr(s))
    return texts


def _appended(L, x):
    n = L.shape[0]
    vals = []
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        vals.append(s)
    return vals


def _returned_last(L, x):              # the last row's accumulator, returned
    n = L.shape[0]
    s = 0.0
    for i in range(n):
        s = 0.0
        for j in range(i + 1, n):
            s = s + L[i, j] * x[j]
    return s


def _is_zero(L, x):                    # `s is ZERO`: the float object itself
    n = L.shape[0]
    out = np.zeros(n)
    same = []
    for i in range(n):
        s = ZERO
        for j in range(i):
            s = s + L[i, j] * x[j]
        out[i] = s
        same.append(s is ZERO)
    return out, same


def _index_after(L, x):                # the inner index after the loop (stale at i = 0)
    n = L.shape[0]
    out = np.zeros(n)
    j = -7
    seen = []
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        out[i] = s
        seen.append(j)
    return out, seen


def _index_stored(L, x):               # the inner index stored into an array
    n = L.shape[0]
    out = np.zeros(n)
    j = 0
    for i in range(n):
        for j in range(i):
            L[i, j] = L[i, j] * 0.5
        out[i] = j
    return out, L


def _into_float32(L, x):
    n = L.shape[0]
    out = np.zeros(n, dtype=np.float32)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        out[i] = s
    return out


def _into_int(L, x):
    n = L.shape[0]
    out = np.zeros(n, dtype=np.int64)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        out[i] = s
    return out


def _into_complex(L, x):
    n = L.shape[0]
    out = np.zeros(n, dtype=complex)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        out[i] = s
    return out


def _forward_sub(L, b):                # x read in the inner body, written by the outer
    n = L.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        x[i] = (b[i] - s) / L[i, i]
    return x


def _two_accs(L, x):
    n = L.shape[0]
    out = np.zeros((n, 2))
    for i in range(n):
        s = 0.0
        t = 0.0
        for j in range(i):
            s = s + L[i, j]
            t = t - x[j] * L[i, j]
        out[i, 0] = s
        out[i, 1] = t
    return out


def _down_rows(L, x):                  # range(i, -1, -1): i + 1 trips
    n = L.shape[0]
    out = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i, -1, -1):
            s = s * x[j] + L[i, j]
        out[i] = s
    return out


def _from_one(L, x):                   # range(1, i): no trip at i = 0 and i = 1
    n = L.shape[0]
    out = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(1, i):
            s = s + L[i, j] - L[i, j - 1]
        out[i] = s
    return out


def _int_acc(L, x):                    # an int accumulator (no promotion)
    n = L.shape[0]
    out = np.zeros(n, dtype=L.dtype)
    for i in range(n):
        s = 0
        for j in range(i):
            s = s + L[i, j] * 3
        out[i] = s
    return out


def _acc_read_twice(L, x):             # read again after its store
    n = L.shape[0]
    out = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        out[i] = s
        out[i] = out[i] + s
    return out


def _acc_carried_over(L, x):           # s not reset per row: carried over the outer loop
    n = L.shape[0]
    out = np.zeros(n)
    s = 0.0
    for i in range(n):
        for j in range(i):
            s = s + L[i, j] * x[j]
        out[i] = s
    return out


def _reflected(L, x):                  # L[i, j] * x[j] + s: np.float64.__add__ first
    n = L.shape[0]
    out = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = L[i, j] * x[j] + s
        out[i] = s
    return out


def _in_place(L, x):                   # x read by later rows' inner loops, written here
    n = L.shape[0]
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        x[i] = s
    return x


def _numpy_start(L, x):                # np.float32 / np.float64 starts: no promotion
    n = L.shape[0]
    out = np.zeros((2, n))
    for i in range(n):
        s = np.float32(0.0)
        t = np.float64(-0.0)
        for j in range(i):
            s = s + L[i, j]
            t = t + x[j]
        out[0, i] = s
        out[1, i] = t
    return out


def _three_levels(L, x):               # range(i) in range(i) in range(n)
    n = L.shape[0]
    out = np.zeros((n, n))
    for i in range(n):
        for j in range(i):
            s = 0.0
            for k in range(j):
                s = s + L[j, k] * x[k]
            out[i, j] = s
    return out


FNS = (_dot_rows, _sub_rows, _neg_zero_start, _product_rows, _square_rows, _quotient_rows,
       _divided_acc, _type_seen, _repr_seen, _appended, _returned_last, _is_zero,
       _index_after, _index_stored, _into_float32, _into_int, _into_complex, _forward_sub,
       _two_accs, _down_rows, _from_one, _int_acc, _acc_read_twice, _acc_carried_over,
       _reflected, _in_place, _numpy_start, _three_levels)


def _pair(n, seed, dtype=np.float64, special=()):
    rng = np.random.default_rng(seed)
    L = rng.choice([-2.0, -0.5, 0.5, 1.0, 1.5, 3.0], size=(n, n))
    x = rng.choice([-1.0, 0.25, 0.5, 2.0], size=n)
    for (i, j), v in special:
        if j is None:
            x[i] = v
        else:
            L[i, j] = v
    return L.astype(dtype), x.astype(dtype)


# one shape and dtype per set (a second shape or dtype is a second compile, whose
# symbolic sizes keep the inner loop unrolled: seconds, CI time); "sizes" changes them
SETS = {
    "specials": [_pair(9, 4, special=[((3, 1), NAN), ((5, None), 0.0)]),
                 _pair(9, 5, special=[((4, 2), 1e200), ((6, 3), -INF), ((2, None), -0.0)]),
                 _pair(9, 6, special=[((1, 0), 0.0), ((0, None), 0.0)])],
    "f32": [_pair(9, 7, np.float32), _pair(9, 9, np.float32, [((5, 2), 3e38)])],
    "ints": [_pair(9, 10, np.int64), _pair(9, 11, np.int64, [((4, 2), 2**62)])],
    "int8": [_pair(9, 12, np.int8), _pair(9, 13, np.int8, [((4, 2), 127)])],
    "sizes": [_pair(9, 1), _pair(10, 2)],
}
# the functions whose inner loop is a node (the rest stay unrolled: slower)
NODES = (_dot_rows, _sub_rows, _neg_zero_start, _product_rows, _square_rows,
         _quotient_rows, _down_rows, _from_one, _reflected, _in_place)
WANT = {_int_acc: ("int8",), _into_float32: ("f32",), _dot_rows: tuple(SETS),
        _from_one: ("specials",), _square_rows: ("specials", "int8"),
        _in_place: ("specials", "ints")}

for _fn in FNS:
    for _sname in WANT.get(_fn, ("specials", "f32") if _fn in NODES else ("specials",)):
        reg.case(_fn, *SETS[_sname], calls=1, name=f"{_fn.__name__[1:]}_{_sname}")


# ---------------------------------------------------------------- mixed and odd inputs
reg.case(_dot_rows, (_pair(9, 20)[0].astype(np.float32), _pair(9, 20)[1]),
         (_pair(9, 21)[0], _pair(9, 21)[1].astype(np.float32)), calls=1,
         name="dot_rows_mixed32")
reg.case(_dot_rows, _pair(9, 33, np.float16), _pair(9, 34, np.float16, [((4, 1), 6e4)]),
         calls=1, name="dot_rows_f16")
reg.case(_dot_rows, (_pair(9, 22)[0] > 0, _pair(9, 22)[1]),
         (_pair(9, 23)[0] > 0, _pair(9, 23)[1]), calls=1, name="dot_rows_bools")
reg.case(_dot_rows, (_pair(9, 24)[0] + 1j, _pair(9, 24)[1]),
         (_pair(9, 25)[0] - 1j, _pair(9, 25)[1]), calls=1, name="dot_rows_complex")
reg.case(_dot_rows, _pair(1, 26), _pair(0, 27), _pair(2, 29), calls=1,
         name="dot_rows_tiny")
reg.case(_type_seen, (_pair(9, 30)[0].astype(np.float32), _pair(9, 30)[1]),
         (_pair(9, 31)[0].astype(np.float32), _pair(9, 31)[1]), calls=1,
         name="type_seen_mixed")
reg.case(_dot_rows, (np.full((9, 9), 1e300), np.full(9, 1e10)),
         (np.full((9, 9), -1e300), np.full(9, 1e10)), calls=1, name="dot_rows_overflow")


def _s_errstate_raise(r):
    """The accumulator overflows under errstate(over="raise"), caught by the user."""
    def f(L, x):
        n = L.shape[0]
        out = np.zeros(n)
        try:
            with np.errstate(over="raise", invalid="raise"):
                for i in range(n):
                    s = 0.0
                    for j in range(i):
                        s = s + L[i, j] * x[j]
                    out[i] = s
        except FloatingPointError as e:
            return out, str(e)
        return out, ""
    g = r.compile(f)
    r.call(g, *_pair(9, 40))
    r.call(g, np.full((9, 9), 1e300), np.full(9, 1e300))
    r.call(g, *_pair(9, 41, special=[((3, 1), INF), ((1, None), 0.0)]))


def _s_global_zero_rebound(r):
    """The start value is a module global rebound between calls (0.0, then -0.0, 2.5)."""
    global START

    def f(L, x):
        n = L.shape[0]
        out = np.zeros(n)
        for i in range(n):
            s = START
            for j in range(i):
                s = s + L[i, j] * x[j]
            out[i] = s
        return out
    g = r.compile(f)
    for v in (0.0, -0.0, 2.5, 0.0):
        START = v
        r.call(g, *_pair(9, 42))


START = 0.0
reg._add("errstate_raise", _s_errstate_raise, "")
reg._add("global_zero_rebound", _s_global_zero_rebound, "")


# ---------------------------------------------------------------- more: the accumulator
# read right after the loop (promoted_exits), stored into an object array, an ndarray
# subclass whose items are Python floats
def _exit_divided(L, b):               # forward substitution; a zero diagonal divides
    n = L.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        x[i] = (b[i] - s) / L[i, i]
    return x


def _exit_sqrt(A, b):                  # Cholesky by hand: sqrt of a negative is nan
    n = A.shape[0]
    L = np.zeros_like(A)
    for j in range(n):
        s = 0.0
        for k in range(j):
            s = s + L[j, k] * L[j, k]
        L[j, j] = np.sqrt(A[j, j] - s)
    return L


def _exit_divisor(L, b):               # s as the divisor (0.0 on row 0)
    n = L.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j]
        x[i] = b[i] / s
    return x


def _exit_branch(L, b):                # each path reads s once
    n = L.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        if i % 2:
            x[i] = b[i] - s
        else:
            x[i] = (b[i] - s) / L[i, i]
    return x


def _exit_compared(L, b):              # s > 0: a bool or an np.bool_
    n = L.shape[0]
    x = np.zeros(n)
    signs = []
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        signs.append(s > 0)
        x[i] = b[i]
    return x, signs


def _exit_python_scale(L, b):          # s * 0.5: a float times a float on row 0
    n = L.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * b[j]
        x[i] = s * 0.5
    return x


def _exit_gauss_seidel(A, b):          # a second inner loop carries s on
    n = A.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + A[i, j] * x[j]
        for j in range(i + 1, n):
            s = s + A[i, j] * b[j]
        x[i] = (b[i] - s) / A[i, i]
    return x


def _into_objects(L, x):               # stored into an object array before the add
    n = L.shape[0]
    out = np.zeros(n)
    seen = np.empty((n, n), dtype=object)
    for i in range(n):
        s = 0.0
        for j in range(i):
            seen[i, j] = s
            s = s + L[i, j] * x[j]
        out[i] = s
    return out, [type(v).__name__ for v in seen.ravel()]


class PyItems(np.ndarray):             # items read as Python floats
    def __getitem__(self, key):
        v = super().__getitem__(key)
        return float(v) if isinstance(v, np.floating) else v


def _subclass_items(L, b):
    return _exit_divided(L, b)


EXITS = (_exit_divided, _exit_sqrt, _exit_divisor, _exit_branch, _exit_compared,
         _exit_python_scale, _exit_gauss_seidel, _into_objects)
_Z = _pair(9, 50)
_Z[0][3, 3] = 0.0
_NEG = (np.eye(9) * -1.0 + 0.1, _pair(9, 51)[1])
for _fn in EXITS:
    reg.case(_fn, _pair(9, 52), _Z, _NEG, calls=1)
reg.case(_subclass_items, lambda: (_Z[0].view(PyItems), _Z[1].view(PyItems)),
         lambda: (_pair(9, 53)[0].view(PyItems), _pair(9, 53)[1]), calls=1)
