"""Nested loop nodes: a ``for`` loop over a ``range`` inside the body of a loop node
that is being traced becomes a loop node of its own, inside the outer body graph (the
part of ``LoopScope``, ``loops.py``, that knows its enclosing scope, ``parent``).

A DP table's column loop is the usual case::

    for i in range(1, n):                        # the outer node: i = 1 + trip
        D[i, 0] = D[i - 1, 0] + C[i, 0]
        for j in range(1, m):                    # an inner node in the outer body
            D[i, j] = C[i, j] + min(D[i - 1, j], D[i, j - 1], D[i - 1, j - 1])

Before, the inner loop was unrolled into the outer body (12 ops per column and trip);
now the outer body holds ``ops.fori_loop(fori_loop_body, m - 2, (C, D), (trip,))``
(the first column unrolled, as for any loop node), whose body reads the outer trip as
a free input. The inner scope makes every check an outer one makes (carried arrays,
temporaries, effects, liveness), and, where an op reads both indices (``D[i, j - 1]``),
checks it at the outer scope's checked trips too (``nested_fit``: each index is affine
in both trips, so bounds at the corners hold in between); an op that reads the outer
index only is the outer scope's to check (``IndexFit.fit`` of ``parent``). What the
inner scope cannot check (a trip count that follows the outer index, ``range(i)``; an
op whose result changes with the outer index) leaves the inner loop unrolled, as
before (``may_nest``, ``NotALoopNode``): its refusal restarts the trace with the inner
loop unrolled where it is nested only (``loops.UNROLL_NESTED``), and the outer loop's
attempt passes that restart on instead of failing with it.

Values from outside both bodies reach the inner body through the outer one: the
inner scope's free inputs are nodes of the outer body (``localize_through``).

Example::

    >>> may_nest(tx.output.loop_scope, tx.config, 10, 1, LoopScope)   # range(1, m) in a body
    True
"""

from __future__ import annotations

import itertools
from contextlib import contextmanager

from ..symbolic.fit import symbols_in
from ..tree import tree_leaves
from .loop_facts import NotALoopNode, WatchedLocals, all_at_trip, at_trip, is_slice, same_result


def may_nest(scope, config, trips, start, plain: type) -> bool:
    """Whether a loop may be a node inside the body that ``scope`` traces (None: no
    body is being traced, any loop may): ``scope`` is a plain ``for`` loop node (of
    the class ``plain``, not a ``while`` loop's nor one over a count the data decides),
    and the inner trip count and start are ints or read the entry's sizes only: no
    enclosing loop's index (``range(i)`` stays unrolled), no count the data decides."""
    if scope is None:
        return True
    if not config.nested_loop_nodes or kind_of(scope) is not plain:
        return False
    return symbols_in((trips, start)) <= scope.output.shape_env.symbols.keys()


def kind_of(scope) -> type:
    """The class ``scope`` traces its body as: its own, or, for a segment of a split
    loop (``index_splits``), the class it is a segment of."""
    return getattr(scope, "behaves_as", None) or type(scope)


def enclosing_symbols(scope) -> set[str]:
    """The index symbols of ``scope`` and of the scopes around it."""
    symbols = set()
    while scope is not None:
        symbols.add(scope.symbol)
        scope = getattr(scope, "parent", None)
    return symbols


class NestedScope:
    """The part of a ``LoopScope`` that relates it to its enclosing scope (``parent``,
    None for a loop of the frame itself) and the graph its node goes in
    (``outer_graph``)."""

    parent = None
    outer_graph = None
    outer_log = None     # the outer body's ``SideEffects.log`` while this body is traced

    def localize_through(self, node):
        """``node``, a value from outside this body, as a value of the graph this
        loop's node goes in: a node of an enclosing body (or the frame's graph) reaches
        an inner body through the outer body's free inputs."""
        if self.parent is not None and node.graph is not self.outer_graph:
            return self.parent.localize(node)
        return node

    def index_symbols(self) -> set[str]:
        """This loop's index symbol and the enclosing loops' (``0.5 * i`` of an outer
        index is a value of the outer trip in an inner body, as ``0.5 * j`` is of the
        inner one: ``variables/constant.py``)."""
        return enclosing_symbols(self)

    def reads_any_index(self, value) -> bool:
        """Whether ``value`` reads this loop's index or an enclosing loop's."""
        return bool(symbols_in(value) & enclosing_symbols(self))

    def nested_fit(self, op, meta_args, meta_kwargs, meta):
        """The fit of an op in a nested body that reads an enclosing index: the
        enclosing scope's fit where it does not read this loop's; else this loop's fit
        at each of the nearest enclosing reader's checked trips, which must all give
        the same result (a size that follows the outer index is no inner node). None:
        the op reads no enclosing index (``fit`` goes on as for any loop)."""
        call = (meta_args, meta_kwargs)
        read = symbols_in(call)
        outer = self.parent
        while outer is not None and outer.symbol not in read:
            outer = outer.parent
        if outer is None:
            return None
        if self.symbol not in read:
            return self.parent.fit(op, meta_args, meta_kwargs, meta)
        # (a symbolic trip count, ``range(n)`` over a size that changes between calls:
        # the outer trips checked are 0 and ``last``, an expression of the sizes, and
        # at each this loop's fit is symbolic, proven over every size as a loop's of
        # one level; the indices are affine in both trips, so the corners bound the
        # trips in between. Before, such an op left the inner loop unrolled, and the
        # unrolled loop pinned the size: one trace per size.)
        self._check_nested_slices(call)
        results = []
        for k in outer._checked_trips(False):
            args, kwargs = all_at_trip(call, outer.symbol, k)
            # the rule's result at this outer trip (the inner index at its hint, trip
            # 0), not ``meta`` (the outer trip's hint): ``fit`` answers the ``meta`` it
            # is given where the inner trips agree, so ``C[i, j:j + i + 1]`` (a size
            # that follows i alone) gave one answer at every outer trip and passed
            # (issue #17 round 36: ``len`` of it read the first row's length)
            at_k = self._result_at(op, (args, kwargs), 0, False)
            results.append(self.fit(op, args, kwargs, at_k))
        if not all(same_result(r, results[0]) for r in results):
            raise NotALoopNode(f"np.{op.name}: its result changes with an outer loop's "
                               "index")
        return results[0]

    def _scopes(self) -> list:
        scopes, scope = [], self
        while scope is not None:
            scopes.append(scope)
            scope = scope.parent
        return scopes

    def _check_nested_slices(self, call) -> None:
        """A slice bound that moves with any of the indices is ``>= 0`` at every corner
        of the loops' trips (affine in each: in between too); one whose step moves is
        no node."""
        scopes = self._scopes()
        symbols = {s.symbol for s in scopes}
        for leaf in tree_leaves(call, is_leaf=is_slice):
            if not isinstance(leaf, slice):
                continue
            if symbols_in(leaf.step) & symbols:
                raise NotALoopNode("a slice whose step changes with an index")
            for bound in (leaf.start, leaf.stop):
                moving = [s for s in scopes if s.symbol in symbols_in(bound)]
                for corner in itertools.product(*[(0, s.last) for s in moving]):
                    value = bound
                    for s, trip in zip(moving, corner):
                        value = at_trip(value, s.symbol, trip)
                    self._require(value, "a slice bound that wraps around at some index")

    def check_counter_start(self, name: str, start) -> None:
        """A counter of a nested body (``k += 1`` in the inner loop) that starts where
        the outer trip left it (``k0 + m * i``) is no counter of the inner node: its
        start is no constant of the inner body (the inner loop is unrolled, and the
        outer node counts it)."""
        if self.parent is not None and symbols_in(start) & enclosing_symbols(self.parent):
            raise NotALoopNode(f"the counter {name!r} starts at a value of an outer trip")

    def hand_back(self, frame_locals) -> None:
        """After the inner body's trace: what it did is what the outer body did. The
        names it read or wrote first are noted in the outer scope's ``WatchedLocals``
        (after the names the outer body touched before), iterators it made are the
        outer body's, and so are its Python effects (``SideEffects.log``)."""
        parent = self.parent
        if parent is None:
            return
        if isinstance(frame_locals, WatchedLocals):
            for name, how in self.watched.first.items():
                frame_locals.first.setdefault(name, how)
            frame_locals.opaque = frame_locals.opaque or self.watched.opaque
        parent.created |= self.created


@contextmanager
def unwatched(frame_locals):
    """While a nested node is finished (``LoopScope.finish``) in an outer body: its
    own bookkeeping (``locals.items()``, reads of the holders) is no read of the outer
    body's, so the outer ``WatchedLocals`` is left as the inner body's trace left it
    (``hand_back``)."""
    if not isinstance(frame_locals, WatchedLocals):
        yield
        return
    first, opaque = dict(frame_locals.first), frame_locals.opaque
    try:
        yield
    finally:
        frame_locals.first.clear()
        frame_locals.first.update(first)
        frame_locals.opaque = opaque
