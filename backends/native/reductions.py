"""Reductions over one axis or every axis as accumulations, in NumPy's order: float
sums of a run NumPy reads contiguously (along the last axis of size > 1, or over a whole
C-ordered array) in its pairwise order (``pairwise.py``), along another axis one
element after the other, as NumPy adds whole rows; max/min with NumPy's NaN rule.

Example: ``x.sum(axis=0)`` of a (3, 4) float64 ``x`` lowers to a nest over the 4
columns, each summing its column ``r = r + x[j, i]`` for j in range(3); ``x.sum(axis=1)``
to a nest over the 3 rows, each summed as NumPy's ``pairwise_sum`` sums 4 elements.

NumPy's order depends on the memory it reads: an F-ordered ``x`` is summed along its
columns pairwise. So a kernel with a float sum over a value of 2 or more dimensions
(of size > 1) runs tier 2 only for inputs whose strides are C-ordered
(``Kernel.ordered_inputs``), and a whole-array sum of an input read in place only for a
C-contiguous one (``Kernel.contiguous_inputs``); other calls run in tier 1."""

from __future__ import annotations

import math

import numpy as np

from dynamo.graph import Node

from .emitter import SEQ_FLAG
from .ops import Unsupported, _cast, _dt, _meta, _nonfinite
from .pairwise_sums import element_loop, pairwise_sum
from .strided import alloc_lines, node_order, pairwise_agrees, reader_order
from .values import Arr, Const, Lazy, Scal, Tup, View

# NumPy's default buffer size (``np.getbufsize()``): a sum that casts adds its run in
# chunks of this many elements
_BUFSIZE = 8192


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
        if isinstance(axis, (int, np.integer)) and not isinstance(axis, bool) \
                and -nd <= axis < nd:
            axis = int(axis) % nd
        if axis is None or nd == 1 and axis == 0:
            outer, n = (), math.prod(in_shape)
        elif isinstance(axis, int) and axis < nd:
            # over one axis: a nest over the others, each element a run along ``axis``
            outer, n = in_shape[:axis] + in_shape[axis + 1:], in_shape[axis]
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
        ordered = acc_dt.kind in "fc" and op in ("sum", "mean")   # order-dependent
        if ordered and sum(d > 1 for d in in_shape) >= 2:
            self._need_numpy_order(src, full)
        # NumPy reads a run contiguously (pairwise order) when the axes after it have
        # size 1: the iterator drops those
        pairwise = full or all(d == 1 for d in in_shape[axis + 1:])
        out_order = self._laid_out_source(node, arg, src, ordered, full, axis, pairwise)
        if ordered and pairwise and src_dt != acc_dt and (n > _BUFSIZE or full and
                                                           math.prod(in_shape) > _BUFSIZE):
            # a cast (an integer mean): NumPy's iterator casts through buffers of 8192
            # elements and sums each one pairwise (chunks of a whole array added in
            # order, rows longer than that split its own way)
            raise Unsupported(f"a float {op} with a cast over more than {_BUFSIZE} "
                              f"elements (NumPy's buffered order)")
        if meta.scalar or (full and not keepdims):
            if not meta.scalar:
                raise Unsupported("0-d reduction result")
            out = None
        else:
            name = em.new("a")
            for line in alloc_lines(name, em.new("g"), meta.shape, _dt(acc_dt), out_order):
                em.alloc(line)
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
            return outer_idx[:axis] + [j] + outer_idx[axis:]

        def acc_lines(outer_idx, stmts, flag):
            if full and ordered:   # one run, row-major order (float or complex)
                return pairwise_sum(
                    em, n, lambda f, s: element(_unflatten(f, in_shape), s, flag), acc_dt,
                    res, stmts)
            if full:
                return self._full_reduction(op, in_shape, element, acc_dt, res, stmts, flag)
            # NumPy sums a run it reads contiguously pairwise, along another axis one
            # element after the other (it adds whole rows): the same order here, so
            # that sum is exact
            return self._row_reduction(op, n, lambda j, s: element(index_of(outer_idx, j), s,
                                                                   flag), acc_dt, res, stmts,
                                       pairwise=pairwise, flag=flag)

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
            oidx = idx[:axis] + ["0"] + idx[axis:] if keepdims and not full else idx
            if full:
                oidx = ["0"] * len(meta.shape)
            stmts.append(f"{out.read(oidx)} = {res}")
        self.nest(outer if not full else (), body, writes=None if full else out.name)
        return out

    def _finish(self, op, n, dt, res, stmts, flag):
        if op == "mean" and dt.kind == "c":   # NumPy's complex division (complex_mean)
            stmts.append(complex_mean(self.em, n, dt, res))
        elif op == "mean":
            stmts.append(f"{res} = {res} / {self.em.const(n, dt)}")
        if dt.kind in "fc" and op in ("sum", "prod", "mean"):
            # an infinity or NaN in a sum: NumPy may have warned (overflow), or the
            # input held one; tier 1 decides
            stmts.append(f"{flag} |= {_nonfinite(res)}")

    def _row_reduction(self, op, n, element, dt, res, stmts, pairwise=True,
                       flag=SEQ_FLAG):
        """Reduce ``element(j)`` for j in range(n) into ``res`` (statements); a float
        sum in NumPy's pairwise order if ``pairwise`` (``pairwise_sums.py``), else in
        order."""
        em = self.em
        zero, one = em.const(0, dt), em.const(1, dt)
        j = em.new("j")
        if op in ("max", "min"):
            fn = "_maximum" if op == "max" else "_minimum"
            if n >= 16:
                self._lanes_max_min(fn, n, element, dt, res, stmts)
            else:
                self._serial_max_min(fn, n, element, res, stmts, j)
            if dt.kind == "f":
                self._zero_signs(n, element, res, stmts, flag)
            return
        combine = "*" if op == "prod" else "+"
        init = one if op == "prod" else zero
        if dt.kind in "fc" and op != "prod" and pairwise:
            pairwise_sum(em, n, element, dt, res, stmts)
            return
        # integers (exact in any order), products, sums along an axis NumPy adds
        # row by row: one element after the other
        stmts.append(f"{res} = {init}")
        element_loop(stmts, j, f"{n}", element, lambda v: f"{res} = {res} {combine} {v}")

    def _laid_out_source(self, node, arg, src, ordered, full, axis, pairwise):
        """The order of the result where the reduced value is laid out other than C
        (strided.py; None: C): a float sum only where NumPy adds in the kernel's order
        (``pairwise_agrees``); max, min and integer sums give the same in any order."""
        orders = self.em.orders
        order = node_order(orders, arg)
        if order is None:
            return None
        if isinstance(src, View):
            raise Unsupported("a reduction of a view of a value not in C order")
        if ordered and (full or not pairwise_agrees(order, src.shape, axis, pairwise)):
            raise Unsupported(f"a float {node.target} of a value not in C order, "
                              "which NumPy adds in another order")
        return reader_order(orders, node)

    def _need_numpy_order(self, src, full):
        """A float sum over ``src`` (2 or more dimensions of size > 1) adds in NumPy's
        order only if NumPy reads it in row-major order: the kernel then runs for
        C-ordered inputs only (an F-ordered input, or a value computed from one, is
        summed along its columns); a whole-array sum of an input read in place, for a
        C-contiguous one only (NumPy's iterator splits other layouts its own way)."""
        em = self.em
        em.ordered_inputs = True
        if not full or isinstance(src, Lazy) or isinstance(src, Arr) and src.fresh:
            return
        if isinstance(src, Arr) and src.input is not None:
            em.contiguous_inputs.add(src.input)
            return
        raise Unsupported("a float sum of a whole strided view (NumPy's iterator order)")

    def _zero_signs(self, n, element, res, stmts, flag):
        """A float max/min that is a zero: which zero NumPy returns when the run holds
        both signs depends on the order its SIMD loops compare in (not one chain's: a
        float32 row of 37 with 0.0 and -0.0 as its maxima gave 0.0 in NumPy, -0.0 in
        one chain). Such a run flags the call, which runs in tier 1; a run with one
        sign of zero gives that zero in any order."""
        em = self.em
        signs, j = em.new("z"), em.new("j")
        inner: list[str] = []
        v = element(j, inner)
        stmts.append(f"if {res} == 0:")
        stmts.append(f"    {signs} = 0")
        stmts.append(f"    for {j} in range({n}):")
        stmts += ["        " + s for s in inner]
        stmts.append(f"        if {v} == 0:")
        stmts.append(f"            {signs} |= 2 if np.signbit({v}) else 1")
        stmts.append(f"    {flag} |= {signs} == 3")

    def _serial_max_min(self, fn, n, element, res, stmts, j):
        """``res = fn(...fn(fn(e0, e1), e2)..., e(n-1))`` (ties give the later
        element; a zero result is checked by ``_zero_signs``)."""
        first: list[str] = []
        v0 = element("0", first)
        stmts += first
        stmts.append(f"{res} = {v0}")
        element_loop(stmts, j, f"1, {n}", element, lambda v: f"{res} = {fn}({res}, {v})")

    def _lanes_max_min(self, fn, n, element, dt, res, stmts):
        """max/min in eight lanes (element ``8 * j + k`` in lane ``k``), which LLVM
        turns into vector compares without reassociating anything: 4x faster than one
        chain (softmax's row max). The same value in any order, NaN included (it wins
        every comparison); only the sign of a zero result depends on the order
        (``_zero_signs``).

        Example (n = 20)::

            m0, ..., m7 = e(0), ..., e(7)
            for j in range(1, 2): m0 = _maximum(m0, e(8 * j + 0)) ...
            r = _maximum(_maximum(_maximum(m0, m1), ...)
            for j in range(16, 20): r = _maximum(r, e(j))
        """
        em = self.em
        lanes = [em.new("m") for _ in range(8)]
        j = em.new("j")
        for k, lane in enumerate(lanes):
            first: list[str] = []
            v = element(str(k), first)
            stmts += first
            stmts.append(f"{lane} = {v}")
        blocks = n // 8
        stmts.append(f"for {j} in range(1, {blocks}):")
        for k, lane in enumerate(lanes):
            inner: list[str] = []
            v = element(f"8 * {j} + {k}", inner)
            stmts += ["    " + s for s in inner]
            stmts.append(f"    {lane} = {fn}({lane}, {v})")

        def pair(a, b):
            return f"{fn}({a}, {b})"
        m = lanes
        total = pair(pair(pair(m[0], m[1]), pair(m[2], m[3])),
                     pair(pair(m[4], m[5]), pair(m[6], m[7])))
        stmts.append(f"{res} = {total}")
        element_loop(stmts, j, f"{8 * blocks}, {n}", element,
                      lambda v: f"{res} = {fn}({res}, {v})")

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
            if dt.kind == "f":   # (see _zero_signs)
                idx2 = [em.new("i") for _ in shape]
                inner2: list[str] = []
                v2 = element(idx2, inner2, flag)
                signs = em.new("z")
                stmts += [f"if {res} == 0:", f"    {signs} = 0"]
                pad = "    "
                for i, n in zip(idx2, shape):
                    stmts.append(f"{pad}for {i} in range({n}):")
                    pad += "    "
                stmts += [pad + s for s in inner2]
                stmts += [f"{pad}if {v2} == 0:",
                          f"{pad}    {signs} |= 2 if np.signbit({v2}) else 1",
                          f"    {flag} |= {signs} == 3"]
        else:
            stmts.append(f"{pad}{res} = {res} {'*' if op == 'prod' else '+'} {v}")


def _unflatten(flat: str, shape: tuple) -> list[str]:
    """The index of the element at row-major position ``flat`` of an array of
    ``shape`` (divisions by constants).

    Example: ``_unflatten("f", (3, 4))`` is ``["(f) // 4", "(f) % 4"]``."""
    if len(shape) == 1:
        return [flat]
    out, inner = [], 1
    for k in range(len(shape) - 1, -1, -1):
        term = f"({flat})" if inner == 1 else f"({flat}) // {inner}"
        out.append(term if k == 0 else f"{term} % {shape[k]}")
        inner *= shape[k]
    return out[::-1]


def complex_mean(em, n: int, dt, res: str) -> str:
    """The statement that divides the complex sum ``res`` by ``n`` as NumPy's mean
    does: ``sum / np.intp(n)``, which is complex128's ``true_divide`` for complex64
    too (rounded back to complex64 after), Smith's method: it multiplies by
    ``scl = 1 / (n + 0 * 0)`` where Numba's complex ``/`` divides (the last bit
    differs)::

        r = complex((r.real + r.imag * 0.0) * scl, (r.imag - r.real * 0.0) * scl)
    """
    zero = em.const(0.0, np.dtype(np.float64))
    scl = em.const(1.0 / (float(n) + 0.0 * 0.0), np.dtype(np.float64))
    value = (f"complex(({res}.real + {res}.imag * {zero}) * {scl}, "
             f"({res}.imag - {res}.real * {zero}) * {scl})")
    if np.dtype(dt) == np.complex64:
        value = f"np.complex64({value})"
    return f"{res} = {value}"
