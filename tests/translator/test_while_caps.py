"""``while <array test>:`` loops capped by a counter in the body (issue #19, task t3;
dynamo/translator/while_caps.py): ``k += 1; if k > maxit: return x, k`` (or
``break``) is one ``while_loop`` node and ``A``'s node of at most one trip, with the
exit's code chosen after them by the last test (``loop_returns``).

Each program of tests/translator/corpus_while_caps.py is compared with Python
(``harness.check``: values, types, dtypes, the counter as a Python ``int``, the
arguments afterwards, twice) on both CPU backends, with its breaks; the caps at
every edge: the data test ending the loop, the cap ending it, both on the same trip
(the cap wins: Python never tests the data then), the cap at or below the counter's
start, ``==`` caps that never fire, no trip, NaN data, float32; the nodes in the
graph; and the messages of the loops that stay breaks.
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
from corpus_while_caps import (
    _A,
    _B,
    _S,
    _X0,
    PROGRAMS,
    bisect_cap_first,
    bisect_cap_first_rows,
    cg_cap,
    fixed_point_cap,
    newton_cap_return,
    power_cap_break,
)
from harness import check, quiet_explain
from test_loop_while import assert_same_warnings, while_nodes

import dynamo
from dynamo import pyversion

BACKENDS = ("eager", "numpy")

# breaks per program (eager backend). Before: every program broke, 1-2 times each.
BREAKS = {
    "newton_cap_return": 0, "newton_cap_return_capped": 0, "fixed_point_cap": 0,
    "fixed_point_cap_capped": 0, "cg_cap": 0, "cg_cap_capped": 0,
    "power_cap_break": 0, "power_cap_break_capped": 0, "gd_cap": 0,
    "gd_cap_capped": 0, "bisect_cap_first_rows": 0, "bisect_cap_first_rows_capped": 0,
    # (0-d arrays only: Python runs the loop as fast as a node would, a break)
    "bisect_cap_first": 2, "bisect_cap_first_capped": 2,
    "newton_flag_then_cap": 0, "newton_cap_exit_ops": 0,
    # (a 0-d array before the loop, a NumPy scalar after the first trip: 3.14 has one
    # test, in front, refused for that; 3.11-3.13 try again at the bottom test)
    "fixed_point_cap_array_err": 1 if pyversion.WHILE_TEST_IN_LOOP else 0,
    # stay breaks (below: what they say)
    "newton_stepped_twice": 2, "jacobi_diverge": 2,
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_same_as_python(name, fn, args, backend):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(fn, *args, backend=backend, breaks=BREAKS[name])


@pytest.mark.parametrize("fn,args,nodes", [
    (newton_cap_return, (_A,), 2),          # the loop, and A once more where capped
    (power_cap_break, (_S,), 2),
    (bisect_cap_first_rows, (np.ones(8), np.full(8, 2.0)), 1),   # (A empty: no tail)
])
def test_one_graph_with_the_nodes(fn, args, nodes):
    report = quiet_explain(fn, args, "eager")
    assert (report.graph_count, report.graph_break_count) == (1, 0)
    assert while_nodes(fn, args) == nodes


def _same(want, got):
    for w, g in zip(want, got):
        assert type(g) is type(w)
        np.testing.assert_array_equal(g, w)
        if isinstance(w, np.ndarray):
            assert g.dtype == w.dtype


_NAN = _X0.copy()
_NAN[3] = np.nan

# (fn, args): fixed_point_cap converges in 70 trips from _X0 (maxit 70: the cap and
# the data on the same trip, the cap wins; 69, 71 around it), the cap below the
# counter's start (decided while tracing), NaN data (the data test fails at once),
# float32; cg_cap's ``k == maxit`` where it never fires (0, -1: the data ends it);
# Newton from a converged input (no trip) and with the cap on the first trip; the
# bisection's cap first in the body, at 0 (no trip), and a bracket already small.
EDGES = [
    (fixed_point_cap, (_X0, 1e-12, m)) for m in (-1, 0, 1, 2, 69, 70, 71, 500)
] + [
    (fixed_point_cap, (_NAN, 1e-12, 10)),
    (fixed_point_cap, (_X0.astype(np.float32), 1e-6, 100)),
    (fixed_point_cap, (_X0.astype(np.float32), 1e-6, 3)),
    (cg_cap, (_S, _B, 1e-10, 0)), (cg_cap, (_S, _B, 1e-10, -1)),
    (cg_cap, (_S, _B, 1e-10, 1)),
    (newton_cap_return, (np.ones(5), 1e-10, 5)),
    (newton_cap_return, (_A, 0.0, 0)), (newton_cap_return, (_A, 0.0, 1)),
    (bisect_cap_first, (np.array(1.0), np.array(2.0), 1e-12, 0)),
    (bisect_cap_first_rows, (np.ones(3), np.full(3, 2.0), 1e-12, 0)),
    (bisect_cap_first_rows, (np.ones(3), np.full(3, 1.0 + 1e-13), 1e-12, 5)),
    (bisect_cap_first_rows, (np.ones(3), np.full(3, 2.0), 1e-12, 39)),
    (bisect_cap_first_rows, (np.ones(3), np.full(3, 2.0), 1e-12, 40)),
    (power_cap_break, (_S, 1e-9, 1)), (power_cap_break, (_S, 0.0, 6)),
]


@pytest.mark.parametrize("backend", BACKENDS)
def test_edges_same_as_python(backend):
    """One compiled function per program over all its edge cases (its cap an int
    argument that changes: after the first change a symbol, the bound an expression
    guarded ``>= 0``)."""
    compiled = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for fn, args in EDGES:
            want = fn(*copy.deepcopy(args))
            cf = compiled.setdefault(fn, dynamo.compile(fn, backend=backend))
            _same(want, cf(*copy.deepcopy(args)))


def test_a_cap_that_stays_a_break_says_what_to_do():
    """A counter stepped on both sides of its cap: a break that names the shape and
    gives the rewrite (before: "returns from inside the loop", and the ``break``
    form a message about a counter read as a number)."""
    name, fn, args = next(p for p in PROGRAMS if p[0] == "newton_stepped_twice")
    brk = quiet_explain(fn, args, "eager").break_reasons[0]
    assert "the loop is no while_loop node: the body branches on a counter and " \
        "leaves the loop on it" in brk.explanation
    assert "stepped both before and after its cap" in brk.explanation
    assert "it += 1; if it > maxit: return x, -1 or break" in brk.hint


def _jacobi_rewritten(A, b, tol=1e-8):
    D = np.diag(A)
    R = A - np.diag(D)
    x = np.zeros_like(b)
    res = np.linalg.norm(b - A @ x)
    while (res > tol) & (res <= 1e12):
        x = (b - R @ x) / D
        res = np.linalg.norm(b - A @ x)
    return x, np.where(res > 1e12, np.inf, res)


def test_a_second_exit_on_data_says_so_and_the_hint_is_a_node():
    """``while res > tol: A; if res > 1e12: return``: no node (one exit test per
    node), and the break says so (before: "Unsupported: truth value of an array", the
    generic hint; and seconds of nested attempts at the same loop). 3.14 tests only in
    front and puts the return after the jump back: no shape tried, the generic message.
    The hint's rewrite is one node with the same values."""
    name, fn, args = next(p for p in PROGRAMS if p[0] == "jacobi_diverge")
    brk = quiet_explain(fn, args, "eager").break_reasons[0]
    if not pyversion.WHILE_TEST_IN_LOOP:
        assert "the body leaves the loop on array data too" in brk.explanation
        assert "while (res > tol) & (res <= 1e12):" in brk.hint
    check(_jacobi_rewritten, *args, breaks=0)
    assert while_nodes(_jacobi_rewritten, args) == 1
    want, got = fn(*copy.deepcopy(args)), _jacobi_rewritten(*copy.deepcopy(args))
    np.testing.assert_array_equal(got[0], want[0])
    assert float(got[1]) == want[1]


def _warns_each_trip(x, tol, maxit):
    err = np.abs(x).max() + 1.0
    k = 0
    while err > tol:
        x = x - 0.5
        err = np.abs(x / (x - x)).max()      # divide by zero on every trip: inf
        k += 1
        if k > maxit:
            return x, k
    return x, k


@pytest.mark.parametrize("backend", BACKENDS)
def test_warnings_per_trip(backend):
    """The cap ends the loop (the data never does): each trip's warning, in order, the
    last from ``A``'s node of one trip, as Python's last ``A`` warns."""
    args = (np.array([1.2, 0.6, 4.1]), 1e-3, 4)
    assert while_nodes(_warns_each_trip, args, backend) == 2
    assert_same_warnings(lambda *a: _warns_each_trip(*a)[0], args, backend)


def test_a_cap_over_0d_arrays_stays_a_break():
    """A bisection of 0-d arrays: no faster as a node (measured 0.92x plain as one,
    0.98x as a break), so it stays a break that says so, with nothing to change."""
    brk = quiet_explain(bisect_cap_first, (np.array(1.0), np.array(2.0)), "eager") \
        .break_reasons[0]
    assert "the loop carries 0-d arrays only" in brk.explanation
    assert brk.hint.startswith("nothing to change")
