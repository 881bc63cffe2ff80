"""Sums over a short axis (2 to 7 long) run as adds of the axis' slices
(``runtime.short_sum``): the same bits, dtype, layout and warnings as ``np.add.reduce``.
"""

import warnings

import numpy as np
import pytest
from dynamo.backends.numpy_backend import runtime
from hypothesis import given, settings
from hypothesis import strategies as st

import dynamo

BIG = runtime.SHORT_SUM_MIN   # results at least this large take the short path


def _wild(rng, shape, dtype):
    """Values over many magnitudes and signs, with signed zeros."""
    v = rng.standard_normal(shape) * 10.0 ** rng.integers(-6, 6, shape)
    v[rng.random(shape) < 0.05] = -0.0
    return v.astype(dtype)


def _same(a, b):
    assert type(a) is type(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.flags.c_contiguous == b.flags.c_contiguous
    assert a.flags.f_contiguous == b.flags.f_contiguous
    np.testing.assert_array_equal(np.ascontiguousarray(a).view(np.uint8),   # bit for bit
                                  np.ascontiguousarray(b).view(np.uint8))


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 9), axis=st.integers(0, 2), keepdims=st.booleans(),
       dtype=st.sampled_from(["float32", "float64", "float16"]), seed=st.integers(0, 9))
def test_short_sums_are_bit_identical(n, axis, keepdims, dtype, seed):
    rng = np.random.default_rng(seed)
    shape = [64, 80, 3]
    shape[axis] = n
    with np.errstate(all="ignore"):    # float16 overflows (warnings: tested below)
        a = _wild(rng, tuple(shape), dtype)
        for ax in (axis, axis - 3):
            _same(runtime.short_sum(a, ax, None, keepdims),
                  np.add.reduce(a, ax, None, None, keepdims))


@pytest.mark.parametrize("make", [
    lambda v: np.asfortranarray(v), lambda v: v[::-1], lambda v: v.transpose(1, 0, 2)],
    ids=["fortran", "reversed", "transposed"])
def test_other_layouts_keep_numpys_result_layout(make):
    a = make(_wild(np.random.default_rng(0), (100, 100, 3), np.float64))
    for axis in (0, 1, 2):
        if a.shape[axis] in runtime.SHORT_AXIS:
            _same(runtime.short_sum(a, axis, None, False), np.add.reduce(a, axis))


@pytest.mark.parametrize("poison", [np.inf, -np.inf, np.nan, 1e308])
@pytest.mark.parametrize("mode", ["warn", "raise", "ignore"])
def test_overflow_and_invalid_are_reported_as_eager_reports_them(poison, mode):
    a = np.ones((BIG, 3))
    a[7, 1] = poison
    a[7, 2] = 1e308 if poison == 1e308 else -np.inf

    def run(fn):
        with warnings.catch_warnings(record=True) as seen, np.errstate(all=mode):
            warnings.simplefilter("always")
            try:
                out = fn(a)
            except FloatingPointError as e:
                out = str(e)
        return out, [(w.category, str(w.message)) for w in seen]

    got, want = run(lambda a: runtime.short_sum(a, -1, None, False)), \
        run(lambda a: np.add.reduce(a, -1))
    assert got[1] == want[1]
    if isinstance(want[0], str):
        assert got[0] == want[0]
    else:
        _same(got[0], want[0])


def pairwise(Z):
    return np.sqrt(((Z[:, None, :] - Z[None, :, :]) ** 2).sum(-1))


def centroid_distance(X, C):
    return ((X[:, None, :] - C[None]) ** 2).sum(axis=-1, keepdims=True).argmin(1)


def rgb_mean(img):
    return img.mean(axis=-1) * np.float32(2)


@pytest.mark.parametrize("fn, make", [
    (pairwise, lambda r: (r.random((300, 3)),)),
    (pairwise, lambda r: (r.random((200, 2)).astype(np.float32),)),
    (centroid_distance, lambda r: (r.random((5000, 2)), r.random((4, 2)))),
    (rgb_mean, lambda r: (r.random((128, 96, 3)).astype(np.float32),)),
], ids=["pairwise-f8", "pairwise-f4", "kmeans-keepdims", "rgb-mean"])
@pytest.mark.parametrize("backend", ["numpy", "eager"])
def test_programs_summing_short_axes_match_eager(fn, make, backend):
    args = make(np.random.default_rng(3))
    want = fn(*args)
    got = dynamo.compile(fn, backend=backend)(*args)
    _same(np.asarray(got), np.asarray(want))


def test_a_huge_coordinate_warns_once_as_in_eager():
    Z = np.random.default_rng(0).random((100, 3))
    Z[5, 0] = 1e200                        # its square overflows; the sum stays inf
    cf = dynamo.compile(pairwise, backend="numpy")
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        out = cf(Z)
    with warnings.catch_warnings(record=True) as want:
        warnings.simplefilter("always")
        ref = pairwise(Z)
    _same(out, ref)
    assert [str(w.message) for w in got] == [str(w.message) for w in want]


@pytest.mark.parametrize("fn, args, short", [
    (pairwise, (np.ones((300, 3)),), True),
    (lambda x: x.sum(1, keepdims=True), (np.ones((300, 5, 16), np.float32),), True),
    # (exact, but its sizes never pay, short_sum_sizes: np.add.reduce without the test;
    # 64 elements after the axis, and 4 rows of a k-means trip's distances)
    (lambda x: x.sum(1, keepdims=True), (np.ones((64, 5, 64), np.float32),), False),
    (lambda x: x.sum(1), (np.ones((4, 2)),), False),
    (lambda x: x.sum(-1), (np.ones((300, 8)),), False),          # pairwise order from 8
    (lambda x: x.sum(-1), (np.ones((300, 3), np.int32),), False),  # an int sum widens
    (lambda x: x.sum((0, 1)), (np.ones((3, 3, 300)),), False),    # two axes
])
def test_the_generated_code_uses_the_short_sum_only_where_exact(fn, args, short):
    from test_numpy_backend import compiled_graph
    source = compiled_graph(fn, *args).__dynamo_source__
    assert ("_short_sum(" in source) == short, source


@pytest.mark.parametrize("shape, axis, adds", [
    ((512, 2), -1, True), ((512, 3), -1, True), ((896, 7), -1, True), ((1000, 3), 1, True),
    ((60, 59, 3), -1, True), ((3000, 4, 1), 1, True), ((600, 3, 16), 1, True),
    ((256, 5, 32), 1, True),
    ((511, 3), -1, False), ((256, 2), -1, False), ((800, 7), -1, False), ((4096, 8), -1, False),
    ((64, 5, 64), 1, False), ((3, 5000), 0, False), ((255, 3, 8), 1, False),
    ((600, 3, 33), 1, False)])
def test_the_adds_run_where_numpy_runs_many_short_loops(shape, axis, adds):
    """Where the adds pay: NumPy's reduction runs one loop per result over a last axis
    (about 15 ns each), the adds cost about 5 us in all: from 512 results (128 per
    term) they win at every length 2-7 (a pinned cloth's 60 x 59 springs of 3
    coordinates, 3,000 points of 4 responsibilities were left to NumPy at 4,096).
    Over a middle axis NumPy loops along what follows it: long rows there (64, 5000)
    are NumPy's, as are too few rows."""
    from dynamo.backends.numpy_backend.reduction_finish import short_sum_pays
    a = _wild(np.random.default_rng(sum(shape)), shape, np.float64)
    assert short_sum_pays(a, axis, None) is adds
    _same(runtime.short_sum(a, axis, None, False), np.add.reduce(a, axis))
    _same(runtime.short_sum(a, axis, None, True), np.add.reduce(a, axis, keepdims=True))


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(200, 1200), n=st.integers(2, 7), inner=st.sampled_from([0, 1, 2, 8, 32]),
       keepdims=st.booleans(), dtype=st.sampled_from(["float32", "float64"]),
       seed=st.integers(0, 9))
def test_mid_sized_short_sums_are_bit_identical(rows, n, inner, keepdims, dtype, seed):
    shape = (rows, n) + ((inner,) if inner else ())
    with np.errstate(all="ignore"):
        a = _wild(np.random.default_rng(seed), shape, dtype)
    _same(runtime.short_sum(a, 1, None, keepdims), np.add.reduce(a, 1, None, None, keepdims))
    _same(runtime.mean_exact(a, (1,), None, keepdims, np.intp(n), None),
          np.mean(a, axis=1, keepdims=keepdims))
