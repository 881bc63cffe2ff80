"""Tier 2 on symbolic arguments of NumPy calls (backends/native/calls.py,
``_size_source``): an expression of a loop's index passed to NumPy, as Adam's bias
correction ``m / (1 - b1 ** t)`` passes ``1 - 0.9 ** float(trip + 2)`` and a source
term ``np.sin(0.3 * t)``, is the same Python expression on Python ints in the kernel's
call, so NumPy sees a Python float as in eager (a float32 array stays float32).
Before: the graph stayed in tier 1 ("a SymArg constant passed to NumPy").

Each program runs eagerly, on the numpy backend (tier 1) and with tier 2 forced (its
second call), bit for bit, over 0-size, 1-element, strided, reversed and Fortran
inputs of float64 and float32. Each compiled case costs one Numba compile (1-3 s).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from tier_runs import same_in_all_tiers  # noqa: E402

rng = np.random.default_rng(1524)


def adam(w, g, b1=0.9, b2=0.999):
    """Bias-corrected moments of a fixed gradient, as Adam's steps make them."""
    m, v = np.zeros_like(w), np.zeros_like(w)
    for t in range(1, 21):
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g ** 2
        w = w - 0.01 * (m / (1 - b1 ** t)) / (np.sqrt(v / (1 - b2 ** t)) + 1e-8)
    return w, m


def driven(u):
    """A source term of the step's time, ``np.sin`` of a Python float."""
    for n in range(20):
        u = 0.5 * u + np.sin(0.3 * (n + 1)) * 0.1
    return u




def _layout(shape, dtype, layout):
    """Values of ``shape`` as a C array, a strided view, a reversed view or F order."""
    x = rng.standard_normal(shape).astype(dtype)
    if layout == "strided":
        big = np.zeros(tuple(2 * n for n in shape), dtype)
        big[tuple(slice(None, None, 2) for _ in shape)] = x
        return big[tuple(slice(None, None, 2) for _ in shape)]
    if layout == "reversed":
        return np.ascontiguousarray(x[::-1])[::-1]
    return np.asfortranarray(x) if layout == "F" else x


@pytest.mark.parametrize("shape", [(0, 3), (1, 1), (5, 4)])
@pytest.mark.parametrize("layout", ["C", "strided", "reversed", "F"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_bias_corrections_of_the_step_count(shape, layout, dtype):
    same_in_all_tiers(adam, _layout(shape, dtype, layout), _layout(shape, dtype, layout))


@pytest.mark.parametrize("shape", [(0,), (1,), (7,)])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_a_source_term_of_the_time(shape, dtype):
    same_in_all_tiers(driven, _layout(shape, dtype, "reversed"))
