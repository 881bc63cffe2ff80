"""An op of a nested loop node whose size follows the outer index only
(``C[i, j:j + i + 1]``: ``i + 1`` long at every inner trip of outer trip ``i``) is no
inner node (``dynamo/translator/nested_loops.py``, ``nested_fit``: the fits at the
outer trips must agree), issue #17 round 36.

``fit`` answers the result it is given where the inner trips agree, and
``nested_fit`` gave it the body's own result (the outer trip's hint) at every outer
trip: all agreed, the inner node kept the first row's length, and ``len`` of the
slice read 2 on every row (the numpy backend's ``mean`` divided by it too). Now each
outer trip's fit starts from the rule's result at that trip, the results differ, and
the inner loop is unrolled. The inner loops have 16 trips (past the unroll limit).

    >>> band_len(np.zeros((10, 26)))[:4, 0]         # row i: i + 1
    array([1., 2., 3., 4.])
"""

import numpy as np
import pytest
from harness import check


def band_len(C):
    n, m = C.shape
    out = np.zeros((n, m))
    for i in range(n):
        for j in range(m - n):
            out[i, j] = len(C[i, j: j + i + 1])
    return out


def band_mean(C):
    n, m = C.shape
    out = np.zeros((n, m))
    for i in range(n):
        for j in range(m - n):
            out[i, j] = C[i, j: j + i + 1].mean()
    return out


def band_size_and_max(C):
    n, m = C.shape
    out = np.zeros((n, m))
    for i in range(n):
        for j in range(m - n):
            r = C[i, j: j + i + 1]
            out[i, j] = r.size * 10.0 + r.max()
    return out


# (eager's mean reads the slice's own size: only the numpy backend's used the node's)
@pytest.mark.parametrize("program, backend", [
    (band_len, "eager"), (band_len, "numpy"), (band_mean, "numpy"),
    (band_size_and_max, "eager"), (band_size_and_max, "numpy")])
def test_a_size_that_follows_the_outer_index(program, backend):
    rng = np.random.default_rng(7)
    for shape in ((10, 26), (12, 24), (11, 12)):
        check(program, rng.random(shape), backend=backend, calls=1)
