"""``round(x, n)`` of a float the graph computes, where ``n`` is between -308 and -1:
CPython rounds by dtoa and raises OverflowError when the result rounds past the largest
float (``round(1.7976931348623157e308, -307)``). A graph would raise that past the
program's own ``try``, so such a call reads the value instead
(``symbolic.math_calls.round_call``; hostile round 28, ``round_big_negative``).
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import outcome, same_outcome

import dynamo

BIG = np.array([1.7976931348623157e308, 1.0])
INPUTS = [BIG, np.array([2.0, 1.0]), np.array([5e307, 0.0]), BIG]


def caught_round(x, n):
    v = float(x[0])
    try:
        return round(v, n)
    except OverflowError as e:
        return "caught", str(e)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("n", [-307, -308, -306, -1, -309, 2])
def test_overflowing_round_is_caught_by_the_program(backend, n):
    dynamo.reset()
    compiled = dynamo.compile(caught_round, backend=backend)
    for i, x in enumerate(INPUTS):
        want, got = outcome(caught_round, [x, n]), outcome(compiled, [x, n])
        same_outcome(want, got, f"input {i}, n={n}")


def test_digits_that_cannot_raise_stay_in_the_graph():
    report = dynamo.explain(caught_round, backend="eager")(np.array([2.5, 1.0]), 2)
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
