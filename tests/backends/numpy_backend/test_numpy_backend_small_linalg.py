"""``np.linalg.solve``/``inv``/``det`` run as their gufuncs (``small_linalg``): NumPy's
results bit for bit (values, dtype, shape), its ``LinAlgError`` for a singular or
non-square matrix and its errors for mismatched shapes or unsupported dtypes."""


import warnings

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from observe import backend_log

import dynamo

DTYPES = [np.float64, np.float32, np.float16, np.int64, np.int8, np.bool_, np.complex64,
          np.complex128]


def small_systems(A, b, B):
    return (np.linalg.solve(A, b), np.linalg.solve(A, B), np.linalg.inv(A),
            np.linalg.det(A), np.linalg.det(A) * 2 + 1)


def _outcome(fn, *args):
    try:
        return fn(*args), None
    except Exception as error:   # noqa: BLE001 (compared with NumPy's own)
        return None, (type(error), str(error))


def _same(got, want):
    assert type(got) is type(want)
    assert got.dtype == want.dtype and np.shape(got) == np.shape(want)
    assert np.asarray(got).tobytes() == np.asarray(want).tobytes()


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 4), batch=st.sampled_from([(), (2,)]),
       dtype_a=st.sampled_from(DTYPES), dtype_b=st.sampled_from(DTYPES),
       cols=st.integers(1, 3), kind=st.sampled_from(["regular", "singular", "mismatched"]),
       order=st.sampled_from("CF"))
def test_solve_inv_det_are_numpys_own(n, batch, dtype_a, dtype_b, cols, kind, order):
    """Over dtypes (ints and bools cast to double, float16 rejected, complex pairs),
    stacked matrices, vector and matrix right-hand sides, singular systems and
    right-hand sides of the wrong length."""
    rng = np.random.default_rng(n)
    A = rng.random(batch + (n, n)) * 4 + 4 * np.eye(n)
    if kind == "singular":
        A[..., -1, :] = 0
    A = np.asarray(A.astype(dtype_a), order=order)
    m = n + 1 if kind == "mismatched" else n
    b = (rng.random(m) * 3).astype(dtype_b)
    B = np.asarray((rng.random(batch + (m, cols)) * 3).astype(dtype_b), order=order)
    compiled = dynamo.compile(small_systems, backend="numpy")
    want, want_error = _outcome(small_systems, A, b, B)
    for _ in range(2):   # the first call compiles, the second runs the cached code
        got, got_error = _outcome(compiled, A, b, B)
        assert got_error == want_error
        if want_error is None:
            for g, w in zip(got, want, strict=True):
                _same(g, w)


def non_square(A, b):
    return np.linalg.solve(A, b), np.linalg.inv(A)


def test_non_square_matrices_raise_numpys_error():
    A, b = np.ones((2, 3)), np.ones(2)
    want = _outcome(non_square, A, b)[1]
    assert want is not None and want[0] is np.linalg.LinAlgError
    assert _outcome(dynamo.compile(non_square, backend="numpy"), A, b)[1] == want


def _source(fn, *args):
    return backend_log(dynamo.compile(fn, backend="numpy"), *args)


def test_generated_code_calls_the_gufuncs():
    src = _source(small_systems, np.eye(3) * 2, np.ones(3), np.ones((3, 2)))
    assert "_solve_gufunc(_solve1, 'dd->d', _float64, A, b)" in src
    assert "_solve_gufunc(_solve, 'dd->d', _float64, A, B)" in src
    assert "_solve_gufunc(_inv, 'd->d', _float64, A)" in src
    assert "_det_gufunc(A, signature='d->d').astype(_float64, copy=False)" in src
    for wrapper in ("= _solve(", "= _inv(", "= _det(", "(_solve(A", "(_det(A"):
        assert wrapper not in src


def norms(x, v, b):
    return (np.linalg.norm(x), np.linalg.norm(v), np.linalg.norm(x, "fro"),
            np.linalg.norm(v, 2), np.linalg.norm(b), np.linalg.norm(x, axis=0),
            np.linalg.norm(v, ord=1), np.linalg.norm(x, keepdims=True))


@settings(max_examples=40, deadline=None)
@given(shape=st.tuples(st.integers(1, 5), st.integers(1, 5)), dtype=st.sampled_from(DTYPES),
       layout=st.sampled_from(["C", "F", "strided"]))
def test_norms_are_numpys_own(shape, dtype, layout):
    """``np.linalg.norm``'s first case (every real and integer dtype, any layout: the
    ``ravel(order='K')`` order of the sum) and the forms left to NumPy."""
    x = (np.random.default_rng(sum(shape)).random(shape) * 20 - 10).astype(dtype)
    x = np.asfortranarray(x) if layout == "F" else \
        np.repeat(x, 2, axis=1)[:, ::2] if layout == "strided" else x
    compiled = dynamo.compile(norms, backend="numpy")
    want, want_error = _outcome(norms, x, x[:, 0], x > 0)
    for _ in range(2):
        got, got_error = _outcome(compiled, x, x[:, 0], x > 0)
        assert got_error == want_error
        if want_error is None:
            for g, w in zip(got, want, strict=True):
                _same(g, w)


def test_generated_code_takes_norms_first_case():
    x = np.ones((3, 4))
    src = _source(norms, x, x[:, 0], x > 0)
    for i, call in enumerate(["_vector_norm(x, False)", "_vector_norm(v, False)",
                              "_vector_norm(x, False)", "_vector_norm(v, False)",
                              "_vector_norm(b, True)", "_axis_norm(x, 0, False, False)",
                              "_norm(v, ord=1)",
                              "_norm(x, keepdims=True)"]):   # the last two: NumPy's
        assert f"norm{'_' * bool(i)}{i or ''} = {call}" in src


def axis_norms(x, b, c):
    """Speeds of particles and unit vectors: ``norm`` over one axis, ``ord`` None or 2."""
    return (np.linalg.norm(x, axis=1), np.linalg.norm(x, axis=-1, keepdims=True),
            x / np.linalg.norm(x, axis=1, keepdims=True), np.linalg.norm(x, 2, axis=(1,)),
            np.linalg.norm(x, axis=0), np.linalg.norm(b, axis=1), np.linalg.norm(c, axis=-1),
            np.linalg.norm(x[:, 0], axis=0))


@settings(max_examples=40, deadline=None)
@given(rows=st.sampled_from([1, 7, 511, 512, 1500]), n=st.integers(1, 9),
       dtype=st.sampled_from([np.float64, np.float32, np.float16, np.int64, np.bool_]),
       layout=st.sampled_from(["C", "F", "strided"]), special=st.booleans())
def test_norms_over_one_axis_are_numpys_own(rows, n, dtype, layout, special):
    """``norm(x, axis=k)``: the same bits, dtype, type and shape as NumPy's, short axes
    summed by adds (from ``SHORT_SUM_MIN`` rows) or not, with infinities, NaNs and
    values whose squares overflow (NumPy's warnings: the fused code reruns eager)."""
    rng = np.random.default_rng(rows * 10 + n)
    x = (rng.standard_normal((rows, n)) * 10.0 ** rng.integers(-5, 5, (rows, n)))
    if special:
        x.flat[rng.integers(0, x.size, 3)] = [np.inf, np.nan, -1e200]
    with np.errstate(all="ignore"):
        x = x.astype(dtype)
    x = np.asfortranarray(x) if layout == "F" else \
        np.repeat(x, 2, axis=1)[:, ::2] if layout == "strided" else x
    b = (x != 0) if dtype is not np.bool_ else x
    c = x.reshape(rows, n, 1)[:, :, 0] if layout == "C" else x
    compiled = dynamo.compile(axis_norms, backend="numpy")
    with warnings.catch_warnings(record=True) as want_warnings:
        warnings.simplefilter("always")
        want, want_error = _outcome(axis_norms, x, b, c)
    for _ in range(2):
        with warnings.catch_warnings(record=True) as got_warnings:
            warnings.simplefilter("always")
            got, got_error = _outcome(compiled, x, b, c)
        assert got_error == want_error
        assert [(w.category, str(w.message)) for w in got_warnings] == \
            [(w.category, str(w.message)) for w in want_warnings]
        for g, w in zip(got, want, strict=True):
            _same(g, w)


def test_generated_code_takes_axis_norms():
    x = np.ones((600, 3))
    src = _source(axis_norms, x, x > 0, x.copy())
    for call in ("_axis_norm(x, 1, False, False)", "_axis_norm(x, -1, True, False)",
                 "_axis_norm(x, 1, True, False)", "_axis_norm(x, 0, False, False)",
                 "_axis_norm(b, 1, False, True)", "_axis_norm(c, -1, False, False)",
                 "_axis_norm((x[:, 0]), 0, False, False)"):
        assert call in src
    assert "_norm(" not in src.replace("_axis_norm(", "")


def other_norms(x):
    return (np.linalg.norm(x, 1, axis=1), np.linalg.norm(x, np.inf, axis=1),
            np.linalg.norm(x, 3, axis=1), np.linalg.norm(x, axis=(0, 1)),
            np.linalg.norm(x, 2.0, axis=1))


def test_other_orders_and_axis_pairs_keep_numpys_call():
    x = np.arange(12.0).reshape(4, 3)
    src = _source(other_norms, x)
    assert "_axis_norm(" not in src
    compiled = dynamo.compile(other_norms, backend="numpy")
    for g, w in zip(compiled(x), other_norms(x), strict=True):
        _same(g, w)
