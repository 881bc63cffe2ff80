"""Which of a loop body's inputs may share memory with an input the body writes, though
the trace saw two different arrays (issue #17, round 47).

The translator checks that the arrays a loop carries are not views of one another *as
the graph made them* (``loop_facts.memory_base``). Two arrays the program passed in
are two placeholders, and nothing tells the graph whether they share memory:
``f(x[1:], x[:-1])`` passes two distinct objects over one buffer, and no guard tells
that call from ``f(a, b)`` (it is the same entry). So a body that writes ``Y`` may
change what ``X`` holds whenever both reach arrays from outside the graph; and a body
input that is a view of a written array the graph made (``V = Z[:3]`` before the loop,
``Z[i] = ...`` in it) may change too. ``hoist_invariants`` then must not compute a
value from it once before the loop (``X.T[0]``, ``X.sum()``, ``X > 0``): eager reads
it again on every trip.

Example::

    def f(X, Y):                      # f(x[1:], x[:-1]): Y[1] writes X[0]
        for i in range(12):
            Y[i] = X[i] * 2.0 + X[0]  # X[0] read on every trip, not once

    >>> may_share_written(inputs=[X, Y], written={Y})
    {X}
"""

from __future__ import annotations

from dynamo.graph import PLACEHOLDER, Node
from dynamo.ops.node_facts import array_meta
from dynamo.writes import buffer_roots


def may_share_written(inputs: list[Node], written: set[Node]) -> set[Node]:
    """The ``inputs`` (a body's placeholders) not in ``written`` whose memory may be a
    written input's: both reach one array the graph holds, or both reach arrays from
    outside the graph (its inputs: two of them may be views of one buffer). NumPy
    scalars are never written, so they never change."""
    memo: dict[Node, frozenset] = {}
    written_roots = frozenset().union(*(_roots(w, memo) for w in written))
    outside = any(_outside(r) for r in written_roots)
    shared = set()
    for p in inputs:
        meta = array_meta(p)
        if p in written or meta is None or meta.scalar:
            continue
        roots = _roots(p, memo)
        if roots & written_roots or outside and any(_outside(r) for r in roots):
            shared.add(p)
    return shared


def _outside(node: Node) -> bool:
    """``node`` is an input of the outermost graph: an array the program handed in."""
    return node.op == PLACEHOLDER


def _roots(node: Node, memo: dict) -> frozenset:
    """The nodes whose memory ``node`` may be at the end of the chain of views, writes
    and body inputs: graph inputs and arrays ops made (``writes.buffer_roots``)."""
    return frozenset(buffer_roots(node, memo, made=True))
