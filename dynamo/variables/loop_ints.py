"""``int()`` of a 0-d integer array inside a loop node's body, as an operand of a ufunc or
``np.where``: the 0-d array itself, where NumPy's result is the same (issue #19/#15).

::

    for _ in range(n - 1):                          # Prim's MST: one loop node
        cand = np.where(in_tree, np.inf, best)
        u = int(np.argmin(cand))                    # a Python int only the data decides
        in_tree[u] = True                           # an index: the graph reads the array
        parent = np.where(closer & ~in_tree, u, parent)   # an operand: here

Outside a loop, ``int(x)`` of a 0-d array is a number the glue makes after the graph,
and as an operand an *unbacked int* the graph converts when it runs
(``graph_numbers``); inside a loop node's body a number has no such symbol (its value
changes every trip), so an operand needed its value while tracing, the loop was
refused and unrolled (Prim on 400 nodes: 399 trips, 5 s to compile, 0.84x plain).

A Python int is a *weak* operand (NEP 50): ``np.where(c, u, parent)`` takes ``parent``'s
dtype. The 0-d ``int64`` array ``s`` the int came from is a strong one, so handing
``s`` instead is exact only where the result's dtype is the same both ways:
``np.result_type(*others, 0) == np.result_type(*others, s.dtype)`` over the other
operands (arrays by dtype, Python numbers as themselves), with at least one array of
one or more dimensions among them (``u + 1`` alone stays a Python int). The value is
the same (``s`` holds exactly ``int(s)``, which fits ``s``'s dtype; the result dtype
holds it as it would hold the int), and so are NumPy's warnings. ``int32`` operands
(``int32 + int64`` is ``int64``), ``float32`` ones and ``uint64`` ones keep the int,
and so the break; so do keyword arguments, other ops (an ``axis``, a shape, a repeat
count is no operand), and the int's other uses (arithmetic, a comparison, ``if``).

Example::

    >>> loop_int_operands(out, ops.get("where"), [cond, u, parent])
    [cond, <the 0-d int64 array of int(np.argmin(cand))>, parent]
"""

from __future__ import annotations

import numpy as np

from .. import ops

# the ops taking it: NumPy's ufuncs by their own name, and where's two values
_WHERE_VALUES = (1, 2)


def loop_int_operands(out, op, args: list) -> list:
    """``args`` of ``op`` in the output graph ``out``, each deferred ``int()`` of a 0-d
    integer NumPy array among a ufunc's (or ``np.where``'s values) replaced by that array
    where exact (above); in a loop node's body only. ``args`` itself otherwise."""
    if out.loop_scope is None or not any(_deferred_int(a) for a in args):
        return args
    if op.name == "where":
        if len(args) != 3 or _deferred_int(args[0]):
            return args
        values = _WHERE_VALUES
    else:
        fn = getattr(np, op.name, None)
        if not isinstance(fn, np.ufunc) or fn.nin != len(args):
            return args
        values = range(len(args))
    new = list(args)
    for i in values:
        if not _deferred_int(args[i]):
            continue
        others = [args[j] for j in values if j != i]
        weak = _operands(others)
        if weak is None or not any(_is_array(a) and a.meta.ndim >= 1 for a in others):
            continue
        snapshot = args[i].snapshot
        if np.result_type(*weak, 0) != np.result_type(*weak, snapshot.meta.dtype):
            continue
        new[i] = snapshot
    return new


def _deferred_int(v) -> bool:
    """A Python int the glue would make from a 0-d integer NumPy array of this trace
    (``int(np.argmin(c))``; not a bool's or a float's int)."""
    snapshot = getattr(v, "snapshot", None)
    return getattr(v, "graph_number", False) and getattr(v, "fn", None) is int and \
        _is_array(snapshot) and snapshot.meta.kind == ops.NUMPY and \
        snapshot.meta.shape == () and snapshot.meta.dtype.kind in "iu"


def _is_array(v) -> bool:
    meta = getattr(v, "meta", None)
    return getattr(v, "node", None) is not None and isinstance(meta, ops.ArrayMeta)


def _operands(others) -> list | None:
    """The other operands as ``np.result_type`` takes them (a dtype per NumPy array, a
    Python number as itself: weak), or None where one is anything else."""
    out = []
    for a in others:
        if _is_array(a) and a.meta.kind == ops.NUMPY:
            out.append(a.meta.dtype)
            continue
        value = getattr(a, "value", None)
        if type(value) in (bool, int, float, complex) and a.is_constant():
            out.append(value)
            continue
        return None
    return out
