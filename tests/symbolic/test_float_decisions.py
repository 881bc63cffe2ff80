"""A changing float compared with a number (``if self.t >= 0.35:``) is a branch
decision, guarded by its outcome, not a pin (``number_decisions.decide``): a float clock that
passes a threshold compiles once for each side, not once per tick (issue #16).

Checked against eager: results, the state left behind, NaN (both comparisons false),
two changing floats compared, a comparison's bool used as a value, and a float
compared with an array (its value read: pinned, as before).
"""

import math

import numpy as np
import pytest
from harness import outcome, same, same_outcome

import dynamo


class Clock:
    """A simulation clock: forcing from ``math.sin(t)``, an event when it passes 0.35."""

    def __init__(self):
        self.t, self.x, self.fired = 0.0, np.ones(3), 0

    def step(self, k):
        self.x = self.x * math.sin(2.0 * self.t) + k
        self.t += 0.1
        if self.t >= 0.35:
            self.fired += 1
        return self.x


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_float_clock_compiles_once_per_side(backend):
    want, got = Clock(), Clock()
    dynamo.reset()
    with dynamo.explain(got.step, backend=backend) as f:
        for i in range(10):
            same(want.step(np.ones(3)), f(np.ones(3)), rtol=1e-12, path=f"call {i}")
            same(vars(want), vars(got), rtol=1e-12)
    # the first call, then the clock passes 0.35 (one decision flips): before, one
    # entry per tick (the comparison pinned t) until the cache limit
    assert f.report.compile_count == 2, [str(r) for r in f.report.recompiles]
    reasons = " ".join(r for rec in f.report.recompiles for r in rec.reasons)
    assert ">= 0.35" in reasons and "if self.t >= 0.35:" in reasons, reasons
    # named for what it is (a float compared), not "a branch on a dynamic size"
    assert "a comparison of a changing number, at " in reasons, reasons
    assert "dynamic size" not in reasons, reasons


def compare(x, a, b):
    flag = a < b
    if a >= 0.5:
        x = x * 2.0
    return x * flag, flag, a <= b, a > 0.25


def test_comparisons_of_changing_floats_are_eager_s():
    f = dynamo.compile(compare, backend="eager")
    x = np.arange(3.0)
    calls = [(0.1, 0.2), (0.2, 0.1), (0.3, 0.3), (0.7, 0.2), (0.6, 0.9),
             (float("nan"), 0.5), (0.5, float("nan")), (0.6, float("inf")),
             (-0.0, 0.0), (0.2, 0.4), (0.9, 0.1)]
    for i, (a, b) in enumerate(calls):
        same_outcome(outcome(compare, (x, a, b)), outcome(f, (x, a, b)), f"call {i}")


def against_array(x, t):
    return x * (t < x)


def test_a_float_compared_with_an_array_is_eager_s():
    f = dynamo.compile(against_array, backend="eager")
    x = np.linspace(0.0, 1.0, 5)
    for t in (0.1, 0.2, 0.5, 0.9, 0.3):
        same_outcome(outcome(against_array, (x, t)), outcome(f, (x, t)), f"t={t}")
