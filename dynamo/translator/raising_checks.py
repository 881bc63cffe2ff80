"""A data-dependent jump one of whose ways only raises is a check on the input.

``if np.any(p < 0): raise ValueError(...)``, ``if np.linalg.matrix_rank(X) < d: raise
...`` and ``assert (y >= 0).all()`` choose no computation, so they need not break the
graph: ``defer_check`` makes such a check a ``data_check`` op and traces the way that
does not raise; when the check fails as the graph runs, the frame's original code runs
instead (docs/graph_breaks.md, "Checks on array data"). Where that is not exact (the
graph writes an input, draws random numbers...) the check breaks the graph like any
jump on array data; np.where, the hint of a data-dependent ``if``, cannot express it,
so ``as_a_check`` gives such a break its own reason and hint. The truth value is taken
at the jump (3.11), at ``TO_BOOL`` or at a ``COMPARE_OP`` that converts to bool
(3.13, 3.14): the conditional jump is then the next instruction.

Example::

    >>> # 3.11: ... COMPARE_OP <; POP_JUMP_FORWARD_IF_FALSE L1; LOAD_GLOBAL ValueError;
    >>> #       ... RAISE_VARARGS 1; L1: ...
    >>> as_a_check(insts, jump, Unsupported("truth value of an array ...",
    ...                                     cause="data_dependent")).reason
    'truth value of an array (data-dependent control flow: a check that raises on some data)'
"""

from __future__ import annotations

import numpy as np

from .. import ops
from ..exc import Unsupported
from ..output_graph import PYTHON_EFFECTS
from ..raising import errstate_reports, rerun_on_raise
from ..symbolic import SymInt
from ..variables import ArrayVariable, ConstantVariable
from ..variables.arrays import DeferredNumberVariable

# Breaks of a value the data decides, used as a truth value: an array's truth, a bool
# made from array data (np.allclose), a data-dependent size (len(x[x > 0])).
_DATA_CAUSES = ("data_dependent", "array_to_python", "data_dependent_shape")
_ENDS = ("RETURN_VALUE", "RETURN_CONST", "RERAISE")
_PASS = ("NOT_TAKEN", "UNARY_NOT", "TO_BOOL", "NOP", "CACHE")


def _raises_at(insts, start: int) -> bool:
    """Does the straight-line code from ``start`` end in a ``raise`` (the body of ``if
    bad: raise ValueError(...)`` or of an ``assert``), before any jump or return? A
    forward jump that always jumps is followed: the last test of a chained comparison
    (``assert a == b == 0``) jumps to the ``raise`` its first test also reaches."""
    i, end = start, start + 64
    while i < min(end, len(insts)):
        inst = insts[i]
        if inst.name == "RAISE_VARARGS":
            return True
        if inst.name == "JUMP_FORWARD" and inst.target is not None and inst.target > i:
            i = inst.target
            continue
        if inst.target is not None or inst.name in _ENDS:
            return False
        i += 1
    return False


def _conditional_jump(insts, inst):
    """The conditional jump that decides on the value ``inst`` tests: ``inst`` itself,
    or the jump right after it (``TO_BOOL``, ``COMPARE_OP`` with its bool conversion,
    a ``UNARY_NOT`` between)."""
    i = inst.index
    while i < len(insts):
        here = insts[i]
        if here.name.startswith("POP_JUMP") and "NONE" not in here.name:
            return here
        if i > inst.index and here.name not in _PASS:
            return None
        i += 1
    return None


def as_a_check(insts, inst, error: Unsupported) -> Unsupported:
    """``error`` (the break of a data-dependent truth value at ``inst``), or the same
    break named a check where one way of its jump only raises."""
    if error.cause not in _DATA_CAUSES:
        return error
    jump = _conditional_jump(insts, inst)
    if jump is None or not (_raises_at(insts, jump.index + 1) or
                            _raises_at(insts, jump.target)):
        return error
    # (its explanation and hint: dynamo/hints.py, "a check that raises on some data")
    if error.cause == "data_dependent":
        return Unsupported(f"{error.reason.split(' (')[0]} (data-dependent control flow: a "
                           "check that raises on some data)", cause=error.cause)
    # `assert np.allclose(a, b)`, `if len(x[x < 0]): raise ...`: the value's own reason
    return Unsupported(f"{error.reason.splitlines()[0]} (a check that raises on some data)",
                       cause=error.cause)


def _safe_truth(insts, inst, jump) -> bool | None:
    """The truth of the value tested at ``inst`` that takes the way of ``jump`` that
    does not raise; None unless exactly one way only raises. A ``UNARY_NOT`` between
    (or at ``inst``) flips it."""
    falls_raise, target_raises = _raises_at(insts, jump.index + 1), \
        _raises_at(insts, jump.target)
    if falls_raise == target_raises:
        return None
    jumps_when = "TRUE" in jump.name
    operand = jumps_when if falls_raise else not jumps_when   # (the jump taken, or not)
    flips = sum(i.name == "UNARY_NOT" for i in insts[inst.index:jump.index])
    return operand != (flips % 2 == 1)


def _flag(value):
    """The 0-d array (or NumPy scalar) whose truth the program tests: an array
    (``np.all(p >= 0)``, ``np.isnan(loss)``) or a bool the glue would make
    (``np.allclose(a, b)``); None for anything else (a size, an array of more
    elements, whose truth NumPy may refuse)."""
    if isinstance(value, DeferredNumberVariable) and value.fn is bool:
        value = value.snapshot
    if isinstance(value, ArrayVariable) and value.meta.shape == () and \
            value.meta.dtype.kind in "biufc":
        return value
    return None


def defer_check(tx, inst, value, error: Unsupported) -> bool:
    """The truth to trace on for ``value`` tested at ``inst``: a check one of whose
    ways only raises (``assert np.all(p >= 0)``, ``if np.isnan(loss): raise ...``)
    becomes a ``data_check`` op of the graph (``dynamo/ops/checks.py``), and the trace
    goes on along the way that does not raise. When the graph runs and the check
    fails, the graph raises before the glue replays any Python effect, and the frame's
    original code runs instead (``RerunEagerly``), which raises the program's own
    exception. That is exact only for a graph that may be rerun: it writes no input,
    draws no random number, warns at no Python level, holds no loop node and no
    ``np.errstate`` block that reports conditions (``raising.rerun_on_raise``); and
    such an op after it restarts the trace, which then breaks at the check
    (``WriteGuard.checks``, ``InstructionTranslator.check_restart``). Otherwise ``error`` (named
    a check, ``as_a_check``) is raised: the check is a graph break as before.

    Example::

        >>> # `assert np.all(p >= 0), "negative"` on 3.11: ... CALL np.all;
        >>> # POP_JUMP_FORWARD_IF_TRUE L1; LOAD_ASSERTION_ERROR ...; L1:
        >>> defer_check(tx, jump, np_all_var, error)   # data_check(all, True) added
        True
    """
    jump = _conditional_jump(tx.info.insts, inst) if error.cause in _DATA_CAUSES else None
    truth = None if jump is None else _safe_truth(tx.info.insts, inst, jump)
    flag = _flag(value)
    output, as_break = tx.output, as_a_check(tx.info.insts, inst, error)
    root = _root(tx)
    point, restart = root.check_restart(tx.code, inst.index, as_break)
    if truth is None or flag is None or not tx.config.data_checks or \
            output.loop_scope is not None or \
            output.writes.warns or not rerun_on_raise(output, loops=True) or \
            errstate_reports(output.graph) or point.key in root.break_points:
        raise as_break
    output.graph.call("data_check", (flag.node, truth), {}, meta={
        "array": flag.meta.with_(dtype=np.dtype(np.bool_)), **output.current_loc,
        "kind": ops.OPAQUE, PYTHON_EFFECTS: output.side_effects.pending()})
    output.writes.checks.append(restart)   # (raised by a later write: WriteGuard)
    return truth


def finite_check(tx, array: ArrayVariable, error: Unsupported) -> None:
    """``int(x)`` of a 0-d float array (``int(np.trace(A) // 6)``): Python raises for a
    NaN (``ValueError``) or an infinity (``OverflowError``), and converts any other
    value exactly. The graph checks ``np.isfinite(x)`` (a ``data_check``, as
    ``defer_check`` makes one): when it fails, the graph raises before the glue replays
    any effect and the frame's original code runs instead, raising eager's error at
    eager's line; otherwise the glue converts the snapshot after the graph. Where a
    rerun is not exact (the graph writes an input, draws, warns at Python level...),
    or such an op follows (the restart), ``error`` is raised: the break it was.

        >>> finite_check(tx, snapshot, error)   # adds isfinite, data_check(..., True)
    """
    value_check(tx, lambda: tx.output.call_op(ops.get("isfinite"), [array], {}), error)


def value_check(tx, make_flag, error: Unsupported, passes: bool = True) -> None:
    """``finite_check`` for any 0-d bool ``make_flag()`` the graph computes, ``passes``
    where the value lets the program's next step run without raising (``math.sqrt(s)``:
    ``s < 0`` False, ``math_of_arrays``): a ``data_check`` when the graph runs, and the
    frame's original code where it fails; ``error`` where no such check can be made."""
    output, root = tx.output, _root(tx)
    point, restart = root.check_restart(tx.code, tx.current.index, error)
    if not tx.config.data_checks or output.loop_scope is not None or \
            output.writes.warns or not rerun_on_raise(output, loops=True) or \
            errstate_reports(output.graph) or point.key in root.break_points:
        raise error
    flag = make_flag()
    output.graph.call("data_check", (flag.node, passes), {}, meta={
        "array": flag.meta.with_(dtype=np.dtype(np.bool_)), **output.current_loc,
        "kind": ops.OPAQUE, PYTHON_EFFECTS: output.side_effects.pending()})
    output.writes.checks.append(restart)   # (raised by a later write: WriteGuard)


def size_check(tx, inst, ufunc: str, a, b, error: Unsupported) -> bool | None:
    """``len(x[x < 0]) > 0`` or ``len(a[m]) == len(b[k])`` at ``inst`` (a ``COMPARE_OP``),
    where the jump after it only raises one way (``if ...: raise``, ``assert``): a
    comparison of sizes only the data decides (``error``: it cannot be made while
    tracing) becomes the graph op ``ufunc`` of those sizes, read when the graph runs,
    and that 0-d flag a ``data_check`` (``defer_check``). Returns the truth to trace on;
    None where this is no such check (the caller raises ``error``, as before).

    Example::

        >>> # `assert len(X[X < 0]) == 0, msg` on 3.11: ... CALL len; LOAD_CONST 0;
        >>> # COMPARE_OP ==; POP_JUMP_FORWARD_IF_TRUE L1; LOAD_ASSERTION_ERROR ...
        >>> size_check(tx, compare, "equal", len_var, zero, error)  # equal(u0, 0) checked
        True
    """
    if error.cause != "data_dependent_shape" or not tx.config.data_checks or \
            as_a_check(tx.info.insts, inst, error) is error:
        return None
    if not all(isinstance(v, ConstantVariable) and type(v.value) in (int, SymInt)
               for v in (a, b)):
        return None
    try:
        flag = tx.output.call_op(ops.get(ufunc), [a, b], {})
    except Unsupported:
        return None
    return defer_check(tx, inst, flag, error)


def _root(tx):
    while tx.parent is not None:
        tx = tx.parent
    return tx


def equal_sizes_check(tx, equations: list, error: Unsupported) -> bool:
    """Check in the graph that each ``(a, b)`` of ``equations`` (two sizes the data
    decides, ``SymInt``s: ``ends - starts`` of two ``np.flatnonzero`` results) is equal:
    an ``equal`` of the two and a ``data_check``, as ``defer_check`` makes one, at the
    instruction ``tx`` traces; where it fails when the graph runs, the frame's original
    code runs instead, with eager's result or error (``dynamo/equal_sizes.py``). False
    (nothing added: the op breaks with ``error``, as before) where a rerun would not be
    exact, in a loop node's body, or where the trace already restarted to break here.

        >>> equal_sizes_check(tx, [(SymInt(4197, u1), SymInt(4099, u0))], error)
        True                                   # equal(u1, u0), data_check(..., True)
    """
    output, inst = tx.output, tx.current
    if inst is None or tx.done or not tx.config.data_checks or \
            output.loop_scope is not None or output.writes.warns or \
            not rerun_on_raise(output, loops=True) or errstate_reports(output.graph):
        return False
    root = _root(tx)
    point, restart = root.check_restart(tx.code, inst.index, error)
    if point.key in root.break_points:
        return False
    for a, b in equations:
        flag = output.call_op(ops.get("equal"), [ConstantVariable(a), ConstantVariable(b)], {})
        output.graph.call("data_check", (flag.node, True), {}, meta={
            "array": flag.meta.with_(dtype=np.dtype(np.bool_)), **output.current_loc,
            "kind": ops.OPAQUE, PYTHON_EFFECTS: output.side_effects.pending()})
    output.writes.checks.append(restart)   # (raised by a later write: WriteGuard)
    return True
