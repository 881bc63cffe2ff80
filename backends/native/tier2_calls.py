"""A call in tier 2: the kernel on the real inputs, or None where this call must run in
tier 1 (NumPy's error state not the default, an input layout with no kernel yet, inputs
the kernel writes that overlap, a NaN or infinity NumPy would report: the writes undone
from the kernel's backups, saves.py, and the random states its draws consumed put
back, draws.py). A mixin of ``tier.Tiered``, whose state it reads.

Example::

    >>> tiered._try_native((x, y))      # tier 2's result, or None: tier 1 answers
    >>> tiered._native(x, y)            # tier 2's result, or tier 1's where it must
"""

from __future__ import annotations

import logging
import time

import numpy as np

from dynamo import tier_reports

from ..numpy_backend.kept_buffers import release_kept
from .buffer_slots import slot_views
from .call_helpers import c_ordered
from .draws import restore_states, save_states
from .error_state import default_errstate, rerun_completes
from .nopython_draws import locked
from .numba_calls import _PARALLEL_LOCK, _threads_now
from .saves import mark_saved, restore

log = logging.getLogger("dynamo.backend")


class Tier2Calls:
    """The tier-2 calls of a ``Tiered`` graph (its ``kernel``, ``_dispatcher``,
    ``_spares``... are ``Tiered``'s)."""

    def _native(self, *args):
        out = self._try_native(args)
        return self.tier1(*args) if out is None else out

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
            if key in self._compiling:   # (tier 2 comes: the entry trial waits for it)
                tier_reports.busy()
        return None

    def release_tier1(self) -> None:
        """Tier 2 answers this graph's calls from now on: tier 1's buffers kept between
        calls go (numpy_backend/kept_buffers.py); a call tier 1 still answers (a
        fallback, a new race) makes new ones."""
        freed = release_kept(self.tier1)
        if freed:
            log.debug("native tier: graph %s: tier 1's kept buffers released (%d KiB)",
                      self.name, freed >> 10)

    def _buffers(self) -> tuple:
        """The large new arrays the kernel takes (``lower.Kernel.buffers``): a new
        one (NumPy's) for each it returns, the intermediates reused from call to call
        (one set per concurrent caller, as ``_spares``), those never alive at once
        views of one slot's memory (buffer_slots.py)."""
        try:
            spare = self._spare_buffers.pop()
        except IndexError:
            spare = slot_views(self.kernel.buffers)
        return tuple(np.empty(b.shape, b.dtype) if b.result else spare[k]
                     for k, b in enumerate(self.kernel.buffers))

    def _keep_buffers(self, buffers: tuple) -> None:
        """Keep a call's intermediates for the next call (not its results: they are
        the caller's now)."""
        if buffers and not all(b.result for b in self.kernel.buffers):
            self._spare_buffers.append(tuple(
                None if b.result else a for b, a in zip(self.kernel.buffers, buffers)))
