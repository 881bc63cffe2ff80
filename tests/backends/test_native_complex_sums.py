"""Tier 2 adds complex values in NumPy's pairwise order (``backends/native/
pairwise_sums.py``): four complex partial sums per block of at most 64, the rest one by
one, longer runs split where NumPy's float run of twice the length splits. Before,
tier 2 added them one after the other and a 4x4 sum differed from NumPy's in the last
bit (hostile round 31, ``round31_einsums/into_out_native``).

Each compiled test costs one Numba compile (1-5 s of CPU).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from test_native import check_native  # noqa: E402 (needs numba)

rng = np.random.default_rng(31)


def _complex(shape, dtype=np.complex128):
    # magnitudes spread over ten decades: a sum in another order differs in its last bits
    scale = 10.0 ** rng.integers(-5, 5, shape)
    return ((rng.standard_normal(shape) + 1j * rng.standard_normal(shape)) * scale
            ).astype(dtype)


def _full_sums(a3, a10, a64, a65, a300, m):
    return a3.sum(), a10.sum(), a64.sum(), a65.sum(), a300.sum(), m.sum()


def test_full_sums_equal_eager_bit_for_bit():
    """Fewer than 4 elements, one block with a rest, exactly one block of 64, the
    first split (65), a deeper split (300) and a C-ordered 2-D array (4x4, the hostile
    program's)."""
    check_native(_full_sums, _complex(3), _complex(10), _complex(64), _complex(65),
                 _complex(300), _complex((4, 4)))


def test_row_sums_and_complex64_equal_eager_bit_for_bit():
    """Sums along the last axis (each row a run NumPy adds pairwise) and complex64,
    whose partial sums are float32."""
    def f(m, c):
        return m.sum(axis=1), m.sum(axis=-1, keepdims=True), c.sum(), c[::2].sum()
    check_native(f, _complex((3, 150)), _complex(201, np.complex64))


def test_means_divide_as_numpy_does():
    """A complex mean divides its sum as NumPy's complex ``true_divide`` does (times
    ``1 / n``), not as Numba's ``/`` (by ``n``): complex128 and complex64, whole and
    along an axis."""
    def f(a, m, c):
        return a.mean(), m.mean(axis=1), c.mean(), c.reshape(3, 67).mean(axis=-1)
    check_native(f, _complex(37), _complex((3, 21)), _complex(201, np.complex64))
