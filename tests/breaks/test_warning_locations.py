"""Warnings raised while a graph runs name the place eager names (issue #17, #19):
category, message, filename and line of every warning equal eager's, on the eager and
numpy backends.

Two kinds: C-level floating-point warnings (``np.log`` of a negative value, a division
by zero), which name the program's line because the generated code carries the
program's file and lines; and NumPy's Python-level warnings with ``stacklevel=2``
("Mean of empty slice", "Degrees of freedom <= 0 for slice"), which name the frame that
called NumPy's Python code: the program's line for ``x.mean()`` (a C method), NumPy's
``fromnumeric.py`` for ``np.mean(x)``. The generated code makes the very call the program
made for these (``dynamo/ops/reductions.py``, ``_WARN_AT_CALLER``), so both spellings
match, in loops and in helpers inlined from this file and from another one.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from other_file_helpers import centered

import dynamo

BACKENDS = ("eager", "numpy")


def method_spelling(x):
    return x.mean(), x.var(), x.std(ddof=1), x.mean(axis=0)


def function_spelling(x):
    return np.mean(x), np.var(x, ddof=1), np.std(x), np.mean(x, axis=0)


def nan_functions(x):
    return np.nanmean(x, axis=0), np.nanvar(x, axis=0), np.nanstd(x)


def fp_errors(x):
    y = np.log(x - 1.0)
    z = 1.0 / (x - x)
    return y, z, np.sqrt(-x)


def _inner(v):
    return v.mean(axis=1) + np.var(v, axis=1, ddof=5)


def inlined_helper(x):
    a = _inner(x)
    b = centered(x)
    return a, b


def in_a_loop(x):
    total = np.zeros(x.shape[1:])
    for i in range(3):
        total = total + x[:i].mean(axis=0) + np.log(x[0] - i)
    return total


def statistics_ops(x):
    return np.cov(x[:1], rowvar=False), np.corrcoef(np.ones((3, 2)), rowvar=False)


PROGRAMS = [method_spelling, function_spelling, nan_functions, fp_errors, inlined_helper,
            in_a_loop, statistics_ops]
ARGS = {
    "method_spelling": [np.zeros((0, 3)), np.ones((1, 2))],
    "function_spelling": [np.zeros((0, 3)), np.ones((1, 2))],
    "nan_functions": [np.full((2, 3), np.nan), np.ones((2, 3))],
    "fp_errors": [np.array([0.5, 1.0, 2.0]), np.zeros(2)],
    "inlined_helper": [np.ones((2, 3)), np.zeros((1, 0))],
    "in_a_loop": [np.array([[2.0, 0.5], [1.0, 3.0], [4.0, 4.0]])],
    "statistics_ops": [np.arange(6.0).reshape(2, 3)],
}


def recorded(fn, x):
    """Every warning of one call, as (category, message, filename, lineno), and the
    result."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn(x.copy())
    return [(w.category, str(w.message), w.filename, w.lineno) for w in caught], result


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", PROGRAMS, ids=lambda f: f.__name__)
def test_warnings_as_eager(fn, backend):
    dynamo.reset()
    compiled = dynamo.compile(fn, backend=backend)
    for i, x in enumerate(ARGS[fn.__name__]):
        expected, want = recorded(fn, x)
        # the first argument set warns; a later one may not (then none may appear)
        assert expected or i > 0, f"{fn.__name__}{x.shape}: the program must warn"
        for call in range(2):        # the trace, then the cached entry
            got, result = recorded(compiled, x)
            assert got == expected, f"call {call + 1} of {fn.__name__}{x.shape}"
            np.testing.assert_equal(result, want)


def test_one_graph():
    """The programs above compile with no break, so the warnings come from graphs."""
    for fn in PROGRAMS:
        dynamo.reset()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            report = dynamo.explain(fn, backend="eager")(ARGS[fn.__name__][0].copy())
        assert report.graph_break_count == 0, (fn.__name__, report.break_reasons)
