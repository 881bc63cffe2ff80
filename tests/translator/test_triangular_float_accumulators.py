"""A Python float accumulator in a triangular inner loop (``s = 0.0``; ``s = s + L[i, j]
* x[j]``: an np.float64 after one trip, a float after none), carried as np.float64 by
the inner node where nothing can tell the two apart (dynamo/translator/
promoted_floats.py): eager's results and one nested node; where the type could show
(read after the store, stored into a float32 array, an operand that is a Python
float), the inner loop stays unrolled with eager's results, while its twin nests.
Read after the loop as users write it (``x[i] = (b[i] - s) / L[i, i]``,
dynamo/translator/promoted_exits.py; the corpus has forward and back substitution,
Cholesky-Banachiewicz, LU and Gauss-Seidel so; or carried into a second inner loop): a
divisor that is 0 where the loop ran no trip warns as eager warns; a float that meets a
Python float, is read twice or flows into a returned float stays unrolled.
"""

from __future__ import annotations

import numpy as np
import pytest
from corpus_nested_loops import PROGRAMS
from harness import check, outcome, same_outcome
from test_nested_loop_nodes import nested_nodes

import dynamo

BACKENDS = ("eager", "numpy")
triangular_lower = {p[0]: p[1] for p in PROGRAMS}["triangular_lower"]
forward_sub_floats = {p[0]: p[1] for p in PROGRAMS}["forward_sub_floats"]


def upper_dots(U, x):
    n = U.shape[0]
    out = np.zeros(n)
    for i in range(n):
        acc = 0.0
        for j in range(i + 1, n):      # no trip at the last row
            acc -= U[i, j] * x[j]
        out[i] = acc
    return out


def type_read_after(L, x):
    # s read again after the store: a float at i = 0, np.float64 after
    n = L.shape[0]
    out = np.zeros(n)
    kinds = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        out[i] = s
        kinds[i] = isinstance(s, np.generic)
    return out, kinds


def into_float32(L, x):
    n = L.shape[0]
    out = np.zeros(n, dtype=np.float32)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        out[i] = s
    return out


def python_float_operand(L, x):
    n = L.shape[0]
    out = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s * 0.5 + L[i, j] * x[j]
        out[i] = s
    return out


def _args(n, seed=0):
    rng = np.random.default_rng(seed)
    return rng.random((n, n)), rng.random(n)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [triangular_lower, upper_dots])
def test_float_accumulator_nests(fn, backend):
    """Eager's results at three sizes (each a fresh compile), one nested node."""
    for n in (10, 13, 16):
        dynamo.reset()
        check(fn, *_args(n, seed=n), backend=backend, graphs=1, breaks=0)
        assert nested_nodes(fn, _args(n), backend) == 1


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [type_read_after, into_float32, python_float_operand])
def test_float_whose_type_could_show_stays_unrolled(fn, backend):
    """Where float and np.float64 could differ, eager's results and no nested node;
    the same loop stored into a float64 array and then dead nests."""
    check(fn, *_args(10), backend=backend)
    assert nested_nodes(fn, _args(10), backend) == 0
    assert nested_nodes(triangular_lower, _args(10), backend) == 1


def solve_flagged(L, b, unit):
    # a branch after the loop that does not read s: each arm reads it as b[i] - s
    n = b.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s += L[i, j] * x[j]
        if unit:
            x[i] = b[i] - s
        else:
            x[i] = (b[i] - s) / L[i, i]
    return x


def divided_by_the_sum(L, b):
    # s is the divisor: 0.0 (a float) at i = 0, where b[0] / 0.0 is NumPy's division
    # (np.float64.__truediv__) in eager too: inf and a RuntimeWarning, no exception
    n = b.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s += L[i, j] * x[j]
        x[i] = b[i] / s
    return x


def python_float_divisor(L, b):
    # 1.0 / s: ZeroDivisionError at i = 0 in eager (two floats), inf for an np.float64
    n = b.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s += L[i, j] * x[j]
        x[i] = 1.0 / s
    return x


def read_twice(L, b):
    n = b.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s += L[i, j] * x[j]
        x[i] = (b[i] - s) / L[i, i]
        b[i] = s                       # (a second read: its first does not decide)
    return x


def summed_into_a_float(L, b):
    # total + s: a float plus a float at i = 0; total is returned
    n = b.shape[0]
    total = 0.0
    for i in range(n):
        s = 0.0
        for j in range(i):
            s += L[i, j] * b[j]
        total = total + s
    return total


def gauss_seidel_split(A, b, x):
    # lower carried through a second inner loop that never reads it; upper = 0.0 between
    n = b.shape[0]
    for sweep in range(2):
        for i in range(n):
            lower = 0.0
            for j in range(i):
                lower += A[i, j] * x[j]
            upper = 0.0
            for j in range(i + 1, n):
                upper += A[i, j] * x[j]
            x[i] = (b[i] - lower - upper) / A[i, i]
    return x


def second_loop_divides(A, b):
    # s carried into a second loop that reads it as 1.0 / s: at i = 0 it is 0.0, a
    # float, and eager raises ZeroDivisionError (an np.float64 would give inf)
    n = b.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s += A[i, j] * b[j]
        for j in range(i + 1, n):
            s = 1.0 / s + A[i, j]
        x[i] = (b[i] - s) / A[i, i]
    return x


def _solve_args(n=10, seed=0):
    L, b = _args(n, seed)
    return np.tril(L) + n * np.eye(n), b


@pytest.mark.parametrize("backend", BACKENDS)
def test_float_read_as_an_operand_after_the_loop(backend):
    """After the loop, ``s`` read as ``b[i] - s`` in either arm of an ``if`` on a flag
    (``solve_flagged``): one nested node and eager's results, also at size 1 (no inner
    trip at all; the corpus has the programs at larger sizes); ``b[i] / s`` with ``s``
    0.0 at ``i = 0`` nests too and gives eager's inf with eager's RuntimeWarning."""
    check(forward_sub_floats, *_solve_args(1), backend=backend, graphs=1, breaks=0)
    check(solve_flagged, *_solve_args(), False, backend=backend, graphs=1, breaks=0)
    assert nested_nodes(solve_flagged, (*_solve_args(), False), backend) == 1
    compiled = dynamo.compile(divided_by_the_sum, backend=backend)
    want = outcome(divided_by_the_sum, _solve_args())
    assert np.isinf(want[0][0]) and want[3], want
    same_outcome(want, outcome(compiled, _solve_args()), "b[i] / s", rtol=0.0)
    with np.errstate(divide="ignore"):
        assert nested_nodes(divided_by_the_sum, _solve_args(), backend) == 1


def test_float_whose_exit_could_show_stays_unrolled():
    """Where the code after the loop could tell a float from an np.float64 (a Python
    float divisor raising ZeroDivisionError, a second read, a float that sums it and is
    returned): eager's results and no nested node; its twin nests."""
    assert nested_nodes(forward_sub_floats, _solve_args(), "numpy") == 1
    for fn in (python_float_divisor, read_twice, summed_into_a_float):
        dynamo.reset()   # (n = 4: unrolled, the trace grows with n * n)
        check(fn, *_solve_args(4), backend="numpy")   # (eager's ZeroDivisionError too)
        if fn is not python_float_divisor:
            assert nested_nodes(fn, _solve_args(4), "numpy") == 0, fn.__name__


def test_float_through_a_second_inner_loop():
    """Carried into a second inner loop (Gauss-Seidel split at the diagonal): it nests
    where that loop does not read it (``lower``) and eager's ZeroDivisionError where
    it reads it as ``1.0 / s`` (the corpus's ``gauss_seidel_sweeps`` reads it as
    ``s + A[i, j] * x[j]`` and nests)."""
    A, b = _solve_args(9)   # (9 rows: a loop of at most 8 trips is unrolled anyway)
    check(gauss_seidel_split, A, b, np.zeros(9), backend="numpy", graphs=1, breaks=0)
    assert nested_nodes(gauss_seidel_split, (A, b, np.zeros(9)), "numpy") > 0
    check(second_loop_divides, *_solve_args(4), backend="numpy")
