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
                c = w if 0 <= w < n else 0        # ... and nothing reads past the array
                g[i, j] = x[c, j]

Which forms: the index items integer arrays and ints first, then constant slices
(no ``None``, ``...`` or boolean mask). ``A[:, cols]`` stays in tier 1: NumPy's result
there is not C-ordered (its index dimension is laid out first), a kernel's new array
is. The result is always a new array, as NumPy's.
"""

from __future__ import annotations

import numpy as np

from dynamo.graph import Node

from .ops import Unsupported, _dt, _meta
from .values import Arr, Lazy, View


def has_array_index(index) -> bool:
    """Whether a getitem's index holds a graph value (an index array)."""
    items = index if isinstance(index, tuple) else (index,)
    return any(isinstance(item, Node) for item in items)


def index_shape(items: list, adv: list[int]) -> tuple:
    """The broadcast shape of the index items at ``adv`` (integer index arrays and
    ints), or Unsupported for any other item (a float, bool or uint64 array...).

    ``x[idx, 3]`` with ``idx`` of shape (4,) -> (4,)"""
    shapes = []
    for it in (items[k] for k in adv):
        if isinstance(it, Node):
            m = _meta(it)
            # (uint64 past int64's range would wrap to a negative index here)
            if m.scalar or not m.shape or not (m.dtype.kind == "i" or (
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
        if not isinstance(v, (Arr, View)) or meta.scalar:
            raise Unsupported("an array index into a non-array")
        items = list(index if isinstance(index, tuple) else (index,))
        if len(items) > len(v.shape):
            raise Unsupported("too many indices")
        items += [slice(None)] * (len(v.shape) - len(items))
        adv = [k for k, it in enumerate(items) if not isinstance(it, slice)]
        if adv != list(range(len(adv))):
            # ``A[:, cols]``: NumPy lays the result out with the index dimensions first
            # (strides (8, 48) for a (6, 3) result), not in C order as a kernel's array
            raise Unsupported("array indices after a slice")
        bshape = index_shape(items, adv)
        before = [len(range(*items[k].indices(v.shape[k]))) for k in range(adv[0])]
        after = [len(range(*items[k].indices(v.shape[k])))
                 for k in range(adv[-1] + 1, len(items))]
        shape = (*before, *bshape, *after)
        if shape != meta.shape or v.dtype != meta.dtype:
            raise Unsupported("gather result differs from its metadata")
        if any(v.shape[k] == 0 for k in adv):
            raise Unsupported("an array index into an empty axis")
        constant_slices(items)
        name = self.em.new("a")
        self.em.alloc(f"{name} = np.empty({shape}, {_dt(meta.dtype)})")
        out = Arr(name, shape, meta.dtype, name, fresh=True)
        p, nb = adv[0], len(bshape)

        def body(idx, stmts, flag):
            sub, rest = [], iter(idx[p + nb:])
            bidx = idx[p:p + nb]
            for k, it in enumerate(items):
                if isinstance(it, slice):
                    start, _, step = it.indices(v.shape[k])
                    i = idx[k] if k < p else next(rest)
                    sub.append(f"({start} + {step} * {i})" if (start, step) != (0, 1) else i)
                    continue
                n = v.shape[k]
                if isinstance(it, Node):
                    e, _ = self.element(self.val(it), bidx,
                                        bshape, stmts, flag)
                else:
                    e = str(int(it))
                w = wrapped_index(self.em, stmts, e, n)
                c = self.em.new("t")
                stmts.append(f"{flag} |= ({w} < 0) or ({w} >= {n})")
                stmts.append(f"{c} = {w} if 0 <= {w} < {n} else 0")
                sub.append(c)
            stmts.append(f"{out.read(idx)} = {v.read(sub)}")
        self.nest(shape, body, writes=name)
        return out
