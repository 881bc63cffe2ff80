"""An interrupt (KeyboardInterrupt) raised anywhere in a compiled call leaves eager's
state: the caller's floating-point settings, no lock held, no pool thread still
writing (issue #17; the timing-based sweep: tests/hostile/prog_round22_interrupts.py).

CPython raises a signal handler's exception right after a call returns (before its
result is stored) or as a Python function starts. A profile function that raises at
its ``k``-th ``call`` / ``c_return`` event does the same, deterministically: these
tests sweep ``k`` over every such point of a call (``sys.setprofile`` acts on this
thread only, as a signal handler does: the pool threads go on)."""

import dis
import operator
import sys
import threading
import time

import numpy as np
import pytest
from dynamo.backends.numpy_backend import runtime
from dynamo.backends.numpy_backend.flat import RUNS, _finish_write
from dynamo.backends.numpy_backend.flat_direct import restore_gaps
from dynamo.backends.numpy_backend.module import Module
from observe import collector_off

import dynamo
from dynamo.interrupt_locks import new_lock, under_lock


def interrupted_at_every_point(run):
    """``run()`` once per interruption point, raising KeyboardInterrupt at the ``k``-th
    Python call or C call's return of this thread; yields after each (True: it was
    interrupted), until a run ends before its ``k``-th point. (The collector is off
    meanwhile: a finalizer of an earlier test's function would meet the interrupt.)"""
    with collector_off():
        yield from _every_point(run)


def _every_point(run, extra=0):
    k = 1
    while True:
        seen = [0]

        def profile(frame, event, arg, seen=seen, k=k):
            if event in ("call", "c_return") and frame.f_code is not _HARNESS:
                seen[0] += 1
                if k <= seen[0] <= k + extra:
                    raise KeyboardInterrupt

        def trace(frame, event, arg, seen=seen, k=k):
            # (a loop's backward jump is a check too: CPython runs a pending handler
            # there; the profile sees no such event)
            if event == "call":
                frame.f_trace_opcodes = True
            elif event == "opcode" and frame.f_code.co_code[frame.f_lasti] == _BACK:
                if seen[0] >= k:
                    seen[0] += 1
                    if seen[0] <= k + extra:
                        raise KeyboardInterrupt
            return trace
        sys.setprofile(profile)
        if extra:
            sys.settrace(trace)
        try:
            run()
            hit = False
        except KeyboardInterrupt:
            hit = True
        finally:
            sys.settrace(None)
            sys.setprofile(None)
        yield hit
        if not hit:
            return
        k += 1


_BACK = dis.opmap["JUMP_BACKWARD"]
_HARNESS = _every_point.__code__   # (its own calls around ``run``: never interrupted)


def interrupted_again_at_every_point(run, extra: int):
    """``interrupted_at_every_point``, where ``extra`` more interrupts follow the first,
    one at each of the next checks (a call or a C call's return, or a loop's backward
    jump): the handlers of signals pending together (two signals whose handler is
    ``default_int_handler``), which CPython runs one per check."""
    with collector_off():
        yield from _every_point(run, extra)


def _update3(u, v):
    u[1:-1, 1:-1, 1:-1] += 0.1 * (v[:-2, 1:-1, 1:-1] + v[2:, 1:-1, 1:-1]
                                  - 2.0 * v[1:-1, 1:-1, 1:-1])
    return u


def _inverse(a):
    return np.linalg.inv(a) * 2.0


@pytest.mark.parametrize("backend, fn, make", [
    ("numpy", _update3, lambda: (np.ones((40, 40, 40)), np.ones((40, 40, 40)) / 50)),
    ("eager", _inverse, lambda: (np.eye(3) * 2,)),
])
def test_an_interrupt_anywhere_leaves_the_callers_floating_point_settings(backend, fn, make):
    # before the fix the guard's token (``___token = ___ufunc_set(...)``, numpy's
    # ``_token = _guard()``) was lost to an interrupt right after the switch: the caller
    # went on with np.geterr() at "raise"
    f = dynamo.compile(fn, backend=backend)
    f(*make())
    f(*make())
    before = np.geterr(), np.getbufsize()
    points = 0
    for hit in interrupted_at_every_point(lambda: f(*make())):
        points += hit
        assert (np.geterr(), np.getbufsize()) == before, f"interrupt at point {points}"
    assert points > 10


def test_the_gaps_restore_runs_no_python_code_before_its_copies():
    """``np.copyto`` runs a Python dispatcher first, where an interrupt skipped the
    copy (``u`` was left with a gap's other values): the restore is subscripts only,
    and the only Python call is the buffers' ``give`` after them."""
    m = Module()
    m.emit(0, "def restore(_g0, _g1, _gs, _gc):")
    restore_gaps(m, ["_g0", "_g1"], "_saved", 1)
    called = []

    class Saved:
        def give(self, buffers):
            pass
    m.scope["_saved"] = Saved()
    exec(m.source(), m.scope)
    restore = m.scope["restore"]
    gaps, saved = [np.zeros(3), np.zeros(2)], [np.ones(3), np.ones(2)]

    def profile(frame, event, arg):
        if event == "call" and frame.f_code is not restore.__code__:
            called.append(frame.f_code.co_name)
    sys.setprofile(profile)
    try:
        restore(*gaps, saved, True)
    finally:
        sys.setprofile(None)
    assert [g.tolist() for g in gaps] == [[1.0] * 3, [1.0] * 2]
    assert called == ["give"]


def test_under_lock_never_leaves_the_lock_held():
    lock = new_lock()
    for _ in interrupted_at_every_point(lambda: under_lock(lock, sum, [1, 2])):
        assert not lock._is_owned()
    other = []
    t = threading.Thread(target=lambda: other.append(lock.acquire(timeout=5)))
    t.start()
    t.join()
    assert other == [True]


def test_the_recycler_is_taken_again_after_any_interrupt():
    # on 3.14 ``with self._lock:`` stayed locked after an interrupt right after its
    # __enter__, and the next take waited forever; an interrupt after the take leaves
    # the array in the recycler, unreferenced: found free again
    r = runtime.Recycler((1000,), np.dtype("float64"))
    for _ in interrupted_at_every_point(r.take):
        done = []
        t = threading.Thread(target=lambda done=done: done.append(r.take()))
        t.start()
        t.join(5)
        assert done, "the recycler's lock stayed held"
    assert len(r._issued) <= r.keep


def test_run_blocks_returns_only_after_the_pool_threads_stopped():
    """Interrupted anywhere in the caller's part (a block, the hand-out, the wait),
    ``run_blocks`` raises only once no pool thread runs a block of the call: none
    writes after its exception."""
    cache = runtime.ScratchCache([((4,), np.dtype("float64"))])
    runtime._POOL.ensure(1)      # (its first start is threading's code, not swept here)
    ran = []

    def block(i, s):
        if threading.current_thread() is not threading.main_thread():
            time.sleep(0.002)
        ran.append(i)

    for hit in interrupted_at_every_point(lambda: runtime.run_blocks(block, 12, cache, 2)):
        seen = len(ran)
        time.sleep(0.01)
        assert len(ran) == seen, "a pool thread ran a block after run_blocks returned"
        ran.clear()



def _direct_write_loop():
    """``_finish_write``'s code around four passes, each a C call writing one item."""
    m = Module()
    m.emit(0, "def write(u):")
    depth = _finish_write(m, 1)
    for i in range(4):
        m.emit(depth, f"_put(u, {i}, 1.0)")
    depth = _finish_write(m, depth, end=True)
    m.emit(depth, "return u")
    m.scope["_put"] = operator.setitem
    exec(m.source(), m.scope)
    return m.scope["write"]


@pytest.mark.parametrize("extra", range(RUNS))
def test_interrupts_pending_together_leave_a_direct_write_whole(extra):
    """A second (third) interrupt raised while the first is handled: before the fix the
    loop's backward jump after its ``except:`` met it, and the write was left
    half-done (``[1, 1, 0, 0]``); now it is whole, or not begun."""
    write = _direct_write_loop()
    u, points = [0.0] * 4, 0
    for hit in interrupted_again_at_every_point(lambda: write(u), extra):
        points += hit
        assert u in ([0.0] * 4, [1.0] * 4), f"point {points}: {u}"
        u[:] = [0.0] * 4
    assert points >= 4


def test_run_blocks_waits_for_the_pool_threads_through_a_second_interrupt():
    """Two pool threads: an interrupt as the wait for the first ends, a second at the
    next check, which before the fix was the wait loop's backward jump (the call
    returned with the other pool thread still running blocks)."""
    cache = runtime.ScratchCache([((4,), np.dtype("float64"))])
    runtime._POOL.ensure(2)
    ran = []

    def block(i, s):
        if threading.current_thread() is not threading.main_thread():
            time.sleep(0.002)
        ran.append(i)

    run = lambda: runtime.run_blocks(block, 12, cache, 3)   # noqa: E731
    for hit in interrupted_again_at_every_point(run, 1):
        seen = len(ran)
        time.sleep(0.01)
        assert len(ran) == seen, "a pool thread ran a block after run_blocks returned"
        ran.clear()
