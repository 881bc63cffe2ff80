"""Python floats carried from trip to trip of a ``while_loop`` node (issue #15):
clocks scaled by their step (``step *= 0.5``, ``lr = lr / 2``) and clocks the body
reads (``x - lr * x``, ``np.sin(t)``), dynamo/translator/while_clocks.py.

Each trip of the node sees the clock as ``reduce`` of its Python steps over the trips
before it (``clock_at``), and the clock after the loop runs them ``taken`` times, so
the arrays, the clock's bits (``float.hex``) and its type (a Python float; a float32
array stays float32 beside it) are Python's, on the eager and numpy backends, with no
break. A step that divides by zero raises ZeroDivisionError, as in Python.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

import dynamo
from dynamo.translator.while_clocks import MAX_READ_CLOCK_TRIPS

BACKENDS = ("eager", "numpy")


def _halving(x, tol):
    step = 1.0
    while np.abs(x).max() > tol and step > 1e-3:   # tested only, halved
        x = x * 0.9
        step *= 0.5
    return x, step


def _decay_read(x, tol):
    lr = 0.3
    while np.abs(x).max() > tol and lr > 1e-6:     # read in the update, decayed
        x = x - lr * x
        lr *= 0.9
    return x, lr


def _accumulate_read(x, dt, t_end, tol):
    t = 0.0
    err = np.float64(np.inf)
    while err > tol and t < t_end:                  # t += dt read by np.sin(t)
        dx = dt * (np.sin(t) - x)
        x = x + dx
        err = np.abs(dx).max()
        t += dt
    return x, t


def _line_search(x, p, fx):
    step = 1.0                                      # backtracking (BFGS's)
    while np.sum((x + step * p) ** 2) > fx + 1e-4 * step * (p @ p) and step > 1e-8:
        step = step / 2
    return x + step * p, step


def _divide_by(x, d, tol):
    step = 1.0
    while np.abs(x).max() > tol and step > 1e-3:
        x = x * 0.5
        step /= d                                   # d = 0.0: ZeroDivisionError
    return x, step


CASES = [
    (_halving, (np.linspace(1.0, 2.0, 5), 0.5)),
    (_halving, (np.linspace(1.0, 2.0, 5), 1e-9)),
    (_decay_read, (np.linspace(1.0, 2.0, 5), 1e-3)),
    (_decay_read, (np.linspace(1.0, 2.0, 5).astype(np.float32), 1e-9)),
    (_accumulate_read, (np.ones(3), 0.05, 2.0, 1e-9)),
    (_accumulate_read, (np.ones(3), 0.1, 2.0, 0.05)),
    (_line_search, (np.array([1.0, -2.0]), np.array([-4.0, 7.0]), 5.0)),
    (_line_search, (np.array([1.0, -2.0]), np.array([-0.5, 1.0]), 5.0)),
    (_divide_by, (np.array([1.0, 3.0]), 2.0, 1e-2)),
]


def _same(got, want):
    assert type(got) is type(want)
    if isinstance(want, np.ndarray):
        assert got.dtype == want.dtype and np.array_equal(got, want)
    else:
        assert float.hex(got) == float.hex(want)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args", CASES, ids=lambda v: getattr(v, "__name__", ""))
def test_float_carried_is_one_node_bit_for_bit(fn, args, backend):
    """No break, one while_loop node; arrays and the float as Python has them."""
    dynamo.reset()
    want = fn(*copy.deepcopy(args))
    report = dynamo.explain(fn, backend=backend)(*copy.deepcopy(args))
    assert report.graph_break_count == 0, report.break_reasons
    assert str(report.graphs[0]).count("ops.while_loop(") == 1
    for g, w in zip(report.result, want, strict=True):
        _same(g, w)


@pytest.mark.parametrize("backend", BACKENDS)
def test_step_dividing_by_zero_raises(backend):
    """``step /= 0.0``: Python raises ZeroDivisionError on the first trip; so does
    the compiled function (no node: the step is no clock)."""
    dynamo.reset()
    args = (np.array([1.0, 3.0]), 0.0, 1e-2)
    with pytest.raises(ZeroDivisionError):
        _divide_by(*copy.deepcopy(args))
    with pytest.raises(ZeroDivisionError):
        dynamo.compile(_divide_by, backend=backend)(*copy.deepcopy(args))


def _decay_unbounded(x, tol):
    lr = 0.3
    while np.abs(x).max() > tol:                    # no test bounds the trips
        x = x - lr * x
        lr *= 0.99
    return x, lr


@pytest.mark.parametrize("backend", BACKENDS)
def test_read_clock_needs_a_bound(backend):
    """A clock the body reads with no test bounding the trips (its values are a table
    of at most ``MAX_READ_CLOCK_TRIPS`` trips): a break that says so, and Python's
    values."""
    dynamo.reset()
    args = (np.linspace(1.0, 2.0, 5), 1e-3)
    want = _decay_unbounded(*copy.deepcopy(args))
    report = dynamo.explain(_decay_unbounded, backend=backend)(*copy.deepcopy(args))
    assert report.graph_break_count >= 1
    assert f"at most {MAX_READ_CLOCK_TRIPS} trips" in report.break_reasons[0].explanation
    dynamo.reset()
    got = dynamo.compile(_decay_unbounded, backend=backend)(*copy.deepcopy(args))
    for g, w in zip(got, want, strict=True):
        _same(g, w)


def _select_then_loop(x, g, tol):
    h = np.eye(2)
    if g @ g > 1.0:               # an if on data: a select, h may be the eye itself
        h = h * 2.0 + 1.0
    while np.abs(x).max() > tol:  # h carried (held by the frame), read, not written
        x = 0.5 * (h @ x) / h.sum()
    return x, h


def _select_then_loop_in_place(x, g, tol):
    h = np.eye(2)
    if g @ g > 1.0:
        h = h * 2.0 + 1.0
    while np.abs(x).max() > tol:
        x = 0.5 * x
        h += 1.0                  # written in place: which object h is matters
    return x, h


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("g", [np.array([2.0, 0.5]), np.array([0.1, 0.2])])
def test_carried_array_that_may_be_another(g, backend):
    """A carried array that may be another (``may_be``: BFGS's ``h`` after ``if sy >
    1e-10: h = ...``): a node where the body writes no carried array in place; one
    that writes in place stays a break. Python's values either way."""
    for fn, breaks in ((_select_then_loop, 0), (_select_then_loop_in_place, None)):
        dynamo.reset()
        args = (np.array([1.0, -3.0]), g, 1e-3)
        want = fn(*copy.deepcopy(args))
        report = dynamo.explain(fn, backend=backend)(*copy.deepcopy(args))
        if breaks is None:
            assert report.graph_break_count >= 1
        else:
            assert report.graph_break_count == breaks, report.break_reasons
        dynamo.reset()
        got = dynamo.compile(fn, backend=backend)(*copy.deepcopy(args))
        for a, b in zip(got, want, strict=True):
            _same(a, b)
