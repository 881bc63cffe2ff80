"""Whether a loop whose body breaks runs outlined or as plain Python, chosen by timing
both ways on the frame's first calls (``OutlineTrial``), as tier 2 is raced against
tier 1 (``backends/native/race.py``).

An island that starts at a loop can run two ways (``break_entry._compile_break``): its
body outlined (a function of its own, compiled, called once a trip: ``outline.py``), or
the loop, and the rest of the frame, as plain Python. Which is faster depends on what a
trip does, which no rule read off the trace can tell: a loop of one trip per element
of a 10**5-element array ran 265 ms a call outlined against plain Python's 8 ms (each
trip a dispatch, guards and glue for a few elements' work), while 1000 time steps over
the same array ran ~1.4x faster outlined (each trip's fused graphs win more than its
dispatch costs) although its trips share the array at 100 elements a trip, as many as
a per-row loop's. So the static rule (``outline.outlined_loop``: trips sharing the
largest array at fewer than ``outline_min_elements // 64`` elements a trip run as
plain Python) only picks the way the first call runs; the calls after it alternate::

    first (untimed: the outlined way compiles its body on it), other (untimed),
    first, other, first, other, ...   (timed: CPU time of the call)

until each way has ``config.outline_trial_calls`` timed calls, or one way's best is
``HOPELESS`` times the other's (a per-element loop outlined: 30x; a third 265 ms call
teaches nothing). The way with the least CPU time per call (``time.process_time``: on
a shared machine a call's wall time counts its waits for a core) stays; a tie keeps
the first. The ``loops`` log says which won and the two times. Both ways run the same
program (the outlined body is a copy of the loop's code), so the results, printed
output, writes and exceptions are the same whichever runs a call.

Once decided, the frame's cache entry runs the winner itself (``swap``: the dispatcher
is generated again, pasting a frame runner's lines or running the original code for a
plain island that does nothing else, ``break_entry._plain_island``), as if it had been
the only way.

Example (the clock injected: each call "takes" the time the runner says)::

    >>> now = [0.0]
    >>> def way(cost):
    ...     def run(*args):
    ...         now[0] += cost
    ...         return args[0] * 2
    ...     return run
    >>> trial = OutlineTrial(way(0.75), way(0.125), PLAIN, "f", calls=3,
    ...                      clock=lambda: now[0])
    >>> [trial(i, None) for i in range(6)]  # plain, outlined, timed: plain, outlined
    [0, 2, 4, 6, 8, 10]
    >>> trial.winner, trial.best            # (outlined 6x slower: hopeless)
    ('plain', {'outlined': 0.75, 'plain': 0.125})
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from .bytecode.outline_plan import log_loops

OUTLINED, PLAIN = "outlined", "plain"
# One way's best call slower than this many times the other's ends the trial: more
# calls of a way 4 times slower only cost (a per-element loop outlined: 265 ms a call).
HOPELESS = 4.0


def _timed(calls: list) -> list:
    return [t for t in calls if t is not None]


def complete(times: dict, calls: int) -> bool:
    """Whether the trial has what it needs: ``calls`` timed calls of each way, or one
    way hopeless against the other. ``times`` maps ``OUTLINED`` and ``PLAIN`` to the
    CPU seconds of their calls (None: an untimed first call).

        >>> complete({"outlined": [None, 0.5], "plain": [None, 0.1]}, 3)
        True
        >>> complete({"outlined": [None, 0.2], "plain": [None, 0.1]}, 3)
        False
    """
    timed = [_timed(v) for v in times.values()]
    if all(len(t) >= calls for t in timed):
        return True
    if not all(timed):
        return False
    a, b = (min(t) for t in timed)
    return max(a, b) > HOPELESS * min(a, b)


def next_way(times: dict, first: str) -> str:
    """The way the next trial call runs: the one run least so far, ``first`` on a tie.

        >>> next_way({"outlined": [None], "plain": [None, 0.1]}, "plain")
        'outlined'
    """
    other = PLAIN if first == OUTLINED else OUTLINED
    return first if len(times[first]) <= len(times[other]) else other


def choose(times: dict, first: str) -> str:
    """The way that stays: the least CPU time per call; ``first`` unless the other is
    faster.

        >>> choose({"outlined": [None, 0.3, 0.2], "plain": [None, 0.25, 0.4]}, "plain")
        'outlined'
    """
    other = PLAIN if first == OUTLINED else OUTLINED
    return other if min(_timed(times[other])) < min(_timed(times[first])) else first


class OutlineTrial:
    """A cache entry's ``run`` that alternates the frame's two ways (``outlined`` and
    ``plain``: frame runners, called as the entry's run is) on its first calls, timed
    by ``clock``, and keeps the faster (see the module doc). ``first``: the way the
    first call runs (``OUTLINED`` or ``PLAIN``); ``where``: the frame's name for the
    log; ``calls``: the timed calls of each way; ``swap(trial, run)`` makes the cache
    entry run ``run`` from the next call, where it can (then the trial is out of the
    dispatcher); ``final``: what the entry runs where plain Python won (the plain
    runner, or ``break_entry.runs_original``)."""

    dispatch_lines = None          # (called by the dispatchers: nothing is pasted)
    boxed_dispatch_lines = None

    def __init__(self, outlined: Callable, plain: Callable, first: str, where: str,
                 calls: int, clock: Callable[[], float] = time.process_time,
                 swap: Callable | None = None, final: Callable | None = None):
        self.ways = {OUTLINED: outlined, PLAIN: plain}
        self.first, self.where, self.calls, self.clock = first, where, calls, clock
        self.swap, self.final = swap, final if final is not None else plain
        self.times: dict[str, list] = {OUTLINED: [], PLAIN: []}
        self.winner: str | None = None
        self.best: dict[str, float] = {}
        self._lock = threading.Lock()

    def __call__(self, *args):
        winner = self.winner
        if winner is not None:   # (the swap did not take: the cache was cleared)
            return (self.final if winner == PLAIN else self.ways[OUTLINED])(*args)
        with self._lock:
            way = next_way(self.times, self.first)
            untimed = not self.times[way]
            if untimed:   # (claimed now: a call in another thread runs the other way)
                self.times[way].append(None)
        start = self.clock()
        out = self.ways[way](*args)
        spent = self.clock() - start
        if not untimed:
            self._record(way, spent)
        return out

    def _record(self, way: str, spent: float) -> None:
        with self._lock:
            if self.winner is not None:
                return
            self.times[way].append(spent)
            if not complete(self.times, self.calls):
                return
            self.winner = choose(self.times, self.first)
            self.best = {w: min(_timed(t)) for w, t in self.times.items()}
        log_loops.debug(
            "%s: the loop %s (%.3f ms of CPU a call outlined, %.3f ms as plain Python; "
            "best of %d and %d timed calls; the first calls ran it %s)", self.where,
            "stays outlined" if self.winner == OUTLINED else "runs as plain Python",
            self.best[OUTLINED] * 1e3, self.best[PLAIN] * 1e3,
            len(_timed(self.times[OUTLINED])), len(_timed(self.times[PLAIN])),
            "outlined" if self.first == OUTLINED else "as plain Python")
        if self.swap is not None:
            self.swap(self, self.final if self.winner == PLAIN else self.ways[OUTLINED])

    def __repr__(self) -> str:
        return f"<outline trial of {self.where}: {self.winner or 'running'}>"


__all__ = ["HOPELESS", "OUTLINED", "PLAIN", "OutlineTrial", "choose", "complete",
           "next_way"]
