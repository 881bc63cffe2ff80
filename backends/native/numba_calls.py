"""The tier's calls into Numba itself: a kernel on a count of threads, the calling
thread's count, and one signature's compile with calls never compiling.

``Tiered`` (``tier.py``) races a parallel kernel on Numba's threads against the same
kernel on one thread (``_on_threads``), reads the thread count it would run on
(``_threads_now``), runs parallel kernels one at a time (``_PARALLEL_LOCK``), and
compiles each input layout in the background (``_compile_signature``).

Example::

    >>> import numba
    >>> import numpy as np
    >>> @numba.njit(parallel=True)
    ... def total(a, out):
    ...     out[0] = a.sum()
    >>> out = np.zeros(1)
    >>> _on_threads(1, total, (np.ones(4),), (out,))    # on one thread, just this call
    >>> float(out[0]), _threads_now() == numba.get_num_threads()
    (4.0, True)
"""

from __future__ import annotations

import threading

from .objmode_outline import cached_signatures, outlined_functions

# Numba's default "workqueue" threading layer aborts when two threads launch parallel
# kernels at once: parallel kernels run one at a time.
_PARALLEL_LOCK = threading.Lock()


def _on_threads(n: int, dispatcher, args, savers):
    """``dispatcher(*args, *savers)`` (``savers``: the savers and buffers) with Numba's
    parallel loops on ``n`` threads for this call (``set_num_threads`` is per calling
    thread; the caller's count is put back). On a machine whose cores are busy with
    other work, a parallel kernel's threads wait for each other at every loop's end:
    one thread can be several times faster there, so the trial races both
    (``Tiered._trial``)."""
    import numba  # (imported by the compile already: a dict lookup)
    before = numba.get_num_threads()
    if before == n:   # (the caller's count already: set_num_threads costs about 2 us)
        return dispatcher(*args, *savers)
    numba.set_num_threads(n)
    try:
        return dispatcher(*args, *savers)
    finally:
        numba.set_num_threads(before)


def _threads_now() -> int:
    """The calling thread's count of Numba threads (about 0.7 us)."""
    import numba  # (imported by the compile already: a dict lookup)
    return numba.get_num_threads()


def _compile_signature(numba, dispatcher, sig: tuple) -> int:
    """Compile ``dispatcher`` for ``sig`` and the object-mode blocks it left uncompiled
    (``compile_object_mode_blocks``; returns their count); calls never compile (a call
    whose types have no kernel raises TypeError at once, and ``Tiered`` compiles one in
    the background).
    Under Numba's compiler lock, so that concurrent compiles of other layouts do not
    disable compiling while one of them is about to start. (A call with yet another
    layout during this compile waits for the lock and then gets Numba's RuntimeError
    "compilation disabled": ``_try_native`` logs it and tier 1 answers; rare, and
    correct.)"""
    from numba.core.compiler_lock import global_compiler_lock
    with global_compiler_lock:
        dispatcher.disable_compile(False)
        try:
            dispatcher.compile(sig)
        finally:
            if dispatcher.signatures:
                dispatcher.disable_compile(True)
        return compile_object_mode_blocks(dispatcher, sig)


def compile_object_mode_blocks(dispatcher, sig: tuple) -> int:
    """Compile the ``with objmode(...)`` blocks (calls.py) of ``dispatcher``'s kernel for
    ``sig`` that have no code yet; returns how many it compiled.

    Why: Numba lifts each block into a function of its own, compiled when the kernel is
    typed. A kernel *loaded from the disk cache* (the child process compiled it:
    child_compile.py) comes back with those functions uncompiled, and the kernel
    compiles each at its first run of the block, in the caller's thread: round 40's
    ``i8_scalar_div`` (21 blocks) took 2.1 s of CPU, 3.3 s of wall time, in its first
    tier-2 call at load 3-5 (16 s at load 12), cold or warm cache (2026-12-06). Compiled
    here, in the tier's thread before the swap, the first call finds them compiled (it
    still unpickles each block's function once, about 10 ms a block: Numba's own code).

    Example::

        >>> _compile_signature(numba, dispatcher, sig)   # loaded from the disk cache
        21                                               # object-mode blocks compiled
    """
    results = [dispatcher.overloads.get(tuple(sig))]
    # the blocks moved into functions of their own (objmode_outline.py): a kernel
    # loaded from the cache leaves them uncompiled; each loads from the cache too
    for helper in outlined_functions(dispatcher):
        if not helper.overloads:
            for helper_sig in cached_signatures(helper):
                helper.compile(helper_sig)
        results.extend(helper.overloads.values())
    return sum(_compile_blocks(result) for result in results)


def _compile_blocks(result) -> int:
    """Compile the object-mode blocks of one compile ``result`` that have no code yet."""
    from numba.core import types
    from numba.core.dispatcher import ObjModeLiftedWith
    done = 0
    for block in getattr(result, "lifted", ()) or ():
        if isinstance(block, ObjModeLiftedWith) and not block.overloads:
            # (object mode: every argument is a Python object, whatever ``sig`` says)
            block.compile((types.ffi_forced_object,) * block.func_ir.arg_count)
            done += 1
    return done
