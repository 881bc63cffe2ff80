"""A scalar ``where`` written as a choice between NumPy scalars is not indexed with
``[()]`` (``scalar_select.scalar_already``): the chosen operand already is the scalar
the program gets. An edit-distance table's ``min`` of three neighbours paid 60 ns a
trip twice for it, 63 ms in tier 1 against plain NumPy's 45 ms (issue #15;
``scripts/bench_native_symbolic_nested.py``). A 0-d array operand keeps the ``[()]``."""

import numpy as np
from test_numpy_backend import compiled_graph

import dynamo


def cell(C, D, i, j):
    """One cell of the DP table, straight-line (``D[i, j]``: NumPy scalars)."""
    return C[i, j] + min(D[i - 1, j], D[i, j - 1], D[i - 1, j - 1])


def dp_table(C):
    n, m = C.shape
    D = np.zeros((n, m))
    D[0] = np.cumsum(C[0])
    for i in range(1, n):
        D[i, 0] = D[i - 1, 0] + C[i, 0]
        for j in range(1, m):
            D[i, j] = C[i, j] + min(D[i - 1, j], D[i, j - 1], D[i - 1, j - 1])
    return D


def min_with_constant(D, i):
    return max(D[i, 0] * 2.0, 0.0) + min(1.0, D[i, 1] * 2.0)


def min_of_0d(x, y):
    z = x.reshape(())          # a 0-d array operand: its [()] makes the scalar
    return min(z, y[0]) * 2.0


def test_a_choice_of_numpy_scalars_is_not_indexed():
    C, D = np.random.default_rng(0).random((2, 6, 7))
    src = compiled_graph(cell, C, D, 2, 3).__dynamo_source__
    assert " if (" in src and "[()]" not in src, src


def test_min_and_max_with_constants_equal_eager():
    D = np.random.default_rng(1).random((4, 2)) - 0.5
    fn = dynamo.compile(min_with_constant, backend="numpy")
    for i in range(4):
        got, want = fn(D, i), min_with_constant(D, i)
        assert type(got) is type(want)
        np.testing.assert_array_equal(got, want, strict=True)


def test_results_and_types_equal_eager():
    rng = np.random.default_rng(2)
    fn = dynamo.compile(cell, backend="numpy")
    C, D = rng.random((2, 6, 7))
    D[1, 2] = D[2, 2] = np.nan           # NaN neighbours: min keeps what Python's keeps
    D[3, 3] = D[4, 2] = D[3, 2] = -0.0    # ties of -0.0 and 0.0 pick as Python does
    D[4, 3] = 0.0
    for i in range(1, 6):
        for j in range(1, 7):
            got, want = fn(C, D, i, j), cell(C, D, i, j)
            assert type(got) is type(want)
            np.testing.assert_array_equal(got, want, strict=True)
            assert np.signbit(got) == np.signbit(want)


def test_dp_table_equals_plain_numpy():
    fn = dynamo.compile(dp_table, backend="numpy")
    rng = np.random.default_rng(3)
    for shape in ((30, 33), (31, 34), (40, 43)):   # static, then symbolic sizes
        C = rng.random(shape)
        np.testing.assert_array_equal(fn(C), dp_table(C), strict=True)


def test_a_0d_array_operand_keeps_its_index():
    x, y = np.array([0.25]), np.array([0.5, 0.1])
    fn = dynamo.compile(min_of_0d, backend="numpy")
    for a, b in ((x, y), (np.array([0.75]), y)):
        got, want = fn(a, b), min_of_0d(a, b)
        assert type(got) is type(want)
        np.testing.assert_array_equal(got, want, strict=True)
