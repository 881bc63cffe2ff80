"""``np.take_along_axis`` and ``np.expand_dims`` run as the indexing they end in
(``axis_calls``): NumPy's result bit for bit (values, dtype, strides, a view of the same
array where NumPy's is one), NumPy's errors for bad indices and axes."""

import numpy as np
from dynamo.backends.numpy_backend import axis_calls
from hypothesis import given, settings
from hypothesis import strategies as st
from observe import backend_log

import dynamo


def _same(got, want):
    assert type(got) is type(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.strides == want.strides
    assert (got.base is None) == (want.base is None)
    np.testing.assert_array_equal(np.ascontiguousarray(got).view(np.uint8),
                                  np.ascontiguousarray(want).view(np.uint8))


def _raised(fn, *args):
    try:
        fn(*args)
    except Exception as e:  # noqa: BLE001 (compared, type and text)
        return type(e), str(e)
    return None


def _taker(axis):
    def take(a, idx):
        return np.take_along_axis(a, idx, axis=axis)
    return take


@settings(max_examples=60, deadline=None)
@given(data=st.data(), order=st.sampled_from("CF"),
       itype=st.sampled_from([np.int64, np.int32, np.uint8, np.int8]))
def test_take_along_axis_is_numpys(data, order, itype):
    """Index arrays that broadcast (length 1 on other axes) or not, negative and
    out-of-bounds indices (NumPy's IndexError), any axis, C or F order."""
    shape = tuple(data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    ishape = tuple(data.draw(st.sampled_from([1, n, n + 1])) for n in shape)
    count = int(np.prod(ishape))
    lo = 0 if np.dtype(itype).kind == "u" else -5
    idx = np.asarray(data.draw(st.lists(st.integers(lo, 5), min_size=count,
                                        max_size=count)), itype).reshape(ishape)
    a = np.asarray(np.arange(np.prod(shape), dtype=np.float64).reshape(shape) * 1.5,
                   order=order)
    fn = _taker(axis)
    dynamo.reset()   # (one code object for every example: no recompile limit)
    want = _raised(fn, a, idx)
    compiled = dynamo.compile(fn, backend="numpy")
    if want is not None:
        assert _raised(compiled, a, idx) == want
        return
    assert "_take_along_axis(" not in backend_log(compiled, a, idx)
    _same(compiled(a, idx), fn(a, idx))


def _expander(axis):
    def expand(a):
        return np.expand_dims(a, axis), np.expand_dims(a, axis) * 2
    return expand


@settings(max_examples=60, deadline=None)
@given(data=st.data(), order=st.sampled_from("CF"), step=st.sampled_from([1, 2]))
def test_expand_dims_is_numpys(data, order, step):
    """Int, tuple and list axes, negative, repeated and out-of-range ones (NumPy's
    errors), strided inputs: the same view."""
    shape = tuple(data.draw(st.lists(st.integers(0, 3), max_size=3)))
    out = len(shape) + 2
    axis = data.draw(st.one_of(st.integers(-out, out - 1),
                               st.lists(st.integers(-out, out - 1), max_size=3),
                               st.lists(st.integers(-out, out - 1), max_size=3).map(tuple)))
    base = np.asarray(np.arange(np.prod(shape) * step, dtype=np.int16), order=order)
    a = base[::step].reshape(shape) if shape else base[:1].reshape(())
    fn = _expander(axis)
    dynamo.reset()
    want = _raised(fn, a)
    compiled = dynamo.compile(fn, backend="numpy")
    if want is not None:
        assert _raised(compiled, a) == want
        return
    src = backend_log(compiled, a)
    if a.ndim:   # (a 0-d array is a scalar value of the graph: NumPy's own call)
        assert ".reshape(" in src and "_expand_dims(" not in src
    got, want = compiled(a), fn(a)
    _same(got[0], want[0])
    _same(got[1], want[1])
    assert np.shares_memory(got[0], a) == np.shares_memory(want[0], a)


def cross_entropy(logp, y):
    picked = np.take_along_axis(logp, y[:, None], axis=1)
    return -picked.mean(), np.expand_dims(picked[:, 0], -1)


def test_generated_code_indexes_directly():
    logp = np.log(np.random.default_rng(0).random((16, 5)))
    y = np.arange(16) % 5
    compiled = dynamo.compile(cross_entropy, backend="numpy")
    src = backend_log(compiled, logp, y)
    assert "logp[_along_axis_0, " in src and "_take_along_axis(" not in src
    got, want = compiled(logp, y), cross_entropy(logp, y)
    assert got[0] == want[0]
    _same(got[1], want[1])


def test_aranges_are_numpys():
    assert [None if a is None else a.tolist() for a in axis_calls.along_axis_aranges((2, 3), 1)] \
        == [[[0], [1]], None]
