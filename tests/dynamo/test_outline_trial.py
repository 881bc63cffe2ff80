"""The trial of an outlined loop (dynamo/outline_trial.py): a loop whose body breaks
runs outlined and as plain Python on the frame's first calls, CPU time of each call
measured, and the faster stays; the ``loops`` log says which won and the two times.

The clock is injected (``OutlineTrial.clock``) and each way charged a fixed cost, so
which way wins is decided by the test, never by the machine's load; the results are
compared with plain Python's on every call, whichever way ran it."""

from __future__ import annotations

import logging

import numpy as np
import pytest

import dynamo
from dynamo.config import config
from dynamo.outline_trial import OUTLINED, PLAIN, OutlineTrial, choose, complete, next_way


def per_element(x, hi, hits):
    for i in range(x.shape[0]):
        if x[i] > hi:           # the append under a data condition breaks the graph
            hits.append(i)
            x[i] = hi
    return x


def time_steps(u, log):
    for t in range(20):
        u = 0.5 * (np.roll(u, 1) + np.roll(u, -1)) + 0.01
        if u[0] > 0.3:          # data-dependent: breaks on every trip
            log.append(t)
    return u


# ------------------------------------------------------------------- the pure choice
def test_the_trial_alternates_the_ways_starting_with_the_first():
    times = {OUTLINED: [], PLAIN: []}
    order = []
    for spent in [None, None, 0.2, 0.1, 0.2, 0.1]:
        way = next_way(times, PLAIN)
        order.append(way)
        times[way].append(spent)
    assert order == [PLAIN, OUTLINED] * 3
    assert complete(times, 2) and not complete(times, 3)
    assert choose(times, PLAIN) == OUTLINED


def test_a_tie_keeps_the_first_way_and_a_hopeless_way_ends_the_trial():
    assert choose({OUTLINED: [None, 0.1], PLAIN: [None, 0.1]}, OUTLINED) == OUTLINED
    assert choose({OUTLINED: [None, 0.1], PLAIN: [None, 0.1]}, PLAIN) == PLAIN
    assert complete({OUTLINED: [None, 0.41], PLAIN: [None, 0.1]}, 3)   # over 4x
    assert not complete({OUTLINED: [None, 0.39], PLAIN: [None, 0.1]}, 3)
    assert not complete({OUTLINED: [None], PLAIN: [None, 0.1]}, 1)     # (untimed)


@pytest.mark.parametrize("costs, winner", [({OUTLINED: 0.5, PLAIN: 0.125}, PLAIN),
                                           ({OUTLINED: 0.125, PLAIN: 0.25}, OUTLINED)])
def test_the_chooser_keeps_the_faster_of_two_injected_timings(costs, winner):
    now, ran, swapped = [0.0], [], []

    def way(name):
        def run(*args):
            ran.append(name)
            now[0] += costs[name]
            return args
        return run

    trial = OutlineTrial(way(OUTLINED), way(PLAIN), PLAIN, "f", calls=3,
                         clock=lambda: now[0], swap=lambda t, run: swapped.append(run))
    for i in range(8):
        assert trial(i, None) == (i, None)
    assert ran == [PLAIN, OUTLINED] * 4
    assert trial.winner == winner and trial.best == costs
    assert swapped == [trial.ways[winner]]
    trial(9, None)   # (the swap did not take: the trial runs the winner itself)
    assert ran[-1] == winner


# ------------------------------------------------------------ real programs, both ways
def _loops_log(caplog):
    return [r.getMessage() for r in caplog.records if r.name == "dynamo.loops"]


def _args(fn, x, log):
    return (x.copy(), 0.4, log) if fn is per_element else (x.copy(), log)


def _charge(run, cost, now):
    def charged(*args):
        now[0] += cost
        return run(*args)
    return charged


@pytest.mark.parametrize("fn, first", [(per_element, PLAIN), (time_steps, OUTLINED)])
@pytest.mark.parametrize("faster", [OUTLINED, PLAIN])
def test_a_real_loop_keeps_the_way_the_clock_says_with_equal_results(
        fn, first, faster, caplog, monkeypatch):
    # small arrays, outlined as if they were large: 256 trips over 256 elements run as
    # plain Python first (1 element a trip, under 128 // 64), 20 over 4096 outlined
    monkeypatch.setattr(config, "outline_min_elements", 128)
    monkeypatch.setattr(config, "outline_trial_calls", 2)
    n = 256 if fn is per_element else 4096
    x = np.random.default_rng(3).uniform(-0.5, 0.5, n)
    compiled = dynamo.compile(fn, backend="numpy")
    caplog.set_level(logging.DEBUG, logger="dynamo.loops")
    now = [0.0]
    for call in range(8):
        got_log, want_log = [], []
        want = fn(*_args(fn, x, want_log))
        got = compiled(*_args(fn, x, got_log))
        np.testing.assert_array_equal(got, want, err_msg=f"call {call + 1}")
        assert got_log == want_log, f"call {call + 1}"
        if call == 0:   # the clock injected: each way charged its cost
            trial = compiled._ctx.caches[fn.__code__].entries[0].run
            assert isinstance(trial, OutlineTrial) and trial.first == first
            trial.clock = lambda: now[0]
            for way in (OUTLINED, PLAIN):
                trial.ways[way] = _charge(trial.ways[way], 1.0 if way != faster else 0.5,
                                          now)
    assert trial.winner == faster
    # the entry runs the winner itself now (the trial is out of the dispatcher)
    assert compiled._ctx.caches[fn.__code__].entries[0].run is not trial
    lines = [m for m in _loops_log(caplog) if "ms of CPU a call outlined" in m]
    stays = "stays outlined" if faster == OUTLINED else "runs as plain Python"
    assert len(lines) == 1 and stays in lines[0], lines
    assert "500.000 ms of CPU a call outlined" in lines[0] if faster == OUTLINED else \
        "500.000 ms as plain Python" in lines[0]


def test_no_trial_leaves_the_static_rule(caplog, monkeypatch):
    """``outline_trial_calls = 0``: a loop of one trip per element is not outlined."""
    monkeypatch.setattr(config, "outline_min_elements", 128)
    monkeypatch.setattr(config, "outline_trial_calls", 0)
    caplog.set_level(logging.DEBUG, logger="dynamo.loops")
    compiled = dynamo.compile(per_element, backend="numpy")
    x = np.linspace(0.0, 1.0, 256)
    compiled(x.copy(), 0.5, [])
    assert any("loop body not outlined: its 256 trips share" in m
               for m in _loops_log(caplog)), _loops_log(caplog)
    assert not isinstance(compiled._ctx.caches[per_element.__code__].entries[0].run,
                          OutlineTrial)
