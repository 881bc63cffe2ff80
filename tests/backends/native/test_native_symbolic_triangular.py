"""Tier 2 for triangular loops over sizes that change between calls (issue #23).

Forward and back substitution, Cholesky and LU by hand called with several sizes:
after the first recompile the size is a symbol and one graph (one trace) serves every
later size, its triangular inner loop a node whose count follows the outer trip
(dynamo/translator/symbolic_corners.py). The native backend runs it as one static
variant per size (backends/native/size_variants.py): the hot size's ``Tiered`` is a
kernel with ``for trip in range(<the outer trip>)`` inside the outer loop. Before, the
inner loop was unrolled, which pinned the size: one trace, one graph and one tier-2
compile per size.

Every call's result equals eager's bit for bit (the kernels run the same scalar
operations in the same order: no summation is reordered, so the tolerance of
docs/native.md is not needed here). Each hot variant costs one Numba compile.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("numba")

from corpus_nested_loops import PROGRAMS  # noqa: E402
from dynamo.backends.native.backend import native_backend  # noqa: E402
from dynamo.backends.native.tier import Tiered  # noqa: E402
from dynamo.backends.numpy_backend.sizes import PerSize  # noqa: E402

import dynamo  # noqa: E402

SYNC = {"after_calls": 1, "background": False, "prefer": "native", "cache": False}
NAMES = ("forward_sub_loops", "back_sub_loops", "cholesky_by_hand", "lu_by_hand")
CASES = [p for p in PROGRAMS if p[0] in NAMES]
# the first size traces a static graph; the next ones share the symbolic graph: 13 is
# called until its variant runs tier 2, the others once each (op by op)
SIZES = (12, 13, 13, 13, 16, 11, 20)


def _args(make_args, n: int, rng) -> list:
    """The corpus program's arguments at ``n`` rows: square matrices diagonally
    dominant (symmetric for Cholesky), vectors random."""
    out = []
    for a in make_args():
        b = rng.random((n,) * a.ndim)
        if b.ndim == 2:
            b = b @ b.T + n * np.eye(n)
        out.append(b)
    return out


@pytest.mark.parametrize("name, fn, make_args, nested", CASES, ids=[p[0] for p in CASES])
def test_one_symbolic_graph_whose_hot_size_runs_a_triangular_kernel(name, fn, make_args,
                                                                     nested):
    graphs = []

    def backend(graph, example_inputs):
        graphs.append(native_backend(graph, example_inputs, options=SYNC))
        return graphs[-1]
    backend.dynamic_shapes = True
    compiled = dynamo.compile(fn, backend=backend)
    rng = np.random.default_rng(7)
    for n in SIZES:
        args = _args(make_args, n, rng)
        want = fn(*[a.copy() for a in args])
        np.testing.assert_array_equal(compiled(*[a.copy() for a in args]), want,
                                      strict=True)
    # one static graph (the first size), one symbolic graph for every other size
    assert len(graphs) == 2, graphs
    runner = graphs[1]
    assert isinstance(runner, PerSize), runner
    tier = next(v for v in runner.variants.values() if isinstance(v, Tiered) and
                v.native_calls)   # size 13's, after its compile
    assert tier.error is None
    kernel = tier.__dynamo_native_source__.split("def kernel", 1)[1]
    # an inner loop whose count reads the outer loop's trip variable
    assert re.search(r"^ +for (trip\d+) in range\(\(.*\btrip\d+\b", kernel, re.M), kernel
