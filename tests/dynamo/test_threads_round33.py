"""Hostile round 33, threads: several threads make the first calls of a compiled function
at once (behind a ``threading.Barrier``, with ``sys.setswitchinterval(1e-6)`` so they
switch as often as they can) and every result must be the one plain Python gives (issue
#17: what the hook generates and publishes while other threads run the same cache).

Each program is a plain function and, per thread ``k``, the arguments of its calls;
``hammer`` compiles it afresh for each round, runs it in ``THREADS`` threads and compares
each thread's results, in order, with the function's own results on the same
arguments. A thread records its exception (it would never reach pytest).

    >>> def loop_helper(y, trips):
    ...     while float(y[0]) < trips:   # data read: the loop runs as Python
    ...         y = helper(y) * 0.5 + 1.0
    ...     return y
"""

import collections
import copy
import logging
import sys
import threading

import numpy as np
import pytest
from harness import same

import dynamo
from dynamo import convert, listeners

THREADS = 6
ROUNDS = 3
BACKENDS = ("eager", "numpy")


def run_threads(n, work):
    """``work(k)`` in ``n`` threads released together by one barrier, the switch interval
    at its smallest; what each returned, or the exception it raised, by ``k``."""
    start = threading.Barrier(n, timeout=60)
    out = [None] * n

    def body(k):
        try:
            start.wait()
            out[k] = ("ok", work(k))
        except BaseException as e:  # noqa: BLE001 (a thread's exception never reaches pytest)
            out[k] = ("raised", e)
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=body, args=(k,)) for k in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(switch)
    return out


def outcome(fn, args):
    """("ok", result) or ("raised", type, message) of ``fn(*args)`` on a deep copy."""
    args = copy.deepcopy(args)
    try:
        return ("ok", fn(*args), args)
    except Exception as e:  # noqa: BLE001
        return ("raised", type(e), str(e), args)


def same_outcome(want, got, label):
    assert want[0] == got[0], f"{label}: plain {want[:3]!r}, compiled {got[:3]!r}"
    if want[0] == "ok":
        same(want[1], got[1], path=f"{label}: result")
    else:
        assert want[1:3] == got[1:3], f"{label}: plain raised {want[1:3]}, compiled {got[1:3]}"
    same(want[-1], got[-1], path=f"{label}: arguments after")


def hammer(fn, calls, backend, rounds=ROUNDS, n=THREADS, compiled=None):
    """``calls(k)``: the argument tuples thread ``k`` passes, in order. Each round compiles
    ``fn`` afresh (so the threads make its first calls) unless ``compiled`` is given."""
    want = {k: [outcome(fn, a) for a in calls(k)] for k in range(n)}
    for _ in range(rounds):
        f = compiled if compiled is not None else dynamo.compile(fn, backend=backend)
        got = run_threads(n, lambda k, f=f: [outcome(f, a) for a in calls(k)])
        for k, (status, value) in enumerate(got):
            assert status == "ok", f"thread {k} raised {value!r}"
            for i, (w, g) in enumerate(zip(want[k], value, strict=True)):
                same_outcome(w, g, f"thread {k} call {i}")


# ----------------------------------------------------------------------------- programs

def helper(y):
    return y * 2.0


def loop_helper(y, trips):
    i = 0
    while float(y[0]) < trips:   # reads array data: the loop runs as Python
        y = helper(y) * 0.5 + 1.0
        i += 1
    return y, i


def branch_on_data(x):
    y = np.sin(x) + 1.0
    if float(y.sum()) > x.size:      # a break: the rest is a resume function
        y = y * 2.0
    else:
        y = y - 3.0
    return y + x


def two_breaks(x, n):
    y = x * 2.0
    if float(y[0]) > 0:
        y = y + 1.0
    z = np.cos(y)
    if float(z[-1]) > 0:
        z = z * n
    return z, y


class Stepper:
    def __init__(self, c):
        self.c = c

    def step(self, y):
        return y * self.c + 1.0


def loop_method(y, stepper, trips):
    while float(y.max()) < trips:
        y = stepper.step(y)
    return y


def outlined(x, n):
    for _ in range(n):             # a loop over a Python int: outlined or unrolled
        x = np.tanh(x) * 0.5 + x
    return x


def outlined_big(x, n):
    acc = x * 0.0
    for i in range(n):
        acc = acc + np.sqrt(np.abs(x)) * i
    return acc


def gen(x, n):
    for i in range(n):
        yield x * i + 1.0


def consume_gen(x, n):
    return [g for g in gen(x, n)]


def compiled_generator_of(backend):
    return dynamo.compile(gen, backend=backend)


def shaped(x):
    return np.exp(-x * x).sum(axis=0), x.T @ x


def deque_window(d, x):
    d.append(x)
    return np.mean(d, axis=0), np.std(d, axis=0, ddof=1 if len(d) > 1 else 0)


class Counted:
    n = 0
    lock = threading.Lock()

    def __call__(self, x):
        with self.lock:
            self.__class__.n += 1
        return x * 2.0 + 1.0


def island_calls_helpers(y, k):
    total = 0.0
    for row in y:                    # iterating an array: runs as Python
        total += float(helper(row).sum()) + k
    return total, y * total


def scalar_cast(x, n):
    return np.float32(n) * x, x[n % x.shape[0]]


def raising(x, k):
    y = x + 1.0
    if float(y[0]) > 2:
        raise ValueError(f"too big at {k}")
    return y * k


# ----------------------------------------------------------------------------- tests

@pytest.mark.parametrize("backend", BACKENDS)
def test_first_calls_of_a_loop_that_breaks(backend):
    hammer(loop_helper, lambda k: [(np.zeros(4), 20 + k)] * 2, backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_first_calls_of_a_frame_with_a_data_branch(backend):
    def calls(k):
        return [(np.linspace(-1, 1 + k, 5),), (np.linspace(0, 3, 5) * (k - 2),)]
    hammer(branch_on_data, calls, backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_breaks_and_their_resume_functions(backend):
    def calls(k):
        return [(np.arange(4.0) * (1 - 2 * (k % 2)), k), (np.ones(4) * -k, 2)]
    hammer(two_breaks, calls, backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_islands_calling_bound_methods(backend):
    hammer(loop_method, lambda k: [(np.ones(3), Stepper(1.5 + k / 10), 30.0)], backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_islands_calling_plain_helpers_per_row(backend):
    hammer(island_calls_helpers, lambda k: [(np.arange(6.0).reshape(3, 2) + k, k)],
           backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_outlined_loop_bodies(backend):
    hammer(outlined, lambda k: [(np.linspace(0, 1, 8), 5 + k % 3)] * 2, backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_outlined_loops_over_arrays_above_the_outline_size(backend):
    hammer(outlined_big, lambda k: [(np.linspace(-1, 1, 40000), 12)], backend, rounds=2)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_generator_consumed_in_each_thread(backend):
    hammer(consume_gen, lambda k: [(np.arange(3.0), 4 + k)], backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_compiled_generator_function_consumed_in_each_thread(backend):
    for _ in range(ROUNDS):
        f = compiled_generator_of(backend)
        hammer(lambda x, n: list(gen(x, n)), lambda k: [(np.arange(3.0), 3 + k)],
               backend, rounds=1, compiled=lambda x, n, f=f: list(f(x, n)))


@pytest.mark.parametrize("backend", BACKENDS)
def test_recompiles_for_new_shapes_in_each_thread(backend):
    def calls(k):
        return [(np.ones((k + 2, 3)) * 0.5,), (np.ones((2, k + 1)),), (np.ones((k + 2, 3)),)]
    hammer(shaped, calls, backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_recompiles_for_new_dtypes_in_each_thread(backend):
    dtypes = (np.float64, np.float32, np.int64, np.int32, np.float16, np.int8)

    def calls(k):
        return [(np.arange(6).reshape(3, 2).astype(dtypes[k % len(dtypes)]),),
                (np.arange(6).reshape(3, 2).astype(dtypes[(k + 1) % len(dtypes)]),)]
    hammer(shaped, calls, backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_cache_limit_reached_in_threads(backend, monkeypatch):
    monkeypatch.setattr(dynamo.config, "cache_size_limit", 2)
    monkeypatch.setattr(dynamo.config, "automatic_dynamic", False)

    def calls(k):
        return [(np.ones((k + 1, k + 2)) * k,), (np.ones((3, 1)),), (np.ones((k + 1, 2)),)]
    hammer(shaped, calls, backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_cache_limit_reached_by_a_frame_that_breaks(backend, monkeypatch):
    monkeypatch.setattr(dynamo.config, "cache_size_limit", 1)
    monkeypatch.setattr(dynamo.config, "automatic_dynamic", False)

    def calls(k):
        return [(np.linspace(-1, 1, k + 2),), (np.linspace(-1, 1, 3),)]
    hammer(branch_on_data, calls, backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_reset_while_other_threads_run(backend):
    def calls(k):
        return [(np.zeros(4), 10 + k)] * 3
    want = {k: [outcome(loop_helper, a) for a in calls(k)] for k in range(THREADS)}
    for _ in range(ROUNDS):
        f = dynamo.compile(loop_helper, backend=backend)

        def work(k, f=f):
            got = []
            for a in calls(k):
                if k == 0:
                    dynamo.reset()
                got.append(outcome(f, a))
            return got
        for k, (status, value) in enumerate(run_threads(THREADS, work)):
            assert status == "ok", f"thread {k} raised {value!r}"
            for i, (w, g) in enumerate(zip(want[k], value, strict=True)):
                same_outcome(w, g, f"thread {k} call {i}")


@pytest.mark.parametrize("backend", BACKENDS)
def test_deque_windows_one_per_thread(backend):
    def windows(f, k):
        d, out = collections.deque(maxlen=3), []
        for j in range(5):
            out.append(f(d, np.arange(3.0) * j + k))
        return out, list(d)

    want = {k: windows(deque_window, k) for k in range(THREADS)}
    for _ in range(ROUNDS):
        f = dynamo.compile(deque_window, backend=backend)
        got = run_threads(THREADS, lambda k, f=f: windows(f, k))
        for k, (status, value) in enumerate(got):
            assert status == "ok", f"thread {k} raised {value!r}"
            same(want[k], value, path=f"thread {k}")


@pytest.mark.parametrize("backend", BACKENDS)
def test_class_counters_under_a_lock(backend):
    for _ in range(ROUNDS):
        Counted.n = 0
        f = dynamo.compile(Counted(), backend=backend)
        got = run_threads(THREADS, lambda k, f=f: [f(np.arange(3.0) + k) for _ in range(4)])
        for k, (status, value) in enumerate(got):
            assert status == "ok", f"thread {k} raised {value!r}"
            for r in value:
                same(r, (np.arange(3.0) + k) * 2.0 + 1.0)
        assert Counted.n == 4 * THREADS


@pytest.mark.parametrize("backend", BACKENDS)
def test_scalar_casts_and_indices_of_changing_ints(backend):
    hammer(scalar_cast, lambda k: [(np.arange(5.0), k), (np.arange(5.0), -k - 1),
                                   (np.arange(5.0), 3 * k)], backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_graph_that_raises_in_some_threads(backend):
    hammer(raising, lambda k: [(np.ones(3) * (k % 3), k), (np.zeros(3), k)], backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_one_compiled_object_shared_after_its_first_calls(backend):
    f = dynamo.compile(loop_helper, backend=backend)
    hammer(loop_helper, lambda k: [(np.zeros(4), 5 + k % 2)] * 3, backend, compiled=f)


class _Counting:
    def __init__(self):
        self.lock = threading.Lock()
        self.starts = self.ends = 0

    def on_frame_start(self, fn, ctx):
        with self.lock:
            self.starts += 1

    def on_frame_end(self, fn, ctx):
        with self.lock:
            self.ends += 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_listener_sees_every_frame_started_end(backend):
    counting = _Counting()
    listeners.add(counting)
    try:
        hammer(two_breaks, lambda k: [(np.arange(4.0) - k, k)], backend)
    finally:
        listeners.remove(counting)
    assert counting.starts == counting.ends > 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_explain_in_several_threads_at_once(backend):
    x = np.arange(4.0)
    want = dynamo.explain(two_breaks, backend=backend)(x, 2)
    channel = logging.getLogger("dynamo.recompiles")
    before = channel.level, channel.propagate, list(channel.handlers)

    def work(k):
        report = dynamo.explain(two_breaks, backend=backend)(x.copy(), 2)
        return report.graph_count, report.graph_break_count
    for _ in range(5):
        for k, (status, value) in enumerate(run_threads(THREADS, work)):
            assert status == "ok", f"thread {k} raised {value!r}"
            assert value == (want.graph_count, want.graph_break_count)
    # (each explain saved and restored the channel's level: one that saved another's
    # DEBUG left the recompiles log on for the rest of the process)
    assert (channel.level, channel.propagate, list(channel.handlers)) == before


def test_explain_reports_only_its_own_threads_recompiles():
    def grows(x):
        return x * 2.0
    f = dynamo.compile(grows, dynamic=False, backend="eager")

    def work(k):
        if k == 0:
            return len(dynamo.explain(plus_one, backend="eager")(np.arange(3.0)).recompiles)
        for n in range(2, 12):   # recompiles in another thread meanwhile
            f(np.ones(n))
        return 0
    for _ in range(3):
        dynamo.reset()
        results = run_threads(THREADS, work)
        assert all(status == "ok" for status, _ in results), results
        assert results[0][1] == 0


class _Skipping(_Counting):
    """Counts the translations of ``plus_one`` and makes each one skip the frame."""

    def on_frame_start(self, fn, ctx):
        if fn.__code__ is plus_one.__code__:
            super().on_frame_start(fn, ctx)
            raise convert.SkipFrame("skipped by the test")


def plus_one(x):
    return x + 1.0


def test_a_frame_skipped_by_one_thread_is_not_translated_again_by_the_others():
    """Threads that waited for the compile lock while the first one skipped the frame
    run it uncompiled: translating it again would log its internal error again and
    call the listeners once more per thread (``hook._compile_entry``)."""
    skipping = _Skipping()
    listeners.add(skipping)
    try:
        for _ in range(8):
            skipping.starts = 0
            hammer(plus_one, lambda k: [(np.arange(3.0) + k,)], "eager", rounds=1)
            assert skipping.starts == 1
    finally:
        listeners.remove(skipping)


# ----------------------------------------------------------------------------- numpy backend

def spilling_chain(x, y):
    """Ten full-size intermediates of 1.6 MB: planned block-wise (``plan._spills_cache``)."""
    t = np.sin(x) * y + np.cos(y) * x
    u = t * t - x * y + np.exp(-np.abs(t))
    v = np.tanh(u) * 2 + t / (1 + u * u)
    return v * x + u, t, (u * t).sum()


def _big(seed):
    return np.random.default_rng(seed).uniform(-2, 2, 200_000)


# (the spill bound at 2x the cache, where these intermediates spill it; the default is 12x)
@pytest.mark.parametrize("options", [{"blocked_working_set": 2.0},
                                     {"blocked_working_set": 2.0, "threads": 2,
                                      "min_threaded_elements": 0}])
def test_block_wise_plans_run_by_several_threads_at_once(options):
    """A compiled variant's blocks and scratch buffers are per call: threads running
    one variant at once on their own data each get their own results, and the results
    of earlier calls are not written over (``recycle_outputs``)."""
    def calls(k):
        return [(_big(k), _big(k + 50)), (_big(k + 100), _big(k + 150))]
    f = dynamo.compile(spilling_chain, backend="numpy", options=options)
    f(_big(0), _big(1))   # (compiled once; the threads run it together)
    hammer(spilling_chain, calls, "numpy", rounds=2, n=4, compiled=f)


def tanh_plus(x):
    return np.tanh(x) * 2.0 + x


@pytest.mark.parametrize("max_sizes", [64, 2])
def test_size_variants_compiled_by_several_threads_at_once(max_sizes, monkeypatch):
    """The numpy backend's ``PerSize`` (one variant per length, the size-generic code
    after ``GENERIC_AFTER``, the oldest dropped past ``MAX_SIZES``) under threads that
    each bring new lengths."""
    from dynamo.backends.numpy_backend import sizes
    monkeypatch.setattr(sizes, "MAX_SIZES", max_sizes)

    def calls(k):
        return [(np.linspace(0, 1, 4 + 4 * k + j),) for j in range(3)]
    for _ in range(ROUNDS):
        f = dynamo.compile(tanh_plus, backend="numpy")
        for n in (1, 2, 3):   # (the length becomes symbolic)
            f(np.ones(n))
        hammer(tanh_plus, calls, "numpy", rounds=1, compiled=f)
