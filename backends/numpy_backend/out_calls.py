"""Calls other than plain ufuncs that may write their fresh result into a given buffer.

``reuse.donors`` lends a dead intermediate's buffer, or a buffer kept from the previous
call (``scratch.py``), to an op that writes every element of its result through
``out=``. Elementwise ufuncs do; so do ``np.clip`` (a ufunc inside NumPy, behind a
Python function), ``x.astype(dtype)`` (as ``np.copyto(out, x, casting="unsafe")``:
``astype_into``) and the accumulations ``np.cumsum``/``np.cumprod`` and
``ufunc.accumulate``, which eager code calls on large arrays as often as any ufunc and
which otherwise allocate a fresh array, a page fault per 4 KiB page, on every call
(``np.zeros_like``-like calls, with no ``out=`` at all, are filled in a dead
operand's buffer: ``like_fill.py``)::

    def segment_sums(x, flags):            # x: (200000,) float64
        c = np.cumsum(x)                   # cumsum = _cumsum(x, axis=None, dtype=None,
        ...                                #     out=_scratch0.take())
        hi = np.clip(idx.astype(np.int64), 0, 31)
        # clip = _clip(astype, 0, 31, out=astype)   astype dies here: its buffer

The result written through ``out=`` is the one eager computes when the buffer has the
dtype eager's result has (the caller's rule: ``reuse._same_buffer``, a ``Recycled``
site of the node's own dtype): ``np.clip`` resolves its loop from its operands and
casts into ``out``, which is then a no-op. An accumulation is taken only over a float
or complex array of the result's own dtype with no ``dtype=``: an integer ``cumsum``
sums in a wider type than its input, and with an ``out=`` NumPy could pick the loop
otherwise. Both write every element of ``out``; NumPy copies an operand that overlaps
``out`` first, so writing into an input is safe. An accumulation's result is laid out
as its input (``K`` order: an F-ordered ``x`` gives an F-ordered ``np.cumsum(x,
axis=1)``), so ``reuse.c_ordered`` counts it C-ordered when its input is, and a buffer
of two or more dimensions is lent only under the entry check of the inputs' layout.

    >>> from dynamo.graph import Graph
    >>> takes_out(Graph().placeholder("x"))    # not a call
    False
"""

from __future__ import annotations

import numpy as np

from dynamo.graph import CALL, Node
from dynamo.ops.node_facts import array_meta, has_effect, returns_fresh

from .like_fill import like_into_buffer
from .plan import uses_out

# the calls (beside ufuncs) and how many positional arguments come before ``out``:
# np.clip(a, a_min, a_max, out), np.cumsum(a, axis, dtype, out),
# ufunc_accumulate(ufunc, a, axis, dtype, out)
ACCUMULATIONS = {"cumsum": 3, "cumprod": 3, "ufunc_accumulate": 4}
_CLIP_ARGS = 3


def takes_out(node: Node) -> bool:
    """``node`` returns a new array and may be given the buffer to write it into."""
    if node.op != CALL or has_effect(node) or "out" in node.kwargs:
        return False
    if uses_out(node):
        return returns_fresh(node)
    if node.target == "clip":
        return returns_fresh(node) and len(node.args) <= _CLIP_ARGS
    if node.target == "astype":
        return returns_fresh(node) and plain_astype(node)
    if like_into_buffer(node):   # np.zeros_like(x): filled in a dead buffer (like_fill.py)
        return True
    positional = ACCUMULATIONS.get(node.target)
    if positional is None or len(node.args) > positional or \
            node.kwargs.get("dtype") is not None or set(node.kwargs) - {"axis", "dtype"}:
        return False
    # (the array operand: after the ufunc for ufunc.accumulate; dtype by position too)
    first = 1 if node.target == "ufunc_accumulate" else 0
    if len(node.args) == positional and node.args[-1] is not None:
        return False
    source, result = array_meta(node.args[first]) if len(node.args) > first else None, \
        array_meta(node)
    return (source is not None and result is not None and not source.scalar
            and not result.scalar and source.kind == "numpy" == result.kind
            and source.dtype == result.dtype and result.dtype.kind in "fc")


def plain_astype(node: Node) -> bool:
    """``x.astype(dtype)`` between number dtypes (no ``order``, ``casting`` or ``copy``):
    ``np.copyto(buffer, x, casting="unsafe")`` is the same cast, with the same values
    and the same warnings (``invalid value encountered in cast``, ``ComplexWarning``)."""
    if node.target != "astype" or len(node.args) != 2 or node.kwargs:
        return False
    source, result = array_meta(node.args[0]), array_meta(node)
    return (source is not None and result is not None and not source.scalar
            and not result.scalar and source.kind == "numpy" == result.kind
            and source.dtype.kind in "biufc" and result.dtype.kind in "biufc")


def astype_into(m, node: Node, name_of, out: str) -> str:
    """``x.astype(dtype)`` written into ``out`` (``plain_astype``): a statement, as
    ``astype`` has no ``out=``::

        astype = _scratch0.take()
        _copyto(astype, multiply, casting="unsafe")
    """
    copyto = m.bind(np.copyto, "copyto")
    return (f"{node.name} = {out}\n"
            f"{copyto}({node.name}, {m.fmt(node.args[0], name_of)}, casting=\"unsafe\")")
