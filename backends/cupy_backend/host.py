"""The host side of a plan: one generated Python function that runs the steps in order.

Plain steps are the graph's own calls (``ops.matmul(x, w)``, with ``ops`` CuPy's
implementation table). A kernel step allocates its outputs and launches the right
variant; when an input's layout is not one the plan created itself, one tuple
compare checks it first, and on a mismatch the kernel's ops run as plain calls
instead. The function makes no host synchronization and reads no device data.

In a graph with symbolic sizes the function also takes the size placeholders
(``s0``): output shapes, kernel parameters (sizes, counts, strides: see
:mod:`.sizes`) and grids are Python expressions over them and over the arrays'
shapes and strides, evaluated at each call; the vectorized variant is picked when
the pointers are aligned and the sizes allow it (``Launch.requires``)::

    def forward_cupy_1(x, s0, w):
        # kernel k_9d2e...: row over (6, 6): ...
        divide = empty(((s0), (s0),), consts.dt_float32)
        if (ptr(matmul) | ptr(divide)) & 15 or (s0) % 4:
            K.k_9d2e..._s(grid_at(consts.c1_Launch, (s0)), (256,),
                          (matmul, divide, i64((s0)), ...))

The same source runs on two devices (:class:`Device`): CuPy, where ``K.<name>`` are
``RawKernel``s, and the NumPy reference (:mod:`.reference`), where they evaluate the
kernel IR; so the host code itself is tested on the CPU.

Example (the body generated for layernorm)::

    def forward_cupy_0(x, g, b):
        # kernel k_52c1a9e0f3aa: row over (8192, 4096): mean, subtract, ...
        add_1 = empty((8192, 4096), dt_float32)
        if (ptr(x) | ptr(g) | ptr(b) | ptr(add_1)) & 15:
            K.k_52c1a9e0f3aa_s((8192,), (256,), (x, g, b, add_1))
        else:
            K.k_52c1a9e0f3aa_v((8192,), (256,), (x, g, b, add_1))
        return (add_1,)
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dynamo.graph import CONSTANT, Node
from dynamo.source import compile_source
from dynamo.symbolic import SymArg

from .codegen import KernelCode
from .fuse import Plan
from .ir import ROW
from .launch import grid_at
from .sizes import RuntimeStride, is_static, prod, symbol_names
from .sizes import python as size_python

_counter = itertools.count()


class _Raw(str):
    """Text that ``_Writer.fmt`` writes as it is (a host expression)."""
_LITERALS = (int, float, complex, str, bytes, bool, type(None), type(Ellipsis))


@dataclass
class Device:
    """What the host code calls: an array library and the compiled kernels."""

    ops: Any                                # op name -> implementation
    empty: Callable                         # empty(shape, dtype)
    ptr: Callable                           # device address of an array
    kernels: dict = field(default_factory=dict)   # launch name -> callable(grid, block, args)
    mismatch: Callable = lambda name: None  # told when a layout check fails


class _Namespace:
    def __init__(self, values: dict):
        self.__dict__.update(values)


class _Writer:
    def __init__(self, names: dict | None = None):
        self.lines: list[str] = []
        self.consts: dict[str, Any] = {}
        self.names = names or {}     # symbol -> host expression (sizes.symbol_names)

    def size(self, value) -> str:
        """A size, count or stride at run time (sizes clamped at 0: ``cols - ddof``)."""
        if is_static(value) or not hasattr(value, "coef") or value.positive:
            return size_python(value, self.names)
        return f"max({value.python(self.names)}, 0)"

    def fmt(self, v: Any) -> str:
        if isinstance(v, Node):
            return v.name
        if isinstance(v, SymArg):
            return f"({v.graph_expr()})"
        if isinstance(v, tuple):
            return "(" + "".join(self.fmt(x) + ", " for x in v).rstrip(" ") + ")"
        if isinstance(v, list):
            return "[" + ", ".join(self.fmt(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{k!r}: {self.fmt(x)}" for k, x in v.items()) + "}"
        if isinstance(v, slice):
            return f"slice({self.fmt(v.start)}, {self.fmt(v.stop)}, {self.fmt(v.step)})"
        if isinstance(v, _Raw):
            return str(v)
        if type(v) in _LITERALS and _plain(v):
            return "..." if v is Ellipsis else repr(v)
        for key, known in self.consts.items():
            if known is v:
                return f"consts.{key}"
        base = re.sub(r"\W", "_", str(getattr(v, "__name__", type(v).__name__))) or "c"
        key = f"c{len(self.consts)}_{base}"
        self.consts[key] = v
        return f"consts.{key}"

    def call(self, node: Node, depth: int) -> None:
        args = [self.fmt(a) for a in node.args]
        args += [f"{k}={self.fmt(v)}" for k, v in node.kwargs.items()]
        self.lines.append("    " * depth + f"{node.name} = ops.{node.target}({', '.join(args)})")

    def dtype(self, dtype) -> str:
        key = f"dt_{dtype.name}"
        self.consts[key] = dtype
        return f"consts.{key}"


def _plain(v) -> bool:
    if isinstance(v, float):
        return v == v and v not in (float("inf"), float("-inf"))
    if isinstance(v, complex):
        return _plain(v.real) and _plain(v.imag)
    return True


def _layout_check(w: _Writer, code: KernelCode) -> str | None:
    """Python condition true when an unchecked input's layout is not the planned one.

    A symbolic stride is compared with its value at this call's sizes; a stride the
    kernel reads from the array itself (``RuntimeStride``) needs no check.
    """
    lhs, rhs = [], []
    for inp in code.kernel.inputs:
        if inp.guaranteed:
            continue
        for d, (size, stride) in enumerate(zip(inp.shape, inp.strides)):
            if isinstance(stride, RuntimeStride) or is_static(size) and size <= 1:
                continue
            lhs.append(f"{inp.node.name}.strides[{d}]")
            rhs.append(str(stride * inp.dtype.itemsize) if is_static(stride) else
                       f"{w.size(stride)} * {inp.dtype.itemsize}")
    if not lhs:
        return None
    return f"({', '.join(lhs)},) != ({', '.join(rhs)},)"


def _empty_check(w: _Writer, code: KernelCode) -> str | None:
    """A symbolic row kernel needs a row and a column: with none, NumPy's own
    reduction runs (an empty max raises, an empty sum is 0)."""
    k = code.kernel
    tests = [f"{w.size(v)} < 1" for v in (prod(k.dims[:-1]), k.dims[-1])
             if not is_static(v) and not v.positive]
    return " or ".join(tests) if k.kind == ROW and tests else None


def _launch(w: _Writer, code: KernelCode, depth: int) -> None:
    k = code.kernel
    pad = "    " * depth
    for out in k.outputs:
        shape = w.fmt(tuple(_Raw(w.size(d)) for d in out.shape))
        w.lines.append(f"{pad}{out.node.name} = empty({shape}, {w.dtype(out.dtype)})")
    args = [i.node.name for i in k.inputs] + [o.node.name for o in k.outputs]
    args += [f"i64({w.size(v)})" for v in k.params()]
    arg_tuple = "(" + "".join(a + ", " for a in args).rstrip(" ") + ")"

    def line(launch, d):
        grid = repr(launch.grid) if launch.grid is not None else \
            f"grid_at({w.fmt(launch)}, {w.size(launch.work)})"
        return f"{'    ' * d}K.{launch.name}({grid}, {launch.block!r}, {arg_tuple})"
    vec = code.launches.get("v")
    if vec is None:
        w.lines.append(line(code.launches["s"], depth))
        return
    aligned = " | ".join(f"ptr({args[i]})" for i in vec.aligned)
    sizes = "".join(f" or {w.size(v)} % {m}" for v, m in vec.requires)
    w.lines.append(f"{pad}if ({aligned}) & 15{sizes}:")
    w.lines.append(line(code.launches["s"], depth + 1))
    w.lines.append(f"{pad}else:")
    w.lines.append(line(vec, depth + 1))


def host_source(plan: Plan, codes: dict, fn_name: str) -> tuple[str, dict]:
    """Python source of the function running ``plan``, and the constants it uses.

    ``codes`` maps each kernel step's Kernel (by id) to its KernelCode.
    """
    w = _Writer(symbol_names(plan.graph))
    params = [n.name for n in plan.graph.placeholders]
    w.lines.append(f"def {fn_name}({', '.join(params)}):")
    for node in plan.graph.nodes:
        if node.op == CONSTANT:
            w.lines.append(f"    {node.name} = {w.fmt(node.args[0])}")
    for step in plan.steps:
        if step.kind == "call":
            w.call(step.nodes[0], 1)
            continue
        code = codes[id(step.kernel)]
        names = ", ".join(n.name for n in step.nodes)
        w.lines.append(f"    # kernel {code.name}: {step.kernel.kind} over "
                       f"{step.kernel.dims}: {names}")
        check, empty = _layout_check(w, code), _empty_check(w, code)
        if check is None and empty is None:
            _launch(w, code, 1)
            continue
        branch = "if"
        for condition, note in ((check, f"mismatch({code.name!r})"), (empty, None)):
            if condition is None:
                continue
            w.lines.append(f"    {branch} {condition}:")
            if note:
                w.lines.append(f"        {note}")
            for node in step.nodes:
                w.call(node, 2)
            branch = "elif"
        w.lines.append("    else:")
        _launch(w, code, 2)
    w.lines.append(f"    return {w.fmt(tuple(plan.graph.outputs))}")
    return "\n".join(w.lines) + "\n", w.consts


def bind(source: str, consts: dict, fn_name: str, device: Device) -> Callable:
    """Execute the host source against ``device``; the function, registered with linecache."""
    unique = f"{fn_name}_{next(_counter)}"
    src = source.replace(f"def {fn_name}(", f"def {unique}(", 1)
    scope = {"ops": device.ops, "empty": device.empty, "ptr": device.ptr,
             "i64": np.int64, "grid_at": grid_at,
             "K": _Namespace(device.kernels), "mismatch": device.mismatch,
             "consts": _Namespace(consts)}
    compile_source(src, f"<dynamo cupy host {unique}>", scope)
    fn = scope.pop(unique)
    fn.__dynamo_source__ = src
    return fn
