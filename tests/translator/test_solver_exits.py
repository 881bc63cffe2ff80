"""Everyday early-exit loops (tests/translator/corpus_solver_exits.py, written before
the code ran): each program eagerly and compiled on both CPU backends
(``harness.check``: results, dtypes, arguments afterwards, printed output, exceptions,
twice) and its graph breaks (eager backend).

``while it < maxit and err > tol:`` (the counter tested first) is one ``while_loop``
node where the array test only compares values (``while_counters.plain_test``): the
node asks the array test before the bound, so where the counter ends the loop the body
has compared once more than Python, which shows nowhere. A test that computes
(``np.linalg.norm(r) > tol``, ``hi - lo > tol``) stays a break, with the reason in the
``loops`` log. Hypothesis runs the trip count through no trip, one, the counter
ending the loop, the test ending it on the first or the last allowed trip, and NaN.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from corpus_solver_exits import PROGRAMS
from harness import check
from hypothesis import given, settings
from hypothesis import strategies as st
from test_loop_while import assert_same_warnings, while_nodes

import dynamo

BACKENDS = ("eager", "numpy")

# graph breaks per program (eager backend; the same on 3.11, 3.13 and 3.14). Before
# this round: 3 of 28 without a break, 32 breaks.
BREAKS = {
    # the counter tested first, the array test a plain comparison: one node
    "power_iteration_counter_first": 0, "power_iteration_counter_first_exhausts": 0,
    "jacobi_counter_first": 0, "jacobi_counter_first_converged_at_once": 0,
    "gauss_seidel_counter_first": 0, "newton_counter_first_le": 0,
    "newton_counter_first_le_exhausts": 0, "countdown_counter_first": 0,
    "counter_first_nan_stops": 0, "counter_first_bool_flag": 0,
    # no trip, or one (the counter ends the loop in the trace of the body: no node,
    # the loop runs in the graph as traced)
    "power_iteration_counter_first_no_trip": 0, "power_iteration_counter_first_one_trip": 0,
    # a ``while`` counter test and code after the ``break``: the node and B's node
    "while_counter_break_then_step": 0, "while_counter_break_then_step_runs_out": 0,
    # the array test computes (norm, a difference): stays a break, in front and after
    "counter_first_norm_in_test": 2, "bisection_counter_first": 2,
    # not yet nodes: the counter read in the body (counter_first_warns: 0.5 ** it),
    # the index read in the body (searches), ``for ... else``, ``or``, Python floats
    # carried across trips
    "counter_first_warns": 1, "damped_newton_counter_read": 0,
    "first_index_above": 1, "first_row_converged": 1,
    "newton_for_else_raises": 1, "newton_for_else_raises_no_convergence": 1,
    "fixed_point_for_else_warns": 1,
    "armijo_backtracking": 2, "line_search_for_break": 1,
    # a Python float clock the body only steps (``t += 0.1``): one node
    # (translator/while_clocks.py; 2 breaks before)
    "time_to_decay": 0,
    # (already a node before: the array tested first)
    "richardson_array_first": 0,
    # ``while it < miniter or err > tol``: the trace reaches the array test once the
    # counter has passed ``miniter``, which no later trip undoes (spent_counter_tests)
    "at_least_miniter_or_tol": 0,
}

NODES = {name: 2 if name.startswith("while_counter") else 1 for name, b in BREAKS.items()
         if b == 0 and "no_trip" not in name and "one_trip" not in name}


def test_every_program_has_a_count():
    assert sorted(BREAKS) == sorted(name for name, _, _ in PROGRAMS)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_same_as_python(name, fn, args, backend):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(fn, *args, backend=backend, breaks=BREAKS[name] if backend == "eager"
              else None)


@pytest.mark.parametrize("name", sorted(NODES))
def test_nodes(name):
    """One node; two for code after a ``break`` (B's node for the counter's end)."""
    fn, args = next((f, a) for n, f, a in PROGRAMS if n == name)
    assert while_nodes(fn, args) == NODES[name]


def _warns_per_trip(x, tol, maxit):
    err = np.float64(1.0)
    it = 0
    while it < maxit and err > tol:
        x = x - 0.5
        y = np.log(x)                     # invalid value once an element is < 0
        err = np.abs(x).min() + 0.0 * np.nan_to_num(y).sum()
        it += 1
    return x


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("maxit", [12, 5])
def test_warnings_per_trip(maxit, backend):
    """The body warns on each trip from the second on; with the counter ending the
    loop (5) or the test (12): Python's warnings, as many, in order."""
    args = (np.array([2.2, 0.6, 4.1]), 1e-3, maxit)
    assert while_nodes(_warns_per_trip, args, backend) == 1
    assert_same_warnings(_warns_per_trip, args, backend)


def _halvings(x, err, maxit):
    it = 0
    while it < maxit and err >= 1.0:
        x = x * 0.5
        err = x.max()
        it += 1
    return x, err, it


_halvings_compiled = {b: dynamo.compile(_halvings, backend=b) for b in BACKENDS}


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 9), st.integers(0, 12), st.booleans(), st.sampled_from(BACKENDS))
def test_trip_counts(m, maxit, nan, backend):
    """``x = 2.0 ** m`` halves below 1 on trip ``m + 1``: with ``maxit`` from 0 (no
    trip) up, the counter or the test ends the loop, on any trip; a NaN ``err`` ends it
    at once (``nan >= 1.0`` is false). ``x``, ``err`` (dtype too) and ``it`` (a Python
    int) are Python's."""
    x = np.array([2.0 ** m, 1.0])
    err = np.float64(np.nan if nan else x.max())
    want = _halvings(x.copy(), err, maxit)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = _halvings_compiled[backend](x.copy(), err, maxit)
    for g, w in zip(got[:2], want[:2]):
        np.testing.assert_array_equal(g, w)
        assert type(g) is type(w) and g.dtype == w.dtype
    assert type(got[2]) is int and got[2] == want[2]


@pytest.mark.parametrize("name,says", [
    ("counter_first_norm_in_test", "the loop tests its counter first"),
    ("armijo_backtracking", "a Python float carried across trips"),
])
def test_a_loop_that_stays_a_break_says_why(name, says):
    """The break at a loop's test names the shape that kept it from being a node (the
    refused attempt's reason), and the hint the shapes that are nodes."""
    fn, args = next((f, a) for n, f, a in PROGRAMS if n == name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = dynamo.explain(fn, backend="eager")(*args)
    brk = report.break_reasons[0]
    assert brk.reason == ("truth value of an array (data-dependent control flow: a "
                          "loop's exit test)")
    assert "the loop is no while_loop node: " in brk.explanation
    assert says in brk.explanation
    # (the shape's own rewrite, where there is one: ``while_counters.while_shape_hint``)
    assert ("and it < maxit" if name == "counter_first_norm_in_test" else
            "np.zeros(())") in brk.hint


def _counter_break(x, maxit):
    it = 0
    s = np.zeros_like(x)
    while it < maxit:
        x = x * 0.5
        if x.max() < 1.0:
            break
        s = s + x                         # B: runs once more where the counter ends it
        it += 1
    return x, s, it


def _counter_stepped_first(x, maxit):
    it = 0
    while it < maxit:
        it += 1                           # stepped before the test: no node, a break
        x = x * 0.5
        if x.max() < 1.0:
            break
        x = x + 0.0
    return x, it


_counter_break_compiled = {b: dynamo.compile(_counter_break, backend=b) for b in BACKENDS}


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 9), st.integers(0, 12), st.sampled_from(BACKENDS))
def test_while_counter_break_trip_counts(m, maxit, backend):
    """``while it < maxit: A; if <test>: break; B; it += 1``: the break on the first
    trip, the last, in between, or the counter ending the loop (B ran on that trip,
    so ``s`` and ``it`` count it); no trip at all. Values, dtypes and the int are
    Python's."""
    x = np.array([2.0 ** m, 1.0])
    want = _counter_break(x.copy(), maxit)
    got = _counter_break_compiled[backend](x.copy(), maxit)
    for g, w in zip(got[:2], want[:2]):
        np.testing.assert_array_equal(g, w)
        assert g.dtype == w.dtype
    assert type(got[2]) is int and got[2] == want[2]


@pytest.mark.parametrize("maxit", [3, 30])
def test_while_counter_break_nodes(maxit):
    """One node and B's node of at most one trip; a counter stepped before the test
    stays a break (results still Python's)."""
    x = np.array([2.0 ** 6, 1.0])
    assert while_nodes(_counter_break, (x, maxit)) == 2
    check(_counter_break, x, maxit, breaks=0)
    check(_counter_stepped_first, x, maxit, breaks=1)


def _unchanged_int_first(x, n, tol):
    while n > 0 and np.abs(x).max() > tol:    # n: no counter, true on every trip
        x = x * 0.5
    return x


def _unchanged_float_first(x, t, tol):
    while t < 1.0 and np.abs(x).max() > tol:  # a float nothing changes
        x = x * 0.5
    return x


def _counter_never_ends(x, tol):
    it = 0
    while it >= 0 and np.abs(x).max() > tol:  # a counter that bounds no trips
        x = x * 0.5
        it += 1
    return x, it


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args", [(_unchanged_int_first, (np.ones(3), 5, 1e-3)),
                                     (_unchanged_float_first, (np.ones(3), 0.5, 1e-3)),
                                     (_counter_never_ends, (np.ones(3), 1e-3))])
def test_a_test_in_front_that_ends_nothing(fn, args, backend):
    """An int or float test in front that no trip can make false: the array test may
    compute (it is never made once more than in Python); one node, no break."""
    check(fn, *args, backend=backend, breaks=0)
    assert while_nodes(fn, args, backend) == 1
