"""Round 22, program code that runs between the NumPy calls of a flat pass with gaps
(``flat_updates.py``: ``u[1:-1, 1:-1] += value`` as one 1-D pass holds ``u``'s
boundary columns at 0 for the op; continued from ``prog_round22_windows.py``, the same
category): a ``sys.monitoring`` tool's callbacks (3.12+: ``CALL``, ``C_RETURN``,
``C_RAISE``, ``PY_START``, ``LINE``; a tool named ``""``; a tool freed with its
events on (3.12/3.13 keep running them); a tool with events only on
the program's own code) and Python signal handlers (``SIGALRM`` from
``signal.setitimer`` every 100 us, over thousands of updates, and of direct writes
``u[1:-1, 1:-1] = value``, ``flat_direct.py``, whose gaps hold ``u``'s own elements
too) read the boundary columns, which eager never changes: the set of
the sums they saw has eager's one member (``runtime.alone`` keeps the pass off the
gaps while such code is set: ``program_hooks.py``).

    >>> def _add_update(u, v):
    ...     u[1:-1, 1:-1] += 0.1 * (v[:-2, 1:-1] + v[2:, 1:-1] - 2.0 * v[1:-1, 1:-1])
    ...     return u
"""

import signal
import sys

from hostile_check import Programs
from prog_round21_flat import big

reg = Programs("round22_windows")
scenario = reg.scenario

MONITORING = hasattr(sys, "monitoring")


def _add_update(u, v):
    u[1:-1, 1:-1] += 0.1 * (v[:-2, 1:-1] + v[2:, 1:-1] - 2.0 * v[1:-1, 1:-1])
    return u


def _direct_write(u, v):
    """A flat pass written straight into ``u``'s window (``flat_direct.py``), gaps too."""
    u[1:-1, 1:-1] = 0.2 * (v[:-2, 1:-1] + v[2:, 1:-1] + v[1:-1, :-2] + v[1:-1, 2:]
                           + v[1:-1, 1:-1])
    return u


def _edges(u):
    return float(u[:, 0].sum()), float(u[:, -1].sum())


# --------------------------------------------------------------- sys.monitoring tools

def _free_tool():
    return next(i for i in range(6) if sys.monitoring.get_tool(i) is None)


def _monitored(name, events, tool_name="hostile", local=False, freed=False):
    """A tool whose callbacks for ``events`` read ``u``'s boundary columns while the
    compiled update runs. (``local``: the events are set on ``drive``'s own code only,
    none globally, so no callback runs inside the update and this one cannot fail; it
    shows that a registered tool alone keeps the pass off the gaps without harm.
    ``freed``: the tool's id is freed after its events are set; on 3.12 and 3.13 its
    callbacks still run.)"""
    def s(r):
        f = r.compile(_add_update)

        def drive():
            seen = set()
            u, v = big() + 2, big()
            if not MONITORING:          # 3.11: nothing to register; eager's edges
                f(u, v)
                return [_edges(u)]
            mon = sys.monitoring
            tool = _free_tool()
            mask = 0
            for event in events:
                e = getattr(mon.events, event)
                mask |= e
                mon.register_callback(tool, e, lambda *args: seen.add(_edges(u)))
            mon.use_tool_id(tool, tool_name)
            try:
                if local:
                    mon.set_local_events(tool, drive.__code__, mask)
                else:
                    mon.set_events(tool, mask)
                if freed:
                    mon.free_tool_id(tool)
                f(u, v)
            finally:
                if mon.get_tool(tool) is None:
                    mon.use_tool_id(tool, tool_name)
                mon.set_events(tool, 0)
                if local:
                    mon.set_local_events(tool, drive.__code__, 0)
                for event in events:
                    mon.register_callback(tool, getattr(mon.events, event), None)
                mon.free_tool_id(tool)
            return sorted(seen)
        r.call(drive)
        r.call(drive)
    s.__name__ = name
    reg.scenario(s)


_monitored("edges_seen_by_monitoring_calls", ("CALL", "C_RETURN", "C_RAISE"))
_monitored("edges_seen_by_monitoring_lines", ("LINE", "PY_START", "PY_RETURN"))
_monitored("edges_seen_by_monitoring_unnamed", ("CALL",), tool_name="")
_monitored("edges_seen_by_monitoring_local", ("CALL", "LINE"), local=True)
_monitored("edges_seen_by_monitoring_freed", ("CALL", "C_RETURN", "C_RAISE"),
           freed=True)


# -------------------------------------------------------------------- signal handlers

def _alarmed(name, fn=_add_update, calls=4000, wanted=300):
    """``SIGALRM`` every 100 us while the compiled update runs over and over: its handler
    reads the boundary columns each time it runs inside the update (a flag says when),
    until it has run ``wanted`` times there (or ``calls`` updates, whichever is first:
    no clock decides the result). Eager's edges are the only ones it may see."""
    def s(r):
        f = r.compile(fn)

        def drive():
            seen = set()
            inside = [False, 0]
            u, v = big() + 2, big()

            def handler(signum, frame):
                # (a handler's own bytecodes may run the next one inside it: once)
                if inside[0] is True:
                    inside[0] = "handler"
                    inside[1] += 1
                    seen.add(_edges(u))
                    inside[0] = True
            old = signal.signal(signal.SIGALRM, handler)
            try:
                signal.setitimer(signal.ITIMER_REAL, 1e-4, 1e-4)
                for _ in range(calls):
                    inside[0] = True
                    f(u, v)
                    inside[0] = False
                    if inside[1] >= wanted:
                        break
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, old)
            return sorted(seen)
        r.call(drive)
    s.__name__ = name
    reg.scenario(s)


if hasattr(signal, "setitimer"):
    _alarmed("edges_seen_by_alarm_handler")
    _alarmed("edges_seen_by_alarm_handler_direct", _direct_write)

