"""Tier 2 slices with run-time bounds (``backends/native/sym_slices.py``): a loop's
index in ``x[k:k + n]``, ``data[start:start + chunk]``, ``x[n - taps:n][::-1]``, with
constant steps and other index items; each against eager. Before, any such slice kept
its graph in tier 1.

Each compiled test costs one Numba compile (1-5 s of CPU).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("numba")

from dynamo.backends.native.lower import Unsupported  # noqa: E402
from kernel_sources import kernel_source as _lowered  # noqa: E402
from test_native import check_native  # noqa: E402 (needs numba)

rng = np.random.default_rng(11)


def _fir(x, taps):
    K = len(taps)
    n = len(x) - K + 1
    y = np.zeros(n)
    for k in range(K):
        y += taps[K - 1 - k] * x[k:k + n]
    return y


def _chunks(data, chunk=7):
    total = np.zeros(data.shape[1] - 1, data.dtype)
    for start in range(0, 280, chunk):
        total += data[start:start + chunk:2, 1:].sum(axis=0)
    return total


def _windows(x):
    out = np.zeros(4, x.dtype)
    for n in range(4, 60):
        out = out + x[n - 4:n][::-1] * (x[n - 4:n:3].max() > 0)
    return out


@pytest.mark.parametrize("dtype", ["float64", "int32"])
def test_loop_index_slices(dtype):
    check_native(_fir, (rng.standard_normal(200) * 10).astype(dtype),
                 (rng.standard_normal(40) * 10).astype(dtype))


def test_chunked_strided_slices_and_reversed_windows():
    check_native(_chunks, rng.standard_normal((280, 5)))
    check_native(_windows, rng.integers(-5, 5, 60).astype(np.int64))


def test_a_slice_is_a_view_that_reads_later_writes():
    """The slice is a view, as NumPy's: ``x[30] = ...`` after ``v = x[k:k + 4]`` shows
    through ``v`` (k = 27..29), and ``x[31:35] = v + 1.0`` reads what it overwrites
    (computed whole first). A copy at the getitem would read the old ``x[30]``."""
    def write_between(x):
        for k in range(30):
            v = x[k:k + 4]
            x[30] = x[k] * 2 + 3
            x[31:35] = v + 1
        return x
    for dtype in ("float64", "int64"):
        check_native(write_between, np.arange(40).astype(dtype))
    check_native(write_between, np.arange(80.0)[::2])   # a strided input


def test_a_view_passed_to_numpy_and_out_of_bounds_lengths():
    """``x[k:k + n] @ w`` passes the view itself to NumPy (LMS, reversed: a stop of
    -1 is None); negative starts and starts clamped at either end of ``x``."""
    def lms(x, d, taps=4, mu=0.01):
        w = np.zeros(taps)
        e = np.zeros(len(x))
        for n in range(taps, len(x)):
            u = x[n - taps:n][::-1]
            e[n] = d[n] - w @ u
            w = w + 2 * mu * e[n] * u
        return w, e
    check_native(lms, rng.standard_normal(50), rng.standard_normal(50))
    # the view itself goes to NumPy's matmul: ``v[s:(s + -4 if ... else None):-1]``
    source = _lowered(lms, rng.standard_normal(50), rng.standard_normal(50))
    assert re.search(r"\[\(?s\d+ \+ 3\)?:", source), source

    def tail(x, ks):
        k = ks[0]
        return x[k:k + 5] * 2.0
    from test_native import compiled
    c, made = compiled(tail)
    x = np.arange(20.0)
    for k in (3, 3, 17, -7, 4, -3, 15, -20, 0):
        np.testing.assert_array_equal(c(x, np.array([k])), tail(x, np.array([k])))
    # (the frontend guards the slice's length: clamped ends make graphs of their own)
    assert all(m.error is None for m in made) and sum(m.native_calls for m in made) >= 4


def test_a_returned_slice_or_a_store_into_it_stays_in_tier1():
    """A view as output (the kernel returns new arrays only); ``out=`` into an input's
    view with run-time bounds (its backup needs constant bounds)."""
    def returned(x):
        out = []
        for k in range(2):
            out.append(x[k:k + 3])
        return out

    def stored(x):
        for k in range(20):
            np.multiply(x[k:k + 3], 2.0, out=x[k:k + 3])
        return x
    for fn in (returned, stored):
        got = _lowered(fn, np.arange(40.0))
        assert isinstance(got, Unsupported), got
        check_native(fn, np.arange(40.0), native=False)
