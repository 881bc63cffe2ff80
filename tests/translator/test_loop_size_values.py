"""Sizes the data decides, read as numbers inside a loop node's body (issue #19).

``max(len(kept), 1)``, ``len(kept) // 2`` and ``len(kept) > 1`` of a data-dependent
size are values the graph computes (``variables/size_values.py``: a ``sym_int`` or a
``sym_truth`` node). In a long ``for`` loop's body they are the body's nodes, computed
on every trip, so the loop stays one loop node (before, the body refused them and the
loop was unrolled: past ``config.max_unroll`` a break). An int the body computed that
a local still holds after the loop is no value the graph after the loop has: that loop
is unrolled, as before (``LoopScope._forget_body_sizes``, ``_check_sizes_left``).

Each program runs plain and compiled on both CPU backends over five calls of
different data and trip counts (``test_loop_data_sizes.agree``: results, types,
arguments afterwards, warnings, printout).

    for t in range(T):                       # one fori_loop node
        s = s + x / max(len(kept), 1)        # ui0 = max(u0, 1): a node of the body
"""

from __future__ import annotations

import numpy as np
import pytest
from test_loop_data_sizes import BACKENDS, _loops, _ops, _x, agree


def _vec(seed: int, T: int):
    return (_x(seed), T)


def divided_by_an_outer_count(x, T):
    kept = x[x > 0.5]
    s = np.zeros_like(x)
    for t in range(T):
        s = s + x / max(len(kept), 1)
    return s


def scaled_by_a_comparison_of_counts(x, T):
    kept = x[x > 0.2]
    s = np.zeros_like(x)
    for t in range(T):
        s = s + x * (len(kept) > 3)
    return s


def scaled_by_a_quotient_of_a_count(x, T):
    kept = x[x > 0.0]
    s = np.zeros_like(x)
    for t in range(T):
        s = s * 0.5 + x * (len(kept) // 2) + (len(kept) % 3)
    return s


def fresh_count_each_trip(x, T):
    s = np.zeros_like(x)
    for t in range(T):
        kept = x[x > s.mean()]               # a new count on every trip
        s = s + kept.sum() / max(len(kept), 1)
    return s


NODES = [(f.__name__, f, _vec) for f in (
    divided_by_an_outer_count, scaled_by_a_comparison_of_counts,
    scaled_by_a_quotient_of_a_count, fresh_count_each_trip)]


def quotient_left_after_the_loop(x, T):
    kept = x[x > 0.0]
    s = np.zeros_like(x)
    for t in range(T):
        half = len(kept) // 2          # a body node's value: unrolled, not a node
        s = s + x * half
    return s, half


def comparison_left_after_the_loop(x, T):
    s = np.zeros_like(x)
    for t in range(T):
        flag = len(x[x > s.mean()]) > 3
        s = s + x * flag
    return s, flag


REFUSED = [(f.__name__, f, _vec) for f in (
    quotient_left_after_the_loop, comparison_left_after_the_loop)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,make", NODES, ids=[p[0] for p in NODES])
def test_size_values_in_a_body_keep_the_loop_node(name, fn, make, backend):
    graphs = agree(fn, make, backend)
    assert graphs and all(_loops(g) == 1 for g in graphs), [str(g) for g in graphs]
    assert _ops(fn, make(0, 12), backend) == _ops(fn, make(0, 40), backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,make", REFUSED, ids=[p[0] for p in REFUSED])
def test_a_size_value_left_after_the_loop_is_unrolled_and_right(name, fn, make, backend):
    graphs = agree(fn, make, backend)
    assert not any(_loops(g) for g in graphs)
