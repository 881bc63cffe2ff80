"""Copies of fresh inputs: ``np.array(xs)`` of a list the guards already converted.

A list of Python numbers used as array data enters a graph as the array NumPy makes
of it (``guards.AsArraySource``, ``np.asarray(xs)``): the check makes that array
anew at each call and hands it to the graph, and nothing else holds it. The
program's own ``np.array(xs)`` is then a second copy of the same numbers. When
nothing could tell the two apart, the copy is the input itself:

- the input's only reader is the copy (no other op sees the array it was made from),
- the copy takes no arguments but the input (no ``dtype=``, ``copy=``, ``ndmin=``),
  and has the input's array library, dtype and rank,
- each reader of the copy only reads it and returns a new array (``returns_fresh``:
  no view, no write, no ``out=``), or returns it to the caller, who gets a new array
  that nothing else holds, as from ``np.array``.

Example::

    def weighted(xs, a):            # xs: a fresh list of 64 floats each call
        return a * np.array(xs)

    def forward(a, np_asarray_xs):              # before
        array = ops.array(np_asarray_xs)
        multiply = ops.multiply(a, array)
        return (multiply,)

    def forward(a, np_asarray_xs):              # after
        multiply = ops.multiply(a, np_asarray_xs)
        return (multiply,)
"""

from __future__ import annotations

from dynamo.guards import AsArraySource

from dynamo.graph import CALL, OUTPUT, PLACEHOLDER, Graph, Node
from dynamo.ops.node_facts import array_meta, returns_fresh

from .rewrite import rewrite


def fresh_copies(graph: Graph) -> Graph:
    """``graph`` without the copies that only repeat a fresh input (see module doc)."""
    redundant = {node: node.args[0] for node in graph.nodes if _repeats_fresh_input(node)}
    if not redundant:
        return graph

    def visit(rw, node: Node) -> bool:
        if node in redundant:
            rw.env[node] = rw.env[redundant[node]]
            return True
        return False
    return rewrite(graph, visit)


def _repeats_fresh_input(node: Node) -> bool:
    if node.op != CALL or node.target != "array" or node.kwargs or len(node.args) != 1:
        return False
    (source,) = node.args
    if not isinstance(source, Node) or source.op != PLACEHOLDER or \
            not isinstance(source.meta.get("source"), AsArraySource) or \
            list(source.users) != [node]:
        return False
    before, after = array_meta(source), array_meta(node)
    if before is None or after is None or after.scalar or \
            (before.kind, before.dtype, before.ndim) != (after.kind, after.dtype, after.ndim):
        return False
    return all(user.op == OUTPUT or returns_fresh(user) for user in node.users)
