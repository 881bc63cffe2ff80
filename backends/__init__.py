"""Backends: turn a graph into a callable. Chosen by name or passed as a callable.

=========== ================================================================
name        what it does
=========== ================================================================
eager       straight-line NumPy/CuPy calls (the graph's own printout)
numpy       fused, cache-blocked, multithreaded CPU execution (when present);
            a graph with dask array inputs goes to ``dask``
dask        a lazy dask graph: fused chunk kernels, dask's own reductions
cupy        fused CUDA kernels through CuPy (needs a GPU)
cudagraphs  eager CuPy graph captured once and replayed (needs a GPU)
native      numpy, then Numba loop nests for hot graphs (needs Numba)
auto        the default: per graph, native (or numpy without Numba) for NumPy
            arrays, cupy for CuPy arrays, numpy else
=========== ================================================================

Each is imported the first time it is looked up (``registry.BUILTIN`` lists them by
``"module:function"``); what they share is in ``common``.

Example::

    >>> from dynamo.backends import list_backends, lookup_backend
    >>> "eager" in list_backends()
    True
"""

from .registry import (
    DEFAULT_BACKEND,
    bind_options,
    builtin_backend,
    is_builtin,
    list_backends,
    lookup_backend,
    register_backend,
)

__all__ = ["DEFAULT_BACKEND", "bind_options", "builtin_backend", "is_builtin", "list_backends",
           "lookup_backend", "register_backend"]
