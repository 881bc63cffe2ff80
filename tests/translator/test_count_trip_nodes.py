"""``for j in range(k)`` where ``k`` is a count only the data decides (issues #16, #19;
``dynamo/translator/data_trips.py``): ``k = len(np.unique(labels))``,
``np.bincount(y).shape[0]``, ``len(x[x > 0])``. Such a loop is one loop node whose trip
count is the count, with no break, and one compile serves every count (7 class counts:
1 compile; before, a break at the loop and 8 compiles). Each program runs eagerly and
compiled on the eager and numpy backends with no sample (no trip), one trip, classes
that are missing (NumPy's "Mean of empty slice"), and many classes: results, dtypes,
warnings, exceptions and arguments are Python's. ``for c in classes`` over the rows of such an array is the same. Loops whose trip
could be read after them (the index, ``return acc, j``) or whose state changes type in the first trip
(``total = 0.0; total += ...``) keep the honest break at the loop, with its hint.

Example::

    >>> dynamo.explain(class_centers)(X, labels).graph_break_count
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


def class_centers(X, labels):
    k = len(np.unique(labels))
    centers = np.zeros((k, X.shape[1]))
    for j in range(k):
        centers[j] = X[labels == j].mean(0)    # empty for a missing class: a warning
    return centers


def bincount_loop(X, labels):
    k = np.bincount(labels).shape[0]
    counts = np.zeros(k, np.int64)
    for j in range(k):
        counts[j] = (labels == j).sum()
    return counts


def positive_prefix(X, labels):
    s = X[X[:, 0] > 0, 0]
    for j in range(1, len(s)):                 # range(1, k): no trip for k <= 1
        s[j] += s[j - 1]
    return s


def from_two(X, labels):
    k = len(np.unique(labels))
    acc = np.zeros(X.shape[1], X.dtype)
    for j in range(2, k):                      # k - 2 trips, negative for k < 2
        acc += X[labels == j].sum(0)
    return acc


def class_variances(X, labels):
    classes = np.unique(labels)
    var = np.ones((len(classes), X.shape[1]), X.dtype)
    for j in range(len(classes)):
        Xj = X[labels == classes[j]]           # its own count inside the trip
        var[j] = Xj.var(0) + 1e-9
    return var


def rows_of_classes(X, labels):
    classes = np.unique(labels)
    out = np.zeros(X.shape[1])
    for c in classes:                          # the rows of an array of a count
        out += X[labels == c].sum(0) * c
    return out


def row_positions(X, labels):
    classes = np.unique(labels)
    means = np.zeros((len(classes), X.shape[1]))
    for c in classes:
        means[c] = X[labels == c].mean(0)      # IndexError where a class is missing
    return means


def _class_sums(X, labels, k):
    out = np.zeros((k, X.shape[1]))
    for j in range(k):
        out[j] = X[labels == j].sum(0)
    return out


def in_a_called_function(X, labels):
    return _class_sums(X, labels, len(np.unique(labels))) * 2


def inner_loop_unrolled(X, labels):
    k = len(np.unique(labels))
    out = np.zeros((k, X.shape[1]))
    for j in range(k):
        for d in range(X.shape[1]):            # unrolled into the body
            out[j, d] = X[labels == j, d].sum()
    return out


def invariant_view_in_body(X, labels):
    below = np.zeros(X.shape[0], np.int64)
    for v in X[X[:, 0] > 0, 0]:                # the count is the trip count only
        below += (X[:, 1] <= v) & (v < X[:, 2])   # views hoisted before the loop
    return below


def computed_counts(X, labels):
    k = len(np.unique(labels))
    m = len(X[X[:, 0] > 0])
    acc = np.zeros(X.shape[1])
    for j in range(max(k, 1)):                 # ints the graph computes from counts
        acc += X[labels == j].sum(0)
    for j in range(k // 2):
        acc -= X[labels == j].min(0, initial=0.0)
    for j in range(m, k):                      # two counts: k - m trips, or none
        acc *= 1.0 + j
    return acc


def writes_past_the_end(X, labels):
    out = X[:3, 0]                             # a view of the argument
    for j in range(len(np.unique(labels))):
        out[j] = j * 2.0                       # IndexError at the fourth class
    return X


def index_after_loop(X, labels):
    k = len(np.unique(labels))
    acc = np.zeros(X.shape[1])
    j = -1
    for j in range(k):
        acc += X[labels == j].sum(0)
    return acc, j                              # j of no trip is -1: no node


def float_total(X, labels):
    total = 0.0
    for j in range(len(np.unique(labels))):
        total += (labels == j).sum()           # a float, then a NumPy int: no node
    return total


NODES = [class_centers, bincount_loop, positive_prefix, from_two, class_variances,
         rows_of_classes, row_positions, in_a_called_function, inner_loop_unrolled,
         invariant_view_in_body, computed_counts]
BREAKS = [writes_past_the_end, index_after_loop, float_total]


def _data(k: int, n: int = 30, seed: int = 0, missing: int | None = None):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n if k else 0, 3))
    labels = rng.integers(0, k, n) if k else np.zeros(0, np.int64)
    if missing is not None:
        labels[labels == missing] = k - 1
    return X, labels


DATA = [_data(0), _data(1), _data(2, n=1), _data(3), _data(5, missing=1),
        _data(7, seed=3), _data(4, n=3), _data(12)]


def _same_on_all_data(fn, compiled):
    for i, args in enumerate(DATA):
        want = outcome(fn, copy.deepcopy(args))
        got = outcome(compiled, copy.deepcopy(args))
        same_outcome(want, got, f"{fn.__name__} data {i}")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", NODES + BREAKS, ids=lambda f: f.__name__)
def test_equals_eager(fn, backend):
    dynamo.reset()
    _same_on_all_data(fn, dynamo.compile(fn, backend=backend))


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
@pytest.mark.parametrize("fn", [class_centers, class_variances, rows_of_classes],
                         ids=lambda f: f.__name__)
def test_one_compile_for_seven_class_counts(fn, backend):
    dynamo.reset()
    with listeners.listening(_Graphs()) as seen:
        compiled = dynamo.compile(fn, backend=backend)
        for k in (1, 2, 3, 5, 8, 13, 21):
            args = _data(k, n=60, seed=k)
            same_outcome(outcome(fn, copy.deepcopy(args)),
                         outcome(compiled, copy.deepcopy(args)), f"k={k}")
    assert len(seen.graphs) == 1, [str(g) for g in seen.graphs]
