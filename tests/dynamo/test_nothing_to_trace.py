"""``dynamo.compile`` of a callable with no Python code to trace (a ufunc, a builtin, a
class, a bound builtin method) returns that callable itself, which then runs uncompiled:
a wrapper function would not be it (``f.reduce`` of a compiled ``np.add``,
``isinstance(p, dynamo.compile(Point))`` and ``__self__`` of a compiled ``log.append``
failed; hostile round 28, ``dynamo/api.py _plain_call``).
"""

from __future__ import annotations

import numpy as np
import pytest

import dynamo


class Point:
    def __init__(self, x):
        self.x = x


@pytest.mark.parametrize("fn", [np.add, np.sum, len, Point, [].append, print],
                         ids=["ufunc", "array function", "builtin", "class",
                              "bound builtin", "print"])
def test_it_is_the_callable_itself(fn):
    assert dynamo.compile(fn, backend="eager") is fn
    assert dynamo.compile(fn, backend="numpy") is fn


def test_what_the_callable_offers_still_works():
    add = dynamo.compile(np.add, backend="eager")
    np.testing.assert_array_equal(add.reduce(np.arange(4.0)), 6.0)
    assert add.nin == 2
    C = dynamo.compile(Point, backend="eager")
    p = C(1.0)
    assert isinstance(p, C) and type(p) is Point
    log = []
    append = dynamo.compile(log.append, backend="eager")
    append(3)
    assert append.__self__ is log and log == [3]


def test_it_is_logged_as_running_uncompiled(caplog):
    dynamo.set_logs("graph_breaks")
    try:
        with caplog.at_level("DEBUG", logger="dynamo"):
            dynamo.compile(np.tanh, backend="eager")
    finally:
        dynamo.set_logs()
    assert any("runs uncompiled" in r.getMessage() for r in caplog.records)
