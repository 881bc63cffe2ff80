"""Build the report model from frame records and what the recorders saw.

A pure function of its inputs: ``build_report(records, rec, calls, ...)`` reads the
``frame_records.FrameRecord``s (the same records ``dynamo.explain`` returns), the lines that
ran as Python, the lines each successful trace covered, and the captured log records,
and returns a :class:`~dynamo.report.model.Report`. Nothing here runs user code.

How a source line gets its facts (see ``model.LineInfo``):

- ``graphs``: call nodes of graph k whose ``meta["loc"]`` is this line;
- ``traced_in``: the trace that produced frame i stepped over this line;
- ``python``: a line event came from it while the function ran;
- ``breaks``: a break record points at it; ``break_sites``: the root frame stopped here
  because of a break elsewhere (a callee that breaks, a loop that runs eagerly).

Example::

    >>> report = build_report(rec.records, rec, calls, backend="eager")
    >>> report.graphs[0].op_count, report.breaks[0].lineno
    (2, 5)
"""

from __future__ import annotations

import inspect
import platform
import re
import time

from ..exc import called_from
from ..guard_words import guard_lines
from ..symbolic import SymInt
from .codes import base_qualname, code_key
from .model import (
    BreakInfo,
    FrameInfo,
    GraphInfo,
    GroupInfo,
    LineInfo,
    NodeInfo,
    Recompile,
    Report,
    SizeVariantInfo,
    SourceView,
)


def build_report(records, rec, calls, *, backend: str, backend_fn=None, compiled=None,
                 function=None, timing=None) -> Report:
    code = getattr(function, "__code__", None)
    report = Report(
        function=code.co_qualname if code else getattr(function, "__qualname__", "?"),
        filename=code.co_filename if code else "", firstlineno=code.co_firstlineno if code
        else 0, backend=backend, python=platform.python_version(),
        created=time.strftime("%Y-%m-%d %H:%M:%S"), calls=list(calls), timing=timing)
    views = _Views(report)
    attempts = rec.trace.by_record
    for i, r in enumerate(records):         # frames and views first: breaks need them all
        frame = FrameInfo(i, r.code.co_qualname, r.code.co_filename, r.code.co_firstlineno,
                          _call_of(i, calls), compile_time=r.compile_time,
                          restarts=r.restarts, skipped=r.skipped,
                          guards=guard_lines(r.guards, r.code),
                          check_source=r.check_source)
        frame.view = views.add(r.code, compiled=True).index
        report.frames.append(frame)
        att = attempts.get(id(r))
        for code_obj in (att.codes.values() if att else ()):
            views.add(code_obj)
    for frame, r in zip(report.frames, records):
        att = attempts.get(id(r))
        for b in r.breaks:
            if views.find(b.filename, b.lineno) is None:
                _view_for_line(views, rec.trace.all_codes.values(), b.filename, b.lineno)
            frame.breaks.append(_add_break(report, views, frame, b, att))
        if r.graph is not None:
            fn = (compiled or {}).get(id(r.graph))
            frame.graph = _add_graph(report, frame, r.graph, backend, backend_fn, fn).index
    _recompiles(report, rec.logs.entries)
    _size_variants(report, records, rec.logs.entries)
    _fill_lines(report, views, records, attempts, rec.lines.seen)
    report.warnings += [e.message for e in rec.logs.entries if e.channel == "internal"]
    return report


def _call_of(frame: int, calls) -> int:
    for c in calls:
        if c.frames[0] <= frame < c.frames[1]:
            return c.index
    return len(calls) - 1 if calls else 0


# ============================================================================ views

class _Views:
    """The source views of a report, found by code key or by file and line.

    A code object nested in a function that already has a view (a closure, a
    comprehension, a generator defined inside it) gets no view of its own: its facts
    go to the lines of the enclosing view, where the user reads them.
    """

    def __init__(self, report: Report):
        self.report = report
        self.by_key: dict[tuple, SourceView] = {}

    def add(self, code, compiled: bool = False) -> SourceView:
        key = code_key(code)
        view = self.by_key.get(key)
        if view is None:
            view = _make_view(len(self.report.views), key, code)
            outer = self._enclosing(view)
            if outer is not None:
                view = outer
            else:
                self.report.views.append(view)
            self.by_key[key] = view
        view.compiled |= compiled and view.key == key
        return view

    def _enclosing(self, view: SourceView) -> SourceView | None:
        if not view.lines:
            return None
        first, last = view.lines[0].lineno, view.lines[-1].lineno
        for other in self.report.views:
            if other.filename == view.filename and other.lines and \
                    other.lines[0].lineno <= first and last <= other.lines[-1].lineno:
                return other
        return None

    def find(self, filename: str, lineno: int | None, qualname: str | None = None):
        """The innermost view of ``filename`` whose lines hold ``lineno``."""
        best = None
        for view in self.report.views:
            if view.filename != filename or lineno is None or view.line(lineno) is None:
                continue
            if qualname is not None and view.qualname == base_qualname(qualname):
                return view
            if best is None or view.firstlineno > best.firstlineno:
                best = view
        return best


def _make_view(index: int, key: tuple, code) -> SourceView:
    filename, first, qualname = key
    view = SourceView(index, key, filename, qualname, first)
    try:
        lines, start = inspect.getsourcelines(code)
    except (OSError, TypeError) as e:
        view.note = f"source not available ({e})"
        return view
    start = max(start, 1)
    view.lines = [LineInfo(start + i, text.rstrip("\n")) for i, text in enumerate(lines)]
    return view


# ============================================================================ breaks

def _view_for_line(views: _Views, codes, filename: str, lineno: int | None) -> None:
    """Add a view for the innermost traced code holding the line (a callee that broke
    in an earlier attempt of the trace, and then ran eagerly)."""
    best = None
    for code in codes:
        if code.co_filename == filename and lineno in {ln for _, _, ln in code.co_lines()}:
            if best is None or code.co_firstlineno > best.co_firstlineno:
                best = code
    if best is not None:
        views.add(best)


def _add_break(report: Report, views: _Views, frame: FrameInfo, b, att) -> int:
    kind = "frame" if frame.skipped else (
        "island" if att is not None and att.stop_kind == "island" else "break")
    info = BreakInfo(len(report.breaks), frame.index, kind, b.reason, b.cause,
                     b.explanation, b.hint, b.filename, b.lineno, b.source_line, b.frame)
    view = views.find(b.filename, b.lineno)
    info.view = view.index if view is not None else None
    root_view = report.views[frame.view]
    site = att.stop_line if att is not None and kind != "frame" else None
    if site is not None and (site != b.lineno or root_view is not view) and \
            root_view.line(site) is not None:
        info.site, info.site_view = site, root_view.index
    if b.function:   # (``in helper (called from f at line 9)``, as explain says it)
        info.function = b.function + (f" ({called_from(list(b.callers))})" if b.callers
                                      else "")
    report.breaks.append(info)
    return info.index


# ============================================================================ graphs

def _add_graph(report: Report, frame: FrameInfo, graph, backend: str, backend_fn,
               compiled_fn) -> GraphInfo:
    groups, fused = _groups(graph, backend_fn, compiled_fn)
    group_of: dict = {}
    for g in groups:
        for name in g.nodes:
            group_of.setdefault(name, g.index)
    nodes = []
    for n in graph.nodes:
        meta = n.meta.get("array")
        shape = getattr(meta, "shape", None)
        source = n.meta.get("source")
        nodes.append(NodeInfo(
            n.name, n.op, str(n.target), tuple(shape) if shape is not None else None,
            str(getattr(meta, "dtype", "")), n.meta.get("loc", ""),
            [i.name for i in n.inputs()], group_of.get(n.name),
            source.name() if source is not None and hasattr(source, "name") else "",
            str(n.meta.get("frame") or "")))
    ends, end_break = "return", None
    if frame.breaks:
        b = report.breaks[frame.breaks[-1]]
        end_break = b.index
        where = f"line {b.site or b.lineno}"
        ends = {"island": f"the rest runs eagerly from {where} ({b.reason})",
                "frame": f"frame runs eagerly ({b.reason})"}.get(
            b.kind, f"graph break at {where}: {b.reason}")
    try:
        code = str(graph)
    except Exception as e:  # noqa: BLE001 (a printout problem must not lose the report)
        code = f"<graph printout failed: {type(e).__name__}: {e}>"
    info = GraphInfo(len(report.graphs), frame.index, frame.qualname, backend, nodes,
                     groups, fused, code, ends, end_break, _backend_code(compiled_fn))
    report.graphs.append(info)
    return info


def _groups(graph, backend_fn, compiled_fn) -> tuple[list[GroupInfo], bool]:
    """The kernels of a graph as the backend made them, or one library call per op.

    A backend says how it grouped the ops through the compiled function
    (``fn.__dynamo_groups__``: groups, or (group, plan) pairs; ``fn.compiled.plan.steps``:
    steps with ``kind`` and ``nodes``) or with ``backend.fusion_groups(graph)``. Nothing
    is guessed: a backend that does not say is shown running one call per op. Node
    names follow the backend's graph (its passes may add or drop nodes).
    """
    found = None
    try:
        found = _said_groups(graph, backend_fn, compiled_fn)
    except Exception:  # noqa: BLE001 (a backend's internals changed: show ops one by one)
        found = None
    if found is not None:
        return [_group_info(i, kind, nodes) for i, (kind, nodes) in enumerate(found)], True
    return [_group_info(i, n.meta.get("kind") or "op", [n])
            for i, n in enumerate(graph.call_nodes())], False


def _said_groups(graph, backend_fn, compiled_fn) -> list | None:
    groups = getattr(compiled_fn, "__dynamo_groups__", None)
    if groups is not None:
        out = []
        for g in groups:
            g, plan = g if isinstance(g, tuple) else (g, None)
            out.append((g.kind + (" (block-wise)" if plan is not None else ""), g.nodes))
        return out
    steps = getattr(getattr(getattr(compiled_fn, "compiled", None), "plan", None), "steps",
                    None)
    if steps is not None:
        return [(s.kind, list(s.nodes)) for s in steps]
    partition = getattr(backend_fn, "fusion_groups", None)
    if callable(partition):
        return [(g.kind, g.nodes) for g in partition(graph)]
    return None


def _group_info(index: int, kind: str, nodes: list) -> GroupInfo:
    members = set(nodes)
    inputs: dict = {}
    for n in nodes:
        for i in n.inputs():
            if i not in members:
                inputs.setdefault(i.name)
    outputs = [n.name for n in nodes
               if any(u not in members for u in n.users) or n.op == "output"]
    return GroupInfo(index, kind, [n.name for n in nodes], list(inputs), outputs)


def _backend_code(fn) -> list[tuple[str, str]]:
    """What the backend generated, when it says: Python source, CUDA source."""
    out = []
    src = getattr(fn, "__dynamo_source__", None)
    if isinstance(src, str) and src:
        out.append(("generated Python", src))
    cuda = getattr(getattr(fn, "compiled", None), "cuda_source", None)
    if isinstance(cuda, str) and cuda:
        out.append(("CUDA kernels", cuda))
    return out


# ============================================================================ recompiles

_WHERE = re.compile(r"^(?:recompiling )?(?P<qual>[^\s:]+?):?(?: \((?P<file>.+):(?P<line>\d+)\))?"
                    r"(?=[:\s]|$)")
_ENTRY = re.compile(r"entry \d+: (.*?)(?=;\s*entry \d+:|\n|$)")


def _recompiles(report: Report, entries) -> None:
    """Recompiles from the ``dynamo.recompiles`` records: the frame (its qualname, file
    and line, as the hook names them) and, per cached entry, the first guard that failed.
    A backend's size variants on that channel are not the frame's: ``_size_variants``."""
    for e in entries:
        if e.channel != "recompiles" or e.variant is not None:
            continue
        m = _WHERE.match(e.message)
        qual, filename, line = (m["qual"], m["file"] or "", int(m["line"]) if m["line"]
                                else None) if m else ("", "", None)
        rc = Recompile(len(report.recompiles), e.call, qual, filename, line,
                       _ENTRY.findall(e.message), e.message, e.level)
        report.recompiles.append(rc)
        if e.level != "WARNING":
            for f in report.frames[e.order:]:       # the entry this recompile produced
                if f.qualname == rc.qualname:
                    f.recompile = rc.index
                    break


def _size_variants(report: Report, records, entries) -> None:
    """The backend's size variants (``dynamo.logs.SizeVariant`` records), each with the
    report's graph it belongs to and that graph's inputs at its sizes: graph 1 of
    ``x: (s0, 4)`` compiled for ``{"s0": 5}`` shows ``L['x']: (5, 4)``."""
    graph_of = {id(r.graph): f.graph for f, r in zip(report.frames, records)
                if r.graph is not None}
    for e in entries:
        v = e.variant
        if v is None:
            continue
        k = graph_of.get(v.graph)
        shapes = [] if k is None or v.generic else [
            f"{n.source or n.name}: ({', '.join(_at(d, v.sizes) for d in n.shape)})"
            for n in report.graphs[k].inputs if n.shape is not None]
        report.size_variants.append(SizeVariantInfo(
            len(report.size_variants), e.call, k, dict(v.sizes), shapes, v.number,
            v.generic, e.message))


def _at(dim, sizes: dict[str, int]) -> str:
    if isinstance(dim, SymInt):
        try:
            return str(dim.sym.evaluate(sizes))
        except KeyError:          # (a size the variant's key does not hold)
            return str(dim)
    return str(dim)


# ============================================================================ lines

def _fill_lines(report: Report, views: _Views, records, attempts, lines_run) -> None:
    for g in report.graphs:
        for n in g.nodes:
            if n.op != "call" or not n.loc:
                continue
            filename, _, line = n.loc.rpartition(":")
            lineno = int(line) if line.isdigit() else None
            view = views.find(filename, lineno, n.frame or None)
            if view is not None:
                view.line(lineno).graphs.setdefault(g.index, []).append(n.target)
    for frame in report.frames:
        att = attempts.get(id(records[frame.index]))
        if att is None or frame.skipped:
            continue
        for key, lines in att.lines.items():
            view = views.by_key.get(key)
            for lineno in lines if view is not None else ():
                ln = view.line(lineno)
                if ln is not None and frame.index not in ln.traced_in and \
                        not _is_header(ln, view):
                    ln.traced_in.append(frame.index)
    for key, lines in lines_run.items():
        view = views.by_key.get(key)
        for lineno in lines if view is not None else ():
            ln = view.line(lineno)
            if ln is not None and not _is_header(ln, view):
                ln.python = True
    for b in report.breaks:
        if b.view is not None and b.lineno is not None:
            ln = report.views[b.view].line(b.lineno)
            if ln is not None:
                ln.breaks.append(b.index)
        if b.site_view is not None:
            report.views[b.site_view].line(b.site).break_sites.append(b.index)


def _is_header(ln: LineInfo, view: SourceView) -> bool:
    # The prologue of a rewritten frame carries the ``def`` line's position.
    text = ln.text.lstrip()
    return ln.lineno == view.firstlineno and text.startswith(("def ", "async def ", "@"))
