"""Python numbers that change between calls, as values of the graph: ``SymFloat``.

A float argument that changed between calls (``lr``, a list of floats made fresh each
call), or float arithmetic on a symbolic int (``0.9 ** t``, ``1 / (1 + k)``), is a
``SymFloat`` while tracing: a ``float`` whose value is the one seen in this call (the
*hint*) and which also carries an ``Expr``, the Python expression that computes it from
the symbols. An op that takes it reads the expression as a graph argument (a ``SymArg``
over the symbol placeholders), so the entry serves every value.

The expression is evaluated with Python's own operators on the same Python values, in
the program's order, so its result is eager's bit for bit, and it raises what eager
raises (``ZeroDivisionError``, ``OverflowError``) when the graph runs. A float op a
float is again a float (NEP 50: with a float32 array it stays float32, as eagerly).

Anything that reads the value as a plain Python value (``==``, ``hash``, ``int``,
``str``, a C function such as ``math.exp``, an op whose result shape could depend on
it) *pins* its symbols: the entry is guarded on the value it saw (specialized), and a
later compile keeps that source static. Where it cannot tell, it pins. An order
comparison with a number (``t >= 0.35``) is a branch decision instead
(``number_decisions.decide``).

Example::

    >>> t = SymInt(5, Sym.symbol("s0", "L['t']"))
    >>> d = 1 - 0.9 ** SymFloat.of_int(t)
    >>> d, d.sym.render()
    (0.40951, '1 - 0.9 ** float(s0)')
"""

from __future__ import annotations

import math
import operator

from .drawn_ranges import never_raises as in_draw_range

# (``Expr`` and its printing live in ``exprs.py``; ``_MATH``, ``_UNARY`` and ``literal``
# are imported from here by the modules that make expressions)
from .exprs import _BINARY, _MATH, _UNARY, Expr, _sum, literal  # noqa: F401
from .made_up_values import float_at_hint, refuse_made_up
from .number_decisions import data_decided as _data_decided
from .number_decisions import decide
from .number_decisions import hint as _hint
from .number_decisions import is_number as _number
from .number_decisions import plain as _plain
from .number_decisions import symbols_of as _symbols
from .sizes import (
    Sym,
    Symbolic,
    SymInt,
    floors,
    is_unbacked,
    is_unbacked_number,
    nonnegative,
    pin,
    record,
)
from .trip_raising import note as note_trip_number


class SymFloat(float, Symbolic):
    """A float that is also an expression over symbols (see the module docstring).

    ``integral``: its value is an int's at every call (``float`` of an int symbol), so
    a negative number raised to it is still a float (see ``_pow_stays_float``)."""

    sym: Expr
    integral: bool

    def __new__(cls, hint: float, sym: Expr, integral: bool = False):
        self = super().__new__(cls, hint)
        self.sym, self.integral = sym, integral
        return self

    @staticmethod
    def of_int(value: SymInt) -> SymFloat:
        """A symbolic int as a float operand: Python converts an int to a float (exactly
        as ``float(i)``, ``OverflowError`` past 1e308) before any float arithmetic.
        (Past 1e308 at a made-up value, ``len(x[m]) ** 200``: a graph break that says
        so, not the program's error: ``made_up_values``.)"""
        return SymFloat(float_at_hint(value), Expr.apply(float, Expr.of(value)),
                        integral=True)

    @staticmethod
    def of_quotient(fn, value: SymInt, k: int) -> SymFloat:
        """``size // k`` or ``size % k`` (``fn``, ``k`` a nonzero int constant) as a float
        operand (``gamma ** (epoch // 30)``): a float operator converts the int result
        exactly as ``float(i)`` does, so the graph computes ``float(s0 // 30)``, and the
        quotient needs no guard (``translator/quotients.py``)."""
        return SymFloat(float(fn(int(value), k)),
                        Expr.apply(float, Expr.apply(fn, Expr.of(value), Expr.of(k))),
                        integral=True)

    def __repr__(self) -> str:
        return f"SymFloat({float.__float__(self)!r}, {self.sym.render()})"

    def __add__(self, other):
        return binary(operator.add, self, other)

    def __radd__(self, other):
        return binary(operator.add, other, self)

    def __sub__(self, other):
        return binary(operator.sub, self, other)

    def __rsub__(self, other):
        return binary(operator.sub, other, self)

    def __mul__(self, other):
        return binary(operator.mul, self, other)

    def __rmul__(self, other):
        return binary(operator.mul, other, self)

    def __truediv__(self, other):
        return binary(operator.truediv, self, other)

    def __rtruediv__(self, other):
        return binary(operator.truediv, other, self)

    def __floordiv__(self, other):
        return binary(operator.floordiv, self, other)

    def __rfloordiv__(self, other):
        return binary(operator.floordiv, other, self)

    def __mod__(self, other):
        return binary(operator.mod, self, other)

    def __rmod__(self, other):
        return binary(operator.mod, other, self)

    def __pow__(self, other, mod=None):
        if mod is not None:
            return _plain(pow, self, other, mod)
        return binary(operator.pow, self, other)

    def __rpow__(self, other, mod=None):
        if mod is not None:
            return _plain(pow, other, self, mod)
        return binary(operator.pow, other, self)

    def __neg__(self):
        if too_deep(self):
            return -_hint(self)
        return SymFloat(-_hint(self), Expr.apply(operator.neg, self.sym), self.integral)

    def __pos__(self):
        return self

    def __abs__(self):
        if too_deep(self):
            return abs(_hint(self))
        return SymFloat(abs(_hint(self)), Expr.apply(abs, self.sym), self.integral)

    # anything else reads the value: pinned (the entry is valid for this value only)
    def __eq__(self, other):
        return _plain(operator.eq, self, other)

    def __ne__(self, other):
        return _plain(operator.ne, self, other)

    def __lt__(self, other):
        return decide(operator.lt, self, other, Expr.of)

    def __le__(self, other):
        return decide(operator.le, self, other, Expr.of)

    def __gt__(self, other):
        return decide(operator.gt, self, other, Expr.of)

    def __ge__(self, other):
        return decide(operator.ge, self, other, Expr.of)

    def __bool__(self):
        return _plain(bool, self)

    def __hash__(self):
        return _plain(hash, self)

    def __int__(self):
        return _plain(int, self)

    def __float__(self):
        return _plain(float, self)

    def __round__(self, *args):
        return _plain(round, self, *args)

    def __trunc__(self):
        return _plain(math.trunc, self)

    def __floor__(self):
        return _plain(math.floor, self)

    def __ceil__(self):
        return _plain(math.ceil, self)

    def __divmod__(self, other):
        return _plain(divmod, self, other)

    def __rdivmod__(self, other):
        return _plain(divmod, other, self)

    def __str__(self):
        return _plain(str, self)

    def __format__(self, spec):
        return _plain(format, self, spec)

    def __getattribute__(self, name):
        # the methods and properties of float read the value (x.is_integer(), x.real)
        if name in _VALUE_READERS:
            pin(object.__getattribute__(self, "sym").symbols, f"float.{name}")
            return getattr(float(_hint(self)), name)
        return object.__getattribute__(self, name)


_VALUE_READERS = frozenset(("is_integer", "as_integer_ratio", "hex", "conjugate", "real",
                            "imag", "__getnewargs__", "__reduce__", "__reduce_ex__"))


def _is_float(value) -> bool:
    return isinstance(value, float)


def binary(fn, a, b):
    """``fn(a, b)`` where ``a`` or ``b`` is symbolic: a SymFloat when the result is a
    float for every value the symbols may take, else the plain result, pinned.

    The result is computed at the hints first (it raises, as eagerly, where they do)."""
    if fn not in _BINARY or not (_number(a) and _number(b)):
        return _plain(fn, a, b)
    if not (_is_float(a) or _is_float(b) or fn is operator.truediv):
        return _plain(fn, a, b)    # int op int (other than /): an int, SymInt's business
    if fn is operator.pow and not _pow_stays_float(a, b):
        return _plain(fn, a, b)
    if _data_decided(a, b) and not _never_raises(fn, b) and not in_draw_range(fn, a, b):
        # (pinned: an unbacked number or size breaks the graph there; ``1.0 / len(kept)``
        # raises ZeroDivisionError for an empty ``kept``, and a SymFloat's expression
        # is computed after the graph, outside the program's own ``try``)
        return _plain(fn, a, b)
    if too_deep(a, b):
        return _plain(fn, a, b)
    try:
        hint = fn(_hint(a), _hint(b))
    except Exception as e:
        # (at a made-up value, ``len(x[m]) ** 200 / 2``, the error is not the program's)
        refuse_made_up(_symbols(a, b), e, _BINARY[fn])
        # the trace follows the raise (into an except, or out of the frame): whether
        # it raises depends on the values (1.0 / z, 1e200 ** 2), so the entry is for
        # these values only
        pin(_symbols(a, b), f"{_BINARY[fn]} raised for this value")
        raise
    if type(hint) is not float:   # (cannot happen by the checks above; never guess)
        return _plain(fn, a, b)
    expr = Expr.apply(fn, Expr.of(a), Expr.of(b))
    if not _op_never_raises(fn, a, b) and not in_draw_range(fn, a, b):
        expr.raises = True
        guard_computes(expr, a, b)
    return SymFloat(hint, expr)


def guard_computes(expr: Expr, *operands) -> None:
    """The entry serves only values for which ``expr`` (just made, by an operator that
    raises for some values: ``1.5 / k``, ``2.0 ** k``) computes: a guard that the
    divisor is not 0 (a division), or one that computes the expression (the rest).

    Nothing else would: a number the program never reads (``h = 1.5 / k`` with ``h``
    dead) is no op's input and no value the glue returns, yet Python raises there
    (ZeroDivisionError for ``k == 0``, OverflowError for ``2.0 ** 2000``). A call where
    it would raise misses; its trace computes it at the call's value and raises as
    Python does (``binary``). None for a divisor that is never 0 (a sum of sizes, trip
    indices and counters >= 0 plus a constant >= 1), for an operand only the data
    decides (``binary`` pinned those that may raise), and where what it would guard
    reads a loop's trip index (``lr0 / (1 + decay * t)`` in a loop node's body): a guard
    on it would make the loop no loop node, and such a number is read in the body (the
    one left, an unread ``1.0 / (i - k)`` in a loop node's body, is noted for the loop
    scope, which unrolls the loop where no body op reads it: ``trip_raising.py``).

        >>> h = 1.5 / SymInt(3, Sym.symbol("s0", "L['k']"))   # (h unread)
        >>> trace.decisions
        ["(float((L['k']))) != 0"]
    """
    if _data_decided(*operands):
        return
    if expr.op in (operator.truediv, operator.floordiv, operator.mod):
        divisor = operands[1]
        if not isinstance(divisor, (SymInt, SymFloat)) or _never_zero(divisor):
            return
        text, symbols = f"({Expr.of(divisor).runtime()}) != 0", Expr.of(divisor).symbols
    else:
        text, symbols = f"({expr.runtime()}) is not None", expr.symbols
    if any(name.startswith("loop") for name in symbols):
        note_trip_number(expr)   # (a loop's trip index: read in the body, or unrolled)
        return
    record(text, True, symbols, "a number the call computes that may raise (the trace "
                                "computed it for this call without raising)")


def _never_zero(value) -> bool:
    """An int (or its float) >= 1 for every value of its symbols: a sum of sizes, trip
    indices and counters >= 0 (``_sum_of_sizes``) plus a constant >= 1."""
    expr = Expr.of(value)
    if expr.op is float:
        expr = expr.args[0]
    return expr.op == "int" and expr.args[0].const >= 1 and _sum_of_sizes(value)


def too_deep(*values) -> bool:
    """Is an operand's expression ``_MAX_DEPTH`` operators deep (over an unbacked
    number; ``_MAX_DEPTH_CHANGING`` over changing numbers only)? Then its symbols are
    pinned (their values constants of the entry; an unbacked number breaks the graph
    here) and the caller computes on the plain values: a deeper expression would not
    compile as Python source, which nests at most 200 parentheses (``t = t * c + lr``
    over 250 coefficients, ``t = t + float(x[i])`` unrolled: "too many nested
    parentheses" in the glue, the guards or the graph's code)."""
    depth = max((Expr.of(v).depth for v in values if isinstance(v, (SymInt, SymFloat))),
                default=0)
    if depth < _MAX_DEPTH or depth < _MAX_DEPTH_CHANGING and not _unbacked(*values):
        return False
    pin(_symbols(*values), f"an expression {_MAX_DEPTH} operators deep")
    return True


def _op_never_raises(fn, a, b) -> bool:
    """Is ``a fn b`` (floats, a symbolic operand) free of exceptions for every value the
    entry serves? ``+``, ``-``, ``*`` are; ``/``, ``//``, ``%`` by a constant that is not
    zero are; ``**`` is when the base is a constant in [0, 1] and the exponent is at
    least 0 (a constant, or a sum of sizes and counters, here at least 1, guarded
    ``>= 0``): the result lies in [0, 1]. Anything else may raise (``2.0 ** t``:
    OverflowError past 1023), and its ``Expr`` says so (``raises``): a graph that cannot
    run again and computes it after Python effects runs eagerly instead, and the glue
    reruns the frame where computing it raises (issue #17).

        >>> _op_never_raises(operator.pow, 0.9, t), _op_never_raises(operator.pow, 2.0, t)
        (True, False)
    """
    if fn in (operator.add, operator.sub, operator.mul):
        return True
    if fn in (operator.truediv, operator.floordiv, operator.mod):
        return type(b) in (int, float, bool) and b != 0
    if fn is operator.pow and type(a) in (int, float) and 0 <= a <= 1:
        if type(b) in (int, float, bool):
            return b >= 0
        # (a sum of sizes and counters records ``>= 0`` for a changing int, only where
        # the exponent is at least 1 here: a counter seen at 0 may be one that goes
        # negative, ``0.9 ** t`` for t in -5..5, better one entry that may raise)
        return _hint(b) >= 1 and _sum_of_sizes(b)
    return False


# The deepest expression the graph, the guards and the glue compute (``too_deep``: a
# deeper one is pinned, which breaks the graph for an unbacked number: an unrolled sum
# of many converted numbers would not compile as one Python expression)
_MAX_DEPTH = 48
# ... over changing numbers only (a number pinned is a recompile per value, so only
# where the source would come near the parser's 200: each operator nests one pair of
# parentheses, a leaf ``float((s0 + 1))`` two, and a guard or an op's call a few more)
_MAX_DEPTH_CHANGING = 150


def _unbacked(*values) -> bool:
    """Does an operand hold an unbacked number (``float(loss)``, known only when the
    graph runs: ``ShapeEnv.new_unbacked_number``, named ``uf0``...)? (Unbacked sizes
    keep their rules: ``1.0 / len(x[m])`` is an expression of the graph.)"""
    return any(is_unbacked_number(s) for s in _symbols(*values))


def _int_sym(value) -> Sym | None:
    """The affine expression of a SymInt, or of a SymFloat that is ``float`` of one
    (``1.0 / (n + 1)`` divides by ``float(n + 1)``); None otherwise."""
    if isinstance(value, SymInt):
        return value.sym
    if isinstance(value, SymFloat):
        e = value.sym
        if e.op is float and len(e.args) == 1 and isinstance(e.args[0], Expr) and \
                e.args[0].op == "int":
            return e.args[0].args[0]
    return None


def least_value(sym: Sym) -> int | None:
    """The least value the affine expression ``sym`` over data-dependent ints takes, or
    None when unknown: an unbacked size (``u0``) is at least 0, an int the graph
    computes (``ui0``) its floor in ``Trace.floors``; a negative coefficient or any
    other symbol gives None.

        >>> least_value((max(len(kept), 1) + 2).sym)     # ui0 >= 1
        3
    """
    known = floors()
    total = sym.const
    for name, coeff in sym.terms:
        if coeff < 0 or not is_unbacked(name) or is_unbacked_number(name):
            return None
        floor = known.get(name) if name.startswith("ui") else 0
        if floor is None:
            return None
        total += coeff * floor
    return total


def _never_raises(fn, divisor) -> bool:
    """Is ``a fn divisor`` of Python floats (one of them an unbacked number) free of
    exceptions for every value? ``+``, ``-``, ``*`` are (IEEE: inf and nan, never
    ``OverflowError``); ``/``, ``//``, ``%`` by a constant that is not zero are too;
    ``**`` is not (``OverflowError``, a complex result). An operation that raises for
    some values would raise inside the graph, after ops and before effects that eager
    orders otherwise: the unbacked number is pinned there instead (a graph break).

        >>> _never_raises(operator.truediv, 3), _never_raises(operator.truediv, loss)
        (True, False)
    """
    if fn in (operator.add, operator.sub, operator.mul):
        return True
    if fn in (operator.truediv, operator.floordiv, operator.mod):
        sym = _int_sym(divisor)
        if sym is not None:   # (``max(len(kept), 1)``, ``len(kept) + 1``: at least 1)
            least = least_value(sym)
            return least is not None and least > 0
        return type(divisor) in (int, float, bool) and divisor != 0
    return False


def _pow_stays_float(base, exp) -> bool:
    """``base ** exp`` (one of them a float) is a float for every value the entry
    serves: a negative float to a non-integral power is complex, so either the base is
    a known number >= 0 (a constant, or an int symbol's sum with non-negative
    coefficients: every symbol counts from 0 up, ``t_ ** power_t``), or the exponent is
    known integral (a constant, or an int symbol's float), or the base is a changing
    number >= 0 in this call: then the entry is guarded on the base's sign, not on its
    value (``(1 - epoch / 10) ** 0.9``: ``(1 - (float(L['epoch']) / 10)) >= 0``, one
    entry for epochs 1 to 10; epoch 11 misses and pins, as Python's result is complex).

        >>> with recording() as trace:
        ...     e = SymFloat.of_int(SymInt(3, Sym.symbol("s0", "L['epoch']")))
        ...     lr = (1 - e / 10) ** 0.9
        >>> trace.decisions, trace.pins
        (["(1 - (float((L['epoch'])) / 10)) >= 0"], set())
    """
    if not isinstance(base, (SymInt, SymFloat)) and base >= 0:
        return True
    if _sum_of_sizes(base):
        return True
    if isinstance(exp, SymFloat) and exp.integral or \
            not isinstance(exp, (SymInt, SymFloat)) and float(exp).is_integer():
        return True
    return _guard_sign(base)


def _guard_sign(base) -> bool:
    """A changing base seen >= 0 (not NaN, not negative): guard that it stays so (the
    guard is the base's own expression, Python's operators on the same values; if it
    raises for a later call, that call misses and compiles, as eagerly it raises)."""
    if not isinstance(base, (SymInt, SymFloat)) or not _hint(base) >= 0:
        return False
    record(f"{Expr.of(base).runtime()} >= 0", True, base.sym.symbols)
    return True


def choose(fn, values):
    """``min(*values)`` / ``max(*values)`` (``fn``) of Python floats, some symbolic: a
    SymFloat whose expression calls the same builtin on the same floats when the graph
    runs, so it picks as Python does (the first of equal values, NaN as ``<`` and ``>``
    treat it); nothing is pinned. None when a value is not a float (``min(1, x)`` is an
    int or a float as the values decide: the caller compares, which pins).

    Example: ``min(1.0, (step + 1) / 4)`` with a symbolic step is
    ``SymFloat(0.5, min(1.0, ((float(s0) + 1) / 4)))``."""
    if not all(_is_float(v) and (type(v) is float or isinstance(v, SymFloat))
               for v in values):
        return None
    if not any(isinstance(v, SymFloat) for v in values) or too_deep(*values):
        return None
    hint = fn(*(_hint(v) for v in values))
    return SymFloat(hint, Expr.apply(fn, *(Expr.of(v) for v in values)),
                    all(v.integral if isinstance(v, SymFloat) else float(v).is_integer()
                        for v in values))


def total(values):
    """``sum(values)`` of Python numbers, some changing floats: a SymFloat whose
    expression calls the builtin ``sum`` on the same numbers when the graph runs, so it
    adds as the running Python does (3.12 and later compensate float rounding; adding
    one by one would differ in the last bit). None when no value is a SymFloat or one
    is not an exact int, float or bool (a SymInt: the caller adds one by one).

    Example: ``sum([w0, w1, w2])`` of a fresh list of floats is
    ``SymFloat(1.5, sum((s0, s1, s2)))``."""
    if not any(isinstance(v, SymFloat) for v in values) or \
            not all(type(v) in (int, float, bool) or isinstance(v, SymFloat) for v in values) \
            or too_deep(*values):
        return None
    hint = sum(_hint(v) for v in values)
    return SymFloat(hint, Expr.apply(_sum, *(Expr.of(v) for v in values)),
                    all(v.integral if isinstance(v, SymFloat) else float(v).is_integer()
                        for v in values))


def _sum_of_sizes(value) -> bool:
    """A symbolic int (or its float) that is >= 0 for every value of its symbols: each
    symbol is a size or an int guarded >= 2 (or an unbacked size, >= 0, or a changing
    int guarded >= 0 here), so a sum of them with coefficients >= 0 and a constant
    >= 0 is."""
    expr = Expr.of(value) if isinstance(value, (SymInt, SymFloat)) else None
    if expr is not None and expr.op is float:
        expr = expr.args[0]
    if expr is None or expr.op != "int":
        return False
    sym = expr.args[0]
    # (a changing int used only as a value may be negative: ``nonnegative`` guards it
    # ``>= 0`` where it is, or says no)
    return sym.const >= 0 and all(c >= 0 for _, c in sym.terms) and \
        all(nonnegative(name) for name, _ in sym.terms)


def float_operands(x, y):
    """Two operands of a Python operator, where one is a float and the other a symbolic
    int: the int as a SymFloat (Python converts it so anyway), so the operator builds
    an expression instead of reading the int's value in C."""
    if isinstance(x, SymInt) and isinstance(y, float):
        return SymFloat.of_int(x), y
    if isinstance(y, SymInt) and isinstance(x, float):
        return x, SymFloat.of_int(y)
    return x, y


__all__ = ["Expr", "SymFloat", "binary", "choose", "float_operands", "literal", "total"]
