"""Slices of a constant length that move with a loop's index over sizes that change
between calls (dynamo/translator/slice_positions.py, issue #23): ``D[:, k:k + 1]`` in
``for k in range(n)`` with ``n = D.shape[0]`` cuts the other dimension, in bounds only
where ``n <= D.shape[1]``. The slice is required in bounds (guarded), so one symbolic
graph serves every square size; before, its fit pinned the sizes and each size traced
again (five graphs for five sizes). Rectangular inputs take entries of their own and
give eager's results, clipped slices and errors included.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynamo
from dynamo import listeners


class _Graphs:
    def __init__(self):
        self.graphs = []

    def on_graph(self, graph, ctx):
        self.graphs.append(graph)


def floyd_by_columns(W):
    n = W.shape[0]
    D = W.copy()
    for k in range(n):
        D = np.minimum(D, D[:, k:k + 1] + D[k:k + 1, :])
    return D


def pivot_columns(A):
    n = A.shape[0]
    out = np.zeros(n)
    for k in range(n):
        out[k] = A[k:, k:k + 1].sum() / A[k, k]
    return out


def two_columns(A):
    # k:k + 2 runs past the last column at k = n - 1: clipped, as NumPy clips it
    n = A.shape[0]
    out = np.zeros(n)
    for k in range(n):
        out[k] = A[:, k:k + 2].sum()
    return out


PROGRAMS = [floyd_by_columns, pivot_columns]


def _same(compiled, fn, W):
    try:
        want = fn(W.copy())
    except Exception as e:  # noqa: BLE001
        with pytest.raises(type(e)):
            compiled(W.copy())
        return
    np.testing.assert_array_equal(compiled(W.copy()), want, strict=True)


@pytest.mark.parametrize("backend", ("eager", "numpy"))
@pytest.mark.parametrize("fn", PROGRAMS, ids=[f.__name__ for f in PROGRAMS])
def test_one_symbolic_graph_serves_every_square_size(fn, backend):
    rng = np.random.default_rng(2)
    compiled = dynamo.compile(fn, backend=backend)
    with listeners.listening(_Graphs()) as seen:
        for n in (12, 15, 18, 21, 24):
            _same(compiled, fn, rng.random((n, n)) + n * np.eye(n))
    assert len(seen.graphs) == 2, [len(g.nodes) for g in seen.graphs]


@pytest.mark.parametrize("fn", [*PROGRAMS, two_columns],
                         ids=[f.__name__ for f in [*PROGRAMS, two_columns]])
def test_rectangular_and_small_inputs_equal_eager(fn):
    rng = np.random.default_rng(3)
    compiled = dynamo.compile(fn, backend="numpy")
    for shape in [(12, 12), (14, 14), (10, 16), (16, 10), (20, 20), (9, 8), (2, 2),
                  (1, 1), (0, 0), (3, 2)]:
        _same(compiled, fn, rng.random(shape) + np.eye(*shape))
