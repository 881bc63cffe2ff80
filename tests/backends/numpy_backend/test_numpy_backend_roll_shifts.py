"""``np.roll`` by an integer the graph reads at run time (``np.roll(f, c[i, 0], axis=0)``,
a lattice's velocity table) runs as the copies of its offset's plan
(``library_calls.RollPlans``): equal to ``np.roll`` for every shift, dtype and axis,
huge, negative, unsigned and boolean shifts included."""

from __future__ import annotations

import numpy as np
from dynamo.backends.numpy_backend.library_calls import RollPlans, roll_copies
from harness import check
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

SHIFT_DTYPES = (np.int8, np.int64, np.uint8, np.uint64, np.bool_)


@st.composite
def roll_cases(draw):
    a = draw(hnp.arrays(draw(st.sampled_from((np.float64, np.int32, np.bool_))),
                        hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=5)))
    axis = draw(st.integers(-a.ndim, a.ndim - 1))
    dtype = draw(st.sampled_from(SHIFT_DTYPES))
    info = np.iinfo(dtype) if dtype is not np.bool_ else None
    value = draw(st.booleans()) if info is None else \
        draw(st.integers(int(info.min), int(info.max)))
    shift = np.array(value, dtype=dtype)
    return a, shift, axis


@given(roll_cases())
@settings(max_examples=200, deadline=None)
def test_plans_equal_np_roll(case):
    a, shift, axis = case
    ax = axis % a.ndim
    plans = RollPlans(a.shape, ax)
    got = roll_copies(a, plans[int(shift) % (a.shape[ax] or 1)])
    want = np.roll(a, shift, axis)
    np.testing.assert_array_equal(got, want, strict=True)
    assert len(plans) <= max(1, a.shape[ax])


def stream(f, c):
    for i in range(c.shape[0]):
        f[i] = np.roll(np.roll(f[i], c[i, 0], axis=0), c[i, 1], axis=1)
    return f


@given(data=st.data(), dtype=st.sampled_from(SHIFT_DTYPES[:4]))
@settings(max_examples=25, deadline=None)
def test_streaming_equals_eager(data, dtype):
    """A D2Q9-style streaming step, velocities from a table of any integer dtype, and a
    0-d shift array: the numpy backend equals eager (one graph, no break)."""
    n = data.draw(st.integers(1, 6))
    info = np.iinfo(dtype)
    c = data.draw(hnp.arrays(dtype, (3, 2), elements=st.integers(int(info.min),
                                                                 int(info.max))))
    f = np.arange(3 * n * (n + 1), dtype=float).reshape(3, n, n + 1)
    check(stream, f, c, backend="numpy", graphs=1, breaks=0)

    def by_array(x, s):
        return np.roll(x, s, -1) + 0.5
    check(by_array, f[0], np.array(c[0, 0]), backend="numpy", graphs=1, breaks=0)
