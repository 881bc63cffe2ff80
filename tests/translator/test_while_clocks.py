"""A Python float clock beside a ``while_loop`` node's array test (issue #19):
``while err > tol and t < t_end: ...; t += dt`` (dynamo/translator/while_clocks.py).

``t += dt`` repeated is not ``t0 + i * dt``: the node's bound is the number of tests
the clock test holds for, found with Python's own additions when the trace runs, and
the clock after the loop runs those additions again, ``taken`` times. So the arrays,
the clock's value (bit for bit, ``float.hex``) and its type (a Python float) are
Python's whatever ``t0``, ``dt``, ``t_end`` and the tolerance (hypothesis, NaN
included), on the eager, numpy and dask backends, with the clock stepped by
``+=``, ``= t +`` or ``-=``, by a float or an int, tested first or second. A clock
stepped by a NumPy scalar, changing between calls or running too long stays a break,
whose message says so (a clock read in the body, or scaled, is a node:
test_while_read_clocks.py).
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
from harness import check
from hypothesis import given, settings
from hypothesis import strategies as st
from test_loop_while import while_nodes

import dynamo
from dynamo.translator.while_clocks import MAX_CLOCK_TRIPS, clock_add, clock_sub

BACKENDS = ("eager", "numpy", "dask")


def _plus_equals(x, t0, dt, t_end, tol):
    t = t0
    while np.abs(x).max() > tol and t < t_end:
        x = x * 0.75
        t += dt
    return x, t


def _assign_add(x, t0, dt, t_end, tol):
    t = t0
    while np.abs(x).max() > tol and t < t_end:
        x = x * 0.75
        t = t + dt
    return x, t


def _countdown(x, t0, dt, t_end, tol):
    t = t0
    err = np.abs(x).max()
    while err > tol and t > t_end:
        x = x * 0.75
        err = np.abs(x).max()
        t -= dt
    return x, t


def _clock_first(x, t0, dt, t_end, tol):
    t = t0
    err = np.abs(x).max()
    while t < t_end and err > tol:
        x = x * 0.75
        err = np.abs(x).max()
        t += dt
    return x, t


def _untested(x, t0, dt, tol):
    """The clock only counted: no bound, its value after the loop read off the node."""
    t = t0
    while np.abs(x).max() > tol:
        x = x * 0.75
        t += dt
    return x, t


def _used_after(x, t0, dt, t_end, tol):
    """The clock after the loop flows into an op and into Python arithmetic."""
    t = t0
    while np.abs(x).max() > tol and t < t_end:
        x = x * 0.75
        t += dt
    return x + t, t * 2.0 - 1.0


FORMS = (_plus_equals, _assign_add, _countdown, _clock_first)


def _same(got, want):
    for g, w in zip(got, want):
        assert type(g) is type(w)
        if isinstance(w, np.ndarray):
            assert g.dtype == w.dtype and g.shape == w.shape
            np.testing.assert_array_equal(g, w)
        else:
            assert float.hex(g) == float.hex(w), (g, w)


def _fresh(fn, args, backend):
    """Compiled from scratch (no value seen before: the clock's numbers are constants
    of this entry, so the loop can be a node), the result and the nodes made."""
    dynamo.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return while_nodes(fn, args, backend)


_dt = st.one_of(st.floats(1e-3, 2.0), st.integers(1, 3), st.just(0.1), st.just(float("nan")))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(FORMS), st.sampled_from([0.0, 0.3, -1.5, 1e16]), _dt,
       st.one_of(st.floats(-2.0, 6.0), st.just(1.0)), st.integers(0, 12),
       st.booleans(), st.sampled_from(BACKENDS))
def test_clock_bit_for_bit(fn, t0, dt, t_end, halvings, nan_tol, backend):
    """Any start, step (float, int, NaN), end and tolerance (the test, the clock or
    neither ending the loop; a NaN tolerance ends it at once): Python's values and
    types, and one node where a trip runs past the trace's first."""
    x = np.array([1.0, -0.5])
    tol = float("nan") if nan_tol else 0.75 ** halvings
    if fn is _countdown:
        t_end = t0 - abs(t_end)
    args = (x, t0, dt, t_end, tol)
    want = fn(*copy.deepcopy(args))
    nodes = _fresh(fn, args, backend)
    got = dynamo.compile(fn, backend=backend)(*copy.deepcopy(args))
    _same(got, want)
    assert nodes == _expected_nodes(fn, t0, dt, t_end)


def _expected_nodes(fn, t0, dt, t_end) -> int:
    """One node, but none where the clock tested first fails at once (the trace skips
    the loop) or after one trip (the trace's trip leaves the loop at the clock test
    at the bottom: a break), or where the clock test holds past ``MAX_CLOCK_TRIPS``
    tests (a break). A step that changes nothing (``1e16 + 0.1``) leaves no clock: a
    float test in front that holds on every trip (a node), else a break."""
    step, holds = (clock_sub, float.__gt__) if fn is _countdown else (clock_add, float.__lt__)
    if float.hex(step(t0, dt, 1)) == float.hex(t0):
        return int(fn is _clock_first and t0 < t_end)
    if fn is _clock_first and not (t0 < t_end and step(t0, dt, 1) < t_end):
        return 0
    t = t0
    for _ in range(MAX_CLOCK_TRIPS + 1):
        if not holds(float(t), float(t_end)):
            return 1
        t = step(t, dt, 1)
    return 0


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", FORMS + (_used_after,))
def test_clock_is_one_node(fn, backend):
    args = (np.array([1.0, -0.5]), 0.0, 0.1, 1.0, 1e-9)
    if fn is _countdown:
        args = (np.array([1.0, -0.5]), 1.0, 0.1, 0.0, 1e-9)
    assert _fresh(fn, args, backend) == 1
    check(fn, *args, backend=backend, breaks=0 if backend == "eager" else None)


@pytest.mark.parametrize("backend", BACKENDS)
def test_untested_clock(backend):
    """A clock nobody tests: the node has no bound, the clock after it is ``taken``
    additions (0.1 added 10 times is 0.9999999999999999, not 1.0)."""
    args = (np.array([1.0, -0.5]), 0.0, 0.1, 0.75 ** 10)
    assert _fresh(_untested, args, backend) == 1
    got = dynamo.compile(_untested, backend=backend)(*copy.deepcopy(args))
    _same(got, _untested(*copy.deepcopy(args)))
    assert got[1] == clock_add(0.0, 0.1, 10) != 1.0


def test_clock_sums_in_order():
    """What the node's bound and the clock after the loop compute: one rounding per
    step, never ``t0 + n * dt``."""
    assert clock_add(0.0, 0.1, 10) == 0.9999999999999999
    assert clock_sub(1.0, 0.1, 10) == 1.3877787807814457e-16
    assert clock_add(1e16, 1.0, 4) == 1e16          # each 1.0 rounds away
    assert clock_add.render_call("0.0", "0.1", "n") == (
        "__import__('functools').reduce(lambda _t, _k: (_t + 0.1), range(n), 0.0)")


def test_clock_that_changes_between_calls():
    """``dt`` (or ``t0``, ``t_end``) a different float on each call becomes a symbol
    (docs/dynamic_shapes.md): the clock's values are then not known when the trace
    runs, and the loop breaks as before; every call gives Python's values."""
    dynamo.reset()
    compiled = dynamo.compile(_plus_equals, backend="eager")
    for dt in (0.1, 0.2, 0.3, 0.25):
        args = (np.array([1.0, -0.5]), 0.0, dt, 1.0, 1e-9)
        _same(compiled(*copy.deepcopy(args)), _plus_equals(*copy.deepcopy(args)))
    dynamo.reset()
    compiled = dynamo.compile(_plus_equals, backend="eager")
    for t0, t_end in ((0.0, 1.0), (0.0, 1.5), (0.3, 1.5), (0.3, 0.7), (-1.0, 0.7)):
        args = (np.array([1.0, -0.5]), t0, 0.1, t_end, 1e-9)
        _same(compiled(*copy.deepcopy(args)), _plus_equals(*copy.deepcopy(args)))


def test_clock_too_long_stays_a_break():
    """A clock test that holds for more than ``MAX_CLOCK_TRIPS`` tests is not followed
    at compile time: a break that says so, and Python's values."""
    args = (np.array([1.0, -0.5]), 0.0, 1.0, float(MAX_CLOCK_TRIPS + 5), 0.5)
    report = check(_plus_equals, *args, breaks=None)
    report = dynamo.explain(_plus_equals, backend="eager")(*copy.deepcopy(args))
    assert report.graph_break_count >= 1
    assert f"holds for more than {MAX_CLOCK_TRIPS} trips" in \
        report.break_reasons[0].explanation


def _float32_step(x, dt, t_end, tol):
    t = 0.0
    while np.abs(x).max() > tol and t < t_end:
        x = x * 0.5
        t += dt
    return x, t


def _stepped_twice(x, dt, t_end, tol):
    t = 0.0
    while np.abs(x).max() > tol and t < t_end:
        x = x * 0.5
        t += dt
        t += dt
    return x, t


@pytest.mark.parametrize("fn,args,says", [
    (_float32_step, (np.array([1.0, 3.0]), np.float32(0.1), 1.0, 1e-12),
     "that the first trip makes a NumPy value"),
    (_stepped_twice, (np.array([1.0, 3.0]), 0.1, 1.0, 1e-12),
     "a clock is one only where the body steps it once"),
])
def test_clocks_that_stay_breaks(fn, args, says):
    """Made an np.float32 by its step, stepped twice: breaks whose
    message names the shape (with the hint's rewrite), and Python's values."""
    dynamo.reset()
    check(fn, *args, breaks=None)
    report = dynamo.explain(fn, backend="eager")(*copy.deepcopy(args))
    assert report.graph_break_count >= 1
    brk = report.break_reasons[0]
    assert "the loop is no while_loop node: " in brk.explanation and says in brk.explanation
    assert "t = np.zeros(())" in brk.hint


def _stepped_by_counter(x, tol):
    t, k = 0.0, 1
    while np.abs(x).max() > tol:
        x = x * 0.5
        k += 1
        t += k                    # the step changes every trip: no clock
    return x, t, k


def _adaptive_step(x, dt, t_end, tol):
    t = 0.0
    while np.abs(x).max() > tol and t < t_end:
        x = x * 0.75
        t += dt
        dt = dt * 1.5             # the step itself changes: no clock
    return x, t, dt


def _clock_in_array_test(x, dt, t_end, tol):
    t = 0.0
    while np.abs(x).max() > tol * (1.0 + t) and t < t_end:
        x = x * 0.75              # the array test reads the clock: no clock
        t += dt
    return x, t


def _step_under_constant_branch(x, dt, t_end, tol, on):
    t = 0.0
    while np.abs(x).max() > tol and t < t_end:
        x = x * 0.75
        if on:                    # the same way on every trip
            t += dt
    return x, t


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args", [
    (_stepped_by_counter, (np.array([1.0, 2.0]), 1e-3)),
    (_adaptive_step, (np.array([1.0, 2.0]), 0.01, 1.0, 1e-9)),
    (_clock_in_array_test, (np.array([1.0, 2.0]), 0.1, 1.0, 1e-3)),
    (_step_under_constant_branch, (np.array([1.0, 2.0]), 0.1, 1.0, 1e-9, True)),
    (_step_under_constant_branch, (np.array([1.0, 2.0]), 0.1, 1.0, 1e-2, False)),
])
def test_clock_lookalikes_give_pythons_values(fn, args, backend):
    """Floats that change but are no clock (a step that changes, a test that reads the
    clock), or a clock stepped under a branch every trip takes the same way: Python's
    values, twice (the second call with the same values)."""
    dynamo.reset()
    check(fn, *args, backend=backend)
