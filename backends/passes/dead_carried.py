"""Dead carried values: a ``while_loop`` slot that no trip reads and nothing reads
after the loop is no state of the loop, and is dropped from it.

A data-dependent loop (``dynamo/ops/loops.py``, ``while_loop``) carries every local it
rebinds. Some of those are only a trip's temporaries that the program happens to
name before the loop, or after a first trip the translator peeled::

    x = np.cbrt(b)
    for it in range(max_iter):
        fx = x ** 3 + a * x - b          # stored before it is read, in every trip
        step = fx / (3 * x ** 2 + a)
        x = x - step
        if np.max(np.abs(step)) < tol:
            break
    return x, it                         # fx and step are dead after the loop

Carried, ``fx`` and ``step`` are handed from trip to trip: the loop's runner holds the
last trip's arrays while the next trip runs, the body returns them (so it cannot write
them in place) and the caller holds the first trip's for the whole loop: a peak of
about twice plain NumPy's (the Newton program of scripts/realworld_programs8.py: 2.0x).
Eager frees each when the name is stored again. Dropped from the node, the body
computes them as temporaries, freed at their last use.

A slot is dropped only when all of this holds, so no value anyone sees changes:

- the body never reads its input (the placeholder has no users: not an op, not the
  output, not a symbolic size), or only hands it on as the slot's next value (its one
  user is the output, at its own index): a 1-trip tail loop the translator adds to
  apply a ``for`` loop's last rebinding (``edges = grown`` after ``if ...: break``)
  hands the other slots through;
- no node after the loop reads the slot's result (every user of the loop node is a
  ``getitem`` of another index, or an ``after_loop``, which reads no result);
- its sizes are static (a size-generic body may read a size off any input array).

Where no trip runs, a dropped slot's value is the one before the loop, which nothing
reads either. The body's ops that computed it stay (``dce`` keeps what may signal).
Dropping a slot of the tail loop leaves the ``getitem`` of the loop before it that fed
the slot unread, so the pass runs again until it drops nothing (hysteresis in
tests/backends/passes/test_peeled_loop_peaks.py: the pad ``p`` of the peeled first
trip was carried through both loops, 1.81x plain NumPy's peak).

Example::

    >>> new = drop_dead_carried(graph)     # the Newton loop above
    >>> loop.args[3], new_loop.args[3]     # the carried values
    ((b, subtract_1, a, subtract, divide), (b, subtract_1, a))
"""

from __future__ import annotations

from dynamo.graph import OUTPUT, PLACEHOLDER, Graph, Node, map_nodes

from .loops import has_loops, static_sizes
from .rewrite import rewrite


def drop_dead_carried(graph: Graph) -> Graph:
    """``graph`` with each ``while_loop`` node's dead carried slots dropped (again until
    none is left: a slot a later loop only hands through, dropped there, leaves the
    earlier loop's slot unread)."""
    if not has_loops(graph):
        return graph
    while True:
        new = _drop_once(graph)
        if new is graph:
            return graph
        graph = new


def _drop_once(graph: Graph) -> Graph:
    """``graph`` with the dead slots ``_dead_slots`` finds now dropped (``graph`` itself
    where there are none)."""
    dropped = {n: d for n in graph.call_nodes() if n.target == "while_loop"
               for d in [_dead_slots(n)] if d}
    if not dropped:
        return graph
    renumber: dict[Node, list[int | None]] = {}

    def visit(rw, node: Node) -> bool:
        if node in dropped:
            gone = dropped[node]
            body, keep, cond, carried, *rest = node.args
            metas = node.meta["array"]
            new = rw.call("while_loop", (
                _body_without(body, gone), keep, rw.arg(cond),
                tuple(rw.arg(v) for k, v in enumerate(carried) if k not in gone),
                *rw.arg(tuple(rest))), rw.arg(node.kwargs),
                {**node.meta, "array": tuple(m for k, m in enumerate(metas) if k not in gone)},
                node.name)
            rw.env[node] = new
            index, j = [], 0
            for k in range(len(metas)):
                index.append(None if k in gone else j)
                j += k not in gone
            renumber[node] = index
            return True
        if node.target == "getitem" and node.args[0] in renumber:
            loop, k = node.args
            if renumber[loop][k] is None:   # (an unread getitem of a dropped slot)
                return True
            rw.env[node] = rw.call("getitem", (rw.env[loop], renumber[loop][k]),
                                   rw.arg(node.kwargs), dict(node.meta), node.name)
            return True
        return False

    return rewrite(graph, visit)


def _dead_slots(loop: Node) -> frozenset[int]:
    """The carried slots of ``loop`` that no trip reads and nothing after it reads."""
    body, _keep, _cond, carried = loop.args[:4]
    if not isinstance(body, Graph) or body.output_node is None:
        return frozenset()
    slots = [p for p in body.placeholders if p.meta.get("carried")]
    outputs = body.outputs
    metas = loop.meta.get("array")
    if len(slots) != len(carried) or len(outputs) != len(carried) + 1 or \
            not isinstance(metas, tuple) or len(metas) < len(carried):
        return frozenset()
    read_after: set[int] = set()
    for user in loop.users:
        if user.target == "after_loop":     # (an array written in place: no result)
            continue
        if user.target == "getitem" and user.args[0] is loop and isinstance(user.args[1], int):
            if user.users:      # (an unread getitem reads nothing)
                read_after.add(user.args[1])
            continue
        return frozenset()      # (another reader: keep every slot)
    # a slot the body only hands through (its input is its next value, and nothing else
    # reads it) is unread too: a 1-trip tail loop that only applies ``edges = grown``
    # hands ``p`` through, and once that slot goes, the loop before it reads no ``p``
    through = {k for k, p in enumerate(slots) if list(p.users) == [body.output_node]
               and outputs[k] is p and sum(v is p for v in outputs) == 1}
    return frozenset(k for k, p in enumerate(slots)
                     if (not p.users or k in through) and k not in read_after
                     and static_sizes(metas[k]) and static_sizes(p.meta.get("array")))


def _body_without(body: Graph, gone: frozenset[int]) -> Graph:
    """``body`` without the carried inputs and next values of the slots in ``gone``."""
    new, local = Graph(), {}
    slot = 0
    drop: set[Node] = set()
    for p in body.placeholders:
        if p.meta.get("carried"):
            if slot in gone:
                drop.add(p)
            slot += 1
    for n in body.nodes:
        if n in drop:
            continue
        if n.op == PLACEHOLDER:
            local[n] = new.placeholder(n.name, meta=dict(n.meta))
        elif n.op == OUTPUT:
            values = n.args[0]
            new.output(map_nodes(tuple(v for k, v in enumerate(values) if k not in gone),
                                 local.__getitem__))
        else:
            local[n] = new.create_node(n.op, n.target, map_nodes(n.args, local.__getitem__),
                                       map_nodes(n.kwargs, local.__getitem__), name=n.name,
                                       meta=dict(n.meta))
    return new
