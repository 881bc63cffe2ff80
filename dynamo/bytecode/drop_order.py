"""The order a returning frame drops its locals in, kept where generated code runs the
program's code in a frame whose slots are in another order.

A frame drops its locals when it returns, slot by slot: first to last on 3.11-3.13,
last to first on 3.14 (``pyversion.FRAME_DROPS_LAST_SLOT_FIRST``). The program can see
that order: ``r = weakref.ref(p, cb)`` with ``p`` in an earlier slot than ``r`` runs
``cb`` on 3.11-3.13 (``p`` dies while ``r`` lives) and not on 3.14. A resume function
takes its live locals as its first parameters, so its slots are in another order than
the program's; where its copy of the program's code runs for real (uncompiled:
``resume.boxed_code``; the rest of the frame run as an island: ``break_code.break_code``),
each return first drops the program's locals one by one in the program's order
(``drops_at_return``). The glue of a compiled resume function orders its slots
instead (``variables/lifetimes.py glue_slot_order``).

Example::

    >>> def f(x):
    ...     r = None
    ...     p = Plain()
    ...     print("break")              # resume function: (___stack0, p), then r
    ...     r = weakref.ref(p, cb)
    ...     return x
    >>> clearing_order(["x", "r", "p"], f.__code__)   # 3.11-3.13; 3.14: ['p', 'r', 'x']
    ['x', 'r', 'p']
"""

from __future__ import annotations

from bytecode import Instr

from .. import pyversion

# (a borrowed reference of the returned value must not outlive its local's store)
_STRONG_LOADS = {"LOAD_FAST_BORROW": "LOAD_FAST",
                 "LOAD_FAST_BORROW_LOAD_FAST_BORROW": "LOAD_FAST_LOAD_FAST"}
_RETURNS = ("RETURN_VALUE", "RETURN_CONST")


def frame_slots(code) -> tuple[str, ...]:
    """The names of ``code``'s frame slots in order: its locals, then its cell
    variables that are no argument, then its free variables (CPython 3.11+)."""
    cells = tuple(c for c in code.co_cellvars if c not in code.co_varnames)
    return code.co_varnames + cells + code.co_freevars


def clearing_order(names, original) -> list[str]:
    """``names`` (locals of the program's code ``original``) in the order its frame
    drops them when it returns."""
    slots = {name: i for i, name in enumerate(frame_slots(original))}
    order = sorted((n for n in names if n in slots), key=slots.__getitem__)
    return order[::-1] if pyversion.FRAME_DROPS_LAST_SLOT_FIRST else order


def drops_at_return(body: list, code, original, slots: tuple | None = None) -> list:
    """``body`` (a copy of ``original``'s instructions that runs in a frame of ``code``:
    a resume function, or the code an island runs) with each return preceded by stores
    of None into the program's locals and cells, in the order ``original``'s frame
    drops them; ``body`` itself where the frame has them in that order already (a
    resume function whose live locals come first in the program too). ``slots``: the
    frame's local names in slot order where they are not ``code``'s (an island's code,
    whose glue stores come first)."""
    program_slots = set(frame_slots(original)) - set(original.co_freevars)
    # the locals that can be bound at a return: the parameters (a resume function takes
    # its cells as parameters: each has a plain slot, which holds the cell itself, as
    # unbox binds it; the original has them after its locals) and those ``body`` stores
    bound = set(code.co_varnames[:code.co_argcount]) | _stored(body)
    names = [n for n in (slots or code.co_varnames) if n in program_slots and n in bound]
    program = clearing_order(names, original)
    kept = names[::-1] if pyversion.FRAME_DROPS_LAST_SLOT_FIRST else names
    if program == kept:
        return body
    out: list = []
    for item in body:
        if isinstance(item, Instr) and item.name in _STRONG_LOADS:
            item = Instr(_STRONG_LOADS[item.name], item.arg, location=item.location)
        elif isinstance(item, Instr) and item.name in _RETURNS:
            for name in program:
                out += [Instr("LOAD_CONST", None, location=item.location),
                        Instr("STORE_FAST", name, location=item.location)]
        out.append(item)
    return out


def _stored(body: list) -> set[str]:
    """The locals that an instruction of ``body`` stores (super-instructions: both)."""
    out: set[str] = set()
    for item in body:
        if isinstance(item, Instr) and item.name.startswith("STORE_FAST"):
            out.update(item.arg if isinstance(item.arg, tuple) else (item.arg,))
    return out
