"""A ``while_loop`` body that reads its trip counter as a number (``x + h * i``,
``omega = 1 / (1 + 0.1 * k)``, ``t = t0 + i * dt``, ``counts + k``):
dynamo/translator/while_trip.py. The body takes the trip number as a Python int and
evaluates the counter's expression with Python's own operators, so every value is
Python's bit for bit, whatever the start, the step, the tolerance (hypothesis), on
both CPU backends; the counter after the loop is a Python int. Uses that could change
with the trip (an index, a branch, a NumPy scalar's operand) and int uses that could
leave int64 stay breaks; an error on some trip is raised as eagerly.
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
from harness import check
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_loop_while import while_nodes

import dynamo

BACKENDS = ("eager", "numpy")


def _stepped(x, h, tol, i0, step, maxit):
    """``x + h * i`` and a float made from the counter in the test's value."""
    i = i0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = 0.5 * x + h * i
        err = np.abs(x - 2.0 * h * i).max()
        i += step
    return x, i


def _clock(y, t0, dt, tol, maxit):
    """``t = t0 + i * dt``: each trip's time from the counter (no running sum)."""
    i = 0
    err = np.float64(np.inf)
    while err > tol and i < maxit:
        t = t0 + i * dt
        y_new = y + dt * (np.cos(t) - y)
        err = np.abs(y_new - y).max()
        y = y_new
        i += 1
    return y, i


def _int_counts(counts, limit, k0, step, maxit):
    """The counter added to an int array as an int (weak: the array's dtype)."""
    k = k0
    top = counts.max()
    while top < limit and k < maxit:
        counts = counts + k
        top = counts.max()
        k += step
    return counts, k


def _down(x, tol, left, budget):
    """A countdown read as a float, no test on it."""
    err = np.abs(x).max()
    while err > tol:
        x = x * (0.5 + 0.25 * left / budget)
        err = np.abs(x).max()
        left -= 1
    return x, left


_compiled = {(f.__name__, b): dynamo.compile(f, backend=b)
             for f in (_stepped, _clock, _int_counts, _down) for b in BACKENDS}


def _same(got, want):
    for g, w in zip(got, want):
        if isinstance(w, np.ndarray):
            assert type(g) is np.ndarray and g.dtype == w.dtype and g.shape == w.shape
            np.testing.assert_array_equal(g, w)     # bit for bit (NaN where NaN)
        else:
            assert type(g) is type(w) and g == w


@settings(max_examples=30, deadline=None)
@given(st.floats(-4.0, 4.0), st.sampled_from([0.5, 0.01, 1e-3, 0.3]),
       st.sampled_from([1e-2, 1e-6, 1e-12]), st.integers(-3, 3), st.sampled_from([1, 2, 3]),
       st.integers(-2, 60), st.sampled_from(["float64", "float32"]),
       st.sampled_from(BACKENDS))
def test_counter_as_a_number(x0, h, tol, i0, step, maxit, dtype, backend):
    x = np.array([x0, 1.0, -2.0], dtype=dtype)
    want = _stepped(x.copy(), h, tol, i0, step, maxit)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = _compiled["_stepped", backend](x.copy(), h, tol, i0, step, maxit)
    _same(got, want)


@settings(max_examples=20, deadline=None)
@given(st.sampled_from([0.0, 0.25, -1.5, 3]), st.sampled_from([0.1, 0.05, 1, 2]),
       st.sampled_from([1e-3, 1e-9]), st.integers(0, 200), st.sampled_from(BACKENDS))
def test_time_from_the_counter(t0, dt, tol, maxit, backend):
    """``t0 + i * dt`` with ints (t an int) or floats: the same times."""
    y = np.array([0.5, 1.5])
    want = _clock(y.copy(), t0, dt, tol, maxit)
    got = _compiled["_clock", backend](y.copy(), t0, dt, tol, maxit)
    _same(got, want)


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["int64", "int32", "int16", "float32"]), st.integers(0, 5),
       st.sampled_from([1, 2, 3]), st.integers(50, 400), st.integers(0, 80),
       st.sampled_from(BACKENDS))
def test_counter_as_an_int(dtype, k0, step, limit, maxit, backend):
    """``counts + k``: NEP 50 keeps the array's dtype."""
    counts = np.array([1, 5, 2], dtype=dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = _int_counts(counts.copy(), limit, k0, step, maxit)
        got = _compiled["_int_counts", backend](counts.copy(), limit, k0, step, maxit)
    _same(got, want)


@settings(max_examples=15, deadline=None)
@given(st.integers(-5, 40), st.integers(1, 50), st.sampled_from([1e-2, 1e-5]),
       st.sampled_from(BACKENDS))
def test_countdown_unbounded(left, budget, tol, backend):
    # (below -2 * budget from the start, the factor is < -0.5 and only grows: x grows
    # to inf and the loop never ends, compiled or not)
    assume(left >= -2 * budget)
    x = np.array([3.0, -1.0, 0.5])
    want = _down(x.copy(), tol, left, budget)
    got = _compiled["_down", backend](x.copy(), tol, left, budget)
    _same(got, want)


def test_each_is_one_node_with_no_break():
    for fn, args in [(_stepped, (np.ones(2), 0.01, 1e-3, 0, 1, 50)),
                     (_clock, (np.ones(2), 0.25, 0.1, 1e-9, 300)),
                     (_int_counts, (np.array([1, 5, 2]), 200, 0, 3, 50)),
                     (_down, (np.ones(2), 1e-6, 30, 30))]:
        check(fn, *args, breaks=0)
        assert while_nodes(fn, args) == 1, fn.__name__


def test_the_body_takes_the_trip():
    """The body's first input is the trip (``while_index``), and its ops read it."""
    report = dynamo.explain(_stepped, backend="eager")(np.ones(2), 0.01, 1e-3, 0, 1, 50)
    text = "\n".join(str(g) for g in report.graphs)
    assert "def while_loop_body(trip, " in text
    # (an op of the body reads ``h * i`` as Python's float of the trip)
    assert any("= ops." in line and "float(" in line and "trip" in line
               for line in text.splitlines())


def _raises_on_a_trip(x, tol, maxit):
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * 0.5 + 1.0 / (i - 5)          # ZeroDivisionError on the trip with i = 5
        err = np.abs(x).max()
        i += 1
    return x, i


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_error_on_a_trip_is_raised_there(backend):
    check(_raises_on_a_trip, np.array([1.0, 2.0]), 1e-3, 20, backend=backend)
    check(_raises_on_a_trip, np.array([1.0, 2.0]), 1e-3, 5, backend=backend)   # ends first
    assert while_nodes(_raises_on_a_trip, (np.array([1.0, 2.0]), 1e-3, 5), backend) == 1


def _past_int64(c, limit, maxit):
    k = 2 ** 62
    top = c.max()
    while top < limit and k < maxit:
        c = c + k                            # OverflowError once k is 2 ** 63
        top = c.max()
        k += 2 ** 61
    return c, k


def _int_unbounded(c, limit):
    k = 0
    top = c.max()
    while top < limit:
        c = c + k                            # no bound keeps k an int64: a break
        top = c.max()
        k += 1
    return c, k


def _as_index(x, tol, maxit):
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * 0.5
        err = np.abs(x[i]).max()             # an index: a break
        i += 1
    return x, i


def _numpy_scalar(x, tol, maxit):
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * 0.5 + np.float32(0.5) * i    # NumPy's arithmetic: a break
        err = np.abs(x - np.float32(1.0) * i).max()
        i += 1
    return x, i


@pytest.mark.parametrize("fn,args", [
    (_past_int64, (np.array([1, 2]), 2 ** 63 - 1, 2 ** 63 + 2 ** 62)),
    (_int_unbounded, (np.array([1, 2]), 100)),
    (_as_index, (np.array([4.0, 2.0, 1.0, 0.5] * 4), 1e-2, 9)),
    (_numpy_scalar, (np.ones(3, dtype=np.float32), 1e-3, 20)),
])
@pytest.mark.parametrize("backend", BACKENDS)
def test_uses_that_stay_breaks(fn, args, backend):
    """Python's result or error, and no node where the counter could leave int64
    (``_past_int64``: the bound allows 2 ** 63; ``_int_unbounded``: no bound) or is
    read as no number."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(fn, *args, backend=backend)
    if fn is not _past_int64:   # (which raises Python's OverflowError: the same, above)
        assert while_nodes(fn, args, backend) == 0


def test_why_a_counter_read_stays_a_break():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = dynamo.explain(_int_unbounded, backend="eager")(np.array([1, 2]), 100)
        index = dynamo.explain(_as_index,
                               backend="eager")(np.array([4.0, 2.0, 1.0, 0.5] * 4), 1e-2, 9)
    assert "no bound on the trips keeps it an int64" in report.break_reasons[0].explanation
    assert "not as an index" in index.break_reasons[0].explanation


def _symbolic_maxit(x, h, tol, maxit):
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = 0.5 * x + h * i
        err = np.abs(x - 2 * h * i).max()
        i += 1
    return x, i


@pytest.mark.parametrize("backend", BACKENDS)
def test_symbolic_maxit(backend):
    """``maxit`` that changes between calls (a symbol after the first recompile)."""
    fn = dynamo.compile(_symbolic_maxit, backend=backend)
    for maxit in (50, 7, 13, 64, 2):
        args = (np.array([1.0, -2.0]), 0.01, 1e-3, maxit)
        _same(fn(*copy.deepcopy(args)), _symbolic_maxit(*copy.deepcopy(args)))


def test_while_loop_passes_the_trip():
    """``ops.while_loop(..., indexed=True)`` calls the body with the trips before it."""
    from dynamo.ops.loops import while_loop
    seen = []

    def body(trip, x):
        seen.append(trip)
        return x + 1, x + 1 < 4
    assert while_loop(body, True, True, (0,), (), None, False, 0, True) == (4,)
    assert seen == [0, 1, 2, 3]
