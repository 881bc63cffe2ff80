"""Lower a graph to the Python source of loop nests that Numba compiles (tier 2).

One graph becomes one function ``kernel(*inputs) -> (flag, *results)``:

- an elementwise node with one user is *inlined* into that user's loop nest (a chain
  ``0.25 * (a + b + c)`` is one nest with one store); a node with several users, a
  graph output, or one a loop reads is *materialized*: ``np.empty`` and a nest;
- a reduction along the last axis or over every axis is an accumulation (sums with
  eight accumulators, as NumPy's pairwise sum starts; max/min with NumPy's NaN rule);
- ``getitem`` with integers and constant slices is a *view*: reads through it are the
  base array at shifted indices (``A[1:-1, :-2]`` reads ``A[i + 1, j]``);
- ``setitem`` with such an index is a nest that stores into the base array;
- ``fori_loop`` is a ``for`` loop around its body's statements.

The outer loop of a nest is ``prange`` when the nest is large (no nest carries a
dependency from one outer index to the next: values that read what they write are
materialized first). Every value keeps its NumPy dtype: operands are cast to the
ufunc's loop dtypes (``ufunc.resolve_dtypes``, NEP 50 weak Python scalars) and the
result to the node's dtype, so integers wrap as NumPy's do.

Floating-point reports: NumPy warns when an op makes a NaN from operands without one,
or an infinity from finite operands. A kernel flags every NaN or infinity that could
hide such a report: ops that keep one in their result (``+ - *``, ``sqrt``...) pass the
check on to their result (``_Block.settle``), other ops check their operands, and
every value is checked before it is stored; the kernel returns the flag, and a call
that raised it runs in tier 1 instead (``tier.py``), which warns or raises as eager.

Anything else raises ``Unsupported`` with the reason: that graph stays in tier 1.

Example::

    >>> kernel = lower(graph)
    >>> print(kernel.source)
    def kernel(p0, p1):
        _bad = np.zeros(1, np.bool_)
        ...
"""

from __future__ import annotations

import itertools
import math
import re
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from dynamo.graph import CALL, CONSTANT, PLACEHOLDER, Graph, Node
from dynamo.ops import ArrayMeta


class Unsupported(Exception):  # noqa: N818 (a reason, as dynamo.exc.Unsupported)
    """The graph (or one of its ops or dtypes) has no tier-2 lowering."""


# Dtypes a kernel computes with: Numba has no float16 arithmetic on the CPU.
_DTYPES = frozenset(np.dtype(c) for c in "?bhilqBHILQfdFD")

# Ufuncs by the loop dtype kinds they are lowered for ("b" bool, "i" integers of
# either sign, "f" floats, "c" complex) and how: a template over operands a, b.
_BINARY = {
    "add": ("ifc", "({a} + {b})"), "subtract": ("ifc", "({a} - {b})"),
    "multiply": ("ifc", "({a} * {b})"), "divide": ("f", "({a} / {b})"),
    "maximum": ("bif", "_maximum({a}, {b})"), "minimum": ("bif", "_minimum({a}, {b})"),
    "power": ("f", "({a} ** {b})"),
    "less": ("bif", "({a} < {b})"), "less_equal": ("bif", "({a} <= {b})"),
    "greater": ("bif", "({a} > {b})"), "greater_equal": ("bif", "({a} >= {b})"),
    "equal": ("bifc", "({a} == {b})"), "not_equal": ("bifc", "({a} != {b})"),
    "logical_and": ("b", "({a} and {b})"), "logical_or": ("b", "({a} or {b})"),
    "bitwise_and": ("bi", "({a} & {b})"), "bitwise_or": ("bi", "({a} | {b})"),
    "bitwise_xor": ("bi", "({a} ^ {b})"),
}
_UNARY = {
    "negative": ("ifc", "(-{a})"), "positive": ("ifc", "(+{a})"),
    "absolute": ("if", "abs({a})"), "square": ("ifc", "_square({a})"),
    "sqrt": ("f", "np.sqrt({a})"), "exp": ("f", "np.exp({a})"), "log": ("f", "np.log({a})"),
    "tanh": ("f", "np.tanh({a})"), "sin": ("f", "np.sin({a})"), "cos": ("f", "np.cos({a})"),
    "reciprocal": ("f", "(1.0 / {a})"), "logical_not": ("b", "(not {a})"),
    "isnan": ("f", "np.isnan({a})"), "isfinite": ("f", "np.isfinite({a})"),
    "isinf": ("f", "np.isinf({a})"),
}
# Float ops whose result is a NaN or infinity whenever an operand is one: a chain of
# them needs one check, on its last result (see ``_Block.settle``).
_PROPAGATE = frozenset({"add", "subtract", "multiply", "negative", "positive", "square",
                        "sqrt", "absolute"})
_BOOL_ARITH = {"add": "({a} or {b})", "multiply": "({a} and {b})"}
# Ufuncs that never make a NaN or an infinity NumPy would report.
_QUIET = frozenset({"maximum", "minimum", "less", "less_equal", "greater", "greater_equal",
                    "equal", "not_equal", "logical_and", "logical_or", "logical_not",
                    "bitwise_and", "bitwise_or", "bitwise_xor", "negative", "positive",
                    "absolute", "isnan", "isfinite", "isinf", "tanh"})
# Python's operators on NumPy scalars: the ufunc's arithmetic, floats only (integer
# scalars warn on overflow, which a kernel cannot report).
_SCALAR = {"scalar_add": "add", "scalar_subtract": "subtract", "scalar_multiply": "multiply",
           "scalar_divide": "divide", "scalar_negative": "negative",
           "scalar_positive": "positive", "scalar_absolute": "absolute",
           "scalar_less": "less", "scalar_less_equal": "less_equal",
           "scalar_greater": "greater", "scalar_greater_equal": "greater_equal",
           "scalar_equal": "equal", "scalar_not_equal": "not_equal"}
_REDUCTIONS = frozenset({"sum", "prod", "mean", "max", "min"})
_ELEMENTWISE = frozenset(_BINARY) | frozenset(_UNARY) | frozenset(_SCALAR) | {
    "where", "astype", "pow", "copy", "copy_method"}

# Helpers the generated code calls (Numba compiles and inlines them).
PRELUDE = '''
import numpy as np
from numba import njit, prange


@njit
def _maximum(a, b):          # np.maximum: a NaN in either wins, ties give b
    return a if (a > b or a != a) else b


@njit
def _minimum(a, b):
    return a if (a < b or a != a) else b


@njit
def _square(a):
    return a * a


@njit
def _new1(r, a):             # r = f(a) is a NaN or infinity NumPy would report
    return (np.isnan(r) > np.isnan(a)) | (np.isinf(r) & np.isfinite(a))


@njit
def _new2(r, a, b):
    return (np.isnan(r) > (np.isnan(a) | np.isnan(b))) | \\
        (np.isinf(r) & np.isfinite(a) & np.isfinite(b))
'''


@dataclass
class Kernel:
    """The lowering of one graph."""

    source: str                    # the module: PRELUDE, constants, ``def kernel``
    consts: dict                   # name -> NumPy scalar, module globals of the source
    outputs: list                  # per graph output: ("input", k) or ("result", j, meta)
    writes: list                   # indices of inputs the kernel writes into
    fresh_ndim: int                # most dimensions (of size > 1) of a fresh array output
    parallel: bool


# ------------------------------------------------------------------------- values


@dataclass(eq=False)
class Arr:
    """A whole array in a kernel variable; ``key`` names its memory (aliases share it)."""

    name: str
    shape: tuple
    dtype: np.dtype
    key: str
    fresh: bool = False            # allocated by this kernel (else an input's memory)
    input: int | None = None       # the graph input it is, when it is one

    def read(self, idx: list[str]) -> str:
        return f"{self.name}[{', '.join(idx)}]"


@dataclass(eq=False)
class View:
    """``base[index]`` with integers and constant slices: per base dimension either
    ``("int", expr)`` or ``("slice", start, step)`` (one view dimension each)."""

    base: Arr
    parts: list
    shape: tuple
    dtype: np.dtype

    @property
    def key(self) -> str:
        return self.base.key

    def read(self, idx: list[str]) -> str:
        return self.base.read(self.subscript(idx))

    def subscript(self, idx: list[str]) -> list[str]:
        out, k = [], 0
        for part in self.parts:
            if part[0] == "int":
                out.append(part[1])
            else:
                _, start, step = part
                i = idx[k]
                k += 1
                term = i if step == 1 else f"{step} * {i}"
                out.append(term if start == 0 else f"{start} + {term}")
        return out


@dataclass(eq=False)
class Scal:
    name: str
    dtype: np.dtype


@dataclass(eq=False)
class Const:
    value: Any


@dataclass(eq=False)
class Lazy:
    """An elementwise node inlined where it is read; ``keys``: the memory it reads."""

    node: Node
    keys: frozenset
    shape: tuple
    dtype: np.dtype


@dataclass(eq=False)
class Tup:
    items: list


def _meta(node: Node) -> ArrayMeta:
    meta = node.meta.get("array")
    if not isinstance(meta, ArrayMeta):
        raise Unsupported(f"{node.name}: no array metadata")
    if meta.kind != "numpy":
        raise Unsupported(f"{node.name}: {meta.kind} array")
    if meta.dtype not in _DTYPES:
        raise Unsupported(f"{node.name}: dtype {meta.dtype} is not lowered")
    for d in meta.shape:
        if type(d) is not int:
            raise Unsupported(f"{node.name}: symbolic shape")
    return meta


def _kind(dtype: np.dtype) -> str:
    return {"b": "b", "i": "i", "u": "i", "f": "f", "c": "c"}[dtype.kind]


def _dt(dtype: np.dtype) -> str:
    return f"np.{np.dtype(dtype).name}"


def _cast(expr: str, src: np.dtype, dst: np.dtype) -> str:
    if src == dst:
        return expr
    if src.kind == "c" and dst.kind != "c":
        raise Unsupported("complex to real cast")
    if src.kind == "f" and dst.kind in "iub":
        raise Unsupported("float to integer cast (NaN and overflow are undefined)")
    if dst == np.bool_:
        return f"({expr} != 0)"
    return f"{_dt(dst)}({expr})"


def _nonfinite(expr: str) -> str:
    """``expr`` is a NaN or an infinity: ``x - x`` is 0 exactly for finite ``x``. (One
    subtraction and compare: it vectorizes where ``not np.isfinite(x)`` does not.)"""
    return f"(({expr} - {expr}) != 0)"


def _broadcast(idx: list[str], shape: tuple, out_shape: tuple) -> list[str]:
    """The index into an operand of ``shape`` broadcast against ``out_shape``."""
    skip = len(out_shape) - len(shape)
    if skip < 0:
        raise Unsupported("operand with more dimensions than its result")
    return ["0" if d == 1 and out_shape[skip + k] != 1 else idx[skip + k]
            for k, d in enumerate(shape)]


# ------------------------------------------------------------------------- lowering


class _Emitter:
    """Source lines, fresh names and constants shared by a graph and its loop bodies."""

    def __init__(self, parallel_min: int):
        self.lines: list[str] = []
        self.pad = "    "
        self.names = itertools.count()
        self.consts: dict[str, Any] = {}
        self.parallel_min = parallel_min
        self.parallel = False

        self.group: _RowGroup | None = None
        # float temporaries that may hold a NaN or infinity no check has seen yet
        self.deferred: set[str] = set()

    def new(self, hint: str) -> str:
        return f"{hint}{next(self.names)}"

    def line(self, text: str) -> None:
        """One statement, after the pending row group (it may read what that writes)."""
        self.flush()
        self.lines.append(self.pad + text)

    def alloc(self, text: str) -> None:
        """An allocation: it may go before the pending row group (nothing reads a new
        array before its own nest writes it)."""
        self.lines.append(self.pad + text)

    def flush(self) -> None:
        """Emit the pending row group: one outer loop around its nests' inner loops."""
        group, self.group = self.group, None
        if group is None:
            return
        loop = "prange" if group.parallel else "range"
        self.lines.append(f"{group.pad}for {group.outer} in {loop}({group.rows}):")
        self.lines.append(f"{group.pad}    {group.flag} = False")
        self.lines += [group.pad + "    " + line for line in group.lines]
        self.lines.append(f"{group.pad}    if {group.flag}:")
        self.lines.append(f"{group.pad}        _bad[0] = True")

    def const(self, value, dtype: np.dtype) -> str:
        """A module global holding ``value`` as a NumPy scalar of ``dtype`` (Numba
        freezes globals as constants); a value that does not survive the cast exactly
        (NumPy would warn or raise) is Unsupported."""
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                typed = dtype.type(value)
            except (OverflowError, ValueError, TypeError, RuntimeWarning) as e:
                raise Unsupported(f"constant {value!r} as {dtype}: {e}") from None
        if isinstance(value, float) and dtype.kind == "f" and math.isfinite(value) \
                and not np.isfinite(typed):
            raise Unsupported(f"constant {value!r} overflows {dtype}")
        name = f"_k{len(self.consts)}"
        self.consts[name] = typed
        return name


@dataclass
class _RowGroup:
    """Nests over the same rows that write new arrays, fused under one outer loop
    (softmax: the row's max, exp, sum and division while the row is in cache). A nest
    joins only if it reads the group's arrays at the group's row and no other."""

    rows: int
    parallel: bool
    outer: str
    flag: str
    pad: str
    lines: list
    fresh: set


class _Block:
    """Lowers the nodes of one graph (the kernel's, or a loop body's) in order."""

    def __init__(self, em: _Emitter, graph: Graph, env: dict):
        self.em, self.graph = em, graph
        self.env: dict[Node, Any] = env
        self.pending: dict[Node, Lazy] = {}   # inlined values not yet read

    # ------------------------------------------------------------- reading values
    def val(self, arg):
        if isinstance(arg, Node):
            v = self.env[arg]
            if isinstance(v, Lazy):
                self.pending.pop(arg, None)
            return v
        if isinstance(arg, (bool, int, float, complex)) or isinstance(arg, np.generic):
            return Const(arg)
        raise Unsupported(f"argument {type(arg).__name__}")

    def element(self, v, idx: list[str], out_shape: tuple, stmts: list, flag: str):
        """Statements computing ``v`` at ``idx`` (broadcast to ``out_shape``); returns
        (expression, dtype)."""
        if isinstance(v, Const):
            raise Unsupported("a constant where an array is needed")
        if isinstance(v, Scal):
            return v.name, v.dtype
        if isinstance(v, (Arr, View)):
            return v.read(_broadcast(idx, v.shape, out_shape)), v.dtype
        if isinstance(v, Lazy):
            return self.elementwise(v.node, _broadcast(idx, v.shape, out_shape), stmts, flag)
        raise Unsupported(f"value {type(v).__name__} read elementwise")

    def operand(self, arg, idx, shape, stmts, flag):
        """An operand as (expression, dtype or a Python type for weak scalars)."""
        v = self.val(arg) if isinstance(arg, Node) else Const(arg)
        if isinstance(v, Const):
            if isinstance(v.value, np.generic):
                return ("const", v.value), v.value.dtype
            if isinstance(v.value, (bool, int, float, complex)):
                return ("const", v.value), type(v.value)
            raise Unsupported(f"constant {v.value!r}")
        return self.element(v, idx, shape, stmts, flag)

    def _as(self, operand, dtype: np.dtype) -> str:
        expr, src = operand
        if isinstance(expr, tuple):
            return self.em.const(expr[1], dtype)
        return _cast(expr, src, dtype)

    def _bind(self, expr: str, stmts: list, deferred: bool = False) -> str:
        name = self.em.new("t")
        stmts.append(f"{name} = {expr}")
        if deferred:
            self.em.deferred.add(name)
        return name

    def settle(self, expr: str, stmts: list, flag: str) -> None:
        """Before ``expr`` is stored, returned or read by an op that can hide a NaN or
        infinity (``minimum``, ``exp(-inf)``, ``1 / inf``): flag it if it holds one."""
        if expr in self.em.deferred:
            stmts.append(f"{flag} |= {_nonfinite(expr)}")

    def elementwise(self, node: Node, idx: list[str], stmts: list, flag: str):
        """Statements computing elementwise ``node`` at ``idx`` (its own shape)."""
        meta = _meta(node)
        target, args, kwargs = node.target, node.args, node.kwargs
        shape = meta.shape
        if target in ("copy", "copy_method"):
            if kwargs or len(args) != 1:
                raise Unsupported(f"{target} with arguments")
            expr, dt = self.operand(args[0], idx, shape, stmts, flag)
            return self._bind(_cast(expr, dt, meta.dtype), stmts,
                              expr in self.em.deferred), meta.dtype
        if target == "astype":
            if len(args) != 2 or kwargs:
                raise Unsupported("astype with arguments")
            expr, dt = self.operand(args[0], idx, shape, stmts, flag)
            floats = meta.dtype.kind == "f" and dt.kind == "f"
            if not floats:
                self.settle(expr, stmts, flag)
            # float64 -> float32 may overflow (NumPy warns): an infinity, checked later
            r = self._bind(_cast(expr, dt, meta.dtype), stmts, floats)
            return r, meta.dtype
        if target == "where":
            if len(args) != 3 or kwargs:
                raise Unsupported("where")
            c = self.operand(args[0], idx, shape, stmts, flag)
            x = self.operand(args[1], idx, shape, stmts, flag)
            y = self.operand(args[2], idx, shape, stmts, flag)
            for o in (c, x, y):
                if isinstance(o[0], str):
                    self.settle(o[0], stmts, flag)
            cexpr = self._as(c, np.dtype(bool))
            return self._bind(f"({self._as(x, meta.dtype)} if {cexpr} else "
                              f"{self._as(y, meta.dtype)})", stmts), meta.dtype
        if target == "pow":
            target, args = self._pow(args, kwargs)
        name = _SCALAR.get(target, target)
        if target in _SCALAR and meta.dtype.kind in "iu":
            raise Unsupported(f"{target} on integer scalars (NumPy warns on overflow)")
        if kwargs:
            raise Unsupported(f"{target} with keyword arguments {sorted(kwargs)}")
        table = _BINARY if name in _BINARY else _UNARY if name in _UNARY else None
        if table is None:
            raise Unsupported(f"op {target!r} is not lowered")
        kinds, template = table[name]
        ufunc = getattr(np, name)
        if len(args) != ufunc.nin:
            raise Unsupported(f"{target} with {len(args)} arguments")
        ops = [self.operand(a, idx, shape, stmts, flag) for a in args]
        try:
            loop = ufunc.resolve_dtypes(tuple(o[1] for o in ops) + (None,))
        except (TypeError, ValueError, np.exceptions.DTypePromotionError) as e:
            raise Unsupported(f"{target}: {e}") from None
        if loop[-1] != meta.dtype or any(dt not in _DTYPES for dt in loop):
            raise Unsupported(f"{target}: loop {loop} does not give {meta.dtype}")
        if loop[0] == np.bool_ and name in _BOOL_ARITH:   # NumPy: add is or, multiply and
            kinds, template = "b", _BOOL_ARITH[name]
        if _kind(loop[0]) not in kinds:
            raise Unsupported(f"{target} on {loop[0]}")
        real = loop[-1].kind == "f"
        absorbed = False
        for k, o in enumerate(ops):
            # a NaN or infinity in an operand of +, -, *, sqrt... (or a numerator) stays
            # one in the result: the check moves to the result; other ops check now
            if not isinstance(o[0], str):
                continue
            if real and (name in _PROPAGATE or name == "divide" and k == 0):
                absorbed |= o[0] in self.em.deferred
            else:
                self.settle(o[0], stmts, flag)
        names = [self._bind(self._as(o, dt), stmts, real and o[0] in self.em.deferred)
                 if not isinstance(o[0], tuple) else self._as(o, dt)
                 for o, dt in zip(ops, loop)]
        expr = template.format(a=names[0], b=names[-1])
        r = self._bind(_cast(expr, loop[-1], meta.dtype), stmts,
                       real and (name not in _QUIET or absorbed))
        if loop[-1].kind == "c" and name not in _QUIET:   # complex: checked at once
            stmts.append(f"{flag} |= _new{len(names)}({r}, {', '.join(names)})")
        return r, meta.dtype

    def _pow(self, args, kwargs):
        """``x ** e`` as NumPy runs it: its fast paths for e in (2, 0.5, -1, 1)."""
        if kwargs or len(args) != 2 or not isinstance(args[1], (int, float)) \
                or isinstance(args[1], bool):
            raise Unsupported("** of a non-constant exponent")
        e = args[1]
        fast = {2: "square", 0.5: "sqrt", -1: "reciprocal", 1: "positive"}
        if e in fast:
            return fast[e], (args[0],)
        return "power", args

    # ------------------------------------------------------------- nests
    def nest(self, shape: tuple, body, writes: str | None = None) -> None:
        """A loop nest over ``shape``; ``body(idx, stmts, flag)`` fills the innermost
        statements. The outer loop is a ``prange`` for large nests. A nest that fills
        the new array ``writes`` may join the pending row group (``join``)."""
        em = self.em
        size = math.prod(shape)
        if size == 0:
            return
        idx = [em.new("i") for _ in shape]
        flag = em.new("nf")
        stmts: list[str] = []
        body(idx, stmts, flag)
        par = bool(size >= em.parallel_min and shape and shape[0] > 1)
        if writes is not None and shape and shape[0] > 1 and self.join(shape, body, par,
                                                                       writes):
            return
        em.flush()
        em.parallel |= par
        saved = em.pad
        if not shape:
            em.line(f"{flag} = False")
            for s in stmts:
                em.line(s)
        for k, (i, n) in enumerate(zip(idx, shape)):
            em.line(f"for {i} in {'prange' if k == 0 and par else 'range'}({n}):")
            em.pad += "    "
            if k == 0:
                em.line(f"{flag} = False")
        if shape:
            for s in stmts:
                em.line(s)
            em.pad = saved + "    "
        em.line(f"if {flag}:")
        em.line("    _bad[0] = True")
        em.pad = saved

    def join(self, shape: tuple, body, par: bool, writes: str) -> bool:
        """Add the nest to the pending row group (or start one); False if it cannot
        join: other rows, or it reads an array of the group at another row."""
        em = self.em
        group = em.group
        if group is not None and (group.rows != shape[0] or group.pad != em.pad):
            em.flush()
            group = None
        fresh = group is None
        if fresh:
            group = _RowGroup(shape[0], par, em.new("i"), em.new("nf"), em.pad, [], set())
        idx = [group.outer] + [em.new("i") for _ in shape[1:]]
        stmts: list[str] = []
        body(idx, stmts, group.flag)
        text = "\n".join(stmts)
        for name in group.fresh:
            for m in re.finditer(rf"\b{name}\[([^,\]]+)", text):
                if m.group(1).strip() != group.outer:
                    em.flush()
                    return self.join(shape, body, par, writes)
        pad = ""
        for i, n in zip(idx[1:], shape[1:]):
            group.lines.append(f"{pad}for {i} in range({n}):")
            pad += "    "
        group.lines += [pad + line for line in stmts]
        group.fresh.add(writes)
        group.parallel |= par   # rows are independent: one large member makes it prange
        if fresh:
            em.flush()
            em.group = group
        em.parallel |= par
        return True

    def materialize(self, node: Node):
        """Compute an elementwise node into a new array (or a scalar variable)."""
        meta = _meta(node)
        if meta.scalar or meta.ndim == 0:
            if not meta.scalar:
                raise Unsupported("0-d array")
            stmts: list[str] = []
            flag = self.em.new("nf")
            expr, _ = self.elementwise(node, [], stmts, flag)
            self.settle(expr, stmts, flag)
            self.em.line(f"{flag} = False")
            for s in stmts:
                self.em.line(s)
            self.em.line(f"if {flag}:")
            self.em.line("    _bad[0] = True")
            return Scal(expr, meta.dtype)
        name = self.em.new("a")
        self.em.alloc(f"{name} = np.empty({meta.shape}, {_dt(meta.dtype)})")
        out = Arr(name, meta.shape, meta.dtype, name, fresh=True)

        def body(idx, stmts, flag):
            expr, _ = self.elementwise(node, idx, stmts, flag)
            self.settle(expr, stmts, flag)
            stmts.append(f"{out.read(idx)} = {expr}")
        self.nest(meta.shape, body, writes=name)
        return out

    def force(self, node: Node):
        """The node's value as something that holds data now (not Lazy)."""
        v = self.env[node]
        if isinstance(v, Lazy):
            self.pending.pop(node, None)
            v = self.env[node] = self.materialize(node)
        return v

    def written(self, key: str) -> None:
        """Before a write into ``key``'s memory: inlined values that read it are
        computed now, as eager computed them before the write."""
        for node, lazy in list(self.pending.items()):
            if key in lazy.keys:
                self.force(node)

    # ------------------------------------------------------------- nodes
    def run(self) -> None:
        for node in self.graph.nodes:
            if node.op == PLACEHOLDER:
                if node not in self.env:
                    raise Unsupported(f"placeholder {node.name}")
            elif node.op == CONSTANT:
                value = node.args[0]
                if not isinstance(value, (bool, int, float, complex, np.generic)):
                    raise Unsupported(f"constant of type {type(value).__name__}")
                self.env[node] = Const(value)
            elif node.op == CALL:
                self.call(node)

    def call(self, node: Node) -> None:
        target = node.target
        if target in _ELEMENTWISE:
            meta = _meta(node)
            users = list(node.users)
            if not meta.scalar and len(users) == 1 and users[0].op == CALL and (
                    users[0].target in _ELEMENTWISE or users[0].target in _REDUCTIONS
                    or users[0].target == "setitem"):
                keys = frozenset().union(*(self._keys(a) for a in node.inputs()))
                self.env[node] = Lazy(node, keys, meta.shape, meta.dtype)
                self.pending[node] = self.env[node]
                # check it lowers now, not at its use (an error there would be late)
                self.elementwise(node, ["0"] * meta.ndim, [], "nf")
                for a in node.inputs():   # the check consumed the inputs; they stay pending
                    if isinstance(self.env.get(a), Lazy):
                        self.pending[a] = self.env[a]
            else:
                self.env[node] = self.materialize(node)
        elif target in _REDUCTIONS:
            self.env[node] = self.reduction(node)
        elif target == "getitem":
            self.env[node] = self.getitem(node)
        elif target == "setitem":
            self.env[node] = self.setitem(node)
        elif target == "after_loop":
            self.env[node] = self.val(node.args[0])
        elif target == "fori_loop":
            self.env[node] = self.fori_loop(node)
        else:
            raise Unsupported(f"op {target!r} is not lowered")

    def _keys(self, node: Node) -> frozenset:
        v = self.env.get(node)
        if isinstance(v, (Arr, View)):
            return frozenset({v.key})
        if isinstance(v, Lazy):
            return v.keys
        return frozenset()

    def index_parts(self, base_shape: tuple, index) -> tuple[list, tuple]:
        """``index`` (ints, constant slices, loop-index expressions) as view parts."""
        items = index if isinstance(index, tuple) else (index,)
        if len(items) > len(base_shape):
            raise Unsupported("too many indices")
        parts, shape = [], []
        for d, item in enumerate(items + (slice(None),) * (len(base_shape) - len(items))):
            n = base_shape[d]
            if isinstance(item, bool) or isinstance(item, np.bool_):
                raise Unsupported("boolean index")
            if isinstance(item, (int, np.integer)):
                i = int(item)
                if not -n <= i < n:
                    raise Unsupported("index out of bounds")
                parts.append(("int", str(i % n)))
            elif isinstance(item, slice):
                if not all(v is None or (isinstance(v, int) and not isinstance(v, bool))
                           for v in (item.start, item.stop, item.step)):
                    raise Unsupported("slice with non-constant bounds")
                start, _, step = item.indices(n)
                count = len(range(*item.indices(n)))
                parts.append(("slice", start, step))
                shape.append(count)
            elif hasattr(item, "sym") and hasattr(item, "nodes"):
                parts.append(("int", f"({self.sym(item)})"))
            else:
                raise Unsupported(f"index {type(item).__name__}")
        return parts, tuple(shape)

    def sym(self, arg) -> str:
        names = {}
        for s, node in arg.nodes.items():
            v = self.env.get(node)
            if not isinstance(v, Scal) or v.dtype.kind not in "iu":
                raise Unsupported("a symbolic index that is not the loop's")
            names[s] = v.name
        return arg.sym.render(names)

    def getitem(self, node: Node):
        base, index = node.args
        if node.kwargs:
            raise Unsupported("getitem with keywords")
        v = self.val(base)
        if isinstance(v, Tup):
            if not isinstance(index, int):
                raise Unsupported("tuple index")
            return v.items[index]
        meta = _meta(node)
        if isinstance(v, Lazy):
            v = self.force(base)
        if isinstance(v, Arr):
            parts, shape = self.index_parts(v.shape, index)
            view = View(v, parts, shape, v.dtype)
        elif isinstance(v, View):
            parts, shape = self.index_parts(v.shape, index)
            inner = View(v.base, v.parts, v.shape, v.dtype)
            view = _compose(inner, parts, shape)
        else:
            raise Unsupported("getitem of a non-array")
        if shape != meta.shape or v.dtype != meta.dtype:
            raise Unsupported("getitem result differs from its metadata")
        if meta.scalar:   # x[i, j]: NumPy copies the element out
            name = self.em.new("s")
            self.em.line(f"{name} = {view.read([])}")
            return Scal(name, meta.dtype)
        if not shape:
            raise Unsupported("0-d view")
        return view

    def setitem(self, node: Node):
        base, index, value = node.args
        target = self.val(base)
        if isinstance(target, View):
            raise Unsupported("setitem into a view (write through the base)")
        if not isinstance(target, Arr):
            raise Unsupported("setitem into a non-array")
        parts, shape = self.index_parts(target.shape, index)
        dest = View(target, parts, shape, target.dtype)
        self.written(target.key)
        if isinstance(value, Node):
            v = self.val(value)
            keys = self._keys(value)
            if target.key in keys and not (isinstance(v, Scal)):
                # the value reads what this writes: eager computes it whole first
                v = self.env[value] = self.materialize_copy(value, v)
        else:
            v = Const(value)
        if isinstance(v, Const):
            src = None
        else:
            src = v.dtype
            _cast("x", src, target.dtype)   # raises for casts a kernel cannot do
            if src.kind in "fc" and target.dtype.itemsize < src.itemsize and \
                    target.dtype.kind in "fc":
                raise Unsupported("narrowing float assignment")
            vshape = v.shape if isinstance(v, (Arr, View, Lazy)) else ()
            if len(vshape) > len(shape) or any(
                    a not in (1, b) for a, b in zip(vshape[::-1], shape[::-1])):
                raise Unsupported("value does not broadcast to the target")

        def body(idx, stmts, flag):
            if isinstance(v, Const):
                expr = self.em.const(v.value, target.dtype)
            else:
                e, dt = self.element(v, idx, shape, stmts, flag)
                self.settle(e, stmts, flag)
                expr = _cast(e, dt, target.dtype)
            stmts.append(f"{dest.read(idx)} = {expr}")
        self.nest(shape, body)
        return target

    def materialize_copy(self, node: Node, v):
        if isinstance(v, Lazy):
            return self.materialize(node)
        meta = _meta(node)
        name = self.em.new("a")
        self.em.alloc(f"{name} = np.empty({meta.shape}, {_dt(meta.dtype)})")
        out = Arr(name, meta.shape, meta.dtype, name, fresh=True)
        self.nest(meta.shape, lambda idx, stmts, flag: stmts.append(
            f"{out.read(idx)} = {v.read(idx)}"), writes=name)
        return out

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
            flag = em.new("nf")
            acc_lines([], stmts, flag)
            em.line(f"{flag} = False")
            for s in stmts:
                em.line(s)
            tail: list[str] = []
            self._finish(op, n, acc_dt, res, tail, flag)
            for s in tail:
                em.line(s)
            em.line(f"if {flag}:")
            em.line("    _bad[0] = True")
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

    def fori_loop(self, node: Node):
        body, trips, carried, free = node.args
        if not isinstance(body, Graph) or not isinstance(trips, int) or node.kwargs:
            raise Unsupported("fori_loop with a compiled body or symbolic trip count")
        em = self.em
        for pending in list(self.pending):   # the loop may write what they read
            self.force(pending)
        phs = body.placeholders
        index, rest = phs[0], phs[1:]
        if "loop_index" not in index.meta or len(rest) != len(carried) + len(free):
            raise Unsupported("fori_loop body signature")
        env: dict[Node, Any] = {}
        names = []
        for ph, arg in zip(rest, (*carried, *free)):
            v = self.val(arg) if isinstance(arg, Node) else Const(arg)
            if isinstance(arg, Node) and isinstance(v, Lazy):
                v = self.force(arg)
            is_carried = ph in rest[:len(carried)]
            if isinstance(v, Const):
                meta = _meta(ph)
                if not meta.scalar:
                    raise Unsupported("constant carried into a loop as an array")
                name = em.new("c")
                em.line(f"{name} = {em.const(v.value, meta.dtype)}")
                v = Scal(name, meta.dtype)
            elif isinstance(v, View):
                if is_carried:
                    raise Unsupported("a view carried by a loop")
            elif is_carried:
                name = em.new("c")
                em.line(f"{name} = {v.name}")
                v = Arr(name, v.shape, v.dtype, v.key, v.fresh, v.input) \
                    if isinstance(v, Arr) else Scal(name, v.dtype)
            if isinstance(v, (Arr, View, Scal)) and is_carried:
                names.append(v.name)
            env[ph] = v
        if len(carried) and not all(isinstance(env[p], (Arr, Scal)) for p in
                                    rest[:len(carried)]):
            raise Unsupported("loop carries a value that is not an array or scalar")
        # arrays rebound by the loop: memory keys change trip to trip; two carried arrays
        # that swap are both "the loop's", so writes into one invalidate reads of both
        # (the translator checked that no two carried arrays share memory: each gets a
        # key of its own; a free view of a carried array's memory would not follow it)
        carried_arrays = [env[p] for p in rest[:len(carried)] if isinstance(env[p], Arr)]
        carried_keys = {a.key for a in carried_arrays}
        for p in rest[len(carried):]:
            if isinstance(env[p], (Arr, View)) and env[p].key in carried_keys:
                raise Unsupported("a loop reads a view of an array it carries")
        for a in carried_arrays:
            a.key = em.new("loop")
            a.fresh = False
            a.input = None
        trip = em.new("trip")
        env[index] = Scal(trip, np.dtype(np.int64))
        em.line(f"for {trip} in range({trips}):")
        saved = em.pad
        em.pad += "    "
        inner = _Block(em, body, env)
        inner.run()
        outs = body.outputs
        nxt = []
        for o in outs[:len(carried)]:
            v = inner.force(o) if isinstance(o, Node) and isinstance(inner.env[o], Lazy) \
                else inner.val(o) if isinstance(o, Node) else Const(o)
            if isinstance(v, Const):
                raise Unsupported("loop carries a constant")
            if isinstance(v, View):
                raise Unsupported("loop carries a view")
            nxt.append(v.name)
        moves = [(a, b) for a, b in zip(names, nxt) if a != b]   # (an array written in
        if moves:                                                # place keeps its name)
            em.line(f"{''.join(a + ', ' for a, _ in moves)}= {''.join(b + ', ' for _, b in moves)}")
        em.flush()
        extra = []
        for o in outs[len(carried):]:
            v = inner.force(o) if isinstance(o, Node) and isinstance(inner.env[o], Lazy) \
                else inner.val(o) if isinstance(o, Node) else Const(o)
            if not isinstance(v, (Arr, Scal)):
                raise Unsupported("loop temporary that is not an array or scalar")
            extra.append(v)
        em.flush()
        em.pad = saved
        items = [env[p] for p in rest[:len(carried)]]
        for v in extra:   # defined in the loop: Numba needs them bound before it
            if isinstance(v, Arr) and v.fresh:
                raise Unsupported("an array temporary of a loop read after it")
            if isinstance(v, Scal) and not any(v.name == n for n in names):
                raise Unsupported("a scalar temporary of a loop read after it")
        return Tup(items + extra)


def _compose(view: View, parts: list, shape: tuple) -> View:
    """``view[index]`` as a view of ``view.base``."""
    out, k = [], 0
    for part in view.parts:
        if part[0] == "int":
            out.append(part)
            continue
        _, start, step = part
        sub = parts[k]
        count = view.shape[k]
        k += 1
        if sub[0] == "int":
            i = sub[1]
            if not i.isdigit():   # a loop-index expression may be negative: NumPy wraps
                i = f"(({i}) % {count})"   # it around the view, not the base
            out.append(("int", f"{start} + {step} * {i}" if step != 1 or start else i))
        else:
            out.append(("slice", start + step * sub[1], step * sub[2]))
    return View(view.base, out, shape, view.dtype)


def lower(graph: Graph, parallel_min: int = 1 << 14) -> Kernel:
    """The kernel source for ``graph`` (see the module docstring); Unsupported if any
    op, dtype, shape or value use has no exact lowering."""
    if any("symbol" in n.meta for n in graph.placeholders):
        raise Unsupported("symbolic sizes")
    em = _Emitter(parallel_min)
    env: dict[Node, Any] = {}
    params = []
    for k, ph in enumerate(graph.placeholders):
        meta = _meta(ph)
        name = f"p{k}"
        params.append(name)
        if meta.scalar:
            env[ph] = Scal(name, meta.dtype)
        elif meta.ndim == 0:
            raise Unsupported("0-d array input")
        else:
            env[ph] = Arr(name, meta.shape, meta.dtype, name, input=k)
    em.line("_bad = np.zeros(1, np.bool_)")
    block = _Block(em, graph, env)
    block.run()
    out_node = graph.output_node
    results, outputs, fresh_ndim = [], [], 0
    seen: dict[int, int] = {}
    for o in (out_node.args[0] if out_node is not None else ()):
        if not isinstance(o, Node):
            raise Unsupported("a constant output")
        v = block.env[o]
        if isinstance(v, Lazy):
            v = block.force(o)
        if isinstance(v, Arr) and v.input is not None:
            outputs.append(("input", v.input))
            continue
        if isinstance(v, Arr) and v.fresh:
            fresh_ndim = max(fresh_ndim, sum(d > 1 for d in v.shape))
        elif not isinstance(v, Scal):
            raise Unsupported(f"output {o.name} is a view or a loop's array")
        meta = _meta(o)
        if isinstance(v, Scal) and not meta.scalar:
            raise Unsupported("a scalar where the graph returns an array")
        if id(v) not in seen:
            seen[id(v)] = len(results)
            results.append(v.name)
        outputs.append(("result", seen[id(v)], meta))
    em.line(f"return (_bad[0], {''.join(r + ', ' for r in results)})")
    writes = sorted({v.input for n, v in block.env.items()
                     if isinstance(n, Node) and n.op == CALL and n.target == "setitem"
                     and isinstance(v, Arr) and v.input is not None})
    if _writes_in_loops(block.env):
        writes = list(range(len(params)))   # a loop's writes: back up every input array
    head = f"def kernel({', '.join(params)}):"
    source = PRELUDE + "\n\n" + head + "\n" + "\n".join(em.lines) + "\n"
    return Kernel(source, em.consts, outputs, writes, fresh_ndim, em.parallel)


def _writes_in_loops(env: dict) -> bool:
    """Whether a loop node writes into arrays (then which inputs it writes is only
    known by the loop's carried keys; the caller backs up every input array)."""
    return any(isinstance(n, Node) and n.op == CALL and n.target == "fori_loop" and
               _body_writes(n.args[0]) for n in env)


def _body_writes(body: Graph) -> bool:
    return any(n.op == CALL and n.target == "setitem" for n in body.nodes)

