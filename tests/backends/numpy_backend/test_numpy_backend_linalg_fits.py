"""``np.linalg.eigh`` and ``np.linalg.lstsq`` run as the gufunc calls they end in
(``small_linalg``): NumPy's results bit for bit (every output: values, dtypes, shapes,
the rank and the dropped residuals), its errors for bad arguments."""

import numpy as np
import pytest
from dynamo.backends.numpy_backend import small_linalg
from hypothesis import given, settings
from hypothesis import strategies as st
from observe import backend_log

import dynamo

DTYPES = [np.float64, np.float32, np.int32, np.complex128, np.complex64]

# (on another NumPy version NumPy's own calls stay: the results are compared all the same)
LOWERED = small_linalg._KNOWN


def _same(got, want):
    assert type(got) is type(want)
    if isinstance(want, tuple):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    if not isinstance(want, np.ndarray):
        assert got == want
        return
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.strides == want.strides
    np.testing.assert_array_equal(np.ascontiguousarray(got).view(np.uint8),
                                  np.ascontiguousarray(want).view(np.uint8))


def _array(data, shape, dtype, order):
    n = int(np.prod(shape))
    raw = data.draw(st.lists(st.integers(-20, 20), min_size=n, max_size=n))
    a = np.asarray(raw, dtype=np.float64).reshape(shape) / 4
    if np.dtype(dtype).kind == "c":
        a = a + 1j * a[::-1]
    return np.asarray(a.astype(dtype), order=order)


def _raised(fn, *args):
    try:
        fn(*args)
    except Exception as e:  # noqa: BLE001 (compared, type and text)
        return type(e), str(e)
    return None


def fit(a, b):
    return np.linalg.lstsq(a, b)


def fit_rcond(a, b):
    x, res, rank, s = np.linalg.lstsq(a, b, rcond=1e-2)
    return x * 1, res, rank, s


def spectrum_lower(s):
    w, v = np.linalg.eigh(s)
    return w, v, np.linalg.eigh(s)


def spectrum_upper(s):
    return np.linalg.eigh(s, UPLO="U")


@settings(max_examples=60, deadline=None)
@given(data=st.data(), rows=st.integers(1, 6), cols=st.integers(1, 6),
       rhs=st.sampled_from([None, 1, 3]), da=st.sampled_from(DTYPES),
       db=st.sampled_from(DTYPES), order=st.sampled_from("CF"),
       fn=st.sampled_from([fit, fit_rcond]))
def test_lstsq_is_numpys(data, rows, cols, rhs, da, db, order, fn):
    """Over- and underdetermined, rank-deficient (small integer entries repeat), 1-D
    and 2-D ``b``, mixed real/complex/integer dtypes: every output NumPy's."""
    a = _array(data, (rows, cols), da, order)
    b = _array(data, (rows,) if rhs is None else (rows, rhs), db, order)
    dynamo.reset()   # (one code object for every example: no recompile limit)
    compiled = dynamo.compile(fn, backend="numpy")
    assert ("_lstsq_gufunc(" in backend_log(compiled, a, b)) == LOWERED
    _same(compiled(a, b), fn(a, b))


@settings(max_examples=50, deadline=None)
@given(data=st.data(), n=st.integers(1, 5), batch=st.sampled_from([(), (2,), (2, 1)]),
       dtype=st.sampled_from(DTYPES), order=st.sampled_from("CF"),
       fn=st.sampled_from([spectrum_lower, spectrum_upper]))
def test_eigh_is_numpys(data, n, batch, dtype, order, fn):
    """Stacks of symmetric and non-symmetric (only one triangle read) matrices, both
    triangles, every dtype ``_commonType`` takes: NumPy's ``EighResult``."""
    s = _array(data, batch + (n, n), dtype, order)
    dynamo.reset()
    compiled = dynamo.compile(fn, backend="numpy")
    assert ("_eigh_gufunc(" in backend_log(compiled, s)) == LOWERED
    _same(compiled(s), fn(s))


def test_eigh_result_is_numpys_named_tuple():
    s = np.diag([3.0, 1.0, 2.0])
    got = dynamo.compile(spectrum_upper, backend="numpy")(s)
    assert type(got) is type(np.linalg.eigh(s))
    _same(got.eigenvalues, np.linalg.eigh(s).eigenvalues)


@pytest.mark.parametrize("fn, args", [
    (fit, (np.ones((3, 2)), np.ones(4))),                # rows differ
    (fit, (np.ones((3, 2, 2)), np.ones(3))),             # a not 2-D
    (spectrum_lower, (np.ones((2, 3)),)),                # not square
    (spectrum_lower, (np.full((3, 3), np.nan),)),        # does not converge / NaN
    (fit, (np.full((3, 2), np.nan), np.ones(3))),        # SVD does not converge
    (spectrum_lower, (np.ones((2, 2), np.float16),)),    # a dtype linalg rejects
])
def test_bad_arguments_raise_numpys_error(fn, args):
    want = _raised(fn, *args)
    got = _raised(dynamo.compile(fn, backend="numpy"), *args)
    if want is None:   # NaN in eigh: NaN results, the same ones
        _same(dynamo.compile(fn, backend="numpy")(*args), fn(*args))
    assert got == want
