"""An array of Python objects made inside the compiled function (``np.empty(n,
dtype=object)``) is no traced array: its items are any Python objects (``None``, a
float, an ``np.float64``), which the trace would take for 0-d arrays (``type(a[0])``
was ``ndarray``, ``a[0] is None`` False). The op that would make one is a graph
break (``OutputGraph._check_kind``), as an object array input is.
Found by hostile round 37 (a triangular loop storing its accumulator into an object
array, then reading the items' types).
"""

from __future__ import annotations

import numpy as np
import pytest

import dynamo

BACKENDS = ("eager", "numpy")


def item_types(n):
    seen = np.empty(n, dtype=object)
    seen[1] = 0.5
    return [type(v).__name__ for v in seen], seen[0] is None


def types_of_stored(L, x):
    n = L.shape[0]
    seen = np.empty((n, n), dtype=object)
    for i in range(n):
        s = 0.0
        for j in range(i):
            seen[i, j] = s            # a float before the first trip's add
            s = s + L[i, j] * x[j]
    return [type(v).__name__ for v in seen.ravel()]


def cast_to_objects(x):
    o = x.astype(object)
    return type(o[0]).__name__, o[0] is x[0]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn, args", [
    (item_types, (3,)),
    (types_of_stored, (np.arange(81.0).reshape(9, 9), np.arange(9.0))),
    (cast_to_objects, (np.arange(3.0),)),
], ids=["item_types", "types_of_stored", "cast_to_objects"])
def test_object_arrays_made_in_the_trace_hold_python_objects(fn, args, backend):
    dynamo.reset()
    assert dynamo.compile(fn, backend=backend)(*args) == fn(*args)
