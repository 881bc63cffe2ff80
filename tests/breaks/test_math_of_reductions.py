"""``math.sqrt(x.sum())``, ``math.exp(x.mean())``, ``math.log(x.max())`` (issue #19, task
t6): a function of ``math`` of a 0-d float the graph computes is one graph, with
eager's Python float bit for bit; where eager raises (``ValueError: math domain error``
for a negative sum, ``OverflowError`` past exp's range) the compiled call raises the
same error at the same line, after the same effects (the graph checks the value first
and runs the frame in Python where it would raise: ``translator/math_of_arrays.py``).
Where no such check can be made (an input written before it) it is a break with a hint.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from harness import check

import dynamo


def norm(x):
    return math.sqrt((x * x).sum())


def unit(x):
    return x / math.sqrt(x.sum())


def stats(x):
    return math.exp(x.mean()) + 1.0, math.log(x.max()), math.log10(float(x.sum()))


def logged(x, log):
    log.append("before")
    r = math.sqrt(x.sum())
    log.append(r)
    return r * 2


def scaled_exp(x):
    return x * math.exp(x.sum())


_POS = np.arange(1.0, 4.0)
CASES = {
    "norm": (norm, (_POS,)),
    "norm_f32": (norm, (_POS.astype(np.float32),)),
    "unit": (unit, (_POS,)),
    "unit_negative": (unit, (-_POS,)),          # ValueError: math domain error
    "unit_nan": (unit, (np.array([np.nan, 1.0]),)),
    "stats": (stats, (_POS,)),
    "stats_log_of_zero": (stats, (np.zeros(3),)),
    "stats_exp_overflow": (stats, (np.full(3, 800.0),)),   # OverflowError
    "stats_exp_edge": (stats, (np.full(3, 709.5),)),       # past the check: Python
    "logged": (logged, (_POS, [])),
    "logged_negative": (logged, (-_POS, [])),
    "scaled_exp": (scaled_exp, (_POS,)),
    "scaled_exp_overflow": (scaled_exp, (np.full(3, 300.0),)),
}


@pytest.mark.parametrize("backend", ("eager", "numpy"))
@pytest.mark.parametrize("name", sorted(CASES))
def test_one_graph_eagers_floats_and_errors(name, backend):
    fn, args = CASES[name]
    dynamo.reset()
    check(fn, *args, backend=backend, graphs=1, breaks=0, calls=3)


def reciprocal_norm(x):
    return math.sqrt((1.0 / np.sqrt(x)).sum())


# values that are never negative need no check (a norm), but -0.0 is not >= 0 once
# divided into: eager's results, however many graphs
UNPINNED = {
    "norm_nan": (norm, (np.array([np.nan, 1.0]),)),
    "norm_inf": (norm, (np.array([np.inf, 1.0]),)),
    "reciprocal_norm": (reciprocal_norm, (np.array([4.0, 1.0]),)),
    "reciprocal_norm_negative_zero": (reciprocal_norm, (np.array([-0.0]),)),
}


@pytest.mark.parametrize("backend", ("eager", "numpy"))
@pytest.mark.parametrize("name", sorted(UNPINNED))
def test_eagers_floats_and_errors(name, backend):
    fn, args = UNPINNED[name]
    dynamo.reset()
    check(fn, *args, backend=backend, calls=3)


@pytest.mark.parametrize("backend", ("eager", "numpy"))
def test_data_that_raises_after_data_that_does_not(backend):
    dynamo.reset()
    compiled = dynamo.compile(logged, backend=backend)
    for x in (_POS, -_POS, _POS, np.array([np.nan]), -_POS):
        outcomes = []
        for fn in (logged, compiled):
            log = []
            try:
                result = fn(x.copy(), log)
            except ValueError as e:
                result = str(e)
            outcomes.append((type(result), repr(result), log if x[0] == x[0] else len(log)))
        assert outcomes[0] == outcomes[1]


def written_first(x):
    x[0] = -5.0
    return math.sqrt(x.sum())


def test_no_check_after_a_write_is_a_break_with_a_hint():
    dynamo.reset()
    report = check(written_first, _POS, breaks=1, calls=2)
    record = report.break_reasons[0]
    assert record.reason == "math.sqrt() of array data"
    assert "np.sqrt(x)" in record.hint
