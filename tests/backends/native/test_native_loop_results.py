"""Tier 2 on a loop's temporaries read after the loop (backends/native/loops.py): a
value the body makes but does not carry (``u = a / (K @ v)`` of Sinkhorn, where only
``v`` is carried; power iteration's Rayleigh quotient ``lam = x @ y``) holds its last
trip's value after the loop, as in eager. Before: the graph stayed in tier 1 ("an
array temporary of a loop read after it", "a scalar temporary ...").

Each program runs eagerly, on the numpy backend (tier 1) and with tier 2 forced (its
second call), bit for bit, over 0-size, 1-element, strided, reversed and Fortran
inputs. Each compiled case costs one Numba compile (1-3 s of CPU).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from tier_runs import same_in_all_tiers  # noqa: E402

rng = np.random.default_rng(1523)


def scalings(a, b, K):
    """Sinkhorn's alternate scalings: ``u`` is made anew before it is read, so the
    loop carries only ``v``; ``u`` is read after the loop
    (``+ 1.0``: no division by zero where ``K`` has no row, which eager reports)."""
    u, v = np.ones_like(a), np.ones_like(b)
    for _ in range(20):
        u = a / (K @ v)
        v = b / (K.T @ u + 1.0)
    return u[:, None] * K * v[None, :], u


def rayleigh(A, x):
    """Power iteration: ``lam`` (a NumPy float) and ``y`` are the last trip's (both
    bound before the loop, whose first trip rebinds them before reading them)."""
    y, lam = x, 0.0
    for _ in range(20):
        y = A @ x
        lam = x @ y
        x = y / np.sqrt(y @ y + 1.0)
    return x, lam * 2.0, y + 1.0




def _layouts(shape):
    """The same values as a C array, a strided view, a reversed view, Fortran order."""
    x = rng.standard_normal(shape) + 2.0
    big = np.empty(tuple(2 * n for n in shape))
    big[tuple(slice(None, None, 2) for _ in shape)] = x
    rev = np.ascontiguousarray(x[::-1])[::-1]
    return {"C": x, "strided": big[tuple(slice(None, None, 2) for _ in shape)],
            "reversed": rev, "F": np.asfortranarray(x)}


@pytest.mark.parametrize("n", [0, 1, 7])
@pytest.mark.parametrize("layout", ["C", "strided", "reversed", "F"])
def test_array_temporary_of_scalings(n, layout):
    K = np.abs(_layouts((n, n + 1))[layout]) + 0.5
    a, b = np.abs(rng.standard_normal(n)) + 0.1, np.abs(rng.standard_normal(n + 1)) + 0.1
    same_in_all_tiers(scalings, a, b, K)


@pytest.mark.parametrize("n", [0, 1, 9])
@pytest.mark.parametrize("layout", ["C", "strided", "reversed", "F"])
def test_rayleigh_quotient_of_power_iteration(n, layout):
    A = _layouts((n, n))[layout]
    same_in_all_tiers(rayleigh, A, rng.standard_normal(n))
