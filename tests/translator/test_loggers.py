"""Logging calls below the logger's level vanish from the trace, behind a level guard;
enabled ones are graph breaks that emit their record at their place in the program."""

import logging

import numpy as np
import pytest
from harness import check

import dynamo

log = logging.getLogger("dynamo_test_loggers")


def step(w, g, lr):
    log.debug(f"lr={lr}")
    w = w - lr * g
    log.info("norm %.3f", 1.5)
    log.log(5, "custom level")
    return w * 2


@pytest.fixture
def quiet_logger():
    log.setLevel(logging.WARNING)
    yield log
    log.setLevel(logging.NOTSET)


def test_disabled_calls_leave_one_graph(quiet_logger, caplog):
    w = np.ones(3, np.float32)
    with caplog.at_level(logging.WARNING, logger=log.name):
        check(step, w, w, 0.1, graphs=1, breaks=0)
    assert not [r for r in caplog.records if r.name == log.name]


def test_enabling_a_level_retraces_and_emits_in_order(quiet_logger, caplog):
    w = np.ones(3, np.float32)
    compiled = dynamo.compile(step, backend="eager")
    compiled(w, w, 0.1)
    caplog.set_level(logging.INFO, logger=log.name)     # the guard on INFO fails now
    np.testing.assert_array_equal(compiled(w, w, 0.1), step(w, w, 0.1))
    messages = [r.getMessage() for r in caplog.records if r.name == log.name]
    assert messages == ["norm 1.500", "norm 1.500"]      # compiled, then eager
    report = dynamo.explain(step, backend="eager")(w, w, 0.1)
    assert (report.graph_count, report.graph_break_count) == (2, 1)
    assert "Logger.info" in str(report.break_reasons[0])


def test_guard_is_shown_in_explain(quiet_logger):
    w = np.ones(2, np.float32)
    guards = [g.describe() for g in dynamo.explain(step, backend="eager")(w, w, 0.1).guards]
    assert any("isEnabledFor(10)" in g and "dropped while disabled" in g for g in guards)


def test_level_from_an_argument_is_specialized(quiet_logger, caplog):
    def f(x, level):
        log.log(level, "x")
        return x + 1

    check(f, np.ones(2), logging.DEBUG, graphs=1, breaks=0)     # dropped
    with caplog.at_level(logging.WARNING, logger=log.name):
        check(f, np.ones(2), logging.ERROR, graphs=1, breaks=1)  # emitted, in order
    # eager, two compiled calls, and the explain run of check(): one record each
    assert [r.getMessage() for r in caplog.records if r.name == log.name] == ["x"] * 4
