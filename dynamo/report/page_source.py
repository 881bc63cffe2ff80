"""The annotated source of each traced function, as HTML.

Every line gets a class ``st-<status>`` (``model.STATUSES``), a mark column ("G0",
"py", "x") and, for captured lines, the colour of its graph. A break line is
focusable and holds a tooltip with the reason, the explanation and the hint. Runs of
more than ``FOLD`` lines where nothing happened (and, in long functions, long runs
captured into one graph) are folded into ``<details>``, so a function of thousands of
lines stays short to read and quick to open.

Example::

    >>> html = render_view(report, report.views[0])
    >>> 'class="ln st-break"' in html
    True
"""

from __future__ import annotations

from html import escape

from .assets import GRAPH_BORDERS, GRAPH_COLORS
from .model import BREAK, GRAPH, IDLE, PYTHON, TRACED, LineInfo, Report, SourceView

FOLD = 12           # fold runs of idle lines longer than this
FOLD_CAPTURED = 40  # in big functions, also fold long runs of other alike lines
BIG_VIEW = 300      # lines: what counts as a big function
KEEP = 2            # lines kept visible at each end of a folded run
KIND_WORDS = {"break": "graph break", "island": "loop/try block runs eagerly",
              "frame": "whole frame runs eagerly"}


def graph_style(k: int) -> str:
    return f"background:{GRAPH_COLORS[k % len(GRAPH_COLORS)]};" \
           f"border-left-color:{GRAPH_BORDERS[k % len(GRAPH_BORDERS)]}"


def render_views(report: Report) -> str:
    out = []
    for view in sorted(report.views, key=lambda v: (not v.compiled, v.index)):
        out.append(render_view(report, view))
    return "".join(out)


def render_view(report: Report, view: SourceView) -> str:
    role = "compiled frame" if view.compiled else "inlined into a graph"
    head = (f'<h3 id="v{view.index}">{escape(view.qualname)} <small>{escape(view.filename)}'
            f':{view.firstlineno} &middot; {role}</small></h3>')
    if not view.lines:
        return head + f'<p class="muted">{escape(view.note or "no source")}</p>'
    rows = [_line(report, view, ln) for ln in view.lines]
    return head + f'<div class="src" data-view="{view.index}">' + \
        "".join(_folded(view.lines, rows)) + "</div>"


def _run_key(ln: LineInfo):
    """Lines with the same key fold together; break lines never fold."""
    status = ln.status
    if status == BREAK:
        return None
    return (status, min(ln.graphs) if ln.graphs else None)


def _folded(lines: list[LineInfo], rows: list[str]):
    """Yield rows, folding long runs of alike lines except a few at each end.

    Idle runs fold past ``FOLD`` lines; in a function longer than ``BIG_VIEW`` lines,
    runs captured into one graph, traced away or run as Python fold past
    ``FOLD_CAPTURED`` (with the short gaps of blank lines and comments inside them).
    """
    n = len(lines)
    keys = [_run_key(ln) for ln in lines]
    if n > BIG_VIEW:        # short gaps (blank lines, comments) join the stretch around them
        i = 0
        while i < n:
            j = i
            while j < n and keys[j] is not None and keys[j][0] in (IDLE, TRACED):
                j += 1
            prev = keys[i - 1] if i else None
            if i < j <= i + FOLD and prev is not None and prev[0] in (GRAPH, PYTHON):
                keys[i:j] = [prev] * (j - i)
            i = max(j, i + 1)
    i = 0
    while i < n:
        key = keys[i]
        j = i + 1
        while key is not None and j < n and keys[j] == key:
            j += 1
        limit = FOLD if key is not None and key[0] == IDLE else \
            FOLD_CAPTURED if key is not None and n > BIG_VIEW else None
        if limit is None or j - i <= limit:
            yield from rows[i:j]
            i = j
            continue
        lo, hi = i + (KEEP if i > 0 else 0), j - (KEEP if j < n else 0)
        what = {IDLE: "where nothing ran", TRACED: "traced away",
                PYTHON: "that ran as plain Python (or are blank)"}.get(
            key[0], f"captured into graph {key[1]} (or blank)")
        yield from rows[i:lo]
        yield (f'<details class="fold"><summary>{hi - lo} lines {what} (lines '
               f'{lines[lo].lineno}\u2013{lines[hi - 1].lineno})</summary>'
               + "".join(rows[lo:hi]) + "</details>")
        yield from rows[hi:j]
        i = j


def _line(report: Report, view: SourceView, ln: LineInfo) -> str:
    status = ln.status
    anchor = f"v{view.index}-L{ln.lineno}"
    attrs = f'class="ln st-{status}" id="{anchor}" data-status="{status}"'
    tip = ""
    if status == BREAK:
        attrs += ' tabindex="0" role="button" aria-haspopup="true"'
        mark = "\u2716 " + ",".join(f"B{b}" for b in ln.breaks + ln.break_sites)
        tip = _tip(report, ln)
    elif status == GRAPH:
        ks = sorted(ln.graphs)
        attrs += f' style="{graph_style(ks[0])}" data-graphs="{" ".join(map(str, ks))}"'
        ops = "; ".join(f"graph {k}: {', '.join(ln.graphs[k][:12])}"
                        + (" ..." if len(ln.graphs[k]) > 12 else "") for k in ks)
        attrs += f' title="{escape(ops)}"'
        mark = ",".join(f"G{k}" for k in ks) + (" py" if ln.python else "")
    elif status == PYTHON:
        attrs += ' title="ran as plain Python"'
        mark = "py"
    elif status == TRACED:
        graphs = [report.frames[f].graph for f in ln.traced_in]
        where = ", ".join(f"graph {g}" if g is not None else f"frame {f}"
                          for f, g in zip(ln.traced_in, graphs))
        attrs += f' title="traced into {escape(where)}: no array op, no Python at run time"'
        mark = "\u00b7"
    else:
        mark = ""
    return (f'<div {attrs}><a class="no" href="#{anchor}">{ln.lineno}</a>'
            f'<span class="mk">{escape(mark)}</span><code>{escape(ln.text) or " "}</code>'
            f'{tip}</div>')


def _tip(report: Report, ln: LineInfo) -> str:
    parts = []
    for b in (report.breaks[i] for i in ln.breaks):
        parts.append(
            f'<p><b>{escape(b.reason)}</b> <span class="muted">({KIND_WORDS[b.kind]}, '
            f'cause: {escape(b.cause or "other")})</span></p>'
            + (f'<p class="why">{escape(b.explanation)}</p>' if b.explanation else "")
            + (f'<p class="hint">{escape(b.hint)}</p>' if b.hint else "")
            + (f'<p class="muted">lands in {escape(b.qualname)} at line {b.site}</p>'
               if b.site is not None else "")
            + f'<p><a href="#break-{b.index}">break {b.index} details</a></p>')
    for b in (report.breaks[i] for i in ln.break_sites):
        what = "The loop/try block starting here runs eagerly" if b.kind == "island" \
            else "This call runs eagerly"
        callee = f"{b.filename.rsplit('/', 1)[-1]}:{b.lineno}"
        parts.append(
            f'<p><b>{what}</b>: {escape(b.reason)} at {escape(callee)}</p>'
            + (f'<p class="why">{escape(b.explanation)}</p>' if b.explanation else "")
            + (f'<p class="hint">{escape(b.hint)}</p>' if b.hint else "")
            + f'<p><a href="#break-{b.index}">break {b.index} details</a></p>')
    return f'<div class="tip" role="tooltip">{"".join(parts)}</div>'


def legend(report: Report) -> str:
    items = [f'<span><span class="sw" style="{graph_style(k)}"></span>graph {k}</span>'
             for k in range(min(len(report.graphs), len(GRAPH_COLORS)))]
    items += ['<span><span class="sw k-python"></span>ran as plain Python</span>',
              '<span><span class="sw k-break"></span>caused a graph break '
              '(hover or click)</span>',
              '<span><span class="sw k-traced"></span>traced away (no array op, '
              'no Python at run time)</span>',
              '<span><span class="sw" style="border:1px solid #ccc"></span>'
              'did not run</span>']
    return '<div class="legend">' + "".join(items) + "</div>"

