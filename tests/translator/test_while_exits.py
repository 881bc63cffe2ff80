"""``while`` loops whose exit on data runs code of its own (issue #19, task t5;
dynamo/translator/loop_exits.py ``while_exit_code``, loop_returns.py):
``while it < maxit: A; if <test>: return E; B; it += 1`` then ``return T``, and
``if <test>: done = True; break``, as one ``while_loop`` node and the exit's code
chosen after it by the last test.

Each program of tests/translator/corpus_while_exits.py is compared with Python
(``harness.check``: the value, its type and dtype, the counter as a Python ``int``,
the arguments after the call, printed output, twice) on both CPU backends, with its
breaks; the while-return programs with the test ending the loop on its first trip,
on a middle one, never (the counter runs out), on NaN data, with no trip
(``maxit=0``) and one (``maxit=1``); and the node in the graph.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from corpus_while_exits import (
    PROGRAMS,
    _spd,
    bisection_while_return,
    count_damped,
    count_damped_unbounded,
    damped_newton_select,
    fixed_point_while_return,
    flag_then_branch,
    jacobi_converged_flag,
    last_big_step,
    newton_flag_counter,
    newton_while_return,
    power_iteration_flag,
    refinement_while_return,
    relax_failed_flag,
)
from harness import check, quiet_explain
from test_loop_while import while_nodes

BACKENDS = ("eager", "numpy")

# breaks per program (eager backend, dynamo.explain); before this work all but
# ``argmax_scan_while`` and ``pivot_triangular`` broke once
BREAKS = {
    "newton_while_return": 0, "fixed_point_while_return": 0,
    "bisection_while_return": 0, "refinement_while_return": 0,
    "jacobi_converged_flag": 0, "power_iteration_flag": 0, "newton_flag_counter": 0,
    "relax_failed_flag": 0, "flag_then_branch": 1,
    # (a print is a break with ``config.defer_prints`` off, the default; with it on:
    # test_while_exit_prints.py)
    "newton_print_exit": 1, "fixed_point_print_return": 1, "newton_print_both_ways": 1,
    "newton_print_counter": 1,
    # (an ``if`` on data in a ``while`` body: a select, 2 breaks before; a number it
    # picks per trip carried as a NumPy scalar where the trips have a bound)
    "damped_newton_select": 0, "count_damped": 0, "last_big_step": 0,
    "count_damped_unbounded": 2,
    # (small: unrolled; a running best of NumPy scalars is one graph since t6's
    # ``branch_selects._may_be`` (1 break before); ``m is p`` after it stays a break)
    "argmax_scan_while": 0, "pivot_triangular": 0, "running_max_scaled": 0,
    "running_max_identity": 1, "running_min_max": 0,
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_same_as_python(name, fn, args, backend):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(fn, *args, backend=backend, breaks=BREAKS[name])


_A = np.linspace(0.5, 9.0, 7)
_NAN = np.array([4.0, np.nan, 2.0])
_BIG = np.linspace(0.5, 90.0, 7)    # (Newton from 1: steps above 1.0 at first)

# (fn, args): the test ends the loop on its first trip (a huge tolerance), on a
# middle one, never (tolerance 0 or -1: the counter ends the loop), on NaN data
# (``nan < tol`` is False: never), with maxit 0 (no trip) and 1
CASES = [
    (newton_while_return, (_A, 1e30)),
    (newton_while_return, (_A, 1e-3)),
    (newton_while_return, (_A, -1.0)),
    (newton_while_return, (_NAN, 1e-8)),
    (newton_while_return, (_A, 1e-8, 0)),
    (newton_while_return, (_A, 1e-8, 1)),
    (newton_while_return, (_A, 1e30, 1)),
    (newton_while_return, (_A.astype(np.float32), np.float32(1e-3))),
    (fixed_point_while_return, (np.linspace(0.0, 1.0, 5), 1e30)),
    (fixed_point_while_return, (np.linspace(0.0, 1.0, 5), 0.0)),
    (fixed_point_while_return, (np.linspace(0.0, 1.0, 5), 1e-4, 2)),
    (bisection_while_return, (np.linspace(0.5, 4.0, 6), 1e-3)),
    (bisection_while_return, (np.linspace(0.5, 4.0, 6), 0.0, 7)),
    (bisection_while_return, (np.array([2.0, np.nan]), 1e-6, 9)),
    (refinement_while_return, (np.eye(3) * 2.0, np.ones(3), 1e-12)),
    (refinement_while_return, (np.eye(3) * 2.0, np.ones(3), -1.0, 3)),
    # the flag set at the exit: set on the first trip, a middle one, never, NaN,
    # no trip, and the other way round (True before, False at the exit)
    (jacobi_converged_flag, (_spd(5), np.arange(5.0), 1e30)),
    (jacobi_converged_flag, (_spd(5), np.arange(5.0), 1e-3)),
    (jacobi_converged_flag, (_spd(5), np.arange(5.0), -1.0, 4)),
    (jacobi_converged_flag, (_spd(5), np.array([1.0, np.nan, 0, 0, 0]), 1e-3, 4)),
    (jacobi_converged_flag, (_spd(5), np.arange(5.0), 1e-3, 0)),
    (power_iteration_flag, (_spd(4), 1e-3)),
    (power_iteration_flag, (_spd(4), 0.0, 3)),
    (newton_flag_counter, (_A, 1e30)),
    (newton_flag_counter, (_A, 1e-3)),
    (newton_flag_counter, (_A, -1.0, 5)),
    (newton_flag_counter, (_NAN, 1e-3, 5)),
    (newton_flag_counter, (_A, 1e-3, 0)),
    (relax_failed_flag, (np.linspace(0.1, 1.0, 4), 1e30)),
    (relax_failed_flag, (np.linspace(0.1, 1.0, 4), 0.0, 6)),
    (flag_then_branch, (_A, 1e-3)),
    (flag_then_branch, (_A, -1.0, 4)),
    # selects and picked numbers in a ``while`` body: no trip, one, the counter
    # ending the loop, NaN data, float32, the ``if`` never or always taken
    (damped_newton_select, (_BIG, 1e30)),
    (damped_newton_select, (_BIG, 1e-10, 1)),
    (damped_newton_select, (_BIG, -1.0, 5)),
    (damped_newton_select, (_BIG.astype(np.float32), np.float32(1e-3))),
    (damped_newton_select, (np.array([4.0, np.nan]), 1e-10, 6)),
    (count_damped, (_BIG, 1e30)),
    (count_damped, (_BIG, 1e-10, 0)),
    (count_damped, (_BIG, 1e-10, 1)),
    (count_damped, (_BIG, 1e-10, 3)),
    (count_damped, (_BIG, -1.0, 50)),
    (count_damped, (_A, 1e-10)),
    (count_damped, (np.array([4.0, np.nan]), 1e-10, 6)),
    (count_damped, (_BIG.astype(np.float32), np.float32(1e-3))),
    (count_damped_unbounded, (_BIG, 1e-8)),
    (last_big_step, (_BIG, 1e-10)),
    (last_big_step, (_A, 1e-10)),
    (last_big_step, (_BIG, 1e-10, 2)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args", CASES, ids=[f"{c[0].__name__}-{i}"
                                               for i, c in enumerate(CASES)])
def test_trip_counts(fn, args, backend):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(fn, *args, backend=backend)


@pytest.mark.parametrize("fn,args", [
    (newton_while_return, (_A, 1e-10)),
    (bisection_while_return, (np.linspace(0.5, 4.0, 6), 1e-8)),
])
def test_is_a_node(fn, args):
    """The loop is a ``while_loop`` node (and ``B``'s node of at most one trip)."""
    assert while_nodes(fn, args) == 2


def test_counter_returned_is_an_int():
    """``return x_new, it + 1`` gives eager's Python int, from the node's trips."""
    import dynamo
    got = dynamo.compile(newton_while_return)(_A, 1e-3)
    want = newton_while_return(_A, 1e-3)
    assert type(got[1]) is int and got[1] == want[1] and 1 < want[1] < 20


@pytest.mark.parametrize("tol,want", [(1e30, True), (-1.0, False), (float("nan"), False)])
@pytest.mark.parametrize("fn", [jacobi_converged_flag, newton_flag_counter])
def test_flag_is_a_python_bool(fn, tol, want):
    """The flag after the node is eager's own Python bool (``bool()`` of the last
    test: a NaN tolerance never converges), with no break."""
    import dynamo
    args = (_spd(5), np.arange(5.0), tol) if fn is jacobi_converged_flag else (_A, tol)
    got = dynamo.compile(fn)(*args)[1]
    assert got is fn(*args)[1] is want
    assert quiet_explain(fn, args, "eager").graph_break_count == 0


def test_flag_needed_breaks_at_its_use():
    """``if converged:`` after the loop breaks there (the loop stays a node), with a
    message and hint of its own."""
    (brk,) = quiet_explain(flag_then_branch, (_A, 1e-3), "eager").break_reasons
    text = str(brk)
    assert "a Python bool a loop's exit sets is needed while tracing" in text
    assert "if converged:" in text and "np.where" in text
    assert while_nodes(flag_then_branch, (_A, 1e-3)) >= 1


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("maxit", [0, 1, 4, 40])
def test_picked_count_in_a_while_node(maxit, backend):
    """The count an ``if`` picks per trip of a ``while`` node is eager's Python int, from
    one node (counted again with it carried as an ``np.int64``)."""
    import dynamo
    got = dynamo.compile(count_damped, backend=backend)(_BIG, 1e-10, maxit)
    want = count_damped(_BIG, 1e-10, maxit)
    assert type(got[2]) is int and got[1:] == want[1:]
    assert np.array_equal(got[0], want[0])
    assert while_nodes(count_damped, (_BIG, 1e-10, 40)) == 1


def count_from_near_int64_max(a, tol, maxit=40):
    """A picked count that starts near int64's end: its bound over ``maxit`` trips is
    past int64, so the node may raise and the frame's own code runs (Python's int)."""
    x = np.ones_like(a)
    it = 0
    damped = 2 ** 63 - 3
    err = np.abs(x * x - a).max()
    while err > tol and it < maxit:
        step = (x * x - a) / (2.0 * x)
        if np.abs(step).max() > 1.0:
            step = step / np.abs(step).max()
            damped += 1
        x = x - step
        err = np.abs(x * x - a).max()
        it += 1
    return x, damped


@pytest.mark.parametrize("backend", BACKENDS)
def test_picked_count_past_int64_is_pythons(backend):
    """8 damped steps from 2**63 - 3: past int64, a Python int as eagerly."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(count_from_near_int64_max, _BIG, 1e-10, backend=backend)
    assert count_from_near_int64_max(_BIG, 1e-10)[1] > 2 ** 63


def count_with_read_counter(a, tol, maxit=40):
    """A picked count beside a counter the body reads as a number (``while_trip``)."""
    x = np.ones_like(a)
    it = 0
    damped = 0
    err = np.abs(x * x - a).max()
    while err > tol and it < maxit:
        step = (x * x - a) / (2.0 * x) * (1.0 + 0.001 * it)
        if np.abs(step).max() > 1.0:
            step = step / np.abs(step).max()
            damped += 1
        x = x - step
        err = np.abs(x * x - a).max()
        it += 1
    return x, it, damped


def last_damped_trip(a, tol, maxit=40):
    """The counter itself picked (``last = it``, the ``j = k`` of an argmax scan)."""
    x = np.ones_like(a)
    it = 0
    last = -1
    err = np.abs(x * x - a).max()
    while err > tol and it < maxit:
        step = (x * x - a) / (2.0 * x)
        if np.abs(step).max() > 1.0:
            last = it
        x = x - step
        err = np.abs(x * x - a).max()
        it += 1
    return x, it, last


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("args", [(_BIG, 1e-10), (_BIG, -1.0), (_BIG, 1e-10, 3),
                                  (_BIG, 1e30), (_BIG, 1e-10, 0), (_A, 1e-10)])
@pytest.mark.parametrize("fn", [count_with_read_counter, last_damped_trip])
def test_picked_beside_read_counters(fn, args, backend):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(fn, *args, backend=backend, breaks=0)
