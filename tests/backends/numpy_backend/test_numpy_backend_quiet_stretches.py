"""The numpy backend's floating-point guard per stretch is kept for ops that may signal
something for their values (``dynamo.ops.signals.signals_for_values``), not for every
op ``may_signal`` is unsure of: a block-wise group of float comparisons and selects
reports nothing and raises nothing for any data, so it runs unguarded (issue #15); a
group with a division stays guarded. Each is checked against plain NumPy by
``agree`` (results bit for bit, warnings, ``seterrcall`` calls, exceptions) under the
caller's ``np.errstate`` settings."""

import numpy as np
import pytest
from test_numpy_never_wrong import BLOCKED, agree, source

from dynamo.ops.signals import may_signal, signals_for_values
from dynamo.ops.signals import reports_fp as _reports_fp

ERRSTATES = [None, {"all": "raise"}, {"all": "warn"}, {"all": "call"}, {"all": "print"}]


def band_select(x, y):
    """Float comparisons, a logical and, a select and a negation: quiet for any data."""
    m = (x < 0.5) & (y > 0.25)
    return np.where(m, x, -y)


def band_divide(x, y):
    """The same select of a quotient: the division may report (a zero, 0 / 0)."""
    m = (x < 0.5) & (y > 0.25)
    return np.where(m, x / y, -y)


def _inputs():
    rng = np.random.default_rng(0)
    x, y = rng.random((64, 64)), rng.random((64, 64))
    x[3, 4] = np.nan       # (a comparison with NaN reports nothing in NumPy)
    y[10, 11] = np.inf
    y[5, 7] = y[60, 3] = 0.0
    x[60, 3] = 0.0         # 0 / 0 there
    return x, y


def test_a_block_wise_group_of_comparisons_runs_unguarded():
    x, y = _inputs()
    code = source(band_select, x, y, **BLOCKED)
    assert "_raising_of(" not in code and "_redo" not in code, code


def test_a_block_wise_group_with_a_division_stays_guarded():
    x, y = _inputs()
    assert "_ufunc_set(_raising_of(_caller))" in source(band_divide, x, y, **BLOCKED)


@pytest.mark.parametrize("errstate", ERRSTATES)
@pytest.mark.parametrize("fn", [band_select, band_divide])
def test_unguarded_and_guarded_groups_report_as_eager(fn, errstate):
    x, y = _inputs()
    agree(fn, x, y, options=BLOCKED, errstate=errstate)
    agree(fn, x, np.ones_like(y), options=BLOCKED, errstate=errstate)


def test_which_nodes_signal_for_their_values():
    from test_numpy_never_wrong import traced
    x, y = _inputs()
    nodes = {n.target: n for n in traced(band_divide, x, y).call_nodes()}
    # a float comparison may signal (may_signal is unsure) but reports nothing
    less = nodes["less"]
    assert may_signal(less) and not _reports_fp(less) and not signals_for_values(less)
    assert signals_for_values(nodes["true_divide"] if "true_divide" in nodes
                              else nodes["divide"])
