"""``np.linspace`` of literal arguments is a copy of NumPy's own compile-time result
(``precomputed``): bit for bit (values, dtype, shape, strides, ``owndata``), a fresh
array per call, and NumPy's errors and warnings where the arguments are bad."""

import warnings

import numpy as np
import pytest
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


def spaced(start, stop, num, endpoint, dtype):
    # the arguments are specialized: literals of the graph, as in `np.linspace(0, 1, 50)`
    t = np.linspace(start, stop, num, endpoint, dtype=dtype)
    t += 1   # a write into the result: the next call's must not see it
    return t


def _outcome(fn, *args):
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        try:
            result = fn(*args)
        except Exception as e:   # noqa: BLE001 (compared against eager's)
            result = (type(e), str(e))
    return result, [(w.category, str(w.message)) for w in shown]


def _same(a, b):
    assert type(a) is type(b)
    if isinstance(a, tuple):
        assert a == b
        return
    assert a.dtype == b.dtype and a.shape == b.shape and a.strides == b.strides
    assert a.flags.owndata == b.flags.owndata and a.flags.writeable == b.flags.writeable
    np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))


numbers = st.one_of(st.integers(-10**6, 10**6), st.integers(-10**30, 10**30),
                    st.floats(allow_nan=True, allow_infinity=True),
                    st.floats(-1e3, 1e3, allow_subnormal=True))


@settings(max_examples=60, deadline=None)
@given(start=numbers, stop=numbers, num=st.integers(-1, 40), endpoint=st.booleans(),
       dtype=st.sampled_from([None, np.float32, np.float16, np.int64, np.int8,
                              np.uint8, np.complex128, float]))
def test_linspace_is_numpys_own(start, stop, num, endpoint, dtype):
    """Ints, floats (NaN, inf, subnormal, huge), 0/1 samples, negative counts, integer
    and narrow dtypes (casts that warn): NumPy's result, warnings and errors."""
    dynamo.reset()
    compiled = dynamo.compile(spaced, backend="numpy")
    expected, shown = _outcome(spaced, start, stop, num, endpoint, dtype)
    for _ in range(2):   # the second call: the first one's write is not seen
        got, got_shown = _outcome(compiled, start, stop, num, endpoint, dtype)
        _same(got, expected)
        assert got_shown == shown


def test_literal_linspace_compiles_to_a_copy():
    src = backend_log(dynamo.compile(spaced, backend="numpy"), 0, 1, 50, True, None)
    assert "_linspace_values.copy().reshape((50,))" in src, src
    assert "_linspace(" not in src, src


def test_warning_or_failing_calls_stay_numpys_call():
    """A cast of NaN to int warns at run time (NumPy's own call); a negative count
    raises NumPy's ValueError there."""
    for args in ((0.0, float("nan"), 5, True, np.int64), (0, 1, -1, True, None)):
        dynamo.reset()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            src = backend_log(dynamo.compile(spaced, backend="numpy"), *args) \
                if args[2] >= 0 else ""
        assert "_linspace_values" not in src
        expected, shown = _outcome(spaced, *args)
        assert shown or isinstance(expected, tuple)
        got, got_shown = _outcome(dynamo.compile(spaced, backend="numpy"), *args)
        _same(got, expected)
        assert got_shown == shown


def test_long_spaces_stay_numpys_call_and_retstep_samples_are_a_space():
    """A space too long to keep is NumPy's call; ``retstep=True``'s samples are the
    graph's linspace node (``variables/linspace_step.py``), kept like any literal one,
    with eager's values and step."""
    def long_space():
        return np.linspace(0, 1, 1 << 17)

    def stepped():
        return np.linspace(0, 1, 5, retstep=True)

    src = backend_log(dynamo.compile(long_space, backend="numpy"))
    assert "_linspace_values" not in src, src
    src = backend_log(dynamo.compile(stepped, backend="numpy"))
    assert "_linspace_values.copy().reshape((5,))" in src, src
    (got, got_step), (want, want_step) = dynamo.compile(stepped, backend="numpy")(), stepped()
    np.testing.assert_array_equal(got, want)
    assert type(got_step) is type(want_step) and got_step == want_step


def _overflowing_space(x):
    return x + np.linspace(-1e308, 1e308, 3)


def test_a_space_compiled_under_ignore_still_warns_later():
    """Compiled inside ``np.errstate(all="ignore")``, a call whose arithmetic overflows
    must not be precomputed (the later calls, under "warn", would lose the warnings)."""
    compiled = dynamo.compile(_overflowing_space, backend="numpy")
    with np.errstate(all="ignore"):
        compiled(np.ones(3))
    with warnings.catch_warnings(record=True) as plain:
        warnings.simplefilter("always")
        want = _overflowing_space(np.ones(3))
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        got = compiled(np.ones(3))
    np.testing.assert_array_equal(got, want)
    assert [str(w.message) for w in shown] == [str(w.message) for w in plain]
    assert plain
