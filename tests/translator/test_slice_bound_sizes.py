"""Slices whose bounds are read from arrays (issue #19): ``v[p[0]:p[1]]``.

CSR-style row slices (``x[indptr[i]:indptr[i + 1]]``), segment sums and ``x[:n]`` with
``n`` an element of a counts array have a length only the data decides: the slice is
one graph op whose length is an unbacked size (``ops.indexing.array_bounded_meta``,
docs/unbacked.md), clamped when the graph runs exactly as Python clamps slices
(negative bounds, bounds past the end, start > stop). Each program below compiles to
one graph with no break and gives eager's results on the eager and numpy backends, on
one compiled object called with bounds of every kind. A float bound raises eager's
TypeError; a step other than 1 stays a graph break, and the frame still runs its
compiled parts around it.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import outcome, same_outcome

import dynamo

BACKENDS = ("eager", "numpy")

# (start, stop) pairs for a length-10 axis: inside, empty, reversed, negative, past
# both ends, equal, the whole axis
BOUNDS = [(2, 7), (0, 10), (3, 3), (7, 2), (-4, -1), (-20, 4), (5, 99), (-3, 99),
          (0, 0), (9, 10), (-1, -5), (12, 15)]


def seg_sum(v, p):
    return v[p[0]:p[1]].sum()


def seg_slice(v, p):
    return v[p[0]:p[1]] * 2.0 + 1.0


def seg_after_work(v, p):
    w = v * 2 + 1
    s = w[p[0]:p[1]]
    return s.sum() * 3, s.max(initial=-5.0), w[0]


def head_of(x, counts):
    return x[:counts[0]] * 2


def tail_from(x, counts):
    return x[counts[1]:] - 1.0


def csr_row_sums(x, idx):
    out = []
    for i in range(3):
        out.append(x[idx[i]:idx[i + 1]].sum())
    return out


def csr_rows_stacked(data, indptr):
    sums = np.zeros(3)
    for i in range(3):
        row = data[indptr[i]:indptr[i + 1]]
        sums[i] = row.sum() + row.size
    return sums


def rows_2d(a, p):
    return a[p[0]:p[1], 1:].sum(axis=0)


def cols_2d(a, p):
    return a[:, p[0]:p[1]].max(axis=1, initial=-1.0)


def bound_and_int(x, p):
    return x[p[0]:7] + x[0], x[2:p[1]].sum()


def view_write(x, p):
    x = x.copy()
    s = x[p[0]:p[1]]
    s[:] = -1.0
    return x


def slice_assign(x, p):
    x = x.copy()
    x[p[0]:p[1]] = 0.0
    return x


def slice_add_in_place(x, p):
    x[p[0]:p[1]] += 5.0     # the argument itself: eager's mutation is compared too
    return x.sum()


def concat_segments(x, p):
    return np.concatenate([x[:p[0]], x[p[1]:]])


def cumsum_segment(x, p):
    seg = x[p[0]:p[1]]
    return np.cumsum(seg), seg.shape


def int32_bounds(x, p):
    return x[p[0]:p[1]].sum()


def uint_bounds(x, p):
    return x[p[0]:p[1]] ** 2


def bound_step_one(x, p):
    return x[p[0]:p[1]:1] + 0.5


def head_int(x, counts):
    n = int(counts[0])      # a Python int after the graph; the slice bound in it
    return x[:n] * 2, n


def window_ints(x, p):
    lo, hi = int(p[0]), int(p[1])
    return x[lo:hi].sum(), x[1:hi, ...] - x[0]


def two_slices(a, p):
    # two lengths, one per slice: not one size (a window of a (10, 10) array)
    w = a[p[0]:p[1], p[1]:]
    return w.sum(axis=0), w.shape


def slice_and_list(a, p):
    return a[None, p[0]:p[1], [0, 2]] * 3.0


def two_segments_added(x, p):
    # u0 + u1: NumPy takes only equal lengths (or 1); its ValueError when they differ
    return x[p[0]:p[1]] + x[p[1]:]


PROGRAMS = [seg_sum, seg_slice, seg_after_work, head_of, tail_from, rows_2d, cols_2d,
            bound_and_int, view_write, slice_assign, slice_add_in_place, concat_segments,
            cumsum_segment, int32_bounds, uint_bounds, bound_step_one, two_slices,
            head_int, window_ints,
            slice_and_list]


def _args(fn, lo: int, hi: int) -> tuple:
    x = np.linspace(-1.0, 2.0, 10)
    p = np.array([lo, hi])
    if fn is int32_bounds:
        p = p.astype(np.int32)
    if fn is uint_bounds:
        p = np.abs(p).astype(np.uint64)
    if fn in (rows_2d, slice_and_list):
        return (np.arange(30.0).reshape(10, 3), p)
    if fn is two_slices:
        return (np.arange(100.0).reshape(10, 10), p)
    if fn in (cols_2d,):
        return (np.arange(30.0).reshape(3, 10), p)
    return (x, p)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", PROGRAMS, ids=lambda f: f.__name__)
def test_one_graph_equal_to_eager(fn, backend):
    report = dynamo.explain(fn, backend=backend)(*_args(fn, 2, 7))
    assert (report.graph_count, report.graph_break_count) == (1, 0), str(report)
    compiled = dynamo.compile(fn, backend=backend)
    for lo, hi in BOUNDS + BOUNDS[:2]:
        want = outcome(fn, _args(fn, lo, hi))
        got = outcome(compiled, _args(fn, lo, hi))
        same_outcome(want, got, f"{fn.__name__}[{lo}:{hi}]")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [csr_row_sums, csr_rows_stacked], ids=lambda f: f.__name__)
def test_csr_rows(fn, backend):
    data = np.arange(1.0, 11.0)
    indptrs = [np.array([0, 3, 3, 9]), np.array([0, 0, 0, 0]), np.array([0, 10, 10, 10]),
               np.array([2, 4, 6, 8])]
    report = dynamo.explain(fn, backend=backend)(data, indptrs[0])
    assert (report.graph_count, report.graph_break_count) == (1, 0), str(report)
    compiled = dynamo.compile(fn, backend=backend)
    for indptr in indptrs + indptrs:
        same_outcome(outcome(fn, (data, indptr)), outcome(compiled, (data, indptr)),
                     f"{fn.__name__}{indptr.tolist()}")


def test_the_bounds_are_not_guarded():
    """One entry serves every pair of bounds: nothing specialized on the length."""
    report = dynamo.explain(seg_slice, backend="eager").calls(
        [_args(seg_slice, lo, hi) for lo, hi in BOUNDS])
    assert report.graph_count == 1 and report.recompile_count == 0, str(report)


@pytest.mark.parametrize("backend", BACKENDS)
def test_float_bound_raises_as_eager(backend):
    x, p = np.arange(10.0), np.array([1.0, 4.0])
    want = outcome(seg_sum, (x, p))
    assert isinstance(want[0], TypeError)
    same_outcome(want, outcome(dynamo.compile(seg_sum, backend=backend), (x, p)), "float")


def masked_and_bounded(a, p):
    return a[p[0]:p[1], a[0] > 1]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [two_segments_added, masked_and_bounded],
                         ids=lambda f: f.__name__)
def test_sizes_that_may_not_fit_stay_right(fn, backend):
    """Equal to eager for every pair of bounds (results or NumPy's own errors), with or
    without a break (a mask beside an array-bounded slice is one)."""
    compiled = dynamo.compile(fn, backend=backend)
    for lo, hi in BOUNDS:
        args = (np.arange(30.0).reshape(10, 3) if fn is masked_and_bounded else
                np.arange(10.0), np.array([lo, hi]))
        same_outcome(outcome(fn, args), outcome(compiled, args), f"{fn.__name__}[{lo}:{hi}]")


def stepped(x, p):
    y = x * 2.0
    return y[p[0]:p[1]:2] + 1.0


def bool_bound(x, p):
    return x[:p[0] > 0].sum()


def float_int(x, p):
    n = int(p[0] * 0.5)
    return x[:n] + 1.0


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [stepped, bool_bound, float_int], ids=lambda f: f.__name__)
def test_other_bounds_break_and_stay_right(fn, backend):
    # float_int: int() of a float array truncates; its bound is not the array
    compiled = dynamo.compile(fn, backend=backend)
    for lo, hi in BOUNDS:
        args = (np.arange(10.0), np.array([lo, hi]))
        same_outcome(outcome(fn, args), outcome(compiled, args), f"{fn.__name__}[{lo}:{hi}]")


def test_a_stepped_slice_still_runs_its_graph():
    """A break at the slice: the work before it is still a graph (the frame is not run
    eagerly as a whole: no "cannot rebuild slice after the graph")."""
    report = dynamo.explain(stepped, backend="eager")(np.arange(10.0), np.array([1, 8]))
    assert report.graph_count >= 1, str(report)
    assert "cannot rebuild" not in str(report)
