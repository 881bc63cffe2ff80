"""Resume functions built by patching the original's raw bytecode (the fast path).

A resume function is the original code with a new prologue in front (see
``resume.py``). Re-assembling the whole copy with ``bytecode`` for every break costs
milliseconds per break and per instruction, and a function with N breaks has N resume
functions each about as long as the function: quadratic, 9 s for 100 breaks. But the
body needs few changes, all of them in place:

- jumps are relative on 3.11+, so a prefix leaves them right; the exception table's
  offsets move by the prefix's length;
- the locals are renumbered (the resume function's parameters come first: the stack
  items, the live locals, then the original's cells, which stay cell variables, see
  ``cells.py``): each instruction that names a slot gets its new index, a one-byte
  write when the index fits in the byte it had;
- the original prologue's COPY_FREE_VARS and RESUME become NOPs (the resume
  function's own prologue did their work); its MAKE_CELLs stay, jumped over
  (``cells.unrun_make_cells`` says why).

So ``CodeTemplate.of(code)`` reads the original once (where each instruction begins,
which bytes name a slot, the exception table) and ``resume_bytes`` makes each resume
function from it with a copy of the bytes and a few writes per slot operation.
Whatever it cannot patch in place (an index that needs an EXTENDED_ARG it did not
have, a 3.13 super-instruction whose 4-bit halves overflow) returns
None, and ``resume.py`` falls back to re-assembling with ``bytecode``.

What is done per instruction in Python is done once per original code; per resume
function, the bytes are copied and rewritten by a few NumPy array operations (at
memory speed, though each copy is as long as the function). The work is counted in
``WORK`` so that a test can check that it grows linearly with the number of breaks.
"""

from __future__ import annotations

import dis
import types
import weakref
from collections import Counter
from dataclasses import dataclass

import numpy as np

from .. import pyversion
from .signature import STAR_FLAGS

# Work units, for tests and benchmarks: "decoded" (instructions read by
# ``CodeTemplate.of``, once per original code), "built" (resume codes made by patching;
# each is a constant number of array operations), and in ``resume.py`` "assembled"
# (resume codes re-assembled with ``bytecode``, the fallback) and "break_instrs"
# (instructions of the frames' break code, which ``bytecode`` assembles), in
# ``instructions.py`` "shifted" (instructions of patched resume functions that the
# translator looked at).
WORK: Counter = Counter()

_SLOT_OPS = frozenset(dis.haslocal) | frozenset(dis.hasfree)
_PAIR_OPS = frozenset(dis.opmap[name] for name in pyversion.SUPER_INSTRUCTIONS
                      if name in dis.opmap)
_HEAD_OPS = frozenset(dis.opmap[n] for n in ("MAKE_CELL", "COPY_FREE_VARS", "RESUME", "NOP"))
_MAKE_CELL = dis.opmap["MAKE_CELL"]
_NOP = dis.opmap["NOP"]
_EXTENDED_ARG = dis.opmap["EXTENDED_ARG"]
_BIG = 1 << 16   # the slot of a nibble no 4-bit slot can name (never used)


@dataclass
class CodeTemplate:
    """What making resume functions of ``code`` needs, read once per code."""

    starts: list[int]          # per instruction (CodeInfo order): its first code unit
    head: int                  # instructions of the original prologue
    names: tuple[str, ...]     # the original's slot names (localsplus)
    exceptions: list[list[int]]          # [start, length, target, depth_lasti]
    # where slots are named: the byte of each argument, and the slot it holds (arrays,
    # so that each resume function rewrites them all in a few array operations)
    single: np.ndarray         # instructions with one slot
    single_slots: np.ndarray
    pairs: np.ndarray          # 3.13+ super-instructions: two slots of 4 bits
    pair_slots: np.ndarray
    head_units: np.ndarray     # the argument byte of each original prologue instruction
    #                            that becomes a NOP (all but its MAKE_CELLs)

    @classmethod
    def of(cls, code) -> CodeTemplate | None:
        """The template of ``code`` (cached), None when it cannot be patched in place."""
        hit = _TEMPLATES.get(code, _MISSING)
        if hit is _MISSING:
            hit = _TEMPLATES[code] = cls._read(code)
        return hit

    @classmethod
    def _read(cls, code) -> CodeTemplate | None:
        varnames, cellvars = code.co_varnames, code.co_cellvars
        cell_only = [c for c in cellvars if c not in varnames]
        names = varnames + tuple(cell_only) + code.co_freevars
        starts: list[int] = []
        slots: list[tuple[int, int, bool]] = []
        prefix = None          # first code unit of the EXTENDED_ARGs before an instruction
        head, in_head = 0, True
        nops: list[int] = []   # the prologue's instructions that become NOPs
        for ins in dis.get_instructions(code):
            WORK["decoded"] += 1
            if ins.opcode == _EXTENDED_ARG:
                prefix = ins.offset // 2 if prefix is None else prefix
                continue
            unit = ins.offset // 2
            if ins.opcode in _SLOT_OPS:
                if prefix is not None:
                    return None   # a slot index past 255: not patched in place
                slots.append((ins.offset + 1, ins.arg, ins.opcode in _PAIR_OPS))
            in_head = in_head and ins.opcode in _HEAD_OPS
            head += in_head
            if in_head and ins.opcode != _MAKE_CELL:
                nops.append(len(starts))
            starts.append(unit if prefix is None else prefix)
            prefix = None
        single = np.array([pos for pos, _, pair in slots if not pair], dtype=np.int64)
        pairs = np.array([pos for pos, _, pair in slots if pair], dtype=np.int64)
        # the arguments of the prologue's NOPs, then the NOP opcodes (see resume_bytes)
        head_units = np.array([2 * starts[i] + 1 for i in nops], dtype=np.int64)
        return cls(starts, head, names,
                   _read_exception_table(code.co_exceptiontable), single,
                   np.array([slot for _, slot, pair in slots if not pair], dtype=np.int64),
                   pairs, np.array([slot for _, slot, pair in slots if pair], dtype=np.int64),
                   head_units)


_TEMPLATES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_MISSING = object()


def resume_bytes(code, template: CodeTemplate, target: int, layout: tuple[bool, ...],
                 live: tuple[str, ...], qualname: str) -> tuple[types.CodeType, int] | None:
    """The resume function of ``code`` at instruction ``target`` (see
    ``resume.resume_code``) and the number of instructions its prologue adds, or None
    when it cannot be made by patching ``code``'s bytes."""
    values = [f"___stack{i}" for i in range(sum(1 for is_null in layout if not is_null))]
    cellvars, freevars = code.co_cellvars, code.co_freevars
    # parameters: the stack items, the live locals, the cells (passed as cells)
    params = tuple(values) + tuple(live) + tuple(cellvars)
    new_varnames = params + tuple(
        n for n in code.co_varnames if n not in live and n not in cellvars)
    if len(set(new_varnames)) != len(new_varnames):
        return None
    local_slot = {n: i for i, n in enumerate(new_varnames)}
    free_slot = {n: len(new_varnames) + i for i, n in enumerate(freevars)}
    remap = [free_slot[n] if n in free_slot else local_slot[n] for n in template.names]
    # the new prologue, as (opcode, arg) code units
    prologue_ops: list[tuple[str, int]] = []
    if freevars:
        prologue_ops.append(("COPY_FREE_VARS", len(freevars)))
    prologue_ops.append(("RESUME", 0))
    k = 0
    for is_null in layout:
        if is_null:
            prologue_ops.append(("PUSH_NULL", 0))
        else:
            prologue_ops.append(("LOAD_FAST", local_slot[values[k]]))
            k += 1
    prologue_ops += [("DELETE_FAST", local_slot[v]) for v in values]
    if any(arg > 255 for _, arg in prologue_ops):
        return None
    jump = template.starts[target]       # relative to the end of the prologue
    units = [(dis.opmap[op], arg) for op, arg in prologue_ops]
    units += [(_EXTENDED_ARG, b) for b in _ext(jump)] + \
        [(dis.opmap["JUMP_FORWARD"], jump & 0xFF)]
    shift = len(units)                      # code units the prologue adds
    head = bytes(b for op, arg in units for b in (op, arg))
    body = np.frombuffer(code.co_code, dtype=np.uint8).copy()
    body[template.head_units] = 0         # the original prologue did its work: NOPs
    body[template.head_units - 1] = _NOP  # (but its MAKE_CELLs, jumped over, stay)
    remap = np.asarray(remap + [_BIG] * (16 - len(remap)), dtype=np.int64)
    if len(template.single):              # one slot in the argument byte
        new_args = remap[template.single_slots]
        if new_args.max() > 255:
            return None
        body[template.single] = new_args
    if len(template.pairs):               # two 4-bit slots (3.13+ super-instructions)
        high, low = remap[template.pair_slots >> 4], remap[template.pair_slots & 15]
        if max(high.max(), low.max()) > 15:
            return None
        body[template.pairs] = high << 4 | low
    WORK["built"] += 1
    table = [[start + shift, length, handler + shift, depth]
             for start, length, handler, depth in template.exceptions]
    new = code.replace(
        co_code=head + bytes(body),
        co_varnames=new_varnames, co_cellvars=cellvars, co_freevars=freevars,
        co_argcount=len(params), co_posonlyargcount=0, co_kwonlyargcount=0,
        co_nlocals=len(new_varnames),
        co_flags=code.co_flags & ~STAR_FLAGS,
        co_stacksize=max(code.co_stacksize, len(layout)),
        co_exceptiontable=_write_exception_table(table),
        co_linetable=_prologue_lines(shift) + code.co_linetable,
        co_qualname=qualname)
    return new, len(prologue_ops) + 1


def _ext(arg: int) -> list[int]:
    """The EXTENDED_ARG bytes an argument needs, most significant first."""
    out = []
    arg >>= 8
    while arg:
        out.insert(0, arg & 0xFF)
        arg >>= 8
    return out


def _prologue_lines(units: int) -> bytes:
    """Line-table entries for ``units`` code units on the ``def`` line (the line the
    table starts from, so the original's entries follow unchanged): each entry says
    "no column, line delta 0" for up to 8 units."""
    out = bytearray()
    while units:
        n = min(units, 8)
        out += bytes((0x80 | (13 << 3) | (n - 1), 0))
        units -= n
    return bytes(out)


def _read_exception_table(table: bytes) -> list[list[int]]:
    """Entries of a code's exception table (varints of 6 bits, the first byte of
    each entry marked by bit 7): start, length, target, depth and lasti."""
    entries, i = [], 0
    while i < len(table):
        entry = []
        for _ in range(4):
            value = table[i] & 63
            while table[i] & 64:
                i += 1
                value = (value << 6) | (table[i] & 63)
            i += 1
            entry.append(value)
        entries.append(entry)
    return entries


def _write_exception_table(entries: list[list[int]]) -> bytes:
    out = bytearray()
    for entry in entries:
        for n, value in enumerate(entry):
            chunks = [value & 63]
            value >>= 6
            while value:
                chunks.insert(0, value & 63)
                value >>= 6
            for j, chunk in enumerate(chunks):
                byte = chunk | (64 if j < len(chunks) - 1 else 0)
                out.append(byte | (128 if n == 0 and j == 0 else 0))
    return bytes(out)
