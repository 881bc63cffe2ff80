"""The bytecode of a frame that stops at a graph break (``break_code``).

At a break the frame's new code calls the glue (which runs the graph and returns the
values the frame needs), stores them back into the frame's locals and temporaries,
rebuilds the stack, and then either runs the breaking instruction itself and returns
``resume(...)`` (the rest of the function as a resume function: ``resume.py``), or, in
an island, jumps into a copy of the original code and runs the rest as plain Python::

    def forward(x, h):                     # the frame's new code at a break at line 14
        ___brk0, h = <glue>(x, h)          # UNPACK_SEQUENCE; STORE_FAST ...
        PUSH_NULL; LOAD_FAST ___brk0; ... CALL      # the breaking call, replayed
        return <resume caller>(..., x, h)  # forward_resume_at_L14

Example::

    >>> code = break_code(f.__code__, brk, glue, n_stack_values=1, restore=["h"],
    ...                   live=["x", "h"], make_resume=make, intercept=wrap)
"""

from __future__ import annotations

import types
from typing import Any

from bytecode import Bytecode, Instr
from bytecode.instr import InstrLocation

from .. import pyversion
from ..exc import Unsupported
from ..variables import NULL
from .cells import passed_cells, unrun_make_cells
from .copies import assemble, copy, label_at, split_super_instructions
from .drop_order import drops_at_return
from .emit import (
    box_name,
    call_glue,
    flatten_signature,
    intercept_calls,
    load_var,
    new_label,
    prologue,
    resume_call,
    store_var,
    unbox,
)
from .instructions import CodeInfo
from .patch import WORK
from .resume import original_code
from .stack_sources import local_loads

# Temporaries of the code at a break. Not ``___stack{i}``: when the frame is itself a
# resume function, those are its parameters, and an island still restores them.
TEMP = "___brk"


def stack_loads(code, brk, holds) -> list[tuple[str, str] | None]:
    """For each slot of ``brk.stack``: (local, load) where the break code pushes it
    from that local with that load, the way the original pushed it, not from a
    ``___brk`` temporary; else None.

    A slot qualifies when the original loaded it from the local with nothing storing
    the local since (``stack_sources.local_loads``: the local holds it in the frame),
    ``holds(name, value)`` says the translator has the local bound to that value (the
    glue binds it at the break), and the slot is consumed where the original consumed
    it: by the breaking instruction, or, in an island, by the original code it jumps
    into. A slot that stays on the stack below the breaking instruction goes to the
    resume function through a temporary (a borrowed reference must not be stored).
    Such a local must be bound at the break, live or not (``break_code``'s
    ``restore``)."""
    stack = brk.stack
    if brk.point.kind == "island":
        consumed = len(stack)
    else:
        consumed = pyversion.stack_pops(brk.inst.name, brk.inst.arg) or 0
        consumed = min(consumed, len(stack))
    found = local_loads(CodeInfo.of(code), brk.inst.index, consumed)
    out: list[tuple[str, str] | None] = [None] * (len(stack) - consumed)
    for value, load in zip(stack[len(stack) - consumed:], found):
        out.append(load if load is not None and value is not NULL and
                   holds(load[0], value) else None)
    return out


def break_code(code, brk, glue, n_stack_values: int, restore: list[str], live: list[str],
               make_resume, intercept, unbound: list[str] = (),
               passes_through=None, boxed: bool = False, outline=None,
               loads: list | None = None) -> types.CodeType:
    """Bytecode for a frame that stops at ``brk`` (a translator.GraphBreak).

    ``glue`` returns the stack's non-NULL values but those pushed from locals (``loads``,
    see ``stack_loads``), then the values of ``restore`` locals; ``unbound`` are the
    arguments that are no longer bound at the break.
    ``make_resume(target, layout)`` returns the caller of the resume function;
    ``intercept(f)`` makes a user function run through the frame hook (used for the
    calls made by code that runs eagerly in an island), except for the globals that
    ``passes_through`` says are C code (``emit.intercept_calls``).
    With ``boxed`` (``code`` is a resume function), the frame takes its arguments in
    one list (``emit.unbox``).
    ``outline(bc, positions)`` rewrites an island's copy of the code before it is
    assembled (a loop whose body becomes a function of its own: ``outline.py``).
    """
    inst = brk.inst
    loc = inst.instr.location
    island = brk.point.kind == "island"
    bc, positions = copy(code) if island else (_prologue_only(code), [])
    flatten_signature(bc, code)
    head = len(prologue(bc))
    out: list[Any] = list(bc[:head])
    out += unrun_make_cells(sorted(passed_cells(code)))   # (for locals(), see there)
    if boxed:
        params = code.co_varnames[:bc.argcount]
        box = box_name(params, CodeInfo.of(original_code(code)).super_self)
        out += unbox(params, InstrLocation(code.co_firstlineno, None, None, None), box)
        bc.argnames, bc.argcount = [box], 1
    out += _with_location(call_glue(glue, code), loc)
    out.append(Instr("UNPACK_SEQUENCE", n_stack_values + len(restore), location=loc))
    out += [Instr("STORE_FAST", f"{TEMP}{i}", location=loc) for i in range(n_stack_values)]
    out += [_at(store_var(name, code), loc) for name in restore]
    # the frame still holds its arguments as it got them: one the trace deleted (``del
    # x``, a resume function's ``___stack`` parameters) is unbound again before the
    # breaking instruction (``locals()``) or an island's code runs
    out += [Instr("DELETE_FAST", name, location=loc) for name in unbound]
    stack = brk.stack
    loads = loads or [None] * len(stack)
    if island:
        out += _push_stack(stack, consumed=len(stack), loc=loc, loads=loads)
        label = label_at(bc, positions, inst.index)
        if outline is not None:   # (it returns what the island runs once, first)
            out += outline(bc, positions)
        out.append(Instr("JUMP_FORWARD", label, location=loc))
        body = intercept_calls(split_super_instructions(bc[head:]), intercept,
                               passes_through)
        # the island's slots are numbered as ``bytecode`` meets the names, the glue's
        # stores first, not as the program's frame has them (see drop_order.py):
        # assembled once to read that order, and its returns drop in the program's
        bc[:] = out + body
        slots = assemble(bc, body).co_varnames
        body = drops_at_return(body, code, original_code(code), slots)
        bc[:] = out + body
        WORK["break_instrs"] += len(bc)
        return assemble(bc, body)
    pops = pyversion.stack_pops(inst.name, inst.arg)
    if pops is None or pops > len(stack):
        raise Unsupported(f"cannot resume after {inst.name}")
    if brk.point.kind == "before":
        # the resume function runs the instruction itself (``for c in np.unique(y)``:
        # its frame reads the array's length): the whole stack goes to it, as the
        # stack below a breaking instruction does
        out += _push_stack(stack, consumed=0, loc=loc, loads=loads)
        # (at the point's index: the KW_NAMES of a 3.11/3.12 CALL with keywords)
        out += _call_resume(code, brk.point.index, [v is NULL for v in stack], [], live,
                            make_resume, loc)
        bc[:] = out
        WORK["break_instrs"] += len(bc)
        return bc.to_code()
    out += _push_stack(stack, consumed=pops, loc=loc, loads=loads)
    below = stack[:len(stack) - pops]
    below_layout = [v is NULL for v in below]
    if inst.name.startswith("POP_JUMP"):
        else_label = new_label()
        if pyversion.JUMPS_TEST_EXACT_BOOLS and "NONE" not in inst.name:
            # 3.13+: the jump takes only ``True`` as true, and the trace may have left
            # the ``bool()`` of a ``COMPARE_OP`` or ``TO_BOOL`` to it (the NumPy bool of
            # ``lo <= x[i] < hi``, translator/size_chains.py): ``bool()`` it here, once,
            # as those would have (a no-op on an exact bool)
            out.append(Instr("TO_BOOL", location=loc))
        out.append(Instr(inst.name, else_label, location=loc))
        if pyversion.NOT_TAKEN_AFTER_BRANCH:
            out.append(Instr("NOT_TAKEN", location=loc))
        out += _call_resume(code, inst.index + 1, below_layout, [], live, make_resume, loc)
        out.append(else_label)
        out += _call_resume(code, inst.target, below_layout, [], live, make_resume, loc)
    elif inst.name in ("JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP"):
        raise Unsupported(f"cannot resume after {inst.name}")
    else:
        out += _replay(inst, brk.kw_names, loc)
        pushed = [False] * pyversion.stack_pushes(inst.name, inst.arg)
        if _is_method_load(inst):
            pushed = pyversion.with_null(False, True)
        if inst.name not in ("RAISE_VARARGS", "RERAISE"):   # (a `raise` resumes nowhere)
            out += _call_resume(code, inst.index + 1, below_layout, pushed, live,
                                make_resume, loc)
    bc[:] = out
    WORK["break_instrs"] += len(bc)
    return bc.to_code()


def _prologue_only(code) -> Bytecode:
    """A bytecode with the attributes of ``code`` and only its prologue (copied): the
    frame's new code runs the prologue and then code of its own. It reuses the
    translator's parse of ``code`` rather than parsing the whole code again."""
    parsed = CodeInfo.of(code).bytecode
    bc = Bytecode([item.copy() for item in prologue(parsed)])
    bc._copy_attr_from(parsed)
    return bc


def _at(instr: Instr, loc) -> Instr:
    instr.location = loc
    return instr


def _with_location(instrs, loc):
    for i in instrs:
        if isinstance(i, Instr):
            i.location = loc
    return instrs


def _push_stack(stack, consumed: int, loc, loads) -> list[Instr]:
    """Rebuild the stack from the ``___brk{i}`` temporaries, and a value the original
    loaded from a local from that local (``loads``, see ``stack_loads``). NULLs the
    breaking instruction consumes are real NULLs; deeper ones are None placeholders,
    dropped again before resuming."""
    out, k = [], 0
    first_consumed = len(stack) - consumed
    for pos, (var, load) in enumerate(zip(stack, loads)):
        if var is NULL:
            out.append(Instr("PUSH_NULL", location=loc) if pos >= first_consumed
                       else Instr("LOAD_CONST", None, location=loc))
        elif load is not None:
            name, opname = load
            out.append(Instr(opname, name, location=loc))
        else:
            out.append(Instr("LOAD_FAST", f"{TEMP}{k}", location=loc))
            k += 1
    # unbound again before the program's code runs: locals(), dir() and vars() (the
    # breaking call itself, say) must not show them
    out += [Instr("DELETE_FAST", f"{TEMP}{i}", location=loc) for i in range(k)]
    return out


def _is_method_load(inst) -> bool:
    return (inst.name == "LOAD_ATTR" and isinstance(inst.arg, tuple) and inst.arg[0]) or \
        inst.name == "LOAD_METHOD"


def _replay(inst, kw_names, loc) -> list[Instr]:
    """The breaking instruction itself, as the real interpreter must see it."""
    if inst.name == "CALL":  # 3.11/3.12 keyword names were set by a KW_NAMES before it
        return pyversion.call_instrs(inst.arg, kw_names, location=loc)
    if _is_method_load(inst):
        name = inst.arg[1] if isinstance(inst.arg, tuple) else inst.arg
        arg = (False, name) if pyversion.PY312 else name
        return [Instr("LOAD_ATTR", arg, location=loc)]
    instr = inst.instr.copy()
    instr.location = loc
    return [instr]


def resume_at(code, target: int, live: list[str], make_resume, loc,
              below: int = 0) -> list[Instr]:
    """Return ``resume(...)`` from the frame at instruction ``target``, where the stack
    holds ``below`` values, none a NULL (after an outlined loop, see ``outline.py``: an
    outer loop's iterator, or its placeholder in an outlined body)."""
    return _call_resume(code, target, [False] * below, [], live, make_resume, loc)


def _call_resume(code, target: int, below_layout: list[bool], pushed: list[bool],
                 live: list[str], make_resume, loc) -> list[Instr]:
    """Store the whole stack into temporaries and return ``resume(...)`` from the frame."""
    layout = list(below_layout) + list(pushed)
    out: list[Instr] = []
    # Pop every item on the real stack (top first) into its temporary. NULLs in
    # `pushed` were never materialized; deep NULL placeholders go to a junk local.
    on_stack = [i for i, is_null in enumerate(layout)
                if not (is_null and i >= len(below_layout))]
    k = sum(1 for i in on_stack if not layout[i])
    for i in reversed(on_stack):
        if layout[i]:
            out.append(Instr("STORE_FAST", "___junk", location=loc))
        else:
            k -= 1
            out.append(Instr("STORE_FAST", f"{TEMP}{k}", location=loc))
    if any(layout[i] for i in on_stack):   # (nor the junk, see resume_call)
        out.append(Instr("DELETE_FAST", "___junk", location=loc))
    caller = make_resume(target, tuple(layout))
    n_values = sum(1 for is_null in layout if not is_null)
    out += resume_call(caller, n_values, live, code, loc)
    return out


__all__ = ["break_code", "load_var", "resume_at", "stack_loads"]
