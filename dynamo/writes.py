"""Writes into the memory of inputs, random draws, and ops inside ``try`` blocks: what
one graph may hold of them, and the guards they need.

The OutputGraph asks its ``WriteGuard`` before it adds an op (``check_op``, and
``guard_writeable`` for an op that writes into an array). The guard may refuse with
``Unsupported`` (a graph break at that op):

- a write into a read-only input (NumPy raises; the write runs eagerly so it does);
- an op inside a ``try`` together with a write into an input or a random draw in one
  graph (a graph that raises is rerun eagerly, which is exact only when it changed
  nothing: see ``check_op``).

A write into an input guards the input writeable. The functions below follow a node to
the input memory it may share (``buffer_roots``), and an op's arguments to the array it
writes into (``written_array``).

Example::

    >>> w = WriteGuard(guards, example_inputs)
    >>> w.check_op(ops.get("add"), None)              # np.add(x, 1): fine
    >>> w.guard_writeable(x_node)                     # x[0] = 1: L['x'] stays writeable
    >>> w.writes_inputs
    True
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from dynamo.guards import ARRAY, Guard, GuardSet

from . import ops
from .exc import Unsupported
from .variables import ArrayVariable, TupleVariable


class WriteGuard:
    """The flags of one graph: does it write into an input (``writes_inputs``), draw
    random numbers (``draws``), hold an op that may warn at Python level (``warns``),
    hold an op added inside a ``try`` (``ops_in_try``), hold checks on array data
    (``checks``: after one, such ops restart the trace, which then breaks at the
    check: ``translator/raising_checks.py``);
    ``catching`` is set by the translator before each instruction."""

    def __init__(self, guards: GuardSet, example_inputs: dict[Any, Any]):
        self.guards = guards                       # the OutputGraph's
        self.example_inputs = example_inputs       # placeholder node -> the real value
        self.writes_inputs = False                 # an op writes into an input's memory
        self.catching = False                      # some frame of the trace is in a try
        self.ops_in_try = False                    # an op was added while catching
        self.draws = False                         # an op drew random numbers
        self.warns = False                         # an op may warn at Python level
        self.checks: list = []                     # per data_check op: its restart
        self.roots: dict = {}                      # node -> its buffer_roots (memo)

    def check_op(self, op: ops.OpDef, target) -> None:
        """Ops inside a ``try`` (``self.catching``: some frame of the trace is in a
        ``try`` or ``finally`` block) may raise, and the program's handler must see it.
        The hook makes sure it does by running the frame's original code when the graph
        raises (``dynamo.exc.RerunEagerly``), which is exact only for a graph that writes
        no input and draws no random numbers. So such an op and such a write or draw are
        never in one graph: whichever comes second is a graph break (inside the ``try``,
        the block runs eagerly)."""
        changes_state = op.random or (target is not None and
                                      bool(buffer_roots(target.node, self.roots)))
        if self.catching and (changes_state or self.writes_inputs or self.draws
                              or self.warns):
            raise Unsupported("an array op inside a try block after a write or a random draw",
                              "If the op raises, the handler must see the inputs as they "
                              "were; the block runs eagerly.", cause="try")
        if self.checks and (changes_state or op.effect):
            # (the frame reruns when a check fails: exact only if the graph changed
            # nothing, so the last check becomes the graph break it was)
            raise self.checks[-1]()
        if changes_state and self.ops_in_try:
            raise Unsupported("a write or a random draw after an array op inside a try block",
                              "The graph before it must stay safe to rerun when it raises.",
                              cause="try")
        self.ops_in_try |= self.catching
        self.draws |= op.random

    def check_warns(self, node) -> None:
        """``node`` (just added) may warn at Python level, beyond floating-point
        conditions (``dynamo.ops.signals.warns_in_python``: "Mean of empty
        slice" from NumPy's Python code, "Degrees of freedom <= 0", a ComplexWarning).
        No ufunc setting turns such
        a warning into an exception, so a graph holding the op cannot be rerun when it
        raises after it (the rerun would warn again: ``raising.rerun_on_raise``), and
        an op inside a ``try`` needs that rerun. So the two are never in one graph:
        whichever comes second is a graph break, as for writes and draws.
        The node is marked (``node.meta["warns"]``): a warnings filter "error" makes it
        raise (``raising.raising_nodes``)."""
        if self.checks:   # (a rerun after a failed check would repeat the warning)
            raise self.checks[-1]()
        if self.catching or self.ops_in_try:
            raise Unsupported(f"np.{node.target} may warn at Python level (not a "
                              f"floating-point condition), in a graph with an op inside "
                              f"a try block",
                              "If an op of the graph raises, the handler sees it through "
                              "a rerun of the frame, which would repeat the warning; the "
                              "block runs eagerly.", cause="try")
        self.warns = True
        node.meta["warns"] = True

    def guard_writeable(self, node) -> None:
        """The trace writes into ``node``'s memory: every input it may be a view of must
        stay writeable (a read-only input makes NumPy raise, so that write runs eagerly)."""
        for root in buffer_roots(node, self.roots):
            self.writes_inputs = True
            value = self.example_inputs[root]
            source = root.meta["source"]
            if root.meta["array"].kind == ops.DASK:
                raise Unsupported(f"a write into the dask array {source.name()}",
                                  "dask runs it: x[i] = v gives x a new graph, and x += v "
                                  "makes a new array (dask arrays have no in-place "
                                  "operators)", cause="dask_write")
            if root.meta["array"].kind != ops.NUMPY:
                continue  # CuPy arrays have no read-only flag
            # (NPY_ARRAY_WRITEABLE of flags.num: ``flags.writeable`` of a view made by
            # np.broadcast_arrays warns FutureWarning when read)
            if not isinstance(value, np.ndarray) or not value.flags.num & 1024:
                raise Unsupported(f"a write into the read-only array {source.name()}",
                                  "NumPy raises here; the write runs eagerly so that it "
                                  "raises the same error.", cause="read_only_input")
            spec = self.guards.get(source, ARRAY).expected
            self.guards.add(Guard(source, ARRAY, replace(spec, writeable=True)))


def written_array(op, args, kwargs) -> ArrayVariable | None:
    """The array an op writes into: ``out=``, or the first argument of a mutation."""
    out = kwargs.get("out")
    if isinstance(out, TupleVariable) and len(out.items) == 1:
        out = out.items[0]
    if isinstance(out, ArrayVariable):
        return out
    if op.kind == ops.MUTATION and args and isinstance(args[0], ArrayVariable):
        return args[0]
    return None


def same_object_root(node):
    """The node of the array object ``node`` holds: in-place writes (a mutation op,
    ``out=``) give their target back, so they are followed to the node before them."""
    while getattr(node, "op", None) == "call":
        out = node.kwargs.get("out")
        if isinstance(out, tuple) and len(out) == 1:
            out = out[0]
        if out is not None and hasattr(out, "op"):
            node = out
        elif node.meta.get("kind") == ops.MUTATION and node.args:
            node = node.args[0]
        else:
            break
    return node


# Ops whose result may be their first argument's memory (astype(copy=False) is the
# array itself when the dtype already matches).
_MAY_ALIAS = {"astype", "asarray", "array"}  # np.asarray(x), np.array(x, copy=False): x


def buffer_roots(node, memo: dict | None = None, made: bool = False) -> list:
    """The input placeholders whose memory ``node`` may share: through views, ops that
    may return their argument, and earlier in-place writes (which return their target).
    With ``made``, the arrays that ops made count as roots too (where two values of
    one graph may share memory: ``backends/passes/input_overlap.py``).

    ``memo`` (node -> roots) keeps the answers: a chain of in-place writes grows with
    the program, and asking again at each write would cost its length each time (one
    memo per value of ``made``)."""
    memo = {} if memo is None else memo
    todo = [node]
    while todo:
        n = todo[-1]
        if n in memo:
            todo.pop()
            continue
        sources = memory_sources(n)
        missing = [s for s in sources if s not in memo]
        if missing:
            todo += missing
            continue
        todo.pop()
        found = [n] if not sources and (made or n.op == "placeholder") else []
        for s in sources:
            found += [r for r in memo[s] if r not in found]
        memo[n] = found
    return memo[node]


def memory_sources(n) -> list:
    """The nodes whose memory ``n`` may be (one step of ``buffer_roots``)."""
    if not hasattr(n, "op"):
        return []
    if n.op == "placeholder":   # a loop body's input: the value before the loop
        return [n.meta["loop_outer"]] if "loop_outer" in n.meta else []
    if n.op != "call":
        return []
    if "out" in n.kwargs:
        out = n.kwargs["out"]
        return [o for o in (out if isinstance(out, tuple) else (out,)) if hasattr(o, "op")]
    if n.target == "branch_select":   # one of its two ways' arrays, itself
        return [a for a in n.args[1:] if hasattr(a, "op")]
    if (n.meta.get("kind") in (ops.VIEW, ops.MUTATION) or n.target in _MAY_ALIAS) and n.args:
        return [n.args[0]] if hasattr(n.args[0], "op") else []
    return []


__all__ = ["WriteGuard", "buffer_roots", "memory_sources", "same_object_root",
           "written_array"]
