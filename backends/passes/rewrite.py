"""Helpers shared by the passes: copy a graph node by node, describe values.

Passes never edit a graph: they copy it into a new one with ``Rewriter``, dropping
or replacing nodes on the way. ``env`` maps each old node to what stands for it in
the new graph (usually its copy; after CSE, an equal earlier node).

Example::

    >>> rw = Rewriter(graph)
    >>> for node in graph:
    ...     if node.op == OUTPUT:
    ...         rw.output(node)
    ...     else:
    ...         rw.copy(node)
    >>> new = rw.graph
"""

from __future__ import annotations

import math
import struct
from typing import Any

import numpy as np

from dynamo.graph import CALL, CONSTANT, OUTPUT, Graph, Node, map_nodes
from dynamo.ops import ArrayMeta
from dynamo.symbolic import Symbolic
from dynamo.symbolic.graph_args import SymArg


class Rewriter:
    """Builds a new graph from an old one; ``env`` maps old nodes to new ones."""

    def __init__(self, old: Graph):
        self.old = old
        self.graph = Graph()
        self.env: dict[Node, Any] = {}
        self._names: set[str] = set()

    def arg(self, value: Any) -> Any:
        """``value`` (an argument of an old node) with old nodes mapped to new ones."""
        return map_nodes(value, lambda n: self.env[n])

    def copy(self, node: Node) -> Node:
        new = self.graph.create_node(node.op, node.target, self.arg(node.args),
                                     self.arg(node.kwargs), name=node.name,
                                     meta=dict(node.meta))
        self._unique_name(new)
        self.env[node] = new
        return new

    def call(self, target: str, args: tuple, kwargs: dict, meta: dict, name: str) -> Node:
        """A new call node (``args`` already refer to new nodes)."""
        new = self.graph.call(target, args, kwargs, meta=meta)
        new.name = name
        self._unique_name(new)
        return new

    def constant(self, value: Any, name: str, meta: dict) -> Node:
        new = self.graph.constant(value, name=name, meta=meta)
        self._unique_name(new)
        return new

    def output(self, node: Node) -> Node:
        return self.graph.output(self.arg(tuple(node.args[0])))

    def _unique_name(self, node: Node) -> None:
        # Graph._unique counts hints separately ("x_1" as a hint and as the second
        # "x" collide), and inserted nodes make that reachable: make names unique here,
        # since generated code uses them as variable names.
        base, i = node.name, 1
        while node.name in self._names:
            node.name = f"{base}_{i}"
            i += 1
        self._names.add(node.name)


def rewrite(graph: Graph, visit) -> Graph:
    """Copy ``graph``, calling ``visit(rw, node)`` for each call and constant node.

    ``visit`` returns True when it has handled the node itself (set ``rw.env[node]``
    or dropped it); otherwise the node is copied unchanged.
    """
    rw = Rewriter(graph)
    for node in graph.nodes:
        if node.op == OUTPUT:
            rw.output(node)
        elif node.op in (CALL, CONSTANT) and visit(rw, node):
            continue
        else:
            rw.copy(node)
    return rw.graph


def literal_key(value: Any) -> Any:
    """A hashable key that is equal only for values that act the same in NumPy.

    ``0.0 == -0.0`` and ``1 == 1.0 == True`` in Python, but NumPy results differ
    (sign of zero, result dtype), so the type and the exact bits are part of the key.
    Unknown objects (arrays, functions) are keyed by identity.
    """
    if isinstance(value, Node):
        return ("node", id(value))
    if isinstance(value, SymArg):   # (trip + 1 in a loop body: the expression, its nodes)
        return (SymArg, repr(value.sym), tuple((k, id(n)) for k, n in sorted(value.nodes.items())))
    if isinstance(value, (bool, int, str, bytes, type(None), type(Ellipsis))):
        return (type(value), value)
    if isinstance(value, float):   # the bits: -0.0 is not 0.0, NaN payloads differ
        return (type(value), struct.pack("<d", value))
    if isinstance(value, complex):
        return (type(value), struct.pack("<dd", value.real, value.imag))
    if isinstance(value, np.generic):
        return (type(value), value.tobytes())
    if isinstance(value, np.dtype):
        return (np.dtype, value.str, value.descr.__repr__())
    if isinstance(value, tuple):
        return (tuple, tuple(literal_key(v) for v in value))
    if isinstance(value, list):
        return (list, tuple(literal_key(v) for v in value))
    if isinstance(value, dict):
        return (dict, tuple((k, literal_key(v)) for k, v in value.items()))
    if isinstance(value, slice):
        return (slice, literal_key((value.start, value.stop, value.step)))
    return ("id", id(value))


def same_meta(a: Any, b: Any) -> bool:
    """The same shape, dtype, library and scalar-ness. Symbolic sizes compare by their
    expressions (an unbacked size, ``x[mask]``'s length, has no value to compare)."""
    return (isinstance(a, ArrayMeta) and isinstance(b, ArrayMeta) and
            same_shape(a.shape, b.shape) and a.dtype == b.dtype and a.kind == b.kind and
            a.scalar == b.scalar)


def same_shape(a: tuple, b: tuple) -> bool:
    """Equal sizes on every call: equal ints, or symbolic sizes with one expression."""
    return len(a) == len(b) and all(
        getattr(x, "sym", x) == getattr(y, "sym", y) and
        isinstance(x, Symbolic) == isinstance(y, Symbolic) for x, y in zip(a, b))


def exact_power_of_two(c: float) -> bool:
    """``c`` is +-2**k (so ``x / c == x * (1 / c)`` bit for bit when both are normal)."""
    if not math.isfinite(c) or c == 0:
        return False
    mantissa, _ = math.frexp(abs(c))
    return mantissa == 0.5
