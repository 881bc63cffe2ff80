"""Tier 2's scans (``backends/native/scans.py``) bit for bit where the loop's start and
its accumulator matter (issue #17 round 36): the first element is copied, not added to
0 (``np.cumsum([-0.0, ...])[0]`` is -0.0, which ``assert_array_equal`` takes for 0.0, so
the bits are compared here), the loop starts at 1 (the first element counted once), and
a float32 run accumulates in float32 (``[1e8, 1, 1, ...]``: each 1 is lost; in float64
they add up). Each case is one Numba compile (1-3 s of CPU).

Faults planted in the generated code for one run (``Scans._accumulate`` rebuilt from an
edited copy of its source, on ``dynamo.backends.native.scans``, the module the backend
loads): ``res = 0 + a[0]``, the loop from 0, float64 accumulation each failed here.

    >>> np.cumsum(np.array([-0.0, -0.0]))                 # eager: both -0.0
    array([-0., -0.])
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from tier_runs import tier_two_results  # noqa: E402


def bits(a):
    """``a``'s raw bytes as unsigned ints: -0.0 and 0.0 differ, NaN payloads too."""
    a = np.ascontiguousarray(a)
    return a.view(np.dtype(f"u{a.dtype.itemsize}")) if a.dtype.kind == "f" else a


def same_bits_in_tier_two(fn, *args):
    """Eager's and tier 2's results have the same dtype, shape and bits; tier 2 ran."""
    want, got, tiers = tier_two_results(fn, *args)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype)
        np.testing.assert_array_equal(bits(g), bits(w), strict=True)
    assert tiers and all(t.error is None for t in tiers), [t.error for t in tiers]
    assert sum(t.native_calls for t in tiers) >= 1


def signed_zero_runs(x, C):
    # every run's first element is -0.0 (a row of C, a column, the 1-D x); 0.0 + -0.0
    # would be 0.0
    return np.cumsum(x), np.cumsum(C, axis=1), np.cumsum(C, axis=0), np.cumsum(-x * 0.0)


def test_a_runs_first_element_keeps_its_sign():
    x = np.array([-0.0, -0.0, 1.5, -1.5, -0.0])
    C = np.full((4, 6), -0.0)
    C[2, 3] = 2.0
    same_bits_in_tier_two(signed_zero_runs, x, C)


def first_counted_once(x, k):
    return np.cumsum(x), np.cumprod(x[:6]), np.cumsum(k), np.cumprod(k[:5])


def test_the_first_element_is_counted_once():
    x = np.array([7.0, 1.0, 2.0, 3.0, 0.5, 0.25, 4.0, 8.0])
    k = np.array([3, -2, 5, 1, 7, 11, 13], dtype=np.int64)
    same_bits_in_tier_two(first_counted_once, x, k)


def float32_runs(x, C):
    # 1e8 + 1 is 1e8 in float32: eager's run stays at 1e8 where float64's would grow
    return np.cumsum(x), np.cumsum(C, axis=1), np.cumprod(x[1:] * np.float32(1.5))


def test_float32_accumulates_in_float32():
    x = np.ones(40, np.float32)
    x[0] = 1e8
    C = np.ones((3, 40), np.float32)
    C[:, 0] = 3e7
    same_bits_in_tier_two(float32_runs, x, C)
