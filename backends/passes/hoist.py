"""Loop-invariant code motion: a loop body's ops that compute the same value on every
trip run once, before the loop.

A ``fori_loop`` node (``dynamo/ops/loops.py``) runs its body graph once per trip. A body
op whose inputs are all the same on every trip (the body's free inputs, carried arrays
that no trip rebinds or writes, constants, other such ops) and that does not read the
index gives the same value on every trip, so it may run once before the loop and enter
the body as a free input instead::

    def step(u, A, m, T):                      # before the loop:
        for t in range(T):                     #     transpose = ops.transpose(A)
            At = A.T                           #     greater = ops.greater(m, 3)
            mask = m > 3                       # the body reads them as free inputs
            u = u * 0.5 + At[0] * np.where(mask, 1.0, 0.0)
        return u

Only what stays exact moves (``hoistable``):

- ops that cannot raise, warn or report a floating-point condition for their input
  dtypes (``signals.may_signal`` is False: views with static arguments, creation calls
  of static shapes, quiet integer and boolean ufuncs and reductions). Eager runs the
  op on every trip: one that may report a condition reports it once per trip (counted
  under the "always" filter, by ``np.seterrcall``, or raised under
  ``np.errstate(...="raise")`` after the trip's earlier writes), which one run before
  the loop cannot reproduce. Floating-point arithmetic therefore stays in the body.
- a value no trip writes into or hands on as a carried value (``_stays_unwritten``):
  ``np.zeros_like(u)`` filled by ``z[1:-1] = ...`` is a fresh buffer per trip, and a
  carried array rebound to a hoisted value would be written by the next trip.
  A hoisted value the loop leaves as a temporary (read after the loop) is its last
  trip's value, as eager's.
- its inputs' memory: a carried slot is invariant only when no op of the body writes
  into it (``_written_slots``: through views and ``out=`` too); the translator has
  checked that carried arrays share no memory with one another as the graph made
  them, but two arrays the program passed in may be views of one buffer
  (``f(x[1:], x[:-1])``: ``input_overlap``), so where the body writes one, only views
  of the other (``_always_a_view``) are invariant, not values read from it.

The hoisted ops cannot fail or signal, so running them once before the loop changes no
outcome, whatever the trip count.

Example::

    >>> new = hoist_invariants(graph)
    >>> [n.target for n in new.call_nodes()][:2]
    ['transpose', 'greater']               # before the fori_loop now
"""

from __future__ import annotations

from dynamo.graph import CALL, CONSTANT, OUTPUT, PLACEHOLDER, Graph, Node, map_nodes
from dynamo.ops import CREATION, ELEMENTWISE, MATMUL, MUTATION, REDUCTION, VIEW
from dynamo.ops.node_facts import has_effect, is_inplace
from dynamo.ops.signals import may_signal
from dynamo.writes import memory_sources

from .input_overlap import may_share_written
from .loops import has_loops, varies_per_trip
from .rewrite import rewrite

_KINDS = frozenset({VIEW, ELEMENTWISE, REDUCTION, MATMUL, CREATION})
# Meta key of a body input that holds a hoisted op's value: the op's target.
HOISTED = "hoisted"


def hoist_invariants(graph: Graph) -> Graph:
    """``graph`` with each loop node's invariant body ops (``invariant_nodes``) run
    before the loop node instead, read by its body as free inputs."""
    if not has_loops(graph):
        return graph

    def visit(rw, node: Node) -> bool:
        if node.target != "fori_loop" or not isinstance(node.args[0], Graph):
            return False
        body, trips, carried, free = node.args
        hoisted = invariant_nodes(body)
        if not hoisted:
            return False
        # the hoisted ops, before the loop, on the values the body's inputs hold
        moved = set(hoisted)
        outer = dict(zip(body.placeholders[1:], (*carried, *free)))
        env: dict[Node, object] = {p: rw.arg(v) for p, v in outer.items()}
        for n in body.nodes:
            if n.op == CONSTANT and any(u in moved for u in n.users):
                env[n] = rw.constant(n.args[0], n.name, dict(n.meta))
            elif n in moved:
                env[n] = rw.call(n.target, map_nodes(n.args, env.__getitem__),
                                 map_nodes(n.kwargs, env.__getitem__), dict(n.meta), n.name)
        needed = [n for n in hoisted if any(u not in moved for u in n.users)]
        new = rw.copy(node)
        # (the copy's trip count: a SymArg over this graph's nodes, such as the
        # ``sym_size`` of a count only the data decides, not the old graph's)
        new.args = (_without(body, moved, needed, env), new.args[1], new.args[2],
                    (*new.args[3], *(env[n] for n in needed)))
        for n in needed:   # (the loop reads them now)
            env[n].users[new] = None
        return True

    return rewrite(graph, visit)


def invariant_nodes(body: Graph) -> list[Node]:
    """The body's ops that may run once before the loop, in program order."""
    trip, *inputs = body.placeholders
    carried = [p for p in inputs if p.meta.get("carried")]
    outputs = body.outputs
    kept = {p for p, v in zip(carried, outputs) if v is p}     # slots no trip rebinds
    written = _written_slots(body)
    # the same arrays on every trip; those that may share memory with a written input
    # (``input_overlap``: ``f(x[1:], x[:-1])``) may hold other values, so only views
    # of them (the same windows onto that memory) are invariant
    same = ({p for p in inputs if not p.meta.get("carried")} | kept) - written
    invariant = same - may_share_written(inputs, written)
    carried_out = {v for v in outputs[:len(carried)] if isinstance(v, Node)}
    hoisted: list[Node] = []
    for n in body.nodes:
        if n.op == CONSTANT:
            invariant.add(n)
            same.add(n)
        elif n.op != CALL or not hoistable(n) or not _stays_unwritten(n, carried_out):
            continue
        elif all(i in invariant for i in n.inputs()):
            invariant.add(n)
            same.add(n)
            hoisted.append(n)
        elif _always_a_view(n) and all(i in same for i in n.inputs()):
            same.add(n)
            hoisted.append(n)
    return hoisted


def hoistable(node: Node) -> bool:
    """``node`` may run once instead of once per trip, given invariant inputs: it only
    computes (or views) a value and cannot raise, warn or report a floating-point
    condition (the module docstring says why)."""
    return (node.meta.get("kind") in _KINDS and not has_effect(node)
            and not is_inplace(node) and not may_signal(node)
            and not varies_per_trip(node))


def _always_a_view(node: Node) -> bool:
    """``node`` is a view of its array on every trip, never a copy of its values:
    ``x.T``, or ``x[...]`` with ints, slices, ``None``, ``...`` giving an array (``x[0]``
    of a 1-D ``x`` is a NumPy scalar, a copy; a ``reshape`` may copy)."""
    meta = node.meta.get("array")
    if node.target == "transpose":
        return len(node.args) == 1
    if node.target != "getitem" or len(node.args) != 2 or meta is None or \
            getattr(meta, "scalar", True):
        return False
    parts = node.args[1] if type(node.args[1]) is tuple else (node.args[1],)
    return all(type(p) in (int, slice, type(None)) or p is Ellipsis for p in parts)


def _written_slots(body: Graph) -> set[Node]:
    """The body's inputs that some op of the body writes into (``x[i] = v``,
    ``out=x``, a write through a view of ``x``)."""
    written: set[Node] = set()
    for n in body.nodes:
        if n.op != CALL or not (is_inplace(n) or n.meta.get("kind") == MUTATION):
            continue
        todo = list(memory_sources(n))
        seen: set[Node] = set()
        while todo:
            m = todo.pop()
            if m in seen or not isinstance(m, Node):
                continue
            seen.add(m)
            if m.op == PLACEHOLDER:
                written.add(m)
            elif m.graph is body:
                todo.extend(memory_sources(m))
    return written


def _stays_unwritten(node: Node, carried_out: set[Node]) -> bool:
    """No op of the body writes into ``node``'s array or a view of it, nothing with an
    effect reads it, and no trip hands it (or a view of it) on as a carried value."""
    todo, seen = [node], set()
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        if n in carried_out:
            return False
        for u in n.users:
            if u.op == OUTPUT:
                continue   # (carried outputs are checked above; temporaries are fine)
            if n in memory_sources(u):
                if is_inplace(u) or u.meta.get("kind") == MUTATION:
                    return False      # a write into it (setitem, out=, +=)
                todo.append(u)        # a view of it: follow its readers too
            elif has_effect(u) and not _only_copied(u, n):
                return False
    return True


def _only_copied(user: Node, value: Node) -> bool:
    """``user`` writes ``value``'s contents into another array (``x[i] = value``)."""
    return user.target == "setitem" and user.args[0] is not value and \
        value not in user.kwargs.values()


def _without(body: Graph, gone: set[Node], needed: list[Node], env: dict) -> Graph:
    """``body`` without the hoisted ops (``gone``): those its other ops read
    (``needed``) are free inputs, after its own."""
    new, local = Graph(), {}
    for p in body.placeholders:
        local[p] = new.placeholder(p.name, meta=dict(p.meta))
    for n in needed:   # ("hoisted": the op, for what the backend knows of its layout)
        meta = {k: v for k, v in n.meta.items() if k in ("array", "symbol", "object")}
        local[n] = new.placeholder(n.name, meta={**meta, "loop_outer": env[n],
                                                 HOISTED: n.target})
    for n in body.nodes:
        if n.op == PLACEHOLDER or n in gone:
            continue
        if n.op == CONSTANT and all(u in gone for u in n.users):
            continue
        if n.op == OUTPUT:
            new.output(map_nodes(n.args[0], local.__getitem__))
            continue
        local[n] = new.create_node(n.op, n.target, map_nodes(n.args, local.__getitem__),
                                   map_nodes(n.kwargs, local.__getitem__), name=n.name,
                                   meta=dict(n.meta))
    return new
