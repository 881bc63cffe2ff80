"""What a backend's tiered graphs tell the entry trial: "a call of mine ran a graph whose
tier is not settled yet" (issue #15: the entry trial on ``auto`` with Numba).

On ``auto`` with Numba a graph serves tier 1 (the numpy backend) while it counts its
calls, then Numba compiles tier 2 in the background, then the two tiers race
(``backends/native/tier.py``). An entry trial (``entry_trial.py``) that timed the
compiled way before that had settled would time tier 1, and a plain way chosen then
would keep tier 2 from ever getting hot (``running_best_index`` of
``scripts/bench_small_loop_nodes.py``: 32 us a call plain against 2.9 us in tier 2).
So the native tier reports each call of a graph that is not settled, by calling one of
the two functions below, and the trial waits (``entry_wait.py``) while its function's
compiled calls see the counters move. The backend imports this module; dynamo never
imports the backend (the frontend flows one way).

Two counters, because only one kind of wait ends by itself:

- ``counting()``: a graph ran tier 1 counting its calls toward a compile. Calling it
  makes it hot, but a graph a call reaches rarely (a branch) or one whose
  ``after_calls`` is huge may count for a long time: the trial waits only so many of
  these calls (``entry_wait.WAITS``).
- ``busy()``: a graph ran while Numba compiles its kernel (or the kernel for a new
  input layout) or while the tiers race. That ends (the compile succeeds, fails or
  times out; a race takes a few calls of each tier), so the trial waits it out.

The counters are global, read before and after a call (two attribute reads): a call
of another thread's graph meanwhile makes this call look unsettled too, which only
makes the trial wait longer (never time a way wrongly).

Example::

    >>> seen = now()
    >>> busy()                      # (as a graph racing its tiers does)
    >>> now() != seen
    True
"""

from __future__ import annotations


class _Reports:
    """The two counters (class attributes: one read each)."""

    counting = 0   # calls of a graph counting its calls toward a compile
    busy = 0       # calls of a graph being compiled or racing its tiers


REPORTS = _Reports


def counting() -> None:
    """A graph ran tier 1 while it counts its calls toward a compile."""
    REPORTS.counting += 1


def busy() -> None:
    """A graph ran while its tier-2 kernel compiles or its tiers race."""
    REPORTS.busy += 1


def now() -> tuple[int, int]:
    """Both counters: ``now() != seen`` says a report came since ``seen = now()``."""
    return REPORTS.counting, REPORTS.busy


__all__ = ["REPORTS", "busy", "counting", "now"]
