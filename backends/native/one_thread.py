"""A parallel kernel's twin for one thread: the same source compiled without
``parallel=True``, for the calls that the trial or the thread-count check put on one
thread (``Tiered.threads == 1``).

A parallel kernel kept on one thread still enters Numba's parallel runtime at every
``prange`` (its scheduler, for one chunk), and needs ``numba.set_num_threads(1)``
around each call and the caller's count put back after it (``numba_calls._on_threads``, about
3 us). Compiled without ``parallel=True``, ``prange`` is a plain ``range``: Jacobi
500x500 (10 ``prange`` loops a call) took 0.886 ms against 0.938 on one thread, the
kernel alone, 60 interleaved calls each, 2026-12-05 06:04 UTC (docs/benchmarks.md).

Same results: the same statements on the same values; a ``prange``'s iterations never
depend on each other (lower.py: values that read what they write are computed whole
first; each row has its own NaN/infinity flag, stored into ``_bad`` or, in a
one-dimensional loop, added into a count (``emitter.row_flag``: an integer sum, exact
in any order); float sums are loops in NumPy's order, never ``prange`` reductions),
so running them in order changes
no value, no flag and no write into an input or a backup
(tests/backends/test_native_threads.py compares the two kernels bit for bit).

The twin is compiled when the trial starts (``Tiered._twin_pending``: the trial times
it as the one-thread candidate, race.py) or once one thread is chosen
(``Tiered.set_threads``), in the background where the kernel was, for the layouts the
parallel kernel has then; with the disk cache, right after the kernel
(``_twin_with_kernel``: loaded with it where the cache holds its machine code); it is
the only kernel compiled for them (Numba compiles nothing at call time), so a call with
another layout raises ``TypeError`` at Numba's dispatch and runs the parallel kernel on
one thread as before. With the disk cache its source is a file of its own (``twin_source``:
Numba's cache is keyed by the file and the function, not by ``parallel``, so the two
compiles of one file would take each other's machine code).

Example::

    >>> tier.set_threads(1)          # one thread kept: the twin compiles (if the trial
    ...                              # did not start it)
    >>> tier.twin.dispatcher is not None   # (at once with background=False; else
    True                                   # when its compile thread is done)
"""

from __future__ import annotations

import logging
import threading
import time

from .kernel_files import has_machine_code
from .numba_calls import _compile_signature, _on_threads

log = logging.getLogger("dynamo.backend")

# Appended to the kernel's module source: the twin's file (and so its Numba cache) is
# not the parallel kernel's.
TWIN_MARK = "\n\n# the one-thread twin: compiled without parallel=True (one_thread.py)\n"


def twin_source(source: str) -> str:
    """The module source the twin is compiled from."""
    return source + TWIN_MARK


class Twin:
    """The one-thread twin of one ``Tiered`` kernel: ``dispatcher`` (None until
    compiled), ``started`` (a compile was asked for), ``error`` (why it failed)."""

    def __init__(self):
        self.dispatcher = None
        self.started = False
        self.error: BaseException | None = None
        self._lock = threading.Lock()

    def start(self, make, signatures: list, name: str, background: bool) -> None:
        """Compile the twin once: ``make()`` returns a Numba dispatcher of the twin's
        source (compiling disabled after), compiled here for ``signatures`` (the
        parallel kernel's), in a daemon thread when ``background``."""
        with self._lock:
            if self.started or not signatures:
                return
            self.started = True
        if background:
            threading.Thread(target=self._compile, args=(make, signatures, name),
                             name=f"dynamo-native-{name}-one-thread", daemon=True).start()
        else:
            self._compile(make, signatures, name)

    def compiling(self) -> bool:
        """Whether its compile was started and has not ended."""
        return self.started and self.dispatcher is None and self.error is None

    def _compile(self, make, signatures: list, name: str) -> None:
        start = time.perf_counter()
        try:
            dispatcher = make(signatures)
        except Exception as e:   # the parallel kernel on one thread keeps serving
            self.error = e
            log.info("native tier: graph %s's one-thread kernel did not compile (%s: %s); "
                     "its parallel kernel runs on one thread", name, type(e).__name__,
                     str(e).splitlines()[0][:200] if str(e) else "")
            return
        self.dispatcher = dispatcher   # (one store: callers see None or the whole twin)
        log.info("native tier: graph %s's one-thread kernel ready in %.0f ms", name,
                 (time.perf_counter() - start) * 1e3)

    def call(self, dispatcher, args, extra, on_threads):
        """The kernel's result on one thread: the twin's where it has these layouts,
        else ``on_threads(1, dispatcher, args, extra)`` (the parallel kernel)."""
        twin = self.dispatcher
        if twin is not None:
            try:
                return twin(*args, *extra)
            except TypeError:   # Numba's dispatch: the twin has no kernel for these layouts
                pass
        return on_threads(1, dispatcher, args, extra)


class OneThreadCalls:
    """What ``tier.Tiered`` does with its twin (a mixin: it reads the tier's
    ``twin``, ``kernel``, ``settings``, ``name``, ``_dispatcher``, ``_make_dispatcher``
    and ``_in_child``): the one-thread calls, the twin's compile and what the race
    waits for."""

    def set_threads(self, threads: int | None) -> None:
        """Run the parallel kernel on ``threads`` from now on (None: Numba's count, 1:
        one thread); on one thread by its twin compiled without ``parallel=True``
        (one_thread.py), compiled now (in the background where the kernel was) for the
        layouts the kernel has: until it is ready, the kernel itself on one thread."""
        self.threads = threads
        if threads == 1 and not self.twin.started:
            self._start_twin()

    def _one_thread(self, args, extra):
        """The kernel's call on one thread: by the twin once it is compiled."""
        if not self.twin.started:
            self._start_twin()
        return self.twin.call(self._dispatcher, args, extra, _on_threads)

    def _one_thread_name(self) -> str:
        """What the trial's one-thread calls ran, for the log."""
        return "one thread (its twin)" if self.twin.dispatcher is not None else \
            "one thread (the parallel kernel)"

    def _twin_pending(self) -> bool:
        """Whether the trial waits for the twin: a parallel kernel's one-thread calls
        (``native1``, or every call where Numba has one thread) are timed on the twin,
        the kernel that runs them once one thread is kept, so its compile starts with
        the trial (in the background where the kernel was) and the trial times nothing
        until it is done (a compile in this process holds the GIL, and the times taken
        beside it would be the compile's; with the disk cache it runs in a child).
        A twin that fails leaves the parallel kernel on one thread, as it then runs."""
        if not self.kernel.parallel:
            return False
        if not self.twin.started:
            self._start_twin()
        return self.twin.compiling()

    def _twin_in_child(self) -> bool:
        """Whether the twin's compile runs in a child process (the disk cache, in the
        background: ``Tiered._in_child``), off this process's GIL, so that calls timed
        meanwhile are fair (race.early_label); in this process it holds the GIL."""
        s = self.settings
        return s.cache_dir is not None and s.background and s.compile_process

    def _twin_with_kernel(self) -> None:
        """With the disk cache, a parallel kernel's twin is made right after the kernel,
        in the kernel's compile (its thread, where it had one): loaded there when the
        cache holds its machine code (about 11 ms once Numba is set up), so that the
        race, which times the twin from its first one-thread call (``_twin_pending``),
        starts at the second call of a new process instead of waiting; compiled in the
        background otherwise, which fills the cache for the next process. Before, only
        the race started it: a process that never raced (``prefer="native"``) left it
        out of the cache, and each new process's race waited seconds for its compile
        (11.8 s for Jacobi at load 7), tier 1 answering; one that ended first left it
        out again (0 of 60 calls in tier 2, 2026-12-07, docs/benchmarks.md)."""
        if not self.kernel.parallel or self.settings.cache_dir is None or \
                self._dispatcher is None or self.twin.started:
            return
        cached = has_machine_code(twin_source(self.__dynamo_native_source__),
                                  self.settings.cache_dir)
        self.twin.start(self._make_twin, list(self._dispatcher.signatures), self.name,
                        self.settings.background and not cached)

    def _start_twin(self) -> None:
        if self._dispatcher is not None:
            self.twin.start(self._make_twin, list(self._dispatcher.signatures),
                            self.name, self.settings.background)

    def _make_twin(self, signatures: list):
        import numba
        twin = self._make_dispatcher(numba, twin=True)
        for sig in signatures:
            self._in_child(True, tuple(sig))
            _compile_signature(numba, twin, tuple(sig))
        return twin
