"""What a node is, for fusion: a fusible elementwise op (the other node facts, in-place,
effects, reductions' parameters, live in ``dynamo/ops/node_facts.py``).

Example::

    >>> fusible_elementwise(tanh_node), fusible_elementwise(setitem_node)
    (True, False)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dynamo import ops
from dynamo.graph import CALL, Node
from dynamo.ops import ELEMENTWISE
from dynamo.ops.node_facts import FRESH_ELEMENTWISE, NUMERIC_KINDS, array_meta, is_inplace

# Reductions whose partial results over blocks combine into the whole result (with this
# ufunc's reduce); mean combines as a sum divided by the count.
COMBINE = {"sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum,
           "any": np.logical_or, "all": np.logical_and, "mean": np.add}

def _plain_value(v: Any) -> bool:
    """A literal argument a fused loop can pass through unchanged."""
    return isinstance(v, (bool, int, float, complex, str, type(None), np.generic, np.dtype,
                          type))


def fusible_elementwise(node: Node) -> bool:
    """An elementwise op with a fresh array result that can run block by block.

    Its result is an array (not a NumPy scalar, not 0-d) of a numeric dtype; its
    arguments are nodes holding one array or scalar each, or plain literals.
    """
    if node.op != CALL or node.meta.get("kind") != ELEMENTWISE or is_inplace(node):
        return False
    op = ops.REGISTRY.get(node.target)
    if op is None or op.nout != 1:
        return False
    if not (isinstance(op.impl, np.ufunc) or node.target in FRESH_ELEMENTWISE):
        return False
    if isinstance(op.impl, np.ufunc) and len(node.args) != op.impl.nin:
        return False
    meta = array_meta(node)
    if meta is None or meta.scalar or meta.ndim == 0 or meta.dtype.kind not in NUMERIC_KINDS:
        return False
    if node.kwargs.get("copy", True) is False or "where" in node.kwargs:
        return False  # copy=False may return its input itself: an alias, not a block
    for arg in (*node.args, *node.kwargs.values()):
        if isinstance(arg, Node):
            m = array_meta(arg)
            if m is None or m.dtype.kind not in NUMERIC_KINDS:
                return False
        elif not _plain_value(arg):
            return False
    return True


