"""Array facts and values the trace can know: shapes, and arrays made from constants.

``np.shape(x)``, ``np.ndim(x)`` and ``np.size(x, axis)`` read the shape only: the
trace answers them from the array's meta (``array_fact``), as it answers ``x.shape``.

``np.array([i1, i2]) < 0`` with Python ints ``i1, i2`` (guarded constants) is an array
node in the graph, but nothing in it depends on the program's array data. When the
program asks for its truth value (``if``, ``any(...)``), the trace can compute it
now, by running the few ops that made it on their constant arguments, instead of
breaking the graph.

It is exact only while nothing can have changed those arrays since: the graph must
hold no write (a mutation op, an ``out=``), since a write into one array may reach
another through a view. Ops that draw random numbers or change state, symbolic sizes,
graph inputs, CuPy arrays, NumPy warnings and errors (they must happen when the
program runs) all make a value unknown; so does a value too big to compute here.

Example::

    >>> known_value(tx.output.graph, less_node)   # less(array([2, 3]), 0)
    array([False, False])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import ops
from ..ops.quiet import warnings_as
from ..tree import tree_map

# Bounds on what is computed while tracing: ops walked, and elements of each value.
MAX_NODES = 32
MAX_ELEMENTS = 1 << 10


# The arguments an op may be run on here, besides the values of other nodes.
_DATA = (int, float, complex, str, bytes, type(None), type(Ellipsis), np.generic, np.dtype,
         type)


class _Unknown(Exception):  # noqa: N818 (control flow, not an error)
    """The value depends on something the trace does not know now."""


def known_value(graph, node) -> Any | None:
    """The NumPy value of graph ``node`` computed now, or None when it is not known
    (see the module docstring for when it is)."""
    if any(_writes(n) for n in graph.call_nodes()):
        return None
    memo: dict = {}
    try:
        return _value(node, memo)
    except _Unknown:
        return None


def _writes(node) -> bool:
    """Whether ``node`` writes into an array (a mutation op, or ``out=``)."""
    return node.meta.get("kind") == ops.MUTATION or \
        node.kwargs.get("out") is not None


def _value(node, memo: dict) -> Any:
    if node in memo:
        return memo[node]
    if len(memo) >= MAX_NODES or getattr(node, "op", None) != "call":
        raise _Unknown   # a graph input, a constant node, or too long a chain
    op = ops.REGISTRY.get(node.target)
    meta = node.meta.get("array")
    if op is None or op.random or op.effect or op.kind == ops.MUTATION or \
            not isinstance(meta, ops.ArrayMeta) or meta.kind != ops.NUMPY or \
            meta.size > MAX_ELEMENTS:
        raise _Unknown
    memo[node] = None    # counts against the budget while its inputs are computed

    def leaf(v):
        if getattr(v, "op", None) is not None and hasattr(v, "target"):   # a Node
            return _value(v, memo)
        if not isinstance(v, _DATA):   # a symbolic size (known when the graph runs), a
            raise _Unknown             # subgraph: not plain data
        return v

    args, kwargs = tree_map(leaf, (node.args, node.kwargs))
    try:   # a warning or an error belongs to the program's run, not to the trace
        with np.errstate(all="raise"), warnings_as("error"):
            value = getattr(ops.impl_table(ops.NUMPY), op.name)(*args, **kwargs)
    except Exception as e:  # noqa: BLE001
        raise _Unknown from e
    if not isinstance(value, (np.ndarray, np.generic)):
        raise _Unknown
    memo[node] = value
    return value


# Functions that read an array's shape only
ARRAY_FACTS = (np.shape, np.ndim, np.size)


def is_array_fact(fn) -> bool:
    """Whether ``fn`` is one of ``ARRAY_FACTS``, by identity: the callable may be a
    user's object that cannot be hashed (``np.poly1d(c)``, ``__hash__ = None``), so no
    set lookup, which would raise a TypeError the program itself never raises.

        >>> is_array_fact(np.shape), is_array_fact(np.poly1d([1.0, 2.0]))
        (True, False)
    """
    return any(fn is f for f in ARRAY_FACTS)


class _Shaped:
    """What ``np.shape``, ``np.ndim`` and ``np.size`` read of an array (``.shape``,
    ``.ndim``, ``.size``), from its meta: NumPy's own functions run on it, so their
    answers and errors (a bad ``axis``) are NumPy's. Symbolic sizes stay symbolic."""

    def __init__(self, meta: ops.ArrayMeta):
        self.shape, self.ndim = tuple(meta.shape), meta.ndim
        self.size = 1
        for d in self.shape:
            self.size = self.size * d


def array_fact(fn, args: list, kwargs: dict) -> Any:
    """``fn`` (one of ``ARRAY_FACTS``) of arguments where each array is its ``ArrayMeta`` and
    the rest Python values (an axis)."""
    def value(v):
        return _Shaped(v) if isinstance(v, ops.ArrayMeta) else v
    return fn(*[value(a) for a in args], **{k: value(v) for k, v in kwargs.items()})
