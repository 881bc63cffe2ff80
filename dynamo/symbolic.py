"""Symbolic sizes: one compiled entry for every length of a dynamic dimension.

A dynamic dimension of an input is a *symbol* (``s0`` for ``L['x'].shape[0]``). While
tracing it is a ``SymInt``: an ``int`` whose value is the size seen in this call (the
*hint*) and which also carries an affine expression over symbols (``2*s0 + 1``).

- Python arithmetic on SymInts (``T * 2``, ``T - 1``) gives SymInts.
- Comparisons and truth tests give plain bools and *record a guard* (``x.shape[0] > 8``),
  so the entry is reused only where the program would branch the same way.
- Anything else that needs the concrete value (``range(T)``, ``str(T)``, ``T * T``)
  raises ``Specialize``: the trace restarts with that dimension static (documented).
- Op rules never see symbols: ``output_graph.call_op`` runs the rule at the hints and at
  perturbed values of each symbol and fits every output dimension as an affine
  function of the symbols (``symbolic_shape``).

Example::

    >>> T = SymInt(5, Sym.symbol("s0", "x.shape[0]"))
    >>> (T * 2 + 1).sym.render()
    '2*s0 + 1'
    >>> with recording() as decisions:
    ...     T > 3
    >>> decisions
    ['x.shape[0] > 3']
"""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass, field

_local = threading.local()


class Specialize(Exception):  # noqa: N818 (control flow: retrace with static sizes)
    """A symbolic size was used where only a concrete value will do."""

    def __init__(self, symbols, why: str):
        super().__init__(why)
        self.symbols, self.why = frozenset(symbols), why


class Unify(Exception):  # noqa: N818 (control flow: retrace with these sizes as one)
    """Symbols that an op needs to be equal (``x + y`` with both lengths dynamic)."""

    def __init__(self, symbols):
        super().__init__("sizes that must be equal")
        self.symbols = frozenset(symbols)


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
            raise Specialize(self.sym.symbols | other.sym.symbols,
                             "a product of two symbolic sizes")
        return SymInt(int(self) * int(other), self.sym.scale(int(other)))

    __rmul__ = __mul__

    def __neg__(self):
        return SymInt(-int(self), self.sym.scale(-1))

    def __pos__(self):
        return self

    def _specialize(self, *_args):
        raise Specialize(self.sym.symbols, "a non-affine use of a symbolic size")

    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __truediv__ = __rtruediv__ = \
        __pow__ = __rpow__ = __lshift__ = __rshift__ = __and__ = __or__ = __xor__ = \
        __divmod__ = __rdivmod__ = _specialize

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

def record(expr: str, result: bool, symbols) -> None:
    """Note a branch decision on symbolic sizes; it becomes a guard of the entry."""
    sink = getattr(_local, "sink", None)
    if sink is None:
        raise Specialize(symbols, "a symbolic size compared outside a trace")
    if not symbols:
        return
    sink.append(expr if result else f"not ({expr})")


@contextlib.contextmanager
def recording():
    """Collect decisions made while tracing (nested uses share the outer list)."""
    outer = getattr(_local, "sink", None)
    sink = outer if outer is not None else []
    _local.sink = sink
    try:
        yield sink
    finally:
        _local.sink = outer


@contextlib.contextmanager
def not_recording():
    """Evaluate rules at perturbed sizes without recording their comparisons."""
    outer = getattr(_local, "sink", None)
    _local.sink = _Discard()
    try:
        yield
    finally:
        _local.sink = outer


class _Discard(list):
    def append(self, item):  # noqa: D102
        pass


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


def _coupled(run, s: str, syms, hints) -> None:
    """Moving ``s`` alone broke the rule: if moving it with the symbols of equal size
    works, they must stay equal (``Unify``); otherwise ``s`` must stay fixed."""
    group = [t for t in syms if hints[t] == hints[s]]
    if len(group) > 1:
        try:
            run(dict(hints, **{t: hints[t] + _DELTAS[0] for t in group}))
        except Exception:  # noqa: BLE001
            pass
        else:
            raise Unify(group)
    raise Specialize([s], "an op whose shape rule holds only for this size")


def _shapes(meta) -> list[tuple]:
    return [m.shape for m in meta] if isinstance(meta, tuple) else [meta.shape]


def symbolic_shape(rule, args, kwargs, hint_meta, hints: dict[str, int], sources: dict):
    """``hint_meta`` with every output dimension rewritten as an affine SymInt.

    The rule runs again with each symbol moved by two different deltas; a dimension
    that moves linearly with a symbol gets that coefficient. A symbol whose move makes
    the rule fail, or moves a dimension non-linearly, raises ``Specialize``.
    """
    syms = sorted(symbols_in((args, kwargs)))
    base = [tuple(int(d) for d in shape) for shape in _shapes(hint_meta)]
    coeffs = [[{} for _ in shape] for shape in base]

    def run(values):
        with not_recording():
            return _shapes(rule(substitute(args, values), substitute(kwargs, values)))

    for s in syms:
        moved = []
        for delta in _DELTAS:
            values = dict(hints, **{s: hints[s] + delta})
            try:
                moved.append(run(values))
            except Exception:  # noqa: BLE001 (the rule only holds for this size)
                _coupled(run, s, syms, hints)
        for k, shape in enumerate(base):
            if len(moved[0][k]) != len(shape):
                raise Specialize([s], "an op whose result rank depends on a size")
            for d, y0 in enumerate(shape):
                d1, d2 = moved[0][k][d] - y0, moved[1][k][d] - y0
                if d1 * _DELTAS[1] != d2 * _DELTAS[0] or d1 % _DELTAS[0]:
                    raise Specialize([s], "a size that is not an affine function of "
                                          "the symbolic sizes")
                if d1:
                    coeffs[k][d][s] = d1 // _DELTAS[0]
    # all symbols moved together must agree with the fitted expressions
    joint = {s: hints[s] + _DELTAS[0] for s in syms}
    try:
        together = run(dict(hints, **joint))
    except Exception:  # noqa: BLE001
        raise Specialize(syms, "sizes that must move together") from None
    out = []
    for k, shape in enumerate(base):
        dims = []
        for d, y0 in enumerate(shape):
            c = coeffs[k][d]
            if together[k][d] != y0 + sum(a * _DELTAS[0] for a in c.values()):
                raise Specialize(syms, "a size that depends on a product of sizes")
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
    dimensions a trace had to specialize; ``groups`` dimensions that must stay equal.
    """

    def __init__(self, mode: bool | None = None, previous: dict | None = None):
        self.mode = mode
        self.previous = previous or {}
        self.static: set = set()
        self.groups: list[set] = []
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
        for group in self.groups:
            if dim_source in group:
                key = min(group, key=lambda s: s.name())
                break
        else:
            key = dim_source
        if key not in self._names:
            self._names[key] = f"s{len(self._names)}"
        return self._names[key]

    def new_trace(self) -> None:
        self._names = {}
