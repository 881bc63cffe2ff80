"""Computed split points and splits inside splits (translator/split_quotients.py,
index_splits.py; issue #23):

- a comparison whose own index's coefficient divides nothing else (``2 * j < i``,
  ``3 * j + 1 >= i``, ``-2 * j >= k - i``) splits at ``floor(N / d)`` of the enclosing
  trips, an int the enclosing body computes (a ``sym_int`` node);
- ``j <= i // 2`` (and ``i // 2 > j``, ``j >= i // 3 + 1``): the index's quotient,
  compared next, is that floor instead of pinning the index;
- a split inside a split (``for j in range(i): if j < i - k``) and bounds that are
  another loop's index plus a constant (``range(i + 2, n)`` with ``j < i + 5``: the i
  loop is split where the j range empties and where the split point leaves it).

Before, each was unrolled (``range(i + 2, n)``: the i loop split, then the j loop
unrolled in its segments). Results are eager's bit for bit at sizes whose loops run
0, 1 and 2 trips and where the split point lies past either end, with ``k``
negative, zero and positive; ``2 * j == i`` (no exact split point) stays unrolled.
"""

from __future__ import annotations

import numpy as np
import pytest
from dynamo.backends.numpy_backend.backend import numpy_backend

import dynamo


def twice_lower(A, k):
    n = A.shape[0]
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(n):
            if 2 * j < i:              # j < ceil(i / 2)
                B[i, j] = A[i, j] * A[j, j]
            else:
                B[i, j] = -A[i, j]
    return B


def half_le(A, k):
    n = A.shape[0]
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(n):
            if j <= i // 2:            # the index's quotient, compared next
                B[i, j] = A[i, j] + 1.0
            else:
                B[i, j] = -A[i, j]
    return B


def thrice_lower(A, k):
    n = A.shape[0]
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(i):             # a triangular count, a quotient of its own
            if 3 * j + 1 >= i:
                B[i, j] = A[i, j] + 1.0
            elif i // 2 > j:           # (reflected: a load between // and the compare)
                B[i, j] = 2.0 * A[i, j]
    return B


def negative_twice(A, k):
    n = A.shape[0]
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(i + 1):
            if -2 * j >= k - i:        # a negative coefficient: 2 * j <= i - k
                B[i, j] = A[i, j] + 1.0
            else:
                B[i, j] = -A[i, j]
    return B


def third_plus_one(A, k):
    n = A.shape[0]
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(i, n):
            if j >= i // 3 + 1:        # a constant added to the quotient
                B[i, j] = A[i, j] + 1.0
    return B


def tri_band(A, k):
    # a split inside a split: the j count follows i, the split point i - k leaves the
    # j range at the first rows (k > 0) or stays past its end (k < 0)
    n = A.shape[0]
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(i):
            if j < i - k:
                B[i, j] = A[i, j] + 1.0
            else:
                B[i, j] = -A[i, j]
    return B


def from_i_plus(A, k):
    # bounds that are the other index plus a constant: the j range empties at the last
    # two rows, and ``j < i + 5`` leaves it at the last five
    n = A.shape[0]
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(i + 2, n):
            if j < i + 5:
                B[i, j] = A[i, j] + 1.0
            else:
                B[i, j] = -A[i, j]
    return B


def _copies(args) -> list:
    return [np.copy(a) if isinstance(a, np.ndarray) else a for a in args]


def _check(compiled, fn, args):
    want = fn(*_copies(args))
    got = compiled(*_copies(args))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def _recording(graphs: list):
    """The numpy backend, keeping each graph's text in ``graphs``."""
    def backend(graph, example_inputs):
        graphs.append(str(graph))
        return numpy_backend(graph, example_inputs)
    backend.dynamic_shapes = numpy_backend.dynamic_shapes
    return backend


def _shape_of(graphs: list) -> tuple[int, int]:
    """(loop nodes, element stores written out) in ``graphs``."""
    text = "".join(graphs)
    return text.count("ops.fori_loop("), text.count("ops.setitem(")


PROGRAMS = [twice_lower, half_le, thrice_lower, negative_twice, third_plus_one, tri_band,
            from_i_plus]


@pytest.mark.parametrize("fn", PROGRAMS, ids=[f.__name__ for f in PROGRAMS])
def test_equal_eager_and_nodes(fn):
    """Bit for bit on the numpy backend at 13, 0, 1, 2 and 3 rows with k = 3, 0 and
    -2 (one compiled function: sizes and k change between calls); at 13 rows, one
    graph with loop nodes and few stores (unrolled, each row's stores were written
    out: hundreds)."""
    dynamo.reset()
    graphs = []
    compiled = dynamo.compile(fn, backend=_recording(graphs))
    rng = np.random.default_rng(0)
    for n, k in ((13, 3), (13, -2), (0, 3), (1, 3), (2, -2), (3, 0)):
        _check(compiled, fn, (rng.standard_normal((n, n)), k))
        if n == 13 and k == 3:
            nodes, stores = _shape_of(graphs)
            assert len(graphs) == 1 and nodes >= 2 and stores <= 12, graphs


def test_no_exact_split_point_stays_unrolled():
    """``2 * j == i`` holds at even rows only: no interval of trips, so no split (the
    loop is unrolled, as before), with eager's results."""
    def even(A, k):
        n = A.shape[0]
        B = np.zeros_like(A)
        for i in range(n):
            for j in range(n):
                if 2 * j == i:
                    B[i, j] = 1.0
        return B
    args = (np.random.default_rng(1).standard_normal((10, 10)), 0)
    dynamo.reset()
    graphs = []
    _check(dynamo.compile(even, backend=_recording(graphs)), even, args)
    assert _shape_of(graphs) == (0, 5)   # (i = 0, 2, 4, 6, 8: unrolled)


def test_split_point_is_a_graph_int():
    """``2 * j < i``'s split point is computed in the i loop's body (``sym_int``) and
    read by the j segments' counts; no guard on its value."""
    dynamo.reset()
    graphs = []
    dynamo.compile(twice_lower, backend=_recording(graphs))(np.ones((9, 9)), 0)
    assert "ops.sym_int(" in graphs[0], graphs
