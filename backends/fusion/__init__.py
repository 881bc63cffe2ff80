"""Fusion planning shared by the fusing backends (``numpy`` on the CPU, ``cupy`` on GPUs).

``partition(graph)`` splits a graph's call nodes into ``Group``s, in an order that
respects every data dependency and every in-place write:

- ``elementwise``: a chain (or tree) of elementwise ops over broadcast-compatible
  shapes, evaluated as one loop;
- ``reduction``: one reduction with the elementwise ops that feed only it (prologue)
  and those that consume its result (epilogue);
- ``matmul``: a matrix product with the elementwise ops that follow it;
- ``single``: any other op, run as a plain library call.

Nodes that write into an existing buffer (``out=``, ``setitem``, ``ipow``) are never
fused with anything: they stay ``single`` groups and keep their place in program
order, so aliasing and in-place semantics are exactly eager's.

Example::

    >>> groups = partition(graph)
    >>> [(g.kind, [n.name for n in g.nodes]) for g in groups]
    [('elementwise', ['multiply', 'tanh', 'add']), ('single', ['matmul'])]
"""

from .partition import Group, is_inplace, partition

__all__ = ["Group", "is_inplace", "partition"]
