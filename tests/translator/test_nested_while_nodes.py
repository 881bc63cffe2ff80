"""A ``while`` loop inside a loop node's body is a ``while_loop`` node nested in it
(docs/loops.md): BFGS's Armijo line search inside its outer ``for`` loop, so the outer
loop is one node and the frame does not break. Results bit for bit as plain Python's
for 0, 1 and many line-search trips per outer trip, and for NaN (``nan > x`` is false:
no trip)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from harness import check

import dynamo
from dynamo import listeners
from dynamo.graph import Graph

BACKENDS = ("eager", "numpy")


class _Graphs:
    def __init__(self):
        self.graphs = []

    def on_graph(self, graph, ctx):
        self.graphs.append(graph)


def _whiles_in_bodies(graph: Graph, inside: bool = False) -> int:
    """``while_loop`` nodes inside the body of a ``fori_loop`` node, at any depth."""
    count = 0
    for node in graph.call_nodes():
        count += node.target == "while_loop" and inside
        for arg in node.args:
            if isinstance(arg, Graph):
                count += _whiles_in_bodies(arg, inside or node.target == "fori_loop")
    return count


def nested_whiles(fn, *args) -> int:
    with listeners.listening(_Graphs()) as seen, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dynamo.compile(fn, backend="numpy")(*args)
    return sum(_whiles_in_bodies(g) for g in seen.graphs)


def _bowl(x, c):
    return c * (x @ x)


def _bowl_grad(x, c):
    return 2.0 * c * x


def bfgs_bowl(x, c, iters):
    """BFGS on ``c * |x|^2``: step 1 is taken at once for c = 0.25 (0 trips), halved
    once for c = 1 (1 trip), many times for large c."""
    n = x.shape[0]
    h = np.eye(n)
    g = _bowl_grad(x, c)
    fx = _bowl(x, c)
    for _ in range(iters):
        p = -h @ g
        step = 1.0
        while _bowl(x + step * p, c) > fx + 1e-4 * step * (g @ p) and step > 1e-8:
            step *= 0.5
        s = step * p                 # (a temporary of the outer body: dead at the while)
        x_new = x + s
        g_new = _bowl_grad(x_new, c)
        yv = g_new - g
        sy = s @ yv
        if sy > 1e-10:
            rho = 1.0 / sy
            eye = np.eye(n)
            h = (eye - rho * np.outer(s, yv)) @ h @ (eye - rho * np.outer(yv, s)) \
                + rho * np.outer(s, s)
        x, g, fx = x_new, g_new, _bowl(x_new, c)
    return x, fx, h


def _rosen(x):
    return float(np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2))


def _rosen_grad(x):
    g = np.zeros_like(x)
    g[:-1] = -400.0 * x[:-1] * (x[1:] - x[:-1] ** 2) - 2 * (1 - x[:-1])
    g[1:] += 200.0 * (x[1:] - x[:-1] ** 2)
    return g


def line_search_steps(x, iters):
    """Gradient descent with an Armijo search on Rosenbrock (many trips a search);
    the steps taken are kept in an array the outer body writes."""
    taken = np.zeros(iters)
    fx = np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)
    for k in range(iters):
        g = _rosen_grad(x)
        step = 1.0
        while np.sum(100.0 * ((x - step * g)[1:] - (x - step * g)[:-1] ** 2) ** 2
                     + (1 - (x - step * g)[:-1]) ** 2) > fx - 1e-4 * step * (g @ g) \
                and step > 1e-10:
            step *= 0.5
        x = x - step * g
        taken[k] = step
        fx = np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)
    return x, fx, taken


# (the first search's trips: 0 for c = 0.25, 1 for c = 1, 6 for c = 40; NaN: none)
CASES = [(np.array([1.5, -0.5, 2.0, 0.25]), c) for c in (0.25, 1.0, 40.0)] + \
    [(np.array([1.5, np.nan, 2.0, 0.25]), 1.0)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_bfgs_line_search_of_0_1_and_many_trips_and_nan(backend):
    for k, (x0, c) in enumerate(CASES):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check(bfgs_bowl, x0, c, 12, backend=backend, breaks=None if k else 0, calls=1)


@pytest.mark.parametrize("backend", BACKENDS)
def test_many_trips_per_search_on_rosenbrock(backend):
    check(line_search_steps, np.zeros(5), 12, backend=backend, breaks=0, calls=1)


def test_the_line_search_is_a_node_in_the_outer_loops_body():
    # (12 outer trips: past ``loop_unroll_limit``, the outer loop is a node; before,
    # its body's ``while`` was refused, and the outer loop unrolled: no node nested)
    assert nested_whiles(bfgs_bowl, np.array([1.5, -0.5, 2.0, 0.25]), 40.0, 12) == 1
    assert nested_whiles(line_search_steps, np.zeros(5), 12) == 1
