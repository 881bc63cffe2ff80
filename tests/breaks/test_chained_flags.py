"""A chained comparison of array data around a write or a count, ``if lo <= x[i] <
hi:``, is one graph bool ``(lo <= x[i]) & (x[i] < hi)`` and the ``if`` a select, no
break (issue #19, ``dynamo/translator/size_chains.py`` for 0-d bools, then
``branch_selects``). The right link is one comparison of 0-d values, run where Python
would not (the first link false): it neither raises nor writes, and a NaN that makes
it report "invalid" on some NumPy build reruns the frame (the node may raise).

Each program runs unrolled (12 elements) and as a loop node (40), NaN among the
values, on both CPU backends, every call eager's (``calls_match_eager``), with one
graph and no break. A right link that computes more than its comparison keeps the
``if``'s break.
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
from check_calls import calls_match_eager

import dynamo
from dynamo.pyversion import JUMPS_TEST_EXACT_BOOLS

BACKENDS = ("eager", "numpy")


def keep_in_range(x, lo, hi):
    y = np.zeros_like(x)
    for i in range(len(x)):
        if lo <= x[i] < hi:
            y[i] = x[i]
    return y


def count_in_range(x, lo, hi):
    count = 0
    for i in range(len(x)):
        if lo <= x[i] < hi:
            count += 1
    return count


def right_link_computes(x, lo, hi):
    y = np.zeros_like(x)
    for i in range(len(x)):
        if lo <= x[i] < hi * x[0]:      # (a product in the right link: not kept)
            y[i] = x[i]
    return y


def _data(n, seed):
    x = np.random.default_rng(seed).standard_normal(n)
    x[::5] = np.nan
    x[1] = -0.5          # (on the bound)
    return x


_CALLS = [(_data(n, s), -0.5, 0.5) for n in (12, 40) for s in (0, 1)]


_PROGRAMS = [(keep_in_range, 12), (keep_in_range, 40), (count_in_range, 40)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("fn", "n"), _PROGRAMS)
def test_a_chained_comparison_of_data_equals_eager(fn, n, backend):
    calls = [c for c in _CALLS if len(c[0]) == n]
    calls_match_eager(fn, dynamo.compile(fn, backend=backend), calls, [], fn.__name__)


# 3.13+: a chain of data is kept only inside a loop node's body (size_chains._chain_flag:
# elsewhere its ``if`` could break at a jump that takes a NumPy bool as true), and a
# loop node's first trip is traced unrolled, outside it: the first link breaks there
@pytest.mark.xfail(JUMPS_TEST_EXACT_BOOLS, strict=True,
                   reason="3.13+: chains of data outside a loop node's body break")
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("fn", "n"), _PROGRAMS)
def test_a_chained_comparison_of_data_is_one_select(fn, n, backend):
    calls = [c for c in _CALLS if len(c[0]) == n]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = dynamo.explain(fn, backend=backend)(*copy.deepcopy(calls[0]))
    assert (report.graph_count, report.graph_break_count) == (1, 0), report


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_right_link_that_computes_keeps_the_break(backend):
    calls = _CALLS[:2]
    compiled = dynamo.compile(right_link_computes, backend=backend)
    calls_match_eager(right_link_computes, compiled, calls, [], "right_link_computes")
    report = dynamo.explain(right_link_computes, backend=backend)(*copy.deepcopy(calls[0]))
    assert report.graph_break_count >= 1

