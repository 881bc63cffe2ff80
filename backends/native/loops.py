"""Loop nodes (``fori_loop``, docs/loops.md) as ``for`` loops around their body's
statements; carried values are variables."""

from __future__ import annotations

from typing import Any

import numpy as np

from dynamo.graph import CALL, Graph, Node
from dynamo.symbolic import SymArg

from .loop_buffers import double_buffers
from .ops import Unsupported, _meta
from .saves import LoopSaves, Saver, save_whole
from .values import Arr, Const, Dead, Lazy, Scal, Tup, View

_INT64 = range(-(1 << 63), 1 << 63)
# the most trips a kernel's loop is taken to run (a loop of more would take many seconds
# per trip of work even in Numba): an affine int of trips stays an int64 below it
_MAX_TRIPS = 1 << 32


def _fits_int64(expr) -> bool:
    """Whether the kernel computes ``expr`` (an affine ``Sym`` over enclosing trips, or a
    ``scalars.Expr`` over them and constants: ``stepped_count``'s quotient) in int64 as
    Python does in ints: every constant an int64, and no affine part past int64 for
    trips below ``_MAX_TRIPS``. Numba types a literal past int64 otherwise, and wraps
    ``8 * 2**61``: ``range(i, n, 2**63)`` and ``range(i * 2**61, -1, -2**62)`` ran other
    trip counts in tier 2 than in Python (hostile round 39).

        >>> _fits_int64(Sym.symbol("t", "trip") - Sym((), 8))        # trip - 8
        True
        >>> _fits_int64(Sym.symbol("t", "trip").scale(1 << 61))      # 2**61 * trip
        False
    """
    if hasattr(expr, "terms"):                     # a Sym: its coefficients, its constant
        reach = sum(abs(c) for _, c in expr.terms) * _MAX_TRIPS + abs(expr.const)
        return reach < 1 << 63
    if getattr(expr, "op", None) == "const":
        value = expr.args[0]
        return not isinstance(value, int) or value in _INT64
    return all(_fits_int64(a) for a in getattr(expr, "args", ())
               if hasattr(a, "terms") or hasattr(a, "op"))


class Loops:
    """Methods of ``_Block`` (block.py): loop nodes."""

    def fori_loop(self, node: Node):
        body, trips, carried, free = node.args
        if not isinstance(body, Graph) or node.kwargs:
            raise Unsupported("fori_loop with a compiled body")
        em = self.em
        # a trip count that follows an enclosing loop's index (a triangular loop,
        # ``range(i + 1, n)``: ``n - 1 - trip_1``) is that expression of the enclosing
        # loop's trip variable; it may be 0 or below (no trip), so nothing is assumed
        # of it (``known``: 0 for the choices below that need trips to run)
        count = trips if isinstance(trips, int) else self.trip_expression(trips)
        known = trips if isinstance(trips, int) else 0
        for pending in list(self.pending):   # the loop may write what they read
            self.force(pending)
        phs = body.placeholders
        index, rest = phs[0], phs[1:]
        if "loop_index" not in index.meta or len(rest) != len(carried) + len(free):
            raise Unsupported("fori_loop body signature")
        env: dict[Node, Any] = {}
        names = []
        for ph, arg in zip(rest, (*carried, *free)):
            v = self.val(arg) if isinstance(arg, Node) else Const(arg)
            if isinstance(arg, Node) and isinstance(v, Lazy):
                v = self.force(arg)
            is_carried = ph in rest[:len(carried)]
            if isinstance(v, Const):
                meta = _meta(ph)
                if not meta.scalar:
                    raise Unsupported("constant carried into a loop as an array")
                name = em.new("c")
                em.line(f"{name} = {em.const(v.value, meta.dtype)}")
                v = Scal(name, meta.dtype)
            elif isinstance(v, View):
                if is_carried:
                    raise Unsupported("a view carried by a loop")
            elif is_carried:
                name = em.new("c")
                em.line(f"{name} = {v.name}")
                v = Arr(name, v.shape, v.dtype, v.key, v.fresh, v.input,
                        save=self.companion(v.save)) \
                    if isinstance(v, Arr) else Scal(name, v.dtype)
            if isinstance(v, (Arr, View, Scal)) and is_carried:
                names.append(v.name)
            env[ph] = v
        if len(carried) and not all(isinstance(env[p], (Arr, Scal)) for p in
                                    rest[:len(carried)]):
            raise Unsupported("loop carries a value that is not an array or scalar")
        # arrays rebound by the loop: memory keys change trip to trip; two carried arrays
        # that swap are both "the loop's", so writes into one invalidate reads of both
        # (the translator checked that no two carried arrays share memory: each gets a
        # key of its own; a free view of a carried array's memory would not follow it)
        carried_arrays = [env[p] for p in rest[:len(carried)] if isinstance(env[p], Arr)]
        carried_keys = {a.key for a in carried_arrays}
        for p in rest[len(carried):]:
            if isinstance(env[p], (Arr, View)) and env[p].key in carried_keys:
                raise Unsupported("a loop reads a view of an array it carries")
        for a in carried_arrays:
            a.key = em.new("loop")
            a.fresh = False
            a.input = None
        trip = em.new("trip")
        env[index] = Scal(trip, np.dtype(np.int64))
        em.flush()
        into = double_buffers(em, body, rest[:len(carried)], known, trip, {
            p: env[p].name for p in rest[:len(carried)]
            if isinstance(env[p], Arr) and env[p].save is None})
        start, pad = len(em.lines), em.pad   # where saves before the loop go
        em.line(f"for {trip} in range({count}):")
        saved = em.pad
        em.pad += "    "
        loop = LoopSaves(trip, trips if isinstance(trips, int) else None,
                         self.moving(body, rest[:len(carried)], env))
        em.loops.append(loop)
        inner = type(self)(em, body, env)   # a _Block for the body, same emitter
        inner.into = into
        try:
            inner.run()
        finally:
            em.loops.pop()
        em.lines[start:start] = [pad + line for line in loop.first]
        outs = body.outputs
        nxt, values = [], []
        for o in outs[:len(carried)]:
            v = inner.force(o) if isinstance(o, Node) and isinstance(inner.env[o], Lazy) \
                else inner.val(o) if isinstance(o, Node) else Const(o)
            if isinstance(v, Const):
                raise Unsupported("loop carries a constant")
            if isinstance(v, View):
                raise Unsupported("loop carries a view")
            nxt.append(v.name)
            values.append(v)
        # a carried array the body makes anew on every trip (``x = x - step * g``) is,
        # after a loop of one or more trips, a new array of the kernel's: it may be an
        # output (not one that may be an input, a free array or another slot's array)
        outer = [env[p] for p in rest] + list(self.env.values())
        made_anew = [env[p] for p, v in zip(rest[:len(carried)], values)
                     if known > 0 and isinstance(env[p], Arr) and isinstance(v, Arr)
                     and v.fresh and sum(v is w for w in values) == 1
                     and not any(v is w for w in outer)]
        moves = [(a, b) for a, b in zip(names, nxt) if a != b]   # (an array written in
        moves += self.companion_moves(                           # place keeps its name)
            [env[p] for p in rest[:len(carried)]], values, start, pad)
        if moves:
            em.line(f"{''.join(a + ', ' for a, _ in moves)}= {''.join(b + ', ' for _, b in moves)}")
        em.flush()
        extra = []
        read = self.read_after(node)
        for k, o in enumerate(outs[len(carried):], len(carried)):
            if k not in read:   # (``un = u.copy()`` of a time step: dead after the loop)
                extra.append(Dead())
                continue
            v = inner.force(o) if isinstance(o, Node) and isinstance(inner.env[o], Lazy) \
                else inner.val(o) if isinstance(o, Node) else Const(o)
            if not isinstance(v, (Arr, Scal)):
                raise Unsupported("loop temporary that is not an array or scalar")
            extra.append(v)
        em.flush()
        if em.lines[-1].lstrip().startswith(f"for {trip} in range("):
            em.line("pass")   # (a body that does nothing: a split loop's segment where
            # ``if k != p`` is false, docs/loops.md "Branches on the loop indices")
        em.pad = saved
        items = [env[p] for p in rest[:len(carried)]]
        for a in made_anew:
            a.fresh = True
        # a temporary defined in the body (``u = a / (K @ v)`` of Sinkhorn, where only
        # ``v`` is carried) holds its last trip's value after a loop of one or more trips,
        # as in eager; Numba types a name bound in a loop and read after it. A loop of no
        # trip never binds it (eager's value would come from before the loop): refused
        for v in extra:
            if known > 0:
                continue
            if isinstance(v, Arr) and v.fresh:
                raise Unsupported("an array temporary of a loop read after it")
            if isinstance(v, Scal) and not any(v.name == n for n in names):
                raise Unsupported("a scalar temporary of a loop read after it")
        return Tup(items + extra)

    def trip_expression(self, trips) -> str:
        """A symbolic trip count (a ``SymArg`` over enclosing loops' trips, each an
        int64 variable of the kernel, or over an int computed from them: ``sym_int``)
        as nopython source: ``(-v + 11)``. Any other symbol (a size, an int input):
        refused."""
        if not isinstance(trips, SymArg):
            raise Unsupported("fori_loop with a trip count that is no int expression")
        names = {}
        for sym, n in trips.nodes.items():
            v = self.env.get(n)
            if not isinstance(v, Scal) or v.dtype.kind not in "iu" or \
                    "loop_index" not in n.meta and "loop_outer" not in n.meta and \
                    n.target != "sym_int":
                raise Unsupported("fori_loop with a symbolic trip count")
            names[sym] = v.name
        if not _fits_int64(trips.sym):
            raise Unsupported("a trip count that may not fit an int64")
        return f"({trips.sym.render(names)})"

    def sym_int(self, node: Node) -> Scal:
        """An int the body computes from enclosing trips on each trip: the quotient of
        a stepped triangular loop's count (``((-trip + 18) // (-2))``, translator/
        triangular_loops.py ``stepped_count``), an int64 variable. Numba's ``//`` of
        int64 floors as Python's does; the divisor is a nonzero constant."""
        name = self.em.new("q")
        self.em.line(f"{name} = {self.trip_expression(node.args[0])}")
        return Scal(name, np.dtype(np.int64))

    @staticmethod
    def read_after(node: Node) -> set | range:
        """The positions of the loop's results that a node after the loop reads (all
        of them when the loop node has a user other than ``getitem``/``after_loop``)."""
        read = set()
        for user in node.users:
            if user.op == CALL and user.target == "after_loop" and user.args[0] is not node:
                continue
            if user.op != CALL or user.target != "getitem" or user.args[0] is not node \
                    or not isinstance(user.args[1], int):
                return range(len(node.args[2]) + len(node.args[0].outputs))
            if user.users:
                read.add(user.args[1])
        return read

    @staticmethod
    def moving(body: Graph, slots: list, env: dict) -> set:
        """The backups (companions) of the carried arrays that another array may
        replace from trip to trip: all but those the body writes in place."""
        moving = set()
        for ph, out in zip(slots, body.outputs):
            v = env[ph]
            if not isinstance(v, Arr) or v.save is None:
                continue
            while isinstance(out, Node) and out.op == CALL and out.target == "setitem":
                out = out.args[0]
            if out is not ph:
                moving.add(v.save.backup)
        return moving

    def companion(self, saver: Saver | None) -> Saver | None:
        """The backup and state variables that go with an array a loop carries
        (saves.py): copies of ``saver``'s, moved with the array from trip to trip."""
        if saver is None:
            return None
        em = self.em
        backup, state = em.new("bk"), em.new("st")
        em.line(f"{backup}, {state} = {saver.backup}, {saver.state}")
        em.companions.append(backup)
        return Saver(backup, state, saver.inputs, saver.ndim, saver.rows)

    def companion_moves(self, slots: list, values: list, start: int, pad: str) -> list:
        """The moves of the carried arrays' companions for the next trip: each slot
        takes the companion of the array it takes. A slot that takes an array with no
        companion (a new one) from one with, or the other way, cannot keep the pairing:
        the inputs involved are saved whole before the loop (line ``start``), after
        which a stale companion finds them saved and copies nothing."""
        em = self.em
        moves, whole = [], set()
        for slot, value in zip(slots, values):
            if not isinstance(slot, Arr):
                continue
            a, b = slot.save, getattr(value, "save", None)
            if a is None and b is None:
                continue
            if a is None or b is None:
                whole |= (a or b).inputs
            elif a.backup != b.backup:
                moves += [(a.backup, b.backup), (a.state, b.state)]
        if whole:
            em.whole_saved |= whole
            em.lines[start:start] = [pad + save_whole(em.input_savers[k], f"p{k}")
                                     for k in sorted(whole)]
        return moves
