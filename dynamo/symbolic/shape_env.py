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

import operator
from typing import TYPE_CHECKING

from dynamo.guards import EXPR, AsArraySource, Guard, GuardSet, ShapeSource, Source

from ..tree import tree_leaves, tree_map
from .fit import SymbolClasses, substitute, symbolic_shape, symbols_in
from .policy import DynamicPolicy
from .scalars import Expr, SymFloat, literal
from .sizes import (
    Sym,
    SymInt,
    Trace,
    as_size,
    free_numbers,
    not_recording,
    pin,
    quotient_text,
)

if TYPE_CHECKING:
    from ..ops import ArrayMeta


def _int_valued(expr: Expr) -> bool:
    """Is ``expr`` an int's value at every call, made from changing ints alone (no float
    read from the frame)? ``float(s0) + 1`` and ``2 * float(s0) - 3`` are; ``float(s0) /
    2`` and ``f0 + 1`` are not."""
    if expr.op == "int":
        return True
    if expr.op == "const":
        v = expr.args[0]
        return type(v) in (int, bool) or (type(v) is float and v.is_integer())
    if expr.op in (float, operator.add, operator.sub, operator.mul, operator.neg, abs):
        return all(_int_valued(a) for a in expr.args)
    return False


def _same_meta(op, args, kwargs, meta, checked: bool = False) -> bool:
    """The op's rule gives ``meta`` for these (probe) arguments; one that raises reads a
    value it was given, so it is not blind to it, unless the op is ``checked``
    (``_checked_when_run``) and NumPy's own check rejected the probe: ``rng.normal(0.0,
    -1.5, 6)`` raises ValueError where ``sigma`` is 1.0 gives the same draw's meta."""
    try:
        with not_recording():
            return op.meta(op, args, kwargs) == meta
    except (ValueError, OverflowError):   # (NumPy's checks of a parameter's value)
        return checked
    except Exception:  # noqa: BLE001 (a rule that rejects a value reads it)
        return False


def _checked_when_run(op) -> bool:
    """A random draw that checks its parameters' values when the graph runs and raises
    there as eagerly (``extras["raises"]``: ``scale < 0``; ``raising.py`` keeps such a
    node's raise exact): its result's shape and dtype never read a parameter's value,
    so a changing float (a decayed ``sigma``) is one of its inputs, not pinned."""
    return op.random and bool(op.extras.get("raises"))


class ShapeEnv:
    """Symbols (name -> the source they are read from), their hints (the sizes seen
    while tracing), the classes of symbols an op needed equal, and the ``Trace`` of
    decisions and pins (set by ``convert`` around the trace)."""

    def __init__(self, guards: GuardSet, dynamic: DynamicPolicy | None = None,
                 locate=None):
        self.guards = guards                       # the OutputGraph's
        self.dynamic = dynamic or DynamicPolicy()  # which input sizes are symbolic
        self.symbols: dict[str, Source] = {}       # symbol name -> ShapeSource (or arg)
        self.hints: dict[str, int] = {}            # symbol name -> its value while tracing
        self.classes = SymbolClasses()
        self.locate = locate    # () -> "file:line: code" of the instruction being traced
        self._trace: Trace | None = None
        # unbacked symbols (sizes only the data decides) -> what they are the size of;
        # their hints are in ``hints`` too (made up: see ``new_unbacked``)
        self.unbacked: dict[str, str] = {}
        # unbacked numbers (``float(loss)`` in arithmetic: ``uf0``...) -> what they are
        # (see ``new_unbacked_number``); their made-up hints are in ``hints`` too
        self.unbacked_numbers: dict[str, str] = {}
        self.raises: str | None = None   # set by ``fit``: the op may raise for a count

    @property
    def trace(self) -> Trace | None:
        return self._trace

    @trace.setter
    def trace(self, trace: Trace | None) -> None:
        """(Set by ``convert`` around the trace.) Its decisions and pins learn where
        they were made from ``locate``; for a backend of static shapes, a changing int
        it needs as a size is pinned (``sizes.as_size``)."""
        self._trace = trace
        if trace is not None:
            trace.static_shapes = self.dynamic.static_shape_ints
        if trace is not None and self.locate is not None:
            trace.locate = self.locate

    # ------------------------------------------------------------------ new symbols
    def symbolic_dims(self, meta: ArrayMeta, source: Source, value, force=(),
                      least: int = 2) -> ArrayMeta:
        """Make the dynamic dimensions of an input (and those in ``force``) symbolic
        (sizes 0 and 1 stay static: NumPy treats them specially, so an entry never
        generalizes over them; ``least=1``: size 1 too, for an input whose only reader
        cannot broadcast it, see ``variables.stacked_lists``)."""
        dims = self.dynamic.dims(source, value) if not meta.scalar else ()
        dims = sorted(set(dims) | set(force))
        shape = list(meta.shape)
        for d in dims:
            if shape[d] < least:
                continue
            shape[d] = self.new_symbol(ShapeSource(source, d), shape[d], "a dynamic size",
                                       least=least)
        return meta.with_(shape=tuple(shape)) if dims else meta

    def new_symbol(self, source: Source, value: int, what: str,
                   number: bool = False, least: int = 2) -> SymInt:
        """A symbolic int read from ``source`` (a size, or an int argument), guarded
        ``>= 2``: NumPy treats 0 and 1 specially, so those keep their own entries.

        ``number``: a changing int (``self.t += 1``) of any value, with no range guard
        while the trace uses it only as a value (arithmetic, float math, an operand of
        an elementwise op, written back or returned): a counter from 0 then compiles
        at 0 and once more at 1, and that entry serves every later count. Where the
        trace needs it as a size, ``sizes.as_size`` guards it ``>= 2`` (or pins it, at
        0, 1 or below). ``least=1``: guarded ``>= 1`` (see ``symbolic_dims``)."""
        name = self.dynamic.symbol_for(source)
        self.symbols[name] = source
        self.hints[name] = value
        if least < 2 and value >= least and self.trace is not None:
            self.trace.least[name] = least      # (bounds: not ``>= 2`` for this one)
        if number and self.trace is not None:
            self.trace.numbers[name] = (source.expr(), value)
        elif value < least:   # (no trace to tell a value from a size: this value only)
            self.guards.add(Guard(source, EXPR, f"{source.expr()} == {value}",
                                  note=f"{what} (0 and 1 are specialized)"))
        else:
            self.guards.add(Guard(source, EXPR, f"{source.expr()} >= {least}",
                                  note=f"{what} (0 and 1 are specialized)" if least == 2
                                  else f"{what} (read only where it cannot broadcast)"))
        return SymInt(value, Sym.symbol(name, source.expr()))

    def new_quotient(self, fn, size: SymInt, k: int) -> SymInt | None:
        """``size % k`` or ``size // k`` (``fn``) of a changing int (``Trace.numbers``,
        one symbol: ``self.ptr + 1``) by a nonzero int constant ``k``, as a changing
        int of its own: a symbol read from a ``FormSource`` (``((self.ptr + 1) %
        16)``), which the call computes from the frame's values with Python's own
        operator. So ``self.ptr = (self.ptr + 1) % self.max_size`` or ``buf[t % 16]``
        serve every remainder with one entry, where the plain path guards the result
        (``sizes._quotient``: an entry per remainder). Like any changing int it is
        guarded only where the trace reads it (pinned, compared, used as a size).

        None where it does not apply: a size (not a changing int) other than a list's
        length (``len(self.history) % 3``: the list is array data, its length a size,
        yet a memo keyed by that remainder needs no entry per remainder), several
        symbols, a pinned one, or a result past int64 (NumPy types it otherwise).

        Example: ``(s0 + 1) % 16`` with ``s0`` from ``L['self'].ptr`` at 15 is
        ``SymInt(0, s1)``, ``s1`` read from ``((self.ptr + 1) % 16)``."""
        from dynamo.guards import FormSource

        trace = self.trace
        if trace is None or len(size.sym.terms) != 1 or fn not in _QUOTIENT_OPS:
            return None
        (name, coeff), = size.sym.terms
        if name in trace.pins or name not in self.symbols or \
                (name not in trace.numbers and not _list_length(self.symbols[name])):
            return None
        value = fn(int(size), k)
        if not -_INT64_END <= value < _INT64_END:
            return None
        form = Sym(size.sym.terms, size.sym.const, ((name, "{}"),))
        text = quotient_text(fn, SymInt(int(size), form), k)
        source = FormSource(self.symbols[name], f"({text})")
        if fn is operator.floordiv or abs(k) > _INT64_END // 2:
            # (a remainder is smaller than ``k``; a quotient of an affine form may not
            # fit int64, as the graph types it)
            self.guards.add(Guard(source, EXPR,
                                  f"{-_INT64_END} <= {source.expr()} < {_INT64_END}",
                                  note="an int computed by the call, typed int64"))
        return self.new_symbol(source, value, "a changing int's quotient", number=True)

    def new_length(self, source: Source, value: int) -> SymInt:
        """The length of the list at ``source`` when the call starts, as a changing int
        read from ``len(...)`` (``DynamicPolicy.is_changing_length``): guarded only where
        the trace reads it (``len(memory) < 100`` guards that outcome)."""
        from dynamo.guards import FormSource

        return self.new_symbol(FormSource(source, "len({})"), value, "a list's length",
                               number=True)

    def new_unbacked(self, what: str) -> SymInt:
        """A fresh *unbacked* size (``u0``, ``u1``...): a dimension of an op's result that
        only the data decides (``x[mask]``, ``np.nonzero``, ``np.unique``), known only
        when the graph runs. It flows into later ops like any symbolic size, but it has
        no source to guard: anything that needs its value (a comparison, ``int()``,
        ``range()``) breaks the graph (``sizes.pin``), and ops must be right for every
        count from 0 up (``fit._check_unbacked``).

        Rules still run at a hint, made up here: large, odd, and different for each
        unbacked size, so two of them (or one and a static size) are never taken for
        equal by accident; the fit's perturbations then catch any op that would rely on
        that value. ``DynamicPolicy.unbacked`` False (a backend that takes static
        shapes only): the op breaks the graph, as before unbacked sizes existed."""
        if not self.dynamic.unbacked:
            from ..exc import Unsupported
            raise Unsupported(f"{what} has a data-dependent size, and this backend takes "
                              "static shapes only", cause="data_dependent_shape")
        name = f"u{len(self.unbacked)}"
        self.unbacked[name] = what
        self.hints[name] = _UNBACKED_HINT + 98 * len(self.unbacked)
        if self.trace is not None:
            self.trace.unbacked[name] = what
        return SymInt(self.hints[name], Sym.symbol(name, name))

    def new_unbacked_number(self, what: str) -> SymFloat:
        """A fresh *unbacked* Python float (``uf0``, ``uf1``...): ``float(loss)`` or
        ``x.item()`` of a 0-d array the graph computes, used in arithmetic (``loss * 2``,
        ``w - lr * float(g)``). The graph reads it when it runs (``sym_number``), so the
        expressions over it are Python's operators on the very float eager has. Like an
        unbacked size it has no value while tracing: anything that reads it (a
        comparison, ``str``, an op whose result could depend on it) pins it, and a pin
        of an unbacked symbol breaks the graph (``sizes.pin``). Its hint is made up.

            >>> env.new_unbacked_number("float() of an array, at app.py:3")
            SymFloat(0.7071..., uf0)
        """
        name = self._unbacked_number("uf", what, _UNBACKED_NUMBER_HINT)
        return SymFloat(_UNBACKED_NUMBER_HINT, Expr.symbol(name, name))

    def new_unbacked_int(self, what: str, hint: int, floor: int | None = None) -> SymInt:
        """A fresh *unbacked* Python int (``ui0``, ``ui1``...): an int the graph computes
        from unbacked sizes where the trace cannot keep it affine (``max(seg.size, 1)``,
        ``len(kept) // 2``: ``variables/size_values.py``). Like an unbacked size it has no
        value while tracing (a decision on it breaks the graph); ``hint`` is the
        expression at the sizes' made-up hints. It is kept with the unbacked numbers:
        the graph computes it (``sym_int``), nothing reads it off an array. ``floor``: a
        value it is never below, where known (``max(n, 1)``: 1; ``Trace.floors``).

            >>> env.new_unbacked_int("max() of a data-dependent size, at app.py:3", 4099)
            SymInt(4099, ui0)
        """
        name = self._unbacked_number("ui", what, hint)
        if self.trace is not None and floor is not None:
            self.trace.floors[name] = floor
        return SymInt(hint, Sym.symbol(name, name))

    def _unbacked_number(self, prefix: str, what: str, hint) -> str:
        """The name of a new unbacked number (``uf3``, ``ui4``), recorded with ``what``
        made it and its made-up ``hint``."""
        name = f"{prefix}{len(self.unbacked_numbers)}"
        self.unbacked_numbers[name] = what
        self.hints[name] = hint
        if self.trace is not None:
            self.trace.unbacked[name] = what
        return name

    def new_number(self, source: Source, value: float) -> SymFloat:
        """A float read from ``source`` whose value changed between calls: a graph input
        (no range guard: every float is one entry; pinned where the trace reads it)."""
        name = self.dynamic.symbol_for(source)
        self.symbols[name] = source
        self.hints[name] = value
        return SymFloat(value, Expr.symbol(name, source.expr()))

    # ------------------------------------------------------------------ op results
    def fit(self, op, meta_args, meta_kwargs, meta):
        """Every output dimension of an op with symbolic inputs, as an affine SymInt
        (``meta`` is the rule's answer at the hints; see ``symbolic_shape``).

        A changing float (SymFloat) passes into an elementwise op as a value: NumPy's
        promotion of a Python float does not read it (NEP 50), nor does the result's
        shape. Any other op's result might (``np.arange(0, 1, step)``): it is pinned
        unless the rule gives the same result at very different floats (``_float_blind``)."""
        meta_args, meta_kwargs = self.floats_as_sizes(op, meta_args, meta_kwargs, meta)
        self.check_floats(op, meta_args, meta_kwargs, meta)
        meta_args, meta_kwargs = self._numbers_as_values(op, meta_args, meta_kwargs, meta)
        if not symbols_in((meta_args, meta_kwargs)):
            return meta
        rule = lambda a, k: op.meta(op, a, k)  # noqa: E731
        sources = {n: s.expr() for n, s in self.symbols.items()}
        sources.update({n: n for n in self.unbacked})
        sources.update({n: n for n in self.unbacked_numbers})

        def raises(why: str) -> None:
            self.raises = f"np.{op.name} raises for some data ({why})"
        fitted = symbolic_shape(rule, meta_args, meta_kwargs, meta, self.hints, sources,
                                self.classes, self._guard_equal, raises)
        _no_computed_sizes(fitted)
        return fitted

    def check_floats(self, op, meta_args, meta_kwargs, meta) -> None:
        """Pin the changing floats (SymFloats) of an op's arguments where its result
        could depend on their values: any op but an elementwise one, unless its rule
        gives the same result at very different floats (``_float_blind``). A loop
        node's body asks it too, for floats made from the index (``LoopScope.fit``)."""
        floats = [v for v in tree_leaves((meta_args, meta_kwargs))
                  if isinstance(v, SymFloat) and not getattr(v, "sized", False)]
        if floats and op.kind != "elementwise" and \
                not self._float_blind(op, meta_args, meta_kwargs, meta):
            pin(frozenset().union(*(v.sym.symbols for v in floats)),
                f"np.{op.name} of a changing float")

    def floats_as_sizes(self, op, meta_args, meta_kwargs, meta):
        """The call with each changing float that is an int's value made from the
        frame's changing ints alone (``n + 1.0``: ``float(s0) + 1``, ``_int_valued``)
        marked ``sized``, where the op's result may read it (not elementwise, not
        ``_float_blind``): the fit then moves the ints it is made of and evaluates it at
        each move (``fit.substitute``), as it does an int size, so ``np.arange(n +
        1.0)`` has ``n + 1`` elements for every ``n`` (with ``np.arange(n)``'s guards)
        where ``check_floats`` would pin ``n``. Unchanged otherwise."""
        floats = [v for v in tree_leaves((meta_args, meta_kwargs)) if isinstance(v, SymFloat)]
        if not floats or op.kind == "elementwise" or \
                not all(_int_valued(v.sym) and v.sym.symbols <= self.symbols.keys()
                        for v in floats) or \
                self._float_blind(op, meta_args, meta_kwargs, meta):
            return meta_args, meta_kwargs

        def sized(v):
            if not isinstance(v, SymFloat):
                return v
            marked = SymFloat(float.__float__(v), v.sym, True)   # (a copy: v is shared)
            marked.sized = True
            return marked
        return tree_map(sized, (meta_args, meta_kwargs))

    def _numbers_as_values(self, op, meta_args, meta_kwargs, meta):
        """The call with its changing ints used only as values (``sizes.free_numbers``)
        taken at their hints, where they are operands of an elementwise op whose rule
        gives the same result at very different ints (0, 1, negative, past 32 bits):
        NumPy's promotion of a Python int does not read it (NEP 50), nor does the
        result's shape, so ``x * t`` or ``m / (1 - b ** t)`` serve every ``t``. Any
        other use of one makes it a size (``sizes.as_size``: guarded ``>= 2``, or
        pinned below 2), as every symbolic int was before.

        Example: ``x * t`` with ``t`` at 1 fits as ``x``'s shape, with no guard on
        ``t``; ``np.zeros(t)`` pins ``t`` at 1 (and guards it ``>= 2`` at 5)."""
        numbers = symbols_in((meta_args, meta_kwargs)) & free_numbers()
        if not numbers:
            return meta_args, meta_kwargs

        def plain(v):
            return int(v) if isinstance(v, SymInt) and v.sym.symbols & numbers else v
        if (op.kind == "elementwise" or _as_array_data(op, meta_args, meta_kwargs, numbers)) \
                and self._int_blind(op, meta_args, meta_kwargs, meta, numbers):
            return tree_map(plain, (meta_args, meta_kwargs))
        if _slice_bounds_only(op, meta_args, meta_kwargs, numbers):
            as_size(numbers, "a slice bound of a changing int", least=1)
        else:
            as_size(numbers, f"np.{op.name} of a changing int")
        return meta_args, meta_kwargs

    def _int_blind(self, op, meta_args, meta_kwargs, meta, numbers) -> bool:
        """Does the op's rule give ``meta`` with the changing ints ``numbers`` at other
        values (``_INT_PROBES``)? Only top-level operands may hold them (an int inside a
        shape is a size)."""
        from ..ops import ArrayMeta

        if any(isinstance(v, ArrayMeta) and symbols_in(v) & numbers
               for v in tree_leaves((meta_args, meta_kwargs))):
            return False
        def probed(probe):
            values = {**self.hints, **{n: probe(self.hints[n]) for n in numbers}}
            return substitute((meta_args, meta_kwargs), values)
        return all(_same_meta(op, *probed(probe), meta) for probe in _INT_PROBES)

    def _float_blind(self, op, meta_args, meta_kwargs, meta) -> bool:
        """Does the op's rule give ``meta`` with its changing floats replaced by other
        floats (negative, zero, huge, fractional)? A rule that raises for one is not."""
        def swapped(probe):
            def swap(v):
                return probe(float.__float__(v)) if isinstance(v, SymFloat) else v
            return substitute(tree_map(swap, (meta_args, meta_kwargs)), self.hints)
        checked = _checked_when_run(op)
        return all(_same_meta(op, *swapped(probe), meta, checked) for probe in _FLOAT_PROBES)

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
        # (the deepest source: a decision reads it, so it is checked after the guards
        # of its bases, ``type(self.memory) is list`` before ``len(self.memory) < 100``)
        anchor = max(self.symbols.values(), key=lambda s: s.depth())
        for expr in dict.fromkeys(trace.decisions):
            where = trace.sites.get(expr)
            what = trace.described.get(expr, "a branch on a dynamic size")
            self.guards.add(Guard(anchor, EXPR, expr,
                                  note=what + (f", at {where}" if where else "")))
        for expr in dict.fromkeys(trace.ranges):
            self.guards.add(Guard(anchor, EXPR, expr,
                                  note="the sizes an op's fitted shape holds for"))
        for name in sorted(trace.sized - self._pinned_names()):
            src = self.symbols[name]
            where = trace.sites.get(f"sized {name}")
            least = trace.least.get(name, 2)
            self.guards.add(Guard(src, EXPR, f"{src.expr()} >= {least}",
                                  note=("a dynamic int used as a size (0 and 1 are "
                                        "specialized)" if least == 2 else
                                        "a dynamic int used as a slice bound (0 is "
                                        "specialized)") + (f", {where}" if where else "")))
        for name in sorted(self._pinned_names()):
            src = self.symbols[name]
            hint = self.hints[name]
            what = "a dynamic size used as a plain int" if type(hint) is int else \
                "a changing float used as a plain value"
            self.guards.add(Guard(src, EXPR, f"{src.expr()} == {literal(hint)}",
                                  note=f"{what}: pinned{self._pin_site(name)}"))

    def _pin_site(self, name: str) -> str:
        """`` (why, at file:line: code)`` of the first pin of ``name`` (or its class)."""
        trace = self.trace
        if trace is None:
            return ""
        site = trace.sites.get(name)
        if site is None:
            rep = self.classes.find(name)
            site = next((trace.sites[s] for s in trace.pins
                         if self.classes.find(s) == rep and s in trace.sites), None)
        return f" ({site})" if site else ""

    def _pinned_names(self) -> set[str]:
        classes = self.classes
        reps = {classes.find(s) for s in (self.trace.pins if self.trace else ())}
        return {s for s in self.symbols if classes.find(s) in reps}

    def pinned_symbols(self) -> frozenset[str]:
        """The symbols this entry's guards fix to one value (``add_guards``: each gets
        ``source == value``), as ``s0``; a backend need not tell their values apart."""
        return frozenset(self._pinned_names())

    def pinned_sizes(self) -> set:
        """Sizes a later compile should keep static (they were pinned here; not a
        changing int pinned only because it was a size at 0 or 1: ``sizes.as_size``)."""
        small = self.trace.small if self.trace is not None else set()
        return {self.symbols[s] for s in self._pinned_names() - small}


_QUOTIENT_OPS = (operator.mod, operator.floordiv)
_INT64_END = 2 ** 63


def _list_length(source: Source) -> bool:
    """Is ``source`` a list's length, where the list enters as array data
    (``np.asarray(L['self'].history).shape[0]``)? Its remainder is computed by the call
    as a changing int's is (``new_quotient``)."""
    return isinstance(source, ShapeSource) and source.dim == 0 and \
        isinstance(source.base, AsArraySource)

# An unbacked number's made-up hint: no int, no simple fraction (nothing may read it)
def _no_computed_sizes(meta) -> None:
    """A result dimension that is an int the graph computes from unbacked sizes
    (``np.zeros(max(len(kept), 1))``: ``ui0``, see ``new_unbacked_int``) needs its value
    while tracing: a graph break there (``pin`` refuses unbacked symbols). Only sizes
    read off arrays (``u0``) are modelled as dimensions."""
    metas = meta if isinstance(meta, (tuple, list)) else (meta,)
    computed = {s for m in metas for d in getattr(m, "shape", ()) if isinstance(d, SymInt)
                for s in d.sym.symbols if s.startswith("ui")}
    if computed:
        pin(computed, "a shape (the length of an op's result)")


_UNBACKED_NUMBER_HINT = 0.7071067811865476
# The first unbacked size's made-up hint (then +98 each): odd, and past the sizes of
# the small arrays tests use, so that no static size equals it by accident.
_UNBACKED_HINT = 4001

# Other values a changing float could take, to see whether an op's rule reads it.
# Other values a changing int used as a value could take: 0, 1, negative, past 32 bits.
_INT_PROBES = (lambda h: 0, lambda h: 1, lambda h: -h - 3, lambda h: h + 17,
               lambda h: 2 ** 40 + 3)

_FLOAT_PROBES = (lambda h: -3.0 * h - 1.5, lambda h: 0.0, lambda h: h * 1e6 + 0.25,
                 lambda h: 1e300)


# Ops whose arguments at these positions NumPy makes arrays of (``np.asarray``): a
# Python int there is an item of the array, never a size or an axis
_ARRAY_DATA = {"array": (0,), "asarray": (0,), "concatenate": (0,), "stack": (0,),
               "hstack": (0,), "vstack": (0,), "column_stack": (0,), "append": (0, 1),
               "full": (1,), "full_like": (1,)}


def _as_array_data(op, meta_args, meta_kwargs, numbers) -> bool:
    """Are the changing ints ``numbers`` only items of the array data of the call
    (``np.concatenate([x, [next_id]])``, ``np.array([t, 2 * t])``, ``np.full(3,
    t)``)? NumPy makes an int64 array of such an int whatever its value (the entry
    serves int64 values only), so it is a value there, as an operand of an
    elementwise op is, where the op's rule gives the same result at other ints."""
    at = _ARRAY_DATA.get(op.name)
    if at is None or symbols_in(meta_kwargs) & numbers:
        return False
    return not any(symbols_in(a) & numbers for i, a in enumerate(meta_args) if i not in at)


def _slice_bounds_only(op, meta_args, meta_kwargs, numbers) -> bool:
    """Is every use of the changing ints ``numbers`` in ``x[index]`` a start or stop of
    a slice (``obs_buf[:size]``)? Such a bound may be 1: a slice does not broadcast
    it, and what the result's size then meets is fitted at other sizes too, so an op
    that would broadcast a size of 1 (or drop it: ``np.squeeze``) pins it there
    (``fit.symbolic_shape``). Any other use is a size from 2 up, as before."""
    if op.name != "getitem" or meta_kwargs or len(meta_args) != 2:
        return False
    index = meta_args[1]
    items = index if isinstance(index, tuple) else (index,)
    bounds = [(s.start, s.stop) for s in items if isinstance(s, slice)]
    rest = [meta_args[0], *[slice(None, None, s.step) if isinstance(s, slice) else s
                            for s in items]]
    return bool(symbols_in(bounds) & numbers) and not symbols_in(rest) & numbers


__all__ = ["ShapeEnv"]

