"""Triangular inner loops: a ``for`` loop nested in a loop node's body whose range
follows an enclosing index (``range(i)``, ``range(i + 1, n)``, ``range(1, i)``,
``range(i, -1, -1)``) is a loop node of its own, whose trip count is an expression of
the enclosing trip, run as ``for trip in range(count)`` (no trip where the count is
0 or below, as Python's empty range)::

    for i in range(n):                         # the outer node: i = 1 + trip_1
        s = b[i]
        for j in range(i):                     # fori_loop(body, trip_1 + 1, (s,), ...)
            s = s - L[i, j] * x[j]
        x[i] = s / L[i, i]

The inner loop may run no trip at all (``i = 0``), so, as for a loop whose count the
data decides (``data_trips.DataTripScope``), no trip of it is unrolled: its body is
traced from the state before it, every check of a loop node applies, a value the body
binds (the index, a temporary) must be dead after it, and its carried values are its
inputs where it runs no trip.

An op that reads the inner index is checked at the corners of the loops' trips
(``TriangularScope.nested_fit``): for each enclosing loop, at the first two, middle
and last two of its trips *where the inner loops run* (the count is affine in the
enclosing trip, so those trips are an interval: ``_active``), and at each such
assignment, at the inner loop's own checked trips (``IndexFit.fit``). Every index is
affine in all the trips, so an op in bounds at the corners of that triangle is in
bounds inside it. Each trip count reads at most one enclosing index (else the region
has corners no interval names: the loop is unrolled, as before); enclosing trip counts
must be plain ints, and so must the sizes the op reads.

A constant step other than 1 or -1 (``range(i, n, 2)``, ``range(n - 1, i, -2)``) has
the count ``-((start - stop) // step)``, no affine expression: the quotient is an int
the enclosing body computes on each of its trips (a ``sym_int`` node, ``ui0``:
``stepped_count``), the count is ``-ui0``, and the corners put the quotient's value in
beside the trips (``_with_quotients``). The last inner index is then affine in the
enclosing trip up to a term of period ``|step|``, so the corners also hold every
enclosing trip of the first and last period of its interval (``_corners``).

Where it cannot be such a node the trace starts over with the inner loop unrolled in
the body (``loops.UNROLL_NESTED``), which then unrolls the outer loop, as before.

Example::

    >>> dynamo.explain(forward_sub_loops)(L, b).graph_break_count   # one graph
    0
"""

from __future__ import annotations

import math
import operator
from contextlib import contextmanager

from ..ops import ArrayMeta
from ..symbolic import Sym, SymInt
from ..symbolic.fit import symbols_in
from ..symbolic.sizes import as_sym
from ..tree import tree_map
from ..variables.iterators import SymRangeIteratorVariable
from ..variables.size_values import graph_int
from .data_trips import DataTripScope
from .loop_body_state import Counters
from .loop_facts import NotALoopNode, same_result, why_not
from .loops import LoopScope, SymbolicRest
from .nested_loops import enclosing_symbols, kind_of, unwatched
from .picked_numbers import Picked
from .promoted_floats import check_promoted, promote
from .symbolic_corners import at_trips, trip_interval


def substitute_trips(value, trips: dict, hints: dict | None = None):
    """``value`` (an op's arguments, metas' shapes) with the trips ``trips`` (symbol ->
    int) put in: a SymInt left with no symbol is a plain int; one left with symbols
    (the inner trip) has its hint from ``hints`` (0 for a loop's trip while traced)."""
    if any(isinstance(t, SymInt) for t in trips.values()):
        return at_trips(value, trips)   # (a trip that is an expression of the sizes)

    def size(v):
        if not isinstance(v, SymInt) or not v.sym.symbols & trips.keys():
            return v
        const = v.sym.const + sum(c * trips[n] for n, c in v.sym.terms if n in trips)
        terms = tuple((n, c) for n, c in v.sym.terms if n not in trips)
        if not terms:
            return const
        hint = const + sum(c * (hints or {}).get(n, 0) for n, c in terms)
        return SymInt(hint, Sym(terms, const, v.sym.sources))

    def leaf(v):
        if isinstance(v, ArrayMeta):
            return v.with_(shape=tuple(size(d) for d in v.shape))
        return size(v)
    return tree_map(leaf, value)


class TriangularScope(DataTripScope):
    """A nested ``LoopScope`` over a range that follows an enclosing loop's index."""

    def __init__(self, tx, inst, it, rest, counters: dict, quotient=None, span=None):
        # a carried Python float accumulator, as the np.float64 one trip makes it
        # (``promoted_floats``: where nothing can tell the two apart)
        self.promoted = promote(tx, inst)
        # a step other than 1 or -1: ``(symbol, start - stop, step)`` of the count's
        # quotient (``stepped_count``); the range runs where ``span`` is positive
        # (``span``: a split loop's segment runs its own count, ``index_splits``)
        self.quotient, self.span = quotient, it.span() if span is None else span
        before = set(tx.locals)
        super().__init__(tx, inst, it, rest, counters)
        # the arguments first read here (``_read_inputs``; in an outer trip where
        # this loop ran no trip nothing read them) are the enclosing bodies' too:
        # read before each of them, as unchanged locals
        new = {n: dict.__getitem__(tx.locals, n) for n in set(tx.locals) - before}
        scope = self.parent
        while scope is not None:
            for name, var in new.items():
                scope.entry_locals.setdefault(name, var)
            scope = scope.parent

    def _enter(self, targets: set[str], end: int) -> None:
        """As any loop's, but an array the frame holds that no enclosing body has read
        yet (an argument first read in this body) is no carried array: the body reads
        it through the enclosing bodies' free inputs (``localize_through``), and a
        write into it is refused as a write into an array no loop carries."""
        graph = self.output.graph
        outside = {n for n, v in dict.items(self.tx.locals)
                   if hasattr(v, "node") and getattr(v.node, "graph", graph) is not graph}
        super()._enter(set(targets) | outside, end)

    def _known_facts(self) -> list:
        # (every condition is checked at the corners, ``nested_fit``; where those are
        # expressions of the sizes, what the enclosing loops' entries know of them)
        return list(getattr(self.parent, "facts", None) or [])

    def nested_fit(self, op, meta_args, meta_kwargs, meta):
        """An op that reads this loop's index, checked at the corners of the loops'
        trips (``_corners``) with this loop's last trip put in at each; one that reads
        enclosing indices only is theirs to check. The result is the same at every
        corner, or this is no node."""
        if getattr(self, "_corner", False):
            return None   # (at one corner: the plain fit of a loop of ``last`` trips)
        call = (meta_args, meta_kwargs)
        read = symbols_in(call)
        if self.symbol not in read:
            return self.parent.fit(op, meta_args, meta_kwargs, meta)
        # (a split segment's start may read its split point's quotient: its value is
        # in the corners, ``_with_quotients``)
        # (a size that changes between calls is fitted at the corners as a loop of
        # one level fits it: ``IndexFit.fit``, symbolic)
        sizes = self.output.shape_env.symbols.keys()
        if read - enclosing_symbols(self) - quotient_symbols(self) - sizes:
            raise NotALoopNode(f"np.{op.name} reads a triangular loop's index and a size "
                               "that is a symbol")
        results = []
        corners = self._corners()
        for trips in corners:
            last = substitute_trips(self.last, trips)
            if isinstance(last, SymInt) and not last.sym.symbols <= sizes:
                raise NotALoopNode("a triangular loop's trip count reads a size")
            if not isinstance(last, SymInt) and last < 0:
                continue   # (symbolic corners are where the loop runs: ``_corners``)
            args, kwargs = substitute_trips(call, trips, self.output.shape_env.hints)
            with self._at_corner(last):
                results.append(self.fit(op, args, kwargs, meta))
        if not results:
            raise NotALoopNode("a triangular loop that runs no trip at any checked trip")
        if any(isinstance(v, SymInt) for trips in corners for v in trips.values()):
            results = [m for _, m in self._canonical(list(enumerate(results)))]
        if not all(same_result(r, results[0]) for r in results):
            raise NotALoopNode(f"np.{op.name}: its result changes with an outer loop's "
                               "index")
        return results[0]

    @contextmanager
    def _at_corner(self, last: int):
        saved = self.last
        self.last, self._corner = last, True
        try:
            yield
        finally:
            self.last, self._corner = saved, False

    def _corners(self, sized: bool = True) -> list[dict]:
        """The assignments of the enclosing loops' trips (outermost first) to check
        at: per loop, its first two, middle and last two trips among those where it
        and the loops inside it (down to this one) run at least one trip; where a
        count reads a size, the two ends of that interval, expressions of the sizes
        (``_symbolic_corners``; ``sized=False``: no node there)."""
        chain = []
        scope = self
        while scope is not None:
            chain.append(scope)
            scope = scope.parent
        chain.reverse()                  # outermost first; ``self`` last
        # where each loop runs a trip: its count >= 1, or, of a stepped one, its span
        # >= 1 (both affine in the enclosing trips)
        runs = {s.symbol: getattr(s, "span", s.last + 1) for s in chain}
        sizes = self.output.shape_env.symbols.keys()   # (``symbolic_corners``)
        for s in chain:
            read = symbols_in(runs[s.symbol]) - sizes
            if len(read) > 1:
                raise NotALoopNode("a trip count that follows two enclosing indices")
        assignments = [{}]
        for depth, s in enumerate(chain[:-1]):
            later = [t for t in chain[depth + 1:] if s.symbol in symbols_in(runs[t.symbol])]
            # the last index of a stepped loop inside is affine in this trip up to a
            # term of period ``|step|`` (``range(0, i, 2)``: i - 1, i - 2, i - 1, ...):
            # an extreme of affine plus periodic is reached within one period of an
            # end, so the first and last ``period`` trips are all checked
            period = math.lcm(1, *(abs(t.quotient[2]) for t in chain[depth + 1:]
                                   if getattr(t, "quotient", None)))
            grown = []
            for trips in assignments:
                lo, hi = 0, _count_at(s, trips) - 1
                if _symbolic_ends(s, later, runs, trips, hi):
                    if not sized:   # (``enclosing_corners``: ints only, no guard)
                        raise NotALoopNode("an enclosing loop's trip count is a symbol")
                    grown += _symbolic_corners(self, s, later, runs, trips, hi, period)
                    continue
                for t in later:   # runs_t(trip) = a + b * trip >= 1
                    lo, hi = _interval(substitute_trips(runs[t.symbol], trips), s.symbol,
                                       lo, hi)
                if lo > hi:
                    continue
                if period > _MAX_PERIOD and hi - lo >= 2 * _MAX_PERIOD:
                    raise NotALoopNode("a stepped loop whose step needs too many corners")
                ends = {*range(lo, min(lo + period, hi + 1)), *range(max(hi - period + 1, lo),
                                                                      hi + 1)}
                for k in sorted(ends | {lo, min(lo + 1, hi), (lo + hi) // 2,
                                        max(hi - 1, lo), hi}):
                    grown.append({**trips, s.symbol: k})
            assignments = grown
        return [_with_quotients(chain, trips) for trips in assignments]


def enclosing_corners(scope) -> list[dict]:
    """``TriangularScope._corners`` of any loop node's scope (a plain one's too): the
    enclosing trips to check at, where ``scope``'s body runs (``index_splits``)."""
    return TriangularScope._corners(scope, sized=False)


# the longest period of corners checked (a step of at most 32: 64 outer trips per level)
_MAX_PERIOD = 32


def _count_at(scope, trips: dict) -> int:
    """The trip count of ``scope`` where the enclosing trips are ``trips``."""
    count = substitute_trips(scope.last + 1, _with_quotients([scope], trips))
    if isinstance(count, SymInt) and \
            not count.sym.symbols <= scope.output.shape_env.symbols.keys():
        raise NotALoopNode("an enclosing loop's trip count is no size")
    return count


def _symbolic_ends(s, later, runs, trips, hi) -> bool:
    """Whether the interval of ``s``'s trips is one of the sizes (``symbolic_corners``):
    its count, or a count of a loop inside it, reads a size symbol."""
    if isinstance(hi, SymInt):
        return True
    counts = [substitute_trips(runs[t.symbol], trips) for t in later]
    return any(isinstance(c, SymInt) and c.sym.symbols - {s.symbol} for c in counts)


def _symbolic_corners(scope, s, later, runs, trips, hi, period) -> list[dict]:
    """``trips`` with each end of ``s``'s interval (expressions of the sizes) put in:
    an affine index is least and greatest at the ends, so the middle adds nothing.
    The interval holds a trip for every size the entry serves (proven, or guarded as
    a decision, ``IndexFit._require``); a stepped loop inside (``period``) is no
    node here."""
    if period != 1:
        raise NotALoopNode("a stepped triangular loop over sizes that change")
    lo = 0
    for t in later:
        lo, hi = trip_interval(substitute_trips(runs[t.symbol], trips), s.symbol, lo, hi,
                               scope.facts)
    scope._require(hi - lo, "a triangular loop that runs no trip for some size")
    ends = [lo] if as_sym(hi) == as_sym(lo) else [lo, hi]
    return [{**trips, s.symbol: k} for k in ends]


def quotient_symbols(scope) -> set[str]:
    """The count or split quotients of ``scope`` and the scopes around it."""
    names = set()
    while scope is not None:
        if getattr(scope, "quotient", None) is not None:
            names.add(scope.quotient[0])
        scope = getattr(scope, "parent", None)
    return names


def _with_quotients(chain, trips: dict) -> dict:
    """``trips`` with the count quotient of each stepped loop of ``chain`` put in."""
    trips = dict(trips)
    for s in chain:
        quotient = getattr(s, "quotient", None)
        if quotient is not None:
            name, diff, step = quotient
            diff = substitute_trips(diff, trips)
            if isinstance(diff, SymInt):
                raise NotALoopNode("a stepped loop's bounds read a size")
            trips[name] = diff // step
    return trips


def stepped_count(tx, it) -> tuple:
    """The trip count of a range of step ``k`` (not 1 or -1) whose bounds follow
    enclosing indices, ``len(range(start, stop, k)) == max(0, -((start - stop) // k))``
    for either sign of ``k``: the quotient is an int the enclosing body computes
    (a ``sym_int`` node, ``variables/size_values.graph_int``), the count its negation
    (``for trip in range(count)`` runs none where it is 0 or below). Returns the count
    and ``(the quotient's symbol, start - stop, k)``.

        >>> stepped_count(tx, iter(range(i, n, 2)))   # i = trip_1 + 1, n = 9
        (SymInt(-4, -ui0), ('ui0', SymInt(-8, trip_1 - 8), 2))
    """
    diff = it.start - it.stop
    quotient = graph_int(tx, operator.floordiv, [diff, it.step],
                         "the trip count of a stepped triangular loop").value
    return -quotient, (next(iter(quotient.sym.symbols)), diff, it.step)


def _interval(count, symbol: str, lo: int, hi: int) -> tuple[int, int]:
    """The trips ``k`` in ``[lo, hi]`` where ``count`` (an int, or affine in the trip
    ``symbol`` only) is at least 1."""
    if not isinstance(count, SymInt):
        return (lo, hi) if count >= 1 else (1, 0)
    b = dict(count.sym.terms)[symbol]
    a = count.sym.const
    # a + b * k >= 1: k >= ceil((1 - a) / b) for b > 0, k <= floor((a - 1) / -b) else
    if b > 0:
        return max(lo, -((a - 1) // b)), hi
    return lo, min(hi, (a - 1) // -b)


def triangular_iterator(tx, it) -> bool:
    """``it`` is the iterator of a ``range`` whose bounds read an enclosing loop's
    index (and nothing else symbolic), at its first ``FOR_ITER``, inside the body of a
    ``for`` loop node (or of another triangular one)."""
    scope = tx.output.loop_scope
    if not isinstance(it, SymRangeIteratorVariable) or it.done or it.index != 0 or \
            scope is None or kind_of(scope) not in (LoopScope, TriangularScope) or \
            not tx.config.nested_loop_nodes:
        return False
    read = symbols_in((it.start, it.stop))
    # (``range(i + 1, n)`` over a size ``n`` that changes between calls: its corners
    # are expressions of the sizes, ``symbolic_corners``)
    enclosing = enclosing_symbols(scope)
    return bool(read & enclosing) and read <= enclosing | tx.output.shape_env.symbols.keys()


def picked_plan(plan) -> dict | None:
    """The counters of a plan "counters" whose every entry is a number picked per trip
    (``picked_numbers.Picked``), or None (no plan, another kind, another counter)."""
    if plan is None or plan.kind != "counters" or not plan.counters or \
            not all(isinstance(c, Picked) for c in plan.counters.values()):
        return None
    return dict(plan.counters)


class TriangularLoops:
    """The translator's side (a mixin of ``frames.Handlers``, before ``LoopNodes``): at
    the first ``FOR_ITER`` of such a loop, all its trips as one node."""

    def loop_node(self, inst, it) -> bool:
        made = self.triangular_node(inst, it)
        return super().loop_node(inst, it) if made is None else made

    def triangular_node(self, inst, it) -> bool | None:
        if not triangular_iterator(self, it):
            return None
        plan = self.loop_plan(inst)
        # (a plan "split" whose conditions were noted at another level, in an enclosing
        # loop's unrolled first trip, splits the loop there only: here it is any node;
        # a plan "counters" of numbers picked per trip only, ``arg = j`` under an ``if``
        # on data, carries them: ``picked_numbers``, issue #19)
        picked = picked_plan(plan)
        if plan is not None and plan.kind != "split" and picked is None or \
                self.output.kind not in (None, "numpy") or \
                self.in_try() or self.info.loop_may_exit_early(inst.index):
            return None   # (as before: unrolled in the body)
        try:
            count, quotient = (it.left(), None) if it.step in (1, -1) else \
                stepped_count(self, it)
            rest = SymbolicRest(it.start, it.step, count)
            scope = TriangularScope(self, inst, it, rest, picked or {}, quotient)
            scope.picks_numbers = True   # (a number picked per trip: picked_numbers)
            scope.trace_body()
            check_promoted(scope, scope.promoted)
            with unwatched(self.locals):   # (the outer body's locals)
                scope.finish()
        except Counters as e:   # (a number picked per trip: carried, ``picked_plan``)
            self._refuse(inst, True, str(e), e.counters)
        except NotALoopNode as e:
            self._refuse(inst, True, str(e))
        except Exception as e:  # noqa: BLE001 (anything the body cannot be: unroll it)
            if getattr(e, "nested_refusal", False):
                raise
            self._refuse(inst, True, why_not(e))
        return True

