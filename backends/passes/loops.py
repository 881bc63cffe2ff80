"""Loop nodes for a backend: compile each body graph, and which nodes read the index.

A ``fori_loop`` node (``dynamo/ops/loops.py``) holds its body as a ``Graph``. The eager
backend prints it as a nested ``def`` (``Graph.python_code``); a backend with its own
code generator compiles the body with itself instead (``compile_loop_bodies``), so the
body is fused and optimized like any graph, once, and called per iteration.

Example::

    >>> graph = compile_loop_bodies(graph, lambda body: numpy_backend(body, (), options))
    >>> reads_loop_index(node)        # x[i - 1] in a body: True
"""

from __future__ import annotations

from types import FunctionType

from dynamo.graph import PLACEHOLDER, Graph, Node
from dynamo.ops import ArrayMeta
from dynamo.symbolic import Symbolic
from dynamo.tree import tree_leaves

from .rewrite import rewrite

LOOPS = ("fori_loop", "while_loop")
# the meta keys of a body's trip input: a ``fori_loop``'s index, a ``while_loop``'s
# trip (``while_trip.WHILE_INDEX``)
_TRIP_KEYS = frozenset({"loop_index", "while_index"})


def has_loops(graph: Graph) -> bool:
    return any(n.target in LOOPS for n in graph.call_nodes())


def compile_loop_bodies(graph: Graph, compile_body) -> Graph:
    """``graph`` with each loop node's body graph replaced by ``compile_body(body)``,
    a function ``(i, *carried, *free) -> tuple of the next carried values``; a
    ``while_loop`` body compiles to a plain function of ``(*carried, *free)``, or
    ``(trip, *carried, *free)`` where it reads a counter, that returns the next
    carried values and the next test."""
    if not has_loops(graph):
        return graph

    def visit(rw, node: Node) -> bool:
        if node.target not in LOOPS:
            return False
        body, *rest = node.args
        new = rw.copy(node)
        fn = compile_body(body)
        # (only on a plain function: a PerSize runner would key on None's "shape")
        if node.target == "while_loop" and isinstance(fn, FunctionType):
            unread = unread_slots(body)
            if unread:   # ops.while_loop lets them go before each trip
                fn.__dynamo_unread__ = unread
        new.args = (fn, *new.args[1:])
        return True
    return rewrite(graph, visit)


def unread_slots(body: Graph) -> tuple[int, ...]:
    """The carried slots of a ``while_loop`` body whose inputs it never reads: no op,
    no output and no size reads them (of static sizes: a size-generic body may read a
    size off any input). The hysteresis loop of tests/backends/passes/
    test_peeled_loop_peaks.py, ``body(weak, edges, grown, exit_test)``, computes the
    next ``grown`` and the test from ``grown`` and ``weak``, and hands ``grown`` on as
    the next ``edges``::

        >>> unread_slots(body)      # edges, exit_test: the trip before's values
        (1, 3)
    """
    slots = [p for p in body.placeholders if p.meta.get("carried")]
    return tuple(k for k, p in enumerate(slots)
                 if not p.users and static_sizes(p.meta.get("array")))


def static_sizes(meta) -> bool:
    """``meta`` describes an array whose sizes are numbers (no ``Symbolic``)."""
    return isinstance(meta, ArrayMeta) and not any(isinstance(d, Symbolic) for d in meta.shape)


def varies_per_trip(node: Node) -> bool:
    """Whether ``node`` (in a loop body) does something else on each trip: it reads the
    index (``x[i - 1]``), or its sizes or its inputs' change with it (``x[:i]``,
    ``a[:i] @ b[:i]``: sizes held as SymInts of the loop's symbol). Such nodes run by
    themselves as NumPy calls, outside fused code, specialized on no size."""
    return reads_loop_index(node) or any(
        _sized_per_trip(n.meta.get("array")) for n in (node, *node.inputs()))


def _sized_per_trip(meta) -> bool:
    metas = meta if isinstance(meta, tuple) else (meta,)
    return any(isinstance(d, Symbolic) for m in metas if isinstance(m, ArrayMeta)
               for d in m.shape)


def reads_loop_index(node: Node) -> bool:
    """Whether ``node`` (in a loop body) reads the loop's index, inside an expression
    (``x[i - 1]``), or a ``while_loop`` body's trip (a counter read as a number,
    ``x + h * i``: dynamo/translator/while_trip.py): such nodes run by themselves,
    outside fused code."""
    for leaf in tree_leaves((node.args, node.kwargs)):
        nodes = getattr(leaf, "nodes", None)
        if isinstance(nodes, dict) and any(
                n.op == PLACEHOLDER and _TRIP_KEYS & n.meta.keys() for n in nodes.values()):
            return True
        if isinstance(leaf, Node) and leaf.op == PLACEHOLDER and _TRIP_KEYS & leaf.meta.keys():
            return True
    return False
