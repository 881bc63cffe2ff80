"""Constant slices of an axis only the data sizes are one graph (issue #19,
``dynamo/clamped_slices.py``)::

    b = np.flatnonzero(lab)       # u0
    b[1:] - b[:-1]                # both max(u0 - 1, 0) long: one size, no break
    np.diff(b)                    # the same length, the same size

Each program is compared with plain Python at zero, one, two and many selected
elements (where ``b[1:]`` is empty, empty, one long, and longer), with the counts
changing between calls, on both backends; and the graph has no break.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import nested_types, outcome, same_outcome

import dynamo

BACKENDS = ("eager", "numpy")

# how many labels are nonzero: 0, 1, 2, many, 0 again, 1 again
LABELS = [np.zeros(5, np.int64), np.array([0, 0, 3, 0]), np.array([1, 0, 0, 1, 0]),
          np.array([1, 1, 0, 1, 1, 1, 0, 1, 1]), np.zeros(0, np.int64),
          np.array([0, 0, 0, 0, 0, 0, 7])]


def gaps(lab):
    b = np.flatnonzero(lab)
    return b[1:] - b[:-1]


def windows(lab):
    b = np.flatnonzero(lab)
    return b[2:5].sum(), b[-3:] * 2, b[:-2], b[1::2]


def masked_pairs(lab):
    x = lab[lab > 0] * 1.5       # (a mask's count, not flatnonzero's)
    return x[1:] + x[:-1], x[:-1].max(initial=-1.0)


def rows(lab):
    b = np.flatnonzero(lab)
    pts = np.stack([b, b * 2], axis=1)         # (u0, 2)
    return pts[1:] - pts[:-1], pts[1:, 0] - pts[:-1, 1]


def per_class(lab):            # in a loop node's body: a size of each trip
    return np.array([lab[lab == c][1:].sum() for c in np.unique(lab)])


def in_a_loop(lab):            # a size from before an unrolled loop
    b = np.flatnonzero(lab)
    out = np.zeros(3)
    for k in range(3):
        out[k] = (b[1:] - b[:-1]).sum() * k
    return out


# np.diff of a data-dependent length is max(u0 - n, 0) long: b[n:]'s length
def diff_gaps(lab):
    b = np.flatnonzero(lab)
    return np.diff(b), np.diff(b) * b[1:]      # one size with b[1:]: no check


def diff_twice(lab):
    t = np.cumsum(lab * 0.5 + 1.0)
    return np.diff(t[lab > 0], n=2), np.diff(t[lab > 0], 3).sum()


def diff_rows(lab):
    pts = np.argwhere(lab)                     # (u0, 1)
    return np.diff(pts, axis=0), np.diff(pts * 2.5, axis=-2)[:, 0]


PROGRAMS = [("gaps", gaps), ("windows", windows), ("masked_pairs", masked_pairs),
            ("rows", rows), ("per_class", per_class), ("in_a_loop", in_a_loop),
            ("diff_gaps", diff_gaps), ("diff_twice", diff_twice), ("diff_rows", diff_rows)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_a_clamped_slice_is_one_graph_and_eager_at_every_count(name, fn, backend):
    report = dynamo.explain(fn, backend=backend)(LABELS[3])
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    compiled = dynamo.compile(fn, backend=backend)
    for i, lab in enumerate(LABELS):
        want, got = outcome(fn, [lab]), outcome(compiled, [lab])
        same_outcome(want, got, f"{name} labels {i}")
        assert nested_types(got[0]) == nested_types(want[0]), f"{name} labels {i}"


def empty_max(lab):
    b = np.flatnonzero(lab)
    return b[1:].max()          # ValueError where fewer than two are selected


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_empty_clamped_slice_raises_as_eager(backend):
    report = dynamo.explain(empty_max, backend=backend)(LABELS[3])
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    compiled = dynamo.compile(empty_max, backend=backend)
    for i, lab in enumerate(LABELS):
        want, got = outcome(empty_max, [lab]), outcome(compiled, [lab])
        same_outcome(want, got, f"labels {i}")
    assert isinstance(outcome(compiled, [LABELS[1]])[0], ValueError)


def backed(x):
    return x[1:] - x[:-1]       # a length the caller's array gives: fitted as before


def test_a_slice_of_a_known_length_is_fitted_as_before():
    report = dynamo.explain(backed, backend="eager")(np.arange(6.0))
    assert report.graph_break_count == 0
    sizes = {n.target for g in report.graphs for n in g.call_nodes()}
    assert "sym_size" not in sizes, sizes
