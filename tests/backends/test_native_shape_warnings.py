"""Tier 2 and NumPy calls that warn through ``warnings.warn`` only for shapes the
graph knows (``backends/native/shape_warnings.py``): ``std``/``var`` with ``ddof``
below the count, ``median``/``percentile``/``quantile`` of non-empty slices, called
through NumPy from the kernel; the shapes that would warn stay in tier 1. Before,
any ``ddof`` and every order statistic kept its graph in tier 1 (8 graphs of the
benchmark's corpora: z-scores, robust scaling, bootstrap intervals, a median filter).

Each compiled test costs one Numba compile (1-5 s of CPU).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("numba")

from dynamo.backends.native.lower import Unsupported  # noqa: E402
from dynamo.backends.native.shape_warnings import reduced_count  # noqa: E402
from kernel_sources import kernel_source as _lowered  # noqa: E402
from test_native import check_native, compiled, same  # noqa: E402 (needs numba)

rng = np.random.default_rng(5)


def zscores(x):
    mu = x.mean(axis=0)
    sigma = x.std(axis=0, ddof=1)
    return (x - mu) / sigma, x.var(ddof=2) + 1.0


def robust(x):
    med = np.median(x, axis=0)
    q = np.percentile(x, [25, 50, 75], axis=0)
    lo, hi = np.quantile(x, 0.1), np.percentile(x, 95, axis=1, method="nearest")
    return (x - med) / (q[2] - q[0]), lo * 2.0, hi + 1.0, np.median(x) - med


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_moments_with_ddof_and_order_statistics_equal_eager(dtype):
    x = rng.standard_normal((30, 7)).astype(dtype)
    check_native(zscores, x)
    check_native(robust, x)


def test_integer_and_nan_inputs():
    """An int8 array's median/percentile (float results); a NaN gives NaN with no
    warning (a NaN result flags tier 2's call: tier 1 answers, as eager)."""
    check_native(robust, rng.integers(-50, 50, (9, 4)).astype(np.int8))
    x = rng.standard_normal((9, 4))
    x[3, 1] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_native(robust, x, native=False)


@pytest.mark.parametrize("f, shape", [
    (lambda x: x.std(axis=0, ddof=1) + 1.0, (1, 5)),       # 1 - 1 = 0 degrees of freedom
    (lambda x: x.var(ddof=6) + 1.0, (2, 3)),
    (lambda x: np.median(x, axis=1) + 1.0, (3, 0)),        # an empty slice
    (lambda x: np.median(x, axis=0) + 1.0, (0, 4)),
])
def test_shapes_that_warn_stay_in_tier1(f, shape):
    x = rng.standard_normal(shape)
    assert isinstance(_lowered(f, x), Unsupported)
    with warnings.catch_warnings(record=True) as want:
        warnings.simplefilter("always")
        w = f(x.copy())
    c, _ = compiled(f)
    for _ in range(2):
        with warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            same(c(x.copy()), w)
        assert [str(g.message) for g in got] == [str(g.message) for g in want]


def test_an_infinity_warns_as_eager_from_tier2():
    """``median`` of ``inf`` and ``-inf`` adds them: NumPy's 'invalid value' comes
    through the error state, so tier 2's call is flagged and tier 1 warns as eager."""
    def f(x):
        return np.median(x, axis=0) * 2.0
    x = rng.standard_normal((2, 3))
    c, made = compiled(f)
    c(x)
    same(c(x), f(x))
    assert made[0].native_calls == 1
    x[0, 0], x[1, 0] = np.inf, -np.inf
    with pytest.warns(RuntimeWarning, match="invalid value"):
        want = f(x)
    with pytest.warns(RuntimeWarning, match="invalid value"):
        same(c(x), want)
    assert made[0].native_calls == 1


@pytest.mark.parametrize("shape, axis, count", [
    ((5, 4), None, 20), ((5, 4), 0, 5), ((5, 4), -1, 4), ((2, 3, 4), (0, 2), 8),
    ((5, 4), 2, None), ((5, 4), "0", None),
])
def test_reduced_count(shape, axis, count):
    assert reduced_count(shape, axis) == count
