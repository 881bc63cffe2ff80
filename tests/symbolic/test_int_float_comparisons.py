"""A changing int compared with a float (issue #17): Python compares an int with a float
exactly (``2**53 + 1 > 2.0**53`` is True), not as ``float(int)``. A symbolic int met in
such a comparison once became ``SymFloat.of_int`` (as for arithmetic), so the trace and
its guard compared ``float(t)``: after calls with small ints made ``t`` symbolic,
``f(x, 2**53 + 1)`` took the wrong branch (``variables/constant.compared_exactly``).

Each program is called with a sequence of ints (and floats) that makes its number
symbolic and then crosses 2**53, on both backends, against plain Python, call by call.
"""

import numpy as np
import pytest

import dynamo

BIG = 2 ** 53
INTS = [5, 6, BIG + 1, 7, BIG + 1, BIG, -BIG - 1, 2 ** 60 + 1, 3, BIG - 1, BIG + 3]


def gt(x, t):
    return ("big", x) if t > 9007199254740992.0 else ("small", x)


def le_flipped(x, t):
    return ("le", x + 1) if 9007199254740992.0 <= t else ("gt", x)


def lt_negative(x, t):
    return ("neg", x) if t < -9007199254740992.0 else ("pos", x)


def ge_of_a_float_expression(x, t, n):
    # n an int made symbolic too: 0.5 * n is a SymFloat, compared with the int t
    return ("ge", x) if t >= 0.5 * n else ("lt", x)


def eq_float(x, t):
    return ("eq", x) if t == 9007199254740992.0 else ("ne", x)


def ne_float(x, t):
    return ("ne", x) if t != 9007199254740992.0 else ("eq", x)


def in_a_tuple(x, t):
    return ("in", x) if t in (9007199254740992.0, 1.5) else ("out", x)


def step_counter_threshold(x, t):
    # a step counter against a float threshold: a decision, not a pin per value
    return (x * 2.0 if t > 100.5 else x, t + 1)


PROGRAMS = [gt, le_flipped, lt_negative, eq_float, ne_float, in_a_tuple,
            step_counter_threshold]


def _same(want, got):
    assert type(got) is type(want)
    for w, g in zip(want, got, strict=True):
        if isinstance(w, np.ndarray):
            np.testing.assert_array_equal(g, w, strict=True)
        else:
            assert type(g) is type(w) and g == w, (g, w)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn", PROGRAMS, ids=[f.__name__ for f in PROGRAMS])
def test_int_compared_with_float_as_python(fn, backend):
    compiled = dynamo.compile(fn, backend=backend)
    x = np.arange(4.0)
    for t in INTS + [-t for t in INTS] + [0.5, 9007199254740992.0, BIG + 1]:
        _same(fn(x, t), compiled(x, t))


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_int_compared_with_a_symbolic_float(backend):
    compiled = dynamo.compile(ge_of_a_float_expression, backend=backend)
    x = np.arange(3.0)
    for t, n in [(1, 2), (2, 4), (BIG + 1, 2 * BIG + 2), (BIG + 1, 2 * BIG + 3), (BIG, 2 * BIG),
                 (BIG + 1, 2 * BIG + 1), (3, 7), (-BIG - 1, -2 * BIG - 2)]:
        _same(ge_of_a_float_expression(x, t, n), compiled(x, t, n))


def test_a_step_counter_against_a_float_threshold_compiles_once_per_side():
    """The comparison stays a decision over the int: one entry for each side of the
    threshold (and the first, static one), not one per step."""
    x = np.ones(2)
    with dynamo.explain(step_counter_threshold, backend="eager") as compiled:
        for t in range(95, 110):
            _same(step_counter_threshold(x, t), compiled(x, t))
    recompiles = compiled.report.recompiles
    assert len(recompiles) <= 3, [str(r) for r in recompiles]
