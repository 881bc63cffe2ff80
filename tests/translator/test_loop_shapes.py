"""Loops of everyday solver and search code (tests/translator/corpus_loop_shapes.py,
written before the code ran): each program eagerly and compiled on both CPU backends
(``harness.check``: results, dtypes, arguments afterwards, printed output,
exceptions, twice) and its graph breaks (eager backend).

``while it < miniter or err > tol:`` is a ``while_loop`` node: the trace reaches the
array test only once the counter test has failed, and where the counter steps away
from its bound no later trip makes it true again (``spent_counter_tests``); the
counter after the loop is ``it0 + step * taken``. Hypothesis runs the trip count
through the counter alone ending the loop, the test ending it on any trip, and NaN.
The other shapes still break once per loop (results Python's).
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
from corpus_loop_shapes import PROGRAMS
from harness import check
from hypothesis import given, settings
from hypothesis import strategies as st
from test_loop_while import while_nodes

import dynamo

BACKENDS = ("eager", "numpy")

# graph breaks per program (eager backend). Before this round: 4 of 29 without a
# break, 29 breaks in all.
BREAKS = {
    # ``while t < T`` on Python floats alone: no array test, the trace runs it as Python
    "heat_explicit_until": 0, "heat_explicit_until_no_trip": 0, "decay_ode_euler": 0,
    "oscillator_leapfrog": 0,
    # a Python float clock beside an array test (``t += dt``), only stepped: one node
    # (translator/while_clocks.py; 2 breaks before)
    "cooling_until_cold": 0,
    "stepper_prints_time": 1,                  # print() after the loop
    # ``while it < miniter or <array test>``: one node
    "bisection_or_maxit": 0, "bisection_or_maxit_minit_wins": 0,
    # the array test first in the ``or``, or a flag and a counter: one node
    # (or_counter_tests; ``sweeps == 0`` holds on the first test only)
    "fixed_point_or_err": 0, "smoothing_or_flag": 0,
    # a counter read in the update as a number (``0.5 ** (k + 1)``, ``h * i``): a
    # node (translator/while_trip.py); as ``it % 50`` with a print: breaks
    "newton_damped_by_iteration": 0, "gradient_descent_decaying_rate": 0,
    "euler_counter_time": 0, "richardson_prints_each_trip": 2,
    # searches that read the index
    "first_index_above_threshold": 1, "first_index_above_threshold_none": 1,
    "first_crossing_time": 1, "first_negative_row": 1, "cumulative_target": 1,
    # code in the ``break`` branch
    "find_first_converged": 1, "find_first_converged_none": 1,
    "search_records_value": 1,
    # (``converged = True; break``: the last test's truth, a bool the glue makes,
    # translator/exit_flags.py; a break before task t5)
    "newton_stores_on_break": 0, "newton_stores_on_break_exhausts": 0,
    # ``for ... else``
    "gauss_seidel_for_else": 1, "gauss_seidel_for_else_raises": 1,
    "jacobi_for_else_warns": 1, "jacobi_for_else_converges": 1,
    # (an else block of straight code: a node since translator/loop_returns.py)
    "newton_for_else_flag": 0,
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


@pytest.mark.parametrize("name", ["bisection_or_maxit", "bisection_or_maxit_minit_wins"])
def test_or_counter_is_a_node(name):
    fn, args = next((f, a) for n, f, a in PROGRAMS if n == name)
    assert while_nodes(fn, args) == 1


def _halvings_or(x, err, miniter, step):
    it = 0
    while it < miniter or err >= 1.0:
        x = x * 0.5
        err = x.max()
        it += step
    return x, err, it


_halvings_or_compiled = {b: dynamo.compile(_halvings_or, backend=b) for b in BACKENDS}


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 9), st.integers(0, 6), st.sampled_from([1, 2]), st.booleans(),
       st.sampled_from(BACKENDS))
def test_or_trip_counts(m, miniter, step, nan, backend):
    """``x = 2.0 ** m`` halves below 1 on trip ``m + 1``; at least ``miniter // step``
    trips run whatever the test says, then the array test ends the loop (a NaN ``err``
    at once). ``x``, ``err`` (dtype too) and ``it`` (a Python int, stepped by 1 or 2)
    are Python's."""
    x = np.array([2.0 ** m, 1.0])
    err = np.float64(np.nan if nan else x.max())
    want = _halvings_or(x.copy(), err, miniter, step)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = _halvings_or_compiled[backend](x.copy(), err, miniter, step)
    for g, w in zip(got[:2], want[:2]):
        np.testing.assert_array_equal(g, w)
        assert type(g) is type(w) and g.dtype == w.dtype
    assert type(got[2]) is int and got[2] == want[2]


def _or_comes_back(x, k):
    it = 0
    while it == k or x.max() >= 1.0:          # true again once it reaches k
        x = x * 0.5
        it += 1
    return x, it


def _or_bound_changes(x, k):
    it = 0
    while it < k or x.max() >= 1.0:          # the bound moves too: two counters
        x = x * 0.5
        it += 1
        k -= 1
    return x, it, k


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args,breaks", [
    (_or_comes_back, (np.array([64.0, 1.0]), 3), None),
    (_or_bound_changes, (np.array([64.0, 1.0]), 4), None),
])
def test_or_counter_that_can_hold_again(fn, args, breaks, backend):
    """A counter test in the ``or`` that a later trip could make true again is no
    spent test: the loop stays a break, with Python's results."""
    check(fn, *args, backend=backend, breaks=breaks if backend == "eager" else None)
    assert while_nodes(fn, args, backend) == 0


def test_or_miniter_changes_between_calls():
    """``miniter`` an argument that changes between calls (a symbol after the
    recompile): Python's results on each call."""
    compiled = dynamo.compile(_halvings_or, backend="eager")
    for miniter in (0, 3, 7, 2, 12):
        x = np.array([2.0 ** 5, 1.0])
        want = _halvings_or(x.copy(), np.float64(32.0), miniter, 1)
        got = compiled(copy.deepcopy(x), np.float64(32.0), miniter, 1)
        np.testing.assert_array_equal(got[0], want[0])
        assert got[1:] == want[1:] and type(got[2]) is int


@pytest.mark.parametrize("name,says", [
    ("first_index_above_threshold", "the loop variable 'i' is read in the body (an "
                                    "index-reading search"),
    ("cumulative_target", "the loop variable 'i' is read in the body"),
    ("gauss_seidel_for_else", "a for ... else (the else block runs where the range "
                              "runs out, which the break skips"),
])
def test_a_loop_that_stays_a_break_names_its_shape(name, says):
    """The break at the loop's exit test names the shape that kept it from being a
    node: an attempt's reason, or (no attempt) the ``for ... break`` shape."""
    fn, args = next((f, a) for n, f, a in PROGRAMS if n == name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = dynamo.explain(fn, backend="eager")(*copy.deepcopy(args))
    brk = report.break_reasons[0]
    assert brk.reason == ("truth value of an array (data-dependent control flow: a "
                          "loop's exit test)")
    assert "the loop is no while_loop node: " in brk.explanation
    assert says in brk.explanation

