"""``ShapeEnv``: the symbol table of one trace, on its own and as the OutputGraph's."""

from __future__ import annotations

import numpy as np
from dynamo.guards import EXPR, GuardSet, LocalSource, ShapeSource

import dynamo
from dynamo.ops import ArrayMeta
from dynamo.symbolic import DynamicPolicy, ShapeEnv, SymInt, recording


def _exprs(guards: GuardSet) -> list[str]:
    return [g.expected for g in guards.ordered() if g.kind == EXPR]


def test_symbolic_dims_and_guards():
    guards = GuardSet()
    env = ShapeEnv(guards, DynamicPolicy(mode=True))
    x = np.zeros((5, 1, 3), "f4")
    meta = env.symbolic_dims(ArrayMeta(x.shape, x.dtype), LocalSource("x"), x)
    T, one, C = meta.shape
    assert isinstance(T, SymInt) and isinstance(C, SymInt) and one == 1
    assert not isinstance(one, SymInt)                  # sizes 0 and 1 stay static
    assert (int(T), int(C)) == (5, 3)
    assert env.symbols == {"s0": ShapeSource(LocalSource("x"), 0),
                           "s1": ShapeSource(LocalSource("x"), 2)}
    assert env.hints == {"s0": 5, "s1": 3}
    assert _exprs(guards) == ["x.shape[0] >= 2", "x.shape[2] >= 2"]


def test_static_policy_makes_no_symbols():
    env = ShapeEnv(GuardSet(), DynamicPolicy(mode=False))
    x = np.zeros((5, 3))
    meta = env.symbolic_dims(ArrayMeta(x.shape, x.dtype), LocalSource("x"), x)
    assert meta.shape == (5, 3) and not env.symbols
    env.add_guards()                                    # nothing learned, nothing added


def test_decisions_and_pins_become_guards():
    guards = GuardSet()
    env = ShapeEnv(guards, DynamicPolicy(mode=True))
    n = env.new_symbol(LocalSource("n"), 6, "a dynamic int")
    m = env.new_symbol(LocalSource("m"), 4, "a dynamic int")
    with recording() as env.trace:
        assert n > 3                                    # a branch on a size
        m * m                                           # not affine: pinned
    env.add_guards()
    assert _exprs(guards) == ["n >= 2", "m >= 2", "n > 3", "m == 4"]
    assert env.pinned_sizes() == {LocalSource("m")}


def test_the_output_graph_owns_one():
    """A compiled function with a dynamic dimension: the entry's record lists the
    symbols the OutputGraph's ShapeEnv made."""
    def f(x):
        return x * 2

    report = dynamo.explain(f, dynamic=True, backend="eager")(np.ones((4, 3)))
    assert report.records[0].symbols == {"s0": "L['x'].shape[0]", "s1": "L['x'].shape[1]"}
