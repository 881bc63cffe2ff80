"""Tier 2 on loops split at comparisons of two indices over two sizes and at ``==`` /
``!=`` (translator/index_splits.py, segment_hints.py; issue #23): the segments are
consecutive ``for trip in range(...)`` loops of the kernel, no test per element, no
``objmode``, eager's values bit for bit on tier 1 and tier 2 (tier_runs.py).

- ``anti_diagonal``: ``if i + j < n`` over ``j in range(m)``, ``n > m``: the i loop
  splits at ``i = n - m`` and the j loop in each of its segments; in the second, the j
  segment past the split point runs no trip at the trace's hint (before 2026-12-07 the
  trace failed there, and the loops ran as Python: tier 2 got no loop). float64,
  int8 in range, and int8 whose products wrap (NumPy warns at the scalar multiply: the
  kernel flags the call and tier 1 reruns it, warning as eager).
- ``diag_offdiag``: ``if j == i`` / ``else``: three ranges of j (below, at, above the
  diagonal: ``range(trip)``, ``range(1)``, ``range(n - 2 - trip)``), float32.

With NaN or infinity in the inputs the kernel flags the call (a NaN or infinite
result: docs/native.md "Floating-point reports") and tier 1 reruns it: eager's values
still, checked here too (``_equal_eager``).

One Numba compile per program and dtype (2-3 s of CPU each on a loaded 2-core machine).
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

pytest.importorskip("numba")

from kernel_sources import kernel_sources  # noqa: E402
from tier_runs import same_in_all_tiers, tier_two_results  # noqa: E402


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


def diag_offdiag(A):
    n = A.shape[0]
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(n):
            if j == i:
                B[i, j] = A[i, j] * A[i, j]
            else:
                B[i, j] = A[i, j] - A[j, i]
    return B


def _kernel(fn, *args) -> str:
    sources = kernel_sources(fn, *args)
    assert sources and all(isinstance(s, str) for s in sources), sources
    return "".join(s.split("def kernel", 1)[1] for s in sources)


def _loops(kernel: str) -> list[str]:
    return re.findall(r"^ +for trip\d+ in range\((.+)\):", kernel, re.M)


def _equal_eager(fn, *args) -> None:
    """Eager's values from the native backend whichever tier answered (a flagged
    call: tier 1), with their warnings."""
    with warnings.catch_warnings(record=True) as eager_warned:
        warnings.simplefilter("always")
        fn(*[a.copy() for a in args])
    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        want, got, tiers = tier_two_results(fn, *args)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, w, strict=True)
    assert tiers and all(t.error is None for t in tiers)
    assert {str(w.message) for w in eager_warned} <= {str(w.message) for w in warned}


def test_anti_diagonal_over_two_sizes_float64():
    rng = np.random.default_rng(0)
    A, B = rng.standard_normal(50), rng.standard_normal(33)
    kernel = _kernel(anti_diagonal, A, B)
    # the i loop: 16 rows where every j has i + j < n, then 33 where the j loop splits
    # (j < n - i, then the t trips past it); j's first trip and i's are unrolled
    assert len(_loops(kernel)) >= 6 and "objmode(" not in kernel, kernel
    same_in_all_tiers(anti_diagonal, A, B)
    A[7], B[3], A[40] = np.nan, np.inf, -np.inf   # (inf - inf: NaN, as eager's)
    _equal_eager(anti_diagonal, A, B)


def test_anti_diagonal_int8_wraps_as_eager():
    rng = np.random.default_rng(1)
    small = (rng.integers(-11, 12, 12).astype(np.int8),
             rng.integers(-11, 12, 17).astype(np.int8))   # (no product past int8)
    same_in_all_tiers(anti_diagonal, *small)
    big = (rng.integers(-128, 128, 12).astype(np.int8),
           rng.integers(-128, 128, 17).astype(np.int8))
    with warnings.catch_warnings(record=True) as eager_warned:
        warnings.simplefilter("always")
        anti_diagonal(*[a.copy() for a in big])
    assert any("overflow" in str(w.message) for w in eager_warned)
    _equal_eager(anti_diagonal, *big)   # wrapped as NumPy wraps, its warnings


def test_diag_offdiag_is_three_ranges():
    rng = np.random.default_rng(2)
    A = rng.standard_normal((30, 30)).astype(np.float32)
    kernel = _kernel(diag_offdiag, A)
    inner = _loops(kernel)
    # i = 0 unrolled (its j loop: 1, then 28 more), then per row below / at / above
    assert re.fullmatch(r"\(trip\d+\)", inner[-3]) and inner[-2] == "1" and \
        re.fullmatch(r"\(-trip\d+ \+ 28\)", inner[-1]), inner
    assert "objmode(" not in kernel and " if " not in kernel.split("for trip")[-1], kernel
    same_in_all_tiers(diag_offdiag, A)
    A[4, 9], A[17, 17] = np.nan, np.inf
    _equal_eager(diag_offdiag, A)
