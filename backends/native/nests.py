"""Loop nests: one per stored or materialized value, the outer loop a ``prange`` when
large; nests that fill new arrays over the same rows join one row group."""

from __future__ import annotations

import math
import re

from dynamo.graph import Node

from .emitter import SEQ_FLAG, _RowGroup, row_flag
from .ops import Unsupported, _dt, _meta
from .strided import alloc_lines, node_order
from .values import Arr, Lazy, Scal


class Nests:
    """Methods of ``_Block`` (block.py): loop nests, row groups, materialized values."""

    def nest(self, shape: tuple, body, writes: str | None = None, save=None) -> None:
        """A loop nest over ``shape``; ``body(idx, stmts, flag)`` fills the innermost
        statements. The outer loop is a ``prange`` for large nests. A nest that fills
        the new array ``writes`` may join the pending row group (``join``). ``save(idx)``
        gives the statements that back up what the nest overwrites in an input
        (saves.py): ``(before the nest, at the start of the outer loop's body)``."""
        em = self.em
        size = math.prod(shape)
        if size == 0:
            # nothing to run, but the body is still lowered (and dropped): its checks
            # (an op or a cast with no exact lowering, a constant NumPy warns about when
            # it casts it, whatever the size) must refuse the graph as for any size
            deferred = set(em.deferred)
            body([em.new("i") for _ in shape], [], SEQ_FLAG)
            em.deferred = deferred
            return
        idx = [em.new("i") for _ in shape]
        par = bool(size >= em.parallel_min and shape and shape[0] > 1)
        # a prange's rows run in threads: each row has its own flag, stored into _bad;
        # sequential code ORs into the kernel's one flag (no branch, no store per nest)
        flag = em.new("nf") if par else SEQ_FLAG
        stmts: list[str] = []
        deferred = set(em.deferred)   # (restored if a row group takes the nest instead)
        body(idx, stmts, flag)
        if writes is not None and shape and shape[0] > 1:
            checked, em.deferred = em.deferred, deferred
            if self.join(shape, body, par, writes):
                return
            em.deferred = checked
        em.flush()
        em.parallel |= par
        before, outer, row_save = save(idx) if save is not None else ([], [], None)
        # a row's flag: stored into _bad, or counted in a one-dimensional nest (row_flag)
        flag_before, flag_row, flag_after = row_flag(flag, len(shape) == 1) if par \
            else ([], [], [])
        for s in before + flag_before:
            em.line(s)
        saved = em.pad
        if not shape:
            for s in stmts:
                em.line(s)
            return
        em.line(f"for {idx[0]} in {'prange' if par else 'range'}({shape[0]}):")
        em.pad += "    "
        if par:
            em.line(f"{flag} = False")
        for s in outer:
            em.line(s)
        if row_save is None:
            self.inner_loops(idx[1:], shape[1:], stmts)
        else:   # the row's first write saves it element by element (saves.RowSave)
            em.line(f"if {row_save.test}:")
            em.pad += "    "
            for s in row_save.first:
                em.line(s)
            self.inner_loops(idx[1:], shape[1:], [row_save.element, *stmts])
            em.pad = saved + "    "
            em.line("else:")
            em.pad += "    "
            self.inner_loops(idx[1:], shape[1:], stmts)
            em.pad = saved + "    "
        for s in flag_row:
            em.line(s)
        em.pad = saved
        for s in flag_after:
            em.line(s)

    def inner_loops(self, idx: list, shape: tuple, stmts: list) -> None:
        """``for`` loops over ``shape`` around ``stmts``, at the current indentation
        (which they leave as they found it)."""
        em = self.em
        saved = em.pad
        for i, n in zip(idx, shape):
            em.line(f"for {i} in range({n}):")
            em.pad += "    "
        for s in stmts:
            em.line(s)
        em.pad = saved

    def join(self, shape: tuple, body, par: bool, writes: str) -> bool:
        """Add the nest to the pending row group (or start one); False if it cannot
        join: other rows, or it reads an array of the group at another row."""
        em = self.em
        group = em.group
        if group is not None and (group.rows != shape[0] or group.pad != em.pad):
            em.flush()
            group = None
        fresh = group is None
        if fresh:
            group = _RowGroup(shape[0], par, em.new("i"), em.new("nf"), em.pad, [], set())
        idx = [group.outer] + [em.new("i") for _ in shape[1:]]
        stmts: list[str] = []
        deferred = set(em.deferred)
        body(idx, stmts, group.flag)
        text = "\n".join(stmts)
        # it reads an array of the group at another row; or it stores into an array
        # that the group read at another row (outs.py: a store into one of the kernel's
        # own arrays joins too), which that read must see as it was: a new group
        if any(_off_row(name, text, group.outer) for name in group.fresh) or \
                _off_row(writes, "\n".join(group.lines), group.outer):
            em.flush()
            em.deferred = deferred   # these statements are dropped
            return self.join(shape, body, par, writes)
        pad = ""
        for i, n in zip(idx[1:], shape[1:]):
            group.lines.append(f"{pad}for {i} in range({n}):")
            pad += "    "
        group.lines += [pad + line for line in stmts]
        group.fresh.add(writes)
        group.parallel |= par   # rows are independent: one large member makes it prange
        group.flat &= len(shape) == 1
        if fresh:
            em.flush()
            em.group = group
        em.parallel |= par
        return True

    def materialize(self, node: Node):
        """Compute an elementwise node into a new array (or a scalar variable)."""
        meta = _meta(node)
        if meta.scalar or meta.ndim == 0:
            # a 0-d array is a scalar variable only where it is ``np.copy`` of a scalar
            # (``float(np.abs(u).max())`` copies the max into a 0-d array): read-only,
            # returned as a new 0-d array (call_helpers.output_items); or ``where``
            # of scalars, which Python's ``min(a, b)`` of NumPy scalars traces to
            # (``where(b < a, b, a)[()]``: a DP recurrence's ``min`` of neighbours)
            if not meta.scalar and node.target not in ("copy", "copy_method", "where"):
                raise Unsupported("0-d array")
            stmts: list[str] = []
            expr, _ = self.elementwise(node, [], stmts, SEQ_FLAG)
            self.settle(expr, stmts, SEQ_FLAG)
            for s in stmts:
                self.em.line(s)
            return Scal(expr, meta.dtype)
        name = self.em.new("a")
        order = node_order(self.em.orders, node)
        into = self.into.get(node) if order is None else None
        if into is not None:   # a loop's carried array, made anew each trip: into one of
            self.em.line(f"{name} = {into}")   # its two buffers (loops.py, double_buffers)
        # NumPy's layout where it is not C (an elementwise op of an einsum's result)
        for line in alloc_lines(name, self.em.new("g"), meta.shape, _dt(meta.dtype),
                                order) if into is None else ():
            self.em.alloc(line)
        out = Arr(name, meta.shape, meta.dtype, name, fresh=True)

        def body(idx, stmts, flag):
            expr, _ = self.elementwise(node, idx, stmts, flag)
            self.settle(expr, stmts, flag)
            stmts.append(f"{out.read(idx)} = {expr}")
        self.nest(meta.shape, body, writes=name)
        return out

    def force(self, node: Node):
        """The node's value as something that holds data now (not Lazy)."""
        v = self.env[node]
        if isinstance(v, Lazy):
            self.pending.pop(node, None)
            v = self.env[node] = self.materialize(node)
        return v

    def written(self, key: str) -> None:
        """Before a write into ``key``'s memory: inlined values that read it are
        computed now, as eager computed them before the write."""
        for node, lazy in list(self.pending.items()):
            if key in lazy.keys:
                self.force(node)


    def materialize_copy(self, node: Node, v):
        if isinstance(v, Lazy):
            return self.materialize(node)
        meta = _meta(node)
        name = self.em.new("a")
        self.em.alloc(f"{name} = np.empty({meta.shape}, {_dt(meta.dtype)})")
        out = Arr(name, meta.shape, meta.dtype, name, fresh=True)
        self.nest(meta.shape, lambda idx, stmts, flag: stmts.append(
            f"{out.read(idx)} = {v.read(idx)}"), writes=name)
        return out


def _off_row(name: str, text: str, outer: str) -> bool:
    """Whether ``text`` indexes the array ``name`` at a row other than ``outer``.

        >>> _off_row("a5", "t3 = a5[1 + i2, i4]", "i2"), _off_row("a5", "a5[i2, i4] = t3", "i2")
        (True, False)
    """
    return any(m.group(1).strip() != outer
               for m in re.finditer(rf"\b{name}\[([^,\]]+)", text))
