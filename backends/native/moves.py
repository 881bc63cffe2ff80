"""``np.roll``: a new array whose element ``i`` along each rolled axis is the source's
``(i - shift) mod n``, read at that index (no modulo per element: one compare).

Example: ``np.roll(u, 1)`` of a 1-D ``u`` of 100 elements lowers to::

    a3 = np.empty((100,), np.float64)
    for i4 in range(100):
        a3[i4] = p0[(i4 + 99 if i4 < 1 else i4 - 1)]
"""

from __future__ import annotations

import numpy as np

from dynamo.graph import Node

from .ops import Unsupported, _dt, _meta
from .values import Arr, Const, Scal, Tup


def _ints(value) -> tuple | None:
    """``value`` as a tuple of Python ints (an int or a tuple/list of them), or None."""
    items = value if isinstance(value, (tuple, list)) else (value,)
    if all(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
           for v in items):
        return tuple(int(v) for v in items)
    return None


class Moves:
    """Methods of ``_Block`` (block.py): ``roll``."""

    def roll(self, node: Node):
        meta = _meta(node)
        args = dict(zip(("a", "shift", "axis"), node.args))
        for k, v in node.kwargs.items():
            if k not in ("shift", "axis") or k in args:
                raise Unsupported(f"roll with keyword {k!r}")
            args[k] = v
        src_node, shift, axis = args.get("a"), _ints(args.get("shift")), args.get("axis")
        if not isinstance(src_node, Node) or shift is None:
            raise Unsupported("roll of a constant or by a shift that is not constant")
        src = self.val(src_node)
        if isinstance(src, (Const, Scal, Tup)):
            raise Unsupported("roll of a scalar")
        shape = tuple(src.shape)
        if shape != meta.shape or src.dtype != meta.dtype or not shape:
            raise Unsupported("roll result differs from its metadata")
        nd = len(shape)
        if axis is None:
            if nd != 1:
                raise Unsupported("roll of a flattened array")   # (rolls the flat order)
            axes = (0,)
        else:
            axes = _ints(axis)
            if axes is None or not all(-nd <= a < nd for a in axes):
                raise Unsupported(f"roll over axis {axis!r}")
        if len(shift) != len(axes) and 1 not in (len(shift), len(axes)):
            raise Unsupported("roll: shift and axis do not broadcast")
        total = [0] * nd
        for s, a in zip(shift * (len(axes) if len(shift) == 1 else 1),
                        axes * (len(shift) if len(axes) == 1 else 1)):
            total[a % nd] += s
        name = self.em.new("a")
        self.em.alloc(f"{name} = np.empty({shape}, {_dt(meta.dtype)})")
        out = Arr(name, shape, meta.dtype, name, fresh=True)

        def body(idx, stmts, flag):
            at = []
            for i, n, s in zip(idx, shape, total):
                c = (-s) % n if n else 0   # out[i] = src[(i + c) mod n]
                at.append(i if c == 0 else f"({i} + {c} if {i} < {n - c} else {i} - {n - c})")
            e, _ = self.element(src, at, shape, stmts, flag)
            self.settle(e, stmts, flag)
            stmts.append(f"{out.read(idx)} = {e}")
        self.nest(shape, body, writes=name)
        return out
