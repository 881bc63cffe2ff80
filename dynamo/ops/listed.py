"""A Python list of graph values where NumPy wants an array (issue #19).

``np.concatenate(([u[0]], u, [u[-1]]))`` pads ``u`` with its end values; the members
``[u[0]]`` and ``[u[-1]]`` are Python lists holding a graph value each (a NumPy scalar
or 0-d array from indexing). ``np.diag([s.sum(), s.max()])`` does the same with the
diagonal, ``np.diag([[a, b], [c, d]])`` takes the diagonal of the 2-d array NumPy makes
of a list of rows, and ``np.dot([a, b], w)`` multiplies one (``linalg.diag``/``dot``).
NumPy converts such a list with ``np.asarray`` before it joins or places it,
so the list is the array ``np.array(lst)`` would make: its shape is the list's nesting
(every member's shape below the list's length) and its dtype comes from NumPy's
promotion of the members as *list items* -- not the weak rules of an operator:

    np.array([np.float32(1), 2.0])   -> float64   (a Python float in a list is float64)
    np.array([np.float32(1)])        -> float32   ([u[0]] keeps u's dtype)
    np.array([np.int64(1), 2.5])     -> float64

The dtype is found the way ``np.array`` of such a list is traced (``creation``): NumPy
itself runs on the members' probes (scalars stay scalars, 0-d arrays stay 0-d arrays).
The graph keeps the list as the argument, so the backend's call converts it exactly as
the program's call did.

Only NumPy values may sit in the list: CuPy's ``concatenate``/``diag`` reject Python
lists (and a list of device scalars would be read to the host), and a Dask array in a
list is computed by ``np.asarray``; those stay a graph break.

Example::

    >>> m = ArrayMeta((), np.dtype("f4"), "numpy", scalar=True)
    >>> listed_meta([m, 2.0], "a member").dtype
    dtype('float64')
"""

from __future__ import annotations

import numpy as np

from . import rules
from .creation import nested_leaves, nested_shape
from .meta import NUMPY, ArrayMeta
from .rules import MetaError


def holds_arrays(value) -> bool:
    """A Python list or tuple with a graph value somewhere inside."""
    return isinstance(value, (list, tuple)) and bool(rules.metas_in(value))


def takes_lists(rule, positions: tuple = (0, 1)):
    """``rule`` for an op that also takes, at the positional ``positions``, a list of
    NumPy graph values as an array operand (``np.outer([a, b], w)``,
    ``np.matmul([[a, b], [c, d]], v)``, ``np.trace([[a, b], [c, d]])``): the rule sees
    each such list as the array NumPy makes of it (``listed_meta``); the graph keeps the
    list, so the backend's call converts it as the program's did. Only where every
    array of the call is NumPy's (CuPy's functions refuse lists).

        >>> outer_rule = takes_lists(outer)      # (linalg.py)
    """
    def rule_with_lists(op, args, kwargs):
        listed = [i for i in positions if i < len(args) and holds_arrays(args[i])]
        if listed and all(m.kind == NUMPY for m in rules.metas_in((args, kwargs))):
            args = tuple(listed_meta(a, f"argument {i}") if i in listed else a
                         for i, a in enumerate(args))
        return rule(op, args, kwargs)
    rule_with_lists.__name__ = getattr(rule, "__name__", "rule")
    rule_with_lists.__doc__ = rule.__doc__
    return rule_with_lists


def listed_meta(value, what: str) -> ArrayMeta:
    """The ArrayMeta of ``np.asarray(value)`` for a list/tuple holding graph values."""
    kinds = {m.kind for m in rules.metas_in(value)}
    if kinds != {NUMPY}:
        raise MetaError(f"{what} is a list holding {'/'.join(sorted(kinds))} arrays "
                        f"(only NumPy converts such a list)")
    shape = nested_shape(value)
    if any(type(d) is not int for d in shape):
        raise MetaError(f"{what} is a list holding arrays of symbolic size")
    dtype = rules.run_quietly(np.asarray, nested_leaves(value)).dtype
    if dtype.hasobject:
        raise MetaError(f"{what} is a list NumPy makes an object array of")
    return ArrayMeta(tuple(shape), dtype, NUMPY, False)


def constant_list_meta(value, what: str) -> ArrayMeta:
    """The ArrayMeta of ``np.asarray(value)`` for a list/tuple of constants only
    (``np.diag([0.5, 2.0])``: float64 (2,)); the graph keeps the list, and the backend's
    call converts it as the program's did."""
    try:
        made = rules.run_quietly(np.asarray, value)
    except (TypeError, ValueError) as exc:
        raise MetaError(f"{what}: {exc}") from exc
    if made.dtype.hasobject:
        raise MetaError(f"{what} is a list NumPy makes an object array of")
    return ArrayMeta(made.shape, made.dtype, NUMPY, False)
