"""A shape made of ``int()`` of a graph array (issue #19, ``dynamo/ops/computed_shapes.py``):
``k = int(labels.max()) + 1; np.zeros((n, k))``, ``np.zeros(int(counts.sum()))``,
``np.ones``/``np.empty``/``np.full``, ``np.eye(k)`` and ``np.arange(int(x.sum()))`` stay
in one graph with no break, and give eager's results at every value, 0 and 1 included,
from one compile (no guard on the value); a negative size raises NumPy's ValueError when
the graph runs (``np.arange`` of one is empty), as eagerly. Other uses of the int (a
``reshape``, ``np.linspace``'s ``num``) still break, with the data-dependent hint."""

import numpy as np
import pytest
from harness import check
from hypothesis import given, settings
from hypothesis import strategies as st

import dynamo


def one_hot(labels):
    k = int(labels.max()) + 1
    out = np.zeros((len(labels), k))
    out[np.arange(len(labels)), labels] = 1.0
    return out, np.eye(k)[labels].sum(0), np.full((k, 2), 0.5, dtype=np.float32)


def totals(counts):
    n_total = counts.sum()
    return np.zeros(int(n_total)), np.arange(int(n_total)) * 2, \
        np.ones((2, int(counts[0]) * 3), dtype=np.int8), np.arange(counts.sum())


def offsets(counts):
    k = int(counts.max()) - 2              # negative for small counts: arange is empty
    return np.arange(k), np.identity(int(counts.min()) + 1)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@given(y=st.lists(st.integers(0, 5), min_size=1, max_size=7))
@settings(max_examples=25, deadline=None)
def test_shapes_of_ints_the_graph_reads(y, backend):
    y = np.array(y)
    check(one_hot, y, backend=backend, graphs=1, breaks=0)
    check(totals, y, backend=backend, graphs=1, breaks=0)
    check(offsets, y, backend=backend, graphs=1, breaks=0)


def test_one_graph_for_every_value():
    """One compile serves every value: the trace made no guard on the size."""
    from backends.eager import eager
    compiled_graphs = []

    def counting(graph, example_inputs):
        compiled_graphs.append(graph)
        return eager(graph, example_inputs)
    counting.dynamic_shapes = True

    compiled = dynamo.compile(totals, backend=counting)
    for y in (np.array([0, 0, 0]), np.array([2, 0, 1]), np.array([5, 5, 0]),
              np.array([1, 0, 0])):
        got, want = compiled(y), totals(y)
        for g, w in zip(got, want):
            assert g.shape == w.shape and g.dtype == w.dtype and (g == w).all()
    assert len(compiled_graphs) == 1


def negative(y, acc):
    acc += 1                               # a write before the op that raises
    return np.zeros((2, int(y.max()) + 1))


def negative_eye(y):
    return np.eye(int(y.sum()))


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_negative_size_raises_as_eagerly(backend):
    check(negative, np.array([-3, -2]), np.zeros(2), backend=backend)   # ValueError
    check(negative, np.array([-3, 1]), np.zeros(2), backend=backend)
    check(negative_eye, np.array([-3, 1]), backend=backend)


def reshaped(y):
    return np.arange(12).reshape(int(y.max()) + 1, -1)


def test_other_uses_still_break_with_the_hint():
    report = check(reshaped, np.array([1, 2]), breaks=1)
    (brk,) = report.break_reasons
    assert "int() of an array" in brk.reason
    assert "pass the number in as a Python int" in brk.hint
