"""Loops whose body branches on the loop indices (dynamo/translator/index_splits.py,
issue #23): a comparison affine in the trips is decided where it has one value on
every trip, and otherwise splits the loop into consecutive nodes, one per interval
of trips on which it has one value (``if i == j``, ``if j >= i``, ``if i == 0`` /
``if i == n - 1``, ``if t < warmup``, ``if k != p``, and two comparisons: ``if j < i:
... elif j == i:``). Before, each of these was unrolled ("the body
branches on the index") and branchy Cholesky ran as plain Python behind a break.
Conditions that are not affine (``i % 2``) or read data keep that
behaviour.
"""

from __future__ import annotations

import numpy as np
import pytest
from script_modules import load_script

import dynamo

# branchy Cholesky, Gauss-Jordan and the boundary-row stepper are the programs
# scripts/bench_triangular.py times: one copy, so what is timed is what is checked
_bench = load_script("bench_triangular")
branchy_cholesky = _bench.branchy_cholesky
gauss_jordan = _bench.gauss_jordan
boundary_rows = _bench.boundary_stepper


def warmup(x):
    out = np.zeros_like(x)
    acc = x[0] * 0.0
    for t in range(x.shape[0]):
        if t < 7:
            acc = acc + x[t]
            out[t] = acc / (t + 1)
        else:
            out[t] = 0.9 * out[t - 1] + 0.1 * x[t]
    return out


def diagonal_doubled(A):
    n = A.shape[0]
    B = A.copy()
    for i in range(n):
        for j in range(i + 1):
            if j >= i:
                B[i, j] = 2.0 * B[i, j]
            else:
                B[i, j] = -B[i, j]
    return B


def lower_with_unit_diagonal(A):
    n = A.shape[0]
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(n):
            if j < i:
                B[i, j] = A[i, j]
            elif j == i:
                B[i, j] = 1.0
    return B


def odd_rows(A):
    B = np.zeros_like(A)
    for i in range(A.shape[0]):
        if i % 2:
            B[i] = A[i]
    return B


def on_data(x):
    out = np.zeros_like(x)
    for i in range(x.shape[0]):
        if x[i] > 0:
            out[i] = x[i]
    return out


def _spd(n):
    m = np.random.default_rng(n).standard_normal((n, n))
    return m @ m.T + n * np.eye(n)


def _vector(n):
    return np.random.default_rng(n).standard_normal(n)


def _copies(args) -> list:
    return [np.copy(a) if isinstance(a, np.ndarray) else a for a in args]


def _loop_nodes(fn, args, backend="eager") -> tuple[int, int]:
    """(graph breaks, loop nodes in the graphs and their bodies)."""
    e = dynamo.explain(fn, backend=backend)(*_copies(args))
    return e.graph_break_count, sum(str(g).count("ops.fori_loop(") for g in e.graphs)


def _check(fn, args, backend):
    want = fn(*_copies(args))
    dynamo.reset()
    got = dynamo.compile(fn, backend=backend)(*_copies(args))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)   # bit for bit


# (program, arguments at a size, sizes). Segments of 0 trips: Gauss-Jordan's k < p
# and k > p at the outer node's first and last trip, Cholesky's j < i at n = 2 (no
# node: unrolled); of 1 trip: j == i, k == p, boundary rows' i == n - 1 (the split
# point at the end; i == 0 at the start, the unrolled first trip); of 2: the warm-up
# t >= 7 at n = 9; sizes 1 and 2 run the loops unrolled, as before.
SPLIT = [
    ("branchy_cholesky", branchy_cholesky, lambda n: (_spd(n),), (1, 2, 10)),
    ("boundary_rows", boundary_rows, lambda n: (_vector(n), 2), (2, 9, 10)),
    ("warmup", warmup, lambda n: (_vector(n),), (1, 9, 10, 12)),
    ("diagonal_doubled", diagonal_doubled, lambda n: (_vector(n * n).reshape(n, n),),
     (1, 2, 10)),
    ("gauss_jordan", gauss_jordan, lambda n: (_spd(n), _vector(n)), (1, 2, 10)),
    ("lower_with_unit_diagonal", lower_with_unit_diagonal,
     lambda n: (_vector(n * n).reshape(n, n),), (2, 10)),
]


# the numpy backend for every program, the eager one (which runs the graph's ops as
# they are) for two: the translator's side is the same (CI time)
VALUE_CASES = [(*p, "numpy") for p in SPLIT] + \
    [(*p, "eager") for p in SPLIT if p[0] in ("branchy_cholesky", "warmup")]


@pytest.mark.parametrize("name, fn, make, sizes, backend", VALUE_CASES,
                         ids=[f"{p[0]}-{p[4]}" for p in VALUE_CASES])
def test_split_loops_equal_eager(name, fn, make, sizes, backend):
    for n in sizes:
        _check(fn, make(n), backend)


@pytest.mark.parametrize("name, fn, make, sizes", SPLIT, ids=[s[0] for s in SPLIT])
def test_split_loops_are_nodes(name, fn, make, sizes):
    """One graph, no break, loop nodes (the segments) where the loop has more trips
    than ``config.loop_unroll_limit``; before the split, branchy Cholesky broke and
    the others were unrolled."""
    dynamo.reset()
    breaks, nodes = _loop_nodes(fn, make(30))
    assert breaks == 0
    assert nodes >= 2


def test_warmup_segments():
    """``t < 7`` over 12 trips, the first unrolled: a node of trips 1-6 and one of
    trips 7-11, the comparison decided in each (no decision, no guard on it)."""
    dynamo.reset()
    e = dynamo.explain(warmup, backend="eager")(_vector(12))
    text = str(e.graphs[0])
    assert "ops.fori_loop(fori_loop_body, 6," in text
    assert "ops.fori_loop(fori_loop_1_body, 5," in text


@pytest.mark.parametrize("fn, make, nodes", [
    (odd_rows, lambda: (_vector(36).reshape(12, 3),), 0),
    (on_data, lambda: (_vector(12),), 1),
], ids=["mod", "data"])
def test_not_affine_or_data_stays_unrolled(fn, make, nodes):
    """A condition that is not affine in the trips, or reads data, is no split: the
    loop is unrolled as before (no loop node), with eager's results. (``i * j == 4``
    with ``i`` an unrolled int is ``j == 4 / i``: tests/translator/
    test_index_split_bounds.py.) (An ``if`` on
    data whose way writes the element, ``on_data``, is one loop node with the write
    chosen per trip: issue #19, tests/breaks/test_select_writes_in_loops.py.)"""
    args = make()
    dynamo.reset()
    assert _loop_nodes(fn, args) == (0, nodes)
    _check(fn, args, "eager")
