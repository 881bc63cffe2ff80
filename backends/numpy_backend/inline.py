"""Values read once, by the next statement, written into that statement.

The program's own code keeps an expression's intermediate values on the stack:
``x[i] += x[i - 1]`` names nothing. Generated code that names every op's result
stores and loads each one, which in a scalar loop of a few NumPy scalar ops per trip
is several percent of its time, and a named array intermediate defeats NumPy's
temporary elision (``(a * b) + c`` adds into the product's buffer; ``t = a * b;
t + c`` cannot)::

    getitem = x[trip]                  x[trip] = (x[trip] + x[(trip - 1)])
    getitem_1 = x[(trip - 1)]     ->
    scalar_add = (getitem + getitem_1)
    x[trip] = scalar_add

A value is written into the statement that reads it only where nothing moves past
anything else: it is read exactly once in the whole graph, by the very next
statement, in the right-hand side, and the values so written into one statement are
the last ones computed before it, in the order the statement evaluates them. So the
ops run in the same order as before; only loads of names (which cannot fail or
change anything) move. It also must not write or draw anything (``has_effect``),
come from the same line of the program (warnings and tracebacks name the line of
the statement), and not be kept or lent as a buffer. Stretches that run under the
floating-point guard (whose fallback reruns their ops by name) are left as they are.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from dynamo.graph import OUTPUT, Graph, Node, location_comment
from dynamo.ops.signals import has_effect
from dynamo.tree import tree_leaves

# stands for a pending value in a statement's text until it is known to be inlined
_TOKEN = "\x00{}\x00"

# values written into values written into ...: at most this deep. Each level adds a
# few parentheses, and CPython's parser refuses more than 200 nested ones (a sum of
# 400 terms on one line of the program would be 400 levels)
MAX_DEPTH = 24


@dataclass
class Pending:
    """A value that may be written into the next statement: ``expr`` computes it,
    reading ``reads`` (the values inlined into it have been replaced by theirs)."""
    node: Node
    expr: str
    reads: list
    depth: int = 1


def use_counts(graph: Graph) -> Counter:
    """How many times each node is read: by other nodes' arguments (each occurrence,
    also inside symbolic sizes) and by the graph's outputs."""
    counts: Counter = Counter()

    def count(value) -> None:
        for leaf in tree_leaves(value):
            if isinstance(leaf, Node):
                counts[leaf] += 1
            elif hasattr(leaf, "map_nodes"):
                leaf.map_nodes(lambda n: counts.update((n,)))
    for node in graph.nodes:
        if node.op != OUTPUT:
            count((node.args, node.kwargs))
    count(graph.outputs)
    return counts


class Inliner:
    """Decides, statement by statement, which pending values the next one takes in.

    ``name_of(node)`` is the name a statement's text uses for ``node``: a token for a
    pending value. ``resolve`` then either writes the pending values into the text (a
    valid suffix of them, in order) or gives the names back (``flush``).
    """

    def __init__(self, graph: Graph, plain_name_of, allowed, next_trip=frozenset()) -> None:
        self.uses = use_counts(graph)
        # outputs keep their names, but for a loop body's values for the next trip
        # that nothing else reads: the last of them may be written where it is
        # handed over (loop_code.next_trip)
        self.next_trip = {n for n in next_trip if self.uses[n] == 1}
        self.kept = set(tree_leaves(graph.outputs)) - self.next_trip
        self.plain = plain_name_of
        self.allowed = allowed          # node -> may it be inlined at all (caller's facts)
        self.pending: list[Pending] = []
        self.depth = 1        # of the statement ``resolve`` wrote last

    def name_of(self, node: Node) -> str:
        for k, p in enumerate(self.pending):
            if p.node is node:
                return _TOKEN.format(k)
        return self.plain(node)

    def candidate(self, node: Node) -> bool:
        """``node`` (a ``name = <expr>`` statement) may wait for its reader."""
        return self.uses[node] == 1 and node not in self.kept and not has_effect(node) \
            and location_comment(node) is not None and self.allowed(node)

    def resolve(self, node: Node, text: str, reads: list) -> tuple[str | None, list]:
        """``text`` (built with ``name_of``) with the pending values it takes written
        in, and what it then reads. The values it takes are the last ones pending, in
        the order it evaluates them; those before stay pending (for a statement that
        waits too) or are flushed by the caller. ``None`` (with every value flushed:
        ``flush``) when the text must be built again with plain names."""
        order = [k for k in range(len(self.pending)) if _TOKEN.format(k) in text]
        target, _, value = text.partition(" = ")
        first = len(self.pending) - len(order)
        valid = (order == list(range(first, len(self.pending)))
                 and all(text.count(_TOKEN.format(k)) == 1 for k in order)
                 and not any(_TOKEN.format(k) in target for k in order)
                 and _in_order(value, order)
                 and all(location_comment(self.pending[k].node) == location_comment(node)
                         for k in order))
        if not valid or max((self.pending[k].depth for k in order), default=0) >= MAX_DEPTH:
            self.depth = 1
            return None, reads
        taken, self.pending = self.pending[first:], self.pending[:first]
        self.depth = 1 + max((p.depth for p in taken), default=0)
        for k, p in zip(order, taken):
            text = text.replace(_TOKEN.format(k), _parenthesized(p.expr))
        inlined = {p.node for p in taken}
        reads = [r for r in reads if r not in inlined] + [r for p in taken for r in p.reads]
        return text, list(dict.fromkeys(reads))

    def flush(self) -> list[Pending]:
        flushed, self.pending = self.pending, []
        return flushed


def pending_in(text: str) -> bool:
    """Whether ``text`` (built with ``Inliner.name_of``) names a pending value."""
    return "\x00" in text


def _in_order(text: str, order: list[int]) -> bool:
    positions = [text.find(_TOKEN.format(k)) for k in order]
    return all(p >= 0 for p in positions) and positions == sorted(positions)


def _parenthesized(expr: str) -> str:
    """``expr`` as an operand: itself if one pair of parentheses already encloses it
    (told by counting them, so not where a string literal may hold one)."""
    if expr.startswith("(") and expr.endswith(")") and not any(q in expr for q in "'\""):
        depth = 0
        for i, ch in enumerate(expr):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0 and i < len(expr) - 1:
                break
        else:
            return expr
    return f"({expr})"
