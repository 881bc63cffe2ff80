"""Tier 2 on NumPy calls whose result the kernel never reads (backends/native/calls.py):
a product with no element (``a / (K @ v)`` where ``K`` has no row: the division's nest
runs no trip and is not emitted) and the ``data_check`` of a branch on data (``if
norm > 0`` of the matrix exponential by scaling and squaring). Numba refuses an
object-mode output that no line after its block reads ("Invalid type annotation on
non-outgoing variables"): before, such kernels failed to compile and the graph stayed in
tier 1; now the kernel reads the result once.

Each program runs eagerly, on the numpy backend (tier 1) and with tier 2 forced (its
second call), bit for bit. Each compiled case costs one Numba compile (1-3 s of CPU).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from tier_runs import same_in_all_tiers  # noqa: E402

rng = np.random.default_rng(1525)


def scaled(a, K, v):
    return a / (K @ v) + 1.0


def scale_exponent(a):
    """The scaling step of ``expm_scaling_squaring`` (scripts/realworld_programs6.py):
    the branch on ``norm > 0`` is a ``data_check`` nothing in the graph reads."""
    norm = np.max(np.sum(np.abs(a), axis=1))
    s = max(0, int(np.ceil(np.log2(norm / 0.5)))) if norm > 0 else 0
    return a / 2 ** s




@pytest.mark.parametrize("layout", ["C", "F", "reversed"])
@pytest.mark.parametrize("cols", [0, 1, 4])
def test_a_product_with_no_element(layout, cols):
    K = rng.standard_normal((0, cols))
    K = np.asfortranarray(K) if layout == "F" else K[:, ::-1] if layout == "reversed" else K
    same_in_all_tiers(scaled, np.ones(0), K, rng.standard_normal(cols))


@pytest.mark.parametrize("n", [1, 5])
@pytest.mark.parametrize("scale", [0.1, 40.0])
def test_the_scaling_of_a_matrix_exponential(n, scale):
    same_in_all_tiers(scale_exponent, scale * rng.standard_normal((n, n)))
