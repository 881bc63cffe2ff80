"""The kernel's source lines being written: indentation, fresh names, constants as
module globals, and the pending row group (nests over the same rows fused under one
outer loop)."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from dynamo.ops.quiet import warnings_as

from .ops import Unsupported

# The kernel's flag for sequential code: every check outside a prange ORs into it (a
# prange's rows have flags of their own, stored into the array ``_bad``); the kernel
# returns ``_bad[0] | _nf``.
SEQ_FLAG = "_nf"


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

    def flush(self) -> None:
        """Emit the pending row group: one outer loop around its nests' inner loops."""
        group, self.group = self.group, None
        if group is None:
            return
        loop = "prange" if group.parallel else "range"
        self.lines.append(f"{group.pad}for {group.outer} in {loop}({group.rows}):")
        self.lines.append(f"{group.pad}    {group.flag} = False")
        self.lines += [group.pad + "    " + line for line in group.lines]
        self.lines.append(f"{group.pad}    if {group.flag}:")
        self.lines.append(f"{group.pad}        _bad[0] = True")

    def const(self, value, dtype: np.dtype) -> str:
        """A module global holding ``value`` as a NumPy scalar of ``dtype`` (Numba
        freezes globals as constants); a value that does not survive the cast exactly
        (NumPy would warn or raise) is Unsupported."""
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
