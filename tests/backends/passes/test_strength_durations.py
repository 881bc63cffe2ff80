"""``strength_reduce`` leaves a division by an ``np.timedelta64`` alone: NumPy's
timedelta64 is an ``np.signedinteger``, but ``t / np.timedelta64(1, "m")`` is a count
of minutes, which no multiply by ``1 / c`` computes (the pass took it for the number 1
and failed the numpy backend's compile with ``float() argument must be ... not
'datetime.timedelta'``)."""

import numpy as np
import pytest

import dynamo

TD = np.array([1, -3, 0, 90], "timedelta64[h]")
TD_NAT = np.array([5, "NaT", 2], "timedelta64[D]")


def _minutes(t):
    return t / np.timedelta64(1, "m"), t / np.timedelta64(2, "h"), t // np.timedelta64(4, "h")


def _powers(t):
    return t * 2, t / 2, t / np.int64(4)


@pytest.mark.parametrize("fn", [_minutes, _powers])
@pytest.mark.parametrize("t", [TD, TD_NAT], ids=["hours", "nat"])
def test_division_by_a_duration_matches_eager(fn, t):
    with np.errstate(all="ignore"):
        want = fn(t)
        got = dynamo.compile(fn, backend="numpy")(t)
    for w, g in zip(want, got):
        assert g.dtype == w.dtype
        np.testing.assert_array_equal(g, w)
