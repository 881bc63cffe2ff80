"""Python source for a partitioned graph: plain statements and block-wise group functions.

For a layernorm over (10000, 1000) float32 the generated code reads::

    def forward(x, g, b):
        add_1, = _group0(x, g, b)
        return (add_1,)

    def _group0(x, g, b):
        if not (x.flags.c_contiguous):
            return _plain0(x, g, b)
        _o_add_1 = _empty((10000, 1000), _float32)
        def _block(_i, _s):
            _q = _i
            _lo = _q * 16
            _hi = _lo + 16
            if _hi > 10000:
                ...                                   # a short last block
            _s0, = _s
            _b_x = x[_lo:_hi]
            mean = _mean(_b_x, axis=(-1,), keepdims=True)
            subtract = _subtract(_b_x, mean, out=_s0)
            ...
            add_1 = _add(multiply, b, out=_o_add_1[_lo:_hi])
        _run(_block, 625, _scratch0, 2)
        return (_o_add_1,)

Names starting with ``_`` are the generator's (graph node names never do).
"""

from __future__ import annotations

import builtins
import math
import re
from typing import Any

import numpy as np

from dynamo import ops
from dynamo.graph import CONSTANT, PLACEHOLDER, Graph, Node

from ..fusion import Group, reduction_info
from ..fusion.fusible import array_meta
from . import runtime
from .plan import BlockPlan, uses_out

_LITERALS = (bool, int, str, type(None))


class Module:
    """Generated source lines and the objects they refer to by name."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.scope: dict[str, Any] = {"__builtins__": builtins,
                                      "_empty": np.empty, "_run": runtime.run_blocks,
                                      "_finish_partial": runtime.finish_partial,
                                      "_finish_mean": runtime.finish_mean}
        self._bound: dict[int, str] = {}

    def bind(self, value: Any, hint: str) -> str:
        """A global name for ``value`` in the generated module."""
        if id(value) in self._bound:
            return self._bound[id(value)]
        base = "_" + (re.sub(r"\W", "_", hint).strip("_") or "c")
        name, i = base, 1
        while name in self.scope:
            name, i = f"{base}_{i}", i + 1
        self.scope[name] = value
        self._bound[id(value)] = name
        return name

    def emit(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)

    def fmt(self, value: Any, name_of) -> str:
        """Source for an argument: node names, literals, or bound constants."""
        if isinstance(value, Node):
            return name_of(value)
        if isinstance(value, tuple):
            return "(" + "".join(self.fmt(v, name_of) + ", " for v in value) + ")"
        if isinstance(value, list):
            return "[" + ", ".join(self.fmt(v, name_of) for v in value) + "]"
        if isinstance(value, dict):
            return "{" + ", ".join(f"{k!r}: {self.fmt(v, name_of)}"
                                   for k, v in value.items()) + "}"
        if isinstance(value, slice):
            parts = (value.start, value.stop, value.step)
            return f"slice({', '.join(self.fmt(v, name_of) for v in parts)})"
        if type(value) in _LITERALS or (type(value) is float and math.isfinite(value)):
            return repr(value)
        if type(value) is complex and all(map(math.isfinite, (value.real, value.imag))):
            return repr(value)
        if value is Ellipsis:
            return "..."
        return self.bind(value, getattr(value, "__name__", None) or type(value).__name__)

    def call(self, node: Node, name_of, args=None, extra: str = "") -> str:
        fn = self.bind(ops.get(node.target).impl, node.target)
        parts = [self.fmt(a, name_of) for a in (node.args if args is None else args)]
        parts += [f"{k}={self.fmt(v, name_of)}" for k, v in node.kwargs.items()]
        if extra:
            parts.append(extra)
        return f"{fn}({', '.join(parts)})"

    def source(self) -> str:
        return "\n".join(self.lines) + "\n"


def plain_name(m: Module):
    """Names of values in straight-line code: constants are bound globals."""
    def name_of(node: Node) -> str:
        if node.op == CONSTANT:
            return m.bind(node.args[0], node.name)
        return node.name
    return name_of


def emit_forward(m: Module, graph: Graph, groups: list[Group], plans: list, name: str) -> None:
    """``def <name>(placeholders): ...``: every group in order, then the outputs."""
    name_of = plain_name(m)
    statements: list[tuple[str, list[Node]]] = []     # (source, nodes it reads)
    for index, (group, plan) in enumerate(zip(groups, plans)):
        if plan is None:
            for node in group.nodes:
                statements.append((f"{node.name} = {m.call(node, name_of)}", node.inputs()))
        else:
            fn = emit_group(m, plan, index)
            outs = "".join(f"{n.name}, " for n in group.outputs)
            ins = ", ".join(name_of(n) for n in group.inputs)
            statements.append((f"{outs}= {fn}({ins})", group.inputs))
    returned = graph.outputs
    m.emit(0, f"def {name}({', '.join(n.name for n in graph.placeholders)}):")
    _emit_with_dels(m, statements, keep=set(returned))
    m.emit(1, f"return {m.fmt(tuple(returned), name_of)}")
    m.emit(0, "")


def _emit_with_dels(m: Module, statements: list, keep: set) -> None:
    """Emit statements, dropping each intermediate after its last reader.

    Without the ``del`` every intermediate lives until the function returns: more
    memory, and big allocations never reuse freed pages.
    """
    last: dict[Node, int] = {}
    for i, (_, reads) in enumerate(statements):
        for n in reads:
            last[n] = i
    for i, (text, _) in enumerate(statements):
        m.emit(1, text)
        dead = [n.name for n, j in last.items() if j == i and n not in keep
                and n.op not in (PLACEHOLDER, CONSTANT)]
        if dead:
            m.emit(1, f"del {', '.join(dead)}")
    if not statements:
        m.emit(1, "pass")


# --------------------------------------------------------------------------- groups

def emit_group(m: Module, plan: BlockPlan, index: int) -> str:
    """Define ``_group<index>`` (block-wise) and ``_plain<index>``; return the former."""
    group = plan.group
    name_of = plain_name(m)
    params = ", ".join(name_of(n) for n in group.inputs)
    outs = "(" + "".join(f"{n.name}, " for n in group.outputs) + ")"
    plain = f"_plain{index}"
    m.emit(0, f"def {plain}({params}):")
    for node in group.nodes:
        m.emit(1, f"{node.name} = {m.call(node, name_of)}")
    m.emit(1, f"return {outs}")
    m.emit(0, "")

    fn = f"_group{index}"
    m.emit(0, f"def {fn}({params}):")
    checks = [f"{name_of(n)}.flags.c_contiguous" for n in group.inputs
              if n.op != CONSTANT and array_meta(n) is not None and array_meta(n).ndim >= 2
              and not array_meta(n).scalar]
    if checks:
        # eager gives other layouts (strides) for other inputs' layouts: keep eager's
        m.emit(1, f"if not ({' and '.join(checks)}):")
        m.emit(2, f"return {plain}({params})")
    results = _emit_allocations(m, plan)
    _emit_block(m, plan)
    scratch = m.bind(runtime.ScratchCache([(s.shape, s.dtype) for s in plan.slots]),
                     f"scratch{index}")
    m.emit(1, f"_run(_block, {plan.nblocks}, {scratch}, {plan.threads})")
    _emit_finish(m, plan)
    m.emit(1, "return (" + "".join(f"{results[n]}, " for n in group.outputs) + ")")
    m.emit(0, "")
    return fn


def _partial(plan: BlockPlan, node: Node) -> bool:
    return plan.partial and node in plan.group.reductions


def _emit_allocations(m: Module, plan: BlockPlan) -> dict[Node, str]:
    """Allocate each output (or each partial-result vector); name what is returned."""
    results = {}
    for node in plan.group.outputs:
        meta = array_meta(node)
        if _partial(plan, node):
            dtype = _partial_dtype(node)
            m.emit(1, f"_p_{node.name} = _empty({plan.nblocks}, {m.bind(dtype, str(dtype))})")
            results[node] = node.name
        else:
            m.emit(1, f"_o_{node.name} = _empty({meta.shape!r}, "
                      f"{m.bind(meta.dtype, str(meta.dtype))})")
            results[node] = f"_o_{node.name}"
    return results


def _partial_dtype(node: Node) -> np.dtype:
    if node.target == "mean":
        src = array_meta(node.args[0]).dtype
        return runtime.mean_dtype(src, reduction_info(node).dtype) or src
    return array_meta(node).dtype


def _emit_block(m: Module, plan: BlockPlan) -> None:
    group, k, d = plan.group, plan.axis, plan.domain
    m.emit(1, "def _block(_i, _s):")
    if k == 0:
        m.emit(2, "_q = _i")
    else:
        m.emit(2, f"_r, _q = divmod(_i, {plan.per_axis})")
        for a in reversed(range(1, k)):
            m.emit(2, f"_r, _i{a} = divmod(_r, {d[a]})")
        m.emit(2, "_i0 = _r")
    m.emit(2, f"_lo = _q * {plan.block}")
    m.emit(2, f"_hi = _lo + {plan.block}")
    if plan.per_axis * plan.block != d[k]:
        m.emit(2, f"if _hi > {d[k]}:")
        m.emit(3, f"_hi = {d[k]}")
        if any(s.sliced for s in plan.slots):
            cut = ", ".join(f"_s[{j}][:_hi - _lo]" if s.sliced else f"_s[{j}]"
                            for j, s in enumerate(plan.slots))
            m.emit(3, f"_s = ({cut},)")
    if plan.slots:
        m.emit(2, "".join(f"_s{j}, " for j in range(len(plan.slots))) + "= _s")
    names: dict[Node, str] = {}
    for node in group.inputs:
        meta = array_meta(node)
        outer = plain_name(m)(node)
        index = plan.index(meta.shape) if meta is not None and not meta.scalar else ""
        if index:
            names[node] = f"_b_{node.name}"
            m.emit(2, f"_b_{node.name} = {outer}{index}")
        else:
            names[node] = outer
    name_of = lambda n: names.get(n, n.name)
    outputs = set(group.outputs)
    for node in group.nodes:
        names[node] = node.name
        if node in group.reductions:
            _emit_reduction(m, plan, node, name_of, node in outputs)
            continue
        meta = array_meta(node)
        target = f"_o_{node.name}{plan.index(meta.shape) or '[...]'}"
        repeats = plan.repeats(meta.shape)
        if node in plan.slot_of:
            m.emit(2, f"{node.name} = {m.call(node, name_of, extra=f'out=_s{plan.slot_of[node]}')}")
        elif node in outputs and uses_out(node):
            m.emit(2, f"{node.name} = {m.call(node, name_of, extra=f'out={target}')}")
            continue
        else:
            m.emit(2, f"{node.name} = {m.call(node, name_of)}")
        if node in outputs:
            if repeats:   # the same values in many blocks: write them once
                m.emit(2, f"if {' and '.join(repeats)}:")
                m.emit(3, f"{target} = {node.name}")
            else:
                m.emit(2, f"{target} = {node.name}")


def _emit_reduction(m: Module, plan: BlockPlan, node: Node, name_of, is_output: bool) -> None:
    info = reduction_info(node)
    fn = m.bind(ops.get(node.target).impl, node.target)
    src = name_of(node.args[0])
    extra = ""
    if info.dtype is not None:
        extra += f", dtype={m.fmt(info.dtype, name_of)}"
    if info.ddof is not None:
        extra += f", ddof={m.fmt(info.ddof, name_of)}"
    if _partial(plan, node):
        if node.target == "mean":
            acc = runtime.mean_dtype(array_meta(node.args[0]).dtype, info.dtype)
            fn = m.bind(np.sum, "sum")
            extra = "" if acc is None else f", dtype={m.bind(acc, str(acc))}"
        m.emit(2, f"_p_{node.name}[_i] = {fn}({src}{extra})")
        return
    ndim = len(plan.domain)
    axes = tuple(a - ndim for a in info.axes)
    axis = axes[0] if node.target in ("argmax", "argmin") else axes
    m.emit(2, f"{node.name} = {fn}({src}, axis={axis!r}, keepdims={info.keepdims}{extra})")
    if is_output:
        index = ", ".join([f"_i{a}" for a in range(plan.axis)] + ["_lo:_hi"])
        m.emit(2, f"_o_{node.name}[{index}] = {node.name}")


def _emit_finish(m: Module, plan: BlockPlan) -> None:
    """Combine the per-block partial results of full reductions."""
    for node in plan.group.reductions:
        if not _partial(plan, node):
            continue
        meta = array_meta(node)
        if node.target == "mean":
            src = array_meta(node.args[0])
            dtype = reduction_info(node).dtype
            m.emit(1, f"{node.name} = _finish_mean(_p_{node.name}, {src.size}, "
                      f"{m.bind(src.dtype, str(src.dtype))}, {m.fmt(dtype, str)}, "
                      f"{meta.shape!r}, {meta.scalar})")
        else:
            m.emit(1, f"{node.name} = _finish_partial({node.target!r}, _p_{node.name}, "
                      f"{meta.shape!r}, {meta.scalar})")
