"""The ``numpy`` backend as users reach it by name: NumPy inputs go to the numpy
backend, and a graph with a dask array input to the dask backend.

A user who moves a program from NumPy arrays to dask arrays keeps
``dynamo.compile(f)`` (``backend="numpy"``) and gets what dask gives: a lazy dask
array, now built of fused chunk kernels. The choice is made per graph, from the
inputs of the call that traced it; the guards pin those inputs' types, so a call
with NumPy arrays after one with dask arrays makes its own entry.

Example::

    >>> lookup_backend("numpy") is numpy_or_dask
    True
"""

from __future__ import annotations

from dynamo.graph import Graph
from dynamo.variables.dask_arrays import is_dask_array

from ..numpy_backend.backend import numpy_backend
from .backend import dask_backend


def numpy_or_dask(graph: Graph, example_inputs, options: dict | None = None):
    """``dask_backend`` when an input is a dask array, else ``numpy_backend``."""
    if any(is_dask_array(v) for v in example_inputs):
        return dask_backend(graph, example_inputs, options=options)
    return numpy_backend(graph, example_inputs, options=options)


numpy_or_dask.dynamic_shapes = numpy_backend.dynamic_shapes
numpy_or_dask.check_options = numpy_backend.check_options
