"""What each graph op lowers to: the ufunc tables (loop-dtype kinds and a template
per ufunc), which ops propagate or never make a NaN/infinity, the helpers the generated
code calls (``PRELUDE``), and the dtype helpers (casts, broadcasting of an index)."""

from __future__ import annotations

import numpy as np

from dynamo.graph import Node
from dynamo.ops import ArrayMeta


class Unsupported(Exception):  # noqa: N818 (a reason, as dynamo.exc.Unsupported)
    """The graph (or one of its ops or dtypes) has no tier-2 lowering."""


# Dtypes a kernel computes with: Numba has no float16 arithmetic on the CPU.
_DTYPES = frozenset(np.dtype(c) for c in "?bhilqBHILQfdFD")

# Ufuncs by the loop dtype kinds they are lowered for ("b" bool, "i" integers of
# either sign, "f" floats, "c" complex) and how: a template over operands a, b.
_BINARY = {
    "add": ("ifc", "({a} + {b})"), "subtract": ("ifc", "({a} - {b})"),
    # complex multiply is not lowered: NumPy's SIMD loop fuses its products (FMA), so
    # about half of its results differ in the last bit from the plain formula
    "multiply": ("if", "({a} * {b})"), "divide": ("f", "({a} / {b})"),
    "maximum": ("bif", "_maximum({a}, {b})"), "minimum": ("bif", "_minimum({a}, {b})"),
    "power": ("f", "({a} ** {b})"),
    "less": ("bif", "({a} < {b})"), "less_equal": ("bif", "({a} <= {b})"),
    "greater": ("bif", "({a} > {b})"), "greater_equal": ("bif", "({a} >= {b})"),
    "equal": ("bifc", "({a} == {b})"), "not_equal": ("bifc", "({a} != {b})"),
    "logical_and": ("b", "({a} and {b})"), "logical_or": ("b", "({a} or {b})"),
    "bitwise_and": ("bi", "({a} & {b})"), "bitwise_or": ("bi", "({a} | {b})"),
    "bitwise_xor": ("bi", "({a} ^ {b})"),
    # integers: each loop dtype its own expression and warning test (integers.py)
    "floor_divide": ("i", None), "remainder": ("if", "_fremainder({a}, {b})"),
    "fmod": ("f", "np.fmod({a}, {b})"),   # floats: Python's sign rule (float_mods.py)
    "left_shift": ("i", None), "right_shift": ("i", None),
}
# (no ``tanh``: NumPy's SIMD tanh and Numba's libm one differ in the last bits on about
# 40 % of float64 inputs, and programs amplify them: a central difference
# ``(tanh(z + eps) - tanh(z - eps)) / (2 * eps)``, an MLP's SGD steps, differed past any
# tolerance of sums. It is NumPy's own call from the kernel (calls.py), bit for bit;
# a kernel with it seldom won its race anyway: NumPy's SIMD tanh beats the libm loop)
_UNARY = {
    "negative": ("ifc", "(-{a})"), "positive": ("ifc", "(+{a})"),
    "absolute": ("if", "abs({a})"), "square": ("if", "_square({a})"),
    "sqrt": ("f", "np.sqrt({a})"), "exp": ("f", "np.exp({a})"), "log": ("f", "np.log({a})"),
    "sin": ("f", "np.sin({a})"), "cos": ("f", "np.cos({a})"),
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
           "scalar_equal": "equal", "scalar_not_equal": "not_equal",
           # (``(lo <= v) & (v < hi)`` of NumPy bools: a chained comparison's links,
           # translator/size_chains.py; an integer scalar's is refused, as above)
           "scalar_bitwise_and": "bitwise_and"}
_REDUCTIONS = frozenset({"sum", "prod", "mean", "max", "min"})
_ELEMENTWISE = frozenset(_BINARY) | frozenset(_UNARY) | frozenset(_SCALAR) | {
    "where", "astype", "pow", "copy", "copy_method"}

# Helpers the generated code calls (Numba compiles and inlines them).
PRELUDE = '''
import numpy as np
from numba import njit, prange

from dynamo.backends.native.float_mods import remainder as _fremainder
from dynamo.backends.native.pairwise import plan as _pw_plan_py

_pw_plan = njit(_pw_plan_py)   # NumPy's pairwise summation order (pairwise.py)


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


def params_after_array(node: Node, names: tuple) -> dict:
    """A call's arguments after its first (the array, or a shape), by the names NumPy
    gives them (``np.cumsum(x, 1)`` with ``("axis", "dtype", "out")``: ``{"axis": 1}``);
    Unsupported for more arguments than ``names`` or another keyword."""
    if len(node.args) - 1 > len(names):
        raise Unsupported(f"{node.target} with {len(node.args)} arguments")
    params = dict(zip(names, node.args[1:]))
    for k, v in node.kwargs.items():
        if k not in names or k in params:
            raise Unsupported(f"{node.target} with keyword {k!r}")
        params[k] = v
    return params


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
