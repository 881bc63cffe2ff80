"""On ``auto`` with Numba the entry trial waits while its function's graphs are still
counting, compiling or racing their native tiers (dynamo/entry_wait.py,
dynamo/tier_reports.py; issue #15): timed earlier, the compiled way was tier 1, and a
plain way chosen then kept tier 2 from ever getting hot. The suite runs with the trial
off (tests/conftest.py); these tests turn it on."""

from __future__ import annotations

import doctest
import logging
import os
import sys
import threading
import traceback

import numpy as np
import pytest

import dynamo
from dynamo import entry_trial, entry_wait, tier_reports
from dynamo.entry_trial import COMPILED, PLAIN, EntrySlots, EntryTrial


@pytest.fixture(autouse=True)
def _trial_on(monkeypatch):
    monkeypatch.setattr(dynamo.config, "entry_trial_calls", 2)
    monkeypatch.setattr(entry_trial, "SPEND", 0.0)   # (the tests count calls)


def scripted(script: list, settled_cost: float, pending_cost: float, plain_cost: float):
    """Waiting slots whose compiled way reports what ``script`` says for its n-th call
    (``"counting"``, ``"busy"``, None: settled; past its end: settled), as the native
    tier does, and "takes" ``pending_cost`` on a call that reported (tier 1) or
    ``settled_cost`` (tier 2); the plain way takes ``plain_cost``. ``ran``: the ways
    called, in order."""
    now, ran = [0.0], []

    def compiled(x):
        report = script[len([w for w in ran if w == COMPILED])] \
            if len([w for w in ran if w == COMPILED]) < len(script) else None
        ran.append(COMPILED)
        if report is not None:
            getattr(tier_reports, report)()
        now[0] += settled_cost if report is None else pending_cost
        return x

    def plain(x):
        ran.append(PLAIN)
        now[0] += plain_cost
        return x
    slots = EntrySlots(None, compiled, plain, "f", 2, clock=lambda: now[0], spend=0.0,
                       waits=True)
    return slots, ran


def test_the_trial_waits_until_the_tiers_settle_and_then_keeps_tier_2():
    # tier 1 (30 us) while counting and compiling, tier 2 (1 us) after the race; plain
    # 5 us: timed early, plain would win (6x); after the wait, compiled does
    slots, ran = scripted(["counting"] * 3 + ["busy"] * 5, 1e-6, 30e-6, 5e-6)
    waiting = slots.current
    for i in range(8):
        assert slots.current(i) == i
        assert slots.current is waiting      # (calls 1-8 reported)
    slots.current(8)                         # nothing reported: the trial starts
    assert isinstance(slots.current, EntryTrial) and slots.current is slots.trial
    while slots.trial.way is None:
        slots.current(0)
    assert ran[:9] == [COMPILED] * 9         # no plain call while it waited
    assert slots.trial.way == COMPILED and slots.current is slots.compiled
    assert slots.trial.best[COMPILED] == pytest.approx(1e-6)


def test_busy_tiers_are_waited_out_counting_ones_only_so_long(monkeypatch):
    monkeypatch.setattr(dynamo.config, "native_after_calls", 2)
    bound = entry_wait.WAITS * 2
    slots, ran = scripted(["busy"] * 100, 1e-6, 1e-6, 1e-6)
    waiting = slots.current
    for i in range(100):   # a compile of seconds: as many calls as it takes
        slots.current(i)
    assert slots.current is waiting
    # a graph that never gets hot: ``bound`` counting calls, then the trial
    slots, ran = scripted(["counting"] * 1000, 3e-6, 30e-6, 5e-6)
    for i in range(bound - 1):
        slots.current(i)
    assert slots.current is not slots.trial
    slots.current(0)
    assert slots.current is slots.trial and not slots.waits
    while slots.trial.way is None:   # timed in tier 1, reporting: no wait again
        slots.current(0)
    assert slots.trial.way == PLAIN and len(ran) < bound + 12


def test_a_timed_compiled_call_that_reports_waits_again():
    # settled from the first call; the first probe reports (a new layout compiling)
    script = [None, "busy", "busy", None]
    slots, ran = scripted(script, 1e-6, 30e-6, 5e-6)
    slots.current(0)                         # nothing reported: the trial starts
    first = slots.trial
    slots.current(0)                         # untimed compiled call of the trial
    slots.current(0)                         # a timed probe reports: wait again
    assert slots.trial is not first and slots.current is slots._waiting
    assert first.timed == {COMPILED: 0, PLAIN: 0}
    while slots.trial.way is None:
        slots.current(0)
    assert slots.trial.way == COMPILED and PLAIN not in ran[:5]


def test_a_function_that_calls_itself_while_it_waits_runs_compiled():
    depth = []

    def compiled(k):
        tier_reports.busy()
        if k == 0:
            frame, n = sys._getframe(), 0
            while frame is not None:
                n, frame = n + 1, frame.f_back
            depth.append(n)
            return 0
        return slots.current(k - 1) + 1
    slots = EntrySlots(None, compiled, compiled, "f", 2, spend=0.0, waits=True)
    assert slots.current(5) == 5
    assert slots.trial.way == COMPILED and slots.current is slots.compiled
    assert slots.current(5) == 5
    assert depth[1] == depth[0] - 2   # (the first call: two waits, then compiled)


def test_threads_while_it_waits_get_their_results_and_one_trial():
    slots, ran = scripted(["busy"] * 40, 1e-6, 30e-6, 5e-6)
    errors = []

    def worker(k):
        try:
            for i in range(30):
                assert slots.current(k * 100 + i) == k * 100 + i
        except BaseException as e:   # noqa: BLE001 (reported below)
            errors.append(e)
    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and slots.trial.way is not None


def raises(x):
    return x[10]


def test_an_exception_while_it_waits_leaves_as_from_plain_python():
    f = dynamo.compile(raises)
    slots = entry_trial._ALL[f]
    assert f._call is slots._waiting
    with pytest.raises(IndexError) as info:
        f(np.ones(3))
    frames = traceback.extract_tb(info.value.__traceback__)
    ours = (os.path.dirname(dynamo.__file__), "<dynamo")
    assert [fr.filename for fr in frames if fr.filename.startswith(ours)] == []
    assert frames[-1].name == "raises"
    assert f._call is slots.trial   # (it reported nothing: the trial starts)


def test_docstring_examples():
    assert doctest.testmod(entry_wait).failed == 0
    from dynamo import tier_reports as module
    assert doctest.testmod(module).failed == 0


def test_auto_with_numba_waits_for_a_real_tier_2_then_tries_both_ways(caplog):
    pytest.importorskip("numba")
    from dynamo.backends.native.tier import Tiered

    def step(x, y):
        return x * 2.0 + y
    f = dynamo.compile(step, options={"after_calls": 2, "background": False,
                                      "cache": False})
    slots = entry_trial._ALL[f]
    assert slots.waits and f._call is slots._waiting
    x = np.arange(6.0)
    np.testing.assert_array_equal(f(x, 1.0), step(x, 1.0))
    entry, = [e for c in f._ctx.caches.values() for e in c.entries]
    tiered, = [v for v in entry.run.__globals__.values() if isinstance(v, Tiered)]
    with caplog.at_level(logging.DEBUG, logger="dynamo.backend"):
        for i in range(60):
            settled = tiered.state not in ("counting", "compiling", "trial")
            np.testing.assert_array_equal(f(x + i, 1.0), step(x + i, 1.0))
            if not settled:   # a call that ran an unsettled graph: still waiting
                assert f._call is slots._waiting, (i, tiered.state)
    assert tiered.state in ("native", "tier1") and slots.trial.way is not None
    said = [r.getMessage() for r in caplog.records if "its calls run" in r.getMessage()]
    assert len(said) == 1 and said[0].startswith(f"{step.__qualname__}: its calls run ")
    dynamo.reset()   # a new trial, which waits again
    assert f._call is slots._waiting


def test_auto_without_numba_does_not_wait(monkeypatch):
    monkeypatch.setitem(sys.modules, "numba", None)   # blocked: auto runs numpy
    f = dynamo.compile(lambda x: x + 1.0)
    slots = entry_trial._ALL[f]
    assert not slots.waits and f._call is slots.trial


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))
