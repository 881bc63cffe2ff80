"""The race of a parallel kernel whose caller runs Numba on one thread (issue #23).

Numba's thread count is per thread. A program that called ``numba.set_num_threads(1)``
(or runs with ``NUMBA_NUM_THREADS=1``) gets the one-thread twin for every tier-2 call
(one_thread.py, ``Tiered._call_parallel``). The race's candidates were chosen in the
thread that compiled the kernel, on Numba's default count: where that was more than
one, the race timed "all threads" calls that ran the twin against the twin itself, could
keep "all threads" by wall time alone (race.choose's rule for more cores) and checked
the count again every so often for nothing. Now the candidates follow the caller's
count (``TrialCalls._times_for_caller``): the twin against tier 1, by both clocks.

Each case costs a Numba compile of a small kernel and its twin (a few seconds of CPU).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

numba = pytest.importorskip("numba")

from dynamo.backends.native.backend import native_backend  # noqa: E402
from dynamo.backends.native.tier import Tiered  # noqa: E402

import dynamo  # noqa: E402

# a prange from 16 elements on: a small graph gets a parallel kernel (and a twin)
OPTIONS = {"after_calls": 1, "background": False, "cache": False,
           "parallel_min_elements": 16}


def _affine(x):
    return x * 2.0 + 1.0


def _compiled(fn):
    made = []

    def backend(graph, example_inputs):
        made.append(native_backend(graph, example_inputs, options=OPTIONS))
        return made[-1]
    return dynamo.compile(fn, backend=backend), made


def _decide(compiled, made, x, calls=200):
    """Calls until the race decided (the twin compiles in the foreground here: the
    race never waits), each result eager's bit for bit; the Tiered."""
    want = _affine(x)
    for _ in range(calls):
        np.testing.assert_array_equal(compiled(x), want, strict=True)
        tier = next(t for t in made if isinstance(t, Tiered))
        if tier.decided.is_set():
            return tier
    raise AssertionError(f"no decision after {calls} calls: {tier.state}")


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2,
                    reason="the caller's count differs from the default only where "
                           "Numba has two threads or more")
def test_a_caller_on_one_thread_races_the_twin_against_tier_one():
    """The kernel compiled in a thread on Numba's default count (the call that made
    the graph hot ran there), the race in a caller on one thread: no "all threads"
    candidate (it would run the twin), no re-check of the count, the twin kept only
    where it wins by both clocks; every result eager's."""
    compiled, made = _compiled(_affine)
    x = np.random.default_rng(0).random(64)
    first = threading.Thread(target=lambda: compiled(x))   # compiles: default count
    first.start()
    first.join()
    tier = next(t for t in made if isinstance(t, Tiered))
    assert tier.kernel.parallel and tier.state == "trial", tier.state
    assert "native1" in tier._times       # (what the compile's thread would race)
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        tier = _decide(compiled, made, x)
    finally:
        numba.set_num_threads(before)
    assert set(tier._times) == {"native", "tier1"}, tier._times
    assert tier.thread_choice is None
    assert tier.threads is None       # (the caller's count: its twin, _call_parallel)
    assert tier.twin.dispatcher is not None


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2,
                    reason="races both counts only where Numba has two threads or more")
def test_a_caller_on_all_threads_still_races_both_counts():
    """The same graph called on Numba's default count: the race times the kernel on
    all threads and its twin on one, as before."""
    compiled, made = _compiled(_affine)
    x = np.random.default_rng(1).random(64)
    tier = _decide(compiled, made, x)
    assert set(tier._times) == {"native", "native1", "tier1"}, tier._times


def test_numba_num_threads_one_decides_and_equals_eager(tmp_path):
    """A process started with ``NUMBA_NUM_THREADS=1``, the kernel compiled in the
    background (the default) and cached on disk (its twin in a child process): the
    race ends (no call waits forever for a candidate that cannot run), the twin
    against tier 1, and every result is eager's."""
    script = textwrap.dedent("""
        import time
        import numpy as np
        import numba
        import dynamo
        from dynamo.backends.native.tier import Tiered
        from dynamo.backends.native.backend import native_backend

        made = []
        def backend(graph, example_inputs):
            made.append(native_backend(graph, example_inputs, options={
                "after_calls": 1, "parallel_min_elements": 16, "cache_dir": CACHE}))
            return made[-1]

        def f(x):
            return x * 2.0 + 1.0

        assert numba.config.NUMBA_NUM_THREADS == 1
        c = dynamo.compile(f, backend=backend)
        x = np.random.default_rng(2).random(64)
        start = time.time()
        while time.time() - start < 240:
            assert np.array_equal(c(x), f(x))
            tier = next(t for t in made if isinstance(t, Tiered))
            if tier.decided.is_set():
                break
            time.sleep(0.005)
        print(tier.state, sorted(tier._times), tier.thread_choice, tier.kernel.parallel)
    """).replace("CACHE", repr(str(tmp_path)))
    env = dict(os.environ, NUMBA_NUM_THREADS="1")
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    state, rest = done.stdout.split(" ", 1)
    assert state in ("native", "tier1"), done.stdout
    assert rest.strip() == "['native', 'tier1'] None True", done.stdout
