"""``dynamo.tree``: the one walker over nested tuples, lists, dicts and slices, and the
walkers built on it (graph arguments, symbolic sizes, op-rule arguments)."""

from __future__ import annotations

import collections
import doctest

import numpy as np
import pytest

import dynamo.tree
from dynamo.graph import Graph, map_nodes
from dynamo.ops import ArrayMeta
from dynamo.ops.rules import metas_in
from dynamo.ops.rules import substitute as substitute_metas
from dynamo.symbolic import Sym, SymArg, SymInt, is_symbolic, substitute, symbols_in, symbols_of
from dynamo.tree import tree_leaves, tree_map

Point = collections.namedtuple("Point", "x y")


def test_docstring_examples():
    failed, tried = doctest.testmod(dynamo.tree)
    assert tried >= 6 and failed == 0


def test_map_every_container_kind():
    value = (1, [2, 3], {"a": 4, "b": (5,)}, slice(6, None, 7))
    assert tree_map(lambda v: v if v is None else -v, value) == \
        (-1, [-2, -3], {"a": -4, "b": (-5,)}, slice(-6, None, -7))


def test_map_leaves_dict_keys_alone():
    assert tree_map(str, {1: 2, (3, 4): [5]}) == {1: "2", (3, 4): ["5"]}


def test_map_rebuilds_plain_containers():
    """A named tuple comes back a tuple, a dict subclass a dict; containers are new."""
    inner = [1]
    out = tree_map(lambda v: v, (Point(1, 2), collections.OrderedDict(a=inner)))
    assert type(out[0]) is tuple and out[0] == (1, 2)
    assert type(out[1]) is dict and out[1] == {"a": [1]}
    assert out[1]["a"] is not inner


def test_is_leaf_keeps_a_container_whole():
    seen = []
    out = tree_map(lambda v: seen.append(v) or len(v) if isinstance(v, list) else v,
                   ([1, 2], ([3],), 4), is_leaf=lambda v: isinstance(v, list))
    assert out == (2, (1,), 4)
    assert seen == [[1, 2], [3]]
    # the root too
    assert tree_map(len, [1, 2, 3], is_leaf=lambda v: isinstance(v, list)) == 3
    assert tree_leaves(Point(1, 2), is_leaf=lambda v: isinstance(v, Point)) == [Point(1, 2)]


def test_leaves_order_and_slices():
    assert tree_leaves([(1, 2), {"k": 3, "j": [4]}, slice(5)]) == [1, 2, 3, 4, None, 5, None]
    assert tree_leaves(((), [], {})) == []
    assert tree_leaves("abc") == ["abc"]          # a string is a leaf, not a sequence
    assert tree_leaves(Point(1, [2])) == [1, 2]   # a named tuple is a tuple


def test_map_is_not_fooled_by_falsy_leaves():
    assert tree_map(lambda v: 7 if v is None else v, (None, 0, "", [None])) == (7, 0, "", [7])


# ---------------------------------------------------------------- walkers on top of it

def _symint(name: str, hint: int) -> SymInt:
    return SymInt(hint, Sym.symbol(name, f"x.shape[{name}]"))


def test_map_nodes_reaches_symbolic_sizes():
    """``map_nodes`` maps the placeholders a symbolic size (SymArg) reads, too."""
    g = Graph()
    a, s0 = g.placeholder("a"), g.placeholder("s0")
    b = g.placeholder("b")
    size = SymArg(Sym.symbol("s0", "x.shape[0]"), {"s0": s0})
    value = (a, [size, slice(None, a)], {"k": 3})
    out = map_nodes(value, lambda n: b if n is a else n)
    assert out[0] is b and out[1][1] == slice(None, b) and out[2] == {"k": 3}
    assert out[1][0].nodes == {"s0": s0}
    found = []
    map_nodes(value, found.append)
    assert found == [a, s0, a]


def test_symbolic_size_walkers():
    T, U = _symint("s0", 5), _symint("s1", 7)
    meta = ArrayMeta((T, 3), np.dtype("f4"))
    value = (meta, [U + 1], {"k": slice(None, T * 2)})
    assert symbols_in(value) == {"s0", "s1"}
    assert symbols_in((1, [2.0], None)) == frozenset()
    out = substitute(value, {"s0": 10, "s1": 20})
    assert out[0].shape == (10, 3) and out[1] == [21] and out[2] == {"k": slice(None, 20)}
    assert type(out[1][0]) is int
    assert substitute([T], {}) == [5]             # no values: the hints


def test_is_symbolic_looks_into_tuples_and_lists_only():
    """As before the shared walker: a slice or dict holding a size is one opaque value."""
    T = _symint("s0", 5)
    assert is_symbolic(T) and is_symbolic((1, [T]))
    assert not is_symbolic(slice(None, T)) and not is_symbolic({"k": T})
    assert symbols_of([(T,), 3]) == {"s0"}
    assert symbols_of((slice(T), {"k": T})) == frozenset()


def test_rule_argument_walkers():
    m = ArrayMeta((3,), np.dtype("f8"))
    value = (m, [1, {"k": m}], slice(None, m))
    assert metas_in(value) == [m, m, m]
    out = substitute_metas(value, lambda meta: meta.shape)
    assert out == ((3,), [1, {"k": (3,)}], slice(None, (3,), None))


@pytest.mark.parametrize("value, holds", [
    (([1], 2), True), ((1, {"k": [2]}), True), ((1, (2,)), False), ([[1]], True)])
def test_cudagraphs_list_finder(value, holds):
    from dynamo.backends.cudagraphs.plan import _holds_list
    assert _holds_list(value) is holds
