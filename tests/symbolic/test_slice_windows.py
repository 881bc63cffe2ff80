"""``x[i:j]`` of two changing ints (``dynamo/symbolic/slice_windows.py``, issue #19):
decided in bounds and ``j - i`` long, a size of its own, not a pin of ``i``.

Each program runs eagerly and compiled on the eager and numpy backends with many
``(i, j)`` pairs (values, dtypes, printed output, arguments after the call), windows
out of bounds, reversed, negative and empty included: those keep the plain fit, or an
entry of their own, and give NumPy's answers.
"""

from __future__ import annotations

import collections
import contextlib
import io
import warnings

import numpy as np
import pytest
from harness import check

import dynamo
from dynamo.config import config

BACKENDS = ("eager", "numpy")


def window_sum(x, i, j):
    return x[i:j].sum() * 2.0


def window_ops(x, A, i, j):
    w = x[i:j]
    rows = A[i:j, 1:]
    cols = A[:, i:j]
    return w * 2.0 + w.mean(), rows.sum(0), cols @ np.ones(cols.shape[1]), \
        np.squeeze(w), w.shape, len(w)


def window_sums_printed(x):
    n = len(x)
    s = 0.0
    for i in range(n):
        for j in range(i + 1, n):
            print(i, j, end=",")
            s += x[i:j].sum()
    return s


_PAIRS = [(2, 5), (3, 7), (0, 4), (1, 2), (4, 4), (5, 3), (-3, 6), (2, 40), (6, 9),
          (1, 9)]


def _compiles(fn, calls) -> collections.Counter:
    dynamo.reset()
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings(), \
            dynamo.explain(fn, backend="eager") as compiled:
        warnings.simplefilter("ignore")
        for args in calls:
            compiled(*args)
    return collections.Counter(r.code.co_qualname for r in compiled.report.records)


@pytest.mark.parametrize("backend", BACKENDS)
def test_values_equal_eager(backend):
    x = np.arange(10.0) ** 1.5
    A = np.arange(90.0).reshape(10, 9)
    compiled = dynamo.compile(window_ops, backend=backend)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # (the mean of an empty window)
        for i, j in _PAIRS:
            check(window_sum, x, i, j, backend=backend)
            got, want = compiled(x, A, i, j), window_ops(x, A, i, j)
            for g, w in zip(got, want):
                np.testing.assert_array_equal(g, w)
                assert type(g) is type(w) and np.asarray(g).dtype == np.asarray(w).dtype
    check(window_sums_printed, np.random.default_rng(0).random(7), backend=backend)


def test_one_entry_for_every_window_in_bounds():
    """Windows of 2 or more in bounds share an entry, each length of 0 or 1 has its
    own (written before it ran: at most 4 over 6 windows; at HEAD fcc36d1 one per
    ``i``, 6, ``i`` pinned)."""
    x = np.arange(12.0)
    calls = [(x, i, j) for i, j in ((2, 5), (3, 9), (4, 6), (5, 6), (6, 11), (7, 10))]
    counts = _compiles(window_sum, calls)
    assert counts["window_sum"] <= 4, dict(counts)


def test_window_sums_in_nested_loops(monkeypatch):
    """tests/breaks/test_per_trip_recompiles.py's window sums (issue #19): its inner
    body's resume function compiled once per ``i`` (7 of 7 rows); now 3: ``s`` a float
    then a NumPy float, windows of one element, and the rest."""
    monkeypatch.setattr(config, "outline_min_elements", 0)
    monkeypatch.setattr(config, "outline_trial_calls", 0)
    x = np.random.default_rng(1).random(7)
    counts = _compiles(window_sums_printed, [(x,), (x,)])
    assert max(counts.values()) <= 3, dict(counts)
