"""Integer-array indexing (NumPy's advanced indexing) as a gather nest: ``x[idx]``,
``P[rows, cols]``, ``W[idx, 3]`` become a new array filled element by
element from the computed index, with NumPy's negative indices and its bounds check.

Before, any array index kept the whole graph in tier 1 (the first refusal of 26 of
the 279 graphs of the real-world corpora once ``out=`` lowered, 2026-12-05:
cross-entropy's ``p[arange(n), y]``, embeddings, Markov chains, cellular automata over
neighbour lists; ``scripts/native_outcomes.py --lower-only``).

    g = x[idx]       (x (n, m), idx (k,) int64)   ->
        for i in range(k):
            for j in range(m):
                t = idx[i]
                w = t + n if t < 0 else t
                nf |= (w < 0) or (w >= n)        # NumPy raises IndexError: tier 1 reruns
                c = w if not ((w < 0) or (w >= n)) else 0   # ... nothing read past x
                g[i, j] = x[c, j]

Which forms: integer index arrays and ints (int scalars of the kernel among them)
first, or apart (``b[i, :, j]``: NumPy puts the index dimensions first, C-ordered),
other items constant slices (no ``None``, ``...`` or boolean mask). ``A[:, cols]``:
NumPy's result is F-ordered there (its index dimension laid out first), a kernel's
new array is C-ordered; lowered only where nothing shows the order (``layouts.py``:
the integral-image box filter), or, any number of dimensions (``x[:, idx]`` of a 2-D
``idx``), laid out as NumPy lays it out where only NumPy's products (``einsum``,
``matmul``) and stores read it (``layouts.gather_layout``): a C buffer of the index's
shape then the sliced axes, transposed. The result is always a new array, as NumPy's.
An int scalar of the kernel with no index array (``log_B[:, obs[t]]``: Viterbi, an
HMM's forward pass) is NumPy's basic indexing, a view (``Gathers.scalar_index_view``),
with the same wrap and bounds check.
"""

from __future__ import annotations

import numpy as np

from dynamo.graph import Node

from .emitter import SEQ_FLAG
from .layouts import gather_layout
from .ops import Unsupported, _dt, _meta
from .strided import inverse
from .values import Arr, Lazy, Scal, View, _compose


def has_array_index(index) -> bool:
    """Whether a getitem's index holds a graph value (an index array)."""
    items = index if isinstance(index, tuple) else (index,)
    return any(isinstance(item, Node) for item in items)


def index_shape(items: list, adv: list[int], scalars: bool = False) -> tuple:
    """The broadcast shape of the index items at ``adv`` (integer index arrays and
    ints; ``scalars``: also int scalars of the kernel, as ints), or Unsupported for any
    other item (a float, bool or uint64 array...).

    ``x[idx, 3]`` with ``idx`` of shape (4,) -> (4,)"""
    shapes = []
    for it in (items[k] for k in adv):
        if isinstance(it, Node):
            m = _meta(it)
            # (uint64 past int64's range would wrap to a negative index here)
            if (m.scalar and not scalars) or not (m.shape or m.scalar) or not (
                    m.dtype.kind == "i" or (
                    m.dtype.kind == "u" and m.dtype.itemsize < 8)):
                raise Unsupported("an index array that is not of integers")
            shapes.append(m.shape)
        elif isinstance(it, (int, np.integer)) and not isinstance(it, (bool, np.bool_)):
            shapes.append(())
        else:
            raise Unsupported(f"index {type(it).__name__}")
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise Unsupported("index arrays that do not broadcast") from None


def constant_slices(items: list) -> None:
    """Unsupported unless every slice among ``items`` has constant int bounds."""
    for it in items:
        if isinstance(it, slice) and not all(
                s is None or (isinstance(s, int) and not isinstance(s, bool))
                for s in (it.start, it.stop, it.step)):
            raise Unsupported("slice with non-constant bounds")


def wrapped_index(em, stmts: list, expr: str, n: int) -> str:
    """Emit NumPy's negative-index wrap of ``expr`` on an axis of length ``n`` into
    ``stmts``; the name of the wrapped index (still to be checked against ``0 <= w <
    n``). One name per statement: the kernel's passes move statements by name.

        t3 = np.int64(idx[i])
        t4 = t3 + 5 if t3 < 0 else t3
    """
    t, w = em.new("t"), em.new("t")
    stmts.append(f"{t} = np.int64({expr})")
    stmts.append(f"{w} = {t} + {n} if {t} < 0 else {t}")
    return w


def index_items(block, items: list, dims: tuple, slice_idx: list, bidx: list,
                bshape: tuple, stmts: list, flag: str) -> list:
    """Per index item of a gather or a scatter (``items``, one per axis of lengths
    ``dims``): ``(subscript, part, bad)``. A constant slice is an offset of its nest
    index (the next of ``slice_idx``), ``part`` ``("slice", start, step)``, ``bad``
    None; an index array (read at the broadcast index ``bidx`` of ``bshape``) or an
    int is wrapped as NumPy wraps negative indices, ``part`` ``("int", "(w)")`` and
    ``bad`` its bounds condition (NumPy's ``IndexError``), which the caller flags and
    guards its read or write with.

        x[idx, 1:7:2]  ->  [("t4", ("int", "(t4)"), "(t4 < 0) or (t4 >= 6)"),
                            ("(1 + 2 * i2)", ("slice", 1, 2), None)]
    """
    rest, out = iter(slice_idx), []
    for k, it in enumerate(items):
        if isinstance(it, slice):
            start, _, step = it.indices(dims[k])
            i = next(rest)
            out.append((f"({start} + {step} * {i})" if (start, step) != (0, 1) else i,
                        ("slice", start, step), None))
            continue
        n = dims[k]
        if isinstance(it, Node):
            e, _ = block.element(block.val(it), bidx, bshape, stmts, flag)
        else:
            e = str(int(it))
        w = wrapped_index(block.em, stmts, e, n)
        out.append((w, ("int", f"({w})"), f"({w} < 0) or ({w} >= {n})"))
    return out


def indexed_operand(block, node: Node):
    """``(the indexed value, the index, the result's metadata)`` of a getitem node,
    with a lazy operand forced; Unsupported for keywords."""
    base, index = node.args
    if node.kwargs:
        raise Unsupported("getitem with keywords")
    v = block.val(base)
    if isinstance(v, Lazy):
        v = block.force(base)
    return v, index, _meta(node)


class Gathers:
    """Methods of ``_Block`` (block.py): ``x[index arrays]``."""

    def gather(self, node: Node):
        v, index, meta = indexed_operand(self, node)
        if not isinstance(v, (Arr, View)):
            raise Unsupported("an array index into a non-array")
        items = list(index if isinstance(index, tuple) else (index,))
        if all(not isinstance(it, Node) or _meta(it).scalar for it in items):
            # ``log_B[:, obs[t]]``: an int scalar is a plain index, the result a view
            return self.scalar_index_view(v, items, meta)
        if meta.scalar:
            raise Unsupported("an array index into a non-array")
        if len(items) > len(v.shape):
            raise Unsupported("too many indices")
        items += [slice(None)] * (len(v.shape) - len(items))
        adv = [k for k, it in enumerate(items) if not isinstance(it, slice)]
        bshape = index_shape(items, adv, scalars=True)
        constant_slices(items)
        counts = [len(range(*it.indices(n))) if isinstance(it, slice) else None
                  for it, n in zip(items, v.shape)]
        # Index items apart (``b[i, :, j]``): NumPy puts their dimensions first, C order
        # (strides (80, 40, 8) for (2, 2, 5)), as a kernel's array. Next to each other
        # after a slice (``A[:, cols]``): in place, but NumPy fills a buffer of shape
        # (3, 4) in C order and returns it transposed (strides (8, 32) for (4, 3)),
        # where a kernel's array is C-ordered: only where nothing shows the order.
        together = adv == list(range(adv[0], adv[0] + len(adv)))
        as_numpy = together and adv[0] and gather_layout(self.graph, node)  # (layouts.py)
        p, nb = (adv[0] if together else 0), len(bshape)
        sliced = [c for c in counts if c is not None]
        shape = (*sliced[:p], *bshape, *sliced[p:])
        if shape != meta.shape or v.dtype != meta.dtype:
            raise Unsupported("gather result differs from its metadata")
        if any(v.shape[k] == 0 for k in adv):
            raise Unsupported("an array index into an empty axis")
        name = self.em.new("a")
        perm = (*range(nb, nb + p), *range(nb), *range(nb + p, len(shape)))
        if as_numpy:
            # (its readers' results are laid out as NumPy lays them out: strided.py)
            order = inverse(perm)
            if order != tuple(range(len(shape))):
                if 0 in shape:
                    raise Unsupported("an empty array in a non-C layout")
                self.em.orders[node] = order
            # NumPy's layout: a C buffer (index shape, then the sliced axes) seen
            # transposed; named ``g`` so that no pass takes it for a plain new array
            buf = self.em.new("g")
            self.em.alloc(f"{buf} = np.empty({(*bshape, *sliced)}, {_dt(meta.dtype)})")
            self.em.alloc(f"{name} = {buf}.transpose({perm})")
        else:
            self.em.alloc(f"{name} = np.empty({shape}, {_dt(meta.dtype)})")
        out = Arr(name, shape, meta.dtype, name, fresh=True)

        def body(idx, stmts, flag):
            sub = []
            for w, _, bad in index_items(self, items, v.shape, [*idx[:p], *idx[p + nb:]],
                                         idx[p:p + nb], bshape, stmts, flag):
                if bad is None:
                    sub.append(w)
                    continue
                c = self.em.new("t")
                stmts.append(f"{flag} |= {bad}")
                stmts.append(f"{c} = {w} if not ({bad}) else 0")
                sub.append(c)
            stmts.append(f"{out.read(idx)} = {v.read(sub)}")
        self.nest(shape, body, writes=name)
        return out

    def scalar_index_view(self, v, items: list, meta):
        """``x[..., k, ...]`` with ``k`` an int scalar of the kernel (no index array):
        NumPy's basic indexing, a view (or an element), as ``A[1:-1, 3]``; the index
        wrapped and checked once where the getitem stands:

            t1 = np.int64(s4) ; t2 = t1 + 16 if t1 < 0 else t1
            _nf |= (t2 < 0) or (t2 >= 16)      # NumPy raises IndexError: tier 1 reruns
            t3 = t2 if 0 <= t2 < 16 else 0     # ... and nothing reads past the array
            (the view reads log_B[i, t3])
        """
        if any(it is Ellipsis for it in items):
            raise Unsupported("an int scalar index beside ...")
        real = [it for it in items if it is not None]
        if len(real) > len(v.shape):
            raise Unsupported("too many indices")
        em, plain, names, d = self.em, [], {}, 0
        for k, it in enumerate(items):
            if it is None:
                plain.append(None)
                continue
            n = v.shape[d]
            d += 1
            if not isinstance(it, Node):
                plain.append(it)
                continue
            index_shape([it], [0], scalars=True)   # an int scalar (no bool, no uint64)
            s = self.val(it)
            if not isinstance(s, Scal):
                raise Unsupported("an int scalar index that is no scalar of the kernel")
            if n == 0:
                raise Unsupported("an array index into an empty axis")
            stmts: list[str] = []
            w = wrapped_index(em, stmts, s.name, n)
            c = em.new("t")
            stmts += [f"{SEQ_FLAG} |= ({w} < 0) or ({w} >= {n})",
                      f"{c} = {w} if 0 <= {w} < {n} else 0"]
            for line in stmts:
                em.line(line)
            names[k] = c
            plain.append(0)
        parts, shape = self.index_parts(v.shape, tuple(plain))
        for k, c in names.items():
            parts[k] = ("int", c)
        if isinstance(v, View):
            view = _compose(View(v.base, v.parts, v.shape, v.dtype), parts, shape)
        else:
            view = View(v, parts, shape, v.dtype)
        if shape != meta.shape or v.dtype != meta.dtype:
            raise Unsupported("getitem result differs from its metadata")
        if meta.scalar:   # x[i, k]: NumPy copies the element out
            name = em.new("s")
            em.read_line(f"{name} = {view.read([])}", {view.base.name})
            return Scal(name, meta.dtype)
        if not shape:
            raise Unsupported("0-d view")
        return view
