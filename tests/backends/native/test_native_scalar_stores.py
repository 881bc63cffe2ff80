"""A NumPy scalar stored by a basic index into an integer array of a narrower type
(``out[i] = a[i].sum()``, an int8 ``out`` and int64 sums): NumPy converts the scalar
through Python's int and raises ``OverflowError`` out of the target's range (a NaN:
``ValueError``), where a kernel's cast would wrap. Such a graph stays in tier 1
(hostile round 40, ``round40_native/row_sums_loop``: tier 2 returned ``[-1, 51, -128]``
where eager raised ``OverflowError: Python integer 128 out of bounds for int8``)."""

import numpy as np
import pytest

pytest.importorskip("numba")

from tier_runs import SYNC  # noqa: E402

import dynamo  # noqa: E402


def _row_sums(a):
    out = np.zeros(a.shape[0], dtype=a.dtype)
    for i in range(a.shape[0]):
        out[i] = a[i].sum()
    return out


def _outcome(fn, *args):
    try:
        return fn(*[a.copy() for a in args])
    except (OverflowError, ValueError) as e:
        return f"{type(e).__name__}: {e}"


@pytest.mark.parametrize("values, dtype", [
    ([100, 28, 3, 0, 55, -7, 64, 64], np.int8),     # 128 and 120 + ... past int8
    ([-60, -60, -60, -60, 1, 2, 3, 4], np.int8),    # -240 below int8
    ([30000, 30000, 0, 0, 1, 1, 1, 1], np.int16),   # 60000 past int16
])
def test_narrowing_scalar_store_raises_as_eager(values, dtype):
    a = np.array(values, dtype=dtype).reshape(2, 4)
    ok = np.array([1, 2, 3, 4, 5, 6, 7, 8], dtype=dtype).reshape(2, 4)
    f = dynamo.compile(_row_sums, backend="native", options=SYNC)
    f(ok.copy())
    f(ok.copy())   # tier 2 from here, where it would run
    assert isinstance(_outcome(_row_sums, a), str)   # eager raises
    got = _outcome(f, a)
    assert type(got) is type(_outcome(_row_sums, a)) and got == _outcome(_row_sums, a)
    np.testing.assert_array_equal(f(ok.copy()), _row_sums(ok.copy()), strict=True)


def test_float_scalar_into_int_stays_in_tier_one():
    def f(a, out):
        for i in range(a.shape[0]):
            out[i] = a[i] * 100.0
        return out
    a = np.array([1.0, np.nan, 0.5])
    c = dynamo.compile(f, backend="native", options=SYNC)
    c(np.ones(3), np.zeros(3, np.int8))
    c(np.ones(3), np.zeros(3, np.int8))
    want = _outcome(lambda x: f(x, np.zeros(3, np.int8)), a)
    got = _outcome(lambda x: c(x, np.zeros(3, np.int8)), a)
    assert isinstance(want, str) and got == want
