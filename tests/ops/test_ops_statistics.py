"""percentile/quantile (and their nan* twins) and histogram agree with NumPy over shapes
(0-d and 0-size included), dtypes, q as a scalar, a list or an array, axis, keepdims,
method, bins as an integer or edges, range, density and weights; compiled programs equal
eager ones; what depends on the data breaks and says why."""

import numpy as np
import pytest
from harness import check, rand
from hypothesis import given, settings
from hypothesis import strategies as st
from ops_agree import DTYPES, agree, arrays

NUM = [d for d in DTYPES if d.kind not in "bc"]
QS = st.one_of(st.sampled_from([50, 0, 100, 101, -1, 12.5]),
               st.lists(st.sampled_from([5, 50, 95]), max_size=3),
               arrays([np.dtype("f8"), np.dtype("f4"), np.dtype("i8")], max_dims=2,
                      max_side=2).map(np.abs))


@given(a=arrays(NUM, max_dims=3, max_side=3), q=QS,
       axis=st.sampled_from([None, 0, -1, (0, 1), 2, 3]), keepdims=st.booleans(),
       method=st.sampled_from(["linear", "nearest", "lower", "bogus"]))
@settings(max_examples=150, deadline=None)
def test_percentile_quantile(a, q, axis, keepdims, method):
    kw = dict(axis=axis, keepdims=keepdims, method=method)
    # nan* with a q of 2+ dimensions over several axes: NumPy misplaces q's axes, so
    # the rule breaks (test_nan_quantile_of_2d_q_over_several_axes_breaks)
    nan_may_break = np.ndim(q) >= 2 and isinstance(axis, tuple)
    agree(np.percentile, a, q, **kw)
    agree(np.nanpercentile, a, q, may_break=nan_may_break, **kw)
    qq = np.asarray(q) / 100 if not isinstance(q, np.ndarray) else q / 100
    agree(np.quantile, a, qq, **kw)
    agree(np.nanquantile, a, qq.tolist(), may_break=nan_may_break, **kw)


def test_nan_quantile_of_2d_q_over_several_axes_breaks():
    """NumPy 2.4 gives (3, 4, 2) here, not q's shape in front, (2, 3, 4); the rule does
    not guess: the call breaks and NumPy itself runs it."""
    a, q = np.random.default_rng(0).random((2, 3, 4)), np.full((2, 3), 0.5)
    assert agree(np.nanquantile, a, q, axis=(0, 1), may_break=True) == "break"
    assert agree(np.nanquantile, a, q, axis=(0, 1, 2)) == "captured"   # all axes: fine
    assert agree(np.quantile, a, q, axis=(0, 1)) == "captured"


def test_percentile_options_that_break():
    a = np.arange(6.0)
    assert agree(np.percentile, a, 50, overwrite_input=True, may_break=True) == "break"
    assert agree(np.percentile, a, 50, out=np.zeros(()), may_break=True) == "break"


@given(a=arrays(NUM, max_dims=2, max_side=4),
       bins=st.one_of(st.integers(0, 4), st.sampled_from([[0, 1, 2], [0.0, 0.5], [2, 1], [0]]),
                      arrays([np.dtype("f8"), np.dtype("i4")], min_dims=1, max_dims=1,
                             max_side=4).map(np.sort)),
       rng=st.sampled_from([None, (0, 1), (1, 0), (-2.0, 2.0)]),
       density=st.sampled_from([None, True]), weighted=st.booleans())
@settings(max_examples=150, deadline=None)
def test_histogram(a, bins, rng, density, weighted):
    weights = np.ones(a.shape, np.float32) if weighted else None
    agree(np.histogram, a, bins, range=rng, density=density, weights=weights)
    agree(np.histogram_bin_edges, a, bins, range=rng)


def test_histogram_with_string_bins_is_captured():
    """The number of bins is an unbacked size (tests/realworld/test_repository_programs)."""
    assert agree(np.histogram, np.arange(5.0), "auto") == "captured"


# --------------------------------------------------------------------------- compiled

X = rand(20, 3, dtype=np.float64)


def describe(x, percentiles=(5, 50, 95)):
    qs = np.percentile(x, percentiles, axis=0)
    counts, edges = np.histogram(x[:, 0], bins=4, range=(-1.0, 1.0))
    return {"median": np.quantile(x, 0.5, axis=0), "iqr": np.subtract(*np.percentile(
        x, [75, 25], axis=0)), "q": qs, "counts": counts, "edges": edges,
        "dens": np.histogram(x, bins=[-1.0, 0.0, 1.0], density=True)[0],
        "nan": np.nanpercentile(np.where(x > 0.9, np.nan, x), 50, axis=1, keepdims=True)}


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_compiled_equals_eager(backend):
    check(describe, X, graphs=1, breaks=0, backend=backend)


def test_bincount_is_captured():
    """Its length is an unbacked size (docs/unbacked.md): one graph, eager's counts."""
    def f(i):
        return np.bincount(i, minlength=3) * 2

    check(f, np.array([0, 1, 1, 4]), graphs=1, breaks=0)
    check(f, np.array([0, 1]), graphs=1, breaks=0)
    check(f, np.array([0, -1]))   # NumPy's ValueError, raised when the graph runs


def test_histogram_inside_try_breaks():
    def f(x):
        try:
            return np.histogram(x, 3)[0]
        except ValueError:
            return None

    check(f, np.array([0.0, np.nan]))
    check(f, X[:, 0])
