"""Loops whose trip count is a run-time value (issue #19, second round;
tests/translator/corpus_data_trip_nodes.py, 18 programs written before they ran):
``range(len(np.unique(y)))``, ``range(int(a.sum()))``, ``for row in x[mask]``, loops
over data nested in a loop over features (``best_split``), ``enumerate(classes,
start=1)``, the loop variable read after the loop, warnings of empty classes and an
IndexError at one trip.

Each program runs eagerly and compiled on both CPU backends over data drawn by
hypothesis (no sample, one sample, one class, up to six classes), one compiled
function called with all of them in turn: results, dtypes, exceptions and their
messages, arguments after the call and warnings (category, text, how many) are
Python's. The breaks are counted: one per program (two in k-means), where the loop needs the
data's count, with a hint, and none is an untraced iteration over a Python iterator
(``enumerate(..., start=1)`` on 3.11/3.12 resumes at its KW_NAMES:
``translator/break_before.resume_index``).
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
from corpus_data_trip_nodes import PROGRAMS
from harness import outcome, same_outcome
from over_data import same_over_data

import dynamo
from dynamo import listeners

BACKENDS = ("eager", "numpy")
# breaks measured (3.11, 3.13, 3.14): one where the loop needs the count; k-means's
# ``... if m.any() else ...`` branches on data too (3.13 and 3.14 break there as well)
MAX_BREAKS = {"kmeans_iterations": 2}



@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name, fn, make_args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_equals_python_over_data(name, fn, make_args, backend):
    dynamo.reset()
    compiled = dynamo.compile(fn, backend=backend)
    same_over_data(name, fn, compiled, make_args, max_examples=6)


@pytest.mark.parametrize("name, fn, make_args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_one_break_with_a_hint(name, fn, make_args):
    """At most the break where the loop needs the count; never an untraced iteration
    over the iterator the glue made (3.11's ``enumerate(x, start=1)`` had two more)."""
    dynamo.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = dynamo.explain(fn, backend="eager")(*make_args(np.random.default_rng(0), 40, 4))
    assert report.graph_break_count <= MAX_BREAKS.get(name, 1), str(report)
    for brk in report.break_reasons:
        assert not brk.reason.startswith("iteration over"), brk.reason
        assert brk.hint, brk.reason



class _Graphs:
    def __init__(self):
        self.graphs = []

    def on_graph(self, graph, ctx):
        self.graphs.append(graph)


# loops over the rows of an input whose length changed between calls (what the resumed
# frame of ``for g in np.unique(groups)`` gets): the length stays symbolic through the
# loop (``RowIteratorVariable`` over a SymInt, ``loops.rest_of``), so counts above
# ``config.loop_unroll_limit`` share one entry with a loop node
_MANY_CLASSES = ("per_group_normalize", "class_weighted_loss", "selected_rows_norm",
                 "histogram_loop_over_selection", "class_means_warn_empty")
# (``last_class_after_loop`` stays unrolled, one entry per count: its loop variable is
# read after the loop, "a view of a carried array", which no loop node leaves)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", _MANY_CLASSES)
def test_no_retrace_per_count(name, backend):
    fn, make_args = next((f, m) for n, f, m in PROGRAMS if n == name)
    dynamo.reset()
    with listeners.listening(_Graphs()) as seen, \
            dynamo.explain(fn, backend=backend) as compiled:
        for i, k in enumerate((12, 13, 15, 17, 20)):
            args = make_args(np.random.default_rng(i), 120, k)
            want = outcome(fn, copy.deepcopy(args))
            got = outcome(compiled, copy.deepcopy(args))
            same_outcome(want, got, f"{name} k={k}")
            if i == 1:
                settled = len(seen.graphs)
    # each frame compiles for the first count, then once with the count symbolic; the
    # later counts compile no graph more
    assert len(seen.graphs) == settled, str(compiled.report)
    assert any(n.target == "fori_loop" for n in seen.graphs[-1].call_nodes()), \
        str(seen.graphs[-1])
