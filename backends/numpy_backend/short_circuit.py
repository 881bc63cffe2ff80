"""``A & B`` of two NumPy bools as ``(A and B)``: a chained comparison's short circuit.

The translator keeps ``if lo <= x[i] < hi:`` on array data in the graph as the ``&``
of the two links (``translator/size_chains.py``): each trip of a loop node's body then
computed both links and one more NumPy scalar op, where the program tested the second
link only where the first held (a counter in range ran 0.87x the plain loop)::

    if ((-0.5 <= getitem) & (getitem < 0.5)):   ->   if ((-0.5 <= getitem) and (getitem < 0.5)):

Exact, where both operands are NumPy bools of shape ``()``: ``A and B`` is ``A`` where
``A`` is false, else ``B``, an ``np.bool_`` of the value ``A & B`` has either way; and
the second operand is a comparison (``scalar_less``...) of real numbers whose operands
are Python numbers, the graph's inputs or elements of them read at a Python int index
(``x[trip]``: in range on every trip, the loop node checks): nothing it computes can
raise or warn (a comparison with a NaN, even a signaling one, reports nothing), so
skipping it where ``A`` is false is invisible, as the program's own chain skips it.
"""

from __future__ import annotations

from dynamo import ops
from dynamo.graph import CALL, PLACEHOLDER, Node
from dynamo.ops.indexing import getitem
from dynamo.ops.node_facts import array_meta

_COMPARISONS = frozenset({"scalar_less", "scalar_less_equal", "scalar_greater",
                          "scalar_greater_equal", "scalar_equal", "scalar_not_equal"})


def _bool_scalar(value) -> bool:
    meta = array_meta(value) if isinstance(value, Node) else None
    return meta is not None and meta.shape == () and meta.dtype.kind == "b" and \
        bool(getattr(meta, "scalar", False)) and meta.kind == "numpy"


def _silent_operand(value) -> bool:
    """A Python number, an input, or an input's element at a Python int index."""
    if type(value) in (int, float, bool):
        return True
    if not isinstance(value, Node):
        return False
    meta = array_meta(value)
    if meta is None or meta.dtype.kind not in "biuf":
        return False
    if value.op == PLACEHOLDER:
        return True
    return value.op == CALL and ops.get(value.target).impl is getitem and \
        len(value.args) == 2 and not value.kwargs and \
        isinstance(value.args[0], Node) and value.args[0].op == PLACEHOLDER and \
        (type(value.args[1]) is int or hasattr(value.args[1], "graph_expr"))


def and_form(m, node: Node, name_of) -> str | None:
    """``(A and B)`` for ``node``, an ``&`` of that kind (module docstring); else None."""
    if node.op != CALL or node.target != "scalar_bitwise_and" or len(node.args) != 2 or \
            node.kwargs or not _bool_scalar(node) or \
            not all(_bool_scalar(a) for a in node.args):
        return None
    second = node.args[1]
    if second.target not in _COMPARISONS or second.kwargs or \
            not all(_silent_operand(a) for a in second.args):
        return None
    a, b = (m.fmt(v, name_of) for v in node.args)
    return f"({a} and {b})"
