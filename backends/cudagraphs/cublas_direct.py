"""cuBLAS's GEMM entry points through ctypes, for calls made while a stream records.

CuPy's bindings (``cupy_backends.cuda.libs.cublas.gemmEx`` and the rest) first set the
handle's stream to CuPy's current stream, and that ``setStream`` raises while the stream
records ("calling cuBLAS API during stream capture is currently unsupported"). The C
functions themselves record fine, so :class:`CublasDirect` calls them from the
libcublas CuPy already loaded, with CuPy's argument order, and leaves the handle's
stream as :meth:`~.blas.Blas.bind` set it before recording.

Example::

    >>> direct = CublasDirect()             # after CuPy created a cuBLAS handle
    >>> direct.gemmEx(handle, 0, 0, n, m, k, one, b_ptr, 0, n, a_ptr, 0, k,
    ...               zero, c_ptr, 0, n, CublasDirect.CUBLAS_COMPUTE_32F, -1)
"""

from __future__ import annotations

import ctypes
import logging
import os

log = logging.getLogger("dynamo.cudagraphs")


class GemmUnsupported(NotImplementedError):
    """No capture-safe path for these operands (the graph then runs uncaptured)."""


class CublasStatusError(RuntimeError):
    pass


class CublasDirect:
    """``cublasGemmEx``, ``cublasGemmStridedBatchedEx`` and ``cublasSetWorkspace_v2`` of
    the libcublas CuPy loaded, called through ctypes with CuPy's argument order.

    Unlike CuPy's bindings they do not re-set the handle's stream to the current one,
    so they record into a capture. Prototypes: cublas_api.h (CUDA 12 and 13); the
    tests compile them against the header when it is installed.
    """

    CUBLAS_COMPUTE_32F, CUBLAS_COMPUTE_32F_PEDANTIC, CUBLAS_COMPUTE_32F_FAST_TF32 = 68, 69, 77
    CUBLAS_COMPUTE_64F, CUBLAS_COMPUTE_64F_PEDANTIC = 70, 71
    CUBLAS_GEMM_DEFAULT, CUBLAS_GEMM_DEFAULT_TENSOR_OP = -1, 99

    GEMM_EX = ("handle", "op", "op", "int", "int", "int", "ptr", "ptr", "dtype", "int", "ptr",
               "dtype", "int", "ptr", "ptr", "dtype", "int", "compute", "algo")
    GEMM_STRIDED_BATCHED_EX = ("handle", "op", "op", "int", "int", "int", "ptr", "ptr",
                               "dtype", "int", "int64", "ptr", "dtype", "int", "int64",
                               "ptr", "ptr", "dtype", "int", "int64", "int", "compute",
                               "algo")
    SET_WORKSPACE = ("handle", "ptr", "size")
    CTYPES = {"handle": ctypes.c_void_p, "ptr": ctypes.c_void_p, "op": ctypes.c_int,
              "int": ctypes.c_int, "dtype": ctypes.c_int, "compute": ctypes.c_int,
              "algo": ctypes.c_int, "int64": ctypes.c_longlong, "size": ctypes.c_size_t}

    def __init__(self, lib=None):
        lib = lib if lib is not None else _load_cublas()
        self._gemm = self._function(lib, "cublasGemmEx", self.GEMM_EX)
        self._batched = self._function(lib, "cublasGemmStridedBatchedEx",
                                       self.GEMM_STRIDED_BATCHED_EX)
        try:
            self._workspace = self._function(lib, "cublasSetWorkspace_v2", self.SET_WORKSPACE)
        except AttributeError:
            self._workspace = None     # cuBLAS >= 12.2 then takes workspace from the pool

    @classmethod
    def _function(cls, lib, name: str, kinds: tuple):
        fn = getattr(lib, name)
        fn.argtypes = [cls.CTYPES[k] for k in kinds]
        fn.restype = ctypes.c_int
        return fn

    def gemmEx(self, *args) -> None:
        _check(self._gemm(*args), "cublasGemmEx")

    def gemmStridedBatchedEx(self, *args) -> None:
        _check(self._batched(*args), "cublasGemmStridedBatchedEx")

    def setWorkspace(self, handle: int, ptr: int, size: int) -> None:
        if self._workspace is None:
            log.debug("cublasSetWorkspace_v2 not found: recorded GEMMs use cuBLAS's own "
                      "workspace")
            return
        _check(self._workspace(handle, ptr, size), "cublasSetWorkspace_v2")


def _check(status: int, what: str) -> None:
    if status != 0:
        raise CublasStatusError(f"{what} returned cuBLAS status {status}")


def _load_cublas():
    """The libcublas already loaded in this process (by CuPy), through ctypes."""
    for path in _loaded_libraries("libcublas.so"):
        try:
            return ctypes.CDLL(path)
        except OSError:
            continue
    raise GemmUnsupported("libcublas is not loaded in this process (CuPy loads it when "
                          "it creates a cuBLAS handle)")


def _loaded_libraries(name: str) -> list[str]:
    """Paths of loaded shared libraries whose file name starts with ``name``."""
    found: list[str] = []
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                path = line.split()[-1] if "/" in line else ""
                if os.path.basename(path).startswith(name) and path not in found:
                    found.append(path)
    except OSError:
        pass
    return found
