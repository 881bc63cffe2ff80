"""The HTML page, the SVG pictures and the layout, checked without a browser."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import annotate_programs as P
import networkx as nx
import numpy as np
import pytest
from annotate_programs import X, line_of
from hypothesis import given, settings
from hypothesis import strategies as st

from dynamo import annotate
from dynamo.report.layout import layered_layout
from dynamo.report.model import GraphInfo, GroupInfo, NodeInfo
from dynamo.report.page import render
from dynamo.report.page_graphs import INLINE_NODES
from dynamo.report.svg import draw_graph

SVG = "{http://www.w3.org/2000/svg}"


class Tags(HTMLParser):
    """Counts tags and checks that every opened element is closed in order."""

    VOID = {"meta", "br", "img", "input", "link", "hr", "path", "rect"}

    def __init__(self):
        super().__init__()
        self.stack, self.count, self.errors = [], {}, []

    def handle_starttag(self, tag, attrs):
        self.count[tag] = self.count.get(tag, 0) + 1
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.count[tag] = self.count.get(tag, 0) + 1

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:]}")
        else:
            self.stack.pop()


def page_of(fn, *args, tmp_path, backend="eager", **kw):
    ann = annotate(fn, output=tmp_path / "r.html", backend=backend, **kw)
    ann(*args)
    return ann.report, (tmp_path / "r.html").read_text(encoding="utf-8")


def test_page_is_self_contained_and_well_formed(tmp_path, capsys):
    report, text = page_of(P.helper_break, X, tmp_path=tmp_path)
    assert text.startswith("<!DOCTYPE html>")
    # nothing is fetched: no external scripts, styles, images, fonts or imports
    assert not re.search(r"<(script|img|link|iframe)[^>]*\ssrc=|<link\b|@import|url\((?!#)", text)
    assert not re.search(r"(href|src)=\"(https?:)?//", text)
    tags = Tags()
    tags.feed(text)
    assert not tags.errors and tags.stack == []
    assert tags.count["svg"] == len(report.graphs)
    assert '<meta name="viewport"' in text


def test_break_line_has_a_tooltip_with_reason_explanation_hint(tmp_path, capsys):
    report, text = page_of(P.print_between, X, tmp_path=tmp_path)
    lineno = line_of(P.print_between, 'print("between')
    view = report.view_of(P.print_between)
    m = re.search(rf'<div class="ln st-break" id="v{view.index}-L{lineno}"[^>]*tabindex="0"'
                  r'.*?<div class="tip" role="tooltip">(.*?)</div></div>', text)
    assert m, "break line with a focusable tooltip"
    b = report.breaks[0]
    for part in (b.reason, b.explanation, b.hint):
        assert part and _esc(part) in m.group(1)
    assert f'href="#break-{b.index}"' in m.group(1)
    assert f'id="break-{b.index}"' in text


def _esc(s: str) -> str:
    import html
    return html.escape(s)


def test_every_line_is_rendered_with_its_status(tmp_path, capsys):
    report, text = page_of(P.data_if, X, tmp_path=tmp_path)
    rendered = {anchor: status for status, anchor in
                re.findall(r'class="ln st-(\w+)" id="(v\d+-L\d+)"', text)}
    for view in report.views:
        for ln in view.lines:
            assert rendered[f"v{view.index}-L{ln.lineno}"] == ln.status


def test_source_text_is_escaped(tmp_path):
    def lt(x):
        y = x * 2
        if (x < 0).any() and "<b>" != "</div>":   # markup in source stays text
            y = y + 1
        return y
    report, text = page_of(lt, X, tmp_path=tmp_path)
    assert "&quot;&lt;b&gt;&quot; != &quot;&lt;/div&gt;&quot;" in text
    assert '"<b>" != "</div>"' not in text


def test_summary_counts_breaks_by_cause(tmp_path, capsys):
    report, text = page_of(P.helper_break, X, tmp_path=tmp_path)
    summary = text.split('<section id="summary">')[1].split("</section>")[0]
    for cause, items in report.breaks_by_cause().items():
        assert f"<tr><td>{cause}</td><td>{len(items)}</td>" in summary
    assert f'<div class="v">{len(report.graphs)}</div><div class="k">graphs</div>' in summary


def test_svg_is_valid_and_has_every_node(tmp_path, capsys):
    report, text = page_of(P.print_between, X, tmp_path=tmp_path)
    for g in report.graphs:
        svg = ET.fromstring(draw_graph(g, layout="builtin"))
        names = {e.get("data-node") for e in svg.iter(f"{SVG}g") if e.get("data-node")}
        assert names == {n.name for n in g.nodes}
        titles = [t.text for t in svg.iter(f"{SVG}title")]
        assert any(n.loc in t for n in g.nodes if n.loc for t in titles)
        edges = [p for grp in svg.iter(f"{SVG}g") if grp.get("class") == "edges"
                 for p in grp]
        assert len(edges) == sum(len(n.inputs) for n in g.nodes)
    first = report.graphs[0]
    assert first.end_break is not None and "graph break" in first.ends
    assert 'class="n n-output n-break"' in draw_graph(first, layout="builtin")


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed "
                    "(the built-in layout is tested everywhere)")
def test_dot_layout_when_installed(tmp_path, capsys):
    report, _ = page_of(P.print_between, X, tmp_path=tmp_path)
    svg = draw_graph(report.graphs[0], layout="dot")
    assert svg.startswith("<svg") and 'id="g0-svg"' in svg
    ET.fromstring(svg)


def _synthetic(n: int, fan: int = 3, seed: int = 0) -> GraphInfo:
    """A random DAG shaped like a graph IR: inputs, n ops, one output."""
    rng = np.random.default_rng(seed)
    nodes = [NodeInfo("x", "placeholder", "x", (8,), "float32", "", source="L['x']"),
             NodeInfo("w", "placeholder", "w", (8,), "float32", "", source="L['w']")]
    for i in range(n):
        k = min(len(nodes), int(rng.integers(1, fan + 1)))
        picks = sorted({nodes[int(j)].name for j in rng.integers(max(0, len(nodes) - 40),
                                                                  len(nodes), size=k)})
        nodes.append(NodeInfo(f"op{i}", "call", "add", (8,), "float32", f"f.py:{i}",
                              list(picks), group=i))
    nodes.append(NodeInfo("output", "output", "output", None, "", "", [nodes[-1].name]))
    groups = [GroupInfo(i, "elementwise", [f"op{i}"], [], [f"op{i}"]) for i in range(n)]
    return GraphInfo(0, 0, "f", "eager", nodes, groups, False, "", "return")


def test_big_graph_is_drawn_lazily_and_quickly(tmp_path):
    g = _synthetic(3000)
    svg = draw_graph(g, layout="builtin")
    assert svg.count("data-node=") == 3003
    from dynamo.report.model import FrameInfo, Report
    from dynamo.report.page_graphs import render_graph
    report = Report("f", "f.py", 1, "eager", "3", "now", graphs=[g],
                    frames=[FrameInfo(0, "f", "f.py", 1, 0)])
    html = render_graph(report, g, layout="builtin")
    assert len(g.nodes) > INLINE_NODES
    assert '<template class="lazy"><svg' in html        # inert until opened
    assert '<details class="graph" id="graph-0" style' in html and " open>" not in \
        html.split("<summary>")[0]


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 60), st.integers(1, 4), st.integers(0, 10_000))
def test_layout_edges_go_down_and_boxes_do_not_overlap(n, fan, seed):
    g = _synthetic(n, fan, seed)
    from dynamo.report.svg import graph_to_nx
    dg = graph_to_nx(g)
    lay = layered_layout(dg)
    for u, v in dg.edges:
        assert lay.pos[u][1] + lay.size[u][1] < lay.pos[v][1]
    rows: dict = {}
    for v, (x, y) in lay.pos.items():
        rows.setdefault(y, []).append((x - lay.size[v][0] / 2, x + lay.size[v][0] / 2))
    for boxes in rows.values():
        boxes.sort()
        for (a0, a1), (b0, b1) in zip(boxes, boxes[1:]):
            assert a1 <= b0 + 1e-6
    for v, (x, y) in lay.pos.items():
        w, h = lay.size[v]
        assert x - w / 2 >= 0 and x + w / 2 <= lay.width and y + h <= lay.height
    for v in dg:     # inputs sit right above their first user
        if dg.in_degree(v) == 0 and dg.out_degree(v):
            first = min(lay.pos[s][1] for s in dg.successors(v))
            assert lay.pos[v][1] < first and not any(
                lay.pos[v][1] < y < first for y in {p[1] for p in lay.pos.values()})


def test_layout_pins_vertices_to_the_top_when_asked():
    g = nx.DiGraph([("a", "b"), ("b", "c"), ("w", "c")])
    nx.set_node_attributes(g, (100, 30), "size")
    assert layered_layout(g).pos["w"][1] == layered_layout(g).pos["b"][1]
    lay = layered_layout(g, pinned_top=["w"])
    assert lay.pos["w"][1] == lay.pos["a"][1]


def test_layout_of_a_chain_is_one_column():
    g = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "d")])
    nx.set_node_attributes(g, (100, 30), "size")
    lay = layered_layout(g)
    assert len({x for x, _ in lay.pos.values()}) == 1
    assert [lay.pos[v][1] for v in "abcd"] == sorted(lay.pos[v][1] for v in "abcd")


def test_long_function_folds_what_did_not_run(tmp_path, capsys):
    body = ["def long_fn(x):", "    y = x * 2"]
    body += [f"    # note {i}" for i in range(400)]
    body += ["    print('done')", "    return y + 1"]
    path = tmp_path / "long_mod.py"
    path.write_text("import numpy as np\n\n" + "\n".join(body) + "\n")
    import importlib.util
    spec = importlib.util.spec_from_file_location("long_mod", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    report, text = page_of(mod.long_fn, X, tmp_path=tmp_path)
    assert text.count('class="ln ') == 404
    assert re.search(r'<details class="fold"><summary>\d+ lines where nothing ran', text)
    view = report.view_of(mod.long_fn)
    assert view.line(view.firstlineno + 402).status == "break"


def test_render_is_a_pure_function_of_the_report(tmp_path, capsys):
    report, text = page_of(P.float_conv, X, tmp_path=tmp_path)
    assert render(report, layout="builtin") == render(report, layout="builtin")
