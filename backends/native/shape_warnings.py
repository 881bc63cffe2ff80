"""NumPy calls that report through ``warnings.warn`` only for shapes the graph knows:
``mean``/``std``/``var`` of an empty slice ("Mean of empty slice"), ``std``/``var``
with ``ddof`` at least the count they divide by ("Degrees of freedom <= 0 for slice",
NumPy's ``_methods._var``), and ``median``/``percentile``/``quantile``, whose only
``warnings.warn`` is the mean of an empty slice (NumPy 2.4's ``_function_base_impl``:
a NaN in the data gives NaN, no warning; an infinity's ``inf - inf`` reports through
the error state, which a kernel's call turns into a flag: calls.py). Where the shapes
rule the warning out, a kernel may hand the call to NumPy; elsewhere the graph stays
in tier 1, whose call warns at the user's line.

    x.std(axis=0, ddof=1)       x (5000, 20): 5000 - 1 > 0     -> quiet
    x.std(axis=0, ddof=1)       x (1, 20):    1 - 1 <= 0       -> warns: tier 1
    np.median(x, axis=1)        x (3, 0):     an empty slice   -> warns: tier 1
    np.median(x, overwrite_input=True)        (writes x)       -> tier 1
"""

from __future__ import annotations

import math

import numpy as np

from dynamo.graph import Node

MOMENTS = frozenset({"mean", "std", "var"})
ORDER_STATS = frozenset({"median", "percentile", "quantile"})

# order statistics: the positional arguments each may take (``a``, ``q``, ``axis``)
# and its keywords (not ``out``, ``overwrite_input``: it writes ``a``)
_POSITIONAL = {"median": 2, "percentile": 3, "quantile": 3}
_KEYWORDS = {"median": {"axis", "keepdims"},
             "percentile": {"axis", "keepdims", "method"},
             "quantile": {"axis", "keepdims", "method"}}


def reduced_count(shape: tuple, axis) -> int | None:
    """How many elements each result element reduces; None for an axis this cannot
    read (a graph value, an axis out of range)."""
    if axis is None:
        return math.prod(shape)
    axes = axis if isinstance(axis, tuple) else (axis,)
    if not all(isinstance(a, (int, np.integer)) and not isinstance(a, bool)
               and -len(shape) <= a < len(shape) for a in axes):
        return None
    return math.prod(shape[int(a) % len(shape)] for a in set(int(a) % len(shape)
                                                             for a in axes))


def quiet(node: Node) -> bool:
    """Whether the call ``node`` (one of ``MOMENTS`` or ``ORDER_STATS``) cannot warn
    through ``warnings.warn`` for the graph's shapes (module docstring)."""
    target = node.target
    src = node.args[0] if node.args else None
    meta = src.meta.get("array") if isinstance(src, Node) else None
    if meta is None or getattr(meta, "scalar", True) or meta.size == 0:
        return False
    if target in MOMENTS:   # (mean(a, axis, dtype); ``where=`` may leave a slice empty)
        if len(node.args) > 3 or "where" in node.kwargs:
            return False
    elif len(node.args) > _POSITIONAL[target] or set(node.kwargs) - _KEYWORDS[target]:
        return False
    axis_at = 2 if target in ("percentile", "quantile") else 1
    axis = node.args[axis_at] if len(node.args) > axis_at else node.kwargs.get("axis")
    count = reduced_count(tuple(meta.shape), axis)
    if count is None or count == 0:
        return False
    ddof = node.kwargs.get("ddof", 0)
    if not isinstance(ddof, (int, np.integer)) or isinstance(ddof, bool):
        return False
    return count - ddof > 0
