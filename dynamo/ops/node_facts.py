"""Facts about a graph's call nodes that passes and backends share, and the frontend
too: does the node write into an existing array, is running it observable beyond its
result, does it return a fresh array, its ArrayMeta, a reduction's normalized
parameters.

Example::

    >>> is_inplace(setitem_node), has_effect(setitem_node)
    (True, True)
    >>> reduction_info(max_node)          # x.max(axis=-1, keepdims=True) on (R, C)
    ReductionInfo(axes=(1,), keepdims=True, dtype=None, ddof=None)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

from dynamo.graph import CALL, Node

from . import registry
from .meta import ArrayMeta
from .registry import ELEMENTWISE, MATMUL, MUTATION, REDUCTION, VIEW
from .rules import bind

# Elementwise ops that are not ufuncs but still return a fresh array computed element
# by element, so they can run on blocks of their inputs.
FRESH_ELEMENTWISE = frozenset({"clip", "round", "around", "where", "astype", "copy", "pow",
                               "nan_to_num"})

# Products that may return a view of an operand: np.einsum("ii->i", a) is a's diagonal,
# np.einsum("ij->ji", a) its transpose (writeable views, NumPy >= 1.10).
MAY_RETURN_VIEW = frozenset({"einsum"})

# Reductions a group may hold, and the parameters they may use (anything else, such as
# where= or initial=, keeps the node out of fusion).
REDUCTIONS = frozenset({"sum", "prod", "mean", "var", "std", "max", "min", "any", "all",
                        "argmax", "argmin", "ptp"})
_REDUCTION_PARAMS = frozenset({"axis", "keepdims", "dtype", "ddof"})

# Dtype kinds a fused loop handles: booleans and numbers (not objects, strings, times).
NUMERIC_KINDS = frozenset("biufc")


def is_inplace(node: Node) -> bool:
    """The node writes into an existing array (``out=``, ``setitem``, ``**=``)."""
    if node.kwargs.get("out") is not None or node.meta.get("kind") == MUTATION:
        return True
    op = registry.REGISTRY.get(node.target) if node.op == CALL else None
    # np.add(a, b, c): a ufunc's positional arguments after its inputs are outputs
    return op is not None and isinstance(op.impl, np.ufunc) and len(node.args) > op.impl.nin


def has_effect(node: Node) -> bool:
    """Running the node is observable beyond its result: keep it, keep its order."""
    if node.op != CALL:
        return False
    op = registry.REGISTRY.get(node.target)
    return op is None or op.random or op.effect or is_inplace(node)


def returns_fresh(node: Node) -> bool:
    """The call only reads its arguments and returns a new array (never one of them)."""
    if node.op != CALL or is_inplace(node) or has_effect(node):
        return False
    kind = node.meta.get("kind")
    if kind == ELEMENTWISE:
        impl = registry.get(node.target).impl
        return (isinstance(impl, np.ufunc) or node.target in FRESH_ELEMENTWISE) and \
            node.kwargs.get("copy", True) is not False
    return kind in (REDUCTION, MATMUL) and node.target not in MAY_RETURN_VIEW


def made_bytes(node: Node) -> int:
    """Bytes of the new array the call makes: 0 for a view (basic indexing, ``x.T``,
    a reshape; not ``x[idx]`` with an index array, a gather), a write, a scalar, an
    unknown or symbolic size. Passes use it to weigh what a call holds (issue #15):
    ``X.T`` of a (2000, 50) input makes nothing, ``X.T @ X`` 20,000 bytes."""
    meta = array_meta(node)
    if node.op != CALL or meta is None or meta.scalar or is_inplace(node) or \
            not all(type(d) is int or isinstance(d, np.integer) for d in meta.shape):
        return 0
    if node.meta.get("kind") == VIEW and not (node.target == "getitem" and len(node.args) > 1
                                              and _gathers(node.args[1])):
        return 0
    # (Python's product: a size past int64, ``np.zeros(10**20)`` that raises when it
    # runs, is no overflow here)
    return math.prod(int(d) for d in meta.shape) * meta.dtype.itemsize


def _gathers(index) -> bool:
    parts = index if isinstance(index, tuple) else (index,)
    return any(isinstance(p, list) or (array_meta(p) is not None and not array_meta(p).scalar)
               for p in parts)


def array_meta(node: Any) -> ArrayMeta | None:
    """The node's ArrayMeta when it holds one array or NumPy scalar (not a tuple)."""
    if not isinstance(node, Node):
        return None
    meta = node.meta.get("array")
    return meta if isinstance(meta, ArrayMeta) else None


@dataclass(frozen=True)
class ReductionInfo:
    """A fusible reduction's parameters, normalized.

    ``axes`` are the reduced axes of its input, non-negative and sorted; ``dtype`` and
    ``ddof`` are None when not given.
    """

    axes: tuple[int, ...]
    keepdims: bool
    dtype: Any = None
    ddof: Any = None


def reduction_info(node: Node) -> ReductionInfo | None:
    """The parameters of a reduction a group may hold, or None (not fusible)."""
    if node.op != CALL or node.meta.get("kind") != REDUCTION or node.target not in REDUCTIONS:
        return None
    if is_inplace(node) or not node.args:
        return None
    return reduction_params(node, array_meta(node.args[0]))


def stacked_meta(value: Any) -> ArrayMeta | None:
    """The ArrayMeta of the array NumPy makes of a list or tuple of arrays, all of one
    static shape (``np.mean(items, axis=0)`` stacks them first), or None.

    Example::

        >>> stacked_meta([x_node, y_node])      # two float64[3] nodes
        ArrayMeta(shape=(2, 3), dtype=dtype('float64'), ...)
    """
    if not isinstance(value, (list, tuple)) or not value:
        return None
    metas = [array_meta(v) for v in value]
    if any(m is None or m.kind != metas[0].kind for m in metas):
        return None
    shape = metas[0].shape
    if not all(type(d) is int for d in shape) or any(m.shape != shape for m in metas):
        return None    # (ragged lists make NumPy raise; symbolic sizes may differ)
    dtype = np.result_type(*(m.dtype for m in metas))
    return ArrayMeta((len(metas), *shape), dtype, metas[0].kind)


def reduction_params(node: Node, src: ArrayMeta | None) -> ReductionInfo | None:
    """``reduction_info`` of ``node`` reducing an array of ``src`` (its first argument's
    meta, or a stacked list's: ``stacked_meta``), or None."""
    meta = array_meta(node)
    if src is None or meta is None or src.scalar or src.ndim == 0 or \
            src.dtype.kind not in NUMERIC_KINDS or meta.dtype.kind not in NUMERIC_KINDS:
        return None
    try:
        params = bind(registry.get(node.target), node.args, node.kwargs)
    except Exception:  # noqa: BLE001 (an unexpected signature: leave it alone)
        return None
    first = next(iter(params))
    for name, value in params.items():
        if name == first or value is np._NoValue or value is None:
            continue
        if name not in _REDUCTION_PARAMS or isinstance(value, Node):
            return None
    axis = params.get("axis")
    keepdims = params.get("keepdims", False)
    keepdims = False if keepdims is np._NoValue else bool(keepdims)
    if isinstance(axis, Node) or isinstance(params.get("dtype"), Node):
        return None
    try:
        axes = tuple(range(src.ndim)) if axis is None else \
            tuple(sorted(normalize_axis_tuple(axis, src.ndim)))
    except Exception:  # noqa: BLE001
        return None
    ddof = params.get("ddof")
    return ReductionInfo(axes, keepdims, params.get("dtype"),
                         None if ddof is np._NoValue else ddof)
