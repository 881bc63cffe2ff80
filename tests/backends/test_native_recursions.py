"""Tier 2 on per-sample recursions and per-row loops (issue #23; backends/native/dots.py):
an LMS adaptive filter (``w @ x[n - k:n][::-1]`` per sample), a forward substitution
(``L[i, :i] @ x[:i]``: a slice whose length is the loop's index), and a DP recurrence
(Python's ``min`` of three NumPy scalars, traced as 0-d ``where``\\s). Each runs eagerly
and compiled with tier 2 forced (its second call), bit for bit, on random inputs with
edge sizes (loops of 0 and 1 trips), NaN and overflow (flagged calls rerun in tier 1).

Before: the LMS kernel called ``matmul`` in object mode per sample (4-5 us each, 11 ms
a call against tier 1's 4), the forward substitution stayed in tier 1 ("getitem_1:
symbolic shape") and so did the DP table ("0-d where").

Each compiled test costs one Numba compile (1-10 s of CPU).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import dynamo

pytest.importorskip("numba")

from dynamo.backends.native.backend import native_backend  # noqa: E402
from dynamo.backends.native.dots import ddot_address  # noqa: E402
from dynamo.backends.native.tier import Tiered  # noqa: E402
from kernel_sources import kernel_sources  # noqa: E402
from script_modules import load_script  # noqa: E402

# the programs scripts/bench_native.py times (the same functions, so the benchmark and
# these tests cannot drift apart)
_programs = load_script("native_recursions")
lms, forward_substitution, dp_table = (_programs.lms, _programs.forward_substitution,
                                       _programs.dp_table)

SYNC = {"after_calls": 1, "background": False, "prefer": "native", "cache": False}
rng = np.random.default_rng(23)
needs_blas = pytest.mark.skipif(ddot_address() is None,
                                reason="NumPy's bundled scipy-openblas ddot not found")


def lms_forward(x, d, taps=5, mu=0.05):
    w = np.zeros(taps)
    e = np.zeros(len(x))
    for n in range(taps, len(x)):
        u = x[n - taps:n]          # a forward window: NumPy's BLAS ddot
        e[n] = d[n] - u @ w
        w = w + mu * e[n] * u
    return w, e


def _run(fn, *args):
    """Eager's result and warnings, then tier 2's (the compiled second call) on copies;
    the Tiered objects made."""
    made = []

    def backend(graph, example_inputs):
        out = native_backend(graph, example_inputs, options=SYNC)
        made.append(out)
        return out
    c = dynamo.compile(fn, backend=backend)
    with warnings.catch_warnings(record=True) as want_w:
        warnings.simplefilter("always")
        want = fn(*[a.copy() for a in args])
    with warnings.catch_warnings(record=True):   # (tier 1's call; tier 2 compiles)
        warnings.simplefilter("always")
        c(*[a.copy() for a in args])
    with warnings.catch_warnings(record=True) as got_w:
        warnings.simplefilter("always")
        got = c(*[a.copy() for a in args])
    for g, w in zip(got if isinstance(got, tuple) else (got,),
                    want if isinstance(want, tuple) else (want,)):
        np.testing.assert_array_equal(g, w, strict=True)   # bit for bit, dtype
    assert [str(w.message) for w in got_w] == [str(w.message) for w in want_w]
    return [m for m in made if isinstance(m, Tiered)]


def _answered_by_tier2(tiers):
    assert tiers and all(t.error is None for t in tiers), [t.error for t in tiers]
    assert sum(t.native_calls for t in tiers) >= 1


@needs_blas
def test_the_dot_is_numpys_bit_for_bit():
    """``blas_dot.dot`` against ``np.matmul`` of 1-D float64 vectors: every length to
    300 and a few long ones, strides 1, 2, 3 (NumPy's ``ddot``), reversed and 0
    (NumPy's plain loop), magnitudes from 1e-150 to 1e150."""
    from dynamo.backends.native.blas_dot import dot
    for n in list(range(301)) + [1000, 4097]:
        scale = 10.0 ** rng.integers(-150, 150)
        a = rng.standard_normal(3 * n + 2) * scale
        b = rng.standard_normal(3 * n + 2)
        for u, v in ((a[:n], b[:n]), (a[1:2 * n + 1:2], b[:n]), (a[:3 * n:3], b[2:3 * n + 2:3]),
                     (a[n:0:-1] if n else a[:0], b[:n]), (a[:n][::-1], b[n:2 * n][::-1]),
                     (np.broadcast_to(a[:1], (n,)), b[:n])):
            assert np.float64(dot(u, v)).tobytes() == np.float64(u @ v).tobytes(), (n, u.strides)


def _native_dots(fn, *args):
    """Every graph of ``fn`` lowers, with its dots as ``_bdot`` and no object mode."""
    sources = kernel_sources(fn, *args)
    assert sources and all(isinstance(s, str) for s in sources), sources
    assert all("_bdot(" in s and "objmode" not in s for s in sources)


@needs_blas
def test_lms_filter_edge_sizes():
    """0, 1, 2 and 284 trips of the sample loop; the window reversed (NumPy's plain
    loop over a negative stride)."""
    for n in (16, 17, 18, 300):
        x = rng.standard_normal(n)
        d = np.convolve(x, [0.5, -0.3, 0.2, 0.1])[:n] + 0.01 * rng.standard_normal(n)
        _answered_by_tier2(_run(lms, x, d))
    _native_dots(lms, x, d)


@needs_blas
def test_lms_forward_window_nan_and_overflow_rerun_in_tier_1():
    x, d = rng.standard_normal(120), rng.standard_normal(120)
    _native_dots(lms_forward, x, d)
    _answered_by_tier2(_run(lms_forward, x, d))
    x[50] = np.nan                  # a NaN in the window: the call is flagged
    _run(lms_forward, x, d)
    x[50] = 1e200                   # NumPy warns: overflow encountered in matmul
    _run(lms_forward, x, d)


@needs_blas
def test_forward_substitution():
    """n = 1, 2 (unrolled: constant slices), 9-11 (a loop node of 8-10 trips), 120;
    ``L[i, :i]`` and ``x[:i]`` have the loop's index as their length."""
    for n in (1, 2, 9, 10, 11, 120):
        L = np.tril(rng.standard_normal((n, n))) + n * np.eye(n)
        b = rng.standard_normal(n)
        _answered_by_tier2(_run(forward_substitution, L, b))
        _native_dots(forward_substitution, L, b)


@pytest.mark.parametrize("shape", [(2, 2), (12, 2), (3, 12), (12, 12)])  # 1, 1 trips...
def test_dp_table_min_of_neighbours(shape):
    _answered_by_tier2(_run(dp_table, rng.random(shape)))


def test_dp_table_with_nan_and_ties():
    C = rng.integers(0, 3, (12, 6)).astype(np.float64)    # many equal neighbours
    _answered_by_tier2(_run(dp_table, C))
    C[4, 2] = np.nan               # Python's min and NaN: tier 1 answers, as eager
    _run(dp_table, C)
