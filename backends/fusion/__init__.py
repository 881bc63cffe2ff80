"""Fusion planning shared by the fusing backends (``numpy`` on the CPU, ``cupy`` on GPUs).

``partition(graph)`` splits a graph's call nodes into ``Group``s, in an order that
respects every data dependency and every in-place write:

- ``elementwise``: a chain (or tree) of elementwise ops over broadcast-compatible
  shapes, evaluated as one loop over ``Group.domain``;
- ``reduction``: one reduction with the elementwise ops that feed only it (prologue)
  and those that consume its result (``Group.epilogue``). With
  ``partition(graph, whole_rows=True)`` a reduction group may instead hold several
  reductions over the same trailing axes and elementwise ops over the whole domain
  that use their ``keepdims=True`` results (softmax, layernorm): a backend that runs
  whole rows at a time evaluates it in one pass over memory;
- ``single``: any other op (matrix products included), run as a plain library call.

Nodes that write into an existing buffer (``out=``, ``setitem``, ``ipow``) or draw
random numbers are never fused with anything: they stay ``single`` groups, and no
group spans one of them, so reads and writes keep eager's order and aliasing.

``fusible`` says what each node is (``is_inplace``, ``fusible_elementwise``,
``reduction_info``, ``COMBINE`` for reductions that combine over blocks).

Example::

    >>> groups = partition(graph)
    >>> [(g.kind, [n.name for n in g.nodes]) for g in groups]
    [('elementwise', ['multiply', 'tanh', 'add']), ('single', ['matmul'])]
    >>> groups[0].domain, groups[0].inputs, groups[0].outputs
    ((1000,), [x], [add])
"""

from dynamo.ops.node_facts import (
           ReductionInfo,
           has_effect,
           is_inplace,
           reduction_info,
           returns_fresh,
)

from .fusible import COMBINE, fusible_elementwise
from .partition import ELEMENTWISE_GROUP, REDUCTION_GROUP, SINGLE, Group, partition

__all__ = ["COMBINE", "ELEMENTWISE_GROUP", "Group", "REDUCTION_GROUP", "ReductionInfo",
           "SINGLE", "fusible_elementwise", "has_effect", "is_inplace", "partition",
           "reduction_info", "returns_fresh"]
