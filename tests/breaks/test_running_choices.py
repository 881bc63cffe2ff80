"""Running bests over an unrolled loop (issue #19; ``ChosenNumberVariable.resolve``'s
comparisons, ``branch_selects._may_be``'s joined chains).

A running ``lo``/``hi`` of NumPy scalars whose ways were both selects already (``if v <
lo: lo = v`` trip after trip) is one graph; before, it broke ("both ways keep arrays
that may be others").

A running best kept from a Python number (``best = np.inf``, or ``-1.0``, ``0``, then
``if d < best: best = d`` with ``d`` a NumPy scalar) is not joined again trip after
trip in an unrolled loop: that made one graph of a select and a flag per trip, which
on the everyday loop corpus ran slower than the break's Python loop (max_drawdown
0.15x plain against 0.88x, a 3-epoch perceptron 0.29x against 0.98x; issue #15 says
never slower). Where its trip works on arrays (``closest_center``: ``x - C[k]``), the
short loop becomes a loop node instead, which carries the choice's value and a flag
(p63/t2: ``translator/running_choices.py``, 0.96x -> 1.45x plain on the numpy
backend): one graph, no break. Where the trip only reads and compares NumPy scalars
(``int_start``, ``float32_exact_start``, ``used_after``), the node measured 3-20%
slower than the break, and the loop keeps its break at the second trip's test
("truth value of an array"); so do a start of ``None`` (``best_threshold``), two
``if``s on the choice in one trip, and ``max_drawdown``'s running ``peak`` of NumPy
scalars read in a node's body. What all keep: results as eager's.

Each program runs on data where some trips take the ``if``, where none does (NaN,
``inf``: ``best`` stays the Python number), with ties, on both CPU backends: result
(types included), printed output and warnings are eager's. What stays a break keeps
eager's results: a float32 comparison with a start float32 cannot hold exactly
(``0.1``), ``is`` between two running values.
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
from everyday_loop_programs import closest_center, max_drawdown, min_max_loop
from harness import nested_types, outcome, same_outcome

import dynamo

BACKENDS = ("eager", "numpy")


def best_threshold(scores, labels, start):
    best_t, best_acc = None, start
    for t in np.linspace(0.0, 1.0, 7):
        acc = ((scores >= t) == labels).mean()
        if acc > best_acc:
            best_t, best_acc = t, acc
    return best_t, best_acc


def two_tests_a_trip(x, y):
    best = -1.0
    for i in range(x.shape[0]):
        if x[i] > best:
            best = x[i]
        if y[i] > best:
            best = y[i]
    return best


def int_start(x):
    best = -1
    for i in range(x.shape[0]):
        if x[i] > best:
            best = x[i]
    return best


def float32_running(x, start):
    best = start
    for i in range(x.shape[0]):
        v = x[i] * np.float32(2)
        if v > best:
            best = v
    return best


def used_after(x):
    best = -np.inf
    for i in range(x.shape[0]):
        if x[i] > best:
            best = x[i]
    return best * x, x[0] - best, x < best     # (beside arrays: the graph's select)


def the_same_object(x):
    lo = x[0]
    hi = x[0]
    for v in x[1:]:
        if v < lo:
            lo = v
        if v > hi:
            hi = v
    return lo is hi, lo, hi


_R = np.random.default_rng(7)
_C = _R.random((6, 3))
_x = _R.random(3)
_S = _R.random(20)
_L = _R.random(20) > 0.5

# name -> (function, argument sets: the first one traced)
CLEAN = {
    "closest_center": (closest_center, [
        (_x, _C), (_x, np.full((6, 3), np.nan)), (_x, np.full((6, 3), np.inf)),
        (_x, np.vstack([_C[:2], _C[1:2], _C[:1], _C[4:]]))]),
    "closest_center_f32": (closest_center, [
        (_x.astype(np.float32), _C.astype(np.float32)),
        (_x.astype(np.float32), np.full((6, 3), np.nan, np.float32))]),
    "best_threshold": (best_threshold, [(_S, _L, -1.0), (_S, _L, 2.0), (_S, _L, 0.5)]),
    "min_max_loop": (min_max_loop, [(_R.random(8),), (np.ones(8),),
                                    (np.array([3.0, np.nan, 1.0, 5.0, 1.0, 5.0, 0, 9]),)]),
    "max_drawdown": (max_drawdown, [(1 + _R.random(10),), (np.arange(1.0, 11.0),)]),
    "two_tests_a_trip": (two_tests_a_trip, [(_R.random(5) - 1.5, _R.random(5) - 0.5),
                                            (np.full(5, -5.0), np.full(5, -4.0))]),
    "int_start": (int_start, [(_R.integers(-5, 5, 8),), (np.full(8, -7),)]),
    "float32_exact_start": (float32_running, [(_R.random(6).astype(np.float32), -1.0),
                                              (np.full(6, -3, np.float32), -1.0)]),
    "used_after": (used_after, [(_R.random(5),), (np.full(5, -np.inf),)]),
}


def _matches_eager(fn, compiled, argsets, name):
    for i, args in enumerate([*argsets, *argsets]):
        want = outcome(fn, copy.deepcopy(args))
        got = outcome(compiled, copy.deepcopy(args))
        same_outcome(want, got, f"{name} call {i}")
        assert nested_types(got[0]) == nested_types(want[0]), f"{name} call {i}"


def _report(fn, args):
    dynamo.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return dynamo.explain(fn, backend="eager")(*copy.deepcopy(args))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(CLEAN))
def test_a_running_best_from_a_python_number_is_eagers(name, backend):
    fn, argsets = CLEAN[name]
    dynamo.reset()
    _matches_eager(fn, dynamo.compile(fn, backend=backend), argsets, name)


def test_a_running_lo_hi_of_numpy_scalars_is_one_graph():
    fn, argsets = CLEAN["min_max_loop"]
    report = _report(fn, argsets[0])
    assert (report.graph_count, report.graph_break_count) == (1, 0), \
        [b.reason for b in report.break_reasons]


# the programs whose loop becomes a node that carries the running best (no break)
NODES = {"closest_center", "closest_center_f32"}


@pytest.mark.parametrize("name", sorted(NODES))
def test_a_running_best_whose_trip_works_on_arrays_is_a_loop_node(name):
    fn, argsets = CLEAN[name]
    report = _report(fn, argsets[0])
    assert (report.graph_count, report.graph_break_count) == (1, 0), \
        [b.reason for b in report.break_reasons]
    assert "fori_loop" in str(report.graphs[0])


@pytest.mark.parametrize("name", sorted(set(CLEAN) - {"min_max_loop"} - NODES))
def test_a_running_best_from_a_python_number_breaks_at_its_test(name):
    """(by choice: see the module's docstring)"""
    fn, argsets = CLEAN[name]
    report = _report(fn, argsets[0])
    assert report.graph_break_count == 1
    assert "truth value of an array" in report.break_reasons[0].reason


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_start_float32_cannot_hold_stays_a_break(backend):
    """``v > 0.1`` of a float32 ``v`` compares 0.1 rounded to float32, the select would
    hold 0.1 as float64: no such comparison in the graph (a break), eager's results."""
    args = [(np.array([0.05, 0.0500001, 0.2], np.float32), 0.1),
            (np.float32([0.01, 0.02]), 0.1)]
    report = _report(float32_running, args[0])
    assert report.graph_break_count == 1
    assert "truth value of an array" in report.break_reasons[0].reason
    dynamo.reset()
    _matches_eager(float32_running, dynamo.compile(float32_running, backend=backend),
                   args, "float32_inexact_start")


@pytest.mark.parametrize("backend", BACKENDS)
def test_is_between_running_values_is_eagers(backend):
    """``lo is hi`` after both were selects: which objects they are is the data's (both
    the very ``x[0]`` where no trip took an ``if``): a break there, eager's answer."""
    args = [(np.ones(5),), (np.array([2.0, 1.0, 3.0]),), (np.array([2.0, 3.0, 1.0]),)]
    report = _report(the_same_object, args[0])
    assert report.graph_break_count == 1
    assert "`is`" in report.break_reasons[0].reason
    dynamo.reset()
    _matches_eager(the_same_object, dynamo.compile(the_same_object, backend=backend),
                   args, "the_same_object")


def running_max_is_last(x):
    m = x[0]
    p = m
    for i in range(1, x.shape[0]):
        p = x[i]
        if i > 1 and p > m:     # (no select in the unrolled first trip)
            m = p
    return m, m is p


@pytest.mark.parametrize("backend", BACKENDS)
def test_is_between_a_nodes_outputs_is_eagers(backend):
    """Over 40 items the loop is a node; ``m is p`` after it is True where the last item
    was the running max. The node's output for the temporary ``p`` had no ``may_be``
    link to ``m``'s, so ``is`` was answered False while tracing (a wrong result, before
    this task's changes too): ``node_identity.kept_temp`` links them, a break there."""
    x = np.random.default_rng(6).standard_normal(40)
    last_max = x.copy()
    last_max[-1] = 10.0
    dynamo.reset()
    _matches_eager(running_max_is_last, dynamo.compile(running_max_is_last, backend=backend),
                   [(last_max,), (x,)], "running_max_is_last")

