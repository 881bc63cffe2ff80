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
    report = dynamo.explain(static_minlengths, backend="eager")(np.array([0, 4, 4]), np.ones(3))
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    compiled = dynamo.compile(static_minlengths, backend="eager")
    for a in (np.array([0, 4, 4]), np.array([1, 1, 0])):
        same_outcome(outcome(static_minlengths, (a, np.ones(3))),
                     outcome(compiled, (a, np.ones(3))), str(a))


def recomputed_mask(x, w, out):
    out[:] = -1.0            # a write into an input: no check could be rerun after it
    return x[x > 0] * w[x > 0], (x * 2)[np.abs(x) >= 0.5] - w[np.abs(x) >= 0.5]


def mask_written_between(x, w):
    y = x.copy()
    a = w[y > 0]
    y[0] = -y[0]             # y's values change: y > 0 again is another count
    return a, w[y > 0]


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_one_mask_written_twice_is_one_length(backend):
    """``x[x > 0] * w[x > 0]``: two ``greater`` nodes of one ``x`` and one constant
    hold the same values, so the two selections have one length, proven without a
    check (the graph writes an input, where no check could be rerun)."""
    xs = [np.array([1.0, -2.0, 3.0, 0.5]), np.array([-1.0, -2.0, -3.0, -0.5]),
          np.array([1.0, 2.0, 3.0, 0.7]), np.zeros(0)]
    report = dynamo.explain(recomputed_mask, backend=backend)(xs[0], xs[0] * 3, np.zeros(2))
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    assert "data_check" not in str(report)
    compiled = dynamo.compile(recomputed_mask, backend=backend)
    for x in xs:
        a, b = np.zeros(2), np.zeros(2)
        same_outcome(outcome(recomputed_mask, (x, x - 1.0, a)),
                     outcome(compiled, (x, x - 1.0, b)), f"{x}")
        assert (a == b).all()
    compiled = dynamo.compile(mask_written_between, backend=backend)
    for x in xs[:3]:
        same_outcome(outcome(mask_written_between, (x, x * 3)),
                     outcome(compiled, (x, x * 3)), f"{x}")


def long_chain(x):
    for _ in range(40):          # each value read twice: a key per node would double
        x = x * 0.5 + x * 0.25   # at every step without the depth bound
    return x[x > 0] * x[x > 0]


def test_a_long_chain_of_ops_keys_in_bounded_work():
    x = np.arange(-3.0, 5.0)
    report = dynamo.explain(long_chain, backend="eager")(x)
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    same_outcome(outcome(long_chain, (x,)), outcome(dynamo.compile(long_chain,
                                                                   backend="eager"), (x,)), "x")
