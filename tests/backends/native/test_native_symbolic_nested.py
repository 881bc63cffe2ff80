"""Tier 2 for nested loops over trip counts that change between calls (issue #23).

``for i in range(n)`` with ``n = len(X)`` (or ``A.shape[0]``) and an inner loop, called
with several sizes: after the first recompile the sizes are symbols, and one graph
(one trace) serves them all, its inner loop a loop node nested in the outer one
(dynamo/translator/nested_loops.py: an op reading both indices, one of them over a
symbolic count, is checked at the corners over all sizes). The native backend runs
such a graph as one static variant per size (backends/native/size_variants.py), each
a ``Tiered`` lowered with its sizes to a kernel with a ``for`` loop inside a ``for``
loop. Before, the graph stayed in tier 1 ("symbolic sizes"), and the translator
unrolled the inner loop, tracing again for every size.

Every call's result equals eager's bit for bit (the kernels run the same scalar
operations in the same order). Each hot variant costs one Numba compile (1-5 s of CPU).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("numba")

from dynamo.backends.native.backend import native_backend  # noqa: E402
from dynamo.backends.native.tier import Tiered  # noqa: E402
from dynamo.backends.numpy_backend.sizes import PerSize  # noqa: E402

import dynamo  # noqa: E402

SYNC = {"after_calls": 1, "background": False, "prefer": "native", "cache": False}


def dp_table(C):
    n, m = C.shape
    D = np.zeros((n, m))
    D[0] = np.cumsum(C[0])
    for i in range(1, n):
        D[i, 0] = D[i - 1, 0] + C[i, 0]
        for j in range(1, m):
            D[i, j] = C[i, j] + min(D[i - 1, j], D[i, j - 1], D[i - 1, j - 1])
    return D


def pairwise_distances(X):
    n = len(X)
    D = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            D[i, j] = np.sqrt(((X[i] - X[j]) ** 2).sum())
    return D


def floyd_warshall(W):
    n = len(W)
    D = W.copy()
    for k in range(n):
        for i in range(n):
            for j in range(n):
                D[i, j] = min(D[i, j], D[i, k] + D[k, j])
    return D


def row_cumsums(A):
    n, m = A.shape
    out = np.empty_like(A)
    for i in range(n):
        s = 0.0
        for j in range(m):
            s = s + A[i, j]
            out[i, j] = s
    return out


PROGRAMS = [
    ("dp_table", dp_table, lambda n, rng: (rng.random((n, n + 3)),)),
    ("pairwise_distances", pairwise_distances, lambda n, rng: (rng.random((n, 3)),)),
    ("floyd_warshall", floyd_warshall, lambda n, rng: (rng.random((n, n)) * 10,)),
    ("row_cumsums", row_cumsums, lambda n, rng: (rng.random((n, n + 1)),)),
]
# the first size traces a static graph; the next ones share the symbolic graph: 13 is
# called until its variant runs tier 2, the others once each (eager's op-by-op run)
SIZES = (12, 13, 13, 13, 16, 11, 20)


def _loop_depth(source: str) -> int:
    kernel = source.split("def kernel", 1)[1]
    pads = [len(m.group(1)) for m in re.finditer(r"^( *)for trip\w* in range\(", kernel, re.M)]
    return max(pads, default=0) // 4


@pytest.mark.parametrize("name, fn, make_args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_one_symbolic_graph_whose_hot_size_runs_nested_kernel_loops(name, fn, make_args):
    graphs = []

    def backend(graph, example_inputs):
        graphs.append(native_backend(graph, example_inputs, options=SYNC))
        return graphs[-1]
    backend.dynamic_shapes = True
    compiled = dynamo.compile(fn, backend=backend)
    rng = np.random.default_rng(3)
    for n in SIZES:
        args = make_args(n, rng)
        want = fn(*[a.copy() for a in args])
        np.testing.assert_array_equal(compiled(*[a.copy() for a in args]), want,
                                      strict=True)
    # one static graph (the first size), one symbolic graph for every other size
    assert len(graphs) == 2, graphs
    runner = graphs[1]
    assert isinstance(runner, PerSize), runner
    hot = [v for v in runner.variants.values() if isinstance(v, Tiered)]
    assert hot, runner.variants
    tier = next(t for t in hot if t.native_calls)   # size 13's, after its compile
    assert tier.error is None
    assert _loop_depth(tier.__dynamo_native_source__) >= 2


def test_a_size_that_grows_every_call_runs_tier_one_generic_code():
    """A size that grows on every call (each variant run once) soon runs tier 1's
    size-generic code, as on the numpy backend (``sizes.UNREUSED_AFTER``): no Numba
    compile for a size that is never called again; eager's results."""
    from dynamo.backends.numpy_backend.sizes import GENERIC_AFTER
    graphs = []

    def backend(graph, example_inputs):
        graphs.append(native_backend(graph, example_inputs, options=SYNC))
        return graphs[-1]
    backend.dynamic_shapes = True
    compiled = dynamo.compile(row_cumsums, backend=backend)
    rng = np.random.default_rng(4)
    for n in range(12, 14 + GENERIC_AFTER + 2):
        A = rng.random((n, 5))
        np.testing.assert_array_equal(compiled(A.copy()), row_cumsums(A), strict=True)
    runner = graphs[-1]
    assert runner.generic is not None
    assert len(runner.variants) <= GENERIC_AFTER
