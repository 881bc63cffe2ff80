"""The report's stylesheet and script, inlined into every HTML file (no external assets).

The page works without the script: break details show on hover and on keyboard focus
(CSS only). The script adds click-to-pin for touch screens, Escape to unpin, and
builds large graph pictures only when their section is opened (they are kept in
inert ``<template>`` elements, so a report with thousand-node graphs opens fast).

Example::

    >>> "<style>" + CSS + "</style>"
"""

GRAPH_COLORS = ("#d5f2d8", "#d8e8fc", "#eadcfb", "#ccf1ea", "#fbe3c4", "#f6dbe8",
                "#e3efc2", "#d6eef7", "#efe2d2", "#dfe3f7", "#f1edc6", "#d9f0e4")
GRAPH_BORDERS = ("#3f9d4b", "#3a78c2", "#8a55c9", "#2a9d8f", "#d08a2c", "#c2548a",
                 "#7c9a2a", "#3096b8", "#a07040", "#5a68c0", "#a89a20", "#3a9a6a")

CSS = """
:root { --fg:#1d232b; --muted:#5c6570; --line:#e3e6ea; --bg:#ffffff; --panel:#f6f7f9;
  --brk:#ffd9d9; --brk-b:#d23b3b; --py:#fff3c4; --py-b:#d9a400; --tr:#f0f7f0; --tr-b:#a9cfa9;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace; }
* { box-sizing: border-box; }
body { margin:0; color:var(--fg); background:var(--bg);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
header { padding: 14px 20px 8px; border-bottom: 1px solid var(--line); }
header h1 { font-size: 1.25rem; margin: 0 0 4px; overflow-wrap: anywhere; }
header .meta { color: var(--muted); font-size: .85rem; overflow-wrap: anywhere; }
nav { position: sticky; top: 0; z-index: 20; background: var(--bg);
  border-bottom: 1px solid var(--line); padding: 6px 20px; display:flex; flex-wrap:wrap;
  gap: 4px 16px; font-size: .9rem; }
nav a { color: #2457a6; text-decoration: none; }
main { padding: 8px 20px 40px; max-width: 1400px; }
main p, main li, main summary { overflow-wrap: break-word; }
h2 { font-size: 1.1rem; margin: 26px 0 8px; padding-top: 6px; border-top: 1px solid var(--line); }
main > section:first-child > h2 { border-top: none; margin-top: 8px; }
section, h3, .ln, .brk-item, .graph { scroll-margin-top: 44px; }
h3 { font-size: 1rem; margin: 18px 0 6px; overflow-wrap: anywhere; }
h3 small, .muted { color: var(--muted); font-weight: normal; }
code, pre, .mono { font-family: var(--mono); font-size: 12.5px; }
a { color: #2457a6; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 8px; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 6px;
  padding: 8px 10px; }
.card .v { font-size: 1.35rem; font-weight: 600; }
.card .k { color: var(--muted); font-size: .8rem; }
.card.bad .v { color: var(--brk-b); }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; font-size: .88rem; margin: 4px 0 8px; }
th, td { text-align: left; padding: 3px 10px 3px 0; border-bottom: 1px solid var(--line);
  vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
.legend { display:flex; flex-wrap:wrap; gap: 6px 14px; font-size: .85rem; margin: 10px 0; }
.sw { display:inline-block; width: 1.1em; height: 1.1em; vertical-align: -.2em;
  border-left: 4px solid transparent; margin-right: 4px; border-radius: 2px; }
.src { border: 1px solid var(--line); border-radius: 6px; margin: 6px 0 14px; }
.ln { position: relative; display: grid; grid-template-columns: 3.6em 4.4em 1fr;
  border-left: 4px solid transparent; min-height: 1.45em; }
.ln > .no { color: #8a929c; text-align: right; padding-right: .6em; font-family: var(--mono);
  font-size: 12px; text-decoration: none; user-select: none; }
.ln > .mk { font-family: var(--mono); font-size: 11px; color: var(--muted); white-space: nowrap;
  overflow: hidden; text-overflow: ellipsis; padding-top: 1px; }
.ln > code { white-space: pre-wrap; overflow-wrap: anywhere; padding-right: 8px; }
.ln:target { outline: 2px solid #2457a6; outline-offset: -2px; }
.st-python, .k-python { background: var(--py); border-left-color: var(--py-b); }
.st-traced, .k-traced { background: var(--tr); border-left-color: var(--tr-b); }
.k-break { background: var(--brk); border-left-color: var(--brk-b); }
.st-break { background: var(--brk); border-left-color: var(--brk-b); cursor: pointer; }
.st-break > .mk { color: var(--brk-b); font-weight: 700; }
.st-break:focus { outline: 2px solid var(--brk-b); outline-offset: -2px; }
.tip { display: none; position: absolute; z-index: 30; left: 3.6em; top: 100%;
  width: min(46em, calc(100vw - 4em)); background: #fff; color: var(--fg);
  border: 1px solid var(--brk-b); border-radius: 6px; padding: 8px 12px;
  box-shadow: 0 6px 24px rgba(0,0,0,.18); font-size: .88rem; cursor: auto; }
.tip p { margin: 4px 0; }
.tip .why, .tip .hint { color: #303841; }
.tip .hint::before { content: "hint: "; font-weight: 600; }
.tip .why::before { content: "why: "; font-weight: 600; }
.tip + .tip { top: auto; }
.st-break:hover > .tip, .st-break:focus > .tip, .st-break:focus-within > .tip,
.st-break.pinned > .tip { display: block; }
details.fold > summary { color: var(--muted); font-size: .8rem; padding: 1px 0 1px 8.4em;
  cursor: pointer; list-style: none; background: var(--panel); }
details.fold > summary::before { content: "\\25B8  "; }
details.fold[open] > summary::before { content: "\\25BE  "; }
.brk-item { border-left: 4px solid var(--brk-b); background: #fff7f7; padding: 6px 10px;
  margin: 6px 0; border-radius: 0 6px 6px 0; }
.brk-item .loc { font-family: var(--mono); font-size: 12px; color: var(--muted);
  overflow-wrap: anywhere; }
.graph { border: 1px solid var(--line); border-radius: 6px; padding: 6px 12px 10px;
  margin: 12px 0; border-left-width: 6px; }
.graph > summary { cursor: pointer; font-weight: 600; padding: 4px 0; overflow-wrap: anywhere; }
.facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(280px, 1fr));
  gap: 4px 24px; }
.pic { overflow: auto; max-height: 80vh; border: 1px solid var(--line); border-radius: 4px;
  background: #fcfcfd; margin: 6px 0; }
.graph-svg { display: block; }
.graph-svg .edges path { fill: none; stroke: #6b7480; stroke-width: 1.2; }
.graph-svg .n rect { stroke: #6b7480; stroke-width: 1; }
.graph-svg .n-placeholder rect, .graph-svg .n-placeholder path { stroke: #3a78c2;
  stroke-width: 1.5; }
.graph-svg .n-break rect, .graph-svg .n-break path { stroke: var(--brk-b); stroke-width: 2.5; }
.graph-svg.builtin text { font-family: var(--mono); font-size: 11.5px; text-anchor: middle; }
.graph-svg.builtin text.sub { font-size: 10px; opacity: .8; }
.graph-svg .n:hover rect { stroke-width: 2.5; }
pre.code { background: var(--panel); padding: 8px 10px; border-radius: 4px; overflow-x: auto;
  max-height: 60vh; }
.kern { display: inline-block; width: .9em; height: .9em; border: 1px solid #6b7480;
  vertical-align: -.1em; margin-right: 4px; }
.warn { background: #fff3c4; border-left: 4px solid var(--py-b); padding: 6px 10px; }
@media (max-width: 640px) {
  body { font-size: 14px; }
  header, main, nav { padding-left: 10px; padding-right: 10px; }
  .ln { grid-template-columns: 2.8em 2.6em 1fr; }
  .tip { left: 0; width: calc(100vw - 2.5em); }
  details.fold > summary { padding-left: 5.4em; }
}
@media print { nav { position: static; } .tip { display: none !important; } }
"""

JS = """
(function () {
  function unpinAll(except) {
    document.querySelectorAll('.ln.pinned').forEach(function (el) {
      if (el !== except) el.classList.remove('pinned');
    });
  }
  document.addEventListener('click', function (ev) {
    if (ev.target.closest('.tip')) return;          // let links and text selection work
    var line = ev.target.closest('.ln.st-break');
    unpinAll(line);
    if (line) line.classList.toggle('pinned');
  });
  document.addEventListener('keydown', function (ev) {
    if (ev.key === 'Escape') unpinAll(null);
    if ((ev.key === 'Enter' || ev.key === ' ') && ev.target.classList &&
        ev.target.classList.contains('st-break')) {
      ev.preventDefault(); ev.target.classList.toggle('pinned');
    }
  });
  function materialize(details) {                   // big pictures: build on first open
    var tpl = details.querySelector(':scope > template.lazy');
    if (!tpl) return;
    var holder = details.querySelector(':scope > .pic');
    holder.appendChild(tpl.content.cloneNode(true));
    tpl.remove();
  }
  document.querySelectorAll('details.lazy-pic').forEach(function (d) {
    if (d.open) materialize(d);
    d.addEventListener('toggle', function () { if (d.open) materialize(d); });
  });
  function openFor(hash) {                          // a link into a folded region opens it
    var el = hash && document.getElementById(hash.slice(1));
    for (var p = el && el.parentElement; p; p = p.parentElement) {
      if (p.tagName === 'DETAILS') p.open = true;
    }
    if (el) el.scrollIntoView({block: 'center'});
  }
  window.addEventListener('hashchange', function () { openFor(location.hash); });
  if (location.hash) openFor(location.hash);
})();
"""
