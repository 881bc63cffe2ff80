"""A size read from the data (issue #19): ``np.zeros((n, labels.max() + 1))``,
``np.ones``, ``np.empty`` and ``np.full`` with a 0-d integer array of the graph as a
size stay in the graph, the size an unbacked one (``data_sizes.valued_shape``,
docs/unbacked.md), and give eager's results at every value, 0 and 1 included; a
negative one raises NumPy's ValueError when the graph runs, as eagerly (the node may
raise). What NumPy refuses whatever the value (a float or bool 0-d array, a 1-d
shape array) breaks, with its hint. Then ``np.linalg.matrix_rank`` (an op now) agrees
with NumPy on stacks, and of a vector breaks with a hint that fits."""

import numpy as np
import pytest
from harness import check
from hypothesis import given, settings
from hypothesis import strategies as st

import dynamo
from dynamo.ops import get


def one_hot(labels):
    out = np.zeros((labels.size, labels.max() + 1))
    out[np.arange(labels.size), labels] = 1
    return out, out.sum(axis=0)


def counts_table(y, x):
    k = y.max() + 1
    table = np.full((k, 2), -1.5, dtype=np.float32)
    table[y, 0] = x
    seen = np.ones(k, dtype=np.int8)
    seen[y] = 0
    return table, seen, np.empty((0, k)).shape, table.shape[0] * 2.0


def two_reads(y):
    a = np.zeros(y.max() + 1)            # one array read twice: one size, no check
    b = np.ones((y.max() + 1, 3))
    k = y.max() + 1
    return np.zeros(k) + np.arange(k), (b.T * a).sum(axis=1)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@given(y=st.lists(st.integers(0, 4), min_size=1, max_size=6))
@settings(max_examples=25, deadline=None)
def test_sizes_read_from_the_data(y, backend):
    y = np.array(y)
    x = np.arange(len(y), dtype=np.float64)
    check(one_hot, y, backend=backend)
    check(counts_table, y, x, backend=backend)
    check(two_reads, y, backend=backend)


def test_one_graph_for_every_value():
    """One compile serves every value: the trace made no guard on the size."""
    from backends.eager import eager
    compiled_graphs = []

    def counting(graph, example_inputs):
        compiled_graphs.append(graph)
        return eager(graph, example_inputs)
    counting.dynamic_shapes = True          # takes unbacked sizes, as eager does

    compiled = dynamo.compile(one_hot, backend=counting)
    # one length (a new length recompiles for the input's own size, not this one)
    for y in (np.array([0, 0, 0]), np.array([2, 0, 1]), np.array([5, 5, 0]),
              np.array([1, 1, 1])):
        got, want = compiled(y), one_hot(y)
        assert got[0].shape == want[0].shape and (got[0] == want[0]).all()
    assert len(compiled_graphs) == 1
    check(one_hot, np.array([3, 1]), graphs=1, breaks=0)


def negative(y, acc):
    acc += 1                               # a write before the op that raises
    return np.zeros((2, y.max() + 1))


def test_a_negative_size_raises_as_eagerly():
    check(negative, np.array([-3, -2]), np.zeros(2))          # ValueError, acc written
    check(negative, np.array([-3, 1]), np.zeros(2))


def float_size(x):
    return np.zeros(x.max() + 1)


def bool_size(x):
    return np.ones(x.any())


def array_shape(x):
    return np.zeros(x[:2])


@pytest.mark.parametrize("fn,arg", [(float_size, np.array([1.5, 2.0])),
                                    (bool_size, np.array([1, 0])),
                                    (array_shape, np.array([2, 3, 4]))])
def test_what_numpy_refuses_breaks_with_its_hint(fn, arg):
    report = check(fn, arg, breaks=1)
    (brk,) = report.break_reasons
    assert "is an array: the result's shape depends on its data" in brk.reason
    assert "pass the number in as a Python int" in brk.hint


def test_the_rule_marks_the_value():
    k = dynamo.ops.ArrayMeta((), np.dtype("i8"), "numpy", True)
    op = get("zeros")
    meta = op.meta(op, ((5, k),), {})
    assert meta.shape[0] == 5
    assert isinstance(meta.shape[1], dynamo.ops.DataSize)
    assert meta.shape[1].measure == "value" and meta.shape[1].nonzero_of == 0


# ---------------------------------------------------------------- matrix_rank

def ranks(X, tol):
    r = np.linalg.matrix_rank(X)
    stack = np.stack([X.T @ X, np.zeros((X.shape[1],) * 2)])
    return r, np.linalg.matrix_rank(stack), np.linalg.matrix_rank(X, tol=tol), \
        np.linalg.matrix_rank(X.T @ X, hermitian=True)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_matrix_rank_is_captured(backend):
    X = np.random.default_rng(0).normal(size=(6, 3))
    X[:, 2] = X[:, 0] - X[:, 1]
    for x in (X, X.astype(np.float32), np.zeros((4, 2))):
        check(ranks, x, 1e-3, backend=backend, graphs=1, breaks=0)


def vector_rank(v):
    return np.linalg.matrix_rank(v) + 1


def test_matrix_rank_of_a_vector_breaks_with_a_hint():
    report = check(vector_rank, np.array([0.0, 2.0]), breaks=1)
    (brk,) = report.break_reasons
    assert "the rank of a vector or a number is a Python int" in brk.reason
    assert "np.atleast_2d" in brk.hint
