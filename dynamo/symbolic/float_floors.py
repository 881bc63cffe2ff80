"""``math.floor(x)``, ``math.ceil(x)``, ``int(x)`` / ``math.trunc(x)`` of a changing float
made from one changing int (a step counter), as a changing int of its own: a symbol
read from a ``FormSource`` the call computes with the same function of ``math`` on
the same Python float (``math.floor((1 + (float(L['self'].it) / 4)))``), exactly as
eagerly, so one entry serves every count where reading the float pinned the counter
(an entry per call). Like any changing int it is guarded only where the trace reads
it: arithmetic keeps it a value (``2 * cycle``), a comparison guards its outcome, a
size ``>= 2`` (``ShapeEnv.new_symbol``), as ``ShapeEnv.new_quotient`` does for ``n % k``.

The triangular cyclic learning rate (Smith 2017)::

    cycle = math.floor(1 + self.it / (2 * self.step_size))   # s1, read from the call
    xx = abs(self.it / self.step_size - 2 * cycle + 1)        # a SymFloat over s0, s1

It applies only where the form cannot raise when the call computes it (a guard that
raises is no guard): one changing int symbol, not pinned, in an expression of ``+``,
``-``, ``*``, ``abs``, ``float()`` and division by constants whose magnitude stays far
below the largest float for every int64 count (``_log2_bound``), so the float is finite
and its floor exists; the result is guarded to fit int64 (the graph types it so).
Anything else (a float argument, which may be inf or NaN; a quotient by a changing
number; several symbols) reads the value as before (pinned).
"""

from __future__ import annotations

import math
import operator

from dynamo.guards import EXPR, FormSource, Guard

from .scalars import Expr, SymFloat
from .sizes import Sym, SymInt

# the functions that make an int of a float, and how the call's form spells each
_FLOORS = {math.floor: "__import__('math').floor", math.ceil: "__import__('math').ceil",
           math.trunc: "__import__('math').trunc", int: "___builtins.int"}
_INT64_END = 2 ** 63
# log2 of the largest magnitude a form may reach: far below 2 ** 1024 (inf)
_MAX_LOG2 = 900.0
_LINEAR = (operator.add, operator.sub)


def changing_floor(env, fn, value) -> SymInt | None:
    """``fn(value)`` (``fn`` one of ``_FLOORS``) as a changing int, or None where it does
    not apply (see the module docstring)."""
    if fn not in _FLOORS or not isinstance(value, SymFloat) or env.trace is None:
        return None
    expr = value.sym
    trace = env.trace
    if len(expr.symbols) != 1 or expr.raises:
        return None
    (name,) = expr.symbols
    if name in trace.pins or name not in trace.numbers or name not in env.symbols:
        return None
    if _log2_bound(expr) > _MAX_LOG2:
        return None
    result = fn(float.__float__(value))
    if not -_INT64_END <= result < _INT64_END:
        return None
    source = FormSource(env.symbols[name], f"{_FLOORS[fn]}({expr.render({name: '{}'})})")
    if source in env.dynamic.static:
        return None          # (pinned by an earlier trace: read as before)
    env.guards.add(Guard(source, EXPR, f"{-_INT64_END} <= {source.expr()} < {_INT64_END}",
                         note="an int computed by the call, typed int64"))
    return env.new_symbol(source, result, f"{fn.__name__}() of a changing float",
                          number=True)


def _log2_bound(expr: Expr) -> float:
    """An upper bound of log2 of the expression's magnitude for every int64 value of
    its int symbols (inf where the expression is not of the kinds ``changing_floor``
    takes): ``(1 + float(s0) / 4)`` is below ``2 ** 64``."""
    op, args = expr.op, expr.args
    if op == "const":
        c = args[0]
        if type(c) not in (int, float) or not math.isfinite(c):
            return math.inf
        return math.log2(abs(c)) if c else -math.inf
    if op == "int":
        sym: Sym = args[0]
        total = sum(abs(c) for _, c in sym.terms) * _INT64_END + abs(sym.const)
        return math.log2(total) if total else -math.inf
    if op is float or op in (operator.neg, operator.pos, abs):
        return _log2_bound(args[0])
    if op in _LINEAR:
        return max(_log2_bound(args[0]), _log2_bound(args[1])) + 1
    if op is operator.mul:
        return _log2_bound(args[0]) + _log2_bound(args[1])
    if op is operator.truediv and args[1].op == "const" and \
            type(args[1].args[0]) in (int, float) and args[1].args[0] != 0:
        return _log2_bound(args[0]) - math.log2(abs(args[1].args[0]))
    return math.inf
