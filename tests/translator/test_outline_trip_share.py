"""Which loops whose body breaks are outlined (dynamo/bytecode/outline.py): not a loop
of one trip per element or row of its largest array, whose trips each work on a few
elements (an outlined trip's dispatch costs more than that work: 30x plain Python on
a 10**5-element clamp); still a loop of few trips over a large array. With the trial
(dynamo/outline_trial.py, tests/dynamo/test_outline_trial.py) this rule only picks
the way the first calls run."""

from __future__ import annotations

import logging

import numpy as np
import pytest
from harness import check

import dynamo


def per_element(x, hi, hits):
    for i in range(x.shape[0]):
        if x[i] > hi:           # the append under a data condition breaks the graph
            hits.append(i)
            x[i] = hi
    return x


def time_steps(u):
    for t in range(20):
        u = 0.5 * (np.roll(u, 1) + np.roll(u, -1))
        print("step", t)        # a print breaks the graph on every trip
    return u


def _outline_lines(caplog, fn, *args, calls=2):
    with caplog.at_level(logging.DEBUG, logger="dynamo.loops"):
        check(fn, *args, backend="numpy", calls=calls)
    return [r.getMessage() for r in caplog.records if "outlined" in r.getMessage()]


@pytest.mark.parametrize("n", [40_000])
def test_a_loop_of_one_trip_per_element_runs_as_plain_python(caplog, monkeypatch, n):
    # (no trial: the static rule decides alone)
    monkeypatch.setattr(dynamo.config, "outline_trial_calls", 0)
    x = np.random.default_rng(1).standard_normal(n)
    lines = _outline_lines(caplog, per_element, x, 1.5, [])
    assert lines and all("not outlined" in line and f"its {n} trips share" in line
                         for line in lines), lines


def test_a_loop_of_one_trip_per_element_runs_as_plain_python_first(caplog):
    """With the trial (outline_trial.py), the static rule picks the first calls' way."""
    x = np.random.default_rng(1).standard_normal(40_000)
    lines = _outline_lines(caplog, per_element, x, 1.5, [], calls=1)
    assert lines and all("the first calls run it as plain Python (its 40000 trips share"
                         in line for line in lines), lines


def test_a_loop_of_few_trips_over_a_large_array_is_still_outlined(caplog):
    u = np.random.default_rng(2).standard_normal(40_000)
    lines = _outline_lines(caplog, time_steps, u)
    assert any("loop body outlined" in line for line in lines), lines
