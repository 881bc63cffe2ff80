"""Loops too long to unroll are recognised at once, not after tracing ``max_unroll`` steps.

``ControlFlow.check_unroll_budget``: a ``for`` loop over something of known length breaks
at its first ``FOR_ITER`` when its length alone is over the budget, and a nest breaks at
its outer loop's second ``FOR_ITER`` once the first iteration showed what one costs.
Loops over a range that can be one loop node (tests/translator/test_loop_nodes.py) are
not unrolled at all; the loops here log to a list, which a loop node cannot do.
What the trace did is counted with an ``on_step`` listener (instructions traced), so the
tests check the work done, not a time.
"""

import numpy as np
import pytest
from harness import check

import dynamo
from dynamo import listeners


class Steps:
    def __init__(self):
        self.count = 0

    def on_step(self, tx):
        self.count += 1


def traced_steps(fn, *args) -> int:
    with listeners.listening(Steps()) as steps:
        dynamo.compile(fn, backend="eager")(*args)
    return steps.count


def prefix_sum(x, log):
    for i in range(1, x.shape[0]):
        x[i] += x[i - 1]
        log.append(i)
    return x


def lu_like(a, log):
    a = a.copy()
    n = a.shape[0]
    for k in range(n - 1):
        for i in range(k + 1, n):
            a[i, k:] -= a[i, k] / a[k, k] * a[k, k:]
            log.append(i)
    return a


def short_loop(x):
    for i in range(8):
        x = x * 0.5 + i
    return x


def nest(x, n, log):
    total = x * 0
    for i in range(n):
        for j in range(n):
            total = total + x * (i - j)
            log.append(j)
    return total


def diagonal(n):
    return np.random.default_rng(0).random((n, n)) + n * np.eye(n)


def test_a_long_loop_breaks_at_its_first_iteration():
    x = np.random.default_rng(0).random(2000)
    assert traced_steps(prefix_sum, x.copy(), []) < 300   # unrolled up to 1024: ~10,000
    check(prefix_sum, x, [], graphs=0, breaks=1)


def test_a_nest_breaks_after_one_outer_iteration():
    a = diagonal(60)
    # one outer iteration traces 59 inner ones; all of them up to the budget ~16,000 steps.
    # Three traces of one outer iteration: the inner loop is tried as a loop node, then
    # the outer one (both refused: they log), then the outer loop breaks at its budget
    assert traced_steps(lu_like, a, []) < 6000
    check(lu_like, a, [], rtol=1e-12, breaks=1)


def test_the_break_names_the_estimate():
    out = dynamo.explain(prefix_sum, backend="eager")(np.ones(2000), [])
    (reason,) = [b.reason for b in out.break_reasons]
    assert "1999" in reason and "config.max_unroll (1024)" in reason


def test_short_loops_and_nests_within_the_budget_still_unroll():
    x = np.random.default_rng(1).random(5)
    check(short_loop, x, graphs=1, breaks=0)
    check(nest, x, 30, [], graphs=1, breaks=0)      # 30 * 31 = 930 backward jumps


def test_a_nest_over_the_budget_runs_as_python_with_the_same_result():
    x = np.random.default_rng(2).random(5)
    check(nest, x, 40, [], breaks=1)                # 40 * 41 = 1640


def test_a_smaller_budget_is_honoured(monkeypatch):
    monkeypatch.setattr(dynamo.config, "max_unroll", 4)
    x = np.random.default_rng(3).random(5)
    check(short_loop, x, breaks=1)



def test_a_loop_that_may_end_early_is_not_judged_by_its_length():
    def with_break(x):
        for i in range(10**9):
            if i == 3:
                break
            x = x + i
        return x

    def with_return(x):
        for i in range(10**9):
            if i == 3:
                return x
            x = x * 2.0
        return None

    x = np.random.default_rng(4).random(5)
    check(with_break, x, graphs=1, breaks=0)
    check(with_return, x, graphs=1, breaks=0)


def assign_loop(X, C):
    """A k-means assignment step with a Python loop over the points (small arrays)."""
    counts = np.zeros(C.shape[0], dtype=np.int64)
    sums = np.zeros_like(C)
    for i in range(X.shape[0]):
        j = int(np.argmin(((C - X[i]) ** 2).sum(axis=1)))
        counts[j] += 1
        sums[j] += X[i]
    return sums, counts


def assign_loop_last(X, C):
    """``assign_loop`` that also returns the last point's centre: ``j`` is read after
    the loop, so the loop is no loop node (docs/loops.md) and is unrolled."""
    counts = np.zeros(C.shape[0], dtype=np.int64)
    sums = np.zeros_like(C)
    j = -1
    for i in range(X.shape[0]):
        j = int(np.argmin(((C - X[i]) ** 2).sum(axis=1)))
        counts[j] += 1
        sums[j] += X[i]
    return sums, counts, j


def test_a_loop_of_many_small_ops_runs_as_python(monkeypatch):
    """Unrolled, a 300-trip loop over 4x2 arrays was about 5,000 ops: 2.5 s to compile,
    then slower than the loop it replaced. Past ``_SMALL_UNROLL_OPS`` unrolled ops, with
    every array under ``config.outline_min_elements``, it runs as Python; the same loop
    with a large array in the frame is still unrolled (lowered budget: a fast test)."""
    from dynamo.translator import control_flow

    rng = np.random.default_rng(5)
    X, C = rng.random((300, 2)), rng.random((4, 2))
    out = dynamo.explain(assign_loop_last, backend="eager")(X, C)
    (reason,) = [b.reason for b in out.break_reasons]
    assert "299 more iterations" in reason and "small arrays" in reason
    assert traced_steps(assign_loop_last, X, C) < 2000     # (not 299 more traced trips)
    check(assign_loop_last, X, C, breaks=1)
    monkeypatch.setattr(control_flow, "_SMALL_UNROLL_OPS", 40)
    X, C = rng.random((12, 2)), rng.random((4, 2))
    check(assign_loop_last, X, C, breaks=1)                # 11 trips of ~8 ops: over 40
    monkeypatch.setattr(dynamo.config, "outline_min_elements", 8)
    check(assign_loop_last, X, C, graphs=1, breaks=0)      # X (24 elements) is large now


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_loop_over_small_arrays_is_a_loop_node(backend):
    """``assign_loop`` itself (``j`` dies with its trip) is one loop node over 4x2
    arrays too (task p62/t1: on the numpy backend 1.37x the Python loop,
    scripts/bench_small_loop_nodes.py)."""
    rng = np.random.default_rng(6)
    X, C = rng.random((300, 2)), rng.random((4, 2))
    check(assign_loop, X, C, graphs=1, breaks=0, backend=backend)


def normalise_frames(x, frame, log):
    """Each frame of a long signal scaled to unit RMS: per frame a few small ops (the
    log makes it no loop node)."""
    y = x.copy()
    for start in range(0, len(x) - frame + 1, frame):
        seg = x[start:start + frame]
        y[start:start + frame] = seg / (np.sqrt(np.mean(seg ** 2)) + 1e-12)
        log.append(start)
    return y


def rayleigh_steps(A, v, log):
    """Each trip reads all of ``A`` (``A @ v``), though its results are small."""
    for i in range(A.shape[0]):
        v = A @ v
        v = v / np.linalg.norm(v)
        log.append(i)
    return v


def test_a_loop_of_small_ops_over_a_large_array_runs_as_python(monkeypatch):
    """The frame holds a large array, but every op of a trip works on a frame of it:
    unrolled, 781 frames of 256 samples were 14,000 ops, minutes to compile and 0.66x
    plain (corpus 14's noise gate). Trips whose ops read and compute fewer than
    ``outline_min_elements // 64`` elements each count as small
    (``translator/small_trips.py``); larger frames, or trips that read the large array
    (``A @ v``), still unroll. (Lowered budgets: a fast test.)"""
    from dynamo.translator import control_flow

    monkeypatch.setattr(control_flow, "_SMALL_UNROLL_OPS", 40)
    monkeypatch.setattr(dynamo.config, "outline_min_elements", 1024)
    rng = np.random.default_rng(7)
    x = rng.standard_normal(2048) * np.repeat(rng.random(256) ** 4, 8)
    out = dynamo.explain(normalise_frames, backend="eager")(x, 8, [])
    (reason,) = [b.reason for b in out.break_reasons]
    assert "255 more iterations" in reason and "small arrays" in reason
    check(normalise_frames, x, 8, [], breaks=1)                    # 256 trips of 8
    check(normalise_frames, x[:1024], 64, [], graphs=1, breaks=0)  # 16 trips of 64
    A = rng.random((40, 40)) + 40 * np.eye(40)              # 1,600 elements: large
    check(rayleigh_steps, A, np.ones(40), [], rtol=1e-12, graphs=1, breaks=0)
