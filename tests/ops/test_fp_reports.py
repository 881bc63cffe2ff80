"""``signals.reports_fp``: may a node report a floating-point condition (what
``np.errstate`` controls)? Distinct from ``may_signal`` (may it raise, warn or report):
indexing, comparisons of reals, safe casts and ``branch_select`` can raise but report
nothing, and a graph of such ops skips the glue's floating-point guard (issue #15,
``dynamo.raising._reports_fp``). The facts NumPy must keep for that are checked first.
"""

from __future__ import annotations

import operator

import numpy as np
import pytest

import dynamo
from dynamo.ops.signals import reports_fp

VALUES = (np.nan, np.inf, -np.inf, 1.0, -0.0)
COMPARE = ("lt", "le", "gt", "ge", "eq", "ne")


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.longdouble])
def test_numpy_compares_reals_without_reports(dtype):
    # the ground of "comparisons of reals report nothing": NaN and infinities, as
    # arrays, NumPy scalars and with a Python float of the same range
    with np.errstate(all="raise"):
        for a in VALUES:
            for b in VALUES:
                for name in COMPARE:
                    fn = getattr(operator, name)
                    fn(dtype(a), dtype(b))
                    fn(np.full(20, a, dtype), np.full(20, b, dtype))
                    fn(dtype(a), 1.0)


def test_numpy_reports_complex_orderings_and_narrowing_casts():
    # ... which is why those stay "may report"
    with np.errstate(all="raise"):
        with pytest.raises(FloatingPointError):
            np.less(np.full(20, np.nan, np.complex128), np.ones(20, np.complex128))
        with pytest.raises(FloatingPointError):
            np.zeros(1, np.float32)[0] = np.float64(1e300)
        with pytest.raises(FloatingPointError):
            np.where(True, np.float32(1.0), 1e300)


def _facts(fn, *args) -> dict:
    """target -> ``reports_fp`` of the graph ``fn(*args)`` traces to (one of each)."""
    with np.errstate(all="ignore"):
        report = dynamo.explain(fn, backend="eager")(*args)
    assert report.graph_count == 1, str(report)
    dynamo.reset()
    return {n.target: reports_fp(n) for n in report.records[0].graph.call_nodes()}


X = np.array([1.0, np.nan, 3.0])


def picks(x, i):
    m = x[i] if x[i] < x[0] else x[0]
    return m, np.where(x > 0, x, 1.0), x.astype(np.float64)


def stores(x, y32):
    out = np.empty_like(x)
    out[0] = y32[0]
    return out


def conversions(x, y32, z, k):
    y32[0] = x[0]
    return (x / 2.0, x.astype(np.float32), np.where(x > 0, y32, 1e300), z[0] < z[1],
            k[0] + 1)


def test_selections_comparisons_and_safe_casts_report_nothing():
    facts = _facts(picks, X, 1)
    assert facts.pop("where") is False and facts.pop("scalar_less") is False
    assert facts.pop("getitem") is False and facts.pop("branch_select") is False
    assert not any(facts.values()), facts
    facts = _facts(stores, X, np.ones(2, np.float32))
    assert facts == {"empty_like": False, "getitem": False, "setitem": False}


def test_arithmetic_narrowing_casts_and_complex_orderings_may_report():
    facts = _facts(conversions, X, np.ones(3, np.float32),
                   np.array([1 + 1j, np.nan]), np.array([2 ** 62]))
    for target in ("setitem", "divide", "astype", "where", "scalar_less", "scalar_add"):
        assert facts[target] is True, (target, facts)
