"""Tier 2 with ``np.copy`` of a scalar (a 0-d array): ``float(np.abs(u).max())`` at the
end of a time stepper copies the max into a 0-d array the frame reads after the
graph. The kernel keeps it a scalar variable and returns a new 0-d array of its dtype
(``nests.materialize``, ``call_helpers.output_items``). Before, the whole graph stayed
in tier 1 ("0-d copy").
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from kernel_sources import kernel_source as _lowered  # noqa: E402
from test_native import check_native  # noqa: E402 (needs numba)

rng = np.random.default_rng(3)


def _stepper(u, steps):
    for _ in range(steps):
        un = u.copy()
        un[1:-1] = u[1:-1] + 0.1 * (u[2:] - 2 * u[1:-1] + u[:-2])
        u = un
    return u, float(np.abs(u).max()), np.copy(u.sum()), np.copy(u[0] * 2.0 > u[1])


def test_zero_d_copies_of_scalars():
    u = rng.standard_normal(300)
    assert isinstance(_lowered(_stepper, u, 5), str)
    made = check_native(_stepper, u, 5)
    assert made


def test_zero_d_copy_with_a_nan():
    u = rng.standard_normal(300)
    u[4] = np.nan
    check_native(_stepper, u, 3, native=False)
