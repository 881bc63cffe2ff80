"""The truth of a data-dependent size chooses a value in the graph (issue #19,
``size_values.size_flag``, ``translator/branch_selects.py``).

``x * 2 if len(kept) else x + 1``, ``if seg.size: ... else: ...``: Python's truth of
an int is ``n != 0``, so the jump tests the graph's bool ``u0 != 0`` (as it tests
``len(kept) != 0``): where both ways only compute arrays of one shape and dtype it is
one graph with a ``branch_select``, no break, at every count (0, 1 and many kept
elements, counts changing between calls of one compiled function, float and int
dtypes); a NumPy scalar one way and a Python float the other is a choice the glue makes
(``BranchChoiceVariable``). Where a way could show something Python would not (a str
on one way, a list append, an op that warns on the untaken way's empty selection), the truth test
breaks as before and the results are still eager's. The bytecode is 3.11's jump on
the int, 3.12+'s ``TO_BOOL`` before it (3.14: ``NOT_TAKEN``): each is exercised by the
version that runs the test.
"""

from __future__ import annotations

import contextlib
import warnings

import numpy as np
import pytest
from harness import nested_types, outcome, same_outcome

import dynamo

BACKENDS = ("eager", "numpy")

# 0, 1 and 4 positive elements, float64, float32 and int64
XS = [np.array(v, dtype=d) for d in (np.float64, np.float32, np.int64)
      for v in ([-1, -2, -3, -4], [1, -2, -3, -4], [1, 2, 3, 4])]


def conditional(x):
    kept = x[x > 0]
    return x * 2 if len(kept) else x + 1


def if_else(x):
    kept = x[x > 0]
    if kept.size:
        y = x - 1
    else:
        y = x * 3
    return y


def negated(x):
    idx = np.nonzero(x > 0)[0]
    return x * 2 if not len(idx) else np.abs(x)


def without_else(x):
    y = x + 0
    if len(np.flatnonzero(x > 1)):
        y = x * x
    return y.sum()


def python_float(x):
    kept = x[x > 0]
    return kept.sum() if len(kept) else 0.0    # a choice the glue makes (the type is data)


KEPT = [("conditional", conditional), ("if_else", if_else), ("negated", negated),
        ("without_else", without_else), ("python_float", python_float)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn", KEPT, ids=[k[0] for k in KEPT])
def test_one_graph_and_eagers_results(name, fn, backend):
    report = dynamo.explain(fn, backend=backend)(XS[-1])
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    assert report.graph_count == 1
    compiled = dynamo.compile(fn, backend=backend)
    for i, x in enumerate(XS):
        want, got = outcome(fn, [x]), outcome(compiled, [x])
        same_outcome(want, got, f"{name} inputs {i}")
        assert nested_types(got[0]) == nested_types(want[0]), f"{name} inputs {i}"


LOG: list = []


def python_text(x):
    kept = x[x > 0]
    return kept.sum() if len(kept) else "none"  # a NumPy scalar one way, a str the other


def appends(x):
    kept = x[x > 0]
    if len(kept):
        LOG.append(len(kept))                  # a Python effect in one way
    return x * 2


def warns_untaken(x):
    kept = x[x > 0]
    return kept.mean() if len(kept) else np.float64(0.0)   # mean of an empty slice warns


BROKEN = [("python_text", python_text), ("appends", appends),
          ("warns_untaken", warns_untaken)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn", BROKEN, ids=[k[0] for k in BROKEN])
def test_a_way_that_could_show_something_keeps_the_break(name, fn, backend):
    report = dynamo.explain(fn, backend=backend)(XS[-1])
    assert report.graph_break_count >= 1
    assert "data-dependent size" in report.break_reasons[0].reason
    compiled = dynamo.compile(fn, backend=backend)
    for i, x in enumerate(XS):
        LOG.clear()
        with _warnings() as eager_warns:
            want = outcome(fn, [x])
        eager_log = list(LOG)
        LOG.clear()
        with _warnings() as got_warns:
            got = outcome(compiled, [x])
        same_outcome(want, got, f"{name} inputs {i}")
        assert nested_types(got[0]) == nested_types(want[0]), f"{name} inputs {i}"
        assert LOG == eager_log, f"{name} inputs {i}: the effect ran {LOG}"
        assert [str(w.message) for w in got_warns] == \
            [str(w.message) for w in eager_warns], f"{name} inputs {i}"


@contextlib.contextmanager
def _warnings():
    with warnings.catch_warnings(record=True) as log:
        warnings.simplefilter("always")
        yield log
