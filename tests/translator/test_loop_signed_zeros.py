"""A Python float a loop carries is the same constant from trip to trip only with its
sign: ``0.0 == -0.0``, but ``s = s * 0.5 / -2.0`` from ``0.0`` flips the sign of zero
every trip. Found by scripts/loop_program_search.py (seed 8395): the loop node took
``s`` for a loop invariant (``loop_facts.same_constant`` compared by ``==``) and
returned ``0.0`` where plain Python returns ``-0.0`` after an odd number of trips."""

import math

import numpy as np
import pytest

import dynamo


def flips(x):
    s = 0.0
    for i in range(1, len(x) - 1):
        s = (s * 0.5) / -2.0
    return s


def flips_with_array_work(x):
    s = 0.0
    out = np.zeros_like(x)
    for i in range(1, len(x) - 1):
        s = -s
        out[i] = x[i - 1] + s
    return s, out


def nan_stays(x):
    s = float("nan")
    for i in range(len(x)):
        s = s * 1.0
    return s


def same(a, b) -> bool:
    if isinstance(a, tuple):
        return len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and np.array_equal(a, b) and \
            np.array_equal(np.signbit(a), np.signbit(b))
    if type(a) is not type(b):
        return False
    return repr(a) == repr(b) and (not isinstance(a, float) or math.isnan(a) or
                                   math.copysign(1.0, a) == math.copysign(1.0, b))


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn", [flips, flips_with_array_work, nan_stays])
def test_a_carried_zero_keeps_its_sign(fn, backend):
    compiled = dynamo.compile(fn, backend=backend)
    for n in (33, 4, 33, 7, 2):    # odd and even trip counts, changing sizes
        x = np.arange(n, dtype=np.float64)
        expected, got = fn(x), compiled(x.copy())
        assert same(expected, got), (n, expected, got)
