"""Arithmetic on ``np.poly1d`` objects (issue #19, ``dynamo/variables/polynomials.py``).

``p + q``, ``p * q``, ``p - q``, ``p ** 2``, ``p * 2.0``, ``2.0 * p``, ``-p``, ``+p``,
``p / 4.0``, ``p.deriv()``, ``p.integ()``, ``np.polyder``, ``np.polyint``,
``np.polymul``, ``np.polyadd``, ``np.polysub``, then ``p(x)``, ``p.coeffs``,
``p.order``, ``len(p)`` and ``p[k]`` of the results: one graph, no break, eager's
values, dtypes (int coefficients stay ints where NumPy keeps them, ``integ`` makes
floats, float32 meets int64 ``[1]`` in ``p ** 0``), leading zeros trimmed as NumPy
trims them (``p - p`` is ``poly1d([0.])``) and the variable's name (``x`` for every
new polynomial, whatever ``p``'s was). Composition, division by a polynomial and
roots still break, with the hint to use the coefficient arrays.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import nested_types, outcome, same_outcome
from test_size_values import BACKENDS

import dynamo

T = np.array([0.5, -1.0, 2.0])
# leading zeros of every kind: none, some, all, int, 0-d, float32
COEFFS = [np.array([1.0, -2.0, 0.5]), np.array([0.0, 0.0, 3.0, 1.0]), np.zeros(3),
          np.array([0, 2, 1]), np.array(2.5), np.array([1.0, 2.0], dtype=np.float32)]


def operators(c, t):
    p, q = np.poly1d(c, variable="s"), np.poly1d([1.0, -1.0])
    return (p + q, p * q, p - q, p ** 2, p ** 0, p * 2.0, 2.0 * p, p - p, -p, p / 4.0,
            1.0 - p, p + 3, p * c)


def calculus(c, t):
    p = np.poly1d(c, variable="s")
    return (p.deriv(), p.integ(), np.polyder(p), np.polyint(p), np.polymul(p, p),
            np.polyadd(p, c), p.deriv(2), p.integ(2, 1.0), np.polysub(c, p),
            np.polyint(p, m=1, k=2.0))


def reads(c, t):
    p = np.poly1d(c) * np.poly1d([1, 0])
    return (p.coeffs, p.order, len(p), p[0], p[1], p[5], p[-1], p(t), (p + p)(t),
            p.deriv()(t), p.variable)


def positive_is_the_same_object(c, t):
    p = np.poly1d(c)
    return +p is p, p


PROGRAMS = [(f.__name__, f) for f in (operators, calculus, reads,
                                       positive_is_the_same_object)]


def _names(result):
    return [getattr(v, "variable", None) for v in result] if isinstance(result, tuple) \
        else None


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_poly1d_arithmetic_is_one_graph(name, fn, backend):
    report = dynamo.explain(fn, backend=backend)(COEFFS[0].copy(), T)
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    compiled = dynamo.compile(fn, backend=backend)
    for i, c in enumerate(COEFFS):
        want, got = outcome(fn, [c.copy(), T]), outcome(compiled, [c.copy(), T])
        same_outcome(want, got, f"{name} coefficients {i}")
        assert repr(got[0]) == repr(want[0]), f"{name} coefficients {i}"
        assert nested_types(got[0]) == nested_types(want[0]), f"{name} coefficients {i}"
        assert _names(got[0]) == _names(want[0]), f"{name} coefficients {i}"
        if isinstance(want[0], tuple):   # (dtypes of every coefficient array)
            assert [getattr(v, "coeffs", v).dtype if hasattr(v, "dtype") or
                    isinstance(v, np.poly1d) else None for v in got[0]] == \
                [getattr(v, "coeffs", v).dtype if hasattr(v, "dtype") or
                 isinstance(v, np.poly1d) else None for v in want[0]]


def from_outside(p, t):
    return (p * p)(t), p.deriv().coeffs, len(p), p[1], np.polyint(p)


def test_a_polynomial_argument_takes_part_without_recompiles():
    dynamo.reset()
    with dynamo.explain(from_outside, backend="eager") as compiled:
        for i in range(3):
            p = np.poly1d([1.0, 2.0, 3.0 + i])
            want, got = outcome(from_outside, [p, T]), outcome(compiled, [p, T])
            same_outcome(want, got, f"call {i}")
            assert repr(got[0]) == repr(want[0])
    assert compiled.report.graph_break_count == 0
    assert compiled.report.recompiles == []


def composed(c, t):
    p = np.poly1d(c)
    return p(np.poly1d([1.0, 1.0]))(t)


def divided(c, t):
    p = np.poly1d(c)
    return p / np.poly1d([1.0, 1.0])


def raised_to_a_negative_power(c, t):
    p = np.poly1d(c)
    try:
        return p ** -1
    except ValueError as e:
        return str(e)


def scaled_by_an_array_on_the_left(c, t):
    return c * np.poly1d(c)


@pytest.mark.parametrize("fn", [composed, divided, raised_to_a_negative_power,
                                scaled_by_an_array_on_the_left], ids=lambda f: f.__name__)
def test_what_is_not_modelled_breaks_with_a_hint_and_stays_right(fn):
    report = dynamo.explain(fn, backend="eager")(COEFFS[0].copy(), T)
    assert report.graph_break_count >= 1
    assert all(r.hint for r in report.break_reasons), [r.reason for r in report.break_reasons]
    compiled = dynamo.compile(fn, backend="eager")
    for i, c in enumerate(COEFFS[:4]):
        want, got = outcome(fn, [c.copy(), T]), outcome(compiled, [c.copy(), T])
        same_outcome(want, got, f"{fn.__name__} coefficients {i}")
        assert repr(got[0]) == repr(want[0])
