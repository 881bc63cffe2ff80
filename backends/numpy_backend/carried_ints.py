"""A loop node's carried int64 scalar run as a Python int inside the loop.

A Python int that an ``if`` on the data picks on each trip (a running argmin's index,
a counter: ``translator/picked_numbers.py``) is carried by its loop node as an
``np.int64``, and the body's code did NumPy scalar arithmetic with it on every trip
(``np.int64 + 1``, ``np.int64(trip)``: about 3x a Python int's, the loop ran 0.63-0.80x
the plain Python loop, issue #19). Where the scalar is only picked, stepped by Python
int constants and made of the loop's index, the body keeps it as a Python int and
converts once on each side of the loop::

    def forward0_taking(trips, _carried):      def forward0_taking(trips, _carried):
        count, r, = _carried                       count, r, = _carried
        ...                                        count = int(count)
        for trip in range(1, 1 + trips):           for trip in range(1, 1 + trips):
            if ((r[(trip)]) > 0.5):                    if ((r[(trip)]) > 0.5):
                branch_select = (count + 1)    ->          branch_select = (count + 1)
            ...                                        ...
            arg = _scalar_cast((trip), _int64)         arg = (trip)
        return (count, r, )                        return (_int64(count), r, )

Exact, where every value of the chain (``python_ints``) is:

- a carried placeholder of one int64 scalar (dtype int64, shape ``()``, a NumPy scalar)
  whose next trip's value is itself or another value of the chain;
- ``branch_select(flag, a, b)`` of two values of the chain or Python ints: it returns
  one of the two objects, so the value is the one the np.int64 code would have had;
- ``a + c``, ``a - c``, ``c + a`` (``scalar_add``...) of a value of the chain and a
  Python int ``c``: Python's sum equals ``np.int64``'s wherever the latter does not
  overflow, and the translator checks before the node that a counter cannot
  (``leave_picked``: the start plus or minus trips times the steps fits int64);
- ``scalar_cast(i, np.int64)`` of a Python int or an int expression of the body's
  inputs (the loop's index ``trip``): the index of a loop node is its start plus a
  multiple of the trip, both sizes (``LoopScope``: ``as_size``), so within int64;
  and any int that is past int64 still is when it leaves (below).

and every reader of a value of the chain is another of its values or the loop's
hand-over of that slot (the next trip's value, the node's result). The body's code
then never calls NumPy on them; at the end ``_int64(v)`` gives the node's result the
dtype and type the graph says (``np.int64(2**63)`` raises ``OverflowError``, as the
cast would have on the trip it was made, and the frame's own code runs instead).
"""

from __future__ import annotations

import numpy as np

from dynamo.graph import CALL, OUTPUT, PLACEHOLDER, Graph, Node
from dynamo.ops.node_facts import array_meta
from dynamo.symbolic import Sym, SymArg

_INT64 = np.dtype(np.int64)
# ``count + 1`` (the operator on a NumPy scalar: ``scalar_add``; ``np.add`` too)
_STEPS = {"scalar_add": "+", "add": "+", "scalar_subtract": "-", "subtract": "-"}


def _int64_scalar(node: Node) -> bool:
    meta = array_meta(node)
    return meta is not None and meta.dtype == _INT64 and meta.shape == () and \
        bool(getattr(meta, "scalar", False)) and meta.kind == "numpy"


def _int_expr(value) -> bool:
    """A Python int, or an int expression of the body's inputs (``trip + 3``)."""
    return type(value) is int or isinstance(value, SymArg) and isinstance(value.sym, Sym)


def _operands(node: Node) -> list | None:
    """The values of the chain ``node`` reads (None: no form of the chain)."""
    if not _int64_scalar(node) or node.kwargs:
        return None
    if node.op == PLACEHOLDER:
        return [] if node.meta.get("carried") else None
    if node.op != CALL:
        return None
    args = node.args
    if node.target == "branch_select" and len(args) == 3:
        if not all(isinstance(a, Node) or type(a) is int for a in args[1:]):
            return None
        return [a for a in args[1:] if isinstance(a, Node)]
    if node.target in _STEPS and len(args) == 2:
        a, c = args
        if _STEPS[node.target] == "+" and type(a) is int:
            a, c = c, a
        return [a] if isinstance(a, Node) and type(c) is int else None
    if node.target == "scalar_cast" and len(args) == 2 and args[1] is np.int64 and \
            _int_expr(args[0]):
        return []
    return None


def python_ints(graph: Graph) -> frozenset[Node]:
    """The carried int64 scalars of a loop body, and the body's values made of them,
    that its code keeps as Python ints (module docstring); empty where none."""
    placeholders = graph.placeholders
    slots = [p for p in placeholders if p.meta.get("carried")]
    outputs = list(graph.outputs)
    next_of = dict(zip(slots, outputs[:len(slots)]))
    handed = {}   # value -> the slots it is handed over to
    for k, v in enumerate(outputs):
        if isinstance(v, Node):
            handed.setdefault(v, []).append(slots[k] if k < len(slots) else None)
    chain = {n for n in (*placeholders, *graph.nodes) if _operands(n) is not None}
    changed = True
    while changed:
        changed = False
        for n in list(chain):
            ok = all(a in chain for a in _operands(n)) and \
                all(u in chain for u in n.users if u.op != OUTPUT) and \
                all(s is not None and s in chain for s in handed.get(n, ())) and \
                (n not in next_of or next_of[n] is n or next_of[n] in chain)
            if not ok:
                chain.discard(n)
                changed = True
    return frozenset(chain) if any(s in chain for s in slots) else frozenset()


def int_statement(m, node: Node, name_of) -> str | None:
    """The expression for a value of the chain where it differs from NumPy's: the
    index itself for its cast (``(trip)``), Python's ``+``/``-``; None for others."""
    if node.target == "scalar_cast":
        return m.fmt(node.args[0], name_of)
    if node.target in _STEPS:
        a, c = (m.fmt(v, name_of) for v in node.args)
        return f"({a} {_STEPS[node.target]} {c})"
    return None
