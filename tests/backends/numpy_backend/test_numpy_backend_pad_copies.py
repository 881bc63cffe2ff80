"""``np.pad`` of a static shape runs as the copies it ends in (``pad_copies``):
NumPy's result bit for bit (values, dtype, shape, layout), its errors for bad
arguments, and NumPy's own call wherever the plan cannot be made or checked."""

import logging
import warnings

import numpy as np
import pytest
from dynamo.backends.numpy_backend.pad_copies import pad_copies, pad_plan
from hypothesis import given, settings
from hypothesis import strategies as st
from observe import backend_log

import dynamo
from dynamo import config

DTYPES = [np.bool_, np.int8, np.uint8, np.int64, np.float16, np.float32, np.float64,
          np.complex128]


def _same(got, want):
    assert type(got) is type(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.strides == want.strides
    assert got.tobytes("A") == want.tobytes("A")


def _layout(a, layout):
    if layout == "F":
        return np.asfortranarray(a)
    if layout == "strided":   # a non-contiguous view: NumPy pads it into a C array
        return np.repeat(a, 2, axis=-1)[..., ::2]
    return np.ascontiguousarray(a)


shapes = st.lists(st.integers(1, 5), min_size=1, max_size=3).map(tuple)
widths = st.integers(0, 7)


@settings(max_examples=150, deadline=None)
@given(shape=shapes, dtype=st.sampled_from(DTYPES), layout=st.sampled_from(["C", "F", "strided"]),
       mode=st.sampled_from(["constant", "edge", "reflect", "symmetric", "wrap"]),
       data=st.data())
def test_planned_copies_are_np_pad(shape, dtype, layout, mode, data):
    """Every width form (one int, one pair, a pair per axis, widths past the axis
    length) and constant form (int, float, bool, a pair), against np.pad itself."""
    nd = len(shape)
    pad_width = data.draw(st.one_of(
        widths, st.tuples(widths, widths),
        st.tuples(*[st.tuples(widths, widths)] * nd)))
    kwargs = {}
    if mode == "constant":
        value = st.one_of(st.integers(-3, 300), st.floats(-2, 2, width=16), st.booleans())
        kwargs["constant_values"] = data.draw(st.one_of(value, st.tuples(value, value)))
    a = _layout((np.random.default_rng(nd).random(shape) * 200 - 50).astype(dtype), layout)
    plan = pad_plan(shape, a.dtype, pad_width, mode, kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            want = np.pad(a, pad_width, mode=mode, **kwargs)
        except Exception:
            assert plan is None   # NumPy objects (a warning of a cast): no plan
            return
    if plan is not None:
        _same(pad_copies(a, *plan), want)
    else:   # only constants that do not fit the dtype are left to NumPy
        assert mode == "constant" and dtype in (np.bool_, np.int8, np.uint8, np.int64)


def test_plans_exist_for_the_common_forms():
    """Plans exist for what programs write (so the test above compares something)."""
    for mode in ("constant", "edge", "reflect", "symmetric", "wrap"):
        for pad_width in (1, (2, 3), ((1, 0), (9, 2))):
            assert pad_plan((4, 6), np.dtype(np.float64), pad_width, mode, {}) is not None


@pytest.mark.parametrize("kwargs", [{"reflect_type": "odd"}, {"stat_length": 2}])
def test_arithmetic_modes_have_no_plan(kwargs):
    assert pad_plan((4,), np.dtype(float), 1, "reflect", kwargs) is None
    assert pad_plan((4,), np.dtype(float), 1, "mean", {}) is None
    assert pad_plan((0, 3), np.dtype(float), 1, "constant", {}) is None


def blur(img, board):
    p = np.pad(img, 1, mode="edge")
    q = np.pad(img, ((2, 1), (0, 3)), mode="reflect")
    s = np.pad(img, 1, mode="symmetric") + np.pad(img, (1, 1), mode="wrap")
    life = np.pad(board, 1)
    n = life[:-2, 1:-1] + life[2:, 1:-1] + life[1:-1, :-2] + life[1:-1, 2:]
    return (p[:-2, 1:-1] + p[2:, 1:-1]) / 2, q, s, n, np.pad(board, 2, constant_values=7)


@pytest.mark.parametrize("layout", ["C", "F"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int16])
def test_compiled_results_are_numpys_own(layout, dtype):
    rng = np.random.default_rng(0)
    img = _layout((rng.random((6, 5)) * 50).astype(dtype), layout)
    board = _layout(rng.integers(0, 2, (5, 7)).astype(np.uint8), layout)
    compiled = dynamo.compile(blur, backend="numpy")
    for _ in range(2):   # the first call compiles, the second runs the cached code
        for got, want in zip(compiled(img, board), blur(img, board), strict=True):
            _same(got, want)



def test_generated_code_calls_no_np_pad():
    src = backend_log(dynamo.compile(blur, backend="numpy"), np.ones((8, 7)), np.ones((3, 3)))
    assert "_pad_copies(" in src and src.count("_pad_copies(img") == 2 * src.count("_pad_copies(board")
    assert "_pad(" not in src


def run_time_width(img, k):
    return np.pad(img, k, mode="edge"), np.pad(img, 1, mode="reflect", reflect_type="odd")


def test_widths_known_only_at_run_time_stay_numpys_call():
    img = np.arange(12.0).reshape(3, 4)
    compiled = dynamo.compile(run_time_width, backend="numpy")
    for k in (1, 2, 5):
        for got, want in zip(compiled(img, k), run_time_width(img, k), strict=True):
            _same(got, want)


def negative_width(img):
    return np.pad(img, -1)


def empty_axis_edge(img):
    return np.pad(img, 1, mode="edge")


def test_bad_arguments_raise_numpys_error():
    with pytest.raises(ValueError, match="can't contain negative values"):
        dynamo.compile(negative_width, backend="numpy")(np.ones((3, 3)))
    with pytest.raises(ValueError, match="can't extend empty axis"):
        dynamo.compile(empty_axis_edge, backend="numpy")(np.ones((0, 3)))


def test_the_disk_cache_stores_and_loads_the_plans(tmp_path, caplog):
    """A plan (slices and NumPy's constant scalars) is data the disk cache writes down."""
    before = config.disk_cache_dir
    config.disk_cache_dir = str(tmp_path / "cache")
    try:
        img, board = np.arange(20.0).reshape(4, 5), np.ones((4, 5), np.uint8)
        compiled = dynamo.compile(blur, backend="numpy")
        compiled(img, board)
        assert any((tmp_path / "cache").rglob("*"))
        dynamo.reset()
        caplog.set_level(logging.DEBUG, "dynamo.cache")
        for got, want in zip(compiled(img, board), blur(img, board), strict=True):
            _same(got, want)
        assert any(r.getMessage().startswith("loaded from disk cache: blur")
                   for r in caplog.records)
    finally:
        config.disk_cache_dir = before
        dynamo.reset()
