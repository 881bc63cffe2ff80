"""Code after a loop's ``if <0-d array test>: break`` (dynamo/translator/loop_exits.py):
``for k in range(maxit): A; if c: break; B`` is one ``while_loop`` node over ``B; A``,
and a second node of at most one trip runs ``B`` where the range runs out.

Every program of ``corpus_loop_exits`` (written before the code) runs eagerly and
compiled on both CPU backends (``harness.check``: results, arguments afterwards,
printed output, exceptions such as ``UnboundLocalError`` for a local only ``B``
binds, twice), with its number of graph breaks (eager backend; before this, each
loop broke once, the ``while`` shapes at the end twice). Hypothesis runs the trip
count through 0, 1, a break on the first or the last trip, and no break.
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
from corpus_loop_exits import PROGRAMS, halvings_exit, warns_after_test
from harness import check
from hypothesis import given, settings
from hypothesis import strategies as st
from test_loop_while import assert_same_warnings, while_nodes

import dynamo
from dynamo import pyversion

BACKENDS = ("eager", "numpy")

# graph breaks per program (eager backend); while_loop nodes where 0 (see NODES)
BREAKS = {
    # B makes no op and stores only a local dead after the loop: one node
    "power_tol": 0, "power_tol_exhausts": 0,
    # B computes, writes in place, warns, raises: the loop node and B's node
    "newton_update_after_test": 0, "newton_update_exhausts": 0, "residual_then_step": 0,
    "in_place_after_test": 0, "in_place_exhausts": 0, "warns_after_test": 0,
    "warns_after_test_every_trip": 0,
    "raises_after_test": 0, "break_on_first_trip": 0, "never_breaks": 0,
    "halvings_exit_last_trip": 0, "halvings_exit_middle": 0,
    "index_after_step_range": 0, "index_after_step_range_exhausts": 0,
    "temp_dead_after": 0, "float32_after_test": 0, "nan_test_after": 0,
    # B shifts the new iterate into the old name (x = x_new, x_new dead after)
    "fixed_point_shift": 0, "fixed_point_shift_exhausts": 0,
    # no trip (the loop's test is never reached; the return raises UnboundLocalError)
    "power_tol_no_trip": 1,
    # still breaks: B rebinds a carried array to another (prev = x), or a local read
    # after the loop that is unbound where the first trip breaks, or changes its type
    # (lam_old: a float, then an array); the loop variable after a range of one item;
    # for ... else; a swap; the index read in the body; a list built in the body
    "power_tol_old_returned": 1, "copy_kept_after_test": 1, "copy_kept_exhausts": 1,
    "temp_bound_only_after_test": 1, "temp_unbound_first_trip_break": 1,
    "never_breaks_one_trip": 1,
    "swap_after_test": 1, "index_read_after_test": 1,
    # the list a comprehension builds is the body's own where it is inlined (3.12+,
    # loop_body_state._made_in_body); on 3.11 it is built in a frame of its own
    "kmeans_shift": 0 if pyversion.INLINED_COMPREHENSIONS else 1,
    # x = x_new with x_new read after the loop: one array or two, as the exit was
    "fixed_point_shift_both_read": 1, "fixed_point_shift_both_read_exhausts": 1,
    # while True: A; if c: break; B: one node over B; A (it ends at the break only)
    "while_true_code_after_test": 0, "while_true_first_trip_breaks": 0,
    # a while loop with a counter test and code after the break (``while it < maxit:
    # A; if c: break; B; it += 1``): the node and B's node, as for a range
    "while_counter_code_after_test": 0, "while_counter_code_after_test_runs_out": 0,
    # a counter read in the body as a number: a node (translator/while_trip.py); a
    # Python float accumulator the body only steps: a node too (while_clocks.py)
    "counter_read_in_body": 0, "float_accumulator": 0,
    # for ... else with straight code in the else block: the node, B's node, and the
    # else block traced after them, chosen by the last test (loop_returns.py)
    "for_else_code_after_test": 0, "for_else_no_break": 0,
    # the array test first in an ``or``: one node (or_counter_tests)
    "or_in_test": 0,
    # (shift_register_while, u_prev, u = u, u_next in a while True loop: its break
    # count was not measured this round; only its results are checked)
}

# while_loop nodes of the programs without a break: 1 where B needs no second run
NODES = {name: 2 for name, b in BREAKS.items() if b == 0} | {
    "power_tol": 1, "power_tol_exhausts": 1, "while_true_code_after_test": 1,
    "while_true_first_trip_breaks": 1, "or_in_test": 1, "counter_read_in_body": 1,
    "float_accumulator": 1}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_same_as_python(name, fn, args, backend):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # (shift_register_while: not measured, see BREAKS)
        check(fn, *args, backend=backend, breaks=BREAKS.get(name))


@pytest.mark.parametrize("name", sorted(NODES))
def test_nodes(name):
    fn, args = next((f, a) for n, f, a in PROGRAMS if n == name)
    assert while_nodes(fn, args) == NODES[name]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("args", [(np.array([3.1, 2.6, 5.0]), 0.01, 12),
                                  (np.array([3.1, 2.6, 5.0]), 0.01, 5)])
def test_warnings_of_the_code_after_the_test(args, backend):
    """B warns on each trip it runs from the fourth on (``log`` of -0.4), the last one
    where the range runs out too: the same warnings, in the same order, as Python."""
    assert_same_warnings(warns_after_test, args, backend)


def _outcome(fn, *args):
    try:
        return fn(*args)
    except UnboundLocalError as e:
        return type(e)


_halvings_compiled = {b: dynamo.compile(halvings_exit, backend=b) for b in BACKENDS}


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 9), st.integers(0, 12), st.sampled_from(BACKENDS))
def test_trip_counts(m, maxit, backend):
    """``x = 2.0 ** m`` halves below 1 on trip ``m + 1``: with ``maxit`` from 0 (no
    trip: ``k`` unbound) through 1 to more than enough, the break comes on the first
    trip, the last one, in between, or never; ``x``, the sum ``B`` keeps and ``k`` are
    Python's."""
    x = np.array([2.0 ** m, 1.0])
    want = _outcome(halvings_exit, x.copy(), maxit)
    got = _outcome(_halvings_compiled[backend], x.copy(), maxit)
    if want is UnboundLocalError:
        assert got is UnboundLocalError
        return
    for g, w in zip(got[:2], want[:2]):
        np.testing.assert_array_equal(g, w)
        assert g.dtype == w.dtype
    assert type(got[2]) is int and got[2] == want[2]


def test_a_remaining_exit_test_says_why():
    """A loop that stays a break at its exit test (``prev = x`` after it: a carried
    array rebound to another) breaks once, at that test, with advice. (3.11 says "a
    loop's exit test" and advises ``range(maxit)``; 3.13 and 3.14 give the plain
    data-dependent ``if`` message: the attempt was refused, and the truth is asked
    before the jump there.)"""
    fn, args = next((f, a) for n, f, a in PROGRAMS if n == "copy_kept_after_test")
    report = dynamo.explain(fn, backend="eager")(*copy.deepcopy(args))
    (brk,) = report.break_reasons
    assert brk.reason.startswith("truth value of an array (data-dependent control flow")
    assert brk.source_line == "if np.abs(x - prev).max() < tol:" and brk.hint


def _newton_per_element(a, maxit):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        x = a[i]
        for _ in range(maxit):
            fx = x * x - a[i]
            if abs(fx) < 1e-12:
                break
            x = x - fx / (2.0 * x)
        out[i] = x
    return out


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_loop_around_a_node_counts_its_trips_in_the_unroll_budget(backend):
    """Each unrolled trip of an outer loop traces and compiles an inner node's body
    again: a 150-trip loop around a node of at most 30 trips (about 4,500 trips in all,
    over ``max_unroll``) is not unrolled into 150 nodes; a 4-trip one still is."""
    long_a = np.linspace(1.0, 9.0, 150)
    assert while_nodes(_newton_per_element, (long_a, 30), backend) <= 2
    check(_newton_per_element, long_a, 30, backend=backend)
    short_a = np.linspace(1.0, 9.0, 4)
    # (per trip: the node, and the node of the code after the test for a range run out)
    assert while_nodes(_newton_per_element, (short_a, 30), backend) == 8
    check(_newton_per_element, short_a, 30, backend=backend)
