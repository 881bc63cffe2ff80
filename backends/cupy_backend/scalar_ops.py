"""What one element of a fused kernel computes: each op as CUDA C and as NumPy.

Every op a fused kernel may contain has an entry here with two faces that must agree:

- ``emit(args, in_dtypes, out_dtype)``: a CUDA C expression over operand expressions
  that already have the loop's input types (NumPy's ufunc loop, found by
  ``loop_dtypes``);
- ``ref(*arrays)``: the same computation in NumPy, used by the reference executor
  (:mod:`.reference`) to run the fusion plan on the CPU.

An op, or a dtype combination, that is not here is not fused: it runs as a plain
CuPy call. The CUDA face computes what CuPy 14's own ufunc computes (the kernels must
equal CuPy eager; read from ``cupy.<ufunc>._ops``): NaN propagation in ``maximum``,
``sign``, wrap-around of signed integers (computed unsigned, since signed overflow is
undefined in C++), ``powf`` for powers other than 0..3. The NumPy face is NumPy. Where
the two libraries differ in ways that matter (integer division and remainder, shifts
by large counts, ``clip`` with NaN or crossed bounds, comparisons of int64 with
uint64 or with out-of-range Python ints) the op is not fused.

Example::

    >>> loop_dtypes("less", [np.dtype("int32"), float])
    ((dtype('float64'), dtype('float64')), dtype('bool'))
    >>> SCALAR_OPS["maximum"].emit(["a", "b"], (F32, F32), F32, (None, None))
    '((a > b || a != a) ? a : b)'
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .cuda_types import ctype, fusible, is_float, is_signed, literal

F32, F64, BOOL = np.dtype("float32"), np.dtype("float64"), np.dtype("bool")

Emit = Callable[[list, tuple, np.dtype, tuple], "str | None"]


@dataclass(frozen=True)
class ScalarOp:
    name: str
    ref: Callable              # NumPy: arrays in the loop's input dtypes -> result
    emit: Emit                 # emit(args, in_dtypes, out_dtype, consts) -> C expression,
                               # or None: this dtype combination is not fused; ``consts``
                               # holds the Python value of each constant operand, else None
    python_consts: bool = False  # ref gets constants as the Python values (``x ** 2``)


SCALAR_OPS: dict[str, ScalarOp] = {}


def _op(name: str, ref: Callable, emit: Emit, python_consts: bool = False) -> None:
    SCALAR_OPS[name] = ScalarOp(name, ref, emit, python_consts)


def _fn(name: str, dtype) -> str:
    """CUDA's math function for ``dtype``: ``expf`` for float32, ``exp`` for float64."""
    return name + ("f" if np.dtype(dtype) == F32 else "")


def _wrapping(dtype) -> bool:
    """Signed integers that C++ does not promote: overflow must be computed unsigned."""
    return is_signed(dtype) and np.dtype(dtype).itemsize >= 4


def _unsigned(dtype) -> str:
    return "unsigned " + ctype(dtype)


def _arith(symbol: str, bool_form: str | None):
    def emit(a, ins, out, consts):
        t = ins[0]
        if t == BOOL:
            return None if bool_form is None else f"({a[0]} {bool_form} {a[1]})"
        if _wrapping(t):
            u = _unsigned(t)
            return f"(({ctype(t)})(({u}){a[0]} {symbol} ({u}){a[1]}))"
        return f"({a[0]} {symbol} {a[1]})"
    return emit


_op("add", np.add, _arith("+", "||"))
_op("subtract", np.subtract, _arith("-", None))
_op("multiply", np.multiply, _arith("*", "&&"))
_op("divide", np.divide,
    lambda a, ins, out, consts: f"({a[0]} / {a[1]})" if is_float(ins[0]) else None)


def _float_only(cname: str, nargs: int) -> Emit:
    def emit(a, ins, out, consts):
        if not is_float(ins[0]):
            return None
        return f"{_fn(cname, ins[0])}({', '.join(a[:nargs])})"
    return emit


for _name, _c in {"sqrt": "sqrt", "cbrt": "cbrt", "exp": "exp", "exp2": "exp2",
                  "expm1": "expm1", "log": "log", "log2": "log2", "log10": "log10",
                  "log1p": "log1p", "sin": "sin", "cos": "cos", "tan": "tan",
                  "arcsin": "asin", "arccos": "acos", "arctan": "atan", "sinh": "sinh",
                  "cosh": "cosh", "tanh": "tanh", "arcsinh": "asinh", "arccosh": "acosh",
                  "arctanh": "atanh", "floor": "floor", "ceil": "ceil", "trunc": "trunc",
                  "rint": "rint", "fabs": "fabs"}.items():
    _op(_name, getattr(np, _name), _float_only(_c, 1))
for _name, _c in {"arctan2": "atan2", "hypot": "hypot", "copysign": "copysign",
                  "fmod": "fmod"}.items():
    _op(_name, getattr(np, _name), _float_only(_c, 2))


def _extremum(cmp: str, fname: str, nan_propagating: bool) -> Emit:
    def emit(a, ins, out, consts):
        x, y = a
        if is_float(ins[0]):
            if nan_propagating:  # NaN in either operand wins, as NumPy's maximum
                return f"(({x} {cmp} {y} || {x} != {x}) ? {x} : {y})"
            return f"{_fn(fname, ins[0])}({x}, {y})"
        return f"(({x} {cmp} {y}) ? {x} : {y})"
    return emit


_op("maximum", np.maximum, _extremum(">", "fmax", True))
_op("minimum", np.minimum, _extremum("<", "fmin", True))
_op("fmax", np.fmax, _extremum(">", "fmax", False))
_op("fmin", np.fmin, _extremum("<", "fmin", False))

for _name, _sym in {"equal": "==", "not_equal": "!=", "less": "<", "less_equal": "<=",
                    "greater": ">", "greater_equal": ">="}.items():
    _op(_name, getattr(np, _name), lambda a, ins, out, consts, s=_sym: f"({a[0]} {s} {a[1]})")

_op("logical_and", np.logical_and, lambda a, ins, out, consts: f"(({a[0]} != 0) && ({a[1]} != 0))")
_op("logical_or", np.logical_or, lambda a, ins, out, consts: f"(({a[0]} != 0) || ({a[1]} != 0))")
_op("logical_xor", np.logical_xor, lambda a, ins, out, consts: f"(({a[0]} != 0) != ({a[1]} != 0))")
_op("logical_not", np.logical_not, lambda a, ins, out, consts: f"(!({a[0]} != 0))")


def _bitwise(symbol: str) -> Emit:
    return lambda a, ins, out, consts: None if is_float(ins[0]) else f"({a[0]} {symbol} {a[1]})"


_op("bitwise_and", np.bitwise_and, _bitwise("&"))
_op("bitwise_or", np.bitwise_or, _bitwise("|"))
_op("bitwise_xor", np.bitwise_xor, _bitwise("^"))
_op("invert", np.invert, lambda a, ins, out, consts: None if is_float(ins[0]) else
    f"(!{a[0]})" if ins[0] == BOOL else f"(~{a[0]})")


def _negative(a, ins, out, consts=None):
    t = ins[0]
    if t == BOOL:
        return None
    if _wrapping(t):
        return f"(({ctype(t)})(0u - ({_unsigned(t)}){a[0]}))"
    return f"(-{a[0]})"


_op("negative", np.negative, _negative)
_op("positive", np.positive, lambda a, ins, out, consts: None if ins[0] == BOOL else f"({a[0]})")


def _absolute(a, ins, out, consts):
    t = ins[0]
    if is_float(t):
        return f"{_fn('fabs', t)}({a[0]})"
    if is_signed(t):
        return f"(({a[0]} < 0) ? {_negative(a, ins, out)} : {a[0]})"
    return f"({a[0]})"


_op("absolute", np.absolute, _absolute)


def _sign(a, ins, out, consts):
    t, x = ins[0], a[0]
    if t == BOOL:
        return None
    if is_float(t):  # sign(NaN) is NaN; sign(-0.0) is +0.0, as NumPy
        one, zero = literal(1, t), literal(0, t)
        return f"(({x} > 0) ? {one} : (({x} < 0) ? -{one} : (({x} == 0) ? {zero} : {x})))"
    return f"(({x} > 0) - ({x} < 0))" if is_signed(t) else f"({x} > 0)"


_op("sign", np.sign, _sign)


def _mul_chain(x: str, k: int, t) -> str:
    if _wrapping(t):
        u = _unsigned(t)
        return f"(({ctype(t)})({' * '.join([f'({u}){x}'] * k)}))"
    return "(" + " * ".join([x] * k) + ")"


_op("square", np.square, lambda a, ins, out, consts: None if ins[0] == BOOL else
    _mul_chain(a[0], 2, ins[0]))
_op("reciprocal", np.reciprocal, lambda a, ins, out, consts: f"({literal(1, ins[0])} / {a[0]})"
    if is_float(ins[0]) else None)


def _classify(fname: str, int_value: str) -> Emit:
    return lambda a, ins, out, consts: f"{fname}({a[0]})" if is_float(ins[0]) else int_value


_op("isnan", np.isnan, _classify("isnan", "false"))
_op("isinf", np.isinf, _classify("isinf", "false"))
_op("isfinite", np.isfinite, _classify("isfinite", "true"))
_op("signbit", np.signbit, lambda a, ins, out, consts: f"signbit({a[0]})" if is_float(ins[0])
    else f"({a[0]} < 0)" if is_signed(ins[0]) else "false")


def _power(a, ins, out, consts):
    """``x ** k``: the exponents 0..3 become multiplies; others call ``pow`` as CuPy does.

    ``x * x`` and ``x * x * x`` agree with ``powf`` on infinities and NaN and to an ulp
    elsewhere. NumPy turns ``x ** 0.5`` into ``sqrt`` (NaN for -inf) where CuPy calls
    ``powf`` (+inf): the kernels follow CuPy, whose eager result they must equal; the
    NumPy reference follows NumPy.
    """
    t, exponent = ins[0], consts[1]
    if isinstance(exponent, np.generic):
        exponent = exponent.item()
    if t == BOOL:
        return None
    if isinstance(exponent, (int, float)) and exponent in (0, 1, 2, 3):
        k = int(exponent)
        return literal(1, t) if k == 0 else a[0] if k == 1 else _mul_chain(a[0], k, t)
    if not is_float(t):
        return None  # negative or large integer powers: NumPy raises, CuPy loops
    return f"{_fn('pow', t)}({a[0]}, {a[1]})"


_op("pow", operator.pow, _power, python_consts=True)
_op("power", np.power, _power)


# ----------------------------------------------------------------- not ufuncs

def _where_ref(c, x, y):
    return np.where(c, x, y)


_op("where", _where_ref, lambda a, ins, out, consts: f"({a[0]} ? {a[1]} : {a[2]})")


_op("cast", lambda x, dtype=None: x, lambda a, ins, out, consts: f"(({ctype(out)}){a[0]})")


# ----------------------------------------------------------------- loop dtypes

_NOT_UFUNC = {"pow": np.power}


def arg_spec(value):
    """What NumPy's promotion sees of one operand: a dtype, or a weak Python scalar type."""
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, (int, float)):
        return type(value)
    if isinstance(value, np.generic):
        return value.dtype
    if isinstance(value, np.dtype):
        return value
    raise TypeError(f"cannot promote {type(value).__name__}")


def loop_dtypes(name: str, specs: list, out_dtype=None) -> tuple[tuple, np.dtype]:
    """(input dtypes, output dtype) of NumPy's loop for op ``name`` on these operands.

    ``specs`` are dtypes or the Python scalar types ``int``/``float``. Raises
    ``KeyError``/``TypeError`` when the op or the combination has no fused form.
    """
    return _loop_dtypes(name, tuple(specs), None if out_dtype is None else np.dtype(out_dtype))


@functools.lru_cache(maxsize=4096)
def _loop_dtypes(name: str, specs: tuple, out_dtype) -> tuple[tuple, np.dtype]:
    if name == "where":
        if out_dtype is None or not fusible(out_dtype):
            raise TypeError("where: result dtype not fused")
        return (BOOL, np.dtype(out_dtype), np.dtype(out_dtype)), np.dtype(out_dtype)
    ufunc = _NOT_UFUNC.get(name) or getattr(np, name, None)
    if not isinstance(ufunc, np.ufunc) or name not in SCALAR_OPS:
        raise KeyError(f"no fused form for {name!r}")
    resolved = ufunc.resolve_dtypes(tuple(specs) + (None,) * ufunc.nout)
    ins, out = tuple(resolved[:ufunc.nin]), resolved[ufunc.nin]
    if not all(fusible(d) for d in (*ins, out)):
        raise TypeError(f"{name} on {ins}: dtype not fused")
    return ins, out
