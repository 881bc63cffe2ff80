"""``np.cumsum``/``np.cumprod`` (over one axis of a 1-D or 2-D value) and ``np.diff``
(``n=1`` of a 1-D value) as loops in the kernel, not NumPy calls from object mode
(calls.py: about 4-5 us a call, the fixed cost of a small recursion's row).

NumPy's accumulate is sequential: ``out[0] = a[0]``, ``out[k] = out[k - 1] op a[k]``
along the axis, each step one operation in the result dtype, so the loop below gives
its values bit for bit in any order of the other axes (the first element is copied,
not added to 0: ``np.cumsum([-0.0])`` is ``[-0.0]``). The result dtype is the graph's
(NumPy's: small ints and bool accumulate in the platform int, ``dtype=`` honoured);
every element is cast to it first and every step cast back, so integers wrap as
NumPy's do. ``diff`` is ``a[k + 1] - a[k]`` in the input dtype (bool's ``diff`` is
``not_equal``: left to NumPy).

Floating-point reports: a float accumulation that meets a NaN or an infinity keeps
one to its end (``inf + x``, ``inf * 0``, ``nan op x``), so the last value of each run
is checked, as a sum's total (reductions.py); every ``diff`` element is checked. A
flagged call runs in tier 1, which warns as eager.

Anything else (complex, ``axis=None`` of a 2-D value, ``out=``, ``n > 1``,
``prepend=``/``append=``, a 2-D value NumPy lays out other than C: NumPy's result
keeps that layout) raises ``Unsupported`` before any line is emitted: the call stays
NumPy's (block.py).

Example: ``np.cumsum(C[0])`` of a (40, 40) float64 ``C`` lowers to::

    a3 = np.empty((40,), np.float64)
    r4 = p0[0, 0]
    a3[0] = r4
    for j5 in range(1, 40):
        r4 = np.float64(r4 + p0[0, j5])
        a3[j5] = r4
    _nf |= ((r4 - r4) != 0)
"""

from __future__ import annotations

import numpy as np

from dynamo.graph import Node

from .ops import Unsupported, _cast, _dt, _meta, _nonfinite, params_after_array
from .strided import node_order
from .values import Arr, Const, Scal, Tup

SCANS = frozenset({"cumsum", "cumprod", "diff"})
# the parameters after the array, as NumPy names them
_PARAMS = {"cumsum": ("axis", "dtype", "out"), "cumprod": ("axis", "dtype", "out"),
           "diff": ("n", "axis", "prepend", "append")}
# result dtypes a scan is lowered for: the platform ints and the floats
_ACC = frozenset(np.dtype(c) for c in "qQfd")


class Scans:
    """Methods of ``_Block`` (block.py): cumsum, cumprod, diff."""

    def scan(self, node: Node):
        meta = _meta(node)
        params = params_after_array(node, _PARAMS[node.target])
        arg = node.args[0] if node.args else None
        if not isinstance(arg, Node):
            raise Unsupported(f"{node.target} of a constant")
        am = arg.meta.get("array")
        if am is None or getattr(am, "scalar", True) or am.ndim not in (1, 2):
            raise Unsupported(f"{node.target} of a value that is not 1-D or 2-D")
        if am.ndim == 2 and node_order(self.em.orders, arg) is not None:
            raise Unsupported(f"{node.target} of a value NumPy lays out other than C")
        if node.target == "diff":
            return self._diff(node, meta, params, arg, am)
        return self._accumulate(node, meta, params, arg, am)

    def _accumulate(self, node, meta, params, arg, am):
        op = node.target
        if params.get("out") is not None:
            raise Unsupported(f"{op} with out=")
        axis, dtype = params.get("axis"), params.get("dtype")
        nd = am.ndim
        if axis is None and nd == 1:
            axis = 0
        if not isinstance(axis, (int, np.integer)) or isinstance(axis, (bool, np.bool_)) \
                or not -nd <= axis < nd:
            raise Unsupported(f"{op} over axis {axis!r}")
        axis = int(axis) % nd
        acc = meta.dtype
        if isinstance(dtype, Node):
            raise Unsupported(f"{op} with a dtype that is not constant")
        try:   # the dtype NumPy accumulates in, for this input dtype and ``dtype=``
            want = getattr(np, op)(np.zeros(1, am.dtype), dtype=dtype).dtype
        except TypeError as e:
            raise Unsupported(f"{op} with dtype={dtype!r}") from e
        if want != acc or acc not in _ACC or tuple(meta.shape) != tuple(am.shape):
            raise Unsupported(f"{op} of {am.dtype} into {acc}")
        src_dt = am.dtype
        if src_dt.kind in "fc" and acc.kind != "f" or src_dt.kind == "c" or \
                src_dt.kind in "biu" and acc.kind == "f":
            raise Unsupported(f"{op} of {src_dt} in {acc}")
        if src_dt.kind == "f" and src_dt.itemsize > acc.itemsize:
            raise Unsupported(f"{op} of {src_dt} in {acc} (a rounding cast)")
        src = self.val(arg)
        if isinstance(src, (Const, Scal, Tup)):
            raise Unsupported(f"{op} of a scalar")
        if nd == 2:
            self.em.ordered_inputs = True   # NumPy's result keeps an F input's layout
        shape, n = tuple(am.shape), am.shape[axis]
        outer = shape[:axis] + shape[axis + 1:]
        em = self.em
        name = em.new("a")
        em.alloc(f"{name} = np.empty({shape}, {_dt(acc)})")
        out = Arr(name, shape, acc, name, fresh=True)
        sign = "*" if op == "cumprod" else "+"
        dt = _dt(acc)

        def body(idx, stmts, flag):
            if n == 0:
                return
            res, j = em.new("r"), em.new("j")

            def at(k):
                return idx[:axis] + [k] + idx[axis:]

            def element(k, into):
                e, edt = self.element(src, at(k), shape, into, flag)
                if acc.kind != "f":   # a float run checks its last value
                    self.settle(e, into, flag)
                return _cast(e, edt, acc)
            stmts.append(f"{res} = {element('0', stmts)}")
            stmts.append(f"{out.read(at('0'))} = {res}")
            inner: list[str] = []
            v = element(j, inner)
            stmts.append(f"for {j} in range(1, {n}):")
            stmts += ["    " + s for s in inner]
            # (cast back: Numba adds two small ints as int64, and mixes int64 with
            # uint64 as float64)
            stmts.append(f"    {res} = {dt}({res} {sign} {v})")
            stmts.append(f"    {out.read(at(j))} = {res}")
            if acc.kind == "f":
                stmts.append(f"{flag} |= {_nonfinite(res)}")
        # (a row group shares its outer index with nests over rows: only a scan along
        # the last axis fills its array row by row)
        self.nest(outer, body, writes=name if outer and axis == nd - 1 else None)
        return out

    def _diff(self, node, meta, params, arg, am):
        n, axis = params.get("n", 1), params.get("axis", -1)
        if params.get("prepend") is not None or params.get("append") is not None:
            raise Unsupported("diff with prepend= or append=")
        if type(n) is not int or n != 1 or am.ndim != 1 or type(axis) is not int or \
                axis not in (0, -1):
            raise Unsupported("diff other than n=1 of a 1-D value")
        dt = am.dtype
        if dt.kind not in "iuf" or meta.dtype != dt or dt not in set(
                np.dtype(c) for c in "bhilqBHILQfd"):
            raise Unsupported(f"diff of {dt}")
        size = am.shape[0]
        shape = (max(size - 1, 0),)
        if tuple(meta.shape) != shape:
            raise Unsupported("diff result differs from its metadata")
        src = self.val(arg)
        if isinstance(src, (Const, Scal, Tup)):
            raise Unsupported("diff of a scalar")
        em = self.em
        name = em.new("a")
        em.alloc(f"{name} = np.empty({shape}, {_dt(dt)})")
        out = Arr(name, shape, dt, name, fresh=True)

        def body(idx, stmts, flag):
            hi, _ = self.element(src, [f"{idx[0]} + 1"], (size,), stmts, flag)
            lo, _ = self.element(src, idx, (size,), stmts, flag)
            self.settle(hi, stmts, flag)
            self.settle(lo, stmts, flag)
            r = self._bind(f"{_dt(dt)}({hi} - {lo})", stmts)
            if dt.kind == "f":
                stmts.append(f"{flag} |= {_nonfinite(r)}")
            stmts.append(f"{out.read(idx)} = {r}")
        self.nest(shape, body, writes=name)
        return out
