"""The trial's choice between tier 1 and tier 2 (``Tiered._trial``), as a pure function
of the calls it timed.

Each trial call is timed twice: wall time (``time.perf_counter``: what the caller
waits) and the process's CPU time (``time.process_time``: what the call computed). On
a machine whose cores other processes share, a call's wall time counts the time it
waited for a core: at load 10 on 2 cores a 150 ms call is preempted many times, and
best-of-3 by wall time picked a tier 2 that took 21 ms of CPU against tier 1's 15.5
(softmax 10000x1000 float32; it answered in 40 ms, tier 1 in 27). Its CPU time does not
count the waiting. So tier 2 replaces tier 1 only when it is faster by both clocks,
except a parallel kernel on Numba's threads: it wins by using more cores, which only
wall time shows (and the process's CPU time may not count its workers' share). (The
process's CPU time also counts its other threads, a compile of another graph in the
background: that only adds, and the best of the calls leaves most of it out.)

Between a parallel kernel on all threads (``native``) and on one (``native1``), wall
time decides, as before: the threads of a parallel loop wait for each other at its
end when the cores are busy (Jacobi 500x500 took 503 ms on 2 threads, 0.94 on one, at
load 9).

A parallel kernel's calls on all threads stop early (``next_label``): once the best of
them took more than ``HOPELESS`` (4) times the best one-thread call, the trial runs no
more of them and picks from the others. At load 3-4 on 2 cores such a call took 165-178 ms
against 1-16 ms for the one-thread and tier-1 calls (Jacobi 500x500, 2026-12-04 22:34):
two more of them cost a new process's first 60 calls more than the second call's wait
for the disk cache (docs/native.md, "Disk cache"). The count is checked again while
tier 2 runs (``threads.py``), so an early drop that was wrong is undone there.

A parallel kernel's one-thread candidate is its twin (one_thread.py: the source compiled
without ``parallel=True``), the kernel that runs once one thread is kept: the trial's
calls wait for its compile (``next_label`` answers ``WAIT``: tier 1 answers, untimed),
then time it. Timed as the parallel kernel on one thread (a ``prange`` entering Numba's
parallel runtime), FIR 31 taps x 200,000 took about 3 times its twin's 1.2 ms and lost
to tier 1's 2.2 ms. Where the twin compiles in a child process (the disk cache), off
this process's GIL, the others are raced meanwhile (``early_label``: all threads, the
parallel kernel on one thread, tier 1), and a tier 2 that wins ends the race without
the twin (a new process waited 12-25 s for it at load, 2026-12-07). The trial is a
small state machine::

    WAIT (the twin compiles) --> next_label's candidates, in turn --> None: choose()
    early (its child compiles) --> tier 2 won: None; lost: WAIT, then the twin's calls

Example::

    >>> next_label({"native": [], "tier1": [], "native1": []}, 3, waiting=True)
    'wait'
    >>> next_label({"native": [(0.170, 0.001)], "tier1": [(0.013, 0.013)],
    ...             "native1": [(0.001, 0.001)]}, trial_calls=3)
    'tier1'
    >>> choose({"native": [(0.010, 0.004)], "tier1": [(0.012, 0.003)]}, parallel=False)
    ('tier1', None)
    >>> choose({"native": [(0.002, 0.002)], "tier1": [(0.012, 0.011)]}, parallel=False)
    ('native', None)
"""

from __future__ import annotations

import math

# A parallel kernel's all-threads call slower than this many times its best one-thread
# call ends its part of the trial (``next_label``): two threads are at best about twice
# as fast as one, so a call 4 times slower waited for a core.
HOPELESS = 4.0
# ``next_label``'s answer while a candidate's kernel compiles: tier 1 answers the call,
# which the race does not time.
WAIT = "wait"
# The label of a parallel kernel's one-thread calls while its twin compiles in a child
# process (``early_label``): the parallel kernel itself on one thread.
EARLY_ONE = "native1_early"


def best(calls: list) -> tuple[float, float]:
    """The least wall time and the least CPU time among ``calls`` ((wall, cpu) pairs)."""
    return min(c[0] for c in calls), min(c[1] for c in calls)


def choose(times: dict, parallel: bool) -> tuple[str, int | None]:
    """``(winner, threads)``: ``"native"`` or ``"tier1"``, and the thread count tier 2
    keeps (None: Numba's, 1: one thread). ``times`` maps ``"native"``, ``"tier1"`` and,
    for a parallel kernel raced on one thread too, ``"native1"`` to (wall, cpu) pairs;
    ``parallel``: the ``"native"`` calls ran on several threads."""
    wall = {k: best(v) for k, v in times.items() if v}
    calls = one_thread_calls(times)
    one = best(calls) if calls else (math.inf, math.inf)
    threads = 1 if one[0] < wall["native"][0] else None
    t2 = one if threads == 1 else wall["native"]
    t1 = wall["tier1"]
    on_threads = parallel and threads is None
    wins = t2[0] < t1[0] and (on_threads or t2[1] < t1[1])
    return ("native" if wins else "tier1"), threads


def next_label(times: dict, trial_calls: int, waiting: bool = False,
               early: bool = False) -> str | None:
    """Which candidate the trial's next call runs (the one run least so far, in the
    order of ``times``), or None when every candidate has ``trial_calls`` calls, or
    ``WAIT`` while ``waiting`` (the one-thread twin compiles) and calls remain. The
    all-threads candidate (``"native"`` where ``"native1"`` is raced too) drops out
    once its best wall time is more than ``HOPELESS`` times the one-thread best: only
    a call over 4 times faster than its best so far could still win it the thread
    count (``choose`` takes the faster by wall time), and its calls are the trial's
    slowest (hundreds of ms at load; ``threads.py`` checks the count again later).

    ``early`` (with ``waiting``): the twin compiles off this process's GIL (in a child
    process), so the candidates that do not need it are raced meanwhile
    (``early_label``); a tier 2 that beats tier 1 ends the race at once (None),
    without waiting for the twin (35 s at load for a new process's compile,
    2026-12-07); one that loses waits for the twin, whose calls then decide, as
    before. ``EARLY_ONE``'s calls are no candidate here."""
    if waiting and early and "native1" in times:
        return early_label(times, trial_calls)
    times = {k: v for k, v in times.items() if k != EARLY_ONE}
    racing = [k for k in times if not (k == "native" and _hopeless(times))]
    label = min(racing, key=lambda k: len(times[k]))
    if len(times[label]) >= trial_calls:
        return None
    return WAIT if waiting else label


def early_label(times: dict, trial_calls: int) -> str | None:
    """``next_label`` while the twin compiles in a child process: the parallel kernel
    on all threads (``"native"``), on one thread (``EARLY_ONE``: the kernel the twin
    will replace, which it runs until then, so a win on it is a win of tier 2 on one
    thread) and tier 1, the one run least so far (all threads dropped once hopeless),
    until each has ``trial_calls`` calls; then None where tier 2 won (``choose``: one
    thread by both clocks, all threads by wall time; the count is checked again once
    the twin is there, threads.py), else ``WAIT``: the twin may still beat tier 1, and
    its calls (``"native1"``) decide, the early one-thread calls left out.

    Example::

        >>> early_label({"native": [(0.002, 0.004)] * 3, "tier1": [(0.009, 0.009)] * 3,
        ...              EARLY_ONE: [(0.003, 0.003)] * 3, "native1": []}, 3)   # (None)
        >>> early_label({"native": [(0.020, 0.04)] * 3, "tier1": [(0.009, 0.009)] * 3,
        ...              EARLY_ONE: [(0.011, 0.011)] * 3, "native1": []}, 3)
        'wait'
    """
    early = {"native": times["native"], "native1": times.get(EARLY_ONE, []),
             "tier1": times["tier1"]}
    racing = [k for k in early if not (k == "native" and _hopeless(early))]
    label = min(racing, key=lambda k: len(early[k]))
    if len(early[label]) < trial_calls:
        return EARLY_ONE if label == "native1" else label
    return None if choose(early, parallel=True)[0] == "native" else WAIT


def one_thread_calls(times: dict) -> list:
    """The race's one-thread calls: the twin's (``"native1"``), else, where the race
    ended before the twin was there (``early_label``), the parallel kernel's."""
    return times.get("native1") or times.get(EARLY_ONE) or []


def _hopeless(times: dict) -> bool:
    one, every = times.get("native1"), times.get("native")
    return bool(one) and bool(every) and \
        min(c[0] for c in every) > HOPELESS * min(c[0] for c in one)
