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

from .fusible import array_meta, fusible_elementwise, has_effect, reduction_info

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
    floating-point conditions, ``passes.signals.barrier``).
    """
    calls = graph.call_nodes()
    state = _State(calls, whole_rows, barrier)
    for node in calls:                               # producers into consumers
        if state.fusible(node):
            for inp in state.inputs[node]:
                if inp in state.gid:
                    state.try_merge(state.gid[inp], state.gid[node])
    for value in graph.nodes:                        # siblings reading one value
        readers = list(dict.fromkeys(state.gid[u] for u in value.users if u in state.gid))
        for a, b in zip(readers, readers[1:]):
            state.try_merge(state.find(a), state.find(b))
    return state.groups(graph)


class _State:
    """Groups being merged: union-find over node positions, the group graph, reachability.

    ``desc[g]``/``anc[g]`` are bitsets (Python ints over group ids) of the groups
    reachable from / reaching group ``g``, updated on every merge: the cycle check
    of a candidate merge is then a few big-int tests instead of a graph search.
    (Node-level reachability is not enough: a path may enter a third group at one
    member and leave it from another, since a group runs as one unit.)
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
        seg = 0
        for i, node in enumerate(calls):
            split = barrier(node)
            seg += split
            self.gid[node] = self.parent[i] = i
            self.members[i] = [node]
            self.segment[i] = seg
            self.is_fusible[i] = not split and (fusible_elementwise(node) or
                                                self.info[node] is not None)
            seg += split
        self.succ: dict[int, set[int]] = {i: set() for i in range(len(calls))}
        self.pred: dict[int, set[int]] = {i: set() for i in range(len(calls))}
        for node in calls:
            for inp in self.inputs[node]:
                if inp in self.gid:
                    self.succ[self.gid[inp]].add(self.gid[node])
                    self.pred[self.gid[node]].add(self.gid[inp])
        self.desc: dict[int, int] = {}
        self.anc: dict[int, int] = {}
        for i in reversed(range(len(calls))):      # program order is topological
            m = 0
            for j in self.succ[i]:
                m |= (1 << j) | self.desc[j]
            self.desc[i] = m
        for i in range(len(calls)):
            m = 0
            for j in self.pred[i]:
                m |= (1 << j) | self.anc[j]
            self.anc[i] = m

    def fusible(self, node: Node) -> bool:
        return self.is_fusible[self.gid[node]]

    def find(self, g: int) -> int:
        while self.parent[g] != g:
            g = self.parent[g]
        return g

    def describe(self, nodes: list[Node]) -> _Shape | None:
        return _describe(nodes, self.whole_rows, self.info, self.inputs)

    def try_merge(self, a: int, b: int) -> bool:
        a, b = self.find(a), self.find(b)
        if a == b or not (self.is_fusible[a] and self.is_fusible[b]) or \
                self.segment[a] != self.segment[b]:
            return False
        if self._detour(a, b) or self._detour(b, a):
            return False   # a path through a third group: merging would close a cycle
        nodes = sorted(self.members[a] + self.members[b], key=self.pos.__getitem__)
        if self.describe(nodes) is None:
            return False
        keep, gone = (a, b) if a < b else (b, a)
        self.members[keep] = nodes
        del self.members[gone]
        self.parent[gone] = keep
        for n in nodes:
            self.gid[n] = keep
        self._contract(keep, gone)
        return True

    def _detour(self, a: int, b: int) -> bool:
        """A path from group ``a`` to group ``b`` through some third group."""
        bit = 1 << b
        return any(s != b and self.desc[s] & bit for s in self.succ[a])

    def _contract(self, keep: int, gone: int) -> None:
        """Make ``gone`` part of ``keep`` in the group graph and the reachability sets."""
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
        both = (1 << keep) | (1 << gone)
        desc = (self.desc.pop(gone) | self.desc[keep]) & ~both
        anc = (self.anc.pop(gone) | self.anc[keep]) & ~both
        for g in _bits(anc):
            self.desc[g] = (self.desc[g] & ~(1 << gone)) | (1 << keep) | desc
        for g in _bits(desc):
            self.anc[g] = (self.anc[g] & ~(1 << gone)) | (1 << keep) | anc
        self.desc[keep], self.anc[keep] = desc, anc

    def groups(self, graph: Graph) -> list[Group]:
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
            shape = self.describe(nodes) if self.is_fusible[g] else None
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


def _bits(m: int):
    """The indices of the set bits of ``m``."""
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


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
