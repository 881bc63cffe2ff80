"""Capture planning (backends.cudagraphs.plan): which graphs can be recorded, and why not.

Graphs come from tracing real programs (``dynamo.explain`` on NumPy arrays: the plan
only reads ops, metas and arguments, which are the same for CuPy graphs) and, for
what tracing cannot produce today (symbolic shapes, missing metas), from graphs built
by hand.
"""

from __future__ import annotations

import logging

import numpy as np
import pytest
from dynamo.backends.cudagraphs import plan_capture

import dynamo
from dynamo.graph import Graph
from dynamo.ops import ArrayMeta

F32 = np.dtype("float32")


def graphs_of(fn, *args):
    report = dynamo.explain(fn, backend="eager")(*args)
    assert report.graphs, f"no graph traced: {[b.reason for b in report.break_reasons]}"
    return report.graphs


def plan_of(fn, *args, **kw):
    (graph,) = graphs_of(fn, *args)
    return plan_capture(graph, **kw)


def codes(plan):
    return [r.code for r in plan.reasons]


def x44():
    return np.random.default_rng(0).standard_normal((4, 4)).astype(np.float32)


# --------------------------------------------------------------------------- capturable

def test_mlp_like_graph_is_capturable_and_lists_its_gemms():
    def mlp(x, w1, w2):
        h = np.maximum(x @ w1, 0)
        return np.exp(h @ w2 - (h @ w2).max(axis=-1, keepdims=True))

    w = x44()
    plan = plan_of(mlp, x44(), w, w.copy())
    assert plan.capturable, plan.summary()
    assert plan.reasons == ()
    assert len(plan.gemms) == 3
    assert plan.kernels >= 6
    assert "3 GEMMs" in plan.summary()


def test_models_of_the_benchmark_suite_are_capturable():
    import models
    for name in ("mlp", "transformer", "softmax", "layernorm", "gelu"):
        fn, inputs = models.make(name, np)
        for graph in graphs_of(fn, *inputs):
            plan = plan_capture(graph)
            assert plan.capturable, f"{name}: {plan.summary()}"


def test_elementwise_reductions_views_and_kernel_matmuls_are_capturable():
    def f(x):
        y = np.outer(x[0], x[1]) + np.trace(x) + np.vdot(x[0], x[1])
        return np.where(y > 0, y, 0.5 * y).sum(axis=0), np.linalg.norm(x), x.T @ x[:, 1]

    plan = plan_of(f, x44())
    assert plan.capturable, plan.summary()
    assert len(plan.gemms) == 1      # only x.T @ x[:, 1] needs cuBLAS


def test_boolean_mask_read_breaks_the_graph_and_each_side_is_planned():
    def f(x):
        return x[x > 0] + 1

    for graph in graphs_of(f, x44()):
        plan = plan_capture(graph)
        assert plan.capturable or codes(plan) == ["data_dependent"]


# --------------------------------------------------------------------------- not capturable

@pytest.mark.parametrize("fn, code, words", [
    (lambda x: x[[0, 2]] * 2, "host_data", "index holds a list"),
    (lambda x: x + np.asarray([1.0, 2, 3, 4], np.float32), "host_data", "np.asarray"),
    (lambda x: np.take(x, [0, 1]) + 1, "host_data", "np.take"),
    (lambda x: np.concatenate([x] * 9) + 1, "host_data", "table of their addresses"),
    (lambda x: x + np.random.normal(size=(4, 4)), "random", "repeat the numbers"),
    (lambda x: np.einsum("ij,jk->ik", x, x) + 1, "cublas", "np.einsum"),
    (lambda x: np.tensordot(x, x, 1) + 1, "cublas", "np.tensordot"),
    (lambda x: np.inner(x, x) + 1, "cublas", "np.inner of matrices"),
    (lambda x: np.sort(x) + 1, "host_sync", "np.sort"),
    (lambda x: x.astype(np.int8) @ x.astype(np.int8), "matmul_dtype", "int8"),
    (lambda x: x.T[0], "no_device_work", "only makes views"),
])
def test_reasons(fn, code, words):
    def g(x):
        return fn(x)

    plan = plan_of(g, x44())
    assert not plan.capturable
    assert code in codes(plan), plan.summary()
    reason = next(r for r in plan.reasons if r.code == code)
    assert words in str(reason)


def test_concatenating_few_arrays_is_fine():
    plan = plan_of(lambda x: np.concatenate([x, x, x]) + 1, x44())
    assert plan.capturable, plan.summary()


def test_reason_names_the_node_and_the_user_line():
    def f(x):
        y = x * 2
        return y[[1, 3]]

    plan = plan_of(f, x44())
    (reason,) = plan.reasons
    text = str(reason)
    assert reason.node and reason.node in text
    assert reason.loc and reason.loc.endswith(f":{f.__code__.co_firstlineno + 2}")
    assert "return y[[1, 3]]" in text


def test_writing_into_an_input_is_not_captured_but_into_an_intermediate_is():
    def into_input(x):
        x[0] = 1.0
        return x * 2

    def into_intermediate(x):
        y = x * 2
        y[0] = 1.0
        y += 3
        return y

    def inplace_input(x):
        x += 1
        return x * 2

    for fn in (into_input, inplace_input):
        plan = plan_of(fn, x44())
        assert codes(plan) == ["input_mutation"], (fn.__name__, plan.summary())
        assert "'x'" in str(plan.reasons[0])
    assert plan_of(into_intermediate, x44()).capturable


def test_writing_through_a_view_of_an_input_is_not_captured():
    def f(x):
        v = x.T
        v[1] = 0.0
        return x + 1

    plan = plan_of(f, x44())
    assert codes(plan) == ["input_mutation"]


def test_user_ops_are_refused_unless_allowed(restored_op_registry):
    def softplus(x):
        return np.log1p(np.exp(x))

    dynamo.register_op(softplus, meta="elementwise", name="softplus_cg_test")

    def f(x):
        return softplus(x) * 2

    plan = plan_of(f, x44())
    assert codes(plan) == ["user_op"]
    assert "capture_user_ops" in str(plan.reasons[0])
    assert plan_of(f, x44(), capture_user_ops=True).capturable


def test_norm_orders_that_need_an_svd_are_refused():
    plan = plan_of(lambda x: np.linalg.norm(x, 2) + 1, x44())
    assert codes(plan) == ["cublas"]
    assert plan_of(lambda x: np.linalg.norm(x, "fro") + 1, x44()).capturable


def test_dot_of_3d_arrays_is_refused_but_matmul_is_not():
    x = np.ones((2, 3, 3), np.float32)
    assert codes(plan_of(lambda a: np.dot(a, a) + 1, x)) == ["cublas"]
    plan = plan_of(lambda a: np.matmul(a, a) + 1, x)
    assert plan.capturable and len(plan.gemms) == 1


# --------------------------------------------------------------------------- hand-built graphs

def _graph(shape=(4, 4), meta=True):
    g = Graph()
    m = ArrayMeta(shape, F32, "cupy")
    x = g.placeholder("x", meta={"array": m})
    y = g.call("exp", (x,), meta={"array": m} if meta else {})
    g.output((y,))
    return g


def test_symbolic_shapes_are_refused():
    class Sym:                      # what a dynamic-shapes symbol looks like to the plan
        def __repr__(self):
            return "s0"

    plan = plan_capture(_graph(shape=(Sym(), 4)))
    assert codes(plan) == ["dynamic_shape"]
    assert "s0" in str(plan.reasons[0])


def test_nodes_without_meta_are_refused():
    assert codes(plan_capture(_graph(meta=False))) == ["unknown_shape"]


def test_numpy_constants_and_unknown_ops_are_refused():
    g = Graph()
    m = ArrayMeta((3,), F32, "cupy")
    x = g.placeholder("x", meta={"array": m})
    c = g.constant(np.ones(3, np.float32), "table")
    y = g.call("add", (x, c), meta={"array": m})
    z = g.call("no_such_op_cg", (y,), meta={"array": m})
    g.output((z,))
    assert codes(plan_capture(g)) == ["host_data", "unknown_op"]


def test_boolean_mask_assignment_is_data_dependent():
    g = Graph()
    m = ArrayMeta((4,), F32, "cupy")
    x = g.placeholder("x", meta={"array": m})
    y = g.call("multiply", (x, 2.0), meta={"array": m})
    mask = g.call("greater", (y, 0.0), meta={"array": m.with_(dtype=np.dtype(bool))})
    s = g.call("setitem", (y, mask, 0.0), meta={"array": m})
    g.output((s,))
    assert codes(plan_capture(g)) == ["data_dependent"]


def test_plan_is_pure():
    g = _graph()
    before = str(g), [dict(n.meta) for n in g.nodes]
    plan_capture(g)
    plan_capture(g)
    assert (str(g), [dict(n.meta) for n in g.nodes]) == before


def test_reasons_are_logged_on_the_cudagraphs_channel(caplog, monkeypatch):
    from dynamo.backends.cudagraphs import backend
    dynamo.set_logs("cudagraphs")
    try:
        with caplog.at_level(logging.DEBUG, logger="dynamo.cudagraphs"):
            backend._log_plan("graph of f (t.py:1)", plan_capture(_graph(meta=False)))
    finally:
        dynamo.set_logs()
    (record,) = [r for r in caplog.records if r.name == "dynamo.cudagraphs"]
    assert "runs uncaptured" in record.getMessage()
    assert "not known" in record.getMessage()


def test_symbolic_sizes_mark_the_plan_dynamic():
    graphs = []

    def keep(graph, example_inputs):
        graphs.append(graph)
        from dynamo.backends.common import python_function
        return python_function(graph)

    def f(x):
        return np.exp(x.reshape(-1, 2)).sum(0)

    keep.dynamic_shapes = True
    compiled = dynamo.compile(f, backend=keep)
    for n in (4, 6, 8):
        compiled(np.ones((n, 2), np.float32))
    plans = [plan_capture(g) for g in graphs]
    assert [p.dynamic for p in plans] == [False, True]
    assert all(p.capturable for p in plans)
    assert "one recording per size" in plans[1].summary()
