"""Constant folding: compute at compile time what depends on no input.

A call whose arguments are all literals or constants (``np.arange(T)``, a causal
mask built from it, ``np.ones(4) * 2``) is run once, with NumPy, while compiling;
the graph keeps its value as a constant node. Only values every later op merely
reads are folded: a folded array is shared by every call, so one that is returned,
viewed or written to would leak that sharing; and only values whose inputs are all
folded (an input computed at run time may have been written through a view before
the value reads it). Nothing is folded when computing it
warns or raises (the warning or error then happens at run time, as in eager), when
it is larger than ``FOLD_LIMIT`` elements, when the graph runs on CuPy, or when its
value may depend on the caller's ufunc buffer size (``np.setbufsize``), which may
differ at run time: reductions of float16 or with a ``dtype`` (summed per buffer).
The constants a graph keeps are held between calls, so together they stay within
``kept_budget`` (a quarter of the largest array a call makes, at least
``FOLD_BYTES``): plain NumPy's peak holds that array at least, and the kept
constants count in the compiled program's (issue #15: at most 1.25x plain's). Over
it, the largest kept constant is computed at run time again (from its own folded
inputs): Crank-Nicolson's ``np.eye(200) - 0.25 * lap`` and ``np.eye(200) + ...``,
three 200x200 constants, made its peak 1.75x plain's.

Example::

    def attention_mask(x):
        i = np.arange(64)
        mask = np.where(i[:, None] >= i[None, :], 0.0, -1e9)   # folded to a constant
        return x + mask
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dynamo import ops
from dynamo.graph import CALL, OUTPUT, Graph, Node
from dynamo.ops import CREATION, ELEMENTWISE, MATMUL, NUMPY, REDUCTION, VIEW
from dynamo.ops.node_facts import (
    array_meta,
    has_effect,
    made_bytes,
    reduction_info,
    returns_fresh,
)
from dynamo.ops.quiet import warnings_as

from ..common import Interpreter
from .rewrite import rewrite

FOLD_LIMIT = 1 << 16  # elements: larger constants would cost memory for little gain
FOLD_BYTES = 64 << 10  # kept constants' bytes a graph may always hold (kept_budget)

_KINDS = frozenset({ELEMENTWISE, REDUCTION, VIEW, CREATION, MATMUL})
_NONDETERMINISTIC = frozenset({"empty", "empty_like"})


def _candidate(node: Node) -> bool:
    meta = array_meta(node)
    return (node.op == CALL and node.meta.get("kind") in _KINDS and not has_effect(node)
            and node.target not in _NONDETERMINISTIC and meta is not None
            and meta.kind == NUMPY and meta.size <= FOLD_LIMIT
            and not _buffer_dependent(node))


def _buffer_dependent(node: Node) -> bool:
    """A reduction that casts as it goes (float16 summed in float32, an explicit
    ``dtype``): NumPy casts buffer by buffer, so its value depends on the buffer size."""
    if node.meta.get("kind") != REDUCTION:
        return False
    src = array_meta(node.args[0]) if node.args else None
    info = reduction_info(node)
    return src is None or src.dtype == np.float16 or info is None or info.dtype is not None


def _evaluate(node: Node, args: tuple, kwargs: dict) -> Any:
    """The node's value, or None when computing it warns, raises or disagrees with meta."""
    try:
        with np.errstate(all="raise"), warnings_as("error"):
            value = ops.get(node.target).impl(*args, **kwargs)
    except Exception:  # noqa: BLE001 (left for run time, where eager raises or warns)
        return None
    meta = array_meta(node)
    if not isinstance(value, (np.ndarray, np.generic)) or value.dtype != meta.dtype or \
            np.shape(value) != meta.shape or isinstance(value, np.generic) != meta.scalar:
        return None
    return value


_UNKNOWN = object()   # a value known only at run time


class _CompileTime(Interpreter):
    """Runs the graph while compiling, as far as its values are known then: constants,
    and the candidate ops whose inputs are all known; every other value is _UNKNOWN."""

    def placeholder(self, node: Node, arg: Any) -> Any:
        return _UNKNOWN

    def call(self, node: Node) -> Any:
        if not _candidate(node) or any(self.env[i] is _UNKNOWN for i in node.inputs()):
            return _UNKNOWN
        value = _evaluate(node, self.fetch(node.args), self.fetch(node.kwargs))
        return _UNKNOWN if value is None else value

    def output(self, node: Node) -> tuple:
        return ()


def kept_budget(graph: Graph) -> int:
    """Bytes of constants ``graph`` may keep: a quarter of its largest array that is
    not an input (one a call makes: plain NumPy's peak holds it), at least FOLD_BYTES.
    Example: ``x @ x.T`` of a (600, 100) float64 ``x`` makes a 600x600 product of
    2,880,000 bytes: the graph may keep 720,000 bytes of constants."""
    made = [made_bytes(n) for n in graph.nodes]   # (not a view: ``X.T`` makes nothing)
    return max([FOLD_BYTES] + [b // 4 for b in made])


def _settle(folded: set) -> None:
    """Drop from ``folded`` (to a fixed point) what a kept op would read without
    merely reading it, and what reads a value computed at run time."""
    changed = True
    while changed:
        changed = False
        for node in list(folded):
            if any(u not in folded and (u.op == OUTPUT or not returns_fresh(u))
                   for u in node.users) or \
                    any(i.op == CALL and i not in folded for i in node.inputs()):
                folded.discard(node)
                changed = True


def fold_constants(graph: Graph) -> Graph:
    known = _CompileTime(graph)
    known.run(*[_UNKNOWN] * len(graph.placeholders))
    values = {n: v for n, v in known.env.items() if v is not _UNKNOWN}
    folded = {n for n in values if n.op == CALL}
    # A folded value some kept op reads becomes a constant node, so every such reader
    # must only read it. And a folded value's inputs must be folded too: an input
    # computed at run time may be written before the value reads it (`z = arange(4);
    # z[1:] += x; a = z * 2` reads the written z; the compile-time z is stale).
    # Dropping a node from `folded` turns its inputs into readers' inputs of a kept op
    # and its readers into readers of a run-time value, which may drop them in turn:
    # iterate to a fixed point.
    budget = kept_budget(graph)
    while True:
        _settle(folded)
        kept = [n for n in folded if isinstance(values[n], np.ndarray)
                and any(u not in folded for u in n.users)]
        if sum(values[n].nbytes for n in kept) <= budget:
            break
        folded.discard(max(kept, key=lambda n: values[n].nbytes))
    if not folded:
        return graph

    def visit(rw, node: Node) -> bool:
        if node not in folded:
            return False
        if any(u not in folded for u in node.users):
            value = values[node]
            if isinstance(value, np.ndarray):
                value.flags.writeable = False  # shared by every call: never written
            rw.env[node] = rw.constant(value, node.name, {"array": node.meta["array"],
                                                           "kind": "constant"})
        return True

    return rewrite(graph, visit)
