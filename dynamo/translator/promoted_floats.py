"""A Python float accumulator carried by a triangular inner loop (issue #23), which
becomes an ``np.float64`` in the loop's first trip::

    for i in range(n):
        s = 0.0                        # a Python float
        for j in range(i):             # no trip at i = 0: s stays 0.0, a float
            s = s + L[i, j] * x[j]     # one trip: np.float64.__radd__, an np.float64
        x[i] = (b[i] - s) / L[i, i]    # b[i] - s: an np.float64 either way; s dead

The inner loop may run no trip, so no trip is unrolled to settle the type
(``triangular_loops``). The node carries ``s`` as ``np.float64(0.0)`` from the start
(``promote``), which is exactly eager's value and type wherever nothing can tell the
two apart. Why that is so, and where it is not:

- the bits: ``np.float64`` is a subclass of ``float`` that overrides the reflected
  operators, so ``0.0 - y`` with ``y`` an ``np.float64`` runs ``np.float64.__rsub__``,
  as ``np.float64(0.0) - y`` runs ``__sub__``: one IEEE float64 operation either way,
  the same bits, an ``np.float64`` result, and NumPy's error handling either way
  (``1.0 / np.float64(0.0)`` warns and gives ``inf``, as ``np.float64(1.0) / ...``).
- what differs is a value that escapes with its type: ``s`` returned, appended,
  printed or formatted with ``repr`` (``0.0`` vs ``np.float64(0.0)``), compared with
  ``is``, a dict key, ``type(s)``; and errors where ``s`` meets a Python number only:
  ``s / 0.0`` raises ZeroDivisionError for a float and warns for an ``np.float64``,
  ``s ** 1e3`` and ``math.exp(s)`` raise OverflowError for a float where NumPy warns.
  So ``s`` may meet nothing but ``np.float64`` values whose type eager has too.

``check_promoted`` (the body): every graph op that reads it is a NumPy scalar ``+``,
``-`` or ``*`` with an ``np.float64`` (``0.0 + y`` is ``np.float64.__radd__``), and
the body's instructions are loads, stores, subscripts, tuples and binary operators
only: no call, comparison or branch could read its type other than through such an op.

``promoted_exits.exit_use_is_exact`` (after the loop, where eager's ``s`` is a float
if the loop ran no trip): every path reads it first as one operand of ``+``, ``-``,
``*`` or ``/`` whose other operand is an element of a float64 NumPy array (an
``np.float64`` in eager too: a divisor that may be 0 divides as NumPy divides in both),
or as the value stored into a float64 array (``out[i] = s``), and ``s`` is dead right
after (or rebound: ``s += A[i, j] * x[j]`` in the first trip of a second inner loop,
Gauss-Seidel's). The result is then the same ``np.float64``, bit for bit, whatever
follows (``np.sqrt`` of it, a store, a division by ``L[i, i]``).

Anything else leaves the loop unrolled, as before (``NotALoopNode``): ``return s``,
``s / 2.0``, ``x[i] = s * 0.5``, ``s`` read again after its first use.

Example::

    >>> dynamo.explain(forward_sub_floats)(L, b).graph_break_count   # the nested node
    0
"""

from __future__ import annotations

import numpy as np

from .. import ops, pyversion
from ..variables import ConstantVariable
from .loop_exits import names
from .loop_facts import NotALoopNode
from .promoted_exits import exit_use_is_exact

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
    op), where the code after the loop cannot tell (``exit_use_is_exact``): name ->
    the new ``ArrayVariable``. Nothing where the body has other instructions."""
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
                exit_use_is_exact(tx, inst, name, stored):
            made[name] = tx.output.call_op(
                ops.get("scalar_cast"), [var, ConstantVariable(np.float64)], {})
            tx.locals[name] = made[name]
    return made


def check_promoted(scope, made: dict) -> None:
    """After the body's trace: each promoted value is read by ``np.float64``
    arithmetic only (else no node; its use after the loop was checked before)."""
    for name, var in made.items():
        p = scope.placeholders.get(id(var))
        if p is None:
            raise NotALoopNode(f"the float {name!r} is not carried by the loop")
        for user in p.users:
            if user.target not in _ARITHMETIC or len(user.args) != 2 or user.kwargs or \
                    not all(_is_float64_scalar(a) for a in user.args):
                raise NotALoopNode(f"the float {name!r} is read other than by np.float64 "
                                   "arithmetic")


def _is_float64_scalar(node) -> bool:
    meta = getattr(node, "meta", {}).get("array")
    return meta is not None and meta.scalar and meta.dtype == np.float64 and \
        meta.kind == ops.NUMPY
