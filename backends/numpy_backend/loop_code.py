"""A loop body's code: the loop itself, over the body's statements.

The numpy backend compiles a loop node's body into a function that runs every trip
(``emit_loop``)::

    def forward0_taking(trips, _carried):
        x, = _carried
        _carried.clear()
        for trip in range(2, 2 + trips):              # the loop variable (loop_variable)
            x[trip] = ((x[trip]) + (x[(trip - 1)]))    # the statements
        return (x, )

The carried values come in a list the function empties (no frame of the caller keeps
them), the loop variable runs over the index expression the body uses most, and the
next trip's values are assigned at the end of each trip (``next_trip``).
"""


from __future__ import annotations

from collections import Counter

import numpy as np

from dynamo.graph import CALL, OUTPUT, Graph, Node, location_comment
from dynamo.ops.node_facts import array_meta
from dynamo.symbolic import Sym, SymArg

from ..fusion import Group
from .float_lanes import emit_float_lane, emit_lane_call, float_lane
from .inline import Pending
from .module import Module, plain_name
from .statements import Guarding, emit_with_dels, stretches


def is_loop_body(graph: Graph) -> bool:
    """The body of a loop node (``dynamo/ops/loops.py``): its first input is the trip."""
    first = next(iter(graph.placeholders), None)
    return first is not None and "loop_index" in first.meta


def loop_variable(graph: Graph) -> tuple[int, int | SymArg]:
    """``(step, base)``: a loop body's loop variable runs ``base, base + step, ...``,
    the index expression its body uses most, so that it computes no index it need not.
    ``x[i] += x[i - 1]`` traced from ``i = 1`` (two trips peeled, the body reads
    ``x[trip + 2]`` and ``x[trip + 1]``) runs ``for trip in range(2, 2 + trips):``
    with ``x[trip]`` and ``x[(trip - 1)]``; ``for i in range(n - 1, -1, -1)`` runs
    ``for trip in range(17, 17 - trips, -1)``. Over symbolic sizes the base may be an
    expression of the body's free size inputs (a ``SymArg``, the same on every trip):
    the size-generic back substitution reads ``x[trip + s0 - 2]``, and runs
    ``for trip in range((s0 - 2), (s0 - 2) - trips, -1):`` with ``x[trip]``.
    ``(1, 0)`` (the trip count itself) where the trip counter is a value of the body,
    not only inside index expressions, or where some index steps by other than a
    multiple of that step."""
    trip, *inputs = graph.placeholders
    free = {p for p in inputs if not p.meta.get("carried")}
    forms: Counter = Counter()
    nodes: dict[str, Node] = {}          # the other symbols' placeholders
    values = [graph.outputs] + [(n.args, n.kwargs) for n in graph.nodes]
    while values:
        value = values.pop()
        if value is trip:
            return 1, 0
        if isinstance(value, (tuple, list)):
            values.extend(value)
        elif isinstance(value, dict):
            values.extend(value.values())
        elif isinstance(value, slice):
            values.extend((value.start, value.stop, value.step))
        elif hasattr(value, "graph_expr"):
            for symbol, p in value.nodes.items():
                if p is not trip:
                    continue
                if not isinstance(value.sym, Sym):   # a float made from the index
                    return 1, 0                      # (``0.1 * t``): a value of the body
                others = tuple((n, c) for n, c in value.sym.terms if n != symbol)
                if all(value.nodes.get(n) in free for n, _ in others):
                    nodes.update((n, value.nodes[n]) for n, _ in others)
                else:   # (not constant over the loop: the base keeps only the number)
                    others = ()
                forms[(dict(value.sym.terms)[symbol], value.sym.const, others)] += 1
    if not forms:
        return 1, 0
    (step, const, others), _ = forms.most_common(1)[0]
    if any(c % step for c, _, _ in forms):
        return 1, 0
    if not others:
        return step, const
    return step, SymArg(Sym(others, const), {n: nodes[n] for n, _ in others})


def emit_loop(m: Module, graph: Graph, groups: list[Group], plans: list, statements: list,
               group_of: list[int], name: str, guarding: Guarding,
               layout: str | None = None, last: Pending | None = None,
               kept: dict | None = None) -> None:
    """A loop body as the loop itself (``Graph.python_code`` prints the same)::

        def _forward3(trips, x, w):
            for trip in range(trips):
                ...                           # the body's statements, guarded by stretch
                x, = (setitem_1, )            # the next trip's carried values
            return (x, )                      # and the temporaries' last values
    """
    name_of = plain_name(m)
    trip, *inputs = graph.placeholders
    carried = "".join(f"{n.name}, " for n in inputs if n.meta.get("carried"))
    free = [p.name for p in inputs if not p.meta.get("carried")]
    values = graph.outputs
    n = carried.count(",")
    # ops.fori_loop calls name(trips, *carried, *free); generated callers hand the
    # carried values over in a list that the loop empties (``_takes_carried``)
    m.emit(0, f"def {name}({', '.join(['trips', *(p.name for p in inputs)])}):")
    m.emit(1, f"return {name}_taking(trips, [{carried}]{''.join(', ' + f for f in free)})")
    m.emit(0, "")
    m.emit(0, f"def {name}_taking({', '.join(['trips', '_carried', *free])}):")
    # (a body of float64 scalar arithmetic only: a loop of many trips runs it on Python
    # floats first, and this NumPy code where that lane declines; float_lanes.py)
    lane = float_lane(graph)
    if lane is not None:
        emit_lane_call(m, f"{name}_lane", free)
    if carried:
        m.emit(1, f"{carried}= _carried")
    m.emit(1, "_carried.clear()")
    # (Python ints in the loop, np.int64 outside: carried_ints.py)
    ints = [p.name for p in inputs if p in m.python_ints]
    for held in ints:
        m.emit(1, f"{held} = int({held})")
    step, base = m.loop_variables.get(trip, (1, 0))
    if isinstance(base, SymArg):   # an expression of the body's size inputs
        base = m.fmt(base, name_of)
    stop = f"{base} + trips" if step == 1 else f"{base} - trips" if step == -1 else \
        f"{base} + {step} * trips" if step > 0 else f"{base} - {-step} * trips"
    counted = "trips" if (step, base) == (1, 0) else \
        f"{base}, {stop}" if step == 1 else f"{base}, {stop}, {step}"
    m.emit(1, f"for {trip.name} in range({counted}):")
    start = len(m.lines)
    if layout is not None:   # the inputs' layout this trip (reuse.donors' checks)
        m.emit(2, f"_layout = {layout}")
    regions = stretches(m, graph, groups, plans, group_of, name_of,
                        [made for _, _, made, _ in statements])
    slots = [p for p in inputs if p.meta.get("carried")]
    written_back = unnamed_writes(graph)
    # (a choice written into its slot's name, carried_choices.kept_carries: nothing to do)
    sources = [p.name if v in written_back or v in (kept or {}) else
               last.expr if last is not None and v is last.node else m.fmt(v, name_of)
               for p, v in zip(slots, values[:n])]
    # (what the last value reads lives until it is handed over; a read of a write in
    # place is a read of its carried name: carried_names)
    handed_reads = {m.named_as.get(r, r) for r in (last.reads if last else ())}
    emit_with_dels(m, statements, set(values) | handed_reads, 2,
                    regions, guarding.catch, rebound(slots, sources, values))
    if carried:
        if last is not None:
            m.emit(2, location_comment(last.node))
        for line in next_trip(slots, sources, last.expr if last is not None else None):
            m.emit(2, line)
        if last is not None:   # what only the handed-over value read dies with the trip
            dead = handed_over_reads(last, values, m.named_as)
            if dead:
                m.emit(2, f"del {', '.join(n.name for n in dead)}")
    if len(m.lines) == start:   # a body that changes nothing (``x = y`` every trip)
        m.emit(2, "pass")
    rest = "".join(m.fmt(v, name_of) + ", " for v in values[n:])
    if ints:
        int64 = m.bind(np.int64, "int64")
        carried = "".join(f"{int64}({p.name}), " if p in m.python_ints else f"{p.name}, "
                          for p in inputs if p.meta.get("carried"))
    m.emit(1, f"return ({carried}{rest})")
    m.emit(0, "")
    if lane is not None:
        emit_float_lane(m, graph, lane, f"{name}_lane", counted, free, name_of)


def rebound(slots: list[Node], sources: list[str], values) -> set[Node]:
    """The carried values each trip replaces (``v = v + dt * (i - v)``): their names
    may be deleted at their last reader in the trip, as eager's rebinding frees the old
    array there, rather than held until the next trip's values are assigned (one array
    more alive per carried value while the rest of the trip allocates). Not those that
    a slot or the loop's result reads (``A, B = B, A``: both are sources), nor one
    written in place and carried as itself."""
    read = {v for v in values if isinstance(v, Node)}
    return {p for p, src in zip(slots, sources) if src != p.name and p not in read}


def handed_over_reads(last: Pending, values, named_as=None) -> list[Node]:
    """The arrays that the trip's last value, written into its hand-over
    (``v = _where(spiked, 0.0, add)``), read and nothing after it needs: they live
    until then (``emit_with_dels`` keeps them), and without a ``del`` after it, until
    the next trip rebinds their names, one array more than eager holds while that trip
    allocates (a loop of 5,000-element steps peaked at 1.25x eager's memory). Not a
    write in place printed as its carried name (``named_as``: ``x[m] = 0.0`` then
    ``x = _multiply(x, c)``): the hand-over itself rebinds that name."""
    kept = {v for v in values if isinstance(v, Node)}
    dead = []
    for n in dict.fromkeys(last.reads):
        meta = array_meta(n)
        if n.op == CALL and n not in kept and n not in (named_as or {}) and \
                not (meta is not None and meta.scalar):
            dead.append(n)
    return dead


def unnamed_writes(graph: Graph) -> set[Node]:
    """The writes ``x[i] = v`` of a loop body whose result is only the carried ``x``
    itself for the next trip: they need no name (``setitem = x``; ``x = setitem``)."""
    if not is_loop_body(graph):
        return set()
    carried = [p for p in graph.placeholders if p.meta.get("carried")]
    read = {r for n in graph.nodes if n.op != OUTPUT for r in n.inputs()}
    read.update(v for v in graph.outputs[len(carried):] if isinstance(v, Node))
    return {v for p, v in zip(carried, graph.outputs)
            if isinstance(v, Node) and v.target == "setitem" and v.args[0] is p
            and v not in read and list(graph.outputs).count(v) == 1}


def next_trip(carried: list[Node], sources: list[str], expr: str | None = None) -> list[str]:
    """The statements that give the carried values their next trip's values: one plain
    assignment each (a value the trip did not change needs none), or one tuple
    assignment when a carried name is also read as a source (``A, B = B, A``).
    ``expr``, one of the sources, is the trip's last op written in (it may read the
    carried names): its assignment comes first, before any of them is rebound."""
    pairs = [(p.name, src) for p, src in zip(carried, sources) if src != p.name]
    targets = {t for t, _ in pairs}
    if any(src in targets for _, src in pairs):
        return [f"{''.join(t + ', ' for t, _ in pairs)}= "
                f"({''.join(src + ', ' for _, src in pairs)})"]
    pairs.sort(key=lambda pair: pair[1] != expr)
    return [f"{t} = {src}" for t, src in pairs]


def next_trip_values(graph: Graph) -> set[Node]:
    """The values a loop body computes for its carried slots (none outside a body)."""
    if not is_loop_body(graph):
        return set()
    n = sum(1 for p in graph.placeholders if p.meta.get("carried"))
    return {v for v in graph.outputs[:n] if isinstance(v, Node) and v.op == CALL}
