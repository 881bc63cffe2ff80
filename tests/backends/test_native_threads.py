"""A parallel kernel's thread count, checked again after the trial (backends/native/threads.py):
the choice as a pure function of timed calls, and a Tiered whose every call is a check,
bit-equal to eager whichever count runs it."""

import warnings

import numpy as np
import pytest

import dynamo

numba = pytest.importorskip("numba")

from dynamo.backends.native.backend import native_backend  # noqa: E402
from dynamo.backends.native.numba_calls import _on_threads  # noqa: E402
from dynamo.backends.native.threads import ThreadChoice  # noqa: E402
from dynamo.backends.native.tier import Tiered  # noqa: E402
from observe import calls_to  # noqa: E402

MS = 1e-3


def check_pair(choice, kept_s, other_s, now):
    """One due check: a call on the kept count, then one on the other count."""
    assert choice.due(now)
    first = choice.threads_for_check()
    assert first == choice.threads
    choice.record(first, kept_s, now)
    second = choice.threads_for_check()
    assert second != first and second in (None, 1)
    choice.record(second, other_s, now)
    return second


def test_a_faster_other_count_is_taken_at_the_next_check():
    """The trial kept one thread under load (0.93 ms); the load fell and all threads
    take 0.495 ms: the check switches, and checks again after ``base``."""
    c = ThreadChoice(1, now=0.0, base=1.0, kept_calls=1)
    assert not c.due(0.999)
    assert check_pair(c, 0.93 * MS, 0.495 * MS, now=1.0) is None
    assert c.threads is None and c.switches == 1 and c.wait == 1.0 and c.next_at == 2.0
    # the load rises again: one thread is faster, back to it
    assert check_pair(c, 503 * MS, 0.94 * MS, now=2.0) == 1
    assert c.threads == 1 and c.switches == 2


def test_a_losing_check_costs_at_most_one_percent_of_the_time_between_checks():
    """On busy cores the other count can be hundreds of times slower (Jacobi 500x500:
    503 ms on two threads, 0.94 on one, load 9): each losing check waits at least 100
    times what it lost, and twice its last wait."""
    c = ThreadChoice(1, now=0.0, base=1.0, kept_calls=1)
    now, lost = 0.0, 0.0
    waits = []
    while now < 3600.0:
        now = c.next_at
        check_pair(c, 0.94 * MS, 503 * MS, now)
        lost += 503 * MS - 0.94 * MS
        waits.append(c.wait)
        assert c.wait >= (503 * MS - 0.94 * MS) / 0.01
    assert c.threads == 1 and c.switches == 0
    assert all(b >= min(2 * a, c.cap) for a, b in zip(waits, waits[1:]))
    assert lost <= 0.01 * now + 503 * MS   # (the last check's wait is still running)
    # a small loss backs off by doubling alone
    d = ThreadChoice(None, now=0.0, base=1.0, kept_calls=1)
    check_pair(d, 0.50 * MS, 0.51 * MS, now=1.0)
    assert d.threads is None and d.wait == 2.0
    check_pair(d, 0.50 * MS, 0.51 * MS, now=3.0)
    assert d.wait == 4.0


def test_one_slow_call_on_the_kept_count_does_not_switch():
    """Grey-level opening at load 6 (2026-12-05 07:07): a check's call on the kept
    count, one thread, took 19.7 ms (0.8 ms at best: it waited for a core). With one
    kept call, an other count of 2 ms wins that pair; a check takes the best of
    ``kept_calls`` (3) kept calls, and keeps one thread; a faster other count (0.57 ms
    on two threads) still wins."""
    one = ThreadChoice(1, now=0.0, base=1.0, kept_calls=1)
    assert check_pair(one, 19.7 * MS, 2.0 * MS, now=1.0) is None
    assert one.threads is None   # (the one-call check: switched to the slower count)
    d = ThreadChoice(1, now=0.0, base=1.0)
    assert d.kept_calls == 3
    for t in (19.7 * MS, 0.8 * MS, 0.9 * MS):
        assert d.threads_for_check() == 1
        d.record(1, t, now=1.0)
    assert d.threads_for_check() is None
    d.record(None, 2.0 * MS, now=1.0)
    assert d.threads == 1 and d.switches == 0 and d.last == (0.8 * MS, 2.0 * MS)
    c = ThreadChoice(1, now=0.0, base=1.0)
    for t in (19.7 * MS, 0.8 * MS, 0.9 * MS, 0.57 * MS):
        c.record(c.threads_for_check(), t, now=1.0)
    assert c.threads is None and c.switches == 1


def jacobi(A, B):
    for _ in range(10):
        B[1:-1, 1:-1] = 0.25 * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:])
        A, B = B, A
    return A, B


def test_checked_calls_on_either_count_equal_eager():
    """A Tiered whose thread count is due for a check on every call (``base=cap=0``): the
    calls alternate the kept and the other count, each bit-equal to eager, inputs
    written as eager writes them, and ``threads`` follows the choice."""
    made = []

    def backend(graph, example_inputs):
        made.append(native_backend(graph, example_inputs, options={
            "after_calls": 1, "background": False, "prefer": "native", "cache": False}))
        return made[-1]
    c = dynamo.compile(jacobi, backend=backend)
    rng = np.random.default_rng(3)
    A = rng.random((200, 200))
    c(A.copy(), A.copy())
    tier = made[0]
    assert isinstance(tier, Tiered) and tier.kernel.parallel
    tier.thread_choice = ThreadChoice(1, now=0.0, base=0.0, cap=0.0, kept_calls=1)
    tier.threads = 1
    for k in range(6):
        A = rng.random((200, 200))
        want_args = [A.copy(), A.copy()]
        want = jacobi(*want_args)
        got_args = [A.copy(), A.copy()]
        got = c(*got_args)
        for g, w in zip((*got, *got_args), (*want, *want_args)):
            np.testing.assert_array_equal(g, w, strict=True)
        assert got[0] is got_args[0] and got[1] is got_args[1]
        assert tier.threads == tier.thread_choice.threads
    assert tier.native_calls == 6 and tier.thread_choice.checks == 3


def _jacobi_tier(n: int = 200):
    """Jacobi compiled in tier 2 from its second call (prefer="native", no disk cache),
    its ``Tiered`` and the compiled function."""
    made = []

    def backend(graph, example_inputs):
        made.append(native_backend(graph, example_inputs, options={
            "after_calls": 1, "background": False, "prefer": "native", "cache": False}))
        return made[-1]
    c = dynamo.compile(jacobi, backend=backend)
    A = np.random.default_rng(5).random((n, n))
    c(A.copy(), A.copy())
    tier = made[0]
    assert isinstance(tier, Tiered) and tier.kernel.parallel
    return tier, c


def _equal_eager(c, rng, n: int = 200, flagged: bool = False):
    A = rng.random((n, n))
    if flagged:
        A[n // 2, n // 3] = np.inf   # step 1 propagates it: the call runs tier 1
    want_args = [A.copy(), A.copy()]
    want = jacobi(*want_args)
    got_args = [A.copy(), A.copy()]
    got = c(*got_args)
    for g, w in zip((*got, *got_args), (*want, *want_args)):
        np.testing.assert_array_equal(g, w, strict=True)
    assert got[0] is got_args[0] and got[1] is got_args[1]


def test_one_thread_runs_the_twin_without_setting_the_thread_count():
    """Once one thread is chosen, the kernel compiled without ``parallel=True``
    (one_thread.py) answers: no ``numba.set_num_threads`` around the call (the parallel
    kernel on one thread set the count and put it back, twice a call), bit-equal to
    eager, a flagged call included (its writes undone, tier 1's answer)."""
    tier, c = _jacobi_tier()
    rng = np.random.default_rng(8)
    tier.set_threads(1)
    assert tier.twin.dispatcher is not None and tier.twin.error is None
    assert tier.twin.dispatcher.signatures == tier._dispatcher.signatures
    before = numba.get_num_threads()
    with calls_to(numba.set_num_threads) as sets, calls_to(_on_threads) as parallel:
        for _ in range(3):
            _equal_eager(c, rng)
        _equal_eager(c, rng, flagged=True)
    assert sets == [] and parallel == [] and numba.get_num_threads() == before
    assert tier.native_calls == 3 and tier.threads == 1   # (the first call: tier 1)
    # back to all threads: the parallel kernel again, on the caller's count
    tier.set_threads(None)
    _equal_eager(c, rng)
    assert tier.native_calls == 4


def test_one_thread_without_a_twin_sets_the_count_only_where_it_differs():
    """``numba_calls._on_threads`` leaves the count alone where the calling thread has it
    already (a program that set one thread itself), and puts it back otherwise."""
    ran = []

    def dispatcher(*a):
        ran.append(numba.get_num_threads())
        return (False,)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        with calls_to(numba.set_num_threads) as sets:
            _on_threads(1, dispatcher, (), ())
        assert sets == [] and ran == [1]
        if numba.config.NUMBA_NUM_THREADS > 1:
            numba.set_num_threads(2)
            with calls_to(numba.set_num_threads) as sets:
                _on_threads(1, dispatcher, (), ())
            assert [s["n"] for s in sets] == [1, 2] and ran == [1, 1]
            assert numba.get_num_threads() == 2
    finally:
        numba.set_num_threads(before)


def test_a_caller_on_one_thread_gets_the_twin():
    """A program that set Numba's count to one thread itself (or NUMBA_NUM_THREADS=1):
    tier 2 on "all threads" is one thread, and the twin answers it."""
    tier, c = _jacobi_tier()
    rng = np.random.default_rng(9)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        assert tier.threads is None
        _equal_eager(c, rng)   # (starts the twin's compile: here, not in the background)
        assert tier.twin.dispatcher is not None
        with calls_to(numba.set_num_threads) as sets, calls_to(_on_threads) as parallel:
            _equal_eager(c, rng)
            _equal_eager(c, rng, flagged=True)
        assert sets == [] and parallel == [] and tier.native_calls == 2
    finally:
        numba.set_num_threads(before)


def _softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _layernorm(x, g, b):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + 1e-5) * g + b


def _smooth_in_place(x, y):
    y[1:-1] = (x[:-2] + 2.0 * x[1:-1] + x[2:]) * 0.25
    x[:, 0] = x.sum(axis=1) / 7.0
    return x.max(axis=0), y


@pytest.mark.parametrize("fn,shapes", [
    (_softmax, [(37, 45)]),
    (_layernorm, [(37, 45), (45,), (45,)]),
    (_smooth_in_place, [(37, 45), (37, 45)]),
])
def test_the_twin_equals_the_parallel_kernel(fn, shapes):
    """The twin (the parallel kernel's source compiled without ``parallel=True``) of
    kernels whose ``prange`` holds row groups, float sums in NumPy's order, max in
    lanes and stores into inputs with their backups: bit-equal to the parallel kernel
    on the same inputs (results and written inputs), a flagged call (an infinity in a
    row: tier 1 answers both) included; the stencil bit-equal to eager too."""
    made = []

    def backend(graph, example_inputs):
        made.append(native_backend(graph, example_inputs, options={
            "after_calls": 1, "background": False, "prefer": "native", "cache": False,
            "parallel_min_elements": 64}))
        return made[-1]
    c = dynamo.compile(fn, backend=backend)
    rng = np.random.default_rng(21)
    c(*[rng.standard_normal(s) for s in shapes])
    tier = made[0]
    assert isinstance(tier, Tiered) and tier.kernel.parallel
    tier.set_threads(1)
    assert tier.twin.dispatcher is not None
    for bad in (False, False, True, False):
        inputs = [rng.standard_normal(s) for s in shapes]
        if bad:
            inputs[0][3, 4] = np.inf
        runs = []
        for threads in (None, 1, "eager"):
            a = [x.copy() for x in inputs]
            with warnings.catch_warnings():   # (the flagged call's warning, tier 1's)
                warnings.simplefilter("ignore" if bad else "error")
                if threads == "eager":
                    out = fn(*a)
                else:
                    tier.set_threads(threads)
                    with calls_to(_on_threads) as parallel:
                        out = c(*a)
                    assert parallel == []
            runs.append([*(out if isinstance(out, tuple) else (out,)), *a])
        for g, w in zip(runs[1], runs[0]):
            np.testing.assert_array_equal(g, w, strict=True)
        if fn is _smooth_in_place or bad:
            for g, w in zip(runs[1], runs[2]):
                np.testing.assert_array_equal(g, w, strict=True)
    assert tier.native_calls == 2 * 3


def test_the_trials_one_thread_calls_run_the_twin():
    """The trial times what one thread would really run: the twin compiled without
    ``parallel=True`` (one_thread.py), compiled before its first timed call, not the
    parallel kernel on one thread (a ``prange`` on one thread: FIR 31 taps x 200,000
    took about 3 times its twin's 1.2 ms and lost to tier 1's 2.2). Calls while the
    twin compiles are tier 1's, untimed (race.WAIT)."""
    made = []

    def backend(graph, example_inputs):
        made.append(native_backend(graph, example_inputs, options={
            "after_calls": 1, "background": False, "prefer": "measure", "cache": False}))
        return made[-1]
    c = dynamo.compile(jacobi, backend=backend)
    rng = np.random.default_rng(10)
    _equal_eager(c, rng)   # compiles tier 2: the trial starts
    tier = made[0]
    assert isinstance(tier, Tiered) and tier.kernel.parallel and tier.state == "trial"
    with calls_to(_on_threads) as parallel_on_one, calls_to(tier._one_thread) as one:
        while tier.state == "trial":
            _equal_eager(c, rng)
    assert tier.twin.dispatcher is not None and tier.twin.error is None
    assert one and parallel_on_one == []   # every one-thread call ran the twin
    assert tier.state in ("native", "tier1") and tier.races == 1
