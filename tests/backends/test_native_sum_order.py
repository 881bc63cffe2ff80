"""Tier 2's float sums add in NumPy's own order (``backends/native/pairwise.py``), so
they are eager's bit for bit: rows along the last axis, whole arrays, 1-D runs strided
or reversed, means, keepdims, for float32 and float64 and every length from 0 to 1000
(the plan, against ``np.sum``) and the lengths where the order changes (7/8,
128/129, splits past 128) through a compiled kernel (one: Numba's compile is most of
the time); layouts NumPy reads in another order (Fortran-ordered inputs) run in tier
1, and sums that cast through NumPy's buffers (an integer mean of more than 8192
elements) are NumPy's own call from the kernel.

Compared by their bytes: the sign of a zero sum (NumPy's is ``0.0 + pairwise total``,
so a sum of ``-0.0`` is ``0.0``) counts too."""

from __future__ import annotations

import numpy as np
import pytest
from dynamo.backends.native.pairwise import BLOCK, plan, stack_depth

import dynamo

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


def _plan_sum(a: np.ndarray) -> np.generic:
    """``0 + sum(a)`` in the order ``plan`` gives, with NumPy scalars and 8-lane vector
    adds (each lane is one partial sum: the same roundings as the kernel's)."""
    dt = a.dtype.type
    n = len(a)
    if n < 8:
        total = dt(0)
        for v in a:
            total = dt(total + v)
        return total
    stack: list = []
    for start, size, adds in plan(n):
        lanes = a[start:start + 8].copy()
        for j in range(1, size // 8):
            lanes = lanes + a[start + 8 * j:start + 8 * j + 8]
        s = dt(dt(dt(lanes[0] + lanes[1]) + dt(lanes[2] + lanes[3])) +
               dt(dt(lanes[4] + lanes[5]) + dt(lanes[6] + lanes[7])))
        for v in a[start + size - size % 8:start + size]:
            s = dt(s + v)
        for _ in range(adds):
            s = dt(stack.pop() + s)
        stack.append(s)
    assert len(stack) == 1
    return dt(dt(0) + stack[0])


def _bits(got, want) -> bool:
    got, want = np.asarray(got), np.asarray(want)
    return got.dtype == want.dtype and got.shape == want.shape \
        and got.tobytes() == want.tobytes()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_plan_is_numpys_order_for_every_length(dtype):
    rng = np.random.default_rng(7)
    for n in [*range(1001), 4097, 8192, 8193, 10 ** 5]:
        a = (rng.standard_normal(n) * 1e3).astype(dtype)
        assert _bits(_plan_sum(a), np.sum(a)), n
        strided = a[::-3]
        assert _bits(_plan_sum(strided), strided.sum()), (n, "strided")


def test_plan_leaves_cover_the_run_in_order():
    for n in (129, 300, 1000, 10 ** 6 + 3):
        leaves = plan(n)
        assert leaves[0, 0] == 0 and leaves[-1, 0] + leaves[-1, 1] == n
        assert (leaves[1:, 0] == leaves[:-1, 0] + leaves[:-1, 1]).all()
        assert ((leaves[:, 1] >= 64) & (leaves[:, 1] <= BLOCK)).all()
        assert leaves[:, 2].sum() == len(leaves) - 1     # one addition per split
    assert stack_depth(plan(10 ** 6)) == 13


@settings(max_examples=60, derandomize=True, deadline=None)
@given(n=st.integers(0, 3000), dtype=st.sampled_from([np.float32, np.float64]),
       zeros=st.booleans(), seed=st.integers(0, 2 ** 32 - 1))
def test_the_plan_against_numpy_with_signed_zeros(n, dtype, zeros, seed):
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 30)).astype(dtype)
    if zeros:    # runs of -0.0 (a sum of them is NumPy's 0.0) among the values
        a[rng.random(n) < 0.7] = -0.0
    assert _bits(_plan_sum(a), np.sum(a))


SYNC = {"after_calls": 1, "background": False, "prefer": "native", "cache": False}
# where the order changes: 8 partial sums from 8, one leaf up to 128, splits past it
LENGTHS = (0, 7, 8, 17, 128, 129, 1000)


def _compiled(fn):
    numba = pytest.importorskip("numba")   # noqa: F841 (tier 2 needs it)
    from dynamo.backends.native.backend import native_backend
    made = []

    def backend(graph, example_inputs):
        made.append(native_backend(graph, example_inputs, options=SYNC))
        return made[-1]
    return dynamo.compile(fn, backend=backend), made


def _native_calls(made) -> int:
    from dynamo.backends.native.tier import Tiered
    tiers = [m for m in made if isinstance(m, Tiered)]
    assert tiers and all(t.error is None for t in tiers), [t.error for t in tiers]
    return sum(t.native_calls for t in tiers)


def _sums(x, m, y):
    heads = tuple(x[:n].sum() for n in LENGTHS)
    return heads + (
        x[::3].sum(), x[::-1].mean(), m.sum(axis=-1, keepdims=True), m.sum(),
        m[1:-1, 3::2].sum(axis=1), (m * 2).sum(), m.mean(axis=0), m[:, :1].sum(axis=0),
        y.sum(), y[1::7].mean())


def test_kernel_sums_are_eagers_bits(dtype=np.float64):
    """(One dtype: a kernel's compile takes most of this file's time; float32 rows go
    through the same code, in tests/hostile's round7_native/reduction_float32_long_row
    and the plan tests above.)"""
    rng = np.random.default_rng(11)
    x = (rng.standard_normal(1000) * 1e3).astype(dtype)
    m = rng.standard_normal((6, 1000)).astype(dtype)
    m[2] = -0.0           # a row of negative zeros: NumPy's sum is 0.0
    y = rng.standard_normal(10 ** 5).astype(dtype)
    c, made = _compiled(_sums)
    want = _sums(x, m, y)
    for call in range(2):     # tier 1, then tier 2
        got = c(x.copy(), m.copy(), y.copy())
        assert len(got) == len(want)
        for k, (g, w) in enumerate(zip(got, want)):
            assert _bits(g, w), (call, k, g, w)
    assert _native_calls(made) == 1
    # Fortran order: NumPy adds m's rows column by column; that call runs in tier 1
    mf = np.asfortranarray(m)
    got, want = c(x, mf, y), _sums(x, mf, y)
    assert all(_bits(g, w) for g, w in zip(got, want))
    assert _native_calls(made) == 1


def test_integer_mean_past_numpys_buffer_is_numpys_own_call(caplog):
    """NumPy casts an integer mean through buffers of 8192 elements and sums each
    buffer pairwise: such a mean is not a loop nest but NumPy's own call from the
    kernel (calls.py), exact all the same; a row of 100 is a loop nest."""
    def mean(a, b):
        return a.mean(), b.mean(axis=1)
    a = np.arange(-2 ** 62, 2 ** 62, 2 ** 49, dtype=np.int64)[:9000] * 3 + 1
    b = np.arange(4 * 100, dtype=np.int64).reshape(4, 100) * (2 ** 55 + 1)
    c, made = _compiled(mean)
    with caplog.at_level("DEBUG", logger="dynamo.backend"):
        for _ in range(2):
            got = c(a, b)
            assert all(_bits(g, w) for g, w in zip(got, mean(a, b)))
    assert _native_calls(made) == 1
    (source,) = [m.__dynamo_native_source__ for m in made if hasattr(m, "native_calls")]
    assert source.count("_npcall(") == 1 and "_pw_plan(" not in source
