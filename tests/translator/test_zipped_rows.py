"""``zip`` of arrays of one length only the data decides, straight into a loop or a
list comprehension, is one loop node (issue #19, ``translator/data_trips.py``:
``zip_data_trips``; ``variables/arrays.py``: ``ZippedRowsVariable``)::

    b = np.flatnonzero(np.diff(lab)) + 1
    np.array([v[s:e].max() for s, e in zip(b[:-1], b[1:])])    # one graph, no break

Each trip reads ``v[s:e]`` with run-time bounds (its length is a size of the trip) and
writes a scalar row. Every result is compared with plain Python at zero, one and many
trips, with the counts changing between calls, on both backends; an empty segment's
``.max()`` raises eager's ValueError, with eager's message.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import nested_types, outcome, same_outcome

import dynamo

BACKENDS = ("eager", "numpy")

# (v, lab): segments of equal labels; 0 trips of gaps_max (one or two runs), 1, many;
# an empty v; a later call with a different count
CASES = [(np.arange(10.0), np.array([0, 0, 1, 1, 1, 2, 2, 3, 3, 3])),
         (np.arange(4.0), np.zeros(4, np.int64)),
         (np.arange(4.0), np.array([0, 1, 1, 1])),
         (np.arange(5.0), np.array([0, 1, 2, 2, 3])),
         (np.arange(0.0), np.zeros(0, np.int64)),
         (np.arange(6.0)[::-1].copy(), np.array([0, 1, 0, 1, 0, 1])),
         (np.arange(3.0), np.array([5, 6, 6])),
         (np.arange(10.0), np.array([0, 0, 1, 1, 1, 2, 2, 3, 3, 3]))]


def segment_max(v, lab):       # (bounds with both ends: one trip at least)
    starts = np.flatnonzero(np.diff(lab)) + 1
    b = np.concatenate(([0], starts, [len(v)]))
    return np.array([v[s:e].max() for s, e in zip(b[:-1], b[1:])])


def gaps_max(v, lab):          # (the inner segments only: no trip below two changes)
    b = np.flatnonzero(np.diff(lab)) + 1
    return np.array([v[s:e].max() for s, e in zip(b[:-1], b[1:])])


def loop_sums(v, lab):         # (the for loop that appends)
    b = np.flatnonzero(np.diff(lab)) + 1
    out = []
    for s, e in zip(b[:-1], b[1:]):
        out.append(v[s:e].sum() * 2.0)
    return np.array(out)


def three(v, lab):
    b = np.flatnonzero(lab)
    return np.array([v[s:e].sum() + w for s, e, w in zip(b[:-1], b[1:], v[b][1:])])


def carried(v, lab):           # (no list: a carried sum; a write into a zipped array)
    b = np.flatnonzero(lab) * 1.0
    c = b * 2.0
    acc = np.zeros(3)
    for s, e in zip(b, c):
        c += 1.0               # eager's zip reads c's later rows after this write
        acc = acc + s * e
    return acc, c


def rows_2d(v, lab):
    b = np.flatnonzero(lab)
    X = np.stack([v[b], v[b] * 2.0], axis=1)
    return np.array([r.sum() * k for r, k in zip(X, b)])


NODES = [("segment_max", segment_max), ("gaps_max", gaps_max), ("loop_sums", loop_sums),
         ("three", three), ("carried", carried), ("rows_2d", rows_2d)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn", NODES, ids=[k[0] for k in NODES])
def test_zip_of_one_data_length_is_one_loop_node(name, fn, backend):
    report = dynamo.explain(fn, backend=backend)(*CASES[0])
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    assert report.graph_count == 1
    assert any(n.target == "fori_loop" for g in report.graphs for n in g.call_nodes())
    compiled = dynamo.compile(fn, backend=backend)
    for i, args in enumerate(CASES):
        want, got = outcome(fn, list(args)), outcome(compiled, list(args))
        same_outcome(want, got, f"{name} inputs {i}")
        assert nested_types(got[0]) == nested_types(want[0]), f"{name} inputs {i}"


def empty_segment(v, lab):     # v[s:e] empty where two changes are adjacent
    b = np.flatnonzero(lab)
    return np.array([v[s:e].max() for s, e in zip(b[:-1], b[1:] - 1)])


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_empty_segment_raises_eagers_error(backend):
    report = dynamo.explain(empty_segment, backend=backend)(*CASES[0])
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    compiled = dynamo.compile(empty_segment, backend=backend)
    lab = np.array([1, 1, 0, 0, 1])       # the first segment is v[0:0]
    want, got = outcome(empty_segment, [np.arange(5.0), lab]), \
        outcome(compiled, [np.arange(5.0), lab])
    assert isinstance(want[0], ValueError)
    same_outcome(want, got, "empty segment")
    for i, args in enumerate(CASES):
        same_outcome(outcome(empty_segment, list(args)), outcome(compiled, list(args)),
                     f"inputs {i}")


def unequal(v, lab):           # u0 and u1 + 1: equal at some counts only
    starts = np.flatnonzero(np.diff(lab)) + 1
    ends = np.append(starts[1:], len(v))
    return np.array([v[s:e].max() for s, e in zip(starts, ends)])


def bound_first(v, lab):
    b = np.flatnonzero(lab)
    pairs = zip(b[:-1], b[1:])            # (bound to a name: read after the loop?)
    return np.array([v[s:e].sum() for s, e in pairs])


def with_a_list(v, lab):
    b = np.flatnonzero(lab)
    return np.array([v[s:e].sum() for s, e in zip(b, list(range(3)))])


@pytest.mark.parametrize("backend", BACKENDS)
def test_zip_of_lengths_that_may_differ_is_checked(backend):
    # (u0 and u1 + 1 are checked equal when the graph runs, dynamo/equal_sizes.py: where
    # they differ the frame reruns eagerly; test_other_zips_run_as_eager compares)
    report = dynamo.explain(unequal, backend=backend)(*CASES[0])
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    assert "data_check" in str(report)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [unequal, bound_first, with_a_list])
def test_other_zips_run_as_eager(fn, backend):
    compiled = dynamo.compile(fn, backend=backend)
    for i, args in enumerate(CASES):
        want, got = outcome(fn, list(args)), outcome(compiled, list(args))
        same_outcome(want, got, f"{fn.__name__} inputs {i}")
