"""``np.fill_diagonal(a, val, wrap=False)`` as a loop of stores in place (tier 2).

Before, ``fill_diagonal`` kept its graph in tier 1 (3 of the 279 graphs of the
real-world corpora, 2026-12-06: SPH's and Morse's pair matrices, k-th neighbour
distances). NumPy's own code (``numpy/lib/_index_tricks_impl.py``) is
``a.flat[:end:step] = val`` with ``step = a.shape[1] + 1`` and ``end = a.shape[1] ** 2``
for a 2-D ``a`` (``end = None`` with ``wrap=True``: a tall matrix's diagonal starts
again every ``a.shape[1] + 1`` rows), and ``step = 1 + sum(cumprod(a.shape[:-1]))``,
``end = None`` beyond 2-D (every dimension equal: ``a[k, k, k]``). The loop walks
those flat positions, all known from the static shape:

    np.fill_diagonal(r, np.inf)      (r (4, 3) float64, wrap=False)   ->
        for i in range(3):
            f = 4 * i                              # the flat position
            r[f // 3, f % 3] = inf

``val``: a scalar (a constant or a kernel scalar) is stored at every position; a 1-D
array is repeated as ``a.flat[...] = val`` repeats it (position ``k`` gets ``val[k %
len(val)]``); other shapes stay in tier 1. The value is cast as NumPy's flat store
casts it, except where a kernel cannot cast exactly (float to integer, complex to real,
a narrowing float store that may overflow: tier 1). A computed value is checked for
NaN and infinity before it is stored, as any store (a call with one reruns in tier 1);
a constant ``inf`` is stored as it is. An input ``a`` is saved row by row before its
first write (saves.py), as a scatter's target (scatters.py).
"""

from __future__ import annotations

import math

import numpy as np

from dynamo.graph import Node

from .emitter import SEQ_FLAG
from .ops import Unsupported, _cast, params_after_array
from .scatters import _saves
from .values import Arr, Const, Lazy, Scal, View


def diagonal_positions(shape: tuple, wrap: bool) -> tuple[int, int]:
    """(step, count): the flat positions ``0, step, ... (count - 1) * step`` that
    ``np.fill_diagonal`` of an array of ``shape`` writes. Example: ``(4, 3)`` ->
    ``(4, 3)``; with ``wrap=True``, ``(7, 3)`` -> ``(4, 6)`` (rows 0-2 and 4-6)."""
    size = math.prod(shape)
    if len(shape) == 2:
        step, end = shape[1] + 1, (size if wrap else min(size, shape[1] * shape[1]))
    else:
        step, end = 1 + int(np.cumprod(shape[:-1]).sum()), size
    return step, len(range(0, end, step))


class Diagonals:
    """Methods of ``_Block`` (block.py): ``np.fill_diagonal``."""

    def fill_diagonal(self, node: Node):
        params = params_after_array(node, ("val", "wrap"))
        wrap = params.get("wrap", False)
        if not isinstance(wrap, bool) or "val" not in params:
            raise Unsupported("fill_diagonal with a wrap that is not a constant bool")
        base, value = node.args[0], params["val"]
        target = self.val(base)
        if isinstance(target, Lazy):
            target = self.force(base)
        if isinstance(target, View) or not isinstance(target, Arr) or \
                len(target.shape) < 2:
            raise Unsupported("fill_diagonal of a view or a non-array")
        shape = target.shape
        v = self.val(value) if isinstance(value, Node) else Const(value)
        if isinstance(v, Const) and not isinstance(v.value, (bool, int, float, np.generic)):
            raise Unsupported(f"fill_diagonal of the constant {v.value!r}")
        if isinstance(v, (Arr, View, Lazy)) and (len(v.shape) != 1 or v.shape[0] == 0):
            raise Unsupported("fill_diagonal of an array value that is not 1-D")
        if not isinstance(v, Const):
            _cast("x", v.dtype, target.dtype)   # raises for casts a kernel cannot do
            if v.dtype.kind in "fc" and target.dtype.kind in "fc" and \
                    target.dtype.itemsize < v.dtype.itemsize:
                raise Unsupported("narrowing float assignment")
        elif isinstance(v.value, float) and target.dtype.kind in "iub":
            raise Unsupported("fill_diagonal of a float constant into integers")
        if isinstance(value, Node) and target.key in self._keys(value) \
                and not isinstance(v, Scal):
            v = self.env[value] = self.materialize_copy(value, v)   # read before written
        self.written(target.key)
        step, count = diagonal_positions(shape, wrap)
        if count == 0:
            return target
        em = self.em
        em.flush()
        k, f = em.new("i"), em.new("t")
        stmts = [f"{f} = {step} * {k}"]
        if len(shape) == 2:
            sub = [f"{f} // {shape[1]}", f"{f} % {shape[1]}"]
        else:
            sub = [k] * len(shape)   # (all dimensions equal: a[k, k, ..., k])
        if isinstance(v, Const):
            expr = em.const(v.value, target.dtype)
        else:
            at = [f"({k} % {v.shape[0]})"] if not isinstance(v, Scal) else []
            e, dt = self.element(v, at, getattr(v, "shape", ()), stmts, SEQ_FLAG)
            self.settle(e, stmts, SEQ_FLAG)
            expr = _cast(e, dt, target.dtype)
        row = em.new("t")
        stmts.append(f"{row} = {sub[0]}")
        parts = [("int", f"({s})") for s in sub]
        stmts += _saves(em, target, row, parts, ())
        stmts.append(f"{target.read([row, *sub[1:]])} = {expr}")
        self.inner_loops([k], (count,), stmts)
        return target
