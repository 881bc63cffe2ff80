"""A loop node whose body makes a number that may raise from the trip index and never
reads it is no loop node (issue #17; ``symbolic/trip_raising.py`` says why).

``refuse_unread(scope)`` runs after the body's trace (``BodyState._check_effects``):
each raising number over the loop's symbol that the trace noted must be an operand,
whole or inside a bigger expression, of some op of the body (of a nested loop's body
too). Where one is not, ``NotALoopNode``: the loop is unrolled, and the trip's number
is guarded where it is made (``scalars.guard_computes``), so a call where it raises
misses, and its trace raises as Python does.

Example::

    >>> for i in range(n):
    ...     h = 1.0 / (i - k)      # never read: NotALoopNode, the loop is unrolled
    ...     x[i] = x[i] * 2.0
"""

from __future__ import annotations

from ..graph import Graph
from ..symbolic import SymArg
from ..symbolic.trip_raising import made, parts
from ..tree import tree_leaves
from .loop_facts import NotALoopNode


def refuse_unread(scope) -> None:
    """``NotALoopNode`` where the body made a raising number of its trip index that no
    op of the body takes."""
    numbers = made(scope.output.shape_env.trace, scope.symbol)
    if not numbers:
        return
    taken = {id(e) for sym in _operands(scope.body) for e in parts(sym)}
    if any(id(e) not in taken for e in numbers):
        raise NotALoopNode("a number that may raise (a division by an expression of the "
                           "index) is never read in the body")


def _operands(graph: Graph) -> list:
    """The expressions the ops of ``graph`` (and of the loop bodies inside it) take."""
    out = []
    for node in graph.nodes:
        for leaf in tree_leaves((node.args, node.kwargs)):
            if isinstance(leaf, SymArg) and hasattr(leaf.sym, "args"):
                out.append(leaf.sym)
            elif isinstance(leaf, Graph):
                out += _operands(leaf)
    return out
