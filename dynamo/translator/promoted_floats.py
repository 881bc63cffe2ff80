"""A Python float accumulator carried by a triangular inner loop (issue #23), which
becomes an ``np.float64`` in the loop's first trip::

    for i in range(n):
        s = 0.0                        # a Python float
        for j in range(i):             # no trip at i = 0: s stays 0.0, a float
            s = s + L[i, j] * x[j]     # one trip: np.float64.__radd__, an np.float64
        out[i] = s                     # stored, then dead (s = 0.0 again)

The inner loop may run no trip, so no trip is unrolled to settle the type
(``triangular_loops``). The node carries ``s`` as ``np.float64(0.0)`` from the start
(``promote``), which is exactly eager's value and type wherever nothing can tell the
two apart (``check_promoted``):

- in the body, every op that reads it (the graph's) is a NumPy scalar ``+``, ``-`` or
  ``*`` with an ``np.float64`` (``0.0 + y`` is ``np.float64.__radd__``, the very
  ``np.float64(0.0) + y``), and the body's instructions are loads, stores, subscripts,
  tuples and binary operators only: no call, comparison or branch could read its type
  other than through such an op;
- after the loop (where eager's ``s`` is a float if the loop ran no trip), it is read
  once, as the value of ``array[key] = s`` into a float64 array (the same float64
  stored either way), and is dead after that store.

Anything else leaves the loop unrolled, as before (``NotALoopNode``).

Example::

    >>> dynamo.explain(triangular_lower)(L, x).graph_break_count   # the nested node
    0
"""

from __future__ import annotations

import numpy as np

from .. import ops, pyversion
from ..variables import ArrayVariable, ConstantVariable
from .loop_body_state import dead_after
from .loop_exits import names
from .loop_facts import NotALoopNode

# the instructions of an inner body that cannot look at a value's type other than
# through a graph op (a call, a comparison, a branch could: ``type(s)``, ``s == 0``)
_LOADS = set(pyversion.LOCAL_LOADS) - {"STORE_FAST_LOAD_FAST"} | \
    {"LOAD_CONST", "LOAD_SMALL_INT"}
_PLAIN = _LOADS | set(pyversion.SUPER_INSTRUCTIONS) | {
    "STORE_FAST", "BINARY_SUBSCR", "BUILD_TUPLE", "BINARY_OP", "STORE_SUBSCR",
    "JUMP_BACKWARD", "NOP", "CACHE", "EXTENDED_ARG"}
_ARITHMETIC = {"scalar_add", "scalar_subtract", "scalar_multiply"}


def promote(tx, inst) -> dict:
    """Before the inner loop at ``inst``: each local the body reads before it stores
    it (a carried value) that holds a Python float, as ``np.float64`` of it (a graph
    op), where its use after the loop is one store into an array (``_stored_once``):
    name -> the new ``ArrayVariable``. Nothing where the body has other instructions."""
    insts = tx.info.insts
    body = insts[inst.index + 1:inst.target]
    if any(i.name not in _PLAIN for i in body):
        return {}
    stored = {n for i in body if i.name.startswith("STORE_FAST") for n in names(i.arg)}
    carried = stored - tx.info.written_first(inst.index)
    made = {}
    for name in sorted(carried):
        var = dict.get(tx.locals, name)
        if isinstance(var, ConstantVariable) and type(var.value) is float and \
                _stored_once(tx, inst, name) is not None:
            made[name] = tx.output.call_op(
                ops.get("scalar_cast"), [var, ConstantVariable(np.float64)], {})
            tx.locals[name] = made[name]
    return made


def check_promoted(scope, made: dict) -> None:
    """After the body's trace: each promoted value is read by ``np.float64``
    arithmetic only, and stored into a float64 array after the loop (else no node)."""
    for name, var in made.items():
        p = scope.placeholders.get(id(var))
        if p is None:
            raise NotALoopNode(f"the float {name!r} is not carried by the loop")
        for user in p.users:
            if user.target not in _ARITHMETIC or len(user.args) != 2 or user.kwargs or \
                    not all(_is_float64_scalar(a) for a in user.args):
                raise NotALoopNode(f"the float {name!r} is read other than by np.float64 "
                                   "arithmetic")
        target = _stored_once(scope.tx, scope.inst, name)
        array = dict.get(scope.tx.locals, target) if target else None
        if not isinstance(array, ArrayVariable) or array.meta.scalar or \
                array.meta.dtype != np.float64 or array.meta.kind != ops.NUMPY:
            raise NotALoopNode(f"the float {name!r} is used after a loop that may run no "
                               "trip")


def _is_float64_scalar(node) -> bool:
    meta = getattr(node, "meta", {}).get("array")
    return meta is not None and meta.scalar and meta.dtype == np.float64


def _stored_once(tx, inst, name: str) -> str | None:
    """The array local ``a`` where the code right after the loop at ``inst`` is
    ``a[key] = name`` (loads only, ``name`` first and once) and ``name`` is dead after
    it; None for any other code."""
    insts = tx.info.insts
    if inst.target is None:
        return None
    k = inst.target + pyversion.FOR_ITER_EXIT_SKIP   # (the first instruction run after)
    if not pyversion.FOR_ITER_EXIT_POPS and insts[k].name == "POP_ITER":
        k += 1
    loaded = []
    while k < len(insts) and insts[k].name in _LOADS:
        loaded += list(names(insts[k].arg)) if insts[k].name in pyversion.LOCAL_LOADS \
            else [None]
        k += 1
    if k >= len(insts) or insts[k].name != "STORE_SUBSCR" or len(loaded) != 3 or \
            loaded[0] != name or loaded[1] in (None, name) or loaded[2] == name or \
            name not in dead_after(tx, k + 1):
        return None
    return loaded[1]
