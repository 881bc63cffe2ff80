"""``len(p)`` of an ``np.poly1d`` whose ``_coeffs`` a program rebound to an empty array:
NumPy's ``__len__`` returns the order, -1, and Python raises ``ValueError: __len__()
should return >= 0``, which the program's own ``except`` catches. The translator's
``len`` (``variables/builtins._len``) was the order itself, -1 (hostile round 28,
``coeffs_rebound_empty``).
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import outcome, same_outcome

import dynamo


def length(p):
    try:
        return len(p), p.order
    except ValueError as e:
        return "caught", str(e), p.order


def bare_length(p):
    return len(p)


def _poly(coeffs):
    p = np.poly1d([1.0, 2.0])
    p._coeffs = coeffs
    return p


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn", [length, bare_length])
def test_empty_coefficients_raise_as_plainly(backend, fn):
    dynamo.reset()
    compiled = dynamo.compile(fn, backend=backend)
    for coeffs in (np.array([1.0, 2.0]), np.zeros(0), np.array([3.0]), np.zeros(0)):
        want, got = outcome(fn, [_poly(coeffs)]), outcome(compiled, [_poly(coeffs)])
        same_outcome(want, got, f"coefficients {coeffs}")
