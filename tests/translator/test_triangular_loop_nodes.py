"""Triangular inner loops (dynamo/translator/triangular_loops.py): an inner ``range``
that follows the outer index is a loop node in the outer node's body, whose trip count
is an expression of the outer trip (0 or below: no trip, its carried values its
inputs). The corpus programs (tests/shared/corpus_nested_loops.py) run in
test_nested_loop_nodes.py; here: the trip count in the graph, inner loops of no trip
at many sizes, new values between calls, and what must stay unrolled (an index out of
bounds at a corner of the triangle only, a value of the inner trip read after it).
"""

from __future__ import annotations

import numpy as np
import pytest
from corpus_nested_loops import PROGRAMS
from harness import check
from test_nested_loop_nodes import _Graphs, nested_nodes

import dynamo
from dynamo import listeners
from dynamo.graph import Graph
from dynamo.symbolic import SymArg

BACKENDS = ("eager", "numpy")
PROGRAM = {p[0]: p for p in PROGRAMS}


def _inner_trip_counts(graph: Graph, depth: int = 0) -> list:
    """The trip-count arguments of the loop nodes inside loop bodies."""
    found = []
    for node in graph.call_nodes():
        if node.target == "fori_loop" and isinstance(node.args[0], Graph):
            if depth:
                found.append(node.args[1])
            found += _inner_trip_counts(node.args[0], depth + 1)
    return found


def test_trip_count_follows_the_outer_trip():
    """``for j in range(i)`` in the body: its node's count reads the outer trip."""
    _, fn, make_args, _ = PROGRAM["forward_sub_loops"]
    with listeners.listening(_Graphs()) as seen:
        dynamo.compile(fn, backend="eager")(*make_args())
    counts = [c for g in seen.graphs for c in _inner_trip_counts(g)]
    assert counts and all(isinstance(c, SymArg) for c in counts), counts


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["from_one_to_i", "shrinking_to_empty", "down_to_zero"])
def test_empty_and_negative_ranges(name, backend):
    """Inner ranges with no trip (``range(1, 0)``, ``range(5, 3)``) at several outer
    trips: eager's results, at three sizes, each a fresh compile (static sizes)."""
    _, fn, _, _ = PROGRAM[name]
    rng = np.random.default_rng(3)
    for n in (9, 10, 14):
        args = (rng.random((n, n)),) if name == "from_one_to_i" else \
            (rng.random(n), np.zeros(n)) if name == "shrinking_to_empty" else (rng.random(n),)
        dynamo.reset()
        check(fn, *args, backend=backend, graphs=1, breaks=0)
        assert nested_nodes(fn, args, backend) == 1


def test_new_values_one_compile():
    """One compiled forward substitution on new values: eager's results each time."""
    _, fn, make_args, _ = PROGRAM["forward_sub_loops"]
    assert nested_nodes(fn, make_args(), "numpy") == 1
    compiled = dynamo.compile(fn, backend="numpy")
    rng = np.random.default_rng(1)
    for _ in range(4):
        L = np.tril(rng.random((12, 12))) + 12 * np.eye(12)
        b = rng.random(12)
        np.testing.assert_array_equal(compiled(L, b), fn(L, b), strict=True)


def past_the_corner(A):
    # in bounds except at the last row's last trip: A[n - 1, n]
    n = A.shape[0]
    out = np.zeros(n)
    for i in range(n):
        for j in range(i + 1):
            out[i] = out[i] + A[i, j + 1]
    return out


def inside_the_corner(A):
    n = A.shape[0]
    out = np.zeros(n)
    for i in range(n):
        for j in range(i):
            out[i] = out[i] + A[i, j + 1]
    return out


def index_read_after(A):
    # the inner index after a loop that may run no trip: no node (j is unbound at i = 0)
    n = A.shape[0]
    out = np.zeros(n)
    j = -1
    for i in range(n):
        for j in range(i):
            out[i] = out[i] + A[i, j]
        out[i] = out[i] + j
    return out


def test_corners_of_the_triangle():
    """An index out of bounds only at the triangle's last corner leaves the inner loop
    unrolled, and raises eager's IndexError; the same loop one trip shorter nests."""
    A = np.random.default_rng(0).random((10, 10))
    with pytest.raises(IndexError):
        past_the_corner(A.copy())
    with pytest.raises(IndexError):
        dynamo.compile(past_the_corner, backend="eager")(A.copy())
    check(inside_the_corner, A, backend="numpy", graphs=1, breaks=0)
    assert nested_nodes(inside_the_corner, (A,), "numpy") == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_inner_index_read_after_stays_unrolled(backend):
    """The inner index read after an inner loop that may run no trip: eager's results
    (the trace starts over with the inner loop unrolled); the same program without
    that read nests."""
    A = np.random.default_rng(2).random((10, 10))
    check(index_read_after, A, backend=backend)
    assert nested_nodes(index_read_after, (A,), backend) == 0
    assert nested_nodes(inside_the_corner, (A,), backend) == 1
