"""The ``dask`` backend: a graph over dask arrays becomes a dask graph.

A compiled function called with ``dask.array.Array`` arguments traces them as arrays
(``dynamo/variables/dask_arrays.py``: guarded on type, dtype, shape and chunks) and
hands the graph to this backend, which returns a function that builds a lazy dask
array from its inputs, once per call:

- each fusible elementwise group (``backends.fusion.partition``) becomes one
  ``blockwise`` task per chunk, running the ``numpy`` backend's fused kernel for the
  group on that chunk (``kernels.ChunkKernel``, compiled once per chunk shape);
- so does a row group (softmax, layernorm: reductions over the trailing axes with the
  elementwise ops around them) when each chunk holds whole rows, the reduced axes one
  chunk wide: the kernel reduces the chunk's rows as NumPy does, which is what dask's
  reduction of a one-chunk axis computes too. When the rows are split over chunks its
  ops are lowered as below, with dask's tree reductions;
- every other op runs as the same NumPy call on dask arrays: dask implements it
  (``__array_ufunc__``/``__array_function__``): reductions are dask's tree reductions,
  matmul, reshape, transpose and indexing dask's own, and what dask lacks it runs
  through its own NumPy fallback, as the plain program would.

The backend is chosen for the user: ``backend="numpy"`` hands graphs with a dask
input to it (``select.numpy_or_dask``), and ``backend="dask"`` names it. Nothing here
imports dask until a graph with a dask input arrives; see ``docs/distributed.md``.

Example::

    >>> f = dynamo.compile(gelu)                      # backend="numpy"
    >>> y = f(da.ones((4096, 4096), chunks=(512, 4096), dtype="f4"))
    >>> type(y), y.chunks == ((512,) * 8, (4096,))   # lazy: nothing computed yet
    (<class 'dask.array.core.Array'>, True)
"""

from .backend import dask_backend

__all__ = ["dask_backend"]
