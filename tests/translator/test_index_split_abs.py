"""``abs`` of a symbolic int through its sign (``SymInt.__abs__``, issue #23): ``x if x
>= 0 else -x``, a comparison instead of a pin. In a loop node, ``abs(i - j) <= k`` (a
band) is then three splits of the ``j`` loop (``j <= i``, where abs's sign changes;
``i - j <= k``; ``j - i <= k``: translator/index_splits.py), where before abs pinned
the indices and the loop was unrolled (past ``config.max_unroll``: a break). Outside
loops, abs of a size guards its sign, not its value.

Results are eager's bit for bit at sizes whose segments run 0, 1 and 2 trips, with the
band's edges inside and past the range, ``k`` negative (never true), 0 (the diagonal)
and past the size (always true), and over a rectangular range.
"""

from __future__ import annotations

import logging

import numpy as np
import pytest

import dynamo


def band_abs(A, k):
    n, m = A.shape
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(m):
            if abs(i - j) <= k:
                B[i, j] = A[i, j] * 2.0 + 1.0
            else:
                B[i, j] = -A[i, j]
    return B


def _matrix(shape):
    return np.random.default_rng(shape[0] * 31 + shape[1]).standard_normal(shape)


@pytest.mark.parametrize("shape, k", [
    ((13, 13), 2), ((2, 2), 0), ((3, 3), 1), ((13, 13), -1), ((9, 9), 20), ((13, 6), 2),
    ((6, 13), 3)])
def test_band_equals_eager(shape, k):
    dynamo.reset()
    A = _matrix(shape)
    got = dynamo.compile(band_abs, backend="numpy")(A.copy(), k)
    want = band_abs(A.copy(), k)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_band_is_split_loop_nodes():
    dynamo.reset()
    e = dynamo.explain(band_abs, backend="eager")(_matrix((13, 13)), 2)
    assert e.graph_break_count == 0   # (before: abs pinned i, j: unrolled, then a break)
    assert sum(str(g).count("ops.fori_loop(") for g in e.graphs) >= 3


def zeros_abs(x):
    return np.zeros(abs(x.shape[0] - 5)) + x.sum()


def test_abs_of_a_size_guards_its_sign(caplog):
    """Sizes 9, 10, 12 share the symbolic entry made at 9 (``n - 5 >= 0`` holds): one
    recompile; before, abs pinned the size: an entry per size (three). Then the other
    sign (3, 2: ``np.zeros(5 - n)``'s shape rule pins those), eager's results."""
    caplog.set_level(logging.DEBUG, logger="dynamo.recompiles")
    dynamo.reset()
    compiled = dynamo.compile(zeros_abs, backend="eager")
    for n in (8, 9, 10, 12):
        x = np.arange(float(n))
        np.testing.assert_array_equal(compiled(x), zeros_abs(x))
    recompiles = [r for r in caplog.records if r.getMessage().startswith("recompiling")]
    assert len(recompiles) == 1, [r.getMessage() for r in recompiles]
    for n in (3, 2, 5, 11):
        x = np.arange(float(n))
        np.testing.assert_array_equal(compiled(x), zeros_abs(x))
