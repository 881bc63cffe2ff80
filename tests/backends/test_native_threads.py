"""A parallel kernel's thread count, checked again after the trial (backends/native/threads.py):
the choice as a pure function of timed calls, and a Tiered whose every call is a check,
bit-equal to eager whichever count runs it."""

import numpy as np
import pytest

import dynamo

numba = pytest.importorskip("numba")

from dynamo.backends.native.backend import native_backend  # noqa: E402
from dynamo.backends.native.threads import ThreadChoice  # noqa: E402
from dynamo.backends.native.tier import Tiered  # noqa: E402

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
    c = ThreadChoice(1, now=0.0, base=1.0)
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
    c = ThreadChoice(1, now=0.0, base=1.0)
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
    d = ThreadChoice(None, now=0.0, base=1.0)
    check_pair(d, 0.50 * MS, 0.51 * MS, now=1.0)
    assert d.threads is None and d.wait == 2.0
    check_pair(d, 0.50 * MS, 0.51 * MS, now=3.0)
    assert d.wait == 4.0


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
    tier.thread_choice = ThreadChoice(1, now=0.0, base=0.0, cap=0.0)
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
