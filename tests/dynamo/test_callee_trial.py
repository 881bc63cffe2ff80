"""A loop that runs as Python calls a helper compiled or plain, whichever its timed calls
found faster (dynamo/callee_trial.py, issue #15: adaptive RK45's ``van_der_pol``)."""

from __future__ import annotations

import logging
import traceback

import numpy as np
from harness import same
from test_island_call_cost import calls_of

import dynamo
from dynamo import callee_trial
from dynamo.callee_trial import COMPILED, PLAIN, CalleeTrial


def clocked(costs: dict):
    """An injected clock and the two ways, each call of a way "taking" its cost."""
    now = [0.0]

    def way(name):
        def run(x):
            now[0] += costs[name]
            return (name, x)
        return run
    return (lambda: now[0]), way(COMPILED), way(PLAIN)


def test_the_faster_way_stays_and_every_call_runs_one_of_them():
    clock, compiled, plain = clocked({COMPILED: 0.375, PLAIN: 0.125})
    trial = CalleeTrial("f", calls=3, clock=clock)
    got = [trial.pick(compiled, plain)(i) for i in range(10)]
    # untimed compiled, untimed plain, then alternating timed calls, 3 of each
    assert [w for w, _ in got[:8]] == [COMPILED, PLAIN] * 4
    assert [x for _, x in got] == list(range(10))
    assert trial.way == PLAIN and trial.best == {COMPILED: 0.375, PLAIN: 0.125}
    assert {w for w, _ in got[8:]} == {PLAIN}


def test_a_tie_keeps_the_compiled_call_and_a_hopeless_way_ends_the_trial_early():
    clock, compiled, plain = clocked({COMPILED: 0.25, PLAIN: 0.25})
    trial = CalleeTrial("f", calls=2, clock=clock)
    for i in range(6):
        trial.pick(compiled, plain)(i)
    assert trial.way == COMPILED
    clock, compiled, plain = clocked({COMPILED: 0.125, PLAIN: 1.0})   # 8x: hopeless
    trial = CalleeTrial("f", calls=5, clock=clock)
    for i in range(4):   # 2 untimed, then 1 timed call of each
        trial.pick(compiled, plain)(i)
    assert trial.way == COMPILED and trial.best == {COMPILED: 0.125, PLAIN: 1.0}


def test_the_ways_are_timed_again_after_recheck_calls(monkeypatch):
    monkeypatch.setattr(callee_trial, "RECHECK", 3)
    costs = {COMPILED: 0.375, PLAIN: 0.125}
    clock, compiled, plain = clocked(costs)
    trial = CalleeTrial("f", calls=1, clock=clock)
    for i in range(4):
        trial.pick(compiled, plain)(i)
    assert trial.way == PLAIN
    costs[COMPILED] = 0.0625   # (the inputs changed: compiled now wins)
    ran = [trial.pick(compiled, plain)(i)[0] for i in range(5)]
    # 3 decided calls, then a recheck of timed calls only (no untimed ones)
    assert ran == [PLAIN, PLAIN, PLAIN, COMPILED, PLAIN]
    assert trial.way == COMPILED
    assert CalleeTrial("f", calls=0).way == COMPILED   # no trial: always compiled


def small(x):
    return x * 2.0 - 1.0


def loop_small(y, trips):
    s = 0.0
    while float(y[0]) < trips:   # reads array data: the loop runs as Python
        s = s + small(y[1])       # ten-odd ns of work: the compiled call costs more
        y = y + 1.0
    return y, s


def test_a_helper_of_two_scalar_ops_runs_plain_after_the_trial(caplog):
    f = dynamo.compile(loop_small, backend="numpy")
    with caplog.at_level(logging.DEBUG, logger="dynamo.backend"):
        got = f(np.array([0.0, 0.5]), 60)
    same(got, loop_small(np.array([0.0, 0.5]), 60))
    assert type(got[1]) is type(loop_small(np.array([0.0, 0.5]), 60)[1])
    said = [r.getMessage() for r in caplog.records if "runs as Python calls it" in r.getMessage()]
    assert said and said[-1].startswith("small: a loop that runs as Python calls it plain")
    # decided: the next call's 60 trips dispatch no compiled call of ``small`` (the
    # first trip's call enters through the hook)
    assert calls_of(f, {"___dispatch"}, np.array([0.0, 0.5]), 60) <= 2


def raises_at(x):
    if x > 2.0:
        raise ValueError(f"too big: {x}")
    return x * 2.0


def loop_raising(y, trips):
    seen = []
    while float(y[0]) < trips:
        try:
            raises_at(y[0])
        except ValueError as e:
            seen.append((str(e), [fs.name for fs in traceback.extract_tb(e.__traceback__)]))
        y = y + 1.0
    return y, seen


def test_an_exception_of_a_timed_call_shows_plain_pythons_traceback():
    f = dynamo.compile(loop_raising, backend="eager")
    got, want = f(np.zeros(2), 30), loop_raising(np.zeros(2), 30)
    same(got[0], want[0])
    assert got[1] == want[1] and len(got[1]) == 27   # (trial and decided calls alike)
