"""The trial of a graph's tiers: tier 2 and tier 1 (and a parallel kernel on one thread)
in turn on the real inputs, the faster kept (race.py chooses); tier 2's calls timed
after it (watch.py), and the tiers raced again when they get slower than the race said.
A mixin of ``tier.Tiered``, whose state it reads.

Example::

    >>> tiered._trial(x, y)     # one call of the race: the one run least so far
    >>> tiered.state, tiered.winner     # after trial_calls calls of each
    ('native', 'native')
"""

from __future__ import annotations

import logging
import time

from dynamo import tier_reports

from .numba_calls import _threads_now
from .race import EARLY_ONE, WAIT, best, choose, next_label, one_thread_calls
from .threads import ThreadChoice
from .watch import Watch, watch_after_race

log = logging.getLogger("dynamo.backend")


class TrialCalls:
    """The trial's calls and the watch after it, of a ``Tiered`` graph (its ``_times``,
    ``_run``, ``state``... are ``Tiered``'s)."""

    def _watched(self, *args):
        """``_native``, timed for the watch after the race (watch.py)."""
        start = time.perf_counter()
        out = self._native(*args)
        if self.watch.record(time.perf_counter() - start):
            self._race_again()
        return out

    def watch_from_now(self, watch: Watch) -> None:
        """Time tier 2's calls against ``watch`` from the next call (a race sets its
        own, from its times; tests and a ``prefer="native"`` tier pass one)."""
        with self._lock:
            if self.state == "native":
                self.watch, self._run = watch, self._watched

    def _race_again(self) -> None:
        """Tier 2's calls got slower than the race said (watch.py): race the tiers
        again, from the next call."""
        with self._lock:
            if self.state != "native" or self._run != self._watched:
                return
            log.info("native tier: graph %s: tier 2's fastest of its last %d calls took "
                     "%.3f ms, over the %.3f ms its race allows: racing the tiers again",
                     self.name, self.watch.window, self.watch.slow_low * 1e3,
                     self.watch.limit * 1e3)
            self._times = self._new_times()
            self.thread_choice = None   # (the race times both counts again)
            self.state = "trial"
            self._run = self._trial

    def _other_count(self, times: dict) -> str:
        """The race's log line's part on the thread count tier 2 did not keep."""
        if "native1" not in times:
            return ""
        # (a race ended while the twin compiled timed the parallel kernel on one
        # thread: race.early_label)
        one = "one thread (the parallel kernel)" if not times["native1"] else \
            self._one_thread_name()
        kept, other_name = (one, "all threads") if self.threads else ("all threads", one)
        other = times["native"] if self.threads else one_thread_calls(times)
        if not other:
            return f" on {kept}"
        return f" on {kept}; {best(other)[0] * 1e3:.3f} ms on {other_name}"

    def _new_times(self) -> dict:
        """A race's empty record: tier 2, tier 1 and, for a parallel kernel where Numba
        has several threads, the parallel kernel on one thread."""
        times: dict[str, list] = {"native": [], "tier1": []}
        if self.kernel.parallel and _threads_now() > 1:
            times["native1"] = []
        return times

    def _times_for_caller(self) -> dict:
        """The race's record, its candidates chosen by the calling thread's Numba
        count until its first call is timed. Numba's count is per thread, and
        ``_new_times`` ran in the compile's thread, on Numba's default count
        (``NUMBA_NUM_THREADS``): a program that called ``numba.set_num_threads(1)``
        raced "all threads" calls that ran the one-thread twin (``_call_parallel``
        gives such a caller the twin) against the twin itself, kept either by wall time
        alone (``race.choose``'s rule for more cores) and checked the count again every
        so often for nothing (tests/backends/native/test_native_one_thread_race.py)."""
        with self._lock:
            if self.kernel.parallel and not any(self._times.values()):
                fresh = self._new_times()
                if fresh.keys() != self._times.keys():
                    self._times = fresh
            return self._times

    def _trial(self, *args):
        """Alternate tier 2 and tier 1 on the real inputs; keep the faster. A parallel
        kernel runs on Numba's threads and on one thread (``native1``), in turn (its
        calls on all threads stop early when they are hopeless: ``race.next_label``); its
        one-thread calls run its twin (one_thread.py), the kernel one thread would keep,
        compiled before the first of them (``_twin_pending``)."""
        tier_reports.busy()   # (the entry trial waits for the race: tier_reports.py)
        times = self._times_for_caller()
        # the one run least so far; None: complete (another caller is deciding); WAIT:
        # the one-thread twin compiles, and tier 1 answers untimed (race.py); ``early``:
        # it compiles in a child process, and the others are raced meanwhile
        waiting = self._twin_pending()
        early = waiting and self._twin_in_child()
        label = next_label(times, self.settings.trial_calls, waiting, early) or "tier1"
        if label == WAIT:
            return self.tier1(*args)
        use_native = label != "tier1"
        self.threads = 1 if label in ("native1", EARLY_ONE) else None
        start, start_cpu = time.perf_counter(), time.process_time()
        out = self._try_native(args) if use_native else None
        if out is None:
            if use_native and self._run != self._trial:
                return self._run(*args)
            out = self.tier1(*args)
            use_native = False
        spent = (time.perf_counter() - start, time.process_time() - start_cpu)
        with self._lock:
            times.setdefault(label if use_native else "tier1", []).append(spent)
            n = self.settings.trial_calls
            if self.state == "trial" and next_label(times, n, waiting, early) is None:
                # by both clocks, a parallel kernel on all threads by wall time (race.py)
                self.winner, self.threads = choose(times, parallel="native1" in times)
                won = self.winner == "native"
                if won:
                    self.set_threads(self.threads)   # (one thread: compiles the twin)
                    self.release_tier1()
                if won and "native1" in times:   # the load changes: check the count again
                    self.thread_choice = ThreadChoice(self.threads, time.perf_counter())
                self.state = self.winner
                self.races += 1
                t1 = best(times["tier1"])
                t2 = best(one_thread_calls(times) if self.threads else times["native"])
                # keep watching tier 2's times (watch.py); a kernel too fast to watch
                # runs unwatched
                self.watch = watch_after_race(min(t1), t2[0], self.watch) if won else None
                self._run = self.tier1 if not won else \
                    self._native if self.watch is None else self._watched
                log.info("native tier: graph %s runs in %s (tier 2 %.3f ms, %.3f ms of CPU%s, "
                         "tier 1 %.3f ms, %.3f ms of CPU, best of %d calls each)", self.name,
                         "tier 2 (Numba)" if won else "tier 1 (numpy backend)",
                         t2[0] * 1e3, t2[1] * 1e3, self._other_count(times),
                         t1[0] * 1e3, t1[1] * 1e3, n)
                self.decided.set()
            elif self.state == "trial" and len(times["tier1"]) >= 4 * n:
                # tier 2 could not run these inputs (layout, flags): stay in tier 1
                self.winner = self.state = "tier1"
                self._run = self.tier1
                log.info("native tier: graph %s stays in tier 1 (tier 2 could not run "
                         "its inputs)", self.name)
                self.decided.set()
        return out
