"""The kernel's source lines being written: indentation, fresh names, constants as
module globals, and the pending row group (nests over the same rows fused under one
outer loop)."""

from __future__ import annotations

import ast
import itertools
import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from dynamo.ops.quiet import warnings_as

from .ops import Unsupported

# The kernel's flag for sequential code: every check outside a prange ORs into it (a
# prange's rows have flags of their own, stored into the array ``_bad``, or counted:
# ``row_flag``); the kernel returns ``_bad[0] | _nf``.
SEQ_FLAG = "_nf"


def row_flag(flag: str, flat: bool) -> tuple[list, list, list]:
    """The lines (before the loop, at the end of each row, after the loop) that carry a
    row's NaN/infinity flag ``flag`` out of an outer loop.

    A row of a nest with inner loops sets ``_bad[0]`` at its end (one branch a row). In
    a one-dimensional loop (``flat``) a row is one element, and that branch and store
    per element kept LLVM from vectorising the loop: the flags are counted instead, in
    a local that the loop adds each row's flag to and that is ORed into ``_nf`` once
    after it (a ``prange`` reduction: Numba takes ``+=`` but not ``|=``; the count is
    exact, so threads and order change nothing). The FIR's hand-written copy: 1.25 ms
    against 2.2 (docs/benchmarks.md). A kernel has no early exit (no ``break`` or
    ``return`` before its last line), so the line after the loop always runs.

        >>> row_flag("nf12", True)
        (['nf12c = 0'], ['nf12c += nf12'], ['_nf |= nf12c != 0'])
    """
    if not flat:
        return [], [f"if {flag}:", "    _bad[0] = True"], []
    count = f"{flag}c"
    return [f"{count} = 0"], [f"{count} += {flag}"], [f"{SEQ_FLAG} |= {count} != 0"]


class _Emitter:
    """Source lines, fresh names and constants shared by a graph and its loop bodies."""

    def __init__(self, parallel_min: int):
        self.lines: list[str] = []
        self.pad = "    "
        self.names = itertools.count()
        self.consts: dict[str, Any] = {}
        self.parallel_min = parallel_min
        self.parallel = False

        self.group: _RowGroup | None = None
        # float temporaries that may hold a NaN or infinity no check has seen yet
        self.deferred: set[str] = set()
        # backups of carried arrays (saves.py): their lines go if nothing reads them
        self.companions: list[str] = []
        self.input_savers: dict = {}   # input index -> its saves.Saver
        self.loops: list = []          # saves.LoopSaves of the loops being lowered
        self.stores: list = []         # saves.Store of each store into a maybe-input
        self.whole_saved: set = set()  # inputs a loop saves whole (saves.free_inputs)
        self.uses_npcall = False       # an op is called through NumPy (calls.py)
        self.uses_blas_dot = False     # a vector dot as NumPy's ddot (dots.py)
        self.global_draws = False      # a draw from NumPy's global RandomState (draws.py)
        self.makes_generators = False  # ``default_rng`` in the kernel (draws.py)
        self.nopython_draws = False    # Numba may make draws itself (nopython_draws.py)
        self.drew_nopython = False     # and made one
        # a float sum in NumPy's order needs C-ordered inputs / C-contiguous ones
        # (reductions._need_numpy_order)
        self.ordered_inputs = False
        self.contiguous_inputs: set = set()
        # node -> NumPy's memory order of its value where it is not C (strided.py)
        self.orders: dict = {}

    def new(self, hint: str) -> str:
        return f"{hint}{next(self.names)}"

    def line(self, text: str) -> None:
        """One statement, after the pending row group (it may read what that writes)."""
        self.flush()
        self.lines.append(self.pad + text)

    def alloc(self, text: str) -> None:
        """An allocation: it may go before the pending row group (nothing reads a new
        array before its own nest writes it)."""
        self.lines.append(self.pad + text)

    def read_line(self, text: str, arrays: set) -> None:
        """A statement that reads the arrays named ``arrays`` and changes nothing but
        its new variable (a blur's tap ``s83 = a22[0]``): it goes before the pending row
        group when the group stores into none of them, so the group stays open for the
        nests after it (the group's rows see the same element either way)."""
        group = self.group
        if group is not None and group.pad == self.pad and not arrays & group.fresh:
            self.lines.append(self.pad + text)
        else:
            self.line(text)

    def flush(self) -> None:
        """Emit the pending row group: one outer loop around its nests' inner loops."""
        group, self.group = self.group, None
        if group is None:
            return
        loop = "prange" if group.parallel else "range"
        before, row_end, after = row_flag(group.flag, group.flat)
        self.lines += [group.pad + line for line in before]
        self.lines.append(f"{group.pad}for {group.outer} in {loop}({group.rows}):")
        self.lines.append(f"{group.pad}    {group.flag} = False")
        self.lines += [group.pad + "    " + line for line in hoist_invariants(group.lines)]
        self.lines += [group.pad + "    " + line for line in row_end]
        self.lines += [group.pad + line for line in after]

    def const(self, value, dtype: np.dtype) -> str:
        """A module global holding ``value`` as a NumPy scalar of ``dtype`` (Numba
        freezes globals as constants); a value that does not survive the cast exactly
        (NumPy would warn or raise) is Unsupported, and so is a sequence: ``dtype.type``
        makes an array of ``(10.0, 5.0)``, which a kernel's scalar store cannot take and
        the disk cache's file cannot write (a store of one, ``pop[0] = prey0, pred0``,
        takes its elements one by one: const_rows.py).

            >>> em.const((10.0, 5.0), np.dtype("float64"))
            Unsupported: a constant sequence (10.0, 5.0) stored as float64
        """
        if isinstance(value, (tuple, list)) or (isinstance(value, np.ndarray)
                                                 and value.ndim > 0):
            raise Unsupported(f"a constant sequence {value!r} stored as {dtype}"[:200])
        with warnings_as("error"):
            try:
                typed = dtype.type(value)
            except (OverflowError, ValueError, TypeError, RuntimeWarning) as e:
                raise Unsupported(f"constant {value!r} as {dtype}: {e}") from None
        if isinstance(value, float) and dtype.kind == "f" and math.isfinite(value) \
                and not np.isfinite(typed):
            raise Unsupported(f"constant {value!r} overflows {dtype}")
        name = f"_k{len(self.consts)}"
        self.consts[name] = typed
        return name


@dataclass
class _RowGroup:
    """Nests over the same rows that write new arrays, fused under one outer loop
    (softmax: the row's max, exp, sum and division while the row is in cache). A nest
    joins only if it reads the group's arrays at the group's row and no other."""

    rows: int
    parallel: bool
    outer: str
    flag: str
    pad: str
    lines: list
    fresh: set
    flat: bool = True   # every nest one-dimensional: its flags counted (``row_flag``)


# New arrays of at least this many bytes are made by the caller (``Tiered``), not by
# the kernel: NumPy asks the kernel for huge pages on arrays of 4 MB or more
# (``madvise``), Numba's allocator does not, and a 40 MB ``np.empty`` in the kernel
# cost 22 ms of page faults a call against 4 with NumPy's (softmax 10000x1000 float32,
# one thread, CPU time). Intermediates (not returned) are kept from call to call.
LIFT_MIN_BYTES = 1 << 20
_ALLOC = re.compile(r"^    (a\d+) = np\.empty\((\([0-9, ]*\)), np\.(\w+)\)$")


@dataclass(frozen=True)
class Buffer:
    """A new array the kernel takes as a parameter instead of allocating it."""

    name: str
    shape: tuple
    dtype: np.dtype
    result: bool      # returned by the kernel: a new array every call; else reused
    slot: int | None = None   # intermediates: the memory it shares with others never
                              # alive at once (buffer_slots.py); None: its own


def lift_allocations(lines: list, results: list, min_bytes: int = LIFT_MIN_BYTES):
    """``lines`` without the allocations of large new arrays at the kernel's top level
    (run once per call), and those arrays as ``Buffer``s for the caller to pass in.

    Example: with ``results == ["a68"]``, the line ``    a68 = np.empty((10000,
    1000), np.float32)`` goes and ``Buffer("a68", (10000, 1000), float32, True)``
    comes back; ``    a3 = np.empty((4,), np.float32)`` (16 bytes) stays."""
    kept, buffers = [], []
    for line in lines:
        m = _ALLOC.match(line)
        if m:
            shape, dtype = ast.literal_eval(m.group(2)), np.dtype(m.group(3))
            if math.prod(shape) * dtype.itemsize >= min_bytes:
                buffers.append(Buffer(m.group(1), shape, dtype, m.group(1) in results))
                continue
        kept.append(line)
    return kept, buffers


_FOR = re.compile(r"^( *)for (\w+) in range\((\d+)(?:, (\d+))?\):$")
_NAME = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\b(?!\s*\()")
_FLAG = re.compile(r"^(nf\d+|_nf)$")


def hoist_invariants(lines: list) -> list:
    """``lines`` with the statements of each ``for`` loop that compute the same value
    on every trip moved before the loop (a row group's inner loops read the row's
    max, mean or sum from a new array, ``t25 = a0[i6, 0]``, on every trip: LLVM cannot
    hoist that load itself, a store into another new array of the loop might alias it
    for all it knows, so the ``sqrt`` or the checks computed from it stayed in the loop
    too). The same operations on the same values: results are unchanged.

    A statement moves when it is ``name = expr`` (``name`` assigned once in the loop)
    or a check ``nf |= expr``, no name in ``expr`` is assigned in the loop (but by a
    statement moved before it), and every array it reads is one the loop stores
    nothing into, the loop storing only into new arrays (``a<k>``, which alias nothing);
    only loops that run at least once (``range(n)``, ``n > 0``): a check moved out of
    a loop that never runs would flag what the loop never computed. Inner loops first,
    so a value can move out of two loops.

    Example::

        for i23 in range(1000):              t25 = a0[i6, 0]
            t24 = p0[i6, i23]          ->    for i23 in range(1000):
            t25 = a0[i6, 0]                      t24 = p0[i6, i23]
            t26 = (t24 - t25)                    t26 = (t24 - t25)
    """
    out: list = []
    i = 0
    while i < len(lines):
        m = _FOR.match(lines[i])
        if m is None:
            out.append(lines[i])
            i += 1
            continue
        pad = m.group(1)
        inner = pad + "    "
        end = i + 1
        while end < len(lines) and (lines[end].startswith(inner) or not lines[end].strip()):
            end += 1
        body = hoist_invariants([line[len(inner):] for line in lines[i + 1:end]])
        start, stop = (0, int(m.group(3))) if m.group(4) is None else \
            (int(m.group(3)), int(m.group(4)))
        moved: list = []
        if stop > start:
            moved, body = _loop_invariant(body, m.group(2))
        out += [pad + line for line in moved]
        out.append(lines[i])
        out += [inner + line for line in body]
        i = end
    return out


def _loop_invariant(body: list, var: str) -> tuple[list, list]:
    """(statements of ``body`` that move before its loop, the rest); ``body`` is the
    loop's lines without their indentation (see ``hoist_invariants``)."""
    assigned: dict = {var: 2}
    stores: set = set()
    for line in body:
        text = line.strip()
        if text.startswith("for "):
            assigned[text.split()[1]] = 2
            continue
        if text.startswith(("if ", "else", "elif ")):
            continue
        lhs, eq, _ = text.partition(" = ") if " |= " not in text else text.partition(" |= ")
        if not eq:
            continue
        if "[" in lhs:
            stores.add(lhs.split("[")[0].strip())
            continue
        for name in lhs.split(","):
            name = name.strip()
            if name:
                assigned[name] = assigned.get(name, 0) + (2 if eq == " |= " else 1)
    fresh_only = all(re.fullmatch(r"a\d+", s) for s in stores)
    moved, kept = [], []
    free: set = set()      # names moved before the loop
    seen: set = set()      # names read so far (a value carried from the trip before)
    for line in body:
        before = set(seen)
        seen.update(_NAME.findall(line))
        if line.startswith(" ") or line.startswith(("for ", "if ", "else", "elif ")):
            kept.append(line)
            continue
        flag = " |= " in line
        lhs, _, expr = line.partition(" |= " if flag else " = ")
        ok = (_FLAG.match(lhs) is not None) if flag else (
            assigned.get(lhs) == 1 and re.fullmatch(r"\w+", lhs) is not None
            and lhs not in before)
        if ok:
            for name in _NAME.findall(expr):
                if name in assigned and name not in free:
                    ok = False
            for arr in re.findall(r"(?<![\w.])([A-Za-z_]\w*)\[", expr):
                if arr in stores or not fresh_only:
                    ok = False
        if ok:
            moved.append(line)
            if not flag:
                free.add(lhs)
        else:
            kept.append(line)
    return moved, kept
