"""Solver loops whose update reads their own bookkeeping (corpus_while_updates.py,
written before the code ran): each program eagerly and compiled on both CPU backends
(``harness.check``: results, dtypes, arguments afterwards, printed output, exceptions,
twice) and its graph breaks (eager backend; the same on 3.11, 3.13 and 3.14).

``while err > tol or it < miniter:`` (the array test first in an ``or``) is one
``while_loop`` node that runs at least ``m`` trips (``or_counter_tests``): hypothesis
runs it through no trip, one, the counter or the test deciding, NaN. A counter read
in the update as a number is one node too (tests/translator/test_while_trip.py), and so
is a Python float clock the body only steps (``t += dt``: test_while_clocks.py); a
counter used as an index or a NumPy scalar's operand, and a float clock read in the
update or made an np.float32, stay breaks whose message names the shape and whose hint
gives the rewrite, which is a node (checked here too).
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
from corpus_while_updates import PROGRAMS, _diag_dominant, _rng
from harness import check
from hypothesis import given, settings
from hypothesis import strategies as st
from test_loop_while import assert_same_warnings, while_nodes

import dynamo
from dynamo import pyversion

BACKENDS = ("eager", "numpy")

# graph breaks per program (eager backend). Before: 1 of 31 without a break, 49 breaks;
# then 33 breaks in the 31 programs (the ``or`` nodes), 49 with the 10 programs of
# section 4; then 13 (a counter read as a number: translator/while_trip.py); with the
# 15 float-clock programs of section 5: 33 of 56 without a break and 37 breaks, now
# 43 and 19 (a clock the body only steps: translator/while_clocks.py).
BREAKS = {
    # 1. a counter read in the update: one node (the trip number is the body's input)
    "euler_forced_decay": 0, "euler_forced_decay_exhausts": 0,
    "damped_newton_sqrt": 0, "damped_newton_sqrt_one_trip": 0,
    "relaxation_omega_k": 0, "gradient_descent_decay": 0,
    "geometric_damping": 0, "int_counter_into_int_array": 0,
    "int_counter_into_int32_array": 0, "frank_wolfe_step": 0,
    "counter_in_step_unbounded": 0, "counter_down_in_step": 0,
    # ... but not as a NumPy scalar's operand (``h * n * np.float32(0.01)``): a break
    "float32_time_stepper": 1,
    # (the test fails at once: no loop to run)
    "euler_forced_decay_no_trip": 0,
    # 2. a Python float accumulator beside an array test: a node where the body only
    # steps it (``while_clocks``); tested first before an array test that computes, or
    # read in the body: a break, named
    "heat_until_steady": 1, "heat_until_steady_time_runs_out": 1, "ode_until_event": 2,
    "decay_time_accumulated": 0, "float_time_read_in_body": 1,
    "float32_state_float_time": 0,
    # 3. the array test first in an ``or``: one node
    "relax_at_least_miniter": 0, "relax_at_least_miniter_test_decides": 0,
    "relax_at_least_miniter_no_trip": 0, "relax_at_least_miniter_one_trip": 0,
    "bisection_or_miniter": 0, "power_iteration_or": 0, "countdown_or": 0,
    "or_test_that_computes": 0, "or_counter_not_read_after": 0,
    # ... with the counter read in the update too: one node
    "or_with_counter_in_step": 0,
    # ... a first trip that makes numpy scalars of 0-d arrays (the carried values
    # change type): breaks (3.14, whose loop test is only at the loop's top: the first
    # trip's test is the one break, the rest of the loop runs as Python)
    "secant_or_two_steps": 1 if pyversion.WHILE_TEST_IN_LOOP else 2,
    # 4. more counters read in the update: nodes, but the counter as an index (x[i])
    "counter_from_one": 0, "counter_from_one_exhausts": 0,
    # (``k * k`` is no affine int: the loop stays a break; its arguments were one short
    # before, so both sides raised TypeError and 0 breaks could not fail)
    "counter_from_minus_three_by_two": 2, "time_from_int_dt": 0, "time_from_float_dt": 0,
    "time_from_float32_dt": 0, "counter_as_index": 2,
    "counter_into_int_array_float32": 0, "counter_read_in_test_or": 0,
    "counter_dead_after": 0,
    # 5. a Python float clock the body only steps, tested with the array test (first
    # or second, against a local or a float constant), or not at all: one node
    "clock_array_test_first": 0, "clock_array_test_first_test_decides": 0,
    "clock_array_test_first_nan_tol": 0, "clock_assign_add": 0, "clock_int_step": 0,
    "clock_first_plain_test": 0, "clock_first_plain_test_test_decides": 0,
    "clock_against_constant": 0,
    # ... stepped by an np.float32 (an np.float32 after the first trip), read in the
    # update, tested first before an array test that computes: breaks
    "clock_float32_step": 2,
    # (read in the update: a node since clocks read in the body are, ``clock_at``)
    "clock_read_in_update": 0,
    "clock_read_in_update_test_decides": 0, "clock_float32_state_read": 0,
    "clock_countdown": 2,
    # ... the clock alone ends the loop: Python numbers, unrolled by the trace
    "clock_alone": 0, "clock_alone_many_steps": 0,
}


def test_every_program_has_a_count():
    assert sorted(BREAKS) == sorted(name for name, _, _ in PROGRAMS)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_same_as_python(name, fn, args, backend):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(fn, *args, backend=backend, breaks=BREAKS[name] if backend == "eager"
              else None)


@pytest.mark.parametrize("name", [n for n, b in BREAKS.items() if b == 0 and "no_trip"
                                  not in n and n.startswith(("relax", "bisection",
                                                             "power", "countdown", "or_"))])
def test_or_is_one_node(name):
    fn, args = next((f, a) for n, f, a in PROGRAMS if n == name)
    assert while_nodes(fn, args) == 1


@pytest.mark.parametrize("name", [n for n, b in BREAKS.items() if b == 0 and (
    n.startswith("clock_") or n in ("decay_time_accumulated", "float32_state_float_time"))])
def test_clock_is_one_node(name):
    """A float clock the body only steps: one node (translator/while_clocks.py); one
    that alone ends the loop is Python numbers, unrolled (no node)."""
    fn, args = next((f, a) for n, f, a in PROGRAMS if n == name)
    assert while_nodes(fn, args) == (0 if name.startswith("clock_alone") else 1)


def _halvings_or(x, err, miniter):
    it = 0
    while err >= 1.0 or it < miniter:
        x = x * 0.5
        err = x.max()
        it += 1
    return x, err, it


def _countdown_or(x, err, left):
    while err >= 1.0 or left > 0:
        x = x * 0.5
        err = x.max()
        left -= 2
    return x, err, left


_compiled = {(f.__name__, b): dynamo.compile(f, backend=b)
             for f in (_halvings_or, _countdown_or) for b in BACKENDS}


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 9), st.integers(-3, 12), st.booleans(), st.booleans(),
       st.sampled_from(BACKENDS))
def test_or_trip_counts(m, miniter, nan, countdown, backend):
    """``x = 2.0 ** m`` halves below 1 on trip ``m + 1``: ``miniter`` from below the
    counter's start (spent at once) up past it, so the counter or the test decides,
    on any trip, or no trip runs (m = 0 and the counter spent); a NaN ``err`` fails
    the array test (the counter alone decides). A countdown by 2 too. Values, dtypes
    and the counter (a Python int) are Python's."""
    fn = _countdown_or if countdown else _halvings_or
    x = np.array([2.0 ** m, 1.0]) if m else np.array([0.5, 0.25])
    err = np.float64(np.nan if nan else x.max())
    want = fn(x.copy(), err, miniter)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = _compiled[fn.__name__, backend](x.copy(), err, miniter)
    for g, w in zip(got[:2], want[:2]):
        np.testing.assert_array_equal(g, w)
        assert type(g) is type(w) and g.dtype == w.dtype
    assert type(got[2]) is int and got[2] == want[2]


def test_or_nodes_per_entry():
    """The trip counts above ran as nodes: one per compiled entry."""
    args = (np.array([8.0, 1.0]), np.float64(8.0))
    assert while_nodes(_halvings_or, (*args, 5)) == 1
    assert while_nodes(_countdown_or, (*args, 5)) == 1


def _or_warns(x, tol, miniter):
    it = 0
    err = np.abs(x).max()
    while err > tol or it < miniter:
        x = x - 0.5
        err = np.abs(np.log(x + 0.25)).min()   # invalid value once an element is < -0.25
        it += 1
    return x, it


@pytest.mark.parametrize("backend", BACKENDS)
def test_or_warnings_per_trip(backend):
    """The counter keeps the loop going past the test: each trip's warnings, in order."""
    args = (np.array([1.2, 0.6, 4.1]), 1e9, 6)
    assert while_nodes(_or_warns, args, backend) == 1
    assert_same_warnings(lambda *a: _or_warns(*a)[0], args, backend)


def _or_could_hold_again(x, tol):
    it = 0
    err = np.abs(x).max()
    while err > tol or it != 3:               # fails at 3, holds again at 4
        x = x * 0.5
        err = np.abs(x).max()
        it += 1
    return x, it


def _or_unchanged_int(x, tol, n):
    err = np.abs(x).max()
    while err > tol or n < 0:                 # n unchanged: spent from the start
        x = x * 0.5
        err = np.abs(x).max()
    return x


def test_or_counter_test_that_could_hold_again_stays_a_break():
    """``it != 3`` holds again after it fails: no node, the break says so; results
    Python's. An int the loop leaves as it was and that fails at once: a node."""
    args = (np.zeros(3), 1e-3)
    report = check(_or_could_hold_again, *args, breaks=None)
    report = dynamo.explain(_or_could_hold_again, backend="eager")(*copy.deepcopy(args))
    assert report.graph_break_count >= 1
    assert "could hold again" in report.break_reasons[0].explanation
    check(_or_unchanged_int, np.ones(3), 1e-3, 5, breaks=0)
    assert while_nodes(_or_unchanged_int, (np.ones(3), 1e-3, 5)) == 1


@pytest.mark.parametrize("name,says,rewrite", [
    ("float32_time_stepper", "a counter read in the body is a node only as a number",
     "kf += 1.0"),
    ("counter_as_index", "not as an index", "kf = np.zeros(())"),
    # (a clock read in the body and tested first: the test at the bottom branches on
    # its per-trip value, as on a counter's)
    ("float_time_read_in_body", "the body branches on a counter", "kf = np.zeros(())"),
    ("clock_float32_step", "that the first trip makes a NumPy value", "t = np.zeros(())"),
    ("heat_until_steady", "the loop tests its counter first", "run as one while_loop node"),
])
def test_a_loop_that_stays_a_break_names_its_shape(name, says, rewrite):
    fn, args = next((f, a) for n, f, a in PROGRAMS if n == name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = dynamo.explain(fn, backend="eager")(*copy.deepcopy(args))
    brk = report.break_reasons[0]
    assert brk.reason == ("truth value of an array (data-dependent control flow: a "
                          "loop's exit test)")
    assert "the loop is no while_loop node: " in brk.explanation and says in brk.explanation
    assert rewrite in brk.hint


# the rewrites the hints give: the same values, one node
def _relaxation_rewritten(A, b, tol, maxit):
    d = np.diag(A)
    R = A - np.diag(d)
    x = np.zeros_like(b)
    res = np.linalg.norm(b - A @ x)
    k = 0
    kf = np.zeros(())
    while res > tol and k < maxit:
        omega = 1.0 / (1.0 + 0.1 * kf)
        x = (1.0 - omega) * x + omega * (b - R @ x) / d
        res = np.linalg.norm(b - A @ x)
        kf += 1.0                         # (in place: a 0-d array still)
        k += 1
    return x, k


def _heat_rewritten(u, dt, T, tol):
    t = np.zeros(())
    err = np.float64(np.inf)
    while (t < T) & (err > tol):
        u_new = u.copy()
        u_new[1:-1] = u[1:-1] + dt * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        err = np.max(np.abs(u_new - u))
        u = u_new
        t += dt
    return u, t


@pytest.mark.parametrize("fn,original,args", [
    (_relaxation_rewritten, "relaxation_omega_k",
     (_diag_dominant(6, 2), _rng(3).standard_normal(6), 1e-10, 500)),
    (_heat_rewritten, "heat_until_steady",
     (np.sin(np.linspace(0.0, np.pi, 12)), 0.2, 5.0, 1e-6)),
])
def test_the_hinted_rewrite_is_a_node_with_the_same_values(fn, original, args):
    check(fn, *args, breaks=0)
    assert while_nodes(fn, args) == 1
    want = next(f for n, f, _ in PROGRAMS if n == original)(*copy.deepcopy(args))
    got = fn(*copy.deepcopy(args))
    np.testing.assert_array_equal(got[0], want[0])
    assert float(got[1]) == want[1]
