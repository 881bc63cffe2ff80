"""``sum(d)``, ``max(d)``, ``min(d)`` of a deque or list of Python floats whose length
changes between calls (a smoothed loss, a window of rewards, a loss history), read
whole while the trace has not read its items: one changing float that the call
computes with Python's own builtin, from the items held when it starts and the ones
the trace appended, instead of each item and the length guarded (one entry per
length while the window fills).

Python's ``sum`` of floats adds one by one on 3.11 and with compensated rounding from
3.12 (``pyversion.SUM_COMPENSATES``), and ``max``/``min`` keep the first of equal
items and let a NaN's place decide: the call runs the running Python's builtin on the
same floats, so the value is eager's bit for bit on every version, with no model of
either rule. The float is a graph input like any changing number (``ShapeEnv.
new_number``): guarded where the trace reads it as a value (pinned), free otherwise.

What the call computes must be exactly what the program's line sees, and the
computation must neither raise nor run user code: so the items held are guarded to
be Python floats (``set(map(type, d)) <= {float}``), the items the trace appended
must be float constants or changing floats read directly from the frame (a float
argument, ``self.r``: their own guards check their type first, by depth), and at
least one item is there (an empty ``max`` raises, an empty ``sum`` is the int 0).
Anything else, or a read of this sum the trace had to pin (then this source is
static), reads the items as before.

Example::

    def step(self, x, loss):                 # self.recent = deque(maxlen=3)
        self.recent.append(loss)
        return x * (sum(self.recent) / len(self.recent))

    # sum: a float read from ``sum((*list(L['self'].recent)[-2:], L['loss']))``,
    # len: an int read from ``min(len(L['self'].recent) + 1, 3)`` (DequeVariable.length):
    # one entry for every length and every loss after the first change.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

from dynamo.guards import EXPR, FormSource, Guard, Source

from ..symbolic.scalars import Expr, SymFloat, literal
from .constant import ConstantVariable
from .deques import DequeVariable
from .dicts import DictViewVariable
from .identity_generators import exhaust, yielded_container
from .sequences import ListVariable

# The builtins read so (each takes the items in order, as a tuple holds them)
REDUCERS = {sum: "sum", max: "max", min: "min"}

# The operators an appended item's expression may hold: none of them raises on floats
_SAFE_OPS = frozenset({operator.add, operator.sub, operator.mul, operator.neg,
                       operator.pos, abs})


@dataclass(frozen=True)
class ReducedSource(Source):
    """``fn`` (``sum``, ``max`` or ``min``) of the items of the container at ``base``
    (the last ``keep`` of them, all for None, none for 0), then the items in
    ``extra`` (expressions over the frame's values), as Python computes it::

        >>> ReducedSource(AttrSource(LocalSource("self"), "recent"), "sum", 2,
        ...               ("loss",), ("L['loss']",), 0).name()
        "sum((*list(L['self'].recent)[-2:], L['loss']))"
    """

    base: Source
    fn: str
    keep: int | None
    extra: tuple          # the appended items over the frame's values
    extra_names: tuple    # the same for people
    extra_depth: int      # the depth of their deepest source

    def _text(self, held: str, items: tuple, builtin: str) -> str:
        parts = [] if self.keep == 0 else \
            [f"*{held}"] if self.keep is None else [f"*{builtin}list({held})[-{self.keep}:]"]
        parts = [*parts, *items]
        return f"{builtin}{self.fn}(({', '.join(parts)}{',' if len(parts) == 1 else ''}))"

    def name(self) -> str:
        return self._text(self.base.name(), self.extra_names, "")

    def expr(self) -> str:
        return self._text(self.base.expr(), self.extra, "___builtins.")

    def depth(self) -> int:
        return max(self.base.depth(), self.extra_depth) + 1


def reduced(tx, fn, container) -> ConstantVariable | None:
    """``fn(container)`` (a builtin of ``REDUCERS``, no other argument) as a changing
    float, or None where it does not apply (see the module docstring)."""
    name = REDUCERS.get(fn)
    if name is None or tx.output.loop_scope is not None:
        return None         # (a loop node's body: its trips are not the call's start)
    through = yielded_container(container)   # sum(v for v in h): the list h itself
    if through is not None:
        chosen = reduced(tx, fn, through[0])
        if chosen is not None:
            exhaust(through[1])
        return chosen
    parts = _parts(container)
    base = getattr(container, "held_source", None) or getattr(container, "source", None)
    if parts is None and _values_view(container):   # max(d.values()) of an unread dict
        parts = container.dict.appended_values(tx)
        parts = parts and (parts[0], None, parts[1])
        base = FormSource(container.dict.source, "{}.values()")
    if parts is None:
        return None
    value, keep, new = parts
    env = tx.output.shape_env
    extra = [_runtime(env, v) for v in new]
    if any(e is None for e in extra):
        return None
    if not new and not _nonempty(tx, container):
        return None         # (an empty one: max raises, sum is the int 0)
    source = ReducedSource(base, name, keep, tuple(e[0] for e in extra),
                           tuple(e[1] for e in extra), max((e[2] for e in extra), default=0))
    if source in env.dynamic.static:
        return None         # (pinned by an earlier trace: read the items)
    held = list(value) if keep is None else list(value)[-keep:] if keep else []
    if not all(type(v) is float for v in held):
        return None
    guards = tx.output.guards
    guards.add(Guard(base, EXPR, f"set(map(type, {base.expr()})) <= {{___builtins.float}}",
                     note="a window of Python floats read whole"))
    now = fn([*held, *(float.__float__(v.value) for v in new)])   # (hints: no pin)
    return ConstantVariable(env.new_number(source, now))


def _parts(container):
    """(the real container, how many held items the trace's appends keep, the
    Variables appended) of an unread deque or list whose length changes, or None."""
    if isinstance(container, DequeVariable):
        value = container.live
        if value is None or not container.is_unread() or \
                any(op not in ("append", "extend") for op, _ in container.ops):
            return None
        new = [v for _, vs in container.ops for v in vs]
        if container.maxlen is None:
            return value, None, new
        keep = max(container.maxlen - len(new), 0)
        return value, keep, new[len(new) - min(len(new), container.maxlen):]
    if isinstance(container, ListVariable):
        value = container.live
        if value is None or not container.is_unread() or container.edits:
            return None
        return value, None, list(container.appended)
    return None


def _values_view(container) -> bool:
    """``d.values()`` of a dict read by the keys the trace touches (``unread_dicts``)."""
    return isinstance(container, DictViewVariable) and container.kind == "values" and \
        hasattr(container.dict, "appended_values")


def _nonempty(tx, container) -> bool:
    """Does the container hold an item (a decision on its changing length)?"""
    if isinstance(container, DictViewVariable):
        n = container.dict.length(tx)
        return n is not None and bool(n >= 1)
    if isinstance(container, DequeVariable):
        return bool(container.length() >= 1)
    return container.length is not None and bool(container.length() >= 1)


def _runtime(env, var) -> tuple | None:
    """An appended item as (its expression over the frame's values, for people, the
    depth of its deepest source), where the call can compute it without raising and it
    is a float: a float constant, or a changing float of the frame's sources made with
    operators that cannot raise."""
    if not isinstance(var, ConstantVariable):
        return None
    value = var.value
    if type(value) is float:
        return literal(value), literal(value), 0
    if not isinstance(value, SymFloat) or not _safe(value.sym):
        return None
    sources = [env.symbols.get(name) for name in value.sym.symbols]
    if any(s is None for s in sources):
        return None         # (an unbacked float: only the graph knows it)
    names = {name: env.symbols[name].name() for name in value.sym.symbols}
    return value.sym.runtime(), value.sym.render(names), max(s.depth() for s in sources)


def _safe(expr: Expr) -> bool:
    if expr.op in ("const", "symbol"):
        return expr.op == "symbol" or type(expr.args[0]) is float
    return expr.op in _SAFE_OPS and all(_safe(a) for a in expr.args)
