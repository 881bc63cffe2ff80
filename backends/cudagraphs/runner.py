"""The per-entry state machine: warm up, capture, replay (or run uncaptured).

One ``CudaGraphRunner`` is the callable a guard entry runs (what the backend returns
for one graph), so everything it holds dies with the entry: on ``dynamo.reset()``,
on recompiles that evict it, and when the compiled function goes away.

::

    WARMUP --(warmup calls done)--> CAPTURE --(recorded + audited)--> REPLAY
       |                               |                                |
       +--- any failure ---------------+------> EAGER (uncaptured,      |
                                               reason logged)           |
    REPLAY --(an input captured in place is a different array)--> CAPTURE

- **WARMUP** runs the capture function eagerly on the caller's stream, so CuPy
  compiles and loads its kernels and cuBLAS picks its algorithms before recording.
  (It runs on the caller's stream rather than a private one because its outputs go
  back to the caller, and CuPy's pool reuses a freed block on the stream that
  allocated it.)
- **CAPTURE** makes the static inputs, records the function on a private stream
  into a private memory pool, audits the recorded graph (no host copies, no host
  callbacks), instantiates it, works out the output rule (:mod:`.outputs`) and
  replays once.
  *Static inputs*: an input that was the very same array object on every warm-up
  call and this one (model weights, usually) is captured in place: no buffer, no
  copy. Every other input gets a buffer with the input's exact layout.
- **REPLAY**: copy each input into its static buffer, one span ``memcpy`` (skipped
  when the caller passes the static buffer itself), launch the graph on the
  caller's current stream, return fresh outputs. A stream switch makes the new
  stream wait for the old one, since both use the same static buffers.
- **EAGER**: the uncaptured function, forever for this entry.

The runner talks to the GPU only through a *device* object (:mod:`.device` for
CuPy, :mod:`.hostsim` for the CPU tests), so this file is testable without a GPU.

Example::

    >>> run = CudaGraphRunner(capture_fn, eager_fn, CupyDevice(), name="mlp")
    >>> run(x1, w)       # warm-up
    >>> run(x2, w)       # capture (w captured in place: same object twice)
    >>> run(x3, w)       # replay: one memcpy for x3, one launch, one copy out
    >>> run.state
    'replay'
"""

from __future__ import annotations

import threading
import weakref

from dynamo import logs

from .layout import span
from .outputs import CaptureRejected, OutputPlan

log = logs.get("cudagraphs")

WARMUP, CAPTURE, REPLAY, EAGER = "warmup", "capture", "replay", "eager"


class _Held:
    """What a recording refers to; released together, after the GPU is done with it."""

    def __init__(self, device):
        self.device = device
        self.graph = None
        self.statics: list = []
        self.outs = None
        self.pool = None
        self.blas = None
        self.private = None
        self.last_stream = None

    def drop_recording(self) -> None:
        if self.last_stream is not None:
            self.device.synchronize(self.last_stream)   # replays in flight still read them
        self.graph = self.outs = None
        self.statics = []

    def release(self) -> None:
        try:
            self.drop_recording()
            if self.blas is not None:
                self.blas.close()
            if self.pool is not None:
                self.device.free_pool(self.pool)
        except Exception as e:  # noqa: BLE001 (runs from the garbage collector: never raise)
            log.debug("releasing a CUDA graph failed: %s: %s", type(e).__name__, e)
        self.blas = self.pool = self.private = self.last_stream = None


class CudaGraphRunner:
    """Run ``capture_fn(*arrays) -> tuple`` as a replayed CUDA graph; see the module doc.

    ``eager_fn`` computes the same thing uncaptured (the fallback). Arguments that
    are not arrays (the values of symbolic sizes) are part of the recording: a call
    with other values runs uncaptured (:class:`PerShapeRunner` keeps one runner per
    value). Options: ``warmup`` eager calls before capturing (>= 0), ``pin_inputs``
    (capture inputs that stay the same object in place), ``check_layout`` (compare
    shapes and strides per call, for callers whose guards do not pin them),
    ``needs_blas`` (the graph has GEMMs:
    open a cuBLAS handle of our own), ``workspace`` (its cuBLAS workspace, bytes),
    ``max_recaptures``.
    """

    def __init__(self, capture_fn, eager_fn, device, *, name: str = "graph", warmup: int = 1,
                 pin_inputs: bool = True, check_layout: bool = False, needs_blas: bool = False,
                 workspace: int | None = None, max_recaptures: int = 4, audit: bool = True):
        self.name = name
        self._capture_fn, self._eager_fn, self._device = capture_fn, eager_fn, device
        self._n_warmup, self._pin_inputs = int(warmup), bool(pin_inputs)
        self._check_layout, self._needs_blas = bool(check_layout), bool(needs_blas)
        self._workspace, self._max_recaptures, self._audit = workspace, max_recaptures, audit
        self._lock = threading.Lock()
        self._held = _Held(device)
        self._finalizer = weakref.finalize(self, self._held.release)
        self._finalizer.atexit = False
        self._seen: list[tuple] = []        # the warm-up calls' arguments (identity only)
        self._copies: list[tuple] = []      # (index, buffer, dst, lo, nbytes, layout)
        self._pinned: list[tuple] = []      # (index, the array captured in place)
        self._fixed: list[tuple] = []       # (index, value) of non-array inputs (sizes)
        self._outputs: OutputPlan | None = None
        self._stream_key = None
        self.state = WARMUP if self._n_warmup > 0 else CAPTURE
        self.reason: str | None = None      # why the runner is EAGER
        self.replays = self.input_copies = self.copies_skipped = self.recaptures = 0

    def __call__(self, *args):
        with self._lock:
            if self.state == REPLAY:
                return self._replay(args)
            if self.state == WARMUP:
                return self._warmup(args)
            if self.state == CAPTURE:
                return self._capture(args)
            return self._eager_fn(*args)

    # ----------------------------------------------------------------- states
    def _warmup(self, args: tuple):
        dev = self._device
        try:
            if self._needs_blas and self._held.blas is None:
                self._held.blas = dev.open_blas(self._workspace)
            outs = dev.run(dev.current_stream(), self._held.blas, self._capture_fn, args)
        except Exception as e:  # noqa: BLE001 (the eager path decides what the user sees)
            return self._give_up(args, f"warm-up failed: {type(e).__name__}: {e}")
        self._seen.append(args)
        if len(self._seen) >= self._n_warmup:
            self.state = CAPTURE
        return outs

    def _capture(self, args: tuple, keep: set | None = None):
        dev, held = self._device, self._held
        caller = dev.current_stream()
        pinned = self._pinned_indices(args) if keep is None else keep
        self._seen = []
        statics, self._copies, self._pinned, self._fixed = [], [], [], []
        try:
            for i, x in enumerate(args):
                statics.append(self._static_input(i, x, i in pinned, caller))
            if self._needs_blas and held.blas is None:
                held.blas = dev.open_blas(self._workspace)
            if held.pool is None:
                held.pool, held.private = dev.new_pool(), dev.new_stream()
            graph, outs, private_bases = dev.capture(held.private, caller, held.pool, held.blas,
                                                     self._capture_fn, statics)
            problems = dev.audit(graph) if self._audit else []
            if problems:
                raise CaptureRejected("; ".join(problems))
            dev.instantiate(graph)
            self._outputs = OutputPlan.analyze(outs, statics, private_bases, dev)
        except Exception as e:  # noqa: BLE001 (never fatal: run uncaptured, say why)
            self._copies, self._pinned, self._fixed = [], [], []
            return self._give_up(args, f"capture failed: {type(e).__name__}: {e}")
        held.graph, held.statics, held.outs = graph, statics, outs
        held.last_stream, self._stream_key = caller, dev.stream_key(caller)
        self.state = REPLAY
        log.debug("%s: captured (%d inputs copied per call, %d captured in place; outputs: %s)",
                  self.name, len(self._copies), len(self._pinned),
                  ", ".join(self._outputs.describe()))
        dev.launch(graph, caller)
        self.replays += 1
        return self._outputs.build(args, caller)

    def _replay(self, args: tuple):
        dev = self._device
        stream = dev.current_stream()
        key = dev.stream_key(stream)
        if key != self._stream_key:
            dev.join(stream, self._held.last_stream)
            self._held.last_stream, self._stream_key = stream, key
        for i, obj in self._pinned:
            if args[i] is not obj:
                return self._recapture(args, f"input {i} is not the array captured in place")
        for i, value in self._fixed:
            if args[i] != value:
                return self._uncaptured_call(args, f"input {i} is {args[i]!r}, recorded "
                                             f"with {value!r}")
        address, memcpy = dev.address, dev.memcpy
        for i, buf, dst, lo, nbytes, layout in self._copies:
            x = args[i]
            if x is buf:
                self.copies_skipped += 1
                continue
            if self._check_layout and (x.shape, x.strides) != layout:
                return self._uncaptured_call(args, f"input {i} has shape/strides "
                                             f"{(x.shape, x.strides)}, recorded {layout}")
            if nbytes:
                memcpy(dst, address(x) + lo, nbytes, stream)
            self.input_copies += 1
        dev.launch(self._held.graph, stream)
        self.replays += 1
        return self._outputs.build(args, stream)

    def _static_input(self, i: int, x, pinned: bool, caller):
        """What the recording reads for argument ``i``, filled with this call's value."""
        dev = self._device
        if not dev.is_array(x):              # a symbolic size's value: part of the recording
            self._fixed.append((i, x))
            return x
        if pinned:
            self._pinned.append((i, x))
            return x
        buf = dev.empty_like(x)
        lo, nbytes = span(x.shape, x.strides, x.itemsize)
        dst = dev.address(buf) + lo
        if nbytes:
            dev.memcpy(dst, dev.address(x) + lo, nbytes, caller)
        self._copies.append((i, buf, dst, lo, nbytes, (x.shape, x.strides)))
        return buf

    # ----------------------------------------------------------------- transitions
    def _pinned_indices(self, args: tuple) -> set:
        if not (self._pin_inputs and self._seen):
            return set()
        return {i for i, x in enumerate(args) if self._device.is_array(x)
                and all(len(prev) > i and prev[i] is x for prev in self._seen)}

    def _recapture(self, args: tuple, why: str):
        self.recaptures += 1
        if self.recaptures > self._max_recaptures:
            return self._give_up(args, f"{why}, and {self._max_recaptures} recaptures are "
                                 "the limit")
        keep = {i for i, obj in self._pinned if args[i] is obj}
        log.debug("%s: recapturing: %s", self.name, why)
        self._held.drop_recording()
        self._outputs = None
        return self._capture(args, keep)

    def _uncaptured_call(self, args: tuple, why: str):
        log.debug("%s: this call runs uncaptured: %s", self.name, why)
        return self._eager_fn(*args)

    def _give_up(self, args: tuple, reason: str):
        self.state, self.reason = EAGER, reason
        log.debug("%s runs uncaptured: %s", self.name, reason)
        self._seen, self._outputs = [], None
        self._held.release()
        return self._eager_fn(*args)

    # ----------------------------------------------------------------- introspection
    @property
    def static_inputs(self) -> list:
        """The arrays the recording reads; pass one back as its argument to skip its copy."""
        return list(self._held.statics)

    def close(self) -> None:
        """Free the recording and its buffers now (it would be on garbage collection)."""
        with self._lock:
            self.state, self.reason = EAGER, "closed"
            self._copies, self._pinned, self._fixed, self._outputs = [], [], [], None
            self._seen = []
            self._finalizer()

    def __repr__(self) -> str:
        extra = f": {self.reason}" if self.reason else ""
        return f"<CudaGraphRunner {self.name} {self.state}{extra}>"


class PerShapeRunner:
    """A dynamic-shape entry: one :class:`CudaGraphRunner` per input layout seen.

    A recording holds one set of sizes, but an entry with symbolic sizes serves many.
    Calls are keyed by every array input's shape and strides and every other input's
    value; each key gets its own runner (its own warm-up, recording and buffers), the
    ``max_sizes`` most recently used are kept and the older ones freed. A size seen
    only once (a decode loop's growing length) never gets past its warm-up call.

    Example::

        >>> run = PerShapeRunner(lambda key: CudaGraphRunner(fn, fn, dev), max_sizes=8)
        >>> run(x_5x4); run(x_6x4)        # two runners
    """

    def __init__(self, make_runner, max_sizes: int = 8, name: str = "graph"):
        self._make, self._max, self.name = make_runner, max(1, int(max_sizes)), name
        self.runners: dict = {}           # insertion order = least recently used first
        self.evicted = 0

    def __call__(self, *args):
        key = tuple((a.shape, a.strides) if hasattr(a, "strides") else a for a in args)
        runner = self.runners.pop(key, None)
        if runner is None:
            runner = self._make(key)
            if len(self.runners) >= self._max:
                oldest = next(iter(self.runners))
                self.runners.pop(oldest).close()
                self.evicted += 1
                log.debug("%s: more than %d sizes; freed the recording for %s", self.name,
                          self._max, oldest)
        self.runners[key] = runner
        return runner(*args)

    def close(self) -> None:
        for runner in self.runners.values():
            runner.close()
        self.runners.clear()

    def __repr__(self) -> str:
        return f"<PerShapeRunner {self.name}: {len(self.runners)} sizes>"
