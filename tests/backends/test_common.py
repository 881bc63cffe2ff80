"""The backends' shared helpers: the graph as a function, the graph interpreter, the
CuPy probe and its error."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from dynamo.backends.common import (
    Interpreter,
    cupy_problem,
    graph_kind,
    python_function,
    unavailable_error,
)

import dynamo
from dynamo.exc import BackendError
from dynamo.graph import OUTPUT


def scaled_rows(x):
    i = np.arange(x.shape[0])
    return x * i[:, None] + x.sum(axis=-1, keepdims=True)


def symbolic_graph():
    """scaled_rows's graph with the row count symbolic (an int input ``s0``)."""
    graphs = []

    def capture(graph, example_inputs):
        graphs.append(graph)
        return python_function(graph)

    capture.dynamic_shapes = True
    compiled = dynamo.compile(scaled_rows, backend=capture, dynamic=True)
    for n in (5, 7):
        x = np.ones((n, 3))
        np.testing.assert_array_equal(compiled(x), scaled_rows(x))
    graph = graphs[-1]
    assert [n.name for n in graph.placeholders] == ["x", "s0"], str(graph)
    return graph


def test_interpreter_runs_what_the_printout_runs():
    graph = symbolic_graph()
    x = np.random.default_rng(0).random((9, 3))
    run = Interpreter(graph)
    out = run.run(x, 9)
    (want,) = python_function(graph)(x, 9)
    assert isinstance(out, tuple) and len(out) == 1
    np.testing.assert_array_equal(out[0], want)
    np.testing.assert_array_equal(out[0], scaled_rows(x))
    assert run.sizes == {"s0": 9}
    assert set(run.env) == {n for n in graph.nodes if n.op != OUTPUT}
    np.testing.assert_array_equal(run.env[graph.outputs[0]], want)
    again = run.run(x[:4], 4)                      # a new run starts afresh
    np.testing.assert_array_equal(again[0], scaled_rows(x[:4]))
    assert run.sizes == {"s0": 4}


def test_a_subclass_changes_one_step():
    graph = symbolic_graph()

    class Counting(Interpreter):
        def __init__(self, graph):
            super().__init__(graph)
            self.ops_run = []

        def call(self, node):
            self.ops_run.append(node.target)
            return super().call(node)

    run = Counting(graph)
    run.run(np.ones((2, 3)), 2)
    assert run.ops_run == [n.target for n in graph.call_nodes()]


def test_graph_kind_is_the_array_library():
    (graph,) = dynamo.explain(scaled_rows, backend="eager")(np.ones((2, 3))).graphs
    assert graph_kind(graph) == "numpy"


def test_one_probe_one_message_for_both_cupy_backends(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)       # import cupy -> ImportError
    problem = cupy_problem()
    assert problem.startswith("CuPy is not installed")
    for backend in ("cupy", "cudagraphs"):
        err = unavailable_error(backend, problem)
        assert isinstance(err, BackendError)
        assert str(err).startswith(f"backend {backend!r} needs CuPy and an NVIDIA GPU: "
                                   f"CuPy is not installed")
        assert "pip install cupy-cuda13x" in str(err) and "backend='eager'" in str(err)


@pytest.mark.parametrize("backend", ["cupy", "cudagraphs"])
def test_missing_cupy_is_reported_by_both_backends(monkeypatch, backend):
    monkeypatch.setitem(sys.modules, "cupy", None)
    with pytest.raises(BackendError, match=f"backend '{backend}' needs CuPy and an NVIDIA "
                                           f"GPU: CuPy is not installed"):
        dynamo.compile(scaled_rows, backend=backend)(np.ones((2, 3), np.float32))
