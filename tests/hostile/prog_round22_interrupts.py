"""Round 22, program code run by the garbage collector and exceptions raised between
the NumPy calls of a flat pass with gaps (``flat_direct.save_gaps`` / ``restore_gaps``;
continued from ``prog_round22_hooks.py``, the same category): a ``gc.callbacks``
function and a ``__del__`` read ``u``'s boundary columns while collections run on
every allocation (``gc.set_threshold(1)``), over direct writes large enough for the
pool's threads (1500x1500) and over 2-D and 3-D in-place updates; and SIGALRM with
SIGINT's own handler (``default_int_handler``: no program code, so the passes run)
interrupts 3-D updates and 300x300 direct writes at delays swept over the call: after
each KeyboardInterrupt ``u`` is eager's, before or after the whole statement, and the
collector is on.

Before the fix a collection in a pool thread (its allocations after a job) or in
``run_blocks`` ran with the gaps in place, and an interrupt right after the first of a
3-D update's two restores skipped the second.

    >>> def _direct_write(u, v):
    ...     u[1:-1, 1:-1] = 0.2 * (v[:-2, 1:-1] + v[2:, 1:-1] + v[1:-1, :-2]
    ...                            + v[1:-1, 2:] + v[1:-1, 1:-1])
    ...     return u
"""

import gc
import signal

import numpy as np
from hostile_check import Programs

reg = Programs("round22_windows")


def _direct_write(u, v):
    u[1:-1, 1:-1] = 0.2 * (v[:-2, 1:-1] + v[2:, 1:-1] + v[1:-1, :-2] + v[1:-1, 2:]
                           + v[1:-1, 1:-1])
    return u


def _add_update(u, v):
    u[1:-1, 1:-1] += 0.1 * (v[:-2, 1:-1] + v[2:, 1:-1] - 2.0 * v[1:-1, 1:-1])
    return u


def _add_update3(u, v):
    u[1:-1, 1:-1, 1:-1] += 0.1 * (v[:-2, 1:-1, 1:-1] + v[2:, 1:-1, 1:-1]
                                  - 2.0 * v[1:-1, 1:-1, 1:-1])
    return u


def _edges(u):
    return float(u[:, 0].sum()), float(u[:, -1].sum())


def _grid(shape):
    return np.arange(np.prod(shape), dtype=float).reshape(shape) % 97 + 2


def _collected(name, fn, shape, how, calls=5):
    """``fn`` compiled, called twice, then ``calls`` times with a collection on every
    allocation, a ``how`` (``"callback"``: a ``gc.callbacks`` function; ``"del"``: a
    cycle whose ``__del__`` leaves a new one behind, so every collection has garbage)
    reading the edges each time: the set of edges seen is eager's one."""
    def s(r):
        f = r.compile(fn)

        def drive():
            u, v = _grid(shape), _grid(shape) / 50
            f(u, v)
            f(u, v)
            seen = set()
            going = [True]

            class Cycle:
                def __init__(self):
                    self.me = self

                def __del__(self):
                    seen.add(_edges(u))
                    if going[0]:
                        Cycle()

            def callback(phase, info):
                if phase == "start":
                    seen.add(_edges(u))
            old = gc.get_threshold()
            if how == "callback":
                gc.callbacks.append(callback)
            else:
                Cycle()
            gc.set_threshold(1)
            try:
                for _ in range(calls):
                    f(u, v)
            finally:
                gc.set_threshold(*old)
                going[0] = False
                if callback in gc.callbacks:
                    gc.callbacks.remove(callback)
            gc.collect()
            return sorted(seen), gc.isenabled()
        r.call(drive)
    s.__name__ = name
    reg.scenario(s)


_collected("gc_callback_reads_edges_of_threaded_write", _direct_write, (1500, 1500),
           "callback")
_collected("del_reads_edges_of_threaded_write", _direct_write, (1500, 1500), "del")
_collected("gc_callback_reads_edges_of_update", _add_update, (200, 200), "callback", 50)
_collected("del_reads_edges_of_update_3d", _add_update3, (40, 40, 40), "del", 50)


def _gc_off_stays_off(r):
    """The program turned the collector off: the passes leave it off (and on, on)."""
    f = r.compile(_add_update3)

    def drive(enabled):
        u, v = _grid((30, 30, 30)), _grid((30, 30, 30)) / 50
        was = gc.isenabled()
        (gc.enable if enabled else gc.disable)()
        try:
            f(u, v)
            f(u, v)
            return gc.isenabled()
        finally:
            (gc.enable if was else gc.disable)()
    r.call(drive, False)
    r.call(drive, True)


reg.scenario(_gc_off_stays_off)


def _swept(name, fn, shape, calls, span, doc):
    """SIGALRM with ``default_int_handler`` once per call of ``fn`` over ``shape``
    arrays, at 1 to ``span`` us: each KeyboardInterrupt leaves eager's state (``u``
    before or after the whole statement; the collector on)."""
    def s(r):
        f = r.compile(fn)

        def drive():
            v = _grid(shape) / 50
            u = _grid(shape)
            f(u.copy(), v)
            f(u.copy(), v)
            states = set()
            # (no garbage left whose weakref callbacks the interrupt could meet:
            # CPython reports and drops an exception raised in one)
            gc.collect()
            old = signal.signal(signal.SIGALRM, signal.default_int_handler)
            try:
                for i in range(calls):
                    before = u.copy()
                    after = fn(before.copy(), v)
                    try:
                        signal.setitimer(signal.ITIMER_REAL, 1e-6 * (1 + i % span))
                        f(u, v)
                        signal.setitimer(signal.ITIMER_REAL, 0)
                    except KeyboardInterrupt:
                        pass
                    if np.array_equal(u, after):
                        states.add("after")
                    elif np.array_equal(u, before):
                        states.add("before")
                    else:
                        states.add("neither")
                        u[...] = after        # (the next call starts from eager's)
                    states.add(("collector on", gc.isenabled()))
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, old)
            # (which of "before"/"after" occur is timing: only "neither" is wrong)
            return sorted(str(s) for s in states if s != "before" and s != "after")
        r.call(drive)
    s.__name__, s.__doc__ = name, doc
    return s


_interrupted = _swept("interrupted", _add_update3, (40, 40, 40), 1500, 150,
                      "A 3-D in-place update (a flat pass with gaps), interrupted.")
# a direct write (flat_direct.py: the value's ops written straight into u's window)
_interrupted_direct = _swept(
    "interrupted_direct_write", _direct_write, (300, 300), 1500, 150,
    "A direct write into u's window (its ops op by op into it), interrupted.")


# Before the fix, on the numpy backend, an interrupt right after the guard's switch
# left np.geterr() at "raise" (the token of ``runtime.guard`` lost before its try), one
# inside ``np.copyto``'s Python dispatcher skipped a gap's restore (``u`` neither before
# nor after), and on 3.14 one right after ``with lock:``'s ``__enter__`` left the
# recycler's lock held, which hung the next call (``runtime.raising_of``,
# ``flat_direct.restore_gaps``, ``interrupt_locks.under_lock``; issue #17).
# A direct write wrote its ops into ``u``'s window one by one, so an interrupt between
# two left it half-written (638 of 1160 interrupted 300x300 calls; ``flat._finish_write``).
if hasattr(signal, "setitimer"):
    reg.scenario(_interrupted)
    reg.scenario(_interrupted_direct)
