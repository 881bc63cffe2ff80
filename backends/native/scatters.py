"""Stores through integer index arrays (NumPy's advanced-index assignment) as a
sequential nest: ``x[idx] = v``, ``P[rows, cols] = 0``, ``A[:, cols] = v`` and
``x[idx] += v`` (the graph's gather, ``add(.., out=)`` into it, then this store).

Before, any index array in a ``setitem`` kept the whole graph in tier 1 (the first
refusal of 7 of the 279 graphs of the real-world corpora once gathers lowered,
2026-12-05: histogram-like updates, sparse updates, particle deposits).

    x[idx] = v      (x (n,), idx (k,) int64, v (k,))   ->
        for i in range(k):                       # never prange: see below
            t = idx[i]
            w = t + n if t < 0 else t
            bad = (w < 0) or (w >= n)
            nf |= bad                             # NumPy raises IndexError: tier 1 reruns
            if not bad:                           # ... and nothing is written past x
                <save x[w] if x is an input>
                x[w] = v[i]

NumPy's semantics, which the nest keeps:

- repeated indices: the **last** write wins. NumPy's assignment walks the broadcast
  index in C order; so does the nest, and it is never a ``prange`` (threads would
  race on a repeated index);
- ``x[idx] += v`` is not an accumulation: NumPy gathers ``x[idx]`` into a new array,
  adds ``v`` to it, and stores it back, so an index repeated gets one add of the
  original value. The graph says exactly that (``getitem``, ``add(out=)``, ``setitem``)
  and each node lowers as NumPy runs it; no special case;
- an index out of bounds raises ``IndexError`` before NumPy writes anything; the
  kernel skips that element's write, flags the call, and tier 1 reruns it on the
  inputs restored from their backups (saves.py), which raises as eager;
- the value is cast as ``setitem``'s (stencils.py): a narrowing float store or a
  cast a kernel cannot do stays in tier 1.

Which forms: integer index arrays and ints next to each other (the index items'
advanced part consecutive), other items constant slices (no ``None``, ``...`` or
boolean mask). NumPy's layout of the indexed result does not matter to a store. The
target may be a view (``row = A[2]; row[idx] = v``: indices checked against the
view's shape, written into the base at the view's index composed with them) or a
loop's carried array (its backup companions save each element before its first write,
as for a slice store: stencils.py).
"""

from __future__ import annotations

from dynamo.graph import Node

from .emitter import SEQ_FLAG
from .gathers import constant_slices, index_items, index_shape
from .ops import Unsupported, _cast, _meta
from .saves import Store
from .values import Arr, Const, Lazy, Scal, View


class Scatters:
    """Methods of ``_Block`` (block.py): ``x[index arrays] = v``."""

    def scatter(self, node: Node):
        base, index, value = node.args
        if node.kwargs:
            raise Unsupported("setitem with keywords")
        target = self.val(base)
        if isinstance(target, Lazy):
            target = self.force(base)
        view = None
        if isinstance(target, View):
            # ``row = A[2]; row[idx] = v``: the base stored at the view's index
            if any(q[0] == "new" or (q[0] == "slice" and isinstance(q[1], str))
                   for q in target.parts):
                raise Unsupported("an array-index store into a view with a new axis "
                                  "or run-time bounds")
            view, target = target, target.base
        dims = view.shape if view is not None else target.shape
        if not isinstance(target, Arr) or not dims:
            raise Unsupported("an array-index store into a non-array")
        items = list(index if isinstance(index, tuple) else (index,))
        if len(items) == 1 and isinstance(items[0], Node) and \
                _meta(items[0]).dtype.kind == "b":
            if view is not None:
                raise Unsupported("a mask store into a view")
            return self.mask_store(node, target, items[0], value)
        items, bshape, shape = self.indexed_region(target, items, dims)
        p, nb = next(k for k, it in enumerate(items) if not isinstance(it, slice)), len(bshape)
        self.written(target.key)
        v = self._scatter_value(value, target, shape)
        if 0 in shape and isinstance(v, Lazy):
            v = self.force(value)   # eager computes the value whole (and warns) anyway
        serial_store(self, target, items, shape, p, nb, bshape, v, view)
        return target if view is None else view

    def indexed_region(self, target: Arr, items: list, dims: tuple) -> tuple:
        """``(items, bshape, shape)`` of ``target[items] = ...`` or ``ufunc.at(target,
        items, ...)`` over ``dims``: the items padded with full slices (constant ones),
        the shape the index arrays broadcast to, and the shape of the selected region.

            >>> self.indexed_region(A, [slice(None), idx], (4, 9))   # idx: int64[3]
            ([slice(0, 4, 1), idx], (3,), (4, 3))
        """
        if len(items) > len(dims):
            raise Unsupported("too many indices")
        items = items + [slice(None)] * (len(dims) - len(items))
        adv = [k for k, it in enumerate(items) if not isinstance(it, slice)]
        if not adv or adv != list(range(adv[0], adv[0] + len(adv))):
            raise Unsupported("no index array, or index arrays apart")  # (NumPy moves
            # apart ones' axis first)
        if any(isinstance(it, Node) and target.key in self._keys(it) for it in items):
            raise Unsupported("an index array that reads the written array")
        bshape = index_shape(items, adv)
        constant_slices(items)
        if any(dims[k] == 0 for k in adv):
            raise Unsupported("an array index into an empty axis")
        counts = [len(range(*it.indices(n))) if isinstance(it, slice) else None
                  for it, n in zip(items, dims)]
        return items, bshape, (*counts[:adv[0]], *bshape, *counts[adv[-1] + 1:])

    def mask_store(self, node: Node, target: Arr, mask: Node, value):
        """``x[mask] = c`` with a boolean mask of the target's leading shape and one
        value for every element stored (a constant or a scalar, or an array of the
        trailing shape): ``if m[i, j]: x[i, j] = c``. Each element is written at most
        once, so the order does not matter; the nest is sequential as a scatter's."""
        m = _meta(mask)
        if m.scalar or not m.shape or m.shape != target.shape[:len(m.shape)]:
            # (NumPy raises IndexError for a mask of another shape)
            raise Unsupported("a mask of another shape than the target's")
        rest = target.shape[len(m.shape):]
        shape = target.shape
        self.written(target.key)
        v = self._scatter_value(value, target, rest)
        if 0 in shape and isinstance(v, Lazy):
            v = self.force(value)   # eager computes the value whole (and warns) anyway
        if isinstance(v, (Arr, View, Lazy)) and len(v.shape) > len(rest):
            raise Unsupported("a mask store of an array over the stored elements")
        em = self.em
        em.flush()
        deferred = set(em.deferred)
        idx = [em.new("i") for _ in shape]
        stmts: list[str] = []
        e, _ = self.element(self.val(mask), idx[:len(m.shape)], m.shape, stmts, SEQ_FLAG)
        if isinstance(v, Const):
            expr = em.const(v.value, target.dtype)
        else:
            ve, dt = self.element(v, idx[len(m.shape):], rest, stmts, SEQ_FLAG)
            self.settle(ve, stmts, SEQ_FLAG)
            expr = _cast(ve, dt, target.dtype)
        stmts.append(f"if {e}:")
        # (the record's region: run-time indices, as the mask picks the elements)
        parts = [("int", f"({i})") for i in idx]
        stmts += ["    " + line for line in _saves(em, target, idx[0], parts, ())]
        stmts.append(f"    {target.read(idx)} = {expr}")
        if 0 in shape:
            em.deferred = deferred
            return target
        self.inner_loops(idx, shape, stmts)
        return target

    def _scatter_value(self, value, target: Arr, shape: tuple):
        """The stored value, checked as ``setitem`` checks it (stencils.py)."""
        if not isinstance(value, Node):
            return Const(value)
        v = self.val(value)
        if target.key in self._keys(value) and not isinstance(v, Scal):
            # the value reads what this writes: eager computes it whole first
            v = self.env[value] = self.materialize_copy(value, v)
        if isinstance(v, Const):
            return v
        src = v.dtype
        _cast("x", src, target.dtype)   # raises for casts a kernel cannot do
        if src.kind in "fc" and target.dtype.kind in "fc" and \
                target.dtype.itemsize < src.itemsize:
            raise Unsupported("narrowing float assignment")
        vshape = v.shape if isinstance(v, (Arr, View, Lazy)) else ()
        if len(vshape) > len(shape) or any(
                a not in (1, b) for a, b in zip(vshape[::-1], shape[::-1])):
            raise Unsupported("value does not broadcast to the target")
        return v


def serial_store(block, target: Arr, items: list, shape: tuple, p: int, nb: int,
                 bshape: tuple, v, view: View | None = None, combine=None) -> None:
    """Emit the scatter's nest over ``shape`` (the indexed shape), in C order, one
    thread, each element's bounds checked and, for an input, its row (or span) saved
    before its first write. ``combine``: ``(dtype, fn)`` for an update in place
    (ufunc_ats.py): the value is cast to ``dtype`` and ``fn(old, value, lines)``
    returns the stored expression (its statements appended to ``lines``), run only
    where the index is in bounds. ``view``: the store is ``view[items] = v``, ``target``
    the view's base; the items index the view (its bounds), the write goes to the
    base at the view's index composed with them (``A[2, w]`` for ``A[2][idx]``)."""
    em = block.em
    em.flush()
    deferred = set(em.deferred)
    idx = [em.new("i") for _ in shape]
    stmts: list[str] = []
    walked = index_items(block, items, target.shape if view is None else view.shape,
                         [*idx[:p], *idx[p + nb:]], idx[p:p + nb], bshape, stmts,
                         SEQ_FLAG)
    sub = [w for w, _, _ in walked]
    parts = [part for _, part, _ in walked]
    conds = [bad for _, _, bad in walked if bad is not None]
    if view is not None:
        sub = view.subscript([f"({w})" for w in sub])
        # (the record's region: run-time indices, which cover no other store's)
        parts = [("int", f"({w})") for w in sub]
    bad = em.new("t")
    stmts.append(f"{bad} = {' or '.join(conds)}")
    stmts.append(f"{SEQ_FLAG} |= {bad}")
    dtype = target.dtype if combine is None else combine[0]
    if isinstance(v, Const):
        expr = em.const(v.value, dtype)
    else:
        e, dt = block.element(v, idx, shape, stmts, SEQ_FLAG)
        block.settle(e, stmts, SEQ_FLAG)
        expr = _cast(e, dt, dtype)
    stmts.append(f"if not {bad}:")
    counts = () if view is not None else tuple(
        len(range(*it.indices(n))) for it, n in zip(items, target.shape)
        if isinstance(it, slice))
    stmts += ["    " + line for line in _saves(em, target, sub[0], parts, counts)]
    if combine is not None:   # (read only here: an index out of bounds reads nothing)
        lines: list[str] = []
        expr = combine[1](target.read(sub), expr, lines)
        stmts += ["    " + line for line in lines]
    stmts.append(f"    {target.read(sub)} = {expr}")
    if 0 in shape:
        # nothing to run; the body was still lowered (and is dropped) for its checks,
        # whose marks are dropped with it, as ``Nests.nest`` does
        em.deferred = deferred
        return
    block.inner_loops(idx, shape, stmts)


def _saves(em, target: Arr, first: str, parts: list, counts: tuple) -> list:
    """For an input ``target``: the statements that save the row (2 or more
    dimensions) or widen the saved span (1-D) at first-axis index ``first`` before an
    element's write (saves.py), and the store's record for ``saves.free_inputs``
    (``parts``: per base axis, ``("int", expr)`` for an index known at run time, which
    no other store's region is taken to cover, or a slice of ``counts``)."""
    saver = target.save
    if saver is None:
        return []
    b, s = saver.backup, saver.state
    # (a loop's carried array: no one input, its companions hold its backup)
    em.stores.append(Store(None if target.input is None else frozenset({target.input}),
                           target.name, tuple(parts), counts, target.shape,
                           bool(em.loops)))
    if saver.ndim >= 2:
        save = "_save_row" if saver.ndim == 2 else "_save_rowN"
        return [f"if not {s}[{first}]:", f"    {save}({target.name}, {b}, {s}, {first})"]
    return [f"if {first} < {s}[0] or {first} > {s}[1]:",
            f"    _save_span({target.name}, {b}, {s}, {first})"]
