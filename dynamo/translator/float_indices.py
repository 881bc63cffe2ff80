"""``int()`` of a 0-d float64 array as an array index, kept in the graph (issue #19):
a histogram or a cell count kept by hand.

::

    hist = np.zeros(nbins, dtype=np.int64)
    for v in x:                           # (unrolled: x has a static length)
        hist[int((v - lo) / width)] += 1  # -> i = clip(trunc(t), ...).astype(int64)[()]
                                          #    hist[i] += 1

``int(t)`` of a 0-d float array is a number the glue makes after the graph, behind a
graph check that ``t`` is finite (``variables/conversions.py``,
``raising_checks.finite_check``: NaN and infinities rerun the frame, which raises
eager's ``ValueError``/``OverflowError``). As an index, the graph computes it:
``np.trunc`` rounds toward zero as ``int()`` does, and every finite float64 in
``[-2**63, 2**63)`` is an int64 exactly; beyond, ``int()`` gives an int no array is
long enough for, and the clip keeps the cast from warning (an index of -2**63 or
2**63 - 1024 is out of bounds too, an ``IndexError`` as eager's). The index is the
NumPy integer scalar ``a[()]``, a basic index, as ``int()`` of an integer array is
(``TranslatorBase._array_index``).

Example::

    >>> int_index_of_float(tx, t)         # t: a float64 0-d array of the graph
    ArrayVariable(getitem_7)              # astype(clip(trunc(t), -2.0**63, ...))[()]
"""

from __future__ import annotations

import numpy as np

from .. import ops
from ..variables import ArrayVariable, ConstantVariable
from ..variables.arrays import call_library

# the float64 bounds whose every value in between is an int64 (2**63 is not)
_LOW, _HIGH = -2.0 ** 63, 2.0 ** 63 - 1024


def int_index_of_float(tx, snapshot: ArrayVariable) -> ArrayVariable | None:
    """The NumPy int64 scalar ``int(snapshot)`` stands for as an index, computed by the
    graph; None where ``snapshot`` is no 0-d float64 array of NumPy's."""
    meta = snapshot.meta
    if meta.kind != ops.NUMPY or meta.shape != () or meta.dtype != np.float64:
        return None
    trunc = _call(tx, np.trunc, [snapshot])
    clipped = _call(tx, np.clip, [trunc, ConstantVariable(_LOW), ConstantVariable(_HIGH)])
    op, adapter = ops.lookup_method("astype")
    as_int = call_library(tx, op, adapter, [clipped, ConstantVariable(np.dtype(np.int64))],
                          {})
    return tx.output.call_op(ops.get("getitem"), [as_int, ConstantVariable(())], {})


def _call(tx, fn, args):
    op, adapter = ops.lookup_function(fn)
    return call_library(tx, op, adapter, args, {})
