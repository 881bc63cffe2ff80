"""Compile generated CUDA for sm_90 without a GPU: NVRTC when CuPy has it, else ``nvcc``.

The CPU test suite calls ``check_compiles(sources)`` on every module it generates.
NVRTC (``cupy.cuda.nvrtc``, the compiler CuPy uses on the GPU machine; needs CuPy
and the ``nvidia-cuda-nvrtc`` wheel, no device) takes about 0.1 s a module. ``nvcc
-ptx -arch=sm_90`` takes about 0.7 s an invocation, so sources are batched into one
translation unit per CPU core (compiled in parallel), each source in its own
namespace (``extern "C"`` dropped so that equal kernel names do not clash); a
failing batch is retried one source at a time to name the culprit. Results are
cached by source hash for the process; ``check_kernels`` also skips kernels (named
by the hash of their code) that compiled before.

Example::

    >>> compiler()
    'nvcc'
    >>> check_compiles([module_source(codes)])     # raises CompileError with the log
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor

from .codegen import COMPILE_OPTIONS, module_source

ARCH = "sm_90"
_passed: set[str] = set()


class CompileError(Exception):
    """A generated source does not compile; the message holds the log and the source."""


def _nvrtc():
    try:
        from cupy.cuda import nvrtc
        nvrtc.getVersion()
        return nvrtc
    except Exception:  # noqa: BLE001 (no CuPy, or no NVRTC library)
        return None


def compiler() -> str | None:
    """``"nvrtc"``, ``"nvcc"``, or None when neither is on this machine."""
    if os.environ.get("DYNAMO_CUDA_COMPILER") in ("nvrtc", "nvcc"):
        return os.environ["DYNAMO_CUDA_COMPILER"]
    if _nvrtc() is not None:
        return "nvrtc"
    return "nvcc" if shutil.which("nvcc") else None


def _key(src: str) -> str:
    return hashlib.sha1(src.encode()).hexdigest()


def _with_nvrtc(src: str) -> str | None:
    nvrtc = _nvrtc()
    prog = nvrtc.createProgram(src, "dynamo.cu", [], [])
    try:
        nvrtc.compileProgram(prog, [f"-arch=compute_{ARCH[3:]}", *COMPILE_OPTIONS])
        return None
    except Exception:  # noqa: BLE001 (NVRTCError carries no log; read it)
        return nvrtc.getProgramLog(prog)
    finally:
        nvrtc.destroyProgram(prog)


def _with_nvcc(src: str) -> str | None:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "dynamo.cu")
        with open(path, "w") as f:
            f.write(src)
        r = subprocess.run(["nvcc", "-ptx", f"-arch={ARCH}", "-std=c++17", path, "-o",
                            os.path.join(tmp, "dynamo.ptx")], capture_output=True, text=True)
        return None if r.returncode == 0 else r.stdout + r.stderr


def _batch(sources: list[str]) -> str:
    c_linkage = 'extern "C" '
    parts = [f"namespace dyn_module_{i} {{\n" + s.replace(c_linkage, "") + "\n}"
             for i, s in enumerate(sources)]
    return "\n".join(parts)


def check_compiles(sources: list[str]) -> None:
    """Raise ``CompileError`` unless every source compiles for sm_90."""
    todo = list(dict.fromkeys(s for s in sources if _key(s) not in _passed))
    if not todo:
        return
    which = compiler()
    if which is None:
        raise CompileError("neither NVRTC (CuPy + nvidia-cuda-nvrtc) nor nvcc is available")
    if which == "nvrtc":
        for src in todo:
            log = _with_nvrtc(src)
            if log is not None:
                raise CompileError(f"NVRTC failed:\n{log}\n--- source ---\n{src}")
            _passed.add(_key(src))
        return
    workers = max(1, min(len(todo), os.cpu_count() or 1))
    groups = [todo[i::workers] for i in range(workers)]
    with ThreadPoolExecutor(workers) as pool:       # nvcc runs as processes: in parallel
        logs = list(pool.map(lambda g: _with_nvcc(_batch(g)), groups))
    for group, log in zip(groups, logs):
        if log is None:
            _passed.update(_key(s) for s in group)
            continue
        for src in group:
            log = _with_nvcc(src)
            if log is not None:
                raise CompileError(f"nvcc failed:\n{log}\n--- source ---\n{src}")
            _passed.add(_key(src))


_passed_kernels: set[str] = set()


def check_kernels(codes) -> None:
    """Compile every distinct kernel of ``codes`` (KernelCode) not compiled before."""
    todo = list({c.name: c for c in codes if c.name not in _passed_kernels}.values())
    if not todo:
        return
    chunks = max(1, min(len(todo) // 8, 2 * (os.cpu_count() or 1)))
    check_compiles([module_source(todo[i::chunks]) for i in range(chunks)])
    _passed_kernels.update(c.name for c in todo)
