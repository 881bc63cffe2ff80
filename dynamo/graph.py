"""The graph IR: a list of nodes that prints as the Python it means.

Four kinds of node (``Node.op``):

- ``placeholder``: one graph input; ``meta["source"]`` says where the caller reads it.
- ``call``: ``target`` is a canonical op name from :mod:`dynamo.ops` (``"add"``,
  ``"matmul"``, ``"sum"``...), never a library object, so one graph runs on NumPy or CuPy.
- ``constant``: a value baked into the graph (``target`` is its name, ``args[0]`` the value).
- ``output``: ``args[0]`` is the tuple of returned nodes.

Example::

    >>> g = Graph()
    >>> x = g.placeholder("x", meta)
    >>> y = g.call("exp", (x,), meta=meta)
    >>> g.output((g.call("add", (y, 1.0), meta=meta),))
    >>> print(g)
    def forward(x):
        exp = ops.exp(x)
        add = ops.add(exp, 1.0)
        return (add,)
"""

from __future__ import annotations

import ast
import builtins
import keyword
import math
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .tree import tree_leaves, tree_map

if TYPE_CHECKING:
    import networkx as nx

PLACEHOLDER, CALL, CONSTANT, OUTPUT = "placeholder", "call", "constant", "output"


class Node:
    __slots__ = ("graph", "name", "op", "target", "args", "kwargs", "meta", "users")

    def __init__(self, graph: Graph, name: str, op: str, target: Any, args: tuple,
                 kwargs: dict, meta: dict):
        self.graph, self.name, self.op, self.target = graph, name, op, target
        self.args, self.kwargs, self.meta = args, kwargs, meta
        self.users: dict[Node, None] = {}

    def __repr__(self) -> str:
        return self.name

    def inputs(self) -> list[Node]:
        """Nodes this node reads, in argument order, without repeats."""
        found: dict[Node, None] = {}
        for leaf in tree_leaves((self.args, self.kwargs)):   # (collects: rebuilds nothing)
            if isinstance(leaf, Node):
                found[leaf] = None
            elif hasattr(leaf, "map_nodes"):   # a symbolic size reads its symbol placeholders
                leaf.map_nodes(lambda n: found.setdefault(n))
        return list(found)


def map_nodes(value: Any, fn) -> Any:
    """Apply ``fn`` to every Node inside nested tuples, lists, dicts and slices."""
    def leaf(v: Any) -> Any:
        if isinstance(v, Node):
            return fn(v)
        if hasattr(v, "map_nodes"):   # a symbolic size reads its symbol placeholders
            return v.map_nodes(fn)
        return v
    return tree_map(leaf, value)


_LITERALS = (int, float, complex, str, bytes, bool, type(None), type(Ellipsis))


class Graph:
    """An ordered list of nodes. Nodes are only appended; passes build new graphs."""

    def __init__(self) -> None:
        self.nodes: list[Node] = []
        self._names: dict[str, int] = {}
        self._taken: set[str] = set()

    # ----------------------------------------------------------------- building
    def _unique(self, hint: str) -> str:
        base = re.sub(r"\W", "_", hint).strip("_") or "v"
        if base[0].isdigit() or keyword.iskeyword(base) or hasattr(builtins, base) \
                or base in ("ops", "consts"):
            base = "v_" + base
        n = self._names.get(base, 0)
        name = base if n == 0 else f"{base}_{n}"
        while name in self._taken:   # "x_1" as a hint, then the second "x"
            n += 1
            name = f"{base}_{n}"
        self._names[base] = n + 1
        self._taken.add(name)
        return name

    def create_node(self, op: str, target: Any, args: tuple = (), kwargs: dict | None = None,
                    name: str | None = None, meta: dict | None = None) -> Node:
        node = Node(self, self._unique(name or str(target)), op, target, tuple(args),
                    dict(kwargs or {}), dict(meta or {}))
        for inp in node.inputs():
            inp.users[node] = None
        self.nodes.append(node)
        return node

    def placeholder(self, name: str, meta: dict | None = None) -> Node:
        return self.create_node(PLACEHOLDER, name, name=name, meta=meta)

    def call(self, target: str, args: tuple = (), kwargs: dict | None = None,
             meta: dict | None = None) -> Node:
        return self.create_node(CALL, target, args, kwargs, meta=meta)

    def constant(self, value: Any, name: str = "const", meta: dict | None = None) -> Node:
        return self.create_node(CONSTANT, name, (value,), name=name, meta=meta)

    def output(self, values: tuple) -> Node:
        return self.create_node(OUTPUT, "output", (tuple(values),), name="output")

    # ----------------------------------------------------------------- reading
    def __iter__(self) -> Iterator[Node]:
        return iter(self.nodes)

    def __len__(self) -> int:
        return len(self.nodes)

    @property
    def placeholders(self) -> list[Node]:
        return [n for n in self.nodes if n.op == PLACEHOLDER]

    @property
    def output_node(self) -> Node | None:
        return next((n for n in reversed(self.nodes) if n.op == OUTPUT), None)

    @property
    def outputs(self) -> tuple:
        out = self.output_node
        return out.args[0] if out is not None else ()

    def call_nodes(self) -> list[Node]:
        return [n for n in self.nodes if n.op == CALL]

    def to_networkx(self) -> nx.DiGraph:
        """A DiGraph with one vertex per node name and an edge per data dependency.

        Vertex attributes: ``op``, ``target``, ``meta``. Edges carry the argument
        position as ``index``.
        """
        import networkx as nx  # only here: `import dynamo` does not load networkx
        g = nx.DiGraph()
        for node in self.nodes:
            g.add_node(node.name, op=node.op, target=node.target, meta=node.meta, node=node)
            for i, inp in enumerate(node.inputs()):
                g.add_edge(inp.name, node.name, index=i)
        return g

    # ----------------------------------------------------------------- printing
    def python_code(self, fn_name: str = "forward", *, free: bool = False,
                    consts: dict[str, Any] | None = None,
                    bare: bool = False) -> tuple[str, dict[str, Any]]:
        """Source of a function that runs the graph, and the constants it refers to.
        It returns the tuple of the outputs; with ``bare`` (a graph of one output, not
        a loop body), that output itself (``return add``: see ``backends.common.bare``).

        Op calls print as ``ops.<name>(...)``; the caller binds ``ops`` to the
        implementation table of one array library (see :mod:`dynamo.ops`).

        ``free=True`` adds ``del`` lines that drop each value right after its last use,
        as plain Python frees a temporary: without them a graph of a time-stepping loop
        holds every step's arrays until it returns (memory, and caches, grow with the
        trip count). The printout (``str(graph)``) leaves them out to stay short::

            add = ops.add(x, y)
            multiply = ops.multiply(add, 2.0)
            del add

        A graph in an op's arguments (the body of a loop node, see ``dynamo.ops.loops``)
        prints as a nested ``def`` just before the call; ``consts`` is shared with it.
        A loop body (its first input is a ``loop_index``) prints as the loop itself::

            def fori_loop_body(trips, x):
                for trip in range(trips):
                    getitem = ops.getitem(x, (trip + 1))
                    ...
                    x, = (setitem,)
                return (x, )
        """
        consts = {} if consts is None else consts
        bodies: dict[int, str] = {}

        def fmt(v: Any) -> str:
            if isinstance(v, Node):
                return v.name
            if isinstance(v, Graph):
                return bodies[id(v)]
            if isinstance(v, tuple):
                return "(" + "".join(fmt(x) + ", " for x in v).rstrip(" ") + ")"
            if isinstance(v, list):
                return "[" + ", ".join(fmt(x) for x in v) + "]"
            if isinstance(v, dict):
                return "{" + ", ".join(f"{k!r}: {fmt(x)}" for k, x in v.items()) + "}"
            if isinstance(v, slice):
                return f"slice({fmt(v.start)}, {fmt(v.stop)}, {fmt(v.step)})"
            if hasattr(v, "graph_expr"):
                return f"({v.graph_expr()})"
            if type(v) in _LITERALS and _safe_repr(v):
                return "..." if v is Ellipsis else repr(v)
            for key, known in consts.items():
                if known is v:
                    return f"consts.{key}"
            key = _const_name(v, consts)
            consts[key] = v
            return f"consts.{key}"

        params = [n.name for n in self.placeholders]
        carried = [n.name for n in self.placeholders if n.meta.get("carried")]
        loop = any("loop_index" in n.meta for n in self.placeholders)
        if loop:   # a loop body: the loop itself, ``trip`` counting the trips
            params[0] = "trips"
        lines = [f"def {fn_name}({', '.join(params)}):"]
        pad = "    "
        if loop:
            lines.append(f"    for {self.placeholders[0].name} in range(trips):")
            pad = "        "
        dead_after = _dead_after(self) if free else {}
        last_loc = None
        for node in self.nodes:
            if node.op == CALL:
                loc = location_comment(node)
                if loc is not None and loc != last_loc:
                    lines.append(f"{pad}{loc}")
                    last_loc = loc
                for body in (a for a in node.args if isinstance(a, Graph)):
                    bodies[id(body)] = f"{node.name}_body"
                    src, _ = body.python_code(bodies[id(body)], free=free, consts=consts)
                    lines += [pad + line for line in src.splitlines()]
                args = [fmt(a) for a in node.args]
                args += [f"{k}={fmt(v)}" for k, v in node.kwargs.items()]
                method = node.meta.get("method")
                if method is not None and method == node.target and node.args:
                    # the program's own method call, so NumPy's stacklevel=2 warnings
                    # name its line (dynamo/ops/reductions.py, _WARN_AT_CALLER); only
                    # while the node is still that op (a pass may rewrite a node)
                    lines.append(f"{pad}{node.name} = ({args[0]}).{method}"
                                 f"({', '.join(args[1:])})")
                else:
                    lines.append(f"{pad}{node.name} = ops.{node.target}({', '.join(args)})")
            elif node.op == CONSTANT:
                lines.append(f"{pad}{node.name} = {fmt(node.args[0])}")
            elif node.op == OUTPUT and loop:   # the next trip's carried values
                values, names = node.args[0], "".join(f"{c}, " for c in carried)
                if carried:
                    lines.append(f"{pad}{names}= {fmt(tuple(values[:len(carried)]))}")
                elif lines[-1].startswith("    for "):   # (a trip with nothing to do:
                    lines.append(f"{pad}pass")           # a loop of counters only)
                rest = "".join(fmt(v) + ", " for v in values[len(carried):])
                lines.append(f"    return ({names}{rest})")
            elif node.op == OUTPUT and bare:
                (value,) = node.args[0]
                lines.append(f"    return {fmt(value)}")
            elif node.op == OUTPUT:
                lines.append(f"    return {fmt(tuple(node.args[0]))}")
            if dead_after.get(node):
                lines.append(f"{pad}del {', '.join(n.name for n in dead_after[node])}")
        if self.output_node is None:
            lines.append("    return ()")
        return "\n".join(lines) + "\n", consts

    def __str__(self) -> str:
        return self.python_code()[0]


def _dead_after(graph: Graph) -> dict[Node, list[Node]]:
    """For each node, the computed values nothing reads after it (in program order).

    Placeholders are the caller's and graph outputs are returned: neither is listed. A
    value no node reads is dead right after the node that computes it.
    """
    last: dict[Node, Node] = {}
    for node in graph.nodes:
        if node.op in (CALL, CONSTANT):
            last.setdefault(node, node)
        for used in node.inputs():
            last[used] = node
    outputs = set(graph.output_node.inputs()) if graph.output_node is not None else set()
    dead: dict[Node, list[Node]] = {}
    for value, at in last.items():
        if value.op in (CALL, CONSTANT) and value not in outputs and at.op != OUTPUT:
            dead.setdefault(at, []).append(value)
    return dead


def _safe_repr(v: Any) -> bool:
    if isinstance(v, float):
        return v == v and v not in (float("inf"), float("-inf"))
    if isinstance(v, complex):
        # repr(complex(0.0, -0.0)) is "-0j", which reads back as (-0-0j), and
        # "(-0+1j)" as 1j: a signed zero part may not survive, so read it back
        return complex_repr_round_trips(v)
    return True


def complex_repr_round_trips(v: complex) -> bool:
    """``repr(v)`` read back as a literal is ``v``, bit for bit: both parts finite, and
    no signed zero lost (``repr(complex(0.0, -0.0))`` is ``-0j``, which is
    ``(-0-0j)``; ``(-0+1j)`` is ``1j``)."""
    if not (math.isfinite(v.real) and math.isfinite(v.imag)):
        return False
    back = ast.literal_eval(repr(v))
    return all(x == y and math.copysign(1.0, x) == math.copysign(1.0, y)
               for x, y in ((back.real, v.real), (back.imag, v.imag)))


def _const_name(v: Any, taken: dict) -> str:
    base = getattr(v, "__name__", None) or getattr(v, "name", None) or type(v).__name__
    base = re.sub(r"\W", "_", str(base)) or "c"
    if base[0].isdigit():
        base = "c_" + base
    name, i = base, 1
    while name in taken:
        name, i = f"{base}_{i}", i + 1
    return name


def location_comment(node) -> str | None:
    """The comment in a graph's printout that says where the program wrote ``node``:
    ``# app.py:12``, or for an op of a function inlined from another file
    ``# helpers.py:5 (called at app.py:12)`` (``dynamo.source.compile_source`` gives
    the code those lines; ``user_lines``)."""
    loc = node.meta.get("loc")
    if loc is None:
        return None
    site = node.meta.get("site")
    return f"# {loc} (called at {site})" if site else f"# {loc}"
