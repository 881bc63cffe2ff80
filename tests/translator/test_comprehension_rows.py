"""A list comprehension over a count only the data knows, stacked after it, is one loop
node writing the rows of a preallocated array, as the loop that appends is (issue #19,
``dynamo/translator/per_trip_lists.py``: ``loop_of_iterator``, ``comprehension_list``)::

    np.array([X[y == c].sum(0) for c in np.unique(y)])     # one graph, no break

3.11 calls a ``<listcomp>`` function with the iterator; 3.12+ inline it (PEP 709), with
the list under the iterator on the stack: both are checked here, on whichever Python
runs the tests. Every result is compared with plain Python at zero, one and many trips
(zero trips: eager's ``np.array([])`` or ``np.stack``'s ``ValueError``), over dtypes,
with the counts changing between calls, on both backends.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import nested_types, outcome, same_outcome

import dynamo

BACKENDS = ("eager", "numpy")

RNG = np.random.default_rng(11)
X = RNG.normal(size=(12, 3))
W = RNG.normal(size=12)
# 0 classes (no sample), 1 class, 3, 5 and 2 classes, float32 and int64 data, 0 again
CASES = [(X[:0], np.zeros(0, np.int64)), (X, np.zeros(12, np.int64)),
         (X, np.arange(12) % 3), (X.astype(np.float32), np.arange(12) % 5),
         (X.astype(np.int64), np.arange(12) % 2), (X, np.arange(12) % 3),
         (X[:0], np.zeros(0, np.int64))]


def class_sums(X, y):
    return np.array([X[y == c].sum(0) for c in np.unique(y)])


def cluster_sums(X, lab):
    n_clusters = len(np.unique(lab))
    return np.stack([X[lab == k].sum(0) for k in range(n_clusters)]) * 2.0


def segment_sums(X, idx):
    starts = np.flatnonzero(np.r_[True, np.diff(idx) != 0]) if len(idx) else idx
    w = X.sum(axis=1)      # (a view of X would be refused: two carried arrays share memory)
    return np.array([np.sum(w[idx == i]) for i in range(len(starts))])


def scalar_rows(X, y):
    return np.asarray([(y == c).sum() for c in np.unique(y)]), X.sum()


def shadowed(X, y):
    c = 7        # a comprehension's variable is its own: c is 7 after it
    rows = np.vstack([X[y == c].max(0) - X.min() for c in np.unique(y)])
    return rows, c


def enumerated(X, y):    # (3.11: the enumerate is made before the <listcomp> is called)
    return np.array([X[y == c].sum(0) * i for i, c in enumerate(np.unique(y), 1)])


def returned(X, y):
    return [X[y == c].sum(0) for c in np.unique(y)]


def in_a_closure(X, y):
    scale = X.shape[1] + 1.0

    def sums():
        return np.array([X[y == c].sum(0) * scale for c in np.unique(y)])
    return sums()


def read_after(X, y):
    classes = np.unique(y)
    sums = np.array([X[y == c].sum(0) for c in classes])
    return sums, X.sum()      # X first read in the comprehension, and read after it


def loop_read_after(X, y):    # (the append form, the same way)
    sums = []
    for c in np.unique(y):
        sums.append(X[y == c].sum(0))
    return np.stack(sums), X.max()


NODES = [("read_after", read_after), ("loop_read_after", loop_read_after),
         ("class_sums", class_sums), ("cluster_sums", cluster_sums),
         ("segment_sums", segment_sums), ("scalar_rows", scalar_rows),
         ("shadowed", shadowed), ("enumerated", enumerated), ("returned", returned),
         ("in_a_closure", in_a_closure)]


def _same_at_every_count(fn, backend):
    compiled = dynamo.compile(fn, backend=backend)
    for i, args in enumerate(CASES):
        want, got = outcome(fn, list(args)), outcome(compiled, list(args))
        same_outcome(want, got, f"{fn.__name__} inputs {i}")
        assert nested_types(got[0]) == nested_types(want[0]), f"{fn.__name__} inputs {i}"


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn", NODES, ids=[k[0] for k in NODES])
def test_a_comprehension_stacked_after_it_is_one_graph(name, fn, backend):
    report = dynamo.explain(fn, backend=backend)(*CASES[2])
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    assert report.graph_count == 1
    assert any(n.target == "fori_loop" for g in report.graphs for n in g.call_nodes())
    _same_at_every_count(fn, backend)


def class_means(X, y):
    return np.array([X[y == c].mean(axis=0) for c in np.unique(y)])


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_body_that_may_warn_breaks_at_the_stacking_call_only(backend):
    report = dynamo.explain(class_means, backend=backend)(*CASES[2])
    assert report.graph_break_count == 1
    first = report.break_reasons[0]
    assert first.reason.startswith("np.array() of a list built one item per trip")
    assert "preallocate the result" in first.hint
    _same_at_every_count(class_means, backend)


def gaussian_naive_bayes(X, y):     # (tests/realworld/repository_programs.py)
    classes = np.unique(y)
    means = np.array([X[y == c].mean(axis=0) for c in classes])
    vars_ = np.array([X[y == c].var(axis=0) for c in classes]) + 1e-9
    priors = np.array([np.mean(y == c) for c in classes])
    ll = -0.5 * np.sum(np.log(2 * np.pi * vars_)[None] +
                       (X[:, None, :] - means[None]) ** 2 / vars_[None], axis=2)
    return classes[np.argmax(ll + np.log(priors), axis=1)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_naive_bayes_keeps_its_first_comprehension_a_node(backend):
    """Its first comprehension is a node, and the break is at its stacking call (a mean
    may warn), on every Python (on 3.12+ ``X`` is first read in the comprehension)."""
    y = np.arange(12) % 3
    report = dynamo.explain(gaussian_naive_bayes, backend=backend)(X, y)
    assert report.graph_break_count == 1
    assert report.break_reasons[0].reason.startswith("np.array() of a list built one item")
    compiled = dynamo.compile(gaussian_naive_bayes, backend=backend)
    for i, labels in enumerate([y, np.zeros(12, np.int64), np.arange(12) % 4, y]):
        same_outcome(outcome(gaussian_naive_bayes, [X, labels]),
                     outcome(compiled, [X, labels]), f"inputs {i}")


def view_item(X, y):
    return np.array([X[0] for c in np.unique(y)])          # the same view each trip


def filtered(X, y):
    return np.array([X[y == c].sum(0) for c in np.unique(y) if (y == c).sum() > 1])


def read_otherwise(X, y):
    rows = [X[y == c].sum(0) for c in np.unique(y)]
    return np.array(rows), len(rows)


def sliced(X, y):
    return np.array([X[y == c].sum(0) for c in np.unique(y)][::-1])


def set_comprehension(X, y):
    return sorted({int((y == c).sum()) for c in np.unique(y)}), X.sum()


def tuples(X, y):
    return [(c, X[y == c].sum(0)) for c in np.unique(y)]


def with_dtype(X, y):
    return np.array([X[y == c].sum(0) for c in np.unique(y)], dtype=np.float32)


def mean_of(X, y):
    return np.mean([X[y == c].sum(0) for c in np.unique(y)], axis=0)


def after_a_break(X, y):
    r = np.array([X[y == c].sum(0) for c in np.unique(y)])
    print("", end="")
    return r * 2


def in_a_loop(X, y):
    t = 0.0
    for k in range(3):
        t = t + np.array([X[y == c].sum(0) * k for c in np.unique(y)]).sum()
    return t


RUN_AS_BEFORE = [("view_item", view_item), ("filtered", filtered),
                 ("read_otherwise", read_otherwise), ("sliced", sliced),
                 ("set_comprehension", set_comprehension), ("tuples", tuples),
                 ("with_dtype", with_dtype), ("mean_of", mean_of),
                 ("after_a_break", after_a_break), ("in_a_loop", in_a_loop)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn", RUN_AS_BEFORE, ids=[k[0] for k in RUN_AS_BEFORE])
def test_a_comprehension_that_is_no_node_runs_as_eager(name, fn, backend):
    """(Also its list used otherwise, or rebuilt at a later break.)"""
    _same_at_every_count(fn, backend)


def static_count(X, y):
    return np.array([X[i].sum() * y.sum() for i in range(4)])


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_comprehension_over_a_static_count_is_unrolled_as_before(backend):
    report = dynamo.explain(static_count, backend=backend)(*CASES[2])
    assert report.graph_break_count == 0
    targets = {n.target for g in report.graphs for n in g.call_nodes()}
    assert "fori_loop" not in targets and "data_check" not in targets, targets
    compiled = dynamo.compile(static_count, backend=backend)
    for i, args in enumerate(CASES[1:4]):
        same_outcome(outcome(static_count, list(args)), outcome(compiled, list(args)),
                     f"static_count inputs {i}")
