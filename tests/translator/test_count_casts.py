"""``np.int64(n)`` of a data-dependent count stays in the graph (issue #19).

A count (``len(x[m])``, ``np.bincount(y).shape[0]``, ``len(np.unique(y))``) is an
array's length, ``0 <= n < 2**63``: NumPy's 64-bit int types hold it at every count,
so ``np.int64(n)``, ``np.uint64(n)`` and ``np.intp(n)`` are a ``scalar_cast`` node
(``size_values.count_cast``), with eager's NumPy scalar type and value. An int type
that may overflow for some value (``np.int32(n)``; ``np.int64(n + 1)``, which is past
``2**63 - 1`` for the largest count) still breaks, and its result is eager's.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import nested_types, outcome, same_outcome

import dynamo

BACKENDS = ("eager", "numpy")

# 0, 1 and 4 positive elements; labels with 1, 2 and 4 classes
XS = [np.array(v) for v in ([-1.0, -2.0, -3.0, -4.0], [1.0, -2.0, -3.0, -4.0],
                            [1.0, 2.0, 3.0, 4.0])]
YS = [np.array(v) for v in ([0, 0, 0], [1, 0, 1], [3, 0, 2, 1])]


def cast_counts(x):
    n = len(x[x > 0])
    return np.int64(n), np.uint64(n), np.intp(n), np.int64(n) * 2 + 1


def class_counts(y):
    k = np.bincount(y).shape[0]
    u = len(np.unique(y))
    return np.int64(k), np.uint64(u), np.zeros(np.int64(u)).shape


KEPT = [("cast_counts", cast_counts, XS), ("class_counts", class_counts, YS)]



@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,inputs", KEPT, ids=[k[0] for k in KEPT])
def test_one_graph_and_eagers_scalars(name, fn, inputs, backend):
    report = dynamo.explain(fn, backend=backend)(inputs[-1])
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    assert report.graph_count == 1
    compiled = dynamo.compile(fn, backend=backend)
    for i, v in enumerate(inputs):
        want, got = outcome(fn, [v]), outcome(compiled, [v])
        same_outcome(want, got, f"{name} inputs {i}")
        assert nested_types(got[0]) == nested_types(want[0]), f"{name} inputs {i}"


def narrow(x):
    return np.int32(len(x[x > 0]))


def past_the_count(x):
    return np.int64(len(x[x > 0]) + 1)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [narrow, past_the_count])
def test_an_int_that_may_overflow_still_breaks(fn, backend):
    report = dynamo.explain(fn, backend=backend)(XS[-1])
    assert report.graph_break_count == 1
    assert "overflows for some values" in report.break_reasons[0].reason
    compiled = dynamo.compile(fn, backend=backend)
    for x in XS:
        want, got = outcome(fn, [x]), outcome(compiled, [x])
        same_outcome(want, got, fn.__name__)
        assert type(got[0]) is type(want[0])
