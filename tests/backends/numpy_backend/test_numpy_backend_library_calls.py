"""``np.roll``, ``np.stack`` and ``np.outer`` run as the C calls they end in
(``library_calls``): NumPy's result bit for bit (values, dtype, shape, layout), its
errors where the arguments are bad, and no call of NumPy's Python function per call.
"""

import logging

import numpy as np
import pytest
from dynamo.backends.numpy_backend import library_calls
from hypothesis import given, settings
from hypothesis import strategies as st

import dynamo
from dynamo import config


def _same(a, b):
    assert type(a) is type(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.flags.c_contiguous == b.flags.c_contiguous
    assert a.flags.f_contiguous == b.flags.f_contiguous
    np.testing.assert_array_equal(np.ascontiguousarray(a).view(np.uint8),
                                  np.ascontiguousarray(b).view(np.uint8))


def _source(compiled, *args):
    """The numpy backend's generated code for ``compiled(*args)`` (its debug log)."""
    lines = []
    handler = logging.Handler()
    handler.emit = lambda record: lines.append(record.getMessage())
    log = logging.getLogger("dynamo.backend")
    level = log.level
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)
    try:
        compiled(*args)
    finally:
        log.removeHandler(handler)
        log.setLevel(level)
    return "\n".join(lines)


shapes = st.lists(st.integers(0, 5), min_size=1, max_size=3).map(tuple)


@settings(max_examples=80, deadline=None)
@given(shape=shapes, data=st.data())
def test_roll_plans_copy_what_np_roll_copies(shape, data):
    """Every shift and axis form np.roll takes (ints, tuples, repeated and negative
    axes, shifts larger than the axis, empty axes), against np.roll itself."""
    nd = len(shape)
    axes = data.draw(st.one_of(st.integers(-nd, nd - 1),
                               st.lists(st.integers(-nd, nd - 1), min_size=1, max_size=3)
                               .map(tuple)))
    n = len(axes) if isinstance(axes, tuple) else 1
    shift = data.draw(st.one_of(st.integers(-9, 9),
                                st.lists(st.integers(-9, 9), min_size=n, max_size=n)
                                .map(tuple)))
    order = data.draw(st.sampled_from("CF"))
    a = np.asarray(np.arange(np.prod(shape)).reshape(shape), order=order)
    got = library_calls.roll_copies(a, library_calls.roll_plan(shape, shift, axes))
    _same(got, np.roll(a, shift, axes))


def stencil(u, v):
    lap = (np.roll(u, 1, 0) + np.roll(u, -1, axis=0) + np.roll(u, 1, 1)
           + np.roll(u, (-1, 2), (1, 0)) - 4 * u)
    pairs = np.stack([u * 2, v], axis=-1)
    return lap, pairs, np.stack((u, v)), np.outer(u[0] + 1, v[:, 1]), np.roll(u[::2], 3, -1)


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int16])
def test_compiled_results_are_numpys_own(order, dtype):
    u = np.asarray(np.random.default_rng(0).random((6, 5)) * 50, dtype=dtype, order=order)
    v = np.asarray(np.random.default_rng(1).random((6, 5)) * 50, dtype=dtype, order=order)
    compiled = dynamo.compile(stencil, backend="numpy")
    for _ in range(2):   # the first call compiles, the second runs the cached code
        for got, want in zip(compiled(u, v), stencil(u, v), strict=True):
            _same(got, want)


def test_generated_code_calls_no_python_wrapper():
    """The generated code names the C calls, not np.roll/np.stack/np.outer."""
    u, v = np.ones((8, 7)), np.zeros((8, 7))
    src = _source(dynamo.compile(stencil, backend="numpy"), u, v)
    assert "_roll_copies(u, _roll_plan" in src
    assert "_concatenate((" in src and "[:, :, None]" in src
    assert ".ravel()[:, None]" in src
    assert "_roll(" not in src and "_stack(" not in src and "_outer(" not in src


def run_time_shift(u, k):
    return np.roll(u, k, 0) + np.roll(u, 1, axis=None)


def test_shifts_known_only_at_run_time_stay_numpys_call():
    """A shift the graph reads at run time and ``axis=None`` (a flattened roll) have no
    plan: NumPy's own np.roll, with its results."""
    u = np.arange(12.0).reshape(3, 4)
    compiled = dynamo.compile(run_time_shift, backend="numpy")
    for k in (1, 2, -5):
        _same(compiled(u, k), run_time_shift(u, k))


def bad_axis(u):
    return np.roll(u, 1, 5)


def test_bad_arguments_raise_numpys_error():
    with pytest.raises(np.exceptions.AxisError, match="axis 5 is out of bounds"):
        dynamo.compile(bad_axis, backend="numpy")(np.ones((3, 3)))


def test_the_disk_cache_stores_and_loads_the_plans(tmp_path, caplog):
    """A plan (tuples of slices) and ``roll_copies`` (a library function) are data the
    disk cache writes down; the loaded code gives NumPy's results."""
    before = config.disk_cache_dir
    config.disk_cache_dir = str(tmp_path / "cache")
    try:
        u, v = np.arange(20.0).reshape(4, 5), np.ones((4, 5))
        compiled = dynamo.compile(stencil, backend="numpy")
        compiled(u, v)
        assert any((tmp_path / "cache").rglob("*"))
        dynamo.reset()
        caplog.set_level(logging.DEBUG, "dynamo.cache")
        for got, want in zip(compiled(u, v), stencil(u, v), strict=True):
            _same(got, want)
        assert any(r.getMessage().startswith("loaded from disk cache: stencil")
                   for r in caplog.records)
    finally:
        config.disk_cache_dir = before
        dynamo.reset()
