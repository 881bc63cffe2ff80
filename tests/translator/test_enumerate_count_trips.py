"""``for i, c in enumerate(classes)`` where ``classes`` has a length only the data
decides (issue #19; ``data_trips.DataTripLoops.enumerate_data_trips``): the loop is one
loop node over the rows, whose items are ``(start + i, classes[i])``, with no break
(before: a break at the ``enumerate`` call and a compile per class count). Each program
runs eagerly and compiled on the eager and numpy backends with no sample (no trip),
one class, missing classes and many classes: results, warnings and exceptions are
Python's. An ``enumerate`` bound to a name, or an index read after the loop, keeps the
break.

Example::

    >>> dynamo.explain(naive_bayes_stats)(X, y).graph_break_count
    0
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from harness import outcome, same_outcome

import dynamo
from dynamo import listeners

BACKENDS = ("eager", "numpy")


def naive_bayes_stats(X, y):
    classes = np.unique(y)
    theta = np.zeros((len(classes), X.shape[1]))
    prior = np.zeros(len(classes))
    for i, c in enumerate(classes):
        Xc = X[y == c]
        theta[i] = Xc.mean(axis=0)
        prior[i] = Xc.shape[0] / X.shape[0]
    return theta, prior


def from_one(X, y):
    classes = np.unique(y)
    out = np.zeros((len(classes), X.shape[1]))
    for i, c in enumerate(classes, start=1):
        out[i - 1] = X[y == c].sum(0) * i + c
    return out


def over_positions(X, y):
    idx = np.flatnonzero(X[:, 0] > 0)
    acc = np.zeros(X.shape[1])
    for k, j in enumerate(idx):
        acc += X[j] * (k + 1)
    return acc


def enumerate_bound_to_a_name(X, y):
    pairs = enumerate(np.unique(y))        # could be read after the loop: no node
    out = np.zeros(X.shape[1])
    for i, c in pairs:
        out += X[y == c].sum(0) * i
    return out


def index_after_loop(X, y):
    out = np.zeros(X.shape[1])
    i = -1
    for i, c in enumerate(np.unique(y)):
        out += X[y == c].sum(0)
    return out, i                          # -1 where no trip ran: no node


NODES = [naive_bayes_stats, from_one, over_positions]
BREAKS = [enumerate_bound_to_a_name, index_after_loop]


def _data(k: int, n: int = 30, seed: int = 0, missing: int | None = None):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n if k else 0, 3))
    y = rng.integers(0, k, n) if k else np.zeros(0, np.int64)
    if missing is not None:
        y[y == missing] = k - 1
    return X, y


DATA = [_data(0), _data(1), _data(2, n=1), _data(3), _data(5, missing=1),
        _data(7, seed=3), _data(4, n=3), _data(12)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", NODES + BREAKS, ids=lambda f: f.__name__)
def test_equals_eager(fn, backend):
    dynamo.reset()
    compiled = dynamo.compile(fn, backend=backend)
    for i, args in enumerate(DATA):
        same_outcome(outcome(fn, copy.deepcopy(args)), outcome(compiled, copy.deepcopy(args)),
                     f"{fn.__name__} data {i}")


@pytest.mark.parametrize("fn", NODES, ids=lambda f: f.__name__)
def test_one_graph_with_a_loop_node(fn):
    dynamo.reset()
    report = dynamo.explain(fn, backend="eager")(*_data(4))
    assert report.graph_break_count == 0, str(report)
    assert any(n.target == "fori_loop" for g in report.graphs for n in g.call_nodes()), \
        str(report)


@pytest.mark.parametrize("fn", BREAKS, ids=lambda f: f.__name__)
def test_others_keep_the_break_with_its_hint(fn):
    dynamo.reset()
    report = dynamo.explain(fn, backend="eager")(*_data(4))
    assert report.graph_break_count >= 1, str(report)
    first = report.break_reasons[0]
    assert "data-dependent size" in first.reason and first.hint, first.reason


class _Graphs:
    def __init__(self):
        self.graphs = []

    def on_graph(self, graph, ctx):
        self.graphs.append(graph)


@pytest.mark.parametrize("backend", BACKENDS)
def test_one_compile_for_seven_class_counts(backend):
    dynamo.reset()
    with listeners.listening(_Graphs()) as seen:
        compiled = dynamo.compile(naive_bayes_stats, backend=backend)
        for k in (1, 2, 3, 5, 8, 13, 21):
            args = _data(k, n=60, seed=k)
            same_outcome(outcome(naive_bayes_stats, copy.deepcopy(args)),
                         outcome(compiled, copy.deepcopy(args)), f"k={k}")
    assert len(seen.graphs) == 1, [str(g) for g in seen.graphs]
