"""Which lines each successful trace covered, and where the root frame stopped.

While recording, the translator's dispatch loop (``TranslatorBase.step`` and ``run``)
and ``convert.convert_frame`` are wrapped, and restored afterwards:

- ``step``: the line of every instruction the translator steps over, per attempt (a
  trace may restart; only the attempt that produced the frame record counts);
- ``run``: the root frame's line where a ``GraphBreak`` stopped it (the call site of a
  callee that broke, or the start of a loop that runs eagerly);
- ``convert_frame``: pauses line tracing while a frame compiles (it runs no user code),
  so compile times are not inflated by tracing.

The wrappers do nothing in threads that are not recording.

Example::

    >>> trace = TraceRecorder(); ctx.records = RecordList(trace)
    >>> trace.start(); f(x); trace.stop()
    >>> trace.by_record[id(ctx.records[0])].stop_line
    5
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

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
_patch_lock = threading.Lock()
_patch_depth = 0
_originals: dict = {}


def _recorder():
    return getattr(active, "trace", None)


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


def _convert_frame(*args, **kwargs):
    lines = getattr(active, "lines", None)
    if lines is None:
        return _originals["convert_frame"](*args, **kwargs)
    lines.pause()
    try:
        return _originals["convert_frame"](*args, **kwargs)
    finally:
        lines.resume()


def _install() -> bool:
    global _patch_depth
    from dynamo import convert
    from dynamo.translator.base import TranslatorBase
    with _patch_lock:
        if _patch_depth == 0:
            if not (callable(getattr(TranslatorBase, "step", None)) and
                    callable(getattr(TranslatorBase, "run", None))):
                return False
            _originals["step"], _originals["run"] = TranslatorBase.step, TranslatorBase.run
            _originals["convert_frame"] = convert.convert_frame
            TranslatorBase.step, TranslatorBase.run = _step, _run
            convert.convert_frame = _convert_frame
        _patch_depth += 1
    return True


def _uninstall() -> None:
    global _patch_depth
    from dynamo import convert
    from dynamo.translator.base import TranslatorBase
    with _patch_lock:
        _patch_depth -= 1
        if _patch_depth == 0:
            TranslatorBase.step, TranslatorBase.run = _originals["step"], _originals["run"]
            convert.convert_frame = _originals["convert_frame"]


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

    def start(self) -> None:
        self.enabled = _install()
        if self.enabled:    # an annotated function called inside another: its own trace
            self._outer = getattr(active, "trace", None)
            active.trace = self

    def stop(self) -> None:
        if self.enabled:
            active.trace = self._outer
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
