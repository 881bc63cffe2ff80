"""``runtime.alone`` and ``program_hooks``: a flat pass keeps off its gaps while a
``sys.monitoring`` tool or a Python signal handler could run the program's code
between its NumPy calls (issue #17; tests/hostile/prog_round22_hooks.py)."""

import signal
import sys

import numpy as np
import pytest
from dynamo.backends.numpy_backend import program_hooks, runtime

import dynamo
from dynamo import pyversion

monitoring = pytest.mark.skipif(not hasattr(sys, "monitoring"), reason="3.12+")


def _handler(signum, frame):
    pass


@pytest.fixture
def handler_on():
    """Set ``handler`` for ``signum`` for the test, put the old one back after."""
    undo = []

    def set_(signum, handler=_handler):
        undo.append((signum, signal.signal(signum, handler)))
    yield set_
    for signum, old in reversed(undo):
        signal.signal(signum, old)


def test_alone_by_default():
    assert program_hooks.no_program_hooks()
    assert runtime.alone()


@pytest.mark.parametrize("name", ["SIGALRM", "SIGUSR1", "SIGTERM", "SIGCHLD"])
def test_a_python_signal_handler_keeps_off_the_gaps(handler_on, name):
    handler_on(getattr(signal, name))
    assert not program_hooks.no_python_signal_handler()
    assert not runtime.alone()


def test_a_real_time_signal_handler_is_seen_too(handler_on):
    if not hasattr(signal, "SIGRTMIN"):
        pytest.skip("no real-time signals")
    handler_on(signal.SIGRTMIN + 5)
    assert not runtime.alone()


def test_sigint_default_handler_and_ignored_signals_are_no_program_code(handler_on):
    handler_on(signal.SIGINT, signal.default_int_handler)
    handler_on(signal.SIGUSR2, signal.SIG_IGN)
    handler_on(signal.SIGALRM, signal.SIG_DFL)
    assert runtime.alone()


def test_a_handler_set_between_calls_is_seen_at_the_next_call(handler_on):
    # nothing about the handlers is cached: the program may change them at any time
    assert runtime.alone()
    handler_on(signal.SIGALRM)
    assert not runtime.alone()
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    assert runtime.alone()


@monitoring
@pytest.mark.parametrize("tool_name", ["profiler", ""])
def test_a_monitoring_tool_keeps_off_the_gaps(tool_name):
    # (a tool named "" too: its name is falsy, the check asks for None)
    tool = next(i for i in range(6) if sys.monitoring.get_tool(i) is None)
    sys.monitoring.use_tool_id(tool, tool_name)
    try:
        assert pyversion.monitoring_tool_in_use()
        assert not runtime.alone()
    finally:
        sys.monitoring.free_tool_id(tool)
    assert runtime.alone()


@monitoring
def test_a_freed_tool_whose_events_still_run_keeps_off_the_gaps():
    # 3.12 and 3.13: free_tool_id leaves the tool's events and callbacks on (they keep
    # running); 3.14 clears them. Either way alone() says what can run.
    mon = sys.monitoring
    tool = next(i for i in range(6) if mon.get_tool(i) is None)
    calls = []
    mon.use_tool_id(tool, "freed")
    mon.register_callback(tool, mon.events.CALL, lambda *args: calls.append(1))
    mon.set_events(tool, mon.events.CALL)
    mon.free_tool_id(tool)
    try:
        calls.clear()
        still_on = mon.get_events(tool) != 0    # (a call: the callback runs if on)
        ran = bool(calls)
        assert mon.get_tool(tool) is None
        assert runtime.alone() is not still_on
        assert ran is still_on is (sys.version_info < (3, 14))
    finally:
        if mon.get_tool(tool) is None:
            mon.use_tool_id(tool, "freed")
        mon.set_events(tool, 0)
        mon.register_callback(tool, mon.events.CALL, None)
        mon.free_tool_id(tool)
    assert runtime.alone()


def test_monitoring_before_312_is_never_in_use():
    assert pyversion.monitoring_tool_in_use() is (
        hasattr(sys, "monitoring")
        and any(sys.monitoring.get_tool(i) is not None or sys.monitoring.get_events(i)
                for i in range(6)))


def _update(u, v):
    u[1:-1, 1:-1] += 0.1 * (v[:-2, 1:-1] + v[2:, 1:-1] - 2.0 * v[1:-1, 1:-1])
    return u


def test_a_signal_handler_never_sees_the_gaps(handler_on):
    # SIGALRM every 100 us while the compiled update runs: each time the handler runs
    # inside it, it reads u's boundary columns (the gaps of the 1-D pass), which eager
    # never changes. Without the check about 1 run in 12 saw them changed.
    if not hasattr(signal, "setitimer"):
        pytest.skip("no setitimer")
    compiled = dynamo.compile(_update, backend="numpy")
    rng = np.random.default_rng(3)
    u, v = rng.random((200, 200)) + 2, rng.random((200, 200))
    expected = _update(u.copy(), v)
    assert np.array_equal(compiled(u.copy(), v), expected)     # (compiled: no handler)
    edges = (u[:, 0].sum(), u[:, -1].sum())
    state = {"inside": False, "runs": 0, "seen": set()}

    def handler(signum, frame):
        if state["inside"] is True:
            state["inside"] = "handler"      # (not again inside itself)
            state["runs"] += 1
            state["seen"].add((u[:, 0].sum(), u[:, -1].sum()))
            state["inside"] = True
    handler_on(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, 1e-4, 1e-4)
    try:
        for _ in range(4000):
            state["inside"] = True
            compiled(u, v)
            state["inside"] = False
            if state["runs"] >= 300:
                break
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    assert state["seen"] <= {edges}, state["seen"]
