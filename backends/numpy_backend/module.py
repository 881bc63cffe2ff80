"""The generated module: source lines, the objects they name, and how values print.

``Module`` collects the lines of one generated module and binds each object the code
refers to (a ufunc, a dtype, a constant array) to a global name of its own::

    >>> m = Module()
    >>> m.bind(np.add, "add")
    '_add'
    >>> m.call(node, plain_name(m))          # an ``add`` node of x and y
    '(x + y)'

Ops whose implementation is one Python operator are written as that operator, and
exact reductions as ``ufunc.reduce`` calls (``Module.reduce``).
"""


from __future__ import annotations

import builtins
import math
import operator
import re
import weakref
from dataclasses import replace
from typing import Any

import numpy as np

from dynamo import ops
from dynamo.graph import CONSTANT, Node, complex_repr_round_trips
from dynamo.ops.creation import copy_method
from dynamo.ops.elementwise import astype
from dynamo.ops.indexing import getitem
from dynamo.ops.loops import after_loop
from dynamo.ops.node_facts import array_meta
from dynamo.symbolic import Sym

from ..fusion import reduction_info
from . import runtime, typed_constants
from .library_calls import fast_form
from .plan import static_shape
from .positional_out import takes_positional_out
from .reduction_finish import short_sum_sizes
from .scalar_select import scalar_already, select_form

_LITERALS = (bool, int, str, type(None))

# Reductions that are one ufunc's reduce on an ndarray: (ufunc, forced dtype).
_UFUNC_REDUCE = {"sum": (np.add, None), "prod": (np.multiply, None),
                 "max": (np.maximum, None), "min": (np.minimum, None),
                 "any": (np.logical_or, np.dtype(bool)), "all": (np.logical_and, np.dtype(bool))}

# Ops whose implementation is one Python operator (or ``x[i]``) are written as that
# operator: the same call, without a function call's overhead, which dominates scalar
# code (a recursion over NumPy scalars ran 2x slower through ``operator.mul(a, b)``).
_SYNTAX = {operator.add: "({} + {})", operator.sub: "({} - {})", operator.mul: "({} * {})",
           operator.truediv: "({} / {})", operator.floordiv: "({} // {})",
           operator.mod: "({} % {})", operator.pow: "({} ** {})",
           operator.and_: "({} & {})", operator.or_: "({} | {})", operator.xor: "({} ^ {})",
           operator.lshift: "({} << {})", operator.rshift: "({} >> {})",
           operator.neg: "(-{})", operator.pos: "(+{})", operator.invert: "(~{})",
           operator.abs: "abs({})", operator.lt: "({} < {})", operator.le: "({} <= {})",
           operator.eq: "({} == {})", operator.ne: "({} != {})", operator.gt: "({} > {})",
           operator.ge: "({} >= {})", getitem: "{}[{}]"}

# Ops written as the method they call on their first argument: dynamo's wrappers of
# the methods the program called (``x.copy()``, ``x.astype(t)``), for any argument,
# and NumPy functions that only call the method (``fromnumeric._wrapfunc``), for an
# ndarray argument. Each wrapper is a Python call more than the program made:
# ``np.transpose(a)`` takes 0.6 us, ``a.T`` 0.08 us (a Kalman step transposes three
# times). Values: (method, whether the first argument must be an ndarray).
_METHODS = {copy_method: ("copy", False), astype: ("astype", False),
            np.transpose: ("transpose", True), np.swapaxes: ("swapaxes", True),
            np.reshape: ("reshape", True),
            # (np.argmin(d) is d.argmin() after a Python wrapper layer: 1 us of a k-means
            # trip's 4 on (4, 2) arrays, scripts/bench_small_loop_nodes.py)
            np.argmin: ("argmin", True), np.argmax: ("argmax", True)}


# Buffer holders by ``Module.bind_shared``'s key, held (weakly) while a module binds them
_SHARED_HOLDERS: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


class Module:
    """Generated source lines and the objects they refer to by name."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.scope: dict[str, Any] = {"__builtins__": builtins,
                                      "_empty": np.empty, "_run": runtime.run_blocks,
                                      "_finish_partial": runtime.finish_partial,
                                      "_finish_mean": runtime.finish_mean,
                                      "_mean_exact": runtime.mean_exact,
                                      "_row_buffer": runtime.row_buffer,
                                      "_rows": runtime.rows,
                                      "_row_major": runtime.row_major,
                                      "_ufunc_get": runtime.UFUNC_GET,
                                      "_ufunc_set": runtime.UFUNC_SET,
                                      "_raising_of": runtime.raising_of,
                                      "_set_ufunc_state": runtime.switch_ufunc_state}
        self._bound: dict[int, str] = {}
        # a loop body's trip counter -> (step, base) of its loop variable, which is
        # ``step * trip + base`` (``loop_variable``): ``x[trip + 2]`` prints as ``x[trip]``
        # (``base`` may be a SymArg over the body's size inputs: ``loop_variable``)
        self.loop_variables: dict[Node, tuple[int, Any]] = {}
        # a loop body's carried int64 scalars and the values made of them that its code
        # keeps as Python ints (``carried_ints.python_ints``)
        self.python_ints: frozenset[Node] = frozenset()
        # a loop body's values that are a carried value itself, printed under its
        # name (``carried_names``: ``setitem(x, i, v)`` of a carried ``x`` is ``x``)
        self.named_as: dict[Node, Node] = {}

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

    def bind_shared(self, key: tuple, make, hint: str) -> str:
        """The bound name of the process's buffer holder for ``key`` (a ``Recycler``,
        ``ScratchCache`` or ``Scratch``), made by ``make()`` when no module binds one.
        A holder keeps buffers between calls, so one per graph multiplied what a
        program keeps (#15 peak memory: 2-D heat's flat stencil in a loop's first trip
        and its body, 1.8x plain NumPy's peak with two sets, 1.0x with one; unsharp
        masking's scratch sites, 1.79x with one array per site, 1.2x shared); holders
        are safe to share, a buffer is taken by one caller at a time.

            >>> a, b = Module(), Module()
            >>> make = lambda: runtime.Recycler((8,), np.dtype("float64"))
            >>> key = ("out", 8, np.dtype("float64"))
            >>> a.scope[a.bind_shared(key, make, "o")] is b.scope[b.bind_shared(key, make, "o")]
            True
        """
        holder = _SHARED_HOLDERS.get(key)
        if holder is None:
            holder = _SHARED_HOLDERS[key] = make()
        return self.bind(holder, hint)

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
        if hasattr(value, "graph_expr"):   # an int computed from int inputs (a loop index)
            sym, nodes = value.sym, dict(value.nodes)
            for symbol, p in value.nodes.items():   # in terms of the loop variable
                if p in self.loop_variables:
                    step, base = self.loop_variables[p]
                    b = getattr(base, "sym", base)
                    sym = in_loop_variable(sym, symbol, step, b) if isinstance(sym, Sym) \
                        else sym.map_ints(lambda s, symbol=symbol, step=step, b=b:
                                          in_loop_variable(s, symbol, step, b)
                                          if symbol in s.symbols else s)   # (0.1 * t)
                    nodes.update(getattr(base, "nodes", {}))
            names = {n: name_of(p) for n, p in nodes.items() if n in sym.symbols}
            return f"({sym.render(names)})"
        if type(value) in _LITERALS or (type(value) is float and math.isfinite(value)):
            return repr(value)
        if type(value) is complex and complex_repr_round_trips(value):
            return repr(value)
        if value is Ellipsis:
            return "..."
        return self.bind(value, getattr(value, "__name__", None) or type(value).__name__)

    def subscript(self, index: Any, name_of) -> str:
        """An index as the program would write it between brackets: ``x[i + 1:, i]``
        (a slice in brackets is built by one instruction, ``slice(...)`` by a call)."""
        def part(v):
            if not isinstance(v, slice):
                return self.fmt(v, name_of)
            bounds = ["" if b is None else self.fmt(b, name_of)
                      for b in (v.start, v.stop, v.step)]
            return ":".join(bounds if v.step is not None else bounds[:2])
        if isinstance(index, tuple) and index:
            return ", ".join(map(part, index)) + ("," if len(index) == 1 else "")
        return part(index)

    def call(self, node: Node, name_of, args=None, extra: str = "") -> str:
        impl = ops.get(node.target).impl
        args = node.args if args is None else args
        if impl is getitem and len(args) == 2 and not node.kwargs and not extra:
            if type(args[1]) is tuple and not args[1] and scalar_already(args[0]):
                return self.fmt(args[0], name_of)   # (a choice of NumPy scalars: no [()])
            return f"{self.fmt(args[0], name_of)}[{self.subscript(args[1], name_of)}]"
        if impl is after_loop:   # (the array itself, after the loop that wrote it)
            return self.fmt(args[0], name_of)
        parts = [self.fmt(a, name_of) for a in args]
        if impl in typed_constants.UFUNCS and not node.kwargs:
            parts = typed_constants.typed_parts(self, args, parts)   # (0.9 * float32)
        if node.meta.get("method") == node.target and args and not extra:
            # the program's own method call (x.mean()), so NumPy's stacklevel=2 warnings
            # name its line (dynamo/ops/reductions.py, _WARN_AT_CALLER)
            rest = parts[1:] + [f"{k}={self.fmt(v, name_of)}" for k, v in node.kwargs.items()]
            return f"({parts[0]}).{node.meta['method']}({', '.join(rest)})"
        method = self._method(impl, args, node.kwargs, parts, name_of) if not extra else None
        if method is not None:
            return method
        syntax = _SYNTAX.get(impl)
        if syntax is not None and not node.kwargs and not extra and \
                syntax.count("{}") == len(parts):
            return syntax.format(*parts)
        fn = self.bind(impl, node.target)
        parts += [f"{k}={self.fmt(v, name_of)}" for k, v in node.kwargs.items()]
        if extra:
            parts.append(extra)
        return f"{fn}({', '.join(parts)})"

    def _method(self, impl, args, kwargs, parts: list, name_of) -> str | None:
        """``x.method(...)`` for an op in ``_METHODS`` (``x.T`` for a transpose without
        axes), or None."""
        if impl not in _METHODS or not args:
            return None
        method, ndarray_only = _METHODS[impl]
        meta = array_meta(args[0]) if isinstance(args[0], Node) else None
        if ndarray_only and (meta is None or meta.scalar or meta.kind != "numpy"):
            return None
        if ndarray_only and kwargs:   # (NumPy's own keywords: order=, copy=, newshape=)
            return None
        x = parts[0] if parts[0].isidentifier() else f"({parts[0]})"
        rest = parts[1:] + [f"{k}={self.fmt(v, name_of)}" for k, v in kwargs.items()]
        if impl is np.transpose and rest in ([], ["None"]):
            return f"{x}.T"
        return f"{x}.{method}({', '.join(rest)})"

    def expr(self, node: Node, name_of) -> str:
        """The call computing ``node`` in straight-line code (fast exact reductions,
        ``library_calls.fast_form``)."""
        info = reduction_info(node)
        src = array_meta(node.args[0]) if node.args else None
        if info is not None and src is not None and not src.scalar:
            fast = self.reduce(node, name_of(node.args[0]), info.axes, info.keepdims)
            if fast is not None:
                return fast
            if node.target == "mean" and not static_shape(src.shape):
                return self._mean_per_trip(node, name_of, info)
        # max(s, 0.0) of a NumPy scalar: a choice between the operands, not np.where
        picked = select_form(self, node, name_of)
        if picked is not None:
            return picked
        # np.roll, np.stack, np.outer: their C calls, decided at compile time
        fast = fast_form(self, node, name_of)
        return fast if fast is not None else self.call(node, name_of)

    def _mean_per_trip(self, node: Node, name_of, info) -> str:
        """A mean over a count that changes per loop trip (``x[:i].mean()``): the exact
        mean with the count read off the array; NumPy's own call where it is 0 (its
        "Mean of empty slice" warning and NaN)."""
        src, meta = name_of(node.args[0]), array_meta(node.args[0])
        count = " * ".join(f"{src}.shape[{a}]" for a in info.axes) \
            if info.axes is not None else f"{src}.size"
        acc = runtime.mean_dtype(meta.dtype, info.dtype)
        half = meta.dtype if info.dtype is None and meta.dtype == np.float16 else None
        intp = self.bind(np.intp, "intp")
        return (f"(_mean_exact({src}, {info.axes!r}, {self.fmt(acc, str)}, {info.keepdims}, "
                f"{intp}(_count), {self.fmt(half, str)}) if (_count := {count}) "
                f"else {self.call(node, name_of)})")

    def reduce(self, node: Node, src: str, axes, keepdims: bool) -> str | None:
        """``ufunc.reduce`` (or the exact mean) for a reduction of an ndarray ``src``.

        ``np.sum(a, ...)`` on an ndarray is ``np.add.reduce(a, ...)`` after two Python
        wrapper layers (``fromnumeric._wrapreduction``); ``np.any`` reduces with
        ``dtype=bool``; ``np.mean`` is ``runtime.mean_exact``. Same loops, same result.
        None for reductions without such a form (var, argmax, ...).
        """
        info = reduction_info(node)
        if node.target == "sum" and len(axes or ()) == 1 and _short_float_axis(node):
            fn = self.bind(runtime.short_sum, "short_sum")
            return f"{fn}({src}, {axes[0]!r}, {self.fmt(info.dtype, str)}, {keepdims})"
        if node.target in _UFUNC_REDUCE:
            ufunc, forced = _UFUNC_REDUCE[node.target]
            dtype = forced if forced is not None else info.dtype
            fn = self.bind(ufunc.reduce, f"{ufunc.__name__}_reduce")
            return f"{fn}({src}, {axes!r}, {self.fmt(dtype, str)}, None, {keepdims})"
        if node.target == "mean":
            meta = array_meta(node.args[0])
            count = math.prod(meta.shape[a] for a in info.axes)
            if count == 0 or not static_shape(meta.shape):
                return None   # the empty-slice warning: let NumPy give it
            acc = runtime.mean_dtype(meta.dtype, info.dtype)
            half = meta.dtype if info.dtype is None and meta.dtype == np.float16 else None
            return (f"_mean_exact({src}, {axes!r}, {self.fmt(acc, str)}, {keepdims}, "
                    f"{self.bind(np.intp(count), f'count{count}')}, {self.fmt(half, str)})")
        return None

    def source(self) -> str:
        return "\n".join(self.lines) + "\n"


def _short_float_axis(node: Node) -> bool:
    """``node`` sums a float array over one axis short enough for ``runtime.short_sum``."""
    info, src = reduction_info(node), array_meta(node.args[0])
    if info is None or src is None or len(info.axes) != 1 or src.dtype.kind != "f":
        return False
    n = src.shape[info.axes[0]]
    if static_shape(src.shape):   # (too few rows: np.add.reduce, without the test)
        return short_sum_sizes(src.shape, info.axes[0])
    return static_shape((n,)) and n in runtime.SHORT_AXIS


def plain_name(m: Module):
    """Names of values in straight-line code: constants are bound globals."""
    def name_of(node: Node) -> str:
        if node.op == CONSTANT:
            return m.bind(node.args[0], node.name)
        return m.named_as.get(node, node).name
    return name_of


def in_loop_variable(sym: Sym, symbol: str, step: int, base: int | Sym) -> Sym:
    """``sym``, affine in the trip counter ``symbol``, in terms of the loop variable
    ``v = step * trip + base``: ``c * trip + k`` is ``(c // step) * v + k - (c // step)
    * base`` (``loop_variable`` chose ``step`` so that it divides ``c``). ``base`` may
    be an expression of other symbols (sizes, the same on every trip): those terms of
    ``k`` cancel (``trip + s0 - 2`` in ``v = trip + s0 - 2`` is ``v``)."""
    terms = dict(sym.terms)
    ratio = terms[symbol] // step
    terms[symbol] = ratio
    shifted = replace(sym, terms=tuple(sorted((n, c) for n, c in terms.items() if c)))
    return shifted - (base if isinstance(base, Sym) else Sym((), base)).scale(ratio)


def call_out(m: Module, node: Node, name_of, out: str) -> str:
    """A ufunc call writing into ``out``: positionally (``_add(a, b, out)``) for a
    ufunc that takes it so without a warning, else as the keyword ``out=``.

    The keyword costs NumPy's argument parser, about 10 ns a call
    (``positional_out``). Positional outputs (``np.maximum(a, 0, a)``) are deprecated
    for ``np.maximum`` and ``np.minimum`` since NumPy 2.4 (a DeprecationWarning eager
    code does not emit): those, and calls with keywords of their own, keep ``out=``.
    """
    impl = ops.get(node.target).impl
    if not node.kwargs and takes_positional_out(impl) and len(node.args) == impl.nin:
        # what ``Module.call`` writes for a call with ``extra``, the buffer last
        parts = [m.fmt(a, name_of) for a in node.args]
        if impl in typed_constants.UFUNCS:
            parts = typed_constants.typed_parts(m, node.args, parts)
        return f"{m.bind(impl, node.target)}({', '.join(parts)}, {out})"
    return m.call(node, name_of, extra=f"out={out}")
