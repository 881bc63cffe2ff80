"""Straight-line statements: where they come from, when their values die, and the
floating-point guard around stretches of them.

Each statement of a generated function is its text (with the comment that says where
the program wrote it, ``located``), the nodes it reads, makes and hands over.
``emit_with_dels`` writes them with a ``del`` after each intermediate's last reader;
``stretches`` cuts them between effects and gives each stretch that needs it
(``needs_guard``) its fallback, the same ops one eager call each::

    try:
        _caller = _ufunc_get()
        try:
            _ufunc_set(_raising_of(_caller))   # (runtime.raising_of: no interrupt
            ...                       # the stretch as generated     splits these)
        finally:
            _ufunc_set(_caller)
        _redo = False
    except FloatingPointError:
        _redo = True
    if _redo:   # again op by op, as eager
        ...
"""


from __future__ import annotations

from dataclasses import dataclass

from dynamo.graph import CONSTANT, PLACEHOLDER, Graph, Node, location_comment
from dynamo.ops.node_facts import array_meta
from dynamo.ops.signals import REPORTS_DIFFER, signals_for_values

from ..fusion import Group
from .module import Module


@dataclass(frozen=True)
class Guarding:
    """How the generated function keeps eager's exceptions and floating-point reports.

    Fused code runs ops in another order than eager (groups), per block (one report
    per block), renamed (strength reduction) or merged (cse), so it runs under
    ``runtime.guard`` (every floating-point condition the caller would see raises)
    and, when something raises, the same ops run again op by op as eager:

    - ``rerun`` set (the bound name of a ``_Rerun``; graphs without effects): the
      whole function is guarded, and the original graph runs again.
    - ``rerun`` None (graphs with writes, random draws or ``np.errstate`` blocks,
      which must not run twice): each stretch between two effects that needs it
      (block-wise groups, ops out of program order) is guarded, and on an exception
      that stretch's ops run again in program order (its inputs are unchanged:
      no buffer is lent across a stretch, see ``reuse.donors``).

    ``catch_all``: run again on any exception (option ``rerun_on_error``), not only
    on a floating-point condition.
    """

    rerun: str | None = None
    catch_all: bool = True

    @property
    def catch(self) -> str:
        return "Exception" if self.catch_all else "FloatingPointError"


# (every stretch unguarded, no rerun: the plain default)
DEFAULT_GUARDING = Guarding()


@dataclass
class LayoutCheck:
    """The inputs' layout a function checks before it reuses 2-D buffers (``cond``,
    see ``reuse.donors``). Where it fails, the function runs ``fallback``, the same
    code without that reuse; a loop body checks it each trip instead, and makes the
    reuses in ``per_trip`` (``out=`` a dead buffer) only on trips where it holds."""

    cond: str
    fallback: str | None = None
    per_trip: frozenset = frozenset()


# A line of a statement where the values it hands over (a loop's carried values, in a
# list the loop empties) are deleted when it reads them for the last time
# (``emit_with_dels``), rather than after it.
HANDOVER = "# (hand-over)"


def located(node: Node, text: str) -> str:
    """``text`` after the comment that says where the program wrote ``node``: the
    compiled code gets the program's file and line (warnings, tracebacks;
    ``dynamo.source.compile_source(user_lines=True)``)."""
    loc = location_comment(node)
    return f"{loc}\n{text}" if loc else text


def needs_guard(ran: list[Node], blockwise: bool, position) -> bool:
    """Running these ops as generated may report a floating-point condition otherwise
    than eager would: some op may signal one for its values
    (``dynamo.ops.signals.signals_for_values``), and a group runs
    block-wise (``blockwise``), or ops that may signal run out of program order
    (``ran``: the ops in the order the generated code runs them, ``run_order``;
    ``position``: a node's place in the graph; a view moved ahead of them changes
    nothing), or a pass merged or renamed an op that may
    (``dynamo.ops.signals.REPORTS_DIFFER``). Otherwise the code is eager's calls in
    eager's order (with eager's reductions and ``out=``), and needs no guard.

    The order is the one the code runs, not the groups' member lists: partition
    merges groups that read the same value (``x + a * p`` and ``r + b * p`` of a
    conjugate gradient step), but ``order.schedule`` still runs a plain-path group's
    ops one by one in program order, and a guard per loop trip costs about 1 us."""
    # (not ``may_signal``: a comparison of floats may signal nothing for its values,
    # and runs anywhere unguarded; ``signals_for_values``)
    signalling = [n for n in ran if signals_for_values(n)]
    if not signalling:
        return False
    return (blockwise
            or any(position(a) > position(b) for a, b in zip(signalling, signalling[1:]))
            or any(n.meta.get(REPORTS_DIFFER) for n in signalling))


def run_order(steps: list, groups: list[Group]) -> list[Node]:
    """The ops of ``steps`` (``order.schedule``'s) in the order they run: a plain-path
    op where its step is, a block-wise group's members together at its step."""
    return [n for index, node in steps
            for n in ((node,) if node is not None else groups[index].nodes)]


def guarded_segments(graph: Graph, groups: list[Group], plans: list, steps: list) -> set:
    """The segments whose statements run under the floating-point guard, with a
    fallback that reruns their ops by name (``stretches``)."""
    position = {n: i for i, n in enumerate(graph.nodes)}.__getitem__
    members: dict[int, list] = {}
    for step in steps:
        members.setdefault(groups[step[0]].segment, []).append(step)
    return {seg for seg, some in members.items()
            if needs_guard(run_order(some, groups),
                           any(plans[index] is not None for index, _ in some), position)}


def stretches(m: Module, graph: Graph, groups: list[Group], plans: list,
               group_of: list[int], name_of, made: list) -> list[tuple[int, int, list[str] | None]]:
    """The statements cut into stretches between effects: (first, end, fallback).

    ``group_of`` and ``made`` are each statement's group and the nodes it makes (a
    block-wise group's statement: the group). ``fallback`` (None: the stretch runs
    unguarded) is the stretch's ops in program order, one eager call each, for a
    stretch that needs the guard (``needs_guard``).
    """
    position = {n: i for i, n in enumerate(graph.nodes)}.__getitem__
    regions = []
    i = 0
    while i < len(group_of):
        j = i
        while j < len(group_of) and groups[group_of[j]].segment == groups[group_of[i]].segment:
            j += 1
        members = list(dict.fromkeys(group_of[i:j]))
        ran = [n for k in range(i, j)
               for n in (groups[group_of[k]].nodes if plans[group_of[k]] is not None
                         else made[k])]
        fallback = None
        if needs_guard(ran, any(plans[g] is not None for g in members), position):
            nodes = [n for g in members for n in groups[g].nodes]
            fallback = [line for n in sorted(nodes, key=position)
                        for line in located(n, f"{n.name} = {m.call(n, name_of)}").split("\n")]
        regions.append((i, j, fallback))
        i = j
    return regions


def emit_with_dels(m: Module, statements: list, keep: set, depth: int,
                    regions: list | None = None, catch: str = "Exception",
                    mortal: frozenset | set = frozenset()) -> None:
    """Emit statements, dropping each intermediate after its last reader.

    Without the ``del`` every intermediate lives until the function returns: the
    memory of an unrolled time-stepping loop grows with its trip count, and fresh
    allocations miss the caches that freed ones would hit (a 64x64 stencil over 30 steps
    ran 5x slower and held 8 MB instead of 0.2 MB). A ``del`` costs tens of
    nanoseconds, so every intermediate gets one, small or big.

    ``regions`` (``stretches``) puts each stretch with a fallback under the guard:
    on ``catch`` its fallback runs instead. The values the stretch reads from before
    it are dropped only after the stretch (the fallback reads them again); those it
    makes are dropped at their last reader inside it, and after the fallback, which
    makes them again.

    ``mortal``: inputs (placeholders) that die at their last reader too (a loop
    trip's carried values that the trip replaces: ``loop_code.rebound``).
    """
    last: dict[Node, int] = {}
    for i, (_, reads, _, _) in enumerate(statements):
        for n in reads:   # (a value printed as a carried name reads that name)
            last[m.named_as.get(n, n)] = i
    for i, (text, _, made, _) in enumerate(statements):
        # a value nobody reads, computed all the same for the conditions it may report
        # (the dX of each trip of an unrolled training loop but the last), dies where
        # it is made, as eager's when its name is rebound: not at the return (corpus
        # 11's BatchNorm1D held 7 of them, its peak 1.31x plain's)
        last.update((n, i) for n in made
                    if n not in last and m.named_as.get(n, n) is n and _binds(text, n.name))
    dies: dict[int, list[Node]] = {}
    for n, i in last.items():   # (a NumPy scalar is not worth a del: scalar loops)
        meta = array_meta(n)
        if n not in keep and (n.op not in (PLACEHOLDER, CONSTANT) or n in mortal) and \
                not (meta is not None and meta.scalar):
            dies.setdefault(i, []).append(n)

    def dels(dead: list[Node], depth: int) -> None:
        if dead:
            m.emit(depth, f"del {', '.join(n.name for n in dead)}")

    for first, end, fallback in regions or [(0, len(statements), None)]:
        if fallback is None:
            for i in range(first, end):
                text, _, _, handed = statements[i]
                dead = dies.get(i, [])
                for line in text.split("\n"):
                    if line == HANDOVER:   # the values it hands over go before it runs
                        dels([n for n in dead if n in handed], depth)
                        dead = [n for n in dead if n not in handed]
                    else:
                        m.emit(depth, line)
                dels(dead, depth)
            continue
        made = {n for i in range(first, end) for n in statements[i][2]}
        m.emit(depth, "try:")
        m.emit(depth + 1, "_caller = _ufunc_get()")
        m.emit(depth + 1, "try:")
        # the switch inside the try, its undo the finally's first call: an interrupt
        # (KeyboardInterrupt) cannot split them (runtime.raising_of)
        m.emit(depth + 2, "_ufunc_set(_raising_of(_caller))")
        for i in range(first, end):
            for line in statements[i][0].split("\n"):
                if line != HANDOVER:
                    m.emit(depth + 2, line)
            dels([n for n in dies.get(i, []) if n in made], depth + 2)
        m.emit(depth + 1, "finally:")
        m.emit(depth + 2, "_ufunc_set(_caller)")
        m.emit(depth + 1, "_redo = False")
        m.emit(depth, f"except {catch}:")
        m.emit(depth + 1, "_redo = True")
        # outside the except clause: eager's exception is not chained to the fused code's
        m.emit(depth, "if _redo:   # again op by op, as eager")
        for line in fallback:
            m.emit(depth + 1, line)
        dying = [n for i in range(first, end) for n in dies.get(i, [])]
        dels([n for n in dying if n in made], depth + 1)
        dels([n for n in dying if n not in made], depth)


def _binds(text: str, name: str) -> bool:
    """Does the statement ``text`` bind ``name`` at its own level (``divide_2 =
    _divide(...)``, ``a, b, = _group3(x)``), not in a branch, a ``try`` or a window
    (``x[1:] = ...``)? Only such a name surely exists after it, for a ``del``."""
    for line in text.split("\n"):
        target, eq, _ = line.partition(" = ")
        if eq and not line.startswith((" ", "#")) and \
                name in (t.strip() for t in target.split(",")):
            return True
    return False


# --------------------------------------------------------------------------- groups
