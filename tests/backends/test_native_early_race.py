"""The race of a new process's tiers while the one-thread twin compiles in a child
process (``backends/native/race.py`` ``early_label``, ``Tiered._twin_in_child``).

A process with an empty disk cache compiles its parallel kernel, then the kernel's
twin (one_thread.py); the race timed nothing until the twin was there (12-25 s
after the kernel at load 9-23, Jacobi 500x500, 2026-12-07), tier 1 answering. With the disk cache the twin
compiles in a child process, off this process's GIL, so the parallel kernel on all
threads, the parallel kernel on one thread (what one thread runs until the twin is
there) and tier 1 are raced meanwhile: a tier 2 that beats tier 1 ends the race at once
(the thread count is checked again once the twin is there, threads.py); one that loses
waits for the twin, whose calls decide, as before.

The pure function first (no Numba), then one ``Tiered`` whose twin is held
"compiling" (``twin.started`` set before its compile: its calls never come), with
made-up race times beside its real calls, so the outcome does not depend on the load.
"""

from __future__ import annotations

import logging

import numpy as np
import pytest
from dynamo.backends.native.race import (
    EARLY_ONE,
    WAIT,
    choose,
    early_label,
    next_label,
    one_thread_calls,
)

ms = 1e-3


def test_while_the_twin_compiles_the_others_are_raced_and_a_win_ends_the_race():
    """Before: ``WAIT`` (tier 1 untimed) until the twin was compiled. Now the parallel
    kernel on all threads, on one thread (``EARLY_ONE``: what one thread runs until
    the twin is there) and tier 1 take turns, and a win of tier 2 ends the race."""
    times = {"native": [], "tier1": [], "native1": []}
    assert next_label(times, 3, waiting=True) == WAIT          # (in this process: as before)
    call = {"native": (40 * ms, 3 * ms), EARLY_ONE: (4 * ms, 4 * ms), "tier1": (9 * ms, 9 * ms)}
    order = []
    while (label := next_label(times, 3, waiting=True, early=True)) is not None:
        assert label != WAIT, order
        order.append(label)
        times.setdefault(label, []).append(call[label])
    # (all threads hopeless after its first call: 40 ms against 4 on one thread)
    assert order == ["native", EARLY_ONE, "tier1"] + [EARLY_ONE, "tier1"] * 2
    assert times["native1"] == []
    assert choose(times, parallel=True) == ("native", 1)      # (one thread, for now)


def test_a_win_on_all_threads_ends_the_race_too():
    times = {"native": [(2 * ms, 3 * ms)] * 3, "tier1": [(9 * ms, 9 * ms)] * 3,
             EARLY_ONE: [(4 * ms, 4 * ms)] * 3, "native1": []}
    assert early_label(times, 3) is None
    assert choose(times, parallel=True) == ("native", None)


def test_a_loss_waits_for_the_twin_whose_calls_decide():
    """Tier 1 faster than the parallel kernel on all threads and on one (busy cores):
    the twin may still beat it, so the race waits for it, then times it only (the
    others' calls are kept, the early one-thread calls left out), and the twin wins
    one thread."""
    call = {"native": (40 * ms, 2 * ms), "tier1": (9 * ms, 9 * ms),
            EARLY_ONE: (12 * ms, 12 * ms), "native1": (3 * ms, 3 * ms)}
    times = {"native": [], "tier1": [], "native1": []}
    while (label := next_label(times, 3, waiting=True, early=True)) != WAIT:
        times.setdefault(label, []).append(call[label])
    assert len(times["tier1"]) == len(times[EARLY_ONE]) == 3
    assert choose(times, parallel=True)[0] == "tier1"
    order = []
    while (label := next_label(times, 3)) is not None:   # (the twin is compiled)
        order.append(label)
        times[label].append(call[label])
    assert order == ["native1"] * 3
    assert one_thread_calls(times) == [call["native1"]] * 3
    assert choose(times, parallel=True) == ("native", 1)


def test_without_a_one_thread_candidate_nothing_is_raced_early():
    """Where Numba has one thread (no ``native1``), tier 2's calls run the twin itself:
    the race waits for it, as before."""
    times = {"native": [], "tier1": []}
    assert next_label(times, 3, waiting=True, early=True) == WAIT


def _stencil(a):
    return 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:]) * 1.5


def _tier_in_trial(tmp_path, seed: int):
    """``(compiled _stencil, its Tiered, an input, eager's result)``: compiled in a child
    process with the disk cache, its twin held "compiling", the first call made and the
    kernel ready (the trial is next); skips where Numba has one thread."""
    numba = pytest.importorskip("numba")
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("one Numba thread: no one-thread candidate to wait for")
    from dynamo.backends.native.backend import native_backend

    import dynamo
    made = []

    def backend(graph, example_inputs):
        tier = native_backend(graph, example_inputs, options={
            "after_calls": 1, "background": True, "prefer": "measure", "cache": True,
            "cache_dir": str(tmp_path)})
        tier.twin.started = True   # a twin whose compile never ends (its child process)
        made.append(tier)
        return tier
    dynamo.reset()
    c = dynamo.compile(_stencil, backend=backend)
    a = np.random.default_rng(seed).random((300, 300))   # (parallel from 16,384 elements)
    want = _stencil(a)
    np.testing.assert_array_equal(c(a), want, strict=True)
    tier = made[0]
    assert tier.wait(120) and tier.error is None and tier.kernel.parallel
    if "native1" not in tier._times:
        pytest.skip("Numba runs one thread here")
    assert tier.state == "trial" and tier.twin.compiling()
    return c, tier, a, want


def test_a_tier_decides_on_all_threads_before_its_twin_is_compiled(tmp_path, caplog):
    """A parallel kernel compiled in a child process (the disk cache, in the
    background), its twin still compiling: the trial's calls race all threads and
    tier 1, and the race ends on all threads; tier 2 answers, eager's values. Fails
    without ``early_label``: every trial call waits (tier 1 answers untimed) and the
    state stays ``trial``."""
    caplog.set_level(logging.INFO, logger="dynamo.backend")
    c, tier, a, want = _tier_in_trial(tmp_path, 5)
    # made-up times: two fast all-threads calls, three slow tier-1 calls; the next call
    # is the third all-threads one, which completes the early race
    tier._times["native"] += [(1e-6, 1e-6)] * 2
    tier._times["tier1"] += [(10.0, 10.0)] * 3
    tier._times[EARLY_ONE] = [(1e-5, 1e-5)] * 3
    np.testing.assert_array_equal(c(a), want, strict=True)
    assert tier.state == "native" and tier.winner == "native" and tier.threads is None
    assert tier.twin.dispatcher is None and tier.thread_choice is not None
    assert any("runs in tier 2 (Numba)" in r.getMessage() and "on all threads; 0.010 ms "
               "on one thread (the parallel kernel)" in r.getMessage() for r in caplog.records)
    calls = tier.native_calls
    np.testing.assert_array_equal(c(a), want, strict=True)
    assert tier.native_calls == calls + 1


def test_a_tier_that_loses_on_all_threads_waits_for_its_twin(tmp_path):
    """The same tier with tier 1 faster than tier 2 on all threads and on one: the race
    goes on, and the next calls wait for the twin (tier 1 answers them untimed)."""
    c, tier, a, want = _tier_in_trial(tmp_path, 6)
    # made-up times: three slow all-threads calls, two fast tier-1 calls; the next
    # call is the third tier-1 one, which completes the early race: a loss
    tier._times["native"] += [(10.0, 10.0)] * 3
    tier._times[EARLY_ONE] = [(10.0, 10.0)] * 3
    tier._times["tier1"] += [(1e-6, 1e-6)] * 2
    for _ in range(3):
        np.testing.assert_array_equal(c(a), want, strict=True)
    assert tier.state == "trial" and len(tier._times["native"]) == 3
    assert len(tier._times["tier1"]) == 3 and tier._times["native1"] == []
