"""A number computed from changing values that the program never reads, by an operator
that raises for some values (``h = 1.5 / k``, ``2.0 ** k``, ``math.sqrt(k - 5)``,
``i / d`` in a loop node's body): no op takes it and the glue does not return it, so
nothing computed it when the graph ran, and a call with ``k == 0`` returned where
Python raises ZeroDivisionError (hostile round 44, ``round44_loops/unread_true_div``).
The entry is now guarded that it computes (``scalars.guard_computes``: the divisor
``!= 0``, or the expression itself), so such a call misses and its trace raises as
Python does; a divisor never 0 (``t + 1`` of a loop's trip) needs no guard, and its
loop stays a node. A divisor over a loop node's trip index that may be 0 (``1.0 / (i -
k)``) unread in the body unrolls the loop instead (``symbolic/trip_raising.py``), where
each trip's number is guarded; read by a body op, the loop stays a node and the op
raises on its trip.
"""

import math

import numpy as np
import pytest
from harness import outcome, same_outcome

import dynamo

BACKENDS = ["eager", "numpy"]


def unread_div(x, k):
    h = 1.5 / k   # noqa: F841
    return x * 2


def unread_pow(x, k):
    h = 2.0 ** k   # noqa: F841
    return x * 2


def unread_sqrt(x, k):
    h = math.sqrt(k - 5)   # noqa: F841
    return x + 1


def unread_in_loop(x, n, d):
    for i in range(n):
        h = i / d   # noqa: F841
        x[i] = x[i] * 2.0
    return x


def unread_of_trip(x, n, k):
    for i in range(n):
        h = 1.0 / (i - k)   # noqa: F841
        x[i] = x[i] * 2.0
    return x


def unread_of_trip_in_try(x, n, k):
    for i in range(n):
        try:
            h = 1 / (i - k)   # noqa: F841
        except ZeroDivisionError:
            x[i] = -1.0
        x[i] = x[i] * 2.0
    return x


def read_of_trip(x, n, k):
    for i in range(n):
        h = 1.0 / (i - k)
        x[i] = x[i] * h
    return x


def unread_float_floordiv(x, n, d):
    for i in range(n):
        h = i // d   # noqa: F841
        x[i] = x[i] + 2.0
    return x


CASES = [
    (unread_div, [(1,), (2,), (0,), (3,), (0.0,), (2.5,)]),
    (unread_pow, [(1,), (2,), (2000,), (3,)]),
    (unread_sqrt, [(6,), (7,), (4,), (9,)]),
    (unread_in_loop, [(12, 2), (11, 5), (12, 0), (12, 3)]),
    (unread_of_trip, [(12, 20), (11, 30), (12, 3), (12, 40)]),
    (unread_float_floordiv, [(12, 2.0), (11, 0.5), (12, 0.0), (12, -0.0)]),
    (unread_of_trip_in_try, [(12, 20), (11, 30), (12, 3), (12, 40)]),
    (read_of_trip, [(12, 20), (11, 30), (12, 3), (12, 40)]),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,calls", CASES,
                         ids=[(c.values if hasattr(c, "values") else c)[0].__name__
                              for c in CASES])
def test_an_unread_number_raises_where_python_raises(fn, calls, backend):
    dynamo.reset()
    compiled = dynamo.compile(fn, backend=backend)
    for k, extra in enumerate(calls):
        want = outcome(fn, (np.ones(12),) + extra)
        got = outcome(compiled, (np.ones(12),) + extra)
        same_outcome(want, got, f"{fn.__name__} call {k} {extra}")


def trip_divisor(x, n, lr):
    for t in range(n):
        x = x - lr / (t + 1) * x
    return x


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_divisor_never_zero_keeps_the_loop_node(backend):
    """``lr / (t + 1)`` over the trip index: read, and never 0 (``t >= 0``): no guard,
    one graph without a break for every lr."""
    dynamo.reset()
    x = np.linspace(0.5, 2.0, 5)
    e = dynamo.explain(trip_divisor, backend=backend).calls(
        [(x, 20, 0.1), (x, 20, 0.2), (x, 20, 0.3)])
    assert e.graph_break_count == 0
    compiled = dynamo.compile(trip_divisor, backend=backend)
    for lr in (0.1, 0.2, 0.0):
        np.testing.assert_array_equal(compiled(x, 20, lr), trip_divisor(x, 20, lr))


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_divisor_of_the_trip_read_by_an_op_keeps_the_loop_node(backend):
    """``x[i] * (1.0 / (i - k))``: the body's op computes it on every trip (and raises
    on the trip where it is 0): one graph with a loop node, no break; unread, the same
    loop is unrolled (the call with ``k == 3`` raises in either)."""
    dynamo.reset()
    calls = [(np.ones(12), 12, 20), (np.ones(12), 12, 30)]
    read = dynamo.explain(read_of_trip, backend=backend).calls(calls)
    assert read.graph_break_count == 0 and "fori_loop" in str(read)
    dynamo.reset()
    unread = dynamo.explain(unread_of_trip, backend=backend).calls(calls)
    assert unread.graph_break_count == 0 and "fori_loop" not in str(unread)


def read_div(x, k):
    return x / k, 1.0 / k


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_read_quotient_still_serves_every_divisor_with_one_entry(backend):
    """The guard ``k != 0`` keeps one entry for every nonzero ``k`` (a changing int),
    and ``k == 0`` raises as Python does."""
    dynamo.reset()
    compiled = dynamo.compile(read_div, backend=backend)
    x = np.ones(3)
    for k in (1, 2, 3, 4, 0, 5):
        same_outcome(outcome(read_div, (x, k)), outcome(compiled, (x, k)), f"k={k}")
    e = dynamo.explain(read_div, backend=backend).calls([(x, 1), (x, 2), (x, 3), (x, 4)])
    assert e.graph_count <= 2   # (the first call's value, then one entry for all)
