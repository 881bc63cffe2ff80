"""Dead-code elimination: drop call and constant nodes nothing observable needs.

A node is needed when it is a graph output, when a needed node reads it, or when
running it is observable by itself: it writes into an existing array (``out=``,
``setitem``, ``**=``), draws random numbers, or may raise, warn or report a
floating-point condition (``signals.may_signal``): eager runs every op, so an unused
``np.linalg.inv(a)`` still raises for a singular ``a``, an unused ``x[i]`` for an
``i`` out of bounds, and an unused ``1 / x`` still warns (or raises, under
``np.errstate(divide="raise")``) for a zero. Only ops that certainly do none of
this are dead: views and creation calls with static arguments, quiet integer and
boolean ufuncs, constants. Placeholders always stay: they are the compiled
function's signature.

Example::

    def f(x, i):                  # x: an int64 array
        unused = x.T + 1          # dropped: cannot fail
        x[i]                      # kept: may raise IndexError
        1 / x                     # kept: warns "divide by zero" if x holds a 0
        x[0] = 1                  # kept: mutates the caller's array
        return x * 2
"""

from __future__ import annotations

from dynamo.graph import CALL, CONSTANT, Graph, Node
from dynamo.ops.signals import may_signal

from .rewrite import rewrite


def dce(graph: Graph) -> Graph:
    live: set[Node] = set()
    out = graph.output_node
    if out is not None:
        live.update(out.inputs())
    for node in reversed(graph.nodes):
        if node in live or may_signal(node):
            live.add(node)
            live.update(node.inputs())
    return rewrite(graph, lambda rw, node: node not in live) if _dead(graph, live) else graph


def _dead(graph: Graph, live: set[Node]) -> bool:
    return any(n.op in (CALL, CONSTANT) and n not in live for n in graph.nodes)
