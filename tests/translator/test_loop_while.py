"""``while_loop`` nodes (dynamo/translator/while_loops.py, ``WhileScope``): a ``while`` loop
whose test is a 0-d array (``while err > tol:``) is traced once and runs as one node,
with exactly the results of plain Python.

Every program of ``corpus_while_loops`` runs eagerly and compiled on both CPU
backends (``harness.check``: results, arguments afterwards, printed output,
exceptions, twice). ``BREAKS`` is each program's number of graph breaks with the node
(measured; before it, every loop on an array test broke once or twice); where a
loop cannot be a node (a Python counter, a type that changes on the first trip, a
test that is no 0-d array, a ``print`` after it that reads a value) it breaks as before.
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
from corpus_while_loops import PROGRAMS
from harness import check
from hypothesis import given, settings
from hypothesis import strategies as st

import dynamo
from dynamo import listeners

BACKENDS = ("eager", "numpy")

# graph breaks per program with while_loop nodes (eager backend; before: 1 or 2 each,
# see docs/loops.md); programs not listed keep the breaks they had (any count)
BREAKS = {
    "babylon_sqrt": 0, "jacobi_to_tolerance": 0, "newton_cube_root": 0,
    "power_iteration": 0, "conjugate_gradient": 0, "in_place_decay": 0,
    "gauss_seidel_sweeps": 0, "truthy_float_test": 0, "warns_every_trip": 0,
    "float32_state": 0, "divide_warns_per_trip": 0, "raises_at_a_trip": 0,
    "view_of_a_carried_array": 0,
    # for ...: ...; if <test>: break (the loop variable dead after the loop)
    "for_break_newton": 0, "for_break_exhausts": 0, "for_break_nan_test": 0,
    # ... with code after the test (``loop_exits``: a second node runs it where the
    # range runs out; tests/translator/test_loop_exits.py)
    "for_break_mid_body": 0,
    # the loop variable after the loop: the number of trips, read off the graph
    "for_break_residual": 0, "for_break_index_after_step": 0,
    "for_break_index_after_step_exhausted": 0,
    # ... and compared after the loop: a break there (nothing specializes on it), and
    # one at the print where the range ran out
    "for_break_index_tested_after": 1, "for_break_index_tested_after_exhausted": 2,
    # print() after the loop breaks (``float(err) < tol`` is a graph comparison whose
    # bool the glue makes: translator/number_compares.py); the loop is a node
    "prints_after": 1,
    # a view of a carried array written in place: no node, a break as before
    "writes_through_a_view": 1,
    # the first trip changes a numpy scalar into a 0-d array: one break, then a node
    "bisection_sqrt2": 1, "trip_count_in_array": 1,
    # a 3-element test raises ValueError, as in Python
    "not_0d_test_raises": 1,
    # Python int counters the body only steps (``it += 1``), in the test's second
    # operand (``and it < maxit``: a bound on the trips) or not: the counter after the
    # loop is read off the node
    "python_counter": 0, "counter_and_test": 0, "richardson_counter": 0,
    "richardson_counter_hits_maxit": 0, "richardson_counter_no_trip": 0,
    "counter_counts_down": 0, "counter_counts_down_runs_out": 0,
    "counter_by_two_inclusive": 0, "counter_limit_on_the_left": 0,
    "two_counters_nan_test": 0, "counter_dead_after": 0, "counter_not_in_test_warns": 0,
    # the counter tested first: a node where the array test only compares (computing
    # it once more where the counter ends the loop shows nowhere; test_solver_exits.py)
    "counter_first_in_test": 0,
    # the counter read in the body as a number: a node (translator/while_trip.py);
    # a list built per trip: breaks as before
    "counter_read_in_body": 0, "history_list": 2,
    # while True: ...; if <test>: break (``break_shape``), with a counter; an `if` at
    # the end that does not leave the loop only chooses x: the loop (a Python counter
    # ends it) is unrolled, each trip's `if` a branch_select (branch_selects.py)
    "while_true_break": 0, "while_true_break_then_code": 0, "while_true_break_nan": 0,
    # (3.14: the `if` is the loop's last test, both its ways jump back to the loop's
    # head; they are joined there, at the trip's end: branch_selects._trip_ends)
    "while_true_last_if_no_break": 0,
}


class _Loops:
    def __init__(self):
        self.graphs = []

    def on_graph(self, graph, ctx):
        self.graphs.append(graph)


def while_nodes(fn, args, backend="eager") -> int:
    with listeners.listening(_Loops()) as seen, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            dynamo.compile(fn, backend=backend)(*copy.deepcopy(args))
        except ValueError:
            pass
    return sum(n.target == "while_loop" for g in seen.graphs for n in g.call_nodes())


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_same_as_python(name, fn, args, backend):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(fn, *args, backend=backend, breaks=BREAKS.get(name))


@pytest.mark.parametrize("name", [n for n, b in BREAKS.items()
                                  if b == 0 and n != "while_true_last_if_no_break"] +
                         ["prints_after"])   # (that one: unrolled, see BREAKS)
def test_one_node(name):
    fn, args = next((f, a) for n, f, a in PROGRAMS if n == name)
    # (code after a ``break``'s test: a second node of one trip for where the range
    # runs out)
    assert while_nodes(fn, args) == (2 if name == "for_break_mid_body" else 1)


def _halvings(x, tol):
    n = np.zeros(())          # a 0-d float array: stays one after `n + 1.0`
    while np.abs(x).max() > tol:
        x = x * 0.5
        n = n + 1.0
    return x, n


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("tol", [1e-6, 0.5, 10.0, float("nan")])
def test_trip_count_and_no_trip(tol, backend):
    """The number of trips (0 where the first test fails, or NaN: ``nan > tol`` is
    false) is Python's, with one compile for every tolerance."""
    x = np.array([4.0, -3.0, 1.0])
    fn = dynamo.compile(_halvings, backend=backend)
    got, n = fn(x.copy(), tol)
    want, m = _halvings(x.copy(), tol)
    np.testing.assert_array_equal(got, want)
    assert n.shape == m.shape == () and n == m


def _warns(x, tol):
    e = np.abs(x).max()
    while e > tol:
        y = np.log(x - 1.0)          # x < 1: an invalid value, a warning per trip
        x = x * 0.5
        e = np.abs(x).max() + 0.0 * np.isnan(y).sum()
    return x


def _for_break_warns(x):
    for _ in range(30):
        x = x - 1.0
        if np.sqrt(x).min() < 0.5:   # invalid value once x < 0: a warning per trip
            break
    return x


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args", [(_warns, (np.array([0.5, 0.25]), 1e-3)),
                                     (_for_break_warns, (np.array([3.0, 0.25, 9.0]),))])
def test_warnings_per_trip(fn, args, backend):
    """A body that warns warns once per trip, as in Python (the loop is one node)."""
    assert while_nodes(fn, args, backend) == 1
    assert_same_warnings(fn, args, backend)


def assert_same_warnings(fn, args, backend) -> None:
    """``fn`` compiled gives Python's result and its warnings (more than one), in order."""
    with warnings.catch_warnings(record=True) as want:
        warnings.simplefilter("always")
        expected = fn(*copy.deepcopy(args))
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        result = dynamo.compile(fn, backend=backend)(*copy.deepcopy(args))
    np.testing.assert_array_equal(result, expected)
    assert len(want) > 1
    assert [(w.category, str(w.message)) for w in got] == \
        [(w.category, str(w.message)) for w in want]


_halvings_compiled = {b: dynamo.compile(_halvings, backend=b) for b in BACKENDS}


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6), min_size=3, max_size=3),
       st.one_of(st.floats(1e-9, 1e7), st.just(float("nan")), st.just(float("inf"))),
       st.sampled_from(BACKENDS))
def test_trips_as_python(values, tol, backend):
    """Any data, any tolerance (a 0-d array argument: one compile serves them all):
    the same trips, the same results."""
    x, t = np.array(values), np.array(tol)
    got, n = _halvings_compiled[backend](x.copy(), t)
    want, m = _halvings(x.copy(), t)
    np.testing.assert_array_equal(got, want)
    assert n == m


def _richardson(A, b, tol, maxit):
    x = np.zeros_like(b)
    nb = np.linalg.norm(b)
    it = 0
    r = b - A @ x
    while np.linalg.norm(r) / nb > tol and it < maxit:
        x = x + 0.1 * r
        r = b - A @ x
        it += 1
    return x, it


@pytest.mark.parametrize("backend", BACKENDS)
def test_counter_bound_per_maxit(backend):
    """``and it < maxit``: the counter after the loop is Python's int, whether the
    test or maxit ends the loop (0, 1, 3, 7, 64 stop at maxit; 10,000 converges
    first). maxit is guarded on the first call, then a symbol (the bound
    ``maxit - 0``; 0 and 1 stay specialized): every graph is one node, no break."""
    rng = np.random.default_rng(3)
    a = rng.standard_normal((8, 8))
    A, b = (a @ a.T + 8 * np.eye(8)) / 10.0, rng.standard_normal(8)
    dynamo.reset()
    fn = dynamo.compile(_richardson, backend=backend)
    with listeners.listening(_Loops()) as seen:
        for maxit in (64, 3, 0, 10_000, 1, 7, 3):
            got, it = fn(A, b, 1e-9, maxit)
            want, wit = _richardson(A, b, 1e-9, maxit)
            np.testing.assert_array_equal(got, want)
            assert type(it) is int and it == wit
    assert wit == 3 and _richardson(A, b, 1e-9, 10_000)[1] < 10_000
    nodes = [sum(n.target == "while_loop" for n in g.call_nodes()) for g in seen.graphs]
    assert len(nodes) == 4 and nodes == [1] * 4      # 64; a symbol; 0; 1
    assert while_nodes(_richardson, (A, b, 1e-9, 64), backend) == 1


def _countdown(x, left):
    while x.max() > 1.0 and left > 0:
        x = np.log(x - 0.5)                    # NaN (and a warning) once x < 0.5
        left -= 2
    return x, left


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=25, deadline=None)
@given(st.lists(st.floats(0.0, 1e4), min_size=2, max_size=2), st.integers(-3, 12))
def test_counter_down_any_data(backend, values, left):
    """A counter stepped by -2 against 0, any data (NaN ends the loop: ``nan > 1.0`` is
    false), any start: the same trips, warnings and counter as Python."""
    x = np.array(values)
    with warnings.catch_warnings(record=True) as want_w:
        warnings.simplefilter("always")
        want, wleft = _countdown(x.copy(), left)
    with warnings.catch_warnings(record=True) as got_w:
        warnings.simplefilter("always")
        got, gleft = _countdown_compiled[backend](x.copy(), left)
    np.testing.assert_array_equal(got, want)
    assert type(gleft) is int and gleft == wleft
    assert [str(w.message) for w in got_w] == [str(w.message) for w in want_w]


_countdown_compiled = {b: dynamo.compile(_countdown, backend=b) for b in BACKENDS}
