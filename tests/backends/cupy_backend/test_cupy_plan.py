"""The cupy backend's fusion plan: what fuses, what does not, and the order of steps."""

import numpy as np
import pytest
from dynamo.backends.cupy_backend import compile_graph
from dynamo.backends.cupy_backend.fuse import MAX_KERNEL_NODES, make_plan
from dynamo.backends.cupy_backend.layout import expected_layouts
from dynamo.backends.cupy_backend.lower import Reject, lower
from harness import rand

import dynamo


def trace(fn, *args):
    """(graph, example inputs) of ``fn`` traced on ``args``."""
    got = []

    def record(graph, example_inputs):
        got.append((graph, example_inputs))
        compiled = compile_graph(graph, example_inputs, device="reference")
        return compiled.fn

    record.layout_guards = True
    out = dynamo.compile(fn, backend=record)(*args)
    expected = fn(*args)
    for a, b in zip(out if isinstance(out, tuple) else (out,),
                    expected if isinstance(expected, tuple) else (expected,)):
        np.testing.assert_array_equal(a, b)
    (graph_and_inputs,) = got
    return graph_and_inputs


def steps(fn, *args, **plan_kwargs):
    plan = make_plan(*trace(fn, *args), **plan_kwargs)
    return [(s.kind if s.kind == "call" else s.kernel.kind,
             [n.target for n in s.nodes]) for s in plan.steps]


X, W = rand(4, 8), rand(8, 16, seed=1)


def test_mlp_layer_is_matmul_then_one_epilogue_kernel():
    def mlp(x, w1, w2):
        h = np.maximum(x @ w1 + 1.0, 0)
        e = np.exp(h @ w2)
        return e / e.sum(-1, keepdims=True)

    assert steps(mlp, X, W, rand(16, 5, seed=2)) == [
        ("call", ["matmul"]), ("pointwise", ["add", "maximum"]),
        ("call", ["matmul"]), ("row", ["exp", "sum", "divide"])]


def test_no_merge_through_another_step():
    """exp(x) feeds a matmul whose result meets exp(x) again: one kernel would be a cycle."""
    def f(x, w):
        a = np.exp(x)
        b = a @ w
        return b + a.sum(-1, keepdims=True)

    assert steps(f, X, W) == [("row", ["exp", "sum"]), ("call", ["matmul"]),
                              ("pointwise", ["add"])]


def test_nothing_moves_across_a_write():
    def f(x, y):
        a = x * 2 + 1
        y[0] = 3.0
        return a * y

    assert steps(f, X, rand(4, 8, seed=3)) == [
        ("pointwise", ["multiply", "add"]), ("call", ["setitem"]), ("pointwise", ["multiply"])]


def test_unfusible_ops_are_calls():
    def f(a, x, h):
        return a // 3, a % 4, np.cumsum(x, axis=-1) * 2, h * 2, x.astype(np.float16)

    s = steps(f, rand(4, 8, dtype=np.int32), X, X.astype(np.float16))
    assert ("call", ["floor_divide"]) in s and ("call", ["remainder"]) in s
    assert ("call", ["cumsum"]) in s and ("pointwise", ["multiply"]) in s
    assert ("call", ["multiply"]) in s                 # float16 stays with CuPy
    assert ("call", ["astype"]) in s


def test_reductions_not_over_the_last_axis_are_calls():
    s = steps(lambda x: (x - x.mean(axis=0)) * 2, X)
    assert s == [("call", ["mean"]), ("pointwise", ["subtract", "multiply"])]


def test_long_chains_are_split(monkeypatch):
    monkeypatch.setattr(dynamo.config, "loop_unroll_limit", 10**6)   # one long chain

    def f(x):
        for _ in range(MAX_KERNEL_NODES + 20):
            x = x * 1.0001 + 0.5
        return x

    s = steps(f, X)
    assert len(s) >= 3 and all(kind == "pointwise" for kind, _ in s)
    assert sum(len(n) for _, n in s) == 2 * (MAX_KERNEL_NODES + 20)


def test_two_reductions_of_one_row_space_fuse():
    s = steps(lambda x, v: (x.sum(-1, keepdims=True) + v).sum(-1), X, rand(8))
    assert s == [("row", ["sum", "add", "sum"])]


def test_lower_rejects_with_reasons():
    graph, inputs = trace(lambda x, y: x.sum(-1) + y.sum(-1), X, rand(4, 5))
    layouts = expected_layouts(graph, inputs, set())
    calls = graph.call_nodes()
    with pytest.raises(Reject, match="reductions over different shapes"):
        lower(calls, layouts)
    assert lower(calls[:1], layouts).kind == "row"


def test_per_row_value_read_as_a_column_is_rejected():
    """x.sum(-1) has shape (n,); adding it to x aligns it with the columns, not the rows."""
    graph, inputs = trace(lambda x: x + x.sum(-1), rand(5, 5))
    layouts = expected_layouts(graph, inputs, set())
    with pytest.raises(Reject, match="two different broadcasts|does not broadcast|per-row shape"):
        lower(graph.call_nodes(), layouts)


def test_view_layouts_are_predicted():
    graph, inputs = trace(lambda x: (x.T * 2, x.reshape(32) + 1, x[:, ::2] - 1), X)
    layouts = expected_layouts(graph, inputs, set())
    by_target = {n.target: layouts[n].strides for n in graph.call_nodes()
                 if n.target in ("transpose", "reshape", "getitem")}
    assert by_target == {"transpose": (1, 8), "reshape": (1,), "getitem": (8, 2)}


def test_a_failing_partition_does_not_stop_the_backend():
    def broken(graph, **kw):
        raise RuntimeError("partition bug")

    assert steps(lambda x: np.exp(x) * 2 + 1, X, partition=broken) == \
        [("pointwise", ["exp", "multiply", "add"])]
