"""Chained comparisons of sizes, kept in the graph as the ``&`` of their links (issue #19).

::

    def in_range(x, lo, hi):
        kept = x[x > 0]
        if lo <= len(kept) <= hi:          # (lo <= u0) & (u0 <= hi): one sym_truth node
            return kept.sum()
        return kept.mean()

``a < b < c`` is ``a < b and b < c`` with ``b`` evaluated once: the compiler keeps
``b`` on the stack (``SWAP 2; COPY 2``), tests the first link, and where it is false
pops ``b`` in a cleanup block (``L``) that leads where a false chain goes. Where the
first link is a size comparison only the graph knows (``SizeTruthVariable``), the
right link is traced on its own and kept under the rules of ``size_and_or`` (straight
code, no change to Python state, graph ops that cannot raise, warn or write: running
it when Python would not shows nothing, and ``b`` is not evaluated again), and the
chain's value is ``first & second``. The cleanup path is dropped, so it must lead to
exactly where the chain's false value goes on the kept path (``_same_path``: the same
instructions, or a jump to them; 3.13+ copies small exit blocks instead of jumping).

The forms (``k``: the first link's ``COMPARE_OP``, after ``SWAP 2; COPY 2``):

- value, 3.11: ``k; JUMP_IF_FALSE_OR_POP L; <right>; JUMP_FORWARD J; L: SWAP 2;
  POP_TOP; J:`` (``chain_or_pop``);
- value, 3.12+: ``k; COPY 1; TO_BOOL; POP_JUMP_IF_FALSE L; [NOT_TAKEN;] POP_TOP;
  <right>; ...; L: SWAP 2; POP_TOP; ...`` (``chain_jump``);
- ``if``, all: ``k; POP_JUMP_IF_FALSE L; [NOT_TAKEN;] <right>; POP_JUMP_IF_FALSE F;
  ...; L: POP_TOP; (JUMP F | a copy of F's block)`` (``chain_jump``); the trace goes on
  at the second jump with ``first & second`` on the stack, where the ``if`` of one
  size comparison is handled (kept as a select, or the usual break).

Anything else (a longer chain, a right link with side effects or a jump, inside a
loop node or a ``try``) keeps the break the first link had ("a data-dependent size ...
used as a Python value: a comparison").

The same for a chain of array data, ``if lo <= x[i] < hi:`` (issue #19), where the
first link is a 0-d NumPy bool of the graph (``_data_flag``), in the ``if`` form only,
also in a loop node's body, where a select may be made (``branch_selects``: the graph
may be rerun): the right link must add one comparison op and nothing else
(``_right_flag``: no getitem, no arithmetic), which is marked as one that may raise
(run where Python would not, it may report "invalid" for a NaN on some builds: the
frame reruns), and the chain is ``first & second``, a NumPy bool, at the second jump,
whose ``if`` is then a select or the break it was. The first link's cleanup block is
dead in that trace (``tx.chain_cleanup``, which ``branch_selects._plan`` skips); on
3.13+ the links' ``COMPARE_OP`` leave their ``bool()`` to the jumps
(``leaves_chain_flag``), and a break at the second jump calls it there, as the
``COMPARE_OP`` would have (``bytecode/break_code.py``: ``TO_BOOL`` before a 3.13 jump
resumed at a break, which takes only ``True`` as true).

    >>> # 3.13, at POP_JUMP_IF_FALSE of ``lo <= len(b) <= hi`` with (1 <= u0) popped:
    >>> chain_jump(tx, jump, first)
    True                       # tx.ip: the second jump; on the stack (1 <= u0) & (u0 <= 3)
"""

from __future__ import annotations

from .. import ops
from ..graph import CALL
from ..ops.signals import may_signal
from ..raising import rerun_on_raise
from ..variables import ConstantVariable
from ..variables.size_values import SizeTruthVariable, truth_logic
from .base import TranslatorBase
from .branch_selects import NotASelect, _read_arguments, _State
from .raising_checks import _flag

# What the right link may run: loads, calls, arithmetic and its comparison; no jump
# (a longer chain), no store, no COPY/SWAP (that is a third link's).
_RIGHT = frozenset({
    "LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_LOAD_FAST", "LOAD_FAST_BORROW",
    "LOAD_FAST_BORROW_LOAD_FAST_BORROW", "LOAD_CONST", "LOAD_SMALL_INT",
    "LOAD_DEREF", "LOAD_GLOBAL", "LOAD_ATTR", "LOAD_METHOD", "PUSH_NULL", "PRECALL",
    "CALL", "COMPARE_OP", "BINARY_OP", "BINARY_SUBSCR", "UNARY_NEGATIVE", "TO_BOOL",
    "CACHE", "NOP"})
# Graph ops the right link may add (as ``size_and_or._PURE``), besides quiet ones.
_PURE = frozenset({"sym_truth", "sym_int", "sym_size"})
_MAX_STEPS = 200
_SKIPPED = frozenset({"NOP", "NOT_TAKEN"})
_GOTO = frozenset({"JUMP_FORWARD", "JUMP", "JUMP_NO_INTERRUPT"})
_BACK = frozenset({"JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT"})
_ENDS = frozenset({"RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS", "RERAISE"})
_CONDITIONAL = frozenset({
    "POP_JUMP_IF_FALSE", "POP_JUMP_IF_TRUE", "POP_JUMP_FORWARD_IF_FALSE",
    "POP_JUMP_FORWARD_IF_TRUE"})


def chain_jump(tx, jump, first) -> bool:
    """3.11+: the conditional ``jump`` (just popped ``first``) tests a chain's first
    link: keep the chain (module docstring) and return True; False where it is no
    chain or cannot be kept (nothing changed, or the attempt added nodes and this
    raises the break ``first`` has, so that the frame starts over and breaks here)."""
    if not (isinstance(first, SizeTruthVariable) or _data_flag(first)) or \
            jump.name not in _CONDITIONAL or "FALSE" not in jump.name:
        return False
    insts, i = tx.info.insts, jump.index
    if i < 3:
        return False
    j = i - 2 if insts[i - 1].name == "TO_BOOL" else i - 1
    copied = insts[j].name == "COPY" and insts[j].arg == 1
    k = j - 1 if copied else j   # the first link's COMPARE_OP
    start = _after(insts, i)
    if copied:   # the value form: ``COPY 1`` of the first link, popped again after
        if not tx.stack or tx.stack[-1] is not first or insts[start].name != "POP_TOP":
            return False
        start += 1
    if not _first_link(insts, k):
        return False
    cleanup = ("SWAP", "POP_TOP") if copied else ("POP_TOP",)
    if not _at(insts, jump.target, cleanup):
        return False
    popped = [tx.pop()] if copied else []
    if _keep(tx, first, start, jump.target + len(cleanup), copied):
        return True
    for v in popped:
        tx.push(v)
    return False


def chain_or_pop(tx, jump, first) -> bool:
    """3.11: ``JUMP_IF_FALSE_OR_POP`` of a chain's first link (``first`` popped):
    as ``chain_jump`` for the value form."""
    insts = tx.info.insts
    if not isinstance(first, SizeTruthVariable) or jump.name != "JUMP_IF_FALSE_OR_POP" or \
            not _first_link(insts, jump.index - 1) or \
            not _at(insts, jump.target, ("SWAP", "POP_TOP")):
        return False
    return _keep(tx, first, jump.index + 1, jump.target + 2, True)


def _keep(tx, first, start: int, cleanup_end: int, value_form: bool) -> bool:
    """Trace the right link from ``start`` on the stack ``[..., b]``; where it is kept
    and the cleanup path (from ``cleanup_end``) goes where a false chain goes on, push
    ``first & second`` and go on after the right link (the ``if`` form: at its jump)."""
    flags = _data_flag(first)   # (``lo <= x[i] < hi``: two 0-d bools of the graph)
    if tx.in_try() or not tx.stack or not flags and tx.output.loop_scope is not None or \
            flags and not (tx.config.branch_selects and value_form is False and
                           rerun_on_raise(tx.output, loops=True)):
        return False
    insts = tx.info.insts
    end = start
    while end < len(insts) and insts[end].name in _RIGHT:
        end += 1
    _read_arguments(tx, start, end)   # (an argument first read there: bound before)
    entry, at_jump = _State.of(tx), tx.ip
    nodes = set(tx.output.graph.nodes)
    try:
        second = _trace_right(tx, entry, start, end)
        after = tx.ip
        if value_form:
            ok = _same_path(insts, after, cleanup_end)
        else:
            then = insts[after]
            false_way = then.target if "FALSE" in then.name else after + 1
            ok = then.name in _CONDITIONAL and _same_path(insts, false_way, cleanup_end)
        added = [n for n in tx.output.graph.nodes if n not in nodes and n.op == CALL]
        if flags:
            _right_flag(second, added)
        elif not ok or any(n.target not in _PURE and may_signal(n) for n in added) or \
                not (isinstance(second, SizeTruthVariable) or
                     isinstance(second, ConstantVariable) and type(second.value) is bool):
            raise NotASelect("not kept")
        if not ok:
            raise NotASelect("the cleanup goes elsewhere")
    except NotASelect:
        entry.restore(tx)
        tx.ip = at_jump   # (the jump goes on from where it was: not from the right
        # link's end, where the stack's ``b`` would be tested in the chain's place)
        if any(n not in nodes for n in tx.output.graph.nodes):
            first.truth(tx)   # raises the first link's break (the frame starts over),
            # or is known (made from constants: ``folding.known_value``), and the jump
            # decides on it
        return False
    entry.restore(tx)
    tx.pop()   # b
    tx.push(_both(tx, first, second) if flags
            else truth_logic(tx, "bitwise_and", first, second))
    tx.ip = after
    if flags:   # (the cleanup block, ``POP_TOP`` and its jump, runs no more in this
        # trace: a select at the second jump may skip it, ``branch_selects._plan``)
        tx.chain_cleanup = (after, frozenset(range(cleanup_end - 1, cleanup_end + 1)))
    return True


# The ops a right link of two 0-d bools may add: its comparison (a NumPy comparison
# of NumPy scalars or numbers neither raises nor writes; it may report "invalid" for
# a NaN on some NumPy builds: the node is marked, and the graph reruns where it does)
_COMPARISONS = frozenset(prefix + name for prefix in ("", "scalar_") for name in (
    "less", "less_equal", "greater", "greater_equal", "equal", "not_equal"))


def _data_flag(v) -> bool:
    """A 0-d bool of the graph that an ``if`` tests (``lo <= x[i]``: a NumPy bool)."""
    flag = _flag(v)
    return flag is v and v.meta.dtype.kind == "b" and v.meta.kind == ops.NUMPY


def _both(tx, first, second):
    """``first & second`` of the two links' NumPy bools: a NumPy bool, true where both
    are (as ``first and second``), NumPy's operator (a ufunc call costs ~1 us a trip
    in the numpy backend's loop; tier 2 compiles either)."""
    return tx.binary_op("bitwise_and", first, second)


def _right_flag(second, added: list) -> None:
    """The right link of a chain of 0-d bools (``x[i] < hi``): a NumPy bool made by one
    comparison op and nothing else; that op is run where Python would not (the first
    link false), so it is marked as one that may raise: the graph runs under the
    floating-point guard and reruns where it reports (``raising.raising_nodes``)."""
    if not _data_flag(second) or len(added) != 1 or added[0].target not in _COMPARISONS \
            or second.node is not added[0]:
        raise NotASelect("the right link is no comparison of 0-d values")
    added[0].meta["may_raise"] = True


def leaves_chain_flag(tx, inst, result) -> bool:
    """3.13+: does ``COMPARE_OP`` ``inst`` (with its ``bool()``) leave ``result``, a 0-d
    bool of the graph, to the jump after it, as a link of a chain (``chain_jump``
    keeps both links)? The first link (``SWAP 2; COPY 2; COMPARE_OP; POP_JUMP_IF_FALSE
    L``, ``L: POP_TOP``) and the right link while ``_trace_right`` traces it."""
    if not _data_flag(result):
        return False
    if getattr(tx, "right_link", False):
        return True
    insts, i = tx.info.insts, inst.index
    jump = insts[i + 1] if i + 1 < len(insts) else None
    return jump is not None and jump.name in _CONDITIONAL and "FALSE" in jump.name and \
        _first_link(insts, i) and _at(insts, jump.target, ("POP_TOP",))


def _trace_right(tx, entry: _State, start: int, end: int):
    """Trace from ``start`` until a ``COMPARE_OP`` consumed ``b`` (the stack is as deep
    as at the entry again), within ``start`` up to ``end``; the link's value."""
    tx.ip, steps = start, 0
    depth = len(entry.stack)
    while True:
        at = tx.ip
        if not start <= at < end or steps > _MAX_STEPS or tx.done:
            raise NotASelect("not straight code")
        tx.right_link = True   # (3.13: the link's ``bool()`` is left to the jump)
        try:
            TranslatorBase.step(tx)
        except Exception as e:  # noqa: BLE001 (a break, an error: Python decides)
            raise NotASelect(str(e)) from None
        finally:
            tx.right_link = False
        steps += 1
        if tx.ip != at + 1:
            raise NotASelect("a jump")
        if tx.info.insts[at].name == "COMPARE_OP" and len(tx.stack) == depth:
            break
    now = dict(tx.locals)   # (a copy: a loop body's ``WatchedLocals.items()`` reads all)
    if entry.changed(tx) is not None or \
            any(a is not b for a, b in zip(tx.stack[:-1], entry.stack[:-1])) or \
            now.keys() != entry.locals.keys() or \
            any(v is not entry.locals[k] for k, v in now.items()):
        raise NotASelect("the right link changed the frame")
    return tx.stack[-1]


def _first_link(insts, k: int) -> bool:
    """Is ``insts[k]`` a chain's first (or middle) comparison: ``SWAP 2; COPY 2;
    COMPARE_OP``?"""
    return k >= 2 and insts[k].name == "COMPARE_OP" and \
        insts[k - 1].name == "COPY" and insts[k - 1].arg == 2 and \
        insts[k - 2].name == "SWAP" and insts[k - 2].arg == 2


def _at(insts, i: int, names: tuple) -> bool:
    return i + len(names) <= len(insts) and \
        tuple(x.name for x in insts[i:i + len(names)]) == names and \
        all(x.name != "SWAP" or x.arg == 2 for x in insts[i:i + len(names)])


def _after(insts, i: int) -> int:
    """The instruction after the jump at ``i`` where it is not taken (past 3.14's
    ``NOT_TAKEN``)."""
    i += 1
    while i < len(insts) and insts[i].name == "NOT_TAKEN":
        i += 1
    return i


def _resolve(insts, i: int) -> int:
    """Where running from ``i`` does something: past NOPs and forward jumps."""
    for _ in range(16):
        if i >= len(insts):
            return i
        inst = insts[i]
        if inst.name in _SKIPPED:
            i += 1
        elif inst.name in _GOTO and inst.target is not None and inst.target > i:
            i = inst.target
        else:
            return i
    return i


def _same_path(insts, a: int, b: int, limit: int = 64) -> bool:
    """Do ``a`` and ``b`` run the same instructions (one place, a jump to it, or a copy
    of its block the compiler made), up to a return or raise?

        >>> _same_path(insts, 21, 27)   # 3.11: 21 is ``JUMP_FORWARD 27``
        True
    """
    for _ in range(limit):
        a, b = _resolve(insts, a), _resolve(insts, b)
        if a == b:
            return True
        if a >= len(insts) or b >= len(insts) or not _same_inst(insts[a], insts[b]):
            return False
        if insts[a].name in _ENDS or insts[a].name in _BACK:
            return True   # (the same jump back: to the same loop head)
        a, b = a + 1, b + 1
    return False


def _same_inst(x, y) -> bool:
    if x.name != y.name or x.target != y.target:
        return False
    if x.target is not None:
        return True
    try:
        return type(x.arg) is type(y.arg) and bool(x.arg == y.arg)
    except Exception:  # noqa: BLE001 (an argument without a plain ==: not the same)
        return False
