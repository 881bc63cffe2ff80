"""``np.add.at`` and other ``ufunc.at`` calls lowered to sequential update nests
(backends/native/ufunc_ats.py): eager, tier 1 and tier 2 bit for bit. Repeated
indices accumulate (unlike ``a[idx] += b``), negative indices wrap, rows of a 2-D
array, float32 targets updated by float64 values (rounded at each update), int8
wrapping, 0-size selections, strided values, a NaN (flagged: tier 1 reruns it and
warns as eager), an index out of bounds (tier 1 raises ``IndexError`` as eager, the
input unchanged).

Each tier-2 case costs one Numba compile: the cases are few, each covers several
forms at once.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("numba")

from dynamo.backends.native.backend import native_backend  # noqa: E402
from dynamo.backends.native.tier import Tiered  # noqa: E402
from kernel_sources import kernel_source  # noqa: E402
from tier_runs import SYNC, same_in_all_tiers, tier_two_results  # noqa: E402

import dynamo  # noqa: E402

rng = np.random.default_rng(5418)


def same_as_loops(fn, *args):
    """``fn``'s kernel updates in a nest (no NumPy call), every tier as eager."""
    source = kernel_source(fn, *args)
    assert isinstance(source, str), source
    assert "_npcall" not in source, source
    same_in_all_tiers(fn, *args)


def deposit(a, idx, w):
    # repeated indices accumulate; a weak Python scalar; the result read afterwards
    np.add.at(a, idx, 1.0 - w)
    np.add.at(a, idx[::-2], 0.5)
    np.subtract.at(a, idx[:3], w[:3][::-1])   # strided values
    return a * 2.0


def rows_and_extremes(E, rows, g):
    # rows of a 2-D array by an index array (values broadcast over the row); the
    # running maximum and minimum in NumPy's order
    np.add.at(E, rows, -0.1 * g)
    hi = np.full(4, -np.inf)
    lo = np.full(4, np.inf)
    np.maximum.at(hi, rows % 4, g[:, 0])
    np.minimum.at(lo, rows % 4, g[:, 1])
    return E.sum(axis=1), hi, lo


def narrow(a32, idx, v64, c8, k8):
    # float32 updated in float64 and rounded at every update; int8 wraps
    np.add.at(a32, idx, v64)
    np.add.at(c8, k8, np.int8(100))
    np.multiply.at(c8, k8[:2], np.int8(3))
    return a32, c8


@pytest.mark.parametrize("n", [0, 1, 12])
def test_repeated_indices_accumulate(n):
    idx = rng.integers(-5, 5, n)            # negative indices wrap, many repeats
    same_as_loops(deposit, np.zeros(5), idx, rng.random(n))


def test_rows_and_running_extremes():
    rows = rng.integers(0, 6, 20)
    same_as_loops(rows_and_extremes, rng.standard_normal((6, 3)), rows,
                  rng.standard_normal((20, 3)))


def test_float32_and_int8_update_as_numpy():
    idx = rng.integers(0, 3, 30)
    v64 = rng.random(30) * 1e-4 + 1.0
    k8 = rng.integers(0, 4, 50)
    same_as_loops(narrow, np.zeros(3, np.float32), idx, v64, np.zeros(4, np.int8), k8)


def test_out_of_bounds_reruns_tier_one():
    # an index out of bounds: the kernel flags it and writes nothing there; tier 1
    # reruns the call on the restored input and raises IndexError as eager, which
    # leaves the input unchanged
    def add(a, idx, v):
        np.add.at(a, idx, v)
        return a + 0.0
    made = []

    def backend(graph, example_inputs):
        made.append(native_backend(graph, example_inputs, options=SYNC))
        return made[-1]
    f = dynamo.compile(add, backend=backend)
    for _ in range(2):   # (the second call is tier 2's)
        got = f(np.zeros(3), np.array([0, 1, 1]), np.ones(3))
        np.testing.assert_array_equal(got, [1.0, 2.0, 0.0])
    assert isinstance(made[0], Tiered) and made[0].native_calls == 1
    b = np.ones(3)
    with pytest.raises(IndexError):
        f(b, np.array([0, 7, 1]), np.ones(3))
    np.testing.assert_array_equal(b, np.ones(3))


def test_maximum_at_nan_warns_as_eager():
    def hi(a, idx, v):
        np.maximum.at(a, idx, v)
        return a + 0.0
    args = (np.zeros(3), np.array([0, 2]), np.array([np.nan, 1.0]))
    with warnings.catch_warnings(record=True) as eager:
        warnings.simplefilter("always")
        hi(*(x.copy() for x in args))
    with warnings.catch_warnings(record=True) as tiers:
        warnings.simplefilter("always")
        want, got, made = tier_two_results(hi, *args)
    np.testing.assert_array_equal(got[0], want[0], strict=True)
    assert {str(w.message) for w in tiers} == {str(w.message) for w in eager}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")        # (the recorder runs the graph eagerly)
        assert "_npcall" not in kernel_source(hi, *(x.copy() for x in args))
