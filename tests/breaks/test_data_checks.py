"""Checks on array data stay in the graph (issue #19, ``translator/raising_checks.py``,
``dynamo/ops/checks.py``): ``assert np.all(p >= 0), "msg"``, ``if np.any(np.isnan(x)):
raise ValueError(f"...")``, ``if not np.isfinite(loss): raise ...``, ``assert
np.allclose(a, b)``.

A check that passes: one graph, no break, eager's results. A check that fails: the
graph raises before the glue replays anything, and the frame's original code runs, so
the exception (type, message, traceback line), the program's ``except`` handlers,
the Python objects it changed, the warnings and the arguments afterwards are eager's.
A graph that wrote an input or drew random numbers before the check keeps the break;
such an op after the check breaks the graph there. Each program is called on one
compiled object with passing and failing arguments in turn, on both CPU backends."""

import copy
import warnings

import numpy as np
import pytest
from check_calls import calls_match_eager
from data_check_programs import (
    caught,
    close_checked,
    draw_before,
    helper_checked,
    log_checked,
    loss_checked,
    nan_checked,
    normalized,
    printed_then_checked,
    write_after,
    write_before,
)

import dynamo

BACKENDS = ("eager", "numpy")


P_OK = np.array([[0.2, 0.8], [0.5, 0.5]])
P_BAD = np.array([[1.2, -0.2], [0.5, 0.5]])
P_SUM = np.array([[0.2, 0.7], [0.5, 0.5]])
V = np.array([1.0, 2.0])

# name -> (function, passing argument sets, failing ones, graphs and breaks when it passes)
PROGRAMS = {
    "assert_all": (normalized, [(np.array([1.0, 2.0, 3.0]),)],
                   [(np.array([1.0, -2.0, 3.0]),)], (1, 0)),
    "if_any_raise_fstring": (nan_checked, [(np.arange(4.0), [])],
                             [(np.array([1.0, np.nan]), [])], (1, 0)),
    "if_not_isfinite": (loss_checked, [(np.ones(3), np.eye(3))],
                        [(np.array([1e200, 1.0, 1.0]), np.eye(3))], (1, 0)),
    "assert_allclose": (close_checked, [(np.ones(3), np.ones(3))],
                        [(np.ones(3), np.zeros(3))], (1, 0)),
    "inlined_helper": (helper_checked, [(P_OK, V)], [(P_BAD, V), (P_SUM, V)], (1, 0)),
    "except_handler": (caught, [(np.array([1.0, 2.0]),)], [(np.array([-1.0, 2.0]),)],
                       (1, 0)),
    "warning_then_fail": (log_checked, [(np.array([1.0, 2.0]),)],
                          [(np.array([0.0, 2.0]),)], (1, 0)),
    "after_a_break": (printed_then_checked, [(np.ones(2), [])], [(-np.ones(2), [7])],
                      (1, 1)),
    "write_before": (write_before, [(np.array([1.0, 2.0]),)], [(np.array([-5.0, 2.0]),)],
                     (2, 1)),
    "write_after": (write_after, [(np.array([1.0, 2.0]), np.zeros(2))],
                    [(np.array([-1.0, 2.0]), np.zeros(2))], (2, 1)),
    "draw_before": (draw_before, [(np.random.default_rng(0), np.ones(3))],
                    [(np.random.default_rng(0), np.full(3, -1e3))], (1, 1)),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_check_against_eager(name, backend):
    fn, passing, failing, (graphs, breaks) = PROGRAMS[name]
    calls_match_eager(fn, dynamo.compile(fn, backend=backend), passing, failing, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = dynamo.explain(fn, backend=backend)(*copy.deepcopy(passing[0]))
    assert (report.graph_count, report.graph_break_count) == (graphs, breaks), report
    if breaks == 0:
        assert any(n.target == "data_check" for g in report.graphs for n in g.call_nodes())


def test_a_failing_check_leaves_its_input_and_state_as_eager():
    """The write after the check never happens when the check fails (eager raised
    first); the list appended to before the check holds eager's items."""
    compiled = dynamo.compile(write_after, backend="eager")
    x, out = np.array([-1.0, 2.0]), np.full(2, 7.0)
    with pytest.raises(AssertionError, match="x <= 0"):
        compiled(x, out)
    np.testing.assert_array_equal(out, [7.0, 7.0])
    log = []
    with pytest.raises(ValueError, match=r"nan in y of shape \(2,\)"):
        dynamo.compile(nan_checked, backend="numpy")(np.array([1.0, np.nan]), log)
    assert log == ["start"]


def test_a_write_after_a_check_makes_the_check_a_break_again():
    """The rerun of a failed check cannot undo a write, so the trace restarts and the
    check breaks as before: the graph before it writes nothing."""
    report = dynamo.explain(write_after, backend="eager")(np.array([1.0, 2.0]), np.zeros(2))
    (brk,) = report.break_reasons
    assert brk.reason == ("truth value of an array (data-dependent control flow: a check "
                          "that raises on some data)")
    assert not any(n.target == "data_check" for g in report.graphs for n in g.call_nodes())


def test_a_check_on_an_array_of_several_elements_keeps_its_break():
    """``if x > 0`` of a 3-element array raises in eager (ambiguous truth): no check op
    may stand in for it."""
    def f(x):
        if x > 0:
            raise ValueError("positive")
        return x

    compiled = dynamo.compile(f, backend="eager")
    with pytest.raises(ValueError, match="ambiguous"):
        compiled(np.ones(3))


def test_config_data_checks_off_makes_each_check_a_break():
    dynamo.config.data_checks = False
    try:
        report = dynamo.explain(normalized, backend="eager")(np.array([1.0, 2.0]))
    finally:
        dynamo.config.data_checks = True
    assert report.graph_break_count == 1
    assert report.break_reasons[0].reason.endswith("a check that raises on some data)")
