"""The registry's public face: unknown functions break with a reason that names them and
hints at ``dynamo.register_op``; ``register_op`` makes a function one graph node, with
the shape rule it is given; data-dependent functions break with their own reason; an
implementation table pickles as a reference to itself."""

import pickle

import numpy as np
import pytest
from harness import check, rand

import dynamo
from dynamo import ops

X = rand(3, 4)


def test_unknown_numpy_function_breaks_naming_it_with_a_hint():
    report = check(lambda x: np.ediff1d(x) + 1, X, breaks=1)
    b = report.break_reasons[0]
    assert "np.ediff1d" in b.reason and "not in the op registry" in b.reason
    assert "dynamo.register_op" in b.hint


def test_unknown_function_under_fullgraph_raises_unsupported():
    with pytest.raises(dynamo.Unsupported, match="np.ediff1d"):
        dynamo.compile(lambda x: np.ediff1d(x), fullgraph=True, backend="eager")(X)


def softplus_for_test(x):
    return np.log1p(np.exp(x))


def scale_rows_for_test(x, w):
    return x * w[:, None]


def test_register_op_elementwise_is_one_node(restored_op_registry):
    dynamo.register_op(softplus_for_test, meta="elementwise")
    report = check(lambda x: softplus_for_test(x) * 2, X, graphs=1, breaks=0)
    targets = [n.target for n in report.graphs[0].call_nodes()]
    assert targets == ["softplus_for_test", "multiply"]
    op, _ = ops.lookup_function(softplus_for_test)
    assert op.kind == ops.ELEMENTWISE
    assert op.meta(op, (ops.ArrayMeta((2, 5), np.dtype("f4")),), {}).shape == (2, 5)


def test_register_op_with_a_shape_rule_and_a_name(restored_op_registry):
    def rule(x, w):
        assert isinstance(x, ops.ArrayMeta) and isinstance(w, ops.ArrayMeta)
        return x.shape, np.result_type(x.dtype, w.dtype)

    dynamo.register_op(scale_rows_for_test, meta=rule, name="scale_rows_t")
    w = rand(3, seed=1).astype(np.float64)
    report = check(lambda x, w: scale_rows_for_test(x, w) + 1, X, w, graphs=1, breaks=0)
    assert report.graphs[0].call_nodes()[0].target == "scale_rows_t"


def test_register_op_refuses_a_taken_name_and_bad_arguments(restored_op_registry):
    def exp(x):
        return x

    with pytest.raises(ValueError, match="already exists"):
        dynamo.register_op(exp)
    with pytest.raises(TypeError):
        dynamo.register_op(3)
    with pytest.raises(ValueError, match="meta"):
        dynamo.register_op(lambda x: x, meta="nonsense", name="nonsense_op_t")
    with pytest.raises(ValueError, match="identifier"):
        dynamo.register_op(lambda x: x, name="not an identifier")


def test_register_an_unknown_numpy_function(restored_op_registry):
    fn = np.ediff1d
    dynamo.register_op(fn, meta=lambda x: ((x.size - 1,), x.dtype), name="ediff1d_t")
    check(lambda x: np.ediff1d(x) * 2, X, graphs=1, breaks=0)


def test_the_ops_registered_above_are_gone():
    """(After them, in file order.) ``restored_op_registry`` undid their registrations:
    np.ediff1d breaks again, as docs/ops.md says (test_ops_coverage.py failed when it
    ran after this file)."""
    assert ops.lookup_function(np.ediff1d) is None
    assert not {"softplus_for_test", "scale_rows_t", "ediff1d_t"} & set(ops.REGISTRY)


@pytest.mark.parametrize("fn", [
    lambda x: np.nonzero(x > 0), lambda x: np.unique(x), lambda x: (x > 0).nonzero(),
    lambda x: np.where(x > 0), lambda x: x[x > 0],
])
def test_data_dependent_sizes_are_captured(fn):
    """Their result's size is an unbacked size (docs/unbacked.md): one graph."""
    check(fn, X, graphs=1, breaks=0)


@pytest.mark.parametrize("fn,reason", [
    # (len(...) > 1 returned is a bool the graph computes: variables/size_values.py; an
    # if choosing one of two numbers is a graph number too: translator/number_selects.py;
    # one choosing a string needs the condition's value while tracing)
    (lambda x: "many" if len(np.flatnonzero(x > 0)) > 1 else "few", "data-dependent size"),
    (lambda x: "same" if np.allclose(x, x) else "differ",
     "Python value computed from array data"),
    # (float(x.sum()) + 1 is a number the graph reads: graph_numbers.py; ** reads it)
    (lambda x: float(x.sum()) ** 2, "a Python number computed from array data (float()"),
    (lambda x: x.sum().item() ** 2, "a Python number computed from array data (array.item()"),
    (lambda x: round(x, 1), "round() of an array"),
])
def test_data_dependent_calls_break_with_a_reason(fn, reason):
    report = check(fn, X, breaks=1)
    assert reason in report.break_reasons[0].reason, str(report)


def test_ops_print_as_python_in_the_graph():
    report = dynamo.explain(lambda x: np.split(x, 2, axis=1)[0] @ np.eye(2), backend="eager")(X)
    src = str(report.graphs[0])
    assert "ops.split(x, 2, axis=1)" in src and "ops.eye(2)" in src


def test_an_impl_table_pickles_as_a_reference_to_itself():
    """``ImplTable.__reduce__``: a table that has looked up every op (as
    backends/eager_ops.py does at import) pickles as its kind, a few dozen bytes, and
    comes back as the same live table. By value it was its cache: 24 KB with cloudpickle,
    copies of np.random's global RandomState among it, in the pickle Numba copies at
    every run of a kernel's object-mode block (issue #15); plain pickle refused it."""
    cloudpickle = pytest.importorskip("cloudpickle")   # (Numba's and Dask's pickler)
    table = ops.impl_table(ops.NUMPY)
    for name in ops.REGISTRY:
        getattr(table, name)
    assert "random_rand" in vars(table)     # (a method of the global RandomState)
    for dumps, loads in ((pickle.dumps, pickle.loads),
                         (cloudpickle.dumps, cloudpickle.loads)):
        data = dumps(table)
        assert len(data) < 200, len(data)
        assert loads(data) is table
