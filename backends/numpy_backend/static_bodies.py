"""Loop bodies with the sizes of one call, for the numpy backend's static variants.

A graph with symbolic sizes runs on the numpy backend as one static variant per size
(``sizes.PerSize``): the outer graph gets the shapes its values had in that call
(``static_graph``). A loop node's body is a graph of its own, whose sizes are
expressions over the same symbols and the loop's trip (``x[trip + 1]`` of an ``x`` of
``s0`` elements, ``L[trip, :trip]``). ``static_body`` writes it with every symbol but
the trip at its value in the call, so that the backend compiles it as it compiles a
body of static sizes (fused, with the loop inside) instead of running it op by op;
sizes that hold the trip stay SymInts of it (``passes.loops.varies_per_trip``)::

    def fori_loop_body(trips, x, s0):            def fori_loop_body(trips, x, s0):
        for trip in range(trips):        ->          for trip in range(trips):
            getitem = ops.getitem(x, trip + 2)           getitem = ops.getitem(x, trip + 2)
            ...  # x: float64[s0]                        ...  # x: float64[50]

Where a symbol's value is not known (no input's dimension or symbol input names it)
the body is left as it is, and runs op by op as before.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dynamo.graph import OUTPUT, Graph, Node
from dynamo.ops import ArrayMeta
from dynamo.symbolic import Sym, SymArg, SymInt
from dynamo.tree import tree_map


class _Unknown(Exception):  # noqa: N818 (control flow: the body stays symbolic)
    pass


def symbol_values(graph: Graph, values: dict[Node, Any], sizes: dict[str, int]) -> dict:
    """Symbol -> its value in one call: the symbol inputs' (``sizes``), and each
    dimension of an input array that is one symbol plus a constant (``s0``,
    ``s1 - 1``), read off the array the call passed."""
    out = dict(sizes)
    for node in graph.placeholders:
        meta, value = node.meta.get("array"), values.get(node)
        if not isinstance(meta, ArrayMeta) or value is None:
            continue
        for d, seen in zip(meta.shape, np.shape(value)):
            if isinstance(d, SymInt) and len(d.sym.terms) == 1 and d.sym.terms[0][1] == 1:
                out.setdefault(d.sym.terms[0][0], seen - d.sym.const)
    return out


def static_body(body: Graph, values: dict[str, int], keep=frozenset()) -> Graph:
    """``body`` with every symbol except the loop's trip and ``keep`` (changing
    numbers, which stay inputs) at its value in ``values``; ``body`` itself where a
    value is missing."""
    kept = frozenset(keep) | {p.meta["loop_index"] for p in body.placeholders
                              if "loop_index" in p.meta}
    try:
        return _rewrite(body, values, kept)
    except _Unknown:
        return body


def _partial(sym: Sym, values: dict, kept: frozenset) -> Sym:
    """``sym`` with the symbols not in ``kept`` replaced by their values."""
    const = sym.const
    for name, c in sym.terms:
        if name not in kept:
            if name not in values:
                raise _Unknown(name)
            const += c * values[name]
    terms = tuple((n, c) for n, c in sym.terms if n in kept)
    sources = tuple((n, s) for n, s in sym.sources if n in kept)
    return Sym(terms, const, sources)


def _rewrite(body: Graph, values: dict, kept: frozenset) -> Graph:
    new, env = Graph(), {}

    def size(d):
        if not isinstance(d, SymInt):
            return d
        sym = _partial(d.sym, values, kept)
        # (its value while tracing: at trip 0, as a body's own trip sizes are)
        return SymInt(sym.evaluate(dict.fromkeys(sym.symbols, 0)), sym)

    def meta_of(m):
        return m.with_(shape=tuple(size(d) for d in m.shape)) if isinstance(m, ArrayMeta) \
            else m

    def leaf(v):
        if isinstance(v, Node):
            return env[v]
        if isinstance(v, SymArg):
            if not isinstance(v.sym, Sym):    # a float expression: kept whole, or given up
                if v.sym.symbols <= kept:
                    return v.map_nodes(env.__getitem__)
                raise _Unknown(v)
            sym = _partial(v.sym, values, kept)
            if sym.is_constant():
                return sym.const
            return SymArg(sym, {n: env[p] for n, p in v.nodes.items() if n in sym.symbols})
        return size(v)

    for node in body.nodes:
        if node.op == OUTPUT:
            new.output(tree_map(leaf, node.args[0]))
            continue
        meta = dict(node.meta)
        if meta.get("symbol") not in kept:
            meta.pop("symbol", None)      # now a plain int input
        if "array" in meta:
            meta["array"] = tree_map(meta_of, meta["array"])
        args = tree_map(leaf, node.args)
        if node.target == "fori_loop" and isinstance(args[0], Graph):
            # a nested loop's body (docs/loops.md "Nested loop nodes"): its sizes too,
            # the enclosing trips kept (``x[trip_1 + 1, trip + 1]``)
            args = (static_body(args[0], values, kept), *args[1:])
        env[node] = new.create_node(node.op, node.target, args,
                                    tree_map(leaf, node.kwargs), name=node.name, meta=meta)
    return new
