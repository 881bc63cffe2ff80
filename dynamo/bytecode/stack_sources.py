"""Which values on the stack at a graph break the original loaded from a local.

The break code rebuilds the stack the original had before the breaking instruction
(``break_code.break_code``). A value the glue returns goes onto it from a ``___brk``
temporary, unbound before the instruction runs (``locals()`` must not show it), so the
stack holds a reference of its own: where the original pushed it with 3.14's
``LOAD_FAST_BORROW``, which holds none, ``sys.getrefcount(o)`` at the break counted one
more than plainly (CPython's ``test_enumerate.TestReversed.test_bug1229429``).

Where the original pushed the value with a load of a plain local, and nothing stored or
deleted that local between that load and the break, the value is that local's current
value, and the break code pushes it from the local with the same kind of load
(``pyversion.LOCAL_LOADS``). This module finds those loads in the bytecode: from the
breaking instruction it walks back through the straight-line code before it
(``CodeInfo.joins``), following each stack slot down through the instructions whose
stack effect it knows, to the instruction that pushed it::

    >>> local_loads(CodeInfo.of(f.__code__), call_index, depth=3)   # sys.getrefcount(o)
    [None, None, ('o', 'LOAD_FAST_BORROW')]
"""

from __future__ import annotations

from .. import pyversion
from .instructions import CodeInfo, Inst

# Instructions that leave the stack as it is (3.11's PRECALL and KW_NAMES: the CALL
# after them takes the arguments, see ``pyversion.stack_pops``)
_NO_EFFECT = frozenset({"NOP", "NOT_TAKEN", "PRECALL", "KW_NAMES", "EXTENDED_ARG", "CACHE"})
# Instructions that only push (LOAD_GLOBAL: the NULL of a call too)
_PUSH_ONLY = frozenset({"LOAD_CONST", "LOAD_SMALL_INT", "LOAD_COMMON_CONSTANT",
                        "LOAD_ASSERTION_ERROR", "LOAD_GLOBAL", "LOAD_DEREF", "LOAD_CLOSURE",
                        "LOAD_NAME", "PUSH_NULL", "COPY"}) | \
    (frozenset(pyversion.LOCAL_LOADS) - {"STORE_FAST_LOAD_FAST"})
# Instructions that pop their operands and push one result
_ONE_RESULT = frozenset({"BINARY_OP", "COMPARE_OP", "IS_OP", "CONTAINS_OP", "BINARY_SUBSCR",
                         "BINARY_SLICE", "UNARY_NEGATIVE", "UNARY_NOT", "UNARY_INVERT",
                         "UNARY_POSITIVE", "TO_BOOL", "BUILD_TUPLE", "BUILD_LIST",
                         "BUILD_SET", "BUILD_MAP", "BUILD_CONST_KEY_MAP", "BUILD_STRING",
                         "BUILD_SLICE", "FORMAT_SIMPLE", "FORMAT_WITH_SPEC", "FORMAT_VALUE",
                         "CONVERT_VALUE", "GET_ITER", "CALL_INTRINSIC_1", "CALL_INTRINSIC_2",
                         "MAKE_FUNCTION", "SET_FUNCTION_ATTRIBUTE"})
_CALLS = frozenset({"CALL", "CALL_KW", "CALL_FUNCTION_EX"})
# Instructions that only pop (conditional jumps: when they fall through)
_POP_ONLY = frozenset({"POP_TOP", "STORE_FAST", "STORE_FAST_STORE_FAST", "STORE_GLOBAL",
                       "STORE_DEREF", "STORE_NAME", "STORE_ATTR", "STORE_SUBSCR",
                       "STORE_SLICE", "DELETE_FAST", "DELETE_SUBSCR", "DELETE_ATTR",
                       "DELETE_GLOBAL", "DELETE_DEREF", "DELETE_NAME"})


def local_loads(info: CodeInfo, index: int, depth: int) -> list[tuple[str, str] | None]:
    """For each of the top ``depth`` stack slots before instruction ``index`` (bottom
    first): (local, load) where a load of that plain local in the straight-line code
    before ``index`` pushed it and no instruction between stored or deleted the local
    (so the slot holds the local's value), else None. ``load`` pushes it again the way
    the original did (``pyversion.LOCAL_LOADS``). Stops at the first instruction whose
    stack effect it does not know (the slots below it stay None)."""
    found: list[tuple[str, str] | None] = [None] * depth
    pending = {depth - 1 - slot: slot for slot in range(depth)}   # depth from the top
    written: set[str] = set()   # locals stored or deleted after the instruction looked at
    joins = info.joins()
    i = index
    while pending and i > info.entry and i not in joins:
        inst = info.insts[i - 1]    # the only instruction that runs right before i
        effect = _pops_pushes(inst)
        if effect is None:
            break
        pops, pushes = effect
        loads = pyversion.LOCAL_LOADS.get(inst.name)
        below = {}
        for d, slot in pending.items():
            if d >= pushes:
                below[d - pushes + pops] = slot
            elif loads is not None:     # pushed here, as its (pushes - 1 - d)th value
                arg_index, load = loads[pushes - 1 - d]
                name = _local_names(inst)[arg_index]
                if name is not None and name not in written:
                    found[slot] = (name, load)
        pending = below
        written.update(_written(inst))
        i -= 1
    return found


def _pops_pushes(inst: Inst) -> tuple[int, int] | None:
    """(items popped, items pushed) of ``inst`` when it falls through, or None where
    this module does not know them."""
    name = inst.name
    if name in _NO_EFFECT:
        return 0, 0
    if name in _CALLS:
        pops = pyversion.stack_pops(name, inst.arg)
        return None if pops is None else (pops, 1)
    if name in ("SWAP", "STORE_FAST_LOAD_FAST"):
        n = inst.arg if name == "SWAP" else 1
        return n, n
    try:
        net = inst.instr.stack_effect(jump=False)
    except (ValueError, TypeError):
        return None
    if name in _PUSH_ONLY:
        return 0, net
    if name in _ONE_RESULT:
        return 1 - net, 1
    if name in ("LOAD_ATTR", "LOAD_METHOD"):   # a method load pushes two
        return 1, 1 + net
    if name in _POP_ONLY or name.startswith("POP_JUMP"):
        return -net, 0
    return None


def _local_names(inst: Inst) -> list[str | None]:
    """The plain local names in ``inst``'s argument (None for a cell or free variable's)."""
    args = inst.arg if isinstance(inst.arg, tuple) else (inst.arg,)
    return [a if isinstance(a, str) else None for a in args]


def _written(inst: Inst) -> list[str]:
    """The locals ``inst`` stores or deletes."""
    if inst.name in ("STORE_FAST", "DELETE_FAST", "STORE_FAST_STORE_FAST"):
        return [getattr(a, "name", a) for a in
                (inst.arg if isinstance(inst.arg, tuple) else (inst.arg,))]
    if inst.name == "STORE_FAST_LOAD_FAST":
        return [getattr(inst.arg[0], "name", inst.arg[0])]
    return []
