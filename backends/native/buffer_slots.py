"""The kernel's lifted intermediates (``emitter.lift_allocations``) share memory where
their values are never alive at once: a liveness colouring over the kernel's top-level
statements (issue #15, peak memory).

A lifted intermediate is a parameter the caller passes in (``Tiered._buffers``): once
a full-size array per intermediate, 25 arrays and 30.9 MB for an anisotropic
diffusion of 1000x1000 float64 whose plain NumPy peak is 11.4 MB. Each one is an
``np.empty``: the kernel writes all of it before reading it, so any memory that no
other value alive at the time uses serves as well. ``assign_slots`` gives every
intermediate a *slot*; the caller makes one byte array per slot (as large as its
largest member) and passes each intermediate as a view of its slot's bytes with its
own shape and dtype (``slot_views``): C-contiguous and aligned as a fresh array, so
Numba's types and the kernel's code are the same as before. Results are not shared
(a new array per call: they are the caller's).

Liveness is by top-level statement of the kernel (a line at the body's indentation
with the lines nested under it: a nest, a loop, an ``if``): an intermediate is alive
from the first statement that names it, or any name bound from an expression that
names it (a view, a loop's carried variable: ``c3 = a5``), to the last such one.
Two intermediates share a slot only when one's last statement comes before the
other's first: a statement that names both (a nest reading one and writing the
other, a loop using both on different trips) keeps them apart. Text order is safe
for an ``if`` too (a branch's statements run at most once, in order), and a kernel
has no jump backwards outside its nested loops.

Example (top-level statements 0-3)::

    a1[...] = p0 ...     # 0: a1 from 0 to 1
    a2[...] = a1 ...     # 1: a2 from 1 to 2
    a3[...] = a2 ...     # 2: a3 from 2 to 3: a1 is dead, a3 takes a1's slot
    r0[...] = a3 ...     # 3
    >>> [b.slot for b in assign_slots(lines, buffers)]      # a1, a2, a3
    [0, 1, 0]
"""

from __future__ import annotations

import math
import re
from dataclasses import replace

import numpy as np

_BODY = "    "              # the kernel body's indentation (lower.lower's lines)
_NAME = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\b")
_ASSIGN = re.compile(r"^\s*([\w, ]+?)\s*(?:=|\+=|-=|\*=|/=|\|=)\s*(.+)$")


def statements(lines: list) -> list[set]:
    """The names each top-level statement of the kernel body reads or writes."""
    out: list[set] = []
    for line in lines:
        if not line.strip():
            continue
        nested = line.startswith(_BODY + " ")
        if not nested or not out:
            out.append(set())
        out[-1].update(_NAME.findall(line))
    return out


def _aliases(lines: list, name: str) -> set:
    """``name`` and every name bound from an expression that names one of them (to a
    fixed point: views of views, carried variables, tuples)."""
    group = {name}
    binds = []
    for line in lines:
        m = _ASSIGN.match(line)
        if m and "[" not in m.group(1):
            binds.append(({t.strip() for t in m.group(1).split(",") if t.strip()},
                          set(_NAME.findall(m.group(2)))))
    grown = True
    while grown:
        grown = False
        for lhs, rhs in binds:
            if rhs & group and not lhs <= group:
                group |= lhs
                grown = True
    return group


def live_ranges(lines: list, names: list) -> dict:
    """name -> (first, last) top-level statement where it or an alias is named; a name
    never named is (-1, -1) (dead: it shares with anything)."""
    stmts = statements(lines)
    ranges = {}
    for name in names:
        group = _aliases(lines, name)
        hits = [i for i, used in enumerate(stmts) if used & group]
        ranges[name] = (hits[0], hits[-1]) if hits else (-1, -1)
    return ranges


def assign_slots(lines: list, buffers: list) -> list:
    """``buffers`` (``emitter.Buffer``) with ``slot`` set: results None (their own
    new array), intermediates by the interval colouring above (greedy by first use; among
    the free slots the smallest that fits, else the largest, which grows)."""
    inter = [b for b in buffers if not b.result]
    ranges = live_ranges(lines, [b.name for b in inter])
    slots: list[list] = []            # per slot: [size in bytes, last statement used]
    slot_of: dict = {}
    for b in sorted(inter, key=lambda b: (ranges[b.name], b.name)):
        first, last = ranges[b.name]
        size = nbytes(b)
        free = [k for k, (_, end) in enumerate(slots) if end < first or first < 0]
        fits = [k for k in free if slots[k][0] >= size]
        if fits:
            k = min(fits, key=lambda k: slots[k][0])
        elif free:
            k = max(free, key=lambda k: slots[k][0])
        else:
            k = len(slots)
            slots.append([0, -1])
        slots[k][0] = max(slots[k][0], size)
        slots[k][1] = max(slots[k][1], last)
        slot_of[b.name] = k
    return [replace(b, slot=None if b.result else slot_of[b.name]) for b in buffers]


def nbytes(buffer) -> int:
    return math.prod(buffer.shape) * np.dtype(buffer.dtype).itemsize


def slot_views(buffers) -> tuple:
    """One set of the kernel's intermediates: a byte array per slot, each intermediate
    a view of its slot's bytes with its own shape and dtype (None for results)."""
    sizes: dict = {}
    for b in buffers:
        if not b.result:
            sizes[_key(b)] = max(sizes.get(_key(b), 0), nbytes(b))
    bases = {k: np.empty(n, np.uint8) for k, n in sizes.items()}
    return tuple(None if b.result else
                 bases[_key(b)][:nbytes(b)].view(b.dtype).reshape(b.shape)
                 for b in buffers)


def _key(buffer):
    """The slot of an intermediate; one of its own where none was assigned."""
    return buffer.slot if buffer.slot is not None else buffer.name
