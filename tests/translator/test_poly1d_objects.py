"""``np.poly1d`` objects made in the trace (issue #19, ``dynamo/variables/polynomials.py``).

``np.poly1d(c)`` of a traced array (its coefficients: a view of ``c`` without leading
zeros, of a length the data decides) or of constants, then ``p(x)``, ``np.polyval(p,
x)``, ``p.coeffs``/``p.c``, ``p.order``, ``p.variable``, a copy ``np.poly1d(p)``, and
``p`` returned: one graph, no break, eager's values, types and aliasing (``p.coeffs``
is a view of ``c``: a write to ``c`` after the construction is seen by ``p(x)``, and a
write through ``p.coeffs`` reaches ``c``). Composition still breaks (arithmetic:
``test_poly1d_arithmetic.py``).
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import nested_types, outcome, same_outcome
from test_size_values import BACKENDS

import dynamo

T = np.array([0.5, -1.0, 2.0, np.inf])

# leading zeros of every kind: none, some, all, an int array, a 0-d array
COEFFS = [np.array([1.0, -2.0, 0.5]), np.array([0.0, 0.0, 3.0, 1.0]), np.zeros(3),
          np.array([0, 2, 1]), np.array(2.5)]


def evaluate(c, t):
    p = np.poly1d(c)
    return p(t), np.polyval(p, t), p.coeffs, p.order, p(1.5)


def constant_coefficients(t):
    p = np.poly1d([0.0, 1.0, -2.0, 0.5])
    return p(t), p.c, p.order, p.variable, p(3)


def copied_and_named(c, t):
    p = np.poly1d(c, variable="s")
    q = np.poly1d(p)
    return q(t), q.coeffs is p.coeffs, q.variable, q


def returned(c, t):
    return np.poly1d(c)


def written_after(c, t):
    p = np.poly1d(c)
    c[-1] = 7.0                # p.coeffs is a view of c: p sees it
    return p(t)


def written_through(c, t):
    p = np.poly1d(c)
    p.coeffs[-1] = -1.0        # reaches c
    return p(t), c


PROGRAMS = [(f.__name__, f) for f in (evaluate, copied_and_named, returned, written_after,
                                       written_through)]


def _copy(v):
    return v.copy() if isinstance(v, np.ndarray) else v


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_poly1d_of_an_array_is_one_graph(name, fn, backend):
    with np.errstate(all="ignore"):   # (0 * inf: NumPy's warning, compared below)
        report = dynamo.explain(fn, backend=backend)(COEFFS[0].copy(), T)
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    compiled = dynamo.compile(fn, backend=backend)
    for i, c in enumerate(COEFFS):
        if c.ndim == 0 and fn in (written_after, written_through):
            continue   # (c[-1] of a 0-d array: IndexError, checked elsewhere)
        want, got = outcome(fn, [_copy(c), T]), outcome(compiled, [_copy(c), T])
        same_outcome(want, got, f"{name} coefficients {i}")
        assert nested_types(got[0]) == nested_types(want[0]), f"{name} coefficients {i}"
        assert repr(got[0]) == repr(want[0])   # (a poly1d compares by its repr here)


@pytest.mark.parametrize("backend", BACKENDS)
def test_constant_coefficients_are_a_fresh_array_each_call(backend):
    with np.errstate(all="ignore"):
        report = dynamo.explain(constant_coefficients, backend=backend)(T)
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    compiled = dynamo.compile(constant_coefficients, backend=backend)
    same_outcome(outcome(constant_coefficients, [T]), outcome(compiled, [T]), "const")
    with np.errstate(all="ignore"):
        first, second = compiled(T), compiled(T)
    assert first[1] is not second[1]


def composed(c, t):
    p = np.poly1d(c)
    return p(p)(t)       # (arithmetic stays: test_poly1d_arithmetic.py)


def two_dimensional(c, t):
    return np.poly1d(c)(t)


def test_polynomial_composition_breaks_and_stays_right():
    c = COEFFS[0]
    with np.errstate(all="ignore"):
        report = dynamo.explain(composed, backend="eager")(c.copy(), T)
    assert report.graph_break_count >= 1
    assert "np.poly1d" in report.break_reasons[0].reason
    assert report.break_reasons[0].hint
    compiled = dynamo.compile(composed, backend="eager")
    same_outcome(outcome(composed, [c.copy(), T]), outcome(compiled, [c.copy(), T]),
                 "composed")
    compiled = dynamo.compile(two_dimensional, backend="eager")
    m = np.ones((2, 2))
    same_outcome(outcome(two_dimensional, [m, T]), outcome(compiled, [m, T]), "2-d")


def passed_in(p, t):
    return p(t), p.order, p.variable, np.polyval(p, t) + p.c[0]


def written_in(p, t):
    p.coeffs[0] = 2.0          # the program's own coefficient array
    return p


def alive_at_a_break(c, t):
    p = np.poly1d(c)
    print("break")
    return p(t), p


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [passed_in, written_in, alive_at_a_break],
                         ids=lambda f: f.__name__)
def test_a_new_polynomial_each_call_reuses_the_entry(fn, backend, capsys):
    """A poly1d from outside the trace (an argument; one alive at a break, which the
    code after the break takes in) is its coefficient array, guarded by type: a new
    polynomial of the same shape on every call is no recompile (an identity guard
    recompiled every call until the cache was full), and the object returned is the
    program's own."""
    def args(i):
        c = np.array([1.0, -2.0, 0.5 + i])
        return [np.poly1d(c) if fn is not alive_at_a_break else c, T]
    dynamo.reset()
    with np.errstate(all="ignore"), dynamo.explain(fn, backend=backend) as compiled:
        for i in range(5):
            plain_args, compiled_args = args(i), args(i)
            want, got = fn(*plain_args), compiled(*compiled_args)
            assert repr(got) == repr(want), i
            assert repr(compiled_args) == repr(plain_args), i
            if fn is written_in:
                assert got is compiled_args[0]
    assert compiled.report.recompiles == [], [str(r) for r in compiled.report.recompiles]
