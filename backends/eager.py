"""The ``eager`` backend: the graph as straight-line Python calling NumPy or CuPy.

The generated function is the graph's own printout (``Graph.python_code``) with
``ops`` bound to the implementation table of the graph's array library, registered
with ``linecache`` (``dynamo.source.compile_source``) so tracebacks show its lines.

Example::

    >>> fn = eager(graph, example_inputs)
    >>> fn(x)        # -> tuple of output arrays
"""

from __future__ import annotations

import itertools

from dynamo.graph import Graph
from dynamo.ops import NUMPY, impl_table
from dynamo.source import compile_source

from .registry import register_backend

_counter = itertools.count()


def graph_kind(graph: Graph) -> str:
    for node in graph.nodes:
        meta = node.meta.get("array")
        if meta is not None and not isinstance(meta, tuple):
            return meta.kind
    return NUMPY


def python_function(graph: Graph, kind: str | None = None, name: str = "forward"):
    """Compile the graph's printout into a function that runs it on ``kind`` arrays."""
    fn_name = f"{name}_{next(_counter)}"
    src, consts = graph.python_code(fn_name)

    class Consts:  # attribute access, as the printout writes consts.<name>
        pass

    holder = Consts()
    holder.__dict__.update(consts)
    scope = {"ops": impl_table(kind or graph_kind(graph)), "consts": holder}
    compile_source(src, f"<dynamo graph {fn_name}>", scope)
    fn = scope.pop(fn_name)
    fn.__dynamo_source__ = src
    return fn


@register_backend(name="eager")
def eager(graph: Graph, example_inputs):
    return python_function(graph)


eager.dynamic_shapes = True   # graphs may have symbolic sizes (int inputs, SymArg args)
