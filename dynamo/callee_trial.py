"""Whether a loop that runs as Python calls a helper compiled or plain, chosen by timing
both ways on its real calls (``CalleeTrial``), as ``outline_trial`` chooses for a loop.

Code at a graph break (an island: a loop that runs as Python) sends each call of a user
function through the frame hook (``break_calls._intercept``), so the helper runs as a
compiled graph behind its guards. For a helper of a few scalar ops that is slower than
the helper itself: adaptive RK45 calls ``van_der_pol(t, y)`` (ten ops on NumPy scalars:
``np.array([y[1], mu * (1 - y[0] ** 2) * y[1] - y[0]])``) seven times a trip, and the
compiled call (wrapper, dispatcher, guards, the graph's ``try``) took 2-3 us against
0.8-1.5 us plain: the program ran at 0.75-0.79x plain. Which is faster depends on what
the helper does with the inputs it gets, which no rule read off the trace can tell, so
the island's memo keeps one trial per function it calls (``island_memo``), and its
calls alternate::

    compiled (untimed: it compiles), plain (untimed),
    compiled, plain, compiled, plain, ...   (timed)

until each way has ``config.callee_trial_calls`` timed calls, or one way's best is
``outline_trial.HOPELESS`` times the other's. The way with the least time per call
stays (a tie keeps the compiled call); the ``backend`` log says which and the two
times. Calls are timed by ``time.perf_counter``, the least of each way's calls: a call
of about a microsecond is as short as one read of ``time.process_time`` (a system call,
0.8-3 us on this machine), and the least of several wall times is a call that no other
process interrupted. Either way runs the user's function: the plain way IS it, the
compiled way is its graph, exact by the project's rules. So results, printed output,
writes and exceptions are the same whichever runs a call.

The decision holds for ``RECHECK`` calls, then both ways are timed again (no untimed
calls): a loop whose inputs grow (the compiled way then compiles for the new sizes)
or change kind gets the way that suits them. A timed call's exception leaves with
dynamo's frames dropped from its traceback (``tracebacks.for_program``), as the
compiled wrapper's does.

Example (the clock injected: each call "takes" the time it says)::

    >>> now = [0.0]
    >>> def way(cost):
    ...     def run(x):
    ...         now[0] += cost
    ...         return x * 2
    ...     return run
    >>> trial = CalleeTrial("f", calls=2, clock=lambda: now[0])
    >>> [trial.pick(way(0.375), way(0.125))(i) for i in range(6)]
    [0, 2, 4, 6, 8, 10]
    >>> trial.way, trial.best                     # plain 3x faster, 2 timed calls each
    ('plain', {'outlined': 0.375, 'plain': 0.125})
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from functools import partial

from . import logs
from .outline_trial import OUTLINED, PLAIN, _timed, choose, complete, next_way
from .tracebacks import for_program

# The compiled call is the trial's other way (``outline_trial`` names it "outlined").
COMPILED = OUTLINED
# Calls that a decision holds for before both ways are timed again: at ~20 trial calls
# a recheck, under 1% of a helper's calls, and a few of the slower way's.
RECHECK = 4096

log = logs.get("backend")


class CalleeTrial:
    """The way an island calls one function (see the module doc): ``way`` is None while
    the trial runs, then ``COMPILED`` or ``PLAIN`` for the next ``left`` calls.
    ``where``: the function's name for the log; ``calls``: the timed calls of each way
    (0: no trial, always compiled). The island reads ``way`` and ``left`` itself
    (``break_calls._intercept``) and asks ``pick`` only while no way is decided."""

    __slots__ = ("way", "left", "where", "calls", "clock", "times", "best", "warm",
                 "_lock")

    def __init__(self, where: str, calls: int,
                 clock: Callable[[], float] = time.perf_counter):
        self.where, self.calls, self.clock = where, calls, clock
        self.way: str | None = None if calls else COMPILED
        self.left = RECHECK if calls else sys.maxsize
        self.times: dict[str, list] = {COMPILED: [], PLAIN: []}
        self.best: dict[str, float] = {}
        self.warm = False   # (each way ran once: the rechecks time every call)
        self._lock = threading.Lock()

    def pick(self, compiled: Callable, plain: Callable) -> Callable:
        """What the island calls this time: ``compiled`` or ``plain``, timed while the
        trial runs; the decided way, or a new trial once ``left`` ran out."""
        way = self.way
        if way is not None:
            if self.left > 0:
                self.left -= 1
                return compiled if way == COMPILED else plain
            self._again()
        with self._lock:
            way = next_way(self.times, COMPILED)
            untimed = not self.warm and not self.times[way]
            if untimed:   # (claimed now: a call in another thread runs the other way)
                self.times[way].append(None)
        fn = compiled if way == COMPILED else plain
        if untimed:
            return fn
        # (a partial, C code: no frame of dynamo's between the island and the call)
        return partial(self._run_timed, way, fn)

    def _run_timed(self, way: str, fn: Callable, /, *args, **kwargs):
        start = self.clock()
        try:
            out = fn(*args, **kwargs)
        except BaseException as exc:
            # (timed too: a function whose calls all raise still ends its trial)
            self._record(way, self.clock() - start)
            # without this frame (first: one raised binding the arguments has no other)
            # and dynamo's others, as plain Python's call shows it
            tb = exc.__traceback__
            if tb is not None and tb.tb_frame is sys._getframe():
                exc.__traceback__ = tb.tb_next
            if exc.__traceback__ is not None:
                for_program(exc)
            raise
        self._record(way, self.clock() - start)
        return out

    def _again(self) -> None:
        with self._lock:
            if self.way is not None and self.left <= 0:
                self.times = {COMPILED: [], PLAIN: []}
                self.warm, self.way = True, None

    def _record(self, way: str, spent: float) -> None:
        with self._lock:
            if self.way is not None:
                return
            self.times[way].append(spent)
            if not complete(self.times, self.calls):
                return
            won = choose(self.times, COMPILED)
            before = self.best_way if self.warm else None
            self.best = {w: min(_timed(t)) for w, t in self.times.items()}
            self.left, self.way = RECHECK, won
        if won != before:
            log.debug("%s: a loop that runs as Python calls it %s (%.2f us a call "
                      "compiled, %.2f us plain; the least of %d and %d timed calls)",
                      self.where, "compiled" if won == COMPILED else "plain",
                      self.best[COMPILED] * 1e6, self.best[PLAIN] * 1e6,
                      len(_timed(self.times[COMPILED])), len(_timed(self.times[PLAIN])))

    @property
    def best_way(self) -> str | None:
        """The way the last complete trial chose (None before one completed)."""
        if not self.best:
            return None
        return choose({w: [t] for w, t in self.best.items()}, COMPILED)

    def __repr__(self) -> str:
        return f"<callee trial of {self.where}: {self.way or 'running'}>"


__all__ = ["COMPILED", "PLAIN", "RECHECK", "CalleeTrial"]
