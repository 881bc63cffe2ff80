"""Inner loops of a step other than 1 or -1 whose bounds follow the outer index (issue
#23: dynamo/translator/triangular_loops.py ``stepped_count``): strided sweeps over a
triangle, backward steps of -2 and -3, every third column of a forward substitution
(a Python float accumulator too), an outer step with an inner one, a 1-D and a 2-D
red-black Gauss-Seidel (constant bounds, steps of 2); written the way such code is
written in plain NumPy, before any of it ran under dynamo.

``PROGRAMS``: (name, fn, make_args(n, dtype)), each one graph whose inner loop is a
node inside the outer node's body (``tests/translator/test_stepped_loop_nodes.py``)
at sizes past ``config.loop_unroll_limit``; the trip count is ``max(0, -((start -
stop) // step))``, 0 at the outer trips where the range is empty.

Example::

    >>> name, fn, make_args = PROGRAMS[0]
    >>> fn(*make_args(12, np.float64)).shape
    (12, 12)
"""

from __future__ import annotations

import numpy as np
from script_modules import load_script

_bench = load_script("bench_triangular")


def _square(n, dtype, seed=0):
    return np.random.default_rng(seed).random((n, n)).astype(dtype)


def _vector(n, dtype, seed=1):
    return np.random.default_rng(seed).random(n).astype(dtype)


def _lower(n, dtype):
    return (np.tril(_square(n, dtype)) + n * np.eye(n)).astype(dtype)


def backward_by_two(x):
    # range(n - 1, i, -2): from the end down to just above i, every other element
    n = x.shape[0]
    for i in range(n):
        for j in range(n - 1, i, -2):
            x[j] = x[j] - 0.25 * x[j - 1]
    return x


def down_by_three(x, y):
    # range(i, -1, -3): i, i - 3, ... down to 0 or above
    n = x.shape[0]
    for i in range(n):
        for j in range(i, -1, -3):
            y[i] = y[i] + x[j]
    return y


def every_third_below(L, b):
    # a forward substitution that reads every third column left of the diagonal
    n = b.shape[0]
    x = np.zeros_like(b)
    for i in range(n):
        s = b[i]
        for j in range(0, i, 3):
            s = s - L[i, j] * x[j]
        x[i] = s / L[i, i]
    return x


def every_other_float_sum(L, b):
    # a Python float accumulator over range(1, i, 2), read as b[i] - s after the loop
    n = b.shape[0]
    x = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(1, i, 2):
            s += L[i, j] * x[j]
        x[i] = (b[i] - s) / L[i, i]
    return x


def stepped_both(A):
    # an outer step of 2, an inner one of 3 that starts right of the diagonal
    n = A.shape[0]
    for i in range(0, n, 2):
        for j in range(i + 1, n, 3):
            A[i, j] = A[i, j] + A[j, i]
    return A


PROGRAMS = [
    ("strided_sweep", _bench.strided_sweep, lambda n, dt: (_square(n, dt),)),
    ("backward_by_two", backward_by_two, lambda n, dt: (_vector(n, dt),)),
    ("down_by_three", down_by_three, lambda n, dt: (_vector(n, dt), np.zeros(n, dt))),
    ("every_third_below", every_third_below, lambda n, dt: (_lower(n, dt), _vector(n, dt))),
    ("every_other_float_sum", every_other_float_sum,
     lambda n, dt: (_lower(n, np.float64), _vector(n, np.float64))),
    ("stepped_both", stepped_both, lambda n, dt: (_square(n, dt),)),
    ("red_black_1d", _bench.red_black_1d,
     lambda n, dt: (np.zeros(n, dt), _vector(n, dt), 10)),
    ("red_black_gs", _bench.red_black_gs,
     lambda n, dt: (np.zeros((n, n), dt), _square(n, dt), 10)),
]
