"""The order generated code runs a partitioned graph in: the program's, where it can.

Partition puts ops into groups. A block-wise group runs as one call; a group on the
plain path is only its ops, one NumPy call each. Emitting each group whole would run
them out of the program's order: the eight ``np.roll`` calls of a Game of Life step
would all run before the first add that reads one, holding eight arrays where eager
holds two (1.7x its memory). So ``schedule`` runs the plain path's ops in program
order and each block-wise group as soon as its inputs allow, at its first member's
place (a topological order of these steps that prefers the program's order).

Example::

    >>> steps = schedule(graph, groups, plans)
    >>> [(i, node.name if node is not None else "group") for i, node in steps]
    [(0, 'roll'), (0, 'roll_1'), (1, 'add'), (0, 'roll_2'), ...]
"""

from __future__ import annotations

import networkx as nx

from dynamo.graph import Graph, Node

from ..fusion import Group


def schedule(graph: Graph, groups: list[Group], plans: list) -> list[tuple[int, Node | None]]:
    """The steps in run order: ``(group index, node)`` for an op on the plain path,
    ``(group index, None)`` for a block-wise group."""
    position = {n: i for i, n in enumerate(graph.nodes)}
    steps: list[tuple[int, Node | None]] = []
    made_by: dict[Node, int] = {}    # node -> the step that computes it
    for index, (group, plan) in enumerate(zip(groups, plans)):
        for node in (group.nodes if plan is None else (None,)):
            made_by.update((n, len(steps)) for n in ((node,) if node is not None
                                                     else group.nodes))
            steps.append((index, node))
    order = nx.DiGraph()
    order.add_nodes_from(range(len(steps)))
    for s, (index, node) in enumerate(steps):
        reads = node.inputs() if node is not None else groups[index].inputs
        order.add_edges_from((made_by[n], s) for n in reads
                             if n in made_by and made_by[n] != s)

    def first(s: int) -> int:
        index, node = steps[s]
        members = (node,) if node is not None else groups[index].nodes
        return min(position[n] for n in members)
    return [steps[s] for s in nx.lexicographical_topological_sort(order, key=first)]
