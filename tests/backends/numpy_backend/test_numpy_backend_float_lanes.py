"""A loop body of float64 NumPy scalar arithmetic run on Python floats (``float_lanes.py``,
issue #15's cause 2): the loop's code is the lane, with the NumPy code as its fallback;
results bit for bit eager's with eager's types; a value that leaves float64's range
anywhere (a divisor included), a division by zero and ``np.errstate(under=...)`` give
eager's warnings, errors and values."""

import logging
import warnings

import numpy as np
import pytest

import dynamo


def recursion(r):
    """Levinson-Durbin's scalar recursion (../shared/tools/real-shapes.py)."""
    alpha, beta = -r[0], 1.0
    for k in range(1, r.shape[0]):
        beta *= 1.0 - alpha * alpha
        alpha = -(r[k] + alpha) / beta
    return alpha, beta


def hidden_divisor(r, c):
    """``r[k] * c * c`` overflows only as a divisor: ``x / inf`` is 0, so only the
    lane's check of divisors sees it (eager warns of the overflow)."""
    x = r[0]
    for k in range(1, len(r)):
        x = x + 1.0 / (r[k] * c * c)
    return x


def diagonal(A):
    s = A[0, 0]
    for i in range(1, A.shape[0]):
        s = s / 2 + A[i, i - 1]
    return s


def body_sources(caplog, fn, *args):
    with caplog.at_level(logging.DEBUG, logger="dynamo.backend"):
        caplog.clear()
        got = dynamo.compile(fn, backend="numpy")(*args)
    return got, "\n".join(r.getMessage() for r in caplog.records
                          if "_taking(" in r.getMessage())


def run_both(fn, *args):
    """(result, warnings) of eager's call and of a compiled call (its first)."""
    out = []
    for f in (fn, dynamo.compile(fn, backend="numpy")):
        with warnings.catch_warnings(record=True) as shown:
            warnings.simplefilter("always")
            got = f(*args)
        out.append((got, [(w.category, str(w.message)) for w in shown]))
    return out


def _same(got, want) -> bool:
    if isinstance(want, tuple):
        return all(_same(g, w) for g, w in zip(got, want, strict=True))
    return type(got) is type(want) and np.array_equal(got, want, equal_nan=True)


@pytest.mark.parametrize("n", [1, 10, 40])
def test_recursion_runs_on_python_floats(caplog, n):
    r = np.random.default_rng(n).random(n) * 0.01
    got, src = body_sources(caplog, recursion, r)
    assert _same(got, recursion(r)) and type(got[0]) is np.float64
    if n == 40:   # (fewer trips: unrolled, or the NumPy code, float_lanes.MIN_TRIPS)
        assert "_memoryview(r)" in src and "_lane(trips, _carried)" in src


def test_two_dimensional_reads(caplog):
    A = np.random.default_rng(1).random((12, 12))
    got, src = body_sources(caplog, diagonal, A)
    assert "_memoryview(A)" in src
    assert _same(got, diagonal(A))
    strided = np.random.default_rng(2).random((24, 12))[::2]   # (not contiguous)
    assert _same(dynamo.compile(diagonal, backend="numpy")(strided), diagonal(strided))


@pytest.mark.parametrize("start", [
    [0.5, 0.5, 1.0, 0.5, 0.2],        # beta reaches 0: x / 0.0 in the lane
    [0.1, 0.2, 0.3, 0.4, np.nan],     # a NaN read
    [0.9, 0.3, 0.2, -1e200, 1e200],   # overflow
], ids=["zero", "nan", "overflow"])
def test_leaving_the_range_gives_eagers_warnings(start):
    r = np.concatenate([np.full(20, 0.01), start, np.full(20, 0.01)])   # (a loop node)
    (want, want_w), (got, got_w) = run_both(recursion, r)
    assert _same(got, want) and got_w == want_w


def test_an_overflowing_divisor_warns():
    r = np.full(40, 1e200)   # (40: a loop node; a few trips are unrolled)
    (want, want_w), (got, got_w) = run_both(hidden_divisor, r, np.float64(1e100))
    assert want_w and got_w == want_w and _same(got, want)
    r = np.full(40, 2.0)   # (in range: the lane, no warning)
    (want, want_w), (got, got_w) = run_both(hidden_divisor, r, np.float64(3.0))
    assert not want_w and not got_w and _same(got, want)


def decay(r, c):
    x = r[0]
    for k in range(1, len(r)):
        x = x * c + r[k]
    return x


def test_underflow_setting_is_eagers():
    r, c = np.zeros(40), np.float64(0.1)   # (x * c underflows on the 8th trip, in the loop)
    r[0] = 1e-300
    compiled = dynamo.compile(decay, backend="numpy")
    assert _same(compiled(r, c), decay(r, c))
    with np.errstate(under="raise"):
        with pytest.raises(FloatingPointError):
            decay(r, c)
        with pytest.raises(FloatingPointError):
            compiled(r, c)


def row_cumsums(A):
    n, m = A.shape
    out = np.empty_like(A)
    for i in range(n):
        s = 0.0
        for j in range(m):
            s = s + A[i, j]
            out[i, j] = s
    return out


def scaled_sums(a, c, out):
    """``s * c`` is only written: the lane checks what it writes too."""
    s = a[0]
    for j in range(1, len(a)):
        s = s + a[j]
        out[j] = s * c
    return out, s


def test_writes_of_an_array_only_written(caplog):
    A = np.random.default_rng(3).random((4, 40))
    got, src = body_sources(caplog, row_cumsums, A)
    assert "_memoryview(out)" in src and _same(got, row_cumsums(A))


@pytest.mark.parametrize("c", [2.0, 1e307], ids=["in range", "overflow"])
def test_writes_give_eagers_values_and_warnings(c):
    a = np.random.default_rng(4).random(40) * 10
    for out_of in (lambda a: np.zeros_like(a), lambda a: a[:]):   # (a view of a: shared)
        runs = []
        for f in (scaled_sums, dynamo.compile(scaled_sums, backend="numpy")):
            x = a.copy()
            with warnings.catch_warnings(record=True) as shown:
                warnings.simplefilter("always")
                got = f(x, np.float64(c), out_of(x))
            runs.append((got, x, [str(w.message) for w in shown]))
        (want, x_want, w_want), (got, x_got, w_got) = runs
        assert _same(got, want) and np.array_equal(x_got, x_want) and w_got == w_want


def test_writes_where_a_condition_raises():
    """Eager raises on the 17th trip, its writes until then done: so do the lane's
    (a lane that writes runs only where no condition raises)."""
    outs = []
    for f in (scaled_sums, dynamo.compile(scaled_sums, backend="numpy")):
        out = np.zeros(40)
        with np.errstate(over="raise"), pytest.raises(FloatingPointError):
            f(np.ones(40), np.float64(1e307), out)
        outs.append(out)
    assert np.array_equal(outs[0], outs[1])
