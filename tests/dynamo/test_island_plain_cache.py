"""An island's ``intercept`` answers "plain" for the helper it last found to run plain
with one weak reference's call (``IslandMemo.last``), not ``id`` and a look-up in
``IslandMemo.plain``: RK45's loop calls ``van_der_pol`` seven times a trip (issue #15,
dynamo/break_calls.py). Another function, one rebound in its place, or a trial that
times the ways again still takes the full path."""

from __future__ import annotations

import numpy as np
from harness import same
from test_island_call_cost import calls_of

import dynamo
from dynamo import callee_trial


def small(x):
    return x * 2.0 - 1.0


def other(x):
    return x * 3.0 + 1.0


def loop_small(y, trips):
    s = 0.0
    while float(y[0]) < trips:   # reads array data: the loop runs as Python
        s = s + small(y[1])
        y = y + 1.0
    return y, s


def test_a_helper_decided_plain_is_answered_without_a_look_up():
    f = dynamo.compile(loop_small, backend="numpy")
    same(f(np.array([0.0, 0.5]), 60), loop_small(np.array([0.0, 0.5]), 60))
    # decided plain (the trial's timed calls): the next 60 trips ask ``intercept``
    # 60 times, and none of them calls ``id`` (the memo's key) or a dict's ``get``
    assert calls_of(f, {"intercept"}, np.array([0.0, 0.5]), 60) >= 60
    assert calls_of(f, {"id", "get"}, np.array([0.0, 0.5]), 60) <= 2


def test_a_helper_rebound_between_calls_runs_the_new_function():
    global small
    f = dynamo.compile(loop_small, backend="numpy")
    first = small
    try:
        for helper in (first, other, first, other):
            small = helper
            for _ in range(2):
                same(f(np.array([0.0, 0.5]), 40), loop_small(np.array([0.0, 0.5]), 40))
    finally:
        small = first


def test_a_recheck_times_both_ways_again(monkeypatch):
    monkeypatch.setattr(callee_trial, "RECHECK", 5)
    f = dynamo.compile(loop_small, backend="numpy")
    for _ in range(4):   # (each call: 30 trips, a recheck every 5 calls of ``small``)
        same(f(np.array([0.0, 0.5]), 30), loop_small(np.array([0.0, 0.5]), 30))
