"""``int(x)`` of a 0-d integer (or bool) array the graph computes, used in arithmetic
(issue #19): an unbacked int the graph reads when it runs (``sym_number`` with ``int``,
``variables/graph_numbers.py``), as ``float(loss)`` is an unbacked float. Python's own
operators on that very int, so values and types are eager's, negative and huge ones
too; a use that needs the value while tracing (``range(k)``, a shape, ``str``) is still
a break, with a hint.

Example (one graph, no break)::

    def report(y_true, y_pred):
        tp = int(np.sum((y_true == 1) & (y_pred == 1)))
        support = int(np.sum(y_true == 1))
        return {"recall": tp / max(support, 1), "support": support}
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import check

BACKENDS = ("eager", "numpy")
INTS = [np.array([3, -7, 250]), np.array([-3, -7]), np.array([0, 0]),
        np.array([2 ** 62, 5]), np.array([1, 0], dtype=np.uint8)]


def arithmetic(y):
    n = int(y.max()) + 1
    return n * 2, n // 3, n % 5, -n, abs(n - 100), n - int(y.min())


def recall_report(y):
    tp = int(np.sum(y > 0))
    support = int(np.sum(y != 0))
    return {"recall": tp / max(support, 1), "support": support, "k": min(tp, 1)}


def scaled_by_argmax(y):
    # (an int8/uint8 array times the int breaks: NumPy's check that a Python int fits
    # the dtype would read the value, "too large to trace")
    return y.astype(np.int64) * int(np.argmax(y)), np.arange(4) * int(y[0] > 0)


def prefix_write(y):
    k = int(y.min())            # negative k writes all but the last -k entries
    z = np.zeros(5)
    z[:k] = 1.0
    return z, np.full(3, k), np.ones(3) * k


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [arithmetic, recall_report, scaled_by_argmax, prefix_write],
                         ids=lambda f: f.__name__)
@pytest.mark.parametrize("y", INTS, ids=lambda y: str(y.tolist()))
def test_int_of_an_array_in_arithmetic_is_one_graph(fn, y, backend):
    check(fn, y, graphs=1, breaks=0, backend=backend)


def needs_the_value(y):
    k = int(y.max())
    s = 0
    for i in range(k):          # a trip count only the data decides
        s += i
    return s


def as_a_shape(y):
    # (np.zeros((2, int(y.max()) + 1)) is one graph: tests/ops/test_computed_shapes.py)
    return np.linspace(0.0, 1.0, int(y.max()) + 1)


@pytest.mark.parametrize("fn", [needs_the_value, as_a_shape], ids=lambda f: f.__name__)
def test_a_use_that_needs_the_value_breaks_with_eagers_result(fn):
    report = check(fn, np.array([1, 4]), breaks=1)
    assert "hint" in str(report.break_reasons[0])
