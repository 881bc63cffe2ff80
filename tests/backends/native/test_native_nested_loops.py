"""Tier 2 on nested loop nodes (dynamo/translator/nested_loops.py): a loop node inside
another's body is lowered to a real inner loop, ``for trip in range(...)`` inside the
outer one's (backends/native/loops.py; never a ``prange``: an inner trip reads what the
one before it wrote), for the programs of tests/shared/corpus_nested_loops.py that
nest (DP tables, edit distance, LCS, Gauss-Seidel, Floyd-Warshall, a matmul by hand).
Each runs eagerly and with tier 2 forced (its second call), bit for bit, and its
kernel holds a ``for`` loop inside a ``for`` loop; the programs whose inner loop stays
unrolled (a ``break``, a trip count that follows the outer index) give eager's results
too. Before (inner loops unrolled into the outer body) no kernel held a nested loop.

Each compiled case costs one Numba compile (1-5 s of CPU).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("numba")

from corpus_nested_loops import PROGRAMS  # noqa: E402
from kernel_sources import kernel_sources  # noqa: E402
from tier_runs import tier_two_results  # noqa: E402

# the nested programs (two read the outer index as a number, ``+ i``: a symbolic
# argument the kernel passes as a Python int, backends/native/calls.py)
# (the triangular ones, whose inner count follows the outer index, a few of them in
# test_native_triangular_loops.py: one Numba compile each)
TRIANGULAR = {"cholesky_by_hand", "forward_sub_loops", "back_sub_loops", "lu_by_hand",
              "gauss_seidel_lower", "insertion_passes", "pairwise_upper", "lower_products",
              "from_one_to_i", "shrinking_to_empty", "stepped_outer", "upper_matvec",
              "pascal_in_place", "down_to_zero", "lower_rows_scaled", "triangular_lower",
              "forward_sub_floats", "back_sub_floats", "cholesky_banachiewicz",
              "lu_doolittle_floats", "gauss_seidel_sweeps"}
LOWERED = [p for p in PROGRAMS if p[3] and p[0] not in TRIANGULAR]
UNROLLED = [p for p in PROGRAMS if p[0] in ("inner_break", "inner_one_trip",
                                             "inner_no_trips")]


def _run(fn, args) -> list:
    """Eager's results, then tier 2's (the compiled second call), bit for bit on
    copies of ``args``; the Tiered objects made."""
    want, got, tiers = tier_two_results(fn, *args)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, w, strict=True)
    return tiers


def _loop_depth(source: str) -> int:
    """The deepest ``for trip`` loop of a kernel: 1 for a loop, 2 for a loop in it..."""
    kernel = source.split("def kernel", 1)[1]
    pads = [len(m.group(1)) for m in re.finditer(r"^( *)for trip\w* in range\(", kernel, re.M)]
    return max(pads, default=0) // 4


@pytest.mark.parametrize("name, fn, make_args, nested", LOWERED, ids=[p[0] for p in LOWERED])
def test_nested_node_is_an_inner_loop(name, fn, make_args, nested):
    sources = kernel_sources(fn, *make_args())
    assert sources and all(isinstance(s, str) for s in sources), sources
    assert max(_loop_depth(s) for s in sources) >= 2
    assert "prange" not in "".join(s.split("def kernel", 1)[1] for s in sources)
    tiers = _run(fn, make_args())
    assert tiers and all(t.error is None for t in tiers), [t.error for t in tiers]
    assert sum(t.native_calls for t in tiers) >= 1


@pytest.mark.parametrize("name, fn, make_args, nested", UNROLLED, ids=[p[0] for p in UNROLLED])
def test_unrolled_inner_loops_stay_eagers(name, fn, make_args, nested):
    _run(fn, make_args())


def test_dp_table_edge_shapes():
    """The DP table with inner loops of 0, 1, 2, 9 and 10 trips (columns 1, 2, 3, 10,
    11) and a NaN (Python's min and NaN: the flagged call reruns in tier 1)."""
    _, fn, _, _ = PROGRAMS[0]
    rng = np.random.default_rng(5)
    for m in (1, 2, 3, 10, 11):
        _run(fn, (rng.random((12, m)),))
    C = rng.random((12, 11))
    C[5, 4] = np.nan
    _run(fn, (C,))
