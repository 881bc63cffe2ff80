"""The expressions a ``SymFloat`` carries (``Expr``: Python operators and functions of
``math`` over symbols, constants and affine ints) and how they print as Python source
(``literal`` for constants). Split from ``scalars.py``, which makes them.

Example::

    >>> e = Expr.apply(operator.sub, Expr.of(1), Expr.apply(operator.pow, Expr.of(0.9),
    ...                Expr.symbol("s0", "L['t']")))
    >>> e.render(), e.depth, e.runtime()
    ('(1 - (0.9 ** s0))', 3, "(1 - (0.9 ** L['t']))")
"""

from __future__ import annotations

import math
import operator

from .sizes import Sym, SymInt

# The operators an expression may hold: each always gives a float when an operand is a
# float (or for truediv, always), whatever the values (pow: see ``_pow_stays_float``).
_BINARY = {
    operator.add: "+", operator.sub: "-", operator.mul: "*", operator.truediv: "/",
    operator.floordiv: "//", operator.mod: "%", operator.pow: "**",
}
_UNARY = {operator.neg: "-", operator.pos: "+", abs: "abs"}


class Expr:
    """A Python-number expression over symbols: a leaf (a constant, a float symbol, an
    int symbol's affine ``Sym``, ``float`` of one) or an operator on two or one.

    It has what a ``SymArg`` needs of its expression: ``symbols``, ``evaluate(values)``
    and ``render(names)``."""

    __slots__ = ("op", "args", "symbols", "sources", "depth", "raises")

    def __init__(self, op, args: tuple, symbols=frozenset(), sources=()):
        self.op, self.args = op, args
        self.symbols, self.sources = frozenset(symbols), tuple(sources)
        # how deeply its operators nest (the generated code's parentheses)
        self.depth = 1 + max((a.depth for a in args if isinstance(a, Expr)), default=0)
        # may computing it raise for some values of its symbols (``2.0 ** float(s0)``:
        # OverflowError)? Set where an operator that may is applied (``binary``,
        # ``math_call``); ``raising.raising_nodes`` and the glue read it (issue #17)
        self.raises = any(a.raises for a in args if isinstance(a, Expr))

    @staticmethod
    def symbol(name: str, expr: str) -> Expr:
        """The float read from one source (a placeholder ``name``)."""
        return Expr("symbol", (name,), {name}, ((name, expr),))

    @staticmethod
    def of(value) -> Expr:
        """The expression of an operand: a SymFloat's own, an int symbol's, a constant."""
        sym = getattr(value, "sym", None)
        if isinstance(sym, Expr):   # (a SymFloat: ``scalars.py``, which imports this)
            return sym
        if isinstance(value, SymInt):
            return Expr("int", (value.sym,), value.sym.symbols, value.sym.sources)
        return Expr("const", (value,))

    @staticmethod
    def apply(fn, *operands: Expr) -> Expr:
        symbols = frozenset().union(*(e.symbols for e in operands))
        sources = dict(s for e in operands for s in e.sources)
        return Expr(fn, operands, symbols, tuple(sorted(sources.items())))

    def map_ints(self, fn) -> Expr:
        """This expression with each int leaf's ``Sym`` replaced by ``fn(sym)``, an int,
        a SymInt or a Sym (a loop's index at its last trip: ``loop_facts.float_at_trip``;
        in terms of a generated loop's variable: the numpy backend's ``Module.fmt``)."""
        if self.op == "int":
            new = fn(self.args[0])
            sym = new.sym if isinstance(new, SymInt) else new if isinstance(new, Sym) else None
            return Expr.of(new) if sym is None else Expr("int", (sym,), sym.symbols,
                                                         sym.sources)
        if self.op in ("const", "symbol"):
            return self
        mapped = Expr.apply(self.op, *(a.map_ints(fn) for a in self.args))
        mapped.raises = mapped.raises or self.raises
        return mapped

    def evaluate(self, values: dict):
        """The value when the symbols are ``values`` (symbol name -> int or float)."""
        if self.op == "const":
            return self.args[0]
        if self.op == "symbol":
            return values[self.args[0]]
        if self.op == "int":
            return self.args[0].evaluate(values)
        return self.op(*(a.evaluate(values) for a in self.args))

    def render(self, names: dict | None = None) -> str:
        """As Python source (``1 - 0.9 ** float(s0)``); ``names`` maps symbols to other
        expressions (placeholder names, or sources in ``runtime``)."""
        names = names or {}
        if self.op == "const":
            return literal(self.args[0])
        if self.op == "symbol":
            return names.get(self.args[0], self.args[0])
        if self.op == "int":
            return f"({self.args[0].render(names)})"
        if self.op is float:
            return f"float({self.args[0].render(names)})"
        if self.op in _UNARY:
            text = self.args[0].render(names)
            return f"abs({text})" if self.op is abs else f"({_UNARY[self.op]}{text})"
        if self.op in (min, max):
            return f"{self.op.__name__}({', '.join(a.render(names) for a in self.args)})"
        if self.op is _sum:
            return f"sum(({''.join(a.render(names) + ', ' for a in self.args)}))"
        if self.op in _MATH:
            # ``__import__``: the expression runs in several generated scopes (the graph's
            # printout, the numpy backend's module, the frame glue), none of which need
            # to bind ``math``; a builtin name resolves in every one of them
            args = ", ".join(a.render(names) for a in self.args)
            return f"__import__('math').{self.op.__name__}({args})"
        if hasattr(self.op, "render_call"):
            # an operator that prints itself (a float clock stepped ``n`` times:
            # ``translator/while_clocks.py``), from its operands' source text
            return self.op.render_call(*(a.render(names) for a in self.args))
        a, b = (x.render(names) for x in self.args)
        return f"({a} {_BINARY[self.op]} {b})"

    def runtime(self) -> str:
        """As an expression over the frame's values (``(1 - 0.9 ** float(L['t'])``)."""
        return self.render(dict(self.sources))

    def __repr__(self) -> str:
        return self.render()


def literal(value) -> str:
    """Source text for a constant operand: ``float('inf')`` (no literal), a negative
    number in parentheses (``(-0.5) ** t``, not ``-(0.5 ** t)``)."""
    if type(value) is float and not math.isfinite(value):
        return f"float({str(value)!r})"
    text = repr(value)
    return f"({text})" if text.startswith("-") else text


# The functions of ``math`` that return a float for every int or float argument they
# accept (or raise: ``math.sqrt(-1.0)``, ``math.exp(1e9)``), with how many arguments
# (``math.log(x)`` and ``math.log(x, base)``).
_MATH = {getattr(math, name): arity for name, arity in (
    ("cos", (1,)), ("sin", (1,)), ("tan", (1,)), ("acos", (1,)), ("asin", (1,)),
    ("atan", (1,)), ("cosh", (1,)), ("sinh", (1,)), ("tanh", (1,)), ("acosh", (1,)),
    ("asinh", (1,)), ("atanh", (1,)), ("exp", (1,)), ("exp2", (1,)), ("expm1", (1,)),
    ("log", (1, 2)), ("log2", (1,)), ("log10", (1,)), ("log1p", (1,)), ("sqrt", (1,)),
    ("cbrt", (1,)), ("fabs", (1,)), ("erf", (1,)), ("erfc", (1,)), ("gamma", (1,)),
    ("lgamma", (1,)), ("degrees", (1,)), ("radians", (1,)), ("atan2", (2,)),
    ("hypot", (2,)), ("copysign", (2,)), ("fmod", (2,)), ("pow", (2,)),
) if hasattr(math, name)}


def _sum(*values):
    return sum(values)


_sum.__name__ = "sum"
