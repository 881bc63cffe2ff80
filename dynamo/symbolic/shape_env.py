"""The symbol table of one trace: which input sizes are symbols, and what was learned.

An ``OutputGraph`` owns one ``ShapeEnv`` (``output.shape_env``). It makes the dynamic
dimensions of inputs symbolic (``symbolic_dims``) and dynamic int arguments
(``new_symbol``), fits op results over the symbols (``fit``), and at the end turns what
the trace learned about them into guards (``add_guards``). It writes guards into the
graph's ``GuardSet`` but knows nothing of the graph itself: the placeholders that carry
a symbol's runtime value are the OutputGraph's (``symbol_placeholder``).

Example::

    >>> env = ShapeEnv(GuardSet(), DynamicPolicy(...))
    >>> T = env.new_symbol(ShapeSource(LocalSource("x"), 0), 5, "a dynamic size")
    >>> T, T.sym.render()
    (5, 's0')                     # and the guard L['x'].shape[0] >= 2
    >>> env.symbols, env.hints
    ({'s0': ShapeSource(...)}, {'s0': 5})
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dynamo.guards import EXPR, Guard, GuardSet, ShapeSource, Source

from .fit import SymbolClasses, symbolic_shape, symbols_in
from .policy import DynamicPolicy
from .sizes import Sym, SymInt, Trace

if TYPE_CHECKING:
    from ..ops import ArrayMeta


class ShapeEnv:
    """Symbols (name -> the source they are read from), their hints (the sizes seen
    while tracing), the classes of symbols an op needed equal, and the ``Trace`` of
    decisions and pins (set by ``convert`` around the trace)."""

    def __init__(self, guards: GuardSet, dynamic: DynamicPolicy | None = None):
        self.guards = guards                       # the OutputGraph's
        self.dynamic = dynamic or DynamicPolicy()  # which input sizes are symbolic
        self.symbols: dict[str, Source] = {}       # symbol name -> ShapeSource (or arg)
        self.hints: dict[str, int] = {}            # symbol name -> its value while tracing
        self.classes = SymbolClasses()
        self.trace: Trace | None = None

    # ------------------------------------------------------------------ new symbols
    def symbolic_dims(self, meta: ArrayMeta, source: Source, value) -> ArrayMeta:
        """Make the dynamic dimensions of an input symbolic (sizes 0 and 1 stay static:
        NumPy treats them specially, so an entry never generalizes over them)."""
        dims = self.dynamic.dims(source, value) if not meta.scalar else ()
        shape = list(meta.shape)
        for d in dims:
            if shape[d] < 2:
                continue
            shape[d] = self.new_symbol(ShapeSource(source, d), shape[d], "a dynamic size")
        return meta.with_(shape=tuple(shape)) if dims else meta

    def new_symbol(self, source: Source, value: int, what: str) -> SymInt:
        """A symbolic int read from ``source`` (a size, or an int argument), guarded
        ``>= 2``: NumPy treats 0 and 1 specially, so those keep their own entries."""
        name = self.dynamic.symbol_for(source)
        self.symbols[name] = source
        self.hints[name] = value
        self.guards.add(Guard(source, EXPR, f"{source.expr()} >= 2",
                              note=f"{what} (0 and 1 are specialized)"))
        return SymInt(value, Sym.symbol(name, source.expr()))

    # ------------------------------------------------------------------ op results
    def fit(self, op, meta_args, meta_kwargs, meta):
        """Every output dimension of an op with symbolic inputs, as an affine SymInt
        (``meta`` is the rule's answer at the hints; see ``symbolic_shape``)."""
        if not symbols_in((meta_args, meta_kwargs)):
            return meta
        rule = lambda a, k: op.meta(op, a, k)  # noqa: E731
        sources = {n: s.expr() for n, s in self.symbols.items()}
        return symbolic_shape(rule, meta_args, meta_kwargs, meta, self.hints, sources,
                              self.classes, self._guard_equal)

    def _guard_equal(self, group) -> None:
        """Sizes an op needs equal (``x + y`` with both lengths dynamic): guard it."""
        first, *rest = sorted(group)
        for other in rest:
            a, b = self.symbols[first], self.symbols[other]
            self.guards.add(Guard(b, EXPR, f"{b.expr()} == {a.expr()}",
                                  note="sizes used together"))

    # ------------------------------------------------------------------ at the end
    def add_guards(self) -> None:
        """Guards from what the trace learned: branches taken on sizes, and the sizes it
        had to use concretely (pinned: static for this entry)."""
        trace = self.trace
        if trace is None or not self.symbols:
            return
        anchor = next(iter(self.symbols.values()))
        for expr in dict.fromkeys(trace.decisions):
            self.guards.add(Guard(anchor, EXPR, expr, note="a branch on a dynamic size"))
        for expr in dict.fromkeys(trace.ranges):
            self.guards.add(Guard(anchor, EXPR, expr,
                                  note="the sizes an op's fitted shape holds for"))
        for name in sorted(self._pinned_names()):
            src = self.symbols[name]
            self.guards.add(Guard(src, EXPR, f"{src.expr()} == {self.hints[name]}",
                                  note="a dynamic size used as a plain int: pinned"))

    def _pinned_names(self) -> set[str]:
        classes = self.classes
        reps = {classes.find(s) for s in (self.trace.pins if self.trace else ())}
        return {s for s in self.symbols if classes.find(s) in reps}

    def pinned_sizes(self) -> set:
        """Sizes a later compile should keep static (they were pinned here)."""
        return {self.symbols[s] for s in self._pinned_names()}


__all__ = ["ShapeEnv"]
