"""Array creation: ``zeros``/``ones``/``empty``/``full`` and their ``_like`` forms become
the same call in the kernel (Numba's ``np.zeros``, ``np.ones``, ``np.full``, ``np.empty``).

Shape and dtype come from the node's metadata (the translator ran NumPy's own rules);
only the layout is checked here: the default (C order, or ``order="K"`` of the ``_like``
forms: a kernel's arrays are C-ordered, and ``tier2_calls.py`` runs a call in tier 1 when an
input is not, for any graph returning a new array of 2 or more dimensions). The fill
value is a constant (cast exactly, else ``Unsupported``) or a scalar of the graph.

Example: ``z = np.zeros_like(u)`` for ``u`` of shape (64, 64) float64 lowers to
``a3 = np.zeros((64, 64), np.float64)``; ``np.full(n, s)`` with ``s`` a float64 scalar
of the graph to ``a4 = np.full((n,), s2, np.float64)``.
"""

from __future__ import annotations

import numpy as np

from dynamo.graph import Node

from .emitter import SEQ_FLAG
from .ops import Unsupported, _cast, _dt, _meta, params_after_array
from .values import Arr, Const, Scal

# positional parameters after the first (shape or prototype), NumPy's order
_PARAMS = {
    "zeros": ("dtype", "order"), "ones": ("dtype", "order"), "empty": ("dtype", "order"),
    "full": ("fill_value", "dtype", "order"),
    "zeros_like": ("dtype", "order", "subok", "shape"),
    "ones_like": ("dtype", "order", "subok", "shape"),
    "empty_like": ("dtype", "order", "subok", "shape"),
    "full_like": ("fill_value", "dtype", "order", "subok", "shape"),
}
CREATION = frozenset(_PARAMS)
_FILL = {"zeros": 0, "ones": 1, "zeros_like": 0, "ones_like": 1}


class Creation:
    """Methods of ``_Block`` (block.py): new arrays."""

    def creation(self, node: Node):
        op = node.target
        params = params_after_array(node, _PARAMS[op])
        order = params.get("order", "K" if op.endswith("_like") else "C")
        if order not in (("C", "K") if op.endswith("_like") else ("C",)):
            raise Unsupported(f"{op}(order={order!r})")
        if params.get("subok", True) is not True:
            raise Unsupported(f"{op}(subok=...)")
        meta = _meta(node)
        if meta.scalar or meta.ndim == 0:
            raise Unsupported(f"0-d {op}")
        if op.endswith("_like") and isinstance(node.args[0], Node):
            proto = _meta(node.args[0])   # a NumPy array (its kind, its dtype lowered)
            if proto.scalar:
                raise Unsupported(f"{op} of a scalar")
        elif op.endswith("_like"):
            raise Unsupported(f"{op} of a constant")
        name = self.em.new("a")
        out = Arr(name, meta.shape, meta.dtype, name, fresh=True)
        shape, dt = meta.shape, _dt(meta.dtype)
        # after the pending row group, in the graph's order: before it, the array would
        # be alive while the group runs (a blur's second pass's ``np.zeros``: 1 MB more
        # at its peak once its first pass was one group, p65 t4)
        if op.startswith("empty"):   # uninitialized, as NumPy's
            self.em.line(f"{name} = np.empty({shape}, {dt})")
        elif op in _FILL:
            # Numba's np.zeros/np.ones: a memset or one tight loop, never a prange
            # (one per call of a time step's ``np.zeros_like``, each costs compile time)
            self.em.line(f"{name} = np.{op.removesuffix('_like')}({shape}, {dt})")
        else:
            fill = self._fill(op, params, meta.dtype)
            self.em.line(f"{name} = np.full({shape}, {fill}, {dt})")
        return out

    def _fill(self, op: str, params: dict, dtype: np.dtype) -> str:
        """The fill value as an expression of ``dtype``."""
        if op in _FILL:
            return self.em.const(_FILL[op], dtype)
        value = params.get("fill_value")
        if not isinstance(value, Node):
            if isinstance(value, (bool, int, float, complex, np.generic)):
                return self.em.const(value, dtype)   # exact, or Unsupported
            raise Unsupported(f"{op} with fill value {type(value).__name__}")
        v = self.val(value)
        if isinstance(v, Const):
            return self.em.const(v.value, dtype)
        if not isinstance(v, Scal):
            raise Unsupported(f"{op} with an array fill value")
        if v.dtype.kind in "fc" and dtype.kind in "fc" and dtype.itemsize < v.dtype.itemsize:
            raise Unsupported(f"{op}: narrowing float fill value (NumPy may overflow)")
        expr = _cast(v.name, v.dtype, dtype)   # raises for casts a kernel cannot do
        stmts: list[str] = []
        self.settle(v.name, stmts, SEQ_FLAG)   # checked before it is stored, as any value
        for s in stmts:
            self.em.line(s)
        return expr
