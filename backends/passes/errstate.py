"""Drop ``with np.errstate`` from a CuPy graph: CuPy kernels never consult it.

``np.errstate`` sets what NumPy's own loops do on a floating-point error; CuPy eager
ignores it, so a CuPy graph computes the same without ``errstate_enter`` and
``errstate_exit`` (:mod:`dynamo.ops.errstate`), and the ``cupy`` and ``cudagraphs``
backends, whose kernels and recordings know nothing of host state, take it out.

Example::

    def f(x):                                   # x: a CuPy array
        with np.errstate(divide="ignore"):      # errstate_enter, errstate_exit: dropped
            return cp.log(x)
"""

from __future__ import annotations

from dynamo.graph import Graph
from dynamo.ops.errstate import OPS, has_errstate

from .rewrite import rewrite


def without_errstate(graph: Graph) -> Graph:
    if not has_errstate(graph):
        return graph
    return rewrite(graph, lambda rw, node: node.target in OPS)
