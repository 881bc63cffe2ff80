"""The last check of a traced graph before a backend gets it (dynamo/graph_printable.py,
issue #17): every op argument prints as code of its own graph, or the trace is an
internal error and the frame falls back to eager (not a NameError or ``Specialize``
when the graph runs)."""

import numpy as np
import pytest

from dynamo.graph import Graph
from dynamo.graph_printable import UnprintableGraph, check_printable, unprintable_args
from dynamo.ops import ArrayMeta
from dynamo.symbolic import Sym, SymInt
from dynamo.symbolic.graph_args import SymArg

F64 = np.dtype("float64")


def _graph_with(make_arg, x=None) -> Graph:
    """``scalar_add(x, make_arg(s0))`` in a graph with inputs ``x`` and the size ``s0``
    (``x`` may be given: a node of another graph)."""
    g = Graph()
    own_x = g.placeholder("x", {"array": ArrayMeta((3,), F64)})
    s0 = g.placeholder("s0", {"symbol": "s0"})
    g.output((g.call("scalar_add", (own_x if x is None else x, make_arg(s0))),))
    return g


def test_a_size_expression_over_its_own_inputs_prints():
    expr = Sym.symbol("s0", "x.shape[0]").scale(2) + Sym((), 1)
    g = _graph_with(lambda s0: SymArg(expr, {"s0": s0}))
    assert unprintable_args(g) == []
    check_printable(g)   # (no error)
    assert "2*s0 + 1" in str(g)


def test_a_symbolic_constant_inside_an_expression_is_found():
    """The bug of issue #17: a counter's symbolic start folded into the constant."""
    start = SymInt(12, Sym.symbol("s0", "x.shape[0]") + Sym((), 1))
    bad = Sym((("s0", 1),), start, (("s0", "x.shape[0]"),))
    g = _graph_with(lambda s0: SymArg(bad, {"s0": s0}))
    [problem] = unprintable_args(g)
    assert "no plain int" in problem and "scalar_add in forward" in problem
    with pytest.raises(UnprintableGraph, match="no plain int"):
        check_printable(g)


def test_a_bare_symbolic_int_is_found():
    g = _graph_with(lambda s0: SymInt(7, Sym.symbol("s0", "x.shape[0]")))
    [problem] = unprintable_args(g)
    assert "bare SymInt" in problem


def test_a_symbol_no_input_gives_and_a_node_of_another_graph_are_found():
    g = _graph_with(lambda s0: SymArg(Sym.symbol("s9", "y.shape[0]"), {}))
    assert "['s9'], which no input gives" in unprintable_args(g)[0]
    outer = Graph().placeholder("y", {"array": ArrayMeta((3,), F64)})
    g2 = _graph_with(lambda s0: 1.0, x=outer)
    assert "y is a node of another graph" in unprintable_args(g2)[0]


def test_a_loop_body_is_checked_too():
    body = _graph_with(lambda s0: SymInt(7, Sym.symbol("s0", "x.shape[0]")))
    g = Graph()
    x = g.placeholder("x", {"array": ArrayMeta((3,), F64)})
    loop = g.call("fori_loop", (body, 3, (x,), ()))
    g.output((loop,))
    [problem] = unprintable_args(g)
    assert problem.startswith("scalar_add in fori_loop_body: a bare SymInt")
