"""What generated group code calls at run time: the block runner and its threads.

``run_blocks(block, nblocks, scratch, threads)`` calls ``block(i, s)`` for every
block index ``i``, where ``s`` is the calling thread's list of scratch buffers.
With ``threads > 1`` the blocks are shared out by a counter between the calling
thread and ``threads - 1`` pool threads: NumPy releases the GIL inside its loops,
so blocks run in parallel while Python overhead stays serial. Each pool thread uses
the caller's floating-point error settings (``np.errstate``), and an exception
raised by any block is re-raised in the caller after every thread has stopped.

Example::

    >>> x, y = np.ones((4, 4096), np.float32), np.empty((4, 4096), np.float32)
    >>> cache = ScratchCache([((4096,), np.dtype("float32"))])
    >>> def block(i, s):
    ...     np.exp(x[i], s[0])
    ...     np.add(s[0], 1, y[i])
    >>> run_blocks(block, 4, cache, threads=2)

Every thread runs a group's blocks under the caller's ufunc settings (error handling
and buffer size, ``np.errstate``/``np.setbufsize``), restored afterwards. Two more
things serve generated code: ``row_buffer`` (ufunc settings for elementwise ops over
whole rows) and ``Recycler`` (output arrays the caller has dropped, used again).
"""

from __future__ import annotations

import _thread
import contextlib
import itertools
import math
import os
import queue
import sys
import threading
import weakref

import numpy as np

from dynamo import pyversion
from dynamo.interrupt_locks import new_lock, under_lock
from dynamo.ops.errstate import UFUNC_STATE as _UFUNC_STATE
from dynamo.ops.errstate import set_ufunc_state, ufunc_state

from .program_hooks import no_program_hooks
from .reduction_finish import (  # noqa: F401 (generated code reads runtime.<name>)
    SHORT_AXIS,
    SHORT_SUM_MIN,
    finish_mean,
    finish_partial,
    mean_dtype,
    mean_exact,
    row_major,
    short_sum,
)
from .ufunc_guard import (  # noqa: F401 (generated code and tests read runtime.<name>)
    _CALLER,
    UFUNC_GET,
    UFUNC_SET,
    as_caller,
    eager_goes_on,
    guard,
    raising_of,
    reports_run_no_program_code,
    unguard,
)

# Sets and arrays of fewer bytes are not kept between uses (``ScratchCache.give``; the
# flat passes' output holders: flat.py): glibc serves a block under 1 MiB from its heap
# once its mmap threshold has risen past the size, hot in the cache, with no page
# fault, so a kept one saves little and adds its bytes to the program's peak at every
# call (#15: 9-point Jacobi 128x128 kept a flat pass's 378 KiB beside the plain-path
# loop body's temporaries, 1.52x plain NumPy's peak (tracemalloc); not kept, 1.0x).
KEEP_MIN_BYTES = 1 << 20


class ScratchCache:
    """Scratch buffer sets of one group, reused across calls (one set per thread), when
    a set holds at least ``KEEP_MIN_BYTES``; a smaller set is made anew on each take.

        >>> small = ScratchCache([((1000,), np.dtype("float64"))])
        >>> small.give(small.take()); small.retained()
        0
    """

    def __init__(self, spec: list[tuple]):
        self.spec = spec                       # [(shape, dtype), ...]
        self._free: list[list[np.ndarray]] = []
        self.kept = sum(math.prod(shape) * np.dtype(dtype).itemsize
                        for shape, dtype in spec) >= KEEP_MIN_BYTES

    def take(self) -> list[np.ndarray]:
        try:
            return self._free.pop()            # list.pop is atomic: safe across threads
        except IndexError:
            return [np.empty(shape, dtype) for shape, dtype in self.spec]

    def give(self, buffers: list[np.ndarray]) -> None:
        if self.kept:
            self._free.append(buffers)

    def retained(self) -> int:
        return sum(a.nbytes for s in list(self._free) for a in s)

    def release(self) -> None:
        """Let go of the sets kept (kept_buffers.py); a set a caller holds comes back
        with ``give`` (a new list: a concurrent ``take`` pops from the old one)."""
        self._free = []


class _Job:
    """One ``run_blocks`` call on threads: the caller and the pool threads it handed the
    job to (``handed``) take blocks from one counter.

    The caller is the one thread an interrupt (KeyboardInterrupt) reaches: it must not
    leave while a pool thread still runs a block, which would write into the call's
    arrays after its exception. So the pool threads count themselves out
    (``finished``, under a lock only they take) and wake the caller through a queue,
    and the caller, its own part done or interrupted, stops the others (``error``) and
    waits until ``finished == handed`` (``run_blocks``), then raises what it met."""

    def __init__(self, block, nblocks: int, scratch: ScratchCache):
        self.block, self.nblocks, self.scratch = block, nblocks, scratch
        self.counter = itertools.count()
        self.error: BaseException | None = None
        self.state = ufunc_state()
        self.handed = 0                    # pool threads given the job (by the caller)
        self.finished = 0                  # those done with it
        self._lock = threading.Lock()      # (pool threads only: no interrupt there)
        self.wakeups: queue.SimpleQueue = queue.SimpleQueue()

    def work(self) -> None:
        buffers = self.scratch.take()
        try:
            for i in iter(self.counter.__next__, None):   # next() on a count is atomic
                if i >= self.nblocks or self.error is not None:
                    break
                self.block(i, buffers)
        except BaseException as e:  # noqa: BLE001 (re-raised by the caller)
            if self.error is None:
                self.error = e
        finally:
            self.scratch.give(buffers)

    def served(self) -> None:
        """A pool thread's part: ``work``, then counted out (never interrupted)."""
        try:
            self.work()
        finally:
            with self._lock:
                self.finished += 1
            self.wakeups.put(None)


class _Pool:
    """Daemon threads that each take jobs from their own queue."""

    def __init__(self) -> None:
        self._queues: list[queue.SimpleQueue] = []
        # per thread: True while it waits for a job in ``q.get()`` (``_serve``)
        self.idle: list[bool] = []
        self._lock = new_lock()

    def ensure(self, n: int) -> list[queue.SimpleQueue]:
        return under_lock(self._lock, self._ensure, n)

    def _ensure(self, n: int) -> list[queue.SimpleQueue]:   # (under ``self._lock``)
        while len(self._queues) < n:
            q: queue.SimpleQueue = queue.SimpleQueue()
            self.idle.append(False)
            t = threading.Thread(target=_serve, args=(q, self.idle, len(self._queues)),
                                 daemon=True, name=f"dynamo-numpy-{len(self._queues)}")
            t.start()
            self._queues.append(q)
        return self._queues[:n]

    def reset(self) -> None:  # in a forked child the threads do not exist
        self._queues = []
        self.idle = []
        self._lock = new_lock()


def _serve(q: queue.SimpleQueue, idle: list, i: int) -> None:
    while True:
        # Idle from here into the C wait of ``q.get()`` (no bytecode between that
        # could run anything else): outside it the thread may run the program's code,
        # a ``__del__`` or ``gc.callbacks`` function of a collection its own
        # allocations started (after a job, in ``_ufunc_state``'s restore), or one
        # ``del job`` frees, while the caller makes the next pass's gaps (``alone``)
        idle[i] = True
        job = q.get()
        idle[i] = False
        with _ufunc_state(job.state):
            job.served()
        # Drop the job before waiting for the next one: it holds the block function,
        # whose closure holds the caller's arguments and results (kept alive until
        # the next call otherwise).
        del job


@contextlib.contextmanager
def _ufunc_state(state):
    """Run under the given ufunc settings (``ufunc_state``), then restore this thread's
    (which also undoes a block's switch to a row buffer)."""
    saved = ufunc_state()
    set_ufunc_state(state)
    try:
        yield
    finally:
        set_ufunc_state(saved)


_POOL = _Pool()


def alone() -> bool:
    """No Python thread runs beside the caller but this pool's own: a flat pass may
    hold other values in an array's elements outside the window it writes (``flat.py``,
    ``flat_updates.py``: the gaps, put back after), which another thread could read
    meanwhile (NumPy's loops let it run). A thread this module does not know of (one
    of the program's, an IPython kernel's) keeps the passes off the gaps.

    Three counts are asked, as each misses threads the others see:
    ``threading.active_count()`` only ``threading``'s own (and those it was told of;
    read without its lock, ``_threading_count``);
    ``_thread._count()`` also those started with ``_thread.start_new_thread`` (a
    program's or a library's, even one running only C code such as ``np.copyto``),
    from the moment they run; ``sys._current_frames()`` also a C extension's thread
    while it runs Python code (tests/hostile/prog_round20_shared.py
    ``raw_thread_reads_edges``). A thread started with ``_thread`` that has not begun
    to run yet is in none of them (``threading.Thread.start`` waits for that).

    A trace or profile function (``sys.settrace``, ``sys.setprofile``: a debugger, a
    profiler), a ``sys.monitoring`` tool (3.12+) and a Python signal handler are
    program code that may run between the pass's NumPy calls, in this thread: any of
    them set keeps the passes off the gaps too (``program_hooks.no_program_hooks``;
    tests/hostile/prog_round22_hooks.py). And the pool's own threads must each wait
    for a job (``_POOL.idle``): one that runs yet, after its last job, may run a
    collection's ``__del__`` or ``gc.callbacks`` function meanwhile (the pass turns
    the collector off, ``flat_direct.save_gaps``, but one under way goes on;
    tests/hostile/prog_round22_interrupts.py).

        >>> alone()
        True
        >>> _ = _thread.start_new_thread(lambda: time.sleep(0.2), ())   # (import time)
        >>> time.sleep(0.05); threading.active_count() == 1, alone()
        (True, False)
    """
    others = 1 + len(_POOL._queues)
    return (_threading_count() == others and _thread._count() + 1 == others
            and len(sys._current_frames()) == others and no_program_hooks()
            and False not in _POOL.idle)


def _threading_count() -> int:
    """``threading.active_count()`` without its ``with _active_limbo_lock:``: on 3.14 an
    interrupt right after that lock's ``__enter__`` left threading's own lock held (the
    next ``Thread.start`` anywhere in the program then hangs), which eager code, not
    calling it, never does (``interrupt_locks``). Without the lock a thread passing
    from ``_limbo`` to ``_active`` may be counted twice: ``alone`` then says no."""
    return len(threading._active) + len(threading._limbo)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_POOL.reset)


def run_blocks(block, nblocks: int, scratch: ScratchCache, threads: int) -> None:
    # blocks may switch ufunc settings (row_buffer): the caller's come back at the end,
    # read before the try and set again as the finally's first call (C calls), so that
    # no interrupt (KeyboardInterrupt) splits the two (``raising_of``)
    caller = UFUNC_GET()
    try:
        if threads <= 1 or nblocks <= 1:
            buffers = scratch.take()
            try:
                for i in range(nblocks):
                    block(i, buffers)
            finally:
                scratch.give(buffers)
            return
        helpers = _POOL.ensure(threads - 1)
        job = _Job(block, nblocks, scratch)
        try:
            for q in helpers:
                job.handed += 1            # (counted before the put: no call between)
                q.put(job)
            job.work()
        except BaseException as e:  # noqa: BLE001 (an interrupt: raised after the wait)
            if job.error is None:
                job.error = e
        finally:
            # Every pool thread handed the job is done with it before this call ends,
            # even when an interrupt arrives meanwhile (it stops the others' blocks and
            # is raised after): no pool thread writes after the call. Only attribute
            # reads and C calls between the count's test and the blocking ``get``, and
            # a wakeup taken just before an interrupt is not needed again, as
            # ``finished`` already counts its thread. The wait is written three times
            # in a row: a second interrupt pending with the first (two signals) is
            # raised at the next check, which after the first ``except:`` is the next
            # ``try:``'s ``_wait`` call, never the loop's backward jump (which the
            # wait reaches only after three interrupts in a row; flat._finish_write)
            while True:
                try:
                    _wait(job)
                    break
                except BaseException as e:  # noqa: BLE001 (raised after the wait)
                    if job.error is None:
                        job.error = e
                try:
                    _wait(job)
                    break
                except BaseException as e:  # noqa: BLE001
                    if job.error is None:
                        job.error = e
                try:
                    _wait(job)
                    break
                except BaseException as e:  # noqa: BLE001
                    if job.error is None:
                        job.error = e
            # (the block function's closure holds the caller's arrays: a pool thread
            # that has not yet let go of this job must not keep them alive)
            job.block = None
    finally:
        UFUNC_SET(caller)
    error, job.error = job.error, None   # (its traceback holds the blocks' arrays)
    if error is not None:
        try:
            raise error
        finally:
            del error, job   # no cycle through this frame: nothing waits for gc


def _wait(job: _Job) -> None:
    """Until every pool thread handed ``job`` has counted itself out (``run_blocks``;
    called inside a ``try:``, so an interrupt as it starts is caught there)."""
    while job.finished < job.handed:
        job.wakeups.get()


# --------------------------------------------------------------------------- row buffers

# Generated blocks switch between the two states of ``row_buffer`` with the context
# variable's own C method (run_blocks restores the caller's afterwards).
switch_ufunc_state = _UFUNC_STATE.set


def row_buffer(row: int):
    """(the caller's ufunc settings, the same with a buffer of one row of ``row`` elements).

    A ufunc that broadcasts a column over rows (``x - x.max(-1, keepdims=True)``,
    ``e / s``) has no inner loop over more than one row, so NumPy copies the
    column into a buffer of several rows first (its buffer: 8192 elements by
    default). With a buffer of one row it runs the loop row by row instead, on the
    operands themselves: 0.14 instead of 0.34 ns per element for a float32
    ``(87, 1000) - (87, 1)`` here. Same loop, same values: an elementwise result does
    not depend on how the loop is cut. Reductions do (a float16 sum accumulated in
    float32 is summed per buffer), so generated code switches back before them.
    The narrowed settings are cached per caller's settings (about 0.1 us a call).

        >>> wide, narrow = row_buffer(1000)
        >>> _ = set_ufunc_state(narrow); np.getbufsize()
        1008
        >>> _ = set_ufunc_state(wide); np.getbufsize()
        8192
    """
    wide = _UFUNC_STATE.get()
    try:
        return wide, _NARROWED[wide, row]
    except KeyError:
        pass
    size = -(-row // 16) * 16            # NumPy wants a multiple of 16
    narrow = wide
    if size < np.getbufsize():
        np.setbufsize(size)
        narrow = _UFUNC_STATE.get()
        _UFUNC_STATE.set(wide)
    if len(_NARROWED) >= 256:            # each `with np.errstate()` makes new settings
        _NARROWED.clear()
    _NARROWED[wide, row] = narrow
    return wide, narrow


_NARROWED: dict = {}


def rows(row: int):
    """``with rows(n):`` run the body with a ufunc buffer of one row (``row_buffer``).

    Not in generated code: its single ops on the plain path switch inside a ``try:``
    and undo the switch as the ``finally:``'s first call (``codegen``; on 3.14 an
    interrupt right after a ``with``'s ``__enter__`` skips its ``__exit__``); blocks
    switch with ``switch_ufunc_state``.
    """
    return _ufunc_state(row_buffer(row)[1])


# --------------------------------------------------------------------------- outputs

def _refs(items: list, i: int) -> int:
    return sys.getrefcount(items[i])


# The count ``_refs`` sees when nothing but the list holds the array (calibrated the
# same way, so it does not depend on the interpreter's own reference counting).
_UNSHARED = _refs([np.empty(0)], 0)


class Recycler:
    """Output arrays of one allocation site, used again once the caller has dropped them.

    A fresh 40 MB array costs the kernel's page faults and zeroing on every call
    (5 ms of a 20 ms softmax here). So this site keeps the last ``keep`` arrays it
    handed out, and ``take`` gives back one that nothing but this list refers to any
    more (no variable, container or view), unchanged in shape, strides, dtype and
    writeability; else a new one. The caller cannot tell: an array it can no longer
    reach is as good as a new one, and ``np.empty`` promises no contents. With
    ``keep=2`` the loop ``y = f(x)`` alternates two arrays (the previous ``y`` is
    alive during the call): as much memory as eager's loop holds at its peak, and
    one array more than eager after the loop, until the compiled function goes.

    Sites that stopped being called (the static variant for another input shape, a
    function no longer used) keep what they hold until all sites together hold more
    than ``RETAINED_BYTES``: then the least recently used sites let go of theirs.

    Generated code takes from a recycler only arrays the caller never gets (not
    returned, nor viewed by a returned value: ``reuse.reaches_caller``): one returned
    would be referenced by the site too (``z.resize(n)`` raises where eager's works) and,
    dropped, would outlive its weak references until the next ``take``. Off where
    reference counts cannot tell (a free-threaded CPython), and with the backend option
    ``recycle_outputs=False``.

        >>> r = Recycler((1000, 1000), np.dtype("float32"))
        >>> a = r.take(); address = a.ctypes.data
        >>> b = r.take(); b.ctypes.data == address       # a is alive: a new array
        False
        >>> del a
        >>> r.take().ctypes.data == address
        True
    """

    def __init__(self, shape: tuple, dtype: np.dtype, keep: int = 2):
        self.shape, self.dtype, self.keep = shape, dtype, keep
        self.strides = None              # those of np.empty(shape, dtype), once seen
        self._issued: list[np.ndarray] = []
        self._lock = new_lock()           # (interrupt_locks: never left held)

    def _state(self, i: int) -> str:
        if not pyversion.REFCOUNTS_TELL or _refs(self._issued, i) != _UNSHARED:
            return "held"                     # the caller may still hold it
        a = self._issued[i]
        if weakref.getweakrefcount(a):
            return "release"                  # let its weak references die now
        if a.flags.writeable and a.shape == self.shape and a.dtype == self.dtype \
                and a.strides == self.strides:
            return "free"
        return "changed"                      # the caller reshaped it, say: leave it

    def take(self) -> np.ndarray:
        # (an interrupt after ``_pick`` leaves the array in ``_issued``, unreferenced:
        # the next take finds it free)
        a, fresh = under_lock(self._lock, self._pick)
        _used(self, fresh)
        return a

    def _pick(self) -> tuple[np.ndarray, bool]:
        states = [self._state(i) for i in range(len(self._issued))]
        if "free" in states:
            a = self._issued[states.index("free")]
        else:
            a = np.empty(self.shape, self.dtype)
            self.strides = a.strides
        kept = [b for b, st in zip(self._issued, states) if st != "release" and b is not a]
        self._issued = (kept + [a])[-self.keep:]
        return a, "free" not in states

    def retained(self) -> int:
        return sum(a.nbytes for a in self._issued)

    def release(self) -> None:
        # (a new list, not ``clear``: ``Scratch.take`` reads the old one unlocked)
        under_lock(self._lock, setattr, self, "_issued", [])


# What all recyclers together may keep before the least recently used let go.
RETAINED_BYTES = 1 << 30
_RECENT: dict[int, weakref.ref] = {}     # id -> recycler, least recently used first
_RECENT_LOCK = new_lock()


def _used(recycler: Recycler, fresh: bool) -> None:
    """Mark ``recycler`` most recently used; after a new allocation, keep the budget."""
    others = under_lock(_RECENT_LOCK, _mark_used, recycler, fresh)
    if others is None:
        return
    total = sum(r.retained() for r in others)
    for r in others:                     # least recently used first; never the caller
        if total <= RETAINED_BYTES or r is recycler:
            break
        total -= r.retained()
        r.release()


def _mark_used(recycler: Recycler, fresh: bool) -> list | None:
    """``_used``'s part under ``_RECENT_LOCK``: the recyclers, least recently used
    first, after a new allocation (else None)."""
    key = id(recycler)                   # (a dead recycler's id may come back: replaced)
    _RECENT.pop(key, None)
    _RECENT[key] = weakref.ref(recycler)
    if not fresh:
        return None
    for dead in [k for k, ref in _RECENT.items() if ref() is None]:
        del _RECENT[dead]
    return [ref() for ref in _RECENT.values()]
