"""Reductions over the last axis or every axis as accumulations (float sums with eight
partial sums; max/min with NumPy's NaN rule)."""

from __future__ import annotations

import math

from dynamo.graph import Node

from .emitter import SEQ_FLAG
from .ops import Unsupported, _cast, _dt, _meta, _nonfinite
from .values import Arr, Const, Scal, Tup


class Reductions:
    """Methods of ``_Block`` (block.py): sum, prod, mean, max, min."""

    def reduction(self, node: Node):
        meta = _meta(node)
        (arg,) = node.args[:1]
        if len(node.args) != 1 or set(node.kwargs) - {"axis", "keepdims"}:
            raise Unsupported(f"{node.target} with arguments")
        if not isinstance(arg, Node):
            raise Unsupported("reduction of a constant")
        src = self.val(arg)
        if isinstance(src, (Const, Scal, Tup)):
            raise Unsupported("reduction of a scalar")
        in_shape = src.shape
        nd = len(in_shape)
        axis, keepdims = node.kwargs.get("axis"), node.kwargs.get("keepdims", False)
        if isinstance(axis, tuple) and len(axis) == 1:
            axis = axis[0]
        if keepdims not in (True, False) or nd == 0:
            raise Unsupported("reduction keepdims")
        if axis is None or nd == 1 and axis in (0, -1):
            outer, n = (), math.prod(in_shape)
        elif axis in (-1, nd - 1):
            outer, n = in_shape[:-1], in_shape[-1]
        else:
            raise Unsupported(f"{node.target} over axis {axis}")
        op = node.target
        if n == 0 and op in ("max", "min", "mean"):
            raise Unsupported(f"{op} of an empty array (NumPy raises or warns)")
        acc_dt = meta.dtype
        src_dt = src.dtype
        if src_dt.kind == "c" and op in ("max", "min"):
            raise Unsupported("max/min of complex")
        if op in ("max", "min") and acc_dt != src_dt:
            raise Unsupported("max/min dtype")
        full = axis is None or nd == 1
        em = self.em
        if meta.scalar or (full and not keepdims):
            if not meta.scalar:
                raise Unsupported("0-d reduction result")
            out = None
        else:
            name = em.new("a")
            em.alloc(f"{name} = np.empty({meta.shape}, {_dt(acc_dt)})")
            out = Arr(name, meta.shape, acc_dt, name, fresh=True)
        res = em.new("r")

        def element(idx, stmts, flag):
            """The element at flat position ``idx`` of the reduced run."""
            e, dt = self.element(src, idx, in_shape, stmts, flag)
            if op in ("max", "min") or acc_dt.kind != "f":   # sums check their total
                self.settle(e, stmts, flag)
            return self._bind(_cast(e, dt, acc_dt), stmts)

        def index_of(outer_idx, j):
            if full:   # over every axis: unflatten j (row-major order)
                return None
            return outer_idx + [j]

        def acc_lines(outer_idx, stmts, flag):
            if full:
                return self._full_reduction(op, in_shape, element, acc_dt, res, stmts, flag)
            return self._row_reduction(op, n, lambda j, s: element(index_of(outer_idx, j), s,
                                                                   flag), acc_dt, res, stmts)

        if out is None:
            stmts: list[str] = []
            acc_lines([], stmts, SEQ_FLAG)
            self._finish(op, n, acc_dt, res, stmts, SEQ_FLAG)
            for s in stmts:
                em.line(s)
            return Scal(res, acc_dt)

        def body(idx, stmts, flag):
            acc_lines(idx, stmts, flag)
            self._finish(op, n, acc_dt, res, stmts, flag)
            oidx = idx + ["0"] if keepdims and not full else idx
            if full:
                oidx = ["0"] * len(meta.shape)
            stmts.append(f"{out.read(oidx)} = {res}")
        self.nest(outer if not full else (), body, writes=None if full else out.name)
        return out

    def _finish(self, op, n, dt, res, stmts, flag):
        if op == "mean":
            stmts.append(f"{res} = {res} / {self.em.const(n, dt)}")
        if dt.kind in "fc" and op in ("sum", "prod", "mean"):
            # an infinity or NaN in a sum: NumPy may have warned (overflow), or the
            # input held one; tier 1 decides
            stmts.append(f"{flag} |= {_nonfinite(res)}")

    def _row_reduction(self, op, n, element, dt, res, stmts):
        """Reduce ``element(j)`` for j in range(n) into ``res`` (statements)."""
        em = self.em
        zero, one = em.const(0, dt), em.const(1, dt)
        j = em.new("j")
        if op in ("max", "min"):
            first: list[str] = []
            v0 = element("0", first)
            stmts += first
            stmts.append(f"{res} = {v0}")
            inner: list[str] = []
            v = element(j, inner)
            stmts.append(f"for {j} in range(1, {n}):")
            stmts += ["    " + s for s in inner]
            stmts.append(f"    {res} = _{'maximum' if op == 'max' else 'minimum'}({res}, {v})")
            return
        combine = "*" if op == "prod" else "+"
        init = one if op == "prod" else zero
        if dt.kind in "iub" or op == "prod" or n < 16:
            stmts.append(f"{res} = {init}")
            inner = []
            v = element(j, inner)
            stmts.append(f"for {j} in range({n}):")
            stmts += ["    " + s for s in inner]
            stmts.append(f"    {res} = {res} {combine} {v}")
            return
        # floats: eight partial sums, as NumPy's pairwise summation keeps (not its order
        # past 128 elements: see docs/native.md for the tolerance)
        accs = [em.new("p") for _ in range(8)]
        stmts.append(f"{', '.join(accs)} = {', '.join([zero] * 8)}")
        blocks = n // 8
        stmts.append(f"for {j} in range({blocks}):")
        for k, a in enumerate(accs):
            inner = []
            v = element(f"8 * {j} + {k}", inner)
            stmts += ["    " + s for s in inner]
            stmts.append(f"    {a} = {a} + {v}")
        stmts.append(f"{res} = (({accs[0]} + {accs[1]}) + ({accs[2]} + {accs[3]})) + "
                     f"(({accs[4]} + {accs[5]}) + ({accs[6]} + {accs[7]}))")
        inner = []
        v = element(j, inner)
        stmts.append(f"for {j} in range({8 * blocks}, {n}):")
        stmts += ["    " + s for s in inner]
        stmts.append(f"    {res} = {res} + {v}")

    def _full_reduction(self, op, shape, element, dt, res, stmts, flag):
        """Over every axis: a nest in row-major order (sequential)."""
        em = self.em
        idx = [em.new("i") for _ in shape]
        inner: list[str] = []
        v = element(idx, inner, flag)
        first = em.new("first")
        if op in ("max", "min"):
            stmts.append(f"{res} = {em.const(0, dt)}")
            stmts.append(f"{first} = True")
        else:
            stmts.append(f"{res} = {em.const(1 if op == 'prod' else 0, dt)}")
        pad = ""
        for i, n in zip(idx, shape):
            stmts.append(f"{pad}for {i} in range({n}):")
            pad += "    "
        stmts += [pad + s for s in inner]
        if op in ("max", "min"):
            fn = "_maximum" if op == "max" else "_minimum"
            stmts.append(f"{pad}{res} = {v} if {first} else {fn}({res}, {v})")
            stmts.append(f"{pad}{first} = False")
        else:
            stmts.append(f"{pad}{res} = {res} {'*' if op == 'prod' else '+'} {v}")
