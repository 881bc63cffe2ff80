"""Symbolic sizes: one compiled entry for every length of a dynamic dimension.

A dynamic dimension of an input is a *symbol* (``s0`` for ``L['x'].shape[0]``). While
tracing it is a ``SymInt``: an ``int`` whose value is the size seen in this call (the
*hint*) and which also carries an affine expression over symbols (``2*s0 + 1``).

- Python arithmetic on SymInts (``T * 2``, ``T - 1``) gives SymInts.
- Comparisons and truth tests give plain bools and *record a guard* (``x.shape[0] > 8``),
  so the entry is reused only where the program would branch the same way.
- Anything else that needs the concrete value (``range(T)``, ``str(T)``, ``T * T``)
  *pins* the symbol: the trace goes on with the concrete value and the entry gets the
  guard ``x.shape[0] == 5``, so that dimension is static for this entry (documented).
- Op rules never see symbols: ``output_graph.call_op`` runs the rule at the hints and at
  perturbed values of each symbol and fits every output dimension as an affine
  function of the symbols (``symbolic_shape``).

Example::

    >>> T = SymInt(5, Sym.symbol("s0", "x.shape[0]"))
    >>> (T * 2 + 1).sym.render()
    '2*s0 + 1'
    >>> with recording() as trace:
    ...     T > 3
    >>> trace.decisions
    ['x.shape[0] > 3']
"""

from __future__ import annotations

import contextlib
import operator
import threading
from dataclasses import dataclass, field

_local = threading.local()


class Specialize(Exception):  # noqa: N818
    """A symbolic size needed as a concrete value outside a trace (a backend bug)."""

    def __init__(self, symbols, why: str):
        super().__init__(why)
        self.symbols, self.why = frozenset(symbols), why


@dataclass(frozen=True)
class Sym:
    """An affine expression: sum of coefficient * symbol, plus a constant."""

    terms: tuple = ()            # ((name, coeff), ...) sorted by name, coeff != 0
    const: int = 0
    sources: tuple = field(default=(), compare=False)   # ((name, runtime expr), ...)

    @staticmethod
    def symbol(name: str, expr: str) -> Sym:
        return Sym(((name, 1),), 0, ((name, expr),))

    @property
    def symbols(self) -> frozenset:
        return frozenset(n for n, _ in self.terms)

    def is_constant(self) -> bool:
        return not self.terms

    def _combine(self, other: Sym, sign: int) -> Sym:
        coeffs = dict(self.terms)
        for n, c in other.terms:
            coeffs[n] = coeffs.get(n, 0) + sign * c
        terms = tuple(sorted((n, c) for n, c in coeffs.items() if c))
        srcs = dict(self.sources)
        srcs.update(other.sources)
        return Sym(terms, self.const + sign * other.const, tuple(sorted(srcs.items())))

    def __add__(self, other: Sym) -> Sym:
        return self._combine(other, 1)

    def __sub__(self, other: Sym) -> Sym:
        return self._combine(other, -1)

    def scale(self, k: int) -> Sym:
        return Sym(tuple((n, c * k) for n, c in self.terms if c * k), self.const * k,
                   self.sources)

    def evaluate(self, values: dict[str, int]) -> int:
        return self.const + sum(c * values[n] for n, c in self.terms)

    def render(self, names: dict[str, str] | None = None) -> str:
        """As Python: ``2*s0 + 1``; ``names`` maps symbols to other expressions."""
        parts = []
        for n, c in self.terms:
            ref = (names or {}).get(n, n)
            if c != 1 and not ref.replace(".", "").replace("_", "").isalnum():
                ref = f"({ref})"   # x.shape[0] -> 2*(x.shape[0])
            parts.append(ref if c == 1 else f"-{ref}" if c == -1 else f"{c}*{ref}")
        if self.const or not parts:
            parts.append(str(self.const))
        text = " + ".join(parts).replace("+ -", "- ")
        return text

    def runtime(self) -> str:
        """As an expression over the frame's values (``x.shape[0] * 2 + 1``)."""
        return self.render(dict(self.sources))


def as_sym(value) -> Sym:
    if isinstance(value, SymInt):
        return value.sym
    return Sym((), int(value))


def _pinned(fn, reflected: bool = False):
    """A SymInt method that needs the concrete value: pin the symbols, compute plainly."""
    def method(self, *args):
        pin(self.sym.symbols | symbols_of(args), f"{fn.__name__} of a size")
        plain = [concrete(a) for a in args]
        return fn(*plain, int(self)) if reflected else fn(int(self), *plain)
    method.__name__ = fn.__name__
    return method


class SymInt(int):
    """An int that is also an affine expression over symbolic sizes."""

    sym: Sym

    def __new__(cls, hint: int, sym: Sym):
        if sym.is_constant():
            return int(sym.const)  # type: ignore[return-value]
        self = super().__new__(cls, hint)
        self.sym = sym
        return self

    def __repr__(self) -> str:
        return f"SymInt({int(self)}, {self.sym.render()})"

    # arithmetic that stays affine -------------------------------------------
    def __add__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        return SymInt(int(self) + int(other), self.sym + as_sym(other))

    __radd__ = __add__

    def __sub__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        return SymInt(int(self) - int(other), self.sym - as_sym(other))

    def __rsub__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        return SymInt(int(other) - int(self), as_sym(other) - self.sym)

    def __mul__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        if isinstance(other, SymInt):
            pin(self.sym.symbols | other.sym.symbols, "a product of two sizes")
            return int(self) * int(other)
        return SymInt(int(self) * int(other), self.sym.scale(int(other)))

    __rmul__ = __mul__

    def __neg__(self):
        return SymInt(-int(self), self.sym.scale(-1))

    def __pos__(self):
        return self

    # anything else pins the size: the entry is valid for this value only
    __floordiv__ = _pinned(operator.floordiv)
    __rfloordiv__ = _pinned(operator.floordiv, reflected=True)
    __mod__ = _pinned(operator.mod)
    __rmod__ = _pinned(operator.mod, reflected=True)
    __truediv__ = _pinned(operator.truediv)
    __rtruediv__ = _pinned(operator.truediv, reflected=True)
    __pow__ = _pinned(operator.pow)
    __rpow__ = _pinned(operator.pow, reflected=True)
    __divmod__ = _pinned(divmod)
    __rdivmod__ = _pinned(divmod, reflected=True)
    __lshift__ = _pinned(operator.lshift)
    __rshift__ = _pinned(operator.rshift)
    __and__ = _pinned(operator.and_)
    __or__ = _pinned(operator.or_)
    __xor__ = _pinned(operator.xor)
    __float__ = _pinned(float)
    __abs__ = _pinned(abs)

    # comparisons record the decision ---------------------------------------
    def _compare(self, other, op: str, result: bool) -> bool:
        symbols = (self.sym - as_sym(other)).symbols
        rhs = other.sym.runtime() if isinstance(other, SymInt) else str(int(other))
        record(f"{self.sym.runtime()} {op} {rhs}", result, symbols)
        return result

    def __eq__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        return self._compare(other, "==", int(self) == int(other))

    def __ne__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        return self._compare(other, "!=", int(self) != int(other))

    def __lt__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        return self._compare(other, "<", int(self) < int(other))

    def __le__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        return self._compare(other, "<=", int(self) <= int(other))

    def __gt__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        return self._compare(other, ">", int(self) > int(other))

    def __ge__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        return self._compare(other, ">=", int(self) >= int(other))

    def __bool__(self):
        return self._compare(0, "!=", int(self) != 0)

    def __hash__(self):
        return int.__hash__(self)


def is_symbolic(value) -> bool:
    if isinstance(value, SymInt):
        return True
    if isinstance(value, (tuple, list)):
        return any(is_symbolic(v) for v in value)
    return False


def symbols_of(value) -> frozenset:
    if isinstance(value, SymInt):
        return value.sym.symbols
    if isinstance(value, (tuple, list)):
        return frozenset().union(*(symbols_of(v) for v in value)) if value else frozenset()
    return frozenset()


# --------------------------------------------------------------------------- decisions

class Trace:
    """What one trace learned about its symbols: branch decisions and pinned symbols."""

    def __init__(self) -> None:
        self.decisions: list[str] = []
        self.pins: set[str] = set()


def record(expr: str, result: bool, symbols) -> None:
    """Note a branch decision on symbolic sizes; it becomes a guard of the entry."""
    trace = getattr(_local, "trace", None)
    if trace is None:
        raise Specialize(symbols, "a symbolic size compared outside a trace")
    if symbols and trace is not _QUIET:
        trace.decisions.append(expr if result else f"not ({expr})")


def pin(symbols, why: str = "") -> None:
    """The trace used these symbols' concrete values: the entry keeps them static."""
    trace = getattr(_local, "trace", None)
    if trace is None:
        raise Specialize(symbols, why or "a symbolic size used as a plain int")
    if trace is not _QUIET:
        trace.pins.update(symbols)


def pinned() -> set[str]:
    trace = getattr(_local, "trace", None)
    return trace.pins if trace is not None else set()


def concrete(value):
    """``value`` with every SymInt replaced by its plain int (the symbols are pinned)."""
    if isinstance(value, SymInt):
        pin(value.sym.symbols)
        return int(value)
    if isinstance(value, tuple):
        return tuple(concrete(v) for v in value)
    if isinstance(value, list):
        return [concrete(v) for v in value]
    return value


@contextlib.contextmanager
def recording():
    """Collect what a trace learns about symbols (nested uses share the outer one)."""
    outer = getattr(_local, "trace", None)
    trace = outer if outer is not None and outer is not _QUIET else Trace()
    _local.trace = trace
    try:
        yield trace
    finally:
        _local.trace = outer


@contextlib.contextmanager
def not_recording():
    """Evaluate rules at perturbed sizes without recording their comparisons."""
    outer = getattr(_local, "trace", None)
    _local.trace = _QUIET
    try:
        yield
    finally:
        _local.trace = outer


_QUIET = Trace()


# --------------------------------------------------------------------------- fitting shapes

_DELTAS = (17, 42)   # perturbations: small (rules may allocate ghosts), not multiples


def substitute(value, values: dict[str, int]):
    """Replace every SymInt (inside tuples, lists, dicts, slices and ArrayMetas) by its
    value at ``values``."""
    from .ops import ArrayMeta

    if isinstance(value, SymInt):
        return value.sym.evaluate(values) if values else int(value)
    if isinstance(value, ArrayMeta):
        return value.with_(shape=tuple(substitute(d, values) for d in value.shape))
    if isinstance(value, tuple):
        return tuple(substitute(v, values) for v in value)
    if isinstance(value, list):
        return [substitute(v, values) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, values) for k, v in value.items()}
    if isinstance(value, slice):
        return slice(*(substitute(v, values) for v in (value.start, value.stop, value.step)))
    return value


def symbols_in(value) -> frozenset:
    from .ops import ArrayMeta

    if isinstance(value, SymInt):
        return value.sym.symbols
    if isinstance(value, ArrayMeta):
        return symbols_in(value.shape)
    if isinstance(value, (tuple, list)):
        return frozenset().union(*map(symbols_in, value)) if value else frozenset()
    if isinstance(value, dict):
        return symbols_in(tuple(value.values()))
    if isinstance(value, slice):
        return symbols_in((value.start, value.stop, value.step))
    return frozenset()


def _shapes(meta) -> list[tuple]:
    return [m.shape for m in meta] if isinstance(meta, tuple) else [meta.shape]


class SymbolClasses:
    """Symbols known to be equal (union-find): ``x + y`` with both lengths dynamic makes
    their symbols one class, guarded equal."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, s: str) -> str:
        while self.parent.get(s, s) != s:
            s = self.parent[s]
        return s

    def merge(self, group) -> None:
        reps = sorted({self.find(s) for s in group})
        for r in reps[1:]:
            self.parent[r] = reps[0]


class _Coupled(Exception):  # noqa: N818
    def __init__(self, group):
        super().__init__("sizes that must be equal")
        self.group = group


def symbolic_shape(rule, args, kwargs, hint_meta, hints: dict[str, int], sources: dict,
                   classes: SymbolClasses, on_unify):
    """``hint_meta`` with every output dimension rewritten as an affine SymInt.

    The rule runs again with each symbol (each class of equal symbols) moved by two
    different deltas; a dimension that moves linearly with it gets that coefficient.
    When an op is valid only if two symbols are equal, they are merged into one class
    (``on_unify`` records the equality guard). A symbol whose move breaks the rule on
    its own, or moves a dimension non-linearly, is pinned (static for this entry). Each
    of those changes starts the fit over; there are at most as many as symbols.
    """
    for _ in range(2 * len(hints) + 2):
        try:
            return _fit(rule, args, kwargs, hint_meta, hints, sources, classes)
        except _Coupled as c:
            classes.merge(c.group)
            on_unify(c.group)
        except _Pin as p:
            pin({s for s in hints if classes.find(s) in p.reps}, p.why)
    raise AssertionError("symbolic_shape did not converge")


class _Pin(Exception):  # noqa: N818
    def __init__(self, reps, why: str):
        super().__init__(why)
        self.reps, self.why = set(reps), why


def _fit(rule, args, kwargs, hint_meta, hints, sources, classes):
    fixed = {classes.find(s) for s in pinned()}
    reps = sorted({classes.find(s) for s in symbols_in((args, kwargs))} - fixed)
    base = [tuple(int(d) for d in shape) for shape in _shapes(hint_meta)]
    coeffs = [[{} for _ in shape] for shape in base]

    def values(moves: dict[str, int]) -> dict[str, int]:
        return {s: h + moves.get(classes.find(s), 0) for s, h in hints.items()}

    def run(moves):
        v = values(moves)
        with not_recording():
            return _shapes(rule(substitute(args, v), substitute(kwargs, v)))

    for r in reps:
        moved = []
        for delta in _DELTAS:
            try:
                moved.append(run({r: delta}))
            except Exception:  # noqa: BLE001 (the rule only holds for this size)
                group = [t for t in reps if hints[t] == hints[r]]
                if len(group) > 1:
                    try:
                        run({t: delta for t in group})
                    except Exception:  # noqa: BLE001
                        pass
                    else:
                        raise _Coupled(group) from None
                raise _Pin([r], "an op whose shape rule holds only for this size") from None
        for k, shape in enumerate(base):
            if len(moved[0][k]) != len(shape):
                raise _Pin([r], "an op whose result rank depends on a size")
            for d, y0 in enumerate(shape):
                d1, d2 = moved[0][k][d] - y0, moved[1][k][d] - y0
                if d1 * _DELTAS[1] != d2 * _DELTAS[0] or d1 % _DELTAS[0]:
                    raise _Pin([r], "a size that is not an affine function of sizes")
                if d1:
                    coeffs[k][d][r] = d1 // _DELTAS[0]
    # all symbols moved together must agree with the fitted expressions
    try:
        together = run({r: _DELTAS[0] for r in reps}) if reps else base
    except Exception:  # noqa: BLE001
        raise _Pin(reps, "sizes that must move together") from None
    out = []
    for k, shape in enumerate(base):
        dims = []
        for d, y0 in enumerate(shape):
            c = coeffs[k][d]
            if together[k][d] != y0 + sum(a * _DELTAS[0] for a in c.values()):
                raise _Pin(reps, "a size that depends on a product of sizes")
            if not c:
                dims.append(y0)
                continue
            const = y0 - sum(a * hints[n] for n, a in c.items())
            terms = tuple(sorted((n, a) for n, a in c.items()))
            srcs = tuple(sorted((n, sources[n]) for n in c))
            dims.append(SymInt(y0, Sym(terms, const, srcs)))
        out.append(tuple(dims))
    if isinstance(hint_meta, tuple):
        return tuple(m.with_(shape=shp) for m, shp in zip(hint_meta, out))
    return hint_meta.with_(shape=out[0])


# --------------------------------------------------------------------------- graph arguments

class SymArg:
    """A symbolic size as a graph argument: an expression over symbol placeholders.

    It prints as Python (``2*s0 + 1``) in the graph's code; ``nodes`` are the
    placeholders it reads, so passes see the dependency.
    """

    def __init__(self, sym: Sym, nodes: dict):
        self.sym, self.nodes = sym, dict(nodes)   # symbol -> placeholder Node

    def graph_expr(self) -> str:
        return self.sym.render({n: node.name for n, node in self.nodes.items()})

    def map_nodes(self, fn) -> SymArg:
        return SymArg(self.sym, {n: fn(node) for n, node in self.nodes.items()})

    def __repr__(self) -> str:
        return self.graph_expr()


# --------------------------------------------------------------------------- which sizes

_marked: dict[int, tuple] = {}   # id(array) -> (weakref, dims) for mark_dynamic


def mark_dynamic(array, dim: int) -> None:
    """Make dimension ``dim`` of ``array`` symbolic the first time it is traced."""
    import weakref

    ndim = getattr(array, "ndim", None)
    if ndim is None:
        raise TypeError(f"mark_dynamic expects an array, got {type(array).__name__}")
    if not -ndim <= dim < ndim:
        raise IndexError(f"dimension {dim} out of range for an array of {ndim} dimensions")
    key = id(array)
    entry = _marked.get(key)
    dims = set(entry[1]) if entry is not None and entry[0]() is array else set()
    dims.add(dim % ndim)
    ref = weakref.ref(array, lambda _r, key=key: _marked.pop(key, None))
    _marked[key] = (ref, frozenset(dims))


def marked_dims(array) -> frozenset:
    entry = _marked.get(id(array))
    return entry[1] if entry is not None and entry[0]() is array else frozenset()


class DynamicPolicy:
    """Which input dimensions a trace makes symbolic.

    ``mode``: True (every dimension), False (none), None (automatic: a dimension whose
    size differed from an earlier entry's, or that ``mark_dynamic`` named).
    ``previous`` maps sources to the ArraySpecs earlier entries guarded; ``static`` holds
    dimensions a trace had to specialize.
    """

    def __init__(self, mode: bool | None = None, previous: dict | None = None):
        self.mode = mode
        self.previous = previous or {}
        self.static: set = set()
        self._names: dict = {}

    def dims(self, source, value) -> list[int]:
        from guards import ShapeSource

        if self.mode is False:
            return []
        ndim = value.ndim
        if self.mode is True:
            dims = set(range(ndim))
        else:
            dims = set(marked_dims(value))
            for spec in self.previous.get(source, ()):
                if spec.cls is type(value) and spec.dtype == value.dtype and \
                        len(spec.shape) == ndim:
                    dims |= {d for d, want in enumerate(spec.shape)
                             if want is None or want != value.shape[d]}
        return sorted(d for d in dims if ShapeSource(source, d) not in self.static)

    def symbol_for(self, dim_source) -> str:
        if dim_source not in self._names:
            self._names[dim_source] = f"s{len(self._names)}"
        return self._names[dim_source]

    def new_trace(self) -> None:
        self._names = {}
