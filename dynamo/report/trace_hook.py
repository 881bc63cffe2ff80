"""Which lines each successful trace covered, and where the root frame stopped.

While recording, a ``TraceRecorder`` is a compile listener (:mod:`dynamo.listeners`):

- ``on_step``: the line of every instruction the translator steps over, per attempt (a
  trace may restart; only the attempt that produced the frame record counts);
- ``on_break``: the root frame's line where a ``GraphBreak`` stopped it (the call site
  of a callee that broke, or the start of a loop that runs eagerly);
- ``on_frame_start``/``on_frame_end``: pause line tracing while a frame compiles (it
  runs no user code), so compile times are not inflated by tracing.

It listens only to the thread that records, and only while it is the innermost
recorder there (an annotated function called inside another records its own trace).

Example::

    >>> trace = TraceRecorder(); ctx.records = RecordList(trace)
    >>> trace.start(); f(x); trace.stop()
    >>> trace.by_record[id(ctx.records[0])].stop_line
    5
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from .. import listeners
from .codes import code_key


@dataclass
class Attempt:
    """One trace of one root frame (a restart begins a new attempt)."""

    root: object                                   # the root translator (identity only)
    code: object
    lines: dict[tuple, set[int]] = field(default_factory=dict)
    codes: dict[tuple, object] = field(default_factory=dict)
    stop_line: int | None = None                   # root line of the GraphBreak, if any
    stop_kind: str | None = None                   # "instruction" or "island"


active = threading.local()       # .trace, .lines: what this thread records


class TraceRecorder:
    """Per frame record: the lines its successful trace covered, and where it stopped."""

    def __init__(self) -> None:
        self.current: Attempt | None = None
        self._outer = None                          # the recorder this one interrupts
        self.latest: dict[object, Attempt] = {}     # root code -> its last attempt
        self.by_record: dict[int, Attempt] = {}     # id(FrameRecord) -> attempt
        self.all_codes: dict[tuple, object] = {}    # every code any attempt stepped into
        self.enabled = False

    def saw(self, tx) -> None:
        root = tx
        while getattr(root, "parent", None) is not None:
            root = root.parent
        att = self.current
        if att is None or att.root is not root:
            att = self.current = Attempt(root, root.code)
            self.latest[root.code] = att
        try:
            lineno = tx.info.insts[tx.ip].lineno
        except (AttributeError, IndexError):
            return
        if lineno is not None:
            key = code_key(tx.code)
            att.lines.setdefault(key, set()).add(lineno)
            att.codes.setdefault(key, tx.code)
            self.all_codes.setdefault(key, tx.code)

    def stopped(self, root, lineno, kind) -> None:
        att = self.latest.get(root.code)
        if att is None or att.root is not root:   # stopped before its first step
            att = self.current = Attempt(root, root.code)
            self.latest[root.code] = att
        att.stop_line, att.stop_kind = lineno, kind

    def record_saved(self, record) -> None:
        att = self.latest.pop(record.code, None)
        if att is not None:
            self.by_record[id(record)] = att
        self.current = None

    # ------------------------------------------------------------------ listening
    def _mine(self) -> bool:
        """Whether this thread records into this recorder now (the innermost one)."""
        return getattr(active, "trace", None) is self

    def on_step(self, tx) -> None:
        if self._mine():
            self.saw(tx)

    def on_break(self, tx, brk) -> None:
        if self._mine():
            self.stopped(tx, getattr(brk.inst, "lineno", None), brk.point.kind)

    def on_frame_start(self, fn, ctx) -> None:
        lines = getattr(active, "lines", None) if self._mine() else None
        if lines is not None:
            lines.pause()

    def on_frame_end(self, fn, ctx) -> None:
        lines = getattr(active, "lines", None) if self._mine() else None
        if lines is not None:
            lines.resume()

    def start(self) -> None:
        self._outer = getattr(active, "trace", None)
        active.trace = self
        listeners.add(self)
        self.enabled = True

    def stop(self) -> None:
        if self.enabled:
            self.enabled = False
            listeners.remove(self)
            active.trace = self._outer


class RecordList(list):
    """``ctx.records``: convert appends each FrameRecord when it is saved; the trace
    recorder pairs it with the attempt that produced it."""

    def __init__(self, trace: TraceRecorder):
        super().__init__()
        self.trace = trace

    def append(self, record) -> None:
        self.trace.record_saved(record)
        super().append(record)
