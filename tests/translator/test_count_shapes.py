"""Counts from ``np.unique`` / ``np.bincount`` / masks as shapes of creation ops
(issue #19): ``k = len(np.unique(labels)); np.zeros((k, d))``, ``np.arange(k)``,
``np.eye(k)``, ``np.full((k, 2), 1.5)``, ``np.empty(k).shape`` and
``np.ones(np.bincount(y).shape[0])`` are one graph, the dimension an unbacked size
(docs/unbacked.md), with eager's values, dtypes and shapes at 0, 1 and many classes.
A loop bound made from the count (``for j in range(k)``) is a loop node of ``k``
trips (docs/loops.md, "Trip counts only the data decides"); one whose index is read
after it still breaks before the loop with the hint to pass the number in.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import nested_types, outcome, same_outcome

import dynamo

BACKENDS = ("eager", "numpy")

# 0, 1, 2 and 4 classes
LABELS = [np.array(v, dtype=np.int64) for v in ([], [0, 0, 0], [1, 0, 1], [3, 0, 2, 1, 3])]


def from_unique(labels):
    k = len(np.unique(labels))
    return (np.zeros((k, 3)), np.arange(k), np.eye(k), np.full((k, 2), 1.5),
            np.empty(k).shape, np.arange(k) * 2.0)


def from_bincount(labels):
    k = np.bincount(labels).shape[0]
    return np.ones(k), np.zeros((2, k), dtype=np.int32), np.eye(k, dtype=np.float32)


def from_mask(labels):
    n = len(labels[labels > 0])
    return np.zeros(n) + np.arange(n), np.full(n, 7)


PROGRAMS = [("from_unique", from_unique), ("from_bincount", from_bincount),
            ("from_mask", from_mask)]



@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_counts_as_shapes_are_one_graph(name, fn, backend):
    report = dynamo.explain(fn, backend=backend)(LABELS[-1])
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    assert report.graph_count == 1
    compiled = dynamo.compile(fn, backend=backend)
    for i, labels in enumerate(LABELS):
        want, got = outcome(fn, [labels]), outcome(compiled, [labels])
        same_outcome(want, got, f"{name} labels {i}")
        assert nested_types(got[0]) == nested_types(want[0]), f"{name} labels {i}"


def class_sums(labels, x):
    k = len(np.unique(labels))
    sums = np.zeros(k)
    for j in range(k):
        sums[j] = x[labels == j].sum()
    return sums


def class_sums_last(labels, x):
    k = len(np.unique(labels))
    sums = np.zeros(k)
    j = -1
    for j in range(k):
        sums[j] = x[labels == j].sum()
    return sums, j          # the index after the loop: no node (it may run no trip)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_count_as_loop_bound(backend):
    """``for j in range(k)`` is a loop node (no break); with its index read after the
    loop it breaks before the loop, with the hint to pass the number in."""
    x = np.arange(5.0)
    report = dynamo.explain(class_sums, backend=backend)(LABELS[-1], x)
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    report = dynamo.explain(class_sums_last, backend=backend)(LABELS[-1], x)
    assert report.graph_break_count == 1
    brk = report.break_reasons[0]
    assert "for j in range(k):" in str(brk)
    assert "pass it in" in (brk.hint or "")
    for fn in (class_sums, class_sums_last):
        compiled = dynamo.compile(fn, backend=backend)
        for labels in LABELS:
            xs = np.arange(float(len(labels)))
            same_outcome(outcome(fn, [labels, xs]), outcome(compiled, [labels, xs]),
                         fn.__name__)
