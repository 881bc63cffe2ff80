"""Lowering: a set of graph nodes becomes one ``Kernel`` (see :mod:`.ir`), or ``Reject``.

``lower(nodes, layouts)`` is the single judge of what may be fused: the partition
pass (:mod:`.fuse`) proposes node sets and keeps those that lower. A set lowers
when

- every node is an elementwise op of :mod:`.scalar_ops` (plus ``astype``, ``copy``,
  ``clip``, ``where``) on fused dtypes, without ``out=`` or other keywords, or a
  ``sum``/``mean``/``max``/``min``/``var``/``std`` over the last axis only;
- with reductions (a ``row`` kernel), all of them reduce arrays of one shape
  ``(rows..., cols)``; every other value broadcasts into it, or is a per-row value
  (a reduction result, kept ``(rows..., 1)`` or dropped to ``(rows...)``);
- each value is read with the same broadcast everywhere it is used, and each value
  needed outside the kernel has the kernel's full shape (or the per-row shape).

Shapes are read with :func:`.sizes.shape_of`: a symbolic dimension is a ``Size``,
never its hint, so a kernel of a symbolic graph is right for every size (only the
speed heuristics below look at the hints).

Reductions lower to NumPy's own algorithm, so the reference executor reproduces
NumPy bit for bit: ``mean`` is a sum divided by the count in float64 (NumPy divides
by an ``intp``), ``var`` is ``sum(square(x - mean)) / max(n - ddof, 0)``.

Example::

    >>> k = lower(softmax_graph.call_nodes(), layouts)
    >>> k.kind, k.levels
    ('row', 3)
"""

from __future__ import annotations

import inspect

import numpy as np

from dynamo.graph import Node
from dynamo.ops import ELEMENTWISE, REDUCTION
from dynamo.tree import tree_leaves

from .cuda_types import fusible as fusible_dtype
from .ir import (
    ELEM,
    POINTWISE,
    REDUCTIONS,
    ROW,
    ROWSPACE,
    Const,
    Instr,
    Kernel,
    KernelInput,
    KernelOutput,
    Load,
    const_value,
)
from .layout import array_meta, coalesce, contiguous_strides
from .scalar_ops import SCALAR_OPS, arg_spec, loop_dtypes
from .sizes import broadcast, hint, is_static, minus, prod, shape_of

ROW_REDUCTIONS = ("sum", "mean", "max", "min", "var", "std")
SPECIAL_ELEMENTWISE = ("astype", "copy", "clip", "where")
# A one-block-per-row kernel wastes the GPU on a few very long rows: CuPy's own
# reduction (which splits rows across blocks) is used there instead.
FEW_ROWS, LONG_ROW = 64, 1 << 16


class Reject(Exception):
    """These nodes cannot be one kernel; the message says why (logged on ``backend``)."""


def outputs_of(nodes) -> list[Node]:
    """Members read outside the set, or returned by the graph."""
    members = set(nodes)
    graph_out = {o for o in tree_leaves(nodes[0].graph.outputs) if isinstance(o, Node)} \
        if nodes else set()
    return [n for n in nodes if n in graph_out or any(u not in members for u in n.users)]


def reduction_params(node: Node) -> dict | None:
    """``{kind, x, keepdims, ddof}`` for a fusible last-axis reduction, else None."""
    if node.target not in ROW_REDUCTIONS or node.meta.get("kind") != REDUCTION:
        return None
    from dynamo import ops
    try:
        bound = inspect.signature(ops.get(node.target).impl).bind(*node.args, **node.kwargs)
    except TypeError:
        return None
    params = dict(bound.arguments)
    x = params.pop(next(iter(bound.arguments)))
    meta, xmeta = array_meta(node), array_meta(x) if isinstance(x, Node) else None
    if xmeta is None or meta is None or xmeta.ndim == 0:
        return None
    axis = params.pop("axis", None)
    keepdims = bool(params.pop("keepdims", False))
    ddof = params.pop("ddof", 0)
    dtype = params.pop("dtype", None)
    if params or not isinstance(ddof, int) or isinstance(ddof, bool):
        return None  # out=, where=, initial=, ...
    if dtype is not None and node.target not in ("sum", "mean"):
        return None
    if axis is None:
        if xmeta.ndim != 1:
            return None
    else:
        axes = axis if isinstance(axis, tuple) else (axis,)
        a = axes[0] if len(axes) == 1 else None
        if not isinstance(a, (int, np.integer)) or isinstance(a, bool) or \
                not -xmeta.ndim <= a < xmeta.ndim or a % xmeta.ndim != xmeta.ndim - 1:
            return None
    return {"kind": node.target, "x": x, "keepdims": keepdims, "ddof": ddof}


def lower(nodes: list[Node], layouts: dict) -> Kernel:
    """One kernel computing ``nodes`` (program order), or raise ``Reject``."""
    if not nodes:
        raise Reject("no nodes")
    reductions = {n: p for n in nodes if (p := reduction_params(n)) is not None}
    for n in nodes:
        meta = array_meta(n)
        if meta is None or meta.scalar or not fusible_dtype(meta.dtype):
            raise Reject(f"{n.name}: not an array of a fused dtype")
        if n not in reductions and (n.meta.get("kind") != ELEMENTWISE or
                                    n.target not in (*SCALAR_OPS, *SPECIAL_ELEMENTWISE)):
            raise Reject(f"{n.name}: op {n.target!r} has no fused form")
    if reductions:
        shapes = {shape_of(p["x"]) for p in reductions.values()}
        if len(shapes) != 1:
            raise Reject(f"reductions over different shapes {sorted(map(str, shapes))}")
        space = shapes.pop()
        rows = prod(space[:-1])
        if is_static(space[-1]) and space[-1] < 2 or rows == 0:
            raise Reject(f"row reduction over shape {space}: too small to fuse")
        # a speed heuristic: at the hints for symbolic sizes
        if hint(rows) < FEW_ROWS and hint(space[-1]) > LONG_ROW:
            raise Reject(f"{rows} rows of {space[-1]}: CuPy's reduction is faster")
        builder = _Builder(ROW, space, layouts, reductions)
    else:
        space = broadcast([shape_of(n) for n in nodes])
        if space is None:
            raise Reject("shapes do not broadcast")
        if 0 in space:
            raise Reject("size-0 arrays")
        builder = _Builder(POINTWISE, space, layouts, {})
    for n in nodes:
        builder.node(n)
    return builder.finish(nodes, outputs_of(nodes))


class _Builder:
    def __init__(self, kind: str, space: tuple, layouts: dict, reductions: dict):
        self.kind, self.space, self.layouts, self.reductions = kind, space, layouts, reductions
        self.inputs: list[KernelInput] = []
        self.loads: dict[tuple, Load] = {}
        self.body: list[Instr] = []
        self.values: dict[str, Load | Instr] = {}
        self.cse: dict[tuple, str] = {}
        self.value_of: dict[Node, str] = {}
        self.map_of: dict[Node, tuple] = {}
        self.flat: set[Node] = set()     # per-row values with the reduced dim dropped

    # ------------------------------------------------------------ broadcasting maps
    def right_map(self, shape: tuple) -> tuple:
        """Own dim of each iteration dim under NumPy's right-aligned broadcasting."""
        off = len(self.space) - len(shape)
        if off < 0:
            raise Reject(f"shape {shape} does not broadcast to {self.space}")
        out = []
        for d, size in enumerate(self.space):
            k = d - off
            if k < 0 or shape[k] == 1:
                out.append(None)
            elif shape[k] == size:
                out.append(k)
            else:
                raise Reject(f"shape {shape} does not broadcast to {self.space}")
        return tuple(out)

    def flat_map(self, shape: tuple) -> tuple:
        if tuple(shape) != self.space[:-1]:
            raise Reject(f"per-row shape {shape} for rows {self.space[:-1]}")
        return tuple(k if shape[k] != 1 else None for k in range(len(shape))) + (None,)

    @staticmethod
    def operand_map(op_shape: tuple, node_shape: tuple, node_map: tuple) -> tuple:
        off = len(node_shape) - len(op_shape)
        out = []
        for k in node_map:
            j = None if k is None else k - off
            out.append(None if j is None or j < 0 or op_shape[j] == 1 else j)
        return tuple(out)

    # ------------------------------------------------------------ values
    def read(self, node: Node, m: tuple) -> str:
        if node in self.value_of:
            if self.map_of[node] != m:
                raise Reject(f"{node.name} is read with two different broadcasts")
            return self.value_of[node]
        return self.load(node, m).name

    def load(self, node: Node, m: tuple) -> Load:
        key = (node, m)
        if key in self.loads:
            return self.loads[key]
        meta, layout = array_meta(node), self.layouts.get(node)
        if meta is None or meta.scalar or layout is None or not fusible_dtype(meta.dtype):
            raise Reject(f"input {node.name}: layout or dtype unknown")
        if node not in [i.node for i in self.inputs]:
            self.inputs.append(KernelInput(node, meta.dtype, shape_of(node),
                                           layout.strides, layout.certain))
        index = [i.node for i in self.inputs].index(node)
        strides = tuple(0 if k is None else layout.strides[k] for k in m)
        space = ROWSPACE if self.kind == ROW and strides[-1] == 0 else ELEM
        ld = Load(f"in{len(self.loads)}", index, meta.dtype, strides, space)
        self.loads[key] = ld
        self.values[ld.name] = ld
        return ld

    def instr(self, op: str, args: tuple, in_dtypes: tuple, dtype) -> str:
        dtype = np.dtype(dtype)
        key = (op, args, in_dtypes, dtype)
        if key in self.cse:
            return self.cse[key]
        vals = [self.values[a] for a in args if isinstance(a, str)]
        level = max((v.level for v in vals), default=0)
        space = ROWSPACE if self.kind == ROW and all(v.space == ROWSPACE for v in vals) \
            else ELEM
        if op in REDUCTIONS:
            if vals[0].space != ELEM:
                raise Reject("reducing a value that does not vary along the row")
            space, level = ROWSPACE, level + 1
        else:
            consts = tuple(const_value(a) for a in args)
            if SCALAR_OPS[op].emit(["a"] * len(args), in_dtypes, dtype, consts) is None:
                raise Reject(f"{op} on {[str(d) for d in in_dtypes]} has no CUDA form")
        ins = Instr(f"v{len(self.body)}", op, args, tuple(in_dtypes), dtype, space, level)
        self.body.append(ins)
        self.values[ins.name] = ins
        self.cse[key] = ins.name
        return ins.name

    def cast(self, value, dtype):
        dtype = np.dtype(dtype)
        if isinstance(value, Const):
            v = value.value
            if dtype.kind in "iub" and isinstance(v, (int, np.integer)) and not \
                    np.can_cast(np.min_scalar_type(v), dtype) and \
                    not (dtype.kind == "b" and v in (0, 1)):
                # NumPy compares out-of-range Python ints exactly; a C cast would wrap
                raise Reject(f"constant {v!r} does not fit {dtype}")
            return Const(v, dtype)
        src = self.values[value].dtype
        return value if src == dtype else self.instr("cast", (value,), (src,), dtype)

    # ------------------------------------------------------------ nodes
    def node(self, n: Node) -> None:
        meta = array_meta(n)
        if n in self.reductions:
            self.map_of[n] = (self.right_map(shape_of(n)) if self.reductions[n]["keepdims"]
                              else self.flat_map(shape_of(n)))
            if not self.reductions[n]["keepdims"]:
                self.flat.add(n)
            self.value_of[n] = self.reduction(n, self.reductions[n], meta.dtype)
            return
        operands = [a for a in n.args if isinstance(a, Node)]
        if self.kind == ROW and any(o in self.flat for o in operands):
            self.map_of[n] = self.flat_map(shape_of(n))
            self.flat.add(n)
        else:
            self.map_of[n] = self.right_map(shape_of(n))
        self.value_of[n] = self.elementwise(n, meta)

    def operand(self, n: Node, a):
        if isinstance(a, Node):
            m = self.operand_map(shape_of(a), shape_of(n), self.map_of[n])
            return self.read(a, m)
        try:
            arg_spec(a)
        except TypeError:
            raise Reject(f"{n.name}: argument {a!r} is not a scalar") from None
        return Const(a, None)

    def spec(self, value):
        return arg_spec(value.value) if isinstance(value, Const) else self.values[value].dtype

    def elementwise(self, n: Node, meta) -> str:
        t, args, kwargs = n.target, n.args, n.kwargs
        if t == "copy":
            if len(args) != 1 or set(kwargs) - {"order"}:
                raise Reject("copy with arguments")
            return self.operand(n, args[0])
        if kwargs:
            raise Reject(f"{n.name}: keywords {sorted(kwargs)}")
        if t == "astype":
            if len(args) != 2:
                raise Reject("astype with extra arguments")
            return self.cast(self.operand(n, args[0]), meta.dtype)
        if t == "clip":  # minimum(maximum(x, lo), hi): NumPy's and CuPy's clip agree on it
            lo, hi = (args + (None, None))[1:3] if len(args) == 3 else (None, None)
            bounds = [b for b in (lo, hi) if b is not None]
            if len(args) != 3 or not bounds or any(
                    not isinstance(b, (int, float)) or b != b for b in bounds) or \
                    (len(bounds) == 2 and lo > hi):
                # CuPy's clip differs from NumPy's for NaN or crossed bounds: leave it to CuPy
                raise Reject("clip needs constant, ordered, non-NaN bounds")
            x = self.cast(self.operand(n, args[0]), meta.dtype)
            for op, bound in (("maximum", args[1]), ("minimum", args[2])):
                if bound is not None:
                    b = self.cast(self.operand(n, bound), meta.dtype)
                    x = self.instr(op, (x, b), (meta.dtype,) * 2, meta.dtype)
            return x
        vals = [self.operand(n, a) for a in args]
        if not vals or all(isinstance(v, Const) for v in vals):
            raise Reject("op on constants only")
        try:
            ins, out = loop_dtypes(t, [self.spec(v) for v in vals], meta.dtype)
        except (KeyError, TypeError, ValueError) as e:
            raise Reject(f"{n.name}: {e}") from None
        if out != meta.dtype:
            raise Reject(f"{n.name}: loop gives {out}, the graph says {meta.dtype}")
        if t != "where" and len(set(ins)) > 1:
            raise Reject(f"{n.name}: mixed loop {ins} (C would convert int64 to uint64)")
        return self.instr(t, tuple(self.cast(v, d) for v, d in zip(vals, ins)), ins, out)

    def reduction(self, n: Node, p: dict, acc) -> str:
        x = p["x"]
        if shape_of(x) != self.space:
            raise Reject("reduced array is broadcast")
        xv = self.read(x, self.right_map(self.space))
        kind, cols = p["kind"], self.space[-1]
        if kind in ("max", "min"):
            return self.instr(f"reduce_{kind}", (xv,), (self.values[xv].dtype,), acc)
        a = self.cast(xv, acc)
        s = self.instr("reduce_sum", (a,), (acc,), acc)
        if kind == "sum":
            return s
        mean = self.divide_count(s, cols, acc)
        if kind == "mean":
            return mean
        ins, out = loop_dtypes("subtract", [self.values[xv].dtype, acc])
        if out != acc:
            raise Reject(f"var of {self.values[xv].dtype}")
        d = self.instr("subtract", (self.cast(xv, ins[0]), self.cast(mean, ins[1])), ins, out)
        q = self.instr("square", (d,), (acc,), acc)
        count = minus(cols, p["ddof"])
        if count is None:
            raise Reject(f"var over {cols} columns with ddof")
        var = self.divide_count(self.instr("reduce_sum", (q,), (acc,), acc),
                                max(count, 0) if is_static(count) else count, acc)
        return var if kind == "var" else self.instr("sqrt", (var,), (acc,), acc)

    def divide_count(self, total: str, count, acc) -> str:
        """NumPy's ``true_divide(total, intp(count))``, cast back to the result dtype.

        A symbolic count is a ``Size`` constant: a kernel parameter, clamped at 0 by
        the host (``max(cols - ddof, 0)``)."""
        ins, out = loop_dtypes("divide", [np.dtype(acc), np.dtype(np.intp)])
        q = self.instr("divide", (self.cast(total, ins[0]), Const(count, ins[1])), ins, out)
        return self.cast(q, acc)

    # ------------------------------------------------------------ result
    def finish(self, nodes: list[Node], outputs: list[Node]) -> Kernel:
        row_map = self.flat_map(self.space[:-1]) if self.kind == ROW else None
        outs = []
        for n in outputs:
            meta, value, shape = array_meta(n), self.values[self.value_of[n]], shape_of(n)
            if value.space == ELEM:
                if shape != self.space:
                    raise Reject(f"output {n.name} of shape {shape} inside a kernel "
                                 f"over {self.space}")
            elif self.map_of[n] != row_map or prod(shape) != prod(self.space[:-1]):
                raise Reject(f"per-row output {n.name} of shape {shape}")
            outs.append(KernelOutput(n, value.name, shape, meta.dtype, value.space))
        if self.kind == ROW and not any(ins.op in REDUCTIONS for ins in self.body):
            raise Reject("no reduction")
        accesses = [ld.strides for ld in self.loads.values()]
        out_strides = contiguous_strides(self.space)
        accesses.append(out_strides)
        if self.kind == ROW:
            accesses.append(contiguous_strides(self.space[:-1]) + (0,))
        dims, new = coalesce(self.space, accesses, keep_last=self.kind == ROW)
        for ld, strides in zip(self.loads.values(), new):
            ld.strides = strides
        for ld in self.loads.values():
            if self.kind == ROW:
                ld.space = ROWSPACE if ld.strides[-1] == 0 else ELEM
        return Kernel(self.kind, list(nodes), tuple(hint(d) for d in dims), self.inputs,
                      list(self.loads.values()), self.body, outs, dims=dims)
