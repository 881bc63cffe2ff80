"""A parallel kernel's thread count, checked again while tier 2 runs.

The trial (``Tiered._trial``, ``race.py``) picks Numba's threads or one thread under the
load of its few calls; the load changes afterwards (2026-12-03 18:07: Jacobi kept one
thread, 0.93 ms a call, where two threads took 0.495 once the other processes had
finished). So every so often two consecutive calls are timed by wall time, the first on
the kept count and the second on the other one, and the faster count stays. (A call on
one thread runs the kernel's twin compiled without ``parallel=True`` once one thread
was kept: one_thread.py.)

What a check may cost is bounded: on busy cores a parallel call on two threads can take
hundreds of times its one-thread time (Jacobi 500x500: 503 ms against 0.94 at load 9),
so a check that loses makes the wait to the next one at least ``1 / share`` times what
it lost (and at least twice the last wait): the time lost to checks stays under
``share`` (1 %) of the time between them, however slow the other count is. A check that
wins switches and checks again after ``base`` seconds. Wall time decides, as in the
trial: only wall time shows what more cores buy.

A check times ``kept_calls`` (3) calls on the kept count and takes their best, then one
call on the other count: a call's wall time only grows with the load (it waits for a
core, for the GIL), so one slow kept call must not decide: a grey-level opening's
check timed its kept count, one thread, at 19.7 ms where its calls take 0.8 at best
(2026-12-05 07:07, load 6; two threads took 0.57 there and won by wall time either
way), and any other count under 19.7 ms would have won that pair. The kept calls cost
nothing: they run anyway. A wrong switch from a noisy other call lasts until the next
check (``base`` seconds later) and is undone there.

Example::

    >>> c = ThreadChoice(1, now=0.0, base=1.0, kept_calls=2)
    >>> c.due(0.5), c.due(1.0)
    (False, True)
    >>> c.threads_for_check()            # first the kept count, timed twice
    1
    >>> c.record(1, 0.01970, now=1.0)
    >>> c.record(1, 0.00093, now=1.0)
    >>> c.threads_for_check()            # then the other one (None: Numba's threads)
    >>> c.record(None, 0.00050, now=1.001)
    >>> c.threads, c.wait
    (None, 1.0)
"""

from __future__ import annotations

import math


class ThreadChoice:
    """The thread count a parallel kernel runs on (``threads``: None for Numba's own
    count, 1 for one thread) and when to check it again."""

    def __init__(self, threads: int | None, now: float, base: float = 1.0,
                 cap: float = 600.0, share: float = 0.01, kept_calls: int = 3):
        self.threads = threads
        self.kept_calls = kept_calls
        self._kept_n = 0                  # the kept count's calls in the pending check
        self.base, self.cap, self.share = base, cap, share
        self.wait = base
        self.next_at = now + base
        self._kept: float | None = None   # the kept count's time in the pending check
        self.checks = 0                   # (tests, logs)
        self.last: tuple | None = None    # the last check's (kept, other) wall times
        self.switches = 0

    def due(self, now: float) -> bool:
        return now >= self.next_at

    def threads_for_check(self) -> int | None:
        """The count the next timed call of a due check runs on."""
        if self._kept_n < self.kept_calls:
            return self.threads
        return None if self.threads == 1 else 1

    def record(self, threads: int | None, spent: float, now: float) -> None:
        """The wall time ``spent`` by a due check's call on ``threads``."""
        if self._kept_n < self.kept_calls:   # (the kept count's best of its calls)
            self._kept = spent if self._kept is None else min(self._kept, spent)
            self._kept_n += 1
            return
        kept, self._kept, self._kept_n = self._kept, None, 0
        self.last = (kept, spent)
        self.checks += 1
        if spent < kept:
            self.threads = threads
            self.switches += 1
            self.wait = self.base
        else:
            lost = spent - kept
            self.wait = min(self.cap, max(2 * self.wait, lost / self.share))
        if not math.isfinite(self.wait):
            self.wait = self.cap
        self.next_at = now + self.wait
