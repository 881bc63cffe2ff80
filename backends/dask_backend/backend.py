"""The ``dask`` backend: partition the graph, fuse its elementwise groups, lower the rest.

Example::

    >>> fn = dask_backend(graph, example_inputs)      # example_inputs hold dask arrays
    >>> (y,) = fn(x)                                  # y: a lazy dask array
"""

from __future__ import annotations

import logging

from dynamo.graph import Graph, Node
from dynamo.ops import NUMPY, REDUCTION, impl_table

from ..common import Interpreter, python_function
from ..fusion import ELEMENTWISE_GROUP, partition
from ..fusion.fusible import array_meta, has_effect
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
    kernels: dict[Node, ChunkKernel] = {}
    fused: set[Node] = set()
    for group in partition(graph, barrier=_barrier):
        if not _fusible(group):
            continue
        fused.update(group.nodes)
        for out in group.outputs:            # one blockwise layer per value read outside
            cone = _cone(group.nodes, out)
            kernels[out] = ChunkKernel(cone, out, options)
    log.debug("dask backend: %d ops, %d fused into %d chunk kernels", len(calls),
              len(fused), len(kernels))
    return Lowered(graph, kernels, fused - kernels.keys())


dask_backend.dynamic_shapes = True   # symbolic graphs run op by op (dask's own dispatch)
dask_backend.check_options = Options.parse


def _barrier(node: Node) -> bool:
    """Reductions stay out of the fused groups: dask's tree reductions run them."""
    return has_effect(node) or node.meta.get("kind") == REDUCTION


def _fusible(group) -> bool:
    """An elementwise group of more than one op over arrays (one op gains nothing over
    dask's own ``elemwise``, which is that op once per chunk already)."""
    return group.kind == ELEMENTWISE_GROUP and len(group.nodes) > 1 and \
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

    def __init__(self, graph: Graph, kernels: dict[Node, ChunkKernel], skipped: set[Node]):
        self.graph, self.kernels, self.skipped = graph, kernels, skipped
        self.__dynamo_kernels__ = list(kernels.values())

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
            return kernel.apply([self.env[n] for n in kernel.inputs])
        if node in self.lowered.skipped:     # computed inside the kernels that read it
            return None
        return super().call(node)
