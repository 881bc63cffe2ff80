"""Tier 2's calls watched after the race: a running minimum of their wall times, and a
new race when tier 2 turns out slower than the race said.

The race (``race.py``) times three calls of each tier under the load of those few
calls; the load changes afterwards. Grey-level opening 400x400 (2026-12-05,
docs/benchmarks.md): tier 2 won its race, then ran 7.9 ms a call against plain NumPy's
1.85 and tier 1's 1.6, for the rest of the run: nothing looked at tier 2's times again
(the thread count's check, ``threads.py``, compares tier 2 with itself on the other
count, never with tier 1). So each tier-2 call is timed (two ``time.perf_counter()``,
about 0.1 us) and the least time of each window of ``window`` calls is compared with
``limit``: tier 1's best race call, or ``SLOWER`` times tier 2's own best, whichever is
more. Tier 1's best is the lesser of its wall and CPU times (``Tiered`` passes
``min(t1)``): tier 1 runs on the calling thread, so its CPU time is what its call takes
without the waits for a core, and a race call that waited (12.9 ms of wall time, 4.5 of
CPU, load 4.6) would let a tier 2 of 9.4 ms a call by wall time, 5.5 of CPU, pass.
A window whose fastest call is over the limit (every one of its calls was: one slow
call, a wait for a core or a thread-count check on the other count, does not count)
starts a new race of the tiers (``Tiered._race_again``) on the real inputs,
which keeps the faster as the first race does, by both clocks. Only then does tier 1
come back: a limit crossed because the whole machine got slower (tier 1 with it) is
checked against tier 1's calls now, not against its old times.

The new race's times are the next watch's limits, and a race that keeps tier 2 again
doubles the next window (at most ``MAX_WINDOW`` calls): under a load that stays, the
races' tier-1 calls cost a share of the calls between them that halves each time.
Kernels whose best race call took under ``WATCH_MIN_S`` are not watched (the two clock
reads would cost them over 0.2 %; the scalar recursion's kernel takes about 3.5 us).

Example::

    >>> w = watch_after_race(tier1_best=1.58e-3, tier2_best=0.80e-3, previous=None)
    >>> w.limit, w.window
    (0.00158, 16)
    >>> [w.record(7.9e-3) for _ in range(15)][-1], w.record(7.9e-3)   # a window slow
    (False, True)
    >>> w.record(7.9e-3), w.record(0.8e-3)   # one fast call: this window is not slow
    (False, False)
"""

from __future__ import annotations

import math

# A window of this many tier-2 calls is the first sample; a race that keeps tier 2
# again doubles it, up to ``MAX_WINDOW``.
WINDOW = 16
MAX_WINDOW = 4096
# Tier 2 is "slower than the race said" when its fastest call of a window took more
# than tier 1's best race call, and more than this many times its own best race call
# (where the two tiers' race times were close, noise alone must not start races).
SLOWER = 1.25
# Kernels faster than this (best race call, wall time) are not watched.
WATCH_MIN_S = 50e-6


class Watch:
    """The running minimum of tier 2's wall times over windows of ``window`` calls,
    against ``limit`` (seconds)."""

    def __init__(self, limit: float, window: int = WINDOW):
        self.limit, self.window = limit, window
        self.low = math.inf          # the fastest call of the current window so far
        self.left = window           # calls left in the current window
        self.slow_low = math.inf     # the fastest call of the window that was slow (logs)

    def record(self, spent: float) -> bool:
        """Count one tier-2 call's wall time; True when it ends a window whose every
        call took more than ``limit`` (the tiers are then raced again)."""
        if spent < self.low:
            self.low = spent
        self.left -= 1
        if self.left > 0:
            return False
        low, self.low, self.left = self.low, math.inf, self.window
        if low > self.limit:
            self.slow_low = low
            return True
        return False


def watch_after_race(tier1_best: float, tier2_best: float,
                     previous: Watch | None) -> Watch | None:
    """The watch of tier 2 after a race it won (tier 1's best race time, the lesser of
    its wall and CPU times; tier 2's best wall time); ``previous``: the watch that
    started this race (its window doubles), None after the first race. None for a
    kernel too fast to watch (``WATCH_MIN_S``)."""
    if tier2_best < WATCH_MIN_S:
        return None
    window = WINDOW if previous is None else min(MAX_WINDOW, 2 * previous.window)
    return Watch(max(tier1_best, SLOWER * tier2_best), window)
