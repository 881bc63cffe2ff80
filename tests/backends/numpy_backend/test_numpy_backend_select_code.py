"""A choice an ``if`` on the data made, in a loop node's body, written back as that
``if`` by the numpy backend (``select_code.py``, issue #15): ``if flag: x[i] = v`` for
a held-back write, ``if flag: s = ... else: s = s`` for a carried NumPy scalar, the
way's values computed inside the branch; results bit for bit eager's (values, dtypes,
NaN, -0.0) at trip counts 0, 1, 2 and more, float32 and int arrays."""

import logging
import warnings

import numpy as np
import pytest

import dynamo


def clamp(x, hi):
    x = x.copy()
    for i in range(len(x)):
        if x[i] > hi:
            x[i] = hi
    return x


def forward_fill(x):
    x = x.copy()
    for i in range(1, len(x)):
        if np.isnan(x[i]):
            x[i] = x[i - 1]
    return x


def reflect(x, lo, hi):
    x = x.copy()
    for i in range(len(x)):
        if x[i] > hi:
            x[i] = 2 * hi - x[i]
        elif x[i] < lo:
            x[i] = 2 * lo - x[i]
    return x


def running_min(x):
    out = np.empty_like(x)
    m = x[0]
    for i in range(len(x)):
        if x[i] < m:
            m = x[i]
        out[i] = m
    return out


def log_positive(x):
    x = x.copy()
    for i in range(len(x)):
        if x[i] > 0:
            x[i] = np.log(x[i])      # (the untaken way's log of a negative: not run)
    return x


def body_sources(caplog, fn, *args) -> str:
    """The generated code of the loop bodies compiling ``fn`` makes (the backend's
    debug log of each generated module)."""
    with caplog.at_level(logging.DEBUG, logger="dynamo.backend"):
        caplog.clear()
        dynamo.compile(fn, backend="numpy")(*args)
    return "\n".join(r.getMessage() for r in caplog.records if "_taking(" in r.getMessage())


@pytest.mark.parametrize("fn, args", [
    (clamp, (np.linspace(-1, 2, 40), 0.5)),
    (forward_fill, (np.where(np.arange(40) % 3 == 0, np.nan, np.linspace(0, 1, 40)),)),
    (running_min, (np.linspace(1, -1, 40),)),
])
def test_the_body_has_the_if_not_a_where(caplog, fn, args):
    dynamo.reset()
    src = body_sources(caplog, fn, *args)
    assert "for trip in range(" in src, src
    assert "if " in src and "_where" not in src and "_pick" not in src and \
        "_branch_select" not in src, src


def test_a_float32_clamp_stores_the_python_float(caplog):
    dynamo.reset()
    x = np.linspace(-1, 2, 40, dtype=np.float32)
    src = body_sources(caplog, clamp, x, 0.4)
    assert "_where" not in src and "] = 0.4" in src, src


def test_the_ways_values_are_computed_inside_the_branch(caplog):
    dynamo.reset()
    src = body_sources(caplog, reflect, np.linspace(-2, 2, 40), -1.0, 1.0)
    lines = [ln.strip() for ln in src.split("\n")]
    assert "else:" in lines, src   # (one test of the flag: the two stores' ways)
    first = lines.index("else:")
    # (the elif's compare and subtraction run only where the first test fails, and
    # its store only where the second holds)
    assert any("< -1.0" in ln for ln in lines[first:]), src
    assert not any("< -1.0" in ln for ln in lines[:first]), src
    assert "_where" not in src and "_pick" not in src, src


def _same(got, want) -> None:
    assert type(got) is type(want)
    np.testing.assert_array_equal(got, want, strict=True)
    assert np.array_equal(np.signbit(got), np.signbit(want))


# sizes whose loop node runs 0, 1, 2 and more trips: the first sizes are static
# variants, the later ones run the size-generic code (numpy_backend/sizes.py)
SIZES = (30, 31, 32, 33, 2, 3, 4)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_clamp_and_fill_equal_eager(dtype):
    dynamo.reset()
    c, f = dynamo.compile(clamp, backend="numpy"), dynamo.compile(forward_fill, backend="numpy")
    for n in SIZES:
        x = np.linspace(-1, 2, n, dtype=dtype)
        x[::4] = np.nan
        x[1::5] = -0.0
        _same(c(x, 0.4), clamp(x, 0.4))   # (0.4 into float32: rounded as eager's store)
        _same(c(x, dtype(0.25)), clamp(x, dtype(0.25)))
        _same(f(x), forward_fill(x))


def test_int_arrays_equal_eager():
    dynamo.reset()
    c = dynamo.compile(clamp, backend="numpy")
    for n in SIZES:
        x = np.arange(n, dtype=np.int32) - n // 2
        _same(c(x, 3), clamp(x, 3))


def test_reflect_and_running_min_equal_eager():
    dtype = np.float32
    dynamo.reset()
    r, m = dynamo.compile(reflect, backend="numpy"), dynamo.compile(running_min, backend="numpy")
    for n in SIZES:
        x = (np.linspace(-3, 3, n) ** 3).astype(dtype)
        x[2::7] = np.nan
        x[1::6] = -0.0
        _same(r(x, -1.0, 1.0), reflect(x, -1.0, 1.0))
        _same(m(x), running_min(x))
        _same(m(-x), running_min(-x))


def test_an_untaken_way_warns_nothing():
    dynamo.reset()
    fn = dynamo.compile(log_positive, backend="numpy")
    x = np.linspace(-2, 2, 41)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _same(fn(x), log_positive(x))
    x[3] = 0.0   # (taken nowhere: log(0) is on the untaken side too)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _same(fn(x), log_positive(x))


def sqrt_before_the_if(x):
    y = np.zeros_like(x)
    for i in range(len(x)):
        flag = x[i] > 0
        w = np.sqrt(x[i])      # after the flag, before the ``if``: runs on every trip
        if flag:
            y[i] = w + 1.0
    return y


def test_a_value_computed_between_the_flag_and_the_if_runs_on_every_trip(caplog):
    """Only a way's own values move into its branch (``select_ways``): the ``sqrt`` of
    a negative warns on each trip as in the program (hostile round 42: it moved into
    the branch, and the warnings, or an ``errstate(invalid="raise")``, were lost)."""
    dynamo.reset()
    x = np.linspace(-2, 2, 41)
    src = body_sources(caplog, sqrt_before_the_if, x)
    lines = [ln.strip() for ln in src.split("\n")]
    at_if = next(k for k, ln in enumerate(lines) if ln.startswith("if "))
    assert any("_sqrt(" in ln for ln in lines[:at_if]), src
    fn = dynamo.compile(sqrt_before_the_if, backend="numpy")
    with warnings.catch_warnings(record=True) as want:
        warnings.simplefilter("always")
        expected = sqrt_before_the_if(x)
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        _same(fn(x), expected)
    assert [str(w.message) for w in got] == [str(w.message) for w in want] and len(want) == 20
    with np.errstate(invalid="raise"), pytest.raises(FloatingPointError):
        fn(x)
