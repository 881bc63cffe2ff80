"""What compiling one frame records and logs: ``FrameRecord`` (its graph, guards,
breaks, CPU time per phase: what ``dynamo.explain`` and the report read), the
``BreakRecord`` of each graph break, and the ``graph_breaks`` and ``bytecode`` log
lines (:mod:`dynamo.convert` fills them in).

Example::

    >>> record = FrameRecord(f.__code__)
    >>> with _phase(record, "trace"):
    ...     tx.run()
    >>> record.phases["trace"]            # CPU seconds of this thread
    0.0042
    >>> str(_break_record(Unsupported("call to print()"), f.__code__))
    'call to print()\\n  at prog.py:None in f\\n  why: ...\\n  hint: ...'
"""

from __future__ import annotations

import time
import types
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field

from . import logs
from .bytecode.instructions import code_name
from .exc import Unsupported, called_from
from .graph import Graph

log_breaks = logs.get("graph_breaks")

_seen_breaks: Counter = Counter()
_break_frames: dict[tuple, set] = {}   # a logged break -> the frames that reported it


@dataclass
class BreakRecord:
    reason: str
    explanation: str
    hint: str
    cause: str
    filename: str
    lineno: int | None
    source_line: str
    frame: str
    function: str = ""        # whose line it is: a helper's, inlined into ``frame``
    callers: tuple = ()       # the calls that led there: (function, line), innermost first

    @property
    def site(self) -> tuple:
        """What makes two records one break: the same reason at the same line (a break
        in a helper is recorded once by each frame it ends a graph in)."""
        return self.reason, self.filename, self.lineno

    def __str__(self) -> str:
        return self.describe([self.frame])

    def describe(self, frames: list[str]) -> str:
        """The record as the report shows it, ``frames`` being the frames whose graphs
        it ends: ``in f``; for a break in a helper, the helper and the calls that led
        there (``in check (called from mid at line 7, from top at line 12), ending the
        graphs of top, mid and check``: the outer frames traced into the helper and
        broke first)."""
        where = self.function or frames[-1]
        if self.callers:
            where += f" ({called_from(list(self.callers))})"
        if len(frames) > 1:
            where += f", ending the graphs of {', '.join(frames[:-1])} and {frames[-1]}"
        text = f"{self.reason}\n  at {self.filename}:{self.lineno} in {where}"
        if self.source_line:
            text += f"\n      {self.source_line}"
        if self.explanation:
            text += f"\n  why: {self.explanation}"
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text



@dataclass
class FrameRecord:
    """What compiling one frame produced (read by ``dynamo.explain``)."""

    code: types.CodeType
    graph: Graph | None = None
    breaks: list[BreakRecord] = field(default_factory=list)
    guards: list = field(default_factory=list)
    check_source: str = ""
    glue_source: str = ""
    compile_time: float = 0.0
    restarts: int = 0
    skipped: str | None = None
    symbols: dict = field(default_factory=dict)      # symbol -> the size it stands for
    static_dims: set = field(default_factory=set)    # sizes a trace had to specialize
    numbers: set = field(default_factory=set)        # sources read as changing numbers
    phases: dict = field(default_factory=dict)       # "trace"/"finish"/"guards" -> CPU s
    # the trace's guards where the entry checks fewer (``filling_deques``), else None
    traced_guards: list | None = None

    @property
    def op_count(self) -> int:
        return len(self.graph.call_nodes()) if self.graph is not None else 0


@contextmanager
def _phase(record: FrameRecord, name: str):
    """Adds the CPU seconds the block takes in this thread to ``record.phases[name]``
    (for benchmarks: CPU time, so other processes on the machine do not count)."""
    start = time.thread_time()
    try:
        yield
    finally:
        record.phases[name] = record.phases.get(name, 0.0) + time.thread_time() - start


def _break_record(e: Unsupported, code) -> BreakRecord:
    filename, lineno, line = e.location or (code.co_filename, None, "")
    function = getattr(e, "function", None) if e.location else None
    return BreakRecord(e.reason, e.explanation, e.hint, e.cause, filename, lineno, line,
                       code_name(code), function or "",
                       tuple(getattr(e, "callers", ())) if function else ())


def _log_break(e: Unsupported, code, whole_frame: bool = False, island: bool = False):
    if not log_breaks.isEnabledFor(10):
        return
    rec = _break_record(e, code)
    key = (rec.filename, rec.lineno, rec.reason)
    frames = _break_frames.setdefault(key, set())
    frame = (code.co_filename, code.co_qualname)
    if frames and frame not in frames:
        # the same break seen again from another frame: a caller that inlined the
        # callee broke at the call, then the callee's own compile breaks at the line
        frames.add(frame)
        return
    frames.add(frame)
    _seen_breaks[key] += 1
    n = _seen_breaks[key]
    if n > 1:
        log_breaks.debug("graph break again (%d times): %s at %s:%s", n, rec.reason,
                         rec.filename, rec.lineno)
        return
    what = "frame runs eagerly" if whole_frame else (
        "the enclosing loop/try block runs eagerly" if island else "graph break")
    log_breaks.debug("%s: %s", what, rec)


class _LazyDis:
    """Formats bytecode only if the bytecode channel is on: the original and the
    rewritten code of a frame, or one code object under a title."""

    def __init__(self, original, new=None, title: str | None = None):
        self.original, self.new, self.title = original, new, title

    def __str__(self) -> str:
        import dis
        import io
        out = io.StringIO()
        if self.title:
            out.write(f"{self.title} {self.original.co_qualname}:\n")
            dis.dis(self.original, file=out)
            return out.getvalue()
        out.write(f"original bytecode of {self.original.co_qualname}:\n")
        dis.dis(self.original, file=out)
        out.write(f"\nrewritten bytecode of {self.new.co_qualname}:\n")
        dis.dis(self.new, file=out)
        return out.getvalue()
