"""A backend that fails to compile a graph: a user's raises ``BackendError``; a built-in
one's failure (dynamo's own bug) runs the graph on the eager backend with a warning,
unless ``config.strict_backends`` (which this test suite sets: conftest.py)."""

import logging

import numpy as np
import pytest

import dynamo


def scaled(x):
    return np.tanh(x) * 2.0 + x.sum()


@pytest.fixture
def lenient(monkeypatch):
    """The user's default: built-in backends' failures fall back."""
    monkeypatch.setattr(dynamo.config, "strict_backends", False)


def failing_builtin(graph, example_inputs):
    """Stands for a built-in backend with a bug (``is_builtin`` goes by the module)."""
    raise KeyError("branch_select")


failing_builtin.__module__ = "dynamo.backends.numpy_backend.backend"


def test_a_builtin_backend_failure_runs_the_graph_on_eager(lenient, caplog):
    x = np.linspace(-1.0, 1.0, 7)
    compiled = dynamo.compile(scaled, backend=failing_builtin)
    with caplog.at_level(logging.WARNING, logger="dynamo.internal"):
        got = compiled(x)
        again = compiled(x + 1.0)
    assert np.array_equal(got, scaled(x)) and got.dtype == np.float64
    assert np.array_equal(again, scaled(x + 1.0))
    warned = [r.getMessage() for r in caplog.records if r.name == "dynamo.internal"]
    # one compile, one warning: the entry (with its eager graph) is kept
    assert len(warned) == 1, warned
    assert ("backend 'failing_builtin' failed to compile a graph of 4 ops from scaled: KeyError: "
            "'branch_select'; this graph runs on the eager backend") in warned[0]
    assert dynamo.explain(scaled, backend=failing_builtin)(x).graph_count == 1


def test_strict_backends_raise_the_builtin_failure():
    assert dynamo.config.strict_backends     # set by conftest.py for the whole suite
    compiled = dynamo.compile(scaled, backend=failing_builtin)
    with pytest.raises(dynamo.BackendError,
                       match="backend 'failing_builtin' failed to compile a graph of 4 ops from "
                             "scaled: KeyError: 'branch_select'. Try backend='eager'"):
        compiled(np.ones(3))


def test_a_user_backend_failure_is_a_backend_error_all_the_same(lenient):
    def mine(graph, example_inputs):
        raise RuntimeError("kaboom")

    compiled = dynamo.compile(scaled, backend=mine)
    with pytest.raises(dynamo.BackendError, match="backend 'mine' failed to compile.*"
                                                  "RuntimeError: kaboom") as info:
        compiled(np.ones(3))
    assert isinstance(info.value.__cause__, RuntimeError)
