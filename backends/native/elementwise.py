"""Elementwise nodes as scalar expressions at a loop index: operands cast to the ufunc's
loop dtypes, the result to the node's dtype, NaN/infinity checks deferred along chains
of ops that keep them."""

from __future__ import annotations

import math

import numpy as np

from dynamo.graph import Node

from .integers import INTEGER_OPS, integer_op
from .ops import (
    _BINARY,
    _BOOL_ARITH,
    _DTYPES,
    _PROPAGATE,
    _QUIET,
    _SCALAR,
    _UNARY,
    Unsupported,
    _broadcast,
    _cast,
    _dt,
    _kind,
    _meta,
    _nonfinite,
)
from .picked_scalars import int64_index_cast, scalar_overflow
from .values import Arr, Const, Lazy, Scal, View


def float64_literal(node: Node) -> bool:
    """``node`` is ``np.float64(0.0)`` of a finite Python float: a float accumulator a
    triangular loop carries as ``np.float64`` (dynamo/translator/promoted_floats.py),
    written into the kernel as that literal (``repr`` of a finite float is exact)."""
    meta = node.meta.get("array")
    x = node.args[0] if len(node.args) == 2 else None
    return not node.kwargs and type(x) is float and math.isfinite(x) and \
        node.args[1] is np.float64 and getattr(meta, "dtype", None) == np.float64 and \
        getattr(meta, "shape", None) == ()


def no_loop_for(node: Node) -> bool:
    """``node`` is a ufunc whose loop dtypes have no template here (complex ``*`` and
    ``/``, ``abs`` of a complex...) or an ``astype`` the kernel cannot cast (float to
    integer: NaN and overflow are undefined): NumPy's own call computes it (calls.py),
    decided before any of its operands is read into a nest (an inlined operand's
    check there leaves constants behind, and the fallback to NumPy would refuse).
    False where unsure (``elementwise`` decides then, as before). Example: ``1j * k``
    with ``k`` float64 -> True; ``(x % 4.0).astype(np.int64)`` -> True; ``np.exp`` of a
    float32 -> True (NumPy's SIMD exp, bit for bit)."""
    if node.target == "scalar_cast":   # (any other cast: NumPy's call, as before)
        return not (float64_literal(node) or int64_index_cast(node))
    if node.target == "astype" and isinstance(node.args[0], Node):
        src, dst = node.args[0].meta.get("array"), node.meta.get("array")
        try:
            _cast("x", src.dtype, dst.dtype)
        except Unsupported:
            return True
        except AttributeError:   # (no array metadata: elementwise refuses it)
            return False
        return False
    name = _SCALAR.get(node.target, node.target)
    table = _BINARY if name in _BINARY else _UNARY if name in _UNARY else None
    if table is None or node.kwargs:
        return False
    dtypes = []
    for a in node.args:
        meta = a.meta.get("array") if isinstance(a, Node) else None
        if isinstance(a, Node) and getattr(meta, "dtype", None) is not None:
            dtypes.append(meta.dtype)
        elif isinstance(a, (int, float, complex)) and not isinstance(a, bool):
            dtypes.append(type(a))
        else:
            return False
    try:
        loop = getattr(np, name).resolve_dtypes(tuple(dtypes) + (None,))
    except (TypeError, ValueError, np.exceptions.DTypePromotionError):
        return False
    if loop[0] == np.bool_ and name in _BOOL_ARITH:
        return False
    if name == "exp" and loop[0] == np.float32:
        # NumPy's own SIMD exp, bit for bit: a loop's exp (libm's expf, or fastexp.exp32
        # before 2026-12-06) is up to 3 ulp from it on about 9 % of inputs, and
        # ``exp(y * 0.01) - 1`` cancels that into a 3-4 % relative difference; NumPy's
        # call was also the fastest of the three on float32 softmax and GELU
        # (scripts/bench_f32_exp.py, docs/native.md "Tolerances")
        return True
    return _kind(loop[0]) not in table[name][0]


class Elementwise:
    """Methods of ``_Block`` (block.py): elementwise nodes at a loop index."""

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
            if isinstance(v.value, bool):
                # (resolve_dtypes takes no weak bool; NumPy's bool dtype is the lowest
                # kind, so it promotes exactly as a Python bool does)
                return ("const", v.value), np.dtype(np.bool_)
            if isinstance(v.value, (int, float, complex)):
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
            # checked: later reads (all after this statement: a value's statements are
            # straight-line code where it is defined, or deeper) need not check again
            self.em.deferred.discard(expr)

    def elementwise(self, node: Node, idx: list[str], stmts: list, flag: str):
        """Statements computing elementwise ``node`` at ``idx`` (its own shape)."""
        meta = _meta(node)
        target, args, kwargs = node.target, node.args, node.kwargs
        if node in self.out_nodes:   # stored into its out= array (outs.py)
            kwargs = {k: v for k, v in kwargs.items() if k != "out"}
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
        if target == "scalar_cast":
            if not float64_literal(node):
                raise Unsupported("scalar_cast other than np.float64 of a Python float")
            return self._bind(f"np.float64({args[0]!r})", stmts), meta.dtype
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
        overflow = None
        if target in _SCALAR and meta.dtype.kind in "iu":
            # NumPy's integer scalar + - wrap and warn on overflow: flagged (tier 1
            # reruns the call and warns); other int scalar ops stay NumPy's calls
            overflow = scalar_overflow(name, meta.dtype)
            if overflow is None:
                raise Unsupported(f"{target} on {meta.dtype} scalars (NumPy warns on "
                                  "overflow)")
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
        check = None
        if name in INTEGER_OPS and loop[0].kind in "iu":   # per dtype (integers.py)
            template, check = integer_op(name, loop[0])
        expr = template.format(a=names[0], b=names[-1])
        if loop[-1].kind in "iu" and loop[-1].itemsize < 8:
            # Numba computes with small integers as 64-bit ones (int8 * int8 is an
            # int64): the result wraps as NumPy's here, not only where it is stored
            # (a sum or a minimum of it reads it first)
            expr = f"{_dt(loop[-1])}({expr})"
        r = self._bind(_cast(expr, loop[-1], meta.dtype), stmts,
                       real and (name not in _QUIET or absorbed))
        if check is not None:   # where NumPy warns: tier 1 reruns the call
            stmts.append(f"{flag} |= {check.format(a=names[0], b=names[-1])}")
        if overflow is not None and not node.meta.get("no_overflow"):
            # (operands of the loop dtype, above; ``no_overflow``: a picked counter's
            # step, which the bounds before its loop node keep in int64)
            stmts.append(f"{flag} |= {overflow.format(a=names[0], b=names[-1], r=r)}")
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
