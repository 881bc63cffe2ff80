"""A symbolic size as an argument of a graph node: the expression over the symbols'
placeholders, printed as Python in the graph's code.

Example::

    >>> from dynamo.symbolic.sizes import Sym
    >>> class P:  # a placeholder node
    ...     name = "s0_1"
    >>> SymArg(Sym.symbol("s0", "x.shape[0]").scale(2) + Sym((), 1), {"s0": P()})
    2*s0_1 + 1
"""

from __future__ import annotations

from .sizes import Sym


class SymArg:
    """A symbolic size as a graph argument: an expression over symbol placeholders.

    It prints as Python (``2*s0 + 1``) in the graph's code; ``nodes`` are the
    placeholders it reads, so passes see the dependency.
    """

    def __init__(self, sym: Sym, nodes: dict):
        self.sym, self.nodes = sym, dict(nodes)   # symbol -> placeholder Node

    def graph_expr(self) -> str:
        return self.sym.render({n: node.name for n, node in self.nodes.items()})

    def map_nodes(self, fn) -> SymArg:
        return SymArg(self.sym, {n: fn(node) for n, node in self.nodes.items()})

    def __repr__(self) -> str:
        return self.graph_expr()
