"""Copies of a code object's abstract bytecode (``bytecode``), and their assembly.

Resume functions (``resume.py``), the code a frame runs at a break (``break_code.py``)
and outlined loops (``outline.py``) are each a copy of the original code with new
instructions in front. ``copy`` hands out a fresh copy of one parse per code object,
``label_at`` marks the instruction the new prologue jumps to, and ``assemble`` makes the
code object while keeping the original's exception-table depths.

Example::

    >>> bc, positions = copy(f.__code__)
    >>> label = label_at(bc, positions, 12)      # instruction 12 of f, now a jump target
    >>> code = assemble(bc, list(bc))
"""

from __future__ import annotations

import types
import weakref
from typing import Any

from bytecode import Bytecode, Instr, Label, TryBegin, TryEnd

from .. import pyversion

# code -> its abstract bytecode, parsed once (see ``copy``)
_PARSED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def copy(code) -> tuple[Bytecode, list[int]]:
    """A fresh abstract bytecode of ``code`` and the position of each instruction in it.

    Each ``try`` range keeps the stack depth of the original exception table (see
    ``assemble``). ``code`` is parsed once (``parsed``); each call copies the parse,
    which is several times cheaper than parsing again, and a function with many breaks
    asks for many copies of the same code."""
    template = parsed(code)
    bc = Bytecode()
    bc._copy_attr_from(template)
    # (a TryEnd may come before its TryBegin in the list: copy the TryBegins first)
    begins = {id(item): item.copy() for item in template if isinstance(item, TryBegin)}
    items: list[Any] = []
    for item in template:
        if isinstance(item, Instr):
            item = item.copy()
        elif isinstance(item, TryBegin):
            item = begins[id(item)]
        elif isinstance(item, TryEnd):
            item = TryEnd(begins[id(item.entry)])
        items.append(item)   # labels are markers, shared by the copies
    bc.extend(items)
    positions = [i for i, item in enumerate(items) if isinstance(item, Instr)]
    return bc, positions


def parsed(code) -> Bytecode:
    """``code`` read by ``bytecode`` once (cached weakly per code object); never mutated:
    ``copy`` hands out copies."""
    hit = _PARSED.get(code)
    if hit is None:
        hit = _PARSED[code] = Bytecode.from_code(code,
                                                 conserve_exception_block_stackdepth=True)
    return hit


def assemble(bc: Bytecode, body: list, stacksize: int | None = None) -> types.CodeType:
    """The code of ``bc``: a new prologue that rebuilds the stack and jumps into
    ``body``, a copy of the original code (whose instructions may be rewritten only by
    sequences that leave the stack as the original instruction did).

    The exception table keeps the original depths. ``bytecode`` would compute them by
    following the flow from the entry, but the prologue jumps past the ``TryBegin`` of
    every range that contains its target, so the analysis never enters those ranges: it
    gives their handlers a made-up depth (32768), and a raise there leaves the stack
    un-unwound (garbage under the handler, a crash at the next pop). The original
    depths are still right: the prologue is outside every range and pushes exactly
    the stack the original had at the target.

    The stack size is ``stacksize`` when the caller knows it (a resume function needs
    no more than the code it copies), else the larger of the analysis of the whole
    code and of ``body`` entered from its top as the original is (which reaches every
    handler). Where ``bytecode``'s analysis of the whole code fails (``_entry_depth``),
    the prologue's own depth stands in for it.
    """
    if stacksize is None:
        from_top = Bytecode([item for item in body])
        from_top._copy_attr_from(bc)
        stacksize = max(_entry_depth(bc, len(bc) - len(body)), from_top.compute_stacksize())
    return bc.to_code(stacksize=stacksize, compute_exception_stack_depths=False)


def _entry_depth(bc: Bytecode, head: int) -> int:
    """The stack ``bc`` needs entered at its top (``bytecode``'s analysis), or, where
    that analysis fails, the stack its first ``head`` items need: the prologue, which
    ends in a jump into the copied body (whose stack ``assemble`` measures itself), and
    pushes there exactly the stack the original had.

    Why it fails: a prologue that jumps into a ``try`` range past its ``TryBegin`` and
    reaches a ``raise`` right before the range's ``TryEnd`` (an island in a loop
    ``for ...: try: raise E(undefined) finally: return``): there ``bytecode`` measures
    the handler from the depth at the entry of the code, not of the range, and finds a
    negative size. The depths it would have computed are not used (``assemble``)."""
    try:
        return bc.compute_stacksize()
    except RuntimeError:
        *prologue, jump = bc[:head]
        if not (isinstance(jump, Instr) and jump.is_uncond_jump()):
            raise
    alone = Bytecode(prologue)   # (its own jumps, over unrun MAKE_CELLs, stay in it)
    alone._copy_attr_from(bc)
    return alone.compute_stacksize()


def label_at(bc: Bytecode, positions: list[int], index: int) -> Label:
    """Insert a label before instruction ``index`` (positions shift accordingly)."""
    label = Label()
    pos = positions[index]
    bc.insert(pos, label)
    for k in range(len(positions)):
        if positions[k] >= pos:
            positions[k] += 1
    return label


def split_super_instructions(items) -> list:
    """``items`` with each two-local super-instruction replaced by its two plain
    instructions (``pyversion.SUPER_INSTRUCTIONS``): generated code renumbers the
    locals, and an index past 15 does not fit in the super-instruction's argument."""
    out: list[Any] = []
    for item in items:
        pair = isinstance(item, Instr) and pyversion.SUPER_INSTRUCTIONS.get(item.name)
        if pair:
            out += [Instr(name, arg, location=item.location)
                    for name, arg in zip(pair, item.arg)]
        else:
            out.append(item)
    return out
