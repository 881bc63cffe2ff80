"""Tier 2 for counter ``while`` loops over sizes that change between calls (issue #23).

``k = 1; while k < n: x[k] += x[k - 1]; k += 1`` with ``n = len(x)`` is one loop node
with a symbolic trip count (dynamo/translator/counted_whiles.py), so one graph serves
every size after the first, as ``for k in range(1, n)`` does. The native backend runs
it as one static variant per size (backends/native/size_variants.py): the size that
stays hot (13 below) gets its ``Tiered``, whose kernel is the loop, and costs one
Numba compile (the first size's static graph one more: ``after_calls`` is 1 here); the
later sizes called once run tier 1. Before, each size traced its own graph (the loop
unrolled, the size pinned): five graphs for the five sizes, each compiled by Numba.
Results equal eager's bit for bit.
"""

from __future__ import annotations

import logging

import numpy as np
import pytest

pytest.importorskip("numba")

from dynamo.backends.native.backend import native_backend  # noqa: E402
from dynamo.backends.native.tier import Tiered  # noqa: E402
from dynamo.backends.numpy_backend.sizes import PerSize  # noqa: E402

import dynamo  # noqa: E402

SYNC = {"after_calls": 1, "background": False, "prefer": "native", "cache": False}
SIZES = (12, 13, 13, 13, 16, 11, 20)


def prefix_sum(x):
    n = len(x)
    k = 1
    while k < n:
        x[k] += x[k - 1]
        k += 1
    return x, k


def diag_sum(A):
    n = A.shape[0]
    s = 0.0
    k = 0
    while k < n:
        s = s + A[k, k]
        k += 1
    return s, k


@pytest.mark.parametrize("fn, ndim", [(prefix_sum, 1), (diag_sum, 2)],
                         ids=["prefix_sum", "diag_sum"])
def test_one_symbolic_graph_whose_hot_size_compiles_once(fn, ndim, caplog):
    graphs = []

    def backend(graph, example_inputs):
        graphs.append(native_backend(graph, example_inputs, options=SYNC))
        return graphs[-1]
    backend.dynamic_shapes = True
    compiled = dynamo.compile(fn, backend=backend)
    rng = np.random.default_rng(2)
    caplog.set_level(logging.INFO, logger="dynamo.backend")
    for n in SIZES:
        x = rng.random((n,) * ndim)
        want = fn(x.copy())
        got = compiled(x.copy())
        for g, w in zip(got, want, strict=True):
            assert type(g) is type(w)
            np.testing.assert_array_equal(g, w, strict=True)
    # one static graph (the first size), one symbolic graph for every later size
    assert len(graphs) == 2, graphs
    assert isinstance(graphs[1], PerSize), graphs[1]
    tiers = [v for v in graphs[1].variants.values() if isinstance(v, Tiered)]
    assert [t.native_calls > 0 and t.error is None for t in tiers] == [True]
    kernel = tiers[0].__dynamo_native_source__.split("def kernel", 1)[1]
    assert "for trip" in kernel, kernel     # the loop, not an unrolled trip per index
    # (``after_calls`` 1: the first size's static graph compiles too)
    numba_compiles = [r for r in caplog.records if "compiled by Numba" in r.getMessage()]
    assert len(numba_compiles) == 2, [r.getMessage() for r in numba_compiles]
