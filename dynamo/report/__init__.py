"""See what was captured: an annotated-source HTML report with graph pictures.

``dynamo.annotate(fn, output="report.html")(*args)`` runs ``fn`` compiled (in a
private context, like ``dynamo.explain``) and writes one self-contained HTML file:
the source of every traced function with each line coloured (captured into graph k,
ran as plain Python, caused a graph break: hover or click it for the reason, the
explanation and the hint), the recompiles with the guard that failed, and per graph
its inputs, guards, kernels and a picture drawn as inline SVG.

The pipeline, one module per step::

    recorder.Recorders   watch the call: lines run as Python, lines traced, log records
    collect.build_report FrameRecords + recorders  ->  model.Report (plain data)
    page.render          Report  ->  HTML (page_source, page_graphs, svg, layout)

Example::

    >>> import numpy as np, dynamo
    >>> def f(x):
    ...     y = np.exp(x) + 1
    ...     print("between graphs")      # a graph break
    ...     return (y * 2).sum()
    >>> ann = dynamo.annotate(f, output="f.html")
    >>> ann(np.ones(4))                  # f's result; f.html is written
    >>> ann.report.view_of(f).statuses()[3]
    'break'

Command line: ``python -m dynamo annotate script.py --function f -o f.html``.
"""

from .api import Annotator, annotate

# The report builder and the HTML page load on first use, not at `import dynamo`.
_LAZY = {"build_report": ".collect", "Report": ".model", "render": ".page"}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib
        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Annotator", "Report", "annotate", "build_report", "render"]
