"""Loops whose body branches on the loop indices: index-set splitting (issue #23).

A comparison of loop indices (``if i == j``, ``if j < i``, ``if i == n - 1``,
``if k != p``, ``if t < warmup``) is affine in the trips: ``diff op 0`` with
``diff = c0 + c1 * trip + (terms of enclosing trips)``. Two things follow.

**Decided comparisons.** Where ``diff op 0`` has one value at every corner of the
trips the body runs (``trip_region``: the first and last trip of each loop, at the
enclosing loops' checked trips), it has that value on every trip (an affine function
keeps its sign over a convex region where it keeps it at the vertices; ``==`` false
and ``!=`` true need one strict sign at every corner), so the comparison is answered
(``decide``, through ``symbolic.deciders.deciding``) and no decision is recorded: the
loop stays one node. ``for i in range(n): if i == 0: ...``, whose first trip is
unrolled, is such a loop (``i = 1 + trip`` is never 0 in the node).

**Split loops.** Where the value changes, and the index's coefficient is 1 or -1
(or another that divides the rest: ``unit_coefficient``, exact integer arithmetic;
where it divides nothing else, ``p`` is the floor of an affine expression, a quotient
the enclosing body computes: ``split_quotients.py``, ``if 2 * j < i``, ``if j <= i //
2``), the comparison is ``trip op' p`` (``p`` affine in the enclosing trips), true on one
interval of trips, ``[p, p + 1)`` for ``==`` (false there for ``!=``), ``[0, p)`` for
``<`` and so on. The trace starts over with the plan "split" (``refuse_loop_node``),
and the loop becomes up to three consecutive nodes, one per interval, each traced
with the comparison decided::

    for j in range(i + 1):          # i = trip_1 + 1; i == j  <=>  trip == trip_1 + 1
        ...                         # -> j in [0, i): a node of trip_1 + 1 trips, i == j
        if i == j: ...              #    false; j = i: one trip, traced with j = i
        else: ...                   #    (no symbol of its own), i == j true

Each interval's bounds are clamped to ``[0, count]`` only where the clamp is proved
at the corners of the enclosing trips (``_clamped``: the bound is below 0 at every
corner, or past the count at every one, or between them at every one: then it is
that affine bound); where it is inside the range at some enclosing trips and past an
end at others (``LeavesRange``), the enclosing loop is split where that changes
(``_split_enclosing``), so the clamp is proved in each of its segments; else the loop
stays unrolled, as before, with the reason in the ``loops`` log. A loop of the frame
whose count is a size symbol is split for every size (``symbolic_splits.py``).
A segment of one trip is traced with its index as its start
(``Segment.index_value``), so a loop inside it whose count follows that index reads
one enclosing index only (Cholesky's ``for k in range(j)`` at ``j = i``). Segments
before the last keep the temporaries the next one reads (``exit_index``). A second
comparison that the segments cannot decide (``if j < i: ... elif j == i:``) is noted
in the loop's trips (a segment's trip plus its ``offset``) and added to the plan, up
to ``MAX_SPLITS``; all the bounds must be in one order at every corner (``_ordered``).

Example::

    >>> dynamo.explain(branchy_cholesky)(A).graph_break_count
    0
"""

from __future__ import annotations

import operator
from functools import partial

from ..exc import RestartAnalysis
from ..symbolic import Sym, SymInt
from ..symbolic.bounds import always_nonnegative
from ..symbolic.deciders import deciding
from ..symbolic.sizes import as_sym, is_unbacked, record
from .loop_body_state import Counters
from .loop_facts import NotALoopNode, why_not
from .loops import LoopScope, SymbolicRest, rest_of, trip_count
from .nested_loops import enclosing_symbols, kind_of, unwatched
from .picked_numbers import Picked
from .promoted_floats import check_promoted
from .segment_hints import running_hints
from .split_quotients import (
    affine_compare,
    definitions,
    describe_quotient,
    make_quotient,
    nonnegative,
    quotient_condition,
    segment_quotient,
    sign_form,
    unit_coefficient,
    with_values,
)
from .symbolic_splits import (
    clamped_symbolic,
    count_fact,
    decide_symbolic,
    facts,
    frame_loop,
    holds,
    ordered_symbolic,
)
from .triangular_loops import (
    TriangularScope,
    enclosing_corners,
    quotient_symbols,
    substitute_trips,
    triangular_iterator,
)

_OPS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
        ">": operator.gt, ">=": operator.ge}
_FLIP = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
# the refusal a split loop is made for (``LoopScope._check_index_uses``)
_BRANCH = "the body branches on the index"


def _chain(scope) -> list | None:
    """``scope`` and the scopes around it, innermost first; None where one of them is
    no ``for`` loop node's over a range (a ``while`` loop's, whose ``last`` is no trip
    count; one over a count the data decides)."""
    chain = []
    while scope is not None:
        if kind_of(scope) not in (LoopScope, TriangularScope):
            return None
        chain.append(scope)
        scope = scope.parent
    return chain


def trip_region(scope) -> list[dict] | None:
    """The corners of the trips where ``scope``'s body runs: each enclosing loop's
    checked trips (``enclosing_corners``) with ``scope``'s first and last trip; None
    where they are not all ints (a count that changes between calls)."""
    if _chain(scope) is None or getattr(scope, "_corner", False):
        return None
    try:
        outer = enclosing_corners(scope)
    except NotALoopNode:
        return None
    region = []
    for trips in outer:
        last = substitute_trips(scope.last, trips)
        if isinstance(last, SymInt):
            return None
        if last >= 0:
            region += [{**trips, scope.symbol: 0}, {**trips, scope.symbol: last}]
    return region


def _constant(values: list[int], op: str) -> bool | None:
    """``v op 0`` for every ``v`` of ``values`` (an affine function's values at the
    corners of a convex region), where that is its value over the whole region."""
    results = {_OPS[op](v, 0) for v in values}
    if len(results) != 1:
        return None
    result = results.pop()
    if (op == "==") != result and (op in ("==", "!=")) and \
            not (all(v > 0 for v in values) or all(v < 0 for v in values)):
        return None   # (nonzero at the corners, maybe zero between them)
    return result


def decide(tx, diff: Sym, op: str) -> bool | None:
    """``diff op 0`` where it has one value on every trip of the loop nodes being
    traced; else None, after noting the comparison as a split of the innermost loop
    whose index it reads (``_note_split``)."""
    scope = tx.output.loop_scope
    if frame_loop(scope) and scope.symbol in diff.symbols and \
            (len(diff.symbols) > 1 or isinstance(scope.last, SymInt)) and \
            not any(is_unbacked(n) for n in diff.symbols):
        # (a frame's loop whose count is a size symbol, or a comparison with sizes)
        known = decide_symbolic(scope, diff, op, facts(tx.output))
        if known is None:
            _note_split(tx, scope, diff, op)
        return known
    if scope is None:
        return None
    defs = definitions(tx.output)
    chained = quotient_symbols(scope)
    converted = bool(diff.symbols & (defs.keys() - chained))
    if converted:   # (``j <= i // 2``: an affine comparison)
        found = affine_compare(diff, op, {k: v for k, v in defs.items() if k not in chained})
        if found is None:
            return None
        diff, op = found
    if not diff.symbols <= enclosing_symbols(scope) | chained:
        return None
    region = trip_region(scope)
    if not region:
        return None
    known = _constant([diff.evaluate(trips) for trips in region], op)
    if known is None:
        _note_split(tx, scope, diff, op)
        if converted and split_condition(scope, diff, op) is not None:
            # (a comparison of an unbacked quotient would be a deferred bool, or break:
            # answered as any branch on the index, recorded, the loop restarts split)
            hints = tx.output.shape_env.hints
            known = _OPS[op](diff.evaluate({n: hints.get(n, 0) for n in diff.symbols}), 0)
            record(f"{diff.runtime()} {op} 0", known, diff.symbols)
    return known


def _note_split(tx, scope, diff: Sym, op: str) -> None:
    """Remember ``diff op 0`` as the condition to split the innermost loop whose index
    ``diff`` reads (``split_condition``), the first one noted per loop."""
    found = split_condition(scope, diff, op)
    if found is not None:
        loop, cond = found
        splits = tx.output.__dict__.setdefault("index_splits", {})
        splits.setdefault((loop.tx.code, loop.inst.index), cond)


def split_condition(scope, diff: Sym, op: str) -> tuple | None:
    """``diff op 0`` as a condition to split the innermost loop around ``scope`` (or
    ``scope`` itself) whose index ``diff`` reads, relative to it: its trip's
    coefficient ``b`` (1 or -1), the constant, and the enclosing trips' coefficients
    by depth (1: the loop around it). ``(that loop's scope, the condition)``, or None
    (another coefficient, or ``diff`` reads an index inside that loop)."""
    chain = _chain(scope)
    owner = next((k for k, s in enumerate(chain) if s.symbol in diff.symbols), None)
    if owner is None:
        return None
    unit = unit_coefficient(diff, chain[owner].symbol, op)
    # (else a split point between trips that moves with an enclosing trip: its floor,
    # a quotient the enclosing body computes, ``split_quotients``)
    computed = unit is None
    diff, op = (diff, op) if computed else unit
    coeffs = dict(diff.terms)
    b = coeffs.pop(chain[owner].symbol)
    loop = chain[owner]
    depth = {s.symbol: k - owner for k, s in enumerate(chain) if k > owner}
    rest = Sym(tuple(sorted(coeffs.items())), diff.const, diff.sources)
    if isinstance(loop, Segment):   # (its trip counts from its first: the loop's trip
        # is ``offset + trip``, so ``b * trip`` of the segment is ``b * (trip - offset)``)
        rest = rest - loop.offset.scale(b)
    # an enclosing segment's trip is ``offset + trip`` of its loop: the condition is
    # kept in the enclosing loops' trips, the same in each of their segments
    for s in chain[owner + 1:]:
        c = dict(rest.terms).get(s.symbol, 0)
        if c and isinstance(s, Segment):
            rest = rest - s.offset.scale(c)
    coeffs, const, sizes = dict(rest.terms), rest.const, ()
    if len(chain) == 1 and frame_loop(loop):   # (sizes: a count that is a symbol)
        sources = dict(rest.sources)
        sizes = tuple((n, c, sources.get(n, n)) for n, c in sorted(coeffs.items()))
        coeffs = {}
    if not coeffs.keys() <= depth.keys():
        return None   # (an inner index)
    outer = tuple(sorted((depth[n], c) for n, c in coeffs.items()))
    if computed:
        found = quotient_condition(b, const, outer, op) if outer and not sizes else None
        return None if found is None else \
            (loop, {**found, "levels": len(chain) - owner - 1})
    return loop, {"b": b, "const": const, "op": op, "levels": len(chain) - owner - 1,
                  "outer": outer, **({"sizes": sizes} if sizes else {})}


def of_levels(conds: list[dict], parent) -> list[dict]:
    """The conditions of ``conds`` noted where the loop had as many loop nodes around
    it as where ``parent`` is the innermost (``levels``)."""
    levels = len(_chain(parent) or [])
    return [c for c in conds if c["levels"] == levels]


# the most comparisons one loop is split at (a plan grows by one per restart)
MAX_SPLITS = 3


def describe(conds: list[dict]) -> str:
    """The split conditions as ``b*trip + c + k*outer1 op 0``, for the log."""
    def one(cond):
        outer = "".join(f" + {c}*outer{d}" for d, c in cond["outer"]) + \
            "".join(f" + {c}*{source}" for _, c, source in cond.get("sizes", ()))
        if "quotient" in cond:
            outer += f" + {describe_quotient(cond)}"
        return f"{cond['b']}*trip + {cond['const']}{outer} {cond['op']} 0"
    return " and ".join(one(c) for c in conds)


class Segment:
    """A segment of a split loop: its own rest of the range and, with one trip, the
    index as its start (no symbol of its own: ``index_value``)."""

    count_one = False
    offset = Sym()   # the loop's trip at the segment's first (affine in enclosing trips)

    def index_value(self):
        return self.rest.start if self.count_one else super().index_value()


class SegmentLoopScope(Segment, LoopScope):
    behaves_as = LoopScope


class SegmentTriangularScope(Segment, TriangularScope):
    behaves_as = TriangularScope


class IndexSplits:
    """The translator's side (a mixin of ``frames.Handlers``, before
    ``TriangularLoops``): comparisons of loop indices answered while loop bodies are
    traced, and a loop with the plan "split" run as its segments."""

    def loop_node(self, inst, it) -> bool:
        plan = self.loop_plan(inst)
        conds = plan.counters["split"] if plan is not None and plan.kind == "split" \
            else []
        with deciding(partial(decide, self)):
            try:
                return self.split_node(inst, it, conds) if conds else \
                    super().loop_node(inst, it)
            except RestartAnalysis as e:
                self._split_instead(inst, e, conds)
                raise

    def _split_instead(self, inst, e: RestartAnalysis, conds: list) -> None:
        """Where this loop's node (or a segment of it, split at ``conds``) was refused
        for a branch on its index that splits it (``_note_split``), start over with
        the plan "split" at that comparison too, instead of unrolling it."""
        point = getattr(e.__cause__, "point", None)
        splits = self.output.__dict__.get("index_splits", {})
        cond = splits.get((self.code, inst.index))
        if cond is None or cond in conds or point is None or \
                len([c for c in conds if c["levels"] == cond["levels"]]) >= MAX_SPLITS or \
                point.index != inst.index or point.code is not self.code or \
                _BRANCH not in point.reason.reason:
            return
        conds = [*conds, cond]
        try:
            self.refuse_loop_node(inst, f"{point.reason.reason[len('loop node: '):]}; "
                                  f"split at {describe(conds)}", {"split": conds},
                                  kind="split")
        except RestartAnalysis as split:
            split.nested_refusal = getattr(e, "nested_refusal", False)
            raise split from split.__cause__

    def split_node(self, inst, it, conds: list[dict]) -> bool:
        """The loop at ``inst`` as consecutive nodes, one per interval of trips on
        which each of ``conds`` is decided; where that cannot be done exactly, the
        trace starts over with it unrolled (as before), the reason in the ``loops``
        log."""
        parent = self.output.loop_scope
        nested = parent is not None
        # (the conditions noted where as many loop nodes enclose this loop as here: in
        # an enclosing loop's unrolled first trip its index is an int, and a condition
        # noted there, or one that reads that index, splits the loop nowhere else;
        # where none is left the loop is any loop node)
        conds = of_levels(conds, parent)
        if not conds:
            return super().loop_node(inst, it)
        triangular, known = triangular_iterator(self, it), None
        if triangular:
            rest = SymbolicRest(it.start, it.step, it.left()) if it.step in (1, -1) \
                else None
        else:
            if not self.may_become_loop_node(inst, it):
                return False
            arrivals = self.loop_arrivals.get(id(it), 0)
            self.loop_arrivals[id(it)] = arrivals + 1
            if arrivals == 0:
                return False   # (the first trip unrolled, as for any loop node)
            rest = rest_of(it)
            known = facts(self.output)
            if isinstance(rest, SymbolicRest):
                known.append(count_fact(trip_count(rest), arrivals,
                                        self.config.loop_unroll_limit))
        try:
            if rest is None or not nested and not isinstance(rest, range) and not (
                    isinstance(rest, SymbolicRest) and rest.step in (1, -1) and
                    not any(is_unbacked(n) for n in as_sym(rest.count).symbols)):
                raise NotALoopNode("a stepped range or a count that changes between "
                                   "calls")
            segments = split_rest(self, rest, conds, parent, known if not nested else None)
            body = self.ip   # (each segment's trace ends back at the FOR_ITER)
            for k, (seg, count_one, offset) in enumerate(segments):
                self.ip = body
                self._segment(inst, it, seg, count_one, offset, k == len(segments) - 1)
            if not segments:   # (no trip anywhere)
                it.done = True
                self.output.side_effects.mutate(it)
        except LeavesRange as e:
            self._split_enclosing(parent, e)
            self._refuse(inst, nested, f"split at {describe(conds)}: {e}")
        except Counters as e:   # (a number the segments pick per trip: each carries it)
            try:
                self.refuse_loop_node(inst, f"split at {describe(conds)}: {e}", {
                    **e.counters, "split": self.loop_plan(inst).counters["split"]},
                    kind="split")
            except RestartAnalysis as restart:
                restart.nested_refusal = nested
                raise
        except NotALoopNode as e:
            self._refuse(inst, nested, f"split at {describe(conds)}: {e}")
        except Exception as e:  # noqa: BLE001 (anything a segment cannot be: unroll)
            if getattr(e, "nested_refusal", False):
                raise
            self._refuse(inst, nested, f"split at {describe(conds)}: {why_not(e)}")
        return True

    def _split_enclosing(self, parent, e: LeavesRange) -> None:
        """Clamping proved per enclosing trip: where this loop's split point leaves its
        range at some enclosing trips only (``LeavesRange``), start over with the
        enclosing loop whose index that reads split where it does (``e.diff op 0``),
        so that in each of its segments the clamp holds at every corner::

            for i in range(n):          # m < n: j < i is j < min(i, m); the i loop
                for j in range(m):      # splits at i - m <= 0, and in each of its
                    if j < i: ...       # segments the j loop's split point is i or m

        Nothing where that loop cannot take another condition (it returns, and the
        caller unrolls this loop, as before)."""
        found = split_condition(parent, e.diff, e.op)
        if found is None:
            return
        loop, cond = found
        plan = loop.tx.loop_plan(loop.inst)
        conds = plan.counters["split"] if plan is not None and plan.kind == "split" \
            else []
        if cond in conds or \
                len([c for c in conds if c["levels"] == cond["levels"]]) >= MAX_SPLITS:
            return
        conds = [*conds, cond]
        try:
            loop.tx.refuse_loop_node(loop.inst, f"an inner loop's split point leaves its "
                                     f"range at some trips; split at {describe(conds)}",
                                     {"split": conds}, kind="split")
        except RestartAnalysis as restart:
            restart.nested_refusal = True   # (passed on by the loops in between)
            raise

    def _segment(self, inst, it, seg, count_one: bool, offset: Sym, last: bool) -> None:
        """One segment: a plain loop node over a range of ints, else one whose count
        follows the enclosing trips (it may run none, ``TriangularScope``)."""
        plain = isinstance(seg, range) or self.output.loop_scope is None   # (a frame's
        # loop whose count is a size symbol: each segment runs a trip for every size)
        # (numbers its segments pick per trip, each carries them: ``picked_numbers``)
        picked = {k: v for k, v in self.loop_plan(inst).counters.items()
                  if isinstance(v, Picked)} if plain else {}
        # (a segment whose bounds read a computed split point's quotient: its corners
        # put the quotient in, and its span is the affine one, ``split_quotients``)
        quotient, span = (None, None) if plain else \
            segment_quotient(self.output, seg) or (None, seg.count)
        scope = SegmentLoopScope(self, inst, it, seg, picked) if plain else \
            SegmentTriangularScope(self, inst, it, seg, {}, quotient, span=span)
        # (each segment's comparison is decided by ``decide`` as its body is traced)
        scope.count_one, scope.offset = count_one, offset
        scope.picks_numbers = plain
        scope.exit_index = None if last else inst.index
        with running_hints(self.output, trip_count(seg),   # (segment_hints.py)
                           lambda: trip_region(self.output.loop_scope)):
            scope.trace_body()
        if not plain:
            check_promoted(scope, scope.promoted)
        with unwatched(self.locals):   # (nested: the outer body's locals)
            scope.finish()


def split_rest(tx, rest, conds: list[dict], parent, known=None) -> list[tuple]:
    """The segments of ``rest`` (a range, or a ``SymbolicRest`` whose start and count
    follow the enclosing trips) on which each of ``conds`` has one value: ``(rest of
    the segment, whether it has one trip, the loop's trip at its first)``, in order,
    those that never run left out.
    The bounds of all the conditions' intervals, clamped, must be in one order at
    every corner of the enclosing trips (else no split: ``NotALoopNode``); for a loop
    of the frame whose count is a size symbol (``known``: the facts its guards keep),
    for every size (``symbolic_splits``)."""
    if known is not None and not as_sym(trip_count(rest)).is_constant():
        return _symbolic_segments(tx, rest, conds, known)
    chain = _chain(parent) or []
    if parent is not None and not chain:
        raise NotALoopNode("a loop in a while loop's body")
    region = trip_region(parent) if parent is not None else [{}]
    if not region:
        raise NotALoopNode("the enclosing trips have no corners to check")
    count = as_sym(trip_count(rest))
    counts = [count.evaluate(t) for t in region]
    if all(c <= 0 for c in counts):
        return []   # (no trip at any enclosing trip here)
    if any(c < 0 for c in counts):
        # (a triangular count below 0 at some enclosing trips: no bound is clamped
        # into ``[0, count]`` there; the enclosing loop splits where it crosses 0)
        raise LeavesRange(count, ">=")
    hints = tx.output.shape_env.hints
    # (a computed split point's quotient, made in the enclosing body: ``split_quotients``)
    quotients = {c["quotient"]: make_quotient(tx, c, chain, hints)
                 for c in conds if "quotient" in c}
    defs = {n: v for n, v in definitions(tx.output).items()
            if any(n in q.symbols for q in quotients.values())}
    region = with_values(region, defs)
    bounds = [Sym((), 0), count]
    for cond in conds:
        bounds += [_clamped(b, count, region, defs)
                   for b in _interval_of(cond, chain, quotients) if b is not None]
    bounds = _ordered(bounds, region, defs)
    segments = []
    for lo, hi in zip(bounds, bounds[1:]):
        n = hi - lo
        if nonnegative(n.scale(-1), region, defs):
            continue
        if isinstance(rest, range) and lo.is_constant() and hi.is_constant():
            segments.append((rest[lo.const:hi.const], hi.const - lo.const == 1, lo))
            continue
        start = as_sym(rest.start) + lo.scale(rest.step)
        segments.append((SymbolicRest(_value(start, hints), rest.step, _value(n, hints)),
                         n.is_constant() and n.const == 1, lo))
    return segments


def _symbolic_segments(tx, rest, conds: list[dict], known: list) -> list[tuple]:
    """``split_rest`` of a frame's loop whose count is a size symbol."""
    count = as_sym(trip_count(rest))
    hints = tx.output.shape_env.hints
    if not holds(count, known, hints):
        raise NotALoopNode("the trip count may be below 0 for some sizes")
    bounds = [Sym((), 0), count]
    for cond in conds:
        for b in _interval_of(cond, []):
            if b is not None:
                clamped = clamped_symbolic(b, count, known, hints)
                if clamped is None:
                    raise NotALoopNode("the split point may leave the range for some sizes")
                bounds.append(clamped)
    bounds = ordered_symbolic(bounds, hints, known)
    if bounds is None:
        raise NotALoopNode("the split points are in no one order for every size")
    segments = []
    for lo, hi in zip(bounds, bounds[1:]):
        n = hi - lo
        if always_nonnegative(n.scale(-1), known):
            continue
        if not holds(n - Sym((), 1), known, hints):
            raise NotALoopNode("a segment may run no trip for some sizes")
        start = as_sym(rest.start) + lo.scale(rest.step)
        segments.append((SymbolicRest(_value(start, hints), rest.step, _value(n, hints)),
                         n.is_constant() and n.const == 1, lo))
    return segments


def _interval_of(cond: dict, chain: list, quotients: dict | None = None) -> tuple:
    """The trips ``[lo, hi)`` on which ``cond`` is true (false, for ``!=``), each an
    affine ``Sym`` of the enclosing trips (and of a computed split point's quotient,
    ``quotients``) or None (unbounded on that side)."""
    a = Sym((), cond["const"])
    if "quotient" in cond:   # trip + s * q op 0
        a = a + quotients[cond["quotient"]].scale(cond["quotient"][3])
    for name, c, source in cond.get("sizes", ()):
        a = a + Sym(((name, c),), 0, ((name, source),))
    for depth, c in cond["outer"]:
        loop = chain[depth - 1]   # (its loop's trip: ``offset + trip`` of a segment)
        a = a + Sym(((loop.symbol, c),), 0, ((loop.symbol, loop.symbol),))
        if isinstance(loop, Segment):
            a = a + loop.offset.scale(c)
    op = cond["op"]
    if cond["b"] == -1:
        a, op = a.scale(-1), _FLIP[op]
    p, one = a.scale(-1), Sym((), 1)   # trip op p
    return {"==": (p, p + one), "!=": (p, p + one), "<": (None, p), "<=": (None, p + one),
            ">": (p + one, None), ">=": (p, None)}[op]


def _ordered(bounds: list[Sym], region: list[dict], defs: dict) -> list[Sym]:
    """``bounds`` without repeats, sorted, where one order holds at every corner."""
    unique = list(dict.fromkeys(bounds))
    # (by the values at every corner: two bounds equal at the first are still put in
    # the order they have at the others)
    unique.sort(key=lambda b: tuple(b.evaluate(t) for t in region))
    for lo, hi in zip(unique, unique[1:]):
        if not nonnegative(hi - lo, region, defs):
            raise NotALoopNode("the split points are in no one order at every trip")
    return unique


def _clamped(bound: Sym, count: Sym, region: list[dict], defs: dict) -> Sym:
    """``min(max(bound, 0), count)`` as an affine expression, proved at the corners:
    0 where the bound is at most 0 at every one, the count where it is at least the
    count at every one, the bound where it is between them at every one (a bound
    that reads a quotient of ``defs``: through ``split_quotients.sign_form``)."""
    if nonnegative(bound.scale(-1), region, defs):
        return Sym((), 0)
    if nonnegative(bound - count, region, defs):
        return count
    if nonnegative(bound, region, defs) and nonnegative(count - bound, region, defs):
        return bound
    # (past 0 at some corners and not at others: the enclosing loop splits where the
    # bound crosses 0, else where it crosses the count; as an affine condition)
    at = [bound.evaluate(t) for t in region]
    if any(b < 0 for b in at) and any(b > 0 for b in at):
        raise LeavesRange(sign_form(bound, defs), ">=")
    if not bound.symbols & defs.keys():
        raise LeavesRange(bound - count, "<=")
    raise LeavesRange(sign_form(count - bound, defs), ">=")


class LeavesRange(NotALoopNode):
    """A split point inside the range at some enclosing trips and past one of its ends
    at others: ``diff op 0`` (affine in the enclosing trips) is where that changes, a
    condition to split the enclosing loop at (``IndexSplits._split_enclosing``)."""

    def __init__(self, diff: Sym, op: str):
        super().__init__("the split point leaves the range at some trips")
        self.diff, self.op = diff, op


def _value(sym: Sym, hints: dict):
    """``sym`` as an int, or a SymInt valued at the trace's hints (0 for a trip)."""
    if sym.is_constant():
        return sym.const
    return SymInt(sym.evaluate({n: hints.get(n, 0) for n in sym.symbols}), sym)
