"""Unread ``sym_int`` nodes that cannot raise are dead (``dynamo/ops/quiet_sym_ints.py``,
``signals.may_signal``): a split loop's inner body kept its own ``i // 2`` (the test
``j <= i // 2`` the split removed), and the numpy backend ran it on every inner trip
(``half_lower`` took 1.2x plain NumPy's time, issue #23). One that may divide by zero
stays: eager raises ZeroDivisionError there."""

import copy
import operator

import numpy as np
from dynamo.backends.passes import dce
from harness import check

import dynamo
from dynamo.ops.quiet_sym_ints import quiet_int_expr
from dynamo.symbolic.scalars import Expr
from dynamo.symbolic.sizes import Sym


def half_lower(A):
    n = A.shape[0]
    B = np.zeros_like(A)
    for i in range(n):
        for j in range(n):
            if j <= i // 2:
                B[i, j] = A[i, j] + A[j, i]
            else:
                B[i, j] = -A[i, j]
    return B


def _bodies(graph):
    for node in graph.call_nodes():
        if node.target in ("fori_loop", "while_loop"):
            yield node.args[0]
            yield from _bodies(node.args[0])


def _unread_sym_ints(graph) -> int:
    read = {i for n in graph.nodes for i in n.inputs()}
    return sum(n.target == "sym_int" and n not in read for n in graph.call_nodes())


def test_a_split_loops_unread_quotient_is_dropped():
    A = np.random.default_rng(0).random((12, 12))
    report = dynamo.explain(half_lower, backend="eager")(copy.deepcopy(A))
    assert report.graph_count == 1
    bodies = list(_bodies(report.graphs[0]))
    assert len(bodies) >= 3   # (the i loop, the j loop's two parts)
    assert sum(_unread_sym_ints(b) for b in bodies) > 0   # (as the translator made them)
    assert [_unread_sym_ints(dce(b)) for b in bodies] == [0] * len(bodies)
    check(half_lower, A, backend="numpy")


def test_only_int_expressions_without_a_zero_divisor_are_quiet():
    i, n = (Expr("int", (s,), s.symbols) for s in (Sym.symbol("u0", "i"),
                                                    Sym.symbol("u1", "n")))
    two, zero = Expr.of(2), Expr.of(0)
    assert quiet_int_expr(Expr.apply(operator.floordiv, Expr.apply(operator.add, i, two), two))
    assert quiet_int_expr(Expr.apply(max, Expr.apply(operator.mod, i, two), n))
    assert not quiet_int_expr(Expr.apply(operator.floordiv, i, n))   # n may be 0
    assert not quiet_int_expr(Expr.apply(operator.mod, i, zero))
    assert not quiet_int_expr(Expr.apply(operator.floordiv, i, Expr.of(0.5)))
    assert not quiet_int_expr(Expr.apply(operator.pow, i, two))
