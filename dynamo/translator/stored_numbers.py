"""A Python number converted from a 0-d array, stored back into an array of its dtype.

::

    for i in range(n):              # a loop node
        arg = 0
        for j in range(m):          # a nested node carries ``arg`` (``picked_numbers``):
            if D[i, j] < best:      # after it, ``arg`` is ``int()`` of the node's
                best = D[i, j]      # np.int64, made by the glue, which cannot run
                arg = j             # inside the outer node's body
        out[i] = arg                # stored: the graph stores the int64 itself

``out[i] = int(s)`` for an ``int64`` array ``out`` and an ``int64`` 0-d ``s`` stores
what ``out[i] = s`` stores: the same int64 (``int()`` of an int64 is exact, and NumPy
converts the Python int back without loss); so for ``float()`` of a ``float64`` into a
``float64`` array (NaN and ``-0.0`` included). So the store needs no Python number
while tracing: the value stored is the conversion's snapshot (``ArrayToPythonVariable``:
a copy made where the program called ``int()``, or the node's NumPy scalar, which
nothing writes; so a later write to ``s`` changes nothing).
Another target dtype is left as it was (a break where the number is needed): a Python
int past ``int32`` raises ``OverflowError`` in an ``int32`` array, where an ``np.int64``
would wrap.
"""

from __future__ import annotations

import numpy as np

from .. import ops
from ..variables import ArrayVariable
from ..variables.conversions import ArrayToPythonVariable

_SAME = {int: np.dtype(np.int64), float: np.dtype(np.float64)}


def stored_value(target, value):
    """The value ``target[...] = value`` stores: the snapshot of ``int()``/``float()`` of
    a 0-d array of ``target``'s own dtype (int64 / float64), else ``value`` itself."""
    if type(value) is not ArrayToPythonVariable or not isinstance(target, ArrayVariable):
        return value
    m, dtype = value.snapshot.meta, _SAME.get(value.fn)
    if dtype is None or not isinstance(m, ops.ArrayMeta) or m.kind != ops.NUMPY or \
            m.shape != () or m.dtype != dtype or target.meta.kind != ops.NUMPY or \
            target.meta.dtype != dtype:
        return value
    return value.snapshot
