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
import os
import queue
import sys
import threading
import weakref

import numpy as np

from dynamo import pyversion
from dynamo.ops.errstate import UFUNC_STATE as _UFUNC_STATE  # None on NumPy 1.x
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
from .warning_display import warnings_never_raise


class ScratchCache:
    """Scratch buffer sets of one group, reused across calls (one set per thread)."""

    def __init__(self, spec: list[tuple]):
        self.spec = spec                       # [(shape, dtype), ...]
        self._free: list[list[np.ndarray]] = []

    def take(self) -> list[np.ndarray]:
        try:
            return self._free.pop()            # list.pop is atomic: safe across threads
        except IndexError:
            return [np.empty(shape, dtype) for shape, dtype in self.spec]

    def give(self, buffers: list[np.ndarray]) -> None:
        self._free.append(buffers)


class _Job:
    def __init__(self, block, nblocks: int, scratch: ScratchCache, parties: int):
        self.block, self.nblocks, self.scratch = block, nblocks, scratch
        self.counter = itertools.count()
        self.error: BaseException | None = None
        self.state = ufunc_state()
        self._left = parties
        self._lock = threading.Lock()
        self.done = threading.Event()

    def work(self) -> None:
        buffers = self.scratch.take()
        try:
            for i in iter(self.counter.__next__, None):   # next() on a count is atomic
                if i >= self.nblocks or self.error is not None:
                    break
                self.block(i, buffers)
        except BaseException as e:  # noqa: BLE001 (re-raised by the caller)
            self.error = e
        finally:
            self.scratch.give(buffers)
            with self._lock:
                self._left -= 1
                if self._left == 0:
                    # every party is done with the block function (its closure holds
                    # the caller's arrays): a pool thread that has not yet let go of
                    # this job must not keep them alive after the call returns
                    self.block = None
                    self.done.set()


class _Pool:
    """Daemon threads that each take jobs from their own queue."""

    def __init__(self) -> None:
        self._queues: list[queue.SimpleQueue] = []
        # per thread: True while it waits for a job in ``q.get()`` (``_serve``)
        self.idle: list[bool] = []
        self._lock = threading.Lock()

    def ensure(self, n: int) -> list[queue.SimpleQueue]:
        with self._lock:
            while len(self._queues) < n:
                q: queue.SimpleQueue = queue.SimpleQueue()
                self.idle.append(False)
                t = threading.Thread(target=_serve, args=(q, self.idle, len(self._queues)),
                                     daemon=True,
                                     name=f"dynamo-numpy-{len(self._queues)}")
                t.start()
                self._queues.append(q)
            return self._queues[:n]

    def reset(self) -> None:  # in a forked child the threads do not exist
        self._queues = []
        self.idle = []
        self._lock = threading.Lock()


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
            job.work()
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
    ``threading.active_count()`` only ``threading``'s own (and those it was told of);
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
    return (threading.active_count() == others and _thread._count() + 1 == others
            and len(sys._current_frames()) == others and no_program_hooks()
            and False not in _POOL.idle)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_POOL.reset)


def run_blocks(block, nblocks: int, scratch: ScratchCache, threads: int) -> None:
    # blocks may switch ufunc settings (row_buffer): the caller's come back at the end
    with _ufunc_state(ufunc_state()):
        if threads <= 1 or nblocks <= 1:
            buffers = scratch.take()
            try:
                for i in range(nblocks):
                    block(i, buffers)
            finally:
                scratch.give(buffers)
            return
        helpers = _POOL.ensure(threads - 1)
        job = _Job(block, nblocks, scratch, threads)
        for q in helpers:
            q.put(job)
        job.work()
        job.done.wait()
    error, job.error = job.error, None   # (its traceback holds the blocks' arrays)
    if error is not None:
        try:
            raise error
        finally:
            del error, job   # no cycle through this frame: nothing waits for gc


# --------------------------------------------------------------------------- the guard

def guard():
    """Enter the caller's ufunc settings with every floating-point condition they make
    visible (``warn``, ``raise``, ``call``, ``print``, ``log``) set to ``raise``;
    return the token ``unguard`` takes.

    Fused code does not report conditions as eager does: a block-wise op reports
    one per block that meets it (six RuntimeWarnings, six calls of the
    ``np.seterrcall`` function, lines printed by pool threads), a strength-reduced
    op under another name, a merged op once for two. So generated code runs under
    this guard, where the first such condition raises FloatingPointError, and then
    runs the same ops again op by op, under the caller's settings, as eager does:
    every warning, call, print or exception happens once per op, in program order,
    naming eager's op. Conditions the caller ignores (underflow, by default) raise
    nothing, so the usual call costs a context-variable switch (about 0.1 us).

        >>> token = guard(); np.geterr()["divide"], np.geterr()["under"]
        ('raise', 'ignore')
        >>> unguard(token); np.geterr()["divide"]
        'warn'
    """
    if _UFUNC_STATE is None:   # NumPy 1.x: settings read and set one by one
        saved = ufunc_state()
        np.seterr(**_raising(np.geterr()))
        return saved
    state = _UFUNC_STATE.get()
    try:
        guarded = _GUARDED[state]
    except KeyError:
        guarded = _GUARDED[state] = _guarded(state)
    return _UFUNC_STATE.set(guarded)


def unguard(token) -> None:
    """Leave ``guard``: the caller's settings again."""
    if _UFUNC_STATE is None:
        set_ufunc_state(token)
    else:
        _UFUNC_STATE.reset(token)


def _raising(modes: dict) -> dict:
    return {k: "raise" if v != "ignore" else v for k, v in modes.items()}


def _guarded(state):
    """``state`` (NumPy's ufunc settings object) with its visible conditions raising."""
    if len(_GUARDED) >= 256:     # each `with np.errstate()` makes new settings
        _GUARDED.clear()
        _CALLER.clear()
    token = _UFUNC_STATE.set(state)
    try:
        modes = np.geterr()
        np.seterr(**_raising(modes))
        guarded = _UFUNC_STATE.get()
    finally:
        _UFUNC_STATE.reset(token)
    # ("call" and "log" run the caller's object, which may raise; "warn" raises when
    # a warnings filter says "error": checked per call, in ``eager_goes_on``)
    _CALLER[guarded] = state, all(v in ("ignore", "print", "warn") for v in modes.values())
    return guarded


_GUARDED: dict = {}
# guarded settings -> (the caller's, whether a condition under the caller's raises nothing)
_CALLER: dict = {}


def eager_goes_on() -> bool:
    """Whether eager's code, under the settings ``guard`` replaced, would go on after
    any floating-point condition (ignore it, print it, or warn without raising) rather
    than raise. False when unsure: not under ``guard``, NumPy 1.x, a ``call``/``log``/
    ``raise`` mode, a warnings filter (or default action) that may make a
    RuntimeWarning an error or is not one the warnings module made, context-local
    warnings filters, or a way of showing a warning that is not the warnings
    module's own (``_stock_display``).

    A group that writes its value straight into the array a ``setitem`` of it writes
    (``flat.py``) asks this first: when the fused code then raises under the guard,
    eager would have warned and written the same values, whereas where eager raises,
    the array must be left as it was (which writing straight into it cannot undo).

        >>> token = guard(); eager_goes_on()          # NumPy's defaults: warn, ignore
        True
        >>> warnings.showwarning = print_and_raise    # the program shows warnings its way
        >>> eager_goes_on()
        False
        >>> unguard(token); eager_goes_on()           # not under the guard
        False
    """
    if _UFUNC_STATE is None or not _CALLER.get(_UFUNC_STATE.get(), (None, False))[1]:
        return False
    return warnings_never_raise()


def reports_run_no_program_code() -> bool:
    """A floating-point condition that an op meets now, under the caller's own settings
    (not under ``guard``), runs none of the program's code while the op runs: no mode is
    ``call`` or ``log`` (np.seterrcall's function or object), and where one is ``warn``,
    the warning is filtered and shown the warnings module's own way
    (``warnings_never_raise``: no ``showwarning``, ``formatwarning``, ``sys.stderr`` or
    filter matcher of the program's). An in-place update that holds other values in its
    array's elements outside the window while its op runs (``flat_updates.py``: the
    gaps) asks this, as such code could read them meanwhile
    (tests/hostile/prog_round21_flat.py ``edges_seen_by_*``).

        >>> reports_run_no_program_code()                 # NumPy's defaults
        True
        >>> with np.errstate(divide="call"):
        ...     reports_run_no_program_code()
        False
    """
    state = _UFUNC_STATE.get() if _UFUNC_STATE is not None else None
    reports = _REPORTS.get(state) if state is not None else None
    if reports is None:
        modes = set(np.geterr().values())
        reports = "code" if modes & {"call", "log"} else "warn" if "warn" in modes else ""
        if state is not None:
            if len(_REPORTS) >= 256:     # each `with np.errstate()` makes new settings
                _REPORTS.clear()
            _REPORTS[state] = reports
    return not reports or reports == "warn" and warnings_never_raise()


# the caller's ufunc settings -> "code" (a mode is call or log), "warn" (one warns), ""
_REPORTS: dict = {}


def as_caller(fn, *args):
    """``fn(*args)`` under the settings ``guard`` replaced (the caller's own), in the
    middle of guarded code: eager's warnings and prints, where eager has them."""
    caller = _CALLER.get(_UFUNC_STATE.get(), (None,))[0] if _UFUNC_STATE else None
    if caller is None:
        return fn(*args)
    token = _UFUNC_STATE.set(caller)
    try:
        return fn(*args)
    finally:
        _UFUNC_STATE.reset(token)


# --------------------------------------------------------------------------- row buffers

ROW_BUFFERS = _UFUNC_STATE is not None

# Generated blocks switch between the two states of ``row_buffer`` with the context
# variable's own C method (run_blocks restores the caller's afterwards).
switch_ufunc_state = _UFUNC_STATE.set if ROW_BUFFERS else None


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

    For single ops on the plain path; blocks switch with ``switch_ufunc_state``.
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

    What the caller can see: a dropped array that has a weak reference (or a
    ``weakref.finalize``) is released at this site's next ``take``, not at once.
    Off where reference counts cannot tell (a free-threaded CPython), and with the
    backend option ``recycle_outputs=False``.

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
        self._lock = threading.Lock()

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
        with self._lock:
            states = [self._state(i) for i in range(len(self._issued))]
            if "free" in states:
                a = self._issued[states.index("free")]
            else:
                a = np.empty(self.shape, self.dtype)
                self.strides = a.strides
            kept = [b for b, st in zip(self._issued, states) if st != "release" and b is not a]
            self._issued = (kept + [a])[-self.keep:]
        _used(self, fresh="free" not in states)
        return a

    def retained(self) -> int:
        return sum(a.nbytes for a in self._issued)

    def release(self) -> None:
        with self._lock:
            self._issued = []


# What all recyclers together may keep before the least recently used let go.
RETAINED_BYTES = 1 << 30
_RECENT: dict[int, weakref.ref] = {}     # id -> recycler, least recently used first
_RECENT_LOCK = threading.Lock()


def _used(recycler: Recycler, fresh: bool) -> None:
    """Mark ``recycler`` most recently used; after a new allocation, keep the budget."""
    with _RECENT_LOCK:
        key = id(recycler)               # (a dead recycler's id may come back: replaced)
        _RECENT.pop(key, None)
        _RECENT[key] = weakref.ref(recycler)
        if not fresh:
            return
        for dead in [k for k, ref in _RECENT.items() if ref() is None]:
            del _RECENT[dead]
        others = [ref() for ref in _RECENT.values()]
    total = sum(r.retained() for r in others)
    for r in others:                     # least recently used first; never the caller
        if total <= RETAINED_BYTES or r is recycler:
            break
        total -= r.retained()
        r.release()
