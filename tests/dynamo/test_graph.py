"""The graph IR: building, printing as Python, networkx conversion, the eager backend."""

import models
import numpy as np
import pytest
from dynamo.backends.common import python_function
from harness import check, rand

import dynamo
from dynamo.graph import Graph
from dynamo.ops import ArrayMeta

F32 = np.dtype("float32")


def small_graph() -> Graph:
    g = Graph()
    m = ArrayMeta((3,), F32)
    x = g.placeholder("x", {"array": m})
    e = g.call("exp", (x,), meta={"array": m})
    s = g.call("add", (e, 1.0), meta={"array": m})
    g.output((s,))
    return g


def test_graph_prints_as_python():
    assert str(small_graph()) == (
        "def forward(x):\n"
        "    exp = ops.exp(x)\n"
        "    add = ops.add(exp, 1.0)\n"
        "    return (add,)\n")


def test_graph_to_networkx():
    g = small_graph().to_networkx()
    assert list(g.edges) == [("x", "exp"), ("exp", "add"), ("add", "output")]
    assert g.nodes["exp"]["op"] == "call" and g.nodes["exp"]["target"] == "exp"


def test_graph_runs_through_eager():
    fn = python_function(small_graph())
    x = rand(3)
    (out,) = fn(x)
    assert np.array_equal(out, np.exp(x) + 1.0)


def test_names_do_not_clash_with_builtins_or_ops():
    g = Graph()
    m = ArrayMeta((3,), F32)
    x = g.placeholder("sum", {"array": m})
    y = g.call("sum", (x,), meta={"array": m})
    g.output((y,))
    src = str(g)
    assert "def forward(v_sum):" in src and "v_sum_1 = ops.sum(v_sum)" in src


def test_non_literal_constants_are_bound():
    def f(x):
        return x.astype(np.float64) + np.float32(0.5)

    report = check(f, rand(3), graphs=1, breaks=0)
    assert "consts.float64" in str(report.graphs[0])


@pytest.mark.parametrize("name", models.MODELS)
def test_benchmark_models_are_one_graph(name):
    model, inputs = models.make(name, np)
    check(model, *inputs, graphs=1, breaks=0)


@pytest.mark.gpu
@pytest.mark.parametrize("name", models.MODELS)
def test_cupy_graph_returns_cupy_arrays(name):
    import cupy

    model, inputs = models.make(name, cupy)
    out = dynamo.compile(model, backend="eager")(*inputs)
    assert isinstance(out, cupy.ndarray)
    cupy.testing.assert_allclose(out, model(*inputs), rtol=1e-5, atol=1e-6)
