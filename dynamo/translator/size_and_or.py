"""``and`` / ``or`` of two size comparisons, kept in the graph (issue #19).

::

    def both_kept(x, y):
        a, b = x[x > 0], y[y > 0]
        return len(a) > 0 and len(b) > 0      # (u0 > 0) & (u1 > 0): one sym_truth node

``len(a) > 0`` of a data-dependent size is a bool only the graph knows
(``SizeTruthVariable``, ``variables/size_values.py``). Python's ``and`` returns one of
its operands: the left one where it is false, else the right one. Where both are
bools that is ``a & b`` (``or``: ``a | b``), which the graph computes as it does for
``&`` (``size_values.truth_logic``). The one difference is that Python does not
evaluate the right operand when the left decides, so the right operand is traced
first on its own and kept only where evaluating it always is invisible:

- its instructions only load, call, compare and compute (``_ALLOWED``): no store, no
  jump back, no ``raise``, no ``yield``;
- tracing it changed no Python state (``branch_selects._State.changed``) and added no
  graph op but the int and bool nodes of sizes (``_PURE``) and ops that cannot raise,
  warn or write (``signals.may_signal``: those dead-code elimination drops, a quiet
  comparison of ints, ``labels > 0``), so running it when Python would not shows nothing;
- its value is a bool (another size comparison, or a Python bool); ``n > 0 and
  len(b)`` returns an int, which no graph bool stands for.

Anything else keeps the break the jump had ("a data-dependent size ... used as a
Python value: a comparison"): the trace's state is put back, and where the attempt
added nodes the root frame's ``step`` starts the trace over and breaks at the jump.

The bytecode differs by version: 3.11 has ``JUMP_IF_FALSE_OR_POP L; <b>; L:``; 3.12+
``COPY 1; [TO_BOOL;] POP_JUMP_IF_FALSE L; POP_TOP; <b>; L:``, and 3.14 puts its
``NOT_TAKEN`` between the jump and the ``POP_TOP`` (``pyversion.NOT_TAKEN_AFTER_BRANCH``;
``copied_operand``).

    >>> # 3.11, at JUMP_IF_FALSE_OR_POP with (u0 > 0) on the stack:
    >>> short_circuit(tx, tx.stack[-1], inst.index + 1, inst.target, "bitwise_and")
    True                                       # tx.ip is the target, the stack holds
                                               # (u0 > 0) & (u1 > 0)
"""

from __future__ import annotations

from .. import pyversion
from ..graph import CALL
from ..ops.signals import may_signal
from ..variables import ConstantVariable
from ..variables.size_values import SizeTruthVariable, truth_logic
from .base import TranslatorBase
from .branch_selects import NotASelect, _read_arguments, _State

# Instructions the right operand may hold: loads, calls and arithmetic, whose effects
# (if any: a called function's writes) ``_State.changed`` sees; and the jumps of a
# longer chain (``a and b and c``), which this module handles again, forward only.
# (3.14 loads locals with LOAD_FAST_BORROW: ``pyversion.LOCAL_LOADS``.)
_ALLOWED = frozenset({
    "LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_LOAD_FAST", "LOAD_FAST_BORROW",
    "LOAD_FAST_BORROW_LOAD_FAST_BORROW", "LOAD_CONST", "LOAD_SMALL_INT",
    "LOAD_DEREF", "LOAD_GLOBAL", "LOAD_ATTR", "LOAD_METHOD", "PUSH_NULL", "PRECALL",
    "CALL", "COMPARE_OP", "BINARY_OP", "BINARY_SUBSCR", "UNARY_NOT", "UNARY_NEGATIVE",
    "TO_BOOL", "COPY", "POP_TOP", "CACHE", "NOP", "NOT_TAKEN",
    "JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP", "POP_JUMP_IF_FALSE",
    "POP_JUMP_IF_TRUE", "POP_JUMP_FORWARD_IF_FALSE", "POP_JUMP_FORWARD_IF_TRUE"})
# Graph ops the right operand may add: the ints and bools the graph computes from
# sizes (``sym_int`` of ``max(n, 1)``, ``sym_truth`` of a comparison), and the sizes
# read off arrays; none raises, warns or writes.
_PURE = frozenset({"sym_truth", "sym_int", "sym_size"})
# Steps the right operand may take, at most (a long one is no comparison).
_MAX_STEPS = 200
_NAMES = {"and": "bitwise_and", "or": "bitwise_or"}
# What follows the jump of an ``and``/``or`` (3.12+) before the right operand: the
# POP_TOP of the copied left operand, after 3.14's NOT_TAKEN.
_FALL_THROUGH = ("NOT_TAKEN", "POP_TOP") if pyversion.NOT_TAKEN_AFTER_BRANCH else ("POP_TOP",)


def short_circuit(tx, left, start: int, join: int, word: str) -> bool:
    """``left and <right>`` (``word`` "and"; "or": ``left or <right>``), ``left`` a size
    comparison already popped off the stack, ``<right>`` the code from ``start`` up to
    ``join``: where it is kept (module docstring), push the graph's bool, set ``tx.ip``
    to ``join`` and return True. False: nothing changed, the caller breaks as before
    (the caller must raise: the graph may hold the attempt's nodes)."""
    if not isinstance(left, SizeTruthVariable) or join <= start or \
            tx.output.loop_scope is not None or tx.in_try() or \
            not all(i.name in _ALLOWED and (i.target is None or start <= i.target <= join)
                    for i in tx.info.insts[start:join]):
        return False
    _read_arguments(tx, start, join)   # (an argument first read here: bound before)
    entry = _State.of(tx)
    before = set(tx.output.graph.nodes)
    try:
        right = _trace_right(tx, entry, start, join)
    except NotASelect:
        entry.restore(tx)
        return False
    added = [n for n in tx.output.graph.nodes if n not in before and n.op == CALL]
    if any(n.target not in _PURE and may_signal(n) for n in added) or not _is_bool(right):
        entry.restore(tx)
        return False
    entry.restore(tx)
    tx.push(truth_logic(tx, _NAMES[word], left, right))
    tx.ip = join
    return True


def _trace_right(tx, entry: _State, start: int, join: int):
    """Trace ``start`` up to ``join``; the value it leaves on top of the stack."""
    tx.ip, steps = start, 0
    while tx.ip != join:
        at = tx.ip
        if not start <= at < join or steps > _MAX_STEPS or tx.done:
            raise NotASelect("not straight code")
        try:
            TranslatorBase.step(tx)
        except Exception as e:  # noqa: BLE001 (a break, an error: Python decides)
            raise NotASelect(str(e)) from None
        if tx.ip <= at:
            raise NotASelect("a jump back")
        steps += 1
    if entry.changed(tx) is not None or len(tx.stack) != len(entry.stack) + 1 or \
            any(a is not b for a, b in zip(tx.stack, entry.stack)) or \
            tx.locals.keys() != entry.locals.keys() or \
            any(v is not entry.locals[k] for k, v in tx.locals.items()):
        raise NotASelect("the right operand changed the frame")
    return tx.stack[-1]


def _is_bool(v) -> bool:
    return isinstance(v, SizeTruthVariable) or \
        isinstance(v, ConstantVariable) and type(v.value) is bool


def copied_operand(tx, jump) -> tuple[int, str] | None:
    """3.12+: is the conditional ``jump`` (at ``tx.ip - 1``) the ``and``/``or`` of a
    value, ``COPY 1; [TO_BOOL;] POP_JUMP_IF_FALSE L; [NOT_TAKEN;] POP_TOP; <b>; L:``?
    Then (where ``<b>`` starts, the word); None for any other jump (an ``if``).

        >>> # 3.14: COPY 1; TO_BOOL; POP_JUMP_IF_FALSE L; NOT_TAKEN; POP_TOP; <b> at 9
        >>> copied_operand(tx, jump)
        (9, 'and')
    """
    insts = tx.info.insts
    i = jump.index
    before = insts[i - 2] if i >= 2 and insts[i - 1].name == "TO_BOOL" else insts[i - 1]
    fall = insts[i + 1:i + 1 + len(_FALL_THROUGH)]   # what runs where the jump is not taken
    if before.name != "COPY" or before.arg != 1 or \
            tuple(n.name for n in fall) != _FALL_THROUGH or \
            jump.target is None or jump.target <= i:
        return None
    return i + 1 + len(_FALL_THROUGH), ("and" if "FALSE" in jump.name else "or")

