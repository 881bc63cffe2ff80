"""Numba's compile of a kernel in a child process, which writes the machine code into the
disk cache; the tier's thread then loads it from there (milliseconds).

Why: Numba's compiler is mostly Python and holds the GIL for most of a compile, so a
compile in the tier's background thread slows the program's own thread, where tier 1
keeps serving calls. PCG matrix-free Poisson 2-D (a 1225-line kernel, 32 s of CPU to
compile), 300 tier-1 calls at load 8-9 on the shared 2-core container (2026-12-05):
5.3 s of wall time alone, 13.7 s beside the compile in a thread, 8.7 s beside the same
compile in another process (it still takes a core: docs/benchmarks.md). The child gets
the kernel's file (``kernel_files.module_from_file``), its module name, Numba's options
and the signature (Numba's types pickle), and compiles with ``cache=True``.

The child dies with the process (Linux: with the thread that waits for it), so a
program that ends before the compile does leaves nothing running. A child still
compiling after ``timeout_s`` seconds (the option ``compile_timeout_s``, default
``dynamo.config.native_compile_timeout_s``) is killed and reaped (no zombie), and
``CompileTimeout`` tells the tier, which keeps the graph in tier 1 rather than compile
it in its own thread (as long, and holding the GIL). A child that fails
(an error of Numba, a kernel the cache cannot hold, no Python to
start) changes nothing: the thread's own compile that follows compiles, or fails, as
without it; only the time is lost.

Example::

    >>> compile_in_child(path, "_dynamo_native_k_ab12", {"cache": True, ...}, sig)
    True      # Numba's cache beside ``path`` holds the kernel for ``sig`` now
    >>> compile_in_child(path, "_dynamo_native_k_ab12", {...}, sig, timeout_s=0.05)
    CompileTimeout: its compile in a child process ran past compile_timeout_s=0.05 s ...
"""

from __future__ import annotations

import logging
import os
import pickle
import subprocess
import sys

log = logging.getLogger("dynamo.backend")

# The child's program: the payload on its stdin, the kernel's module imported from its
# file under the parent's name (Numba's cache index keys by the file and the function)
# (on Linux the child dies with the thread that started it, so a program that ends
# leaves no compile behind: PR_SET_PDEATHSIG, then whether the parent went before it)
_CHILD = """
import importlib.util, os, pickle, sys
path, name, options, sig, parent = pickle.loads(sys.stdin.buffer.read())
if sys.platform.startswith("linux"):
    import ctypes
    ctypes.CDLL(None, use_errno=True).prctl(1, 9)   # PR_SET_PDEATHSIG, SIGKILL
if os.getppid() != parent:
    sys.exit(1)
import numba
spec = importlib.util.spec_from_file_location(name, path)
module = importlib.util.module_from_spec(spec)
sys.modules[name] = module
spec.loader.exec_module(module)
numba.njit(**options)(module.kernel).compile(sig)
"""


class CompileTimeout(Exception):
    """The child's compile ran past its time limit; the child was killed."""


def compile_in_child(path: str, name: str, options: dict, sig: tuple,
                     timeout_s: float | None = None) -> bool:
    """Compile ``kernel`` of the module file ``path`` for ``sig`` in a new Python
    process with Numba's ``options`` (``cache=True``); True when it exited cleanly.
    The parent's ``sys.path`` is the child's, so the kernel's imports of dynamo's
    helpers resolve as in the parent. ``timeout_s`` (None or 0: no limit): past it the
    child is killed and waited for, and ``CompileTimeout`` raised."""
    try:
        payload = pickle.dumps((path, name, options, sig, os.getpid()))
    except Exception:  # noqa: BLE001 (a type that does not pickle: compile here)
        return False
    paths = [p or os.getcwd() for p in sys.path]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))
    try:
        # (on a timeout, subprocess.run kills the child and waits for it: no zombie)
        done = subprocess.run([sys.executable, "-c", _CHILD], input=payload, env=env,
                              capture_output=True, check=False, timeout=timeout_s or None)
    except subprocess.TimeoutExpired:
        raise CompileTimeout(f"its compile in a child process ran past "
                             f"compile_timeout_s={timeout_s:g} s; the child was killed"
                             ) from None
    except OSError as e:
        log.info("native tier: no child process for the compile (%s)", e)
        return False
    if done.returncode != 0:
        last = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or [""]
        log.info("native tier: the compile's child process failed (%s); compiling "
                 "in this process", last[0][:200])
    return done.returncode == 0
