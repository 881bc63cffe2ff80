"""A host simulation of the device layer, on NumPy arrays, for testing without a GPU.

It keeps the two properties of a CUDA graph the runner's correctness depends on:

- a recording reads its inputs and writes its outputs at fixed addresses: ``launch``
  re-runs the recorded function on the *same static input arrays* and writes the
  results into the *same output buffers* the recording returned (so a runner that
  handed those buffers out would see them overwritten, as on a GPU);
- recording executes nothing: ``capture`` calls the function once to learn its
  outputs, then poisons every output buffer with NaN/garbage bytes, so a runner that
  forgot to launch after capturing returns garbage here too.

Copies go through real addresses (``ctypes.memmove``), so span arithmetic and
offsets are exercised byte for byte. Streams are plain objects; the simulation is
synchronous, so it cannot find stream-ordering bugs (the GPU tests do that).
It records every call in ``events`` for the tests to assert on.

Example::

    >>> dev = HostDevice()
    >>> run = CudaGraphRunner(fn, fn, dev, name="t")
    >>> run(x); run(x2); run(x3)
    >>> [e[0] for e in dev.events].count("launch")
    2
"""

from __future__ import annotations

import ctypes

import numpy as np


class HostStream:
    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"<HostStream {self.name}>"


class HostGraph:
    def __init__(self, fn, statics: list, outs: tuple, private: set):
        self.fn, self.statics, self.outs, self.private = fn, statics, outs, private
        self.ready = False                  # instantiated


class HostDevice:
    """The device interface of :class:`~backends.cudagraphs.runner.CudaGraphRunner` on NumPy."""

    def __init__(self, fail_capture: Exception | None = None, audit_problems=()):
        self.events: list[tuple] = []
        self.stream = HostStream("default")
        self.fail_capture = fail_capture        # raise this from capture (tests)
        self.audit_problems = list(audit_problems)
        self.pools_freed = 0

    # ------------------------------------------------------------- streams
    def current_stream(self):
        return self.stream

    def stream_key(self, stream):
        return id(stream)

    def new_stream(self):
        return HostStream("private")

    def join(self, waiter, producer) -> None:
        self.events.append(("join", waiter, producer))

    def synchronize(self, stream) -> None:
        self.events.append(("sync", stream))

    # ------------------------------------------------------------- memory
    def is_array(self, x) -> bool:
        return isinstance(x, np.ndarray)

    def address(self, x) -> int:
        return x.__array_interface__["data"][0]

    def allocation(self, x) -> tuple[int, int]:
        root = x
        while isinstance(root.base, np.ndarray):
            root = root.base
        return self.address(root), root.nbytes

    def empty_like(self, x):
        from .layout import span
        lo, nbytes = span(x.shape, x.strides, x.itemsize)
        raw = np.empty(max(nbytes, 1), np.uint8)
        return np.ndarray(x.shape, x.dtype, buffer=raw, offset=-lo, strides=x.strides)

    def memcpy(self, dst: int, src: int, nbytes: int, stream) -> None:
        self.events.append(("memcpy", nbytes))
        ctypes.memmove(dst, src, nbytes)

    def copy_out(self, base: int, size: int, stream):
        raw = np.empty(max(size, 1), np.uint8)
        ctypes.memmove(self.address(raw), base, size)
        self.events.append(("copy_out", size))
        return raw

    def view(self, raw, offset: int, shape, dtype, strides):
        return np.ndarray(shape, dtype, buffer=raw, offset=offset, strides=strides)

    def view_of(self, x, offset: int, shape, dtype, strides):
        root = x
        while isinstance(root.base, np.ndarray):
            root = root.base
        start = self.address(x) + offset - self.address(root)
        return np.ndarray(shape, dtype, buffer=root, offset=start, strides=strides)

    def empty(self, shape, dtype, strides):
        return np.empty(shape, dtype)

    def new_pool(self):
        return object()

    def free_pool(self, pool) -> None:
        self.pools_freed += 1

    # ------------------------------------------------------------- running
    def open_blas(self, workspace):
        self.events.append(("open_blas", workspace))
        return _HostBlas(self)

    def run(self, stream, blas, fn, args):
        self.events.append(("run", stream))
        return fn(*args)

    def capture(self, private, caller, pool, blas, fn, statics):
        self.events.append(("capture", private))
        if self.fail_capture is not None:
            raise self.fail_capture
        outs = fn(*statics)
        # Every output allocation that is not an input's counts as computed here (the
        # CuPy device records real allocations; constants are not told apart).
        private_bases = set()
        inputs = {self.allocation(s)[0] for s in statics if isinstance(s, np.ndarray) and s.size}
        for o in outs if isinstance(outs, (tuple, list)) else ():
            if isinstance(o, np.ndarray) and o.size and self.allocation(o)[0] not in inputs:
                private_bases.add(self.allocation(o)[0])
        graph = HostGraph(fn, statics, outs, private_bases)
        for o in _private_outputs(graph, self):
            _poison(o)
        return graph, outs, private_bases

    def audit(self, graph) -> list[str]:
        return list(self.audit_problems)

    def instantiate(self, graph: HostGraph) -> None:
        self.events.append(("instantiate",))
        graph.ready = True

    def launch(self, graph: HostGraph, stream) -> None:
        assert graph.ready, "launched before instantiate"
        self._launch(graph, stream)

    def _launch(self, graph: HostGraph, stream) -> None:
        self.events.append(("launch", stream))
        fresh = graph.fn(*graph.statics)
        written = _private_outputs(graph, self)
        for o, new in zip(graph.outs, fresh):
            if any(o is w for w in written):
                np.copyto(o, new)


def _private_outputs(graph: HostGraph, dev: HostDevice) -> list:
    return [o for o in graph.outs if isinstance(o, np.ndarray) and o.size
            and dev.allocation(o)[0] in graph.private and o.flags.writeable]


def _poison(x: np.ndarray) -> None:
    """Garbage in a recorded output: what a buffer holds before the first launch."""
    if x.dtype.kind in "fc":
        x[...] = np.nan
    elif x.dtype.kind == "b":
        x[...] = ~x
    else:
        x[...] = np.array(0x5A5A5A5A).astype(x.dtype)


class _HostBlas:
    def __init__(self, dev: HostDevice):
        self.dev = dev

    def close(self) -> None:
        self.dev.events.append(("close_blas",))
