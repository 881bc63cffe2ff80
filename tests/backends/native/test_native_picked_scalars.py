"""Tier 2 on loop nodes that pick Python numbers per trip (backends/native/picked_scalars.py,
issue #23): a running argmin's index, counters, a running minimum, a two-way counter of
an int64 array, lowered as kernel variables (no ``objmode`` call per trip, which made
such loops 35-45x slower than plain Python), bit for bit eager's (tier_runs.py); integer
scalar ``+`` and ``-x`` flagged where NumPy's overflow (tier 1 reruns the call and
warns as eager). Three Numba compiles (about 1-3 s of CPU each on a loaded 2-core
machine); the overflow conditions themselves are checked against NumPy without Numba.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
from dynamo.backends.native.picked_scalars import scalar_overflow

numba = pytest.importorskip("numba")

from kernel_sources import kernel_sources  # noqa: E402
from tier_runs import same_in_tier_two, tier_two_results  # noqa: E402

N = 1100   # (past config.max_unroll = 1024: each loop is a loop node)


def picks(d, t, lo, hi):
    best = d[0]
    arg = 0
    for i in range(1, len(d)):          # running argmin: a NumPy scalar and a picked int
        if d[i] < best:
            best = d[i]
            arg = i
    count = 0
    for i in range(len(d)):             # a counter of a chained comparison
        if lo <= d[i] < hi:
            count += 1
    counts = np.zeros(2, np.int64)
    m = d[0]
    out = np.empty_like(d)
    for i in range(len(d)):             # int64 scalars of an array; a running minimum
        if d[i] > t:
            counts[0] += 1
        else:
            counts[1] += 1
        if d[i] < m:
            m = d[i]
        out[i] = m
    return best, arg, count, counts, out


def _data(seed=0):
    d = np.random.default_rng(seed).standard_normal(N)
    d[::7] = np.nan   # (comparisons with NaN: False, as in eager; no op makes one)
    d[3] = -np.inf
    return d


def test_picked_numbers_are_kernel_variables():
    d = _data()
    sources = kernel_sources(picks, d, 0.5, -0.5, 0.5, strict=True,
                             dynamic_shapes=True)
    kernel = "".join(sources)
    assert len(sources) == 1 and "objmode(" not in kernel, kernel
    # the index picked as an int64 of the trip, the selects as Python's conditional
    assert "np.int64((trip" in kernel and " if t" in kernel, kernel
    # overflow checks for ``counts[k] += 1`` only (two in the peeled first trip, two in
    # the loop): the picked counter's step has none (its bounds before the loop rule
    # an overflow out, ``no_overflow``; a check per trip kept LLVM from vectorizing it)
    assert len(re.findall(r"_nf \|= \(\(\(\w+ \^", kernel)) == 4, kernel
    tiers = same_in_tier_two(picks, d, 0.5, -0.5, 0.5, dynamic_shapes=True)
    assert all(t.state == "native" for t in tiers), [t.state for t in tiers]


def count8(x):
    counts = np.zeros(2, np.int8)
    for i in range(len(x)):
        if x[i] > 0:
            counts[0] += 1   # np.int8 + 1: wraps past 127 and warns, in eager too
        else:
            counts[1] += 1
    return counts


def negate8(x):
    out = np.zeros(len(x), np.int8)
    for i in range(1, len(x)):
        out[i] = -x[i - 1]   # -np.int8(-128): -128, and NumPy warns (Numba: no widening)
    return out


def _counted():
    x = np.ones(N)
    x[::5] = -1.0
    return x


def _int8_edge():
    x = np.ones(N, np.int8)
    x[4] = -128
    return x


@pytest.mark.parametrize("program, data", [(count8, _counted), (negate8, _int8_edge)])
def test_int8_scalar_overflow_warns_as_eager(program, data):
    x = data()

    def run(fn):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            got = fn()
        return got, sorted({(w.category, str(w.message)) for w in seen})
    want, want_warned = run(lambda: program(x))
    assert want_warned, "eager warns: the test needs an overflow"
    (got, tiers), got_warned = run(
        lambda: tier_two_results(program, x, dynamic_shapes=True)[1:])
    np.testing.assert_array_equal(got[0], want, strict=True)
    assert got_warned == want_warned
    # the kernel ran (before, the graph stayed in tier 1) and flagged the call, which
    # tier 1 reran: it answered none itself
    assert [(t.state, t.error, t.native_calls) for t in tiers] == [("native", None, 0)]


_EDGES = [-(1 << 63), -(1 << 63) + 1, -(1 << 62), -2, -1, 0, 1, 2, (1 << 62),
          (1 << 63) - 2, (1 << 63) - 1]


@pytest.mark.parametrize("dtype", ["int64", "int8", "int32"])
@pytest.mark.parametrize("name", ["add", "subtract"])
def test_overflow_condition_is_numpys(name, dtype):
    # the flag's condition, evaluated as the kernel does (int64 wraps; smaller ints
    # widened to int64 and the result cast back), against NumPy's own warning
    t = np.dtype(dtype).type
    info = np.iinfo(dtype)
    edges = sorted({max(info.min, min(info.max, e)) for e in _EDGES} |
                   {info.min + 1, info.max - 1})
    cond = scalar_overflow(name, np.dtype(dtype))
    for a in edges:
        for b in edges:
            with warnings.catch_warnings(record=True) as seen:
                warnings.simplefilter("always")
                r = getattr(t(a), f"__{name[:3]}__")(t(b))
            warned = any("overflow" in str(w.message) for w in seen)
            # (smaller ints: Numba widens the operands to int64; r is the cast result)
            env = {"a": np.int64(a), "b": np.int64(b), "r": np.int64(r)}
            with np.errstate(over="ignore"):
                flagged = bool(eval(cond.format(a="a", b="b", r="r"), {}, env))
            assert flagged == warned, (name, dtype, a, b)
