"""Dead carried values of a ``while_loop`` (``passes.drop_dead_carried``): a slot no trip
reads and nothing reads after the loop leaves the node; the others stay; compiled
programs still give plain Python's results, and the Newton loop's peak memory is
plain NumPy's again (it was twice it: every trip's temporaries were handed on).
"""

import copy
import tracemalloc

import numpy as np
from dynamo.backends.passes import drop_dead_carried, optimize
from harness import check

import dynamo


def trace(fn, *args):
    """The one graph of ``fn`` (as ``dynamo.explain`` reports it)."""
    report = dynamo.explain(fn, backend="eager")(*copy.deepcopy(args))
    assert report.graph_count == 1
    return report.graphs[0]


def carried_names(graph) -> list[list[str]]:
    """Each while_loop node's body inputs that are carried, by name."""
    return [[p.name for p in n.args[0].placeholders if p.meta.get("carried")]
            for n in graph.call_nodes() if n.target == "while_loop"]


def newton(a, b, tol=1e-12, max_iter=50):
    x = np.cbrt(b)
    it = 0
    for it in range(max_iter):  # noqa: B007  (returned)
        fx = x ** 3 + a * x - b
        step = fx / (3 * x ** 2 + a)
        x = x - step
        if np.max(np.abs(step)) < tol:
            break
    return x, it


def newton_residual(a, b, tol=1e-12, max_iter=50):
    """The same, with the last residual read after the loop: it stays carried."""
    x = np.cbrt(b)
    for _ in range(max_iter):
        fx = x ** 3 + a * x - b
        step = fx / (3 * x ** 2 + a)
        x = x - step
        if np.max(np.abs(step)) < tol:
            break
    return x, fx


def heavy_ball(x, c, tol=1e-6, max_iter=500):
    """A slot the next trip reads (the velocity v): carried."""
    v = np.zeros_like(x)
    g = x - c
    while np.max(np.abs(g)) > tol:
        v = 0.9 * v + g
        x = x - 0.1 * v
        g = x - c
    return x


def damped(x, tol=1e-3):
    """A temporary stored before it is read; the loop may run no trip."""
    d = np.zeros_like(x)
    while np.max(np.abs(x)) > tol:
        d = 0.5 * x
        x = x - d
    return x


def args(n, seed=0):
    rng = np.random.default_rng(seed)
    return 0.5 + rng.random(n), 10 * rng.standard_normal(n)


def test_dead_slots_leave_the_loop():
    graph = trace(newton, *args(50))
    assert carried_names(graph) == [["b", "x", "a", "fx", "step"]]
    assert carried_names(drop_dead_carried(optimize(graph, without={"drop_dead_carried"}))) \
        == [["b", "x", "a"]]
    assert carried_names(optimize(graph)) == [["b", "x", "a"]]


def test_slots_read_after_the_loop_or_by_the_next_trip_stay():
    (names,) = carried_names(optimize(trace(newton_residual, *args(50))))
    assert "fx" in names and "step" not in names
    (names,) = carried_names(optimize(trace(heavy_ball, np.ones(20), np.linspace(1, 4, 20))))
    assert {"v", "x", "g"} <= set(names)


def test_results_are_plain_pythons():
    for backend in ("numpy", "eager"):
        check(newton, *args(50), backend=backend)
        check(newton_residual, *args(50), backend=backend)
        check(heavy_ball, np.ones(20), np.linspace(1.0, 4.0, 20), backend=backend)
        check(damped, np.linspace(-1.0, 1.0, 30), backend=backend)
        check(damped, np.zeros(30), backend=backend)      # no trip


def peak(fn, *a) -> int:
    a = copy.deepcopy(a)
    tracemalloc.start()
    try:
        fn(*a)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_newton_peak_memory_is_plain_numpys():
    a = args(40000, seed=1)
    compiled = dynamo.compile(newton, backend="numpy")
    compiled(*copy.deepcopy(a))
    plain, mine = peak(newton, *a), peak(compiled, *a)
    assert mine <= 1.25 * plain, (mine, plain)
