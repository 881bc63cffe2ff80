"""Ops that may return their argument itself: ``np.asarray(x) is x``.

NumPy returns the very object it was given when nothing needs to change:
``np.asarray(x)`` and ``np.array(x, copy=None)`` of an array, ``x.astype(x.dtype,
copy=False)``, ``np.ascontiguousarray(x)`` of a C-contiguous ``x``, ``np.atleast_1d(x)``
of an array with at least one dimension, ``np.real(x)``/``x.real``/``x.conj()`` of a
real array, ``np.squeeze(x)`` without length-1 axes. A program can see it (``y is x``,
a write through ``y`` that changes ``x``, ``f(x) is x``), so the trace must know it too.

Such an op has a ``same_object`` rule. ``OutputGraph.call_op`` asks it, and when the
result is the argument it returns the argument's own Variable (no graph node): identity,
aliasing and the object the glue returns are then right by construction.

A rule answers with the *layouts* of the argument for which the op returns it: a set
of ``(c_contiguous, f_contiguous)`` flag pairs. ``ALL`` needs no fact about the layout
and ``NEVER`` means a new object; anything between needs the argument's layout, which
``call_op`` knows for inputs (it guards their contiguity) and for arrays of at most one
element (contiguous both ways), and not for the result of an op (the backend decides
it). There the result is a new Variable that may be the argument at run time: ``is``
between the two is a graph break rather than a guess (``ArrayVariable.may_be``).

A rule answers ``None`` when it cannot tell at all (a CuPy array: the rules ask NumPy),
and, for an op with a tuple result (``np.atleast_1d(x, y)``), a tuple of answers: item
``i`` about argument ``i``.

Example::

    >>> m = ArrayMeta((3, 4), np.dtype("float32"))
    >>> no_copy(get("ascontiguousarray"), (m,), {}) == C_CONTIGUOUS
    True
    >>> no_copy(get("asarray"), (m,), {"dtype": "f8"}) == NEVER
    True
"""

from __future__ import annotations

import numpy as np

from .meta import NUMPY, ArrayMeta, ghost, probe
from .rules import run_quietly, substitute

# (c_contiguous, f_contiguous): the layouts NumPy's decisions depend on
BOTH, C_ONLY, F_ONLY, NEITHER = (True, True), (True, False), (False, True), (False, False)
ALL = frozenset({BOTH, C_ONLY, F_ONLY, NEITHER})
NEVER: frozenset = frozenset()
C_CONTIGUOUS = frozenset({BOTH, C_ONLY})


def possible_layouts(ndim: int) -> frozenset:
    """The layouts an array of ``ndim`` dimensions can have: a 0-d array is contiguous
    both ways, a 1-d one both ways or neither."""
    if ndim == 0:
        return frozenset({BOTH})
    if ndim == 1:
        return frozenset({BOTH, NEITHER})
    return ALL


def _layout_probes(meta: ArrayMeta) -> dict:
    """Tiny arrays of ``meta``'s dtype and ndim, one per possible layout."""
    n, dtype = meta.ndim, meta.dtype
    if n == 0:
        return {BOTH: np.zeros((), dtype)}
    rest = (1,) * (n - 1)
    probes = {BOTH: np.zeros((1,) + rest, dtype),
              NEITHER: np.zeros((4,) + rest, dtype)[::2]}
    if n >= 2:
        probes[C_ONLY] = np.zeros((2, 2) + rest[1:], dtype)
        probes[F_ONLY] = np.zeros((2, 2) + rest[1:], dtype, order="F")
    return probes


def no_copy(op, args, kwargs):
    """``asarray``, ``array``, ``astype``, ``ascontiguousarray``, ``x.conj()``: NumPy
    returns the argument when it needs no copy, which depends on the argument's dtype,
    number of dimensions and layout only (and the other arguments). So NumPy decides:
    the op runs on a tiny array of each possible layout, and the layouts for which it
    returns that array itself are the answer."""
    if not args:
        return None   # the argument passed by keyword: cannot tell
    a = args[0]
    if not isinstance(a, ArrayMeta):
        return NEVER  # a list or a Python number: a new array
    if a.kind != NUMPY:
        return None   # a CuPy array: cannot tell
    if a.scalar:                        # a NumPy scalar becomes a new 0-d array
        return NEVER
    rest, kw = substitute((args[1:], kwargs), probe)
    kept = set()
    for layout, value in _layout_probes(a).items():
        try:
            if run_quietly(op.impl, value, *rest, **kw) is value:
                kept.add(layout)
        except Exception:  # noqa: BLE001 (np.array(x, copy=False) that needs a copy)
            pass
    return frozenset(kept)


def on_ghosts(op, args, kwargs):
    """``squeeze``, ``atleast_*d``, ``real``: views whose identity depends on the shape
    and dtype but not the layout. The op runs on zero-strided ghosts of the real
    shapes (as their shape rule does); a result that is its ghost argument is that
    argument whatever its layout."""
    if not args:
        return None   # the argument passed by keyword: cannot tell
    metas = [a for a in args if isinstance(a, ArrayMeta)]
    if any(m.kind != NUMPY for m in metas):
        return None
    ghosts = substitute(args, ghost)
    value = run_quietly(op.impl, *ghosts, **substitute(kwargs, ghost))
    if isinstance(value, (tuple, list)):
        return tuple(ALL if i < len(ghosts) and item is ghosts[i] else NEVER
                     for i, item in enumerate(value))
    return ALL if value is ghosts[0] else NEVER
