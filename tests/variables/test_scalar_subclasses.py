"""A user's subclass of a NumPy scalar type is no NumPy scalar to the trace
(``builder._wrap``: a graph break, as for an ndarray subclass).

Traced as an array input, ``F64(2.5)`` became a plain ``np.float64``: ``type(s)`` said
``float64``, ``repr(s)`` lost the subclass's own ``__repr__`` (hostile round 46,
``round46_values/subclass_scalar``). The function now runs it as Python.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynamo


class F64(np.float64):
    def __repr__(self):
        return f"F64({float(self)!r})"


def typed(x, s):
    return x * s, type(s).__name__, repr(s), type(s * 2).__name__


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_float64_subclass_keeps_its_type(backend):
    f = dynamo.compile(typed, backend=backend)
    x = np.arange(3.0)
    for _ in range(2):
        y, name, text, doubled = f(x, F64(2.5))
        assert (name, text, doubled) == ("F64", "F64(2.5)", "float64")
        assert np.array_equal(y, x * 2.5)
    # a plain np.float64 afterwards is traced as a scalar input, as before
    y, name, text, _ = f(x, np.float64(1.5))
    assert (name, text) == ("float64", "np.float64(1.5)")


def test_the_subclass_is_a_graph_break_that_says_why():
    report = dynamo.explain(typed, backend="eager")(np.arange(3.0), F64(2.5))
    reasons = " ".join(str(b.reason) for b in report.break_reasons)
    assert "NumPy scalar subclass" in reasons and "F64" in reasons


REC = np.dtype([("f", "<f8"), ("n", "<i8")])


def record_view(a, i):
    r = a[i]
    k = float(r["f"])
    a["f"][i] = 9.0
    return k, float(r["f"]), r.tolist(), a.tolist()


def record_argument(x, r):
    return x * r["f"], r.tolist()


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_record_is_a_view_not_a_number(backend):
    """``a[i]`` of a structured array is an ``np.void`` that views ``a``: a later write
    to ``a`` shows through it. It is no NumPy scalar to the trace (a graph break): on
    3.14 the numpy backend keyed its size variants by it, and a writeable void is
    unhashable (a TypeError from the glue)."""
    f = dynamo.compile(record_view, backend=backend)
    for rows, i in (([(1.5, 2), (2.5, 3)], 0), ([(1.5, 2), (2.5, 3)], 0),
                    ([(0.5, 1), (-1.0, 4), (3.0, 5)], 2)):
        assert f(np.array(rows, dtype=REC), i) == record_view(np.array(rows, dtype=REC), i)
    g = dynamo.compile(record_argument, backend=backend)
    a = np.array([(1.5, 2), (2.5, 3)], dtype=REC)
    for _ in range(2):
        y, fields = g(np.arange(3.0), a[0])
        assert fields == a[0].tolist() and np.array_equal(y, np.arange(3.0) * a[0]["f"])
        a["f"][0] = -4.0
