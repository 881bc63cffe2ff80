"""What the annotator watches while the function runs, besides the frame records.

Three observers, all switched on only for the duration of an annotated call (the
first two live in :mod:`.lines_run` and :mod:`.trace_hook`):

- ``LineRecorder``: which source lines ran as real Python bytecode (``sys.settrace``
  over user frames, paused while a frame compiles). Compiled graphs and glue produce
  no events on user lines, so an event means the line ran as plain Python: at a graph
  break, in a loop run eagerly, or in a frame that fell back.
- ``TraceRecorder``: which lines the translator traced in the attempt that produced
  each frame record (a trace may restart; only the last attempt counts), and the line
  where the root frame stopped (the call site of a callee that broke, or the start of
  a loop that runs eagerly). It is a compile listener (``dynamo.listeners``: each
  step of the translator, each graph break, each frame compile, during which it
  pauses line tracing) while recording.
- ``LogCapture``: records of the ``dynamo.recompiles`` channel (the guard that failed,
  or a backend's size variant: ``dynamo.logs.SizeVariant``, kept as ``LogEntry.variant``)
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
from dataclasses import dataclass

from ..logs import SIZE_VARIANT
from . import trace_hook
from .lines_run import LineRecorder
from .trace_hook import RecordList, TraceRecorder


@dataclass
class LogEntry:
    channel: str
    level: str
    message: str
    args: tuple
    call: int = 0        # the annotated call it happened in
    order: int = 0       # how many frame records existed when it was logged
    variant: object = None   # a backend's size variant (dynamo.logs.SizeVariant)


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
                                     record.getMessage(), args, self.call, self.order(),
                                     getattr(record, SIZE_VARIANT, None)))
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
        self.outer = None

    def __enter__(self) -> Recorders:
        self.rec.logs.start()
        self.rec.trace.start()
        self.rec.lines.start()
        self.outer = getattr(trace_hook.active, "lines", None)
        trace_hook.active.lines = self.rec.lines
        return self.rec

    def __exit__(self, *exc) -> None:
        trace_hook.active.lines = self.outer
        self.rec.lines.stop()
        self.rec.trace.stop()
        self.rec.logs.stop()
