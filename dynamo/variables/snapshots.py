"""The snapshot a deferred Python number is made from (``int(x)``, ``float(x)``,
``x.item()`` of a traced 0-d value: ``DeferredNumberVariable``).

The glue makes the number after the graph has run, from a value the graph holds: so
the graph must hold ``x`` *as it was* where the program converted. A 0-d *array* is
mutable (``a[...] = 5`` after ``k = int(a)`` must not change ``k``): it is copied
(``np.copy``, a new 0-d array only the conversion reads). A NumPy *scalar*
(``np.argmin(d)``, ``idx[k]`` of a 1-D array, ``x.sum()``: ``meta.scalar``) is
immutable: nothing the program does can change it, so it is its own snapshot. That
spares a loop node a ``np.copy`` per trip and the ``copy[()]`` read at each use as an
index (``u = int(np.argmin(d)); sums[u] += X[i]``): on the eager backend, which runs
no passes, those cost more than the Python loop the node replaces (issue #15;
``backends/passes/scalar_reads.py`` drops the same copy for the numpy backend)::

    >>> snapshot(tx, argmin)            # argmin = np.argmin(d): an np.intp scalar
    argmin                              # itself: no copy node
    >>> snapshot(tx, zero_d)            # a 0-d array
    copy                                # ops.copy(zero_d)
"""

from __future__ import annotations

from .. import ops
from ..graph import CALL


def snapshot(tx, array):
    """``array`` as it is now, for a number the glue makes after the graph: a NumPy
    scalar the graph computes itself (immutable), else a new copy (see the module
    docstring). A scalar the graph takes as an input is copied too: the glue reads a
    snapshot as a graph output, which an input is not (``float(s) * 0.5`` of an
    ``np.float64`` argument ``s``)."""
    if array.meta.scalar and array.meta.kind == ops.NUMPY and array.node.op == CALL:
        return array   # (an input is no graph output the glue could read: copied)
    return tx.output.call_op(ops.get("copy"), [array], {})
