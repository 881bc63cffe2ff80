"""A Python number that an ``if`` on array data chooses, kept in the graph (issue #19):
a counter or a sum kept in a Python loop over elements.

::

    total = 0
    for v in x:                     # (unrolled: x has a static length)
        if float(v) > limit:        # a 0-d bool of the graph decides
            total += 1              # one way: total is 1, the other: 0
    return total                    # -> int(where(flag, 1, 0)), and so on per element

Where both ways of an ``if`` that ``branch_selects`` traces leave a name (or a stack
slot) holding Python numbers of one type, ``int`` or ``float`` (constants, or numbers
the graph computes: an earlier choice, ``float(loss)``), and not the same number, the
graph picks the value: ``np.where(flag, A, B)`` of ``A = np.asarray(a, dtype=np.int64)``
(or float64) and ``B`` likewise, a fresh 0-d int64 or float64 array,
and the name holds the Python number the glue makes of it, an unbacked number
(``graph_numbers.graph_number_of``: ``int(...)`` or ``float(...)`` of the array when
the graph runs). So later arithmetic on it stays in the graph as for ``float(loss)``,
and a use that needs its value while tracing (``if total > 3:``, ``str(total)``)
breaks there, as any unbacked number's use does.

Exact: ``np.where`` of a Python float is that float64, bit for bit (``-0.0`` and NaN
included), and of a Python int that int64; ``float()``/``int()`` of the result give the
very number back, of the type both ways had. A Python int that int64 cannot hold
raises ``OverflowError`` in ``np.asarray``: the nodes are marked as ones that may raise
(``raising.raising_nodes``), so the frame's original code runs instead, as for any
select whose way raises. Numbers of two types (``1`` one way, ``0.5`` the other), a
bool (``found = True``: its identity is the type's), or a graph that takes no unbacked
numbers (a loop node's body, a static-shapes backend) stay the ``if``'s break.

Example::

    >>> select_number(tx, flag, ConstantVariable(1), ConstantVariable(0))
    ConstantVariable(SymInt(ui0))   # the graph: ui0 = int(where(flag, asarray(1, int64),
                                    #                          asarray(0, int64)))
"""

from __future__ import annotations

import numpy as np

from .. import ops
from ..symbolic import SymFloat, SymInt
from ..variables import ArrayVariable, ConstantVariable, Variable
from ..variables.arrays import call_library
from ..variables.conversions import ArrayToPythonVariable
from ..variables.graph_numbers import graph_number_of

# the Python types a way may leave, with the symbolic type that stands for each
_KINDS = {int: SymInt, float: SymFloat}


def number_kind(a: Variable, b: Variable) -> type | None:
    """``int`` or ``float`` where ``a`` and ``b`` are both Python numbers of that one
    type, constants or symbolic (never a bool); None otherwise."""
    kinds = {_kind(v) for v in (a, b)}
    return kinds.pop() if len(kinds) == 1 and None not in kinds else None


def _kind(v: Variable) -> type | None:
    if not isinstance(v, ConstantVariable):
        return None
    for kind, sym in _KINDS.items():
        if type(v.value) is kind or isinstance(v.value, sym):
            return kind
    return None


def select_number(tx, flag, a: Variable, b: Variable, kind: type) -> Variable | None:
    """The number ``a`` where ``flag`` (a 0-d array of the graph) is true, else ``b``:
    a ``ConstantVariable`` of an unbacked number of ``kind``; None where the graph
    cannot hold one (the ``if`` keeps its break)."""
    if not tx.output.shape_env.dynamic.unbacked:
        return None   # (no unbacked numbers: checked before any node is added)
    dtype = np.dtype(np.int64 if kind is int else np.float64)
    # (each number made a 0-d array of its dtype first: ``np.where`` of a Python int
    # past int64 wraps it, 2**63 to -2**63, where ``np.asarray(v, dtype=np.int64)``
    # raises ``OverflowError`` as the graph runs, and the frame reruns: eager's result)
    convert, adapt = ops.lookup_function(np.asarray)
    arrays = [call_library(tx, convert, adapt, [v], {"dtype": ConstantVariable(dtype)})
              for v in (a, b)]
    op, adapter = ops.lookup_function(np.where)
    chosen = call_library(tx, op, adapter, [flag, *arrays], {})
    if chosen.meta.shape != () or chosen.meta.dtype != dtype or \
            any(not isinstance(v, ArrayVariable) for v in arrays):
        return None
    for v in (*arrays, chosen):
        v.node.meta["may_raise"] = True
    number = graph_number_of(tx.output, ArrayToPythonVariable(kind, chosen))
    return number if isinstance(number, ConstantVariable) else None
