"""The kernel IR: one fused kernel as loads, scalar instructions and stores.

A ``Kernel`` iterates over a shape (``Kernel.shape``, already coalesced: adjacent
dimensions that every access walks contiguously are merged). Each value is a C
variable: a ``Load`` reads one element of an input array through element strides
over the iteration dimensions (0 where the input is broadcast), an ``Instr`` applies
one op of :mod:`.scalar_ops` (or a row reduction) to earlier values and ``Const``s.

Two kinds of kernel:

- ``pointwise``: every value is computed per element of ``shape``; outputs are
  C-contiguous arrays of that shape.
- ``row``: ``shape`` is ``(rows..., cols)`` and reductions run over ``cols``. A value
  is in ``elem`` space (one per element) or ``row`` space (one per row: reduction
  results and what is computed from them alone). ``level`` counts the reductions a
  value waits for: the kernel makes one pass over the row per level (softmax: max,
  then sum, then the stores), keeping the row in registers when it fits.

Both the CUDA code generators and the NumPy reference executor read this IR, so
a partition or lowering bug shows on the CPU.

Example (the body of GELU's kernel, printed with ``str(kernel)``)::

    pointwise kernel over (1000,): inputs x:float32
      in0 = load x strides (1,)
      v0 = multiply(0.5:float32, in0) -> float32
      ...
      store v7 -> multiply_3
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dynamo.graph import Node

from .sizes import prod

POINTWISE, ROW = "pointwise", "row"
ELEM, ROWSPACE = "elem", "row"
REDUCTIONS = ("reduce_sum", "reduce_max", "reduce_min")


@dataclass(frozen=True)
class Const:
    value: Any          # the scalar as the program wrote it (Python or NumPy scalar)
    dtype: np.dtype     # the loop dtype it is converted to

    def __str__(self) -> str:
        return f"{self.value!r}:{self.dtype}"


def const_value(arg):
    """The value of a constant argument that the code may specialize on, else None
    (a value name, or a ``Size``: a count known only at run time)."""
    return arg.value if isinstance(arg, Const) and not hasattr(arg.value, "python") else None


@dataclass
class KernelInput:
    node: Node          # the graph value the kernel reads
    dtype: np.dtype
    shape: tuple
    strides: tuple      # expected element strides of the array (its own dims)
    guaranteed: bool    # layout certain (guarded input, our own output); else checked at run


@dataclass
class Load:
    name: str
    input: int          # index in Kernel.inputs
    dtype: np.dtype
    strides: tuple      # element strides over Kernel.shape (0 = broadcast)
    space: str = ELEM
    level: int = 0


@dataclass
class Instr:
    name: str
    op: str             # a scalar_ops name or one of REDUCTIONS
    args: tuple         # value names (str) or Consts
    in_dtypes: tuple
    dtype: np.dtype
    space: str = ELEM
    level: int = 0


@dataclass
class KernelOutput:
    node: Node
    value: str          # name of the Load or Instr stored
    shape: tuple        # the output array's shape (C-contiguous)
    dtype: np.dtype
    space: str = ELEM


@dataclass
class Kernel:
    kind: str
    nodes: list         # graph nodes this kernel computes, program order
    shape: tuple        # iteration shape after coalescing (row: last dim = cols)
    inputs: list = field(default_factory=list)
    loads: list = field(default_factory=list)
    body: list = field(default_factory=list)
    outputs: list = field(default_factory=list)
    name: str = "kernel"
    dims: tuple = ()    # ``shape`` as ints and ``Size``s (symbolic graphs); ``shape``
    #                     holds the hints, for the speed heuristics and printing only

    def __post_init__(self) -> None:
        self.dims = tuple(self.dims) or tuple(self.shape)

    def params(self) -> dict:
        """``{value: C name}``: every size, count and stride the kernel takes at run time
        (with the element count of a pointwise kernel, the row count of a row kernel).

        Empty for a static kernel. The order (iteration sizes, element and row counts,
        load strides, constants) depends only on the kernel's structure, so the CUDA
        text is the same for every size.
        """
        out: dict = {}
        strides = [s for ld in self.loads for s in ld.strides]
        consts = [a.value for ins in self.body for a in ins.args if isinstance(a, Const)]
        count = prod(self.dims) if self.kind == POINTWISE else prod(self.dims[:-1])
        for v in (*self.dims, count, *strides, *consts):
            if hasattr(v, "python") and v not in out:
                out[v] = f"q{len(out)}"
        return out

    @property
    def symbolic(self) -> bool:
        return bool(self.params())

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def rows(self) -> int:
        return int(np.prod(self.shape[:-1], dtype=np.int64))

    @property
    def cols(self) -> int:
        return int(self.shape[-1])

    @property
    def levels(self) -> int:
        return 1 + max((v.level for v in self.values()), default=0)

    def values(self):
        return [*self.loads, *self.body]

    def value(self, name: str):
        for v in self.values():
            if v.name == name:
                return v
        raise KeyError(name)

    def __str__(self) -> str:
        ins = ", ".join(f"{i.node.name}:{i.dtype}" for i in self.inputs)
        lines = [f"{self.kind} kernel over {self.shape}: inputs {ins}"]
        for ld in self.loads:
            lines.append(f"  {ld.name} = load {self.inputs[ld.input].node.name} strides "
                         f"{ld.strides} [{ld.space}]")
        for ins_ in self.body:
            args = ", ".join(str(a) for a in ins_.args)
            lines.append(f"  {ins_.name} = {ins_.op}({args}) -> {ins_.dtype} "
                         f"[{ins_.space}, level {ins_.level}]")
        for out in self.outputs:
            lines.append(f"  store {out.value} -> {out.node.name} {out.shape}")
        return "\n".join(lines)
