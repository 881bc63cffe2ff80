"""``np.roll``, ``np.stack`` and ``np.outer`` run as the C calls they end in
(``library_calls``): NumPy's result bit for bit (values, dtype, shape, layout), its
errors where the arguments are bad, and no call of NumPy's Python function per call.
"""

import logging
import warnings

import numpy as np
import pytest
from dynamo.backends.numpy_backend import library_calls
from hypothesis import given, settings
from hypothesis import strategies as st
from observe import backend_log

import dynamo
from dynamo import config


def _same(a, b):
    assert type(a) is type(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.flags.c_contiguous == b.flags.c_contiguous
    assert a.flags.f_contiguous == b.flags.f_contiguous
    np.testing.assert_array_equal(np.ascontiguousarray(a).view(np.uint8),
                                  np.ascontiguousarray(b).view(np.uint8))



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
    src = backend_log(dynamo.compile(stencil, backend="numpy"), u, v)
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


def wrapped_calls(x, b, lo, k):
    """np.clip, np.diff, np.cumsum/cumprod as their method or ufunc; np.outer of
    slices whose length is known only at run time (an LU update's row and column)."""
    return (np.clip(x, 0, 7), np.clip(x, lo, 5.5), np.clip(x, -1, lo),
            np.diff(x), np.diff(x, axis=0), np.diff(b, axis=-1),
            np.cumsum(x, axis=0), np.cumsum(x), np.cumprod(x, -1),
            np.cumsum(b, dtype=np.float32), np.outer(x[0, k:], x[k:, -1]))


@settings(max_examples=60, deadline=None)
@given(shape=st.tuples(st.integers(1, 5), st.integers(1, 5)),
       dtype=st.sampled_from([np.float64, np.float32, np.float16, np.complex64, np.int8,
                              np.uint8, np.int64]),
       order=st.sampled_from(["C", "F", "strided"]),
       lo=st.sampled_from([-2, 3, 2.5, np.float32(1.5), np.int8(-3)]),
       k=st.integers(0, 3))
def test_wrapped_calls_are_numpys_own(shape, dtype, order, lo, k):
    """Results (values, dtype, layout), warnings and errors of the compiled calls are
    NumPy's over dtypes, orders, bound types (NEP 50: Python ints past an int8's range,
    NumPy scalars) and run-time slice lengths."""
    rng = np.random.default_rng(sum(shape))
    x = (rng.random(shape) * 300 - 100).astype(dtype)
    x = np.asfortranarray(x) if order == "F" else \
        np.repeat(x, 2, axis=1)[:, ::2] if order == "strided" else x
    b = x > 10
    compiled = dynamo.compile(wrapped_calls, backend="numpy")

    def run(fn):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                out = fn(x, b, lo, k)
            except Exception as error:   # noqa: BLE001 (compared below)
                return type(error), str(error), []
        return out, None, [(w.category, str(w.message)) for w in caught]

    want, want_error, want_warnings = run(wrapped_calls)
    for _ in range(2):
        got, got_error, got_warnings = run(compiled)
        assert (got_error, got_warnings) == (want_error, want_warnings)
        if want_error is None:
            for g, w in zip(got, want, strict=True):
                _same(g, w)
        else:
            assert got == want


def test_wrapped_calls_compile_to_their_method_or_ufunc():
    x = np.ones((4, 5))
    src = backend_log(dynamo.compile(wrapped_calls, backend="numpy"), x, x > 0, 0.5, 1)
    assert "_clip_ufunc(x, 0, 7)" in src and "_subtract(x[:, 1:], x[:, :-1])" in src
    assert "_not_equal(b[:, 1:], b[:, :-1])" in src
    assert "x.cumsum(axis=0, dtype=None)" in src and "x.cumprod(axis=-1" in src
    assert ".ravel()[:, None]" in src
    for wrapper in ("_clip(", "_diff(", "_cumsum(", "_cumprod(", "_outer("):
        assert wrapper not in src


def diff_of_scalar(x):
    return np.diff(x.sum())


def test_diff_of_a_0d_value_raises_numpys_error():
    with pytest.raises(ValueError, match="at least one dimensional"):
        dynamo.compile(diff_of_scalar, backend="numpy")(np.ones(3))


def contractions(x, v, w):
    return (np.einsum("ij,j->i", x, v), np.einsum("ij->", x), np.einsum("i,i", w, w),
            np.einsum("ij,ij->i", x, x, dtype=np.float32, casting="unsafe"),
            np.einsum("ij,jk->ik", x, x.T, optimize=True), np.einsum("ji", x))


@settings(max_examples=40, deadline=None)
@given(shape=st.tuples(st.integers(1, 4), st.integers(1, 4)), k=st.integers(1, 4),
       dtype=st.sampled_from([np.float64, np.float32, np.int64, np.complex128, np.bool_]),
       order=st.sampled_from("CF"))
def test_einsum_without_optimize_is_numpys_own(shape, k, dtype, order):
    """``c_einsum`` gives ``np.einsum``'s results, and its errors for operands whose
    lengths do not match (``k`` differs from the column count)."""
    x = np.asarray((np.random.default_rng(k).random(shape) * 9).astype(dtype), order=order)
    v = np.arange(k).astype(dtype)
    compiled = dynamo.compile(contractions, backend="numpy")

    def run(fn):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                out = fn(x, v, x[0])
            except Exception as error:   # noqa: BLE001 (compared below)
                return None, (type(error), str(error))
        return out, [(w.category, str(w.message)) for w in caught]

    want, want_error = run(contractions)
    for _ in range(2):
        got, got_error = run(compiled)
        assert got_error == want_error   # (the warnings where it ran)
        if want is not None:
            for g, w in zip(got, want, strict=True):
                _same(np.asarray(g), np.asarray(w))
                assert type(g) is type(w)


def test_einsum_compiles_to_c_einsum():
    src = backend_log(dynamo.compile(contractions, backend="numpy"), np.ones((2, 3)),
                  np.ones(3), np.ones(3))
    assert "_c_einsum('ij,j->i', x, v)" in src and "optimize=True" in src


def joins(x, v, w):
    return (np.hstack((x, x)), np.hstack([v, w, v]), np.vstack((x, x[:1])), np.vstack([v, w]),
            np.vstack((v, x[0])), np.hstack((x, x), dtype=np.float32, casting="unsafe"))


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(1, 4), cols=st.integers(1, 4), k=st.integers(1, 4),
       dtype=st.sampled_from([np.float64, np.float32, np.int8, np.bool_, np.complex64]),
       other=st.sampled_from([np.float64, np.int64, np.bool_]), order=st.sampled_from("CF"))
def test_joins_are_numpys_own(rows, cols, k, dtype, other, order):
    """np.hstack/np.vstack of ndarrays of mixed dtypes, layouts and lengths: NumPy's
    results, and its errors where the lengths do not line up."""
    x = np.asarray((np.random.default_rng(k).random((rows, cols)) * 9).astype(dtype),
                   order=order)
    v, w = np.arange(cols).astype(other), np.arange(k).astype(dtype)
    compiled = dynamo.compile(joins, backend="numpy")

    def run(fn):
        try:
            return fn(x, v, w), None
        except Exception as error:   # noqa: BLE001 (compared below)
            return None, (type(error), str(error))

    want, want_error = run(joins)
    for _ in range(2):
        got, got_error = run(compiled)
        assert got_error == want_error
        if want_error is None:
            for g, w_ in zip(got, want, strict=True):
                _same(g, w_)


def test_joins_compile_to_concatenate():
    x = np.ones((2, 3))
    src = backend_log(dynamo.compile(joins, backend="numpy"), x, np.ones(3), np.ones(3))
    assert "_concatenate((x, x,), 1, dtype=None, casting='same_kind')" in src
    assert "_concatenate((v[None, :], w[None, :],), 0" in src
    assert "_hstack(" not in src and "_vstack(" not in src
