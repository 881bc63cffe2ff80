"""Cells a function deletes: reads of them in a resume function raise what the original
raises.

A resume function gets the original's cell variables as free variables (it shares the
cells), and reading an empty free variable raises NameError ("cannot access free
variable"), where the original raises UnboundLocalError for its own cell. So each read
and ``del`` of a cell the original deletes (``del c``) is preceded by ``cell_check``.

Example::

    >>> deleted_cells_of(f.__code__)          # def f(): c = 1; del c; return lambda: c
    {'c'}
    >>> checked_cell_reads(body, {"c"})        # body with a check before each LOAD_DEREF c
"""

from __future__ import annotations

import types
import weakref
from typing import Any

from bytecode import CellVar, FreeVar, Instr, Label

from .. import pyversion
from .instructions import CodeInfo


def deleted_cells_of(original) -> set[str]:
    """The cell variables of ``original`` that it deletes (``del c``) somewhere: in a
    resume function of it, they are free variables whose reads need ``cell_check``."""
    hit = _DELETED.get(original)
    if hit is None:   # (read once per code: every break of a function asks)
        hit = _DELETED[original] = frozenset(
            {getattr(inst.arg, "name", inst.arg) for inst in CodeInfo.of(original).insts
             if inst.name == "DELETE_DEREF"} & set(original.co_cellvars))
    return set(hit)


_DELETED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


# the most that cell_check pushes above the stack of the read it checks
CHECK_STACK = 3


def reads_deleted_cell(instr, names: set[str]) -> bool:
    return isinstance(instr, Instr) and instr.name in ("LOAD_DEREF", "DELETE_DEREF") and \
        not isinstance(instr.arg, CellVar) and getattr(instr.arg, "name", instr.arg) in names


def cell_check(instr: Instr) -> list:
    """Instructions that raise UnboundLocalError when the cell that ``instr`` (a
    LOAD_DEREF or DELETE_DEREF of a free variable) reads is empty, as the original does.

    A resume function gets the original's cell variables as free variables (it shares
    the cells), and reading an empty free variable raises NameError ("cannot access
    free variable"), where the original raises UnboundLocalError for its own cell. The
    check is in the resume function's code (which an eager block copies, and which
    runs as it is when the frame is not compiled) and before the break code's replay
    of such a read, at the same line and inside the same ``try``. The translator
    breaks at it (it runs only in functions that delete a cell). An empty cell equals
    the cell exactly when that is empty too (cells compare by contents, an empty one
    before any other, without calling the contents' ``__eq__``); the empty cell is made
    when the check runs, since a cell constant would make the code unhashable."""
    name = getattr(instr.arg, "name", instr.arg)
    loc = instr.location
    ok = Label()
    out: list[Any] = [Instr(pyversion.LOAD_CLOSURE, FreeVar(name), location=loc)]
    out += pyversion.load_callable_const(types.CellType, loc)
    out += pyversion.call_instrs(0, location=loc)
    out += [Instr("BUILD_TUPLE", 1, location=loc), Instr("CONTAINS_OP", 0, location=loc),
            Instr(pyversion.POP_JUMP_FORWARD_IF_FALSE, ok, location=loc)]
    if pyversion.NOT_TAKEN_AFTER_BRANCH:
        out.append(Instr("NOT_TAKEN", location=loc))
    message = f"cannot access local variable {name!r} where it is not associated with a value"
    out += pyversion.load_callable_const(UnboundLocalError, loc)
    out.append(Instr("LOAD_CONST", message, location=loc))
    out += pyversion.call_instrs(1, location=loc)
    out += [Instr("RAISE_VARARGS", 1, location=loc), ok]
    return out


def checked_cell_reads(body: list, names: set[str]) -> list:
    """``body`` with ``cell_check`` before each read and ``del`` of the cells ``names``."""
    out: list[Any] = []
    for item in body:
        if reads_deleted_cell(item, names):
            out += cell_check(item)
        out.append(item)
    return out
