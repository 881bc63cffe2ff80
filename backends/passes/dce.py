"""Dead-code elimination: drop call and constant nodes nothing observable needs.

A node is needed when it is a graph output, when a needed node reads it, or when
running it is observable by itself: it writes into an existing array (``out=``,
``setitem``, ``**=``) or draws random numbers. Placeholders always stay: they are
the compiled function's signature.

Example::

    def f(x):
        unused = np.exp(x)        # dropped
        x[0] = 1.0                # kept: mutates the caller's array
        return x * 2
"""

from __future__ import annotations

from dynamo.graph import CALL, CONSTANT, Graph, Node

from ..fusion.fusible import has_effect
from .rewrite import rewrite


def dce(graph: Graph) -> Graph:
    live: set[Node] = set()
    out = graph.output_node
    if out is not None:
        live.update(out.inputs())
    for node in reversed(graph.nodes):
        if node in live or has_effect(node):
            live.add(node)
            live.update(node.inputs())
    return rewrite(graph, lambda rw, node: node not in live) if _dead(graph, live) else graph


def _dead(graph: Graph, live: set[Node]) -> bool:
    return any(n.op in (CALL, CONSTANT) and n not in live for n in graph.nodes)
