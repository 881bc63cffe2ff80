"""A Python float accumulator in a triangular inner loop (``s = 0.0``; ``s = s + L[i, j]
* x[j]``: an np.float64 after one trip, a float after none), carried as np.float64 by
the inner node where nothing can tell the two apart (dynamo/translator/
promoted_floats.py): eager's results and one nested node; where the type could show
(read after the store, stored into a float32 array, an operand that is a Python
float), the inner loop stays unrolled with eager's results, while its twin nests.
"""

from __future__ import annotations

import numpy as np
import pytest
from corpus_nested_loops import PROGRAMS
from harness import check
from test_nested_loop_nodes import nested_nodes

import dynamo

BACKENDS = ("eager", "numpy")
triangular_lower = {p[0]: p[1] for p in PROGRAMS}["triangular_lower"]


def upper_dots(U, x):
    n = U.shape[0]
    out = np.zeros(n)
    for i in range(n):
        acc = 0.0
        for j in range(i + 1, n):      # no trip at the last row
            acc -= U[i, j] * x[j]
        out[i] = acc
    return out


def type_read_after(L, x):
    # s read again after the store: a float at i = 0, np.float64 after
    n = L.shape[0]
    out = np.zeros(n)
    kinds = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        out[i] = s
        kinds[i] = isinstance(s, np.generic)
    return out, kinds


def into_float32(L, x):
    n = L.shape[0]
    out = np.zeros(n, dtype=np.float32)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s + L[i, j] * x[j]
        out[i] = s
    return out


def python_float_operand(L, x):
    n = L.shape[0]
    out = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(i):
            s = s * 0.5 + L[i, j] * x[j]
        out[i] = s
    return out


def _args(n, seed=0):
    rng = np.random.default_rng(seed)
    return rng.random((n, n)), rng.random(n)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [triangular_lower, upper_dots])
def test_float_accumulator_nests(fn, backend):
    """Eager's results at three sizes (each a fresh compile), one nested node."""
    for n in (10, 13, 16):
        dynamo.reset()
        check(fn, *_args(n, seed=n), backend=backend, graphs=1, breaks=0)
        assert nested_nodes(fn, _args(n), backend) == 1


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [type_read_after, into_float32, python_float_operand])
def test_float_whose_type_could_show_stays_unrolled(fn, backend):
    """Where float and np.float64 could differ, eager's results and no nested node;
    the same loop stored into a float64 array and then dead nests."""
    check(fn, *_args(10), backend=backend)
    assert nested_nodes(fn, _args(10), backend) == 0
    assert nested_nodes(triangular_lower, _args(10), backend) == 1
