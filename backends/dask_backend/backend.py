"""The ``dask`` backend: partition the graph, fuse its groups, lower the rest.

The graph is partitioned as the numpy backend partitions it (``whole_rows``): a
softmax or a layernorm over the last axis is one group with its reductions, and each
of its outputs one ``ChunkKernel``. At run time such a row kernel is one task per
chunk when the chunks hold whole rows (the reduced axes one chunk wide: no tree
reduction is needed, and the chunk's rows are reduced exactly as NumPy reduces them,
which is what dask computes too); otherwise its ops are lowered again without it
(``Lowered.by_blocks``): elementwise groups fused, reductions dask's own.

Example::

    >>> fn = dask_backend(graph, example_inputs)      # example_inputs hold dask arrays
    >>> (y,) = fn(x)                                  # y: a lazy dask array
"""

from __future__ import annotations

import logging

import numpy as np

from dynamo.graph import Graph, Node
from dynamo.ops import NUMPY, REDUCTION, impl_table
from dynamo.ops.node_facts import array_meta, has_effect, reduction_info

from ..common import Interpreter, python_function
from ..fusion import ELEMENTWISE_GROUP, REDUCTION_GROUP, partition
from ..numpy_backend.options import Options
from ..numpy_backend.sizes import is_symbolic
from .kernels import ChunkKernel

log = logging.getLogger("dynamo.backend")


def dask_backend(graph: Graph, example_inputs, options: dict | None = None):
    """A function that runs ``graph`` on dask arrays (and NumPy values) lazily.

    ``options`` are the ``numpy`` backend's, for the kernels it compiles per chunk
    (``threads`` is always 1 there: dask's scheduler runs the chunks in parallel).
    A graph with effects (writes into arrays, random draws, ``np.errstate``) or with
    symbolic sizes runs op by op: the same NumPy calls on the same values, which dask
    implements, in program order, as the plain program runs them.
    """
    Options.parse(options)          # a bad option fails here, as for backend="numpy"
    calls = graph.call_nodes()
    if is_symbolic(graph) or any(has_effect(n) for n in calls):
        log.debug("dask backend: a graph with effects or symbolic sizes runs op by op")
        return python_function(graph)
    return _lower(graph, options, whole_rows=True)


dask_backend.dynamic_shapes = True   # symbolic graphs run op by op (dask's own dispatch)
dask_backend.check_options = Options.parse


def _lower(graph: Graph, options: dict | None, whole_rows: bool) -> Lowered:
    """``graph`` (no effects, static sizes) as chunk kernels and dask's own ops.

    ``whole_rows``: row kernels too (reductions fused with the elementwise ops around
    them, ``_row_reduction``); without it every reduction is dask's own.
    """
    kernels: dict[Node, ChunkKernel] = {}
    fused: set[Node] = set()
    barrier = _row_barrier if whole_rows else _barrier
    for group in partition(graph, whole_rows=whole_rows, barrier=barrier):
        if not _fusible(group):
            continue
        fused.update(group.nodes)
        for out in group.outputs:            # one blockwise layer per value read outside
            cone = _cone(group.nodes, out)
            kernels[out] = ChunkKernel(cone, out, options)
    log.debug("dask backend: %d ops, %d fused into %d chunk kernels", len(graph.call_nodes()),
              len(fused), len(kernels))
    return Lowered(graph, kernels, fused - kernels.keys(), options)


def _barrier(node: Node) -> bool:
    """Reductions stay out of the fused groups: dask's tree reductions run them."""
    return has_effect(node) or node.meta.get("kind") == REDUCTION


def _row_barrier(node: Node) -> bool:
    """Only the reductions a row kernel may hold join groups; the others are dask's."""
    return has_effect(node) or (node.meta.get("kind") == REDUCTION and
                                not _row_reduction(node))


# Reductions that dask computes over an axis of one chunk exactly as NumPy does on
# that chunk: its chunk step is the NumPy reduction (keepdims) and its aggregate step
# an identity on one partial result (a sum, product, max... of one element; a mean's
# total divided by the count). var, std, argmax, argmin and ptp are dask's own
# algorithms (moments, index pairs), not NumPy's: they stay dask's.
ROW_REDUCTIONS = frozenset({"sum", "prod", "max", "min", "any", "all", "mean"})


def _row_reduction(node: Node) -> bool:
    """A reduction a row kernel may hold: one of ``ROW_REDUCTIONS`` over some axes
    (not all: a 0-d result is a whole-array reduction, dask's), and no float16 mean
    (NumPy sums float16 in float32 for it, dask in float16)."""
    info = reduction_info(node)
    if info is None or node.target not in ROW_REDUCTIONS:
        return False
    if len(info.axes) == array_meta(node.args[0]).ndim:
        return False
    dtypes = (array_meta(node.args[0]).dtype, array_meta(node).dtype, info.dtype)
    return node.target != "mean" or all(d is None or np.dtype(d) != np.float16
                                        for d in dtypes)


def _fusible(group) -> bool:
    """An elementwise group, or a row group (reductions with the elementwise ops around
    them), of more than one op over arrays (one op gains nothing over dask's own
    ``elemwise`` or reduction, which is that op once per chunk already)."""
    return group.kind in (ELEMENTWISE_GROUP, REDUCTION_GROUP) and len(group.nodes) > 1 and \
        all(array_meta(n) is not None for n in group.inputs + group.nodes)


def _cone(members: list[Node], output: Node) -> list[Node]:
    """The members ``output`` is computed from (itself included), in program order."""
    inside, need, stack = set(members), {output}, [output]
    while stack:
        for inp in stack.pop().inputs():
            if inp in inside and inp not in need:
                need.add(inp)
                stack.append(inp)
    return [n for n in members if n in need]


class Lowered:
    """``fn(*inputs) -> tuple``: the graph on this call's values, each fused output by
    its kernel (one dask layer), every other op by its NumPy implementation (which
    dispatches to dask for dask arrays)."""

    def __init__(self, graph: Graph, kernels: dict[Node, ChunkKernel], skipped: set[Node],
                 options: dict | None = None):
        self.graph, self.kernels, self.skipped = graph, kernels, skipped
        self.options = options
        self.__dynamo_kernels__ = list(kernels.values())
        self._by_blocks: dict[ChunkKernel, Lowered] = {}

    def by_blocks(self, kernel: ChunkKernel) -> Lowered:
        """``kernel``'s ops lowered without row kernels, for chunks that hold no whole
        rows: its elementwise groups fused, its reductions dask's tree reductions."""
        lowered = self._by_blocks.get(kernel)
        if lowered is None:             # (two calls in parallel may both build it: same)
            graph = kernel.graph_over(kernel.input_metas)
            lowered = self._by_blocks[kernel] = _lower(graph, self.options, whole_rows=False)
        return lowered

    def __call__(self, *args) -> tuple:
        return _Run(self).run(*args)


class _Run(Interpreter):
    """One call of a ``Lowered`` graph (its own ``env``: calls may run in parallel)."""

    def __init__(self, lowered: Lowered):
        super().__init__(lowered.graph, impl_table(NUMPY))
        self.lowered = lowered

    def call(self, node: Node):
        kernel = self.lowered.kernels.get(node)
        if kernel is not None:
            values = [self.env[n] for n in kernel.inputs]
            if kernel.whole(values):
                return kernel.apply(values)
            (value,) = self.lowered.by_blocks(kernel)(*values)
            return value
        if node in self.lowered.skipped:     # computed inside the kernels that read it
            return None
        return super().call(node)
