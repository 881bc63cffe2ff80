"""Two data-dependent sizes equal in fact, checked when the graph runs (issue #19,
``dynamo/equal_sizes.py``)::

    d = np.diff(np.r_[0, mask.astype(np.int8), 0])
    starts, ends = np.flatnonzero(d == 1), np.flatnonzero(d == -1)   # u0, u1
    ends - starts        # traced as if u1 == u0; the graph checks u1 == u0 first

Each program is compared with plain Python where the sizes are equal (0, 1 and many
runs) and, for the programs whose sizes may differ, where they differ: NumPy raises its
broadcasting error, or broadcasts a length of 1, and the compiled function must do the
same (the failed check reruns the frame eagerly). Every program is one graph with no
break on its first arguments, on both backends.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import nested_types, outcome, same_outcome

import dynamo

BACKENDS = ("eager", "numpy")

MASKS = [np.array([1, 1, 0, 1, 0, 0, 1, 1, 1], bool), np.zeros(6, bool), np.ones(5, bool),
         np.array([0, 1, 0], bool), np.array([1, 0, 1, 0, 1, 1, 0, 1], bool),
         np.zeros(0, bool)]


def run_lengths(mask):
    d = np.diff(np.r_[0, mask.astype(np.int8), 0])
    starts = np.flatnonzero(d == 1)
    ends = np.flatnonzero(d == -1)
    return starts, ends - starts, (ends - starts).sum()


def run_columns(mask):
    d = np.diff(np.concatenate(([0], mask.astype(np.int64), [0])))
    starts, = np.nonzero(d > 0)
    ends, = np.nonzero(d < 0)
    return np.c_[starts, ends], np.stack([starts, ends], axis=1) * 2


def cumsum_runs(mask):
    d = np.diff(np.r_[0, mask.astype(np.int8), 0])
    cs = np.r_[0.0, np.cumsum(mask * 1.5)]
    return cs[np.flatnonzero(d == -1)] - cs[np.flatnonzero(d == 1)]


def recomputed_masks(mask):
    x = np.arange(len(mask)) - 2.5
    return x[x > 0] * (x * 2)[x > 0], np.where(mask)[0][:1]


PROGRAMS = [("run_lengths", run_lengths), ("run_columns", run_columns),
            ("cumsum_runs", cumsum_runs), ("recomputed_masks", recomputed_masks)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_sizes_equal_in_fact_are_one_graph_and_eager(name, fn, backend):
    report = dynamo.explain(fn, backend=backend)(MASKS[0])
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    checks = [n for g in report.graphs for n in g.call_nodes() if n.target == "data_check"]
    if fn is not recomputed_masks:
        assert checks, "the equality is checked in the graph"
    compiled = dynamo.compile(fn, backend=backend)
    for i, mask in enumerate(MASKS):
        want, got = outcome(fn, [mask]), outcome(compiled, [mask])
        same_outcome(want, got, f"{name} mask {i}")
        assert nested_types(got[0]) == nested_types(want[0]), f"{name} mask {i}"


def two_masks(a, b):
    return a[a > 0] - b[b > 0]


def counts_into(values, ids, n):
    k = int(n.max()) + 1
    return np.zeros(k) + np.bincount(ids, weights=values, minlength=k)


# (a, b): equal counts, one count of 1 (NumPy broadcasts it), different counts (NumPy
# raises), none
PAIRS = [(np.array([1.0, -1.0, 2.0]), np.array([3.0, 4.0, -1.0])),
         (np.array([1.0, -1.0, 2.0]), np.array([3.0, -4.0, -1.0])),
         (np.array([1.0, 5.0, 2.0]), np.array([3.0, 4.0, -1.0])),
         (np.array([-1.0, -5.0, -2.0]), np.array([-3.0, -4.0, -1.0]))]


@pytest.mark.parametrize("backend", BACKENDS)
def test_unequal_counts_give_eager_error_or_broadcast(backend):
    report = dynamo.explain(two_masks, backend=backend)(*PAIRS[0])
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    compiled = dynamo.compile(two_masks, backend=backend)
    for i, (a, b) in enumerate(PAIRS + PAIRS[:1]):
        want, got = outcome(two_masks, [a, b]), outcome(compiled, [a, b])
        same_outcome(want, got, f"pair {i}")
    assert outcome(compiled, list(PAIRS[1]))[0].shape == (2,)     # broadcast from 1
    assert isinstance(outcome(compiled, list(PAIRS[2]))[0], ValueError)


@pytest.mark.parametrize("backend", BACKENDS)
def test_bincount_longer_than_minlength_gives_eager_error(backend):
    ids, values = np.array([0, 2, 2, 1]), np.array([1.0, 2.0, 3.0, 4.0])
    report = dynamo.explain(counts_into, backend=backend)(values, ids, np.array([2]))
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    compiled = dynamo.compile(counts_into, backend=backend)
    # k = 3 (equal), 5 (minlength wins: equal), 2 (bincount has 3: NumPy raises),
    # 1 (bincount 3 beside np.zeros(1): NumPy broadcasts the one)
    for n in ([2], [4], [1], [0], [2]):
        args = [values, ids, np.array(n)]
        want, got = outcome(counts_into, args), outcome(compiled, args)
        same_outcome(want, got, f"n {n}")
    assert isinstance(outcome(compiled, [values, ids, np.array([1])])[0], ValueError)


def writes_after(mask, out):
    d = np.diff(np.r_[0, mask.astype(np.int8), 0])
    lengths = np.flatnonzero(d == -1) - np.flatnonzero(d == 1)
    out[:] = 1.0                      # a write into an input: a rerun is not exact
    return lengths


def test_a_write_after_the_check_breaks_as_before():
    report = dynamo.explain(writes_after, backend="eager")(MASKS[0], np.zeros(3))
    assert report.graph_break_count == 1
    assert "fits the other arguments for some counts only" in \
        report.break_reasons[0].reason
    compiled = dynamo.compile(writes_after, backend="eager")
    for mask in MASKS:
        a, b = np.zeros(3), np.zeros(3)
        same_outcome(outcome(writes_after, [mask, a]), outcome(compiled, [mask, b]), "w")
        assert (a == b).all()


def zipped_runs(mask):
    d = np.diff(np.r_[0, mask.astype(np.int8), 0])
    rises, falls = np.flatnonzero(d == 1), np.flatnonzero(d == -1)
    return np.array([f - r for r, f in zip(rises, falls)])


def zipped_masks(a, b):
    return [x * y for x, y in zip(a[a > 0], b[b > 0])]   # zip stops at the shorter


@pytest.mark.parametrize("backend", BACKENDS)
def test_zip_of_lengths_equal_in_fact_is_one_loop(backend):
    report = dynamo.explain(zipped_runs, backend=backend)(MASKS[0])
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    compiled = dynamo.compile(zipped_runs, backend=backend)
    for i, mask in enumerate(MASKS):
        same_outcome(outcome(zipped_runs, [mask]), outcome(compiled, [mask]), f"mask {i}")
    report = dynamo.explain(zipped_masks, backend=backend)(*PAIRS[0])
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    compiled = dynamo.compile(zipped_masks, backend=backend)
    for i, (a, b) in enumerate(PAIRS + PAIRS[:1]):     # counts 2/2, 2/1, 3/2, 0/0
        want, got = outcome(zipped_masks, [a, b]), outcome(compiled, [a, b])
        same_outcome(want, got, f"pair {i}")
        assert nested_types(got[0]) == nested_types(want[0]), f"pair {i}"
