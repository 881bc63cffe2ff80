"""A ``return`` inside a ``for`` loop at a step the data decides (``for i, v in
enumerate(x): if v > thr: return i``, a convergence loop that returns from inside) keeps
its break at the test, and the break names it as what it is (issue #19,
``translator/loop_shape_names.py``): it used to say "a for ... else (the else block
runs ...)" of a loop with no ``else``, and to hint at dropping that block. Its hint is
the rewrite that keeps the loop in the graph: the search as ``np.argmax`` of the test,
the convergence loop with ``if done: break`` and the ``return`` after it (both checked
here to be one graph with eager's results). A real ``for ... else`` keeps its name.
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest

import dynamo


def first_above(x, thr):
    for i, v in enumerate(x):
        if v > thr:
            return i
    return -1


def converge(x, tol=1e-6, max_iter=50):
    m = x.mean()
    for _ in range(max_iter):
        new = 0.5 * (m + np.median(x))
        if abs(new - m) < tol:
            return new
        m = new
    return m


def first_above_rewritten(x, thr):
    c = x > thr
    return np.where(c.any(), np.argmax(c), -1)


def converge_rewritten(x, tol=1e-6, max_iter=50):
    m = x.mean()
    for _ in range(max_iter):
        new = 0.5 * (m + np.median(x))
        done = abs(new - m) < tol
        m = new
        if done:
            break
    return m


def for_else(x, tol):
    # (an else block that raises: no straight code to choose, translator/loop_returns.py)
    for _ in range(20):
        x = 0.5 * x
        if np.abs(x).max() < tol:
            break
    else:
        raise ValueError("no convergence")
    return x


_X = np.array([0.5, -1.0, 2.5, 0.0, 3.0])


def _report(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return dynamo.explain(fn, backend="eager")(*copy.deepcopy(args))


# (``converge`` is a node since loop_returns.py: tests/translator/test_loop_returns.py)
@pytest.mark.parametrize("fn,args", [(first_above, (_X, 1.0))])
def test_a_return_inside_the_loop_is_named(fn, args):
    report = _report(fn, *args)
    assert report.graph_break_count == 1, report
    (brk,) = report.break_reasons
    assert "the loop returns from inside (return at line " in brk.explanation, brk
    assert "for ... else" not in brk.explanation + brk.hint, brk
    assert "np.argmax(c)" in brk.hint and "if done: break" in brk.hint, brk
    want = fn(*copy.deepcopy(args))
    got = dynamo.compile(fn, backend="eager")(*copy.deepcopy(args))
    assert type(got) is type(want) and got == want


@pytest.mark.parametrize("fn,args,plain", [
    (first_above_rewritten, (_X, 1.0), first_above), (converge_rewritten, (_X,), converge),
])
def test_the_hinted_rewrites_are_one_graph(fn, args, plain):
    report = _report(fn, *args)
    assert (report.graph_count, report.graph_break_count) == (1, 0), report
    got = dynamo.compile(fn, backend="eager")(*copy.deepcopy(args))
    assert got == plain(*copy.deepcopy(args))


def test_a_for_else_keeps_its_name():
    (brk,) = _report(for_else, _X, 1e-3).break_reasons
    assert "a for ... else (the else block runs" in brk.explanation, brk
