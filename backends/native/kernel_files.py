"""The kernel's module as a file (the disk cache): its source with the constants written
out, kept under a name made from its hash, so that Numba's ``cache=True`` (which keys
its own cache by the file) finds the compiled kernel again in a new process.

Example::

    >>> src = module_source(kernel)          # whole: no scope needed to run it
    >>> _module_from_file(src, cache_dir_default()).kernel   # k_<hash>.py, imported
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import threading

import numpy as np

from .lower import Kernel


def module_source(kernel: Kernel) -> str:
    """The kernel's module, constants written out (so a cached file is whole)."""
    lines = []
    for name, value in kernel.consts.items():
        dt = np.dtype(type(value))
        if dt.kind == "c":
            text = f"complex({_float(value.real)}, {_float(value.imag)})"
        elif dt.kind == "f":
            text = _float(value)
        elif dt.kind == "b":
            text = repr(bool(value))
        else:
            text = repr(int(value))
        lines.append(f"{name} = np.{dt.name}({text})")
    head, _, body = kernel.source.partition("\n\ndef kernel(")
    return head + "\n" + "\n".join(lines) + "\n\n\ndef kernel(" + body


def _float(v) -> str:
    v = float(v)
    return repr(v) if np.isfinite(v) else f"float({str(v)!r})"




def cache_dir_default() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "dynamo", "native")


def cache_path(source: str, directory: str) -> str:
    return os.path.join(directory, f"k_{hashlib.sha256(source.encode()).hexdigest()[:24]}.py")


def has_machine_code(source: str, directory: str) -> bool:
    """Whether Numba's cache beside the kernel's file holds machine code for it, for
    this Python (its index, ``__pycache__/k_<hash>.kernel-<line>.py311.nbi``): a load
    then costs Numba's setup and a few ms, not a compile. (For some input types: the
    index is not read; a miss for these types compiles, in the background.)"""
    stem = os.path.basename(cache_path(source, directory))[:-3]
    tag = f"py{sys.version_info.major}{sys.version_info.minor}"
    try:
        names = os.listdir(os.path.join(directory, "__pycache__"))
    except OSError:
        return False
    return any(n.startswith(f"{stem}.kernel-") and n.endswith(f".{tag}.nbi") for n in names)


def module_from_file(source: str, directory: str):
    """Import ``source`` from a file named by its hash: Numba's ``cache=True`` keys its
    on-disk cache by the file, so the same graph in a new process finds its kernel."""
    path = cache_path(source, directory)
    digest = os.path.basename(path)[2:-3]
    os.makedirs(directory, exist_ok=True)
    if not os.path.exists(path):
        tmp = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"
        with open(tmp, "w") as f:
            f.write(source)
        os.replace(tmp, path)   # atomic: a concurrent process reads a whole file
    name = f"_dynamo_native_k_{digest}"
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[name] = module
    return module
