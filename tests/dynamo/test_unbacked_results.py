"""Sizes the data decides share one symbol only where they are one length
(``dynamo/unbacked_results.py``): ``np.bincount(a, minlength=m)`` of one ``a`` shares
its length for one ``m``, and two ``minlength`` ints the graph reads
(``int(a.max()) + 1``, ``int(b.max()) + 1``), whose made-up hints are equal, are not
one ``m``: before, the second count's length was read off the first (``(2, 2)`` for
eager's ``(2, 6)``)."""

from __future__ import annotations

import numpy as np
import pytest
from harness import outcome, same_outcome

import dynamo


def two_minlengths(a, b):
    c1 = np.bincount(a, minlength=int(a.max()) + 1)
    c2 = np.bincount(a, minlength=int(b.max()) + 1)
    return len(c1), len(c2), c2.sum(), np.bincount(a, c2[a]) / np.maximum(np.bincount(a), 1)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_minlengths_the_graph_reads_are_sizes_of_their_own(backend):
    compiled = dynamo.compile(two_minlengths, backend=backend)
    for a, b in ((np.array([0, 1]), np.array([5])), (np.array([3, 1, 1]), np.array([0])),
                 (np.array([2, 2]), np.array([2, 7]))):
        same_outcome(outcome(two_minlengths, (a, b)), outcome(compiled, (a, b)), f"{a} {b}")
    report = dynamo.explain(two_minlengths, backend=backend)(np.array([0, 1]), np.array([5]))
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]


def static_minlengths(a, w):
    return np.bincount(a, w, minlength=3) / np.maximum(np.bincount(a, minlength=3), 1)


def test_one_minlength_still_shares_one_size():
    report = dynamo.explain(static_minlengths)(np.array([0, 4, 4]), np.ones(3))
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    compiled = dynamo.compile(static_minlengths)
    for a in (np.array([0, 4, 4]), np.array([1, 1, 0])):
        same_outcome(outcome(static_minlengths, (a, np.ones(3))),
                     outcome(compiled, (a, np.ones(3))), str(a))
