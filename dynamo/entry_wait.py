"""The entry trial's wait: on ``auto`` with Numba, a compiled function's calls run
compiled, untimed, while their graphs' native tiers are not settled, and its entry
trial (``entry_trial.py``) starts once a call ran none that was (issue #15).

A graph of ``auto`` with Numba runs tier 1 while it counts its calls, then Numba
compiles tier 2 in the background (seconds), then the tiers race on a few calls
(``backends/native/tier.py``). Timed before that, the compiled way is tier 1 still
counting or compiling, and a plain way chosen then would keep tier 2 from ever getting
hot: ``running_best_index`` (``scripts/bench_small_loop_nodes.py``) ran 32 us a call
plain against 2.9 us in tier 2. The native tier reports each call of a graph that is
not settled (``tier_reports.py``); while a call sees a report, the function waits::

    call 1..10    tier 1, counting        (reported: counting)   waiting
    call 11..     tier 1, Numba compiles  (reported: busy)       waiting
    ...           the tiers race          (reported: busy)       waiting
    next call     tier 2 (or tier 1 kept) (nothing reported)     -> the entry trial

A timed compiled call of the trial that sees a report (a new input layout compiling,
a graph of a branch first reached, a race run again) ends the trial and the function
waits again (``entry_trial.EntryTrial``). Compiles and races end by themselves; a graph
that never gets hot (a branch reached once in many calls, an ``after_calls`` option
larger than the calls) would count for ever, so a function waits at most ``WAITS``
times ``config.native_after_calls`` calls that only counted, in all, and then is tried
as on the ``numpy`` backend. A function that calls itself while it waits runs compiled
from then on, as a trial decides (a wrapper would spend two frames a level).

Waiting costs the call slot one small function, during the wait only: about 0.4 us a
call over the compiled entry itself on an idle core (a closure of the same shape), 2.7-4
us on the loaded 2-core VM where the compiled call took 6.9-8.7 us
(``scripts/bench_entry_trial.py --wait``, 2026-12-07).

Example (``reports`` stand for the native tier's)::

    >>> from dynamo import tier_reports
    >>> from dynamo.entry_trial import EntrySlots
    >>> def compiled(x):
    ...     if x < 3:
    ...         tier_reports.busy()    # (as a graph Numba still compiles does)
    ...     return x
    >>> slots = EntrySlots(None, compiled, lambda x: x, "f", calls=2, waits=True)
    >>> [slots.current(x) for x in range(4)], slots.current is slots.trial
    ([0, 1, 2, 3], True)
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from . import tier_reports
from .callee_trial import COMPILED
from .config import config
from .tracebacks import for_program, is_dynamos

# A function waits at most this many times ``config.native_after_calls`` calls that
# only counted (``tier_reports.counting``): a graph its calls reach once in WAITS gets
# hot before the trial starts; one reached more rarely is tried in tier 1.
WAITS = 8


def waiting_way(slots) -> Callable:
    """What the call slot of ``slots`` (an ``entry_trial.EntrySlots``) holds while it
    waits: its compiled way, called as it is, with the reports read around the call.
    Its code is its own copy (a frame of it on the stack is this function's)."""
    compiled, reports = slots.compiled, tier_reports.REPORTS
    depth = 0   # its calls running now, in every thread

    def waiting(*args, **kwargs):
        nonlocal depth
        if depth and on_stack(waiting.__code__, sys._getframe(1)):
            _calls_itself(slots, waiting)
            return compiled(*args, **kwargs)
        depth += 1
        counting, busy = reports.counting, reports.busy
        try:
            return compiled(*args, **kwargs)
        except BaseException as exc:
            for_plain_call(exc)
            raise
        finally:   # (a call that raised settles the wait too, as the trial times it)
            depth -= 1
            if reports.busy == busy:
                _settled(slots, waiting, counted=reports.counting != counting)
    waiting.__code__ = waiting.__code__.replace()   # (a code object of its own)
    waiting.__dict__.update(slots._attrs)   # (the function's, as each way carries)
    return waiting


def _settled(slots, waiting: Callable, counted: bool) -> None:
    """A call of ``waiting`` saw no compile nor race: the trial starts, unless it saw
    a graph count its calls and the wait has room for more of those."""
    if counted:
        slots.counted += 1
        if slots.counted < WAITS * max(config.native_after_calls, 1):
            return
        slots.waits = False   # (for good: the trial does not wait again)
    slots.install(waiting, slots.trial)


def _calls_itself(slots, waiting: Callable) -> None:
    """The function called itself while it waits: it runs compiled from now on."""
    slots.install(waiting, slots.trial)
    slots.trial._decide(COMPILED, "it calls itself")


def on_stack(code, frame) -> bool:
    """Whether a frame of ``code`` is ``frame`` or below it on this thread's stack (a
    call of another thread meanwhile is not)."""
    while frame is not None:
        if frame.f_code is code:
            return True
        frame = frame.f_back
    return False


def for_plain_call(exc: BaseException) -> None:
    """An exception leaving a trial's, the plain way's or a waiting call: without
    dynamo's frames (the trial's, the plain way's, the sampler's, the wait's), as plain
    Python's call shows it (first those in front: a TypeError binding the arguments
    has no other frame)."""
    tb = exc.__traceback__
    while tb is not None and is_dynamos(tb.tb_frame.f_code):
        tb = tb.tb_next
    exc.__traceback__ = tb
    if tb is not None:
        for_program(exc)


__all__ = ["WAITS", "for_plain_call", "on_stack", "waiting_way"]
