"""The data behind an annotate report: plain dataclasses, no HTML.

``collect.build_report`` fills a ``Report`` from ``dynamo.explain``-style frame
records and what the recorder saw while the function ran; ``html.render`` draws it.
Tests read this model directly (which lines were captured, broke, ran as Python).

Example::

    >>> report = annotator.report
    >>> view = report.view_of(f)
    >>> [(ln.lineno, ln.status) for ln in view.lines if ln.status != "idle"]
    [(4, 'graph'), (5, 'break'), (6, 'graph'), (7, 'graph')]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Line statuses, most important first: the colour a line gets is its first match.
BREAK = "break"        # this line caused a graph break (or is where one lands in the caller)
GRAPH = "graph"        # array ops on this line were captured into a graph
PYTHON = "python"      # this line ran as plain Python bytecode (between graphs, or eagerly)
TRACED = "traced"      # traced away: captured with no array op of its own (no runtime cost)
IDLE = "idle"          # nothing ran here (comments, branches not taken, code not reached)
STATUSES = (BREAK, GRAPH, PYTHON, TRACED, IDLE)


@dataclass
class LineInfo:
    lineno: int
    text: str
    graphs: dict[int, list[str]] = field(default_factory=dict)  # graph index -> op names
    traced_in: list[int] = field(default_factory=list)           # frame indices
    python: bool = False
    breaks: list[int] = field(default_factory=list)       # breaks this line caused
    break_sites: list[int] = field(default_factory=list)  # breaks that land here (call site,
    #                                                       start of a loop run eagerly)

    @property
    def status(self) -> str:
        if self.breaks or self.break_sites:
            return BREAK
        if self.graphs:
            return GRAPH
        if self.python:
            return PYTHON
        if self.traced_in:
            return TRACED
        return IDLE


@dataclass
class SourceView:
    """One function's source, every line annotated."""

    index: int
    key: tuple                    # (filename, firstlineno, qualname without resume suffix)
    filename: str
    qualname: str
    firstlineno: int
    lines: list[LineInfo] = field(default_factory=list)
    compiled: bool = False        # a frame of its own (else: only inlined into others)
    note: str = ""                # why the source is missing, when it is

    def line(self, lineno: int) -> LineInfo | None:
        i = lineno - (self.lines[0].lineno if self.lines else 0)
        return self.lines[i] if 0 <= i < len(self.lines) else None

    def statuses(self) -> dict[int, str]:
        return {ln.lineno: ln.status for ln in self.lines}


@dataclass
class BreakInfo:
    index: int
    frame: int                     # index into Report.frames
    kind: str                      # "break", "island" (a loop/try runs eagerly), "frame"
    reason: str
    cause: str
    explanation: str
    hint: str
    filename: str
    lineno: int | None
    source_line: str
    qualname: str                  # the compiled frame it happened in
    site: int | None = None        # line in the compiled frame where the break lands
    view: int | None = None        # view holding ``lineno``
    site_view: int | None = None   # view holding ``site``
    # the function whose line it is (an inlined helper's) and the calls that led there:
    # ``helper (called from f at line 9)``; empty: the compiled frame's own line
    function: str = ""


@dataclass
class FrameInfo:
    """One compiled frame (the function, a resume function, or a callee at a break)."""

    index: int
    qualname: str
    filename: str
    firstlineno: int
    call: int                      # index into Report.calls
    view: int | None = None
    graph: int | None = None       # index into Report.graphs
    breaks: list[int] = field(default_factory=list)
    guards: list[str] = field(default_factory=list)
    check_source: str = ""
    compile_time: float = 0.0
    restarts: int = 0
    skipped: str | None = None
    recompile: int | None = None   # index into Report.recompiles that made this entry


@dataclass
class NodeInfo:
    name: str
    op: str                        # placeholder, call, constant, output
    target: str
    shape: tuple | None
    dtype: str
    loc: str                       # "file:line" of the source line, for calls
    inputs: list[str] = field(default_factory=list)
    group: int | None = None       # index into GraphInfo.groups
    source: str = ""               # placeholders: where the caller reads the value
    frame: str = ""                # qualname of the frame the op was traced in


@dataclass
class GroupInfo:
    """A kernel: ops a fusing backend runs together (with ``eager``, one op each)."""

    index: int
    kind: str
    nodes: list[str]
    inputs: list[str]
    outputs: list[str]


@dataclass
class GraphInfo:
    index: int
    frame: int
    qualname: str
    backend: str
    nodes: list[NodeInfo]
    groups: list[GroupInfo]
    fused: bool                    # groups come from a fusing backend's partition
    code: str                      # the graph printed as Python
    ends: str                      # "return", or how the frame continues after a break
    end_break: int | None = None   # the break the graph stops at
    backend_code: list[tuple[str, str]] = field(default_factory=list)  # (title, source)

    @property
    def op_count(self) -> int:
        return sum(1 for n in self.nodes if n.op == "call")

    @property
    def inputs(self) -> list[NodeInfo]:
        return [n for n in self.nodes if n.op == "placeholder"]

    @property
    def outputs(self) -> list[str]:
        out = [n for n in self.nodes if n.op == "output"]
        return out[0].inputs if out else []


@dataclass
class Recompile:
    index: int
    call: int
    qualname: str
    filename: str
    firstlineno: int | None
    failures: list[str]            # the guard that failed, per cached entry
    message: str
    level: str = "DEBUG"           # WARNING: the cache limit was hit, frame runs eagerly


@dataclass
class SizeVariantInfo:
    """A backend's compile of graph k for one call's sizes (the numpy backend's
    ``PerSize``): the frame's guards held and nothing was traced again, so it is no
    recompile. ``sizes`` ``{"s0": 5}``, ``shapes`` ``["L['x']: (5, 4)"]``; ``generic``:
    past its static variants the graph runs size-generic code for new sizes."""

    index: int
    call: int
    graph: int | None              # index into Report.graphs (None: not a recorded graph)
    sizes: dict[str, int]
    shapes: list[str]              # the graph's array inputs at these sizes
    number: int                    # the graph's static variants so far
    generic: bool
    message: str


@dataclass
class CallInfo:
    index: int
    args: list[str]                # short descriptions: "float64[4]", "3", "list[2]"
    seconds: float                 # wall time of the annotated call (compile included)
    frames: tuple[int, int]        # range of Report.frames compiled during this call
    error: str = ""                # the exception the call raised, if any


@dataclass
class Timing:
    calls: int
    eager: float                   # seconds per call, median of rounds
    compiled: float

    @property
    def speedup(self) -> float:
        return self.eager / self.compiled if self.compiled > 0 else float("inf")


@dataclass
class Report:
    function: str
    filename: str
    firstlineno: int
    backend: str
    python: str
    created: str
    calls: list[CallInfo] = field(default_factory=list)
    frames: list[FrameInfo] = field(default_factory=list)
    graphs: list[GraphInfo] = field(default_factory=list)
    breaks: list[BreakInfo] = field(default_factory=list)
    recompiles: list[Recompile] = field(default_factory=list)   # the frames' own
    size_variants: list[SizeVariantInfo] = field(default_factory=list)  # the backend's
    views: list[SourceView] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    timing: Timing | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def compile_time(self) -> float:
        return sum(f.compile_time for f in self.frames)

    @property
    def op_count(self) -> int:
        return sum(g.op_count for g in self.graphs)

    def breaks_by_cause(self) -> dict[str, list[BreakInfo]]:
        out: dict[str, list[BreakInfo]] = {}
        for b in self.breaks:
            out.setdefault(b.cause or "other", []).append(b)
        return dict(sorted(out.items(), key=lambda kv: -len(kv[1])))

    def view_of(self, fn) -> SourceView:
        """The view of a function (or code object); KeyError when it was not traced."""
        code = getattr(fn, "__code__", fn)
        qual = getattr(code, "co_qualname", getattr(code, "co_name", ""))
        for v in self.views:
            if v.key == (code.co_filename, code.co_firstlineno, qual):
                return v
        raise KeyError(f"{qual} was not traced; traced: {[v.qualname for v in self.views]}")
