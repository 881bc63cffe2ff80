"""``round(x, n)`` of a Python float the graph computes (``float(col.mean())``) or of a
float that changes between calls (issue #19, ``symbolic.math_calls.round_call``): the
builtin ``round`` on the same float when the graph runs, so a report such as
``{"mean": round(float(col.mean()), 3)}`` is one graph with eager's floats, inf and
NaN included, and a changing argument rounded is one entry. ``round(x)`` without
digits is an int (it raises for inf and NaN): it still reads the value, correctly.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import outcome, same_outcome

import dynamo

COLUMNS = [np.random.default_rng(3).normal(size=(6, 3)),
           np.array([[np.inf, np.nan, 1e308, -0.0]]), np.array([[2.675, 0.125, -2.5]])]


def column_report(X):
    report = {}
    for i, col in enumerate(X.T):
        report[i] = {"mean": round(float(col.mean()), 3),
                     "scaled": round(float(col[0]) * 2.5, 1), "whole": round(float(col[0]), 0)}
    return report


def rounded_argument(x, lr):
    return x * round(lr, 2), round(lr / 3.0, 4)


def rounded_to_an_int(X):
    return round(float(X[0, 0]))


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_rounded_graph_floats_are_one_graph(backend):
    report = dynamo.explain(column_report, backend=backend)(COLUMNS[0])
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    compiled = dynamo.compile(column_report, backend=backend)
    for i, X in enumerate(COLUMNS):
        want, got = outcome(column_report, [X]), outcome(compiled, [X])
        same_outcome(want, got, f"columns {i}")
        assert repr(got[0]) == repr(want[0])


def test_a_changing_float_rounded_is_one_entry():
    dynamo.reset()
    x = np.arange(4.0)
    calls = [[x, lr] for lr in (0.1234, 0.5678, 1.005, 2.675, 3.3333)]
    with dynamo.explain(rounded_argument, backend="eager") as compiled:
        for args in calls:
            want, got = outcome(rounded_argument, args), outcome(compiled, args)
            same_outcome(want, got, str(args[1]))
            assert repr(got[0]) == repr(want[0])
    assert compiled.report.compile_count <= 2   # (the first change makes lr an input)


def test_round_to_an_int_stays_right():
    compiled = dynamo.compile(rounded_to_an_int, backend="eager")
    for X in (COLUMNS[0], COLUMNS[1], COLUMNS[1][:, 1:]):
        same_outcome(outcome(rounded_to_an_int, [X]), outcome(compiled, [X]), "int")
