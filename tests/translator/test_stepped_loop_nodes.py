"""Stepped triangular inner loops (dynamo/translator/triangular_loops.py
``stepped_count``, issue #23): an inner ``range`` of a constant step other than 1 or
-1 whose bounds follow the outer index (``range(i, n, 2)``, ``range(n - 1, i, -2)``,
``range(i, -1, -3)``) is a loop node in the outer node's body, whose count
``-((start - stop) // step)`` the outer body computes (a ``sym_int`` node); before,
the iterator read the bounds and the outer loop was unrolled. The corpus
(tests/shared/corpus_stepped_loops.py) runs at sizes 0, 1 (no trip), 10 and 21
(nodes), float64 and float32, against eager; an index out of bounds at an outer trip
that only the periodic corners check, and a step of 0, stay eager's errors.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from corpus_stepped_loops import PROGRAMS
from harness import same
from test_nested_loop_nodes import _Graphs, _nested_nodes, nested_nodes

import dynamo
from dynamo import listeners
from dynamo.graph import Graph
from dynamo.symbolic import SymArg

BACKENDS = ("eager", "numpy")
# the programs whose inner loop is a stepped triangular one (the others, red-black
# sweeps, have constant bounds and nested before)
STEPPED = [p for p in PROGRAMS if not p[0].startswith("red_black")]


# the numpy backend for every program, the eager one (which runs the graph's ops as
# they are) for two: the translator's side is the same (CI time, docs/hostile_suite.md)
VALUE_CASES = [(*p, "numpy") for p in STEPPED] + \
    [(*p, "eager") for p in STEPPED if p[0] in ("backward_by_two", "every_third_below")]


@pytest.mark.parametrize("name, fn, make_args, backend", VALUE_CASES,
                         ids=[f"{p[0]}-{p[3]}" for p in VALUE_CASES])
def test_stepped_values(name, fn, make_args, backend):
    """Eager's results (values, dtypes, the arguments written) at sizes where the
    inner loop runs no trip, is unrolled, and is a node; one nested node at 21."""
    for n, dtype in ((0, np.float64), (1, np.float32), (10, np.float32), (21, np.float64)):
        args = make_args(n, dtype)
        eager_args, comp_args = copy.deepcopy(args), copy.deepcopy(args)
        want = fn(*eager_args)
        dynamo.reset()
        got = dynamo.compile(fn, backend=backend)(*comp_args)
        same(want, got, 0.0, 0.0, f"{name} at n = {n}")
        same(eager_args, comp_args, 0.0, 0.0, f"{name} at n = {n}: arguments")
        assert got.dtype == want.dtype
    dynamo.reset()
    assert nested_nodes(fn, make_args(21, np.float64), backend) == 1


def _stepped_counts(graph: Graph) -> list:
    """The trip counts of nested loop nodes that read a ``sym_int`` of the body."""
    found = []
    for node in graph.call_nodes():
        if node.target == "fori_loop" and isinstance(node.args[0], Graph):
            body = node.args[0]
            for inner in body.call_nodes():
                count = inner.args[1] if inner.target == "fori_loop" else None
                if isinstance(count, SymArg) and \
                        any(n.target == "sym_int" for n in count.nodes.values()):
                    found.append(count)
            found += _stepped_counts(body)
    return found


def test_count_is_the_quotient_of_the_outer_trip():
    """``range(n - 1, i, -2)``: the inner node runs ``-(q)`` trips, ``q`` computed by
    the outer body from its trip (``(18 - trip) // -2`` at n = 20)."""
    fn = dict((p[0], p[1]) for p in PROGRAMS)["backward_by_two"]
    with listeners.listening(_Graphs()) as seen:
        dynamo.compile(fn, backend="eager")(np.ones(20))
    counts = [c for g in seen.graphs for c in _stepped_counts(g)]
    assert len(counts) == 1 and counts[0].sym.render().startswith("-ui"), counts
    quotient = next(iter(counts[0].nodes.values()))
    expr = quotient.args[0].sym
    assert "//" in repr(expr) and "(-2)" in repr(expr), expr
    # len(range(19, i, -2)) at the outer trips 0 .. 18 (i = trip + 1)
    (trip,) = expr.symbols
    assert [-expr.evaluate({trip: t}) for t in range(19)] == \
        [len(range(19, t + 1, -2)) for t in range(19)]


def periodic_corner(x, y):
    # the last index of range(i, 39, 5) is 38 - (38 - i) % 5: 38 only at i = 3 and 8,
    # outer trips that the first two, middle and last two (1, 2, 5, 9, 10) miss
    for i in range(11):
        for j in range(i, 39, 5):
            y[i] = y[i] + x[j]
    return y


def test_periodic_corner():
    """An index past the end only where the stepped count's remainder is 0 leaves the
    inner loop unrolled (the corners hold every outer trip of the first and last
    period, ``_corners``) and raises eager's IndexError; one element more, it nests."""
    with pytest.raises(IndexError):
        periodic_corner(np.arange(38.0), np.zeros(11))
    dynamo.reset()
    with listeners.listening(_Graphs()) as seen:
        with pytest.raises(IndexError):
            dynamo.compile(periodic_corner, backend="eager")(np.arange(38.0), np.zeros(11))
    assert sum(_nested_nodes(g) for g in seen.graphs) == 0
    dynamo.reset()
    assert nested_nodes(periodic_corner, (np.arange(39.0), np.zeros(11)), "numpy") == 1


def zero_step(x):
    n = x.shape[0]
    for i in range(n):
        for j in range(i, n, 0):
            x[j] = 1.0
    return x


@pytest.mark.parametrize("backend", BACKENDS)
def test_zero_step_raises(backend):
    """``range(i, n, 0)`` raises eager's ValueError."""
    with pytest.raises(ValueError, match="must not be zero"):
        dynamo.compile(zero_step, backend=backend)(np.zeros(12))


def changing_step(x, k):
    n = x.shape[0]
    for i in range(n):
        for j in range(i, n, k):
            x[j] = x[j] + 0.5
    return x


def test_changing_step():
    """A step that changes between calls is pinned (one entry per step, each stepped
    node exact), negative steps too."""
    compiled = dynamo.compile(changing_step, backend="numpy")
    for k in (2, 3, -2, 1):
        x = np.arange(24.0)
        np.testing.assert_array_equal(compiled(x.copy(), k), changing_step(x.copy(), k),
                                      strict=True)
