"""Tier 2 on Levinson-Durbin (issue #23): ``np.dot`` of slices whose length is the
loop's index, a reversed one among them (backends/native/dots.py, blas_dot.np_dot),
and a store into such a slice of an elementwise value of such slices
(backends/native/run_stores.py). Each program runs eagerly and with tier 2 forced
(its second call), bit for bit. Before: the graph stayed in tier 1 ("getitem_2:
symbolic shape").

Each compiled case costs one Numba compile (2-4 s of CPU).
"""

from __future__ import annotations

import numpy as np
import pytest

import dynamo

pytest.importorskip("numba")

from dynamo.backends.native.backend import native_backend  # noqa: E402
from dynamo.backends.native.dots import ddot_address  # noqa: E402
from dynamo.backends.native.lower import Unsupported  # noqa: E402
from dynamo.backends.native.tier import Tiered  # noqa: E402
from kernel_sources import kernel_sources as _lowered  # noqa: E402
from script_modules import load_script  # noqa: E402

levinson = load_script("native_recursions").levinson
SYNC = {"after_calls": 1, "background": False, "prefer": "native", "cache": False}
rng = np.random.default_rng(2323)
pytestmark = pytest.mark.skipif(ddot_address() is None,
                                reason="NumPy's bundled scipy-openblas ddot not found")


def _run(fn, inputs: list) -> int:
    """For each argument tuple: eager's results, then the compiled function's (its
    second call onwards: tier 2, or tier 1 where tier 2 flagged the call), bit for
    bit; the calls tier 2 answered."""
    made = []

    def backend(graph, example_inputs):
        out = native_backend(graph, example_inputs, options=SYNC)
        made.append(out)
        return out
    c = dynamo.compile(fn, backend=backend)
    c(*inputs[0])
    for args in inputs:
        want = fn(*args)
        got = c(*args)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w, strict=True)
    tiers = [m for m in made if isinstance(m, Tiered)]
    assert tiers and all(t.error is None for t in tiers), [t.error for t in tiers]
    return sum(t.native_calls for t in tiers)


def test_np_dot_is_numpys_bit_for_bit():
    """``blas_dot.np_dot`` against ``np.dot``: every length to 130 and two long ones,
    strides 1, 2 and 3, reversed (NumPy copies it), stride 0, and length 1 (a product:
    -0.0 stays -0.0)."""
    from dynamo.backends.native.blas_dot import np_dot
    for n in list(range(131)) + [1000, 4097]:
        a = rng.standard_normal(3 * n + 2) * 10.0 ** rng.integers(-100, 100)
        b = rng.standard_normal(3 * n + 2)
        for u, v in ((a[:n], b[:n]), (a[:3 * n:3], b[2:3 * n + 2:3]),
                     (a[:2 * n:2], b[:n][::-1]), (a[n:0:-1] if n else a[:0],
                     b[:n]), (a[:n][::-1], b[n:2 * n][::-1]),
                     (np.broadcast_to(a[:1], (n,)), b[:n])):
            assert np.float64(np_dot(u, v)).tobytes() == np.float64(np.dot(u, v)).tobytes(), \
                (n, u.strides, v.strides)
    neg = np.dot(np.array([-1.0]), np.array([0.0]))
    assert np.float64(np_dot(np.array([-1.0]), np.array([0.0]))).tobytes() == \
        np.float64(neg).tobytes()


def test_levinson_lowers_with_native_dots_and_stores():
    (source,) = _lowered(levinson, np.exp(-np.arange(20) / 8.0), 12)
    assert isinstance(source, str), source
    assert "_bdot_np(" in source and "objmode" not in source


@pytest.mark.parametrize("n", [1, 10, 37])
def test_levinson_equals_eager(n):
    """1 trip (no loop node), 10 and 37 (loop nodes of 9 and 36 trips); a NaN in the
    autocorrelation flags the call (tier 1 answers it, as eager)."""
    r = np.exp(-np.arange(n + 5) / 8.0) + 0.01 * rng.standard_normal(n + 5)
    r_nan = r.copy()
    r_nan[n // 2 + 1] = np.nan
    assert _run(levinson, [(r, n), (r * 0.5, n), (r_nan, n)]) >= 2


def _written_between(a0, r):
    a = a0 * 1.0                     # a new array (an input's store needs a backup)
    for k in range(1, a.shape[0] - 1):
        t = a[:k + 1] * 0.5 + r[k::-1]
        a[0] = r[k]                  # a write between the value and its store
        a[:k + 1] = t
    return a


def test_a_write_between_the_value_and_its_store_stays_in_tier_1():
    """The kernel would compute the value at the store, after the write."""
    got = _lowered(_written_between, rng.standard_normal(14), rng.standard_normal(14))
    assert any(isinstance(g, Unsupported) and "a write while" in str(g) for g in got), got
