"""``np.linspace(..., retstep=True)`` (dynamo/variables/linspace_step.py, issue #19): the
samples are a graph node and the step a constant when start, stop, num and endpoint are
constants the trace knows; otherwise the call breaks as before. Results, their types
(a NumPy float step, or Python's ``nan`` for one sample) and the break counts are
compared with plain NumPy on both backends."""

from __future__ import annotations

import numpy as np
import pytest
from harness import check, rand

BACKENDS = ["eager", "numpy"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_step_of_constant_endpoints_is_a_constant(backend):
    def f(y, a, b):
        xs, dx = np.linspace(a, b, len(y), retstep=True)
        return dx * (y.sum() - 0.5 * (y[0] + y[-1])), xs * y, dx

    check(f, rand(11), 0.0, 1.0, graphs=1, breaks=0, backend=backend)
    check(f, rand(6), 1, 3, graphs=1, breaks=0, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_step_forms(backend):
    def f(x):
        a, da = np.linspace(0, 2, 5, endpoint=False, retstep=True, dtype=np.float32)
        b, db = np.linspace(1.0, 1.0, 1, True, True)      # one sample: the step is nan
        c, dc = np.linspace(-1, 1, num=0, retstep=True)
        return x[:5] + a, da, b, db, c, dc

    check(f, rand(6), graphs=1, breaks=0, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_array_endpoints_still_break(backend):
    def f(lo, hi):
        xs, dx = np.linspace(lo, hi, 4, retstep=True)   # the step is an array of the data
        return xs, dx * 2

    check(f, rand(3), rand(3, seed=1) + 1, breaks=1, backend=backend)


def test_the_break_left_has_a_hint_of_its_own():
    def f(lo, hi):
        return np.linspace(lo, hi, 4, retstep=True)

    report = check(f, rand(3), rand(3, seed=1) + 1, breaks=1)
    assert "dx = (stop - start) / (num - 1)" in report.break_reasons[0].hint
