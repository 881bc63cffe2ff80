"""Symbolic sizes while tracing: ``SymInt``, affine ``Sym`` expressions, and the
decisions and pins a trace records about them (see the package docstring).

Example::

    >>> T = SymInt(5, Sym.symbol("s0", "x.shape[0]"))
    >>> (T * 2 + 1).sym.render()
    '2*s0 + 1'
"""

from __future__ import annotations

import contextlib
import math
import operator
import threading
from dataclasses import dataclass, field

from ..tree import tree_leaves, tree_map
from . import deciders

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


class Symbolic:
    """What SymInt and SymFloat (``scalars.py``) share: a Python number seen in this call
    that also carries its expression over the symbols (``.sym``)."""

    sym: object


class SymInt(int, Symbolic):
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

    def __invert__(self):   # ``~n`` is ``-n - 1``, affine (size_values.truth_number)
        return -self - 1

    # ``// k`` and ``% k`` by a constant guard their result, not the size
    def __floordiv__(self, other):
        return _quotient(operator.floordiv, self, other)

    def __mod__(self, other):
        return _quotient(operator.mod, self, other)

    def __divmod__(self, other):
        return _quotient(divmod, self, other)

    # anything else pins the size: the entry is valid for this value only
    __rfloordiv__ = _pinned(operator.floordiv, reflected=True)
    __rmod__ = _pinned(operator.mod, reflected=True)
    __truediv__ = _pinned(operator.truediv)   # (the translator makes it a SymFloat first:
    __rtruediv__ = _pinned(operator.truediv, reflected=True)   # constant.operator_on_constants)
    __pow__ = _pinned(operator.pow)
    __rpow__ = _pinned(operator.pow, reflected=True)
    __rdivmod__ = _pinned(divmod, reflected=True)
    __lshift__ = _pinned(operator.lshift)
    __rlshift__ = _pinned(operator.lshift, reflected=True)
    __rshift__ = _pinned(operator.rshift)
    __rrshift__ = _pinned(operator.rshift, reflected=True)
    __and__ = _pinned(operator.and_)
    __rand__ = _pinned(operator.and_, reflected=True)
    __or__ = _pinned(operator.or_)
    __ror__ = _pinned(operator.or_, reflected=True)
    __xor__ = _pinned(operator.xor)
    __rxor__ = _pinned(operator.xor, reflected=True)
    __float__ = _pinned(float)
    __complex__ = _pinned(complex)
    __abs__ = lambda self: self if self >= 0 else -self  # noqa: E731 (guards the sign)
    __round__ = _pinned(round)
    __trunc__ = _pinned(math.trunc)
    __floor__ = _pinned(math.floor)
    __ceil__ = _pinned(math.ceil)
    # int's methods and properties read the value too (``i.bit_length()``, ``i.real``)
    bit_length = _pinned(int.bit_length)
    bit_count = _pinned(int.bit_count)
    to_bytes = _pinned(int.to_bytes)
    as_integer_ratio = _pinned(int.as_integer_ratio)
    conjugate = _pinned(int.conjugate)
    real = property(_pinned(lambda v: v))
    numerator = property(_pinned(lambda v: v))

    # comparisons record the decision ---------------------------------------
    def _compare(self, other, op: str, result: bool) -> bool:
        diff = self.sym - as_sym(other)
        known = _decided(diff, op)   # (the same on every trip a loop node runs)
        if known is not None:
            return known
        symbols = diff.symbols
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


_QUOTIENT = {operator.floordiv: "{} // {}", operator.mod: "{} % {}",
             divmod: "divmod({}, {})"}


def _quotient(fn, size: SymInt, k):
    """``size // k``, ``size % k`` or ``divmod(size, k)`` for a constant nonzero int
    ``k``: the plain result, with the guard that the *expression* keeps this value
    (``L['step'] % 10 == 3``), not the size: a counter ``step`` then needs an entry per
    remainder (``if step % 10 == 0``) or per quotient (``gamma ** (epoch // 30)``), not
    per step. The guard cannot raise (``k`` is a nonzero constant, the size an int) and
    is Python's own ``//``/``%``, so negative and huge values divide as eagerly.

    A symbolic or zero divisor, or any other operand, pins as before::

        >>> with recording() as trace:
        ...     r = SymInt(13, Sym.symbol("s0", "L['step']")) % 10
        >>> r, trace.decisions, trace.pins
        (3, ["L['step'] % 10 == 3"], set())
    """
    if type(k) is not int or k == 0:
        return _pinned(fn)(size, k)
    result = fn(int(size), k)
    record(f"{quotient_text(fn, size, k)} == {result!r}", True, size.sym.symbols)
    return result


def quotient_text(fn, size: SymInt, k: int) -> str:
    """``L['step'] % 10`` (``fn`` a key of ``_QUOTIENT``) as a guard reads it."""
    text = size.sym.runtime()
    if size.sym.const or len(size.sym.terms) != 1 or size.sym.terms[0][1] != 1:
        text = f"({text})"      # not one symbol: ``(L['t'] + 1) % 10``
    return _QUOTIENT[fn].format(text, k)


_COMPARE_TEXT = {operator.eq: "==", operator.ne: "!=", operator.lt: "<",
                 operator.le: "<=", operator.gt: ">", operator.ge: ">="}


def quotient_compared(fn, size: SymInt, k: int, compare, other: int,
                      reflected: bool = False) -> int:
    """``size // k`` or ``size % k`` (``fn``) whose only use is the comparison that
    follows it (``if step % 3 == 0``; ``compare`` with the int constant ``other``, on
    the right, or on the left where ``reflected``): the plain result, with the guard
    that the *comparison* comes out the same (``L['step'] % 3 == 0`` or ``not (...)``),
    so one entry serves every remainder with that outcome. The caller makes sure the
    result is read by nothing else (``translator/quotients.py``).

        >>> with recording() as trace:
        ...     r = quotient_compared(operator.mod, SymInt(13, Sym.symbol("s0",
        ...                           "L['step']")), 3, operator.eq, 0)
        >>> r, trace.decisions
        (1, ["not (L['step'] % 3 == 0)"])
    """
    result = fn(int(size), k)
    outcome = compare(other, result) if reflected else compare(result, other)
    text = quotient_text(fn, size, k)
    lhs, rhs = (repr(other), text) if reflected else (text, repr(other))
    record(f"{lhs} {_COMPARE_TEXT[compare]} {rhs}", bool(outcome), size.sym.symbols)
    return result


def _sequences_only(value) -> bool:
    """``is_leaf`` for the two walks below, which look into tuples and lists only (a
    constant's items, a call's arguments): a dict or a slice is one opaque value."""
    return isinstance(value, (dict, slice))


def is_symbolic(value) -> bool:
    """Is ``value``, or an item of it (tuples and lists, nested), a SymInt?"""
    if not isinstance(value, (tuple, list)):   # the common case, asked per constant read
        return isinstance(value, Symbolic)
    return any(isinstance(v, Symbolic) for v in tree_leaves(value, _sequences_only))


def symbols_of(value) -> frozenset:
    """The symbols of the SymInts and SymFloats in ``value`` (tuples and lists, nested)."""
    return frozenset().union(*(v.sym.symbols for v in tree_leaves(value, _sequences_only)
                               if isinstance(v, Symbolic)))


# --------------------------------------------------------------------------- decisions

class Trace:
    """What one trace learned about its symbols: branch decisions, the ranges its
    fitted sizes hold in (``ranges.py``), and pinned symbols.

    ``sites`` says where each was learned (a decision's expression or a pinned symbol ->
    ``"why, at file:line: code"``), for the guards' notes and the recompile log; the
    place comes from ``locate`` (set by the ShapeEnv: the instruction being traced)."""

    def __init__(self) -> None:
        self.decisions: list[str] = []
        self.described: dict[str, str] = {}   # a decision -> what it is, where not a
        # branch on sizes (``record``'s ``what``)
        self.ranges: list[str] = []
        self.pins: set[str] = set()
        self.sites: dict[str, str] = {}
        self.locate = None   # () -> "file:line: code" of the instruction being traced
        self.unbacked: dict[str, str] = {}   # unbacked symbol -> what it is the size of
        # changing ints (``self.t``, ``step``): symbol -> (source, hint), with no range
        # guard while only their values are used (``as_size``); ``sized``: those later
        # used as sizes (guarded ``>= 2``); ``small``: those pinned at 0, 1 or below
        # (this entry only: not kept static by later compiles)
        self.numbers: dict[str, tuple[str, int]] = {}
        self.sized: set[str] = set()
        self.small: set[str] = set()
        # sizes an entry serves from 1 up, not 2 (read only where they cannot
        # broadcast: a stacked list's rows, ``variables.stacked_lists``) -> that least
        self.least: dict[str, int] = {}
        # ints the graph computes from unbacked sizes (``ui0``) -> a value they are never
        # below (``max(len(kept), 1)``: 1), so ``7 / max(n, 1)`` cannot divide by zero
        self.floors: dict[str, int] = {}
        self.static_shapes = False   # the backend takes none: ``as_size`` pins (#16)

    def note(self, key: str, why: str) -> None:
        """Remember the first place (and reason) that learned ``key``."""
        if key not in self.sites:
            where = self.locate() if self.locate is not None else ""
            self.sites[key] = f"{why}, at {where}" if where and why else why or where

    def forget_pins(self, before: set) -> None:
        """Forget the pins made since ``pins`` was ``before``: an attempt that pinned
        was given up, to be made another way (a loop node's check of an op at one
        trip, ``LoopScope._result_at``)."""
        for name in self.pins - before:
            self.sites.pop(name, None)
        self.pins &= before
        self.small &= self.pins


def is_unbacked(name: str) -> bool:
    """Is ``name`` an *unbacked* symbol (``u0``): a size an op's result has that only
    the data decides (``x[mask]``, ``np.nonzero``), known only when the graph runs?
    It has no source a guard could read and its hint is made up (see
    ``ShapeEnv.new_unbacked``), so no decision, pin or range may rest on it."""
    return name.startswith("u")


def is_unbacked_number(name: str) -> bool:
    """Is ``name`` an unbacked *number* (``uf0``: ``float(loss)`` in arithmetic, see
    ``ShapeEnv.new_unbacked_number``) rather than an unbacked size?"""
    return name.startswith("uf")


def _refuse_unbacked(trace: Trace, symbols, why: str) -> None:
    """A decision or pin on unbacked symbols: the trace cannot make it (there is no
    value to guard), so the instruction breaks the graph with this reason."""
    unbacked = sorted(s for s in symbols if is_unbacked(s))
    if not unbacked or trace is _QUIET:
        return
    from ..exc import Unsupported  # (a leaf module: no cycle)

    what = ", ".join(trace.unbacked.get(s, s) for s in unbacked)
    if all(is_unbacked_number(s) for s in unbacked):   # float(loss) * 2, not a size
        raise Unsupported(f"a Python number computed from array data ({what}) used as a "
                          f"Python value: {why}", "The number is known only when the "
                          "graph runs; the trace keeps arithmetic on it in the graph but "
                          "cannot read it.", hint="keep the value as an array (np.float64 "
                          "scalars and 0-d arrays stay in the graph), or accept the graph "
                          "break", cause="array_to_python")
    # the line that needs the value: a branch, a loop bound or a shape, which arithmetic
    # (max(n, 1), n // 2, s / n: ``variables/size_values.py``) would not need
    where = trace.locate() if trace.locate is not None else ""
    line = f"this line ({where})" if where else "this line"
    raise Unsupported(f"a data-dependent size ({what}) used as a Python value: {why}",
                      "That size is known only when the graph runs (it depends on array "
                      "values); the trace can keep it in the graph but not read it.",
                      hint=f"{line} needs the length as a number, and the length is only "
                           "known when the graph runs; arithmetic on it (x.sum() / "
                           "max(len(idx), 1), n // 2, len(idx) > 0 returned as a value) "
                           "stays in the graph. Where a loop or a shape needs the number "
                           "(for c in np.unique(y)), pass it in (n_classes) and use "
                           "np.arange(n_classes), or accept the graph break (the code "
                           "stays correct)",
                      cause="data_dependent_shape")


def record(expr: str, result: bool, symbols, what: str = "") -> None:
    """Note a branch decision on symbolic sizes; it becomes a guard of the entry.
    ``what`` describes it in the guard's note where it is not a comparison of sizes
    (``number_decisions.COMPARED``: a changing float compared with a number)."""
    trace = getattr(_local, "trace", None)
    if trace is None:
        raise Specialize(symbols, "a symbolic size compared outside a trace")
    _refuse_unbacked(trace, symbols, f"a comparison ({expr})")
    if symbols and trace is not _QUIET:
        decision = expr if result else f"not ({expr})"
        trace.decisions.append(decision)
        trace.note(decision, "")
        if what:
            trace.described.setdefault(decision, what)


def record_range(expr: str, symbols) -> None:
    """Note a bound on a symbol outside which a fitted size would be wrong
    (``x.shape[0] >= 5`` for ``x[-5:]``); it becomes a guard of the entry."""
    trace = getattr(_local, "trace", None)
    if trace is None:
        raise Specialize(symbols, "a symbolic size fitted outside a trace")
    if trace is not _QUIET:
        trace.ranges.append(expr)


def pin(symbols, why: str = "") -> None:
    """The trace used these symbols' concrete values: the entry keeps them static."""
    trace = getattr(_local, "trace", None)
    if trace is None:
        raise Specialize(symbols, why or "a symbolic size used as a plain int")
    _refuse_unbacked(trace, symbols, why or "its value was needed as a plain int")
    if trace is not _QUIET:
        trace.pins.update(symbols)
        # a changing int pinned at 0, 1 or below is so for this entry only (such ints
        # were no symbols before ``Trace.numbers``: no later compile keeps them static)
        trace.small.update(n for n in symbols
                           if n in trace.numbers and trace.numbers[n][1] < 2)
        for name in symbols:
            trace.note(name, why)


def as_size(symbols, why: str, least: int = 2) -> None:
    """The trace is about to rely on these symbols being sizes (``>= 2``, as every
    size symbol is guarded: NumPy treats 0 and 1 specially): a changing int that so
    far was only a value (``Trace.numbers``: no range guard) gets the guard ``>= 2``
    where its hint is 2 or more, and is pinned otherwise (for this entry only: a
    counter from 0 that later shapes an array still costs two recompiles, not one per
    call); for a backend of static shapes (``Trace.static_shapes``) always pinned.
    Sizes, numbers already sized or pinned, are left as they are. ``least=1`` (a slice
    bound, ``obs_buf[:size]``) sizes one at 1 too, guarded ``>= 1`` (``Trace.least``).

        >>> with recording() as trace:
        ...     trace.numbers["s0"] = ("L['t']", 1)
        ...     as_size({"s0"}, "np.zeros of a changing int")
        >>> trace.pins, trace.small, trace.sized
        ({'s0'}, {'s0'}, set())
    """
    trace = getattr(_local, "trace", None)
    if trace is None or trace is _QUIET:
        return
    for name in sorted(set(symbols) & trace.numbers.keys()):
        hint = trace.numbers[name][1]
        if name in trace.pins or (name in trace.sized and hint >= least):
            continue
        if hint >= min(least, 2) and not trace.static_shapes:
            trace.sized.add(name)
            trace.note(f"sized {name}", why)
            if hint < 2:
                trace.least[name] = hint
        else:   # (a pin outweighs ``sized``: ``ShapeEnv.add_guards``, ``bounds``)
            pin({name}, why)      # (``small``: for this entry only)


def free_numbers() -> set[str]:
    """The changing ints of this trace used only as values so far (see ``as_size``)."""
    trace = getattr(_local, "trace", None)
    if trace is None:
        return set()
    return set(trace.numbers) - trace.sized - trace.pins


def small_numbers() -> dict[str, int]:
    """The changing ints pinned as sizes at 0, 1 or below (``as_size``) -> their value."""
    trace = getattr(_local, "trace", None)
    return {} if trace is None else {n: trace.numbers[n][1] for n in trace.small}


def least_sizes() -> dict[str, int]:
    """The symbols an entry serves below 2 (``Trace.least``) -> their least value."""
    trace = getattr(_local, "trace", None)
    return {} if trace is None else dict(trace.least)


def nonnegative(name: str) -> bool:
    """Is the symbol ``name`` at least 0 for every value the entry serves? A size is
    (``>= 2``, or an unbacked count); a changing int used only as a value is where its
    hint is, with the guard ``>= 0`` recorded (``t ** 0.25``); otherwise not."""
    if name not in free_numbers():
        return True
    trace = _local.trace
    source, hint = trace.numbers[name]
    if hint < 0:
        return False
    record(f"{source} >= 0", True, {name})
    return True


def floors() -> dict[str, int]:
    """``Trace.floors`` of the running trace: ints the graph computes -> their least value."""
    trace = getattr(_local, "trace", None)
    return trace.floors if trace is not None else {}


def pinned() -> set[str]:
    trace = getattr(_local, "trace", None)
    return trace.pins if trace is not None else set()


def concrete(value):
    """``value`` with every SymInt (tuples and lists, nested) replaced by its plain int
    (the symbols are pinned)."""
    def leaf(v):
        if isinstance(v, SymInt):
            pin(v.sym.symbols, "its value was needed as a plain int")
            return int(v)
        if isinstance(v, Symbolic):   # a SymFloat
            pin(v.sym.symbols, "its value was needed as a plain float")
            return float.__float__(v)
        return v
    return tree_map(leaf, value, _sequences_only)


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


def _decided(diff: Sym, op: str) -> bool | None:
    """``diff op 0`` as ``deciders.deciding`` answers it; None: recorded as a decision."""
    trace = getattr(_local, "trace", None)
    if trace is None or trace is _QUIET or not diff.symbols:
        return None
    return deciders.answer(diff, op)


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
