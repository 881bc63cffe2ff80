"""A ``for`` loop node whose carried Python floats settle a trip late: a delay line
(``x2, x1 = x1, x[n]`` from ``x1 = x2 = 0.0``, a biquad filter sample by sample) holds
0.0 in ``x2`` after the first trip and an array only after the second, so the node is
tried again with one more trip unrolled per tap (``loop_facts.SettlingCarry``,
``frames.BreakPoint.peel``, up to ``loops.MAX_PEEL``). Without it the loop unrolled and
broke at ``config.max_unroll``. Python's values bit for bit, eager and numpy backends.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from harness import check

from dynamo.translator.loops import MAX_PEEL

BACKENDS = ("eager", "numpy")


def biquad(x, b0, b1, b2, a1, a2):
    y = np.empty_like(x)
    x1 = x2 = y1 = y2 = 0.0
    for n in range(len(x)):
        xn = x[n]
        yn = b0 * xn + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2, x1 = x1, xn
        y2, y1 = y1, yn
        y[n] = yn
    return y


def fir_taps(x, c):
    """A 4-tap FIR by a shift register of Python floats: three trips to settle."""
    out = np.zeros_like(x)
    d1 = d2 = d3 = 0.0
    for n in range(len(x)):
        out[n] = c[0] * x[n] + c[1] * d1 + c[2] * d2 + c[3] * d3
        d3, d2, d1 = d2, d1, x[n]
    return out


def long_register(x):
    """More taps than ``MAX_PEEL`` trips settle: unrolled as before (its break)."""
    out = np.zeros_like(x)
    d1 = d2 = d3 = d4 = d5 = 0.0
    for n in range(len(x)):
        out[n] = x[n] + d1 + d2 + d3 + d4 + d5
        d5, d4, d3, d2, d1 = d4, d3, d2, d1, x[n]
    return out, d5


_x = np.random.default_rng(3).standard_normal(1100)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn, args", [
    (biquad, (_x, 0.02, 0.04, 0.02, -1.56, 0.64)),
    (fir_taps, (_x, np.array([0.4, 0.3, 0.2, 0.1]))),
], ids=["biquad", "fir_taps"])
def test_a_delay_line_is_one_loop_node(fn, args, backend):
    report = check(fn, *copy.deepcopy(args), backend=backend, graphs=1, breaks=0)
    assert sum(str(g).count("ops.fori_loop(") for g in report.graphs) == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_register_longer_than_the_peel_still_unrolls(backend):
    assert MAX_PEEL < 5
    check(long_register, _x.copy(), backend=backend, breaks=1)
