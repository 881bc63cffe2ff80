"""Tier 2 slices with run-time bounds (``backends/native/sym_slices.py``): a loop's
index in ``x[k:k + n]``, ``data[start:start + chunk]``, ``x[n - taps:n][::-1]``, with
constant steps and other index items; each against eager. Before, any such slice kept
its graph in tier 1.

Each compiled test costs one Numba compile (1-5 s of CPU).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from dynamo.backends.native.lower import Unsupported  # noqa: E402
from test_native import check_native  # noqa: E402 (needs numba)
from test_native_outs import _lowered  # noqa: E402

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


def test_a_slice_read_after_a_write_or_returned_stays_in_tier1():
    """A copy is not a view: a write between the slice and its reader (the view
    would see it) and a slice that is an output keep the graph in tier 1."""
    def write_between(x):
        for k in range(20):
            v = x[k:k + 4]
            x[30] = 5.0
            x[31:35] = v + 1.0
        return x

    def returned(x):
        out = []
        for k in range(2):
            out.append(x[k:k + 3])
        return out
    for fn in (write_between, returned):
        got = _lowered(fn, np.arange(40.0))
        assert isinstance(got, Unsupported), got
        check_native(fn, np.arange(40.0), native=False)
