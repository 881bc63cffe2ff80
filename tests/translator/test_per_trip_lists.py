"""A list built one item per trip of a count only the data knows breaks with a hint
that says what stays in the graph (issue #19, ``dynamo/translator/per_trip_lists.py``).

``np.array([X[y == c].mean(0) for c in np.unique(y) if (y == c).sum() > 1])`` cannot be
one loop node: a trip may append nothing (the condition is the data's). It breaks as
before (results as eagerly's, at 0, 1 and 3 classes, counts changing between calls),
and its hint names the rewrite that is one loop node: a
preallocated result written row by row, which is checked here to have no break.
A loop over the same count that builds no list does not get that hint.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import nested_types, outcome, same_outcome

import dynamo

BACKENDS = ("eager", "numpy")

RNG = np.random.default_rng(7)
X = RNG.normal(size=(12, 3))
# 0 classes (no sample), 1 class, 3 classes
CASES = [(X[:0], np.zeros(0, np.int64)), (X, np.zeros(12, np.int64)),
         (X, np.arange(12) % 3)]


def comprehension(X, y):      # (a comprehension stacked is a node: test_comprehension_rows)
    classes = np.unique(y)
    return np.array([X[y == c].mean(axis=0) for c in classes if (y == c).sum() > 1])


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


LISTS = [("comprehension", comprehension)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn", LISTS, ids=[k[0] for k in LISTS])
def test_the_break_names_the_preallocated_rewrite(name, fn, backend):
    report = dynamo.explain(fn, backend=backend)(*CASES[2])
    assert report.graph_break_count >= 1
    first = report.break_reasons[0]
    assert "data-dependent size" in first.reason
    assert "preallocate the result" in first.hint and "items.append(array)" in first.hint
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


# ---------------------------------------------------------------- lists stacked in the graph
CLASSES = CASES + [(X.astype(np.float32), np.arange(12) % 5),
                   (X.astype(np.int64), np.arange(12) % 2), CASES[2], CASES[0]]


def appends(X, y):
    classes = np.unique(y)
    rows = []
    for i in range(len(classes)):
        rows.append(X[y == classes[i]].sum(axis=0))
    return np.array(rows)


def over_classes(X, y):
    sums = []
    for c in np.unique(y):
        sums.append(X[y == c].max(axis=0) - X.min())
    return np.stack(sums) * 2.0


def vstacked(X, y):
    rows = []
    for c in np.unique(y):
        m = y == c
        rows.append(X[m].sum(axis=0) / max(m.sum(), 1))
    return np.vstack(rows)


def scalars(X, y):
    counts = []
    for c in np.unique(y):
        counts.append((y == c).sum())
    return np.asarray(counts), X.sum()


def returned(X, y):
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c].sum(axis=0))
    return rows


STACKED = [("appends", appends), ("over_classes", over_classes), ("vstacked", vstacked),
           ("scalars", scalars), ("returned", returned)]


def _same_at_every_count(fn, backend):
    compiled = dynamo.compile(fn, backend=backend)
    for i, args in enumerate(CLASSES):
        want, got = outcome(fn, list(args)), outcome(compiled, list(args))
        same_outcome(want, got, f"{fn.__name__} inputs {i}")
        assert nested_types(got[0]) == nested_types(want[0]), f"{fn.__name__} inputs {i}"


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn", STACKED, ids=[k[0] for k in STACKED])
def test_a_list_stacked_after_the_loop_is_one_graph(name, fn, backend):
    report = dynamo.explain(fn, backend=backend)(*CASES[2])
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    assert report.graph_count == 1
    _same_at_every_count(fn, backend)


def means(X, y):
    out = []
    for c in np.unique(y):
        out.append(X[y == c].mean(axis=0))     # may warn: the graph cannot be rerun
    return np.array(out)


@pytest.mark.parametrize("backend", BACKENDS)
def test_where_no_check_fits_the_stacking_call_breaks(backend):
    report = dynamo.explain(means, backend=backend)(*CASES[2])
    assert report.graph_break_count == 1
    first = report.break_reasons[0]
    assert first.reason.startswith("np.array() of a list built one item per trip")
    assert "preallocate the result" in first.hint
    _same_at_every_count(means, backend)


def view_item(X, y):
    rows = []
    for c in np.unique(y):
        rows.append(X[0])                      # the same view each trip
    return np.array(rows)


def written_after(X, y):
    rows = []
    for c in np.unique(y):
        r = X[y == c].sum(axis=0)
        rows.append(r)
        r += 1.0                               # eager's list sees it
    return np.array(rows)


def carried(X, y):
    acc = np.ones(X.shape[1])
    rows = []
    for c in np.unique(y):
        acc += 1.0                             # writes the last trip's item
        acc = acc * 2.0
        rows.append(acc)
    return np.array(rows)


def read_otherwise(X, y):
    rows = []
    for c in np.unique(y):
        rows.append(X[y == c].sum(axis=0))
    return np.array(rows), len(rows)


RUN_AS_BEFORE = [("view_item", view_item), ("written_after", written_after),
                 ("carried", carried), ("read_otherwise", read_otherwise)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn", RUN_AS_BEFORE, ids=[k[0] for k in RUN_AS_BEFORE])
def test_a_list_that_could_differ_from_its_rows_runs_as_before(name, fn, backend):
    _same_at_every_count(fn, backend)
