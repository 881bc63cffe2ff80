"""``~``, ``not``, ``-`` and ``+`` of a size comparison, and ``not`` / ``~`` of a NumPy
bool from a comparison, kept in the graph with eager's exact type (issue #19,
``dynamo/variables/size_values.py``, ``variables/conversions.negated_truth``).

Python inverts a bool as its int (``~True == -2``, an int; from 3.12 with a
DeprecationWarning, so there it breaks, as ``~True`` of a constant does), ``not`` of a
comparison is the other bool, and NumPy's ``~np.True_`` is ``np.False_``, while ``not``
of a NumPy bool is a Python bool. Every program runs at 0, 1, 2, 3 and 6 selected
elements (and a NaN sum) on the eager and numpy backends, one compiled object, against
eager: values, exceptions, warnings and the Python types of the result.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest
from harness import nested_types, outcome, same_outcome
from test_size_values import BACKENDS, XS

import dynamo

INPUTS = [*XS, np.array([np.nan, 1.0, -2.0, 3.0, -4.0, 5.0])]
INVERT_WARNS = sys.version_info >= (3, 12)   # ~ of a bool: DeprecationWarning


def not_of_counts(x):
    n = len(x[x > 0])
    return not (n > 0), not (n == 0), -(not (n > 0)), +(not (n > 1)), (not (n > 2)) + 1


def not_kept_and_combined(x):
    n = len(x[x > 0])
    empty = not (n > 0)
    flags = [empty, not (n > 3)]
    return flags, empty & (n < 5), empty | False, x * (not (n > 1))


def not_of_numpy_bools(x):
    s = x.sum()
    return not (s > 0), not (x[0] > 0), ~(s > 0), ~(x[1] > 0), not s


def not_of_dynamic_size(x):
    n = x.shape[0]
    return not (n > 3), -(n > 3), +(n > 3)


def invert_of_counts(x):
    n = len(x[x > 0])
    return ~(n > 0), ~(n > 1) + 1, ~(n > 2) * 2.5, x * ~(n > 0), ~(not (n > 0))


def invert_of_dynamic_size(x):
    n = x.shape[0]
    return ~(n > 3), ~(n > 3) * x.sum()


def not_of_a_constant_array(x):
    flag = not np.all(np.array([1, 2]) > 0)   # (known while tracing: folded, no break)
    if flag:
        return x + 1
    return x - 1


NEGATIONS = [(f.__name__, f) for f in (not_of_counts, not_kept_and_combined,
                                        not_of_numpy_bools, not_of_dynamic_size,
                                        not_of_a_constant_array)]
INVERSIONS = [(f.__name__, f) for f in (invert_of_counts, invert_of_dynamic_size)]


def _check_against_eager(name, fn, backend, inputs):
    compiled = dynamo.compile(fn, backend=backend)
    for i, x in enumerate(inputs):
        want, got = outcome(fn, [x.copy()]), outcome(compiled, [x.copy()])
        same_outcome(want, got, f"{name} inputs {i}")
        assert nested_types(got[0]) == nested_types(want[0]), f"{name} inputs {i}"


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn", NEGATIONS, ids=[p[0] for p in NEGATIONS])
def test_negations_are_one_graph_with_eagers_types(name, fn, backend):
    report = dynamo.explain(fn, backend=backend)(INPUTS[3])
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    _check_against_eager(name, fn, backend, INPUTS)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn", INVERSIONS, ids=[p[0] for p in INVERSIONS])
def test_inversions_are_ints_or_break_where_python_warns(name, fn, backend):
    report = dynamo.explain(fn, backend=backend)(INPUTS[3])
    if INVERT_WARNS:   # the warning is Python's, at every call: Python runs the line
        assert report.graph_break_count >= 1
        assert any("~" in r.reason and "3.12" in r.reason or "warns" in r.reason
                   for r in report.break_reasons), [r.reason for r in report.break_reasons]
    else:
        assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    _check_against_eager(name, fn, backend, INPUTS)


def test_dynamic_size_inversion_serves_every_length():
    compiled = dynamo.compile(invert_of_dynamic_size, backend="eager")
    for n in (2, 3, 4, 5, 7):
        x = np.linspace(-1.0, 1.0, n)
        want, got = outcome(invert_of_dynamic_size, [x]), outcome(compiled, [x])
        same_outcome(want, got, f"length {n}")
        assert nested_types(got[0]) == nested_types(want[0])


def branch_on_negation(x):
    n = len(x[x > 0])
    empty = not (n > 0)
    if empty:
        return -1.0
    return x.sum()


def select_on_negation(x):
    s = x.sum()
    return x if not (s > 0) else -x


@pytest.mark.parametrize("fn", [branch_on_negation, select_on_negation])
def test_a_decision_on_a_negation_stays_correct(fn):
    _check_against_eager(fn.__name__, fn, "eager", INPUTS)


def both_nonempty(x):
    pos, neg = x[x > 0], x[x < 0]
    return len(pos) > 0 and len(neg) > 0


def test_and_of_comparisons_stays_in_the_graph():
    """``and`` of two comparisons of counts is the graph's ``&`` of the two bools
    (``translator/size_and_or.py``; tests/translator/test_size_and_or.py): no break."""
    report = dynamo.explain(both_nonempty, backend="eager")(INPUTS[3])
    assert report.graph_break_count == 0
    _check_against_eager("both_nonempty", both_nonempty, "eager", INPUTS)
