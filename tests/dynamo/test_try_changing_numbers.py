"""Python-number arithmetic that raises inside the program's own ``try`` (issue #17).

After two calls with different ``k``, ``k`` is a changing number and ``1 / (c - k)``
would be computed by the compiled entry's glue, after the graph and outside the
``try``: its ``ZeroDivisionError`` left the compiled function directly, and the
program's ``except ZeroDivisionError`` (or ``finally``) never ran. Found by the random
state programs (seed 20300, 2026-12-07; on 80a9ce8 as well). Now such a number computed
inside a ``try`` keeps its values static (``translator.base._pin_raising_in_try``).
"""

import numpy as np
import pytest

import dynamo

BACKENDS = ["eager", "numpy"]
def caught(x, k, log):
    c = 0
    try:
        s = 1 / (c - k)
    except ZeroDivisionError:
        log.pop()
        s = -1.0
    return s


def finally_raises(x, k, log):
    c = 0
    try:
        s = 1 / (c - k)
    finally:
        log.pop()
    return s


def outcome(fn, k, log):
    """The result or the exception (with its context), and the list after the call."""
    try:
        got = fn(np.zeros(3), k, log)
    except Exception as e:  # noqa: BLE001
        got = (repr(e), repr(e.__context__))
    return got, log


def _calls(fn, make):
    return [outcome(fn, k, make()) for k in (2, 3, 0)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_except_sees_the_division_by_a_changing_zero(backend):
    make = lambda: [1, 2]  # noqa: E731
    assert _calls(dynamo.compile(caught, backend=backend), make) == _calls(caught, make)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_finally_runs_after_the_division_by_a_changing_zero(backend):
    make = list
    assert _calls(dynamo.compile(finally_raises, backend=backend), make) == \
        _calls(finally_raises, make)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_constant_zero_is_caught_on_the_first_call(backend):
    """The first call (``k`` a constant) takes the except as Python does."""
    compiled = dynamo.compile(caught, backend=backend)
    assert outcome(compiled, 0, [1, 2]) == outcome(caught, 0, [1, 2])
