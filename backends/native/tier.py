"""Tiering: tier 1 serves until the graph is hot, Numba compiles tier 2 in the background,
the first calls of tier 2 race tier 1, the faster stays; tier 2 slower than its race
said (watch.py) races them again (native -> trial). The calls into Numba itself (a
kernel on a count of threads, one signature's compile) are in numba_calls.py; a call
in tier 2 in tier2_calls.py; the trial (the race of the tiers, raced again when the
watch says) in trial_calls.py.

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

from dynamo import tier_reports
from dynamo.source import compile_source

from .call_helpers import call_helpers, fast_native, written_check
from .child_compile import CompileTimeout, compile_in_child
from .kernel_files import cache_path, has_machine_code, module_from_file, module_source
from .lower import Kernel
from .nopython_draws import draws_match
from .numba_calls import _compile_signature
from .one_thread import OneThreadCalls, Twin, twin_source
from .saves import new_savers
from .threads import ThreadChoice
from .tier2_calls import Tier2Calls
from .trial_calls import TrialCalls
from .watch import Watch

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

class Tiered(TrialCalls, Tier2Calls, OneThreadCalls):
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
        # object-mode blocks of a kernel loaded from the disk cache that the compile
        # thread compiled before the swap (numba_calls.compile_object_mode_blocks)
        self.object_mode_blocks = 0
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
            # (the entry trial waits while its calls run unsettled graphs: tier_reports)
            (tier_reports.counting if self.state == "counting" else tier_reports.busy)()
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
            # (object-mode blocks compiled here, not in a caller's first run of them)
            blocks = _compile_signature(numba, self._dispatcher, sig)
            self.object_mode_blocks += blocks
            with self._lock:
                self._compiled.add(key)
                self._compiling.discard(key)
            NUMBA_SET_UP.set()
            stats = getattr(self._dispatcher, "stats", None)   # (with cache=True)
            hit = stats is not None and stats.cache_hits.get(sig, 0) > 0
            log.info("native tier: graph %s %s in %.0f ms%s%s", self.name,
                     "loaded from the disk cache" if hit else "compiled by Numba",
                     (time.perf_counter() - start) * 1e3,
                     f" ({blocks} object-mode blocks compiled before the swap)"
                     if blocks else "", "" if first else " (a new input layout)")
            if first:
                self._twin_with_kernel()   # (with the disk cache: one_thread.py)
                self._times = self._new_times()
                self.state = "trial" if self.settings.prefer == "measure" else "native"
                self._run = self._trial if self.settings.prefer == "measure" \
                    else self._native
                if self.settings.prefer != "measure":
                    self.winner = "native"
                    self.release_tier1()
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

    # ----------------------------------------------------------------- waiting
    # (a call in tier 2: tier2_calls.py; the race of the tiers: trial_calls.py)
    def wait(self, timeout: float | None = None) -> bool:
        """Block until tier 2 is compiled (or failed); True unless it timed out."""
        return self.ready.wait(timeout)
