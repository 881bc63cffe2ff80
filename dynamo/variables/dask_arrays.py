"""Dask arrays as graph inputs: traced as arrays, guarded on type, dtype, shape and chunks.

A ``dask.array.Array`` argument is a lazy array with NumPy's semantics (dask mirrors
NumPy's broadcasting, promotion and reductions), so the trace treats it as an array
of its shape and dtype, of kind ``ops.DASK``: a graph placeholder like a NumPy input.
The kind follows it through the ops (an op on dask and NumPy arrays gives a dask
array, ``ops.joined_kind``), so the trace answers as dask does where the two differ:
``type(x + 1)`` is dask's ``Array``, ``x.sum()`` is a 0-d dask array (not a NumPy
scalar), ``np.asarray(x)`` is a new (NumPy) array, and a write into a dask input is
left to dask (a graph break: ``x += 1`` rebinds a dask array). The backend then
decides how to run the graph (``backends/dask_backend/`` lowers it to a dask graph).
What the entry relies on is guarded:

- an ``ARRAY`` guard whose class is ``dask.array.Array`` (type, dtype, shape);
- a ``CONSTANT`` guard on ``x.chunks`` (a new chunking is a new entry: the lowered
  graph is built per chunk shape);
- a ``TYPE`` guard on the type of ``x._meta`` (the array type of the chunks): only
  NumPy-backed dask arrays are traced; CuPy or masked chunks stay out.

Nothing here imports dask: a value can only be a dask array once the program has
imported ``dask.array`` itself.

Example::

    >>> wrap_dask_array(tx, da.ones((8, 4), chunks=(2, 4)), LocalSource("x"))
    DaskArrayVariable(placeholder x, float64[8, 4])
    # guards: L['x']: dask.Array float64[8, 4]; L['x'].chunks == ((2, 2, 2, 2), (4,))
"""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np

from dynamo.guards import ARRAY, CONSTANT, TYPE, ArraySpec, AttrSource, Guard, Source

from .. import ops
from ..exc import Unsupported
from .arrays import ArrayVariable
from .constant import ConstantVariable

# dask.array.Array attributes that are facts of the chunking the guards pin
_CHUNK_ATTRS = {"chunks", "numblocks", "npartitions", "chunksize"}


def is_dask_array(value: Any) -> bool:
    """Whether ``value`` is a ``dask.array.Array`` (exactly: a subclass may change what
    its operators do). Imports nothing: without ``dask.array`` loaded there is none."""
    module = sys.modules.get("dask.array")
    cls = getattr(module, "Array", None)
    return cls is not None and type(value) is cls


class DaskArrayVariable(ArrayVariable):
    """A dask array argument: an array of the graph (kind ``DASK``) whose chunking
    attributes (``x.chunks``, ``x.numblocks``...) are constants, pinned by the chunks
    guard. Everything else is an array's behaviour."""

    def __init__(self, node, meta, value: Any, source=None):
        super().__init__(node, meta, source)
        self.chunk_facts = {name: getattr(value, name) for name in _CHUNK_ATTRS}

    def describe(self) -> str:
        return f"dask array {self.meta}"

    def getattr(self, tx, name: str):
        if name in self.chunk_facts:
            return ConstantVariable(self.chunk_facts[name])
        return super().getattr(tx, name)


def wrap_dask_array(tx, value: Any, source: Source | None) -> DaskArrayVariable:
    """A placeholder for the dask array ``value`` read from ``source``, guarded."""
    if source is None:
        raise Unsupported("a dask array with no source (made inside the trace)")
    if any(isinstance(d, float) and math.isnan(d) for d in value.shape):
        raise Unsupported("a dask array with unknown chunk sizes",
                          hint="call x.compute_chunk_sizes() before the compiled function")
    if value.dtype.hasobject:
        raise Unsupported("dask arrays of Python objects are not traced")
    chunk_type = type(getattr(value, "_meta", None))
    if chunk_type is not np.ndarray:
        raise Unsupported(f"a dask array of {chunk_type.__module__}.{chunk_type.__name__} "
                          f"chunks (only NumPy chunks are traced)")
    out = tx.output
    meta = ops.ArrayMeta(tuple(int(d) for d in value.shape), value.dtype, ops.DASK)
    out._check_kind(meta.kind)      # no CuPy array in the same graph
    # (the placeholder's name as OutputGraph's own inputs are named)
    name = source.name().replace("L[", "").replace("G[", "G_").replace("]", "") \
        .replace("'", "").replace(".", "_").replace("[", "_")
    node = out.root_graph.placeholder(name, meta={"array": meta, "source": source,
                                                  "dask_chunks": value.chunks})
    out.example_inputs[node] = value
    out.guards.add(Guard(source, ARRAY, ArraySpec(cls=type(value), dtype=value.dtype,
                                                  shape=meta.shape)))
    out.guards.add(Guard(AttrSource(source, "chunks"), CONSTANT, value.chunks))
    out.guards.add(Guard(AttrSource(source, "_meta"), TYPE, np.ndarray))
    return DaskArrayVariable(node, meta, value, source)


__all__ = ["DaskArrayVariable", "is_dask_array", "wrap_dask_array"]
