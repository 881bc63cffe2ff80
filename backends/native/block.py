"""``_Block`` lowers the nodes of one graph (the kernel's or a loop body's) in order; its
methods live in one module per kind of node (elementwise.py, nests.py, stencils.py,
reductions.py, loops.py)."""

from __future__ import annotations

from typing import Any

import numpy as np

from dynamo.graph import CALL, CONSTANT, PLACEHOLDER, Graph, Node

from .calls import Calls, Deferred, eligible
from .creation import CREATION, Creation
from .diagonals import Diagonals
from .dots import Dots
from .draws import Draws, drawable, from_global_state
from .elementwise import Elementwise, no_loop_for
from .emitter import _Emitter
from .gathers import Gathers
from .loops import Loops
from .moves import Moves
from .nests import Nests
from .nopython_draws import emit_draw, nopython_form
from .ops import _ELEMENTWISE, _REDUCTIONS, Unsupported, _meta
from .outs import Outs, out_of
from .picked_scalars import PickedScalars, int64_index_cast
from .reductions import Reductions
from .run_stores import RunPart, RunStores, run_part
from .scans import SCANS, Scans
from .scatters import Scatters
from .stencils import Stencils
from .strided import check_reader, reader_order
from .sym_slices import SymSlices
from .ufunc_ats import UfuncAts
from .values import Arr, Const, Lazy, Obj, View

# the ops lowered to loop nests (others may still be called through NumPy: calls.py)
_NATIVE = _ELEMENTWISE | _REDUCTIONS | CREATION | SCANS | {"roll", "getitem", "setitem",
                                                           "after_loop", "fori_loop",
                                                           "ufunc_at", "fill_diagonal",
                                                           "scalar_cast", "sym_int",
                                                           # (picked_scalars.py)
                                                           "branch_select", "asarray",
                                                           "sym_number"}


class _Block(Elementwise, Nests, Stencils, Reductions, Loops, Creation, Moves, Calls,
             Draws, Outs, Gathers, Scatters, SymSlices, Dots, RunStores, Scans, UfuncAts,
             Diagonals, PickedScalars):
    """Lowers the nodes of one graph (the kernel's, or a loop body's) in order."""

    def __init__(self, em: _Emitter, graph: Graph, env: dict):
        self.em, self.graph = em, graph
        self.env: dict[Node, Any] = env
        self.pending: dict[Node, Lazy] = {}   # inlined values not yet read
        self.out_nodes: set[Node] = set()     # elementwise nodes stored into their out=
        self.into: dict[Node, str] = {}       # nodes made into a loop's buffers (loops.py)

    # ------------------------------------------------------------- nodes
    def run(self) -> None:
        for node in self.graph.nodes:
            if node.op == PLACEHOLDER:
                if node not in self.env:
                    raise Unsupported(f"placeholder {node.name}")
            elif node.op == CONSTANT:
                value = node.args[0]
                if not isinstance(value, (bool, int, float, complex, np.generic)):
                    raise Unsupported(f"constant of type {type(value).__name__}")
                self.env[node] = Const(value)
            elif node.op == CALL:
                self.call(node)

    def call(self, node: Node) -> None:
        """Lower ``node`` to loop nests; an op with no loop nest (or whose form has
        none, or that reads a ``Deferred`` view) is called through NumPy when it can
        be (calls.py), else ``Unsupported``."""
        if node.target == "random_default_rng":   # a Generator made in the graph
            self.env[node] = self.new_generator(node)
            return
        if self.em.nopython_draws and nopython_form(node) and \
                isinstance(self.env.get(node.args[0]), Obj):   # (nopython_draws.py)
            self.env[node] = emit_draw(self.em, self.env[node.args[0]].name, node)
            return
        if run_part(node):   # of a store into a run-time-length slice (run_stores.py)
            self.env[node] = RunPart(node)
            return
        if check_reader(self.em.orders, node):   # reads a value not in C order (strided.py)
            self.em.ordered_inputs = True           # (orders derived for C-ordered inputs)
            if node.target not in _ELEMENTWISE and node.target not in _REDUCTIONS \
                    and node.target != "setitem":
                reader_order(self.em.orders, node)
        reads_deferred = any(isinstance(self.env.get(a), Deferred) for a in node.inputs())
        if node.target not in _NATIVE or reads_deferred or no_loop_for(node):
            if not eligible(node):
                if not drawable(node):
                    raise Unsupported(f"op {node.target!r} is not lowered")
                self.em.global_draws |= from_global_state(node)   # (draws.py)
            self.env[node] = self.npcall(node)
            return
        em = self.em
        before = (len(em.lines), em.group, len(em.group.lines) if em.group else 0,
                  len(em.consts), em.parallel)
        deferred, pending = set(em.deferred), dict(self.pending)
        try:
            self.native(node)
        except Unsupported:
            after = (len(em.lines), em.group, len(em.group.lines) if em.group else 0,
                     len(em.consts), em.parallel)
            # (a creation the nests refuse is one NumPy raises for or lays out in
            # another order: a NumPy call would be flagged on every call)
            if after != before or not eligible(node) or node.target in CREATION or \
                    node.target in ("getitem", "setitem"):
                raise
            # nothing was emitted: NumPy computes it instead
            em.deferred, self.pending = deferred, pending
            self.env.pop(node, None)
            self.env[node] = self.npcall(node)

    def native(self, node: Node) -> None:
        target = node.target
        if target in _ELEMENTWISE and out_of(node) is not None:
            self.env[node] = self.ufunc_out(node)   # ``x += y`` (outs.py)
        elif target in _ELEMENTWISE:
            meta = _meta(node)
            users = list(node.users)
            if not meta.scalar and len(users) == 1 and users[0].op == CALL and (
                    users[0].target in _ELEMENTWISE or users[0].target in _REDUCTIONS
                    or users[0].target == "setitem"):
                keys = frozenset().union(*(self._keys(a) for a in node.inputs()))
                self.env[node] = Lazy(node, keys, meta.shape, meta.dtype)
                self.pending[node] = self.env[node]
                # check it lowers now, not at its use (an error there would be late);
                # its statements are dropped, so are the checks it marked as done
                deferred = set(self.em.deferred)
                self.elementwise(node, ["0"] * meta.ndim, [], "nf")
                self.em.deferred = deferred
                for a in node.inputs():   # the check consumed the inputs; they stay pending
                    if isinstance(self.env.get(a), Lazy):
                        self.pending[a] = self.env[a]
            else:
                # the same check before the allocation: a node with no loop nest
                # leaves nothing behind (``call`` then calls NumPy for it)
                deferred = set(self.em.deferred)
                self.elementwise(node, ["0"] * meta.ndim, [], "nf")
                self.em.deferred = deferred
                for a in node.inputs():
                    if isinstance(self.env.get(a), Lazy):
                        self.pending[a] = self.env[a]
                self.env[node] = self.materialize(node)
        elif target in _REDUCTIONS:
            self.env[node] = self.reduction(node)
        elif target in CREATION:
            self.env[node] = self.creation(node)
        elif target == "roll":
            self.env[node] = self.roll(node)
        elif target in SCANS:   # cumsum, cumprod, diff as loops (scans.py)
            self.env[node] = self.scan(node)
        elif target == "getitem":
            self.env[node] = self.getitem(node)
        elif target == "setitem":
            self.env[node] = self.setitem(node)
        elif target == "ufunc_at":   # np.add.at(a, idx, b): in place (ufunc_ats.py)
            self.env[node] = self.ufunc_at(node)
        elif target == "fill_diagonal":   # in place (diagonals.py)
            self.env[node] = self.fill_diagonal(node)
        elif target == "after_loop":
            self.env[node] = self.val(node.args[0])
        elif target == "fori_loop":
            self.env[node] = self.fori_loop(node)
        elif target == "scalar_cast" and int64_index_cast(node):   # np.int64(trip + 1)
            self.env[node] = self.int_cast(node)
        elif target == "scalar_cast":   # np.float64(0.0) only (no_loop_for: others NumPy's)
            self.env[node] = self.materialize(node)
        elif target == "branch_select":   # of two scalars (picked_scalars.py)
            self.env[node] = self.branch_select(node)
        elif target == "asarray":   # a 0-d int64 of an int (picked_scalars.py)
            self.env[node] = self.int_asarray(node)
        elif target == "sym_number":
            self.env[node] = self.sym_number(node)
        elif target == "sym_int":   # an int of enclosing trips (loops.py)
            self.env[node] = self.sym_int(node)
        else:
            raise Unsupported(f"op {target!r} is not lowered")

    def _keys(self, node: Node) -> frozenset:
        v = self.env.get(node)
        if isinstance(v, (Arr, View)):
            return frozenset({v.key})
        if isinstance(v, Lazy):
            return v.keys
        return frozenset()
