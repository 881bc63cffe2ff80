"""A chained comparison of array data around a write or a count, ``if lo <= x[i] <
hi:``, is one graph bool ``(lo <= x[i]) & (x[i] < hi)`` and the ``if`` a select, no
break (issue #19, ``dynamo/translator/size_chains.py`` for 0-d bools, then
``branch_selects``). The right link is one comparison of 0-d values, run where Python
would not (the first link false): it neither raises nor writes, and a NaN that makes
it report "invalid" on some NumPy build reruns the frame (the node may raise).

Each program runs unrolled (12 elements) and as a loop node (40), NaN among the
values, on both CPU backends, every call eager's (``calls_match_eager``), with one
graph and no break, on every Python (3.13+ included). A right link that computes
more than its comparison keeps the ``if``'s break. An ``if`` on a chain that breaks
(a print in it) goes eager's way for every value, NaN, 0-d arrays and NumPy bools
included (3.13+: ``TO_BOOL`` before the jump at the break, ``bytecode/break_code.py``),
and a chain of objects calls their ``__bool__`` as often as eager.
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
from check_calls import call, calls_match_eager
from harness import same_outcome

import dynamo

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



# A chain whose ``if`` breaks at its second jump (a print in one way): 3.13+'s jump
# takes only ``True`` as true, so the break ``bool()``s the graph's NumPy bool there as
# the ``COMPARE_OP`` would have (``bytecode/break_code.py``; a NumPy bool false went the
# true way: ``0.0 <= t[0] <= 0.0`` with 0.5)
def prints_in_range(t, x, lo, hi):
    y = x * 2.0
    if lo <= t[0] <= hi:
        print("in range", t[0])
        y = y + 1.0
    return y - 1.0


def zero_d_in_range(t, x, lo, hi):
    z = t[:1].reshape(())          # (a 0-d array: its comparisons make NumPy bools)
    if lo < z < hi:
        print("in")
    return x * z


def bools_in_order(a, b, c, x):
    if a[0] <= b[0] < c[0]:        # (bool arrays: NumPy bools compared)
        print("ordered")
    return x + 1.0


def loop_breaks_at_its_first_trip(x, lo, hi):
    y = np.zeros_like(x)
    for i in range(len(x)):
        if lo <= x[i] < hi:
            print("trip", i)
            y[i] = x[i]
    return y


_T = [np.array([v]) for v in (0.5, 0.0, -0.0, np.nan, -0.5, np.inf)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_chain_that_breaks_at_its_second_jump_goes_eagers_way(backend):
    x = np.arange(3.0)
    calls = [(t, x, 0.0, 0.0) for t in _T] + [(t, x, -0.5, 0.5) for t in _T]
    compiled = dynamo.compile(prints_in_range, backend=backend)
    calls_match_eager(prints_in_range, compiled, calls, [], "prints_in_range")
    compiled = dynamo.compile(zero_d_in_range, backend=backend)
    calls_match_eager(zero_d_in_range, compiled, [(t, x, -0.5, 0.5) for t in _T], [],
                      "zero_d_in_range")
    bools = [np.array([v]) for v in (False, True)]
    compiled = dynamo.compile(bools_in_order, backend=backend)
    calls_match_eager(bools_in_order, compiled,
                      [(a, b, c, x) for a in bools for b in bools for c in bools], [],
                      "bools_in_order")
    report = dynamo.explain(prints_in_range, backend=backend)(_T[0], x, 0.0, 0.0)
    assert report.graph_break_count == 1 and "print" in str(report.break_reasons[0]), report


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_loop_that_breaks_in_a_chains_if_equals_eager(backend):
    calls = [c for c in _CALLS if len(c[0]) == 12][:1] + [(np.array([0.5, np.nan]), -1, 1)]
    compiled = dynamo.compile(loop_breaks_at_its_first_trip, backend=backend)
    calls_match_eager(loop_breaks_at_its_first_trip, compiled, calls, [],
                      "loop_breaks_at_its_first_trip")


class Truth:
    """A comparison's result whose ``bool()`` counts its calls, or raises."""

    calls = 0

    def __init__(self, value):
        self.value = value

    def __bool__(self):
        Truth.calls += 1
        if self.value is None:
            raise ValueError("no truth")
        return self.value


class Bound:
    """Compares to anything as its ``Truth``: ``lo <= Bound(...) < hi``."""

    def __init__(self, le, lt):
        self.le, self.lt = le, lt

    def __ge__(self, other):        # (``lo <= b`` is ``b.__ge__(lo)`` for a float lo)
        return Truth(self.le)

    def __lt__(self, other):
        return Truth(self.lt)


def chain_of_objects(b, x):
    y = x + 1.0
    if 0.0 <= b < 1.0:
        print("in")
        y = y * 2.0
    return y


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_chain_of_objects_calls_bool_as_often_as_eager(backend):
    x = np.arange(3.0)
    compiled = dynamo.compile(chain_of_objects, backend=backend)
    for le in (True, False, None):
        for lt in (True, False, None):
            counts = []
            for fn in (chain_of_objects, compiled):
                Truth.calls = 0
                want = call(fn, (Bound(le, lt), x))
                counts.append(Truth.calls)
                if fn is chain_of_objects:
                    eager = want
                else:
                    same_outcome(eager, want, f"{le}, {lt}")
            assert counts[0] == counts[1], (le, lt, counts)
