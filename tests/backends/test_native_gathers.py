"""Tier 2 gathers with integer index arrays (``backends/native/gathers.py``):
``x[idx]``, ``P[rows, cols]``, ``W[idx, 3]``, ``x[idx, 1:7:2]``, negative indices, indices
out of bounds (NumPy's ``IndexError``, from tier 1 rerunning the call), index dtypes;
each against eager (results, dtypes, strides). Before, any index array kept its graph
in tier 1.

Each compiled test costs one Numba compile (1-5 s of CPU).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from dynamo.backends.native.lower import Unsupported  # noqa: E402
from test_native import check_native, compiled  # noqa: E402 (needs numba)
from test_native_outs import _lowered  # noqa: E402

rng = np.random.default_rng(5)


def _forms(x, idx, y):
    return x[idx] * 2.0, x[idx, 2] + 1.0, y[idx[:4], idx[1:5]], x[idx[:2], 1:7:2]


@pytest.mark.parametrize("itype", ["int64", "int32", "uint8"])
def test_gather_forms(itype):
    x, y = rng.standard_normal((6, 10)), rng.standard_normal((6, 6))
    idx = np.array([0, 5, 3, 2, 5, 1], itype)
    if itype != "uint8":
        idx[[1, 5]] = [-1, -6]                   # negative indices count from the end
    check_native(_forms, x, idx, y)


def test_cross_entropy_picks_and_a_new_array():
    def f(logits, labels):
        z = logits - logits.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        picked = p[np.arange(p.shape[0]), labels]    # a gather of an array of the kernel
        return -np.log(picked).mean(), p
    # exp and log within docs/native.md's 4 ulp; the picks themselves are exact
    check_native(f, rng.standard_normal((200, 10)), rng.integers(0, 10, 200),
                 rtol=4 * np.finfo(np.float64).eps)


def test_index_out_of_bounds_raises_as_eager():
    def f(x, idx):
        return x[idx] + 1.0
    x = rng.standard_normal(20)
    c, made = compiled(f)
    c(x, np.array([1, 2, 3]))
    for bad in ([1, 20, 3], [-21, 0, 0]):
        with pytest.raises(IndexError) as want:
            f(x, np.array(bad))
        with pytest.raises(IndexError) as got:
            c(x, np.array(bad))
        assert str(got.value) == str(want.value)
    assert made[0].error is None
    np.testing.assert_array_equal(c(x, np.array([19, -20, 0])), f(x, np.array([19, -20, 0])))
    assert made[0].native_calls >= 1


def test_wide_unsigned_and_later_indices_stay_in_tier1():
    """uint64 indices (past int64's range), ``A[:, cols]`` (NumPy's result is not
    C-ordered there)."""
    x = rng.standard_normal(10)
    A = rng.standard_normal((4, 5))
    assert isinstance(_lowered(lambda A, i: A[:, i] * 2.0, A, np.array([1, 2])), Unsupported)
    assert isinstance(_lowered(lambda x, i: x[i] * 2.0, x, np.array([1, 2], np.uint64)),
                      Unsupported)
