"""A ``for`` loop node that carries an array which may be another one (``may_be``:
``h`` after ``if sy > 1e-10: h = ...``, a select in the loop's unrolled first trip,
as in BFGS's outer loop; dynamo/translator/loops.py ``_check_slots``): a node where
the body writes no carried array in place (which object ``h`` is then changes no
value the body computes), no node where it does. Python's values either way, bit for
bit, on the eager and numpy backends."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import dynamo

BACKENDS = ("eager", "numpy")


def quasi_newton(x, iters):
    n = x.shape[0]
    h = np.eye(n)
    for _ in range(iters):
        p = -h @ x
        s = 0.1 * p
        y = s * 2.0 + 0.01
        sy = s @ y
        if sy > 1e-10:              # a select: h may be the eye after the first trip
            h = h + np.outer(s, s) / sy
        x = x + s
    return x, h


def quasi_newton_in_place(x, iters):
    n = x.shape[0]
    h = np.eye(n)
    for _ in range(iters):
        p = -h @ x
        s = 0.1 * p
        sy = s @ (s * 2.0 + 0.01)
        if sy > 1e-10:
            h = h + np.outer(s, s) / sy
        x += s                      # written in place: which object h is could matter
    return x, h


def kept_alias(x, iters):
    h = np.eye(x.shape[0])
    h0 = h                          # h may stay h0's object on every trip
    for _ in range(iters):
        s = -0.1 * (h @ x)
        if s @ s > 1e6:             # never taken here
            h = h * 0.5
        x = x + s
    return x, h, h0, h is h0


def _fori_nodes(fn, args, backend) -> tuple[int, int]:
    """(graph breaks, loop nodes in the graphs of one traced call)."""
    report = dynamo.explain(fn, backend=backend)(*copy.deepcopy(args))
    return report.graph_break_count, sum(str(g).count("ops.fori_loop(") for g in
                                         report.graphs)


def _same(got, want) -> None:
    for a, b in zip(got, want, strict=True):
        if isinstance(b, np.ndarray):
            assert a.dtype == b.dtype and a.shape == b.shape
            np.testing.assert_array_equal(a, b)
        else:
            assert type(a) is type(b) and a == b


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn, node", [(quasi_newton, True), (quasi_newton_in_place, False),
                                      (kept_alias, None)])
def test_a_carried_array_that_may_be_another(fn, node, backend):
    args = (np.linspace(-1.0, 1.0, 6), 20)
    want = fn(*copy.deepcopy(args))
    breaks, nodes = _fori_nodes(fn, args, backend)
    if node:
        assert breaks == 0 and nodes >= 1, (breaks, nodes)
    elif node is not None:
        assert nodes == 0, (breaks, nodes)
    dynamo.reset()
    compiled = dynamo.compile(fn, backend=backend)
    for _ in range(2):
        _same(compiled(*copy.deepcopy(args)), want)
