"""One section per captured graph: facts, kernels, the picture, the printout.

Small graphs are drawn inline and open; a graph with more than ``INLINE_NODES`` nodes
is drawn into an inert ``<template>`` inside a closed ``<details>`` that the page's
script fills in when opened, and its long tables are folded too.

Example::

    >>> html = render_graph(report, report.graphs[0], layout="builtin")
    >>> "<svg" in html
    True
"""

from __future__ import annotations

from collections import Counter
from html import escape

from .model import GraphInfo, Report
from .page_source import graph_style
from .svg import PALETTE, draw_graph

INLINE_NODES = 150      # larger pictures are built on demand
ROWS_OPEN = 30          # longer tables start folded


def render_graphs(report: Report, layout: str) -> str:
    if not report.graphs:
        return '<p class="muted">No graph was captured: every frame ran as plain Python ' \
               '(see the breaks above).</p>'
    return "".join(render_graph(report, g, layout) for g in report.graphs)


def render_graph(report: Report, g: GraphInfo, layout: str) -> str:
    frame = report.frames[g.frame]
    view = report.views[frame.view] if frame.view is not None else None
    where = f"{frame.filename}:{frame.firstlineno}"
    if view is not None:
        where = f'<a href="#v{view.index}">{escape(where)}</a>'
    big = len(g.nodes) > INLINE_NODES
    summary = (f"Graph {g.index} &middot; {escape(g.qualname)} &middot; {g.op_count} ops "
               f"&middot; {len(g.groups)} {'kernels' if g.fused else 'library calls'} "
               f"&middot; {'returns' if g.end_break is None else 'ends at a graph break'}")
    color = graph_style(g.index).split(";")[1].split(":")[1]
    out = [f'<details class="graph" id="graph-{g.index}" style="border-left-color:{color}" '
           f'{"" if big else "open"}><summary>{summary}</summary>',
           f'<p class="muted">compiled frame {frame.index} at {where}, backend '
           f'<b>{escape(g.backend)}</b>, compile {frame.compile_time * 1e3:.1f} ms'
           + (f", {frame.restarts} trace restart(s)" if frame.restarts else "")
           + f". After the graph: {escape(g.ends)}"
           + (f' (<a href="#break-{g.end_break}">break {g.end_break}</a>)'
              if g.end_break is not None else "") + ".</p>",
           '<div class="facts">', _inputs(g), _outputs(g), _guards(frame.guards), "</div>",
           _kernels(g), _picture(g, layout, big),
           f'<details><summary>the graph as Python ({len(g.nodes)} nodes)</summary>'
           f'<pre class="code">{escape(g.code)}</pre></details>',
           *(f'<details><summary>{escape(title)} of backend {escape(g.backend)} '
             f'({text.count(chr(10)) + 1} lines)</summary><pre class="code">{escape(text)}'
             "</pre></details>" for title, text in g.backend_code),
           "</details>"]
    return "".join(out)


def _fold(title: str, rows: list[str], head: str) -> str:
    table = f'<div class="scroll"><table><tr>{head}</tr>{"".join(rows)}</table></div>'
    if len(rows) <= ROWS_OPEN:
        return f"<div><h4>{title}</h4>{table}</div>"
    return f"<div><details><summary><b>{title}</b> ({len(rows)})</summary>{table}" \
           "</details></div>"


def _shape(shape) -> str:
    return "scalar" if shape == () else ("?" if shape is None else
                                         "(" + ", ".join(map(str, shape)) + ")")


def _inputs(g: GraphInfo) -> str:
    rows = [f"<tr><td><code>{escape(n.name)}</code></td><td><code>{escape(n.source)}</code>"
            f"</td><td>{_shape(n.shape)}</td><td>{escape(n.dtype)}</td></tr>"
            for n in g.inputs]
    return _fold(f"Inputs ({len(rows)})", rows,
                 "<th>name</th><th>read from</th><th>shape</th><th>dtype</th>")


def _outputs(g: GraphInfo) -> str:
    by_name = {n.name: n for n in g.nodes}
    rows = []
    for name in g.outputs:
        n = by_name.get(name)
        rows.append(f"<tr><td><code>{escape(name)}</code></td>"
                    f"<td>{_shape(n.shape) if n else ''}</td>"
                    f"<td>{escape(n.dtype) if n else ''}</td></tr>")
    return _fold(f"Outputs ({len(rows)})", rows, "<th>node</th><th>shape</th><th>dtype</th>")


def _guards(guards: list[str]) -> str:
    rows = [f"<tr><td><code>{escape(s)}</code></td></tr>" for s in guards]
    return _fold(f"Guards ({len(rows)})", rows, "<th>the cached graph runs when</th>")


def _kernels(g: GraphInfo) -> str:
    if not g.fused:
        kinds = Counter(grp.kind for grp in g.groups)
        text = ", ".join(f"{n} {k}" for k, n in kinds.most_common())
        return (f'<p>Backend <b>{escape(g.backend)}</b> runs each op as one library call '
                f'({escape(text) or "none"}); it does not say that it fuses any. Boxes are '
                "coloured by op kind.</p>")
    rows = []
    for grp in g.groups:
        color = PALETTE[grp.index % len(PALETTE)]
        rows.append(f'<tr><td><span class="kern" style="background:{color}"></span>'
                    f"{grp.index}</td><td>{escape(grp.kind)}</td><td><code>"
                    f"{escape(', '.join(grp.nodes))}</code></td><td><code>"
                    f"{escape(', '.join(grp.inputs))}</code></td><td><code>"
                    f"{escape(', '.join(grp.outputs))}</code></td></tr>")
    return _fold(f"Kernels ({len(rows)}), boxes coloured by kernel", rows,
                 "<th>kernel</th><th>kind</th><th>ops</th><th>reads</th><th>writes</th>")


def _picture(g: GraphInfo, layout: str, big: bool) -> str:
    try:
        svg = draw_graph(g, layout)
    except Exception as e:  # noqa: BLE001 (a drawing problem must not lose the report)
        return f'<p class="warn">The picture could not be drawn: {escape(type(e).__name__)}: ' \
               f'{escape(str(e))}</p>'
    if not big:
        return f'<div class="pic">{svg}</div>'
    return (f'<details class="lazy-pic"><summary>picture ({len(g.nodes)} nodes; built when '
            f'opened)</summary><div class="pic"></div><template class="lazy">{svg}</template>'
            "</details>")
