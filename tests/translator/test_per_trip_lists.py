"""A list built one item per trip of a count only the data knows breaks with a hint
that says what stays in the graph (issue #19, ``dynamo/translator/per_trip_lists.py``).

``np.array([X[y == c].mean(0) for c in np.unique(y)])`` cannot be one loop node: with
no class eager gives ``np.array([])`` (float64, shape ``(0,)``), not the stacked
``(k, d)``. It breaks as before (results as eagerly's, at 0, 1 and 3 classes, counts
changing between calls), and its hint names the rewrite that is one loop node: a
preallocated result written row by row, which is checked here to have no break.
A loop over the same count that builds no list does not get that hint.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import outcome, same_outcome

import dynamo

BACKENDS = ("eager", "numpy")

RNG = np.random.default_rng(7)
X = RNG.normal(size=(12, 3))
# 0 classes (no sample), 1 class, 3 classes
CASES = [(X[:0], np.zeros(0, np.int64)), (X, np.zeros(12, np.int64)),
         (X, np.arange(12) % 3)]


def comprehension(X, y):
    classes = np.unique(y)
    return np.array([X[y == c].mean(axis=0) for c in classes])


def appends(X, y):
    classes = np.unique(y)
    rows = []
    for i in range(len(classes)):
        rows.append(X[y == classes[i]].sum(axis=0))
    return np.array(rows)


def preallocated(X, y):     # the rewrite the hint names
    classes = np.unique(y)
    out = np.zeros((len(classes), X.shape[1]))
    for i in range(len(classes)):
        out[i] = X[y == classes[i]].sum(axis=0)
    return out


def into_dict(X, y):
    classes = np.unique(y)
    seen = {}
    for c in classes:
        seen[c] = 1
    return seen


LISTS = [("comprehension", comprehension), ("appends", appends)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn", LISTS, ids=[k[0] for k in LISTS])
def test_the_break_names_the_preallocated_rewrite(name, fn, backend):
    report = dynamo.explain(fn, backend=backend)(*CASES[2])
    assert report.graph_break_count >= 1
    first = report.break_reasons[0]
    assert "data-dependent size" in first.reason
    assert "preallocate the result" in first.hint and "np.array([])" in first.hint
    compiled = dynamo.compile(fn, backend=backend)
    for i, args in enumerate(CASES):
        same_outcome(outcome(fn, list(args)), outcome(compiled, list(args)),
                     f"{name} inputs {i}")
    # the rewrite it names is one graph, with eager's results at every count
    assert dynamo.explain(preallocated, backend=backend)(*CASES[2]).graph_break_count == 0
    compiled = dynamo.compile(preallocated, backend=backend)
    for i, args in enumerate(CASES):
        same_outcome(outcome(preallocated, list(args)), outcome(compiled, list(args)),
                     f"preallocated inputs {i}")
    # and a loop over the same count that builds no list breaks without that hint
    report = dynamo.explain(into_dict, backend=backend)(*CASES[2])
    assert report.graph_break_count >= 1
    assert all("preallocate the result" not in r.hint for r in report.break_reasons)
