"""Graphs that hold an ``if`` on array data as a choice (``branch_select``) run both
ways' ops, so an op of the untaken way must not show a floating-point condition: such a
graph is rerun from the frame's original code when it raises, and runs under NumPy's
floating-point guard (conditions raise) where an op of it may report one
(``dynamo.raising._reports_fp``, ``dynamo.ops.signals.reports_fp``). A graph whose
ops can only raise (indexing, comparisons of floats, safe casts: a running argmin)
skips the guard, 1.4 us of a 2 us call at 10^3 elements (issue #15).

Each program runs compiled and eager under the caller's ``np.errstate`` settings
(raise, print, call, warn): the result or the ``FloatingPointError``, the printed
lines, the ``np.seterrcall`` calls and the warnings are eager's, each reported once.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import outcome, same_outcome

import dynamo

BACKENDS = ("eager", "numpy")
SETTINGS = ("raise", "print", "call", "warn")


def running_argmin(d):
    best = d[0]
    arg = 0
    for i in range(1, len(d)):
        if d[i] < best:
            best = d[i]
            arg = i
    return best, arg


def running_min(x):
    out = np.empty_like(x)
    m = x[0]
    for i in range(len(x)):
        if x[i] < m:
            m = x[i]
        out[i] = m
    return out


def count_above(r, t):
    # a picked counter: its ``count + 1`` cannot overflow (the graph bounds it as int64
    # before the loop, raising OverflowError there: picked_numbers.picked_binary)
    count = 0
    for i in range(len(r)):
        if r[i] > t:
            count += 1
    return count


def inverse_sum(x):
    # the taken way overflows at 1e-310, the untaken one divides by zero at 0.0
    s = x[0] * 0.0
    for i in range(len(x)):
        if x[i] != 0:
            s = s + 1.0 / x[i]
    return s


def log_or_ratio(num, den):
    total = den.sum()
    if total != 0:
        r = num / total
    else:
        r = np.log(num)        # warns at a 0 of num when taken, nothing when not
    return r * 2


def _data(n: int) -> np.ndarray:
    x = np.random.default_rng(n).standard_normal(n)
    x[::7] = np.nan
    x[3], x[5] = 0.0, 1e-310
    return x


CASES = {
    "running_argmin": (running_argmin, lambda n: (_data(n),)),
    "running_min": (running_min, lambda n: (_data(n),)),
    "count_above": (count_above, lambda n: (_data(n), 0.5)),
    "inverse_sum": (inverse_sum, lambda n: (_data(n),)),
    "log_or_ratio_taken": (log_or_ratio, lambda n: (np.array([0.0, 1.0, 2.0]),
                                                    np.array([1.0, -1.0]))),
    "log_or_ratio_untaken": (log_or_ratio, lambda n: (np.array([0.0, 1.0, 2.0]),
                                                      np.array([1.0, 2.0]))),
}
# unrolled (8 elements) and a loop node (300)
SIZES = (8, 300)


def _under(setting: str, fn, args, capfd):
    """``harness.outcome`` of ``fn(*args)`` under ``np.errstate(all=setting)``, with the
    ``np.seterrcall`` calls (``"call"``) and what NumPy wrote from C to standard error
    (``"print"``)."""
    calls = []
    capfd.readouterr()
    old = np.seterrcall(lambda kind, flag: calls.append(kind))
    try:
        with np.errstate(all=setting):
            return outcome(fn, args), calls, capfd.readouterr().err
    finally:
        np.seterrcall(old)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_conditions_of_graphs_with_selects_are_eagers(name, backend, capfd):
    fn, make = CASES[name]
    compiled = dynamo.compile(fn, backend=backend)
    for n in SIZES:
        for setting in SETTINGS:
            want, want_calls, want_err = _under(setting, fn, make(n), capfd)
            got, got_calls, got_err = _under(setting, compiled, make(n), capfd)
            label = f"{name} n={n} {setting}"
            same_outcome(want, got, label)
            assert got_calls == want_calls, f"{label}: seterrcall calls"
            assert got_err == want_err, f"{label}: printed reports"
    dynamo.reset()


def test_the_programs_report_what_they_are_meant_to(capfd):
    # (so that the test above checks something: the conditions eager reports)
    _, _, printed = _under("print", inverse_sum, (_data(300),), capfd)
    assert printed == "Warning: overflow encountered in scalar divide\n"
    (result, _, _, _), _, _ = _under("raise", inverse_sum, (_data(8),), capfd)
    assert isinstance(result, FloatingPointError)
    _, calls, _ = _under("call", log_or_ratio, CASES["log_or_ratio_untaken"][1](0), capfd)
    assert calls == []
    _, calls, _ = _under("call", log_or_ratio, CASES["log_or_ratio_taken"][1](0), capfd)
    assert calls == ["divide by zero"]
    (_, _, _, warned), _, _ = _under("warn", running_argmin, (_data(300),), capfd)
    assert warned == []


def _glue(fn, args) -> str:
    with np.errstate(all="ignore"):
        report = dynamo.explain(fn, backend="numpy")(*args)
    assert report.graph_count == 1 and not report.graph_break_count, str(report)
    return report.records[0].glue_source


@pytest.mark.parametrize("n", SIZES)
def test_the_guard_is_skipped_where_no_op_reports_conditions(n):
    # running argmin/min: indexing, comparisons of floats, int casts, selects
    for fn in (running_argmin, running_min):
        assert "___ufunc_set" not in _glue(fn, (_data(n),)), fn.__name__
    if n > 8:   # (a loop node: a picked counter's step)
        assert "___ufunc_set" not in _glue(count_above, (_data(n), 0.5))
    # a divide in a way (the loop node's body, or straight-line): guarded
    assert "___ufunc_set" in _glue(inverse_sum, (_data(n),))
    assert "___ufunc_set" in _glue(log_or_ratio, CASES["log_or_ratio_taken"][1](n))
    dynamo.reset()
