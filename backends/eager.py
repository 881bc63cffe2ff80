"""The ``eager`` backend: the graph as straight-line Python calling NumPy or CuPy.

The generated function is the graph's own printout (``Graph.python_code``) with
``ops`` bound to the implementation table of the graph's array library (for NumPy, its
functions as a module's globals, ``backends/eager_ops.py``: a specialized read), registered
with ``linecache`` (``dynamo.source.compile_source``) so tracebacks show its lines;
:func:`backends.common.python_function` builds it.

Example::

    >>> fn = eager(graph, example_inputs)
    >>> fn(x)        # -> tuple of output arrays
"""

from __future__ import annotations

from dynamo.graph import Graph

from .common import one_output, python_function, tuple_of_one


def eager(graph: Graph, example_inputs):
    # the graph as traced, but for a second copy of a list the guards already made
    # into a fresh array (np.array(xs): ``passes.fresh``; nothing can tell them apart).
    # Imported at the first compile: looking the backend up loads no pass.
    from .passes.fresh import fresh_copies
    graph = fresh_copies(graph)
    if one_output(graph):   # the glue calls the function that returns it bare
        return tuple_of_one(python_function(graph, bare=True))
    return python_function(graph)


eager.dynamic_shapes = True   # graphs may have symbolic sizes (int inputs, SymArg args)
