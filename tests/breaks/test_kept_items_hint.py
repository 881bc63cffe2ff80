"""An ``if`` on array data whose way keeps an item in a list (``peaks.append(i)``, a
comprehension's condition) must break: the list's length is what the data decides.
Its break says so, with a hint that keeps the items as an array instead (issue #19,
``branch_selects._keeps_items``, ``hints_flow.KEEPS_ITEMS``); an ``if`` that keeps
nothing has the hint of any branch on data.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynamo


def peaks(x):
    out = []
    for i in range(1, len(x) - 1):
        if x[i] > x[i - 1] and x[i] > x[i + 1]:
            out.append(i)
    return out


def positive(xs):
    return [v for v in xs if v > 0]


def branch_only(x):
    if x.sum() > 0:
        x[0] = 1.0       # (a write into an input: the if's break)
    return x


_X = np.array([0.5, 2.0, -1.0, 3.0, 0.25, -2.0])


@pytest.mark.parametrize("fn", [peaks, positive])
def test_an_if_that_keeps_items_says_what_it_needs(fn):
    report = dynamo.explain(fn, backend="eager")(_X)
    assert fn(_X) == dynamo.compile(fn, backend="eager")(_X)
    assert report.graph_break_count >= 1
    for b in report.break_reasons:
        assert b.reason.startswith("truth value of an array")
        assert "length is only known when the program runs" in b.explanation
        assert "np.flatnonzero" in b.hint and "xs[xs > 0]" in b.hint


def test_another_branch_keeps_the_general_hint():
    report = dynamo.explain(branch_only, backend="eager")(_X.copy())
    assert report.graph_break_count >= 1
    assert all("np.where" in b.hint for b in report.break_reasons)
