"""``np.where`` of one condition between two scalars, as a Python choice.

Python's ``max(x, 0.0)`` / ``min(1.0, r)`` of a NumPy scalar (and the program's own
``np.where(c, a, b)[()]`` of scalars) is the graph's ``where(cond, a, b)[()]``
(dynamo/variables/iteration.py, ``_select``). On scalars ``np.where`` is mostly
overhead: it makes three 0-d arrays, a result array and a scalar out of it, 1.5-4 us a
call where the program's ``max`` took 0.3 us. A coordinate-descent sweep does that
once per coordinate, and ran 0.83x of plain NumPy for it.

When every reader of the ``where`` takes its scalar (``[()]``, or its Python number:
``int(where)``, a picked number's first trip), the result array itself is never
seen: its value is one of the two operands, cast to the result dtype.
The same holds where the ``where`` is only the value a ``setitem`` stores (``x[i] =
where(flag, v, x[i])``: the element stored is the operand chosen). Where both operands
already have that dtype (graph values of shape ``()``, NumPy
scalars or 0-d arrays, whose ``[()]`` is the same scalar) or are Python numbers that
dtype holds exactly (converted once, at compile time), choosing the operand is the
same value, dtype and type::

    _where((0.0 > s), 0.0, s)[()]    ->    _pick((0.0 > s), _float64_0, s)[()]

``pick`` is a function, not ``a if c else b``: its arguments are evaluated in order,
as ``np.where``'s are, so a value written into the statement (inline.py) runs where
it did. Where neither operand is such a value (both named or constants), the
conditional expression ``(a if c else b)`` evaluates the same without a call (50-80
ns a trip of a scalar loop)::

    _where((0.0 > s), 0.0, s)[()]    ->    (_float64_0_0 if (0.0 > s) else s)[()]

An ``if`` that the graph holds as a write's choice (``x[i] = where(flag, v, x[i])``)
is written back as that ``if`` by ``select_code.py``. The condition must be boolean
(NumPy's truth of a bool scalar is the value ``where`` reads); anything else stays
``np.where``.

Example::

    >>> pick(np.False_, np.float64(0.0), np.float64(-0.25))
    np.float64(-0.25)
"""

from __future__ import annotations

import warnings

import numpy as np

from dynamo import ops
from dynamo.graph import CALL, Node
from dynamo.ops.data_sizes import sym_number
from dynamo.ops.indexing import getitem
from dynamo.ops.node_facts import array_meta
from dynamo.tree import tree_leaves

from .inline import pending_in


def pick(cond, a, b):
    """``np.where(cond, a, b)[()]`` for a boolean scalar ``cond`` and operands that
    already have the result's dtype."""
    return a if cond else b


def _chooses(node: Node) -> bool:
    """A scalar ``where`` of a boolean condition, read only as a scalar: it is written
    as a choice between its operands (``select_form``), if they allow."""
    if node.target != "where" or len(node.args) != 3 or node.kwargs \
            or ops.get("where").impl is not np.where:
        return False
    meta = array_meta(node)
    if meta is None or meta.shape != () or meta.kind != "numpy" or not node.users \
            or not all(_takes_scalar(user, node) for user in node.users):
        return False
    return boolean_flag(node.args[0])


def select_form(m, node: Node, name_of) -> str | None:
    """``_pick(cond, a, b)`` for a scalar ``where`` read only as a scalar, or None."""
    if not _chooses(node):
        return None
    meta = array_meta(node)
    cond, a, b = node.args
    parts = [operand_of(m, v, meta.dtype, name_of) for v in (a, b)]
    if None in parts:
        return None
    if not any(pending_in(p) for p in parts):
        # (both operands already computed, by name: Python's conditional expression
        # evaluates the same, without a call, 50-80 ns a trip)
        return f"({parts[0]} if {m.fmt(cond, name_of)} else {parts[1]})"
    fn = m.bind(pick, "pick")
    return f"{fn}({m.fmt(cond, name_of)}, {parts[0]}, {parts[1]})"


def scalar_already(node) -> bool:
    """Whether ``node[()]`` is ``node`` itself, for a ``where`` written as a choice
    (``select_form``) whose operands are both NumPy scalars of its dtype (``D[i, j]``
    of a 2-D array; a Python number, bound as that dtype's scalar): the choice is
    one of them, and a NumPy scalar's ``[()]`` is the same scalar, so the ``[()]``
    is left out. It cost 60 ns a trip, twice a trip in an edit-distance table's
    ``min`` of three neighbours (issue #15: 63 ms against plain NumPy's 45 ms)::

        (D_up if (D_up < D_left) else D_left)[()]   ->   (D_up if (D_up < D_left) else D_left)

    A 0-d array operand keeps the ``[()]`` (it makes the scalar the program got)."""
    if not isinstance(node, Node) or not _chooses(node):
        return False
    dtype = array_meta(node).dtype
    for value in node.args[1:]:
        if isinstance(value, Node):
            meta = array_meta(value)
            if meta is None or not meta.scalar or meta.dtype != dtype or meta.shape != ():
                return False
        elif type(value) not in (bool, int, float):
            return False
    # (Python numbers: operand_of binds them as ``dtype.type(value)`` or refuses them,
    # and then the ``where`` is not written as a choice at all)
    return all(operand_of(_NoBind, v, dtype, str) is not None for v in node.args[1:])


class _NoBind:
    """A module stand-in for ``operand_of``'s checks alone (nothing is bound)."""

    @staticmethod
    def bind(value, name):
        return name

    @staticmethod
    def fmt(value, name_of):
        return "v"


def _takes_scalar(user: Node, node: Node) -> bool:
    """``node[()]`` and nothing else: the 0-d result array is never seen. Or the value
    ``x[i] = node`` stores (issue #19's ``x[i] = where(flag, v, x[i])`` per trip of a
    loop node, ``translator/select_writes.py``): NumPy stores the 0-d array's element,
    which is the chosen operand, of the result's dtype already. Or an operand (not the
    condition) of another scalar ``where`` of its dtype (an ``elif`` that writes: its
    choice is the outer choice's operand), whose readers take a scalar too: a NumPy
    scalar and a 0-d array of one dtype choose and promote alike (NEP 50)."""
    if user.op == CALL and user.target == "setitem" and len(user.args) == 3 and \
            not user.kwargs and user.args[2] is node and \
            all(a is not node for a in tree_leaves(user.args[:2])):
        return True
    if user.op == CALL and user.target == "where" and len(user.args) == 3 and \
            not user.kwargs and user.args[0] is not node and node in user.args[1:]:
        meta, mine = array_meta(user), array_meta(node)
        return meta is not None and mine is not None and meta.shape == () and \
            meta.dtype == mine.dtype and meta.kind == "numpy" and \
            all(_takes_scalar(u, user) for u in user.users)
    if user.op == CALL and user.target == "sym_number" and len(user.args) == 2 and \
            not user.kwargs and user.args[0] is node and user.args[1] in ("int", "float"):
        # (``int(where)``: a picked number's first trip, translator/picked_numbers.py;
        # the Python number of the chosen operand, which has the result's dtype)
        return ops.get(user.target).impl is sym_number
    return (user.op == CALL and ops.get(user.target).impl is getitem and len(user.args) == 2
            and user.args[0] is node and type(user.args[1]) is tuple and not user.args[1]
            and not user.kwargs)


def boolean_flag(cond) -> bool:
    """A boolean of shape ``()``: a graph value or a Python bool."""
    if isinstance(cond, Node):
        meta = array_meta(cond)
        return meta is not None and meta.shape == () and meta.dtype == np.bool_ \
            and meta.kind == "numpy"
    return type(cond) is bool


def operand_of(m, value, dtype: np.dtype, name_of) -> str | None:
    """Source for an operand that is already ``dtype``'s: a graph value of shape ``()``
    and that dtype, or a Python number the dtype holds exactly (bound converted)."""
    if isinstance(value, Node):
        meta = array_meta(value)
        ok = meta is not None and meta.shape == () and meta.dtype == dtype \
            and meta.kind == "numpy"
        return m.fmt(value, name_of) if ok else None
    if type(value) not in (bool, int, float) or dtype.kind not in "biuf":
        return None
    if type(value) is not bool and dtype.kind == "b":
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            typed = dtype.type(value)
    except (OverflowError, ValueError, RuntimeWarning, TypeError):
        return None
    # exactly the number (compared as Python numbers: np.float32(0.1) == 0.1 is True,
    # by the same conversion), and -0.0 stays -0.0
    if typed.item() != value or (type(value) is float
                                 and bool(np.signbit(typed)) != np.signbit(value)):
        return None
    return m.bind(typed, f"{dtype.name}_{value!r}")
