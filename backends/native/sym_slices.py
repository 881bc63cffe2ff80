"""Slices whose bounds are the kernel's integers (a loop's index, a scalar of the graph):
``x[k:k + n]`` of a FIR filter's taps, ``data[start:start + chunk]`` of a chunked
reduction, ``x[n - taps:n]`` of an adaptive filter. A view, as NumPy's: its length the
one the graph's metadata gives, its start a variable of the kernel, the bounds clamped
at run time exactly as Python's ``slice.indices``; readers read the base at that
offset (``x[s + i]``), and a view passed to NumPy (``x[k:k + n] @ w``) is passed as
``x[s:s + n:1]``:

    y += taps[K - 1 - k] * x[k:k + n]     (in the loop body, k the trip; x (N,))  ->
        s = k + 0 ; e = k + n                            # the bounds, as written
        s = s + N if s < 0 else s ; s = min(max(s, 0), N)   # Python's clamping
        e = e + N if e < 0 else e ; e = min(max(e, 0), N)
        c = (e - s + step - 1) // step if e > s else 0
        _nf |= c != n           # another length than traced: tier 1 reruns the call
        s = s if c == n else 0  # ... and nothing reads past the array
        ... y[i] = y[i] + t * x[s + step * i]

Before (2026-12-05 morning) the slice was copied into a new array, which is only
right where nothing can tell a copy from the view (no output, no write between it and
its last reader), and costs a pass: FIR and LMS programs (``x[i:i + k] @ w`` in a
loop) then lost their races to tier 1 (0.98-1.01x, ``scripts/native_outcomes.py``).
The copy stays for a slice a whole-array reduction reads (``x[a:b].sum()``): NumPy
sums a strided view in its iterator's order, which the kernel does not follow
(reductions.py); there, no output and no write while it is read.
Steps must be constant and positive; other items of the index constant slices or ints
(a view of a view, ``None`` or ``...`` stay in tier 1). A store into such a view
(``out=``) of an input stays in tier 1 (its backup needs constant bounds: saves.py).
"""

from __future__ import annotations

import numpy as np

from dynamo.graph import CALL, Node
from dynamo.ops.node_facts import has_effect

from .dots import dot_only_slice
from .emitter import SEQ_FLAG
from .gathers import indexed_operand
from .ops import _REDUCTIONS, Unsupported, _dt
from .values import Arr, Scal, View


def has_symbolic_slice(index) -> bool:
    """Whether ``index`` holds a slice with a bound that is no constant int."""
    items = index if isinstance(index, tuple) else (index,)
    return any(isinstance(it, slice) and any(
        b is not None and not isinstance(b, (int, np.integer))
        for b in (it.start, it.stop, it.step)) for it in items)


class SymSlices:
    """Methods of ``_Block`` (block.py): ``x[k:k + n]`` with run-time bounds."""

    def bound(self, b) -> str:
        """The kernel expression of one slice bound."""
        if isinstance(b, bool) or isinstance(b, np.bool_):
            raise Unsupported("a boolean slice bound")
        if isinstance(b, (int, np.integer)):
            return str(int(b))
        if isinstance(b, Node):
            v = self.val(b)
            if not isinstance(v, Scal) or v.dtype.kind not in "iu":
                raise Unsupported("a slice bound that is not an integer of the kernel")
            return f"np.int64({v.name})"
        if hasattr(b, "sym") and hasattr(b, "nodes"):
            return f"np.int64({self.sym(b)})"
        raise Unsupported(f"slice bound {type(b).__name__}")

    def symbolic_slice(self, node: Node):
        if dot_only_slice(node):   # ``L[i, :i] @ x[:i]``: a run-time length (dots.py)
            return self.dot_slice(node)
        v, index, meta = indexed_operand(self, node)
        if not isinstance(v, Arr) or meta.scalar or v.dtype != meta.dtype:
            raise Unsupported("a slice with run-time bounds of a non-array or a view")
        copy = _read_whole(node)
        if copy:
            _no_write_while_read(self.graph, node)
        items = list(index if isinstance(index, tuple) else (index,))
        if len(items) > len(v.shape):
            raise Unsupported("too many indices")
        items += [slice(None)] * (len(v.shape) - len(items))
        em = self.em
        subs, shape = [], []   # per base axis: a function of the nest index, or an int
        for k, it in enumerate(items):
            n = v.shape[k]
            if isinstance(it, (int, np.integer)) and not isinstance(it, (bool, np.bool_)):
                if not -n <= int(it) < n:
                    raise Unsupported("index out of bounds")
                subs.append(("int", str(int(it) % n)))
                continue
            if not isinstance(it, slice):
                raise Unsupported(f"index {type(it).__name__}")
            step = 1 if it.step is None else it.step
            if not isinstance(step, (int, np.integer)) or isinstance(step, bool) or step <= 0:
                raise Unsupported("a slice step that is not a positive constant")
            step = int(step)
            if not has_symbolic_slice(it):
                start, _, _ = it.indices(n)
                shape.append(len(range(*it.indices(n))))
                subs.append(("slice", start, step))
                continue
            count = meta.shape[len(shape)] if len(shape) < len(meta.shape) else -1
            s, e, c = em.new("s"), em.new("s"), em.new("s")
            lines = [f"{s} = {'0' if it.start is None else self.bound(it.start)}",
                     f"{e} = {n if it.stop is None else self.bound(it.stop)}"]
            for x in (s, e):   # slice.indices for a positive step
                lines += [f"{x} = {x} + {n} if {x} < 0 else {x}",
                          f"{x} = 0 if {x} < 0 else ({n} if {x} > {n} else {x})"]
            lines += [f"{c} = ({e} - {s} + {step - 1}) // {step} if {e} > {s} else 0",
                      f"{SEQ_FLAG} |= {c} != {count}",
                      f"{s} = {s} if {c} == {count} else 0"]
            if count < 0 or (count > 0 and step * (count - 1) >= n):
                raise Unsupported("a slice longer than its axis")
            for line in lines:
                em.line(line)
            shape.append(count)
            subs.append(("slice", s, step))
        shape = tuple(shape)
        if shape != meta.shape:
            raise Unsupported("getitem result differs from its metadata")
        if not shape:
            raise Unsupported("0-d slice")
        view = View(v, subs, shape, meta.dtype)
        if not copy:
            return view
        name = em.new("a")
        em.alloc(f"{name} = np.empty({shape}, {_dt(meta.dtype)})")
        out = Arr(name, shape, meta.dtype, name, fresh=True)

        def body(idx, stmts, flag):
            stmts.append(f"{out.read(idx)} = {view.read(idx)}")
        self.nest(shape, body, writes=name)
        return out


def _read_whole(node: Node) -> bool:
    """Whether a reduction over every axis reads ``node`` (``x[a:b].sum()``)."""
    return any(u.op == CALL and u.target in _REDUCTIONS and u.kwargs.get("axis") is None
               and len(u.args) == 1 for u in node.users)


def _no_write_while_read(graph, node: Node) -> None:
    """Unsupported unless the copy of ``node`` reads as its view would: no output of
    the graph, and no node from it to its last user may write memory."""
    users = list(node.users)
    order = {n: k for k, n in enumerate(graph.nodes)}
    if any(u.op != CALL for u in users) or not users:
        raise Unsupported("a slice with run-time bounds that is an output")
    last = max(order[u] for u in users)
    for n in list(graph.nodes)[order[node] + 1:last + 1]:
        # (has_effect: ``setitem``, ``out=``, ops that write their argument, draws,
        # ops the registry does not know, such as a loop node)
        if n.op == CALL and (n.target in ("setitem", "fori_loop") or has_effect(n)):
            raise Unsupported("a write while a slice with run-time bounds is read")
