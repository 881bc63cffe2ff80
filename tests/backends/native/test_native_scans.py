"""``np.cumsum``/``np.cumprod``/``np.diff`` lowered to loops in the kernel
(backends/native/scans.py), not NumPy calls in object mode: eager, tier 1 and tier 2
bit for bit (dtypes, integer wrapping, NaN/inf, 0-size, 1-element, strided and
reversed inputs), and the kernel source holds no ``objmode`` call for them.

Each tier-2 case costs one Numba compile (1-3 s of CPU): the cases are few and cover
several dtypes and layouts at once.
"""

from __future__ import annotations

import contextlib
import warnings

import numpy as np
import pytest

pytest.importorskip("numba")

from dynamo.backends.native.backend import native_backend  # noqa: E402
from dynamo.backends.native.tier import Tiered  # noqa: E402
from kernel_sources import kernel_source  # noqa: E402
from tier_runs import SYNC, same_in_all_tiers  # noqa: E402

import dynamo  # noqa: E402

rng = np.random.default_rng(2323)


def same_as_loops(fn, *args):
    """``fn``'s kernel calls no NumPy in object mode, and every tier gives eager's
    results bit for bit."""
    source = kernel_source(fn, *args)
    assert isinstance(source, str), source
    assert "objmode" not in source and "_npcall" not in source, source
    same_in_all_tiers(fn, *args)


def scans_1d(x):
    return np.cumsum(x), np.cumprod(x), np.diff(x)


def scans_views(C):
    # a row, a reversed row, a strided column, the method form
    return (np.cumsum(C[0]), np.cumprod(C[1, ::-1]), np.diff(C[::2, 1]),
            C[2].cumsum(), np.cumsum(C[0] * 2.0 + 1.0))


def scans_2d(C):
    return np.cumsum(C, axis=1), np.cumprod(C, axis=-1), np.cumsum(C, axis=0)


def small_ints(x8, u8, b):
    # small ints and bool accumulate in the platform int; dtype= honoured; diff wraps
    return (np.cumsum(x8), np.cumprod(x8), np.cumsum(u8), np.cumsum(b), np.cumprod(b),
            np.cumsum(x8, dtype=np.int64), np.diff(x8), np.diff(u8),
            np.cumsum(x8.astype(np.float32), dtype=np.float64))


def dp_row(C):
    """scripts/native_recursions.py's ``dp_table`` first row."""
    D = np.zeros(C.shape)
    D[0] = np.cumsum(C[0])
    return D


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
@pytest.mark.parametrize("n", [0, 1, 37])
def test_1d_scans_match(dtype, n):
    x = (rng.standard_normal(n) * 3).astype(dtype) if dtype != "int64" else \
        rng.integers(-1 << 40, 1 << 40, n)   # products overflow: int64 wraps
    same_as_loops(scans_1d, x)


def test_floats_sequential_order_and_signed_zero():
    # a sequential sum differs from a pairwise one in the last bits on this data
    x = rng.standard_normal(300) * np.logspace(-8, 8, 300)
    x[0] = -0.0
    same_as_loops(lambda v: (np.cumsum(v), np.cumsum(v[::-1]), np.cumprod(v[:5])), x)


@pytest.mark.parametrize("bad", [np.nan, np.inf, 1e308])
def test_nan_inf_overflow_run_as_eager(bad):
    # the kernel flags the call (a NaN or infinity in a run), tier 1 reruns it: the
    # results and the warnings are eager's
    x = np.linspace(1.0, 2.0, 9)
    x[4] = bad
    made = []

    def backend(graph, example_inputs):
        made.append(native_backend(graph, example_inputs, options=SYNC))
        return made[-1]
    compiled = dynamo.compile(scans_1d,
                              backend=backend)
    with pytest.warns(RuntimeWarning) if bad == 1e308 else _no_warning():
        want = scans_1d(x.copy())
    for _ in range(2):
        with pytest.warns(RuntimeWarning) if bad == 1e308 else _no_warning():
            got = compiled(x.copy())
        for g, w in zip(got, want, strict=True):
            np.testing.assert_array_equal(g, w, strict=True)
    tiers = [m for m in made if isinstance(m, Tiered)]
    assert tiers and all(t.error is None for t in tiers), [t.error for t in tiers]
    with np.errstate(all="ignore"):
        assert "objmode" not in kernel_source(scans_1d, x)


@contextlib.contextmanager
def _no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def test_views_and_2d():
    C = rng.standard_normal((6, 5))
    same_as_loops(scans_views, C)
    same_as_loops(scans_2d, C)


def test_small_ints_promote_and_wrap():
    x8 = rng.integers(-128, 128, 50).astype(np.int8)
    u8 = rng.integers(0, 256, 50).astype(np.uint8)
    b = rng.random(50) < 0.5
    same_as_loops(small_ints, x8, u8, b)


def rows_in_a_loop(X):
    out = np.empty(X.shape)
    for i in range(X.shape[0]):
        out[i] = np.cumsum(X[i])   # a per-row loop: the scan in its body
    return out


def test_scans_in_a_loop():
    same_as_loops(rows_in_a_loop, rng.standard_normal((6, 9)))


def test_dp_table_row():
    same_as_loops(dp_row, rng.random((7, 7)))
