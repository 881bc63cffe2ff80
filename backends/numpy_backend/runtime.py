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
"""

from __future__ import annotations

import itertools
import os
import queue
import threading

import numpy as np


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
        self.errstate = {**np.geterr(), "call": np.geterrcall()}
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
                    self.done.set()


class _Pool:
    """Daemon threads that each take jobs from their own queue."""

    def __init__(self) -> None:
        self._queues: list[queue.SimpleQueue] = []
        self._lock = threading.Lock()

    def ensure(self, n: int) -> list[queue.SimpleQueue]:
        with self._lock:
            while len(self._queues) < n:
                q: queue.SimpleQueue = queue.SimpleQueue()
                t = threading.Thread(target=_serve, args=(q,), daemon=True,
                                     name=f"dynamo-numpy-{len(self._queues)}")
                t.start()
                self._queues.append(q)
            return self._queues[:n]

    def reset(self) -> None:  # in a forked child the threads do not exist
        self._queues = []
        self._lock = threading.Lock()


def _serve(q: queue.SimpleQueue) -> None:
    while True:
        job = q.get()
        with np.errstate(**job.errstate):
            job.work()


_POOL = _Pool()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_POOL.reset)


def run_blocks(block, nblocks: int, scratch: ScratchCache, threads: int) -> None:
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
    if job.error is not None:
        raise job.error


# --------------------------------------------------------------------------- reductions

def finish_partial(target: str, partials: np.ndarray, shape: tuple, scalar: bool):
    """Combine per-block results of a full reduction (not ``mean``) into eager's value."""
    combine = {"sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum,
               "any": np.logical_or, "all": np.logical_and}[target]
    total = combine.reduce(partials, dtype=partials.dtype)
    if scalar:
        return total
    return np.asarray(total, dtype=partials.dtype).reshape(shape)


def mean_dtype(src: np.dtype, dtype) -> np.dtype | None:
    """The dtype ``np.mean`` sums in (NumPy's ``_mean``): float64 for integers, float32
    for float16, else the given or the input's own."""
    if dtype is not None:
        return np.dtype(dtype)
    if src.kind in "biu":
        return np.dtype("f8")
    if src == np.float16:
        return np.dtype("f4")
    return None


def finish_mean(partials: np.ndarray, count: int, src: np.dtype, dtype, shape: tuple,
                scalar: bool):
    """``np.mean`` over every axis from per-block sums, the way NumPy's ``_mean`` ends."""
    total = np.add.reduce(partials, dtype=partials.dtype)
    rcount = np.intp(count)
    half = dtype is None and src == np.float16
    if not scalar:
        ret = np.asarray(total, dtype=partials.dtype).reshape(shape)
        ret = np.true_divide(ret, rcount, out=ret, casting="unsafe", subok=False)
        return src.type(ret) if half else ret
    return src.type(total / rcount) if half else total.dtype.type(total / rcount)


def mean_exact(a: np.ndarray, axis, dtype, keepdims: bool, rcount, half: np.dtype | None):
    """``np.mean(a, axis, keepdims=keepdims)`` of an ndarray, as NumPy's ``_mean`` computes it.

    The same sum (``np.add.reduce`` with the same dtype) and the same division by the
    same ``np.intp`` count, without the Python wrapper layers (several microseconds a
    call). ``dtype`` is the summing dtype (``mean_dtype``); ``half`` is float16 when
    the result goes back to float16; ``rcount`` must be ``np.intp`` and non-zero.
    """
    ret = np.add.reduce(a, axis, dtype, None, keepdims)
    if isinstance(ret, np.ndarray):
        ret = np.true_divide(ret, rcount, out=ret, casting="unsafe", subok=False)
        return half.type(ret) if half is not None else ret
    if half is not None:
        return half.type(ret / rcount)
    return ret.dtype.type(ret / rcount)
