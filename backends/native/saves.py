"""Backups of the inputs a kernel writes, taken inside the kernel at the first write.

A tier-2 call that the kernel flags (a NaN or infinity NumPy would report) reruns in
tier 1, which must see the inputs as the caller passed them: every part of an input the
kernel writes is saved first. Copying whole inputs before the call cost as much as the
kernel itself on the prefix sum (8 MB); so the kernel saves what it is about to
overwrite, where the data is in cache anyway, and only that:

- an input of 2 or more dimensions is saved by **rows** (first-axis index): a bool per
  row says whether its old contents are in the backup; a nest over rows saves each row
  in its outer iteration (a ``prange`` iteration owns its row, so threads never save
  the same row): inside the store's own inner loop when it stores consecutive columns
  (``RowSave``), else at the start of the iteration; a store at a fixed row saves it
  before the nest;
- a 1-D input keeps a **saved span** ``[lo, hi]`` (``[0, -1]``: nothing yet): a store
  at ``e`` widens the span to hold ``e``, copying the elements between. A loop that
  walks the array forward (the prefix sum) saves one element per trip, beside the
  store, which costs almost nothing; any order is exact (the span only grows, so an
  element is saved once, before its first write), at most one copy in all.

The kernel gets two more parameters per input it may write: ``_b<k>`` (the backup, an
array of the input's shape and dtype) and ``_s<k>`` (the rows' bools, or the span as two
int64; the underscore keeps them apart from the emitter's names). ``tier.py``
allocates them once, resets the state before each call and, after a flagged call,
copies the saved parts back (``restore``).

Arrays a loop carries (``A, B = B, A``) may be either input from trip to trip: each
carried array has companion variables holding its backup and state, moved with it.
Where a loop's moves cannot keep that pairing (a carried slot that holds an input on
one trip and a new array on another), the inputs involved are saved whole before the
loop (their state then says "all saved", so a stale companion copies nothing).

An input whose old contents no call can read (``free_inputs``: its first access is a
store whose region holds every later store into it) is not saved while a rerun in
tier 1 cannot stop before that store (``tier._rerun_completes``): ``mark_saved`` sets
its state to "all saved" before the call, so every save above copies nothing, and
``restore`` skips it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

# Helpers the generated code calls (appended to ops.PRELUDE).
SAVE_PRELUDE = '''

@njit
def _save_row(p, b, m, r):   # the first write into row r of a 2-D input: keep it
    for j in range(p.shape[1]):   # (a loop: a quarter faster than b[r] = p[r])
        b[r, j] = p[r, j]
    m[r] = True


@njit
def _save_rowN(p, b, m, r):  # the same for 3 or more dimensions
    b[r] = p[r]
    m[r] = True


@njit
def _save_rows(p, b, m):     # every row not saved yet
    for r in range(p.shape[0]):
        if not m[r]:
            b[r] = p[r]
            m[r] = True


@njit
def _save_span(p, b, s, e):  # widen the saved span s = [lo, hi] of a 1-D input to hold e
    if e < 0:
        e += p.shape[0]
    lo, hi = s[0], s[1]
    if lo > hi:
        b[e] = p[e]
        s[0] = e
        s[1] = e
    elif e < lo:
        for i in range(e, lo):
            b[i] = p[i]
        s[0] = e
    elif e > hi:
        for i in range(hi + 1, e + 1):
            b[i] = p[i]
        s[1] = e
'''


@dataclass(frozen=True)
class Saver:
    """The kernel variables that save one input array before its writes: ``backup``
    and ``state`` (see the module docstring); ``inputs``: the graph inputs they may
    belong to (one, except for a loop's companions after a move)."""

    backup: str
    state: str
    inputs: frozenset
    ndim: int
    rows: int      # the first axis's length


@dataclass
class LoopSaves:
    """What the saves of stores inside one loop (``for trip in range(trips)``) need to
    know: ``moving``, the backups of carried arrays that change places from trip to
    trip; ``first``, statements to run before the loop (filled while its body is
    lowered)."""

    trip: str
    trips: int | None    # (None: an expression of an enclosing trip, maybe 0 or below)
    moving: set
    first: list = field(default_factory=list)


def input_saver(k: int, shape: tuple) -> Saver:
    """The parameters ``_b<k>``, ``_s<k>`` of the kernel for input ``k``."""
    return Saver(f"_b{k}", f"_s{k}", frozenset({k}), len(shape), shape[0])


def save_whole(saver: Saver, array: str) -> str:
    """A statement that saves every part of ``array`` not saved yet."""
    b, s = saver.backup, saver.state
    if saver.ndim >= 2:
        return f"_save_rows({array}, {b}, {s})"
    if saver.rows == 0:
        return "pass"   # an empty array: nothing to save
    return f"_save_span({array}, {b}, {s}, 0); _save_span({array}, {b}, {s}, {saver.rows - 1})"


@dataclass(frozen=True)
class RowSave:
    """A row of a 2-D input saved by the store's own nest, the first time an outer
    iteration writes it: the nest runs its inner loop twice over, as

    ``if {test}: {first}; for j: {element}; <the store>`` ``else: for j: <the store>``

    so the old element is copied out where the store reads its cache line anyway,
    instead of in a pass of its own over the row before the store (Jacobi: 0.7 ms of
    saves became 0.45 on one thread). ``first``: the row's mark and the copies of its
    columns the store does not cover."""

    test: str
    first: list
    element: str


def save_before_store(saver: Saver, array: str, dest, shape: tuple, idx: list,
                      new, loop: LoopSaves | None
                      ) -> tuple[list[str], list[str], RowSave | None]:
    """Statements that save what a nest storing into ``dest`` (a view of ``array``,
    over ``shape``, indexed by ``idx``) is about to overwrite: ``(before the nest, at
    the start of its outer loop's body, a row saved by the nest itself)``. ``new``
    makes a fresh variable name; ``loop``: the innermost loop around the store, if
    any."""
    b, s = saver.backup, saver.state
    part = dest.parts[0]
    first = dest.subscript(idx)[0]   # the base's first-axis index of a stored element
    if saver.ndim >= 2:
        # a row index: numba wraps a negative one around, for s and b alike
        save = "_save_row" if saver.ndim == 2 else "_save_rowN"
        line = [f"if not {s}[{first}]:", f"    {save}({array}, {b}, {s}, {first})"]
        if part[0] == "int":
            return line, [], None
        fused = _row_save_in_nest(saver, array, dest, shape, idx, new)
        return ([], [], fused) if fused is not None else ([], line, None)
    if part[0] == "int":   # one element (a scalar store, in a loop: the prefix sum)
        e = new("e")
        start = _forward_start(first, loop, saver)
        if start is not None:
            # the store walks forward one element a trip: once its first element is
            # in the span (saved before the loop), every later one is in it or next
            # to it, and the widening below (no call, no inner loop) is all it needs;
            # a call in the loop would keep LLVM from carrying the previous trip's
            # stored value in a register (the prefix sum: 4 ms instead of 1.4 ms)
            if loop.trips > 0:
                loop.first.append(f"_save_span({array}, {b}, {s}, {start})")
            return [f"{e} = {first}",
                    f"if {e} == {s}[1] + 1:   # the next element: save it beside the store",
                    f"    {b}[{e}] = {array}[{e}]",
                    f"    {s}[1] = {e}"], [], None
        return [f"{e} = {first}",
                f"if {e} == {s}[1] + 1:   # the next element: save it beside the store",
                f"    {b}[{e}] = {array}[{e}]",
                f"    {s}[1] = {e}",
                f"elif {e} < {s}[0] or {e} > {s}[1]:",
                f"    _save_span({array}, {b}, {s}, {e})"], [], None
    _, start, step = part    # a slice: the elements it covers, before the nest
    last = start + step * (shape[0] - 1)
    return [f"_save_span({array}, {b}, {s}, {min(start, last)})",
            f"_save_span({array}, {b}, {s}, {max(start, last)})"], [], None


def _row_save_in_nest(saver: Saver, array: str, dest, shape: tuple, idx: list,
                      new) -> RowSave | None:
    """The row save of a 2-D nest that stores into consecutive columns of each row
    (``B[1:-1, 1:-1] = ...``), done by the nest itself (``RowSave``); None for other
    stores (a column at a time, strided columns, 3 or more dimensions), which save
    the row with ``_save_row`` before its inner loop."""
    col = dest.parts[1]
    if saver.ndim != 2 or len(shape) != 2 or col[0] != "slice" or col[2] != 1:
        return None
    b, s = saver.backup, saver.state
    row, column = dest.subscript(idx)
    start, end, width = col[1], col[1] + shape[1], dest.base.shape[1]
    first = [f"{s}[{row}] = True"]
    for lo, hi in ((0, start), (end, width)):   # the columns the store leaves alone
        if lo < hi:
            j = new("j")
            first += [f"for {j} in range({lo}, {hi}):",
                      f"    {b}[{row}, {j}] = {array}[{row}, {j}]"]
    return RowSave(f"not {s}[{row}]", first,
                   f"{b}[{row}, {column}] = {array}[{row}, {column}]")


def _forward_start(index: str, loop: LoopSaves | None, saver: Saver) -> int | None:
    """``c`` when a store's index is ``(trip + c)`` (``c >= 0``) in the innermost loop
    and its array keeps its place in that loop; else None."""
    if loop is None or loop.trips is None or saver.backup in loop.moving:
        return None   # (a loop that may run no trip: no save before it)
    m = re.fullmatch(rf"\(\s*{loop.trip}\s*(?:\+\s*(\d+)\s*)?\)", index)
    return int(m.group(1) or 0) if m else None


@dataclass(frozen=True)
class Store:
    """One store into an array that may be an input, as the lowering emitted it:
    ``inputs``, the input it is, or None for a loop's carried array (which may hold
    any input from trip to trip: a companion ``Saver``'s ``inputs`` name the input it
    held when the loop began, not the one a swap brought); the target's variable
    ``name``, the stored region (``View.parts`` of the base, one part per base
    dimension, ``shape`` the view's), the base's ``dims`` and whether it runs in a
    loop node's body (``in_loop``)."""

    inputs: frozenset | None
    name: str
    parts: tuple
    shape: tuple
    dims: tuple
    in_loop: bool


def _axis_set(part, count: int, dim: int):
    """The indices of one base axis a store covers: ``range`` when known, None when it
    depends on the kernel's values (a loop's index)."""
    if part[0] == "int":
        text = part[1].strip("() ")
        if text.lstrip("-").isdigit():
            i = int(text)
            return range(i % dim, i % dim + 1) if -dim <= i < dim else range(0)
        return None
    _, start, step = part
    return range(start, start + step * count, step)


def _covers(first: Store, later: Store) -> bool:
    """Every element ``later`` stores is one ``first`` stores (the same base
    shape; per axis the index sets nest; an index known only at run time is inside
    only an axis ``first`` covers whole)."""
    if first.dims != later.dims:
        return False
    counts = iter(first.shape)
    later_counts = iter(later.shape)
    for a, b, dim in zip(first.parts, later.parts, first.dims):
        ra = _axis_set(a, 1 if a[0] == "int" else next(counts), dim)
        rb = _axis_set(b, 1 if b[0] == "int" else next(later_counts), dim)
        if ra is None:
            return False
        if len(ra) == dim:
            continue   # the whole axis: any index of it
        if rb is None or not set(rb) <= set(ra):
            return False
    return True


def free_inputs(writes: list, stores: list, whole: set, lines: list) -> tuple:
    """The written inputs whose old contents no call can read: the kernel's first
    access to input ``k`` is a store ``S`` (at the kernel's top level, not in a loop
    node, its value not reading ``k``: a value that reads its target is copied
    first, which reads ``k``) and every later store into ``k``'s memory, direct or
    through a loop's carried arrays, stays inside the region ``S`` stores. So each
    element the kernel ever writes is written by ``S`` before anything reads it, and
    every other element keeps the caller's value.

    Such an input needs no backup **when tier 1 cannot stop before ``S`` is done**:
    a flagged call reruns in tier 1 on the input as the kernel left it, and tier 1
    stores ``S`` again, the same values from the same (restored) other inputs, before
    it reads any of them; ``tier._rerun_completes`` checks that condition on each call
    (NumPy's error state warns, no warning filter raises; no draws, no NumPy calls in
    the kernel). Where eager could raise before ``S`` (``np.seterr(all="raise")``,
    warnings as errors) it leaves the input as the caller gave it, and the backup is
    kept.

    Example: Jacobi's ``B[1:-1, 1:-1] = 0.25 * (A[...] + ...)`` in its first step
    (peeled before the loop) is ``B``'s first access; the loop's stores into ``B``
    (as the carried ``A, B = B, A``) write the same region, its reads of ``B``'s
    border read what no call writes: ``B`` is free, ``A`` (read first) is not.

    ``writes``: the inputs the kernel may write (``Kernel.writes``); ``stores``:
    ``Store`` records in emission order (a carried array's store counts for every
    input); ``whole``: inputs a loop saves whole;
    ``lines``: the kernel's source lines. Returns the free inputs' indices."""
    free = []
    for k in writes:
        mine = [s for s in stores if s.inputs is None or k in s.inputs]
        if k in whole or not mine:
            continue
        first = mine[0]
        if first.in_loop or first.name != f"p{k}" or first.inputs != frozenset({k}):
            continue
        if not all(_covers(first, s) for s in mine[1:]):
            continue
        # the first mention of p<k> that is no save of it must be S's store
        word = re.compile(rf"\bp{k}\b")
        saves = re.compile(rf"\b_[bs]{k}\b")
        for line in lines:
            if word.search(line) and not saves.search(line):
                if re.match(rf"\s*p{k}\[[^=]*\] = ", line):
                    free.append(k)
                break
    return tuple(free)


def new_savers(written: list) -> list:
    """Backup and state arrays for the inputs a kernel writes, in kernel order."""
    out = []
    for w in written:
        out.append(np.empty(w.shape, w.dtype))
        out.append(np.zeros(w.shape[0], np.bool_) if w.ndim >= 2
                   else np.array([0, -1], np.int64))
    return out


def reset(savers: list) -> None:
    """Nothing saved yet (before each call)."""
    for state in savers[1::2]:
        if state.dtype == np.bool_:
            state.fill(False)
        else:
            state[0], state[1] = 0, -1


def mark_saved(savers: list, positions: tuple) -> None:
    """Say "all saved" in the states of the written inputs at ``positions`` (of
    ``Kernel.writes``): the kernel's saves of them then copy nothing (every save
    tests the state first), and ``restore`` must skip them (``free_inputs``)."""
    for i in positions:
        state = savers[2 * i + 1]
        if state.dtype == np.bool_:
            state.fill(True)
        else:
            state[0], state[1] = 0, savers[2 * i].shape[0] - 1


def restore(written: list, savers: list, skip: tuple = ()) -> None:
    """Copy the saved parts back into the inputs (after a flagged call), but for the
    positions ``skip`` (inputs ``mark_saved`` left unsaved)."""
    for i, (w, backup, state) in enumerate(zip(written, savers[0::2], savers[1::2])):
        if i in skip:
            continue
        if state.dtype == np.bool_:
            rows = np.flatnonzero(state)
            if rows.size:
                w[rows] = backup[rows]
        else:
            lo, hi = int(state[0]), int(state[1])
            if lo <= hi:
                w[lo:hi + 1] = backup[lo:hi + 1]
