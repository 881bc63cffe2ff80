"""``np.isclose``/``np.allclose`` run as ``isclose``'s last step (``closeness``):
NumPy's result bit for bit (values, dtype, shape, layout, a NumPy bool for 0-d), its
warnings and errors, differentially against plain NumPy."""

import warnings

import numpy as np
import pytest
from dynamo.backends.numpy_backend import closeness
from hypothesis import given, settings
from hypothesis import strategies as st
from observe import backend_log

import dynamo


@pytest.fixture(autouse=True)
def _fresh_caches():
    """Each test compiles anew (the functions below are shared by several tests)."""
    dynamo.reset()
    yield
    dynamo.reset()


def closeness_calls(x, y):
    return (np.isclose(x, y), np.isclose(x, y, 1e-3, 0, True), np.isclose(x, 2),
            np.isclose(0.5, y, atol=1), np.isclose(x, -1.5, equal_nan=True),
            np.allclose(x, y), np.allclose(x, y, rtol=0.25, atol=3, equal_nan=True))


def run_time_tolerance(x, y, tol):
    return np.isclose(x, y, atol=tol), np.isclose(x, y, rtol=float("nan"))


def _outcome(fn, *args):
    """fn's results (or its error) and the warnings it showed, as comparable values."""
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        try:
            result = fn(*args)
        except Exception as e:   # noqa: BLE001 (compared against eager's)
            result = (type(e), str(e))
    return result, [(w.category, str(w.message)) for w in shown]


def _same(a, b):
    assert type(a) is type(b)
    if isinstance(a, tuple) and not isinstance(a[0], type):
        assert len(a) == len(b)
        for u, v in zip(a, b):
            _same(u, v)
    elif isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape and a.strides == b.strides
        np.testing.assert_array_equal(a, b)
    else:
        assert a == b


dtypes = st.sampled_from([np.bool_, np.int8, np.uint8, np.int64, np.float16,
                          np.float32, np.float64, np.complex128])
values = st.sampled_from([0.0, -0.0, 1.0, 2.0, -1.5, 1e-9, 0.5, 1.0001, 3e38, -3e38,
                          1e308, np.nan, np.inf, -np.inf])
shapes = st.lists(st.integers(0, 3), min_size=0, max_size=2).map(tuple)


@settings(max_examples=60, deadline=None)
@given(shape=shapes, dx=dtypes, dy=dtypes, fortran=st.booleans(), data=st.data())
def test_isclose_is_numpys_own(shape, dx, dy, fortran, data):
    """Every number dtype pair (casts of y, int and bool operands), NaN/inf/overflowing
    values (NumPy's overflow warnings), 0-d results, broadcasting and F order."""
    n = int(np.prod(shape))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x = np.array(data.draw(st.lists(values, min_size=n, max_size=n)) or [0.0])[:n]
        y = np.array(data.draw(st.lists(values, min_size=n, max_size=n)) or [0.0])[:n]
        x, y = x.reshape(shape).astype(dx), y.reshape(shape).astype(dy)
    if fortran:
        x = np.asfortranarray(x)
    if data.draw(st.booleans()) and shape:   # a broadcast operand
        y = y[..., :1]
    dynamo.reset()   # (a fresh compile per example: no cache limit's eager fallback)
    compiled = dynamo.compile(closeness_calls, backend="numpy")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert backend_log(compiled, x, y).count("_isclose_last_step(") == 7
    expected, shown = _outcome(closeness_calls, x, y)
    got, got_shown = _outcome(compiled, x, y)
    _same(got, expected)
    assert got_shown == shown


def test_isclose_compiles_to_its_last_step():
    x = np.linspace(0, 1, 6)
    src = backend_log(dynamo.compile(closeness_calls, backend="numpy"), x, x)
    assert src.count("_isclose_last_step(") == 7, src
    assert "_isclose(" not in src, src


def test_tolerances_not_known_to_be_finite_stay_numpys_call():
    """A NaN tolerance is NumPy's warning (its own call); one read at run time too."""
    x = np.linspace(0, 1, 6)
    compiled = dynamo.compile(run_time_tolerance, backend="numpy")
    for tol in (0.1, float("inf")):
        expected, shown = _outcome(run_time_tolerance, x, x + 0.05, tol)
        got, got_shown = _outcome(compiled, x, x + 0.05, tol)
        _same(got, expected)
        assert got_shown == shown and shown   # NumPy's "rtol or atol is not valid"


def test_bad_shapes_raise_numpys_error():
    compiled = dynamo.compile(closeness_calls, backend="numpy")
    expected = _outcome(closeness_calls, np.ones(3), np.ones(4))
    assert _outcome(compiled, np.ones(3), np.ones(4)) == expected
    assert expected[0][0] is ValueError


def test_other_numpy_versions_keep_numpys_call(monkeypatch):
    monkeypatch.setattr(closeness, "CHECKED", False)
    x = np.linspace(0, 1, 6)
    src = backend_log(dynamo.compile(closeness_calls, backend="numpy"), x, x)
    assert "_isclose_last_step(" not in src, src


@pytest.mark.parametrize("dtype", [np.complex64, np.float16])
def test_y_cast_to_its_float_type(dtype):
    """``result_type(y, 1.)``: a float16/complex64 y keeps its dtype, an int y's is
    float64 (the hypothesis test above draws the ints)."""
    x = np.arange(4).astype(dtype)
    compiled = dynamo.compile(closeness_calls, backend="numpy")
    _same(compiled(x, x[::-1]), closeness_calls(x, x[::-1]))
