"""The report as one self-contained HTML page: summary, source, breaks, recompiles, graphs.

Everything (style, script, pictures) is inline; the page loads nothing from anywhere.

Example::

    >>> text = render(report, layout="auto")
    >>> text.startswith("<!DOCTYPE html>")
    True
"""

from __future__ import annotations

from html import escape

from .assets import CSS, JS
from .model import Report
from .page_graphs import render_graphs
from .page_source import KIND_WORDS, legend, render_views


def render(report: Report, layout: str = "auto") -> str:
    title = f"dynamo annotate: {report.function}"
    parts = [
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{CSS}</style></head><body>",
        f"<header><h1>{escape(title)}</h1><div class=\"meta\">{escape(report.filename)}:"
        f"{report.firstlineno} &middot; backend <b>{escape(report.backend)}</b> &middot; "
        f"Python {escape(report.python)} &middot; {escape(report.created)}</div></header>",
        '<nav><a href="#summary">Summary</a><a href="#source">Source</a>'
        f'<a href="#breaks">Breaks ({len(report.breaks)})</a>'
        f'<a href="#recompiles">Recompiles ({len(report.recompiles)})</a>'
        f'<a href="#graphs">Graphs ({len(report.graphs)})</a><a href="#calls">Calls</a></nav>',
        "<main>",
        '<section id="summary"><h2>Summary</h2>', summary(report), "</section>",
        '<section id="source"><h2>Source</h2>', legend(report), render_views(report),
        "</section>",
        f'<section id="breaks"><h2>Graph breaks ({len(report.breaks)})</h2>', breaks(report),
        "</section>",
        f'<section id="recompiles"><h2>Recompiles ({len(report.recompiles)})</h2>',
        recompiles(report), size_variants(report), "</section>",
        f'<section id="graphs"><h2>Graphs ({len(report.graphs)})</h2>',
        render_graphs(report, layout), "</section>",
        '<section id="calls"><h2>Calls</h2>', calls(report), "</section>",
        f"</main><script>{JS}</script></body></html>",
    ]
    return "".join(parts)


def _card(value: str, key: str, bad: bool = False) -> str:
    return f'<div class="card{" bad" if bad else ""}"><div class="v">{value}</div>' \
           f'<div class="k">{key}</div></div>'


def _ms(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} \u00b5s"


def summary(report: Report) -> str:
    eager_frames = sum(1 for f in report.frames if f.skipped)
    cards = [_card(str(len(report.graphs)), "graphs"),
             _card(str(report.op_count), "ops captured"),
             _card(str(len(report.breaks)), "graph breaks", bool(report.breaks)),
             _card(str(len(report.recompiles)), "recompiles", bool(report.recompiles)),
             *([_card(str(_static_variants(report)), "size variants (backend)")]
               if report.size_variants else []),
             _card(str(len(report.frames)), "frames compiled"),
             _card(_ms(report.compile_time), "compile time")]
    if eager_frames:
        cards.append(_card(str(eager_frames), "frames run eagerly", True))
    t = report.timing
    if t is not None:
        cards += [_card(_ms(t.eager), f"eager per call ({t.calls} calls)"),
                  _card(_ms(t.compiled), "compiled per call"),
                  _card(f"{t.speedup:.2f}\u00d7", "speedup (eager / compiled)")]
    out = ['<div class="cards">', *cards, "</div>"]
    if t is None:
        out.append('<p class="muted">Time per call was not measured (pass measure=N, or '
                   "--measure N on the command line).</p>")
    by_cause = report.breaks_by_cause()
    if by_cause:
        rows = "".join(
            f"<tr><td>{escape(cause)}</td><td>{len(bs)}</td><td>"
            + ", ".join(f'<a href="#break-{b.index}">{escape(_where(b))}</a>' for b in bs[:8])
            + (" ..." if len(bs) > 8 else "") + "</td></tr>" for cause, bs in by_cause.items())
        out.append('<h3>Breaks by cause</h3><div class="scroll"><table><tr><th>cause</th>'
                   f"<th>count</th><th>where</th></tr>{rows}</table></div>")
    for w in report.warnings:
        out.append(f'<p class="warn">{escape(w)}</p>')
    return "".join(out)


def _where(b) -> str:
    return f"{b.filename.rsplit('/', 1)[-1]}:{b.lineno}"


def breaks(report: Report) -> str:
    if not report.breaks:
        return '<p class="muted">No graph breaks.</p>'
    out = []
    for b in report.breaks:
        anchor = f"#v{b.view}-L{b.lineno}" if b.view is not None else ""
        site = ""
        if b.site is not None:
            site = (f'<p class="muted">It lands in {escape(b.qualname)} at '
                    f'<a href="#v{b.site_view}-L{b.site}">line {b.site}</a>, which '
                    + ("starts the loop/try block that runs eagerly" if b.kind == "island"
                       else "runs eagerly") + ".</p>")
        loc = f"{b.filename}:{b.lineno} in {b.function or b.qualname}"
        out.append(
            f'<div class="brk-item" id="break-{b.index}"><b>Break {b.index}: '
            f'{escape(b.reason)}</b> <span class="muted">({KIND_WORDS[b.kind]}, cause: '
            f'{escape(b.cause or "other")})</span>'
            f'<div class="loc">' + (f'<a href="{anchor}">{escape(loc)}</a>' if anchor
                                    else escape(loc)) + "</div>"
            + (f"<pre class=\"code\">{escape(b.source_line)}</pre>" if b.source_line else "")
            + (f"<p><b>Why:</b> {escape(b.explanation)}</p>" if b.explanation else "")
            + (f"<p><b>Hint:</b> {escape(b.hint)}</p>" if b.hint else "") + site + "</div>")
    return "".join(out)


def recompiles(report: Report) -> str:
    if not report.recompiles:
        return '<p class="muted">No recompiles: every call after the first compile of a ' \
               "frame found its guards holding.</p>"
    rows = []
    for r in report.recompiles:
        made = [f.index for f in report.frames if f.recompile == r.index]
        failures = "".join(f"<li><code>{escape(x)}</code></li>" for x in r.failures) or \
            f"<li>{escape(r.message)}</li>"
        graph = ""
        if made and report.frames[made[0]].graph is not None:
            k = report.frames[made[0]].graph
            graph = f'<a href="#graph-{k}">graph {k}</a>'
        what = "cache limit reached: runs eagerly" if r.level == "WARNING" else graph
        rows.append(f"<tr><td>{r.call}</td><td>{escape(r.qualname)}</td><td><ul>{failures}"
                    f"</ul></td><td>{what}</td></tr>")
    return ('<div class="scroll"><table><tr><th>call</th><th>frame</th><th>guard that failed'
            f'</th><th>new entry</th></tr>{"".join(rows)}</table></div>')


def _static_variants(report: Report) -> int:
    return sum(1 for v in report.size_variants if not v.generic)


def size_variants(report: Report) -> str:
    """The backend's compiles per size of a graph traced with symbolic sizes: the
    frame's guards held, so they are listed apart from the recompiles."""
    if not report.size_variants:
        return ""
    rows = []
    for v in report.size_variants:
        graph = f'<a href="#graph-{v.graph}">graph {v.graph}</a>' if v.graph is not None \
            else "a graph not recorded"
        if v.generic:
            what = f"after {v.number} static variants, new sizes run size-generic code"
        else:
            sizes = ", ".join(f"{k} = {n}" for k, n in v.sizes.items()) or "no size"
            what = f"variant {v.number}: <code>{escape(sizes)}</code>" + "".join(
                f"<br><code>{escape(x)}</code>" for x in v.shapes)
        rows.append(f"<tr><td>{v.call}</td><td>{graph}</td><td>{what}</td></tr>")
    return (f'<h3 id="size-variants">Size variants ({_static_variants(report)})</h3>'
            '<p class="muted">The backend compiled a graph traced with symbolic sizes '
            "for one call's sizes: the frame's guards held and nothing was traced again, "
            "so these are not recompiles.</p>"
            '<div class="scroll"><table><tr><th>call</th><th>graph</th><th>sizes</th>'
            f'</tr>{"".join(rows)}</table></div>')


def calls(report: Report) -> str:
    rows = "".join(
        f"<tr><td>{c.index}</td><td><code>{escape(', '.join(c.args))}</code></td>"
        f"<td>{_ms(c.seconds)}</td><td>{c.frames[1] - c.frames[0]}</td>"
        f"<td>{escape(c.error)}</td></tr>" for c in report.calls)
    return ('<p class="muted">Wall time of each annotated call, compiling included.</p>'
            '<div class="scroll"><table><tr><th>call</th><th>arguments</th><th>time</th>'
            f'<th>frames compiled</th><th>raised</th></tr>{rows}</table></div>')
