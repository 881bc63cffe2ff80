"""A split loop's segment traced where it runs (dynamo/translator/segment_hints.py,
issue #23): ``if i + j < n`` over ``j in range(m)`` inside ``i in range(n)`` with
``n > m`` splits the i loop at ``i = n - m``, and in that segment (``i = n - m + t``)
the j segment past the split point, ``[n - i, m)``, has ``t`` trips: none at the
trace's hint ``t = 0``, where its first index is ``m`` and ``B[j]`` failed NumPy's
bounds check, so the loop was unrolled (past ``max_unroll``: a break, the loops run as
Python). Now the segment is traced at a corner where it runs a trip.

Eager's results bit for bit on the numpy backend at shapes where ``n`` is above,
equal to and below ``m``, 1- and 2-element sides, int8 (wrapping products) and
float64 with NaN; loop nodes and no break at 50 x 33, which fail without the change
(one break, no node).
"""

from __future__ import annotations

import numpy as np
import pytest

import dynamo


def anti_diagonal(A, B):
    n, m = A.shape[0], B.shape[0]
    C = np.zeros((n, m), dtype=A.dtype)
    for i in range(n):
        for j in range(m):
            if i + j < n:
                C[i, j] = A[i] * B[j]
            else:
                C[i, j] = A[i] - B[j]
    return C


def anti_band(A, B):
    # two bounds of the sum, and a point past the range at some rows only
    n, m = A.shape[0], B.shape[0]
    C = np.zeros((n, m), dtype=A.dtype)
    for i in range(n):
        for j in range(m):
            if i + j < n - 5:
                C[i, j] = A[i] + B[j]
            elif i + j >= n:
                C[i, j] = B[j]
    return C


def _inputs(n, m, dtype, seed):
    rng = np.random.default_rng(seed)
    if dtype == np.int8:
        return (rng.integers(-128, 128, n).astype(np.int8),
                rng.integers(-128, 128, m).astype(np.int8))
    A, B = rng.standard_normal(n), rng.standard_normal(m)
    A[n // 2] = np.nan
    return A.astype(dtype), B.astype(dtype)


SHAPES = [(50, 33), (33, 50), (20, 20), (17, 12), (40, 3), (3, 40), (2, 30), (30, 2), (1, 5)]


@pytest.mark.parametrize("fn", [anti_diagonal, anti_band], ids=["anti_diagonal", "anti_band"])
@pytest.mark.parametrize("dtype", [np.int8, np.float64], ids=["int8", "float64"])
def test_equal_eager(fn, dtype):
    for k, (n, m) in enumerate(SHAPES):
        A, B = _inputs(n, m, dtype, k)
        dynamo.reset()
        with np.errstate(over="ignore"):   # (int8 products wrap, as NumPy's)
            want = fn(A.copy(), B.copy())
            got = dynamo.compile(fn, backend="numpy")(A.copy(), B.copy())
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)   # bit for bit (NaN where eager's)


@pytest.mark.parametrize("fn, nodes", [(anti_diagonal, 6), (anti_band, 13)],
                         ids=["anti_diagonal", "anti_band"])
def test_split_where_the_inner_segment_runs_no_trip_at_the_hint(fn, nodes):
    """The i loop as segments, each holding the j loop's: 6 nodes (``i + j < n``),
    13 (``anti_band``'s two bounds); before, one break and no node."""
    A, B = _inputs(50, 33, np.float64, 0)
    dynamo.reset()
    e = dynamo.explain(fn, backend="eager")(A, B)
    text = "\n".join(str(g) for g in e.graphs)
    assert e.graph_break_count == 0
    assert text.count("ops.fori_loop(") == nodes, text
