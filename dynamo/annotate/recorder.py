"""What the annotator watches while the function runs, besides the frame records.

Three observers, all switched on only for the duration of an annotated call:

- ``LineRecorder``: which source lines ran as real Python bytecode (line events from
  ``sys.monitoring`` on 3.12+, each location reported once and then disabled so the
  cost stays near zero; ``sys.settrace`` on 3.11). Compiled graphs and glue produce no
  events on user lines, so an event means the line ran as plain Python: at a graph
  break, in a loop run eagerly, or in a frame that fell back.
- ``TraceRecorder``: which lines the translator traced in the attempt that produced
  each frame record (a trace may restart; only the last attempt counts), and the line
  where the root frame stopped (the call site of a callee that broke, or the start of
  a loop that runs eagerly). It wraps the translator's dispatch loop
  (``TranslatorBase.step``/``run``) while recording, and restores it afterwards.
- ``LogCapture``: records of the ``dynamo.recompiles`` channel (the guard that failed)
  and ``dynamo.internal`` warnings (frames that fell back after an internal error),
  without printing them unless the user enabled those channels.

Example::

    >>> rec = Recorders()              # ctx.records = rec.records
    >>> with rec.recording(call=0):
    ...     compiled(x)
    >>> rec.lines.seen[("/src/app.py", 3, "f")]
    {5, 9}
"""

from __future__ import annotations

import logging
import os
import re
import sys
import threading
from dataclasses import dataclass, field

_RESUME = re.compile(r"(_resume_at_L\d+)+$")
_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # the dynamo package


def base_qualname(qualname: str) -> str:
    """``f_resume_at_L7_resume_at_L9`` -> ``f``: the user function a resume code copies."""
    return _RESUME.sub("", qualname)


def code_key(code) -> tuple:
    """(filename, firstlineno, qualname) naming the user function ``code`` belongs to."""
    qual = getattr(code, "co_qualname", code.co_name)
    return (code.co_filename, code.co_firstlineno, base_qualname(qual))


def _interesting(filename: str) -> bool:
    # Generated code ("<dynamo glue ...>") and dynamo's own modules never hold user lines.
    return not filename.startswith("<") and not filename.startswith(_HERE)


# ============================================================================ lines run

class LineRecorder:
    """Collects ``{code_key: {lineno, ...}}`` of lines that ran as Python bytecode."""

    def __init__(self) -> None:
        self.seen: dict[tuple, set[int]] = {}
        self._tool: int | None = None
        self._old_trace = None
        self._keys: dict = {}

    def _key(self, code) -> tuple | None:
        key = self._keys.get(code, False)
        if key is False:
            key = self._keys[code] = code_key(code) if _interesting(code.co_filename) \
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
        for tool in (4, 3, 5):     # ids without a role assigned by CPython first
            if mon.get_tool(tool) is None:
                break
        else:
            return False
        mon.use_tool_id(tool, "dynamo.annotate")
        self._tool = tool
        disable = mon.DISABLE

        def on_line(code, lineno):
            self._add(code, lineno)
            return disable          # once is enough: no more events from this location

        mon.register_callback(tool, mon.events.LINE, on_line)
        # Locations disabled during an earlier annotated call must report again.
        mon.restart_events()
        mon.set_events(tool, mon.events.LINE)
        return True

    def _monitor_stop(self) -> None:
        mon = sys.monitoring
        mon.set_events(self._tool, 0)
        mon.register_callback(self._tool, mon.events.LINE, None)
        mon.free_tool_id(self._tool)
        self._tool = None

    # ----------------------------------------------------------------- 3.11
    def _trace_start(self) -> None:
        self._old_trace = sys.gettrace()

        def local(frame, event, arg):
            if event == "line":
                self._add(frame.f_code, frame.f_lineno)
            return local

        def global_trace(frame, event, arg):
            if self._key(frame.f_code) is None:
                return None
            return local

        sys.settrace(global_trace)

    def start(self) -> None:
        if not self._monitor_start():
            self._trace_start()

    def stop(self) -> None:
        if self._tool is not None:
            self._monitor_stop()
        else:
            sys.settrace(self._old_trace)


# ============================================================================ lines traced

@dataclass
class Attempt:
    """One trace of one root frame (a restart begins a new attempt)."""

    root: object                                   # the root translator (identity only)
    code: object
    lines: dict[tuple, set[int]] = field(default_factory=dict)
    codes: dict[tuple, object] = field(default_factory=dict)
    stop_line: int | None = None                   # root line of the GraphBreak, if any
    stop_kind: str | None = None                   # "instruction" or "island"


_active = threading.local()
_patch_lock = threading.Lock()
_patch_depth = 0
_originals: dict = {}


def _recorder():
    return getattr(_active, "trace", None)


def _step(self):
    rec = _recorder()
    if rec is not None:
        rec.saw(self)
    return _originals["step"](self)


def _run(self):
    rec = _recorder()
    if rec is None or getattr(self, "parent", None) is not None:
        return _originals["run"](self)
    try:
        return _originals["run"](self)
    except Exception as e:
        inst, point = getattr(e, "inst", None), getattr(e, "point", None)
        if inst is not None and point is not None:
            rec.stopped(self, getattr(inst, "lineno", None), getattr(point, "kind", None))
        raise


def _install() -> bool:
    global _patch_depth
    try:
        from dynamo.translator.base import TranslatorBase
    except ImportError:
        return False
    with _patch_lock:
        if _patch_depth == 0:
            if not (callable(getattr(TranslatorBase, "step", None)) and
                    callable(getattr(TranslatorBase, "run", None))):
                return False
            _originals["step"], _originals["run"] = TranslatorBase.step, TranslatorBase.run
            TranslatorBase.step, TranslatorBase.run = _step, _run
        _patch_depth += 1
    return True


def _uninstall() -> None:
    global _patch_depth
    from dynamo.translator.base import TranslatorBase
    with _patch_lock:
        _patch_depth -= 1
        if _patch_depth == 0:
            TranslatorBase.step, TranslatorBase.run = _originals["step"], _originals["run"]


class TraceRecorder:
    """Per frame record: the lines its successful trace covered, and where it stopped."""

    def __init__(self) -> None:
        self.current: Attempt | None = None
        self.latest: dict[object, Attempt] = {}     # root code -> its last attempt
        self.by_record: dict[int, Attempt] = {}     # id(FrameRecord) -> attempt
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

    def start(self) -> None:
        self.enabled = _install()
        if self.enabled:
            _active.trace = self

    def stop(self) -> None:
        if self.enabled:
            _active.trace = None
            _uninstall()


class RecordList(list):
    """``ctx.records``: convert appends each FrameRecord when it is saved; the trace
    recorder pairs it with the attempt that produced it."""

    def __init__(self, trace: TraceRecorder):
        super().__init__()
        self.trace = trace

    def append(self, record) -> None:
        self.trace.record_saved(record)
        super().append(record)


# ============================================================================ log records

@dataclass
class LogEntry:
    channel: str
    level: str
    message: str
    args: tuple
    call: int = 0        # the annotated call it happened in
    order: int = 0       # how many frame records existed when it was logged


class LogCapture(logging.Handler):
    """Keeps records of some ``dynamo`` channels while the annotated call runs.

    A channel the user did not switch on is raised to DEBUG for the call with its
    propagation off, so the capture prints nothing the user did not ask for; records
    the user would have seen anyway (warnings) are passed on to the parent logger.
    """

    CHANNELS = ("dynamo.recompiles", "dynamo.internal")

    def __init__(self, order=lambda: 0) -> None:
        super().__init__(logging.DEBUG)
        self.entries: list[LogEntry] = []
        self.order = order
        self.call = 0
        self._saved: list = []
        self._forward: dict[str, int] = {}     # logger name -> level the user would see

    def emit(self, record: logging.LogRecord) -> None:
        args = record.args if isinstance(record.args, tuple) else ()
        self.entries.append(LogEntry(record.name.split(".", 1)[-1], record.levelname,
                                     record.getMessage(), args, self.call, self.order()))
        threshold = self._forward.get(record.name)
        if threshold is not None and record.levelno >= threshold:
            logging.getLogger(record.name).parent.handle(record)

    def start(self) -> None:
        for name in self.CHANNELS:
            logger = logging.getLogger(name)
            self._saved.append((logger, logger.level, logger.propagate))
            if not logger.isEnabledFor(logging.DEBUG):
                self._forward[name] = logger.getEffectiveLevel()
                logger.setLevel(logging.DEBUG)
                logger.propagate = False
            logger.addHandler(self)

    def stop(self) -> None:
        for logger, level, propagate in self._saved:
            logger.removeHandler(self)
            logger.setLevel(level)
            logger.propagate = propagate
        self._saved, self._forward = [], {}


class Recorders:
    """All three observers, switched on for each annotated call (what they saw adds up
    over the calls): ``with rec.recording(call_index): ...``."""

    def __init__(self) -> None:
        self.lines = LineRecorder()
        self.trace = TraceRecorder()
        self.records = RecordList(self.trace)        # give it to the compile context
        self.logs = LogCapture(order=lambda: len(self.records))

    def recording(self, call: int) -> _Recording:
        self.logs.call = call
        return _Recording(self)


class _Recording:
    def __init__(self, rec: Recorders):
        self.rec = rec

    def __enter__(self) -> Recorders:
        self.rec.logs.start()
        self.rec.trace.start()
        self.rec.lines.start()
        return self.rec

    def __exit__(self, *exc) -> None:
        self.rec.lines.stop()
        self.rec.trace.stop()
        self.rec.logs.stop()
