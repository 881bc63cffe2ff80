"""Fitting op results to affine functions of the symbolic sizes, by perturbation.

Op rules only ever see plain ints. ``symbolic_shape`` runs a rule at the hints and
again with each symbol moved by two different deltas, and reads every output
dimension's coefficients off the differences. Sizes clamp (``x[-5:]`` has
``min(n, 5)`` elements), so the fit then finds the range of each symbol in which the
fitted sizes are the rule's answer and guards the entry to it (``ranges``).

Example::

    >>> symbolic_shape(rule, (meta_T_by_4,), {}, hint_meta, {"s0": 5}, {...}, classes, print)
    ArrayMeta(shape=(SymInt(5, s0), 4), ...)
"""

from __future__ import annotations

from ..tree import tree_leaves, tree_map
from . import ranges
from .scalars import SymFloat
from .sizes import Sym, SymInt, is_unbacked, not_recording, pin, pinned, record_range

_DELTAS = (17, 42)   # perturbations: small (rules may allocate ghosts), not multiples


def substitute(value, values: dict[str, int]):
    """Replace every SymInt (inside tuples, lists, dicts, slices and ArrayMetas) by its
    value at ``values``."""
    from ..ops import ArrayMeta

    def leaf(v):
        if isinstance(v, SymInt):
            return v.sym.evaluate(values) if values else int(v)
        if isinstance(v, SymFloat):   # a rule sees a plain Python float (weak, NEP 50)
            if values and getattr(v, "sized", False):   # (an int's float, as a size)
                return v.sym.evaluate(values)
            return float.__float__(v)
        if isinstance(v, ArrayMeta):   # (itself where static: a rule may tell two
            # arguments apart by identity, ``data_sizes.valued_shape``)
            if not any(isinstance(d, SymInt) for d in v.shape):
                return v
            return v.with_(shape=tuple(leaf(d) for d in v.shape))
        return v
    return tree_map(leaf, value)


def symbols_in(value) -> frozenset:
    """The symbols of every SymInt inside ``value`` (and inside its ArrayMetas' shapes)."""
    from ..ops import ArrayMeta

    found: set[str] = set()
    for leaf in tree_leaves(value):
        for d in leaf.shape if isinstance(leaf, ArrayMeta) else (leaf,):
            if isinstance(d, SymInt) or getattr(d, "sized", False):
                found |= d.sym.symbols   # (a SymFloat ``sized``: ShapeEnv.floats_as_sizes)
    return frozenset(found)


def _metas(meta) -> list:
    """An op's result metas as a list (it may return one, a tuple, or a list)."""
    return list(meta) if isinstance(meta, (tuple, list)) else [meta]


def _shapes(meta) -> list[tuple]:
    return [m.shape for m in _metas(meta)]


def described(meta) -> list[tuple]:
    """What a result must keep across the sizes an entry serves (or the trips of a
    loop node): per output, its shape, dtype and whether it is a NumPy scalar."""
    return [(tuple(m.shape), m.dtype, m.scalar) for m in _metas(meta)]


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
                   classes: SymbolClasses, on_unify, on_raises=None):
    """``hint_meta`` with every output dimension rewritten as an affine SymInt.

    The rule runs again with each symbol (each class of equal symbols) moved by two
    different deltas; a dimension that moves linearly with it gets that coefficient.
    When an op is valid only if two symbols are equal, they are merged into one class
    (``on_unify`` records the equality guard). A symbol whose move breaks the rule on
    its own, or moves a dimension non-linearly, is pinned (static for this entry). Each
    of those changes starts the fit over; there are at most as many as symbols.

    An unbacked symbol (a size only the data decides) cannot be pinned or guarded equal
    to another: ``pin`` raises ``Unsupported`` for it, and the op breaks the graph. Its
    fit must hold for every count from 0 up; ``on_raises(why)`` is told when the rule
    raises for some counts (NumPy raises there when the graph runs).
    """
    for _ in range(2 * len(hints) + 2):
        try:
            return _fit(rule, args, kwargs, hint_meta, hints, sources, classes, on_raises)
        except _Coupled as c:
            if any(is_unbacked(s) for s in c.group):
                pin(set(c.group), "an op needs it equal to another size")
            classes.merge(c.group)
            on_unify(c.group)
        except _Pin as p:
            pin({s for s in hints if classes.find(s) in p.reps}, p.why)
    raise AssertionError("symbolic_shape did not converge")


class _Pin(Exception):  # noqa: N818
    def __init__(self, reps, why: str):
        super().__init__(why)
        self.reps, self.why = set(reps), why


def _fit(rule, args, kwargs, hint_meta, hints, sources, classes, on_raises=None):
    fixed = {classes.find(s) for s in pinned()}
    reps = sorted({classes.find(s) for s in symbols_in((args, kwargs))} - fixed)
    base = [tuple(int(d) for d in shape) for shape in _shapes(hint_meta)]
    coeffs = [[{} for _ in shape] for shape in base]

    def values(moves: dict[str, int]) -> dict[str, int]:
        return {s: h + moves.get(classes.find(s), 0) for s, h in hints.items()}

    def evaluate(v: dict[str, int]) -> list[tuple]:
        with not_recording():
            return described(rule(substitute(args, v), substitute(kwargs, v)))

    def run(moves):
        return [shape for shape, _, _ in evaluate(values(moves))]

    steps = {}   # rep -> the first delta of the pair it was fitted with
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
        found = _slopes(base, moved, _DELTAS)
        if found is None:
            found = _near_slopes(run, r, base)
        if found is None:
            raise _Pin([r], "a size that is not an affine function of sizes")
        steps[r] = found[0]
        for (k, d), a in found[1].items():
            coeffs[k][d][r] = a
    # all symbols moved together must agree with the fitted expressions
    try:
        together = run({r: steps[r] for r in reps}) if reps else base
    except Exception:  # noqa: BLE001
        raise _Pin(reps, "sizes that must move together") from None
    out = []
    for k, shape in enumerate(base):
        dims = []
        for d, y0 in enumerate(shape):
            c = coeffs[k][d]
            if together[k][d] != y0 + sum(a * steps[n] for n, a in c.items()):
                raise _Pin(reps, "a size that depends on a product of sizes")
            if not c:
                dims.append(y0)
                continue
            const = y0 - sum(a * hints[n] for n, a in c.items())
            terms = tuple(sorted((n, a) for n, a in c.items()))
            srcs = tuple(sorted((n, sources[n]) for n in c))
            dims.append(SymInt(y0, Sym(terms, const, srcs)))
        out.append(tuple(dims))
    fitted = [m.with_(shape=shp) for m, shp in zip(_metas(hint_meta), out)]
    # unbacked sizes first: an op they break must not leave range guards behind that
    # were found with their made-up hints
    for r in reps:
        if is_unbacked(r):
            _check_unbacked(evaluate, fitted, (args, kwargs), r, hints, classes, on_raises)
    backed = [r for r in reps if not is_unbacked(r)]
    _guard_ranges(evaluate, fitted, (args, kwargs), backed, hints, sources, classes)
    if isinstance(hint_meta, list):   # np.split
        return fitted
    return tuple(fitted) if isinstance(hint_meta, tuple) else fitted[0]


def _slopes(base: list, moved: list, deltas: tuple) -> tuple | None:
    """``(deltas[0], {(output, dim): coefficient})`` where every dimension of ``base``
    moved linearly by ``moved`` (the shapes at the two ``deltas``), else None."""
    found = {}
    for k, shape in enumerate(base):
        for d, y0 in enumerate(shape):
            d1, d2 = moved[0][k][d] - y0, moved[1][k][d] - y0
            if d1 * deltas[1] != d2 * deltas[0] or d1 % deltas[0]:
                return None
            if d1:
                found[(k, d)] = d1 // deltas[0]
    return deltas[0], found


# Smaller moves, up then down, for a size that is affine only near the hint: a slice
# bound below a static length (``buf[:size]`` of a 16-row buffer at size 3 is ``size``
# up to 16, and 3 + 17 is past it). ``_guard_ranges`` then finds and guards the range.
_NEAR_DELTAS = ((3, 7), (-3, -7), (1, 2), (-1, -2))


def _near_slopes(run, r: str, base: list) -> tuple | None:
    """``_slopes`` with ``r`` moved by the first pair of ``_NEAR_DELTAS`` whose moves
    the rule takes and that gives affine sizes, or None."""
    for deltas in _NEAR_DELTAS:
        try:
            moved = [run({r: delta}) for delta in deltas]
        except Exception:  # noqa: BLE001 (the rule does not take that size)
            continue
        if any(len(m[k]) != len(shape) for m in moved for k, shape in enumerate(base)):
            continue
        found = _slopes(base, moved, deltas)
        if found is not None:
            return found
    return None


def _guard_ranges(evaluate, fitted: list, call, reps, hints, sources, classes) -> None:
    """Guard every symbol to the interval on which ``fitted`` is the rule's answer
    (``ranges``): ``x[-5:]`` fitted as 5 holds for ``x.shape[0] >= 5``. A symbol whose
    interval depends on another symbol's value is pinned (``_Pin``)."""
    def expected(v: dict[str, int]) -> list[tuple]:
        return described(substitute(fitted, v))

    def agrees(assigned: dict[str, int]) -> bool:
        v = {s: assigned.get(classes.find(s), h) for s, h in hints.items()}
        try:
            return evaluate(v) == expected(v)
        except Exception:  # noqa: BLE001 (the rule raises there: NumPy would too)
            return False

    def interval_of(r: str, others: dict[str, int]) -> tuple | None:
        if not agrees({**others, r: hints[r]}):
            return None
        at = {s: others.get(classes.find(s), h) for s, h in hints.items()}
        points = ranges.thresholds(ranges.forms_of(call, r, classes.find, at))
        return ranges.interval(lambda x: agrees({**others, r: x}), hints[r], points)

    found = {r: interval_of(r, {}) for r in reps}
    for r in reps:
        for t in reps:
            if t == r:
                continue
            lo, hi = found[t]
            for value in (lo, hints[t] + _DELTAS[1] if hi is None else hi):
                if interval_of(r, {t: value}) != found[r]:
                    raise _Pin([r], "a size valid only in a relation between sizes")
    for r, (lo, hi) in found.items():
        if lo > ranges.LOWEST:
            record_range(f"{sources[r]} >= {lo}", {r})
        if hi is not None:
            record_range(f"{sources[r]} <= {hi}", {r})


_SMALL_COUNTS = (0, 1, 2, 3)   # counts where NumPy's answers differ most often


def _check_unbacked(evaluate, fitted: list, call, r: str, hints, classes, on_raises) -> None:
    """An unbacked size may be any count from 0 up, and no guard can narrow it: the
    fitted result must be the rule's answer at every count where the rule gives one
    (``x[m] + 1`` is ``(u,)`` for every ``u``; ``x[m] + y`` with a static ``(5,)``
    ``y`` is ``(5,)`` at ``u = 1``: that op breaks, ``_Pin``). Where the rule raises,
    NumPy raises too when the graph runs (``x[m].max()`` of an empty selection):
    ``on_raises`` is told, so the graph is run where such an exception stays exact.
    A rule that cannot describe a count (``MetaError``) breaks as a disagreement.

    The counts sampled are 0 to 3, the thresholds of ``ranges`` (where the op's size
    may change its affine piece) and three past them."""
    from ..ops import MetaError

    def expected(v: dict[str, int]) -> list[tuple]:
        return described(substitute(fitted, v))

    at = {s: h for s, h in hints.items() if classes.find(s) != r}
    points = ranges.thresholds(ranges.forms_of(call, r, classes.find, at))
    top = max(points | {hints[r]})
    raised = None
    for count in sorted({v for v in points if v >= 0} | set(_SMALL_COUNTS) |
                        {top + t for t in ranges._TAIL}):
        values = {s: count if classes.find(s) == r else h for s, h in hints.items()}
        try:
            got = evaluate(values)
        except MetaError:
            raise _Pin([r], "an op that cannot describe every count") from None
        except Exception as e:  # noqa: BLE001 (NumPy raises at this count)
            raised = raised or f"{type(e).__name__} when the size is {count}"
            continue
        if got != expected(values):
            raise _Pin([r], f"an op whose result would differ when the size is {count}")
    if raised and on_raises is not None:
        on_raises(raised)
