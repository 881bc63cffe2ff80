"""The trial's order of calls (``backends/native/race.py``, ``next_label``): which
candidate the next trial call runs, when the trial is complete, and the early end of a
parallel kernel's all-threads calls once they are hopeless (on busy cores they wait
for a core: 165-178 ms against 1-16 ms for the others, Jacobi 500x500 at load 3-4).

Pure functions of the timed calls: no Numba needed.
"""

from __future__ import annotations

from dynamo.backends.native.race import HOPELESS, WAIT, choose, next_label

ms = 1e-3


def test_the_candidate_run_least_goes_next_and_the_trial_ends_at_trial_calls_each():
    times = {"native": [], "tier1": []}
    order = []
    while (label := next_label(times, 3)) is not None:
        order.append(label)
        times[label].append((1 * ms, 1 * ms))
    assert order == ["native", "tier1"] * 3


def test_a_hopeless_all_threads_candidate_gets_no_more_calls():
    """Jacobi at load 3-4: the first call on two threads took 170 ms, the one-thread
    call 1.1: the rest of the trial runs tier 1 and one thread only, and it ends when
    those two have their calls (the all-threads one keeps its single call)."""
    times = {"native": [(170 * ms, 1.0 * ms)], "tier1": [(13 * ms, 13 * ms)],
             "native1": [(1.1 * ms, 1.1 * ms)]}
    order = []
    while (label := next_label(times, 3)) is not None:
        order.append(label)
        times[label].append({"tier1": (13 * ms, 13 * ms),
                             "native1": (1.0 * ms, 1.0 * ms)}[label])
    assert order == ["tier1", "native1", "tier1", "native1"]
    assert len(times["native"]) == 1
    # the choice is the one-thread kernel's
    assert choose(times, parallel=True) == ("native", 1)


def test_all_threads_stay_in_the_trial_unless_slower_than_the_bound():
    """Two threads at most ``HOPELESS`` times slower than one (a quiet machine: 0.45
    against 0.8 ms; or a slow first call) keep their trial calls; so does the
    all-threads candidate before any one-thread call, and a kernel raced without a
    one-thread candidate (serial: ``native`` against ``tier1`` only)."""
    near = {"native": [(HOPELESS * 0.99 * ms, 1 * ms)], "tier1": [(2 * ms, 2 * ms)],
            "native1": [(1 * ms, 1 * ms)]}
    assert next_label(near, 3) == "native"
    first = {"native": [(500 * ms, 1 * ms)], "tier1": [], "native1": []}
    assert next_label(first, 3) == "tier1"
    first["tier1"].append((2 * ms, 2 * ms))
    assert next_label(first, 3) == "native1"
    serial = {"native": [(500 * ms, 500 * ms)], "tier1": [(2 * ms, 2 * ms)]}
    assert next_label(serial, 3) == "native"


def test_the_trial_waits_for_the_one_thread_twin_then_races_it():
    """While the twin (one_thread.py) compiles, no candidate is timed (``WAIT``: tier
    1 answers); a complete trial is complete whether or not it waits. Then the twin,
    fastest (FIR 31 taps x 200,000: twin 1.2 ms, tier 1 2.2, all threads 2.5), wins
    one thread."""
    times = {"native": [], "tier1": [], "native1": []}
    assert next_label(times, 3, waiting=True) == WAIT
    order = []
    while (label := next_label(times, 3)) is not None:
        order.append(label)
        times[label].append({"native": (2.5 * ms, 2.6 * ms), "tier1": (2.2 * ms, 2.2 * ms),
                             "native1": (1.2 * ms, 1.2 * ms)}[label])
    assert sorted(order) == ["native"] * 3 + ["native1"] * 3 + ["tier1"] * 3
    assert next_label(times, 3, waiting=True) is None
    assert choose(times, parallel=True) == ("native", 1)
