"""Sizes and strides of a symbolic graph as the kernels see them.

In a graph with symbolic sizes (``docs/dynamic_shapes.md``) a dimension is a
``SymInt``: its ``int`` value is the size of the call that was traced (the hint),
``.sym`` an affine expression over the symbols (``s0 - 1``). The plan must not
use the hint as if it were the size: a kernel compiled for one entry serves every
size. So the backend turns each dimension into

- an ``int`` when it is static, or
- a ``Size``: a product of affine expressions times a constant (a dimension is one
  factor; a contiguous stride, or the element count of a coalesced dimension, is a
  product). ``Size``s compare structurally, which is what coalescing and
  broadcasting need (``stride[i] == stride[j] * shape[j]``);

and a stride that the plan cannot express (a view of a symbolic array: NumPy's
view rules are not affine) into a ``RuntimeStride``: the kernel reads it as a
parameter that the host takes from the array itself (``x.strides[1] // 4``).

Everything that is not an ``int`` becomes a ``long long`` kernel parameter
(``kernel_params``), computed by the host code at each call from the symbol
placeholders or the input arrays' shapes (``symbol_names``): the CUDA text never
contains a hint, so every size runs the same compiled kernel.

Example::

    >>> T = SymInt(6, Sym.symbol("s0", "x.shape[0]"))
    >>> n = mul(dim(T), 8)                  # elements of a (T, 8) array
    >>> n, n.hint, n.python({"s0": "x.shape[0]"})
    (Size(8*s0), 48, '8 * (x.shape[0])')
    >>> contiguous_strides((8, dim(T)))     # layout.py: the row stride is symbolic
    (Size(s0), 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dynamo.graph import Node
from dynamo.ops import ArrayMeta
from dynamo.symbolic import SymInt, is_unbacked


@dataclass(frozen=True)
class Size:
    """``coef * factor_0 * factor_1 * ...`` with factors affine ``Sym``s (never empty)."""

    coef: int
    factors: tuple                   # Syms, sorted by their text
    hint: int = field(compare=False)

    def python(self, names: dict) -> str:
        """A Python expression over ``names`` (symbol -> host expression)."""
        parts = [f"({f.render(names)})" for f in self.factors]
        return " * ".join(([str(self.coef)] if self.coef != 1 else []) + parts)

    @property
    def positive(self) -> bool:
        """At least 1 at every size the entry serves (a symbol is always >= 2)?
        ``s0``, ``2*s0*s1`` are; ``s0 - 2`` (0 at ``s0 == 2``) is not."""
        return self.coef > 0 and all(f.const >= 0 and all(c > 0 for _, c in f.terms)
                                     for f in self.factors)

    def __repr__(self) -> str:
        text = "*".join(f.render() if len(f.terms) == 1 and not f.const else
                        f"({f.render()})" for f in self.factors)
        return f"Size({self.coef}*{text})" if self.coef != 1 else f"Size({text})"


@dataclass(frozen=True)
class RuntimeStride:
    """The element stride of dimension ``dim`` of the host variable ``node``."""

    node: str
    dim: int
    itemsize: int

    def python(self, names: dict) -> str:
        return f"{self.node}.strides[{self.dim}] // {self.itemsize}"

    @property
    def hint(self):
        raise TypeError("a runtime stride has no value before the call")


def dim(d):
    """A dimension of an ``ArrayMeta``: ``int``, or ``Size`` when symbolic."""
    if isinstance(d, SymInt):
        return Size(1, (d.sym,), int(d))
    return int(d)


def shape_of(node: Node) -> tuple:
    """The node's array shape with symbolic dimensions as ``Size``s."""
    meta = node.meta.get("array")
    return tuple(dim(d) for d in meta.shape)


def is_static(value) -> bool:
    return isinstance(value, int)


def hint(value) -> int:
    """The value at the traced sizes (decisions that only affect speed use it)."""
    return value if isinstance(value, int) else value.hint


def mul(a, b):
    """``a * b`` for ints and ``Size``s; None when a runtime stride is involved."""
    if isinstance(a, RuntimeStride) or isinstance(b, RuntimeStride):
        return None
    if isinstance(a, int) and isinstance(b, int):
        return a * b
    if isinstance(a, int):
        a, b = b, a
    if isinstance(b, int):
        return 0 if b == 0 else Size(a.coef * b, a.factors, a.hint * b)
    factors = tuple(sorted(a.factors + b.factors, key=lambda f: f.render()))
    return Size(a.coef * b.coef, factors, a.hint * b.hint)


def prod(values):
    out = 1
    for v in values:
        out = mul(out, v)
    return out


def minus(value, k: int):
    """``value - k`` for an int or a one-factor ``Size`` (a count such as ``cols - ddof``)."""
    if isinstance(value, int):
        return value - k
    if value.coef != 1 or len(value.factors) != 1:
        return None
    f = value.factors[0]
    return Size(1, (f - f.__class__((), k),), value.hint - k)


def broadcast(shapes: list[tuple]) -> tuple | None:
    """NumPy's broadcast of shapes whose dimensions are ints or ``Size``s (None if not)."""
    ndim = max((len(s) for s in shapes), default=0)
    out = []
    for d in range(ndim):
        sizes = {s[d - ndim + len(s)] for s in shapes if d - ndim + len(s) >= 0}
        sizes.discard(1)
        if len(sizes) > 1:
            return None
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


def symbol_names(graph) -> dict:
    """``{symbol: host expression}``: a size placeholder's name, else an input's shape;
    an unbacked size (``x[mask]``'s length, decided by the data) is the shape of the
    first node that has it, the op that made it (a plain call, computed before any
    kernel over arrays of that size)."""
    names: dict[str, str] = {}
    for node in graph.placeholders:
        if node.meta.get("symbol"):
            names[node.meta["symbol"]] = node.name
    for node in graph.call_nodes():
        meta = node.meta.get("array")
        for d, size in enumerate(meta.shape if isinstance(meta, ArrayMeta) else ()):
            if isinstance(size, SymInt) and len(size.sym.terms) == 1 and \
                    size.sym.terms[0][1] == 1 and size.sym.const == 0 and \
                    is_unbacked(size.sym.terms[0][0]):
                names.setdefault(size.sym.terms[0][0], f"{node.name}.shape[{d}]")
    for node in graph.placeholders:
        meta = node.meta.get("array")
        if meta is None or isinstance(meta, tuple):
            continue
        for d, size in enumerate(meta.shape):
            if isinstance(size, SymInt) and len(size.sym.terms) == 1 and \
                    size.sym.terms[0][1] == 1 and size.sym.const == 0:
                names.setdefault(size.sym.terms[0][0], f"{node.name}.shape[{d}]")
    return names


def python(value, names: dict) -> str:
    """A host expression for an int, ``Size`` or ``RuntimeStride``."""
    return str(value) if isinstance(value, int) else value.python(names)
