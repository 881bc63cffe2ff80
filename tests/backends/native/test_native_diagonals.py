"""``np.fill_diagonal`` lowered to a loop of stores in place
(backends/native/diagonals.py): eager, tier 1 and tier 2 bit for bit, for square,
tall (with and without ``wrap``), wide, 1x1, 0-size and 3-D arrays, constant
(``inf``), computed scalar and 1-D array values (repeated as NumPy repeats them),
int8 targets, an input written in place, and a value that reads the array.

Each tier-2 case costs one Numba compile: the cases are few, each covers several
forms at once.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from dynamo.backends.native.diagonals import diagonal_positions  # noqa: E402
from kernel_sources import kernel_source  # noqa: E402
from tier_runs import same_in_all_tiers  # noqa: E402

rng = np.random.default_rng(5419)


def same_as_loops(fn, *args):
    """``fn``'s kernel writes the diagonals in loops (no NumPy call), every tier as
    eager."""
    source = kernel_source(fn, *args)
    assert isinstance(source, str), source
    assert "_npcall" not in source, source
    same_in_all_tiers(fn, *args)


def pairs(x):
    # a pair matrix made in the kernel, its diagonal set to inf, then read by a min
    # (a sum or product of the inf would be an infinity the kernel flags: tier 1)
    d = x[:, None] - x[None, :]
    r = np.sqrt(d * d) + 1.0
    c = r * 2.0
    np.fill_diagonal(r, np.inf)
    np.fill_diagonal(c, 0.0)
    if x.shape[0] == 0:
        return c, r      # (no row to take a min of)
    return r.min(axis=1), c, r


def shapes(T, W, X, v):
    # tall without and with wrap, wide, a cube; a 1-D value repeated along each (the
    # cube is made in the kernel: a 3-D input's row backups cost a 6 s compile)
    np.fill_diagonal(T, v)
    U = T * 1.0
    np.fill_diagonal(U, -1.0, wrap=True)
    np.fill_diagonal(W, v[:2])
    C = X + 0.0
    np.fill_diagonal(C, 7)
    return T, U, W, C


def computed(A, b8):
    # a value computed in the kernel; a value that reads the array it is stored into;
    # int8 targets
    np.fill_diagonal(A, A.sum())
    np.fill_diagonal(b8, np.int8(-128))
    return A, b8


@pytest.mark.parametrize("n", [0, 1, 9])
def test_pair_matrices(n):
    same_as_loops(pairs, rng.standard_normal(n))


def test_tall_wide_wrapped_and_cubes():
    same_as_loops(shapes, rng.standard_normal((7, 3)), rng.standard_normal((2, 5)),
                  rng.standard_normal((3, 3, 3)), rng.standard_normal(5))


def test_computed_values_into_inputs():
    same_as_loops(computed, rng.standard_normal((4, 4)),
                  rng.integers(-128, 128, (3, 3)).astype(np.int8))


@pytest.mark.parametrize("shape,wrap", [((4, 3), False), ((7, 3), True), ((7, 3), False),
                                        ((2, 5), False), ((3, 3, 3), False),
                                        ((0, 4), True), ((1, 1), False)])
def test_positions_are_numpys(shape, wrap):
    a = np.zeros(shape)
    np.fill_diagonal(a, 1.0, wrap=wrap)
    step, count = diagonal_positions(shape, wrap)
    want = np.zeros(a.size)
    want[np.arange(count) * step] = 1.0
    np.testing.assert_array_equal(a.ravel(), want)
