"""Greedy partition of a graph into fusion groups (see the package docstring).

This first version fuses elementwise chains only; reductions and matmuls are
``single`` groups. It is deliberately simple and safe: a node joins the group of
its producer only when every user of that producer is inside the same group, so a
group never has to publish an intermediate it computed, and a group never reads a
value produced after an in-place write it could race with.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dynamo.graph import CALL, Graph, Node
from dynamo.ops import ELEMENTWISE, MUTATION


@dataclass
class Group:
    kind: str                                          # elementwise, reduction, matmul, single
    nodes: list[Node] = field(default_factory=list)    # program order
    inputs: list[Node] = field(default_factory=list)   # read from outside the group
    outputs: list[Node] = field(default_factory=list)  # read outside the group / graph outputs

    def __repr__(self) -> str:
        return f"Group({self.kind}, {[n.name for n in self.nodes]})"


def is_inplace(node: Node) -> bool:
    """The node writes into an existing array (``out=``, ``setitem``, ``**=``)."""
    return node.kwargs.get("out") is not None or node.meta.get("kind") == MUTATION


def _fusible(node: Node) -> bool:
    meta = node.meta.get("array")
    return (node.op == CALL and node.meta.get("kind") == ELEMENTWISE and not is_inplace(node)
            and meta is not None and not isinstance(meta, tuple))


def partition(graph: Graph) -> list[Group]:
    outputs = set(graph.outputs)
    groups: list[Group] = []
    group_of: dict[Node, Group] = {}
    for node in graph.call_nodes():
        target = None
        if _fusible(node):
            for inp in node.inputs():
                g = group_of.get(inp)
                if g is not None and g.kind == "elementwise" and groups[-1] is g and \
                        all(u in group_of and group_of[u] is g or u is node
                            for u in inp.users) and inp not in outputs:
                    target = g
        if target is None:
            target = Group("elementwise" if _fusible(node) else "single")
            groups.append(target)
        target.nodes.append(node)
        group_of[node] = target
    for g in groups:
        members = set(g.nodes)
        seen: dict[Node, None] = {}
        for n in g.nodes:
            for inp in n.inputs():
                if inp not in members:
                    seen.setdefault(inp)
        g.inputs = list(seen)
        g.outputs = [n for n in g.nodes
                     if n in outputs or any(u not in members for u in n.users)
                     or is_inplace(n)]
    return groups
