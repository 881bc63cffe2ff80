"""One fused computation, run chunk by chunk as one dask ``blockwise`` task.

A ``ChunkKernel`` holds the ops that compute one output of a fusible group (the output
and the members it reads, in program order) as a *recipe*: the ops with
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

A *row kernel* also holds reductions (softmax's max and sum, layernorm's means: a
``whole_rows`` group of ``backends.fusion``, all reducing the same axes of the same
shape). One task per chunk computes them only when each chunk holds whole rows: the
reduced axes are one chunk wide (``whole(values)``). The dask backend asks first, and
lowers the kernel's ops by dask's tree reductions (``graph_over``) when they are not.

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
from dynamo.ops.node_facts import reduction_info
from dynamo.tree import tree_map

from ..common import python_function
from ..numpy_backend.backend import numpy_code

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
    """The ops ``nodes`` (program order, ending with ``output``), fused: elementwise ops,
    and reductions over the same axes of one shape (a row kernel)."""

    def __init__(self, nodes: list[Node], output: Node, options: dict | None = None):
        inside = set(nodes)
        inputs = list(dict.fromkeys(i for n in nodes for i in n.inputs() if i not in inside))
        index = {n: k for k, n in enumerate(inputs + nodes)}
        ref = lambda v: Ref(index[v]) if isinstance(v, Node) else v  # noqa: E731
        self.inputs = inputs                       # graph nodes read, in apply's order
        self.input_metas: list[ops.ArrayMeta] = [n.meta["array"] for n in inputs]
        self.input_dtypes = [m.dtype for m in self.input_metas]
        self.recipe = [(n.target, tree_map(ref, n.args), tree_map(ref, n.kwargs),
                        n.meta.get("kind")) for n in nodes]
        self.meta: ops.ArrayMeta = output.meta["array"]
        self.out_index, self.reduced, self.adjust = _indices(nodes, output)
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
            return numpy_code(graph, list(chunks), options=self.options)
        except Exception as e:  # noqa: BLE001
            log.warning("dask backend: the numpy backend could not compile %s for chunks "
                        "of shapes %s (%s: %s); they run op by op", self.label,
                        [np.shape(c) for c in chunks], type(e).__name__, e)
            return python_function(graph)

    def graph_for(self, chunks) -> Graph:
        """The recipe as a graph over inputs of the chunks' shapes."""
        return self.graph_over([
            ops.ArrayMeta(tuple(np.shape(chunk)), dtype, ops.NUMPY, isinstance(chunk, np.generic))
            for chunk, dtype in zip(chunks, self.input_dtypes)])

    def graph_over(self, metas: list[ops.ArrayMeta]) -> Graph:
        """The recipe as a graph over inputs of these metas (``self.input_metas``: the
        whole arrays, for the dask backend to lower when the chunks hold no whole rows)."""
        graph = Graph()
        values = [graph.placeholder(f"in{k}", meta={"array": meta})
                  for k, meta in enumerate(metas)]
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
    def whole(self, values: list) -> bool:
        """Whether one task per chunk computes the output from these runtime ``values``:
        always for elementwise ops; for a row kernel, when the reduced axes are one
        chunk wide once dask has unified the inputs' chunks (as ``blockwise`` will)."""
        import dask.array as da
        from dask.array.core import unify_chunks

        if not self.reduced or not any(isinstance(v, da.Array) for v in values):
            return True
        chunks, _ = unify_chunks(*_pairs(values), warn=False)
        return all(len(chunks.get(label, ((),))) == 1 for label in self.reduced)

    def apply(self, values: list) -> Any:
        """The output for the inputs' runtime ``values``: a dask array built of one task
        per chunk when an input is a dask array, else the kernel's result on them.
        (A row kernel's values must be ``whole``: its reductions see one chunk's rows.)"""
        import dask.array as da

        if not any(isinstance(v, da.Array) for v in values):
            return self(*values)
        ndim = self.meta.ndim
        # concatenate: an axis a reduction drops is one chunk wide, given as that chunk
        return da.blockwise(self, self.out_index, *_pairs(values), dtype=self.meta.dtype,
                            meta=np.empty((0,) * ndim, self.meta.dtype), token=self.label,
                            adjust_chunks=self.adjust or None, concatenate=True)


def _pairs(values: list) -> list:
    """``blockwise``'s arguments for ``values``: each array with its indices, aligned
    from the right (index ``k``: the ``k``-th axis from the end), as dask's ``elemwise``
    aligns them; other values with None."""
    import dask.array as da

    pairs = []
    for v in values:
        blocked = isinstance(v, da.Array) or (isinstance(v, np.ndarray) and v.ndim > 0)
        pairs += [v, tuple(range(v.ndim))[::-1] if blocked else None]
    return pairs


def _indices(nodes: list[Node], output: Node) -> tuple[tuple, tuple, dict]:
    """``output``'s ``blockwise`` indices, the indices its reductions reduce, and its
    ``adjust_chunks``.

    Inputs are aligned from the right (``_pairs``). The reductions of a row kernel all
    reduce the same axes of one shape, the kernel's domain, to which every other op
    broadcasts: the output is aligned from the right too, except a reduction without
    ``keepdims``, which drops the reduced indices. Along a reduced index (one chunk
    wide) the output may have one element (``keepdims``, or an op on reduced values
    only): its chunks there are ``(1,)``.
    """
    meta = output.meta["array"]
    index = tuple(range(meta.ndim))[::-1]
    reductions = [n for n in nodes if n.meta.get("kind") == ops.REDUCTION]
    if not reductions:
        return index, (), {}
    ndim = reductions[0].args[0].meta["array"].ndim      # the domain's
    axes = reduction_info(reductions[0]).axes
    reduced = tuple(ndim - 1 - a for a in axes)
    if output in reductions and not reduction_info(output).keepdims:
        index = tuple(ndim - 1 - a for a in range(ndim) if a not in axes)
    adjust = {i: 1 for i, size in zip(index, meta.shape) if i in reduced and size == 1}
    return index, reduced, adjust
