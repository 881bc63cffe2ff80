"""Partition a graph into fusion groups (see the package docstring for the contract).

The algorithm, in three steps:

1. Every call node starts as its own group; fusible nodes (elementwise, and the
   reductions ``fusible.reduction_info`` accepts) as ``elementwise``/``reduction``
   groups, everything else as ``single``. Nodes with an effect (``out=``, mutation,
   random draws; or what ``barrier`` names) are barriers: they split the program
   into segments, and no group spans two segments, so every read and write keeps
   its place in program order.
2. Merge producer and consumer groups, visiting nodes in program order; then merge
   sibling groups that read the same value. A merge happens only when the merged
   group is valid (``_describe``) and the group graph stays acyclic (no path from
   one of the two groups to the other through a third; see ``_State``).
3. Order the groups: segment by segment, topologically, earliest program position
   first.

Example::

    >>> [(g.kind, [n.name for n in g.nodes]) for g in partition(softmax_graph, whole_rows=True)]
    [('reduction', ['v_max', 'subtract', 'exp', 'v_sum', 'divide'])]
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

from dynamo.graph import Graph, Node
from dynamo.ops import REDUCTION
from dynamo.ops.node_facts import array_meta, has_effect, reduction_info

from .fusible import fusible_elementwise

ELEMENTWISE_GROUP, REDUCTION_GROUP, SINGLE = "elementwise", "reduction", "single"


@dataclass
class Group:
    """A set of call nodes run together.

    ``kind``, ``nodes``, ``inputs``, ``outputs`` are the original contract; the fields
    below were added for the fusing backends (all are filled for every group):

    - ``domain``: the iteration shape. Every member's shape broadcasts to it; in a
      ``reduction`` group it is the shape of the arrays the reductions reduce.
      ``None`` for ``single`` groups.
    - ``reductions``: the group's reduction nodes in program order (at most one
      unless ``partition(..., whole_rows=True)``).
    - ``axes``: the axes of ``domain`` every reduction of the group reduces
      (non-negative, sorted); ``None`` without reductions.
    - ``epilogue``: members computed on the reduction's result (their shapes broadcast
      to the reduction's result shape); the other elementwise members are its
      prologue. Always empty with ``whole_rows=True``, where members after a
      reduction run over the whole ``domain`` again.
    - ``segment``: index of the stretch of program between two nodes with effects;
      groups of a lower segment run first.
    """

    kind: str                                          # elementwise, reduction, single
    nodes: list[Node] = field(default_factory=list)    # program order
    inputs: list[Node] = field(default_factory=list)   # read from outside the group
    outputs: list[Node] = field(default_factory=list)  # read outside the group / graph outputs
    domain: tuple | None = None
    reductions: list[Node] = field(default_factory=list)
    axes: tuple[int, ...] | None = None
    epilogue: list[Node] = field(default_factory=list)
    segment: int = 0

    def __repr__(self) -> str:
        return f"Group({self.kind}, {[n.name for n in self.nodes]})"


@dataclass
class _Shape:
    """What ``_describe`` found valid about a candidate group."""

    domain: tuple
    reductions: list[Node]
    axes: tuple[int, ...] | None
    epilogue: list[Node]


def partition(graph: Graph, *, whole_rows: bool = False, barrier=has_effect) -> list[Group]:
    """Split ``graph``'s call nodes into groups, in an order that can run them.

    ``whole_rows=False`` (the default) gives the original contract: a ``reduction``
    group holds one reduction, the elementwise ops that feed only it (prologue) and
    the ones computed on its result (epilogue). ``whole_rows=True`` (the CPU backend,
    which runs groups block by block of whole rows) also lets a group hold several
    reductions over the same trailing axes and elementwise ops over the whole
    domain that use their ``keepdims=True`` results (softmax, layernorm).

    ``barrier(node)`` says which nodes split the program into segments (by default
    those with an effect; the ``numpy`` backend adds those that may warn beyond
    floating-point conditions, ``dynamo.ops.signals.barrier``).
    """
    calls = graph.call_nodes()
    state = _State(calls, whole_rows, barrier)
    for node in calls:                               # producers into consumers
        if state.fusible(node):
            for inp in state.inputs[node]:
                if inp in state.gid:
                    state.try_merge(state.group_of(inp), state.group_of(node))
    for value in graph.nodes:                        # siblings reading one value
        readers = list(dict.fromkeys(state.group_of(u) for u in value.users
                                     if u in state.gid))
        for a, b in zip(readers, readers[1:]):
            state.try_merge(a, b)
    return state.groups(graph)


@dataclass
class _Summary:
    """What a merge needs to know about a valid group, so that it never walks all members.

    - ``key``: the ``(shape reduced, axes)`` every reduction of the group shares; None
      without reductions.
    - ``shape``: NumPy's broadcast of the shapes of the members that are no reductions
      (``()`` if there are none). A valid group without reductions has a member of
      exactly that shape.
    - ``reductions``: how many the group holds.
    - ``closed``: its reductions whose result no member may read (``whole_rows``: all
      but the ``keepdims=True`` ones over trailing axes).

    Why this is enough: shapes that each broadcast to ``D`` are exactly shapes whose
    broadcast does (broadcasting is transitive), and the broadcast of two valid groups'
    shapes is a member's shape only if it is one of the two groups' own ``shape``.
    """

    key: tuple | None
    shape: tuple
    reductions: int
    closed: list[Node]


class _State:
    """Groups being merged: union-find over nodes, the group graph, a topological order.

    A merge of ``a`` and ``b`` (``order[a] < order[b]``) would close a cycle exactly
    when a path leads from ``a`` to ``b`` through a third group (a group runs as one
    unit, so that group would have to run both after ``a`` and before ``b``). Every group
    on such a path lies strictly between them in ``order``, a topological order of the
    group graph, which bounds the search; after the merge the groups found are
    renumbered so that ``order`` stays topological (the edge-contraction case of Pearce
    and Kelly's dynamic topological order).

    Cost: a merge looks at the smaller of its two groups and at the groups between them
    in ``order``; a chain of 10,000 ops partitions in well under a second.
    """

    def __init__(self, calls: list[Node], whole_rows: bool, barrier=has_effect):
        self.whole_rows = whole_rows
        self.pos = {n: i for i, n in enumerate(calls)}
        self.inputs = {n: n.inputs() for n in calls}
        self.info = {n: reduction_info(n) if n.meta.get("kind") == REDUCTION else None
                     for n in calls}
        self.gid: dict[Node, int] = {}
        self.members: dict[int, list[Node]] = {}
        self.segment: dict[int, int] = {}
        self.parent: dict[int, int] = {}
        self.is_fusible: dict[int, bool] = {}
        self.summary: dict[int, _Summary] = {}
        seg = 0
        for i, node in enumerate(calls):
            split = barrier(node)
            seg += split
            self.gid[node] = self.parent[i] = i
            self.members[i] = [node]
            self.segment[i] = seg
            self.is_fusible[i] = not split and (fusible_elementwise(node) or
                                                self.info[node] is not None)
            if self.is_fusible[i]:
                self.summary[i] = self._summary_of(node)
            seg += split
        self.order = dict(self.parent)       # program order is topological
        self.succ: dict[int, set[int]] = {i: set() for i in range(len(calls))}
        self.pred: dict[int, set[int]] = {i: set() for i in range(len(calls))}
        for node in calls:
            for inp in self.inputs[node]:
                if inp in self.gid:
                    self.succ[self.gid[inp]].add(self.gid[node])
                    self.pred[self.gid[node]].add(self.gid[inp])

    def _summary_of(self, node: Node) -> _Summary:
        info = self.info[node]
        if info is None:
            return _Summary(None, array_meta(node).shape, 0, [])
        key = (array_meta(node.args[0]).shape, info.axes)
        readable = self.whole_rows and info.keepdims and info.axes[0] >= 1
        return _Summary(key, (), 1, [] if readable else [node])

    def fusible(self, node: Node) -> bool:
        return self.is_fusible[self.group_of(node)]

    def find(self, g: int) -> int:
        root = g
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[g] != root:        # path compression
            self.parent[g], g = root, self.parent[g]
        return root

    def group_of(self, node: Node) -> int:
        return self.find(self.gid[node])

    def try_merge(self, a: int, b: int) -> bool:
        a, b = self.find(a), self.find(b)
        if a == b or not (self.is_fusible[a] and self.is_fusible[b]) or \
                self.segment[a] != self.segment[b]:
            return False
        if self.order[a] > self.order[b]:
            a, b = b, a
        merged = self._merged_summary(a, b)
        if merged is None:
            return False
        between = self._between(a, b)
        if between is None:
            return False   # a path through a third group: merging would close a cycle
        keep, gone = (a, b) if len(self.members[a]) >= len(self.members[b]) else (b, a)
        self.members[keep].extend(self.members.pop(gone))
        self.parent[gone] = keep
        self.summary[keep] = merged
        del self.summary[gone]
        self._reorder(keep, gone, *between)
        self._contract(keep, gone)
        return True

    def _merged_summary(self, a: int, b: int) -> _Summary | None:
        """The summary of ``a`` and ``b`` as one group, or None if that group is invalid."""
        sa, sb = self.summary[a], self.summary[b]
        reductions = sa.reductions + sb.reductions
        if reductions and not self.whole_rows:
            # The original contract (one reduction, its prologue and epilogue) depends on
            # which member feeds which: checked on the members themselves.
            nodes = sorted(self.members[a] + self.members[b], key=self.pos.__getitem__)
            if reductions > 1 or _describe(nodes, False, self.info, self.inputs) is None:
                return None
            return _Summary(sa.key or sb.key, (), reductions, [])
        if sa.key and sb.key and sa.key != sb.key:
            return None
        key = sa.key or sb.key
        shape = _broadcast((sa.shape, sb.shape))
        if shape is None:
            return None
        if key is not None:
            if not _broadcasts_to(shape, key[0]):
                return None
        elif shape not in (sa.shape, sb.shape):
            return None   # members that only meet in a bigger shape: no common loop
        if self._reads_closed(a, b):
            return None
        return _Summary(key, shape, reductions, sa.closed + sb.closed)

    def _reads_closed(self, a: int, b: int) -> bool:
        """Would a member of the merged group read one of its ``closed`` reductions?

        Looks from the smaller group's side only: the readers of its closed reductions,
        and the closed reductions its members read."""
        small, other = (a, b) if len(self.members[a]) <= len(self.members[b]) else (b, a)
        for r in self.summary[small].closed:
            if any(u in self.gid and self.group_of(u) == other for u in r.users):
                return True
        closed = self.summary[other].closed
        return bool(closed) and any(i in closed for n in self.members[small]
                                    for i in self.inputs[n] if self.info.get(i) is not None)

    def _between(self, a: int, b: int) -> tuple[list[int], list[int]] | None:
        """The groups strictly between ``a`` and ``b`` in ``order`` that ``a`` reaches
        and that reach ``b``, each sorted by ``order``; None when a group is both (a
        detour: merging would close a cycle)."""
        lo, hi = self.order[a], self.order[b]
        reached = self._reach(a, self.succ, lambda g: self.order[g] < hi, skip=b)
        reaching = self._reach(b, self.pred, lambda g: self.order[g] > lo, skip=a)
        if not reached.isdisjoint(reaching):
            return None
        return (sorted(reaching, key=self.order.__getitem__),
                sorted(reached, key=self.order.__getitem__))

    @staticmethod
    def _reach(start: int, edges: dict, inside, skip: int) -> set[int]:
        """The groups reached from ``start`` along ``edges`` without leaving ``inside``."""
        seen: set[int] = set()
        stack = [g for g in edges[start] if g != skip and inside(g)]
        while stack:
            g = stack.pop()
            if g not in seen:
                seen.add(g)
                stack.extend(h for h in edges[g] if h not in seen and inside(h))
        return seen

    def _reorder(self, keep: int, gone: int, reaching: list[int], reached: list[int]) -> None:
        """Give the merged group its place in ``order``: in the slots these groups held,
        first the groups that reach it, then it, then the groups it reaches."""
        slots = sorted([self.order.pop(gone), self.order[keep]] +
                       [self.order[g] for g in reaching + reached])
        for g, slot in zip([*reaching, keep, *reached], slots):
            self.order[g] = slot

    def _contract(self, keep: int, gone: int) -> None:
        """Make ``gone`` part of ``keep`` in the group graph."""
        for s in self.succ.pop(gone):
            self.pred[s].discard(gone)
            if s != keep:
                self.pred[s].add(keep)
                self.succ[keep].add(s)
        for p in self.pred.pop(gone):
            self.succ[p].discard(gone)
            if p != keep:
                self.succ[p].add(keep)
                self.pred[keep].add(p)
        self.succ[keep].discard(gone)
        self.pred[keep].discard(gone)

    def _shape(self, g: int) -> _Shape:
        """What ``_describe`` says of fusible group ``g`` (members sorted), read off its
        summary where that suffices (``tests/fusion_invariants.py`` checks that they
        agree)."""
        nodes, summary = self.members[g], self.summary[g]
        if summary.reductions and not self.whole_rows:
            return _describe(nodes, False, self.info, self.inputs)
        if summary.key is None:
            return _Shape(summary.shape, [], None, [])
        reductions = [n for n in nodes if self.info[n] is not None]
        return _Shape(summary.key[0], reductions, summary.key[1], [])

    def groups(self, graph: Graph) -> list[Group]:
        for nodes in self.members.values():
            nodes.sort(key=self.pos.__getitem__)
        first = {g: self.pos[nodes[0]] for g, nodes in self.members.items()}
        dag = nx.DiGraph()
        dag.add_nodes_from(self.members)
        dag.add_edges_from((g, s) for g, succ in self.succ.items() for s in succ)
        order = nx.lexicographical_topological_sort(
            dag, key=lambda g: (self.segment[g], first[g]))
        outputs = set(graph.outputs)
        result = []
        for g in order:
            nodes = self.members[g]
            group = Group(SINGLE, nodes, segment=self.segment[g])
            shape = self._shape(g) if self.is_fusible[g] else None
            if shape is not None:
                group.kind = REDUCTION_GROUP if shape.reductions else ELEMENTWISE_GROUP
                group.domain, group.reductions = shape.domain, shape.reductions
                group.axes, group.epilogue = shape.axes, shape.epilogue
            members = set(nodes)
            group.inputs = list(dict.fromkeys(i for n in nodes for i in self.inputs[n]
                                              if i not in members))
            group.outputs = [n for n in nodes if group.kind == SINGLE or n in outputs
                             or any(u not in members for u in n.users)]
            result.append(group)
        return result


def _describe(nodes: list[Node], whole_rows: bool, info: dict, inputs: dict) -> _Shape | None:
    """The domain, reductions and epilogue of a valid group of ``nodes``, else None.

    ``info`` maps nodes to their ``reduction_info`` (None: not a reduction), ``inputs``
    to their input nodes (both cached by the caller).
    """
    reds = [n for n in nodes if info[n] is not None]
    if reds and not whole_rows and len(reds) > 1:
        return None
    shapes = {n: array_meta(n).shape for n in nodes}
    if reds:
        domain, axes = array_meta(reds[0].args[0]).shape, info[reds[0]].axes
        if any(array_meta(r.args[0]).shape != domain or info[r].axes != axes for r in reds):
            return None
    else:
        axes = None
        domain = _broadcast(shapes.values())
        if domain is None or domain not in shapes.values():
            return None  # members that only meet in a bigger shape: no common loop
    members = set(nodes)
    epilogue = _downstream(nodes, reds[0], members, inputs) if reds and not whole_rows else []
    for n in nodes:
        if n in epilogue or n in reds:
            continue
        if not _broadcasts_to(shapes[n], domain):
            return None
    if whole_rows:
        for r in reds:
            if any(u in members for u in r.users) and \
                    not (info[r].keepdims and info[r].axes[0] >= 1):
                return None
    elif reds:
        red_shape = shapes[reds[0]]
        for n in epilogue:
            if not _broadcasts_to(shapes[n], red_shape):
                return None
        feeds = _upstream(reds[0], members, inputs)
        for n in nodes:
            if n not in epilogue and n is not reds[0] and \
                    (n not in feeds or any(u not in members for u in n.users)):
                return None
    return _Shape(domain, reds, axes, epilogue)


def _broadcast(shapes) -> tuple | None:
    """NumPy's broadcast of ``shapes`` (None when they do not broadcast)."""
    out: list = []
    for shape in shapes:
        for i, d in enumerate(reversed(shape)):
            if i == len(out):
                out.append(d)
            elif out[i] == 1:
                out[i] = d
            elif d != 1 and d != out[i]:
                return None
    return tuple(reversed(out))


def _broadcasts_to(shape: tuple, domain: tuple) -> bool:
    return len(shape) <= len(domain) and all(
        s == 1 or s == d for s, d in zip(reversed(shape), reversed(domain)))


def _downstream(nodes: list[Node], root: Node, members: set, inputs: dict) -> list[Node]:
    """Members that depend on ``root`` through members (``nodes`` in program order)."""
    reached = {root}
    for n in nodes:
        if n is not root and any(i in reached for i in inputs[n] if i in members):
            reached.add(n)
    return [n for n in nodes if n in reached and n is not root]


def _upstream(root: Node, members: set, inputs: dict) -> set[Node]:
    """Members ``root`` depends on through members."""
    seen: set[Node] = set()
    stack = [i for i in inputs[root] if i in members]
    while stack:
        n = stack.pop()
        if n not in seen:
            seen.add(n)
            stack.extend(i for i in inputs[n] if i in members)
    return seen


__all__ = ["ELEMENTWISE_GROUP", "Group", "REDUCTION_GROUP", "SINGLE", "partition"]
