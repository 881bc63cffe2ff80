"""Every program of the graph-break corpus (tests/breaks) shown faithfully.

For each program: the report's graphs, ops per graph and break lines are those of
``dynamo.explain``; every line with an op is coloured with its graph; every break
record's line is a break line; and the HTML renders with one tooltip per break line.
"""

from __future__ import annotations

import copy
import os
import sys

import pytest
from test_annotate_collect import check_against_explain

from dynamo import annotate

sys.path.append(os.path.join(os.path.dirname(os.path.dirname(__file__)), "breaks"))
corpus = pytest.importorskip("corpus_breaks", reason="the graph-break corpus "
                             "(tests/breaks/corpus_breaks.py) is not in this checkout")


@pytest.mark.parametrize("name,fn,args", [(p[0], p[1], p[2]) for p in corpus.PROGRAMS],
                         ids=[p[0] for p in corpus.PROGRAMS])
def test_corpus_program(name, fn, args, tmp_path, capsys):
    ann = annotate(fn, output=tmp_path / "r.html", backend="eager")
    raised = None
    try:
        ann(*copy.deepcopy(args))
    except Exception as e:  # noqa: BLE001 (programs that raise are part of the corpus)
        raised = e
    report = ann.report
    ex = check_against_explain(report, fn, copy.deepcopy(args))
    if raised is not None:  # explain keeps the exception (and the records before it)
        assert report.calls[0].error.startswith(type(raised).__name__)
        assert type(ex.exception) is type(raised)
    text = (tmp_path / "r.html").read_text()
    break_lines = sum(1 for v in report.views for ln in v.lines if ln.status == "break")
    assert text.count('class="tip"') == break_lines
    assert text.count('class="ln ') == sum(len(v.lines) for v in report.views)
