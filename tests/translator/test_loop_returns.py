"""A loop exit on data that returns (dynamo/translator/loop_returns.py, issue #19):
``for i in range(n): A; if <test>: return E; B`` then ``return T`` is the ``break``'s
``while_loop`` node, and the result is chosen by the last test.

Each program is compared with Python bit for bit (``harness.check``: the value, its
type and dtype, a trip index as a Python ``int``, the arguments after the call, twice)
on both CPU backends, with the test ending the loop on its first trip, its second, its
last, never (the range runs out), and never on NaN data; and its graph breaks (0 where
the loop is a node; the shapes that stay breaks: 1).
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import check
from test_loop_while import while_nodes

BACKENDS = ("eager", "numpy")


def newton_sqrt(a, tol, max_iter=6):
    x = np.where(a > 1, a, 1.0)
    for i in range(max_iter):
        x_new = 0.5 * (x + a / x)
        if np.max(np.abs(x_new - x)) < tol:
            return x_new, i + 1
        x = x_new
    return x, max_iter


def converge_mean(x, tol, max_iter=6):
    m = x.mean()
    for _ in range(max_iter):
        new = 0.5 * (m + np.median(x))
        if abs(new - m) < tol:
            return new
        m = new
    return m


def cg_return(A, b, tol, maxit=5):
    x = np.zeros_like(b)
    r = b - A @ x
    p = r.copy()
    rs = r @ r
    for it in range(maxit):
        Ap = A @ p
        alpha = rs / (p @ Ap)
        x = x + alpha * p
        r = r - alpha * Ap
        rs_new = r @ r
        if np.sqrt(rs_new) < tol:
            return x, it
        p = r + (rs_new / rs) * p
        rs = rs_new
    return x, maxit


def ops_both_ways(a, tol, maxit=5):
    """E and T compute (both run when the graph runs; the test picks one)."""
    x = a.copy()
    for k in range(maxit):
        x = 0.5 * x + 0.25
        if np.abs(x - 0.5).max() < tol:
            return x * 2.0, k
        x = x + 0.0
    return x - 1.0, -1


def no_code_after_test(a, tol, maxit=5):
    """The test is the body's last statement: no B, no second node."""
    x = a.copy()
    for k in range(maxit):
        x = 0.5 * x
        if np.abs(x).max() < tol:
            return x, k
    return x, maxit


def returns_input_or_new(a, tol, maxit=4):
    """E returns the argument itself: the same object as in Python."""
    y = a * 1.0
    for _ in range(maxit):
        y = y * 0.5
        if np.abs(y).max() < tol:
            return a
    return y


def ends_in_raise(a, tol, maxit=4):
    """T raises: no node (a break at the test, as before)."""
    x = a.copy()
    for k in range(maxit):
        x = 0.5 * x
        if np.abs(x).max() < tol:
            return x, k
    raise ValueError("did not converge")


def returns_index_or_none(a, tol, maxit=4):
    """E returns an int, T None: no value joins them (a break, as before)."""
    x = a.copy()
    for k in range(maxit):
        x = 0.5 * x
        if np.abs(x).max() < tol:
            return k
    return None


def irls(X, y, tol, iters=4):
    """Code before the ``break`` (3.12+ copy the short ``return`` after the loop into
    the ``break``'s branch: a ``return`` there)."""
    beta = np.zeros(X.shape[1])
    for _ in range(iters):
        r = y - X @ beta
        w = 1.0 / (1.0 + np.abs(r))
        Xw = X * w[:, None]
        new = np.linalg.solve(X.T @ Xw, Xw.T @ y)
        if np.max(np.abs(new - beta)) < tol:
            beta = new
            break
        beta = new
    return beta


def code_before_break_long_tail(a, tol, maxit=4):
    """Code before the ``break``, and code after the loop too long to copy: the ways
    join after the loop, then the trace goes on."""
    x = a.copy()
    scale = a * 0.0
    for k in range(maxit):
        x = 0.5 * x + 0.1
        if np.abs(x - 0.2).max() < tol:
            scale = x * 3.0
            break
        x = x - 0.01
    y = x + scale
    z = np.sin(y) * np.cos(x) + np.tanh(scale) - np.exp(-y * y) + np.sqrt(np.abs(x))
    return z, y, k


def flag_before_break(a, tol, maxit=4):
    """A Python bool set before the ``break``, read after the loop: the last test's
    truth, a bool the glue makes (``exit_flags``; a break before task t5)."""
    x = a.copy()
    converged = False
    for _ in range(maxit):
        x = 0.5 * x
        if np.abs(x).max() < tol:
            converged = True
            break
        x = x + 0.0
    return x, converged


def writes_after_exit_code(a, out, tol, maxit=4):
    """A write after the ways joined (a rerun of the frame could not undo it): the
    trace starts over and breaks at the test."""
    x = a.copy()
    s = a * 0.0
    for _ in range(maxit):
        x = 0.5 * x + 0.1
        if np.abs(x - 0.2).max() < tol:
            s = x * 3.0
            break
        x = x - 0.01
    out[:] = x + s
    return out


def warns_on_exit(a, tol, maxit=4):
    """E's ``np.log`` warns where it is the way taken only."""
    x = a.copy()
    for k in range(maxit):
        x = 0.5 * x - 0.3
        if np.abs(x).max() < tol:
            return np.log(x), k
        x = x + 0.0
    return x, -1


def for_else_returns(x, tol, maxit=5):
    """``for ... else: return -x`` (3.11 jumps from the ``break`` to ``return x``; 3.12+
    copy it there)."""
    for _ in range(maxit):
        x = 0.5 * x
        if np.abs(x).max() < tol:
            break
    else:
        return -x
    return x


_A = np.linspace(0.5, 9.0, 7)
_NAN = np.array([0.5, np.nan, 2.0])
_SPD = np.eye(4) * 3.0 + 0.1
_B = np.arange(4.0)
_X = np.random.default_rng(0).normal(size=(12, 3))
_Y = _X @ np.array([1.0, -2.0, 0.5]) + np.random.default_rng(1).normal(size=12)

# (program, arguments, breaks): each tol makes the test end the loop on the first
# trip, the second, the last or never; NaN data never ends it
CASES = [
    (newton_sqrt, (_A, 10.0), 0), (newton_sqrt, (_A, 0.5), 0),
    (newton_sqrt, (_A, 1e-3), 0), (newton_sqrt, (_A, -1.0), 0),
    (newton_sqrt, (_NAN, 1e-3), 0), (newton_sqrt, (_A, 1e-3, 1), 1),
    (converge_mean, (_A, 10.0), 0), (converge_mean, (_A, -1.0), 0),
    (converge_mean, (_NAN, 1e-3), 0),
    (cg_return, (_SPD, _B, 1e-10), 0), (cg_return, (_SPD, _B, 1e3), 0),
    (ops_both_ways, (_A, 0.1), 0), (ops_both_ways, (_NAN, 0.1), 0),
    (no_code_after_test, (_A, 10.0), 0), (no_code_after_test, (_A, -1.0), 0),
    (no_code_after_test, (_A.astype(np.float32), 1.5), 0),
    (returns_input_or_new, (_A, 10.0), 0),
    (irls, (_X, _Y, 1e-8), 0), (irls, (_X, _Y, -1.0), 0),
    (irls, (_X, _Y * np.nan, 1e-8), 0),
    (code_before_break_long_tail, (_A, 0.3), 0),
    (code_before_break_long_tail, (_A, -1.0), 0),
    (for_else_returns, (_A, 1.5), 0), (for_else_returns, (_A, -1.0), 0),
    # (a Python bool the data chooses, True or False: the glue's ``bool()`` of the
    # last test, ``exit_flags``; a break before)
    (flag_before_break, (_A, 10.0), 0), (flag_before_break, (_A, -1.0), 0),
    (writes_after_exit_code, (_A, np.zeros(7), 10.0), 1),
    (ends_in_raise, (_A, 1.5), 1), (returns_index_or_none, (_A, 1.5), 1),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn, args, breaks", CASES,
                         ids=[f"{c[0].__name__}-{i}" for i, c in enumerate(CASES)])
def test_same_as_python(fn, args, breaks, backend):
    check(fn, *args, breaks=breaks, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_trip_index_is_int(backend):
    import dynamo
    for tol in (10.0, 0.5, 1e-3, -1.0):
        got = dynamo.compile(newton_sqrt, backend=backend)(_A, tol)
        want = newton_sqrt(_A, tol)
        assert type(got[1]) is int and got[1] == want[1]


def test_one_node_and_the_input_itself():
    # the loop and B's node of one trip; the argument returned is the argument
    assert while_nodes(newton_sqrt, (_A, 1e-3)) == 2
    assert while_nodes(no_code_after_test, (_A, 1.5)) == 1
    import dynamo
    f = dynamo.compile(returns_input_or_new, backend="numpy")
    assert f(_A, 10.0) is _A
    assert f(_A, -1.0) is not _A


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("tol", [10.0, -1.0])
def test_warnings_of_the_way_taken_only(backend, tol):
    import warnings

    import dynamo
    a = np.linspace(0.5, 2.0, 5)
    seen = []
    for fn in (warns_on_exit, dynamo.compile(warns_on_exit, backend=backend)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fn(a, tol)
        seen.append([(w.category, str(w.message)) for w in caught])
    assert seen[0] == seen[1] and len(seen[0]) == (1 if tol > 0 else 0)


def test_a_shape_that_stays_a_break_says_why():
    from harness import quiet_explain
    (brk,) = quiet_explain(returns_index_or_none, (_A, 1.5), "eager").break_reasons
    assert "the loop returns from inside (return at line" in brk.explanation, brk
    assert "the ways join an int the data decides and constant None" in brk.explanation
    assert "SymInt" not in brk.explanation and "np.argmax" in brk.hint, brk
