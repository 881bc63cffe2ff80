"""Checks that compare sizes only the data decides stay in the graph (issue #19,
``translator/raising_checks.py``: ``size_check``).

``if len(x[x < 0]) > 0: raise ...``, ``assert len(X[X < 0]) == len(X[X > 1]) == 0``
(numpy-ml's ``is_stochastic``), ``if np.unique(y).shape[0] != k: raise`` broke the
graph: the sizes are unbacked (known only when the graph runs) and a comparison of them
cannot be made while tracing. Where the jump after the comparison only raises one way,
the comparison is now an op of the sizes, read when the graph runs (``sym_size``), and
its 0-d result a ``data_check``: one graph, no break. A failing check reruns the frame
eagerly, so the exception, its line and the state are eager's. A comparison that
chooses a value (``if n == 0: return 0.0``) keeps its break.

Example (``stochastic_rows``)::

    assert len(X[X < 0]) == len(X[X > 1]) == 0, msg   # equal(u0, u1), equal(u1, 0):
                                                       # two data_check ops
"""

import copy

import numpy as np
import pytest
from check_calls import call, calls_match_eager
from harness import same_outcome
from size_check_programs import PROGRAMS, count_or_zero

import dynamo

BACKENDS = ("eager", "numpy")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_size_check_against_eager(name, backend):
    fn, passing, failing = PROGRAMS[name]
    calls_match_eager(fn, dynamo.compile(fn, backend=backend), passing, failing, name)
    report = dynamo.explain(fn, backend=backend)(*copy.deepcopy(passing[0]))
    assert (report.graph_count, report.graph_break_count) == (1, 0), report.break_reasons
    assert any(n.target == "data_check" for g in report.graphs for n in g.call_nodes())


def test_a_size_comparison_that_chooses_a_value_keeps_its_break():
    report = dynamo.explain(count_or_zero, backend="eager")(np.array([1.0, -2.0, 3.0]))
    (brk,) = report.break_reasons
    assert brk.reason.startswith("a data-dependent size")
    assert "(a check that raises" not in brk.reason
    compiled = dynamo.compile(count_or_zero, backend="eager")
    for x in (np.array([1.0, -2.0, 3.0]), -np.ones(2)):
        same_outcome(call(count_or_zero, (x,)), call(compiled, (x,)), "count_or_zero")


def test_config_data_checks_off_keeps_the_size_check_a_break():
    dynamo.config.data_checks = False
    try:
        report = dynamo.explain(PROGRAMS["len_of_mask_gt_0"][0], backend="eager")(np.arange(3.0))
    finally:
        dynamo.config.data_checks = True
    (brk,) = report.break_reasons
    assert brk.reason.startswith("a data-dependent size")
    assert brk.reason.endswith("(a check that raises on some data)")
