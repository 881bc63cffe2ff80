"""How an op that reads a loop node's index is checked to be the same op on every trip
(``IndexFit.fit``), the part of ``LoopScope`` (``loops.py``) that looks at each op of the
body as it is traced.

An op reading the index ``i`` of ``for i in range(1, n)`` is evaluated at a few trips
(the first two, the middle, the last two; symbolically where sizes are symbols) and its
result must be the same at each (``x[i - 1]``: one element), or a size that grows
affinely with the trip (``x[:i]``: ``_growing``). Slices whose bounds move must not wrap
around (``_check_slice``) and every condition is proven from the entry's guards, or
guarded (``_require``)::

    for i in range(1, len(x)):
        y[i] = y[i - 1] + x[i]       # fit: x[0] .. x[n - 2] all in bounds for n >= 2

Example::

    >>> scope.fit(op, (x_meta, i), {}, meta)     # the result's metadata, every trip
"""

from __future__ import annotations

from .. import ops
from ..symbolic import Sym, SymInt
from ..symbolic.bounds import always_nonnegative
from ..symbolic.fit import _metas, substitute, symbols_in
from ..symbolic.sizes import as_sym
from ..tree import tree_leaves
from .loop_facts import (
    NotALoopNode,
    all_at_trip,
    at_trip,
    canonical,
    from_zero,
    integer_positions,
    is_slice,
    same_mark,
    same_result,
    with_positions,
)
from .slice_positions import constant_slices


class IndexFit:
    """The checks of ops that read the index; mixed into ``LoopScope``, whose
    ``symbol`` (the index's symbol), ``last`` (the last trip), ``rest`` (the range
    left), ``facts`` (what the entry knows of the sizes) and ``output`` they read."""

    def fit(self, op, meta_args, meta_kwargs, meta):
        """The result of an op that reads the index: the same for every trip, or
        growing with it (``_growing``), checked at the first and the last trip (affine
        uses are monotonic between them) and at trips 1, the middle and last - 1.

        Where the call also reads other symbols (array sizes, a symbolic trip count),
        the check is symbolic (``_result_at``): at each checked trip the arguments are
        affine in those symbols, and the result is fitted over them as any op's is
        (``ShapeEnv.fit``), guarding the entry to the sizes where it holds; the fits
        at the trips are then compared as expressions. So ``x[i - 1]`` in
        ``range(1, len(x))`` is checked at ``x[0]`` and ``x[n - 2]``, in bounds for
        every ``n >= 2``: one entry for every length."""
        nested = self.nested_fit(op, meta_args, meta_kwargs, meta)   # (nested_loops)
        if nested is not None:
            return nested
        call = (meta_args, meta_kwargs)
        others = symbols_in(call) - {self.symbol}
        env = self.output.shape_env   # (an unbacked size is fitted as outside loops)
        # a float made from the index (``np.full(i + 1, 0.5 * i)``) is taken at its trip
        # 0 value below: only where the result cannot depend on it (else it pins)
        env.check_floats(op, meta_args, meta_kwargs, meta)
        if any(n not in env.symbols and n not in env.unbacked for n in others):
            raise NotALoopNode(f"np.{op.name} reads the index and a size known only when "
                               "the graph runs")
        for leaf in tree_leaves(call, is_leaf=is_slice):
            if isinstance(leaf, slice):
                self._check_slice(leaf)
        symbolic = bool(others) or isinstance(self.last, SymInt)
        trips = self._checked_trips(symbolic)
        at_trips = [(i, self._result_at(op, call, i, symbolic)) for i in trips]
        if symbolic:   # the trips in between, to fit sizes that grow
            at_trips = self._canonical(at_trips)
            if not all(same_result(other, at_trips[0][1]) for _, other in at_trips):
                inner = self._checked_trips(False, inner=True)
                at_trips[1:1] = [(i, self._result_at(op, call, i, True)) for i in inner]
                at_trips = self._canonical(at_trips)
        first = at_trips[0][1]
        if all(same_result(other, first) for _, other in at_trips):
            return first if symbolic else meta
        return self._growing(op, at_trips)

    def _canonical(self, at_trips: list) -> list:
        """The results at the trips, written over the same symbols (``canonical``)."""
        env = self.output.shape_env
        sources = {n: s.expr() for n, s in env.symbols.items()}
        return [(i, canonical(m, env.classes.find, sources)) for i, m in at_trips]

    def _checked_trips(self, symbolic: bool, inner: bool = False) -> list:
        """The trips an op that reads the index is checked at, in order: the first
        two, the middle and the last two; where the check is symbolic, the first and
        the last (the same result at both: the same between them), and the others
        (``inner``) only for a size that changes. With a symbolic trip count
        (``T - 1``) the middle is no affine function of it, and none is needed:
        every fit is checked over all the sizes at each of the others (``fit``)."""
        last = self.last
        if isinstance(last, SymInt):
            if not inner:
                return [0, last]
            # (four different trips: the entry guards more trips than the unroll limit)
            self._require(last - 2, "a loop with fewer than three trips")
            return [1, last - 1]
        trips = sorted({0, min(1, last), last // 2, max(last - 1, 0), last})
        if symbolic and not inner:
            return trips[:1] + trips[-1:]
        return trips[1:-1] if inner else trips

    def _result_at(self, op, call, i, symbolic: bool):
        """The op's result at trip ``i``: NumPy's rule at the example sizes, and, where
        other symbols are read (``symbolic``), fitted over them (``_fit_at``)."""
        args, kwargs = all_at_trip(call, self.symbol, i)
        env = self.output.shape_env
        try:
            meta = op.meta(op, *substitute((args, kwargs), env.hints))
        except Exception as e:  # noqa: BLE001
            raise NotALoopNode(f"np.{op.name} at index {self.rest[i]}: "
                               f"{type(e).__name__}: {e}") from None
        return self._fit_at(op, args, kwargs, meta, i) if symbolic else meta

    def _fit_at(self, op, args, kwargs, meta, i):
        """The op's result at trip ``i`` over the sizes: fitted as any op's is
        (``ShapeEnv.fit``), with the guards that fit needs (``x.shape[0] >= 3``, equal
        sizes). A fit that pins a size is no loop node (one entry per size, as
        unrolled), except where only integer positions pinned it: ``y[n - 1]`` for a
        ``y`` of 30 elements holds for ``n <= 30`` only, or ``y[n - 1]`` for a ``y`` of
        ``m`` for ``n <= m``, which a fit over one symbol at a time cannot say. Then
        each position ``p`` on a dimension of ``d`` is required in bounds,
        ``-d <= p < d`` (``_require``: proven, or guarded), and the result fitted
        without it (an integer position in bounds shapes nothing)."""
        env = self.output.shape_env
        trace = env.trace
        if trace is None:        # (outside a trace a pin raises: nothing to undo)
            return env.fit(op, args, kwargs, meta)
        before = set(trace.pins)
        fitted = env.fit(op, args, kwargs, meta)
        if not trace.pins - before:
            return fitted
        trace.forget_pins(before)
        refusal = NotALoopNode(f"np.{op.name} at index {self.rest[i]}: its size holds "
                               "for this size only")
        positions = [(k, p, d) for k, p, d in integer_positions(op, args) or ()
                     if isinstance(p, SymInt) or isinstance(d, SymInt)]
        slices = [c for c in constant_slices(op, args) if c[4] >= 0]   # (slice_positions)
        if not positions and not slices:
            raise refusal
        for _, p, d in positions:
            self._require(p + d, "an index out of bounds for some size")
            self._require(d - 1 - p, "an index out of bounds for some size")
        for _, start, stop, d, _ in slices:
            self._require(start, "a slice out of bounds for some size")
            self._require(d - stop, "a slice out of bounds for some size")
        args = with_positions(args, {k: 0 for k, _, _ in positions} |
                              {k: slice(0, n) for k, _, _, _, n in slices})
        fitted = env.fit(op, args, kwargs, meta)
        if trace.pins - before:
            raise refusal
        return fitted

    def _growing(self, op, at_trips: list):
        """The result of an op whose shape changes with the trip (``a[:k] @ x[:k]``,
        ``a[k::-1]``): each size an affine function of the trip, ``d0 + c * trip``,
        fitted at trips 0 and 1 and checked at the others (``d0`` may be an expression
        of other symbols; ``c`` is a constant). The body runs such ops one by one with
        NumPy's own sizes (a backend specializes nothing on a size that holds the
        trip), so the fit only has to be right for the metadata: the dtypes, and the
        sizes of what the loop leaves behind (the last trip's, checked)."""
        metas = [(i, _metas(m)) for i, m in at_trips]
        first, second = metas[0][1], metas[1][1] if len(metas) > 1 else metas[0][1]
        if any([(m.dtype, m.scalar, m.ndim) for m in ms] !=
               [(m.dtype, m.scalar, m.ndim) for m in first] for _, ms in metas):
            raise NotALoopNode(f"np.{op.name}: its dtype or rank depends on the index")
        not_affine = NotALoopNode(f"np.{op.name}: a size that is not an affine function "
                                  "of the index")
        trip = Sym(((self.symbol, 1),), 0, ((self.symbol, self.symbol),))
        fitted = []
        for j, m in enumerate(first):
            dims = []
            for axis, d0 in enumerate(m.shape):
                if isinstance(d0, ops.DataSize):   # a fresh size every trip: no change
                    if not all(same_mark(ms[j].shape[axis], d0) for _, ms in metas):
                        raise not_affine
                    dims.append(d0)
                    continue
                step = as_sym(second[j].shape[axis]) - as_sym(d0)
                if not step.is_constant():
                    raise not_affine
                step = step.const
                if any(as_sym(ms[j].shape[axis]) != as_sym(d0 + step * i) for i, ms in metas):
                    raise not_affine
                dims.append(SymInt(int(d0), as_sym(d0) + trip.scale(step)) if step else d0)
            fitted.append(m.with_(shape=tuple(dims)))
        meta = at_trips[0][1]
        return type(meta)(fitted) if isinstance(meta, (tuple, list)) else fitted[0]

    def at_last_trip(self, meta):
        """A metadata whose sizes may hold the trip, at the last trip (what a temporary
        holds after the loop)."""
        return meta.with_(shape=tuple(at_trip(d, self.symbol, self.last)
                                      for d in meta.shape))

    def _check_slice(self, s: slice) -> None:
        """A slice whose bounds move with the index keeps its length only when both move
        alike and never wrap around (negative bounds count from the end): each moving
        bound is ``>= 0`` at the first and the last trip, for every size (``_require``)."""
        start, stop, step = map(self._coefficient, (s.start, s.stop, s.step))
        if not (start or stop or step):
            return
        if step:
            raise NotALoopNode("a slice whose step changes with the index")
        if (s.start is None or s.stop is None or start != stop) and \
                s.step not in (None, 1, -1):
            # (a length that changes with the index is fitted by ``fit``; with a
            # step of 1 or -1 it is affine where no bound is clamped)
            raise NotALoopNode("a slice whose length changes with the index by a step "
                               "other than 1 or -1")
        moving = [b for b in (s.start, s.stop) if self._coefficient(b)]
        for i in (0, self.last):
            for b in moving:
                self._require(at_trip(b, self.symbol, i),
                              "a slice bound that wraps around at some index")

    def _require(self, value, why: str) -> None:
        """``value >= 0`` (an int, or an affine SymInt of sizes and the trip count) for
        every size the entry serves: proven from what the entry guards about the
        symbols (``symbolic.bounds``; no guard needed), or else guarded, where it holds
        for this call's sizes (a decision, as ``T > 8`` is: never a pin), or else no
        loop node (``why``). A size the data decides (``len(x[m])``) may be any count
        from 0 up and is never guarded: it must be proven."""
        if not isinstance(value, SymInt):
            if value < 0:
                raise NotALoopNode(why)
            return
        counts = value.sym.symbols & self.output.shape_env.unbacked.keys()
        if counts:
            if not always_nonnegative(from_zero(value.sym, counts), self.facts):
                raise NotALoopNode(why)
            return
        if always_nonnegative(value.sym, self.facts):
            return
        if int(value) < 0:
            raise NotALoopNode(why)
        if not value >= 0:   # (a SymInt comparison: records the guard)
            raise NotALoopNode(why)

    def _coefficient(self, value) -> int:
        if isinstance(value, SymInt):
            return dict(value.sym.terms).get(self.symbol, 0)
        return 0
