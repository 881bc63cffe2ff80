"""The ``eager`` backend: the graph as straight-line Python calling NumPy or CuPy.

The generated function is the graph's own printout (``Graph.python_code``) with
``ops`` bound to the implementation table of the graph's array library, registered
with ``linecache`` (``dynamo.source.compile_source``) so tracebacks show its lines;
:func:`backends.common.python_function` builds it.

Example::

    >>> fn = eager(graph, example_inputs)
    >>> fn(x)        # -> tuple of output arrays
"""

from __future__ import annotations

from dynamo.graph import Graph

from .common import python_function


def eager(graph: Graph, example_inputs):
    return python_function(graph)


eager.dynamic_shapes = True   # graphs may have symbolic sizes (int inputs, SymArg args)
