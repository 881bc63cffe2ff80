"""Errors at made-up values are no program's errors (issue #19,
``dynamo/symbolic/made_up_values.py``): a data-dependent count (``len(x[x > 0])``) is
traced at a made-up value (4001...), so ``n ** 200 * 0.5`` raises OverflowError while
tracing although eager raises nothing for the real count. The break must say what
happened ("too large to trace (OverflowError at the value used for tracing)"), never
"Python raises this error here" (cause ``python_error``), and the results stay eager's
for small counts (no error) and large ones (eager's own OverflowError) alike.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import outcome, same_outcome

import dynamo

BACKENDS = ("eager", "numpy")


def count(x):
    return len(x[x > 0])


def times_half(x):
    return count(x) ** 200 * 0.5


def as_float(x):
    return float(count(x) ** 200)


def divided(x):
    return count(x) ** 200 / 2          # int / int: Python's true division


def scaled_array(x):
    return x * count(x) ** 200          # NumPy converts the int to a float64


def numpy_float(x):
    return np.float64(count(x) ** 200)


def caught(x):
    try:
        return count(x) ** 200 * 0.5
    except OverflowError:
        return -1.0


PROGRAMS = (times_half, as_float, divided, scaled_array, numpy_float, caught)
HONEST = "too large to trace (OverflowError at the value used for tracing)"


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", PROGRAMS, ids=lambda f: f.__name__)
def test_results_are_eager_for_small_and_large_counts(fn, backend):
    compiled = dynamo.compile(fn, backend=backend)
    # 3 and 5: eager raises nothing; 700 and 1000: eager raises (or catches) OverflowError
    for n in (3, 5, 700, 1000, 2):
        x = np.arange(float(n))
        same_outcome(outcome(fn, (x,)), outcome(compiled, (x.copy(),)), f"n={n}")


# np.float64 of the count's power is cast when the graph runs (``scalar_cast``,
# dynamo/variables/number_casts.py): nothing is evaluated at the made-up value, so it
# does not break (test_a_cast_of_the_count_stays_in_the_graph); nor does an array times
# it: the product's dtype and shape are one for every value, NumPy's OverflowError (an
# int past float64) is raised when the graph runs, as eagerly
# (``unbacked_results.one_value_answer``, test_an_array_times_the_power_stays_in_the_graph)
BREAKING = tuple(fn for fn in PROGRAMS if fn not in (numpy_float, scaled_array))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", BREAKING, ids=lambda f: f.__name__)
def test_the_break_does_not_claim_the_programs_error(fn, backend):
    report = dynamo.explain(fn, backend=backend)(np.arange(5.0))
    assert report.break_reasons, "expected a graph break"
    for reason in report.break_reasons:
        assert reason.cause != "python_error", reason
        assert "Python raises this error here" not in reason.explanation, reason
        assert HONEST in reason.reason, reason.reason
        assert "made-up value" in reason.explanation
        assert "np.power(np.float64(n), k)" in reason.hint


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_array_times_the_power_stays_in_the_graph(backend):
    report = dynamo.explain(scaled_array, backend=backend)(np.arange(5.0))
    assert (report.graph_count, report.graph_break_count) == (1, 0)
    # (its results, OverflowError for 700 and 1000 included: the test above)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_cast_of_the_count_stays_in_the_graph(backend):
    report = dynamo.explain(numpy_float, backend=backend)(np.arange(5.0))
    assert (report.graph_count, report.graph_break_count) == (1, 0)
    # eager's results (test_results_are_eager_for_small_and_large_counts), its
    # OverflowError for a count past float64 (5999 ** 200) included
    compiled = dynamo.compile(numpy_float, backend=backend)
    x = np.arange(6000.0)
    expected = outcome(numpy_float, (x,))
    assert type(expected[0]) is OverflowError
    same_outcome(expected, outcome(compiled, (x.copy(),)), "n=6000")


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_suggested_rewrite_stays_in_the_graph(backend):
    def rewritten(x):
        return np.power(np.float64(count(x)), 200) * 0.5
    report = dynamo.explain(rewritten, backend=backend)(np.arange(5.0))
    assert (report.graph_count, report.graph_break_count) == (1, 0)
    compiled = dynamo.compile(rewritten, backend=backend)
    for n in (3, 5, 700):
        x = np.arange(float(n))
        same_outcome(outcome(rewritten, (x,)), outcome(compiled, (x.copy(),)), f"n={n}")


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_dynamic_size_keeps_its_real_value(backend):
    # a size read off an input is traced at its real value: its error, if any, is the
    # program's (and the entry is specialized on it), so nothing changes there
    def f(x):
        return x.shape[0] ** 200 * 0.5
    compiled = dynamo.compile(f, backend=backend, dynamic=True)
    for n in (3, 5, 700, 4):
        x = np.arange(float(n))
        same_outcome(outcome(f, (x,)), outcome(compiled, (x.copy(),)), f"n={n}")


def reshaped_by_data(y):
    return np.arange(12).reshape(int(y.max()) + 1, -1)   # ValueError at the made-up value


def test_a_rule_refusing_the_made_up_value_has_a_hint_that_fits():
    report = dynamo.explain(reshaped_by_data, backend="eager")(np.array([1, 2]))
    (reason,) = report.break_reasons
    assert "not traceable (ValueError at the value used for tracing)" in reason.reason
    assert "np.power" not in reason.hint     # (that hint is for an OverflowError)
    assert "pass the number in as a Python int" in reason.hint
    compiled = dynamo.compile(reshaped_by_data, backend="eager")
    for y in (np.array([1, 2]), np.array([0, 3]), np.array([4, 4])):
        same_outcome(outcome(reshaped_by_data, (y,)), outcome(compiled, (y,)), str(y))
