"""``min(n, k)`` / ``max(0, n - w)`` of a changing int (a step counter, a position) and
int constants, used as an index: a changing int of its own that the call computes with
Python's own builtin from the frame's values (``FormSource``: ``min(L['n'], 7)``), as
``ShapeEnv.new_quotient`` does for ``n % k``. No decision on which argument wins, so
``x[min(n, 7)]`` keeps one entry on both sides of 7 (the index is a graph input,
``symbolic/indices.py``). Like any changing int it is guarded only where the trace
reads it (a comparison guards its outcome, a pin its value, a size ``>= 2``).

Where it does not apply (several symbols, a size rather than a changing int, a
pinned one, a bool or a float among the arguments), the caller decides as before.

Example::

    def pick(x, n):
        return x[min(n, 7)] * 2      # n: a changing int; min(n, 7): read from
                                     # ``min(L['n'], 7)`` by the call
"""

from __future__ import annotations

from dynamo.guards import FormSource

from ..symbolic import SymInt
from ..symbolic.sizes import Sym
from .constant import ConstantVariable


def changing_choice(tx, fn, args: list) -> ConstantVariable | None:
    """``fn(*args)`` (``min`` or ``max``) as a changing int, or None."""
    if fn not in (min, max) or len(args) < 2 or tx.output.loop_scope is not None or \
            not _read_whole(tx) or \
            not all(isinstance(a, ConstantVariable) for a in args):
        return None
    values = [a.value for a in args]
    syms = [v for v in values if type(v) is SymInt]
    if len(syms) != 1 or not all(type(v) is int for v in values if v is not syms[0]):
        return None
    size = syms[0]
    env = tx.output.shape_env
    trace = env.trace
    if trace is None or len(size.sym.terms) != 1:
        return None
    (name, _), = size.sym.terms
    if name not in trace.numbers or name in trace.pins or name not in env.symbols:
        return None
    form = Sym(size.sym.terms, size.sym.const, ((name, "{}"),)).runtime()
    parts = [f"({form})" if v is size else repr(v) for v in values]
    source = FormSource(env.symbols[name], f"___builtins.{fn.__name__}({', '.join(parts)})")
    if source in env.dynamic.static:
        return None          # (pinned by an earlier trace: decided as before)
    value = fn(*(int.__int__(v) for v in values))
    return ConstantVariable(env.new_symbol(source, value, f"{fn.__name__}() of a changing int",
                                           number=True))


def _read_whole(tx) -> bool:
    """Does the next instruction use the result as an index (``x[min(n, 7)]``)? Any
    other use decides which argument wins, as before: a slice with two bounds made of one
    changing int (``x[max(0, n - 4):n]``) has a length no single int describes, and
    the decision keeps it two entries, where a changing int would pin both."""
    insts, ip = tx.info.insts, tx.ip
    nxt = insts[ip] if ip < len(insts) else None
    if nxt is None:
        return False
    if nxt.name == "BINARY_SUBSCR":
        return True
    return nxt.name == "BINARY_OP" and getattr(nxt.arg, "name", None) == "SUBSCR"
