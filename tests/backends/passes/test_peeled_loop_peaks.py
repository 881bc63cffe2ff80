"""A loop whose first trip the translator peels and whose rest is a ``while_loop``
(``for ...: ...; if test: break``): the peeled trip's values, the values a later loop
node only hands through, and the carried inputs the body never reads are not held
while the trips run (passes/dead_carried.py; ops.while_loop's handed list and unread
slots, passes/loops.py ``unread_slots``), so the peak is plain NumPy's (issue #15:
hysteresis was 1.81x, Huber IRLS 1.66x).
"""

import copy

import numpy as np
from dynamo.backends.cupy_backend import compile_graph
from harness import check
from test_dead_carried import peak

import dynamo
from dynamo.ops.loops import while_loop


def hysteresis(mag, low=0.45, high=0.6, max_iter=50):
    strong = mag >= high
    weak = mag >= low
    edges = strong.copy()
    rounds = 0
    for _ in range(max_iter):
        p = np.pad(edges, 1)
        grown = (p[:-2, :-2] | p[:-2, 1:-1] | p[:-2, 2:] | p[1:-1, :-2] | p[1:-1, 2:]
                 | p[2:, :-2] | p[2:, 1:-1] | p[2:, 2:] | edges) & weak
        if np.array_equal(grown, edges):
            break
        edges = grown
        rounds += 1
    return edges, rounds


def huber(X, y, delta=1.345, iters=20, tol=1e-8):
    beta = np.linalg.lstsq(X, y, rcond=None)[0]
    for _ in range(iters):
        r = y - X @ beta
        s = np.median(np.abs(r - np.median(r))) / 0.6745 + 1e-12
        u = np.abs(r / s)
        w = np.where(u <= delta, 1.0, delta / u)
        Xw = X * w[:, None]
        new = np.linalg.solve(X.T @ Xw, Xw.T @ y)
        if np.max(np.abs(new - beta)) < tol:
            beta = new
            break
        beta = new
    return beta


def _mag(n, seed=0):
    r = np.random.default_rng(seed).random((n, n))
    return (r + np.roll(r, 1, 0) + np.roll(r, 1, 1)) / 3


def _xy(n, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 4))
    return X, X @ np.arange(1.0, 5.0) + rng.standard_t(2, n)


def test_results_are_plain_pythons():
    check(hysteresis, _mag(40), backend="numpy")
    check(hysteresis, np.zeros((20, 20)), backend="numpy")     # breaks on the first trip
    check(huber, *_xy(200), backend="numpy")
    check(huber, *_xy(200), kwargs={"iters": 1}, backend="numpy")


def test_peaks_are_plain_numpys():
    ratios = {}
    for fn, a in ((hysteresis, (_mag(300, 1),)), (huber, _xy(4000, 1))):
        compiled = dynamo.compile(fn, backend="numpy")
        for _ in range(3):
            compiled(*copy.deepcopy(a))
        ratios[fn.__name__] = peak(compiled, *a) / peak(fn, *a)
    assert all(r <= 1.1 for r in ratios.values()), ratios


def test_runner_lets_go_of_what_the_body_does_not_read():
    seen = []

    def body(x, edges):          # reads x only: ``edges`` is the trip before's value
        seen.append(edges)
        return x + 1, x * 10, x < 3
    body.__dynamo_unread__ = (1,)
    handed = [0, "edges"]
    assert while_loop(body, True, True, handed, ()) == (4, 30)
    assert handed == [] and seen == [None] * 4     # (the caller's list is emptied)
    assert while_loop(body, True, False, [0, "edges"], ()) == (0, "edges")   # no trip


def test_cupy_reference_bodies_equal_plain():
    # (the cupy backend's bodies are marked too; loop nodes are made for NumPy arrays
    # only, so its reference executor is where they run)
    marked = []

    def reference(graph, example_inputs, options=None):
        fn = compile_graph(graph, example_inputs, options, device="reference").fn
        marked.extend(v for v in vars(fn.__globals__["consts"]).values()
                      if hasattr(v, "__dynamo_unread__"))
        return fn
    reference.layout_guards = True
    check(huber, *_xy(200), backend=reference)
    assert marked
