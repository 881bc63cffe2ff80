"""A flat pass with gaps (``flat_direct.save_gaps`` / ``restore_gaps``) against program
code run by the garbage collector and against exceptions raised between its NumPy
calls (issue #17; tests/hostile/prog_round22_interrupts.py).

Eager's ``u[1:-1, 1:-1] = value`` never changes ``u``'s boundary columns, so whatever
runs during the pass must see them as they were, and after any exception they hold
their values again."""

import gc

import numpy as np
import pytest

import dynamo


def _direct(u, v):
    u[1:-1, 1:-1] = 0.2 * (v[:-2, 1:-1] + v[2:, 1:-1] + v[1:-1, :-2] + v[1:-1, 2:]
                           + v[1:-1, 1:-1])
    return u


def _update3(u, v):
    u[1:-1, 1:-1, 1:-1] += 0.1 * (v[:-2, 1:-1, 1:-1] + v[2:, 1:-1, 1:-1]
                                  - 2.0 * v[1:-1, 1:-1, 1:-1])
    return u


def _edges(u):
    return float(u[:, 0].sum()), float(u[:, -1].sum())


def every_allocation_collects():
    """gc.set_threshold(1) for the block (set after the function is compiled: a
    gc.callbacks function that runs NumPy inside a collection during the trace
    crashes CPython 3.11 with a segfault, a thing of its own left for later)."""
    old = gc.get_threshold()
    gc.set_threshold(1)
    return old


def _threaded_direct_write():
    """``_direct`` compiled on the numpy backend over 1500x1500 (the pool's threads),
    called twice: ``(f, u, v)``, ``u`` at its fixed point (the edges stay)."""
    f = dynamo.compile(_direct, backend="numpy")
    n = 1500
    u = np.arange(n * n, dtype=float).reshape(n, n) + 2
    v = np.ones((n, n))
    f(u, v)
    f(u, v)
    return f, u, v


def test_a_gc_callback_never_sees_the_gaps_of_a_threaded_direct_write():
    # 1500x1500 runs on the pool's threads, whose Python code allocates: before the
    # fix collections ran there (and in run_blocks) with the gaps in place, and a
    # gc.callbacks function read other edges than eager's
    f, u, v = _threaded_direct_write()
    expected = _edges(u)
    seen = set()

    def callback(phase, info):
        if phase == "start":
            seen.add(_edges(u))
    old = every_allocation_collects()
    gc.callbacks.append(callback)
    try:
        for _ in range(5):
            f(u, v)
    finally:
        gc.callbacks.remove(callback)
        gc.set_threshold(*old)
    assert seen == {expected}


def test_a_del_in_a_cycle_never_sees_the_gaps():
    """A cycle whose ``__del__`` reads the edges and leaves a new such cycle behind:
    there is garbage for every collection, also for one inside the pass (before the
    fix, in the pool's threads and in ``run_blocks``)."""
    f, u, v = _threaded_direct_write()
    expected = _edges(u)
    seen = set()
    going = [True]

    class Cycle:
        def __init__(self):
            self.me = self

        def __del__(self):
            seen.add(_edges(u))
            if going[0]:
                Cycle()
    old = every_allocation_collects()
    try:
        Cycle()
        for _ in range(5):
            f(u, v)
    finally:
        going[0] = False
        gc.set_threshold(*old)
    gc.collect()
    assert seen == {expected}


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collectors_state_is_kept(enabled):
    f = dynamo.compile(_update3, backend="numpy")
    u, v = np.ones((30, 30, 30)), np.ones((30, 30, 30))
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        f(u, v)
        f(u, v)
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


@pytest.mark.parametrize("raised_at", [0, 1])
def test_an_exception_after_any_restore_skips_none_of_the_rest(raised_at):
    """``restore_gaps``'s code with gaps whose copy (a subscript assignment) copies and
    then raises, as a signal handler does right after a call returns: every gap is
    still put back, the collector's state too, and the buffers go back (deterministic,
    where the timing test above is not; before the fix the second gap stayed)."""
    from dynamo.backends.numpy_backend.flat_direct import restore_gaps
    from dynamo.backends.numpy_backend.module import Module

    m = Module()
    m.emit(0, "def restore(_g0, _g1, _gs, _gc):")
    restore_gaps(m, ["_g0", "_g1"], "_saved", 1)
    done = []

    class Gap(np.ndarray):
        def __setitem__(self, index, value):
            super().__setitem__(index, value)
            done.append("copy")
            if len(done) == raised_at + 1:
                raise KeyboardInterrupt

    class Saved:
        def give(self, buffers):
            done.append("give")
    m.scope.update({"_saved": Saved(),
                    m.bind(gc.enable, "gc_enable"): lambda: done.append("enable")})
    exec(m.source(), m.scope)
    gaps = [np.zeros(3).view(Gap), np.zeros(2).view(Gap)]
    with pytest.raises(KeyboardInterrupt):
        m.scope["restore"](*gaps, [np.ones(3), np.ones(2)], True)
    assert [g.tolist() for g in gaps] == [[1.0] * 3, [1.0] * 2]
    assert done == ["copy", "copy", "enable", "give"]
