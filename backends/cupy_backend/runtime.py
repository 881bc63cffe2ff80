"""The CuPy device: compiled modules, cached in memory by source, and the launch callables.

``KernelCache`` keeps one ``cupy.RawModule`` per distinct module source and option
set, so a graph that compiles again (a new guard entry, ``dynamo.reset()``) reuses
the loaded kernels; below it, CuPy's own disk cache (``~/.cupy/kernel_cache``, or
``CUPY_CACHE_DIR``) makes a second process skip NVRTC. Modules are compiled when
the graph is compiled, not at its first launch, so compile errors and compile time
show up in ``dynamo.compile``'s first call, not later.

Example::

    >>> device = cupy_device(codes, module_source(codes))
    >>> device.kernels["k_3f9a1c0b2d4e_v"]
    <cupy._core.raw.RawKernel object at ...>
"""

from __future__ import annotations

import logging
import threading

from dynamo.ops import impl_table

from .codegen import COMPILE_OPTIONS
from .host import Device

log = logging.getLogger("dynamo.backend")


class KernelCache:
    """Loaded CUDA modules by (source, options). ``clear()`` drops them."""

    def __init__(self) -> None:
        self._modules: dict[tuple, object] = {}
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def module(self, source: str, options: tuple = COMPILE_OPTIONS):
        import cupy
        key = (source, options)
        with self._lock:
            mod = self._modules.get(key)
            if mod is not None:
                self.hits += 1
                return mod
            self.misses += 1
        mod = cupy.RawModule(code=source, options=options)
        with self._lock:
            self._modules.setdefault(key, mod)
        return mod

    def clear(self) -> None:
        with self._lock:
            self._modules.clear()

    def __len__(self) -> int:
        return len(self._modules)


kernel_cache = KernelCache()


def _ptr(a) -> int:
    return a.data.ptr


def _mismatch(name: str) -> None:
    log.debug("kernel %s: an input's layout differs from the plan; ran its ops as CuPy "
              "calls", name)


def cupy_device(codes, source: str) -> Device:
    """A Device launching the compiled kernels on CuPy's current stream."""
    import cupy
    kernels = {}
    if codes:
        mod = kernel_cache.module(source)
        for c in codes:
            for launch in c.launches.values():
                kernels[launch.name] = mod.get_function(launch.name)  # compiles now
    return Device(ops=impl_table("cupy"), empty=cupy.empty, ptr=_ptr, kernels=kernels,
                  mismatch=_mismatch)
