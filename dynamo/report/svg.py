"""Draw one captured graph as inline SVG.

The picture is built from the graph's ``networkx.DiGraph`` (``graph_to_nx``) with the
layered layout of :mod:`dynamo.report.layout`, so no Graphviz is needed. When
Graphviz's ``dot`` is installed (and the graph is small enough for it to be quick),
``layout="auto"`` lets ``dot`` place the same boxes instead: its crossing reduction
and edge routing are better. Either way each box has a ``<title>`` (the hover text:
op, shape, dtype, source line, kernel) and its fill colour names its kernel.

Example::

    >>> svg = draw_graph(report.graphs[0], ends_at_break=True)
    >>> svg.startswith("<svg")
    True
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess

import networkx as nx

from .layout import layered_layout
from .model import GraphInfo, NodeInfo

# Light fills that stay readable under dark text; kernel k gets PALETTE[k % len].
PALETTE = ("#cfe8ff", "#ffe0b3", "#d4f5d0", "#f3d1f4", "#fff3a8", "#d0f0f0", "#ffd1d1",
           "#e2dcff", "#e8f5b8", "#ffd9ec", "#d9e4ee", "#f9e0c7")
KIND_FILL = {"elementwise": "#cfe8ff", "reduction": "#ffe0b3", "matmul": "#f3d1f4",
             "view": "#d4f5d0", "mutation": "#ffd1d1"}
CHAR_W = 7.0          # monospace 12px, roughly
BOX_H = 34
DOT_MAX_NODES = 400   # dot's crossing minimisation gets slow past a few hundred nodes


def fill_of(graph: GraphInfo, node: NodeInfo) -> str:
    if node.op == "placeholder":
        return "#ffffff"
    if node.op == "output":
        return "#3b3f45"
    if node.op == "constant":
        return "#eeeeee"
    if graph.fused and node.group is not None:
        return PALETTE[node.group % len(PALETTE)]
    kind = graph.groups[node.group].kind if node.group is not None else ""
    return KIND_FILL.get(kind, "#e9edf2")


def labels(graph: GraphInfo, node: NodeInfo) -> tuple[str, str]:
    """Two lines of text: what the node is, and its shape/dtype (or where it comes from)."""
    if node.op == "output":
        return ("return" if graph.end_break is None else "graph break",
                _short(graph.ends, 34))
    meta = node.dtype if node.shape is None else f"{node.dtype} scalar" if node.shape == () \
        else f"{node.dtype}[{', '.join(map(str, node.shape))}]"
    if node.op == "placeholder":
        return node.source or node.name, meta
    if node.op == "constant":
        return f"const {node.name}", meta
    return (node.target if node.target == node.name else f"{node.name} = {node.target}"), meta


def title(graph: GraphInfo, node: NodeInfo) -> str:
    top, meta = labels(graph, node)
    parts = [f"{node.name}: {node.op} {node.target}", meta]
    if node.loc:
        parts.append(node.loc)
    if node.group is not None and graph.groups:
        g = graph.groups[node.group]
        parts.append(f"kernel {g.index} ({g.kind}, {len(g.nodes)} ops)")
    if node.op == "output":
        parts = [graph.ends]
    return "\n".join(p for p in parts if p)


def graph_to_nx(graph: GraphInfo) -> nx.DiGraph:
    g = nx.DiGraph()
    for n in graph.nodes:
        top, bottom = labels(graph, n)
        width = min(260, max(70, CHAR_W * max(len(top), len(bottom)) + 16))
        g.add_node(n.name, size=(width, BOX_H), info=n)
    for n in graph.nodes:
        for i in n.inputs:
            if i in g:
                g.add_edge(i, n.name)
    return g


def draw_graph(graph: GraphInfo, layout: str = "auto") -> str:
    g = graph_to_nx(graph)
    if layout == "dot" or (layout == "auto" and len(g) <= DOT_MAX_NODES and
                           shutil.which("dot")):
        svg = _dot_svg(graph, g)
        if svg is not None:
            return svg
    return _builtin_svg(graph, g)


def _short(text: str, n: int) -> str:
    return text if len(text) <= n else text[:n - 1] + "\u2026"


# ============================================================================ built-in

def _builtin_svg(graph: GraphInfo, g: nx.DiGraph) -> str:
    lay = layered_layout(g)
    esc = html.escape
    gid = f"g{graph.index}"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="graph-svg builtin" id="{gid}-svg" '
           f'width="{lay.width:.0f}" height="{lay.height:.0f}" '
           f'viewBox="0 0 {lay.width:.0f} {lay.height:.0f}" role="img" '
           f'aria-label="graph {graph.index}: {graph.op_count} ops">',
           f'<defs><marker id="{gid}-arrow" viewBox="0 0 8 8" refX="8" refY="4" '
           'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
           '<path d="M0,0 L8,4 L0,8 z" fill="#6b7480"/></marker></defs>',
           '<g class="edges">']
    for (u, v), pts in lay.edges.items():
        (ux, uy), uh = lay.pos[u], lay.size[u][1]
        vx, vy = lay.pos[v]
        out.append(f'<path d="{_curve([(ux, uy + uh), *pts, (vx, vy)])}" '
                   f'marker-end="url(#{gid}-arrow)"/>')
    out.append('</g><g class="nodes">')
    for name in g:
        node = g.nodes[name]["info"]
        (cx, y), (w, h) = lay.pos[name], lay.size[name]
        top, bottom = labels(graph, node)
        cls = f"n n-{node.op}" + (" n-break" if node.op == "output" and
                                  graph.end_break is not None else "")
        rx = 17 if node.op == "placeholder" else 4
        text_fill = "#ffffff" if node.op == "output" else "#1d232b"
        out.append(
            f'<g class="{cls}" id="{gid}-{esc(name)}" data-node="{esc(name)}">'
            f'<title>{esc(title(graph, node))}</title>'
            f'<rect x="{cx - w / 2:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h}" '
            f'rx="{rx}" fill="{fill_of(graph, node)}"/>'
            f'<text x="{cx:.1f}" y="{y + 14:.1f}" fill="{text_fill}">{esc(_short(top, 36))}'
            f'</text><text class="sub" x="{cx:.1f}" y="{y + 27:.1f}" fill="{text_fill}">'
            f'{esc(_short(bottom, 36))}</text></g>')
    out.append("</g></svg>")
    return "".join(out)


def _curve(points: list[tuple[float, float]]) -> str:
    """From the bottom of u to the top of v: S-curves at both ends, straight lines
    through the layers a long edge crosses (its dummy points)."""
    (x0, y0) = points[0]
    d = [f"M{x0:.1f},{y0:.1f}"]
    last = len(points) - 2
    for k, ((xa, ya), (xb, yb)) in enumerate(zip(points, points[1:])):
        if 0 < k < last:
            d.append(f"L{xb:.1f},{yb:.1f}")
        else:
            my = (ya + yb) / 2
            d.append(f"C{xa:.1f},{my:.1f} {xb:.1f},{my:.1f} {xb:.1f},{yb:.1f}")
    return " ".join(d)


# ============================================================================ graphviz

def _dot_svg(graph: GraphInfo, g: nx.DiGraph) -> str | None:
    def q(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'

    lines = ["digraph G {", "rankdir=TB; nodesep=0.25; ranksep=0.35;",
             'node [shape=box, style="rounded,filled", fontname="DejaVu Sans Mono", fontsize=10, '
             'height=0.45, margin="0.1,0.06", color="#6b7480"];',
             'edge [color="#6b7480", arrowsize=0.6];']
    for name in g:
        node = g.nodes[name]["info"]
        top, bottom = labels(graph, node)
        attrs = {"label": f"{_short(top, 36)}\n{_short(bottom, 36)}",
                 "fillcolor": fill_of(graph, node), "tooltip": title(graph, node),
                 "id": f"g{graph.index}-{name}",
                 "class": f"n n-{node.op}" + (" n-break" if node.op == "output" and
                                               graph.end_break is not None else "")}
        if node.op == "output":
            attrs["fontcolor"] = "#ffffff"
        lines.append(f"{q(name)} [{', '.join(f'{k}={q(v)}' for k, v in attrs.items())}];")
    lines += [f"{q(u)} -> {q(v)};" for u, v in g.edges]
    lines.append("}")
    try:
        done = subprocess.run(["dot", "-Tsvg"], input="\n".join(lines), capture_output=True,
                              text=True, timeout=30, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    svg = done.stdout[done.stdout.find("<svg"):]
    svg = re.sub(r"^<svg", f'<svg class="graph-svg dot" id="g{graph.index}-svg"', svg, count=1)
    return re.sub(r"<!--.*?-->", "", svg, flags=re.S)
