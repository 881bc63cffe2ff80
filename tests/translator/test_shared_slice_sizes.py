"""Slices of the same traced bounds share one length (issue #19): ``a[lo:hi] * b[lo:hi]``.

A slice whose bounds are read from an array has an unbacked length
(tests/translator/test_slice_bound_sizes.py). That length is the bounds clamped to the
axis the slice cuts, nothing else, so two slices whose bounds are the same graph nodes
on axes of one length are one size (``unbacked_results._slice_length_key``): the CSR
mat-vec ``np.dot(data[lo:hi], x[indices[lo:hi]])``, ``a[lo:hi] * b[lo:hi]`` and
``np.sum(w[s:e] * v[s:e])`` are one graph with no break, equal to eager for bounds of
every kind (negative, past the end, reversed). Where the axes have different lengths
the bounds clamp differently: the op keeps its break and the results (NumPy's
ValueError included) are eager's.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import outcome, same_outcome

import dynamo

BACKENDS = ("eager", "numpy")

BOUNDS = [(2, 7), (0, 10), (3, 3), (7, 2), (-4, -1), (-20, 4), (5, 99), (-3, 99),
          (0, 0), (9, 10), (-1, -5), (12, 15)]


def product_of_segments(a, b, p):
    return a[p[0]:p[1]] * b[p[0]:p[1]]


def weighted_sum(w, v, p):
    s, e = p[0], p[1]
    return np.sum(w[s:e] * v[s:e])


def dot_gathered(data, x, idx, p):
    lo, hi = p[0], p[1]
    return np.dot(data[lo:hi], x[idx[lo:hi]])


def rows_and_column(a, b, p):
    # a (10, 3) rows and b's (10,) entries: axis 0 of both has length 10
    return a[p[0]:p[1]] * b[p[0]:p[1], None]


def int_bounds(a, b, p):
    lo, hi = int(p[0]), int(p[1])
    return a[lo:hi] - b[lo:hi]


def open_ended(a, b, p):
    return a[p[0]:] + b[p[0]:], a[:p[1]] * b[:p[1]]


def other_axis(a, b, p):
    # a (3, 10) cut on its axis 1, b (10,) on its axis 0: both axes have length 10
    return a[..., p[0]:p[1]] * b[p[0]:p[1]]


def csr_matvec(data, indices, indptr, x):
    y = np.zeros(3)
    for i in range(3):
        lo, hi = indptr[i], indptr[i + 1]
        y[i] = np.dot(data[lo:hi], x[indices[lo:hi]])
    return y


def _args(fn, lo: int, hi: int) -> tuple:
    p = np.array([lo, hi])
    a, b = np.linspace(-1.0, 2.0, 10), np.arange(10.0) ** 2
    if fn is dot_gathered:
        return (a, np.arange(5.0) - 2.0, np.arange(10) % 5, p)
    if fn is rows_and_column:
        return (np.arange(30.0).reshape(10, 3), b, p)
    if fn is other_axis:
        return (np.arange(30.0).reshape(3, 10), b, p)
    if fn in (rows_of_shorter_axis, after_a_true):
        return (a, np.arange(30.0).reshape(3, 10), p)
    return (a, b, p)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [product_of_segments, weighted_sum, dot_gathered,
                                rows_and_column, int_bounds, open_ended, other_axis],
                         ids=lambda f: f.__name__)
def test_same_bounds_one_size(fn, backend):
    report = dynamo.explain(fn, backend=backend)(*_args(fn, 2, 7))
    assert (report.graph_count, report.graph_break_count) == (1, 0), str(report)
    compiled = dynamo.compile(fn, backend=backend)
    for lo, hi in BOUNDS + BOUNDS[:2]:
        same_outcome(outcome(fn, _args(fn, lo, hi)), outcome(compiled, _args(fn, lo, hi)),
                     f"{fn.__name__}[{lo}:{hi}]")


@pytest.mark.parametrize("backend", BACKENDS)
def test_csr_matvec(backend):
    data, x = np.arange(1.0, 11.0), np.array([1.0, -2.0, 0.5, 3.0])
    indices = np.array([0, 3, 1, 2, 2, 0, 1, 3, 0, 2])
    indptrs = [np.array([0, 3, 3, 10]), np.array([0, 0, 0, 0]), np.array([2, 4, 6, 8]),
               np.array([0, 10, 10, 10]), np.array([5, 2, -3, 99])]
    report = dynamo.explain(csr_matvec, backend=backend)(data, indices, indptrs[0], x)
    assert (report.graph_count, report.graph_break_count) == (1, 0), str(report)
    compiled = dynamo.compile(csr_matvec, backend=backend)
    for indptr in indptrs + indptrs:
        same_outcome(outcome(csr_matvec, (data, indices, indptr, x)),
                     outcome(compiled, (data, indices, indptr, x)), f"{indptr.tolist()}")


def rows_of_shorter_axis(a, b, p):
    # a (10,) and b (3, 10) cut on its axis 0, of length 3: the bounds clamp differently
    return a[p[0]:p[1], None] * b[p[0]:p[1]]


def after_a_true(a, b, p):
    # b (3, 10)[True, lo:hi, 0]: the True adds an axis and takes none, so the slice cuts
    # b's axis 0, of length 3, not its axis 1
    return a[p[0]:p[1]] * b[True, p[0]:p[1], 0]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [rows_of_shorter_axis, after_a_true], ids=lambda f: f.__name__)
def test_axes_of_other_lengths_are_checked(fn, backend):
    # (the two lengths are checked equal when the graph runs: dynamo/equal_sizes.py)
    report = dynamo.explain(fn, backend=backend)(*_args(fn, 2, 7))
    assert report.graph_break_count == 0, str(report)
    assert "data_check" in str(report)
    compiled = dynamo.compile(fn, backend=backend)
    for lo, hi in BOUNDS:
        same_outcome(outcome(fn, _args(fn, lo, hi)), outcome(compiled, _args(fn, lo, hi)),
                     f"[{lo}:{hi}]")


def different_bounds(a, b, p):
    return a[p[0]:p[1]] * b[p[1]:p[0]]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shorter", [6, 10], ids=["lengths_differ", "bounds_differ"])
def test_sizes_that_may_differ_are_checked(shorter, backend):
    """Axes of lengths 10 and 6 clamp ``[5:99]`` to 5 and 1 elements; other bounds
    are other sizes: the graph checks the two equal when it runs
    (``dynamo/equal_sizes.py``), and reruns the frame eagerly where they are not:
    NumPy's broadcasting ValueError or results, as eagerly."""
    fn = product_of_segments if shorter == 6 else different_bounds

    def args(lo, hi):
        return (np.arange(10.0), np.arange(float(shorter)), np.array([lo, hi]))
    report = dynamo.explain(fn, backend=backend)(*args(2, 7))
    assert report.graph_break_count == 0, str(report)
    assert "data_check" in str(report)
    compiled = dynamo.compile(fn, backend=backend)
    outcomes = [outcome(fn, args(lo, hi)) for lo, hi in BOUNDS]
    assert any(isinstance(o[0], ValueError) for o in outcomes)
    for (lo, hi), want in zip(BOUNDS, outcomes):
        same_outcome(want, outcome(compiled, args(lo, hi)), f"[{lo}:{hi}]")


def bound_written_between(a, b, p):
    lo, hi = p[0], p[1]
    s = a[lo:hi]
    p[0] = 0           # eager: lo was read before (a NumPy integer), s keeps its length
    return s * b[lo:hi], b[p[0]:hi].sum()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_write_to_the_bounds_stays_right(backend):
    compiled = dynamo.compile(bound_written_between, backend=backend)
    for lo, hi in BOUNDS:
        want = outcome(bound_written_between, _args(product_of_segments, lo, hi))
        got = outcome(compiled, _args(product_of_segments, lo, hi))
        same_outcome(want, got, f"[{lo}:{hi}]")
