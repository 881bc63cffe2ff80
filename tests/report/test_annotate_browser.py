"""Open generated reports in headless Chromium: break lines, tooltips and pictures show.

Chromium is Debian's ``chromium`` package; when it is missing the fixture runs
``scripts/ensure_chromium.sh`` to install it, and skips (saying why) only when that
fails. The browser is driven through the DevTools protocol over a pipe
(``cdp_pipe``), and "visible" is checked twice: by the DOM (boxes with a size,
computed styles) and by the pixels of screenshots clipped to each element.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import annotate_programs as P
import numpy as np
import pytest
from annotate_programs import X, line_of
from cdp_pipe import Browser, find_chromium
from png_pixels import colours, has_colour

import dynamo
from dynamo import annotate
from dynamo.report.page_graphs import INLINE_NODES

ROOT = Path(__file__).resolve().parents[2]
BREAK_BG = (255, 217, 217)        # --brk in assets.CSS
BREAK_BORDER = (210, 59, 59)      # --brk-b


@pytest.fixture(scope="module")
def chromium() -> str:
    path = find_chromium()
    if path is None:
        script = ROOT / "scripts" / "ensure_chromium.sh"
        done = subprocess.run(["sh", str(script)], capture_output=True, text=True,
                              timeout=900)
        if done.returncode != 0:
            pytest.skip("headless Chromium is not installed and scripts/ensure_chromium.sh "
                        f"could not install it: {done.stderr.strip()[-500:]}")
        path = done.stdout.strip().splitlines()[-1]
    return path


def many_breaks(x):
    y = x * 2
    if y.sum() > 0:
        y = y + 1
    z = P.helper(y)
    s = float(z.sum())
    return np.tanh(z) * s ** 2   # (** reads the number: a break)


@pytest.fixture(scope="module")
def report_file(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "many_breaks.html"
    ann = annotate(many_breaks, output=out, backend="eager")
    ann(X)
    return out, ann.report


def visible(page, selector: str, index: int = 0) -> dict:
    """Scroll the element into view; its box, display and visibility."""
    return page.eval(f"""(() => {{
        const e = document.querySelectorAll({selector!r})[{index}];
        e.scrollIntoView({{block: 'center'}});
        const s = getComputedStyle(e), r = e.getBoundingClientRect();
        return {{x: r.x, y: r.y, width: r.width, height: r.height, display: s.display,
                 visibility: s.visibility, text: e.innerText,
                 page_x: r.x + window.scrollX, page_y: r.y + window.scrollY}};
    }})()""")


def clip_of(box: dict) -> dict:
    """A screenshot clip (document coordinates) covering the element."""
    return {"x": box["page_x"], "y": box["page_y"], "width": box["width"],
            "height": box["height"]}


def test_break_lines_tooltips_and_svg_are_visible(chromium, report_file, tmp_path):
    path, report = report_file
    break_lines = [(v, ln) for v in report.views for ln in v.lines if ln.status == "break"]
    assert len(break_lines) >= 3
    with Browser.launch(chromium) as browser:
        page = browser.open(path.as_uri(), width=1280, height=900)
        assert page.eval("document.querySelectorAll('.ln.st-break').length") == \
            len(break_lines)
        assert page.eval("document.querySelectorAll('svg.graph-svg').length") == \
            len(report.graphs)

        # every break line is on screen, with the break colour in its pixels
        for i in range(len(break_lines)):
            box = visible(page, ".ln.st-break", i)
            assert box["width"] > 300 and box["height"] > 10 and box["display"] != "none"
            assert has_colour(colours(page.screenshot(clip=clip_of(box))), BREAK_BG)

        # hovering a break line shows its tooltip: reason, why, hint
        v, ln = next((v, ln) for v, ln in break_lines
                     if ln.lineno == line_of(many_breaks, "np.tanh(z) * s"))
        line_id = f"v{v.index}-L{ln.lineno}"
        box = visible(page, f"#{line_id}")
        tip_sel = f"#{line_id} > .tip"
        assert page.eval(f"getComputedStyle(document.querySelector('{tip_sel}')).display") \
            == "none"
        page.mouse_move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        tip = visible(page, tip_sel)
        assert tip["display"] == "block" and tip["height"] > 30
        b = report.breaks[ln.breaks[0]]
        for part in (b.reason, b.explanation, b.hint):
            assert part in tip["text"]
        shot = colours(page.screenshot(clip=clip_of(tip)))
        assert has_colour(shot, (255, 255, 255), at_least=200)
        assert has_colour(shot, BREAK_BORDER, at_least=20)
        (tmp_path / "hover.png").write_bytes(page.screenshot())

        # clicking pins a tooltip: it stays when the mouse leaves
        hovered = ln
        other = next((v, ln) for v, ln in break_lines if ln is not hovered)
        other_id = f"v{other[0].index}-L{other[1].lineno}"
        box = visible(page, f"#{other_id}")
        page.click(box["x"] + 200, box["y"] + box["height"] / 2)
        page.mouse_move(1, 1)
        assert page.eval(f"document.querySelector('#{other_id}').classList.contains('pinned')")
        assert visible(page, f"#{other_id} > .tip")["display"] == "block"

        # the pictures: every node drawn, with their fills on screen
        for k, g in enumerate(report.graphs):
            svg = visible(page, "svg.graph-svg", k)
            assert svg["width"] > 50 and svg["height"] > 50
            assert page.eval(f"document.querySelectorAll('svg.graph-svg')[{k}]"
                             ".querySelectorAll('g.n').length") == len(g.nodes)
            shot = colours(page.screenshot(clip=clip_of(
                {**svg, "width": min(svg["width"], 600), "height": min(svg["height"], 400)})))
            assert has_colour(shot, (207, 232, 255)) or has_colour(shot, (255, 224, 179))


def test_narrow_window(chromium, report_file):
    path, report = report_file
    with Browser.launch(chromium) as browser:
        page = browser.open(path.as_uri(), width=400, height=800)
        # no sideways scrolling of the page itself (wide pictures scroll in their box)
        assert page.eval("document.documentElement.scrollWidth <= window.innerWidth")
        box = visible(page, ".ln.st-break")
        assert 0 <= box["x"] and box["x"] + box["width"] <= 400
        page.mouse_move(box["x"] + 100, box["y"] + box["height"] / 2)
        tip = visible(page, ".ln.st-break > .tip")
        assert tip["display"] == "block"
        assert tip["x"] >= 0 and tip["x"] + tip["width"] <= 400


def test_big_graph_picture_is_built_when_opened(chromium, tmp_path, monkeypatch):
    monkeypatch.setattr(dynamo.config, "loop_unroll_limit", 100)   # one long chain

    def long_chain(x):
        for _ in range(60):
            x = np.tanh(x * 1.01) + 0.5
        return x
    out = tmp_path / "chain.html"
    ann = annotate(long_chain, output=out, backend="eager")
    ann(X)
    g = ann.report.graphs[0]
    assert len(g.nodes) > INLINE_NODES
    with Browser.launch(chromium) as browser:
        page = browser.open(out.as_uri(), width=1280, height=900)
        assert page.eval("document.querySelectorAll('svg.graph-svg').length") == 0
        page.eval("(() => { const d = document.querySelector('#graph-0'); d.open = true;"
                  " d.querySelector('details.lazy-pic').open = true; })()")
        page.eval("new Promise(r => setTimeout(r, 100))")
        assert page.eval("document.querySelectorAll('svg.graph-svg g.n').length") == \
            len(g.nodes)
        assert visible(page, "svg.graph-svg")["height"] > 1000
