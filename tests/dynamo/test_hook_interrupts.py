"""An interrupt (KeyboardInterrupt) anywhere in a compile leaves the frontend's
``_compile_lock`` free (issue #17).

On 3.14 ``with lock:`` calls ``lock.__enter__`` as a plain call that ends before the
``with``'s protected range: an interrupt raised right after it left the lock held, and
every later compile in the process (another thread's, or this one's after a fork)
waited forever. The lock is held through ``interrupt_locks.under_lock`` now, and so
is ``dynamo.source``'s lock (the generated sources' lines), taken on the way.

A profile function raising at its ``k``-th ``call`` / ``c_return`` event interrupts
where CPython raises a signal handler's exception (right after a call returns, or as a
Python function starts); ``k`` is swept over every such point up to the translator's
start, and over the whole of the cheap paths (``reset``, a new code's cache)."""

import sys
import threading

import numpy as np
import pytest
from observe import collector_off

import dynamo
from dynamo import compile_settings, hook, listeners, source


def _sweep(run, stop_at=None):
    """``run()`` interrupted at its 1st, 2nd, ... point; ``check()`` after each (yields
    the count). Ends when a run ends before its ``k``-th point, or once the ``k``-th
    point is the start of a function named ``stop_at`` (the lock is held there).
    The collector is off meanwhile: a finalizer of an earlier test's function would
    meet the interrupt."""
    with collector_off():
        yield from _every_point(run, stop_at)


def _every_point(run, stop_at):
    k = 1
    while True:
        seen, where = [0], [None]

        def profile(frame, event, arg, seen=seen, where=where, k=k):
            if event in ("call", "c_return"):
                seen[0] += 1
                if seen[0] == k:
                    where[0] = frame.f_code.co_name if event == "call" else None
                    raise KeyboardInterrupt
        sys.setprofile(profile)
        try:
            run()
            hit = False
        except KeyboardInterrupt:
            hit = True
        finally:
            sys.setprofile(None)
        yield k
        if not hit or where[0] == stop_at and stop_at is not None:
            return
        k += 1


def _free_for_another_thread(lock=hook._compile_lock):
    got = []

    def take():
        if lock.acquire(timeout=5):
            got.append(True)
            lock.release()
    t = threading.Thread(target=take)
    t.start()
    t.join()
    return got == [True]


def _double(x):
    return x * 2.0 + 1.0


def test_an_interrupt_in_a_compile_leaves_the_compile_lock_free():
    f = dynamo.compile(_double, backend="eager")
    x = np.ones(3)
    points = 0
    for k in _sweep(lambda: f(x), stop_at="_compile_entry"):
        points = k
        assert not hook._compile_lock._is_owned(), f"held after an interrupt at point {k}"
        assert _free_for_another_thread(), f"held after an interrupt at point {k}"
        # (the lock of the generated sources' lines, taken as the dispatcher is made)
        assert _free_for_another_thread(source._lock), f"source._lock held, point {k}"
        dynamo.reset()   # (the next run compiles again)
    assert points > 3
    np.testing.assert_array_equal(f(x), _double(x))   # and compiling still works


# (a cache's dispatcher source leaves linecache by a weakref.finalize: an interrupt
# inside that finalizer is reported by CPython as unraisable and dropped, not ours)
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_an_interrupt_in_reset_or_a_new_cache_leaves_the_compile_lock_free():
    ctx = hook.CompileContext(lambda gm, inputs: gm, "eager", convert_frame=None)
    codes = iter([compile(f"def g{i}(): pass", "<t>", "exec").co_consts[0]
                  for i in range(10_000)])
    runs = [lambda: ctx.cache_for(next(codes), {}), ctx.reset]
    for run in runs:
        for k in _sweep(run):
            assert not hook._compile_lock._is_owned(), f"{run}: held after point {k}"
        assert _free_for_another_thread()


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_an_interrupt_in_registering_or_dropping_generated_lines_leaves_their_lock_free():
    """``dynamo.source`` registers each generated source's lines under its lock, and a
    finalizer drops them when the code dies (an interrupt there is dropped by CPython,
    not the lock)."""
    def run():
        scope = {}
        source.compile_source("def g():\n    return 1\n", "<dynamo interrupted>", scope)
        scope.clear()    # g's code dies: its lines leave linecache
    for k in _sweep(run):
        assert _free_for_another_thread(source._lock), f"held after point {k}"


# (a generator the interrupt abandons is closed by CPython: its exception is unraisable)
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_an_interrupt_in_adding_or_removing_a_listener_leaves_their_lock_free():
    """``listeners.add`` / ``remove`` change the listener tuple under a lock of their
    own; an interrupt at any point leaves it free, and the tuple whole."""
    class Starts:
        def on_frame_start(self, fn, ctx):
            pass
    listener = Starts()
    for k in _sweep(lambda: listeners.add(listener)):
        assert _free_for_another_thread(listeners._lock), f"held after point {k}"
        while listener in listeners._listeners:
            listeners.remove(listener)
    listeners.add(listener)
    for k in _sweep(lambda: listeners.remove(listener)):
        assert _free_for_another_thread(listeners._lock), f"held after point {k}"
        if listener not in listeners._listeners:
            listeners.add(listener)
    listeners.remove(listener)
    assert listener not in listeners._listeners


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_an_interrupt_in_finding_a_copied_objects_context_leaves_its_lock_free():
    """A compiled object unpickled (or copied) finds the context copies with its
    settings share under ``compile_settings._received_lock``."""
    import copy
    f = dynamo.compile(_double, backend="eager")
    for k in _sweep(lambda: copy.copy(f)):
        assert _free_for_another_thread(compile_settings._received_lock), \
            f"held after point {k}"
    np.testing.assert_array_equal(copy.copy(f)(np.ones(3)), _double(np.ones(3)))
