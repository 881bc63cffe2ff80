"""The device layer on CuPy: streams, buffers, copies, stream capture, replay.

Everything the runner does on a GPU goes through one ``CupyDevice``; the CPU tests
use :mod:`.hostsim` with the same methods. Facts it relies on:

- ``cudaStreamBeginCapture`` (relaxed mode, CuPy's default) records instead of
  executing; the legacy default stream cannot record, hence a private stream. We call
  the runtime functions CuPy's ``Stream.begin_capture``/``end_capture`` wrap, because
  CuPy's ``Graph`` destroys the ``cudaGraph_t`` as soon as it is instantiated and the
  audit must read it first: ``capture`` returns a :class:`Recording`, ``audit`` reads
  its graph, ``instantiate`` makes the executable and frees the graph.
- Allocations made while recording come from a private ``MemoryPool`` that lives as
  long as the recording: the graph writes its intermediates and outputs there on
  every replay, so no one else may ever be handed that memory. Nothing from that
  pool reaches the caller (outputs are copied out, :mod:`.outputs`).
- A ``MemoryPool`` must outlive every array allocated from it, so arrays handed
  out (warm-up results, output copies, static inputs) come from the default pool.
- ``memcpyAsync`` of a span (:mod:`.layout`) moves any strided layout in one call.

Example::

    >>> dev = CupyDevice()
    >>> rec, outs, private = dev.capture(dev.new_stream(), caller, dev.new_pool(),
    ...                                  None, fn, statics)
    >>> dev.audit(rec)
    []
    >>> dev.instantiate(rec)
    >>> dev.launch(rec, caller)
"""

from __future__ import annotations

import contextlib

import cupy
from cupy.cuda import runtime

from . import audit, blas

_D2D = runtime.memcpyDeviceToDevice


class CupyDevice:
    def __init__(self):
        self._memcpy_async = runtime.memcpyAsync
        self._get_stream = cupy.cuda.get_current_stream

    # ------------------------------------------------------------- streams
    def current_stream(self):
        return self._get_stream()

    def stream_key(self, stream) -> int:
        return stream.ptr

    def new_stream(self):
        return cupy.cuda.Stream(non_blocking=True)

    def join(self, waiter, producer) -> None:
        """``waiter`` runs nothing new until all work queued so far on ``producer`` ends."""
        if producer is not None and producer.ptr != waiter.ptr:
            waiter.wait_event(producer.record())

    def synchronize(self, stream) -> None:
        stream.synchronize()

    # ------------------------------------------------------------- memory
    def is_array(self, x) -> bool:
        return isinstance(x, cupy.ndarray)

    def address(self, x) -> int:
        return x.data.ptr

    def allocation(self, x) -> tuple[int, int]:
        mem = x.data.mem
        return mem.ptr, mem.size

    def empty_like(self, x):
        """A buffer of our own with ``x``'s shape, dtype and strides (any layout)."""
        from .layout import span
        lo, nbytes = span(x.shape, x.strides, x.itemsize)
        mem = cupy.cuda.alloc(max(nbytes, 1))
        return cupy.ndarray(x.shape, x.dtype, memptr=mem - lo, strides=x.strides)

    def memcpy(self, dst: int, src: int, nbytes: int, stream) -> None:
        self._memcpy_async(dst, src, nbytes, _D2D, stream.ptr)

    def copy_out(self, base: int, size: int, stream):
        mem = cupy.cuda.alloc(size)
        self._memcpy_async(mem.ptr, base, size, _D2D, stream.ptr)
        return mem

    def view(self, mem, offset: int, shape, dtype, strides):
        return cupy.ndarray(shape, dtype, memptr=mem + offset, strides=strides)

    def view_of(self, x, offset: int, shape, dtype, strides):
        return cupy.ndarray(shape, dtype, memptr=x.data + offset, strides=strides)

    def empty(self, shape, dtype, strides):
        return cupy.ndarray(shape, dtype)

    def new_pool(self):
        return cupy.cuda.MemoryPool()

    def free_pool(self, pool) -> None:
        pool.free_all_blocks()

    # ------------------------------------------------------------- running
    def open_blas(self, workspace: int | None):
        return blas.Blas(workspace)

    def run(self, stream, gemm, fn, args):
        """Run ``fn`` now on ``stream`` (warm-up), GEMMs through our handle."""
        with stream, _gemms_on(gemm, stream):
            return fn(*args)

    def capture(self, private, caller, pool, gemm, fn, statics):
        """Record ``fn(*statics)`` on ``private`` into ``pool``; nothing executes.

        Returns the graph, the (not yet computed) outputs, and the base addresses of
        every allocation made while recording.
        """
        bases: set[int] = set()

        def malloc(size: int):
            ptr = pool.malloc(size)
            bases.add(ptr.mem.ptr)
            return ptr

        with private, cupy.cuda.using_allocator(malloc), _gemms_on(gemm, private):
            runtime.streamBeginCapture(private.ptr, runtime.streamCaptureModeRelaxed)
            try:
                outs = fn(*statics)
            except BaseException:
                with contextlib.suppress(Exception):
                    Recording(runtime.streamEndCapture(private.ptr))   # destroyed at once
                raise
            recording = Recording(runtime.streamEndCapture(private.ptr))
        return recording, outs, bases

    def audit(self, recording) -> list[str]:
        return audit.audit_graph(recording.graph)

    def instantiate(self, recording) -> None:
        recording.instantiate()

    def launch(self, recording, stream) -> None:
        runtime.graphLaunch(recording.exec, stream.ptr)


class Recording:
    """A recorded ``cudaGraph_t`` and, once instantiated, its ``cudaGraphExec_t``."""

    __slots__ = ("graph", "exec")

    def __init__(self, graph: int):
        self.graph, self.exec = graph, 0

    def instantiate(self) -> None:
        self.exec = runtime.graphInstantiate(self.graph)
        runtime.graphDestroy(self.graph)      # the executable does not need it
        self.graph = 0

    def __del__(self):
        # An executable still running when destroyed is freed when it completes.
        with contextlib.suppress(Exception):
            if self.graph:
                runtime.graphDestroy(self.graph)
            if self.exec:
                runtime.graphExecDestroy(self.exec)


@contextlib.contextmanager
def _gemms_on(gemm, stream):
    """Route matmul/dot to our cuBLAS handle, bound to ``stream``, inside the block."""
    if gemm is None:
        yield
        return
    gemm.bind(stream)
    with blas.active(gemm):
        yield
