"""Checks on array data after ops whose NumPy code warns of nothing the values decide
(issue #19, ``dynamo/ops/quiet_ops.py``: ``QUIET_IN_NUMPY2``, ``quiet_in_numpy2``).

A check (``if np.any(d == 0): raise``, ``assert np.isclose(...)``) stays in the graph
only where the frame can run again when it fails, and a graph holding an op that may
warn at Python level cannot (the rerun would warn twice). ``np.diagflat``,
``np.histogram``, ``np.linalg.matrix_rank``, ``np.linalg.lstsq``, ``np.fft.rfft``,
``np.bincount``, ``np.cross`` of 3-vectors, ``np.median`` of a non-empty array... were
all taken to warn, so a check after them broke the graph. On NumPy 2 their warnings
depend only on arguments the trace fixes (a bool array to ``np.histogram``, a bin rule, ``s`` of ``fft2``):
now they are known quiet, the check is a graph op, and each program below is one graph
with no break. Passing and failing arguments in turn on one compiled object, on both
CPU backends: results, exceptions (type, message, traceback lines), printed output,
arguments and warnings are eager's.

Example (``jacobi_checked`` below)::

    d = np.diag(A)
    if np.any(d == 0):                          # a data_check op, no break
        raise ValueError("zero on the diagonal")
    R = A - np.diagflat(d)                      # was "may warn at Python level"
"""

import copy
import warnings

import numpy as np
import pytest
from check_calls import call, calls_match_eager
from harness import same_outcome
from quiet_op_programs import (
    PROGRAMS,
    bool_histogram_checked,
    one_observation_cov,
    walk_checked,
)

import dynamo

BACKENDS = ("eager", "numpy")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_check_after_a_quiet_op_against_eager(name, backend):
    fn, passing, failing = PROGRAMS[name]
    calls_match_eager(fn, dynamo.compile(fn, backend=backend), passing, failing, name)
    report = dynamo.explain(fn, backend=backend)(*copy.deepcopy(passing[0]))
    assert (report.graph_count, report.graph_break_count) == (1, 0), report.break_reasons
    assert any(n.target == "data_check" for g in report.graphs for n in g.call_nodes())


@pytest.mark.parametrize("fn,ok,bad", [
    (bool_histogram_checked, np.array([True, False, True]), np.array([True, True])),
    (one_observation_cov, np.ones(3), np.array([1.0, -1.0, 2.0])),
])
def test_an_op_that_warns_on_every_call_keeps_its_check_a_break(fn, ok, bad):
    """``np.histogram`` of a bool array warns "Converting input from bool", ``np.cov``
    of one observation "Degrees of freedom <= 0", on every call: a rerun would warn
    twice, so the check after it stays a break, and the compiled program warns once,
    as eager does."""
    compiled = dynamo.compile(fn, backend="eager")
    for args in [(ok,), (bad,), (ok,)]:
        same_outcome(call(fn, args), call(compiled, args), fn.__name__)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = dynamo.explain(fn, backend="eager")(ok)
    assert report.graph_break_count == 1
    assert report.break_reasons[0].reason.endswith("a check that raises on some data)")


def test_a_check_before_a_loop_node_that_draws_stays_a_break():
    """The rerun of a failed check would draw again: a loop node whose body draws is no
    node a rerun undoes (``raising._undone_by_rerun``), so the check breaks, and the
    draws are eager's."""
    x0 = np.zeros(3)
    for x in (x0, -np.ones(3)):
        want = call(walk_checked, (x, 20, np.random.default_rng(1)))
        got = call(dynamo.compile(walk_checked, backend="eager"), (x, 20, np.random.default_rng(1)))
        same_outcome(want, got, "walk")
    report = dynamo.explain(walk_checked, backend="eager")(x0, 20, np.random.default_rng(1))
    assert report.graph_break_count == 1, report.break_reasons
    assert report.break_reasons[0].reason.endswith("a check that raises on some data)")
