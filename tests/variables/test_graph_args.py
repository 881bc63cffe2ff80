"""``Variable.as_graph_arg`` / ``as_meta``: each kind of value an array op takes, as a
graph argument and as its shape rule sees it; and the kinds it refuses (a graph break
at the call, which then runs eagerly)."""

from __future__ import annotations

import collections

import numpy as np
import pytest
from harness import check

import dynamo
from dynamo.exc import Unsupported
from dynamo.graph import Graph
from dynamo.ops import ArrayMeta
from dynamo.variables import (
    ArrayVariable,
    ConstantVariable,
    DictVariable,
    ListVariable,
    NamedTupleVariable,
    SliceVariable,
    TupleVariable,
)

Pair = collections.namedtuple("Pair", "a b")


def test_each_kind_on_its_own():
    g = Graph()
    meta = ArrayMeta((3,), np.dtype("f8"))
    x = ArrayVariable(g.placeholder("x"), meta)
    three, none = ConstantVariable(3), ConstantVariable(None)
    cases = [
        (x, x.node, meta),
        (three, 3, 3),
        (ConstantVariable(np.float32), np.float32, np.float32),
        (TupleVariable([x, three]), (x.node, 3), (meta, 3)),
        (NamedTupleVariable([x, three], Pair), (x.node, 3), (meta, 3)),   # plain tuples
        (ListVariable([three, x]), [3, x.node], [3, meta]),
        (SliceVariable(none, three, none), slice(None, 3), slice(None, 3)),
    ]
    for var, arg, rule_arg in cases:
        assert var.as_graph_arg(None) == arg, var
        assert var.as_meta() == rule_arg, var
        assert type(var.as_graph_arg(None)) is type(arg)


def test_a_dict_is_refused():
    d = DictVariable({"k": ConstantVariable(1)})
    with pytest.raises(Unsupported, match="as an argument of an array op"):
        d.as_graph_arg(None)
    with pytest.raises(Unsupported, match="as an argument of an array op"):
        d.as_meta()


# ------------------------------------------------------------------ compiled, end to end

def test_tuples_lists_and_slices_of_arrays():
    def f(x, y):
        a = np.concatenate((x, y))
        b = np.stack([x, y * 2])
        c = a[slice(1, None, 2)]
        return a, b, c, np.transpose(b, (1, 0))
    check(f, np.arange(4.0), np.ones(4), graphs=1, breaks=0)


def test_symbolic_sizes_as_arguments():
    def f(x, n):
        return np.zeros(n) + x[:n].sum(), x.reshape(n, -1)
    for n in (2, 3, 4):
        check(f, np.arange(12.0), n)


def test_random_generator_and_dtype_constants():
    """The Generator is a graph input (its placeholder is its graph argument)."""
    def f(rng, x):
        return rng.standard_normal(3).astype(np.float32) + x.astype(np.float32)
    compiled = dynamo.compile(f, backend="eager")
    for seed in (0, 1):
        want = f(np.random.default_rng(seed), np.ones(3))
        got = compiled(np.random.default_rng(seed), np.ones(3))
        assert got.dtype == want.dtype and np.array_equal(got, want)
    report = dynamo.explain(f, backend="eager")(np.random.default_rng(0), np.ones(3))
    assert report.graph_count == 1 and report.graph_break_count == 0


def test_a_dict_argument_breaks_and_runs_eagerly():
    def f(x):
        arr = np.asarray({"k": x})
        return arr.dtype, arr.shape, x + 1
    check(f, np.ones(2))
    report = dynamo.explain(f, backend="eager")(np.ones(2))
    assert report.break_reasons[0].reason == "dict of 1 as an argument of an array op"
