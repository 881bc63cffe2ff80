"""A layout the plain path's buffer reuse knows besides C order: gathers along a later axis.

``x[:, idx]`` (one 1-D integer array indexing an axis after the first, every other axis
taken whole) of a C-ordered ``x`` is a new array laid out with the gathered axis
outermost and the others in C order after it: NumPy fills a C-ordered array of shape
``(len(idx), rows)`` and swaps its axes back (checked on NumPy 2.4 for 2-D to 4-D
inputs, every such position, C-contiguous and strided C-ordered inputs, including
lengths 0 and 1). A ufunc whose array operands all have the result's shape and this
same layout returns a new array in it (``K`` order finds one axis order), so it may
write into a dead operand's buffer instead, with eager's strides::

    def box(ii, r0, r1, c0, c1):                 # ii: a C-ordered (401, 401) array
        return ii[r1][:, c1] - ii[r0][:, c1] - ii[r1][:, c0] + ii[r0][:, c0]
    # getitem = (ii[r1])[:, c1]                  layout (1, 0): F order for 2-D
    # subtract = _subtract(getitem, (ii[r0])[:, c1], getitem)     was a fresh array
    # subtract_1 = _subtract(subtract, (ii[r1])[:, c0], subtract)
    # add = _add(subtract_1, (ii[r0])[:, c0], subtract_1)

Plain NumPy cannot elide these temporaries (a gather's result is a view of the
swapped array, not an array owning its data), so each of the three ops allocated and
faulted in a fresh array of the full size: the integral-image box filter of
scripts/realworld_programs6.py ran 0.88-0.93x plain NumPy.

A buffer in such a layout is lent only to an op that is not returned: the caller then
never holds an array whose ``base`` is the gather's internal one (eager's result owns
its data); its strides, values and dtype are eager's either way.
"""

from __future__ import annotations

from dynamo.graph import CALL, Node
from dynamo.ops.node_facts import array_meta, returns_fresh

from .plan import static_shape, uses_out


def permuted(nodes, c_known: dict) -> dict[Node, tuple[tuple, frozenset]]:
    """``node -> (axis order, inputs that must be C-contiguous)`` for the gathers above
    and the ufuncs of them; ``c_known`` is ``reuse.c_ordered``'s answer (the gathered
    array must be C-ordered). Only arrays whose every extent is at least 2 are listed
    (an axis of length 1 leaves NumPy free to give it any stride)::

        >>> permuted(graph.nodes, c_ordered(graph.nodes))[subtract]
        ((1, 0), frozenset({ii}))
    """
    known: dict[Node, tuple[tuple, frozenset]] = {}
    for node in nodes:
        meta = array_meta(node)
        if node.op != CALL or meta is None or meta.scalar or meta.ndim < 2 or \
                not static_shape(meta.shape) or any(int(d) < 2 for d in meta.shape):
            continue
        if node.target == "getitem" and not node.kwargs:
            axis = later_axis_gather(node)
            if axis is not None and node.args[0] in c_known:
                order = (axis, *(a for a in range(meta.ndim) if a != axis))
                known[node] = (order, c_known[node.args[0]])
            continue
        if not (returns_fresh(node) and uses_out(node)) or "order" in node.kwargs:
            continue
        arrays = [a for a in node.inputs() if array_meta(a) is not None
                  and not (array_meta(a).scalar or array_meta(a).ndim == 0)]
        if not arrays or any(a not in known or tuple(array_meta(a).shape) != tuple(meta.shape)
                             for a in arrays):
            continue
        orders = {known[a][0] for a in arrays}
        if len(orders) == 1:
            known[node] = (orders.pop(), frozenset().union(*(known[a][1] for a in arrays)))
    return known


def later_axis_gather(node: Node) -> int | None:
    """The axis ``j >= 1`` of ``x[:, ..., idx, :, ...]`` (``j`` whole axes, one 1-D
    integer array, whole axes), or None for any other index. Such a gather returns a
    new array, never a view of ``x`` (``reuse.private``: a donor like a fresh result)."""
    if node.op != CALL or node.target != "getitem" or node.kwargs or len(node.args) != 2:
        return None
    x, index = node.args[0], node.args[1]
    meta = array_meta(x)
    if meta is None or meta.scalar or not isinstance(index, tuple) or \
            len(index) > meta.ndim or array_meta(node).ndim != meta.ndim:
        return None
    arrays = [j for j, p in enumerate(index) if isinstance(p, Node)]
    if len(arrays) != 1 or arrays[0] < 1:
        return None
    idx = array_meta(index[arrays[0]])
    whole = all(type(p) is slice and p.start is None and p.stop is None and p.step is None
                for j, p in enumerate(index) if j != arrays[0])
    ok = whole and idx is not None and not idx.scalar and idx.ndim == 1 and \
        idx.dtype.kind in "iu"
    return arrays[0] if ok else None
