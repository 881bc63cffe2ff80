"""Chained comparisons of sizes stay in the graph (issue #19,
``dynamo/translator/size_chains.py``).

``lo <= len(a) <= hi`` of a data-dependent size is ``lo <= len(a) and len(a) <= hi``
with ``len(a)`` evaluated once: the graph's ``&`` of the two links, a Python bool as
eagerly, one graph with no break, at every count (0, 1 and 3 kept elements, with
bounds that make each link true and false, counts changing between calls of one
compiled function). Where evaluating the right link when Python would not could show
(a division by the count, a function with an effect) or the chain is longer than the
trace keeps, the first link breaks as before and the results are still eager's. The
bytecode is 3.11's ``JUMP_IF_FALSE_OR_POP``/``POP_JUMP_FORWARD_IF_FALSE`` with a cleanup
block, 3.12+'s ``COPY 1; TO_BOOL; POP_JUMP_IF_FALSE`` (3.13+: exit blocks copied, not
jumped to; 3.14: ``NOT_TAKEN``): each is exercised by the version that runs the test.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import nested_types, outcome, same_outcome

import dynamo

BACKENDS = ("eager", "numpy")

# 0, 1 and 3 positive elements; bounds (lo, hi) for which each link is true and false
XS = [np.array(v) for v in ([-1.0, -2.0, -3.0], [1.0, -2.0, -3.0], [1.0, 2.0, 3.0])]
BOUNDS = [(0, 0), (1, 1), (1, 2), (1, 3), (2, 5), (4, 9)]
CASES = [(x, lo, hi) for x in XS for lo, hi in BOUNDS]


def value(x, lo, hi):
    a = x[x > 0]
    return lo <= len(a) <= hi


def stored(x, lo, hi):
    a = x[x > 0]
    ok = 0 < len(a) < hi
    return ok, x * ok


def two_sizes(x, lo, hi):
    a, b = x[x > 0], x[x > lo]
    return 0 < len(a) < len(b) + hi, len(b) < len(a) != 3


def in_if(x, lo, hi):
    a = x[x > 0]
    if lo <= len(a) <= hi:
        r = a.sum()
    else:
        r = x.sum() * 2.0
    return r


def in_if_not(x, lo, hi):
    a = x[x > 0]
    if not lo < len(a) < hi:
        r = x.max()
    else:
        r = a.min()
    return r


def static_first(x, lo, hi):
    a = x[x > 0]
    return 0 <= lo < len(a) <= hi


KEPT = [("value", value), ("stored", stored), ("two_sizes", two_sizes), ("in_if", in_if),
        ("in_if_not", in_if_not), ("static_first", static_first)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn", KEPT, ids=[k[0] for k in KEPT])
def test_one_graph_and_eagers_results(name, fn, backend):
    report = dynamo.explain(fn, backend=backend)(*CASES[-1])
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    assert report.graph_count == 1
    compiled = dynamo.compile(fn, backend=backend)
    for i, args in enumerate(CASES):
        want, got = outcome(fn, list(args)), outcome(compiled, list(args))
        same_outcome(want, got, f"{name} inputs {i}")
        assert nested_types(got[0]) == nested_types(want[0]), f"{name} inputs {i}"


LOG: list = []


def _effect(n):
    LOG.append(n)
    return 2


def calls_effect(x, lo, hi):
    a = x[x > 0]
    return 0 < len(a) < _effect(hi)           # the append only where the first link holds


def divides(x, lo, hi):
    a = x[x > 0]
    return 0 < len(a) < 6 // len(a)          # 6 // 0 where Python never divides


def three_sizes(x, lo, hi):
    a, b = x[x > 0], x[x > lo]
    return 0 < len(a) <= len(b) < hi         # a third link of sizes: not kept


BROKEN = [("calls_effect", calls_effect), ("divides", divides),
          ("three_sizes", three_sizes)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn", BROKEN, ids=[k[0] for k in BROKEN])
def test_a_right_link_python_may_skip_keeps_the_break(name, fn, backend):
    report = dynamo.explain(fn, backend=backend)(*CASES[-1])
    assert report.graph_break_count >= 1
    assert "data-dependent size" in report.break_reasons[0].reason
    compiled = dynamo.compile(fn, backend=backend)
    for i, args in enumerate(CASES):
        LOG.clear()
        want = outcome(fn, list(args))
        eager_log = list(LOG)
        LOG.clear()
        got = outcome(compiled, list(args))
        same_outcome(want, got, f"{name} inputs {i}")
        assert nested_types(got[0]) == nested_types(want[0]), f"{name} inputs {i}"
        assert LOG == eager_log, f"{name} inputs {i}: the effect ran {LOG}"
