"""Cells across a graph break: a resume function takes the original's cells as
parameters, so they stay *cell variables*, not free variables.

Why: reading or deleting an empty cell raises what the slot's kind says, not what the
cell is. CPython (``format_exc_unbound``) raises UnboundLocalError ("cannot access
local variable 'c' ...") for a slot before the free variables, NameError ("cannot
access free variable 'c' ...") for a free variable. A resume function that got the
original's cells as its closure would raise NameError where the original raises
UnboundLocalError (``del c``, or ``del f.__closure__[0].cell_contents`` from outside).

How: a cell variable that is also a parameter holds, at entry, the value the caller
passed, and becomes a cell when its ``MAKE_CELL`` runs. A resume function never runs
one for them (its prologue jumps past the original's), so each such slot holds the
cell the frame that broke passed (``emit.resume_call``): shared with that frame and
its closures, read and written by the original's own LOAD_DEREF, STORE_DEREF and
DELETE_DEREF, with the original's errors. The code says which cells are passed this
way (``passed_cells``): those its prologue does not make.

Example::

    >>> passed_cells(f.__code__)            # def f(): c = 1; return lambda: c
    frozenset()
    >>> passed_cells(resume.__code__)       # a resume function of f
    frozenset({'c'})
"""

from __future__ import annotations

import dis
import weakref

from bytecode import CellVar, Instr, Label


def passed_cells(code) -> frozenset[str]:
    """The cell variables of ``code`` whose slot holds, from entry, the cell object the
    caller passed as an argument (a resume function's): those no ``MAKE_CELL`` of its
    prologue makes. CPython's own code makes every cell in its prologue, so for the
    program's functions this is empty."""
    hit = _PASSED.get(code)
    if hit is None:   # (read once per code: every trace and break of it asks)
        made = set()
        for ins in dis.get_instructions(code):
            if ins.opname == "MAKE_CELL":
                made.add(ins.argval)
            elif ins.opname not in ("COPY_FREE_VARS", "RESUME", "NOP", "EXTENDED_ARG"):
                break
        hit = _PASSED[code] = frozenset(code.co_cellvars) - made
    return hit


_PASSED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def unrun_make_cells(names) -> list:
    """``MAKE_CELL`` of each cell ``names``, jumped over: code whose cells are passed in
    has them in front of its body but never runs them.

    Only for ``locals()`` on CPython before 3.13: a cell variable's slot shows the cell's
    contents once a ``MAKE_CELL`` of it comes before the current instruction
    (``_PyFrame_OpAlreadyRan``), otherwise the cell object itself, taken for an argument
    not yet made a cell. Later Pythons always show the contents; the jump costs nothing."""
    if not names:
        return []
    after = Label()
    return [Instr("JUMP_FORWARD", after)] + \
        [Instr("MAKE_CELL", CellVar(name)) for name in names] + [after]
