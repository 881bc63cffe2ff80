"""An array's text runs the ``formatter`` (and ``repr`` the ``override_repr``) print
option where one is set (``np.set_printoptions(formatter={"float": fn})``): the
program's own code. The glue
made such a text after the graph, so ``fn``'s effects came after the program's later
effects, a raising ``fn`` lost the effects before it, and the trace-time probe ran
``fn`` once more (round 38, issue #17). While a formatter is set, an array's text is
the break it was; a deferred one is guarded "neither is set"
(``formatted.probe_of``, ``formatted.snapshot``)."""

from __future__ import annotations

import numpy as np
import pytest

import dynamo

LOG: list = []
X = np.array([1.0, 2.5, -3.25])


def logged(v):
    LOG.append("fmt")
    return f"<{v:.1f}>"


def logged_repr(a):
    LOG.append("repr")
    return f"R{a.shape}"


def refused(v):
    raise ValueError("no text")


def effect_then_text(x):
    LOG.append("before")
    return str(x * 2)


def effect_then_repr(x):
    LOG.append("before")
    return repr(x * 2)


def _calls(fn, formatter_from: int, formatter, calls: int = 3, option="formatter"):
    """Each call's (result or exception, LOG), a formatter (or ``override_repr``) set
    from call ``formatter_from`` on."""
    seen = []
    try:
        for k in range(calls):
            if k == formatter_from:
                np.set_printoptions(**{option: formatter if option == "override_repr"
                                       else {"float": formatter}})
            LOG.clear()
            try:
                out = fn(X)
            except ValueError as e:
                out = repr(e)
            seen.append((out, list(LOG)))
    finally:
        np.set_printoptions(formatter=None, override_repr=None)
    return seen


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("formatter", [logged, refused])
@pytest.mark.parametrize("formatter_from", [0, 1])
def test_a_user_formatter_runs_where_eager_runs_it(backend, formatter, formatter_from):
    want = _calls(effect_then_text, formatter_from, formatter)
    dynamo.reset()
    got = _calls(dynamo.compile(effect_then_text, backend=backend), formatter_from,
                 formatter)
    assert got == want


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("formatter_from", [0, 1])
def test_an_override_repr_runs_where_eager_runs_it(backend, formatter_from):
    want = _calls(effect_then_repr, formatter_from, logged_repr, option="override_repr")
    dynamo.reset()
    got = _calls(dynamo.compile(effect_then_repr, backend=backend), formatter_from,
                 logged_repr, option="override_repr")
    assert got == want
