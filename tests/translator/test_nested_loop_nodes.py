"""Nested loop nodes (dynamo/translator/nested_loops.py): a loop inside a loop node's
body is a loop node of its own in that body, checked as any loop node is, or, where it
cannot be one, unrolled into the outer body as before.

Each program of tests/shared/corpus_nested_loops.py runs eagerly and compiled on
both CPU backends (``check``: results, dtypes, arguments after the call) with one graph
and no break, and its first call's graph holds a loop node inside a loop node's body
exactly where the corpus says it must (``nested``); where it must not, the inner loop
is unrolled and the results are still eager's.
"""

from __future__ import annotations

import numpy as np
import pytest
from corpus_nested_loops import PROGRAMS
from harness import check

import dynamo
from dynamo import listeners
from dynamo.graph import Graph

BACKENDS = ("eager", "numpy")


class _Graphs:
    def __init__(self):
        self.graphs = []

    def on_graph(self, graph, ctx):
        self.graphs.append(graph)


def _nested_nodes(graph: Graph, depth: int = 0) -> int:
    """Loop nodes inside the body of another loop node, at any depth."""
    count = 0
    for node in graph.call_nodes():
        if node.target == "fori_loop" and isinstance(node.args[0], Graph):
            count += (depth > 0) + _nested_nodes(node.args[0], depth + 1)
    return count


def nested_nodes(fn, args, backend="eager") -> int:
    with listeners.listening(_Graphs()) as seen:
        dynamo.compile(fn, backend=backend)(*args)
    return sum(_nested_nodes(g) for g in seen.graphs)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name, fn, make_args, nested", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_nested_loop_values(name, fn, make_args, nested, backend):
    check(fn, *make_args(), backend=backend, graphs=1, breaks=0)
    assert (nested_nodes(fn, make_args(), backend) > 0) == nested


def _ops(graph: Graph) -> int:
    return sum(1 + (_ops(n.args[0]) if n.target == "fori_loop" else 0)
               for n in graph.call_nodes())


def _graph_ops(fn, args) -> list:
    with listeners.listening(_Graphs()) as seen:
        dynamo.compile(fn, backend="eager")(*args)
    return [_ops(g) for g in seen.graphs]


UNNESTED = [p for p in PROGRAMS if not p[3]]


@pytest.mark.parametrize("name, fn, make_args, nested", UNNESTED, ids=[p[0] for p in UNNESTED])
def test_refused_inner_loops_unroll_as_before(name, fn, make_args, nested, monkeypatch):
    """Where the inner loop is no node, the graph is the one made before nested nodes
    (the inner loop unrolled into the outer node's body, or both unrolled), op for op:
    the inner loop's refusal starts the trace over with it unrolled, and is no failure
    of the outer loop's."""
    after = _graph_ops(fn, make_args())
    monkeypatch.setattr(dynamo.config, "nested_loop_nodes", False)
    assert after == _graph_ops(fn, make_args())


def test_three_levels_nest_twice():
    """Gauss-Seidel's sweep, row and column loops: the column loop is a node in the row
    loop's body, which is a node in the sweep loop's."""
    _, fn, make_args, _ = next(p for p in PROGRAMS if p[0] == "gauss_seidel")
    with listeners.listening(_Graphs()) as seen:
        dynamo.compile(fn, backend="numpy")(*make_args())

    def depth(graph: Graph) -> int:
        return max((1 + depth(n.args[0]) for n in graph.call_nodes()
                    if n.target == "fori_loop"), default=0)
    assert max(depth(g) for g in seen.graphs) == 3


def test_off_unrolls_inner(monkeypatch):
    """``config.nested_loop_nodes = False``: the inner loop is unrolled into the outer
    body as before, with the same results."""
    monkeypatch.setattr(dynamo.config, "nested_loop_nodes", False)
    _, fn, make_args, _ = PROGRAMS[0]
    check(fn, *make_args(), backend="numpy", graphs=1, breaks=0)
    assert nested_nodes(fn, make_args(), "numpy") == 0


def test_changing_values_between_calls():
    """One compiled DP table, called on new costs of the same shape: each call's
    table is eager's (the nested body reads the outer trip as its input)."""
    _, fn, make_args, _ = PROGRAMS[0]
    assert nested_nodes(fn, make_args(), "numpy") == 1
    compiled = dynamo.compile(fn, backend="numpy")
    for seed in range(4):
        C = np.random.default_rng(seed).random((12, 11))
        np.testing.assert_array_equal(compiled(C), fn(C))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["dp_min3", "gauss_seidel", "matmul_by_hand"])
def test_sizes_that_change_between_calls(name, backend):
    """Called with five sizes: the sizes become symbols after the first recompile.
    A loop over a symbolic range nested in a body (Gauss-Seidel's row loop in the
    sweep loop's body, ``range(1, n - 1)``) takes its trip count through the outer
    body's inputs (before, its node read the frame's size placeholder: NameError);
    an op that reads two indices, one over a symbolic count, keeps the inner node
    since 2026-12-07 (test_nested_symbolic_counts.py; before, it left the inner loop
    unrolled). Every call's result is eager's."""
    _, fn, _, _ = next(p for p in PROGRAMS if p[0] == name)
    rng = np.random.default_rng(7)
    compiled = dynamo.compile(fn, backend=backend)
    sizes = ((12, 11), (13, 14), (15, 12), (20, 20), (11, 11))
    if name != "gauss_seidel":   # smaller: their three-deep loops unroll per size (CI time)
        sizes = ((7, 6), (8, 9), (9, 7), (11, 11), (6, 6))
    for n, m in sizes:
        if name == "dp_min3":
            args = (rng.random((n, m)),)
        elif name == "gauss_seidel":
            args = (rng.random((n, n)), rng.random((n, n)), 0.01)
        else:
            args = (rng.random((n, m)), rng.random((m, n)))
        want = fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
        got = compiled(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
        np.testing.assert_array_equal(got, want, strict=True)
