"""Peak memory of compiled programs against plain NumPy's, with the arrays a compiled
function keeps between calls counted (issue #15: at most 1.25x plain's tracemalloc
peak; ``scripts/bench_peak_memory.py`` measures the corpora the same way).

``footprint``: tracing starts before the first call (the compile's own Python objects
are not NumPy array data and are left out), so buffers that generated code keeps from
one call to the next (scratch sets, recycled outputs) count even where the first call
made them: the NumPy array bytes alive after the warm-up calls, plus what one more call
adds at its highest.
"""

import gc
import tracemalloc

import numpy as np
from test_numpy_never_wrong import agree

import dynamo


def footprint(fn, *args, warmup: int = 3) -> int:
    tracemalloc.start()
    try:
        for _ in range(warmup):
            fn(*[a.copy() for a in args])
        gc.collect()
        kept = sum(t.size for t in tracemalloc.take_snapshot().traces
                   if t.domain == np.lib.tracemalloc_domain)
        fresh = [a.copy() for a in args]
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        result = fn(*fresh)   # noqa: F841 (alive at the peak's reading, as plain's)
        return kept + tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


def heat(u, alpha=0.2, steps=20):
    # the first trip and the loop body are two graphs, each with the same flat stencil
    for _ in range(steps):
        un = u.copy()
        u[1:-1, 1:-1] = un[1:-1, 1:-1] + alpha * (
            un[2:, 1:-1] - 2 * un[1:-1, 1:-1] + un[:-2, 1:-1]
            + un[1:-1, 2:] - 2 * un[1:-1, 1:-1] + un[1:-1, :-2])
    return u


def test_the_graphs_of_a_program_share_their_flat_buffers():
    # each graph kept its own scratch set and output buffer: 1.77x plain, 1.02x shared
    dynamo.reset()
    gc.collect()
    u = np.random.default_rng(0).standard_normal((64, 64))
    compiled = dynamo.compile(heat, backend="numpy")
    ratio = footprint(compiled, u) / footprint(heat, u)
    assert ratio <= 1.25, ratio
    agree(heat, u.copy())


def crank_nicolson(u, r=0.5, steps=30):
    n = len(u)
    off = np.ones(n - 1)
    lap = np.diag(-2 * np.ones(n)) + np.diag(off, 1) + np.diag(off, -1)
    A = np.eye(n) - 0.5 * r * lap     # np.eye(n) and np.diag(-2 * ones) are constants
    B = np.eye(n) + 0.5 * r * lap
    for _ in range(steps):
        u = np.linalg.solve(A, B @ u)
    return u


def test_folded_constants_stay_within_the_graphs_budget():
    # three folded (100, 100) constants kept between calls beside the per-call lap, A
    # and B plain NumPy makes too: 1.40x plain; within fold.kept_budget, 1.00x
    dynamo.reset()
    gc.collect()
    u = np.random.default_rng(1).standard_normal(100)
    compiled = dynamo.compile(crank_nicolson, backend="numpy")
    ratio = footprint(compiled, u) / footprint(crank_nicolson, u)
    assert ratio <= 1.25, ratio
    agree(crank_nicolson, u.copy())


def jacobi9(u, f, h=0.01, iters=20):
    # a loop node (20 trips): the first trip's graph runs a flat pass, the body the plain path
    for _ in range(iters):
        old = u.copy()
        u[1:-1, 1:-1] = (4.0 * (old[:-2, 1:-1] + old[2:, 1:-1] + old[1:-1, :-2] + old[1:-1, 2:])
                         + old[:-2, :-2] + old[:-2, 2:] + old[2:, :-2] + old[2:, 2:]
                         - 6.0 * h * h * f[1:-1, 1:-1]) / 20.0
    return u


def test_small_flat_buffers_are_not_kept_between_calls():
    # the first trip's flat pass kept its scratch set and output (3 x 32 KiB) beside the
    # loop body's plain-path temporaries: 1.75x plain; under runtime.KEEP_MIN_BYTES they
    # are made on each call, as eager's temporaries are: 1.0x
    dynamo.reset()
    gc.collect()
    rng = np.random.default_rng(2)
    u, f = rng.standard_normal((64, 64)), rng.standard_normal((64, 64))
    compiled = dynamo.compile(jacobi9, backend="numpy")
    ratio = footprint(compiled, u, f) / footprint(jacobi9, u, f)
    assert ratio <= 1.25, ratio
    np.testing.assert_array_equal(compiled(u.copy(), f), jacobi9(u.copy(), f), strict=True)


def blur(img):
    p = np.pad(img, 1, mode="reflect")
    rows = 0.25 * p[:-2, :] + 0.5 * p[1:-1, :] + 0.25 * p[2:, :]
    return 0.25 * rows[:, :-2] + 0.5 * rows[:, 1:-1] + 0.25 * rows[:, 2:]


def unsharp(img, amount=0.6, rounds=3):
    # corpus 6's unsharp masking: each round's values read through views, whose sites
    # the next round cannot take again (``reuse._Sites.escape``)
    for _ in range(rounds):
        img = np.clip(img + amount * (img - blur(img)), 0.0, 1.0)
    return img


def test_scratch_sites_share_their_arrays():
    # 400x400 float64 (1.28 MB, over scratch.MIN_BYTES): one array kept per site, 8
    # sites, 1.79x plain; one holder per shape and dtype, the arrays a call holds at
    # once (5), 1.2x
    dynamo.reset()
    gc.collect()
    img = np.random.default_rng(3).random((400, 400))
    compiled = dynamo.compile(unsharp, backend="numpy")
    ratio = footprint(compiled, img) / footprint(unsharp, img)
    assert ratio <= 1.25, ratio
    np.testing.assert_array_equal(compiled(img), unsharp(img), strict=True)


def dead_gradients(batches, w):
    # each trip's dx but the last is read by nobody (kept for the conditions it may
    # report): eager drops it when the name is rebound, the next trip
    for x in batches:
        y = np.tanh(x * w)
        dx = (1.0 - y * y) * w
    return dx


def test_values_nobody_reads_die_where_they_are_made():
    # corpus 11's BatchNorm1D, unrolled over 8 batches: 7 unread dX alive until the
    # return, 1.31x plain (1.80x here); a del where each is made (statements._binds)
    dynamo.reset()
    gc.collect()
    rng = np.random.default_rng(4)
    batches, w = rng.standard_normal((8, 64, 64)), rng.standard_normal(64)
    compiled = dynamo.compile(dead_gradients, backend="numpy")
    ratio = footprint(compiled, batches, w) / footprint(dead_gradients, batches, w)
    assert ratio <= 1.25, ratio
    np.testing.assert_array_equal(compiled(batches, w), dead_gradients(batches, w),
                                  strict=True)
