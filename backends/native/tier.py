"""Tiering: tier 1 serves until the graph is hot, Numba compiles tier 2 in the background,
the first calls of tier 2 race tier 1, the faster stays; tier 2 slower than its race
said (watch.py) races them again (native -> trial). The calls into Numba itself (a
kernel on a count of threads, one signature's compile) are in numba_calls.py.

States (``Tiered.state``)::

    counting --(after_calls calls or after_ms ms)--> compiling --> trial --> native
                                                          |                  \\-> tier1
                                                          \\-> failed (stays tier 1)

``Tiered.__call__`` reads one attribute (``self._run``) and calls it: the swap from one
state's function to the next is one attribute store, atomic for concurrent callers (a
caller that read the old function finishes with it; both are correct).

A tier-2 call falls back to tier 1 (for that call only) when NumPy's error state is
not the default one, when an input's layout has no compiled kernel yet (one is then
compiled in the background), when inputs that the kernel writes overlap, or when the
kernel flags a NaN or infinity NumPy would have reported: then the inputs it wrote are
restored from the backup the kernel took of each part at its first write (saves.py; an
input whose old contents no call reads has none while the rerun cannot raise, where
such inputs hold ``FREE_MIN_BYTES`` or more: ``saves.free_inputs``,
``error_state.rerun_completes``), the
random states its draws consumed are put back (draws.py), and tier 1 runs, warning as
eager does.

Example::

    >>> fn = Tiered(kernel, tier1, Settings(after_calls=2, background=False), "g0")
    >>> fn(x); fn(x); fn.state           # the second call compiled tier 2
    'trial'
"""

from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass

import numpy as np

from dynamo.source import compile_source

from .call_helpers import c_ordered, call_helpers, fast_native, written_check
from .child_compile import CompileTimeout, compile_in_child
from .draws import restore_states, save_states
from .error_state import default_errstate, rerun_completes
from .kernel_files import cache_path, has_machine_code, module_from_file, module_source
from .lower import Kernel
from .nopython_draws import draws_match, locked
from .numba_calls import _PARALLEL_LOCK, _compile_signature, _threads_now
from .one_thread import OneThreadCalls, Twin, twin_source
from .race import WAIT, best, choose, next_label
from .saves import mark_saved, new_savers, restore
from .threads import ThreadChoice
from .watch import Watch, watch_after_race

log = logging.getLogger("dynamo.backend")


@dataclass(frozen=True)
class Settings:
    after_calls: int = 10
    after_ms: float = 50.0
    background: bool = True
    prefer: str = "measure"          # "measure" | "native" | "tier1"
    trial_calls: int = 3
    numba_draws: bool = True         # False: draws are NumPy calls (nopython_draws.py)
    cache_dir: str | None = None     # None: compile in memory, no disk cache
    cache_load: str = "auto"         # "auto" | "first_call" | "background": _load_wait
    max_kernel_lines: int = 1500     # longer kernels are not compiled (compile_cost.py)
    compile_process: bool = True     # with a disk cache and background: Numba compiles
                                     # in a child process (child_compile.py)
    compile_timeout_s: float = 600.0   # the child killed after it (0: no limit); the
                                       # graph stays in tier 1


# Set once a kernel was compiled or loaded in this process: Numba is imported and its
# compiler's registries are filled (0.6-0.8 s of CPU the first time, most of the time a
# cached kernel takes to load in a new process); loading another cached kernel then
# costs 11-14 ms of CPU (2026-12-04), little enough for the first call to wait for it.
NUMBA_SET_UP = threading.Event()
# How long the first call of a graph whose kernel is in the disk cache waits for its
# load once Numba is set up (``Tiered._load_wait``): a load takes 11-14 ms of CPU,
# 30-110 ms of wall time at load 10 on 2 cores; a miss (a compile) waits no longer.
AUTO_WAIT_S = 0.25
# How long the second call waits for the process's first load from the disk cache
# (``Tiered._second_call_waits``): 0.6-0.8 s of CPU, 1.5-3.5 s of wall time at load 10
# on 2 cores (2026-12-04); past this bound the call runs in tier 1 and the load goes on.
FIRST_LOAD_WAIT_S = 10.0
# The written inputs whose backups a call may skip (``saves.free_inputs``) are skipped
# only when they hold at least this many bytes together: the skip needs
# ``rerun_completes`` and ``mark_saved`` on every call (about 2 us), and the backups
# cost less than that below it. Jacobi, one thread, B backed up against B free, kernel
# alone (2026-12-04, 2 shared cores): 96x96 (72 KiB) 30.8/30.2 us, 128x128 (128 KiB)
# 54.3/53.0, 180x180 (253 KiB, parallel) 108.1/99.9, 256x256 123.7/117.6.
FREE_MIN_BYTES = 1 << 17

class Tiered(OneThreadCalls):
    """The compiled function of one graph: tier 1, then maybe tier 2."""

    def __init__(self, kernel: Kernel, tier1, settings: Settings, name: str):
        self.kernel, self.tier1, self.settings, self.name = kernel, tier1, settings, name
        self.state = "counting"
        self.winner: str | None = None
        self.ready = threading.Event()      # set when tier 2 is compiled (or failed)
        self.decided = threading.Event()    # set when the trial chose a tier
        self.error: BaseException | None = None
        self._lock = threading.Lock()
        self._calls, self._spent = 0, 0.0
        self._dispatcher = None
        # twin -> (file, module, options) of the kernel or its twin: child_compile.py
        self._child_specs: dict[bool, tuple] = {}
        self._compiled: set = set()         # layout keys with a compiled kernel
        self._compiling: set = set()
        self._failed: set = set()           # layout keys Numba could not compile
        self._times: dict[str, list] = {"native": [], "tier1": []}
        self.native_calls = 0               # calls tier 2 answered (tests, benchmarks)
        self.threads: int | None = None     # a parallel kernel's threads (None: Numba's)
        self.thread_choice: ThreadChoice | None = None   # set by the trial (threads.py)
        self.watch: Watch | None = None     # tier 2's times after the race (watch.py)
        self.races = 0                      # races of the tiers run (tests, logs)
        self.twin = Twin()   # the kernel compiled without parallel=True (one_thread.py)
        self._spares: list = []             # backup and state arrays (saves.py), reused
                                            # (call_helpers.written_check)
        self._spare_buffers: list = []      # intermediates the kernel takes (_buffers)
        self._layout_key, self._finish = call_helpers(kernel, name)
        self._prepare = written_check(kernel, name) if kernel.writes else None
        self._free_pays = False   # skipping the free inputs' backups pays (_compile_now)
        # a kernel of arrays only: Numba's own dispatch (in C) finds the kernel for the
        # arrays' layouts, or raises TypeError (compiling at call time is disabled),
        # which costs less than ``_layout_key`` on every call; a scalar parameter could
        # be converted by it (an int where the kernel takes a float), so a kernel with
        # one checks the key first
        self._check_key = bool(kernel.scalar_params)
        self._run = self._counting if settings.prefer != "tier1" else tier1
        self.__dynamo_source__ = getattr(tier1, "__dynamo_source__", None)
        self.__dynamo_groups__ = getattr(tier1, "__dynamo_groups__", None)   # (reports)
        self.__dynamo_native_source__ = module_source(kernel)
        # a kernel another process compiled (its file is in the disk cache): loading it
        # costs little, so the graph counts as hot from its first call
        self._cached = settings.cache_dir is not None and os.path.exists(
            cache_path(self.__dynamo_native_source__, settings.cache_dir))
        self._await_load = False   # the next call waits for the load (_counting)

    def __call__(self, *args):
        return self._run(*args)

    # ----------------------------------------------------------------- tier 1, counting
    def _counting(self, *args):
        if self._await_load:
            # the call after the one that started the process's first load from the
            # disk cache: wait for it, so that tier 2 answers from the second call
            # (``!=``, not ``is not``: each read of a bound method is a new object)
            self._await_load = False
            if self.ready.wait(FIRST_LOAD_WAIT_S) and self._run != self._counting:
                return self._run(*args)
        start = time.perf_counter()
        try:
            return self.tier1(*args)
        finally:
            spent = time.perf_counter() - start
            with self._lock:
                self._calls += 1
                self._spent += spent
                hot = self._cached or self._calls >= self.settings.after_calls or \
                    self._spent * 1e3 >= self.settings.after_ms
                start_now = hot and self.state == "counting"
                if start_now:
                    self.state = "compiling"
            if start_now:
                wait = self._load_wait()
                self._compile(self._layout_key(args), args, first=True)
                if wait == 0.0:   # the next call waits instead (Numba's first setup)
                    self._await_load = self._second_call_waits()
                else:
                    self.ready.wait(wait)

    def _load_wait(self) -> float | None:
        """How long the call that found its kernel in the disk cache waits for the
        load (started in the background) before it returns, so that tier 2 answers
        from the second call: 0 (not at all) for a graph not in the cache; with
        ``cache_load="first_call"``, None (until loaded, or compiled where the cache
        holds no kernel for these inputs' types); with ``"auto"``, ``AUTO_WAIT_S``
        when Numba is set up in this process already (``NUMBA_SET_UP``: the load then
        costs about 12 ms of CPU, not the 0.6-0.8 s of Numba's import and setup,
        which would make the first call 60 to 80 times slower than tier 1's: the next
        call waits for that load instead, ``_second_call_waits``); the bound leaves a
        miss (a compile, seconds) to the background."""
        if not self._cached or not self.settings.background:
            return 0.0
        mode = self.settings.cache_load
        if mode == "first_call":
            return None
        return AUTO_WAIT_S if mode == "auto" and NUMBA_SET_UP.is_set() else 0.0

    def _second_call_waits(self) -> bool:
        """Whether the call after the one that found its kernel in the disk cache waits
        for the load (``cache_load="auto"`` where ``_load_wait`` did not: the process's
        first kernel, whose load is mostly Numba's import and setup, 0.6-0.8 s of CPU):
        only when the cache holds machine code for the kernel (Numba's index file), so
        that a miss, a compile of seconds, stays in the background. The first call stays
        as fast as tier 1's; the second waits, and tier 2 answers it. The load holds
        the GIL for most of its time, so the tier-1 calls it replaces ran slowly (200
        Jacobi calls took about as long either way); a program that would have ended
        before the load was done pays for it now (docs/native.md, "Disk cache")."""
        return self._cached and self.settings.background and \
            self.settings.cache_load == "auto" and not self.ready.is_set() and \
            has_machine_code(self.__dynamo_native_source__, self.settings.cache_dir)

    # ----------------------------------------------------------------- compiling
    def _compile(self, key, args, first: bool) -> None:
        """Compile the kernel for ``args``'s types, in a thread unless configured not to."""
        with self._lock:
            if key in self._compiling or key in self._compiled or key in self._failed:
                return
            self._compiling.add(key)
        if self.settings.background:
            thread = threading.Thread(target=self._compile_now, args=(key, args, first),
                                      name=f"dynamo-native-{self.name}", daemon=True)
            thread.start()
        else:
            self._compile_now(key, args, first)

    def _compile_now(self, key, args, first: bool) -> None:
        start = time.perf_counter()
        try:
            import numba
            if self._dispatcher is None:
                if self.kernel.nopython_draws and not (self.settings.numba_draws and
                                                       draws_match()):
                    self._use_fallback()   # Numba's draws are not NumPy's here (or not
                                           # wanted)
                self._dispatcher = self._make_dispatcher(numba)
                fast = fast_native(self, self._dispatcher)
                if fast is not None:
                    self._native = fast   # (shadows the method: see call_helpers.fast_native)
            written = [args[k] for k in self.kernel.writes]
            if first:   # (the kernel's shapes are its graph's: the same on every call)
                free = [written[i] for i in self.kernel.free_writes]
                self._free_pays = bool(free) and not self.kernel.calls_numpy and \
                    sum(w.nbytes for w in free) >= FREE_MIN_BYTES
            sig = tuple(numba.typeof(a) for a in (*args, *new_savers(written),
                                                  *self._buffers()))
            self._in_child(False, sig)
            _compile_signature(numba, self._dispatcher, sig)
            with self._lock:
                self._compiled.add(key)
                self._compiling.discard(key)
            NUMBA_SET_UP.set()
            stats = getattr(self._dispatcher, "stats", None)   # (with cache=True)
            hit = stats is not None and stats.cache_hits.get(sig, 0) > 0
            log.info("native tier: graph %s %s in %.0f ms%s", self.name,
                     "loaded from the disk cache" if hit else "compiled by Numba",
                     (time.perf_counter() - start) * 1e3,
                     "" if first else " (a new input layout)")
            if first:
                self._times = self._new_times()
                self.state = "trial" if self.settings.prefer == "measure" else "native"
                self._run = self._trial if self.settings.prefer == "measure" \
                    else self._native
                if self.settings.prefer != "measure":
                    self.winner = "native"
                    self.decided.set()
        except Exception as e:   # a kernel Numba rejects: tier 1 keeps serving
            self.error = e
            with self._lock:
                self._compiling.discard(key)
                self._failed.add(key)
            if first:
                self.state = "failed"
                self._run = self.tier1
                self.decided.set()
            if isinstance(e, CompileTimeout):   # (not compiled here either: as long)
                log.info("native tier: graph %s stays in tier 1: %s", self.name, e)
            else:
                log.info("native tier: Numba could not compile graph %s, it stays in "
                         "tier 1 (%s: %s)", self.name, type(e).__name__,
                         str(e).splitlines()[0][:200])
            log.debug("native tier: the kernel source\n%s", self.__dynamo_native_source__)
        finally:
            if first:
                self.ready.set()

    def _use_fallback(self) -> None:
        """Compile the kernel whose draws are NumPy calls (nopython_draws.py): the same
        inputs and outputs, so only the source and the helpers made from it change."""
        self.kernel = self.kernel.fallback
        self._layout_key, self._finish = call_helpers(self.kernel, self.name)
        self._prepare = written_check(self.kernel, self.name) if self.kernel.writes else None
        self.__dynamo_native_source__ = module_source(self.kernel)

    def _make_dispatcher(self, numba, twin: bool = False):
        """Numba's dispatcher of the kernel; ``twin``: of its one-thread twin
        (one_thread.py), compiled without ``parallel=True`` from a file of its own."""
        src = self.__dynamo_native_source__
        if twin:
            src = twin_source(src)
        # a kernel that calls NumPy (calls.py) holds the GIL for those calls anyway
        # (and Numba warns at compile time about object mode under nogil=True)
        options = dict(parallel=self.kernel.parallel and not twin, error_model="numpy",
                       nogil=not self.kernel.calls_numpy)
        if self.settings.cache_dir is not None:
            module = module_from_file(src, self.settings.cache_dir)
            fn = module.kernel
            options["cache"] = True
            # (what a child process needs to compile it: child_compile.py)
            self._child_specs[twin] = (module.__file__, module.__name__, dict(options))
        else:
            scope: dict = {}
            compile_source(src, f"<dynamo native kernel {self.name}>", scope)
            fn = scope["kernel"]
        return numba.njit(**options)(fn)

    # ----------------------------------------------------------------- tier 2
    def _native(self, *args):
        out = self._try_native(args)
        return self.tier1(*args) if out is None else out

    def _watched(self, *args):
        """``_native``, timed for the watch after the race (watch.py)."""
        start = time.perf_counter()
        out = self._native(*args)
        if self.watch.record(time.perf_counter() - start):
            self._race_again()
        return out

    def watch_from_now(self, watch: Watch) -> None:
        """Time tier 2's calls against ``watch`` from the next call (a race sets its
        own, from its times; tests and a ``prefer="native"`` tier pass one)."""
        with self._lock:
            if self.state == "native":
                self.watch, self._run = watch, self._watched

    def _race_again(self) -> None:
        """Tier 2's calls got slower than the race said (watch.py): race the tiers
        again, from the next call."""
        with self._lock:
            if self.state != "native" or self._run != self._watched:
                return
            log.info("native tier: graph %s: tier 2's fastest of its last %d calls took "
                     "%.3f ms, over the %.3f ms its race allows: racing the tiers again",
                     self.name, self.watch.window, self.watch.slow_low * 1e3,
                     self.watch.limit * 1e3)
            self._times = self._new_times()
            self.thread_choice = None   # (the race times both counts again)
            self.state = "trial"
            self._run = self._trial

    def _new_times(self) -> dict:
        """A race's empty record: tier 2, tier 1 and, for a parallel kernel where Numba
        has several threads, the parallel kernel on one thread."""
        times: dict[str, list] = {"native": [], "tier1": []}
        if self.kernel.parallel and _threads_now() > 1:
            times["native1"] = []
        return times

    def _try_native(self, args):
        """``_try_kernel``, holding the locks of the Generators a kernel draws from
        itself (nopython_draws.py) until a call's draws are kept or undone."""
        if self.kernel.nopython_draws:
            with locked([args[k] for k in self.kernel.generators]):
                return self._try_kernel(args)
        return self._try_kernel(args)

    def _try_kernel(self, args):
        """Tier 2's result, or None when this call must run in tier 1. (Every tier-2
        call runs this: what it checks is what the kernel cannot, each check as cheap
        as it can be; see docs/native.md, "A call in tier 2 still runs tier 1".)"""
        if not default_errstate():
            return None
        if self._check_key and self._layout_key(args) not in self._compiled:
            return self._new_layout(args)
        kernel = self.kernel
        if (kernel.fresh_ndim >= 2 or kernel.ordered_inputs) and not all(
                c_ordered(a) for a in args if type(a) is np.ndarray):
            return None   # eager's result would not be C-ordered, or its sums not
                          # in the kernel's order (reductions._need_numpy_order)
        for k in kernel.contiguous_inputs:
            if not args[k].flags.c_contiguous:
                return None
        written, savers, free = (), (), ()
        drawing = kernel.generators or kernel.global_draws
        if kernel.writes:
            prepared = self._prepare(args, self._spares)
            if prepared is None:
                return None
            written, savers = prepared
            if self._free_pays and not drawing and rerun_completes():
                free = kernel.free_writes   # their saves copy nothing (saves.free_inputs)
                mark_saved(savers, free)
        buffers = self._buffers() if kernel.buffers else ()
        extra = (*savers, *buffers) if buffers else savers
        # the random states its draws consume, put back if the call is undone (draws.py)
        drawn = save_states([args[k] for k in kernel.generators], kernel.global_draws) \
            if kernel.generators or kernel.global_draws else None
        try:
            if kernel.parallel:
                out = self._call_parallel(args, extra)
            else:
                out = self._dispatcher(*args, *extra)
        except TypeError:   # Numba's dispatch: no kernel for these layouts yet
            if savers:
                self._spares.append(savers)
            self._keep_buffers(buffers)
            if drawn is not None:   # (nothing drew if Numba's dispatch refused: a no-op)
                restore_states([args[k] for k in kernel.generators], drawn)
            return self._new_layout(args)
        except Exception:   # (not expected) tier 1 answers, with the inputs as given
            log.exception("native tier: graph %s's kernel raised", self.name)
            out = (True,)
        self._keep_buffers(buffers)
        if savers:
            if out[0]:   # a NaN or infinity eager reports: undo the writes, run tier 1
                restore(written, savers, free)
            self._spares.append(savers)
        if out[0]:
            if drawn is not None:   # tier 1 draws the same numbers again
                restore_states([args[k] for k in kernel.generators], drawn)
            return None
        self.native_calls += 1
        return self._finish(args, out)

    def _call_parallel(self, args, extra):
        """The parallel kernel's call on ``self.threads``; when the count is due to be
        checked again (``threads.ThreadChoice``, set by the trial when it raced both
        counts), this call is timed on the kept count or on the other one."""
        choice = self.thread_choice
        with _PARALLEL_LOCK:
            if choice is None or not choice.due(time.perf_counter()) or \
                    self.twin.compiling():
                # (no check while the twin compiles: the compile holds the GIL for
                # most of its second, and the calls that wait for it, the one-thread
                # ones, lose the check; the check waits for the twin)
                # one thread, chosen or the caller's own count (a program that set it,
                # NUMBA_NUM_THREADS=1): the twin (one_thread.py)
                if self.threads is None and _threads_now() > 1:
                    return self._dispatcher(*args, *extra)
                return self._one_thread(args, extra)
            threads = choice.threads_for_check()
            start = time.perf_counter()
            out = self._dispatcher(*args, *extra) if threads is None \
                else self._one_thread(args, extra)
            now = time.perf_counter()
            choice.record(threads, now - start, now)
            if choice.threads != self.threads:
                self.set_threads(choice.threads)
                log.info("native tier: graph %s runs on %s now (a call took %.3f ms, "
                         "%.3f ms on the count it ran on)", self.name,
                         "one thread" if choice.threads else "all threads",
                         (now - start) * 1e3, choice.last[0] * 1e3)
            return out

    def _in_child(self, twin: bool, sig: tuple) -> None:
        """Numba's compile of the kernel (``twin``: of its one-thread twin) for ``sig``
        in a child process, which fills the disk cache: the compile that follows loads
        it, and the GIL stays free for tier 1's calls meanwhile (child_compile.py;
        ``CompileTimeout`` past ``compile_timeout_s``)."""
        spec = self._child_specs.get(twin)
        src = self.__dynamo_native_source__
        if spec is not None and self.settings.background and \
                self.settings.compile_process and not has_machine_code(
                    twin_source(src) if twin else src, self.settings.cache_dir):
            compile_in_child(*spec, sig, timeout_s=self.settings.compile_timeout_s)

    def _new_layout(self, args) -> None:
        """A call whose inputs' layouts have no compiled kernel: tier 1 answers it, and
        a kernel for them is compiled (in the background) unless one is known to fail."""
        key = self._layout_key(args)
        if key in self._compiled:   # (not expected: Numba refused a compiled layout)
            log.warning("native tier: graph %s: Numba found no kernel for a compiled "
                        "layout %r", self.name, key)
        elif all(type(a) in (np.ndarray, np.random.Generator) or isinstance(a, np.generic)
                 for a in args):
            self._compile(key, args, first=False)
        return None

    def _buffers(self) -> tuple:
        """The large new arrays the kernel takes (``lower.Kernel.buffers``): a new
        one (NumPy's) for each it returns, the intermediates reused from call to call
        (one set per concurrent caller, as ``_spares``)."""
        try:
            spare = self._spare_buffers.pop()
        except IndexError:
            spare = None
        return tuple(np.empty(b.shape, b.dtype) if b.result or spare is None else spare[k]
                     for k, b in enumerate(self.kernel.buffers))

    def _keep_buffers(self, buffers: tuple) -> None:
        """Keep a call's intermediates for the next call (not its results: they are
        the caller's now)."""
        if buffers and not all(b.result for b in self.kernel.buffers):
            self._spare_buffers.append(tuple(
                None if b.result else a for b, a in zip(self.kernel.buffers, buffers)))

    def _trial(self, *args):
        """Alternate tier 2 and tier 1 on the real inputs; keep the faster. A parallel
        kernel runs on Numba's threads and on one thread (``native1``), in turn (its
        calls on all threads stop early when they are hopeless: ``race.next_label``); its
        one-thread calls run its twin (one_thread.py), the kernel one thread would keep,
        compiled before the first of them (``_twin_pending``)."""
        times = self._times
        # the one run least so far; None: complete (another caller is deciding); WAIT:
        # the one-thread twin compiles, and tier 1 answers untimed (race.py)
        label = next_label(times, self.settings.trial_calls,
                           waiting=self._twin_pending()) or "tier1"
        if label == WAIT:
            return self.tier1(*args)
        use_native = label != "tier1"
        self.threads = 1 if label == "native1" else None
        start, start_cpu = time.perf_counter(), time.process_time()
        out = self._try_native(args) if use_native else None
        if out is None:
            if use_native and self._run != self._trial:
                return self._run(*args)
            out = self.tier1(*args)
            use_native = False
        spent = (time.perf_counter() - start, time.process_time() - start_cpu)
        with self._lock:
            times[label if use_native else "tier1"].append(spent)
            n = self.settings.trial_calls
            if self.state == "trial" and next_label(times, n) is None:
                # by both clocks, a parallel kernel on all threads by wall time (race.py)
                self.winner, self.threads = choose(times, parallel="native1" in times)
                won = self.winner == "native"
                if won:
                    self.set_threads(self.threads)   # (one thread: compiles the twin)
                if won and "native1" in times:   # the load changes: check the count again
                    self.thread_choice = ThreadChoice(self.threads, time.perf_counter())
                self.state = self.winner
                self.races += 1
                t1, t2 = best(times["tier1"]), best(times["native1" if self.threads
                                                          else "native"])
                # keep watching tier 2's times (watch.py); a kernel too fast to watch
                # runs unwatched
                self.watch = watch_after_race(min(t1), t2[0], self.watch) if won else None
                self._run = self.tier1 if not won else \
                    self._native if self.watch is None else self._watched
                log.info("native tier: graph %s runs in %s (tier 2 %.3f ms, %.3f ms of CPU%s, "
                         "tier 1 %.3f ms, %.3f ms of CPU, best of %d calls each)", self.name,
                         "tier 2 (Numba)" if won else "tier 1 (numpy backend)",
                         t2[0] * 1e3, t2[1] * 1e3, "" if "native1" not in times else
                         f" on {self._one_thread_name() if self.threads else 'all threads'}; "
                         f"{best(times['native' if self.threads else 'native1'])[0] * 1e3:.3f}"
                         f" ms on {'all threads' if self.threads else self._one_thread_name()}",
                         t1[0] * 1e3, t1[1] * 1e3, n)
                self.decided.set()
            elif self.state == "trial" and len(times["tier1"]) >= 4 * n:
                # tier 2 could not run these inputs (layout, flags): stay in tier 1
                self.winner = self.state = "tier1"
                self._run = self.tier1
                log.info("native tier: graph %s stays in tier 1 (tier 2 could not run "
                         "its inputs)", self.name)
                self.decided.set()
        return out

    def wait(self, timeout: float | None = None) -> bool:
        """Block until tier 2 is compiled (or failed); True unless it timed out."""
        return self.ready.wait(timeout)
