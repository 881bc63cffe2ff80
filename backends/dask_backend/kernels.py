"""One fused elementwise computation, run chunk by chunk as one dask ``blockwise`` task.

A ``ChunkKernel`` holds the ops that compute one output of a fusible elementwise group
(the output and the members it reads, in program order) as a *recipe*: the ops with
their arguments, each graph value written as a ``Ref`` to an earlier value. Called on
NumPy chunks it builds the recipe's graph for those chunks' shapes (shapes and dtypes
from the ops' own meta rules), compiles it with the ``numpy`` backend (one thread, no
recycled outputs: dask runs many chunks at once and owns the results) and runs it;
one compile per distinct chunk shape, so a regular chunking compiles a handful.

``apply(values)`` is the call on the graph's values at run time: on dask arrays it
builds one ``dask.array.blockwise`` layer, with the indices dask's own ``elemwise``
uses (arrays aligned from the right, size-1 dimensions broadcast, NumPy arrays
chunked to match), so the result's chunks are the ones the plain program gets; on
NumPy values only (a computation on weights) it runs the kernel once on them.

A kernel pickles as its recipe (no compiled code): a process or distributed
scheduler's worker compiles its own on its first chunk.

Example::

    >>> k = ChunkKernel(group_nodes, output, options={})
    >>> k(np.ones((4, 8), "f4"))                 # one chunk -> the output's chunk
    >>> y = k.apply([x])                          # x a dask array: a lazy dask array
"""

from __future__ import annotations

import itertools
import logging
import threading
import uuid
from dataclasses import dataclass
from typing import Any

import numpy as np

from dynamo import ops
from dynamo.graph import Graph, Node
from dynamo.tree import tree_map

from ..common import python_function
from ..numpy_backend.backend import numpy_backend

log = logging.getLogger("dynamo.backend")
_labels = itertools.count()

# The numpy backend's options for a chunk: dask's scheduler runs chunks in parallel
# (so one thread each), and a chunk handed to dask belongs to dask (so no recycling)
CHUNK_OPTIONS = {"threads": 1, "recycle_outputs": False}


@dataclass(frozen=True)
class Ref:
    """The ``index``-th value of a recipe: its inputs first, then each op's result."""

    index: int


class ChunkKernel:
    """The elementwise ops ``nodes`` (program order, ending with ``output``), fused."""

    def __init__(self, nodes: list[Node], output: Node, options: dict | None = None):
        inside = set(nodes)
        inputs = list(dict.fromkeys(i for n in nodes for i in n.inputs() if i not in inside))
        index = {n: k for k, n in enumerate(inputs + nodes)}
        ref = lambda v: Ref(index[v]) if isinstance(v, Node) else v  # noqa: E731
        self.inputs = inputs                       # graph nodes read, in apply's order
        self.input_dtypes = [n.meta["array"].dtype for n in inputs]
        self.recipe = [(n.target, tree_map(ref, n.args), tree_map(ref, n.kwargs),
                        n.meta.get("kind")) for n in nodes]
        self.meta: ops.ArrayMeta = output.meta["array"]
        self.options = {**(options or {}), **CHUNK_OPTIONS}
        self.label = f"dynamo-{'-'.join(n.target for n in nodes[-3:])}-{next(_labels)}"
        self.uid = uuid.uuid4().hex                # dask's name for this kernel
        self._compiled: dict[tuple, Any] = {}
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ pickling
    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        del state["_compiled"], state["_lock"]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._compiled, self._lock = {}, threading.Lock()

    def __dask_tokenize__(self) -> tuple:
        return ("dynamo.ChunkKernel", self.uid)

    # ------------------------------------------------------------------ one chunk
    def __call__(self, *chunks):
        key = tuple((np.shape(c), isinstance(c, np.generic)) for c in chunks)
        fn = self._compiled.get(key)
        if fn is None:
            with self._lock:             # the threads of one scheduler: compile once
                fn = self._compiled.get(key)
                if fn is None:
                    fn = self._compiled[key] = self._compile(chunks)
        return fn(*chunks)[0]

    def _compile(self, chunks) -> Any:
        """The numpy backend's function for chunks of these shapes (op by op, with a
        warning, if it cannot compile them: the call must not be lost)."""
        graph = self.graph_for(chunks)
        try:
            return numpy_backend(graph, list(chunks), options=self.options)
        except Exception as e:  # noqa: BLE001
            log.warning("dask backend: the numpy backend could not compile %s for chunks "
                        "of shapes %s (%s: %s); they run op by op", self.label,
                        [np.shape(c) for c in chunks], type(e).__name__, e)
            return python_function(graph)

    def graph_for(self, chunks) -> Graph:
        """The recipe as a graph over inputs of the chunks' shapes."""
        graph = Graph()
        values = []
        for k, (chunk, dtype) in enumerate(zip(chunks, self.input_dtypes)):
            meta = ops.ArrayMeta(tuple(np.shape(chunk)), dtype, ops.NUMPY,
                                 isinstance(chunk, np.generic))
            values.append(graph.placeholder(f"in{k}", meta={"array": meta}))
        for target, args, kwargs, kind in self.recipe:
            op = ops.get(target)
            metas = tree_map(lambda v: values[v.index].meta["array"] if isinstance(v, Ref)
                             else v, (args, kwargs))
            node_args = tree_map(lambda v: values[v.index] if isinstance(v, Ref) else v,
                                 (args, kwargs))
            values.append(graph.call(target, *node_args, meta={"array": op.meta(op, *metas),
                                                               "kind": kind}))
        graph.output((values[-1],))
        return graph

    # ------------------------------------------------------------------ the whole array
    def apply(self, values: list) -> Any:
        """The output for the inputs' runtime ``values``: a dask array built of one task
        per chunk when an input is a dask array, else the kernel's result on them."""
        import dask.array as da

        if not any(isinstance(v, da.Array) for v in values):
            return self(*values)
        pairs = []
        for v in values:
            blocked = isinstance(v, da.Array) or (isinstance(v, np.ndarray) and v.ndim > 0)
            pairs += [v, tuple(range(v.ndim))[::-1] if blocked else None]
        ndim = self.meta.ndim
        return da.blockwise(self, tuple(range(ndim))[::-1], *pairs, dtype=self.meta.dtype,
                            meta=np.empty((0,) * ndim, self.meta.dtype), token=self.label)
