"""Elementwise ops with ``out=``: ``x += y`` (the graph's ``add(x, y, out=x)``),
``np.multiply(a, b, out=buf)``, ``np.subtract(u[1:], u[:-1], out=d[1:])`` become a nest
that stores into the out array (or view) in place, as NumPy's ufunc loop does.

Before, any ``out=`` kept the whole graph in tier 1: in-place updates are how NumPy
code avoids temporaries, so time steppers and optimizers (``w -= lr * g``) were the
graphs most often refused (42 of 279 graphs of the real-world corpora, 2026-12-05).

    x = ops.add(x, y, out=x)         ->    for i in prange(n):
                                               p0[i] = p0[i] + p1[i]

Same results as NumPy: its loop is the ufunc's loop for the inputs' dtypes, and only
an out of exactly that dtype is taken (``x += 1.5`` into an int array raises in NumPy;
a float32 out of a float64 loop casts: both stay in tier 1). NumPy copies an input
that overlaps the out array unless it is the same view read at the same element
(``x += y``: in place); so does the kernel: an operand reading the out's memory any
other way (``x[1:] += x[:-1]``, an inlined chain reading ``x``) is copied first.
"""

from __future__ import annotations

import re

from dynamo.graph import Node

from .ops import Unsupported, _cast, _meta
from .values import Arr, Lazy, View


def out_of(node: Node):
    """The out argument of ``node`` (a Node), or None when it has no ``out=``."""
    out = node.kwargs.get("out")
    if isinstance(out, tuple) and len(out) == 1:
        out = out[0]
    return out


def same_place(v, dest: View) -> bool:
    """Whether reading ``v`` at a nest index reads the element ``dest`` stores there."""
    if isinstance(v, Arr):
        v = View(v, [("slice", 0, 1)] * len(v.shape), v.shape, v.dtype)
    return isinstance(v, View) and v.base is dest.base and v.shape == dest.shape and \
        [tuple(p) for p in v.parts] == [tuple(p) for p in dest.parts]


class Outs:
    """Methods of ``_Block`` (block.py): an elementwise node with ``out=``."""

    def ufunc_out(self, node: Node):
        out = out_of(node)
        if set(node.kwargs) != {"out"} or not isinstance(out, Node):
            raise Unsupported(f"{node.target} with keyword arguments {sorted(node.kwargs)}")
        meta = _meta(node)
        target = self.val(out)
        if isinstance(target, Lazy):   # ``y = a * 2; np.add(y, b, out=y)``: y is new
            target = self.force(out)
        if isinstance(target, Arr):
            dest = View(target, [("slice", 0, 1)] * len(target.shape), target.shape,
                        target.dtype)
        elif isinstance(target, View) and not any(p[0] == "new" for p in target.parts):
            dest = target
        else:
            raise Unsupported(f"{node.target} into out= of {type(target).__name__}")
        if meta.scalar or not dest.shape or meta.shape != dest.shape or \
                meta.dtype != dest.dtype:
            raise Unsupported(f"{node.target} with out= of another shape or dtype")
        base = dest.base
        self.written(base.key)   # inlined values reading it: computed before the store
        if 0 in dest.shape:
            # a store of no element (``x[0:0] += np.sqrt(y - 10.0)``): the nest never
            # runs the inlined operands, which eager computed whole (and warned)
            for arg in node.args:
                if isinstance(arg, Node) and isinstance(self.env.get(arg), Lazy):
                    self.force(arg)
        # NumPy copies an input that overlaps the out array (but for the same view): the
        # copy is this node's operand only; later readers of that view see the store
        copies = {}
        for arg in node.args:
            v = self.env.get(arg) if isinstance(arg, Node) else None
            if isinstance(v, (Arr, View)) and v.key == base.key and not same_place(v, dest):
                copies[arg] = self.materialize_copy(arg, v)
        saved = {arg: self.env[arg] for arg in copies}
        self.env.update(copies)
        self.out_nodes.add(node)
        try:
            # lowered once outside the nest first (an op with no loop nest raises
            # here, before anything is emitted but the copies)
            deferred = set(self.em.deferred)
            self.elementwise(node, ["0"] * meta.ndim, [], "nf")
            self.em.deferred = deferred

            def body(idx, stmts, flag):
                expr, dt = self.elementwise(node, idx, stmts, flag)
                self.settle(expr, stmts, flag)
                stmts.append(f"{dest.read(idx)} = {_cast(expr, dt, dest.dtype)}")
            save = self.saving(base, dest, dest.shape)
            # a whole array of the kernel's own, nothing else aliasing it: the store may
            # share a row loop with the nests around it (nests.join; a blur's 13 ``+=``
            # passes were 13 prange loops: 13 thread launches a call)
            own = save is None and isinstance(target, Arr) and self.alone(target)
            self.nest(dest.shape, body, writes=base.name if own else None, save=save)
        finally:
            self.env.update(saved)
        return target

    def alone(self, arr: Arr) -> bool:
        """Whether ``arr`` is a new array of the kernel (``a<k>``: made by a nest or
        ``np.zeros``, as ``emitter.hoist_invariants`` takes them) that no other name
        of the kernel holds: its reads all show in the source as ``a<k>[...]``."""
        return arr.fresh and arr.input is None and re.fullmatch(r"a\d+", arr.name) is not None \
            and not any(isinstance(v, (Arr, View)) and v.key == arr.key and
                        (v.base if isinstance(v, View) else v).name != arr.name
                        for v in self.env.values())
