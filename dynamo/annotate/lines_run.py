"""Which source lines ran as real Python bytecode while an annotated call ran.

Compiled graphs and glue produce no line events on user lines, so an event means the
line ran as plain Python: at a graph break, in a loop run eagerly, or in a frame that
fell back.

Example::

    >>> rec = LineRecorder(); rec.start(); f(x); rec.stop()
    >>> rec.seen[("/src/app.py", 3, "f")]
    {5, 9}
"""

from __future__ import annotations

import sys

from .codes import code_key, interesting


class LineRecorder:
    """Collects ``{code_key: {lineno, ...}}`` of lines that ran as Python bytecode.

    Only user code is watched: on 3.12+ a PY_START event switches line events on for
    that code object alone (dynamo's own code is never instrumented for lines); on 3.11
    the trace function skips dynamo's frames and is paused while a frame compiles
    (``pause``/``resume``), since compiling runs no user code, so the compile times
    the report shows are not inflated by tracing.
    """

    def __init__(self) -> None:
        self.seen: dict[tuple, set[int]] = {}
        self._tool: int | None = None
        self._local: list = []              # code objects with line events switched on
        self._trace = None
        self._old_trace = None
        self._paused = 0
        self._keys: dict = {}

    def _key(self, code) -> tuple | None:
        key = self._keys.get(code, False)
        if key is False:
            key = self._keys[code] = code_key(code) if interesting(code.co_filename) \
                else None
        return key

    def _add(self, code, lineno) -> None:
        key = self._key(code)
        if key is not None and lineno is not None:
            self.seen.setdefault(key, set()).add(lineno)

    # ----------------------------------------------------------------- 3.12+
    def _monitor_start(self) -> bool:
        mon = getattr(sys, "monitoring", None)
        if mon is None:
            return False
        free = [t for t in (4, 3, 5) if mon.get_tool(t) is None]   # unassigned ids first
        if not free:
            return False
        tool = self._tool = free[0]
        mon.use_tool_id(tool, "dynamo.annotate")
        disable, line = mon.DISABLE, mon.events.LINE

        def on_start(code, offset):
            if self._key(code) is not None:
                mon.set_local_events(tool, code, line)
                self._local.append(code)
            return disable          # decided once per code object

        def on_line(code, lineno):
            self._add(code, lineno)
            return disable          # once is enough: no more events from this location

        mon.register_callback(tool, mon.events.PY_START, on_start)
        mon.register_callback(tool, line, on_line)
        mon.restart_events()        # re-arm locations disabled during an earlier call
        mon.set_events(tool, mon.events.PY_START)
        return True

    def _monitor_stop(self) -> None:
        mon, tool = sys.monitoring, self._tool
        mon.set_events(tool, 0)
        for code in self._local:
            mon.set_local_events(tool, code, 0)
        self._local = []
        mon.register_callback(tool, mon.events.PY_START, None)
        mon.register_callback(tool, mon.events.LINE, None)
        mon.free_tool_id(tool)
        self._tool = None

    # ----------------------------------------------------------------- 3.11
    def _trace_start(self) -> None:
        self._old_trace = sys.gettrace()

        def local(frame, event, arg):
            if event == "line":
                self._add(frame.f_code, frame.f_lineno)
            return local

        def global_trace(frame, event, arg):
            return None if self._key(frame.f_code) is None else local

        self._trace = global_trace
        sys.settrace(global_trace)

    def start(self) -> None:
        if not self._monitor_start():
            self._trace_start()

    def stop(self) -> None:
        if self._tool is not None:
            self._monitor_stop()
        elif self._trace is not None:
            sys.settrace(self._old_trace)
            self._trace = None

    def pause(self) -> None:
        self._paused += 1
        if self._trace is not None and self._paused == 1:
            sys.settrace(None)

    def resume(self) -> None:
        self._paused -= 1
        if self._trace is not None and self._paused == 0:
            sys.settrace(self._trace)
