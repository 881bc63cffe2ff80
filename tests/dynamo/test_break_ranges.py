"""A ``range`` made at a graph break from array elements (``range(bins[m - 1],
bins[m])``) is a changing range of the resume function from its first trace
(``dynamo/break_ranges.py``), and a loop over it is a node however short it is
(issue #19, corpus 14's log mel filterbank).

Inside an outlined loop body the resume function after the break takes another range
on every outer trip. It was guarded by value: one entry per range, up to
``config.cache_size_limit``, and then it ran uncompiled. Now its bounds are changing
ints: ranges of two trips or more share one entry (a loop node's count is a size),
ranges of one trip another (unrolled: ``iterators.budget_length`` reads their count
without pinning ``start``), and ranges of no trip a third.

Every program is checked against eager on the eager and numpy backends: values,
dtypes, printed output, arguments after the call.
"""

from __future__ import annotations

import collections
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from harness import check

import dynamo
from dynamo.config import config

BACKENDS = ("eager", "numpy")


@pytest.fixture(autouse=True)
def outline_small_arrays(monkeypatch):
    monkeypatch.setattr(config, "outline_min_elements", 0)
    monkeypatch.setattr(config, "outline_trial_calls", 0)


def mel_like(bins, n):
    fbank = np.zeros((len(bins) - 2, n))
    for m in range(1, len(bins) - 1):
        left, center, right = bins[m - 1], bins[m], bins[m + 1]
        for k in range(left, center):
            fbank[m - 1, k] = (k - left) / (center - left)
        for k in range(center, right):
            fbank[m - 1, k] = (right - k) / (right - center)
    return fbank


def runs_printed(x, edges):
    """Ranges of every length from 0 up; the break is the print before the loop."""
    out = np.zeros_like(x)
    for m in range(len(edges) - 1):
        lo, hi = edges[m], edges[m + 1]
        print("run", m, end=";")
        for k in range(lo, hi):
            out[k] = x[k] * (k - lo) + m
    return out


# widths 1, 2, 3, 4 and 0 (an empty filter), the starts all different
_BINS = np.array([0, 1, 3, 4, 7, 9, 12, 16, 16, 17, 20])
_EDGES = np.array([0, 0, 1, 3, 6, 10, 10, 15, 21, 28])


def _compiles(fn, calls) -> collections.Counter:
    """Compiles per code object over ``calls`` (eager backend)."""
    dynamo.reset()
    with dynamo.explain(fn, backend="eager") as compiled:
        for args in calls:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                compiled(*args)
    return collections.Counter(r.code.co_qualname for r in compiled.report.records)


@pytest.mark.parametrize("backend", BACKENDS)
def test_values_equal_eager(backend):
    check(mel_like, _BINS, 24, backend=backend)
    check(mel_like, np.array([3, 3, 3, 5]), 8, backend=backend)   # empty ranges only
    check(runs_printed, np.linspace(0.0, 1.0, 28), _EDGES, backend=backend)
    check(runs_printed, np.arange(28, dtype=np.int32), _EDGES, backend=backend)


def test_entries_per_kind_of_count_not_per_range():
    """Written before it ran as "at most 3 per resume function over two calls" (counts
    0, 1 and the rest). Measured 4 and 5: a node's count (the trips after the first) is
    a size, so 2 trips is an entry of its own too, and a start of 0 or 1 is pinned, as
    is ``m == 1`` (``fbank[m - 1, k]``: an index of 0); those are the rules of every
    size. At HEAD fcc36d1 each range was an entry: 8, the cache limit, for
    mel_like's two and for runs_printed's."""
    counts = _compiles(mel_like, [(_BINS, 24), (_BINS + 1, 24)])
    resumes = {k: v for k, v in counts.items() if "resume_at" in k}
    assert len(resumes) == 3 and max(resumes.values()) <= 5, dict(counts)
    counts = _compiles(runs_printed, [(np.arange(28.0), _EDGES)] * 2)
    assert max(counts.values()) <= 5, dict(counts)


def test_a_range_from_python_numbers_still_unrolls():
    """A short range whose bounds are Python ints the trace knows is no break: it is
    unrolled as before, and a changing one is an entry per count (not a node)."""
    def short(x, n):
        for k in range(n):
            x = x + k
        return x
    for backend in BACKENDS:
        check(short, np.ones(3), 4, backend=backend)
    counts = _compiles(short, [(np.ones(3), n) for n in (2, 3, 4)])
    assert counts["test_a_range_from_python_numbers_still_unrolls.<locals>.short"] == 3


def test_corpus_mel_filterbank(monkeypatch):
    """Corpus 14's program at its benchmark size, with the default outlining: 7
    compiles in all over three calls (HEAD fcc36d1: 19, the resume functions at the
    cache limit), values equal to eager's."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
    import realworld_programs14 as rp

    monkeypatch.undo()   # (the default outlining and its trial)
    name, fn, args, kwargs = next(p for p in rp.programs() if p[0].startswith("log mel"))
    expected = fn(*args, **kwargs)
    dynamo.reset()
    with dynamo.explain(fn, backend="numpy") as compiled:
        for _ in range(3):
            np.testing.assert_allclose(compiled(*args, **kwargs), expected, rtol=1e-12)
    assert len(compiled.report.records) <= 7, [str(r) for r in compiled.report.recompiles]
