"""Tier 2 stores elementwise ops with ``out=`` in place (``backends/native/outs.py``):
``x += y``, ``np.multiply(a, b, out=buf)``, outs that are views, outs that overlap an
operand (NumPy copies the operand first), in loops; each against eager (results,
dtypes, the arguments afterwards). Before, any ``out=`` kept its graph in tier 1.

Each compiled test costs one Numba compile (1-5 s of CPU).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from dynamo.backends.native.lower import Unsupported  # noqa: E402
from kernel_sources import kernel_source as _lowered  # noqa: E402
from test_native import check_native  # noqa: E402 (needs numba)

rng = np.random.default_rng(11)


def _in_place(x, y):
    x += y                 # an input written in place
    x *= 0.5
    return x.sum()


def _new_out(x, y):
    z = x * 2.0            # a new array, then updated in place
    z -= y
    np.multiply(z, y, out=z)
    return z


def _views(a, b):
    np.add(a[1:-1, 1:-1], a[:-2, 1:-1], out=b[1:-1, 1:-1])   # out a view of another input
    b[1:-1, 1:-1] *= 0.25
    return b[0].copy()


def _overlap(x):
    d = x[:-1]
    np.add(x[1:], d, out=x[1:])     # NumPy copies d (it overlaps the out) first
    return d * 1.0                  # ... but d itself sees the store


def test_in_place_update_of_an_input():
    x, y = rng.standard_normal(1000), rng.standard_normal(1000)
    check_native(_in_place, x, y)
    assert isinstance(_lowered(_in_place, x, y), str)


def test_a_new_array_updated_in_place():
    check_native(_new_out, rng.standard_normal((50, 40)), rng.standard_normal((50, 40)))


def test_outs_that_are_views_and_overlaps():
    check_native(_views, rng.standard_normal((30, 20)), rng.standard_normal((30, 20)))
    check_native(_overlap, rng.standard_normal(500))


def test_int8_wraps_in_place():
    def f(x, y):
        x += y
        x -= 3
        return x
    x = rng.integers(-128, 128, 300).astype(np.int8)
    check_native(f, x, rng.integers(-128, 128, 300).astype(np.int8))


def test_in_place_in_a_loop():
    def f(u, v, n):
        for _ in range(n):
            u += 0.1 * (v - u)
            v -= 0.05 * u
        return u, v
    check_native(f, rng.standard_normal(2000), rng.standard_normal(2000), 20)


def test_nan_in_place_reruns_tier1_as_eager():
    x = rng.standard_normal(100)
    x[7] = np.nan
    made = check_native(_in_place, x, rng.standard_normal(100), native=False)
    assert made and all(getattr(m, "error", 1) is None for m in made)   # a Tiered's


def test_another_dtype_or_shape_stays_in_tier1():
    """An int out of a float loop raises in NumPy, a float32 out of a float64 loop
    casts: neither is taken."""
    def to_float32(x, y):
        np.add(x, y, out=x)
        return x
    got = _lowered(to_float32, np.ones(10, np.float32), np.ones(10))
    assert isinstance(got, Unsupported), got
