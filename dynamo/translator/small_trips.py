"""How much array work one unrolled trip of a loop does: the largest array an op of
the trip computes.

``ControlFlow.check_unroll_budget`` lets a long loop run as Python rather than unroll
into thousands of ops when those ops only touch small arrays: each unrolled op is the
NumPy call the loop makes anyway, and per op the compiled graph costs more than the
plain call on a few hundred elements. The frame's largest array alone cannot tell:
a noise gate that walks a 200,000-sample signal in frames of 256 holds a large array,
but every op of a trip works on 256 elements (781 trips unrolled into 14,000 ops took
minutes to compile and ran at 0.66x plain).

Example::

    # a trip of `seg = x[s:s + 256]; db = 20 * np.log10(np.sqrt(np.mean(seg ** 2)))`
    # and, where `db` is low, `y[s:s + 256] = 0.0` (a select of 256 elements written)
    largest_trip_op(graph.nodes[before:])   # -> 256
"""

from __future__ import annotations

from ..graph import Node
from ..ops.meta import ArrayMeta


def _elements(meta) -> int:
    """Elements of a node's result (the largest of a tuple of results; 0 for none)."""
    if isinstance(meta, ArrayMeta):
        return meta.size
    if isinstance(meta, tuple):
        return max((_elements(m) for m in meta), default=0)
    return 0


def largest_trip_op(nodes, large: int) -> int:
    """The most elements an op of ``nodes`` (one trip's ops) reads or computes. A view
    (``x[s:s + 256]``) counts its result only: it copies nothing of the array it views.
    A write (``kind == "mutation"``: its result is the whole array written into) counts
    the value it writes; a write of a constant, whose region is not at hand, counts as
    ``large`` (it may fill a big slice). Any other op counts its operands as well as
    its result (``A @ v`` of a 400x400 ``A`` reads 160,000 elements for 400)."""
    most = 0
    for node in nodes:
        kind = node.meta.get("kind")
        if kind == "mutation":
            value = node.args[-1] if node.args else None
            most = max(most, _elements(value.meta.get("array")) if isinstance(value, Node)
                       else large)
            continue
        most = max(most, _elements(node.meta.get("array")))
        if kind != "view":
            most = max([most] + [_elements(n.meta.get("array")) for n in node.inputs()])
    return most
